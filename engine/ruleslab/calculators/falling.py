"""The Falling calculator (key ``falling``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import falling
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="falling",
    title="Falling",
    summary=(
        "A fall's safe distance and damage dice, the exact distribution of the dice left "
        "after a (Dexterity + Athletics) break-fall roll, and the chance the damage is "
        "lethal."
    ),
    compute=falling.fall,
    rules=(rule(QR, "Falling"), rule(QR, "Mega-Attributes"), rule(QR, "Specialties")),
    options=("ruleset", "specialty", "count_from", "lethal_means"),
    views=(
        ChartView(
            title="Damage dice left after the break-fall",
            x_label="Dice left",
            chart=lambda r: Chart(r.chart(), r.highlight_from()),
        ),
    ),
    example=(
        "from ruleslab.falling import fall\n"
        "r = fall(height_m=30, stamina=3, dexterity=3, athletics=2)\n"
        "print(r.damage_dice, float(r.p_lethal))"
    ),
)
