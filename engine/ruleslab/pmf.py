"""Exact arithmetic on probability distributions, for the Aberrant and the Chimera rules.

:class:`Dist` is the one distribution type of the rules: a distribution on
consecutive integers from any lowest value ``lo``, kept as integer weights over
one common denominator, with sums and differences, shifts, mixtures, the higher
of two rolls, comparisons, tails and events; :func:`constant`, :func:`die` and
:func:`dice` build the usual ones (the Chimera d20, d12 and damage dice). The
d10 pool's successes (:class:`ruleslab.dice.SuccessDistribution`, a ``Dist`` with
its exact tail bound and botch chance), the damage, attack, dodge, initiative and
compressed-combat rules and the Chimera rules all compute with it.

A *table* is a sequence of :class:`~fractions.Fraction` probabilities indexed
from 0, ``pmf[k] = P(X = k)`` (:meth:`Dist.table`): what a chart draws
(:func:`chart_bars`, :func:`last_visible`, :data:`CHART_CUTOFF`) and what results
show. :func:`convolve`, :func:`mean`, :func:`numerators` and :func:`fractions`
work on tables for the modules that still pass them between rules (warfare, and
the henchmen and compressed-combat calculators' results); they share
:class:`Dist`'s integer arithmetic.

Adding Fractions one by one costs a gcd per addition, and the tables here have
denominators up to 10⁵⁰⁰; so sums and convolutions are done on integer
numerators over one common denominator, with one division per entry at the end
(a :class:`Dist` keeps them so, and makes Fractions only when asked). The sum
of fair dice is counted on integers too: adding one die is a window slid along
the counts, so ``20d100`` costs some 40 000 integer additions, not millions of
Fraction products.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "CHART_CUTOFF",
    "Dist",
    "binomial_mixture",
    "chart_bars",
    "constant",
    "convolve",
    "dice",
    "die",
    "fractions",
    "last_visible",
    "mean",
    "mixture",
    "numerators",
    "packed_convolve",
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


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """``out[k] = Σ a[i]·b[k−i]`` on integers (empty if either is)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def convolve(a: Sequence[Fraction], b: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The table of ``A + B`` for independent ``A`` and ``B``."""
    (na, da), (nb, db) = numerators(a), numerators(b)
    return fractions(_convolve(na, nb), da * db)


def mean(pmf: Sequence[Fraction]) -> Fraction:
    """``Σ k · pmf[k]`` (the mean of the table as given, without any omitted tail)."""
    nums, den = numerators(pmf)
    return Fraction(sum(k * n for k, n in enumerate(nums)), den)


@dataclass(frozen=True)
class Dist:
    """An exact distribution on the integers ``lo, lo+1, …, lo+len(weights)−1``.

    ``P(X == lo + i) = weights[i] / den``, in lowest terms (the constructor
    reduces them), so equal distributions compare equal. The probabilities
    normally sum to 1; a part of one (:meth:`tail`, a weighted
    :func:`mixture`) sums to less, and :meth:`total` says how much. Every
    probability it gives is an exact :class:`~fractions.Fraction`.
    """

    lo: int
    weights: tuple[int, ...]
    den: int = 1

    def __post_init__(self) -> None:
        if self.den < 1:
            raise ValueError("a distribution's denominator must be positive")
        g = math.gcd(self.den, *self.weights)
        if g != 1:
            object.__setattr__(self, "weights", tuple(w // g for w in self.weights))
            object.__setattr__(self, "den", self.den // g)

    @classmethod
    def from_pmf(cls, lo: int, pmf: Sequence[Fraction]) -> Dist:
        """The distribution with ``P(X == lo + k) = pmf[k]``."""
        nums, den = numerators(pmf)
        return cls(lo, tuple(nums), den)

    @functools.cached_property
    def pmf(self) -> tuple[Fraction, ...]:
        """The table: ``pmf[i] = P(X == lo + i)`` as Fractions."""
        return fractions(self.weights, self.den)

    @property
    def hi(self) -> int:
        """The highest value in the table."""
        return self.lo + len(self.weights) - 1

    def p(self, value: int) -> Fraction:
        """``P(X == value)``."""
        i = value - self.lo
        return Fraction(self.weights[i], self.den) if 0 <= i < len(self.weights) else Fraction(0)

    def at_least(self, value: int) -> Fraction:
        """``P(X ≥ value)``."""
        return Fraction(sum(self.weights[max(0, value - self.lo) :]), self.den)

    def at_most(self, value: int) -> Fraction:
        """``P(X ≤ value)``."""
        return Fraction(sum(self.weights[: max(0, value - self.lo + 1)]), self.den)

    def p_where(self, event: Callable[[int], bool]) -> Fraction:
        """``P(event(X))``: the probability of the values for which ``event`` is true
        (asked only of values of positive probability)."""
        lo, weights = self.lo, self.weights
        return Fraction(sum(w for i, w in enumerate(weights) if w and event(lo + i)), self.den)

    def table(self) -> tuple[Fraction, ...]:
        """``P(X == k)`` for ``k = 0 … hi``: the table counted from 0 (empty if the
        distribution is), as charts and the Aberrant results show successes and levels.

        Raises ``ValueError`` for a distribution with negative values.
        """
        if not self.weights:
            return ()
        if self.lo < 0:
            raise ValueError("a table counted from 0 cannot hold negative values")
        return (Fraction(0),) * self.lo + self.pmf if self.lo else self.pmf

    def items(self) -> tuple[tuple[int, Fraction], ...]:
        """``(value, probability)`` for every value of positive probability."""
        return tuple((self.lo + i, Fraction(w, self.den)) for i, w in enumerate(self.weights) if w)

    def total(self) -> Fraction:
        """``Σ P(X == value)`` over the table (1 for a whole distribution)."""
        return Fraction(sum(self.weights), self.den)

    def mean(self) -> Fraction:
        """``Σ value · P(X == value)`` (not divided by :meth:`total`)."""
        return Fraction(sum((self.lo + i) * w for i, w in enumerate(self.weights)), self.den)

    def shift(self, k: int) -> Dist:
        """The distribution of ``X + k``."""
        return Dist(self.lo + k, self.weights, self.den)

    def tail(self, value: int) -> Dist:
        """The part of the table at values ``≥ value``, not rescaled (empty if none)."""
        start = max(value, self.lo)
        return Dist(start, self.weights[start - self.lo :], self.den)

    def __add__(self, other: Dist) -> Dist:
        """The distribution of ``X + Y`` for independent ``X`` and ``Y``."""
        out = _convolve(self.weights, other.weights)
        return Dist(self.lo + other.lo, tuple(out), self.den * other.den)

    def __neg__(self) -> Dist:
        """The distribution of ``−X``."""
        return Dist(-self.hi, self.weights[::-1], self.den)

    def __sub__(self, other: Dist) -> Dist:
        """The distribution of ``X − Y`` for independent ``X`` and ``Y``."""
        return self + -other

    def versus(self, other: Dist) -> tuple[Fraction, Fraction, Fraction]:
        """``(P(X > Y), P(X == Y), P(X < Y))`` for independent ``X`` and ``Y``.

        Each counts only pairs inside both tables, so for parts of distributions
        (a table cut before its tail) the three sum to ``total() · other.total()``.
        """
        mine, theirs = self.weights, other.weights
        below = 0  # numerator of P(Y < v)
        j = 0  # the first of other's values not yet counted in ``below``
        wins = ties = 0
        for i, w in enumerate(mine):
            v = self.lo + i
            while j < len(theirs) and other.lo + j < v:
                below += theirs[j]
                j += 1
            if w:
                wins += w * below
                if 0 <= v - other.lo < len(theirs):
                    ties += w * theirs[v - other.lo]
        den = self.den * other.den
        losses = sum(mine) * sum(theirs) - wins - ties
        return Fraction(wins, den), Fraction(ties, den), Fraction(losses, den)

    def max_with(self, other: Dist) -> Dist:
        """The distribution of ``max(X, Y)`` for independent ``X`` and ``Y``.

        ``P(max = v) = F_X(v)·F_Y(v) − F_X(v−1)·F_Y(v−1)``, ``F`` the cumulative tables.
        """
        lo = max(self.lo, other.lo)
        out = []
        cx = cy = 0  # numerators of P(X ≤ v − 1), P(Y ≤ v − 1)
        for v in range(min(self.lo, other.lo), max(self.hi, other.hi) + 1):
            i, j = v - self.lo, v - other.lo
            ux = cx + (self.weights[i] if 0 <= i < len(self.weights) else 0)
            uy = cy + (other.weights[j] if 0 <= j < len(other.weights) else 0)
            if v >= lo:
                out.append(ux * uy - cx * cy)
            cx, cy = ux, uy
        return Dist(lo, tuple(out), self.den * other.den)


def mixture(parts: Iterable[tuple[Fraction, Dist]]) -> Dist:
    """``Σ weight · P(X_i == value)`` for each value: distributions mixed (or just added).

    The weights need not sum to 1; zero weights are skipped; no parts give
    ``Dist(0, (0,))``.
    """
    kept = [(w, d) for w, d in parts if w]
    if not kept:
        return Dist(0, (0,))
    lo = min(d.lo for _, d in kept)
    hi = max(d.hi for _, d in kept)
    common = math.lcm(*(w.denominator * d.den for w, d in kept))
    acc = [0] * (hi - lo + 1)
    for w, d in kept:
        scale = w.numerator * (common // (w.denominator * d.den))
        for i, n in enumerate(d.weights, d.lo - lo):
            if n:
                acc[i] += scale * n
    return Dist(lo, tuple(acc), common)


def binomial_mixture(counts: dict[int, Fraction], success: int, failure: int) -> Dist:
    """``Σ P(n) · P(k successes of n dice)``: the successes of a random number of dice.

    ``counts[n]`` is the weight of ``n`` dice (n ≥ 0; weights need not sum to 1), each
    die succeeding on ``success`` of its ``success + failure`` faces; the result is
    the :func:`mixture` of those binomial tables (``failure`` ≥ 1), computed without
    them. With ``c_n`` the weights over their common denominator ``L``, ``b`` the faces
    and ``N`` the most dice, ``L · b^N`` times the table is the polynomial
    ``Σ c_n · b^(N−n) · (f + s·x)^n``, which Horner's rule evaluates from the top:
    ``H ← H·(f + s·x) + c_n·b^(N−n)``. Each step multiplies by the small ``f`` and ``s``
    (a mixture of the tables multiplies every entry of every table by a number of
    hundreds of digits), on all of ``H``'s entries at once: ``H`` is one integer, a slot
    of bits per entry wide enough for ``L · b^N`` (every entry is at most that, and none
    is negative, so no slot carries into the next). Exact: the same :class:`Dist`.
    """
    kept = {n: p for n, p in counts.items() if p}
    if not kept:
        return Dist(0, (0,))
    if min(kept) < 0 or failure < 1 or success < 0:
        raise ValueError("dice counts and faces must not be negative (and a die must fail)")
    g = math.gcd(success, failure)  # the same chances on fewer faces: narrower slots
    success, failure = success // g, failure // g
    faces = success + failure
    common = math.lcm(*(p.denominator for p in kept.values()))
    top = max(kept)
    den = common * faces**top
    width = den.bit_length() // 8 + 1  # bytes per slot
    shift = 8 * width
    h = 0
    power = 1  # faces^(top − n)
    for n in range(top, -1, -1):
        if n < top:
            h = failure * h + ((success * h) << shift)
            power *= faces
        p = kept.get(n)
        if p:
            h += p.numerator * (common // p.denominator) * power
    raw = h.to_bytes((top + 1) * width, "little")
    return Dist(
        0,
        tuple(int.from_bytes(raw[k * width : (k + 1) * width], "little") for k in range(top + 1)),
        den,
    )


def constant(value: int) -> Dist:
    """A value that is certain."""
    return Dist(value, (1,))


def die(sides: int) -> Dist:
    """One fair die with faces ``1 … sides``."""
    return dice(1, sides)


@functools.lru_cache(maxsize=256)
def dice(count: int, sides: int) -> Dist:
    """The sum of ``count`` fair dice with ``sides`` faces (0 dice: always 0).

    Counted on integers: ``ways[s]`` is how many of the ``sides^count`` rolls
    add up to ``count + s``; one more die makes each count the sum of the
    ``sides`` counts at and below it, a window slid once along the table.
    """
    if count < 0:
        raise ValueError("the number of dice cannot be negative")
    if count and sides < 1:
        raise ValueError("a die needs at least one side")
    ways = [1]
    for _ in range(count):
        grown = []
        window = 0
        for s in range(len(ways) + sides - 1):
            if s < len(ways):
                window += ways[s]
            if s >= sides:
                window -= ways[s - sides]
            grown.append(window)
        ways = grown
    return Dist(count, tuple(ways), sides**count)


def packed_convolve(a: list[int], b: list[int]) -> list[int]:
    """``out[k] = Σ a[i]·b[k−i]`` for non-negative integers, exactly, by one big-integer
    product (Kronecker substitution): each table packed into a number, a slot per entry
    wide enough for any sum of products, so no slot carries into the next."""
    if not a or not b:
        return []
    # bytes per slot: any sum of products, and each entry itself (one table may be all 0)
    bound = max(max(a) * max(b) * min(len(a), len(b)), max(a), max(b))
    width = bound.bit_length() // 8 + 1

    def pack(xs: list[int]) -> int:
        return int.from_bytes(b"".join(x.to_bytes(width, "little") for x in xs), "little")

    size = len(a) + len(b) - 1
    packed = pack(a)
    # a table times itself: one number squared (CPython squares faster than it multiplies)
    raw = (packed * (packed if b is a else pack(b))).to_bytes(size * width, "little")
    return [int.from_bytes(raw[k * width : (k + 1) * width], "little") for k in range(size)]
