"""Morale: when a combatant must check, and the chance the check fails.

Chimera combat › Combat:

    When a combatant's Wound Penalty is half his WL, his leader falls, or his
    allies suffer more than 50% casualties, he must make a Resistance Roll
    against his Morale TN to stay in the fight. Failure means surrender or
    retreat. Player characters do not need to check morale.

Reading (rules note RN-CHIM-10): the wound trigger fires once, on the wound that
brings the Wound Penalty to at least half the Wound Limit (for an odd limit,
"half" is reached at the next whole wound); the Wound Penalty also lowers the
Resistance Roll.
"""

from __future__ import annotations

from fractions import Fraction

from ruleslab.chimera.action import action_odds
from ruleslab.sources import CHIMERA, rule

__all__ = ["MORALE", "must_check_morale", "p_morale_fails", "wound_triggers_morale"]

MORALE = rule(CHIMERA, "Combat")


def wound_triggers_morale(wound_limit: int, wounds_before: int, wounds_after: int) -> bool:
    """Whether this wound brings the Wound Penalty to half the Wound Limit (first time).

    True when ``wounds_before < WL/2 ≤ wounds_after``. A Wound Limit of 0 never
    triggers: any wound vanquishes such a combatant first.
    """
    return 2 * wounds_before < wound_limit <= 2 * wounds_after


def must_check_morale(
    *,
    player_character: bool,
    wounds: int,
    wound_limit: int,
    leader_fell: bool = False,
    allies_lost: Fraction = Fraction(0),
) -> bool:
    """Whether a combatant must check morale now.

    Wound Penalty at least half the Wound Limit, the leader fallen, or more than
    50 % of his allies lost (``allies_lost`` as a fraction); never for a PC.
    """
    if player_character:
        return False
    return 2 * wounds >= wound_limit > 0 or leader_fell or Fraction(allies_lost) > Fraction(1, 2)


def p_morale_fails(
    resist: int, wounds: int, morale_tn: int, die: str = "d20", critical: str = "natural"
) -> Fraction:
    """P(the Resistance Roll ``die + resist − WP`` misses the Morale TN)."""
    return 1 - action_odds(resist - wounds, morale_tn, die, critical).p_success
