"""The Movement calculator (key ``movement``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import movement
from ruleslab.declare import Calculator
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="movement",
    title="Movement",
    summary=(
        "Walking, running and sprinting speeds in metres per round, with Mega-Strength and "
        "Mega-Dexterity counted and the carried load's encumbrance penalties applied."
    ),
    compute=movement.movement,
    rules=(rule(QR, "Movement, Encumbrance, Mega-Attributes"),),
    options=("walking_floor", "heavy_from", "beyond_heavy"),
    example=(
        "from ruleslab.movement import movement\n"
        "r = movement(strength=3, dexterity=3, athletics=2, might=0,\n"
        "             mega_strength=0, mega_dexterity=1, load_kg=30)\n"
        "print(r.explain())"
    ),
)
