"""Inputs several calculators ask for: the character's traits, the ruleset switch.

A calculator declares its own inputs in ``ruleslab/calculators/<key>.py``;
an input that several calculators share (Strength, Dexterity, the rules
version …) is declared once here, without a default: each calculator's
function gives its default in its signature (see :func:`ruleslab.checked`).
Declarations only, no rules.
"""

from __future__ import annotations

from ruleslab.params import BoolParam, ChoiceParam, IntParam, NumberParam

__all__: list[str] = []

# Keep the imports used: sections below add their names to __all__.
_KINDS = (BoolParam, ChoiceParam, IntParam, NumberParam)

# --- physical: lifting, movement, jumping, falling ----------------------------------

# --- health and damage ----------------------------------------------------------------

# --- ranged attacks, defence, healing ---------------------------------------------------

# --- henchmen and warfare ----------------------------------------------------------------

# --- compressed combat -------------------------------------------------------------------

# --- Chimera ---------------------------------------------------------------------------------
