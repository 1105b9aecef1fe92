"""A fight's undo history stored compactly: each step as its difference from its neighbour.

A saved fight keeps its undo and redo steps so that undo survives a reload. Stored
whole (:func:`~ruleslab.encounter.serial.to_dict`), each step repeats the log so far
and every combatant: a long fight kept only a dozen steps in the record store's limit.
Here the present encounter is stored whole and each step as what differs from its
neighbour (the step after it for the undo steps, the one before it for the redo
steps)::

    {"log": [n, [line, ...]],          # its log: the neighbour's first n lines, then these
     "set": {"turn": 3, "place": 0},     # the encounter's fields that differ
     "changed": {"2": {"damage": {...}}},  # combatant 2's fields that differ
     "combatants": [...]}                # or, when who is in the fight differs, all of them

A part left out is the neighbour's. The log is written only once: a step back keeps
the first ``n`` lines of its neighbour's (``[n, []]``), since a step only adds lines.

Each log line (the present's, a redo step's) is written as its place in a table of the
distinct lines::

    "table": {"rules": [rule, ...],            # each rule cited, once
              "texts": [[words, ...], ...],    # each line's text, its numbers left out
              "lines": [[t, r, number, ...], ...]}  # text t's words, numbers between

A fight's log repeats itself: sixty turns of six combatants (``bench/tracker_record.py``)
log 3,327 lines, 389,876 characters written whole (38 of a line's 117 its rule's
citation, one of ten), of only 336 distinct lines and 101 distinct texts once their
numbers are left out. So each line costs its place, about 5 characters, each distinct
line its numbers, and each text and rule once: 32,567 characters for the record, its
50 undo steps included. A line made distinct by its numbers (the seed of the site's
dice) costs only those. Written before December 2026 (no table), a line is ``[text,
rule]``: such a history is still read (:func:`history_from_dict` without ``table``).

Reading checks everything as :func:`~ruleslab.encounter.serial.from_dict` does: each
step is rebuilt from its neighbour and read by it, every field checked (a part that
names a field or a combatant its neighbour does not have is refused, with where it
is). What was read already is not read again: a combatant left unchanged is his
neighbour's (already checked), and a log's lines are checked once, so a record of many
steps is read in time proportional to its length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ruleslab.encounter.history import MAX_STEPS, History
from ruleslab.encounter.log import EncounterError, whole
from ruleslab.encounter.serial import MAX_LOG, MAX_TEXT, AnyEncounter, from_dict, read_log, to_dict
from ruleslab.explain import Step

__all__ = ["PARTS", "history_from_dict", "history_to_dict", "joined", "read_table", "step_delta"]

PARTS = ("log", "set", "changed", "combatants")
"""What a stored step may hold (each part optional)."""
_WHOLE = ("format", "version", "game", "combatants", "log")
"""The fields a step's ``set`` may not hold: its game, its combatants and its log."""


