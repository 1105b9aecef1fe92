"""The Healing time calculator (key ``healing``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import healing
from ruleslab.declare import Calculator
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="healing",
    title="Healing time",
    summary=(
        "How long a character takes to heal back to full health (2.1): each damaged "
        "level's time from the healing table, with treatment and medical supplies."
    ),
    compute=healing.healing_time,
    rules=(rule(QR, "2.1 Rules", "Healing, Health Levels"),),
    options=("order", "penalty_from", "dying_bashing"),
    example=(
        "from ruleslab.healing import healing_time\n"
        "r = healing_time(lethal=2, bashing=3, health_levels=12, levels_per_penalty=3,\n"
        "                 incap_levels=3, healer_medicine=2, supplies='clinic')\n"
        "print(r.explain())"
    ),
)
