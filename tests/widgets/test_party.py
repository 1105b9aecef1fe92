"""The party bar (ruleslab_widgets.party): filling a role, marking edits, saving, importing.

The page's part (IndexedDB, the file picker, the buttons) is tested in Chromium
(tests/browser/test_party.py); here the Python side is driven by the messages the
page sends, and what it sends back is recorded.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab import InputError
from ruleslab.calculators import CALCULATORS
from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.party import (
    Party,
    entry_json,
    parse_entry,
    parse_party,
    parse_shared_character,
    party_json,
)
from ruleslab_widgets import CalculatorView, calculator
from ruleslab_widgets.party import STORE_VERSION, PartyBar, party_roles


class Storage:
    """The site's record store as the page keeps it (:mod:`ruleslab_widgets.records`):
    compare-and-swap writes, tombstones, the set-aside store, every tab told of a write."""

    def __init__(self, party: Party | None = None) -> None:
        self.records: dict[str, dict[str, Any]] = {}
        self.aside: list[Any] = []
        self.legacy: Any = None
        self.extra: list[dict[str, Any]] = []  # (records as the page found them: unreadable)
        self.tabs: list[Tab] = []
        for n, e in enumerate(party or ()):
            self.records[e.id] = {
                "rev": 1,
                "created": float(n),
                "deleted": False,
                "text": entry_json(e),
            }

    def reading(self) -> dict[str, Any]:
        records = [{"id": i, **r} for i, r in self.records.items()] + self.extra
        return {
            "type": "loaded",
            "mode": "ready",
            "note": "",
            "records": records,
            "aside": len(self.aside),
            "legacy": self.legacy,
        }

    def write(self, msg: dict[str, Any]) -> dict[str, Any]:
        conflicts = []
        for op in msg["ops"]:
            cur = self.records.get(op["id"])
            rev = cur["rev"] if cur else 0
            if rev != op["base"]:
                gone = bool(cur and cur["deleted"])
                conflicts.append({"id": op["id"], "rev": rev, "deleted": gone})
        if conflicts:
            return {"type": "written", "req": msg["req"], "conflicts": conflicts}
        for op in msg["ops"]:
            self.records[op["id"]] = {
                "rev": op["base"] + 1,
                "created": op["created"],
                "deleted": op["text"] is None,
                "text": op["text"],
            }
        if msg.get("retire") and self.legacy is not None:
            self.aside.append(self.legacy)
            self.legacy = None
        return {"type": "written", "req": msg["req"], "ok": True}

    def party(self) -> Party:
        live = sorted((r["created"], i) for i, r in self.records.items() if not r["deleted"])
        out = Party()
        for _, i in live:
            e = parse_entry(self.records[i]["text"])
            out = out.add(out.free_name(e.name), e.record, id=e.id)
        return out

    def names(self) -> list[str]:
        """Every live record's name as stored."""
        live = sorted((r["created"], i) for i, r in self.records.items() if not r["deleted"])
        return [parse_entry(self.records[i]["text"]).name for _, i in live]


class Tab:
    """One tab's calculator over ``storage``: what its bar sends is handled at once
    (``auto``) or when :meth:`flush` is called (two tabs racing)."""

    def __init__(self, storage: Storage, key: str, *, auto: bool = True) -> None:
        self.storage = storage
        self.view = calculator(key)
        self.sent: list[dict[str, Any]] = []
        self.queue: list[dict[str, Any]] = []
        self.auto = auto
        self.view.party.send = self._send  # type: ignore[method-assign]
        storage.tabs.append(self)
        _page(self.view.party, storage.reading())

    def _send(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)
        if content.get("type") in ("write", "set_aside"):
            self.queue.append(content)
            if self.auto:
                self.flush()

    def flush(self) -> None:
        while self.queue:
            msg = self.queue.pop(0)
            if msg["type"] == "write":
                answer = self.storage.write(msg)
                _page(self.view.party, answer)
            else:
                for i in msg["ids"]:
                    if i is None:
                        self.storage.aside.append(self.storage.legacy)
                        self.storage.legacy = None
                    else:
                        self.storage.extra = [x for x in self.storage.extra if x.get("id") != i]
                        if i in self.storage.records:
                            self.storage.aside.append(self.storage.records.pop(i))
            for tab in self.storage.tabs:  # (this tab reads again; the others are told)
                _page(tab.view.party, self.storage.reading())


