"""Weapon tags: the parser, its messages, and the Weapon data."""

import pytest
from helpers_autofire import refusal

from ruleslab.params import InputError
from ruleslab.quickref.weapons import (
    AA,
    AP,
    Area,
    Burst,
    Devastating,
    FastTracking,
    Guided,
    Scale,
    Weapon,
    check_tags,
    format_tags,
    parse_tags,
    tag_rule,
)


def test_the_briefs_example():
    assert parse_tags("AP(2), Burst(3), Guided") == (AP(2), Burst(3), Guided())


def test_every_tag_as_the_text_writes_it():
    text = "AA, AP(2), Area(3), Burst(3), Devastating (5 [2]), Guided, Scale [2], Fast-Tracking [1]"
    assert parse_tags(text) == (
        AA(),
        AP(2),
        Area(3),
        Burst(3),
        Devastating(5, 2),
        Guided(),
        Scale(2),
        FastTracking(1),
    )


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("ap(2)", AP(2)),
        ("AP [2]", AP(2)),
        ("  AP ( 2 )  ", AP(2)),
        ("Armor Piercing(4)", AP(4)),
        ("Devastating(5)", Devastating(5)),
        ("devastating(5[2])", Devastating(5, 2)),
        ("Scale 3", Scale(3)),
        ("Fast-Tracking Weapons [2]", FastTracking(2)),
        ("fasttracking(2)", FastTracking(2)),
        ("guided", Guided()),
    ],
)
def test_spellings(text, tag):
    assert parse_tags(text) == (tag,)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("Devastating ( 5 [ 2 ] )", Devastating(5, 2)),
        ("Devastating([2]]", None),  # a bracket with adds and no damage: "needs a number"
        ("Scale2", Scale(2)),
        ("Fast - Tracking [1]", FastTracking(1)),
        ("Fast Tracking\t(1)", FastTracking(1)),
        ("AP[2)", AP(2)),
        ("Area (3] ", Area(3)),
    ],
)
def test_brackets_and_spaces(text, tag):
    # the bracket's language, read by one pass over the text (issue 11) as by the old pattern
    if tag is None:
        with pytest.raises(InputError, match="needs a number"):
            parse_tags(text)
    else:
        assert parse_tags(text) == (tag,)


@pytest.mark.parametrize(
    "text", ["AP(2) x", "AP (2 2)", "AP(2]]", "AP([2", "Scale 2 2", "Devastating(5 [2] [1])"]
)
def test_a_number_it_cannot_read(text):
    with pytest.raises(InputError, match="needs a whole number from 1 to 100"):
        parse_tags(text)


def test_empty_and_separators():
    assert parse_tags("") == ()
    assert parse_tags("  ,  ; ") == ()
    assert parse_tags("Guided; AA") == (Guided(), AA())


def test_format_round_trips():
    tags = parse_tags("AA, AP(2), Area(3), Burst(3), Devastating (5 [2]), Guided, Scale 2")
    assert format_tags(tags) == (
        "AA, AP(2), Area(3), Burst(3), Devastating (5 [2]), Guided, Scale [2]"
    )
    assert parse_tags(format_tags(tags)) == tags
    assert format_tags(()) == "none"


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("Foo", "is not a weapon tag"),
        ("AP(2), Laser", "is not a weapon tag"),
        ("AP", "needs a number"),
        ("Burst()", "needs a number"),
        ("Guided(2)", "takes no number"),
        ("AA 1", "takes no number"),
        ("AP(0)", "from 1 to 100"),
        ("Area(101)", "from 1 to 100"),
        ("Devastating(5 [0])", "from 1 to 100"),
        ("AP(2), ap(3)", "given twice"),
        ("Burst(3 [1])", "only Devastating"),
        ("AP(-2)", "whole number from 1 to 100, written like AP(2)"),
        ("AP(2.5)", "whole number from 1 to 100"),
        ("Guided!", "is not a weapon tag"),
        ("x" * 201, "too long"),
    ],
)
def test_bad_tag_text_names_the_field(text, expect):
    err = refusal(parse_tags, text, field="tags", label="Weapon tags")
    assert err.field == "tags"
    assert err.message.startswith("Weapon tags")
    assert expect in err.message


