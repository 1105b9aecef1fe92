"""The Initiative & defence calculator (key ``defence``): see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import defence
from ruleslab_widgets.declare import Calculator, ChartSpec

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
        "Aberrant 2.0/2.1 quick reference › 2.0 Combat (Initiative, Defensive Maneuvers), "
        "Movement (Sprinting), 2.1 Defenses, Multiple Actions"
    ),
    options=("ties", "multiple_reading", "mega_in_defense"),
    views=(
        ChartSpec(
            title="Defence roll (2.0 dodge, 2.1 active defence): successes",
            x_label="Successes",
            bars=lambda r: r.chart(),
            highlight_from=lambda r: r.defence_roll.difficulty,
        ),
    ),
    example=(
        "from ruleslab.defence import multiple_actions, defense\n"
        "print(multiple_actions(attack_pool=7, attack_difficulty=2, actions=3).explain())\n"
        "print(defense(3, 1, 4, 0, 2, 3, quantum=4, power_pool=6).explain())"
    ),
)