class Sent(list[dict[str, Any]]):
    storage: Storage


def _view(key: str, party: Party | None = None) -> tuple[CalculatorView, Sent]:
    """Calculator ``key`` whose bar has loaded ``party`` from storage; the messages it sends."""
    tab = Tab(Storage(party), key)
    sent = Sent()
    sent.storage = tab.storage
    tab.sent = sent
    return tab.view, sent


def _page(bar: PartyBar, content: dict[str, Any]) -> None:
    """A message from the page, as the widget's comm delivers it."""
    bar._receive(bar, content, [])


def _party() -> Party:
    return Party.of(
        {
            "Aiko": Character(strength=4, might=2, mega_strength=1, athletics=4, dexterity=5),
            "Bo": Character(strength=6, stamina=5),
            "Rex": Fighter("Rex", mr=12, damage="2d6+1", kind="shoot", position="prone"),
        }
    )


def _stored(sent: Sent) -> Party:
    """The party storage holds."""
    assert [m for m in sent if m["type"] == "write"], "nothing was written"
    return sent.storage.party()


def test_every_calculator_with_a_character_or_fighter_role_shows_the_bar():
    shown = {}
    for calc in CALCULATORS:
        view = CalculatorView(calc)
        shown[calc.key] = view.party in view.form.children
        assert shown[calc.key] == bool(view.party.roles)
    assert all(shown[k] for k in ("lifting", "chimera", "henchmen"))
    assert not shown["dice_pool"]
    view = calculator("autofire")
    assert [r.name for r in party_roles(view)] == ["attacker", "target"]
    assert view.party.roles[1]["phrase"] == "Target under 2.1"


def test_fill_sets_exactly_the_roles_fields_and_the_figures_of_typing_them():
    party = _party()
    aiko = party.entry(name="Aiko")
    view, _ = _view("autofire", party)
    before = {n: w.value for n, w in view.inputs.items()}
    _page(view.party, {"type": "fill", "role": "target", "id": aiko.id})
    after = {n: w.value for n, w in view.inputs.items()}
    changed = {n for n in after if after[n] != before[n]}
    target = {
        "target_dexterity": "5",
        "target_mega_dexterity": "0",
        "target_wits": "3",
        "target_mega_wits": "0",
        "target_ability": "4",
        "target_quantum": "1",
        # issue 33: the Stamina and Mega-Stamina its natural soak is derived from (RN-SOAK-4)
        "target_stamina": "3",
        "target_mega_stamina": "0",
        # issue 33: the Str, Might and Mega-Strength its carried load is graded against
        "target_strength": "4",
        "target_might": "2",
        "target_mega_strength": "1",
    }
    assert changed <= set(target)
    assert {n: after[n] for n in target} == target
    assert view.party.filled == {"target": {"id": aiko.id, "name": "Aiko"}}
    assert view.party.message == "Target under 2.1: Aiko's values."
    # the same figures as typing each value in a fresh form
    typed = calculator("autofire")
    for name, text in target.items():
        typed.set_input(name, text)
    assert view.result == typed.result
    assert view.last_error == ""


def test_one_saved_character_soaks_the_same_in_damage_and_autofire():
    # issue 33: 2.1, Stamina 4, Quantum 1: lethal soak 1 + ⌊4/2⌋ + 0 = 3 in both forms
    party = Party.of({"Cy": Character(stamina=4, quantum=1)})
    cy = party.entry(name="Cy")
    damage, _ = _view("damage", party)
    _page(damage.party, {"type": "fill", "role": "target", "id": cy.id})
    assert damage.result is not None
    assert damage.result.natural_soak == 3
    autofire, _ = _view("autofire", party)
    _page(autofire.party, {"type": "fill", "role": "target", "id": cy.id})
    assert autofire.result is not None
    steps = [s.text for s in autofire.result.steps]
    assert any(t.startswith("Natural lethal soak from the target's record") for t in steps)
    assert any(t.startswith("Soak 3 (natural 3 + armour 0)") for t in steps)


