"""Exact odds of d10 success pools, worked by hand: the one oracle the engine's tests share.

A d10 succeeds on 7 or more, P = 4/10, and fails otherwise, Q = 6/10 (no rerolled tens
here). Everything is counted with the binomial formula or by going through every die's
success or failure; nothing here calls ``ruleslab``, so a test that compares the engine
with these numbers checks it against an independent count.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import comb

P = Fraction(4, 10)  # a d10 shows 7+
Q = 1 - P  # it does not


def exactly(n: int, k: int, p: Fraction = P) -> Fraction:
    """P(exactly ``k`` of ``n`` dice succeed), each with chance ``p``."""
    if not 0 <= k <= n:
        return Fraction(0)
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def at_least(n: int, k: int, p: Fraction = P) -> Fraction:
    """P(at least ``k`` successes on ``n`` dice), each with chance ``p``."""
    return sum((exactly(n, j, p) for j in range(max(k, 0), n + 1)), Fraction(0))


def rolls(n: int, p: Fraction = P) -> Iterator[tuple[int, Fraction]]:
    """Every way ``n`` dice can fall, by brute force: (successes, its chance), one per way."""
    for dice in itertools.product((0, 1), repeat=n):
        chance = Fraction(1)
        for die in dice:
            chance *= p if die else 1 - p
        yield sum(dice), chance
