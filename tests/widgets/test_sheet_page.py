"""The character sheet (ruleslab_widgets.sheet_page): every field, entered or default,
edited with the field's own message, saved, undone.

The page's part (IndexedDB, the inputs) is tested in Chromium (tests/browser/test_sheet.py);
here the Python side is driven by the messages the page sends, over the same stand-in of
the record store as the party bar's tests.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.party import KINDS, Party, parse_entry
from ruleslab.records import fields_of
from ruleslab_widgets import app_page
from ruleslab_widgets.sheet_page import GROUPS, SheetPage, sheet_page
from ruleslab_widgets.sheet_record import UNDO_COLLECTION
from tests.widgets.test_app_page import channel  # noqa: F401 (the same fixture)
from tests.widgets.test_party import Storage


class Sheet:
    """The sheet of character ``ident`` over ``storage`` (the party) and ``steps`` (the
    sheet's changes, collection ``sheet-undo``): its writes answered at once."""

    def __init__(self, storage: Storage, ident: str, steps: Storage | None = None) -> None:
        self.storage = storage
        self.steps = Storage() if steps is None else steps
        self.page = SheetPage(ident)
        self.sent: list[dict[str, Any]] = []
        self.page.send = self._send  # type: ignore[method-assign]
        self.say(self.reading())

    def reading(self) -> dict[str, Any]:
        return {**self.storage.reading(), "undo": self.steps.reading()["records"]}

    def _send(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)
        if content.get("type") == "write" and content.get("collection") == UNDO_COLLECTION:
            self.say({**self.steps.write(content), "collection": UNDO_COLLECTION})
        elif content.get("type") == "write":
            self.say(self.storage.write(content))
        elif content.get("type") == "load":
            self.say(self.reading())

    def say(self, content: dict[str, Any]) -> None:
        self.page._receive(self.page, content, [])

    def fields(self) -> dict[str, dict[str, Any]]:
        c = self.page.sheet["character"]
        return {f["name"]: f for g in c["groups"] for f in g["fields"]}

    def stored(self, ident: str) -> Any:
        return parse_entry(self.storage.records[ident]["text"])


def _kim() -> tuple[Storage, str]:
    party = Party().add("Kim", Character(strength=4), entered={"wits"})
    return Storage(party), party.entries[0].id


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_field_of_each_record_is_in_exactly_one_group(kind):
    grouped = [f for _title, names in GROUPS[kind] for f in names]
    assert sorted(grouped) == sorted(fields_of(KINDS[kind].record))
    assert len(grouped) == len(set(grouped))


def test_the_sheet_shows_every_field_entered_or_default_with_its_declaration():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    fields = sheet.fields()
    assert list(fields) != []
    assert sorted(fields) == sorted(fields_of(Character))
    assert {n for n, f in fields.items() if f["entered"]} == {"strength", "wits"}
    strength = fields["strength"]
    assert strength["value"] == "4"
    assert strength["default"] == "3"
    assert strength["label"] == "Strength"
    assert (strength["range"], strength["unit"]) == ("a whole number from 0 to 20", "dots")
    assert sheet.page.sheet["character"]["entered"] == 2
    assert sheet.page.sheet["character"]["fields"] == 22


def test_a_bad_value_gets_the_fields_message_and_nothing_is_written():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.say({"type": "check", "field": "stamina", "text": "0"})
    assert sheet.page.sheet["errors"] == {
        "stamina": "Stamina must be a whole number from 1 to 20 dots."
    }
    sheet.say({"type": "save", "values": {"stamina": "0", "might": "1"}})
    assert not [m for m in sheet.sent if m["type"] == "write"]
    assert sheet.page.sheet["message"] == "Not saved: fix Stamina (see the message under each)."
    assert sheet.stored(kim).record == Character(strength=4)
    sheet.say({"type": "check", "field": "stamina", "text": "5"})
    assert sheet.page.sheet["errors"] == {}


def test_a_save_writes_the_fields_as_entered_and_undo_writes_him_back():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    # Dexterity typed at its default value (3) becomes entered, Stamina 5 too
    sheet.say({"type": "save", "values": {"stamina": "5", "dexterity": "3"}})
    saved = sheet.stored(kim)
    assert saved.record == Character(strength=4, stamina=5)
    assert saved.entered == {"strength", "wits", "stamina", "dexterity"}
    assert sheet.page.sheet["message"] == "Saved Stamina of Kim."
    assert {"type": "saved", "id": kim} in sheet.sent
    assert sheet.fields()["dexterity"]["entered"] is True
    sheet.say({"type": "default", "field": "strength"})
    assert sheet.stored(kim).record == Character(stamina=5)
    assert "strength" not in sheet.stored(kim).entered
    assert sheet.page.sheet["undo"] == "set Strength of Kim to the default (3)"
    sheet.say({"type": "undo"})
    assert sheet.stored(kim).record == Character(strength=4, stamina=5)
    assert sheet.page.sheet["undo"] == "change Stamina of Kim"
    sheet.say({"type": "undo"})
    back = sheet.stored(kim)
    assert (back.record, back.entered) == (Character(strength=4), {"strength", "wits"})
    assert sheet.page.sheet["undo"] == ""


def test_a_write_refused_because_another_tab_changed_him_says_so():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    storage.records[kim]["rev"] += 1  # (another tab wrote meanwhile, not yet read here)
    sheet.say({"type": "save", "values": {"stamina": "5"}})
    assert "changed or deleted in another tab meanwhile" in sheet.page.sheet["message"]
    assert "what you typed is kept" in sheet.page.sheet["message"]
    assert {"type": "saved", "id": kim} not in sheet.sent


def test_rename_and_a_fighters_sheet():
    party = Party().add("Rex", Fighter("Rex", mr=12, kind="shoot"))
    rex = party.entries[0].id
    sheet = Sheet(Storage(party), rex)
    fields = sheet.fields()
    assert fields["kind"]["type"] == "choice"
    assert fields["kind"]["shown"] == "Shoot (ranged)"
    assert {n for n, f in fields.items() if f["entered"]} == {"mr", "kind"}
    sheet.say({"type": "rename", "name": "Rexa"})
    assert sheet.stored(rex).name == "Rexa"
    assert sheet.stored(rex).record.name == "Rexa"
    sheet.say({"type": "rename", "name": "\u202eX"})
    assert "invisible or control character" in sheet.page.sheet["message"]


def test_an_unknown_id_lists_the_party_and_the_app_page_serves_the_sheet(channel):  # noqa: F811
    storage, _kim_id = _kim()
    sheet = Sheet(storage, "nobody")
    assert sheet.page.sheet["character"] is None
    assert [c["name"] for c in sheet.page.sheet["characters"]] == ["Kim"]
    page = sheet_page("?calculator=sheet&id=abc")
    assert page.children[1].ident == "abc"
    sent: list[dict[str, Any]] = []
    session = app_page.open_session("sheet", "?calculator=sheet&id=abc", sent.append)
    flat = [n for m in sent for n in (m["messages"] if m["type"] == "batch" else [m])]
    shown = [m for m in flat if m["type"] == "display"]
    assert len(shown) == 1
    opened = [m for m in flat if m["type"] == "comm_open"]
    assert any(m["data"]["state"].get("sheet", {}).get("ident") == "abc" for m in opened)
    session.close()


def test_a_value_corrected_and_saved_at_once_clears_its_message():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.say({"type": "check", "field": "stamina", "text": "0"})
    sheet.say({"type": "save", "values": {"stamina": "5"}})  # (Enter before the field's check)
    assert sheet.page.sheet["errors"] == {}
    assert sheet.stored(kim).record == Character(strength=4, stamina=5)


def test_a_fighters_wounds_over_his_wound_limit_are_refused():
    party = Party().add("Rex", Fighter("Rex", wound_limit=3))
    rex = party.entries[0].id
    sheet = Sheet(Storage(party), rex)
    sheet.say({"type": "save", "values": {"wounds": "4"}})
    assert sheet.page.sheet["message"] == (
        "Not saved: Rex's wounds (4) must be at most his Wound Limit (3): more would "
        "already have vanquished him."
    )
    assert sheet.stored(rex).record.wounds == 0
    sheet.say({"type": "save", "values": {"wounds": "4", "wound_limit": "5"}})
    assert sheet.stored(rex).record.wounds == 4


def test_the_last_changes_can_be_undone_after_a_reload():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.say({"type": "save", "values": {"stamina": "5"}})
    sheet.say({"type": "default", "field": "strength"})
    # the page reloaded: a new sheet over the same storage
    again = Sheet(storage, kim, sheet.steps)
    assert again.page.sheet["undo"] == "set Strength of Kim to the default (3)"
    again.say({"type": "undo"})
    assert again.stored(kim).record == Character(strength=4, stamina=5)
    assert again.page.sheet["message"] == "Undone: set Strength of Kim to the default (3)."
    third = Sheet(storage, kim, sheet.steps)
    assert third.page.sheet["undo"] == "change Stamina of Kim"
    third.say({"type": "undo"})
    back = third.stored(kim)
    assert (back.record, back.entered) == (Character(strength=4), {"strength", "wits"})
    assert Sheet(storage, kim, sheet.steps).page.sheet["undo"] == ""


def test_only_the_last_ten_changes_are_kept_to_undo():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    for stamina in range(4, 16):  # 12 saves: Stamina 4, 5, …, 15
        sheet.say({"type": "save", "values": {"stamina": str(stamina)}})
        assert sheet.stored(kim).record.stamina == stamina
    again = Sheet(storage, kim, sheet.steps)
    for _ in range(10):
        assert again.page.sheet["undo"] == "change Stamina of Kim"
        again.say({"type": "undo"})
    # ten undone from 15: back to the 2nd save's 5; the 1st save's change was dropped
    assert again.stored(kim).record == Character(strength=4, stamina=5)
    assert again.page.sheet["undo"] == ""


def test_an_undo_after_a_change_made_elsewhere_is_refused_and_loses_nothing():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.say({"type": "save", "values": {"stamina": "5"}})
    # another sheet saves Stamina 7, then a party bar writes 8 ("Update Kim")
    other = Sheet(storage, kim, sheet.steps)
    other.say({"type": "save", "values": {"stamina": "7"}})
    storage_text = storage.records[kim]["text"]
    storage.records[kim]["text"] = storage_text.replace('"stamina":7', '"stamina":8')
    storage.records[kim]["rev"] += 1
    again = Sheet(storage, kim, sheet.steps)
    assert again.page.sheet["undo"] == "change Stamina of Kim"
    again.say({"type": "undo"})
    assert again.stored(kim).record == Character(strength=4, stamina=8)
    assert again.page.sheet["message"].startswith("Cannot undo: Kim was changed elsewhere")
    assert again.page.sheet["undo"] == ""


def test_an_undo_refused_by_the_store_can_be_tried_again():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.say({"type": "save", "values": {"stamina": "5"}})
    sheet.page._store.records[kim] = dataclasses.replace(
        sheet.page._store.records[kim], rev=storage.records[kim]["rev"] - 1
    )  # (as if read before the save: the store refuses the write)
    sheet.say({"type": "undo"})
    assert "changed or deleted in another tab meanwhile" in sheet.page.sheet["message"]
    assert sheet.page.sheet["undo"] == "change Stamina of Kim"
    sheet.say({"type": "undo"})  # (read again since: the undo goes through)
    assert sheet.stored(kim).record == Character(strength=4)


def test_an_unreadable_record_of_changes_is_set_aside_and_said():
    storage, kim = _kim()
    steps = Storage()
    steps.records[kim] = {"rev": 1, "created": 0.0, "deleted": False, "text": '{"format": 1'}
    sheet = Sheet(storage, kim, steps)
    aside = [m for m in sheet.sent if m["type"] == "set_aside"]
    assert aside == [{"type": "set_aside", "collection": "sheet-undo", "ids": [kim]}]
    assert "could not be read" in sheet.page.sheet["message"]
    assert "set aside, not deleted" in sheet.page.sheet["message"]
    assert sheet.page.sheet["undo"] == ""
    assert sheet.fields()["strength"]["value"] == "4"


def test_changes_the_store_cannot_keep_are_said_and_still_undone_on_the_page():
    storage, kim = _kim()
    sheet = Sheet(storage, kim)
    sheet.steps.write = lambda msg: {  # type: ignore[method-assign]
        "type": "written",
        "req": msg["req"],
        "error": "QuotaExceededError",
    }
    sheet.say({"type": "save", "values": {"stamina": "5"}})
    assert sheet.stored(kim).record == Character(strength=4, stamina=5)
    assert sheet.page.sheet["message"] == (
        "Saved Stamina of Kim. The sheet's changes could not be stored "
        "(QuotaExceededError): Undo lasts only while this page is open."
    )
    sheet.say({"type": "undo"})
    assert sheet.stored(kim).record == Character(strength=4)
