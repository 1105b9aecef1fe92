"""The Action Roll: a die plus modifiers against a Target Number (TN).

The text uses a TN throughout ("a Fight or Shoot roll against a Target
Number", "a Sneak roll against his Surprise TN", "Resist a 'Killer Blow' against
TN 12", "a Resistance Roll against his Morale TN") but does not restate how an
Action Roll is made. Chimera's published rules roll a d20 that succeeds when it
meets or beats the TN; that is the default here (rules note RN-CHIM-1), with the
die as an option. The roll's modifier is the actor's skill or attribute bonus
plus any AR adjustment ("a bonus of AR +2", Surprise) minus the Wound Penalty
("each wound suffered imposes a cumulative Wound Penalty (WP) of –1 to all
rolls").

The text names a "Critical Success" (on an attack: "2 dice if the attack is a
Critical Success"; on a Sneak roll: both surprise benefits) but never defines it
(rules note RN-CHIM-2). The readings are the ``critical`` values of :func:`is_critical`
(``natural``, ``natural_hit``, ``margin10``, ``margin5``, ``none``); the Chimera fight
calculator's ``critical`` option chooses one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.pmf import dice

__all__ = [
    "ACTION_DICE",
    "ActionOdds",
    "action_odds",
    "critical_text",
    "is_critical",
    "is_success",
]

ACTION_DICE: dict[str, tuple[int, int]] = {"d20": (1, 20), "2d10": (2, 10), "3d6": (3, 6)}
"""The Action Roll's dice, as (count, sides)."""


def is_success(natural: int, total: int, tn: int, max_face: int, critical: str) -> bool:
    """Whether a roll of ``natural`` on the dice (``total`` with modifiers) succeeds."""
    return total >= tn or (critical == "natural" and natural == max_face)


def is_critical(natural: int, total: int, tn: int, max_face: int, critical: str) -> bool:
    """Whether the roll is a Critical Success under the ``critical`` reading (RN-CHIM-2)."""
    if critical == "natural":
        return natural == max_face
    if critical == "natural_hit":
        return natural == max_face and total >= tn
    if critical == "margin10":
        return total >= tn + 10
    if critical == "margin5":
        return total >= tn + 5
    if critical == "none":
        return False
    raise ValueError(f"unknown critical rule {critical!r}")


def critical_text(critical: str, die: str = "d20") -> str:
    """The critical reading in words, for steps."""
    top = ACTION_DICE[die][0] * ACTION_DICE[die][1]
    nat = "a natural 20" if die == "d20" else f"a natural {top} (every die at its highest)"
    return {
        "natural": f"{nat}, which always succeeds",
        "natural_hit": f"{nat} that also meets the TN",
        "margin10": "a total of TN + 10 or more",
        "margin5": "a total of TN + 5 or more",
        "none": "never (no Critical Successes)",
    }[critical]


@dataclass(frozen=True)
class ActionOdds:
    """Exact odds of one Action Roll: success (criticals included) and Critical Success."""

    die: str
    modifier: int
    tn: int
    critical: str
    p_success: Fraction
    p_critical: Fraction

    @property
    def need(self) -> int:
        """The lowest natural roll that meets the TN (may be off the die)."""
        return self.tn - self.modifier


@functools.lru_cache(maxsize=4096)
def action_odds(modifier: int, tn: int, die: str = "d20", critical: str = "natural") -> ActionOdds:
    """Exact ``P(success)`` and ``P(Critical Success)`` of ``die + modifier`` against ``tn``.

    A roll succeeds when it "meets or beats" the TN (RN-CHIM-1); the Critical
    Success reading is ``critical`` (RN-CHIM-2).
    """
    count, sides = ACTION_DICE[die]
    top = count * sides
    p_s = p_c = Fraction(0)
    for natural, p in dice(count, sides).items():
        total = natural + modifier
        if is_success(natural, total, tn, top, critical):
            p_s += p
            if is_critical(natural, total, tn, top, critical):
                p_c += p
    return ActionOdds(die, modifier, tn, critical, p_s, p_c)
