"""The tracker page's Python side (ruleslab_widgets.tracker_page), driven by the messages
the page sends; what it sends back is recorded. The page itself: tests/browser/test_tracker.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.character import Character
from ruleslab.party import Party, entry_json
from ruleslab_widgets.tracker_page import TrackerPage


class Page:
    """A tracker and the page's side of it: records kept as the store keeps them."""

    def __init__(
        self, records: list[dict[str, Any]] | None = None, party: Any = (), current: Any = None
    ) -> None:
        self.sent: list[dict[str, Any]] = []
        self.t = TrackerPage()
        self.t.send = self.sent.append  # type: ignore[method-assign]
        self.t._store._post = self.sent.append
        reading = {"records": records or [], "party": list(party), "current": current}
        self.tap("loaded", mode="ready", **reading)

    def tap(self, kind: str, **more: Any) -> dict[str, Any]:
        self.t._receive(self.t, {"type": kind, **more}, [])
        return self.t.board

    def answer_writes(self) -> None:
        for m in [m for m in self.sent if m.get("type") == "write"]:
            self.sent.remove(m)
            self.tap("written", req=m["req"], ok=True)


def test_a_fight_played_undone_and_its_fields_checked():
    p = Page()
    assert p.t.board["when"] == "No one has joined yet"
    b = p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    assert b["message"] == "Ana joins the fight."
    assert p.tap("add_foe", name="X", dexterity="0", wits="2", stamina="2")["message"] == (
        "Dex: a whole number from 1 to 10."
    )
    assert p.tap("add_foe", name=" ", dexterity="2", wits="2", stamina="2")["message"] == (
        "Foe's name: 1 to 60 characters."
    )
    p.tap("add_foe", name="Thug", dexterity="2", wits="2", stamina="2")
    assert p.tap("next")["message"] == "Roll or enter initiative first."
    b = p.tap("initiative")
    assert b["when"].startswith("Turn 1: ")
    acting = b["acting"]["key"]
    target = next(r for r in b["rows"] if r["key"] != acting)
    stamina = 3 if target["name"] == "Ana" else 2
    bad = p.tap("attack", target=target["key"], hit=True, lethal="x", bashing="0")
    assert bad["message"] == "Lethal levels: a whole number from 0 to 200."
    before = [r for r in p.t.board["rows"]]
    # 2 x Stamina levels in one turn: Dazed (Quick reference › Dazing/Stunning)
    b = p.tap(
        "attack",
        target=target["key"],
        hit=True,
        lethal=str(2 * stamina),
        bashing="0",
        aggravated="0",
    )
    hurt = next(r for r in b["rows"] if r["key"] == target["key"])
    assert "Dazed: +1 (ends with turn 2)" in hurt["chips"]
    assert b["can_undo"]
    assert p.tap("undo")["rows"] == before
    assert p.tap("redo")["rows"] != before
    # hidden: marked on the row (and undoable)
    b = p.tap("hide", key=target["key"])
    assert next(r for r in b["rows"] if r["key"] == target["key"])["hidden"]


def test_the_party_is_offered_and_stored_encounters_read_back():
    party = Party().add("Aiko", Character(dexterity=4, wits=4))
    entry = party.entries[0]
    p = Page(party=[{"id": entry.id, "text": entry_json(entry)}, {"id": "bad", "text": "{"}])
    assert [e["name"] for e in p.t.board["party"]] == ["Aiko"]
    p.tap("add_party", id=entry.id)
    assert [r["name"] for r in p.t.board["rows"]] == ["Aiko"]
    writes = [m for m in p.sent if m.get("type") == "write"]
    text = writes[-1]["ops"][0]["text"]
    ident = writes[-1]["ops"][0]["id"]
    # another page reads what was written: the same rows
    q = Page([{"id": ident, "rev": 3, "created": 1.0, "text": text}])
    assert q.t.board["rows"] == p.t.board["rows"]