def test_unknown_tag_message_lists_the_known_tags():
    message = refusal(parse_tags, "Flaming(2)").message
    assert "AP(X)" in message
    assert "Fast-Tracking[X]" in message


def test_long_typed_text_is_shortened_in_the_message():
    message = refusal(parse_tags, "Quite a long made up tag name here").message
    assert "…" in message
    assert "here" not in message


def test_tags_given_as_data_are_checked_like_text():
    assert check_tags((AP(2), Guided())) == (AP(2), Guided())
    assert check_tags(()) == ()
    assert check_tags((Devastating(5),)) == (Devastating(5),)


@pytest.mark.parametrize(
    ("tags", "expect"),
    [
        ((AP(2), AP(3)), "Weapon tags: AP(X) is given twice."),
        ((AP(0),), "Weapon tags: the number of AP(X) must be from 1 to 100."),
        ((Area(101),), "Weapon tags: the number of Area(X) must be from 1 to 100."),
        (
            (Devastating(5, 101),),
            "Weapon tags: the number of Devastating (X) must be from 1 to 100.",
        ),
        (
            (AP(-2),),
            "Weapon tags: AP(X) needs a whole number from 1 to 100, written like AP(2).",
        ),
        (
            (Burst(True),),
            "Weapon tags: Burst(X) needs a whole number from 1 to 100, written like Burst(3).",
        ),
        (("AP(2)",), "Weapon tags must be text such as “AP(2), Burst(3), Guided”."),
        ([AP(2)], "Weapon tags must be text such as “AP(2), Burst(3), Guided”."),
    ],
)
def test_bad_tags_given_as_data(tags, expect):
    # the messages parse_tags gives for the same tags typed (AP(-2) cannot be typed as a number)
    err = refusal(check_tags, tags)
    assert err.field == "tags"
    assert err.message == expect


def test_typed_and_data_messages_agree():
    for text, tags in [("AP(2), AP(3)", (AP(2), AP(3))), ("Scale [0]", (Scale(0),))]:
        assert refusal(parse_tags, text).message == refusal(check_tags, tags).message


def test_weapon_data():
    w = Weapon(
        name="SMG",
        accuracy=1,
        damage_dice=5,
        damage_adds=2,
        damage_type="lethal",
        rate="3/1",
        tags=parse_tags("AP(2), Burst(3), Guided"),
    )
    assert w.rounds_per_attack == 3
    assert w.armour_piercing == 2
    assert w.has(Guided)
    assert not w.has(AA)
    assert w.tag(Burst) == Burst(3)
    assert w.damage_text == "5 [2] lethal"
    assert Weapon(damage_dice=4).rounds_per_attack == 1
    assert Weapon(damage_dice=4).armour_piercing == 0


def test_weapon_accepts_tag_text():
    assert Weapon(tags="AP(1), Guided").tags == (AP(1), Guided())


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"damage_type": "fire"}, "damage_type"),
        ({"damage_dice": -1}, "damage_dice"),
        ({"damage_adds": 1.5}, "damage_adds"),
        ({"accuracy": "2"}, "accuracy"),
        ({"ammo_per_attack": 0}, "ammo_per_attack"),
        ({"ammo_per_attack": 2, "tags": (Burst(3),)}, "ammo_per_attack"),
        ({"tags": "AP(2), AP(2)"}, "tags"),
    ],
)
def test_bad_weapons(kwargs, field):
    assert refusal(Weapon, **kwargs).field == field


def test_burst_weapon_may_state_its_rounds():
    assert Weapon(ammo_per_attack=3, tags=(Burst(3),)).rounds_per_attack == 3


def test_tag_rules_name_the_texts_headings():
    assert tag_rule(AP(2)) == "Quick reference › Weapon Tags › AP(X)"
    assert tag_rule(Devastating) == "Quick reference › Weapon Tags › Devastating (X)"
    assert tag_rule(FastTracking) == "Quick reference › Weapon Tags › Fast-Tracking Weapons [X]"
