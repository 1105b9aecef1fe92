"""What every encounter change returns, and the error it raises on a refused step.

A :class:`Change` is the next encounter and the log lines of the step (each a
:class:`~ruleslab.explain.Step`: its text and the rule it applies, cited as the rest
of the engine cites rules, :mod:`ruleslab.sources`). A step the rules do not allow
(a Stunned character's second action, an attack by a combatant who is
Incapacitated) raises :class:`EncounterError` naming the field the GM sees, and
the encounter is unchanged: nothing is half-applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from ruleslab.explain import Step
from ruleslab.params import InputError

__all__ = ["Change", "EncounterError", "whole"]

E = TypeVar("E")


class EncounterError(InputError):
    """A step the encounter refuses; ``field`` names what the GM would change."""


@dataclass(frozen=True)
class Change(Generic[E]):
    """The encounter after one step and that step's log lines (already in its log)."""

    encounter: E
    lines: tuple[Step, ...]


def whole(value: object, lo: int, hi: int) -> bool:
    """Whether ``value`` is a whole number (not a bool) from ``lo`` to ``hi``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
