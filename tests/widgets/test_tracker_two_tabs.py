"""Two tabs on one encounter (issue 34, 5: "two tabs editing one encounter never lose a
step"), driven through the tracker page's Python side over one record store that
refuses a stale write as the browser's does (compare-and-swap on the revision).

Each tab keeps its changes as actions until the store takes them; a refused write
reads the store again and applies them on top of the other tab's; what no longer
applies is kept as a copy, said. The browser test: tests/browser/test_tracker_tabs.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab_widgets.tracker_page import TrackerPage
from tests.engine.encounter_fights import stored_lines


def _log(record: dict[str, Any]) -> list[str]:
    """The stored log's lines (format 2: each by its place in the record's table)."""
    return [text for text, _rule in stored_lines(record)]


class Store:
    """The record store: ``{id: (rev, created, text or None)}``, written all or nothing."""

    def __init__(self) -> None:
        self.records: dict[str, tuple[int, float, str | None]] = {}
        self.tabs: list[Tab] = []

    def reading(self) -> list[dict[str, Any]]:
        return [
            {"id": i, "rev": r, "created": c, "text": t, "deleted": t is None}
            for i, (r, c, t) in self.records.items()
        ]

    def write(self, ops: list[dict[str, Any]]) -> dict[str, Any]:
        stale = [op for op in ops if self.records.get(op["id"], (0,))[0] != op["base"]]
        if stale:
            return {"conflicts": [{"id": op["id"], "rev": 1} for op in stale]}
        for op in ops:
            self.records[op["id"]] = (op["base"] + 1, op["created"], op["text"])
        return {"ok": True}


class Tab:
    """A tracker page whose messages to the store wait until :meth:`pump`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sent: list[dict[str, Any]] = []
        self.t = TrackerPage()
        self.t.send = self.sent.append  # type: ignore[method-assign]
        self.t._store._post = self.sent.append
        store.tabs.append(self)
        self.tap("loaded", mode="ready", records=store.reading(), party=[])

    def tap(self, kind: str, **more: Any) -> dict[str, Any]:
        self.t._receive(self.t, {"type": kind, **more}, [])
        return self.t.board

    def pump(self, *, tell_others: bool = True) -> None:
        """Answer what this tab asked of the store, in order, until it asks nothing; a
        write that went through is told to the other tabs (BroadcastChannel: they read)."""
        while self.sent:
            m = self.sent.pop(0)
            if m.get("type") == "write":
                answer = self.store.write(m["ops"])
                self.tap("written", req=m["req"], **answer)
                if answer.get("ok") and tell_others:
                    for other in self.store.tabs:
                        if other is not self:
                            other.sent.append({"type": "load"})
            elif m.get("type") == "load":
                self.tap("loaded", mode="ready", records=self.store.reading(), party=[])

    @property
    def log(self) -> list[str]:
        h = self.t.fights[self.t.current].history
        assert h is not None
        return [s.text for s in h.present.log]


def _two() -> tuple[Store, Tab, Tab, str]:
    """Two tabs on one 2.1 encounter: Ana (Dex 4, Wits 3) at 12, Bo (Dex 4, Wits 5) at 5."""
    store = Store()
    a = Tab(store)
    a.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    b = a.tap("add_foe", name="Bo", dexterity="4", wits="5", stamina="2")
    bo = b["rows"][1]["key"]
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    a.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Bo"]: "5"})
    a.pump()
    other = Tab(store)
    assert other.t.current == a.t.current
    return store, a, other, bo


def _hit(tab: Tab, target: str, lethal: int) -> None:
    tab.tap("attack", target=target, hit=True, bashing="0", lethal=str(lethal), aggravated="0")


def test_steps_taken_in_turn_in_two_tabs_are_each_kept_and_each_board_follows():
    _, a, b, bo = _two()
    a.tap("declare", actions="2")
    a.pump()
    b.pump()  # (told by a's write: reads it)
    assert b.t.board["rows"] == a.t.board["rows"]
    _hit(b, bo, 1)
    b.pump()
    a.pump()
    _hit(a, bo, 2)
    a.pump()
    b.pump()
    assert a.t.board["rows"] == b.t.board["rows"]
    assert a.log == b.log
    for line in ("Ana declares 2 actions", "Bo takes 1 lethal", "Bo takes 2 lethal"):
        assert any(t.startswith(line) for t in a.log), line
    # undo in either tab walks back through both tabs' steps
    b.tap("undo")
    assert not any(t.startswith("Bo takes 2 lethal") for t in b.log)
    assert any(t.startswith("Bo takes 1 lethal") for t in b.log)
    b.pump()
    a.pump()  # (a reads b's undo, with b's undo and redo steps: its own undo goes on back)
    assert a.log == b.log
    a.tap("undo")
    assert not any(t.startswith("Bo takes 1 lethal") for t in a.log)
    assert a.t.board["can_redo"]


