"""The tracker's stored encounter: one record of the record store's collection
``encounters`` (``{"format": 1, "name", "ruleset", "encounter", "past", "future"}``),
written by :meth:`Fight.text` and read back, every part checked, by :func:`parse_fight`.
"""

from __future__ import annotations

import json
from typing import Any

from ruleslab import InputError
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.history import MAX_STEPS, History
from ruleslab.encounter.serial import from_dict, read_json, to_dict
from ruleslab.encounter.state import Encounter

__all__ = ["CHIMERA", "FORMAT", "KEPT", "MAX_FILE", "RULESETS", "Fight", "parse_fight"]


FORMAT = 1
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
        present = to_dict(h.present) if h is not None else None
        while True:
            data = {
                "format": FORMAT,
                "name": self.name,
                "ruleset": self.ruleset,
                "encounter": present,
                "past": [to_dict(e) for e in h.past[-kept:]] if h and kept else [],
                "future": [to_dict(e) for e in h.future[:kept]] if h and kept else [],
            }
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            if len(text) <= limit or (not kept and not (present and present["log"])):
                return text
            if kept:
                kept //= 2
            elif present is not None:
                present = {**present, "log": present["log"][len(present["log"]) // 2 + 1 :]}


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
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError("file", "This is not a saved encounter of this site (format 1).")
    name, ruleset = data.get("name"), data.get("ruleset")
    if not isinstance(name, str) or not 0 < len(name) <= 80:
        raise InputError("name", "The encounter's name: 1 to 80 characters.")
    if ruleset not in RULESETS:
        raise InputError("ruleset", f"The rules version: one of {', '.join(RULESETS)}.")
    raw = data.get("encounter")
    if raw is None:
        return Fight(name, ruleset, None)
    enc = from_dict(raw)
    if not _of(enc, ruleset):
        raise InputError(
            "encounter", f"This record does not hold a fight by the {RULESETS[ruleset]} rules."
        )
    past, future = _steps(data, "past", ruleset), _steps(data, "future", ruleset)
    return Fight(name, ruleset, History(past, enc, future))
