"""Undo and redo of every step, and every encounter written and read back.

The three fights of ``test_encounter_aberrant.py`` and ``test_encounter_chimera.py``
are played again; every encounter they went through is kept, so the undo test can
compare each step undone with the very state before it, and the serialization test
can read back every one of them.
"""

from __future__ import annotations

import copy
import json

import pytest
from test_encounter_aberrant import play_20, play_21
from test_encounter_chimera import play_chimera

from ruleslab.encounter.history import redo, undo
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.serial import FORMAT, from_dict, to_dict

PLAYS = {"2.1": play_21, "2.0": play_20, "chimera": play_chimera}


@pytest.fixture(scope="module", params=sorted(PLAYS))
def play(request):
    return PLAYS[request.param]()


def test_undo_of_every_step_restores_the_state_before_it(play):
    h = play.history
    states = play.states
    assert h.present == states[-1]
    for i in range(len(states) - 2, -1, -1):
        h = undo(h)
        assert h.present == states[i]
    assert not h.can_undo
    with pytest.raises(EncounterError, match="Nothing to undo"):
        undo(h)
    for i in range(1, len(states)):
        h = redo(h)
        assert h.present == states[i]
    assert not h.can_redo


def test_a_new_step_after_undo_forgets_what_was_undone(play):
    from ruleslab.encounter.history import record
    from ruleslab.encounter.log import Change

    h = undo(undo(play.history))
    h = record(h, Change(play.states[-3], ()))
    assert not h.can_redo
    assert h.present == play.states[-3]


def test_every_state_survives_json(play):
    for enc in play.states:
        data = json.loads(json.dumps(to_dict(enc)))
        assert from_dict(data) == enc


def _broken(enc, path, value):
    data = copy.deepcopy(to_dict(enc))
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), "something-else", "not a ruleslab encounter"),
        (("version",), 99, "version 99"),
        (("game",), "chess", "'aberrant' or 'chimera'"),
        (("turn",), "3", "encounter.turn: must be a whole number"),
        (("turn",), True, "encounter.turn: must be a whole number"),
        (("extra",), 1, "does not know: 'extra'"),
        (("log",), KeyError, "misses the field 'log'"),
        (("order", 0), "nobody", "order\\[0\\]: names 'nobody'"),
        (("place",), 50, "place: must be at most 4"),
        (("combatants", 0, "damage", "lethal"), -2, "combatants\\[0\\].damage.lethal"),
        (("combatants", 1, "character", "stamina"), 0, "combatants\\[1\\].character.stamina"),
        (("combatants", 1, "character", "charm"), 3, "does not have: 'charm'"),
        (("combatants", 2, "daze"), "asleep", "combatants\\[2\\].daze: must be one of"),
        (("combatants", 2, "side"), "referee", "side must be one of"),
        (("combatants", 0, "initiative"), 3.5, "combatants\\[0\\].initiative"),
        (("combatants",), [], "1 to 200 combatants"),
    ],
)
def test_unreadable_aberrant_data_is_refused_naming_the_field(path, value, message):
    p = play_21()
    data = _broken(p.states[3], path, value)
    with pytest.raises(EncounterError, match=message):
        from_dict(data)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("combatants", 0, "fighter", "wound_limit"), 40, "combatants\\[0\\].fighter.wound_limit"),
        (("combatants", 0, "fighter", "name"), 7, "fighter.name: must be text"),
        (("combatants", 1, "status"), "asleep", "status"),
        (("combatants", 1, "vanquished_by"), "ghost", "names no combatant"),
        (("rules", "ties"), "coin", "ties must be one of"),
    ],
)
def test_unreadable_chimera_data_is_refused_naming_the_field(path, value, message):
    p = play_chimera()
    with pytest.raises(EncounterError, match=message):
        from_dict(_broken(p.states[2], path, value))


def test_not_an_object_is_refused():
    for data in (None, [], "encounter", 3):
        with pytest.raises(EncounterError, match="not an encounter"):
            from_dict(data)
    assert to_dict(play_20().states[0])["format"] == FORMAT
