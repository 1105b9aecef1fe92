"""A common denominator for a chain solved forward on whole numbers (the duel's, issue 23).

:meth:`ruleslab.chimera.duel._Chain.forward` carries every place's chance as a whole
number over one denominator and divides it, at each place, by that place's *leaving
count* (its round's denominator minus its count to stay). That is exact when the
denominator is a multiple of the product of the leaving counts along every path
through the chain. The product of *all* the places' counts is one such multiple,
but it multiplies together the counts of paths that exclude each other (a fight
where A is wounded first and one where B is): for issue 23's Chimera set 22,200
digits, where 8,900 are enough, and every later product and gcd costs with the
digits. :func:`path_bound` finds the smaller one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

__all__ = ["atoms", "path_bound", "product"]

K = TypeVar("K", bound=Hashable)

_SMALL_PRIMES = tuple(p for p in range(2, 2048) if all(p % q for q in range(2, math.isqrt(p) + 1)))
_SMALL_PRIMORIAL = math.prod(_SMALL_PRIMES)


def atoms(n: int) -> dict[int, int]:
    """``n`` (≥ 1) as ``{factor: exponent}``: its primes below 2048, and the rest as one
    factor (not necessarily prime: :func:`path_bound` only needs their product to be
    ``n``; a duel's leaving counts are such small primes times one large cofactor)."""
    out: dict[int, int] = {}
    g = math.gcd(n, _SMALL_PRIMORIAL)
    for p in _SMALL_PRIMES:
        if g == 1:
            break
        if g % p == 0:
            g //= p
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            out[p] = e
    if n > 1:
        out[n] = 1
    return out


def path_bound(order: Sequence[K], leaves: Mapping[K, int], nexts: Mapping[K, Sequence[K]]) -> int:
    """A whole number that every path's product of leaving counts divides.

    ``order`` lists the places so that every move goes to a later one; ``leaves[k]`` is
    place ``k``'s leaving count (0: nobody leaves it, its paths end there) and
    ``nexts[k]`` the places it moves to. Each count is split into factors
    (:func:`atoms`); a factor's exponent in the bound is the most it reaches summed
    along one path (the longest path of each factor, in ``order``). Exact: a path's
    product divides the bound, since each of its factors appears there at least as
    often as on that path.
    """
    reach: dict[K, dict[int, int]] = {}
    factored: dict[int, dict[int, int]] = {}
    most: dict[int, int] = {}
    for s in order:
        need = reach.pop(s, {})
        leave = leaves[s]
        if not leave:
            continue
        split = factored.get(leave)
        if split is None:
            split = factored[leave] = atoms(leave)
        for f, e in split.items():
            need[f] = need.get(f, 0) + e
        for f, e in need.items():
            if most.get(f, 0) < e:
                most[f] = e
        for k in nexts[s]:
            there = reach.get(k)
            if there is None:
                reach[k] = dict(need)
                continue
            for f, e in need.items():
                if there.get(f, 0) < e:
                    there[f] = e
    return product([f**e for f, e in most.items()])


def product(factors: list[int]) -> int:
    """The product of ``factors``, multiplied pairwise (balanced: fast on many factors)."""
    while len(factors) > 1:
        factors = [
            factors[i] * factors[i + 1] if i + 1 < len(factors) else factors[i]
            for i in range(0, len(factors), 2)
        ]
    return factors[0] if factors else 1
