"""Records declared once (ruleslab.records) and the character and conditions records."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ruleslab.character import Character, Conditions
from ruleslab.params import InputError, IntParam, checked
from ruleslab.records import Role, fields_of, record, record_params


def test_a_character_is_checked_against_each_fields_range():
    assert Character(strength=4).strength == 4
    with pytest.raises(InputError) as err:
        Character(strength=21)
    assert err.value.field == "strength"
    assert err.value.message == "Strength must be a whole number from 0 to 20 dots."
    with pytest.raises(InputError) as err:
        Conditions(daze="asleep")
    assert err.value.field == "daze"


def test_record_params_carry_the_dataclass_defaults():
    by_name = {p.name: p for p in record_params(Character)}
    assert by_name["strength"].default == 3
    assert by_name["mega_strength"].default == 0
    assert fields_of(Conditions)[:2] == ("load_kg", "sprinting")


def test_a_record_field_without_a_declaration_or_default_is_refused():
    with pytest.raises(TypeError):

        @record(IntParam("x", "X"))
        @dataclass(frozen=True)
        class NoDefault:
            x: int

    with pytest.raises(TypeError):

        @record(IntParam("y", "Y"))
        @dataclass(frozen=True)
        class Unknown:
            x: int = 0


A = Role("a", "Side A", Character, ("strength", "wits"), prefix="a_", label="A: ")
B = Role(
    "b",
    "Side B",
    Character,
    ("strength", "wits"),
    prefix="b_",
    label="B: ",
    names={"wits": "b_old_wits"},
    defaults={"strength": 5},
)


@checked(A, B)
def duel(a: Character | None = None, b: Character | None = None) -> tuple[int, int, int, int]:
    assert a is not None
    assert b is not None
    return a.strength, a.wits, b.strength, b.wits


def test_roles_expand_into_named_labelled_fields_with_the_roles_defaults():
    params = {p.name: p for p in duel.params}
    assert list(params) == ["a_strength", "a_wits", "b_strength", "b_old_wits"]
    assert params["a_strength"].label == "A: Strength"
    assert params["b_strength"].default == 5  # the role's default, not the record's 3
    assert params["a_strength"].default == 3


def test_a_role_takes_a_record_flat_fields_or_both():
    assert duel() == (3, 3, 5, 3)
    assert duel(a=Character(strength=2, wits=4)) == (2, 4, 5, 3)
    assert duel(a_strength=7, b_old_wits=1) == (7, 3, 5, 1)
    # a flat field changes that one field of the record passed
    assert duel(a=Character(strength=2, wits=4), a_wits=6) == (2, 6, 5, 3)
    # changing A never moves B
    assert duel(a_strength=9)[2:] == duel()[2:]


def test_role_fields_are_checked_by_their_declaration():
    with pytest.raises(InputError) as err:
        duel(a_strength=21)
    assert err.value.field == "a_strength"
    assert "A: Strength" in err.value.message
    with pytest.raises(InputError) as err:
        duel(a=Conditions())  # the wrong record
    assert err.value.field == "a"


def test_the_form_path_builds_the_records_without_checking_again():
    assert duel.unchecked(a_strength=4, a_wits=2, b_strength=1, b_old_wits=0) == (4, 2, 1, 0)


def test_a_role_naming_an_unknown_field_is_refused_at_import():
    with pytest.raises(TypeError):
        Role("x", "X", Character, ("agility",))
    with pytest.raises(InputError):
        Role("x", "X", Character, ("strength",), defaults={"strength": 99})


def test_a_role_may_relabel_a_field_and_show_it_under_its_own_condition():
    role = Role(
        "c",
        "C",
        Character,
        ("strength", "willpower"),
        labels={"willpower": "Willpower (2.1)"},
        shown_when_field={"willpower": ("ruleset", "2.1")},
    )
    strength, willpower = role.params
    assert (strength.label, strength.shown_when) == ("Strength", None)
    assert (willpower.label, willpower.shown_when) == ("Willpower (2.1)", ("ruleset", "2.1"))
