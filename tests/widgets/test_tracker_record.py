"""The tracker's stored record (ruleslab_widgets.tracker_record): a long fight keeps its
whole log and its undo steps within the record store's limit, and a record written by
the build before December 2026 (format 1) still reads back the fight it held.

The format-1 records in ``stored_format1/`` were written by that build's own code
(commit 493a527, ``Fight(name, ruleset, history).text(MAX_RECORD_TEXT)``) from the
fights of ``tests/engine/encounter_fights.py``; the expected histories here are those
fights played again through the engine, not read from any record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleslab.encounter.history import History, redo, undo
from ruleslab_widgets.records import MAX_RECORD_TEXT, RECORD_NEWEST
from ruleslab_widgets.tracker_record import FORMAT, Fight, parse_fight
from tests.engine.encounter_fights import long_aberrant, long_chimera

OLD = Path(__file__).parent / "stored_format1"


def _undone(h: History[Any], n: int) -> History[Any]:
    for _ in range(n):
        h = undo(h)
    return h


@pytest.mark.parametrize(
    ("name", "ruleset", "fight"),
    [
        ("aberrant_3_turns_5_undone", "2.1", lambda: _undone(long_aberrant(turns=3), 5)),
        ("chimera_3_rounds_5_undone", "chimera", lambda: _undone(long_chimera(rounds=3), 5)),
    ],
)
def test_a_record_the_earlier_build_wrote_reads_back_the_same_fight(name, ruleset, fight):
    text = (OLD / f"{name}.json").read_text()
    assert json.loads(text)["format"] == 1
    back = parse_fight(text)
    h = fight()
    assert (back.name, back.ruleset) == (name, ruleset)
    assert back.history is not None
    assert back.history.present == h.present
    assert back.history.past == h.past[-50:]
    assert back.history.future == h.future
    # written again (format 2), it reads back the same, undo and redo included
    again = back.history and Fight(name, ruleset, back.history).text(MAX_RECORD_TEXT)
    assert json.loads(again)["format"] == FORMAT == 2
    assert parse_fight(again).history == back.history


LONG = {
    "2.1, 60 turns": ("2.1", lambda: long_aberrant(turns=60)),
    "Chimera, 30 rounds": ("chimera", lambda: long_chimera(rounds=30)),
}


@pytest.mark.parametrize("fight", sorted(LONG))
@pytest.mark.parametrize("undone", [0, 50])
def test_a_long_fight_keeps_its_whole_log_and_fifty_steps_across_a_reload(fight, undone):
    """Sixty turns of the six-combatant 2.1 fight (3,327 log lines), thirty Chimera
    rounds: before December 2026 the present's log alone passed the record store's
    200,000 characters from about 28 turns, its oldest lines were dropped and no undo
    step was kept. Now every log line and 50 undo (and redo) steps are kept, each step
    read back equal to the one the page held."""
    ruleset, play = LONG[fight]
    h = _undone(play(), undone)
    text = Fight(fight, ruleset, h).text(MAX_RECORD_TEXT)
    assert len(text) <= MAX_RECORD_TEXT
    back = parse_fight(text).history
    assert back is not None
    assert back.present == h.present
    assert len(back.present.log) == len(h.present.log) > 600
    assert back.past == h.past[-50:]
    assert back.future == h.future[:50]
    assert len(back.future) == undone
    a, b = back, h
    while a.can_redo:
        a, b = redo(a), redo(b)
        assert a.present == b.present


def test_the_records_are_written_in_a_layout_the_earlier_build_keeps_unread():
    """A build before December 2026 reads store records of layout 1 only and keeps a
    newer one untouched (records.py's checkRecord: "a later site's layout"), where a
    format-2 text it cannot read would be set aside."""
    pytest.importorskip("ipywidgets")
    pytest.importorskip("anywidget")
    from ruleslab_widgets.tracker_page import TrackerPage

    sent: list[dict[str, Any]] = []
    page = TrackerPage()
    page._store._post = sent.append
    page._store.write({"e1": "{}"}, lambda _written: None)
    assert [op["format"] for op in sent[0]["ops"]] == [RECORD_NEWEST] == [2]
