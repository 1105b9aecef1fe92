"""How many undo steps of a long fight survive a reload, and the stored record's size.

Two long fights (``tests/engine/encounter_fights.py``, which the stored-record tests
play too) are played through the engine with seeded dice, step by step as the
tracker page records them (:func:`ruleslab.encounter.history.record`): ten turns of a
six-combatant Aberrant 2.1 fight (each acting one declares two actions and attacks
twice) and ten rounds of a six-fighter Chimera fight. Each is written as the tracker
stores it (:meth:`ruleslab_widgets.tracker_record.Fight.text` within the record store's
``MAX_RECORD_TEXT``) and read back (:func:`~ruleslab_widgets.tracker_record.parse_fight`)::

    .venv/bin/python -m bench.tracker_record

prints, for each fight and for its present with 50 steps undone (redo kept), the steps
in memory, the steps read back and the record's length in characters; then the time
to read a hostile record (:func:`hostile`).
"""

from __future__ import annotations

from typing import Any

from ruleslab.encounter.history import History, undo
from tests.engine.encounter_fights import long_aberrant, long_chimera

__all__ = ["figures", "hostile", "long_aberrant", "long_chimera", "main"]


def figures(name: str, ruleset: str, history: History[Any]) -> dict[str, Any]:
    """The stored record of ``history`` and what a reload reads back of it."""
    from ruleslab_widgets.records import MAX_RECORD_TEXT
    from ruleslab_widgets.tracker_record import Fight, parse_fight

    text = Fight(name, ruleset, history).text(MAX_RECORD_TEXT)
    back = parse_fight(text).history
    assert back is not None
    return {
        "fight": name,
        "steps": len(history.past),
        "redo": len(history.future),
        "log lines": len(history.present.log),
        "undo kept": len(back.past),
        "redo kept": len(back.future),
        "characters": len(text),
    }


def hostile() -> dict[str, Any]:
    """The time to read a hostile record: 2000 empty steps (each the present again) over
    a present of 20,000 log lines and 200 combatants."""
    import json
    import time

    from ruleslab.encounter.stored import history_from_dict, history_to_dict

    data = json.loads(json.dumps(history_to_dict(long_aberrant(turns=1), 0)))
    enc = data["encounter"]
    enc["log"] = [["", ""]] * 20_000
    enc["combatants"] = [{**enc["combatants"][i % 6], "key": f"k{i}"} for i in range(200)]
    enc["order"], enc["place"] = [], 0
    text = json.dumps({"encounter": enc, "past": [{}] * 2000})
    start = time.perf_counter()
    back = history_from_dict(enc, [{}] * 2000, [])
    took = time.perf_counter() - start
    assert len(back.past) == 2000
    return {"fight": "hostile: 2000 empty steps", "characters": len(text), "read (s)": took}


def main() -> None:
    for name, ruleset, history in (
        ("2.1, 10 turns, 6 combatants", "2.1", long_aberrant()),
        ("Chimera, 10 rounds, 6 fighters", "chimera", long_chimera()),
    ):
        for label, h in ((name, history), (f"{name}, 50 undone", _undone(history, 50))):
            print(figures(label, ruleset, h))
    print(hostile())


def _undone(history: History[Any], n: int) -> History[Any]:
    for _ in range(n):
        history = undo(history)
    return history


if __name__ == "__main__":
    main()
