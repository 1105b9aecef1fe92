"""A dodge against an attack: the exact net successes of one attack roll.

Quick reference › 2.0 Rules › Combat:

    Defensive Maneuvers: Characters can dodge (Dex + Athletics), parry (Dex +
    Melee/Brawl), or powerblock (power activation roll) incoming attacks.

Quick reference › Weapon Tags › Guided: "Ignores first dodge success".

The text does not say how a dodge meets an attack; the reading (rules note
RN-RANGED-2) is that each dodge success cancels one attack success: net
successes = attack successes − dodge successes, and the attack hits when they
reach the difficulty. A Guided weapon ignores the first dodge success
(RN-RANGED-12). Strafing rolls the attack once against several targets, each
dodging on its own (RN-RANGED-5). :func:`ruleslab.attack.resolve_attack` turns
the net successes into damage.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import SuccessDistribution

__all__ = ["NetSuccesses", "net_successes"]


@dataclass(frozen=True)
class NetSuccesses:
    """Exact outcome of attack vs dodge: hit mass per extra-success count.

    ``p_any_hit`` is the chance that at least one of ``targets`` targets, each
    dodging on its own, is hit; ``unresolved`` the attack table's omitted tail.
    """

    extras: tuple[Fraction, ...]  # P(hit with e extra successes), e = 0 …
    p_hit: Fraction
    p_miss: Fraction
    p_any_hit: Fraction
    unresolved: Fraction


def net_successes(
    attack: SuccessDistribution,
    dodge: SuccessDistribution,
    ignore_first: bool,
    difficulty: int,
    base: int,
    targets: int,
) -> NetSuccesses:
    """Attack successes A, dodge successes D' = max(0, D − ignore): hit iff A − D' ≥ difficulty.

    ``base`` is what extras count from: extras = A − D' − base. ``dodge`` must
    reach past the attack table (so every miss is counted exactly); the only
    unresolved mass is the attack's own tail.
    """
    ig = 1 if ignore_first else 0
    dpmf = dodge.pmf
    cum: list[Fraction] = []  # cum[m] = P(D ≤ m)
    run = Fraction(0)
    for p in dpmf:
        run += p
        cum.append(run)

    def at_most(m: int) -> Fraction:  # P(D' ≤ m)
        if m < 0:
            return Fraction(0)
        idx = m + ig
        if idx < len(cum):
            return cum[idx]
        assert dodge.tail_bound == 0, "the dodge table must reach past the attack table"
        return Fraction(1)

    def exactly(j: int) -> Fraction:  # P(D' = j)
        if j == 0:
            return at_most(0)
        idx = j + ig
        return dpmf[idx] if idx < len(dpmf) else Fraction(0)

    extras: dict[int, Fraction] = {}
    p_hit = Fraction(0)
    p_miss = Fraction(0)
    p_any = Fraction(0)
    for a, pa in enumerate(attack.pmf):
        if not pa:
            continue
        top = a - difficulty  # D' ≤ top hits
        hit = at_most(top)
        p_hit += pa * hit
        p_miss += pa * (1 - hit)
        p_any += pa * (1 - (1 - hit) ** targets)
        for j in range(top + 1):
            q = exactly(j)
            if q:
                e = a - j - base
                extras[e] = extras.get(e, Fraction(0)) + pa * q
    n = max(extras, default=-1) + 1
    table = tuple(extras.get(e, Fraction(0)) for e in range(n))
    return NetSuccesses(
        extras=table,
        p_hit=p_hit,
        p_miss=p_miss,
        p_any_hit=p_any,
        unresolved=attack.tail_bound,
    )
