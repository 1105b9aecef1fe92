"""The Dice pool calculator (key ``dice_pool``): see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import dice
from ruleslab_widgets.declare import Calculator, ChartSpec, RollSpec

CALCULATOR = Calculator(
    key="dice_pool",
    title="Dice pool",
    summary=(
        "Exact odds of a d10 pool: each die at the target number or more is a success; "
        "the difficulty is the number of successes needed."
    ),
    compute=dice.dice_pool,
    rules="Aberrant 2.0/2.1 quick reference › Specialties (rerolling 10s); the d10 pool",
    options=("target",),
    rolls=(RollSpec("Roll it", dice.roll_log),),
    views=(
        ChartSpec(
            title="Distribution of successes",
            x_label="Successes",
            bars=lambda r: r.chart(),
            highlight_from=lambda r: r.difficulty,
        ),
    ),
    example=(
        "from ruleslab.dice import pool_distribution, compare\n"
        "a = pool_distribution(8, reroll_tens=True)\n"
        "b = pool_distribution(6, auto=1)\n"
        "print(float(a.at_least(3)), compare(a, b))"
    ),
)
