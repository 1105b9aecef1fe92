"""The tracker in a notebook or a Python session: a fight, its undo and redo, saved as text.

:class:`Tracker` is the one object of the encounter that changes: it holds a
:class:`~ruleslab.encounter.history.History` and moves it on with each step, so a GM at
a notebook types one line per thing that happens::

    from ruleslab.encounter import aberrant as ab
    from ruleslab.encounter.combatant import Damage
    from ruleslab.encounter.tracker import Tracker

    t = Tracker(ab.new_encounter("2.1", [ab.quick_foe("a", "Ana"), ab.quick_foe("b", "Bo")]))
    t.do(ab.roll_initiative, ab.seeded_faces(t.encounter, 1))
    t.do(ab.resolve_attack, "a", "b", hit=True, damage=Damage(lethal=2))
    t.undo()
    t          # in a notebook: the board, whose turn it is, each one's chips

Every step is one of the pure functions of :mod:`ruleslab.encounter.aberrant` or
:mod:`ruleslab.encounter.chimera`; a refused step (:class:`EncounterError`) leaves the
tracker as it was. :meth:`Tracker.save` and :meth:`Tracker.load` write and read the
encounter as JSON text (:mod:`ruleslab.encounter.serial`: unreadable text is refused
with a message, never read as something else).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ruleslab.encounter.board import board_html, board_text
from ruleslab.encounter.chimera import ChimeraEncounter
from ruleslab.encounter.history import History, record, redo, start, undo
from ruleslab.encounter.log import Change, EncounterError
from ruleslab.encounter.serial import from_dict, read_json, to_dict
from ruleslab.encounter.state import Encounter
from ruleslab.explain import Step

__all__ = ["MAX_SAVED", "Tracker"]

AnyEncounter = Encounter | ChimeraEncounter

MAX_SAVED = 5_000_000
"""The longest saved text :meth:`Tracker.load` reads (characters)."""


class Tracker:
    """A fight being played: :attr:`encounter` now, :meth:`do` a step, :meth:`undo`,
    :meth:`redo`; :attr:`player_view` hides what the GM marked hidden on the board."""

    def __init__(self, encounter: AnyEncounter, *, player_view: bool = False) -> None:
        self.history: History[AnyEncounter] = start(encounter)
        self.player_view = player_view

    @property
    def encounter(self) -> AnyEncounter:
        return self.history.present

    def do(self, step: Callable[..., Change[Any]], *args: Any, **kw: Any) -> tuple[Step, ...]:
        """Apply ``step(encounter, *args, **kw)``; its log lines."""
        change = step(self.encounter, *args, **kw)
        if not isinstance(change.encounter, type(self.encounter)):
            raise EncounterError("step", "That step belongs to the other game's encounter.")
        self.history = record(self.history, change)
        return change.lines

    def undo(self) -> None:
        self.history = undo(self.history)

    def redo(self) -> None:
        self.history = redo(self.history)

    def log(self) -> str:
        """Every line of the fight so far, each with its rule."""
        return "\n".join(str(s) for s in self.encounter.log)

    def save(self) -> str:
        """The encounter as JSON text."""
        return json.dumps(to_dict(self.encounter), ensure_ascii=False)

    @classmethod
    def load(cls, text: str) -> Tracker:
        """A tracker holding the encounter ``text`` holds (:meth:`save`'s form)."""
        if not isinstance(text, str) or len(text) > MAX_SAVED:
            raise EncounterError("file", f"A saved encounter is JSON text of at most {MAX_SAVED}.")
        return cls(from_dict(read_json(text, "file", "This")))

    def __str__(self) -> str:
        return board_text(self.encounter, player_view=self.player_view)

    def _repr_html_(self) -> str:
        return board_html(self.encounter, player_view=self.player_view)
