"""Numbers typed as decimals, computed with exactly and printed so the working checks.

A distance or a weight typed in a form ("2.004") reaches a rule as a float. The
rules compute with the exact decimal it was typed as (:func:`typed_decimal`:
2.004 is 2004/1000, not the nearest binary fraction) and their steps print
that decimal in full (:func:`fmt_exact`), so an equation in the working such
as "⌈2.004 ÷ 2⌉ = 2" is true for the numbers it prints. A result that two
decimals cannot show exactly (a mean of 260/9 m) is printed after "≈" instead
of "=" (:func:`equals`). Not a rule: the display of numbers the rules use.

A number's text is read here too (:func:`read_number`: the one pass every number
field makes, the rule a GM sees described in :mod:`ruleslab.params`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.explain import fmt_num

__all__ = [
    "AMBIGUOUS",
    "MAX_NUMBER_LENGTH",
    "TypedNumber",
    "equals",
    "fmt_exact",
    "read_number",
    "typed_decimal",
]


def typed_decimal(x: float | Fraction) -> Fraction:
    """``x`` as the exact decimal it was written as (a float's shortest repr: 0.1 → 1/10)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(repr(float(x)))


def fmt_exact(x: Fraction | int, unit: str = "") -> str:
    """A terminating decimal in full ("2.004", "15.999 m"); whole numbers as :func:`fmt_num`
    prints them (thousands separated), and numbers of at most two decimals exactly as it
    does. Raises ``ValueError`` for a fraction with no finite decimal (1/3)."""
    x = Fraction(x)
    if x.denominator == 1:
        return fmt_num(int(x), unit)
    twos = fives = 0
    rest = x.denominator
    while rest % 2 == 0:
        rest //= 2
        twos += 1
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        raise ValueError(f"{x} has no finite decimal")
    places = max(twos, fives)
    digits = str(abs(x.numerator) * 10**places // x.denominator).rjust(places + 1, "0")
    text = f"{'-' if x < 0 else ''}{digits[:-places]}.{digits[-places:].rstrip('0')}"
    return f"{text} {unit}" if unit else text


def equals(x: Fraction | int, unit: str = "") -> str:
    """ "= " and ``x`` as :func:`fmt_num` prints it when that is exact, else "≈ " and it."""
    exact = (Fraction(x) * 100).denominator == 1
    return f"{'=' if exact else '≈'} {fmt_num(x, unit)}"


# Numbers as typed: the one reading of a number field's text (:mod:`ruleslab.params`
# describes the rule a GM sees; its fields call :func:`read_number`).

MAX_NUMBER_LENGTH = 100
"""The longest number text read (after trimming spaces); every number in range is shorter."""

_SIGNS = {"+": False, "-": True, "\u2212": True}
_GROUP_SEPARATORS = frozenset(", \u00a0\u202f\u2009")
_DIGITS = frozenset("0123456789")


@dataclass(frozen=True)
class TypedNumber:
    """A number as typed: its sign, the ASCII digits before and after its decimal mark
    (thousands separators removed) and the mark (``"."``, ``","`` or ``""``: none).

    ``comma_group``: the text was one comma before exactly three digits and no mark
    (``1,250``): a thousands separator or a decimal comma. ``exponent``: it was
    written in exponent notation (``whole`` and ``fraction`` are its digits with the
    point moved: ``2.5e3`` is ``"2500"``, ``""``)."""

    negative: bool
    whole: str
    fraction: str
    mark: str
    comma_group: bool = False
    exponent: bool = False


AMBIGUOUS = (
    "{label}: “{text}” could be {first} ({first_is}) or {second} ({second_is}): type {both}."
)
"""A number field's message for text it could read two ways: ``1,250`` (a thousands or a
decimal comma: :class:`TypedNumber`'s ``comma_group``), or, in a whole-number field,
``1.000`` (a decimal or a thousands point)."""

_MAX_EXPONENT_DIGITS = 3


def _read_exponent(s: str, negative: bool, at: int) -> TypedNumber | None:
    """``s`` (sign removed) in exponent notation, its ``e`` at ``at``: see "Numbers as
    typed" (:mod:`ruleslab.params`). Linear: the exponent has at most three digits."""
    mantissa, power = s[:at], s[at + 1 :]
    whole, _point, fraction = mantissa.partition(".")
    if not (whole or fraction) or not set(whole + fraction) <= _DIGITS:
        return None
    shift_negative = False
    if power[:1] in _SIGNS:
        shift_negative = _SIGNS[power[0]]
        power = power[1:]
    if not 1 <= len(power) <= _MAX_EXPONENT_DIGITS or not set(power) <= _DIGITS:
        return None
    shift = -int(power) if shift_negative else int(power)
    digits = whole + fraction
    at_point = len(whole) + shift
    if at_point < 0:
        digits, at_point = "0" * -at_point + digits, 0
    elif at_point > len(digits):
        digits += "0" * (at_point - len(digits))
    new_whole = digits[:at_point].lstrip("0")
    new_fraction = digits[at_point:].rstrip("0")
    return TypedNumber(
        negative, new_whole or "0", new_fraction, "." if new_fraction else "", exponent=True
    )


def read_number(text: str) -> TypedNumber | None:
    """``text`` read as one number (see "Numbers as typed" in :mod:`ruleslab.params`);
    ``None`` if it is not one.

    One pass splits the text into runs of digits and the separators between
    them; the decimal mark and the groups are then checked on those runs.
    """
    s = text.strip()
    if not s or len(s) > MAX_NUMBER_LENGTH:
        return None
    negative = False
    if s[0] in _SIGNS:
        negative = _SIGNS[s[0]]
        s = s[1:]
    exponent = max(s.find("e"), s.find("E"))
    if exponent >= 0:
        return _read_exponent(s, negative, exponent)
    runs: list[str] = []
    seps: list[str] = []
    start = 0
    for i, ch in enumerate(s):
        if ch in _DIGITS:
            continue
        if ch != "." and ch not in _GROUP_SEPARATORS:
            return None
        runs.append(s[start:i])
        seps.append(ch)
        start = i + 1
    runs.append(s[start:])
    if seps.count(".") > 1:
        return None
    if "." in seps:
        point = seps.index(".")
        if point != len(seps) - 1:  # only digits after the decimal point
            return None
        whole = _whole(runs[: point + 1], seps[:point])
        mark, fraction = ".", runs[-1]
    else:
        whole = _whole(runs, seps)
        mark, fraction = "", ""
        if whole is None and seps[-1] == "," and "," not in seps[:-1]:
            whole = _whole(runs[:-1], seps[:-1])  # a decimal comma
            mark, fraction = ",", runs[-1]
            if not fraction:
                return None
    if whole is None or not (whole or fraction):
        return None
    comma_group = mark == "" and seps == [","]  # (a valid group: "1,250")
    return TypedNumber(negative, whole, fraction, mark, comma_group=comma_group)


def _whole(runs: list[str], seps: list[str]) -> str | None:
    """The digits of a whole part typed as ``runs`` joined by ``seps``, if valid.

    One run of digits (``""`` for ``.5``), or groups of thousands: 1–3 digits
    not starting with 0, then groups of exactly 3, all joined by one kind of
    separator.
    """
    if not seps:
        return runs[0]
    first = runs[0]
    if not 1 <= len(first) <= 3 or first[0] == "0" or len(set(seps)) != 1:
        return None
    if any(len(run) != 3 for run in runs[1:]):
        return None
    return "".join(runs)
