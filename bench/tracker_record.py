"""How many undo steps and log lines of a long fight survive a reload, and the stored
record's size.

Two long fights (``tests/engine/encounter_fights.py``, which the stored-record tests
play too) are played through the engine with seeded dice, step by step as the
tracker page records them (:func:`ruleslab.encounter.history.record`): 10 and 60 turns
of a six-combatant Aberrant 2.1 fight (each acting one declares two actions and attacks
twice) and 10 and 30 rounds of a six-fighter Chimera fight. Each is written as the
tracker stores it (:meth:`ruleslab_widgets.tracker_record.Fight.text` within the record
store's ``MAX_RECORD_TEXT``) and read back
(:func:`~ruleslab_widgets.tracker_record.parse_fight`); and, for the figures before,
as the build before December 2026 stored it (:func:`format_1`: format 1, each log line
written whole, ``[text, rule]``)::

    .venv/bin/python -m bench.tracker_record

prints, for each fight and for its present with 50 steps undone (redo kept), the steps
in memory, the steps and log lines read back and the record's length in characters,
format 1 (before) then format 2; what the log's size is made of; then the time to read
a hostile record (:func:`hostile`).
"""

from __future__ import annotations

from typing import Any

from ruleslab.encounter.history import History, undo
from tests.engine.encounter_fights import long_aberrant, long_chimera

__all__ = [
    "distinct",
    "figures",
    "format_1",
    "hostile",
    "log_size",
    "long_aberrant",
    "long_chimera",
    "main",
]