def test_steps_taken_at_once_in_two_tabs_are_applied_one_after_the_other():
    store, a, b, _ = _two()
    a.tap("declare", actions="2")  # (both tabs act before either write is answered)
    b.tap("declare", actions="3")
    a.pump()
    b.pump()  # b's write is refused as stale: it reads a's and declares again after it
    assert (
        "was changed in another tab too: your change was applied after that tab's"
        in (b.t.board["message"])
    )
    a.pump()
    assert a.log == b.log
    declared = [t for t in a.log if t.startswith("Ana declares")]
    assert [t.split(" (")[0].split(":")[0] for t in declared] == [
        "Ana declares 2 actions",
        "Ana declares 3 actions",
    ]
    text = store.records[a.t.current][2]
    assert text is not None
    assert _log(json.loads(text))[-1] == b.log[-1]
    # both steps are undone one by one, in either tab
    before_both = b.t.fights[b.t.current].history.past[-2]  # type: ignore[union-attr]
    b.tap("undo")
    b.tap("undo")
    assert b.t.fights[b.t.current].history.present == before_both  # type: ignore[union-attr]


def test_many_steps_at_once_in_two_tabs_every_one_in_the_final_log():
    """Ten "Next turn"s, two at once each time, stored in either order: with two in the
    order each pair ends a turn, so the fight is at turn 6 and five turns ended."""
    store, a, b, _ = _two()
    for n in range(5):
        a.tap("next")
        b.tap("next")
        first, second = (a, b) if n % 2 else (b, a)
        first.pump()
        second.pump()
        first.pump()
    assert a.log == b.log
    assert [t for t in a.log if t.endswith(" ends")] == [f"Turn {n} ends" for n in range(1, 6)]
    enc = a.t.fights[a.t.current].history.present  # type: ignore[union-attr]
    assert (enc.turn, enc.place) == (6, 0)
    text = store.records[a.t.current][2]
    assert text is not None
    assert json.loads(text)["encounter"]["turn"] == 6
    # undo after the merges: each of the ten steps, one by one
    turns = []
    for _ in range(10):
        b.tap("undo")
        h = b.t.fights[b.t.current].history
        assert h is not None
        turns.append((h.present.turn, h.present.place))
    assert turns == [(5, 1), (5, 0), (4, 1), (4, 0), (3, 1), (3, 0), (2, 1), (2, 0), (1, 1), (1, 0)]


def test_a_step_the_other_tab_made_impossible_is_kept_as_a_copy_and_said():
    store, a, b, _ = _two()
    a.tap("end_scene")
    b.tap("declare", actions="2")
    a.pump()
    b.pump()
    message = b.t.board["message"]
    assert "was changed in another tab, and your change no longer applies" in message
    assert "The scene is over" in message
    names = sorted(f["name"] for f in b.t.board["encounters"])
    assert names == ["Encounter 1 (Aberrant 2.1)", "Encounter 1 (Aberrant 2.1) (from another tab)"]
    stored = {json.loads(t)["name"]: json.loads(t) for _, _, t in store.records.values() if t}
    assert sorted(stored) == names
    copy = stored["Encounter 1 (Aberrant 2.1) (from another tab)"]
    assert _log(copy)[-1].startswith("Ana declares 2 actions")
    assert stored["Encounter 1 (Aberrant 2.1)"]["encounter"]["scene_over"] is True


def test_two_newcomers_at_once_both_join_under_their_own_keys():
    _, a, b, _ = _two()
    a.tap("end_scene")  # (a newcomer joins before initiative: a fresh encounter)
    a.pump()
    b.pump()
    a.tap("new", ruleset="2.0")
    a.pump()
    b.pump()
    b.tap("open", id=a.t.current)
    a.tap("add_foe", name="Cy", dexterity="2", wits="2", stamina="2")
    b.tap("add_foe", name="Di", dexterity="2", wits="2", stamina="2")
    a.pump()
    b.pump()
    a.pump()
    rows = a.t.board["rows"]
    assert sorted(r["name"] for r in rows) == ["Cy", "Di"]
    assert len({r["key"] for r in rows}) == 2
    assert a.t.board["rows"] == b.t.board["rows"]


