"""What a duel starts from and ends in: who surprises whom, the ends, the wounds check.

Shared by the exact chain (:mod:`ruleslab.chimera.duel`) and the seeded play
(:mod:`ruleslab.chimera.play`), so that both read the same records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ruleslab.chimera.attack import Fighter, whole_number

__all__ = [
    "BENEFITS",
    "BENEFIT_CHOICES",
    "END_KEYS",
    "End",
    "Plan",
    "SurprisePlan",
    "check_distance",
    "check_wounds",
    "has_first_turn",
]

END_KEYS = ("v0", "v1", "m0", "m1", "draw")
"""Ends of a fight: ``v<i>`` side i vanquishes the other, ``m<i>`` side i wins because
the other failed morale, ``draw`` both fall at once (only with simultaneous ties)."""

BENEFIT_CHOICES = (
    ("action", "A full action before the foe can respond"),
    ("bonus", "AR +2 on the first round"),
)
"""A successful Sneak roll's benefit, in the words the "Chimera fight" form offers it: a
full action before the foe can respond, or AR +2."""
BENEFITS = tuple(key for key, _ in BENEFIT_CHOICES)
"""The benefits by key."""


class End(NamedTuple):
    """An end of the fight (``key``: one of :data:`END_KEYS`, ``"endless"`` or ``"break"``)
    with both combatants' wounds at that moment (the wound that ends it included)."""

    key: str
    a: int
    b: int


def check_wounds(*fighters: Fighter) -> None:
    """:class:`ValueError` unless each fighter's ``wounds`` is at most his Wound Limit
    and his ``allies_down`` at most his ``allies`` (two fields of one record).

    "If the total number of wounds … exceeds the defender's Wound Limit, he's
    vanquished": a combatant with more wounds is already out of the fight.
    """
    for f in fighters:
        f.check_whole()


def check_distance(distance: object) -> int:
    """``distance`` if it is a whole number from 0 up, else :class:`ValueError` saying so."""
    return whole_number("the ", "distance", distance, minimum=0)


def has_first_turn(f: Fighter) -> bool:
    """Whether ``f``'s first turn differs from the others: he readies an item (a full
    action), or drops prone or gets up (a free action) on it (rules notes RN-CHIM-19, 22)."""
    return f.plan == "ready" or f.position != f.position_after


@dataclass(frozen=True)
class SurprisePlan:
    """Who tries to surprise whom, and how.

    ``side`` (0 = A, 1 = B) rolls Sneak ``sneak`` against the foe's Surprise TN
    ``tn``; ``benefit`` is ``"action"`` (a full action before the foe can respond)
    or ``"bonus"`` (AR +2 on the first round's action). Any other value raises
    :class:`ValueError` naming it and what is allowed.
    """

    side: int
    sneak: int
    tn: int
    benefit: str = "action"

    def __post_init__(self) -> None:
        if isinstance(self.side, bool) or self.side not in (0, 1):
            raise ValueError(
                f"SurprisePlan.side must be 0 (A sneaks) or 1 (B sneaks), not {self.side!r}"
            )
        whole_number("SurprisePlan.", "sneak", self.sneak)
        whole_number("SurprisePlan.", "tn", self.tn)
        if not isinstance(self.benefit, str) or self.benefit not in BENEFITS:
            raise ValueError(
                f"SurprisePlan.benefit must be one of {', '.join(BENEFITS)}, not {self.benefit!r}"
            )


@dataclass(frozen=True)
class Plan:
    """The first round's special rules after a Sneak roll.

    ``kind``: ``"none"``, ``"action"``, ``"bonus"`` or ``"both"``; ``side`` the
    sneak (ignored for ``"none"``).
    """

    kind: str = "none"
    side: int = 0