def format_1(name: str, ruleset: str, history: History[Any], limit: int) -> str:
    """The record as the build before December 2026 wrote it (commit 493a527's
    ``Fight.text``; its output for the 10-turn fight is the 96,844 characters that build
    measured): the present whole, its log lines ``[text, rule]``; the steps each a
    difference, their added lines whole; halving the steps kept, then the present's
    log, until it fits ``limit``."""
    import json

    from ruleslab.encounter.serial import to_dict
    from ruleslab.encounter.stored import step_delta

    def steps(h: History[Any], kept: int) -> dict[str, Any]:
        past, future = (h.past[-kept:], h.future[:kept]) if kept else ((), ())
        newer, older = (*past, h.present)[1:], (h.present, *future)[: len(future)]
        return {
            "past": [step_delta(e, n) for e, n in zip(past, newer, strict=True)],
            "future": [step_delta(e, o) for e, o in zip(future, older, strict=True)],
        }

    kept, present = 50, to_dict(history.present)
    while True:
        data = {"format": 1, "name": name, "ruleset": ruleset, "encounter": present}
        text = json.dumps(
            {**data, "steps": steps(history, kept)}, ensure_ascii=False, separators=(",", ":")
        )
        if len(text) <= limit or not (kept or present["log"]):
            return text
        if kept:
            kept //= 2
        else:
            log = present["log"]
            present = {**present, "log": log[len(log) // 2 + 1 :]}


def figures(name: str, ruleset: str, history: History[Any]) -> list[dict[str, Any]]:
    """The stored record of ``history``, format 1 (before) and 2, and what a reload
    reads back of each."""
    from ruleslab_widgets.records import MAX_RECORD_TEXT
    from ruleslab_widgets.tracker_record import Fight, parse_fight

    out = []
    for form, text in (
        ("1 (before)", format_1(name, ruleset, history, MAX_RECORD_TEXT)),
        ("2", Fight(name, ruleset, history).text(MAX_RECORD_TEXT)),
    ):
        back = parse_fight(text).history
        assert back is not None
        kept = len(back.present.log)
        assert back.present.log == history.present.log[len(history.present.log) - kept :]
        out.append(
            {
                "fight": name,
                "format": form,
                "steps": len(history.past),
                "redo": len(history.future),
                "log lines": len(history.present.log),
                "lines kept": kept,
                "undo kept": len(back.past),
                "redo kept": len(back.future),
                "characters": len(text),
            }
        )
    return out


def log_size(name: str, history: History[Any]) -> dict[str, Any]:
    """What the present's log is made of, written whole: its lines, characters per line,
    of which the rules cited, and how many lines and rules are distinct."""
    import json

    log = history.present.log
    whole = len(json.dumps([[s.text, s.rule] for s in log], ensure_ascii=False))
    return {
        "fight": name,
        "log lines": len(log),
        "characters whole": whole,
        "per line": round(whole / len(log), 1),
        "of which rule": round(sum(len(s.rule) for s in log) / len(log), 1),
        "distinct lines": len(set(log)),
        "distinct rules": len({s.rule for s in log}),
    }


def hostile() -> list[dict[str, Any]]:
    """The time to read a hostile record: 2000 empty steps (each the present again) over
    a present of 20,000 log lines and 200 combatants, its lines whole (format 1) and by
    their place in a table (format 2)."""
    import json
    import time

    from ruleslab.encounter.stored import history_from_dict, history_to_dict

    data = json.loads(json.dumps(history_to_dict(long_aberrant(turns=1), 0)))
    enc = data["encounter"]
    enc["combatants"] = [{**enc["combatants"][i % 6], "key": f"k{i}"} for i in range(200)]
    enc["order"], enc["place"] = [], 0
    out = []
    for form, log, table in (
        ("1", [["", ""]] * 20_000, None),
        ("2", [0] * 20_000, {"rules": [""], "texts": [[""]], "lines": [[0, 0]]}),
    ):
        enc = {**enc, "log": log}
        text = json.dumps({"encounter": enc, "past": [{}] * 2000, "table": table})
        start = time.perf_counter()
        back = history_from_dict(enc, [{}] * 2000, [], table)
        took = time.perf_counter() - start
        assert len(back.past) == 2000
        name = f"hostile, format {form}: 2000 empty steps"
        out.append({"fight": name, "characters": len(text), "read (s)": round(took, 3)})
    return out


def distinct(turns: int) -> dict[str, Any]:
    """The present of ``turns`` turns of the 2.1 fight with every log line made distinct
    (" (seed 1000000000+i)" added, as the site's dice write a seed into each rolled
    line), stored alone: its length whole, and the lines a reload keeps."""
    from dataclasses import replace

    from ruleslab.encounter.history import History
    from ruleslab.explain import Step
    from ruleslab_widgets.records import MAX_RECORD_TEXT
    from ruleslab_widgets.tracker_record import Fight, parse_fight

    p = long_aberrant(turns=turns).present
    log = tuple(Step(f"{s.text} (seed {1_000_000_000 + i})", s.rule) for i, s in enumerate(p.log))
    fight = Fight("distinct", "2.1", History((), replace(p, log=log)))
    back = parse_fight(fight.text(MAX_RECORD_TEXT)).history
    assert back is not None
    return {
        "fight": f"2.1, {turns} turns, every line distinct",
        "log lines": len(log),
        "characters whole": len(fight.text(10**9)),
        "lines kept": len(back.present.log),
    }


def main() -> None:
    for name, ruleset, history in (
        ("2.1, 10 turns, 6 combatants", "2.1", long_aberrant()),
        ("2.1, 60 turns, 6 combatants", "2.1", long_aberrant(turns=60)),
        ("Chimera, 10 rounds, 6 fighters", "chimera", long_chimera()),
        ("Chimera, 30 rounds, 6 fighters", "chimera", long_chimera(rounds=30)),
    ):
        print(log_size(name, history))
        for label, h in ((name, history), (f"{name}, 50 undone", _undone(history, 50))):
            for row in figures(label, ruleset, h):
                print(row)
    for turns in (30, 60):
        print(distinct(turns))
    for row in hostile():
        print(row)


def _undone(history: History[Any], n: int) -> History[Any]:
    for _ in range(n):
        history = undo(history)
    return history


if __name__ == "__main__":
    main()
