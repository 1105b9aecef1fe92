"""The tracker's stored encounter: one record of the record store's collection
``encounters`` (``{"format": 2, "name", "ruleset", "encounter", "steps": {"past",
"future"}, "table"}``), written by :meth:`Fight.text` and read back, every part
checked, by :func:`parse_fight`.

Two tabs on one encounter: every change the GM makes is kept as an :class:`Action`
(the step's function and what was given to it, not only its result) until the record
store has taken it. When another tab saved the encounter meanwhile (the write is
refused as stale), :func:`merged` applies this tab's actions again on top of what is
stored; should one no longer apply (the other tab's step made it invalid: a combatant
it took out), both are kept: this tab's version is saved as a copy,
"… (from another tab)", and the page says so. An undo or redo is not applied again (it
takes back whatever is last, by then the other tab's step): what this tab's changes
did is joined to what the other tab's did (:meth:`Fight.joined`,
:func:`ruleslab.encounter.stored.joined`: each combatant, and the fight's turn and
order, from the tab that changed it), and only where both changed the same one is the
copy kept.

The undo and redo steps are stored under ``steps``, each as its difference from its
neighbour, and every log line by its place in ``table``, the record's distinct lines
(:mod:`ruleslab.encounter.stored`), so that a long fight keeps its whole log and
:data:`KEPT` steps each way within the record store's limit (sixty turns of six
combatants: 32,567 characters, ``bench/tracker_record.py``).

Format 1 (until December 2026) wrote the log lines whole, ``[text, rule]``: its present
alone passed the limit from about 28 turns of that fight, and then lost its oldest
lines and every undo step. A format-1 record is still read: with ``steps`` (each step a
difference), or before that with every step whole under ``past`` and ``future``; it is
written as format 2 at the next step. The page stores format-2 records in the record
store's layout 2 (``records.RECORD_NEWEST``, the tracker page's ``RecordSync``), which a
build before December 2026 keeps untouched without reading it (it would set aside a
format-2 text as unreadable).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera_table as table
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.history import MAX_STEPS, History, record, start
from ruleslab.encounter.log import Change
from ruleslab.encounter.serial import from_dict, read_json
from ruleslab.encounter.state import Encounter
from ruleslab.encounter.stored import history_from_dict, history_to_dict, joined

__all__ = [
    "CHIMERA",
    "FORMAT",
    "KEPT",
    "MAX_FILE",
    "RULESETS",
    "Action",
    "Fight",
    "merged",
    "merged_all",
    "parse_fight",
]


FORMAT = 2
"""The record's format: 2 since December 2026 (log lines by their place in a table);
format 1 is still read (:data:`FORMATS`)."""
FORMATS = (1, 2)
MAX_FILE = 2_000_000
CHIMERA = "chimera"
RULESETS = {"2.1": "Aberrant 2.1", "2.0": "Aberrant 2.0", CHIMERA: "Chimera"}
"""The games a stored encounter may be of, and their names."""
PARTS = {"past", "future"}
"""A record's ``steps``: the undo steps (oldest first) and the redo steps (next first)."""
KEPT = 50
"""The undo (and redo) steps stored with an encounter (fewer if the record would pass
:data:`MAX_FILE`); the page itself keeps up to ``history.MAX_STEPS``."""


_JOINS: tuple[Callable[..., Any], ...] = (ab.join, table.join)
"""The steps by which a combatant joins: applied again under a free key if his was
taken meanwhile (another tab's newcomer)."""


@dataclass(frozen=True)
class Action:
    """One change made in this tab: ``kind`` ``"step"`` (``fn(present, *args, **kw)``),
    ``"begin"`` (the first combatant: ``args`` the encounter; ``fn`` the game's join,
    should someone have joined meanwhile), ``"rename"`` (``args``: the name) or
    ``"move"`` (undo or redo: it undoes whatever was last, so it is not applied again:
    what it changed is joined to the other tab's changes instead, :func:`merged`) or
    ``"join"`` (such a join, saved as one step). ``before``: the present it was made
    from (``None`` before anyone joined)."""

    kind: str
    fn: Callable[..., Any] | None = None
    args: tuple[Any, ...] = ()
    kw: Mapping[str, Any] = field(default_factory=dict)
    before: Any = None


