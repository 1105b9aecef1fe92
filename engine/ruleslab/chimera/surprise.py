"""Surprise: the Sneak roll and its benefits.

Chimera combat › Combat:

    You may surprise a foe with a Sneak roll against his Surprise TN. If
    successful, you may either execute a full combat action before your foe can
    respond (see Combat Actions, below), or you may apply a bonus of AR +2 to
    whatever action you perform on the first round of the fight (at the GM's
    discretion, you may apply both benefits if the Sneak roll is a Critical
    Success).

Readings: rules notes RN-CHIM-11 (the surprise action is a round of its own in
which only the sneak acts, option ``surprise_action``) and RN-CHIM-12 (a
critical gives both benefits unless the GM declines, option
``surprise_critical``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.action import action_odds

__all__ = [
    "SURPRISE_AR_BONUS",
    "SurpriseOdds",
    "surprise_odds",
]

SURPRISE_AR_BONUS = 2


@dataclass(frozen=True)
class SurpriseOdds:
    """P(the Sneak roll fails), succeeds without a critical, and is a Critical Success."""

    p_fail: Fraction
    p_success: Fraction
    p_critical: Fraction


def surprise_odds(
    sneak: int, surprise_tn: int, die: str = "d20", critical: str = "natural"
) -> SurpriseOdds:
    """Exact odds of a Sneak roll ``die + sneak`` against the foe's Surprise TN."""
    odds = action_odds(sneak, surprise_tn, die, critical)
    return SurpriseOdds(
        p_fail=1 - odds.p_success,
        p_success=odds.p_success - odds.p_critical,
        p_critical=odds.p_critical,
    )
