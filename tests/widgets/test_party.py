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

from ruleslab.calculators import CALCULATORS
from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.party import Party, parse_party, parse_shared_character, party_json
from ruleslab_widgets import CalculatorView, calculator
from ruleslab_widgets.party import STORE_VERSION, PartyBar, party_roles


def _view(key: str, party: Party | None = None) -> tuple[CalculatorView, list[dict[str, Any]]]:
    """Calculator ``key`` whose bar has loaded ``party`` from storage; the messages it sends."""
    view = calculator(key)
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    stored = (
        None if party is None else json.dumps({"version": STORE_VERSION, "text": party_json(party)})
    )
    _page(view.party, {"type": "loaded", "text": stored})
    return view, sent


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


def _stored(sent: list[dict[str, Any]]) -> Party:
    """The party the bar last asked the page to store."""
    last = [m for m in sent if m["type"] == "store"][-1]
    wrapper = json.loads(last["text"])
    assert wrapper["version"] == STORE_VERSION
    return parse_party(wrapper["text"])


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
    assert not [m for m in sent if m["type"] == "store"]  # nothing written
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
    assert len([m for m in sent if m["type"] == "store"]) == 1


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
    assert not [m for m in sent if m["type"] == "store"]
    other = Party.of({"Aiko": Character(strength=1), "Cy": Character(wits=6)})
    _page(view.party, {"type": "import", "text": party_json(other)})
    assert view.party.pending == {"count": 2, "names": ["Aiko", "Cy"]}
    assert not [m for m in sent if m["type"] == "store"]  # not before the GM chooses
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


def test_storage_that_cannot_be_read_is_set_aside_and_said():
    for stored in ["{oops", json.dumps({"version": 1, "text": "[]"}), json.dumps([1])]:
        view = calculator("lifting")
        sent: list[dict[str, Any]] = []
        view.party.send = lambda content, buffers=None, sent=sent: sent.append(content)  # type: ignore[method-assign]
        _page(view.party, {"type": "loaded", "text": stored})
        assert sent == [{"type": "set_aside"}]
        assert "could not be read" in view.party.message
        assert "set aside, not deleted" in view.party.message
        assert view.party.storage == "ready"
        assert view.party.characters == []


def test_without_storage_the_bar_says_so_and_keeps_working():
    view = calculator("lifting")
    sent: list[dict[str, Any]] = []
    view.party.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _page(view.party, {"type": "loaded", "text": None, "unavailable": "SecurityError"})
    assert view.party.storage == "unavailable"
    assert "does not let the page save" in view.party.message
    _page(view.party, {"type": "save_new", "role": "lifter", "name": "Aiko"})
    assert view.party.party.names == ("Aiko",)
    assert not [m for m in sent if m["type"] == "store"]


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