class Fight:
    """One encounter of the page: its name, rules version (:data:`RULESETS`) and history
    (``None``: no one has joined yet), of :class:`Encounter` (Aberrant) or
    :class:`ChimeraEncounter` (``ruleset`` ``chimera``); :attr:`unsaved`, the changes
    made here that the record store has not taken yet."""

    def __init__(self, name: str, ruleset: str, history: History[Any] | None) -> None:
        self.name = name
        self.ruleset = ruleset
        self.history = history
        self.unsaved: list[Action] = []

    def apply(self, fn: Callable[..., Change[Any]], *args: Any, **kw: Any) -> Change[Any]:
        """The step ``fn(present, *args, **kw)`` recorded (undo keeps the one before)."""
        if self.history is None:
            raise InputError("encounter", "Add the combatants first.")
        before = self.history.present
        change = fn(before, *args, **kw)
        self.history = record(self.history, change)
        self.unsaved.append(Action("step", fn, args, dict(kw), before))
        return change

    def begin(self, encounter: Any, join: Callable[..., Change[Any]]) -> None:
        """The fight's first combatant: ``encounter`` holds him alone."""
        self.history = start(encounter)
        self.unsaved.append(Action("begin", join, (encounter,)))

    def rename(self, name: str) -> None:
        self.name = name
        before = self.history.present if self.history else None
        self.unsaved.append(Action("rename", args=(name,), before=before))

    def move(self, how: Callable[[History[Any]], History[Any]]) -> None:
        """Undo or redo (``how``)."""
        if self.history is None:
            raise InputError("undo", "Nothing to undo.")
        before = self.history.present
        self.history = how(self.history)
        self.unsaved.append(Action("move", how, before=before))

    def saved(self, count: int) -> None:
        """The first ``count`` unsaved changes are stored."""
        del self.unsaved[:count]

    def replayed(self, onto: Fight) -> Fight:
        """``onto`` (the encounter as another tab stored it) with this tab's unsaved
        changes applied again, in order (:class:`InputError` if one no longer applies)."""
        out = Fight(onto.name, onto.ruleset, onto.history)
        for a in self.unsaved:
            if a.kind == "rename":
                out.rename(a.args[0])
            elif a.kind == "begin" and a.fn is not None:
                if out.history is None:
                    out.begin(a.args[0], a.fn)
                else:
                    out.apply(a.fn, _free(out, a.args[0].combatants[0]))
            elif a.kind == "step" and a.fn is not None:
                args = a.args
                if a.fn in _JOINS:
                    args = (_free(out, args[0]), *args[1:])
                out.apply(a.fn, *args, **a.kw)
            else:
                raise InputError("undo", "an undo or redo here would undo the other tab's step")
        return out

    def joined(self, onto: Fight) -> Fight:
        """``onto`` (the encounter as another tab stored it) joined with what this tab's
        unsaved changes, an undo or redo among them, changed
        (:func:`ruleslab.encounter.stored.joined`): one new step after ``onto``'s, which
        Undo takes back (:class:`InputError` naming what both changed)."""
        base = self.unsaved[0].before
        if base is None or self.history is None or onto.history is None:
            raise InputError("undo", "the encounter had no combatants yet")
        both = joined(base, self.history.present, onto.history.present)
        names = [a.args[0] for a in self.unsaved if a.kind == "rename"]
        out = Fight(names[-1] if names else onto.name, onto.ruleset, onto.history)
        out.history = record(onto.history, Change(both, ()))
        out.unsaved.append(Action("join", before=onto.history.present))
        return out

    def text(self, limit: int = MAX_FILE) -> str:
        """The stored record: the present encounter and the last steps of undo and redo
        (as many of :data:`KEPT` as fit in ``limit`` characters: a file's
        :data:`MAX_FILE`, or the record store's ``MAX_RECORD_TEXT``, beyond which a stored
        record is set aside when read), every log line by its place in the record's
        ``table`` of distinct lines. Should the present encounter alone not fit, the
        oldest lines of its log are left out of the record until it does."""
        h = self.history
        kept = KEPT
        while True:
            steps = history_to_dict(h, kept) if h is not None else None
            data = {
                "format": FORMAT,
                "name": self.name,
                "ruleset": self.ruleset,
                "encounter": steps["encounter"] if steps else None,
                "steps": {k: steps[k] for k in ("past", "future")} if steps else None,
                "table": steps["table"] if steps else None,
            }
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            if len(text) <= limit or h is None or not (kept or h.present.log):
                return text
            if kept:
                kept //= 2
            else:
                log = h.present.log
                h = History((), replace(h.present, log=log[len(log) // 2 + 1 :]))


def _free(fight: Fight, newcomer: Any) -> Any:
    """``newcomer`` under a key no one in ``fight`` has (his own if it is free)."""
    used = {c.key for c in fight.history.present.combatants} if fight.history else set()
    if newcomer.key not in used:
        return newcomer
    base, n = newcomer.key.rstrip("0123456789") or "c", 1
    while f"{base}{n}" in used:
        n += 1
    return replace(newcomer, key=f"{base}{n}")


COPY = " (from another tab)"
"""Added to the name of this tab's version of an encounter, kept as a copy when its
changes no longer apply to what another tab stored."""


def merged(mine: Fight | None, stored: Fight | None) -> tuple[Fight | None, Fight | None, str]:
    """An encounter as another tab stored it (``stored``; ``None``: deleted there) met
    with this tab's (``mine``): what to keep under its id, a copy to save as a new
    encounter (or ``None``), and what to tell the GM ("" when nothing of note).

    This tab's unsaved changes are applied again on top of what is stored; if one no
    longer applies, the stored one is kept and this tab's version becomes the copy.
    Without unsaved changes the stored one is taken, its undo and redo steps too, with
    this tab's older undo steps before them where they join."""
    if mine is None:
        return stored, None, ""
    if stored is None:
        if not mine.unsaved:
            return None, None, ""
        copy = _copy(mine)
        said = (
            f"“{mine.name}” was deleted in another tab: yours is kept as “{copy.name}” in "
            "the list above."
        )
        return None, copy, said
    if not mine.unsaved:
        if stored.history is None or mine.history is None:
            return stored, None, ""
        if mine.history.present == stored.history.present:
            mine.name = stored.name
            return mine, None, ""  # (this tab's own write read back: its longer undo kept)
        return Fight(stored.name, stored.ruleset, _spliced(mine.history, stored.history)), None, ""
    moved = _moved(mine.unsaved)
    try:
        again = mine.joined(stored) if moved else mine.replayed(stored)
    except InputError as e:
        copy = _copy(mine)
        what = (
            f"your {moved} cannot be joined to it"
            if moved
            else "your change no longer applies to it"
        )
        said = (
            f"“{stored.name}” was changed in another tab, and {what} "
            f"({e.message.rstrip('.')}): both are kept, yours as “{copy.name}” in the "
            "list above."
        )
        return stored, copy, said
    if moved:
        said = (
            f"“{stored.name}” was changed in another tab too: your {moved} and that tab's "
            "changes touched different combatants (or one of them the turn), so both are "
            f"kept in it, and saved; Undo takes back your {moved}."
        )
        return again, None, said
    n = len(mine.unsaved)
    yours = "your change was" if n == 1 else f"your {n} changes were"
    said = (
        f"“{stored.name}” was changed in another tab too: {yours} applied after that "
        "tab's, and saved."
    )
    return again, None, said


def _moved(unsaved: list[Action]) -> str:
    """This tab's undo and redo among ``unsaved``, in words ("undo", "undo and redo"),
    "" if none: they are joined to another tab's changes, not applied again."""
    kinds = {
        a.fn.__name__ if a.kind == "move" and a.fn else "change"
        for a in unsaved
        if a.kind in ("move", "join")
    }
    return " and ".join(k for k in ("undo", "redo", "change") if k in kinds)


def merged_all(
    mine: Mapping[str, Fight], stored: Mapping[str, Fight], new_id: Callable[[], str]
) -> tuple[dict[str, Fight], list[str], str]:
    """Every encounter of this tab (``mine``) met with the store's reading (``stored``,
    by id) by :func:`merged`: the encounters to hold now, the ids to save (this tab's
    changes applied again, and the copies, each under a ``new_id()``) and what to say."""
    fights: dict[str, Fight] = {}
    again: list[str] = []
    said: list[str] = []
    for ident in {**stored, **mine}:
        keep, copy, note = merged(mine.get(ident), stored.get(ident))
        if keep is not None:
            fights[ident] = keep
            again += [ident] if keep.unsaved else []
        if copy is not None:
            again.append(new_id())
            fights[again[-1]] = copy
        said += [note] if note else []
    return fights, again, " ".join(said)


def _copy(mine: Fight) -> Fight:
    """This tab's version, to be saved as a new encounter beside the stored one."""
    return Fight(mine.name[: 80 - len(COPY)] + COPY, mine.ruleset, mine.history)


def _spliced(mine: History[Any], stored: History[Any]) -> History[Any]:
    """``stored`` (its undo and redo steps: the other tab's), with this tab's older undo
    steps before its oldest, where they join (the record keeps 50 steps, this tab up to
    ``history.MAX_STEPS``)."""
    if stored.past:
        mine_all = (*mine.past, mine.present)
        for j in range(len(mine_all) - 1, -1, -1):
            if mine_all[j] == stored.past[0]:
                past = (*mine_all[:j], *stored.past)[-MAX_STEPS:]
                return History(past, stored.present, stored.future)
    return stored


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
    version = data.get("format") if isinstance(data, dict) else None
    if version not in FORMATS or isinstance(version, bool):
        raise InputError("file", "This is not a saved encounter of this site (format 1 or 2).")
    name, ruleset = data.get("name"), data.get("ruleset")
    if not isinstance(name, str) or not 0 < len(name) <= 80:
        raise InputError("name", "The encounter's name: 1 to 80 characters.")
    if ruleset not in RULESETS:
        raise InputError("ruleset", f"The rules version: one of {', '.join(RULESETS)}.")
    raw = data.get("encounter")
    if raw is None:
        return Fight(name, ruleset, None)
    steps = data.get("steps")
    if steps is not None and ("past" in data or "future" in data):
        raise InputError("encounter", "This record holds its undo steps twice (steps, past).")
    if version == 1 and steps is None:  # (stored before December 2026: every step whole)
        enc = from_dict(raw)
        _check_game(enc, ruleset)
        past, future = _steps(data, "past", ruleset), _steps(data, "future", ruleset)
        return Fight(name, ruleset, History(past, enc, future))
    if not isinstance(raw, dict) or not isinstance(steps, dict) or set(steps) != PARTS:
        raise InputError("encounter", "This record's encounter or steps are not objects.")
    table = data.get("table") if version == 2 else None
    if version == 2 and table is None:
        raise InputError("encounter", "This record lacks its table of log lines.")
    history = history_from_dict(raw, steps["past"], steps["future"], table)
    _check_game(history.present, ruleset)  # (each step is of the present's game: read from it)
    return Fight(name, ruleset, history)


def _check_game(enc: Any, ruleset: str) -> None:
    if not _of(enc, ruleset):
        raise InputError(
            "encounter", f"This record does not hold a fight by the {RULESETS[ruleset]} rules."
        )
