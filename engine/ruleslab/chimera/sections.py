"""The sections of Chimera's Combat chapter that the steps cite, each declared once.

Every module of :mod:`ruleslab.chimera` cites its step's source with one of these (a
Step's ``rule``); the calculator's rules line is ``ruleslab.calculators.chimera``'s.
"""

from __future__ import annotations

from ruleslab.sources import CHIMERA, rule

__all__ = ["ATTACK_TN", "COMBAT", "COMBAT_ACTIONS", "VANQUISHING"]

COMBAT = rule(CHIMERA, "Combat")
"""The chapter as a whole: the Action Roll, surprise, morale, the aftermath of a fight."""
ATTACK_TN = rule(CHIMERA, "Combat", "Attack Target Numbers")
"""The TN to hit (the adjusted MR, parry and cover), Defence, and blasts against cover."""
COMBAT_ACTIONS = rule(CHIMERA, "Combat", "Combat Actions")
"""Initiative, full and free actions, moving."""
VANQUISHING = rule(CHIMERA, "Combat", "Vanquishing Foes")
"""Wounds past the Wound Limit, and the fates a victor gives."""