def test_unreadable_records_are_set_aside_with_a_message_never_dropped():
    good = json.dumps({"format": 1, "name": "Kept", "ruleset": "2.0", "encounter": None})
    bad = json.dumps({"format": 1, "name": "Broken", "ruleset": "2.1", "encounter": 7})
    p = Page(
        [
            {"id": "e1", "rev": 1, "created": 1.0, "text": good},
            {"id": "e2", "rev": 1, "created": 2.0, "text": bad},
            {"id": "e3", "found": "a BigInt"},
        ]
    )
    assert [e["name"] for e in p.t.board["encounters"]] == ["Kept"]
    aside = [m for m in p.sent if m.get("type") == "set_aside"]
    assert [sorted(m["ids"]) for m in aside] == [["e2", "e3"]]
    assert "2 saved encounter(s) could not be read and were set aside" in p.t.board["message"]


def test_a_file_and_a_link_travel_and_bad_ones_are_refused():
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    p.tap("initiative")
    p.tap("export")
    text = next(m for m in p.sent if m.get("type") == "download")["text"]
    q = Page()
    q.tap("import", text=text)
    assert q.t.board["rows"] == p.t.board["rows"]
    assert q.tap("import", text="not json")["message"].startswith("This is not a saved encounter")
    assert q.tap("import", text='{"format": 1}')["message"] == (
        "The encounter's name: 1 to 80 characters."
    )
    p.tap("share")
    value = next(m for m in p.sent if m.get("type") == "link")["value"]
    r = Page()
    r.tap("shared", text=value)
    assert r.t.board["rows"] == p.t.board["rows"]
    assert "not" in r.tap("shared", text="%%%")["message"].lower()


def test_a_write_refused_by_another_tab_says_so_and_reads_again():
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    write = [m for m in p.sent if m.get("type") == "write"][-1]
    p.tap("written", req=write["req"], conflicts=[{"id": write["ops"][0]["id"], "rev": 9}])
    assert "another tab saved it meanwhile" in p.t.board["message"]
    assert p.sent[-1] == {"type": "load"}


def test_the_players_view_hides_a_hidden_combatant_even_in_the_heading():
    p = Page()
    p.tap("add_foe", name="Masked", dexterity="5", wits="5", stamina="3")
    p.tap("add_foe", name="Aiko", dexterity="1", wits="1", stamina="3")
    key = next(r["key"] for r in p.t.board["rows"] if r["name"] == "Masked")
    p.tap("hide", key=key)
    p.tap("initiative")
    players = p.t.board["players"]
    assert "Masked" not in json.dumps(players)
    assert sorted(r["name"] for r in players["rows"]) == ["Aiko", "Unknown foe"]
    if p.t.board["acting"]["key"] != key:  # (his turn, whatever the dice)
        p.tap("next")
    assert p.t.board["acting"]["key"] == key
    assert p.t.board["players"]["when"] == "Turn 1: Unknown foe's action"


def test_the_attack_opens_the_autofire_calculator_filled_as_the_fight_left_it():
    from ruleslab.calculators.autofire import autofire_and_strafing
    from ruleslab.encounter import aberrant as ab
    from ruleslab.encounter.attack_inputs import attack_inputs
    from ruleslab.encounter.combatant import Damage
    from ruleslab_widgets import calculator
    from ruleslab_widgets.tracker_page import attack_query

    enc = ab.new_encounter(
        "2.1",
        [ab.quick_foe("a", "Ana", dexterity=4, wits=3), ab.quick_foe("b", "Bo", stamina=2)],
    )
    enc = ab.set_initiative(enc, {"a": 12, "b": 5}).encounter
    enc = ab.resolve_attack(enc, "a", "b", hit=True, damage=Damage(lethal=4)).encounter
    enc = ab.next_turn(enc).encounter  # Bo, Dazed and his Defense worn, attacks Ana
    query = attack_query(enc, "b", "a")
    assert "daze=dazed" in query
    view = calculator("autofire")
    view.apply_query(query)
    assert view.last_error == ""
    expected = autofire_and_strafing(**attack_inputs(enc, "b", "a"))
    assert view.result is not None
    assert view.result.figures() == expected.figures()


def test_the_board_offers_the_odds_of_each_attack_the_acting_one_may_make():
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    p.tap("add_foe", name="Bo", dexterity="2", wits="2", stamina="2")
    b = p.tap("initiative")
    other = next(r["key"] for r in b["rows"] if not r["acting"])
    assert list(b["odds"]) == [other]
    assert b["odds"][other].startswith("calculator=autofire&")


