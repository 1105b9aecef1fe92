"""Compressed combat's sides as records (issue 19): one :class:`Side` declared once, two
roles. A record and the flat fields give the same fight; a field of one side never moves
the other side's; the form keeps every old field name, label and default."""

from dataclasses import fields

import pytest
from refusals import refusal

from ruleslab.alterations.compressed.pools import SideInput
from ruleslab.alterations.compressed.quantum_costs import PowerUse
from ruleslab.calculators.compressed import (
    CALCULATOR,
    SIDE_A,
    SIDE_B,
    SIDE_FIELDS,
    Side,
    compressed_combat,
)
from ruleslab.params import InputError

OFFICER = "Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5"
GANGBANGER = "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"
CAPTAIN = "Captain: Dex 3, Firearms 3, damage 6L, soak 3L, initiative 6, Quantum 10"

FIELDS = [p.name for p in SIDE_FIELDS]

# A value other than the role's default for every field of a side (a_*/b_* alike).
OTHER = {
    "combatants": CAPTAIN,
    "intent": "Hold the door",
    "position": 2,
    "cover": 1,
    "support": 3,
    "tangential": 2,
    "forcefield": 2,
    "forcefield_proper": True,
    "extras": 1,
    "henchmen": 5,
    "henchmen_situation": -1,
    "henchman_pool": 6,
    "henchman_soak": 3,
    "henchmen_share_power": True,
    "leader_charisma": 3,
    "leader_command": 1,
    "powers": "Flight, 1, maintenance",
    "incap": 8,
    "dead": 17,
}


def _outcome(r):
    """What a GM sees: every figure (value and text) and every step."""
    return [(f.key, f.value, f.text) for f in r.figures()], r.explain()


def test_every_field_of_a_side_has_another_value_here():
    assert set(OTHER) == set(FIELDS) == {f.name for f in fields(SideInput)} - {"label"}


def test_the_roles_keep_every_old_field_name_label_and_default():
    """Today's form (before the record): 18 fields a side (19 since issue 33), named and
    labelled per side."""
    old_labels = [
        "combatants",
        "intent",
        "superior position",
        "cover",
        "supporting power",
        "tangential power dots",
        "forcefield / ablative dots",
        "forcefield proper (not a suite power)",  # was "Side A: Forcefield proper (…)"
        "defensive extras",
        "henchmen",
        "henchmen limit adjustment",
        "henchman pool",
        "henchmen's soak",
        "henchmen share the leader's Quantum power",  # issue 33
        "leader's Charisma",
        "leader's Command",
        "Quantum powers used",
        "levels to Incapacitated",
        "levels to Dead",
    ]
    defaults = CALCULATOR.defaults()
    for role, letter, combatants, intent in (
        (SIDE_A, "a", OFFICER, "Arrest the gangbanger"),
        (SIDE_B, "b", GANGBANGER, "Get away with the stash"),
    ):
        params = role.params
        assert [p.name for p in params] == [f"{letter}_{f}" for f in FIELDS]
        side = f"Side {letter.upper()}"
        assert [p.label for p in params] == [f"{side} {label}" for label in old_labels]
        assert {f: defaults[f"{letter}_{f}"] for f in FIELDS} == {
            "combatants": combatants,  # the text the form shows, not its parse
            "intent": intent,
            "position": 0,
            "cover": 0,
            "support": 0,
            "tangential": 0,
            "forcefield": 0,
            "forcefield_proper": False,
            "extras": 0,
            "henchmen": 0,
            "henchmen_situation": 0,
            "henchman_pool": 4,
            "henchman_soak": 2,
            "henchmen_share_power": False,
            "leader_charisma": 2,
            "leader_command": 0,
            "powers": "",
            "incap": 7,
            "dead": 11,
        }
    assert [(g.title, g.names) for g in CALCULATOR.groups] == [
        ("Side A", SIDE_A.flat_names),
        ("Side B", SIDE_B.flat_names),
    ]


