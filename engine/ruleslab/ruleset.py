"""The ruleset switch: Aberrant 2.0 or 2.1, wherever the two differ.

The quick reference gives two sets of rules ("2.0 Rules", "2.1 Rules") for
specialties, health levels and defence. Every rule function where they differ
takes ``ruleset`` (the form's input: :data:`ruleslab.inputs.RULESET`); the default is 2.1, the later
revision (rules note RN-RULESET-1).
"""

from __future__ import annotations

__all__ = ["RULESETS", "V20", "V21"]

V20 = "2.0"
V21 = "2.1"
RULESETS = (V20, V21)
