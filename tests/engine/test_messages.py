"""Every message a calculator shows names a field of its form and a range that field accepts.

The form shows an :class:`~ruleslab.params.InputError` next to the field it
names; a field the calculator does not have has no place on the page, and a
range the field does not accept (or one that contains the very value typed)
tells the GM nothing he can act on (issue 11, defect 5: the henchmen
calculator's 501 incoming damage dice were refused under a field ``dice`` the
form does not have; warfare's 1,000 henchmen with an all-henchmen commander
were refused with "must be a whole number from 0 to 1,000", under a field
whose range starts at 1).

The inputs are every input set the golden files (``tests/golden/data``) store as
refused: values within each field's declared range (plus the hand-written bad
texts of text fields), typed as the form types them. Each set is parsed and
computed again with today's code, as the form does it (each field's
``Param.parse``, then ``Calculator.run``), and every message it gives is
checked:

* its field is one of the calculator's parameters;
* a range it states ("from A to B") for a number field lies within that
  field's declared range, and does not contain the value typed there.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest

from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator
from ruleslab.params import InputError, IntParam, NumberParam

pytestmark = pytest.mark.skipif(
    sys.platform == "emscripten",
    reason="reads the golden files from the source tree, which Pyodide's copy of the tests lacks",
)

_NUMBER = r"[−-]?\d[\d,]*(?:\.\d+)?"
RANGE = re.compile(rf"from ({_NUMBER}) to ({_NUMBER})")
"""A range a message states: "from 0 to 1,000", "from −10 to 20"."""


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def stated_ranges(message: str) -> list[tuple[float, float]]:
    """The ranges ``message`` states, as numbers."""
    return [(_number(lo), _number(hi)) for lo, hi in RANGE.findall(message)]


def test_stated_ranges_are_read():
    assert stated_ranges("Henchmen must be a whole number from 0 to 1,000.") == [(0, 1000)]
    assert stated_ranges("from −10 to 20, or from 1.5 to 2") == [(-10, 20), (1.5, 2)]
    assert stated_ranges("from 0 to the Wound Limit (3)") == []


def refused_sets(key: str) -> list[tuple[str, dict[str, Any]]]:
    """``(case name, every field as typed)`` of each input set ``key``'s golden file refuses."""
    from tests.golden.generate import read_stored  # not in Pyodide's copy of the tests

    stored = read_stored(key)
    calc = get(key)
    base = {**calc.defaults(), **stored["defaults"]}
    return [
        (case["name"], {**base, **case["inputs"]})
        for case in stored["cases"]
        if "errors" in case["outcome"]
    ]


def messages(calc: Calculator, given: dict[str, Any]) -> dict[str, str]:
    """The messages the form shows for ``given``, by field: each field's own, else the rules'."""
    from tests.golden.generate import parse_inputs  # not in Pyodide's copy of the tests

    parsed, refused = parse_inputs(calc, given)
    errors = {exc.field: exc.message for exc in refused.values()}
    if not errors:
        try:
            calc.run(parsed)
        except InputError as exc:
            errors[exc.field] = exc.message
    return errors


def wrong_messages(calc: Calculator, given: dict[str, Any]) -> list[str]:
    """What is wrong with each message ``given`` gets (empty when every one is right)."""
    by_name = {p.name: p for p in calc.params}
    wrong = []
    for field, message in messages(calc, given).items():
        p = by_name.get(field)
        if p is None:
            wrong.append(f"{field!r} is not a field of {calc.key}: {message!r}")
            continue
        if not isinstance(p, IntParam | NumberParam):
            continue
        typed = p.parse(given[field])
        for lo, hi in stated_ranges(message):
            if lo < p.minimum or hi > p.maximum:
                wrong.append(
                    f"{field}: {message!r} states {lo:g} to {hi:g}, but the field accepts "
                    f"{p.describe_range()}"
                )
            if lo <= typed <= hi:
                wrong.append(f"{field}: {message!r} refuses {typed}, which its range contains")
    return wrong


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_every_message_names_a_field_and_a_range_it_accepts(key):
    calc = get(key)
    found = []
    for name, given in refused_sets(key):
        found += [f"[{name}] {w}" for w in wrong_messages(calc, given)]
    assert not found, f"{key}: {len(found)} wrong messages:\n" + "\n".join(found[:10])


def test_the_inputs_of_defect_5():
    # Typed into the forms: 501 incoming damage dice (refused at the field the GM typed
    # them in); 1,000 henchmen and an all-henchmen commander (within every declared range).
    henchmen = get("henchmen")
    warfare = get("warfare")
    dice = {**henchmen.defaults(), "attack_damage": "501"}
    squad = {
        **warfare.defaults(),
        "target": "squad",
        "henchmen": "1000",
        "leader_is_henchman": True,
    }
    assert wrong_messages(henchmen, dice) == []
    assert wrong_messages(warfare, squad) == []
    assert "attack_damage" in messages(henchmen, dice)
