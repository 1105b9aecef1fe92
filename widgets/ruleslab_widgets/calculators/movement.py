"""The Movement calculator (key ``movement``): see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import movement
from ruleslab_widgets.declare import Calculator

CALCULATOR = Calculator(
    key="movement",
    title="Movement",
    summary=(
        "Walking, running and sprinting speeds in metres per round, with Mega-Strength and "
        "Mega-Dexterity counted and the carried load's encumbrance penalties applied."
    ),
    compute=movement.movement,
    rules="Aberrant 2.0/2.1 quick reference › Movement, Encumbrance, Mega-Attributes",
    options=("walking_floor", "heavy_from", "beyond_heavy"),
    example=(
        "from ruleslab.movement import movement\n"
        "r = movement(strength=3, dexterity=3, athletics=2, might=0,\n"
        "             mega_strength=0, mega_dexterity=1, load_kg=30)\n"
        "print(r.explain())"
    ),
)
