"""The Autofire & strafing calculator (key ``autofire``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import autofire
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="autofire",
    title="Autofire & strafing",
    summary=(
        "A burst (or single shot) at one or more targets: ammunition used, difficulty, the "
        "exact chance to hit after the target's dodge, and the exact health levels each "
        "target loses after soak, honouring the weapon's tags."
    ),
    compute=autofire.autofire_and_strafing,
    rules=(
        rule(QR, "Ranged Attack Maneuvers", "Autofire, Strafing"),
        rule(QR, "Weapon Tags"),
        rule(QR, "2.0 Rules", "Combat (Soak, Ping, Armor Piercing)"),
    ),
    options=("ruleset", "extra_successes", "net_from", "burst_damage", "burst_weapon_ammo"),
    views=(
        ChartView(
            title="Health levels lost per target",
            x_label="Health levels",
            chart=lambda r: Chart(r.chart(), 1),
        ),
    ),
    example=(
        "from ruleslab.autofire import autofire_and_strafing\n"
        "r = autofire_and_strafing(burst='medium', targets=3, tags='AP(2), Guided',\n"
        "                          dodge_pool=3, natural_soak=2, armour_soak=3)\n"
        "print(r.explain())"
    ),
)
