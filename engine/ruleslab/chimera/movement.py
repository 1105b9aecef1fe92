"""Movement in a round: walking, running, creeping, crouching, lying prone, getting up.

Chimera combat › Combat (Combat Actions):

    Full Actions: Consume an entire 10-second round and include any Action Roll
    (except a Resistance Roll), readying an item, and running or creeping
    (i.e., MR ± your Movement Die).

    Free Actions: Take no time and include shouting orders, dropping an item,
    making a Resistance Roll, and walking no more than your MR (i.e., MR
    without applying your Movement Die).

    • Crouch: Low profile movement; this is a full action at your creeping MR,
      but you gain +1 cover bonus vs. Shoot and Blast attacks.
    • Prone: You can lie flat as a free action and gain a +2 cover bonus vs.
      Shoot and Blast attacks. While prone, you may move at your creeping MR or
      Shoot. Getting up is a free action, but costs your Encumbrance in MR.

and (Attack Target Numbers) "adjusted MR means the base MR modified by
Encumbrance, terrain, Wound or Fatigue Penalty, and the effects of slow or
haste powers."

The text never says how large the Movement Die is: it is an input (rules note
RN-CHIM-20), one of :data:`MOVEMENT_DICE`. Readings (RN-CHIM-20, RN-CHIM-21):
running is MR **+** the Movement Die and creeping MR **−** the Movement Die
(the "±" pairs with "running or creeping" in that order), never below 0; the
MR is the adjusted MR of the moment (his Wound Penalty and Capture's −4
included); getting up spends his Encumbrance out of that round's MR, before he
walks or runs. Distances are in the MR's own units (the text gives none).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.sections import ATTACK_TN, COMBAT_ACTIONS
from ruleslab.chimera.wounds import CAPTURE_PENALTY
from ruleslab.explain import Chart, Step, fmt_num, fmt_prob
from ruleslab.pmf import Dist, constant, die, mixture

__all__ = [
    "MOVEMENT_DICE",
    "MOVES",
    "Movement",
    "adjusted_mr",
    "move_dist",
    "movement",
]

MOVEMENT_DICE = (4, 6, 8, 10, 12)
"""The Movement Die's sizes the calculator offers (the text names the die, not its size)."""

MOVES = ("walk", "run", "creep")
"""How a combatant moves in a round: walking (free, up to his MR), running (a full
action, MR + Movement Die) or creeping (a full action, MR − Movement Die, never below 0)."""


def adjusted_mr(
    base: int, encumbrance: int = 0, modifier: int = 0, wounds: int = 0, bound: bool = False
) -> int:
    """'the base MR modified by Encumbrance, terrain, Wound or Fatigue Penalty, and the
    effects of slow or haste powers', and Capture's '–4 to all rolls and MR while bound':
    ``base − encumbrance + modifier − wounds (− 4 if bound)``, never below 0.

    ``modifier`` is every other change the GM applies to the MR (terrain, the Fatigue
    Penalty, slow or haste), negative for a penalty.
    """
    return max(0, base - encumbrance + modifier - wounds + (CAPTURE_PENALTY if bound else 0))


@functools.lru_cache(maxsize=1024)
def move_dist(how: str, mr: int, sides: int) -> Dist:
    """Exact distance moved in one round at MR ``mr`` with a d``sides`` Movement Die.

    ``walk``: up to MR, a free action (the distance given is the most he may walk: MR).
    ``run``: MR + the die (uniform from MR + 1 to MR + sides). ``creep``: MR − the die,
    never below 0 (every face at or above MR gives 0).
    """
    if how == "walk":
        return constant(mr)
    if how == "run":
        return die(sides).shift(mr)
    if how == "creep":
        faces = die(sides)
        p_stop = faces.at_least(mr)  # MR − face ≤ 0
        moved = (-faces.tail(1)).shift(mr).tail(1)  # MR − face ≥ 1
        return mixture(((p_stop, constant(0)), (Fraction(1), moved)))
    raise ValueError(f"unknown move {how!r}: one of {', '.join(MOVES)}")


def _range_text(d: Dist) -> str:
    values = [v for v, _ in d.items()]
    lo, hi = min(values), max(values)
    span = str(lo) if lo == hi else f"{lo} to {hi}"
    return f"{span} (mean {fmt_num(d.mean())})"


