"""The Movement calculator (key ``movement``): walking, running and sprinting speeds.

The rule is :func:`ruleslab.quickref.movement.movement` (the speed formulas, with the
carried load's encumbrance from :mod:`ruleslab.quickref.encumbrance`); this module
declares the calculator's inputs and their defaults: the mover, a
:class:`~ruleslab.character.Character` (:data:`MOVER`), and what he carries, read
from his :class:`~ruleslab.character.Conditions` (:data:`MOVER_CONDITIONS`). See
:mod:`ruleslab.declare`.
"""

from __future__ import annotations

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Headline
from ruleslab.inputs import BEYOND_HEAVY, HEAVY_FROM
from ruleslab.params import ChoiceParam, checked
from ruleslab.quickref import movement as rules
from ruleslab.quickref.conditions import load_encumbrance
from ruleslab.quickref.movement import MovementResult
from ruleslab.records import Role
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "MOVER", "MOVER_CONDITIONS", "movement"]

MOVER = Role(
    "mover",
    "The mover",
    Character,
    ("strength", "dexterity", "athletics", "might", "mega_strength", "mega_dexterity"),
    help={
        "mega_strength": (
            "Mega-Strength dots (0–10). Each dot counts as 2 Strength dots in the speeds "
            "(rules note RN-MOVE-1) and multiplies the encumbrance thresholds "
            "(×10/100/250/500/1000 at 1–5 dots)."
        ),
    },
)
"""The character who moves: the speeds' Str, Dex and Athletics, and the Str, Might and
Mega-Strength his load's encumbrance tier follows from."""
MOVER_CONDITIONS = Role(
    "conditions",
    "The mover's conditions",
    Conditions,
    ("load_kg",),
    applies=("sprinting",),  # refused with a Heavy load (RN-COND-2)
    defaults={"load_kg": 20.0},
)
"""What he carries: its tier's movement penalties lower his speeds. Movement makes no
roll, so no other condition changes a speed; sprinting's own limits (no actions but
defensive maneuvers, +1 difficulty to those) are listed among the effects."""
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


@checked(MOVER, MOVER_CONDITIONS, WALKING_FLOOR, HEAVY_FROM, BEYOND_HEAVY)
def movement(
    mover: Character | None = None,
    conditions: Conditions | None = None,
    walking_floor: str = "whole",
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
) -> MovementResult:
    """The Movement calculator: "Walking: (Strength + Dexterity) meters/round. Running:
    (5 + [Dexterity * 2] + Strength) meters/round. Sprinting: (5 + [Athletics] +
    [Dexterity * 3] + [Strength]) meters/round", less the carried load's encumbrance
    penalties (:func:`ruleslab.quickref.movement.movement`).

    ``mover`` and ``conditions`` are records (``None``: the form's defaults); a
    caller may instead pass their fields (``strength=4``, ``load_kg=30``). The load
    is his conditions' ``load_kg``.
    """
    assert mover is not None  # (filled in by @checked)
    assert conditions is not None
    return rules.movement(
        mover.strength,
        mover.dexterity,
        mover.athletics,
        mover.mega_strength,
        mover.mega_dexterity,
        load_encumbrance(mover, conditions, heavy_from=heavy_from, beyond_heavy=beyond_heavy),
        walking_floor=walking_floor,
    )


CALCULATOR = Calculator(
    key="movement",
    title="Movement",
    summary=(
        "Walking, running and sprinting speeds in metres per round, with Mega-Strength and "
        "Mega-Dexterity counted and the carried load's encumbrance penalties applied."
    ),
    compute=movement,
    headlines=(
        Headline(
            ("walking", "running", "sprinting", "tier"),
            when=lambda v: v["load_kg"] > 0,
            question="How far he moves in a round, under his load",
        ),
        Headline(("walking", "running", "sprinting"), question="How far he moves in a round"),
    ),
    rules=(rule(QR, "Movement, Encumbrance, Mega-Attributes"),),
    options=("walking_floor", "heavy_from", "beyond_heavy"),
    example=(
        "from ruleslab.calculators.movement import movement\n"
        "from ruleslab.character import Character, Conditions\n"
        "runner = Character(strength=3, dexterity=3, athletics=2, mega_dexterity=1)\n"
        "r = movement(mover=runner, conditions=Conditions(load_kg=30))\n"
        "print(r.explain())"
    ),
)