def test_initiative_typed_from_the_table_and_one_per_group_of_identical_foes():
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    bad = p.tap("add_foe", name="Thug", dexterity="2", wits="3", stamina="2", group="x" * 41)
    assert bad["message"] == "Group: empty (his own initiative) or up to 40 characters."
    p.tap("add_foe", name="Thug A", dexterity="2", wits="3", stamina="2", group="thugs")
    b = p.tap("add_foe", name="Thug B", dexterity="2", wits="3", stamina="2", group="thugs")
    # one field for Ana, one for the group (they share one roll)
    fields = b["initiative_fields"]
    assert [f["label"] for f in fields] == ["Ana", "group thugs (Thug A, Thug B)"]
    ana, thugs = (f["id"] for f in fields)
    b = p.tap("enter_initiative", totals={ana: "9", thugs: "x"})
    assert b["message"] == (
        "Initiative: group thugs (Thug A, Thug B): a whole number from 0 to 200."
    )
    assert b["when"] == "Before initiative"
    b = p.tap("enter_initiative", totals={ana: "9", thugs: "14"})
    # typed totals, highest first: both thugs at 14, then Ana at 9
    assert [(r["name"], r["initiative"]) for r in b["rows"]] == [
        ("Thug A", 14),
        ("Thug B", 14),
        ("Ana", 9),
    ]
    assert b["when"] == "Turn 1: Thug A's action"
    assert "Initiative entered from the table's rolls" in b["message"]
    # rolled by the site: the group's one d10 gives both the same total, Dex 2 + Wits 3 + d10
    p.tap("undo")
    b = p.tap("initiative")
    totals = {r["name"]: r["initiative"] for r in b["rows"]}
    assert totals["Thug A"] == totals["Thug B"]
    assert 2 + 3 + 1 <= totals["Thug A"] <= 2 + 3 + 10
    assert 4 + 3 + 1 <= totals["Ana"] <= 4 + 3 + 10


def _fight(p: Page, ruleset: str = "2.1") -> tuple[str, str]:
    """Ana (Dex 4, Wits 3) at 12 then Bo (Dex 4, Wits 5, Sta 2) at 5: their keys."""
    if ruleset != "2.1":
        p.tap("new", ruleset=ruleset)
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    b = p.tap("add_foe", name="Bo", dexterity="4", wits="5", stamina="2")
    ana, bo = (r["key"] for r in b["rows"])
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    p.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Bo"]: "5"})
    return ana, bo


def test_declared_actions_add_the_cumulative_difficulty_and_wear_the_defense():
    p = Page()
    ana, bo = _fight(p)
    assert p.tap("declare", actions="0")["message"] == "Actions: a whole number from 1 to 10."
    b = p.tap("declare", actions="3", active_defence=False, sprinting=False)
    assert b["acting"]["actions"] == 3
    # 2.1 Multiple Actions: "Every additional action past the first adds a cumulative +1
    # difficulty": the 1st +0, the 2nd +1, the 3rd +2. Bo's Defense: lower of Dex 4 and
    # Wits 5, halved: 2, "reduced by 1 for every successful or unsuccessful attack".
    assert b["setups"][bo]["text"] == "This attack: action 1 of 3, +0 difficulty, Bo's Defense +2"
    b = p.tap("attack", target=bo, hit=False, bashing="0", lethal="0", aggravated="0")
    assert b["setups"][bo]["text"] == "This attack: action 2 of 3, +1 difficulty, Bo's Defense +1"
    b = p.tap("attack", target=bo, hit=False, bashing="0", lethal="0", aggravated="0")
    assert b["setups"][bo]["text"] == "This attack: action 3 of 3, +2 difficulty, Bo's Defense +0"
    b = p.tap("attack", target=bo, hit=False, bashing="0", lethal="0", aggravated="0")
    assert b["setups"][bo]["ok"] is False
    assert "no action left this turn" in b["setups"][bo]["text"]
    assert "3 of 3 actions taken" in next(r for r in b["rows"] if r["key"] == ana)["chips"]


