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
from encounter_fights import long_aberrant, long_chimera, stored_lines
from test_encounter_aberrant import play_20, play_21
from test_encounter_chimera import play_chimera

from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.history import History, redo, undo
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.stored import history_from_dict, history_to_dict

FIGHTS = {
    "2.1": lambda: play_21().history,
    "2.0": lambda: play_20().history,
    "chimera": lambda: play_chimera().history,
    "2.1 long": long_aberrant,
    "chimera long": long_chimera,
    "2.1, 60 turns": lambda: long_aberrant(turns=60),
    "chimera, 30 rounds": lambda: long_chimera(rounds=30),
}


@pytest.fixture(scope="module", params=sorted(FIGHTS))
def history(request):
    return FIGHTS[request.param]()


def _back(h: History, kept: int) -> History:
    data = json.loads(json.dumps(history_to_dict(h, kept)))  # (as text, as stored)
    return history_from_dict(data["encounter"], data["past"], data["future"], data["table"])


def _whole(data: dict) -> dict:
    """``data`` (:func:`history_to_dict`) with each log line written whole, ``[text,
    rule]``, as before December 2026 (no table)."""

    def whole(ns):
        return [list(line) for line in stored_lines(data, ns)]

    def step(d):
        return {**d, "log": [d["log"][0], whole(d["log"][1])]} if "log" in d else d

    return {
        "encounter": {**data["encounter"], "log": whole(data["encounter"]["log"])},
        "past": [step(d) for d in data["past"]],
        "future": [step(d) for d in data["future"]],
    }


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


def test_a_history_written_with_whole_lines_reads_back_the_same(history):
    """Stored before December 2026, each log line whole (no table): read back equal."""
    h = history
    for _ in range(min(len(h.past), 20)):
        h = undo(h)
    data = _whole(json.loads(json.dumps(history_to_dict(h, 50))))
    back = history_from_dict(data["encounter"], data["past"], data["future"])
    assert (back.past, back.present, back.future) == (h.past[-50:], h.present, h.future[:50])


def test_each_distinct_line_is_written_once_and_each_line_as_its_place(history):
    data = history_to_dict(history, 50)
    table = data["table"]
    every = stored_lines(data, list(range(len(table["lines"]))))
    assert len(set(every)) == len(every)
    for part in ("rules", "texts"):
        assert len({json.dumps(x) for x in table[part]}) == len(table[part])
    assert stored_lines(data) == [(s.text, s.rule) for s in history.present.log]


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


@pytest.mark.parametrize(
    "fight", [lambda: long_aberrant(turns=60), lambda: long_chimera(rounds=30)]
)
def test_a_long_fight_keeps_every_log_line_and_fifty_steps_in_the_record_limit(fight):
    """Sixty turns of the 2.1 fight, thirty rounds of Chimera's: the whole log and fifty
    steps each way fit in the record store's 200,000 characters (they did not before
    December 2026: the present's log alone passed it after 28 turns)."""
    h = fight()
    for _ in range(50):
        h = undo(h)
    text = json.dumps(history_to_dict(h, 50), ensure_ascii=False, separators=(",", ":"))
    assert len(text) < 200_000
    back = _back(h, 50)
    assert back.present.log == h.present.log
    assert (len(back.past), len(back.future)) == (50, 50)


def _stored():
    h = long_aberrant(turns=2)
    for _ in range(5):
        h = undo(h)
    return json.loads(json.dumps(history_to_dict(h, 50)))


def _number(data, value):
    """``data``'s table line 1 with its first number ``value`` (a line with numbers)."""
    table = data["table"]
    i = next(i for i, line in enumerate(table["lines"]) if len(line) > 2)
    table["lines"][1], table["lines"][i] = table["lines"][i], table["lines"][1]
    table["lines"][1][2] = value


def _amplified(data):
    table = data["table"]
    table["texts"].append(["x" * 2000])
    table["lines"][:] = [[len(table["texts"]) - 1, 0]] * 2001
    data["encounter"]["log"] = [0]


def _read(data):
    return history_from_dict(data["encounter"], data["past"], data["future"], data["table"])


