"""The Henchmen squad builder calculator (key ``henchmen``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import henchmen
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import ALT, rule

CALCULATOR = Calculator(
    key="henchmen",
    title="Henchmen squad builder",
    summary=(
        "A leader's henchmen: the (Charisma + Command) × 2 limit, the dice and damage "
        "bonuses, support weapon attacks, extra health levels in compressed combat, and "
        "the exact number of henchmen an incoming attack removes from the squad."
    ),
    compute=henchmen.henchmen_squad,
    rules=(rule(ALT, "Mass Combat", "Henchmen"),),
    options=("rounding", "ping"),
    views=(
        ChartView(
            title="Henchmen removed by the incoming attack",
            x_label="Henchmen removed",
            chart=lambda r: Chart(r.chart(), None),
        ),
    ),
    example=(
        "from ruleslab.henchmen import henchmen_bonus, squad_losses\n"
        "b = henchmen_bonus(charisma=3, command=2, henchmen=12, henchman_pool=8)\n"
        "print(b.limit, b.dice, b.damage, b.extra_health_levels)\n"
        "print(squad_losses(damage=5, henchmen=8, training='trained', area=2).removed)"
    ),
)
