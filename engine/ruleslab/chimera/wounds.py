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
from ruleslab.sources import CHIMERA, rule

__all__ = [
    "CAPTURE_PENALTY",
    "COMBAT",
    "FATES",
    "KILLER_BLOW_TN",
    "VANQUISHING",
    "Severity",
    "driven_off_turns",
    "is_vanquished",
    "killer_blow_resist",
    "severity_odds",
    "severity_of",
    "unconscious_turns",
    "wound_penalty",
]

COMBAT = rule(CHIMERA, "Combat")
VANQUISHING = rule(CHIMERA, "Combat", "Vanquishing Foes")

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


@dataclass(frozen=True)
class Severity:
    """The exact outcome of one attack on the defender.

    ``p_miss`` (the attack fails), ``p_no_wound`` (a hit of severity zero or
    less, ignored) and the wounds (``wound``: ``P(hit and severity = s)`` for
    severities ``s ≥ 1``; :attr:`pmf` lists them) sum to 1. ``p_vanquish`` is
    the chance this blow vanquishes a defender who already has ``wounds`` wounds.
    """

    p_miss: Fraction
    p_no_wound: Fraction
    wound: Dist
    p_vanquish: Fraction

    @functools.cached_property
    def pmf(self) -> tuple[tuple[int, Fraction], ...]:
        """``(severity, probability)`` for each severity ≥ 1 that can happen, in order."""
        return self.wound.items()

    @functools.cached_property
    def p_wound(self) -> Fraction:
        """The chance of a wound (severity ≥ 1)."""
        return self.wound.total()

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
    parts = ((p_hit - p_critical, damage.dist()), (p_critical, damage.doubled(critical_damage)))
    return severity_of(p_hit, mixture(parts), defence, wound_limit, wounds)


def severity_of(
    p_hit: Fraction, damage: Dist, defence: int, wound_limit: int, wounds: int
) -> Severity:
    """Severity of a blow that lands with ``p_hit`` and then deals ``damage`` (the damage
    roll's distribution weighted by its chances, summing to ``p_hit``) against ``defence``:
    severities of zero or less are no wound; it vanquishes a defender with ``wounds`` wounds
    when it is his wound number WL + 1 or its severity exceeds his Wound Limit."""
    wound = damage.shift(-defence).tail(1)
    p_wound = wound.total()
    p_vanq = p_wound if wounds + 1 > wound_limit else wound.at_least(wound_limit + 1)
    return Severity(p_miss=1 - p_hit, p_no_wound=p_hit - p_wound, wound=wound, p_vanquish=p_vanq)


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