def test_records_and_flat_fields_give_the_same_fight():
    a = {**OTHER, "intent": "Take the stash", "cover": 2}
    b = {"combatants": GANGBANGER, "position": 1, "henchmen": 12, "henchman_soak": 1}
    flat = {f"a_{k}": v for k, v in a.items()} | {f"b_{k}": v for k, v in b.items()}
    by_records = compressed_combat(a=Side(**a), b=Side(**b))
    by_fields = compressed_combat(**flat)
    assert _outcome(by_records) == _outcome(by_fields)
    # both: a flat field changes that one field of the record
    mixed = compressed_combat(a=Side(**{**a, "cover": 0}), b=Side(**b), a_cover=2)
    assert _outcome(mixed) == _outcome(by_fields)
    # the record's parsed values (combatants, powers as records) are taken as well
    parsed = Side(**a)
    assert isinstance(parsed.powers[0], PowerUse)
    again = compressed_combat(a=Side(**{**a, "combatants": parsed.combatants}), b=Side(**b))
    assert _outcome(again) == _outcome(by_fields)


def test_the_defaults_are_the_roles_records():
    """Hand-worked (Compressed Combat: attribute + ability + damage − soak): the officer
    3 + 2 + 1 accuracy + 6 − the gangbanger's soak 1 = 11 dice; the gangbanger
    2 + 2 + 5 − 4 = 5 dice. Superior Position 2 adds +2d: 13 (under the cap, 2 × 11)."""
    officer = Side(combatants=OFFICER, intent="Arrest the gangbanger")
    gangbanger = Side(combatants=GANGBANGER, intent="Get away with the stash")
    r = compressed_combat()
    assert (r.figure("pool_a").value, r.figure("pool_b").value) == ((11, 0), (5, 0))
    assert _outcome(compressed_combat(a=officer, b=gangbanger)) == _outcome(r)
    placed = compressed_combat(a=Side(combatants=OFFICER, position=2))
    assert (placed.figure("pool_a").value, placed.figure("pool_b").value) == ((13, 0), (5, 0))


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(("mine", "other"), [(SIDE_A, SIDE_B), (SIDE_B, SIDE_A)])
def test_a_field_of_one_side_never_moves_the_others(field, mine, other):
    flat = {mine.flat_name(field): OTHER[field]}
    assert other.build(flat) == other.build({})
    changed = mine.build(flat)
    assert changed != mine.build({})
    assert changed.label == mine.title
    unchanged = [f for f in FIELDS if f != field]
    assert [getattr(changed, f) for f in unchanged] == [
        getattr(mine.build({}), f) for f in unchanged
    ]


def test_a_field_of_side_a_never_moves_side_b_in_the_result():
    """Side B's own values (its intent, its combatants' health thresholds) stay put while
    side A's change; side A's do change."""
    base = compressed_combat()
    for flat in ({"a_intent": "Hold the door"}, {"a_incap": 8, "a_dead": 17}):
        r = compressed_combat(**flat)
        assert r.side_b.intent == base.side_b.intent == "Get away with the stash"
        assert [(p.incap, p.dead) for p in r.side_b.pools] == [(7, 11)]
    assert compressed_combat(a_intent="Hold the door").side_a.intent == "Hold the door"
    assert [(p.incap, p.dead) for p in compressed_combat(a_incap=8, a_dead=17).side_a.pools] == [
        (8, 17)
    ]


def test_a_side_record_is_checked_and_names_its_field():
    err = refusal(Side, combatants=OFFICER, incap=0)
    assert err.field == "incap"
    with pytest.raises(InputError, match="at least one combatant"):
        Side()
    err = refusal(compressed_combat, a=GANGBANGER)
    assert err.field == "a"
    # across fields, the role's form field is named, as the form's message did
    err = refusal(compressed_combat, b=Side(combatants=GANGBANGER, incap=9, dead=8))
    assert err.field == "b_incap"
    assert err.message == ("Side B levels to Incapacitated must not be more than levels to Dead.")


def test_the_role_sets_the_sides_label():
    r = compressed_combat(a=Side(combatants=OFFICER, label="Cops"))
    assert r.side_a.label == "Side A"
    assert r.figure("pool_a").label == "Side A's pool"
