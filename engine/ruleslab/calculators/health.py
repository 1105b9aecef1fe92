"""The Health & soak calculator (key ``health``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import health
from ruleslab.declare import Calculator, HealthTrackView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="health",
    title="Health & soak",
    summary=(
        "A character's health track under 2.0 or 2.1, filled as damage is entered: "
        "wound penalty, state (hurt, incapacitated, dying, dead) and soak."
    ),
    compute=health.health,
    rules=(
        rule(QR, "2.0 Rules", "Health Levels, Soak, Combat (Stun Damage)"),
        rule(QR, "2.1 Rules", "Health Levels"),
    ),
    options=("mega_stamina_elsewhere", "death_at", "soak_rounding"),
    views=(HealthTrackView(),),
    example=(
        "from ruleslab.health import health\n"
        "r = health(ruleset='2.0', strength=3, mega_strength=0, stamina=3, mega_stamina=0,\n"
        "           quantum=2, willpower=3, resistance=0, armour_levels=0,\n"
        "           armour_bashing=0, armour_lethal=0, armour_aggravated=0,\n"
        "           bashing=1, lethal=2, aggravated=0, stun=0)\n"
        "print(r.explain())"
    ),
)
