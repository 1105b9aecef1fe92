"""Undo and redo: the encounters a fight has been through, and the ones undone.

Every change is a new encounter (:class:`~ruleslab.encounter.log.Change`), so a history
is the list of them: :func:`record` adds the next one (and forgets what was undone),
:func:`undo` goes back one step, :func:`redo` forward again. Undoing a step gives the
very encounter it was applied to (the same record, its log included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from ruleslab.encounter.log import Change, EncounterError

__all__ = ["MAX_STEPS", "History", "record", "redo", "start", "undo"]

E = TypeVar("E")

MAX_STEPS = 2000
"""The most steps kept for undo (a fight of many rounds); older ones are let go."""


@dataclass(frozen=True)
class History(Generic[E]):
    """``present``, the encounters before it (``past``, oldest first) and those undone
    (``future``, the next redo first)."""

    past: tuple[E, ...]
    present: E
    future: tuple[E, ...] = ()

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)


def start(encounter: E) -> History[E]:
    """A history holding only ``encounter``."""
    return History((), encounter)


def record(history: History[E], change: Change[E]) -> History[E]:
    """The history after ``change`` (applied to its present): what was undone is gone."""
    past = (*history.past, history.present)[-MAX_STEPS:]
    return History(past, change.encounter)


def undo(history: History[E]) -> History[E]:
    """One step back (:class:`EncounterError` if there is none)."""
    if not history.past:
        raise EncounterError("undo", "Nothing to undo.")
    return History(history.past[:-1], history.past[-1], (history.present, *history.future))


def redo(history: History[E]) -> History[E]:
    """The step undone last, again (:class:`EncounterError` if there is none)."""
    if not history.future:
        raise EncounterError("redo", "Nothing to redo.")
    return History((*history.past, history.present), history.future[0], history.future[1:])
