"""The character sheet's record of each character's last changes: what its Undo writes
back, also after a reload (:mod:`ruleslab_widgets.sheet_page`).

Collection :data:`UNDO_COLLECTION` of the site's record store
(:mod:`ruleslab_widgets.records`), one record per character under his id, beside the
party's own record of him (collection ``party``, which the party bar, the tracker and the
party file read unchanged): ``{"format": 1, "steps": [{"what", "before", "after"}]}``, his
last :data:`UNDO_KEPT` changes saved on his sheet, the oldest first, each the change in
words and the character before and after it as the party stores him
(:func:`ruleslab.party.entry_json`). What storage holds is checked (:func:`parse_steps`)
before use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ruleslab import InputError
from ruleslab.party import Entry, entry_json, parse_entry
from ruleslab_widgets.records import MAX_RECORD_TEXT

__all__ = ["UNDO_COLLECTION", "UNDO_KEPT", "Step", "parse_steps", "steps_text"]

UNDO_COLLECTION = "sheet-undo"
"""The record store's collection of each character's last changes saved on his sheet (one
record per character, under his id): what Undo writes back, also after a reload."""
UNDO_KEPT = 10
"""How many of a character's last changes can be undone (the older ones are dropped)."""
UNDO_FORMAT = 1
MAX_WHAT = 1000
"""The longest description of a change kept (a change of every field of a long name)."""


@dataclass(frozen=True, slots=True)
class Step:
    """A change saved on the sheet: the character ``before`` and ``after`` it, and the
    change in words (``what``)."""

    before: Entry
    """The character as he was: what Undo writes back."""
    after: Entry
    """The character as the change saved him: Undo is refused if he is no longer so."""
    what: str


def steps_text(steps: list[Step]) -> str:
    """A character's last changes (the last :data:`UNDO_KEPT` of ``steps``) as his record
    of collection :data:`UNDO_COLLECTION`: ``{"format": 1, "steps": [{"what": the change in
    words, "before", "after": the character before and after it, as the party stores him
    (entry_json)}]}``, the oldest first."""
    kept = [
        {"what": s.what[:MAX_WHAT], "before": entry_json(s.before), "after": entry_json(s.after)}
        for s in steps[-UNDO_KEPT:]
    ]
    return json.dumps(
        {"format": UNDO_FORMAT, "steps": kept}, separators=(",", ":"), ensure_ascii=False
    )


def parse_steps(text: Any, ident: str) -> list[Step]:
    """The changes of character ``ident`` a stored record (:func:`steps_text`) holds, each
    checked (its characters as stored characters, of id ``ident``), or
    :class:`InputError` saying what was found."""
    try:
        data = json.loads(text) if isinstance(text, str) and len(text) <= MAX_RECORD_TEXT else None
    except (ValueError, RecursionError):
        data = None
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("format") != UNDO_FORMAT:
        raise InputError("undo", "not a record of the sheet's changes (format 1)")
    if not isinstance(steps, list) or len(steps) > UNDO_KEPT:
        raise InputError("undo", f"not a list of at most {UNDO_KEPT} changes")
    out: list[Step] = []
    for n, step in enumerate(steps, 1):
        what = step.get("what") if isinstance(step, dict) else None
        if not isinstance(step, dict) or not isinstance(what, str) or not what:
            raise InputError("undo", f"its change {n} is not one")
        if len(what) > MAX_WHAT:
            raise InputError("undo", f"its change {n} is described in over {MAX_WHAT} characters")
        before = parse_entry(step.get("before"), f"Its change {n}'s character before")
        after = parse_entry(step.get("after"), f"Its change {n}'s character after")
        if before.id != ident or after.id != ident:
            raise InputError("undo", f"its change {n} is of another character")
        out.append(Step(before, after, what))
    return out