def test_fill_a_fighter_sets_choices_and_dice():
    party = _party()
    view, _ = _view("chimera", party)
    _page(view.party, {"type": "fill", "role": "b", "id": party.entry(name="Rex").id})
    assert view.inputs["b_mr"].value == "12"
    assert view.inputs["b_damage"].value == "2d6+1"
    assert view.inputs["b_kind"].value == "shoot"
    assert view.inputs["b_position"].value == "prone"
    assert view.inputs["a_mr"].value == calculator("chimera").inputs["a_mr"].value
    # a character of another kind does not fill a fighter's role
    _page(view.party, {"type": "fill", "role": "a", "id": party.entry(name="Aiko").id})
    assert view.party.message == "Aiko is an Aberrant character: Combatant A is not."
    assert "a" not in view.party.filled


def test_changing_a_filled_field_marks_it_edited_and_never_writes_back():
    party = _party()
    aiko = party.entry(name="Aiko")
    view, sent = _view("lifting", party)
    _page(view.party, {"type": "fill", "role": "lifter", "id": aiko.id})
    assert not view.party.filled["lifter"].get("edited")
    view.set_input("object_kg", "900")  # not the lifter's field
    assert not view.party.filled["lifter"].get("edited")
    view.set_input("strength", "7")
    assert view.party.filled["lifter"]["edited"] is True
    assert not [m for m in sent if m["type"] == "write"]  # nothing written
    assert view.party.party["Aiko"].strength == 4
    view.set_input("strength", "4")  # back to Aiko's value
    assert view.party.filled["lifter"]["edited"] is False
    view.set_input("strength", "7")
    _page(view.party, {"type": "update", "role": "lifter"})
    assert _stored(sent)["Aiko"] == Character(
        strength=7, might=2, mega_strength=1, athletics=4, dexterity=5
    )
    assert view.party.filled["lifter"] == {"id": aiko.id, "name": "Aiko"}
    assert view.party.message == "Updated Aiko with the lifter's values."


def test_save_as_new_character_checks_the_name_and_the_fields():
    view, sent = _view("lifting")
    view.set_input("strength", "5")
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "  Zoë  "})
    assert _stored(sent)["Zoë"] == Character(strength=5)
    assert view.party.filled["lifter"]["name"] == "Zoë"
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "zoë"})
    assert "already a character called" in view.party.message
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Ev\u202eil"})
    assert "invisible or control character" in view.party.message
    view.set_input("strength", "99")
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Bad"})
    assert view.party.message == "Fix the lifter's highlighted fields first."
    assert len([m for m in sent if m["type"] == "write"]) == 1


def test_rename_and_delete():
    party = _party()
    view, sent = _view("lifting", party)
    aiko = party.entry(name="Aiko")
    _page(view.party, {"type": "fill", "role": "lifter", "id": aiko.id})
    _page(view.party, {"type": "rename", "id": aiko.id, "name": "Aiko Ito"})
    assert _stored(sent).names == ("Aiko Ito", "Bo", "Rex")
    assert view.party.filled["lifter"]["name"] == "Aiko Ito"
    _page(view.party, {"type": "rename", "id": aiko.id, "name": "bo"})
    assert "Two characters are called" in view.party.message
    _page(view.party, {"type": "delete", "id": aiko.id})
    assert _stored(sent).names == ("Bo", "Rex")
    assert view.party.filled["lifter"]["gone"] is True
    assert [c["name"] for c in view.party.characters] == ["Bo", "Rex"]


