"""The Movement calculator (key ``movement``): walking, running and sprinting speeds.

The rule is :func:`ruleslab.movement.movement` (the speed formulas, with the
carried load's encumbrance from :mod:`ruleslab.encumbrance`); this module
declares the calculator's inputs and their defaults. See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab import movement as rules
from ruleslab.declare import Calculator
from ruleslab.inputs import (
    ATHLETICS,
    BEYOND_HEAVY,
    DEXTERITY,
    HEAVY_FROM,
    LOAD_KG,
    MEGA_DEXTERITY,
    MEGA_STRENGTH,
    MIGHT,
    STRENGTH,
)
from ruleslab.movement import MovementResult
from ruleslab.params import ChoiceParam, checked
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "movement"]

MOVE_MEGA_STRENGTH = replace(
    MEGA_STRENGTH,
    help=(
        "Mega-Strength dots (0–10). Each dot counts as 2 Strength dots in the speeds "
        "(rules note RN-MOVE-1) and multiplies the encumbrance thresholds "
        "(×10/100/250/500/1000 at 1–5 dots)."
    ),
)
WALKING_FLOOR = ChoiceParam(
    "walking_floor",
    "3 m/round walking floor limits",
    choices=(
        ("whole", "The whole encumbrance penalty"),
        ("dexterity", "Only the Dexterity penalty"),
    ),
    help=(
        "Encumbrance ‘may not reduce Walking speeds to lower than 3 m/round’, but the text "
        "names only the Dexterity penalty. ‘Whole penalty’: Walking with a load is never "
        "below 3 m/round (or its unencumbered speed, if that is lower). ‘Only Dexterity’: "
        "the Strength penalty applies in full first and can push Walking below 3. "
        "See rules note RN-MOVE-2."
    ),
)


@checked(
    STRENGTH,
    DEXTERITY,
    ATHLETICS,
    MIGHT,
    MOVE_MEGA_STRENGTH,
    MEGA_DEXTERITY,
    LOAD_KG,
    WALKING_FLOOR,
    HEAVY_FROM,
    BEYOND_HEAVY,
)
def movement(
    strength: int = 3,
    dexterity: int = 3,
    athletics: int = 2,
    might: int = 0,
    mega_strength: int = 0,
    mega_dexterity: int = 0,
    load_kg: float = 20.0,
    walking_floor: str = "whole",
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
) -> MovementResult:
    """The Movement calculator: "Walking: (Strength + Dexterity) meters/round. Running:
    (5 + [Dexterity * 2] + Strength) meters/round. Sprinting: (5 + [Athletics] +
    [Dexterity * 3] + [Strength]) meters/round", less the carried load's encumbrance
    penalties (:func:`ruleslab.movement.movement`)."""
    return rules.movement(
        strength,
        dexterity,
        athletics,
        might,
        mega_strength,
        mega_dexterity,
        load_kg,
        walking_floor=walking_floor,
        heavy_from=heavy_from,
        beyond_heavy=beyond_heavy,
    )


CALCULATOR = Calculator(
    key="movement",
    title="Movement",
    summary=(
        "Walking, running and sprinting speeds in metres per round, with Mega-Strength and "
        "Mega-Dexterity counted and the carried load's encumbrance penalties applied."
    ),
    compute=movement,
    rules=(rule(QR, "Movement, Encumbrance, Mega-Attributes"),),
    options=("walking_floor", "heavy_from", "beyond_heavy"),
    example=(
        "from ruleslab.calculators.movement import movement\n"
        "r = movement(strength=3, dexterity=3, athletics=2, might=0,\n"
        "             mega_strength=0, mega_dexterity=1, load_kg=30)\n"
        "print(r.explain())"
    ),
)
