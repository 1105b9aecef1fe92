"""Positions and cover: the bonuses added to the attacker's TN, or to a Resistance Roll vs. blasts.

Chimera combat › Combat:

    It's assumed that you're standing while fighting, but you can also assume
    these positions:
    • Crouch: Low profile movement; this is a full action at your creeping MR,
      but you gain +1 cover bonus vs. Shoot and Blast attacks.
    • Prone: You can lie flat as a free action and gain a +2 cover bonus vs.
      Shoot and Blast attacks. While prone, you may move at your creeping MR or
      Shoot. Getting up is a free action, but costs your Encumbrance in MR.

    … cover bonuses are also added to the attacker's Target Number, based on
    target exposure: Light (+1), Medium (+2), Heavy (+4).

    Add the Cover bonus (and shield bonus, at the GM's option) to your
    Resistance Roll vs. blast attacks (double the bonus for thick, strong, or
    reinforced barriers).

Besides the three positions a combatant holds, two are a change of position on
his first turn, each a free action (rules note RN-CHIM-22): ``drops_prone``
(standing until his first turn, prone from it) and ``gets_up`` (prone until his
first turn, standing from it; getting up costs his Encumbrance in MR that round).
"""

from __future__ import annotations

__all__ = [
    "COVER_BONUS",
    "POSITION_AFTER",
    "POSITION_BEFORE",
    "POSITION_BONUS",
    "blast_resistance_bonus",
]

COVER_BONUS: dict[str, int] = {"none": 0, "light": 1, "medium": 2, "heavy": 4}
"""Light covers ¼ (+1), medium ½ (+2), heavy ¾ (+4) of the target."""

POSITION_BONUS: dict[str, int] = {"standing": 0, "crouching": 1, "prone": 2}
"""Cover bonus of a position, vs. Shoot and Blast attacks only."""

POSITION_BEFORE: dict[str, str] = {
    "standing": "standing",
    "crouching": "crouching",
    "prone": "prone",
    "drops_prone": "standing",
    "gets_up": "prone",
}
"""The position a combatant holds until his first turn."""

POSITION_AFTER: dict[str, str] = {
    "standing": "standing",
    "crouching": "crouching",
    "prone": "prone",
    "drops_prone": "prone",
    "gets_up": "standing",
}
"""The position he holds from his first turn on (after the free action, if any)."""


def blast_resistance_bonus(
    cover: str = "none",
    position: str = "standing",
    shield: int = 0,
    shield_counts: bool = False,
    reinforced: bool = False,
    stacking: str = "add",
) -> int:
    """Bonus to the Resistance Roll against a blast attack.

    "Add the Cover bonus (and shield bonus, at the GM's option) to your
    Resistance Roll vs. blast attacks (double the bonus for thick, strong, or
    reinforced barriers)." The position's cover bonus (crouch +1, prone +2) is
    a cover bonus "vs. Shoot and Blast attacks" and counts too; only the
    barrier's bonus doubles (rules note RN-CHIM-7). With ``stacking == "best"``
    only the better of the position's and the barrier's bonus counts
    (RN-CHIM-4's option), the shield's added to it.
    """
    barrier = COVER_BONUS[cover] * (2 if reinforced else 1)
    pos = POSITION_BONUS[POSITION_AFTER[position]]
    cover_total = max(barrier, pos) if stacking == "best" else barrier + pos
    return cover_total + (shield if shield_counts else 0)