def test_import_checks_the_file_then_adds_or_replaces_as_the_gm_chooses():
    party = _party()
    view, sent = _view("lifting", party)
    for bad, says in [
        ("{not json", "not JSON"),
        (json.dumps({"format": "ruleslab-party", "format_version": 9, "characters": []}), "newer"),
        (party_json(party).replace('"strength": 4', '"strength": 99'), "field “strength”"),
        ("[" * 50_000, "nested too deeply"),
        ("x" * 2_000_000, "too large"),
    ]:
        _page(view.party, {"type": "import", "text": bad})
        assert says in view.party.message
        assert view.party.message.endswith("Nothing was changed.")
        assert view.party.pending == {}
    assert not [m for m in sent if m["type"] == "write"]
    other = Party.of({"Aiko": Character(strength=1), "Cy": Character(wits=6)})
    _page(view.party, {"type": "import", "text": party_json(other)})
    assert view.party.pending == {"count": 2, "names": ["Aiko", "Cy"]}
    assert not [m for m in sent if m["type"] == "write"]  # not before the GM chooses
    _page(view.party, {"type": "import_apply", "mode": "add"})
    assert _stored(sent).names == ("Aiko", "Bo", "Rex", "Aiko (2)", "Cy")
    assert _stored(sent)["Aiko (2)"].strength == 1
    _page(view.party, {"type": "import", "text": party_json(other)})
    _page(view.party, {"type": "import_apply", "mode": "replace"})
    assert _stored(sent) == other
    _page(view.party, {"type": "import", "text": party_json(party)})
    _page(view.party, {"type": "import_cancel"})
    assert _stored(sent) == other
    assert view.party.message == "Import cancelled: nothing was changed."


def test_export_sends_the_party_file():
    party = _party()
    view, sent = _view("lifting", party)
    _page(view.party, {"type": "export"})
    download = sent[-1]
    assert download["type"] == "download"
    assert download["filename"] == "ruleslab-party.json"
    assert parse_party(download["text"]) == party


def test_stored_records_that_cannot_be_read_are_set_aside_named_and_the_rest_kept():
    party = _party()
    storage = Storage(party)
    storage.extra = [
        {"id": "big", "found": "its revision is a BigInt"},
        {"id": "cyc", "found": 'unexpected parts ("self")'},
        {"id": "arr", "found": "an array of 2,147,483,648 items"},
    ]
    bo = party.entry(name="Bo")
    storage.records[bo.id]["text"] = entry_json(bo).replace('"strength":6', '"strength":99')
    tab = Tab(storage, "lifting")
    message = tab.view.party.message
    assert "4 stored characters could not be read" in message
    assert "its revision is a BigInt" in message
    assert "2,147,483,648 items" in message
    assert "set aside, not deleted" in message
    # the readable ones are shown; the unreadable ones moved aside, none deleted
    assert tab.view.party.party.names == ("Aiko", "Rex")
    assert storage.party().names == ("Aiko", "Rex")
    assert len(storage.aside) == 1
    assert "99" in storage.aside[0]["text"]
    assert storage.extra == []
    assert tab.view.party.storage == "ready"
    assert tab.view.party.aside == 1


def test_the_whole_party_an_earlier_site_kept_moves_into_records_once():
    party = _party()
    storage = Storage()
    old = {"version": STORE_VERSION, "text": party_json(party)}
    storage.legacy = old
    tab = Tab(storage, "lifting")
    assert storage.party() == party  # (ids kept)
    assert storage.legacy is None
    assert storage.aside == [old]
    assert tab.view.party.party == party
    for bad, says in [
        ({"found": "a BigInt"}, "a BigInt"),
        ({"version": 1, "text": "{oops"}, "not JSON"),
    ]:
        storage = Storage()
        storage.legacy = bad
        tab = Tab(storage, "lifting")
        assert says in tab.view.party.message
        assert "set aside, not deleted" in tab.view.party.message
        assert storage.aside == [bad]
        assert storage.legacy is None
        assert tab.view.party.characters == []


def test_without_storage_the_bar_says_so_and_keeps_working():
    view = calculator("lifting")
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _page(view.party, {"type": "loaded", "mode": "unavailable", "error": "SecurityError: no"})
    assert view.party.storage == "unavailable"
    assert "does not let the page save" in view.party.message
    assert "SecurityError" in view.party.message
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    assert view.party.party.names == ("Aiko",)
    assert "For this page only" in view.party.message
    assert not view.party.message.startswith("Saved")
    assert not [m for m in sent if m["type"] == "write"]


