"""The Jumping calculator (key ``jumping``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import jumping
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="jumping",
    title="Jumping",
    summary=(
        "The exact distribution of a jump's height or length from the (Strength + "
        "Athletics) roll, Mega-Strength's automatic successes and multiplier, and the "
        "chance to clear a given gap or height."
    ),
    compute=jumping.jump,
    rules=(rule(QR, "Movement", "Jumping"), rule(QR, "Specialties")),
    options=("ruleset", "specialty", "mega_in_pool"),
    views=(
        ChartView(
            title="Distribution of the jump's distance",
            x_label="Metres",
            chart=lambda r: Chart(r.chart(), r.highlight_from()),
        ),
    ),
    example=(
        "from ruleslab.jumping import jump\n"
        "r = jump(strength=3, athletics=2, mega_strength=1,\n"
        "         direction='horizontal', distance_m=30)\n"
        "print(float(r.p_clear), r.explain())"
    ),
)
