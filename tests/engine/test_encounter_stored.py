"""A fight's history stored compactly (ruleslab.encounter.stored): every step read back
equal, whatever the step changed; a damaged or hostile step refused with where it is.

The three fights of the encounter tests and two long ones (encounter_fights.py, which
bench/tracker_record.py plays too) are written and read back; each step read is
compared with the very encounter the history held, so undo after a reload is undo
before it.
"""

from __future__ import annotations

import itertools
import json

import pytest
from encounter_fights import long_aberrant, long_chimera
from test_encounter_aberrant import play_20, play_21
from test_encounter_chimera import play_chimera

from ruleslab.encounter.history import History, redo, undo
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.stored import history_from_dict, history_to_dict

FIGHTS = {
    "2.1": lambda: play_21().history,
    "2.0": lambda: play_20().history,
    "chimera": lambda: play_chimera().history,
    "2.1 long": long_aberrant,
    "chimera long": long_chimera,
}


@pytest.fixture(scope="module", params=sorted(FIGHTS))
def history(request):
    return FIGHTS[request.param]()


def _back(h: History, kept: int) -> History:
    data = json.loads(json.dumps(history_to_dict(h, kept)))  # (as text, as stored)
    return history_from_dict(data["encounter"], data["past"], data["future"])


def test_every_step_read_back_is_the_encounter_it_was(history):
    """From each place in the fight (steps undone, so that redo is stored too), the
    steps read back are the encounters the history held, one by one."""
    h = history
    places = [h]
    for _ in range(min(len(h.past), 60)):
        h = undo(h)
        places.append(h)
    for h in places[:: max(1, len(places) // 12)]:
        back = _back(h, 50)
        assert back.present == h.present
        assert back.past == h.past[-50:]
        assert back.future == h.future[:50]
        # undo and redo after the reload walk the same encounters as before it
        a, b = h, back
        while b.can_undo:
            a, b = undo(a), undo(b)
            assert a.present == b.present
        while b.can_redo:
            a, b = redo(a), redo(b)
            assert a.present == b.present


def test_a_step_back_stores_its_log_as_a_length_only(history):
    data = history_to_dict(history, 50)
    for step in data["past"]:
        assert step.get("log", [0, []])[1] == []


def test_a_long_fight_keeps_fifty_steps_each_way_in_a_fraction_of_the_whole():
    """Ten turns of six combatants: the whole history's 50 steps each way as format 1
    stored them (each step whole) against as differences."""
    h = long_aberrant()
    for _ in range(50):
        h = undo(h)
    whole = json.dumps(
        {
            "past": [history_to_dict(History((), e), 0)["encounter"] for e in h.past[-50:]],
            "future": [history_to_dict(History((), e), 0)["encounter"] for e in h.future],
        }
    )
    compact = json.dumps(history_to_dict(h, 50))
    assert len(compact) * 10 < len(whole)


def _stored():
    h = long_aberrant(turns=2)
    for _ in range(5):
        h = undo(h)
    return json.loads(json.dumps(history_to_dict(h, 50)))


@pytest.mark.parametrize(
    ("part", "damage", "where"),
    [
        ("past", lambda s: s.__setitem__("hp", 1), "holds a part this version does not know"),
        ("past", lambda s: s.__setitem__("set", {"log": []}), "names no field a step may set"),
        ("past", lambda s: s.__setitem__("set", {"turn": -1}), "turn: must be a whole number"),
        ("past", lambda s: s.__setitem__("log", [10**9, []]), "log: must be [lines kept"),
        ("past", lambda s: s.__setitem__("log", [True, []]), "log: must be [lines kept"),
        ("future", lambda s: s.__setitem__("log", [0, [["x"]]]), "must be a line's text"),
        ("past", lambda s: s.__setitem__("changed", {"99": {}}), "names combatant 99"),
        ("past", lambda s: s.__setitem__("changed", {"01": {}}), "is not a combatant's place"),
        ("past", lambda s: s.__setitem__("changed", {"0": {"hp": 3}}), "that combatant's fields"),
        (
            "past",
            lambda s: s.__setitem__("changed", {"0": {"damage": {"lethal": 999}}}),
            "damage",
        ),
        ("past", lambda s: s.__setitem__("combatants", []), "both its combatants and"),
        (
            "past",
            lambda s: (s.pop("changed", 0), s.__setitem__("combatants", [])),
            "1 to 200 combatants",
        ),
        ("future", lambda s: s.__setitem__("set", {"order": ["nobody"]}), "order[0]"),
        ("past", lambda s: s.clear() or s.update({"x": [[[[]]]]}), "does not know"),
    ],
)
def test_a_damaged_step_is_refused_naming_it(part, damage, where):
    data = _stored()
    i = len(data[part]) - 2  # (a step of the fight, not one who joined)
    damage(data[part][i])
    with pytest.raises(EncounterError) as e:
        history_from_dict(data["encounter"], data["past"], data["future"])
    assert f"{part}[{i}]" in e.value.message
    assert where in e.value.message


def test_a_step_not_a_list_or_too_many_is_refused():
    data = _stored()
    with pytest.raises(EncounterError, match="at most 2000 steps"):
        history_from_dict(data["encounter"], {"0": {}}, [])
    with pytest.raises(EncounterError, match="at most 2000 steps"):
        history_from_dict(data["encounter"], [{}] * 2001, [])


def test_what_a_step_left_unchanged_is_its_neighbours_not_read_again(history):
    """A combatant a step did not change is the very combatant read for its neighbour,
    and its log's lines are the neighbour's very lines: a record of many steps is read
    in time proportional to its text (a hostile one, 2000 empty steps over 20,000 log
    lines: bench/tracker_record.py's ``hostile``), not steps x encounter."""
    back = _back(history, 50)
    steps = [*back.past, back.present, *back.future]
    for older, newer in itertools.pairwise(steps):
        for a, b in zip(older.combatants, newer.combatants, strict=False):
            if a == b and a.key == b.key:
                assert a is b
        n = min(len(older.log), len(newer.log))
        assert all(x is y for x, y in zip(older.log[:n], newer.log[:n], strict=True))
