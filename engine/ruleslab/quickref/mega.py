"""Mega-Attributes: "each dot of a Mega-Attribute counts for 2 dots of an attribute".

Quick reference › Mega-Attributes: "Unless stated otherwise (or separately
accounted for), each dot of a Mega-Attribute counts for 2 dots of an attribute."

Rules that add an attribute to something (walking speed, a dice pool, soak …)
call :func:`effective` to get the attribute's effective value and, when a
Mega-Attribute was counted, the step saying so; rules that account for the
Mega-Attribute separately (lifting's multipliers, Mega-Stamina's health levels,
jumping's automatic successes) do not, and say that in their own steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.explain import Step
from ruleslab.sources import QR, rule

__all__ = ["MEGA_ATTRIBUTES", "Effective", "effective"]

MEGA_ATTRIBUTES = rule(QR, "Mega-Attributes")


@dataclass(frozen=True)
class Effective:
    """An attribute's effective value and the step that explains it (None if no Mega dots)."""

    value: int
    step: Step | None


def effective(name: str, dots: int, mega_dots: int, *, purpose: str = "") -> Effective:
    """``dots + 2 × mega_dots``, with a step naming the rule when ``mega_dots`` > 0.

    ``name`` is the attribute ("Strength"); ``purpose`` says where it is used
    ("for walking speed") and is added to the step's text.
    """
    if mega_dots <= 0:
        return Effective(dots, None)
    value = dots + 2 * mega_dots
    where = f" {purpose}" if purpose else ""
    text = (
        f"Effective {name}{where} = {name} {dots} + 2 × Mega-{name} {mega_dots} = {value} "
        f"(each Mega dot counts as 2 dots)"
    )
    return Effective(value, Step(text, MEGA_ATTRIBUTES))
