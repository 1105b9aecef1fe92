"""The Initiative & defence calculator (key ``defence``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import defence
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="defence",
    title="Initiative & defence",
    summary=(
        "Initiative and the chance to act first; 2.0 dodge, parry and powerblock rolls; "
        "2.1 Defense against each attack, active defence, power block and the odds of "
        "multiple actions."
    ),
    compute=defence.initiative_and_defence,
    rules=(
        rule(QR, "2.0 Rules", "Combat (Initiative, Defensive Maneuvers)"),
        rule(QR, "Movement", "Sprinting"),
        rule(QR, "2.1 Rules", "Defenses, Multiple Actions"),
    ),
    options=("ties", "multiple_reading", "mega_in_defense"),
    views=(
        ChartView(
            title="Defence roll (2.0 dodge, 2.1 active defence): successes",
            x_label="Successes",
            chart=lambda r: Chart(r.chart(), r.defence_roll.difficulty),
        ),
    ),
    example=(
        "from ruleslab.defence import multiple_actions, defense\n"
        "print(multiple_actions(attack_pool=7, attack_difficulty=2, actions=3).explain())\n"
        "print(defense(3, 1, 4, 0, 2, 3, quantum=4, power_pool=6).explain())"
    ),
)
