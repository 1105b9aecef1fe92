"""Exact arithmetic on probability tables: ``pmf[k] = P(X = k)`` as Fractions.

Adding Fractions one by one costs a gcd per addition, and the tables here have
denominators up to 10⁵⁰⁰; so sums and convolutions are done on integer
numerators over one common denominator, with one division per entry at the end.
Every rule module that combines distributions uses these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

__all__ = [
    "CHART_CUTOFF",
    "chart_bars",
    "convolve",
    "fractions",
    "last_visible",
    "mean",
    "mix",
    "numerators",
]

#: Bars less likely than this would not show on a chart: charts end at the last
#: entry at least this likely.
CHART_CUTOFF = 1e-6


def last_visible(pmf: Sequence[Fraction | float], default: int = 0) -> int:
    """Index of the last entry at least :data:`CHART_CUTOFF` likely (``default`` if none)."""
    return max((k for k, p in enumerate(pmf) if p >= CHART_CUTOFF), default=default)


def chart_bars(pmf: Sequence[Fraction | float]) -> tuple[tuple[str, float], ...]:
    """Bars ``(str(k), P(k))`` from 0 up to the last visible entry (:func:`last_visible`)."""
    return tuple((str(k), float(pmf[k])) for k in range(last_visible(pmf) + 1))


def numerators(pmf: Sequence[Fraction]) -> tuple[list[int], int]:
    """``(nums, den)`` with ``pmf[k] == nums[k] / den`` and ``den`` the least common one."""
    den = math.lcm(*(p.denominator for p in pmf)) if pmf else 1
    return [p.numerator * (den // p.denominator) for p in pmf], den


def fractions(nums: Sequence[int], den: int) -> tuple[Fraction, ...]:
    """The table ``nums[k] / den`` as Fractions."""
    return tuple(Fraction(n, den) for n in nums)


def convolve(a: Sequence[Fraction], b: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The table of ``A + B`` for independent ``A`` and ``B``."""
    (na, da), (nb, db) = numerators(a), numerators(b)
    out = [0] * (len(na) + len(nb) - 1)
    for i, x in enumerate(na):
        if x:
            for j, y in enumerate(nb):
                if y:
                    out[i + j] += x * y
    return fractions(out, da * db)


def mean(pmf: Sequence[Fraction]) -> Fraction:
    """``Σ k · pmf[k]`` (the mean of the table as given, without any omitted tail)."""
    return sum((k * p for k, p in enumerate(pmf) if p), Fraction(0))


def mix(parts: Iterable[tuple[Fraction, Sequence[Fraction]]]) -> tuple[Fraction, ...]:
    """``Σ weight · table[k]`` for each ``k``: a mixture of tables (weights need not sum to 1).

    Tables may differ in length (missing entries count 0); zero weights are
    skipped; no parts give ``(0,)``.
    """
    terms = []
    for weight, table in parts:
        if weight:
            nums, den = numerators(table)
            terms.append((weight.numerator, weight.denominator * den, nums))
    if not terms:
        return (Fraction(0),)
    common = math.lcm(*(d for _, d, _ in terms))
    acc = [0] * max(len(nums) for _, _, nums in terms)
    for wn, d, nums in terms:
        scale = wn * (common // d)
        for k, n in enumerate(nums):
            if n:
                acc[k] += scale * n
    return fractions(acc, common)
