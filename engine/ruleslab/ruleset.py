"""The ruleset switch: Aberrant 2.0 or 2.1, wherever the two differ.

The quick reference gives two sets of rules ("2.0 Rules", "2.1 Rules") for
specialties, health levels and defence. Every rule function where they differ
takes ``ruleset`` declared with :data:`RULESET`; the default is 2.1, the later
revision (rules note RN-RULESET-1).
"""

from __future__ import annotations

from ruleslab.params import ChoiceParam

__all__ = ["RULESET", "RULESETS", "V20", "V21"]

V20 = "2.0"
V21 = "2.1"
RULESETS = (V20, V21)

RULESET = ChoiceParam(
    "ruleset",
    "Rules version",
    default=V21,
    choices=((V21, "Aberrant 2.1"), (V20, "Aberrant 2.0")),
    help=(
        "Which revision of the rules applies where 2.0 and 2.1 differ "
        "(specialties, Mega-Attribute rerolls, health levels, defence). Default 2.1."
    ),
)
