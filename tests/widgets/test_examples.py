"""Every calculator's ``example`` (the "Tinker" cell its notebook publishes) runs and prints.

The snippets are the engine as plain Python for GMs who go beyond the form; a
notebook that fails on Run All is the first thing a tinkering GM would see.
"""

from __future__ import annotations

import contextlib
import io

import pytest

pytest.importorskip("ipywidgets")

from ruleslab.calculators import CALCULATORS


def test_every_calculator_publishes_an_example():
    assert [c.key for c in CALCULATORS if not c.example] == []


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS if c.example])
def test_the_example_runs_and_prints(key):
    calc = next(c for c in CALCULATORS if c.key == key)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(calc.example, f"<{key} example>", "exec"), {"__name__": "__example__"})
    printed = out.getvalue().strip()
    assert printed, f"{key}: the example printed nothing"
    assert "Traceback" not in printed, printed
    assert "Error" not in printed, printed


def test_the_declaration_example_in_declare_builds_a_calculator():
    """The example in ``ruleslab.declare``'s docstring is real code."""
    import textwrap

    from ruleslab import declare

    block = (declare.__doc__ or "").split("::\n\n", 1)[1].split("\n\n(", 1)[0]
    code = textwrap.dedent(block).replace("\nCalculator(", "\ncalc = Calculator(", 1)
    namespace: dict[str, object] = {}
    exec(compile(code, "<declare example>", "exec"), namespace)
    calc = namespace["calc"]
    assert isinstance(calc, declare.Calculator)
    assert calc.key == "dice_pool"
    assert [p.name for p in calc.params][:2] == ["dice", "auto_successes"]
    assert calc.run(calc.defaults()).figure("p_success").text
