"""The Autofire & strafing calculator (key ``autofire``): see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import autofire
from ruleslab_widgets.declare import Calculator, ChartSpec

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
        "Aberrant 2.0/2.1 quick reference › Ranged Attack Maneuvers (Autofire, Strafing), "
        "Weapon Tags, 2.0 Rules › Combat (Soak, Ping, Armor Piercing)"
    ),
    options=("ruleset", "extra_successes", "net_from", "burst_damage", "burst_weapon_ammo"),
    views=(
        ChartSpec(
            title="Health levels lost per target",
            x_label="Health levels",
            bars=lambda r: r.chart(),
            highlight_from=lambda r: 1,
        ),
    ),
    example=(
        "from ruleslab.autofire import autofire_and_strafing\n"
        "r = autofire_and_strafing(burst='medium', targets=3, tags='AP(2), Guided',\n"
        "                          dodge_pool=3, natural_soak=2, armour_soak=3)\n"
        "print(r.explain())"
    ),
)
