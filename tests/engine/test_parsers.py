"""Every text parser of the engine runs in time linear in its input (issue 11).

A backtracking regular expression with nested quantifiers takes exponential time
on text that almost matches: a compressed-combat line ``"X: Dex 3, track " +
"a 1 " * 30 + "!"`` froze the page for minutes. The parsers now scan their text
once; each field's parser is fed its longest allowed pathological inputs (the
field's ``max_length``) and must answer, a value or the field's message, in well
under a second (a generous guard, not a benchmark). A doubling test checks that
twice the text costs about twice the time, not four times or more.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from ruleslab.alterations.compressed.combatants import parse_combatants
from ruleslab.alterations.compressed.quantum_costs import parse_powers
from ruleslab.calculators import CALCULATORS
from ruleslab.chimera.dice import parse_dice
from ruleslab.params import InputError, TextParam
from ruleslab.quickref import weapons
from ruleslab.quickref.weapons import parse_tags

GUARD = 1.0
"""Seconds any parser may take on any input its field accepts (it takes milliseconds)."""

FIELDS = {(c.key, p.name): p for c in CALCULATORS for p in c.params if isinstance(p, TextParam)}
"""Every text field of every calculator: the form's parser and its length limit."""


def _fill(head: str, unit: str, tail: str, length: int) -> str:
    """``head + unit * k + tail`` with ``k`` as large as ``length`` allows."""
    k = max(0, (length - len(head) - len(tail)) // len(unit))
    return head + unit * k + tail


def _spread(parts: tuple[str, ...], tail: str, length: int) -> str:
    """``parts[0] + " " * k + parts[1] + " " * k + … + tail``, ``length`` long at most."""
    k = max(0, (length - len("".join(parts)) - len(tail)) // len(parts))
    return "".join(part + " " * k for part in parts) + tail


def _combatants(n: int) -> list[str]:
    """Lines that almost match the combatant format, ``n`` characters at most."""
    return [
        _fill("X: Dex 3, track ", "a 1 ", "!", n),  # the issue's freeze
        _fill("X: Dex 3, track ", "str 1 ", "!", n),
        _fill("X: Dex 3, track ", "will 1 res ", "!", n),  # the 2.1 track's names (issue 10)
        _fill("X: Dex 3, track ", "a ", "1!", n),
        _fill("X: Dex 3, track ", "a1", "!", n),
        _fill("X: Dex 3, track s", " ", "1 1", n),
        _fill("X: ", "a ", "x", n),
        _fill("X: ", "a ", "1x", n),
        _fill("X: a", "1", "x", n),  # a long number, then a wrong type letter
        _fill("X: 1 ", "a", "1", n),
        _fill("X: 1", " ", "l x1", n),
        _fill("X: dex", " ", ": = 1x", n),
        _fill("X: ", "a 1, ", "", n),
        _fill("X: ", " + ", "Dex 1", n),
        _fill("", "a:", "", n),
        _fill("", "Dex 1\n", "", n),
        _fill("", "#\n", "Dex 1", n),
        _fill("", "\n", "x", n),
        _fill("X: Dex 3, formula", " ", "x", n),
    ]


def _powers(n: int) -> list[str]:
    """Lines that almost match the ``[Who:] Power, cost, type`` format."""
    return [
        _fill("", "Flight, 1, maint\n", "", n),  # more than the 20 powers allowed
        _fill("Flight, ", "1", ", instant", n),
        _fill("Flight, ", "²", ", instant", n),
        _fill("", "a:", "", n),
        _fill("", ",", "", n),
        _fill("", "a", ", 1, instant", n),
        _fill("Nova: Bolt, 1, ", "i", "", n),
        _fill("", "\n", "x", n),
    ]


def _tags(n: int) -> list[str]:
    """Tag text that almost matches ``AP(2), Burst(3), Guided``."""
    return [
        _spread(("a", "("), "x", n),
        _spread(("a", "(", "["), "x", n),
        _spread(("a", "(", "1", "[", "1"), "x", n),
        _spread(("Devastating", "(", "5", "[", "2", "]"), "x", n),
        _spread(("AP", "("), "2)x", n),
        _fill("a", " ", "1x", n),
        _fill("a", " -", "x", n),
        _fill("", "a ", "(1)x", n),
        _fill("", "a(", "", n),
        _fill("", "AP(1)", "", n),
        _fill("AP(", "1", ")", n),
        _fill("", ",", "", n),
    ]


def _dice(n: int) -> list[str]:
    """Text that almost matches a dice expression such as ``2d6+1``."""
    return [
        _spread(("", "d"), "x", n),
        _spread(("", "1", "d"), "x", n),
        _spread(("d1", "+"), "x", n),
        _spread(("1", "d", "6", "+", "1"), "x", n),
        _fill("", "1", "x", n),
        _fill("d", "1", "x", n),
        _fill("", "d", "", n),
        _fill("", " ", "", n),
    ]


PATHOLOGICAL: dict[str, Callable[[int], list[str]]] = {
    "combatants": _combatants,
    "powers": _powers,
    "intent": lambda n: [_fill("", " a", "", n), _fill("", "\n", "", n)],
    "tags": _tags,
    "damage": _dice,
}
"""Pathological inputs of each kind of field, by the field name's last word."""


def _limit(param: TextParam) -> int:
    """The longest text the field's parser reads: ``max_length``, or the tags' own limit."""
    return weapons.MAX_TAG_TEXT if param.name == "tags" else param.max_length


CASES = [
    pytest.param(param, text, id=f"{key[0]}-{key[1]}-{i}")
    for key, param in FIELDS.items()
    for i, text in enumerate(PATHOLOGICAL[param.name.rpartition("_")[2]](_limit(param)))
]


def _timed(parse: Callable[[str], Any], text: str) -> float:
    """Seconds ``parse(text)`` takes, a value or an :class:`InputError`."""
    start = time.perf_counter()
    try:
        parse(text)
    except InputError:
        pass
    return time.perf_counter() - start


def test_every_text_field_has_pathological_inputs():
    assert {name.rpartition("_")[2] for _, name in FIELDS} == set(PATHOLOGICAL)
    assert len(CASES) > 60


@pytest.mark.parametrize(("param", "text"), CASES)
def test_longest_pathological_input_is_answered_at_once(param, text):
    assert _limit(param) - 25 <= len(text) <= _limit(param)  # the longest text, near enough
    assert _timed(param.parse, text) < GUARD


def test_the_issues_freeze_is_refused_with_the_track_message():
    field = FIELDS["compressed", "a_combatants"]
    text = "X: Dex 3, track " + "a 1 " * 30 + "!"
    start = time.perf_counter()
    with pytest.raises(InputError) as err:
        field.parse(text)
    assert time.perf_counter() - start < GUARD
    assert err.value.field == "a_combatants"
    assert "write the 2.0 track as “track Str 2 Sta 3”" in err.value.message


def test_tag_text_over_its_limit_is_refused_at_once():
    field = FIELDS["autofire", "tags"]
    for text in _tags(field.max_length):
        with pytest.raises(InputError, match="too long"):
            field.parse(text)


# --- far beyond the limits: a guard that only a linear parser passes --------------------
#
# Twice the text for twice the time is too noisy to test on a shared machine
# (the same parse varies 2-3x from run to run), so the parsers are fed ten times
# their longest text: linear, that costs milliseconds; quadratic, a hundred times
# the time at the limit, cubic (the tags' old regex) minutes, exponential forever.

FAR = 10
"""How many times the field's limit the text is."""

BIG = TextParam("a_combatants", "Side A combatants", max_length=10**6)


def _far_tags(text: str) -> Any:
    """:func:`parse_tags` without its 200-character limit."""
    limit = weapons.MAX_TAG_TEXT
    weapons.MAX_TAG_TEXT = 10**6
    try:
        return parse_tags(text)
    finally:
        weapons.MAX_TAG_TEXT = limit


def _far_dice(text: str) -> Any:
    try:
        return parse_dice(text)
    except ValueError as exc:
        raise InputError("damage", str(exc)) from None


FAR_CASES = [
    pytest.param(parse, text, id=f"{name}-{i}")
    for name, parse, inputs, limit in [
        ("combatants", lambda text: parse_combatants(text, BIG), _combatants, 2000),
        ("powers", lambda text: parse_powers(text, field="p", label="Powers"), _powers, 2000),
        ("tags", _far_tags, _tags, weapons.MAX_TAG_TEXT),
        ("dice", _far_dice, _dice, 40),
    ]
    for i, text in enumerate(inputs(FAR * limit))
]


def test_the_far_cases_use_each_fields_limit():
    limits = {name.rpartition("_")[2]: _limit(p) for (_, name), p in FIELDS.items()}
    assert limits == {"combatants": 2000, "powers": 2000, "intent": 120, "tags": 200, "damage": 40}


@pytest.mark.parametrize(("parse", "text"), FAR_CASES)
def test_ten_times_the_longest_text_is_still_answered_at_once(parse, text):
    assert _timed(parse, text) < GUARD


# --- only ASCII digits are numbers (as in the number fields) --------------------------


@pytest.mark.parametrize(
    ("key", "field", "text", "says"),
    [
        ("compressed", "a_combatants", "Ann: Dex ٣", "“Dex ٣” is not “name number”"),
        ("compressed", "a_combatants", "Ann: Dex 3, Firearms ²", "“Firearms ²” is not"),
        ("chimera", "a_damage", "1d٦", "is not a dice expression"),
        ("chimera", "a_damage", "٢d6", "is not a dice expression"),
        ("autofire", "tags", "Burst(٣)", "Burst(X) needs a whole number"),
    ],
)
def test_non_ascii_digits_are_refused_not_read_as_numbers(key, field, text, says):
    # Python's int() reads "٣" (Arabic-Indic three) and \d matches it; the number
    # fields refuse it (params.read_number), so the text parsers do too, with their
    # field's message, instead of silently reading a digit the GM may not have meant.
    with pytest.raises(InputError) as refused:
        FIELDS[(key, field)].parse(text)
    assert says in str(refused.value)


def test_non_ascii_digits_stay_in_a_combatant_name():
    (ann,) = FIELDS[("compressed", "a_combatants")].parse("Ann ٣: Dex 3")
    assert ann.name == "Ann ٣"
    assert ann.attribute_dots == 3
