"""Numbers typed as decimals, computed with exactly and printed so the working checks.

A distance or a weight typed in a form ("2.004") reaches a rule as a float. The
rules compute with the exact decimal it was typed as (:func:`typed_decimal`:
2.004 is 2004/1000, not the nearest binary fraction) and their steps print
that decimal in full (:func:`fmt_exact`), so an equation in the working such
as "⌈2.004 ÷ 2⌉ = 2" is true for the numbers it prints. A result that two
decimals cannot show exactly (a mean of 260/9 m) is printed after "≈" instead
of "=" (:func:`equals`). Not a rule: the display of numbers the rules use.
"""

from __future__ import annotations

from fractions import Fraction

from ruleslab.explain import fmt_num

__all__ = ["equals", "fmt_exact", "typed_decimal"]


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
