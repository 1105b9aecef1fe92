"""Specialties, and a Mega-Attribute's rerolled 10s, on an attribute + ability roll.

Quick reference › 2.1 Rules › Specialties: a specialty adds a die to the roll,
and a Mega-Attribute makes the rolls it applies to reroll 10s. Quick reference ›
2.0 Rules › Specialties: a specialty makes the roll reroll 10s (rules note
RN-RULESET-1). The jump, lift and break-fall rolls read them alike.
"""

from __future__ import annotations

from ruleslab.explain import Step
from ruleslab.ruleset import V20, V21
from ruleslab.sources import QR, rule

__all__ = ["SPECIALTIES_20", "SPECIALTIES_21", "specialty_and_rerolls"]

SPECIALTIES_20 = rule(QR, "2.0 Rules", "Specialties")
SPECIALTIES_21 = rule(QR, "2.1 Rules", "Specialties")


def specialty_and_rerolls(
    roll: str, ruleset: str, specialty: bool, mega_name: str, mega: int
) -> tuple[bool, list[Step]]:
    """Whether ``roll`` (``"the jump roll"``) rerolls 10s, and the steps saying why.

    In 2.1 a specialty's +1 die (counted in the pool by the caller) and the
    roll's Mega-Attribute (``Mega-<mega_name>`` at ``mega`` dots) rerolling 10s;
    in 2.0 a specialty rerolling 10s.
    """
    steps: list[Step] = []
    if specialty and ruleset == V21:
        steps.append(Step("Specialty (2.1): +1 die", SPECIALTIES_21))
    if ruleset == V21 and mega > 0:
        steps.append(Step(f"Mega-{mega_name} {mega} (2.1): {roll} rerolls 10s", SPECIALTIES_21))
    if ruleset == V20 and specialty:
        steps.append(Step(f"Specialty (2.0): {roll} rerolls 10s", SPECIALTIES_20))
    return (ruleset == V21 and mega > 0) or (ruleset == V20 and specialty), steps
