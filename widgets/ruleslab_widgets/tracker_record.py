"""The tracker's stored encounter: one record of the record store's collection
``encounters`` (``{"format": 2, "name", "ruleset", "encounter", "past", "future"}``),
written by :meth:`Fight.text` and read back, every part checked, by :func:`parse_fight`.

Format 2 stores each undo and redo step as its difference from its neighbour
(:mod:`ruleslab.encounter.stored`: a step back keeps only its log's length), so that a
long fight keeps :data:`KEPT` steps each way within the record store's limit. Format 1
(until December 2026: every step whole, with the log so far) is still read, and
written again as format 2 at the next step.
"""

from __future__ import annotations

import json
from typing import Any

from ruleslab import InputError
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.history import MAX_STEPS, History
from ruleslab.encounter.serial import from_dict, read_json
from ruleslab.encounter.state import Encounter
from ruleslab.encounter.stored import history_from_dict, history_to_dict

__all__ = ["CHIMERA", "FORMAT", "KEPT", "MAX_FILE", "RULESETS", "Fight", "parse_fight"]


FORMAT = 2
READS = (1, 2)
"""The formats read: 1, every step whole; 2, each step a difference from its neighbour."""
MAX_FILE = 2_000_000
CHIMERA = "chimera"
RULESETS = {"2.1": "Aberrant 2.1", "2.0": "Aberrant 2.0", CHIMERA: "Chimera"}
"""The games a stored encounter may be of, and their names."""
KEPT = 50
"""The undo (and redo) steps stored with an encounter (fewer if the record would pass
:data:`MAX_FILE`); the page itself keeps up to ``history.MAX_STEPS``."""


class Fight:
    """One encounter of the page: its name, rules version (:data:`RULESETS`) and history
    (``None``: no one has joined yet), of :class:`Encounter` (Aberrant) or
    :class:`ChimeraEncounter` (``ruleset`` ``chimera``)."""

    def __init__(self, name: str, ruleset: str, history: History[Any] | None) -> None:
        self.name = name
        self.ruleset = ruleset
        self.history = history

    def text(self, limit: int = MAX_FILE) -> str:
        """The stored record: the present encounter and the last steps of undo and redo
        (as many of :data:`KEPT` as fit in ``limit`` characters: a file's
        :data:`MAX_FILE`, or the record store's ``MAX_RECORD_TEXT``, beyond which a stored
        record is set aside when read). Should the present encounter alone not fit, the
        oldest lines of its log are left out of the record until it does."""
        h = self.history
        kept = KEPT
        steps = history_to_dict(h, kept) if h is not None else None
        while True:
            present = steps["encounter"] if steps else None
            data = {
                "format": FORMAT,
                "name": self.name,
                "ruleset": self.ruleset,
                "encounter": present,
                "past": steps["past"] if steps else [],
                "future": steps["future"] if steps else [],
            }
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            if len(text) <= limit or not (steps and (kept or (present and present["log"]))):
                return text
            if kept and h is not None:
                kept //= 2
                steps = history_to_dict(h, kept)
            elif steps is not None and present is not None:
                log = present["log"]
                steps = {**steps, "encounter": {**present, "log": log[len(log) // 2 + 1 :]}}


def _of(enc: Any, ruleset: str) -> bool:
    """Whether ``enc`` is a fight of ``ruleset``."""
    if ruleset == CHIMERA:
        return isinstance(enc, ChimeraEncounter)
    return isinstance(enc, Encounter) and enc.ruleset == ruleset


def _steps(data: dict[str, Any], part: str, ruleset: str) -> tuple[Any, ...]:
    """A stored record's undo (``past``) or redo (``future``) steps, each checked."""
    raw = data.get(part, [])
    if not isinstance(raw, list) or len(raw) > MAX_STEPS:
        raise InputError("encounter", f"This record's undo steps ({part}): a list, at most 2000.")
    steps = []
    for i, item in enumerate(raw):
        enc = from_dict(item)
        if not _of(enc, ruleset):
            raise InputError(
                "encounter",
                f"This record's undo step {part}[{i}] is not a fight by the "
                f"{RULESETS[ruleset]} rules.",
            )
        steps.append(enc)
    return tuple(steps)


def parse_fight(text: Any) -> Fight:
    """A stored or imported encounter record, checked (:class:`InputError`)."""
    if not isinstance(text, str) or len(text) > MAX_FILE:
        raise InputError("file", "A saved encounter is JSON text of at most 2 MB.")
    data = read_json(text, "file", "This")
    if not isinstance(data, dict) or data.get("format") not in READS:
        raise InputError("file", "This is not a saved encounter of this site (format 1 or 2).")
    name, ruleset = data.get("name"), data.get("ruleset")
    if not isinstance(name, str) or not 0 < len(name) <= 80:
        raise InputError("name", "The encounter's name: 1 to 80 characters.")
    if ruleset not in RULESETS:
        raise InputError("ruleset", f"The rules version: one of {', '.join(RULESETS)}.")
    raw = data.get("encounter")
    if raw is None:
        return Fight(name, ruleset, None)
    if data["format"] == 1:  # (every step whole)
        enc = from_dict(raw)
        _check_game(enc, ruleset)
        past, future = _steps(data, "past", ruleset), _steps(data, "future", ruleset)
        return Fight(name, ruleset, History(past, enc, future))
    if not isinstance(raw, dict):
        raise InputError("encounter", "encounter: is not an encounter (an object of named fields).")
    history = history_from_dict(raw, data.get("past", []), data.get("future", []))
    _check_game(history.present, ruleset)  # (each step is of the present's game: read from it)
    return Fight(name, ruleset, history)


def _check_game(enc: Any, ruleset: str) -> None:
    if not _of(enc, ruleset):
        raise InputError(
            "encounter", f"This record does not hold a fight by the {RULESETS[ruleset]} rules."
        )