def test_an_encounter_deleted_in_another_tab_while_changed_here_is_kept_as_a_copy():
    store, a, b, _ = _two()
    a.tap("delete")
    b.tap("declare", actions="2")
    a.pump()
    b.pump()
    assert "was deleted in another tab: yours is kept as" in b.t.board["message"]
    live = [json.loads(t)["name"] for _, _, t in store.records.values() if t]
    assert "Encounter 1 (Aberrant 2.1) (from another tab)" in live


def test_an_undo_at_once_with_another_tabs_step_on_the_same_combatant_is_kept_as_a_copy():
    """b takes back the initiative (every combatant's) while a declares Ana's actions:
    both changed Ana, so which should win is not clear: both versions are kept."""
    store, a, b, _ = _two()
    a.tap("declare", actions="2")
    b.tap("undo")
    a.pump()
    b.pump()
    message = b.t.board["message"]
    assert "your undo cannot be joined to it (both changed Ana)" in message
    assert any(t.startswith("Ana declares 2") for t in a.log)
    live = sorted(json.loads(t)["name"] for _, _, t in store.records.values() if t)
    assert live == ["Encounter 1 (Aberrant 2.1)", "Encounter 1 (Aberrant 2.1) (from another tab)"]


def _three() -> tuple[Store, Tab, Tab, dict[str, str]]:
    """Two tabs on one 2.1 encounter of three, Ana acting (two actions declared) and
    having hit Cy for 2 lethal, then Bo for 1 lethal: both tabs have read it all."""
    store = Store()
    a = Tab(store)
    for name, wits in (("Ana", "3"), ("Bo", "5"), ("Cy", "2")):
        a.tap("add_foe", name=name, dexterity="4", wits=wits, stamina="3")
    board = a.t.board
    keys = {r["name"]: r["key"] for r in board["rows"]}
    ids = {f["label"]: f["id"] for f in board["initiative_fields"]}
    a.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Bo"]: "5", ids["Cy"]: "8"})
    a.tap("declare", actions="2")
    _hit(a, keys["Cy"], 2)
    _hit(a, keys["Bo"], 1)
    a.pump()
    b = Tab(store)
    assert b.t.board["rows"] == a.t.board["rows"]
    return store, a, b, keys


def _damage(tab: Tab, name: str) -> dict[str, int]:
    h = tab.t.fights[tab.t.current].history
    assert h is not None
    c = next(c for c in h.present.combatants if c.name == name)
    return {k: v for k, v in vars(c.damage).items() if v}


def test_an_undo_at_once_with_another_tabs_step_on_another_combatant_keeps_both():
    """a takes back Ana's hit on Bo while b heals Cy 1 lethal: each touched a combatant
    the other did not, so both are kept in the one encounter, and said; Undo in a then
    takes back a's undo (Bo's level comes back), Cy's healing staying."""
    store, a, b, _ = _three()
    assert (_damage(a, "Bo"), _damage(a, "Cy")) == ({"lethal": 1}, {"lethal": 2})
    a.tap("undo")
    b.tap("heal", key=_key(b, "Cy"), bashing="0", lethal="1", aggravated="0", stun="0")
    b.pump()
    a.pump()  # (a's write is refused as stale: it reads b's and joins its undo to it)
    message = a.t.board["message"]
    assert "your undo and that tab's changes touched different combatants" in message
    assert "Undo takes back your undo." in message
    b.pump()
    for tab in (a, b):
        assert (_damage(tab, "Bo"), _damage(tab, "Cy")) == ({}, {"lethal": 1}), tab
        assert not any(t.startswith("Bo takes 1 lethal") for t in tab.log)
        assert any(t.startswith("Cy takes 2 lethal") for t in tab.log)
    assert a.log == b.log
    assert a.t.board["rows"] == b.t.board["rows"]
    assert len([t for t in store.records.values() if t[2]]) == 1  # (no copy)
    assert _log(json.loads(store.records[a.t.current][2] or "{}")) == a.log
    assert "heal" in a.log[-1].lower()
    assert "Cy" in a.log[-1]
    a.tap("undo")  # (takes back the undo: Bo's level again, Cy still healed)
    assert (_damage(a, "Bo"), _damage(a, "Cy")) == ({"lethal": 1}, {"lethal": 1})