def test_a_stunned_combatant_may_declare_a_single_action_and_2_0_adds_no_difficulty():
    p = Page()
    ana, bo = _fight(p)
    # 3 x Stamina 2 = 6 levels in one turn: Stunned
    p.tap("attack", target=bo, hit=True, bashing="6", lethal="0", aggravated="0")
    b = p.tap("next")
    assert b["acting"]["key"] == bo
    assert b["acting"]["stunned"]
    # Stunned: "+1 difficulty to all actions"; Ana's Defense: lower of Dex 4, Wits 3, halved: 1
    assert b["setups"][ana]["text"].startswith(
        "This attack: action 1 of 1, +1 difficulty, Ana's Defense +1"
    )
    b = p.tap("declare", actions="2")
    assert b["message"] == "Bo is Stunned: he 'may not take more than a single action' this turn."
    assert b["acting"]["actions"] == 1
    # 2.0: no multiple-action difficulty in its text
    q = Page()
    _, bo = _fight(q, "2.0")
    b = q.tap("declare", actions="2")
    assert "the 2.0 text gives no multiple-action penalty" in b["message"]
    q.tap("attack", target=bo, hit=False, bashing="0", lethal="0", aggravated="0")
    assert q.t.board["setups"][bo]["text"] == "This attack: action 2 of 2, +0 difficulty"


def test_a_henchmen_squad_is_a_quick_entry_and_its_henchmen_take_the_damage_first():
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    squad = {"name": "Guards", "henchmen": "5", "training": "regular", "pool": "4"}
    leader = {"dexterity": "3", "wits": "2", "stamina": "2"}
    assert p.tap("add_squad", **{**squad, "training": "elite"}, **leader)["message"] == (
        "Training: one of regular, trained, fanatical."
    )
    assert p.tap("add_squad", **{**squad, "henchmen": "0"}, **leader)["message"] == (
        "Henchmen: a whole number from 1 to 1000."
    )
    assert p.tap("add_squad", **{**squad, "name": ""}, **leader)["message"] == (
        "Squad's name: 1 to 60 characters."
    )
    assert p.tap("add_squad", **squad, **{**leader, "wits": "11"})["message"] == (
        "Leader's Wits: a whole number from 1 to 10."
    )
    b = p.tap("add_squad", **squad, **leader)
    assert b["message"] == "Guards joins the fight."
    assert b["trainings"] == ["regular", "trained", "fanatical"]
    guards = next(r for r in b["rows"] if r["name"] == "Guards")
    assert "5 henchmen screening him" in guards["chips"]
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    p.tap("enter_initiative", totals={ids["Ana"]: "10", ids["Guards"]: "4"})
    # Damage Soak: "Each point of damage dealt removes from play one of these henchmen"
    # (regular: losses not divided): 2 levels, 2 henchmen gone, the leader untouched
    b = p.tap("attack", target=guards["key"], hit=True, lethal="2", bashing="0", aggravated="0")
    guards = next(r for r in b["rows"] if r["name"] == "Guards")
    assert "3 henchmen screening him" in guards["chips"]
    assert guards["health"] == "Unhurt"


def _stored(p: Page) -> dict[str, Any]:
    """The last record the page wrote, as the store gives it back on a reload."""
    op = [m for m in p.sent if m.get("type") == "write"][-1]["ops"][0]
    return {"id": op["id"], "rev": 5, "created": 1.0, "text": op["text"]}


def test_undo_and_redo_survive_a_reload():
    p = Page()
    _, bo = _fight(p)
    p.tap("declare", actions="2")
    before = p.t.board["rows"]
    p.tap("attack", target=bo, hit=True, bashing="0", lethal="3", aggravated="0")
    after = p.t.board["rows"]
    p.tap("attack", target=bo, hit=True, bashing="0", lethal="1", aggravated="0")
    p.tap("undo")  # one step undone: redo it after the reload
    q = Page([_stored(p)])
    assert q.t.board["rows"] == after
    assert q.t.board["can_undo"]
    assert q.t.board["can_redo"]
    assert q.tap("undo")["rows"] == before
    q.tap("redo")
    b = q.tap("redo")
    assert b["rows"] == p.tap("redo")["rows"]
    # a broken undo step: the record is set aside with a message, never dropped
    record = _stored(p)
    data = json.loads(record["text"])
    data["steps"]["past"][0] = {"format": 99}
    r = Page([{**record, "text": json.dumps(data)}])
    assert [m["ids"] for m in r.sent if m.get("type") == "set_aside"] == [[record["id"]]]
    assert "could not be read and were set aside, not deleted" in r.t.board["message"]


