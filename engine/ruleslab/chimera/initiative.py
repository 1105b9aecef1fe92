"""Rounds, actions and initiative.

Chimera combat › Combat:

    When a fight starts, time switches to 10-second rounds. At the start of each
    round, every combatant chooses his action and rolls 1d12 for Initiative
    (adjust the roll by the chosen action's Initiative Modifier (IM)). The
    highest result goes first, then the next highest, and so on until everyone
    has a turn. … combatants roll again for Initiative to repeat the process.

    Full Actions: Consume an entire 10-second round and include any Action Roll
    (except a Resistance Roll), readying an item, and running or creeping.
    Free Actions: Take no time and include shouting orders, dropping an item,
    making a Resistance Roll, and walking no more than your MR.
    You can perform any number of free actions each round, but only 1 full
    action is permitted.

The Wound Penalty is "–1 to all rolls", so it lowers the initiative roll too
(rules note RN-CHIM-8). The text does not break ties (RN-CHIM-9: the
reading is :attr:`FightRules.ties <ruleslab.chimera.attack.FightRules>`).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ruleslab.pmf import Dist, die

__all__ = [
    "FREE_ACTIONS",
    "FULL_ACTIONS",
    "INITIATIVE_DIE",
    "ROUND_SECONDS",
    "initiative_dist",
    "initiative_order",
]

ROUND_SECONDS = 10
INITIATIVE_DIE = 12
FULL_ACTIONS = (
    "any Action Roll (except a Resistance Roll)",
    "readying an item",
    "running or creeping (MR ± your Movement Die)",
)
FREE_ACTIONS = (
    "shouting orders",
    "dropping an item",
    "making a Resistance Roll",
    "walking no more than your MR",
)


def initiative_dist(modifier: int, wounds: int = 0) -> Dist:
    """1d12 + Initiative Modifier − Wound Penalty."""
    return die(INITIATIVE_DIE).shift(modifier - wounds)


@functools.lru_cache(maxsize=4096)
def initiative_order(
    im_a: int, wounds_a: int, im_b: int, wounds_b: int
) -> tuple[Fraction, Fraction, Fraction]:
    """``(P(A higher), P(tie), P(B higher))`` for one round's initiative rolls."""
    a, b = initiative_dist(im_a, wounds_a), initiative_dist(im_b, wounds_b)
    return a.versus(b)  # counted on whole numbers: P(A > B), P(A = B), P(A < B)
