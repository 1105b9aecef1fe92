"""The site's calculators, declared. Adding one is a few lines here.

Each entry names the engine function (whose ``@checked`` parameters become the
form), a summary, the rules section, and optionally a chart and which
parameters are rules options. The site's notebooks, landing page and app links
are generated from this list (``tools/make_content.py``).
"""

from __future__ import annotations

from ruleslab import dice, lifting
from ruleslab_widgets.declare import Calculator, ChartSpec

__all__ = ["CALCULATORS", "get"]

CALCULATORS: tuple[Calculator, ...] = (
    Calculator(
        key="lifting",
        title="Lifting & encumbrance",
        summary=(
            "How much a character lifts and carries: lift capacity, the encumbrance tier and "
            "its effects, and the exact odds of a lift roll for a heavier object."
        ),
        compute=lifting.lifting_and_encumbrance,
        rules="Aberrant 2.0/2.1 quick reference › Mega-Attributes, Lifting, Encumbrance",
        options=tuple(
            p.name
            for p in lifting.lifting_and_encumbrance.params
            if p.name not in {"strength", "might", "mega_strength", "load_kg", "object_kg"}
        ),
        example=(
            "from ruleslab.lifting import lifting_and_encumbrance\n"
            "report = lifting_and_encumbrance(strength=3, might=2, mega_strength=0,\n"
            "                                 load_kg=40, object_kg=450)\n"
            "print(report.explain())"
        ),
    ),
    Calculator(
        key="dice_pool",
        title="Dice pool",
        summary=(
            "Exact odds of a d10 pool: each die at the target number or more is a success; "
            "the difficulty is the number of successes needed."
        ),
        compute=dice.dice_pool,
        rules="Aberrant 2.0/2.1 quick reference › Specialties (rerolling 10s); the d10 pool",
        options=("target",),
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
    ),
)

_BY_KEY = {c.key: c for c in CALCULATORS}


def get(key: str) -> Calculator:
    """The calculator declared under ``key`` (KeyError lists the known keys)."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no calculator {key!r}; known: {', '.join(_BY_KEY)}") from None