def test_an_encounter_renamed_deleted_and_restored_never_lost_silently():
    p = Page()
    _fight(p)
    rows = p.t.board["rows"]
    assert p.tap("rename", name="  ")["message"] == "Encounter's name: 1 to 80 characters."
    assert p.tap("rename", name="x" * 81)["message"] == "Encounter's name: 1 to 80 characters."
    b = p.tap("rename", name="The docks")
    assert b["name"] == "The docks"
    assert [e["name"] for e in b["encounters"]] == ["The docks"]
    assert json.loads(_stored(p)["text"])["name"] == "The docks"
    ident = b["current"]
    b = p.tap("delete")
    assert b["message"] == "“The docks” deleted: “Restore” brings it back."
    assert b["deleted"] == "The docks"
    assert "The docks" not in [e["name"] for e in b["encounters"]]
    deletes = [
        op for m in p.sent if m.get("type") == "write" for op in m["ops"] if op["text"] is None
    ]
    assert [op["id"] for op in deletes] == [ident]
    b = p.tap("restore")
    assert b["message"] == "“The docks” restored."
    assert b["deleted"] == ""
    assert b["name"] == "The docks"
    assert b["rows"] == rows
    assert json.loads(_stored(p)["text"])["name"] == "The docks"
    assert p.tap("restore")["message"] == "No deleted encounter to restore."


def test_a_tracker_in_another_page_keeps_nothing_and_says_so():
    """Issue 38, 8: a tracker framed in another page (a hand-made iframe, or one of
    another origin even opted in) reads and writes none of the GM's encounters and
    party: the page sends ``mode: "embedded"``; a fight played there stays in the page."""
    p = Page()
    p.sent.clear()
    b = p.tap("loaded", mode="embedded")
    assert b["message"].startswith("This tracker is shown inside another page")
    assert b["storage"] == "unavailable"
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    assert [m for m in p.sent if m.get("type") == "write"] == []
    assert p.t.board["rows"][0]["name"] == "Ana"


def test_a_long_fight_keeps_fifty_undo_steps_after_a_reload_each_the_same():
    """A fight of many turns once kept a dozen undo steps (each stored with the log so
    far), and before that wrote a record over the store's MAX_RECORD_TEXT. Each step
    is now stored as its difference from its neighbour: 50 undo steps survive a reload,
    and undoing each one after it gives the board undoing it before gave."""
    from ruleslab_widgets.records import MAX_RECORD_TEXT
    from ruleslab_widgets.tracker_record import KEPT

    p = Page()
    _, bo = _fight(p)
    for _ in range(30):  # 30 turns of a miss and two passes: 90 steps
        p.tap("attack", target=bo, hit=False)
        p.tap("next")
        p.tap("next")
    for _ in range(10):
        p.tap("undo")  # (10 to redo after the reload)
    record = _stored(p)
    assert len(record["text"]) <= MAX_RECORD_TEXT
    q = Page([record])
    assert q.t.board["rows"] == p.t.board["rows"]
    assert q.t.board["log"] == p.t.board["log"]
    h = q.t.fights[record["id"]].history
    assert h is not None
    assert (len(h.past), len(h.future)) == (KEPT, 10)
    for _ in range(KEPT):
        assert q.tap("undo")["rows"] == p.tap("undo")["rows"]
        assert q.t.board["log"] == p.t.board["log"]
    assert not q.t.board["can_undo"]
    for _ in range(KEPT + 10):
        assert q.tap("redo")["rows"] == p.tap("redo")["rows"]
    assert not q.t.board["can_redo"]