def test_a_redo_at_once_with_another_tabs_step_on_another_combatant_keeps_both():
    """a took back Ana's hit on Bo (saved, read by b); then a redoes it while b heals
    Cy: Bo hurt again (1 lethal), Cy at 1 lethal, said as a redo."""
    store, a, b, _ = _three()
    a.tap("undo")
    a.pump()
    b.pump()
    assert _damage(b, "Bo") == {}
    a.tap("redo")
    b.tap("heal", key=_key(b, "Cy"), bashing="0", lethal="1", aggravated="0", stun="0")
    b.pump()
    a.pump()
    assert "your redo and that tab's changes touched different combatants" in (a.t.board["message"])
    b.pump()
    for tab in (a, b):
        assert (_damage(tab, "Bo"), _damage(tab, "Cy")) == ({"lethal": 1}, {"lethal": 1})
    assert a.log == b.log
    assert len([t for t in store.records.values() if t[2]]) == 1


def test_an_undo_at_once_with_another_tabs_step_on_the_combatant_it_changed_is_a_copy():
    """a takes back Ana's hit on Bo while b heals Bo: both changed Bo, so the encounter
    keeps b's and a's version is kept as a copy, said."""
    store, a, b, _ = _three()
    a.tap("undo")
    b.tap("heal", key=_key(b, "Bo"), bashing="0", lethal="1", aggravated="0", stun="0")
    b.pump()
    a.pump()
    assert "your undo cannot be joined to it (both changed Bo)" in a.t.board["message"]
    live = sorted(json.loads(t)["name"] for _, _, t in store.records.values() if t)
    assert live == ["Encounter 1 (Aberrant 2.1)", "Encounter 1 (Aberrant 2.1) (from another tab)"]
    a.pump()
    b.pump()
    by_name = {f["name"]: f["id"] for f in b.t.board["encounters"]}
    b.tap("open", id=by_name["Encounter 1 (Aberrant 2.1) (from another tab)"])
    assert _damage(b, "Bo") == {}  # (a's undo, kept in the copy)


def _key(tab: Tab, name: str) -> str:
    return next(r["key"] for r in tab.t.board["rows"] if r["name"] == name)


def test_a_reading_begun_before_this_tabs_write_is_read_again_not_taken():
    """The page's reads and writes are queued: a reading begun before a write can reach
    Python after the write's answer. Taken, it would put the encounter back as it was
    before this tab's step (the step stays stored, but the board would not show it)."""
    _, a, _b, _ = _two()
    before = a.store.reading()
    a.tap("declare", actions="2")
    a.pump()
    a.tap("loaded", mode="ready", records=before, party=[])  # (the stale reading)
    assert any(t.startswith("Ana declares 2") for t in a.log)
    assert a.sent == [{"type": "load"}]
    a.pump()
    assert any(t.startswith("Ana declares 2") for t in a.log)
    assert a.sent == []


def test_a_write_the_browser_refuses_keeps_the_step_and_the_next_write_holds_it():
    """A write that fails (not stale: the browser's storage refused it, a full disk) is
    not read again and applied anew, which would write again as long as the error
    lasts: the step stays in this page, said, and the next step's write holds both."""
    store, a, _b, _ = _two()
    a.tap("declare", actions="2")
    write = a.sent.pop(0)
    a.tap("written", req=write["req"], error="QuotaExceededError: full")
    assert (
        "was not saved (QuotaExceededError: full): it is kept in this page"
        in (a.t.board["message"])
    )
    assert a.sent == []
    a.tap("next")
    a.pump()
    text = store.records[a.t.current][2]
    assert text is not None
    log = _log(json.loads(text))
    assert any(t.startswith("Ana declares 2") for t in log)
    assert log[-1].startswith("Bo's action")
    assert a.t.fights[a.t.current].unsaved == []


def test_a_chimera_fight_two_fighters_added_at_once_then_a_round_from_each_tab():
    """The Chimera desk's steps go the same way: two fighters added at once (the first
    of them starts the fight in each tab) both join; then each tab's step at once."""
    from tests.widgets.test_tracker_chimera import ANA, CHIEF

    store = Store()
    a = Tab(store)
    a.tap("new", ruleset="chimera")
    a.pump()
    b = Tab(store)
    b.tap("open", id=a.t.current)
    a.tap("add_fighter", **ANA)
    b.tap("add_fighter", **CHIEF)
    a.pump()
    b.pump()
    a.pump()
    names = sorted(r["name"] for r in a.t.board["rows"])
    assert names == ["Ana", "Chief"]
    assert a.t.board["rows"] == b.t.board["rows"]
    keys = [r["key"] for r in a.t.board["rows"]]
    assert len(set(keys)) == 2
    a.tap("hide", key=keys[0])
    b.tap("hide", key=keys[1])
    a.pump()
    b.pump()
    a.pump()
    assert [r["hidden"] for r in a.t.board["rows"]] == [True, True]
    assert a.t.board["rows"] == b.t.board["rows"]
