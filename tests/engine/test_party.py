"""The party file (ruleslab.party): read back exactly, and every bad or hostile file refused."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from ruleslab import Party, parse_party, party_json
from ruleslab.calculators.chimera import chimera_fight
from ruleslab.calculators.jumping import jump
from ruleslab.calculators.lifting import lifting_and_encumbrance
from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.params import InputError
from ruleslab.party import (
    MAX_CHARACTERS,
    MAX_NAME,
    check_name,
    parse_shared_character,
    shared_character,
)


def _party() -> Party:
    return Party.of(
        {
            "Aiko": Character(strength=4, might=2, mega_strength=1, athletics=3),
            "Bo": Character(dexterity=5, stamina=4),
            "Rex": Fighter("ignored", mr=12, damage="2d6+1", kind="shoot", character="pc"),
        }
    )


def _file(*characters: dict[str, Any], **top: Any) -> str:
    data = {
        "format": "ruleslab-party",
        "format_version": 1,
        "engine_version": "0.1.0",
        "characters": list(characters),
    }
    data.update(top)
    return json.dumps(data, separators=(",", ":"))


def _aiko(**fields: Any) -> dict[str, Any]:
    return {
        "id": "a1",
        "name": "Aiko",
        "kind": "character",
        "record_version": 1,
        "fields": {"strength": 4, **fields},
    }


def _refused(text: Any) -> str:
    with pytest.raises(InputError) as err:
        parse_party(text)
    return err.value.message


def test_a_party_reads_back_the_same():
    party = _party()
    text = party_json(party)
    data = json.loads(text)
    assert data["format"] == "ruleslab-party"
    assert data["format_version"] == 2
    assert data["engine_version"] == "0.1.0"
    assert [c["kind"] for c in data["characters"]] == ["character", "character", "fighter"]
    assert data["characters"][0]["fields"]["strength"] == 4
    assert data["characters"][0]["record_version"] == 1
    again = parse_party(text)
    assert again == party
    assert party_json(again) == text
    # a fighter is called by his name in the party
    assert party["Rex"].name == "Rex"
    assert party["rex"] is party["Rex"]  # names are matched ignoring case


def test_fields_left_out_take_the_records_defaults():
    party = parse_party(_file(_aiko()))
    assert party["Aiko"] == Character(strength=4)


def test_the_party_is_usable_in_calculators_as_the_records_themselves():
    party = _party()
    aiko = party["Aiko"]
    assert isinstance(aiko, Character)
    assert party.characters[0] is aiko
    got = lifting_and_encumbrance(lifter=aiko, object_kg=450)
    typed = lifting_and_encumbrance(strength=4, might=2, mega_strength=1, object_kg=450)
    assert got == typed
    assert got.figures() == typed.figures()
    got_jump = jump(jumper=party["Bo"], distance_m=3.0)
    assert got_jump == jump(strength=3, athletics=2, mega_strength=0, distance_m=3.0)
    rex = party["Rex"]
    fight = chimera_fight(a=rex)
    # every field of his passed as the form's flat values (the role's defaults differ)
    flat = chimera_fight(**{f"a_{k}": v for k, v in party.entry(name="Rex").fields.items()})
    assert [f.value for f in fight.figures()] == [f.value for f in flat.figures()]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json at all", "not JSON"),
        ("", "not JSON"),
        ("[1, 2]", "is not a ruleslab party file"),
        (json.dumps({"format": "dexie", "format_version": 1}), "is not a ruleslab party file"),
        (_file(format_version=3), "newer ruleslab (format version 3"),
        (_file(format_version="1"), "no valid “format_version”"),
        (_file(characters={"a": 1}), "no “characters” list"),
        (_file(secret=1), "unknown parts: 'secret'"),
        (_file(_aiko(strength=99)), "Character 1 (“Aiko”), field “strength”: Strength must be"),
        (_file(_aiko(strength="4")), "field “strength”"),
        (_file(_aiko(strength=True)), "field “strength”"),
        (_file(_aiko(charm=3)), "“charm” is not a field of an Aberrant character. Its fields: "),
        (_file({**_aiko(), "kind": "dragon"}), 'of kind "dragon": a party holds “character”'),
        (_file({**_aiko(), "record_version": 7}), "newer ruleslab (Aberrant character version 7"),
        (_file({**_aiko(), "record_version": 0}), "no valid “record_version”"),
        (_file({**_aiko(), "fields": [1]}), "has no “fields”"),
        (_file({**_aiko(), "id": "<script>"}), "has no valid id"),
        (_file({**_aiko(), "extra": 1}), "unknown parts 'extra'"),
        (_file(_aiko(), _aiko()), "Two characters have the id “a1”"),
        (_file(_aiko(), {**_aiko(), "id": "a2", "name": "AIKO"}), "Two characters are called"),
        (_file({**_aiko(), "name": "Ai\u202eko"}), "invisible or control character (U+202E)"),
        (_file({**_aiko(), "name": "Ai\nko"}), "invisible or control character (U+000A)"),
        (_file({**_aiko(), "name": "x" * (MAX_NAME + 1)}), "too long: at most 60"),
        (_file({**_aiko(), "name": "   "}), "has no name"),
        (_file({**_aiko(), "name": 5}), "name must be text"),
        (_file(_aiko(strength=float("nan"))), "not JSON"),
        (
            '{"format": "ruleslab-party", "format_version": ' + "9" * 5000 + "}",
            "a number of 5,000 digits",
        ),
        (
            _file(
                {
                    "id": "f1",
                    "name": "Rex",
                    "kind": "fighter",
                    "record_version": 1,
                    "fields": {"kind": "punch"},
                }
            ),
            "(its values: fight, shoot, blast)",
        ),
    ],
)
def test_a_bad_file_is_refused_with_a_message_naming_what_is_wrong(text, says):
    assert says in _refused(text)


def test_hostile_files_are_refused_before_any_work():
    # nesting: refused by the depth scan, never a RecursionError
    assert "nested too deeply" in _refused("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in _refused('{"a":' * 50 + "1" + "}" * 50)
    # brackets inside strings are not nesting
    deep_name = {**_aiko(), "name": "[[[[[[[[[[[[[["}
    assert parse_party(_file(deep_name))["[[[[[[[[[[[[[["].strength == 4
    # size
    assert "too large" in _refused(" " * 1_000_001)
    # too many characters
    many = [{**_aiko(), "id": f"c{i}", "name": f"C{i}"} for i in range(10_000)]
    assert f"at most {MAX_CHARACTERS}" in _refused(_file(*many))
    with pytest.raises(InputError):
        Party.of({f"C{i}": Character() for i in range(MAX_CHARACTERS + 1)})
    # not text
    assert "must be text" in _refused(b"{}")
    assert "must be text" in _refused(None)


def test_names_are_trimmed_and_checked():
    assert check_name("  Aiko  ") == "Aiko"
    assert check_name("Zoë 🐉") == "Zoë 🐉"
    for bad in ["\u2066x", "a\u200bb", "\x00", "a\u2028b"]:
        with pytest.raises(InputError):
            check_name(bad)


def test_a_party_changes_by_new_values():
    party = _party()
    aiko = party.entry(name="Aiko")
    renamed = party.rename(aiko.id, "Aiko Ito")
    assert renamed["Aiko Ito"] == aiko.record
    assert renamed.entry(name="Aiko Ito").id == aiko.id
    rex = party.entry(name="Rex")
    assert party.rename(rex.id, "Rexy")["Rexy"].name == "Rexy"
    updated = party.update(aiko.id, Character(strength=9))
    assert updated["Aiko"].strength == 9
    with pytest.raises(InputError):
        party.update(aiko.id, Fighter("x"))
    assert party.remove(aiko.id).names == ("Bo", "Rex")
    with pytest.raises(InputError):
        party.add("Bo", Character())
    merged = party.merged(party)
    assert merged.names == ("Aiko", "Bo", "Rex", "Aiko (2)", "Bo (2)", "Rex (2)")
    assert merged["Rex (2)"].name == "Rex (2)"
    assert len({e.id for e in merged}) == 6


def test_one_character_travels_by_link():
    party = _party()
    aiko = party.entry(name="Aiko")
    value = shared_character(aiko)
    assert set(value) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    assert data["fields"] == {"strength": 4, "might": 2, "mega_strength": 1, "athletics": 3}
    back = parse_shared_character(value)
    assert (back.name, back.record) == ("Aiko", aiko.record)
    assert back.id != aiko.id
    rex = parse_shared_character(shared_character(party.entry(name="Rex")))
    assert rex.record == party["Rex"]


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("!!!", "damaged"),
        ("A" * 5000, "too long"),
        (base64.urlsafe_b64encode(b"\xff\xfe").decode(), "damaged"),
        (base64.urlsafe_b64encode(b"[1]").decode(), "is not a ruleslab character"),
        (
            base64.urlsafe_b64encode(
                json.dumps(
                    {
                        "format": "ruleslab-character",
                        "format_version": 1,
                        "name": "Aiko",
                        "kind": "character",
                        "record_version": 1,
                        "fields": {"strength": 99},
                    }
                ).encode()
            ).decode(),
            "field “strength”",
        ),
    ],
)
def test_a_bad_character_link_is_refused(value, says):
    with pytest.raises(InputError) as err:
        parse_shared_character(value)
    assert says in err.value.message


# -- what the GM entered, told apart from the defaults (RN-PARTY-1) ---------------------


def test_an_entry_knows_the_fields_entered_and_keeps_them_in_the_file():
    # Strength typed at its default (3) counts as entered because the GM said so;
    # Might 2 differs from the default 0, so it counts whatever he said
    party = Party().add("Kim", Character(might=2), entered={"strength"})
    kim = party.entry(name="Kim")
    assert kim.entered == {"strength", "might"}
    assert kim.entered_fields == ("strength", "might")  # (the record's order)
    data = json.loads(party_json(party))
    assert data["characters"][0]["entered"] == ["strength", "might"]
    assert len(data["characters"][0]["fields"]) == len(kim.kind.fields)  # (the whole sheet)
    back = parse_party(party_json(party))
    assert back == party
    assert back.entry(name="Kim").entered == {"strength", "might"}


def test_an_old_file_without_entered_counts_the_fields_that_differ_from_the_defaults():
    # a version 1 file stored a full sheet: Strength 4 and Athletics 3 differ from the
    # Character's defaults (3 and 2), Dexterity 3 and Might 0 are the defaults
    full = {"strength": 4, "dexterity": 3, "might": 0, "athletics": 3}
    party = parse_party(_file({**_aiko(), "fields": full}))
    aiko = party.entry(name="Aiko")
    assert aiko.entered == {"strength", "athletics"}
    assert aiko.record == Character(strength=4, athletics=3)  # (the same figures)
    # a fighter: the defaults are the Fighter's own (MR 10, Defence 1, …)
    rex = {
        "id": "r1",
        "name": "Rex",
        "kind": "fighter",
        "record_version": 1,
        "fields": {"mr": 12, "defence": 1},
    }
    assert parse_party(_file(rex)).entry(name="Rex").entered == {"mr"}


def test_a_stored_record_without_entered_reads_as_an_old_file_does():
    from ruleslab.party import entry_json, parse_entry

    old = json.dumps(_aiko(dexterity=3, wits=5))
    assert parse_entry(old).entered == {"strength", "wits"}
    kim = Party().add("Kim", Character(), entered={"stamina"}).entries[0]
    assert parse_entry(entry_json(kim)) == kim
    assert parse_entry(entry_json(kim)).entered == {"stamina"}


@pytest.mark.parametrize(
    ("entered", "says"),
    [
        ("strength", "no valid “entered”"),
        ([1], "no valid “entered”"),
        (["charm"], "“entered” names “charm”, not a field of an Aberrant character"),
    ],
)
def test_a_bad_entered_is_refused_naming_the_character(entered, says):
    message = _refused(_file({**_aiko(), "entered": entered}))
    assert "Character 1 (“Aiko”)" in message
    assert says in message


def test_an_update_adds_the_fields_changed_and_renames_and_merges_keep_them():
    party = Party().add("Kim", Character(strength=4), entered={"wits"})
    ident = party.entries[0].id
    # a value changed counts as entered, even when changed back to the default
    updated = party.update(ident, Character(strength=4, dexterity=3, stamina=5))
    assert updated.entry(id=ident).entered == {"strength", "wits", "stamina"}
    # the sheet says exactly which are entered (a field reset to its default: not)
    reset = updated.update(ident, Character(strength=4), entered=set())
    assert reset.entry(id=ident).entered == {"strength"}
    assert updated.rename(ident, "Kimiko").entry(id=ident).entered == {
        "strength",
        "wits",
        "stamina",
    }
    merged = Party().merged(updated)
    assert merged.entries[0].entered == {"strength", "wits", "stamina"}


def test_a_link_carries_the_fields_entered_and_an_old_link_reads_the_same():
    party = Party().add("Kim", Character(strength=4), entered={"wits"})
    value = party.link(party.entries[0].id)
    data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    assert data["format_version"] == 1  # (a link's layout is unchanged)
    assert data["fields"] == {"strength": 4, "wits": 3}
    back = parse_shared_character(value)
    assert back.entered == {"strength", "wits"}
    assert back.record == Character(strength=4)
    # a link made before entered existed carried only the fields that differ
    old = {
        "format": "ruleslab-character",
        "format_version": 1,
        "name": "Aiko",
        "kind": "character",
        "record_version": 1,
        "fields": {"strength": 4, "might": 2},
    }
    text = base64.urlsafe_b64encode(json.dumps(old).encode()).decode()
    assert parse_shared_character(text).entered == {"strength", "might"}