def test_a_present_too_long_alone_leaves_out_its_oldest_log_lines():
    from ruleslab.encounter.history import History
    from ruleslab_widgets.tracker_record import Fight, parse_fight

    p = Page()
    _fight(p)
    for _ in range(10):
        p.tap("next")
    fight = p.t.fights[p.t.current]
    assert fight.history is not None
    alone = Fight(fight.name, fight.ruleset, History((), fight.history.present, ()))
    text = alone.text(2000)
    assert len(text) <= 2000
    back = parse_fight(text).history
    assert back is not None
    assert 0 < len(back.present.log) < len(fight.history.present.log)
    assert back.present.log == fight.history.present.log[-len(back.present.log) :]
    assert back.present.combatants == fight.history.present.combatants


def test_a_record_of_the_older_format_is_read_and_written_anew():
    """Until December 2026 each undo step was stored whole (``past``, ``future``): such
    a record, as that version wrote it, is read with its undo steps, and the next step
    writes them compact (``steps``), which reads back the same."""
    from ruleslab.encounter.serial import to_dict

    p = Page()
    _, bo = _fight(p)
    p.tap("attack", target=bo, hit=True, bashing="0", lethal="2", aggravated="0")
    p.tap("next")
    p.tap("undo")
    h = p.t.fights[p.t.current].history
    assert h is not None
    old = {
        "format": 1,
        "name": "The docks",
        "ruleset": "2.1",
        "encounter": to_dict(h.present),
        "past": [to_dict(e) for e in h.past],
        "future": [to_dict(e) for e in h.future],
    }
    q = Page([{"id": "e1", "rev": 1, "created": 1.0, "text": json.dumps(old)}])
    assert q.t.board["rows"] == p.t.board["rows"]
    assert q.t.fights["e1"].history == h
    q.tap("redo")
    written = json.loads(_stored(q)["text"])
    assert (written["format"], sorted(written["steps"])) == (2, ["future", "past"])
    assert "past" not in written
    assert Page([_stored(q)]).t.fights["e1"].history == q.t.fights["e1"].history


