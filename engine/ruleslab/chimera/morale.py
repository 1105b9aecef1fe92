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

The other two triggers ("his leader falls", "his allies suffer more than 50%
casualties") come from the rest of the battle, outside the duel: when either
holds, the NPC checks before the duel's first round (:func:`side_morale_trigger`,
RN-CHIM-18); casualties count his allies (reading ``"allies"``: more than half
of them are down) or his whole side, himself included (``"side"``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ruleslab.chimera.action import action_odds

if TYPE_CHECKING:
    from ruleslab.chimera.attack import Fighter

__all__ = [
    "CASUALTY_READINGS",
    "casualties_over_half",
    "must_check_morale",
    "p_morale_fails",
    "side_morale_trigger",
    "wound_triggers_morale",
]

CASUALTY_READINGS = ("allies", "side")
"""'more than 50% casualties' among his allies, or among his side with himself counted."""


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


def casualties_over_half(allies: int, allies_down: int, casualties: str = "allies") -> bool:
    """Whether "his allies suffer more than 50% casualties".

    ``"allies"``: more than half of his ``allies`` are down (``2·down > allies``);
    ``"side"``: more than half of his side, himself standing among them
    (``2·down > allies + 1``). With no allies there are no casualties.
    """
    if casualties not in CASUALTY_READINGS:
        raise ValueError(f"unknown casualties reading {casualties!r}")
    counted = allies + (1 if casualties == "side" else 0)
    return allies > 0 and 2 * allies_down > counted


def side_morale_trigger(f: Fighter, casualties: str = "allies") -> str | None:
    """Why ``f`` must check morale before the duel (his leader fell, his side's
    casualties), in words; ``None`` if neither holds or he is a player character."""
    if not f.checks_morale:
        return None
    reasons = []
    if f.leader_fell:
        reasons.append("his leader has fallen")
    if casualties_over_half(f.allies, f.allies_down, casualties):
        of = "his allies" if casualties == "allies" else "his side (himself counted)"
        reasons.append(f"{f.allies_down} of {f.allies} allies down: more than 50 % of {of}")
    return " and ".join(reasons) or None
