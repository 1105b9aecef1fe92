"""Number fields' steppers: ``stepped(text, direction)`` is the text one step up or down.

A stepper (the form's −/+ buttons, the Up/Down keys) must give text the field
reads back (:meth:`Param.parse`) as the value one step away, never past the
field's range, and leave text that is not a number alone. Expected values are
worked here with :class:`fractions.Fraction` from the typed digits, not by the
code under test. hypothesis is imported with ``pytest.importorskip`` inside the
property tests (:func:`property_support.hypothesis_or_skip`): these tests also run
inside Pyodide, which has no hypothesis.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from property_support import hypothesis_or_skip

from ruleslab import InputError, IntParam, NumberParam
from ruleslab.params import MAX_NUMBER_LENGTH

DOTS = IntParam("dots", "Dots", default=3, minimum=0, maximum=10)
MODIFIER = IntParam("modifier", "Modifier", default=0, minimum=-5, maximum=5)
KG = NumberParam("kg", "Weight", default=0.0, minimum=0, maximum=1e12, unit="kg")
METRES = NumberParam("m", "Height", default=2.0, minimum=0.5, maximum=100, step=0.25)


@pytest.mark.parametrize(
    ("param", "text", "direction", "expected"),
    [
        (DOTS, "3", 1, "4"),
        (DOTS, "3", -1, "2"),
        (DOTS, " 3 ", 1, "4"),  # spaces around are the form's to trim
        (DOTS, "3.0", 1, "4"),  # a whole number written with a zero decimal part
        (DOTS, "9", 1, "10"),
        (DOTS, "1", -1, "0"),
        (DOTS, "15", -1, "10"),  # out of range: the step lands on the bound, not past it
        (DOTS, "-4", 1, "0"),
        (MODIFIER, "0", -1, "-1"),
        (MODIFIER, "\u22122", 1, "-1"),  # the minus sign U+2212
        (MODIFIER, "-1", 1, "0"),  # never "-0"
        (KG, "450", 1, "451"),
        (KG, "1,000,000", 1, "1000001"),  # thousands separators read, the result plain
        (KG, "1e3", 1, "1001"),  # exponent notation read, the result plain
        (KG, "12 500,5", -1, "12499.5"),  # a decimal comma
        (KG, "2.5", 1, "3.5"),
        (KG, "0.1", 1, "1.1"),  # exact: not 1.1000000000000001
        (KG, "0.5", -1, "0"),  # stops at the minimum
        (KG, "999999999999.5", 1, "1000000000000"),
        (METRES, "2", 1, "2.25"),  # the declaration's own step
        (METRES, "0.6", -1, "0.5"),
        (METRES, "99.9", 1, "100"),
    ],
)
def test_a_step_gives_text_the_field_reads_as_the_next_value(param, text, direction, expected):
    assert param.stepped(text, direction) == expected
    assert param.parse(expected) == float(Fraction(expected))  # the form reads the value meant


@pytest.mark.parametrize(
    ("param", "text", "direction"),
    [
        (DOTS, "10", 1),  # at the maximum: Up does nothing
        (DOTS, "0", -1),  # at the minimum: Down does nothing
        (DOTS, "12", 1),  # past the maximum already
        (DOTS, "-1", -1),
        (KG, "1e12", 1),  # the maximum, in exponent notation
        (KG, "1,250", 1),  # 1250 or 1.25? refused by the field, so not stepped either
        (KG, "1000000000000", 1),
        (DOTS, "lots", 1),
        (DOTS, "", 1),
        (DOTS, "1,5", 1),  # a whole-number field refuses a decimal comma
        (DOTS, "1.000", 1),  # 1 or 1000? refused by the field, so not stepped either
        (DOTS, "٣", 1),  # other scripts' digits are refused
        (METRES, "0.5", -1),
    ],
)
def test_no_step_where_there_is_none_to_take(param, text, direction):
    assert param.stepped(text, direction) is None


def test_a_step_must_be_positive():
    with pytest.raises(ValueError, match="step"):
        NumberParam("m", "Height", default=1.0, step=0)
    with pytest.raises(ValueError, match="step"):
        IntParam("n", "N", default=1, step=-1)


def _exact(text: str) -> Fraction:
    """The typed number, read by hand: ASCII digits, '.' decimal point, optional '-'."""
    return Fraction(text)


def test_a_decimal_step_is_exact_and_within_bounds():
    hyp, st = hypothesis_or_skip()

    @hyp.given(
        whole=st.integers(min_value=-20, max_value=10**13),
        fraction=st.text(alphabet="0123456789", max_size=12),
        direction=st.sampled_from([1, -1]),
        step=st.sampled_from([1, 0.5, 0.25, 0.1, 10]),
    )
    def check(whole: int, fraction: str, direction: int, step: float) -> None:
        _check_decimal_step(whole, fraction, direction, step)

    check()


def _check_decimal_step(whole: int, fraction: str, direction: int, step: float) -> None:
    param = NumberParam("x", "X", default=0.0, minimum=-10, maximum=1e12, step=step)
    text = f"{whole}.{fraction}" if fraction else str(whole)
    out = param.stepped(text, direction)
    value = _exact(text)
    low, high = Fraction(-10), Fraction(10**12)
    if (direction > 0 and value >= high) or (direction < 0 and value <= low):
        assert out is None
        return
    assert out is not None
    want = min(high, max(low, value + direction * Fraction(str(step))))
    assert _exact(out) == want
    assert len(out) <= MAX_NUMBER_LENGTH
    assert param.parse(out) == float(want)


def test_whole_numbers_step_by_one_and_stop_at_the_bounds():
    for value in range(-7, 8):  # every value of the range and a little beyond it
        for direction in (1, -1):
            out = MODIFIER.stepped(str(value), direction)
            want = min(5, max(-5, value + direction))
            if (direction > 0 and value >= 5) or (direction < 0 and value <= -5):
                assert out is None, (value, direction)
            else:
                assert out == str(want), (value, direction)
                assert MODIFIER.parse(out) == want


def test_a_step_never_raises_on_any_text():
    for text in ("", " ", "-", "+", ".", ",", "1,2,3", "9" * 200, "<b>", "1e5", "nan", "inf"):
        for param in (DOTS, KG, METRES):
            out = param.stepped(text, 1)
            if out is not None:
                try:
                    param.parse(out)
                except InputError:  # pragma: no cover - the assertion says why
                    pytest.fail(f"{text!r} stepped to unreadable {out!r}")
