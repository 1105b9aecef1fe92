"""Exact odds of d10 success pools, worked by hand: the one oracle the engine's tests share.

A d10 succeeds on 7 or more, P = 4/10, and fails otherwise, Q = 6/10 (no rerolled tens
here). Everything is counted with the binomial formula or by going through every die's
success or failure, or built with icepool (:func:`icepool_successes`, for rerolled tens);
nothing here calls ``ruleslab``, so a test that compares the engine with these numbers
checks it against an independent count.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from math import comb
from typing import Any

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


def icepool_successes(
    icepool: Any, n: int, *, target: int = 7, reroll_tens: bool = False, depth: int = 24
) -> Any:
    """Total successes of ``n`` d10s (``target`` or more succeeds; with ``reroll_tens`` a
    10 is a success rolled again), as an icepool die. icepool stops rerolling after
    ``depth`` tens: an outcome it truncates has more than ``depth`` successes."""
    if not reroll_tens:
        return n @ (icepool.d10 >= target)
    # faces: fail -> 0, success target..9 -> 1, a 10 -> 100 (rerolled); decode 100·tens + last
    faces = [0] * (target - 1) + [1] * (10 - target) + [100]
    one = icepool.Die(faces).explode([100], depth=depth).map(lambda x: x // 100 + x % 100)
    return n @ one