def _spread(d: Dist) -> str:
    """Each distance's chance, runs of equal chances together: "0: 25.00 %, 1 to 9: 8.33 % each"."""
    runs: list[tuple[int, int, Fraction]] = []
    for v, p in d.items():
        if runs and runs[-1][2] == p and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v, p)
        else:
            runs.append((v, v, p))
    return ", ".join(
        f"{lo}: {fmt_prob(p)}" if lo == hi else f"{lo} to {hi}: {fmt_prob(p)} each"
        for lo, hi, p in runs
    )


@dataclass(frozen=True)
class Movement:
    """One combatant's movement in a round at his current wounds.

    ``mr``: his adjusted MR; ``walk``, ``run``, ``creep``: the exact distances
    (:func:`move_dist`); ``after_getting_up``: the MR left in the round he gets up
    from prone ('costs your Encumbrance in MR'), which he may walk, or run with the
    Movement Die added; ``steps`` explain each.
    """

    name: str
    sides: int
    mr: int
    walk: Dist
    run: Dist
    creep: Dist
    after_getting_up: int
    steps: tuple[Step, ...]

    def chart(self, how: str, closes: int = 0) -> Chart:
        """Distance in one round running (``how == "run"``) or creeping (``"creep"``), one bar
        per distance; highlighted from the first distance that covers ``closes`` (none when
        ``closes`` is 0 or out of reach)."""
        moved = self.run if how == "run" else self.creep
        bars = tuple((str(v), float(p)) for v, p in moved.items())
        first = next((i for i, (v, _) in enumerate(moved.items()) if v >= closes), None)
        return Chart(bars, first if closes else None)


def movement(
    name: str,
    base: int,
    sides: int,
    *,
    encumbrance: int = 0,
    modifier: int = 0,
    wounds: int = 0,
    bound: bool = False,
    position: str = "standing",
) -> Movement:
    """How far combatant ``name`` walks, runs and creeps in one round (Combat Actions).

    The adjusted MR (:func:`adjusted_mr`) walks for free; running and creeping are full
    actions at MR ± the d``sides`` Movement Die; crouched movement is creeping, and so is a
    prone combatant's ('While prone, you may move at your creeping MR'); getting up from
    prone spends his Encumbrance out of that round's MR.
    """
    if sides not in MOVEMENT_DICE:
        raise ValueError(
            f"{name}'s Movement Die must be one of {', '.join(f'd{s}' for s in MOVEMENT_DICE)}, "
            f"not {sides!r}"
        )
    raw = base - encumbrance + modifier - wounds + (CAPTURE_PENALTY if bound else 0)
    mr = adjusted_mr(base, encumbrance, modifier, wounds, bound)
    parts = [f"base MR {base}"]
    if encumbrance:
        parts.append(f"− Encumbrance {encumbrance}")
    if modifier:
        sign = "+" if modifier > 0 else "−"
        parts.append(f"{sign} {abs(modifier)} (terrain, Fatigue, slow/haste)")
    if wounds:
        parts.append(f"− WP {wounds}")
    if bound:
        parts.append(f"− {-CAPTURE_PENALTY} bound (Capture)")
    floor = " (not below 0)" if mr != raw else ""
    walk, run, creep = (move_dist(how, mr, sides) for how in MOVES)
    up = max(0, mr - encumbrance)
    steps = [
        Step(f"{name}'s adjusted MR = {' '.join(parts)} = {mr}{floor}", ATTACK_TN),
        Step(
            f"{name} walks up to {mr} as a free action (MR without the Movement Die), and may "
            "still take his full action",
            COMBAT_ACTIONS,
        ),
        Step(
            f"{name} runs MR {mr} + d{sides} (a full action): {_range_text(run)}; {_spread(run)}",
            COMBAT_ACTIONS,
        ),
        Step(
            f"{name} creeps MR {mr} − d{sides}, never below 0 (a full action): "
            f"{_range_text(creep)}; {_spread(creep)}",
            COMBAT_ACTIONS,
        ),
    ]
    if position == "crouching":
        steps.append(
            Step(
                f"{name} is crouching: his movement is creeping, a full action "
                f"({_range_text(creep)}); +1 cover vs Shoot and Blast",
                COMBAT_ACTIONS,
            )
        )
    elif position in ("prone", "gets_up", "drops_prone"):
        steps.append(
            Step(
                f"Prone, {name} moves only by creeping ({_range_text(creep)}), a full action; "
                f"getting up is free but costs his Encumbrance {encumbrance} in MR: that round "
                f"he walks up to {up} or runs {up} + d{sides}",
                COMBAT_ACTIONS,
            )
        )
    return Movement(
        name=name,
        sides=sides,
        mr=mr,
        walk=walk,
        run=run,
        creep=creep,
        after_getting_up=up,
        steps=tuple(steps),
    )
