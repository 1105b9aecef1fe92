"""The Warfare calculator (key ``warfare``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import warfare
from ruleslab.declare import Calculator, Chart, ChartView, Roll
from ruleslab.sources import ALT, rule

CALCULATOR = Calculator(
    key="warfare",
    title="Warfare",
    summary=(
        "The war around the party: an enemy force's attacks of opportunity in one turn "
        "(Size, capped by its commander's Intelligence + Command), exact odds of a hit and "
        "the total lethal damage to a character, or henchmen removed from a squad (Area ×3); "
        "Support, Power and Morale spending; Quantity is Quality."
    ),
    compute=warfare.warfare,
    rules=(
        rule(
            ALT,
            "Mass Combat",
            "Warfare (Force Attributes, Attacks of Opportunity, Power Overwhelming, "
            "Quantity is Quality)",
        ),
        rule(ALT, "Mass Combat", "Henchmen"),
    ),
    options=(
        "defence_reading",
        "size_penalty",
        "divide_by_3",
        "mega_intelligence",
        "morale_on_damage",
        "rounding",
    ),
    rolls=(
        Roll(
            "Roll it",
            warfare.roll_turn,
            help=(
                "Rolls one turn of attacks of opportunity with the current inputs; the "
                "same seed replays the same turn."
            ),
        ),
    ),
    views=(
        ChartView(
            title="Total damage this turn",
            x_label="Health levels (character) or henchmen removed (squad)",
            chart=lambda r: Chart(r.chart(), None),
        ),
    ),
    example=(
        "from ruleslab.warfare import warfare, roll_turn\n"
        "r = warfare(enemy_size=7, enemy_skill=4, support=3, spend_support=True,\n"
        "            target='squad', henchmen=12, training='trained')\n"
        "print(r.attacks, float(r.p_hit), float(r.expected_losses))\n"
        "print('\\n'.join(roll_turn(r, 1)))"
    ),
)
