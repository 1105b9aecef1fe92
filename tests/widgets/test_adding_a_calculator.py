"""``docs/adding-a-calculator.md`` is followed to the letter: its code makes a working calculator.

The guide's two code blocks (a rule module and a calculator module, each
opening with a comment naming its file) are loaded as those modules, for this
test only; the calculator they declare must then build a form, compute with
its defaults, refuse a bad value with the field's message, and run its example.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from ruleslab import InputError
from ruleslab.declare import Calculator
from ruleslab_widgets import CalculatorView

GUIDE = Path(__file__).parents[2] / "docs" / "adding-a-calculator.md"


def _blocks() -> dict[str, str]:
    """The guide's Python blocks, by the module their first line names."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    out = {}
    for block in blocks:
        first = block.splitlines()[0]
        assert first.startswith("# engine/"), first
        path = first.removeprefix("# engine/").removesuffix(".py")
        out[path.replace("/", ".")] = block
    return out


@pytest.fixture
def guide_modules(monkeypatch):
    """Load the guide's modules under the names it gives them (removed after the test)."""
    loaded = {}
    for name, code in _blocks().items():
        module = types.ModuleType(name)
        module.__file__ = f"<{GUIDE.name}: {name}>"
        monkeypatch.setitem(sys.modules, name, module)
        exec(compile(code, module.__file__, "exec"), module.__dict__)
        loaded[name] = module
    return loaded


def test_the_guide_has_a_rule_and_a_calculator():
    assert list(_blocks()) == ["ruleslab.quickref.actions", "ruleslab.calculators.multiple_actions"]


def test_following_the_guide_gives_a_working_calculator(guide_modules):
    module = guide_modules["ruleslab.calculators.multiple_actions"]
    calc = module.CALCULATOR
    assert isinstance(calc, Calculator)
    # the defaults come from the signature
    assert calc.defaults() == {"difficulty": 2, "actions": 2}
    view = CalculatorView(calc)
    assert view.result.difficulties == (2, 3)  # second action: +1 (by hand)
    view.set_input("actions", "4")
    assert view.result.difficulties == (2, 3, 4, 5)
    assert "Action 4: difficulty 2 + 3 = 5" in view.working.value
    view.set_input("actions", "11")
    assert "Actions must be a whole number from 1 to 10." in view.messages["actions"].value
    assert view.result.difficulties == (2, 3, 4, 5)  # the last good result stays
    with pytest.raises(InputError, match="Difficulty must be"):
        module.multiple_actions(difficulty=0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(calc.example, "<example>", "exec"), {})
    assert "Action 3: difficulty 3 + 2 = 5" in out.getvalue()
