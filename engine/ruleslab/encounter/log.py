"""What every encounter change returns, and the error it raises on a refused step.

A :class:`Change` is the next encounter and the log lines of the step (each a
:class:`~ruleslab.explain.Step`: its text and the rule it applies, cited as the rest
of the engine cites rules, :mod:`ruleslab.sources`). A step the rules do not allow
(a Stunned character's second action, an attack by a combatant who is
Incapacitated) raises :class:`EncounterError` naming the field the GM sees, and
the encounter is unchanged: nothing is half-applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from ruleslab.explain import Step
from ruleslab.params import InputError

__all__ = [
    "Change",
    "EncounterError",
    "find_key",
    "logged",
    "people_of",
    "put_keyed",
    "whole",
    "whole_in",
]

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


def whole_in(value: object, field: str, lo: int, hi: int) -> int:
    """``value`` if it is a whole number from ``lo`` to ``hi``, else
    :class:`EncounterError` naming ``field`` (as the form labels it) and the range."""
    if not isinstance(value, int) or not whole(value, lo, hi):
        raise EncounterError(field, f"{field}: a whole number from {lo} to {hi}.")
    return value


class Keyed(Protocol):
    """A combatant of either game: what the helpers below read of him."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...


K = TypeVar("K", bound=Keyed)


def people_of(combatants: Iterable[K]) -> tuple[K, ...]:
    """The combatants of a new encounter: at least one, their keys unique."""
    people = tuple(combatants)
    keys = [c.key for c in people]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise EncounterError("key", f"Two combatants share the key {dup[0]!r}: keys are unique.")
    if not people:
        raise EncounterError("combatants", "An encounter needs at least one combatant.")
    return people


def find_key(people: tuple[K, ...], key: str) -> K:
    """The combatant ``key``, or :class:`EncounterError`."""
    for c in people:
        if c.key == key:
            return c
    raise EncounterError("combatant", f"No combatant {key!r} in this encounter.")


def put_keyed(people: tuple[K, ...], *changed: K) -> tuple[K, ...]:
    """``people`` with ``changed`` put in place of those with their keys."""
    by_key = {c.key: c for c in changed}
    return tuple(by_key.get(c.key, c) for c in people)


def logged(enc: E, lines: list[Step], **changes: Any) -> Change[E]:
    """The change: ``enc`` (an encounter) with ``changes``, ``lines`` added to its log."""
    nxt: E = replace(enc, log=(*enc.log, *lines), **changes)  # type: ignore[type-var, attr-defined]
    return Change(nxt, tuple(lines))