def test_a_truncated_hostile_or_oversized_record_is_set_aside_with_a_message():
    p = Page()
    _, bo = _fight(p)
    p.tap("attack", target=bo, hit=True, bashing="0", lethal="2", aggravated="0")
    p.tap("next")
    p.tap("undo")
    good = _stored(p)["text"]
    data = json.loads(good)
    steps = data["steps"]
    shrunk = {"past": [{"combatants": data["encounter"]["combatants"][:1]}], "future": []}
    bad = {
        "truncated": good[: len(good) // 2],
        "nested": '{"format": 1, "steps": ' + "[" * 5000 + "]" * 5000 + "}",
        "oversized": json.dumps({**data, "name": "x" * 2_000_001}),
        "step": json.dumps(
            {**data, "steps": {**steps, "past": [*steps["past"][:-1], {"set": {"turn": -3}}]}}
        ),
        "redo": json.dumps({**data, "steps": {**steps, "future": [{"log": [0, "not lines"]}]}}),
        "format": json.dumps({**data, "format": 3}),
        "shrunk": json.dumps({**data, "steps": shrunk}),
        "twice": json.dumps({**data, "past": []}),
        "parts": json.dumps({**data, "steps": {"past": []}}),
    }
    records = [{"id": k, "rev": 1, "created": 1.0, "text": v} for k, v in bad.items()]
    q = Page([*records, {"id": "ok", "rev": 1, "created": 2.0, "text": good}])
    aside = [m for m in q.sent if m.get("type") == "set_aside"]
    assert [sorted(m["ids"]) for m in aside] == [sorted(bad)]
    message = q.t.board["message"]
    assert "9 saved encounter(s) could not be read and were set aside, not deleted" in message
    assert "redo: future[0].log: must be a list of at most 20000" in message
    assert [e["id"] for e in q.t.board["encounters"]] == ["ok"]
    assert q.t.board["rows"] == p.t.board["rows"]


def test_healing_from_the_page_takes_levels_off_and_checks_its_fields():
    p = Page()
    _, bo = _fight(p)
    p.tap("attack", target=bo, hit=True, bashing="2", lethal="1", aggravated="0", stun="1")
    before = next(r for r in p.t.board["rows"] if r["key"] == bo)
    assert p.tap("heal", key=bo, bashing="x")["message"] == (
        "Bashing healed: a whole number from 0 to 200."
    )
    assert p.tap("heal", key=bo, bashing="0", lethal="0", aggravated="0", stun="0")["message"] == (
        "Heal: enter the levels healed (1 or more)."
    )
    assert p.tap("heal", key="nobody", bashing="1", lethal="0", aggravated="0", stun="0")[
        "message"
    ] == ("No combatant 'nobody' in this encounter.")
    b = p.tap("heal", key=bo, bashing="2", lethal="0", aggravated="0", stun="1")
    row = next(r for r in b["rows"] if r["key"] == bo)
    # Bo: 1 lethal left of 2 bashing, 1 lethal, 1 stun; the first box lethal, no stun chip
    assert [x["filled"] for x in row["track"]][:2] == ["lethal", None]
    assert not any("stun" in c for c in row["chips"])
    b = p.tap("undo")
    assert next(r for r in b["rows"] if r["key"] == bo) == before


def test_roll_it_rolls_the_acting_ones_attack_seeded_and_logs_the_seed():
    p = Page()
    _, bo = _fight(p)
    levels = {"bashing": "0", "lethal": "2", "aggravated": "0", "stun": "0"}
    b = p.tap("roll_attack", target=bo, pool="61", difficulty="1", **levels)
    assert b["message"] == "Attack pool: a whole number from 0 to 60."
    b = p.tap("roll_attack", target=bo, pool="6", difficulty="0", **levels)
    assert b["message"] == "Base difficulty: a whole number from 1 to 20."
    b = p.tap("roll_attack", target=bo, pool="6", difficulty="1", **levels)
    # Bo (Dex 4, Wits 5): Defense min(4, 5) // 2 = 2 on top of the base 1
    assert "Ana rolls the attack on Bo (seed " in b["message"]
    assert "= 6 dice against difficulty base 1 +2 (Bo's Defense) = 3: " in b["message"]
    assert any("(seed " in line for line in b["log"])
    row = next(r for r in b["rows"] if r["key"] == bo)
    hit = "a hit" in b["message"]
    assert "Defense +1 (back at the turn's end)" in row["chips"]  # worn, hit or miss
    assert [x["filled"] for x in row["track"]][:2] == (["lethal"] * 2 if hit else [None] * 2)
    assert p.tap("undo")["can_redo"]


def test_a_reading_chosen_on_the_page_is_a_step_undone_by_undo():
    """RN-TRACK-2: Dazed "through the next turn" by default; "this_turn" chosen mid-fight."""
    p = Page()
    _fight(p)
    readings = {r["name"]: r for r in p.t.board["readings"]}
    assert (readings["daze_lasts"]["value"], readings["initiative"]["value"]) == (
        "next_turn",
        "scene",
    )
    assert readings["daze_lasts"]["label"] == "Dazed or Stunned lasts"
    b = p.tap("reading", name="daze_lasts", value="this_turn")
    assert b["message"].startswith("Reading changed: Dazed or Stunned lasts: “Until the end")
    assert {r["name"]: r["value"] for r in b["readings"]}["daze_lasts"] == "this_turn"
    assert p.tap("reading", name="daze_lasts", value="<b>")["message"].startswith(
        "Dazed or Stunned lasts: one of "
    )
    b = p.tap("undo")
    assert {r["name"]: r["value"] for r in b["readings"]}["daze_lasts"] == "next_turn"
    assert p.tap("end_scene")["readings"] == []  # (the scene over: nothing to choose)


def test_the_damage_readings_chosen_on_the_page_reach_the_odds_of_roll_damage():
    """RN-RANGED-1 read as dice: a short burst's "+[1] Damage" is one more damage die; the
    form's 4 dice [0] against Bo's lethal soak 1 (Stamina 2 // 2): 5 dice [0]. RN-RANGED-3
    read as adds: 2 extra successes are 2 adds, not 2 dice."""
    p = Page()
    _, bo = _fight(p)
    p.tap("reading", name="burst_damage", value="dice")
    b = p.tap("damage_form", burst="short")
    assert b["damage"]["odds"][bo]["text"].startswith("5 dice [0] against soak 1")
    p.tap("reading", name="extra_successes", value="add")
    b = p.tap("damage_form", burst="", extra="2")
    assert b["damage"]["odds"][bo]["text"].startswith("4 dice [2] against soak 1")
    assert "extra_successes=add" in b["odds"][bo]
