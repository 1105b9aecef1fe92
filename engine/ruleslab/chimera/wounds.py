"""Wounds, the Wound Penalty, vanquishing and the victor's choices.

Chimera combat:

    When hit, a defender suffers a wound of severity equal to the damage roll
    minus his Defence (ignore "wounds" of severity zero or less). Regardless of
    severity, each wound suffered imposes a cumulative Wound Penalty (WP) of –1
    to all rolls and Movement Rate.

    If the total number of wounds, or the severity of a single wound, exceeds the
    defender's Wound Limit, he's vanquished, and the attacker chooses his fate.

    Classed characters (PC or NPC) may Resist a "Killer Blow" against TN 12.
    Success indicates that he's Unconscious but suffers a permanent injury in the
    form of a random Flaw.

    • Capture: … impose a penalty of –4 to all rolls and MR while bound.
    • Driven Off: … he will not return before a number of turns equal to the
      attacker's level.
    • Killer Blow: Foe is killed …
    • Unconscious: Foe is knocked out for 1d6 turns. Upon revival, the foe's
      wounds and Wound Penalty are unchanged. Unconscious foes may be dispatched
      with a coup de grâce as a free action.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.action import action_odds
from ruleslab.chimera.dice import DamageDice
from ruleslab.pmf import Dist, die, mixture

__all__ = [
    "CAPTURE_PENALTY",
    "FATES",
    "KILLER_BLOW_TN",
    "DamageRoll",
    "Severity",
    "damage_roll",
    "driven_off_turns",
    "halved",
    "is_vanquished",
    "killer_blow_resist",
    "severity_odds",
    "severity_of",
    "unconscious_turns",
    "wound_penalty",
]

KILLER_BLOW_TN = 12
"""'Classed characters (PC or NPC) may Resist a "Killer Blow" against TN 12.'"""
CAPTURE_PENALTY = -4
"""'impose a penalty of –4 to all rolls and MR while bound.'"""

FATES: dict[str, str] = {
    "capture": "Capture: bound; −4 to all rolls and MR while bound",
    "driven_off": "Driven Off: flees; will not return before turns = the attacker's level",
    "killer_blow": "Killer Blow: killed (classed characters may Resist against TN 12)",
    "unconscious": "Unconscious: knocked out for 1d6 turns; a coup de grâce is a free action",
}
"""The victor's four choices, in the text's order."""


def wound_penalty(wounds: int) -> int:
    """'each wound suffered imposes a cumulative Wound Penalty (WP) of –1': ``−wounds``."""
    return -wounds


def is_vanquished(wounds: int, severity: int, wound_limit: int) -> bool:
    """Vanquished when the number of wounds or one wound's severity *exceeds* the Wound Limit.

    ``wounds`` counts every wound suffered, this one included.
    """
    return wounds > wound_limit or severity > wound_limit


DamageRoll = tuple[DamageDice, str, bool]
"""A damage roll: the weapon's dice; ``"plain"``, or the Critical Success's two dice read
as ``"sum"`` or ``"best"`` (rules note RN-CHIM-3); and whether it is halved, rounded down
(a resisted blast under the ``halves`` reading, RN-CHIM-7)."""


def halved(d: Dist) -> Dist:
    """The distribution of ``⌊X / 2⌋``: damage halved, rounded down."""
    out: dict[int, int] = {}
    for i, w in enumerate(d.weights):
        if w:
            v = (d.lo + i) // 2
            out[v] = out.get(v, 0) + w
    if not out:
        return Dist(0, (0,))
    lo, hi = min(out), max(out)
    return Dist(lo, tuple(out.get(v, 0) for v in range(lo, hi + 1)), d.den)


@functools.lru_cache(maxsize=512)
def damage_roll(roll: DamageRoll) -> Dist:
    """The exact distribution of a :data:`DamageRoll`."""
    dmg, how, halve = roll
    d = dmg.dist() if how == "plain" else dmg.doubled(how)
    return halved(d) if halve else d


@functools.lru_cache(maxsize=8192)
def _at_least(roll: DamageRoll, value: int) -> Fraction:
    return damage_roll(roll).at_least(value)


@dataclass(frozen=True)
class Severity:
    """The exact outcome of one attack on the defender.

    ``p_miss`` (the attack fails), ``p_no_wound`` (a hit of severity zero or
    less, ignored) and ``p_wound`` (severity ≥ 1) sum to 1; ``wound`` is the
    wound's severity (``P(hit and severity = s)`` for ``s ≥ 1``; :attr:`pmf` lists
    them), worked out from the damage ``rolls`` (each with its chance) and the
    ``defence`` only when asked: the duel needs only ``p_wound`` and ``p_vanquish``,
    the chance this blow vanquishes a defender who already has his wounds.
    """

    p_miss: Fraction
    p_no_wound: Fraction
    p_wound: Fraction
    p_vanquish: Fraction
    rolls: tuple[tuple[Fraction, DamageRoll], ...]
    defence: int

    @functools.cached_property
    def wound(self) -> Dist:
        """``P(hit and severity = s)`` for each severity ``s ≥ 1``."""
        parts = ((w, damage_roll(r)) for w, r in self.rolls)
        return mixture(parts).shift(-self.defence).tail(1)

    @functools.cached_property
    def pmf(self) -> tuple[tuple[int, Fraction], ...]:
        """``(severity, probability)`` for each severity ≥ 1 that can happen, in order."""
        return self.wound.items()

    def mean(self) -> Fraction:
        """Mean severity, counting misses and ignored wounds as 0."""
        return self.wound.mean()


def severity_odds(
    p_hit: Fraction,
    p_critical: Fraction,
    damage: DamageDice,
    defence: int,
    wound_limit: int,
    wounds: int,
    critical_damage: str = "sum",
) -> Severity:
    """Severity of one attack: damage (two dice on a Critical Success) minus Defence.

    ``p_hit`` includes ``p_critical``. Severities of zero or less are no wound.
    """
    rolls = (
        (p_hit - p_critical, (damage, "plain", False)),
        (p_critical, (damage, critical_damage, False)),
    )
    return severity_of(rolls, defence, wound_limit, wounds)


def severity_of(
    rolls: tuple[tuple[Fraction, DamageRoll], ...], defence: int, wound_limit: int, wounds: int
) -> Severity:
    """Severity of a blow that deals each damage roll of ``rolls`` with its chance (the
    chances sum to P(the blow lands)) against ``defence``: severities of zero or less are
    no wound; it vanquishes a defender with ``wounds`` wounds when it is his wound number
    WL + 1 or its severity exceeds his Wound Limit. Exact, from each roll's tail.

    The wounds count only as "this is his last wound or not": the same blow on a
    defender with 0 or 5 wounds of 10 is one computation (cached, bounded: a long
    duel asks for every pair of wound counts)."""
    return _severity(rolls, defence, wound_limit, wounds + 1 > wound_limit)


@functools.lru_cache(maxsize=4096)
def _severity(
    rolls: tuple[tuple[Fraction, DamageRoll], ...], defence: int, wound_limit: int, last: bool
) -> Severity:
    kept = tuple((w, r) for w, r in rolls if w)
    p_hit = sum((w for w, _ in kept), Fraction(0))
    p_wound = sum((w * _at_least(r, defence + 1) for w, r in kept), Fraction(0))
    if last:
        p_vanq = p_wound
    else:
        p_vanq = sum((w * _at_least(r, defence + wound_limit + 1) for w, r in kept), Fraction(0))
    return Severity(
        p_miss=1 - p_hit,
        p_no_wound=p_hit - p_wound,
        p_wound=p_wound,
        p_vanquish=p_vanq,
        rolls=kept,
        defence=defence,
    )


def killer_blow_resist(
    resist: int, wounds: int, die_name: str = "d20", critical: str = "natural"
) -> Fraction:
    """P(a classed character Resists a Killer Blow): ``die + resist − WP`` against TN 12.

    Success leaves him Unconscious with a random permanent Flaw. The Wound
    Penalty applies because it is "–1 to all rolls"; under the natural-20
    critical reading a natural 20 always succeeds (rules note RN-CHIM-2).
    """
    return action_odds(resist - wounds, KILLER_BLOW_TN, die_name, critical).p_success


def unconscious_turns() -> Dist:
    """'knocked out for 1d6 turns': uniform 1 … 6."""
    return die(6)


def driven_off_turns(attacker_level: int) -> int:
    """'he will not return before a number of turns equal to the attacker's level.'"""
    return attacker_level
