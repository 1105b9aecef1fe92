"""The Damage resolution calculator (key ``damage``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import damage
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="damage",
    title="Damage resolution",
    summary=(
        "One attack's damage against a target: soak on the dice, damage adds, ping, "
        "the exact distribution of health levels lost and the chance to Daze or Stun."
    ),
    compute=damage.damage_resolution,
    rules=(rule(QR, "2.0 Rules", "Soak, Combat"), rule(QR, "Weapon Tags", "AP(X)")),
    options=("soak_rounding",),
    views=(
        ChartView(
            title="Health levels lost",
            x_label="Health levels",
            chart=lambda r: Chart(r.chart(), max(0, r.dazed_at - r.taken_this_turn)),
        ),
    ),
    example=(
        "from ruleslab.damage import damage_taken\n"
        "r = damage_taken(dice=8, adds=2, kind='lethal', natural_soak=2, armour_soak=3,\n"
        "                 armour_piercing=1)\n"
        "print(r.dice_after_soak, float(r.mean), float(r.p_at_least(4)))"
    ),
)