def test_read_only_storage_shows_the_party_and_saves_nothing():
    party = _party()
    storage = Storage(party)
    reading = {**storage.reading(), "mode": "readonly", "note": "It could not be upgraded."}
    view = calculator("lifting")
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _page(view.party, reading)
    assert view.party.party == party
    assert "could not be upgraded" in view.party.message
    _page(view.party, {"type": "delete", "id": party.entry(name="Bo").id})
    assert view.party.message.startswith("Not saved")
    assert view.party.party == party
    assert sent == []


def test_saved_is_said_only_once_the_write_committed_and_read_back():
    tab = Tab(Storage(), "lifting", auto=False)
    _page(tab.view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    assert tab.view.party.message == "Saving…"
    write = tab.queue[0]
    _page(tab.view.party, {"type": "written", "req": write["req"], "error": "QuotaExceededError"})
    assert tab.view.party.message.startswith("Not saved")
    assert "QuotaExceededError" in tab.view.party.message
    tab.queue.clear()
    _page(tab.view.party, tab.storage.reading())  # (the page reads again after any write)
    assert tab.view.party.party.names == ()


def test_a_change_the_reader_did_not_allow_in_a_foreign_frame_is_said_and_not_kept():
    """Issue 38, 8: in a frame shown in a page of another origin, the page asks the
    reader to allow each change, in the words Python sends (``what``); a refusal is said
    (naming that page) and the party shows what is saved."""
    party = _party()
    tab = Tab(Storage(party), "lifting", auto=False)
    bo = party.entry(name="Bo")
    _page(tab.view.party, {"type": "delete", "id": bo.id})
    write = tab.queue.pop(0)
    assert write["what"] == "delete Bo from your party"
    _page(tab.view.party, {"type": "asking", "req": write["req"]})
    assert tab.view.party.message == "Not saved yet: allow or refuse the change above."
    _page(tab.view.party, {"type": "written", "req": write["req"], "declined": "https://x.test"})
    message = tab.view.party.message
    assert message.startswith("Not saved: you did not allow the page")
    assert "(https://x.test) to delete Bo from your party" in message
    _page(tab.view.party, tab.storage.reading())  # (the page reads again after it)
    assert tab.view.party.party == party
    _page(tab.view.party, {"type": "save_new", "role": "lifter", "name": "Cy"})
    assert tab.queue[0]["what"] == "save Cy as a new character of your party"


def test_two_tabs_saving_deleting_and_renaming_at_once_lose_nothing():
    storage = Storage(_party())
    one = Tab(storage, "lifting", auto=False)
    two = Tab(storage, "jumping", auto=False)
    # two new characters, each tab unaware of the other's: both kept
    _page(one.view.party, {"type": "save_new", "role": "lifter", "name": "Cara"})
    _page(two.view.party, {"type": "save_new", "role": "jumper", "name": "Dan"})
    one.flush()
    two.flush()
    assert storage.party().names == ("Aiko", "Bo", "Rex", "Cara", "Dan")
    assert one.view.party.message.startswith("Saved Cara")
    assert two.view.party.message.startswith("Saved Dan")
    assert one.view.party.party.names == two.view.party.party.names == storage.party().names
    # one tab deletes Bo while the other updates him: the stale update is refused, said
    bo = storage.party().entry(name="Bo").id
    _page(two.view.party, {"type": "fill", "role": "jumper", "id": bo})
    two.view.set_input("strength", "9")
    _page(one.view.party, {"type": "delete", "id": bo})
    _page(two.view.party, {"type": "update", "role": "jumper"})
    one.flush()
    two.flush()
    assert "Bo" not in storage.party().names
    assert "Bo deleted in another tab" in two.view.party.message
    assert two.view.party.message.startswith("Not saved")
    # the same name saved in both tabs at once: both kept, one shown as "(2)"
    _page(one.view.party, {"type": "save_new", "role": "lifter", "name": "Eve"})
    _page(two.view.party, {"type": "save_new", "role": "jumper", "name": "Eve"})
    one.flush()
    two.flush()
    assert storage.names().count("Eve") == 2
    assert one.view.party.party.names[-2:] == ("Eve", "Eve (2)")
    # renames of one character in both tabs: the later is refused, not written over
    aiko = storage.party().entry(name="Aiko").id
    _page(one.view.party, {"type": "rename", "id": aiko, "name": "AikoA"})
    _page(two.view.party, {"type": "rename", "id": aiko, "name": "AikoB"})
    one.flush()
    two.flush()
    assert storage.party().entry(id=aiko).name == "AikoA"
    assert "Aiko changed in another tab" in two.view.party.message
    assert two.view.party.party.entry(id=aiko).name == "AikoA"


def test_a_tab_that_saves_twice_before_the_first_answer_conflicts_with_nobody():
    storage = Storage()
    tab = Tab(storage, "lifting", auto=False)
    _page(tab.view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    aiko = tab.view.party.party.entry(name="Aiko").id
    _page(tab.view.party, {"type": "rename", "id": aiko, "name": "Aiko Ito"})
    tab.flush()
    assert storage.party().names == ("Aiko Ito",)
    assert tab.view.party.message == "Renamed Aiko to Aiko Ito."


def test_nothing_changes_the_party_before_it_is_loaded():
    view = calculator("lifting")
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    assert "still loading" in view.party.message
    assert sent == []


def test_a_character_shared_by_link_is_checked_then_offered():
    party = _party()
    view, sent = _view("lifting", party)
    _page(view.party, {"type": "share", "id": party.entry(name="Aiko").id})
    link = sent[-1]
    assert link["query"] == "calculator=lifting"
    value = link["fragment"].removeprefix("character=")
    assert parse_shared_character(value).record == party["Aiko"]
    other, other_sent = _view("jumping", party)
    _page(other.party, {"type": "shared", "text": value})
    assert other.party.offer == {"name": "Aiko", "kind_label": "Aberrant character"}
    _page(other.party, {"type": "add_shared"})
    assert _stored(other_sent)["Aiko (2)"] == party["Aiko"]
    assert other.party.offer == {}
    _page(other.party, {"type": "shared", "text": "not%20a%20character"})
    assert other.party.offer == {}
    assert "damaged" in other.party.message


def test_unknown_messages_are_ignored():
    view, sent = _view("lifting")
    for content in [None, [], {"type": "rm -rf"}, {"type": "fill", "role": "nobody", "id": "x"}]:
        _page(view.party, content)  # type: ignore[arg-type]
    assert sent == []


def test_an_embed_reads_and_writes_nothing_of_the_gms_party():
    view = calculator("lifting")
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _page(view.party, {"type": "loaded", "mode": "embedded"})
    assert "embedded in another page" in view.party.message
    assert "neither reads nor saves your party" in view.party.message
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    assert "an embedded calculator saves nothing" in view.party.message
    assert not [m for m in sent if m["type"] in ("write", "set_aside")]


def test_a_later_good_link_clears_an_earlier_links_error():
    party = _party()
    view, _ = _view("lifting", party)
    _page(view.party, {"type": "shared", "text": "not%20a%20character"})
    assert "damaged" in view.party.message
    _page(view.party, {"type": "shared", "text": party.link(party.entry(name="Bo").id)})
    assert view.party.offer == {"name": "Bo", "kind_label": "Aberrant character"}
    assert view.party.message == ""


def test_a_number_of_thousands_of_digits_is_said_in_words_not_pythons():
    text = party_json(_party()).replace('"strength": 6', '"strength": ' + "9" * 5000, 1)
    with pytest.raises(InputError) as info:
        parse_party(text)
    assert "a number of 5,000 digits" in info.value.message
    assert "int_max_str_digits" not in info.value.message


# -- a fill never overwrites what the GM typed without asking (issue 34, item 3) ---------


def _kim_party() -> Party:
    """Kim: Strength 4 and Stamina 3 entered (3 is the default), the rest defaults."""
    return Party().add("Kim", Character(strength=4), entered={"stamina"})


def test_a_fill_asks_before_overwriting_a_value_typed_and_keeps_it_over_a_default():
    party = _kim_party()
    kim = party.entries[0]
    view, _ = _view("lifting", party)
    view.set_input("strength", "5")  # Kim entered 4: asked
    view.set_input("might", "1")  # Kim has the default 0: kept, said
    view.set_input("stamina", "3")  # typed as Kim has it (3): nothing to ask
    _page(view.party, {"type": "fill", "role": "lifter", "id": kim.id})
    values = {n: view.inputs[n].value for n in ("strength", "might", "stamina", "quantum")}
    assert values == {"strength": "5", "might": "1", "stamina": "3", "quantum": "1"}
    assert view.party.question == {
        "role": "lifter",
        "name": "Kim",
        "title": "the lifter",
        "fields": [{"name": "strength", "label": "Strength", "mine": "5", "theirs": "4"}],
    }
    message = view.party.message
    assert "Kept what you typed in Might (Kim has the default there)." in message
    assert "What you typed in Strength differs from Kim's: keep it?" in message
    assert view.party.filled["lifter"] == {"id": kim.id, "name": "Kim", "edited": True}
    # "Use Kim's": his Strength; Might stays the GM's (a default never overwrites it)
    _page(view.party, {"type": "use_theirs"})
    assert view.inputs["strength"].value == "4"
    assert view.inputs["might"].value == "1"
    assert view.party.question == {}
    assert view.party.message == "The lifter: Kim's values, Strength included."
    # a second fill: Strength is Kim's now, nothing asked
    _page(view.party, {"type": "fill", "role": "lifter", "id": kim.id})
    assert view.party.question == {}


def test_keep_mine_keeps_the_typed_value_and_the_role_says_edited():
    party = _kim_party()
    kim = party.entries[0]
    view, _ = _view("lifting", party)
    view.set_input("strength", "6")
    _page(view.party, {"type": "fill", "role": "lifter", "id": kim.id})
    _page(view.party, {"type": "keep_mine"})
    assert view.inputs["strength"].value == "6"
    assert view.party.question == {}
    assert view.party.message == "Kept your values in Strength; the others are Kim's."
    assert view.party.filled["lifter"]["edited"] is True
    # typing Kim's own value back: no longer edited
    view.set_input("strength", "4")
    assert "edited" not in view.party.filled["lifter"] or not view.party.filled["lifter"]["edited"]


def test_a_fill_with_nothing_typed_asks_nothing():
    party = _kim_party()
    view, _ = _view("lifting", party)
    _page(view.party, {"type": "fill", "role": "lifter", "id": party.entries[0].id})
    assert view.party.question == {}
    assert view.inputs["strength"].value == "4"


def test_saving_a_role_counts_the_fields_typed_as_entered():
    view, sent = _view("lifting", Party())
    view.set_input("strength", "5")
    view.set_input("strength", "3")  # typed back to the default: entered all the same
    view.set_input("might", "2")
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Ann"})
    ann = _stored(sent).entry(name="Ann")
    stored = parse_entry(sent.storage.records[ann.id]["text"])
    assert stored.entered == {"strength", "might"}
    assert stored.record == Character(might=2)
    # an update adds what was typed since
    view.set_input("quantum", "2")
    view.set_input("quantum", "1")  # (back to Ann's, the default: typed)
    view.set_input("willpower", "4")
    _page(view.party, {"type": "update", "role": "lifter"})
    stored = parse_entry(sent.storage.records[ann.id]["text"])
    assert stored.entered == {"strength", "might", "quantum", "willpower"}


def test_a_record_stored_before_entered_existed_loads_with_the_same_values():
    # as a site before the sheet stored Kim: a full sheet, no "entered" (RN-PARTY-1)
    old = {
        "id": "kim1",
        "name": "Kim",
        "kind": "character",
        "record_version": 1,
        "fields": {**Party().add("x", Character()).entries[0].fields, "strength": 4},
    }
    storage = Storage()
    storage.records["kim1"] = {
        "rev": 1,
        "created": 0.0,
        "deleted": False,
        "text": json.dumps(old),
    }
    tab = Tab(storage, "lifting")
    kim = tab.view.party.party.entry(id="kim1")
    assert (kim.record, kim.entered) == (Character(strength=4), {"strength"})
    assert storage.aside == []
    _page(tab.view.party, {"type": "fill", "role": "lifter", "id": "kim1"})
    assert tab.view.inputs["strength"].value == "4"
    # written again (a rename): now with its entered fields
    _page(tab.view.party, {"type": "rename", "id": "kim1", "name": "Kimiko"})
    assert json.loads(storage.records["kim1"]["text"])["entered"] == ["strength"]