def _common(a: tuple[Step, ...], b: tuple[Step, ...]) -> int:
    """How many first lines ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


_NUMBER = re.compile(r"([0-9]+)")
MAX_DIGITS = 15
"""The longest number a line's numbers hold as a JSON number (exact in JavaScript too);
longer ones, and those with a leading zero, are kept as their digits."""
MAX_TABLE_TEXT = 4_000_000
"""The most characters a table's lines may spell out together: a line's words are
written once and used by many lines, so a hostile table could otherwise spell out far
more than its own length."""


class _Table:
    """The distinct log lines written so far: a line's place in it. Each line is kept as
    its words (its text, each number in it left out, ``texts``: written once for all the
    lines that differ only in their numbers), its numbers and its rule (``rules``)."""

    def __init__(self) -> None:
        self.rules: dict[str, int] = {}
        self.texts: dict[tuple[str, ...], int] = {}
        self.lines: dict[Step, list[Any]] = {}

    def __call__(self, lines: Sequence[Step]) -> list[int]:
        out = []
        for s in lines:
            row = self.lines.get(s)
            if row is None:
                parts = _NUMBER.split(s.text)
                words = tuple(parts[0::2])
                numbers = [
                    int(n) if len(n) <= MAX_DIGITS and str(int(n)) == n else n for n in parts[1::2]
                ]
                t = self.texts.setdefault(words, len(self.texts))
                r = self.rules.setdefault(s.rule, len(self.rules))
                row = self.lines[s] = [len(self.lines), t, r, *numbers]
            out.append(row[0])
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": list(self.rules),
            "texts": [list(words) for words in self.texts],
            "lines": [row[1:] for row in self.lines.values()],
        }


def _whole_lines(lines: Sequence[Step]) -> list[list[str]]:
    return [[s.text, s.rule] for s in lines]


def step_delta(
    enc: AnyEncounter,
    base: AnyEncounter,
    lines: Callable[[Sequence[Step]], list[Any]] = _whole_lines,
) -> dict[str, Any]:
    """``enc`` as what differs from ``base`` (same game: a history's neighbours), its
    added log lines written by ``lines`` (whole, or by their place in a table)."""
    d, b = to_dict(enc, log=False), to_dict(base, log=False)
    out: dict[str, Any] = {}
    n = _common(enc.log, base.log)
    if not n == len(enc.log) == len(base.log):
        out["log"] = [n, lines(enc.log[n:])]
    changed = {k: v for k, v in d.items() if k not in _WHOLE and v != b.get(k)}
    if changed:
        out["set"] = changed
    people, was = d["combatants"], b["combatants"]
    if [c["key"] for c in people] != [c["key"] for c in was]:
        out["combatants"] = people
    else:
        fields = {
            str(i): {k: v for k, v in c.items() if v != old[k]}
            for i, (c, old) in enumerate(zip(people, was, strict=True))
            if c != old
        }
        if fields:
            out["changed"] = fields
    return out


def history_to_dict(history: History[Any], kept: int) -> dict[str, Any]:
    """``{"encounter", "past", "future", "table"}``: the present whole and the last
    ``kept`` steps of undo (oldest first) and of redo (next first), each as a
    :func:`step_delta` from its neighbour; every log line as its place in ``table``."""
    past = history.past[-kept:] if kept else ()
    future = history.future[:kept] if kept else ()
    newer = (*past, history.present)[1:]
    older = (history.present, *future)[: len(future)]
    table = _Table()
    present = {**to_dict(history.present, log=False), "log": table(history.present.log)}
    return {
        "encounter": present,
        "past": [step_delta(e, n, table) for e, n in zip(past, newer, strict=True)],
        "future": [step_delta(e, o, table) for e, o in zip(future, older, strict=True)],
        "table": table.to_dict(),
    }


def _fail(where: str, message: str) -> EncounterError:
    return EncounterError("encounter", f"{where}: {message}")


def read_table(value: Any) -> tuple[Step, ...]:
    """The distinct log lines of a stored history (:class:`EncounterError` naming
    ``table.rules[i]``, ``table.texts[i]`` or ``table.lines[i]``), each line read once:
    ``[text, rule, number, ...]``, its text's words interleaved with its numbers."""
    if not isinstance(value, dict) or set(value) != {"rules", "texts", "lines"}:
        raise _fail("table", "must be an object of the log's rules, texts and lines.")
    rules, texts, lines = value["rules"], value["texts"], value["lines"]
    for name, part in (("rules", rules), ("texts", texts), ("lines", lines)):
        if not isinstance(part, list) or len(part) > MAX_LOG:
            raise _fail(f"table.{name}", f"must be a list of at most {MAX_LOG}.")
    read_log([["", r] for r in rules], "table.rules")
    for i, words in enumerate(texts):
        ok = isinstance(words, list) and words and all(isinstance(w, str) for w in words)
        if not ok or sum(len(w) for w in words) > MAX_TEXT:
            raise _fail(
                f"table.texts[{i}]", f"must be a list of text, {MAX_TEXT} characters in all."
            )
    top_t, top_r = len(texts) - 1, len(rules) - 1
    out, spelt = [], 0
    for i, line in enumerate(lines):
        where = f"table.lines[{i}]"
        if not (isinstance(line, list) and len(line) >= 2 and whole(line[0], 0, top_t)):
            raise _fail(where, f"must be a line's text (0 to {top_t}), rule and numbers.")
        if not whole(line[1], 0, top_r):
            raise _fail(where, f"must name its rule, 0 to {top_r}.")
        words, numbers = texts[line[0]], line[2:]
        if len(numbers) != len(words) - 1:
            raise _fail(where, f"must hold {len(words) - 1} numbers, as its text has.")
        digits = []
        for n in numbers:
            if whole(n, 0, 10**MAX_DIGITS - 1):
                digits.append(str(n))
            elif isinstance(n, str) and n.isascii() and n.isdigit() and len(n) <= MAX_TEXT:
                digits.append(n)
            else:
                raise _fail(where, "its numbers must be whole numbers, or their digits.")
        text = "".join(w + d for w, d in zip(words, [*digits, ""], strict=True))
        spelt += len(text)
        if spelt > MAX_TABLE_TEXT:
            raise _fail("table.lines", f"must spell at most {MAX_TABLE_TEXT:,} characters in all.")
        out.append([text, rules[line[1]]])
    return read_log(out, "table.lines")


def _log(value: Any, where: str, table: tuple[Step, ...] | None) -> tuple[Step, ...]:
    """Log lines as written: whole (``table`` None) or by their place in ``table``."""
    if table is None:
        return read_log(value, where)
    if not isinstance(value, list) or len(value) > MAX_LOG:
        raise _fail(where, f"must be a list of at most {MAX_LOG} lines.")
    top = len(table) - 1
    for i, n in enumerate(value):
        if not whole(n, 0, top):
            raise _fail(f"{where}[{i}]", f"must be a line of the table, 0 to {top}.")
    return tuple(table[n] for n in value)


def _step(
    delta: Any, base: AnyEncounter, raw: dict[str, Any], where: str, table: tuple[Step, ...] | None
) -> Any:
    """The step ``delta`` holds, rebuilt from its neighbour ``base`` (``raw``: the dict
    ``base`` was read from, log left out) and read: ``(encounter, its dict)``."""
    if not isinstance(delta, dict):
        raise _fail(where, "must be an object of the parts that differ.")
    unknown = sorted(set(delta) - set(PARTS), key=str)
    if unknown:
        raise _fail(where, f"holds a part this version does not know: {unknown[0]!r}.")
    data = dict(raw)
    sets = delta.get("set", {})
    if not isinstance(sets, dict):
        raise _fail(f"{where}.set", "must be an object of the fields that differ.")
    for k, v in sets.items():
        if k in _WHOLE or k not in raw:
            raise _fail(f"{where}.set", f"names no field a step may set: {str(k)[:40]!r}.")
        data[k] = v
    log = base.log
    if "log" in delta:
        part = delta["log"]
        if not (isinstance(part, list) and len(part) == 2 and whole(part[0], 0, len(log))):
            raise _fail(
                f"{where}.log", f"must be [lines kept, of 0 to {len(log)}; the lines added]."
            )
        added = part[1]
        if isinstance(added, list) and part[0] + len(added) > MAX_LOG:
            raise _fail(f"{where}.log", f"must hold at most {MAX_LOG} lines.")
        log = (*log[: part[0]], *_log(added, f"{where}.log", table))
    if "combatants" in delta and "changed" in delta:
        raise _fail(where, "holds both its combatants and their changes.")
    known: dict[int, Any] = {}
    people = raw["combatants"]
    if "combatants" in delta:
        data["combatants"] = delta["combatants"]
    elif "changed" not in delta:
        known = {id(people): base.combatants}  # (the very list read before: not read again)
    else:
        known = {id(c): person for c, person in zip(people, base.combatants, strict=True)}
        changes = delta["changed"]
        if not isinstance(changes, dict):
            raise _fail(f"{where}.changed", "must be an object of the combatants that differ.")
        people = list(people)
        for i, fields in changes.items():
            if not (isinstance(i, str) and i.isdigit() and str(int(i)) == i):
                raise _fail(f"{where}.changed", f"{str(i)[:20]!r} is not a combatant's place.")
            if int(i) >= len(people):
                raise _fail(f"{where}.changed", f"names combatant {i} of {len(people)}.")
            old = people[int(i)]
            if not isinstance(fields, dict) or not set(fields) <= set(old):
                raise _fail(f"{where}.changed.{i}", "must be an object of that combatant's fields.")
            people[int(i)] = {**old, **fields}
        data["combatants"] = people
    try:
        enc = from_dict({**data, "log": []}, known=known, log=log)
    except EncounterError as e:
        raise _fail(where, e.message) from None
    return enc, data


def _steps(
    raw: Any,
    present: AnyEncounter,
    present_raw: dict[str, Any],
    part: str,
    table: tuple[Step, ...] | None,
) -> list[AnyEncounter]:
    """The stored ``part`` (``past``: each step from the one after it; ``future``: from
    the one before), read nearest first."""
    if not isinstance(raw, list) or len(raw) > MAX_STEPS:
        raise _fail(part, f"must be a list of at most {MAX_STEPS} steps.")
    order: Sequence[int] = range(len(raw) - 1, -1, -1) if part == "past" else range(len(raw))
    base, base_raw = present, present_raw
    out = []
    for i in order:
        base, base_raw = _step(raw[i], base, base_raw, f"{part}[{i}]", table)
        out.append(base)
    return out[::-1] if part == "past" else out


def history_from_dict(
    encounter: Any, past: Any, future: Any, table: Any = None
) -> History[AnyEncounter]:
    """The history :func:`history_to_dict` wrote, every step read and checked
    (:class:`EncounterError` naming the step and the field); ``table`` None: a history
    written before December 2026, its log lines whole."""
    lines = None if table is None else read_table(table)
    if lines is None:
        present = from_dict(encounter)
    else:
        if not isinstance(encounter, dict):
            raise _fail("encounter", "is not an encounter (an object of named fields).")
        present = from_dict({**encounter, "log": []}, log=_log(encounter.get("log"), "log", lines))
    raw = {k: v for k, v in encounter.items() if k != "log"}
    return History(
        tuple(_steps(past, present, raw, "past", lines)),
        present,
        tuple(_steps(future, present, raw, "future", lines)),
    )


_FIGHT = "the fight's turn, order or settings"
"""What the encounter's own fields (all but its combatants and log) are called when two
tabs changed them both."""


def _pick(base: Any, mine: Any, theirs: Any, what: str) -> Any:
    """One part met three ways: the side that changed it (both alike: that), or
    :class:`EncounterError` naming ``what`` when both changed it differently."""
    if mine == base or mine == theirs:
        return theirs
    if theirs == base:
        return mine
    raise EncounterError("encounter", f"both changed {what}.")


def joined(base: AnyEncounter, mine: AnyEncounter, theirs: AnyEncounter) -> AnyEncounter:
    """``mine`` and ``theirs``, each ``base`` changed (one tab's undo or redo, another's
    steps), joined: each combatant and the fight's own fields (its turn, order and
    settings, with who is in it, as one) taken from the side that changed them, and the
    log ``base``'s lines kept by both, then ``mine``'s added, then ``theirs``'. A part
    both changed differently refuses the join (:class:`EncounterError` naming it:
    "both changed Bo"), and so does a result the encounter does not read."""
    b, m, t = (to_dict(e, log=False) for e in (base, mine, theirs))
    people = [{c["key"]: c for c in d.pop("combatants")} for d in (b, m, t)]
    fight = _pick(
        {**b, "keys": list(people[0])},
        {**m, "keys": list(people[1])},
        {**t, "keys": list(people[2])},
        _FIGHT,
    )
    names = {c.key: c.name for e in (base, mine, theirs) for c in e.combatants}
    combatants = []
    for key in dict.fromkeys([*people[0], *people[1], *people[2]]):
        one = _pick(people[0].get(key), people[1].get(key), people[2].get(key), names[key])
        if key in fight["keys"]:
            combatants.append(one)
        elif one is not None:  # (a side left him out of the fight while the other changed him)
            raise EncounterError("encounter", f"both changed {names[key]}.")
    order = {k: i for i, k in enumerate(fight.pop("keys"))}
    combatants.sort(key=lambda c: order[c["key"]])
    nm, nt = _common(base.log, mine.log), _common(base.log, theirs.log)
    log = (*base.log[: min(nm, nt)], *mine.log[nm:], *theirs.log[nt:])
    try:
        return from_dict({**fight, "combatants": combatants, "log": []}, log=log[-MAX_LOG:])
    except EncounterError as e:
        raise EncounterError(
            "encounter", f"the two together are not an encounter: {e.message}"
        ) from None
