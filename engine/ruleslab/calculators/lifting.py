"""The Lifting & encumbrance calculator (key ``lifting``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import lifting
from ruleslab.declare import Calculator
from ruleslab.sources import QR, rule

CALCULATOR = Calculator(
    key="lifting",
    title="Lifting & encumbrance",
    summary=(
        "How much a character lifts and carries: lift capacity, the encumbrance tier and "
        "its effects, and the exact odds of a lift roll for a heavier object."
    ),
    compute=lifting.lifting_and_encumbrance,
    rules=(rule(QR, "Mega-Attributes, Lifting, Encumbrance"),),
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
)