@pytest.mark.parametrize(
    ("part", "damage", "where"),
    [
        ("past", lambda s: s.__setitem__("hp", 1), "holds a part this version does not know"),
        ("past", lambda s: s.__setitem__("set", {"log": []}), "names no field a step may set"),
        ("past", lambda s: s.__setitem__("set", {"turn": -1}), "turn: must be a whole number"),
        ("past", lambda s: s.__setitem__("log", [10**9, []]), "log: must be [lines kept"),
        ("past", lambda s: s.__setitem__("log", [True, []]), "log: must be [lines kept"),
        ("future", lambda s: s.__setitem__("log", [0, [["x"]]]), "must be a line of the table"),
        ("future", lambda s: s.__setitem__("log", [0, [10**6]]), "must be a line of the table"),
        ("future", lambda s: s.__setitem__("log", [0, [-1]]), "must be a line of the table"),
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
        _read(data)
    assert f"{part}[{i}]" in e.value.message
    assert where in e.value.message


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: d.__setitem__("table", []), "table: must be an object of the log's rules"),
        (lambda d: d["table"].pop("texts"), "table: must be an object of the log's rules"),
        (lambda d: d["table"].__setitem__("x", 1), "table: must be an object of the log's rules"),
        (lambda d: d["table"].__setitem__("lines", {}), "table.lines: must be a list"),
        (lambda d: d["table"]["rules"].__setitem__(0, 7), "table.rules[0]: must be text"),
        (lambda d: d["table"]["texts"].__setitem__(0, []), "table.texts[0]: must be a list"),
        (lambda d: d["table"]["texts"].__setitem__(0, [3]), "table.texts[0]: must be a list"),
        (
            lambda d: d["table"]["texts"].__setitem__(0, ["x" * 1001, "y" * 1000]),
            "table.texts[0]: must be a list of text, 2000 characters in all",
        ),
        (lambda d: d["table"]["lines"].__setitem__(1, ["x"]), "table.lines[1]: must be a line's"),
        (lambda d: d["table"]["lines"][1].__setitem__(0, 10**4), "table.lines[1]: must be a"),
        (lambda d: d["table"]["lines"][1].__setitem__(1, 99), "table.lines[1]: must name its"),
        (lambda d: d["table"]["lines"][1].__setitem__(1, True), "table.lines[1]: must name its"),
        (lambda d: d["table"]["lines"][1].append(7), "table.lines[1]: must hold"),
        (lambda d: _number(d, -1), "table.lines[1]: its numbers must be whole numbers"),
        (lambda d: _number(d, "1a"), "table.lines[1]: its numbers must be whole numbers"),
        (lambda d: _number(d, 1.5), "table.lines[1]: its numbers must be whole numbers"),
        (lambda d: _number(d, "9" * 2001), "table.lines[1]: its numbers must be whole numbers"),
        (lambda d: _number(d, "1" * 1990), "table.lines[1]: must be text of at most 2000"),
        (_amplified, "table.lines: must spell at most 4,000,000 characters in all"),
        (lambda d: d["encounter"]["log"].__setitem__(3, 10**6), "log[3]: must be a line of the"),
        (lambda d: d["encounter"]["log"].__setitem__(3, "a"), "log[3]: must be a line of the"),
        (lambda d: d["encounter"].__setitem__("log", {}), "log: must be a list"),
        (lambda d: d["encounter"].pop("log"), "log: must be a list"),
    ],
)
def test_a_damaged_table_or_log_is_refused_naming_it(damage, where):
    """(each line of the table checked as a whole line of format 1 was, its text spelt
    out; and a table whose lines would spell out more than 4,000,000 characters, from
    words written once, refused before they are)"""
    data = _stored()
    damage(data)
    with pytest.raises(EncounterError) as e:
        _read(data)
    assert where in e.value.message


def test_a_step_not_a_list_or_too_many_is_refused():
    data = _stored()
    with pytest.raises(EncounterError, match="at most 2000 steps"):
        history_from_dict(data["encounter"], {"0": {}}, [], data["table"])
    with pytest.raises(EncounterError, match="at most 2000 steps"):
        history_from_dict(data["encounter"], [{}] * 2001, [], data["table"])


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


# --- joining two tabs' changes (an undo in one, a step in the other) -------------------


def _three():
    """Ana (12), Cy (8) and Bo (5); Ana declares two actions, hits Cy for 2 lethal, then
    Bo for 1 lethal: the history up to there."""
    from ruleslab.encounter import aberrant as ab
    from ruleslab.encounter.history import record, start

    people = [
        ab.quick_foe(k, k.title(), dexterity=4, wits=3, stamina=3) for k in ("ana", "bo", "cy")
    ]
    h = start(ab.new_encounter("2.1", people[:1]))
    for c in people[1:]:
        h = record(h, ab.join(h.present, c))
    h = record(h, ab.set_initiative(h.present, {"ana": 12, "bo": 5, "cy": 8}))
    h = record(h, ab.declare(h.present, "ana", 2))
    h = record(h, ab.resolve_attack(h.present, "ana", "cy", hit=True, damage=Damage(lethal=2)))
    return record(h, ab.resolve_attack(h.present, "ana", "bo", hit=True, damage=Damage(lethal=1)))


def test_an_undo_and_a_step_on_another_combatant_are_joined():
    """Tab A takes back Ana's hit on Bo; tab B, meanwhile, healed Cy 1 lethal: the join
    has Bo unhurt (A's undo) and Cy at 1 lethal (2 taken, 1 healed: B's), Ana's second
    action not taken (A's undo), and the log without the hit on Bo, with the healing."""
    from ruleslab.encounter.recovery import heal
    from ruleslab.encounter.stored import joined

    h = _three()
    base = h.present
    mine = undo(h).present
    theirs = heal(base, "cy", Damage(lethal=1)).encounter
    both = joined(base, mine, theirs)
    people = {c.key: c for c in both.combatants}
    assert people["bo"].damage == Damage()
    assert people["cy"].damage == Damage(lethal=1)
    assert people["ana"] == {c.key: c for c in mine.combatants}["ana"]
    assert [c.key for c in both.combatants] == [c.key for c in base.combatants]
    assert (both.turn, both.order, both.place) == (base.turn, base.order, base.place)
    added = theirs.log[len(base.log) :]
    assert added
    assert both.log == (*mine.log, *added)
    assert not any(s.text.startswith("Bo takes") for s in both.log)


@pytest.mark.parametrize("fight", [_three, lambda: long_chimera(rounds=2)])
def test_a_join_takes_either_side_unchanged_as_it_is(fight):
    from ruleslab.encounter.stored import joined

    h = fight()
    mine = undo(h).present
    assert joined(h.present, mine, h.present) == mine
    assert joined(h.present, h.present, mine) == mine
    assert joined(h.present, mine, mine) == mine


def test_a_join_is_refused_naming_what_both_changed():
    from ruleslab.encounter import aberrant as ab
    from ruleslab.encounter.recovery import heal
    from ruleslab.encounter.stored import joined

    h = _three()
    base, mine = h.present, undo(h).present
    with pytest.raises(EncounterError, match="both changed Bo"):
        joined(base, mine, heal(base, "bo", Damage(lethal=1)).encounter)
    with pytest.raises(EncounterError, match="both changed the fight's turn, order or settings"):
        joined(base, ab.next_turn(base).encounter, ab.end_scene(base).encounter)
