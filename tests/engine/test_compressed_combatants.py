"""Compressed combat's combatants (:mod:`ruleslab.alterations.compressed.combatants`): the line
format, its error messages naming the field and line, and the 2.0 track's thresholds."""

import pytest
from refusals import refusal

from ruleslab.alterations.compressed.combatants import parse_combatants, parse_power_text
from ruleslab.alterations.compressed.thresholds import thresholds, thresholds_20
from ruleslab.params import InputError, TextParam
from ruleslab.ruleset import V20, V21

OFFICER = "Police officer: Dex 3, Firearms 2 + 1 accuracy, damage 6L, soak 4L, initiative 5"
FIELD = TextParam("a_combatants", "Side A combatants")
"""A field as the form gives it to the parser: its name and label (for the messages)."""


def parse(text):
    return parse_combatants(text, FIELD)


def test_thresholds_from_a_20_track():
    # Str 2, Sta 2: 6 normal levels, Incap (the 7th), 4 Dying → dead at 11
    assert thresholds_20(strength=2, stamina=2) == (7, 11)
    assert thresholds_20(strength=2, stamina=3) == (8, 13)
    (c,) = parse("Cop: Dex 3, Firearms 2, track Str 2 Sta 3")
    assert dict(c.track) == {"strength": 2, "stamina": 3}


# --- the line format ------------------------------------------------------------------


def test_forgiving_line_format():
    (c,) = parse("  Dex: 3; 2 Firearms; acc=1; dmg 6L; init 5 ")
    assert (c.name, c.attribute, c.attribute_dots, c.ability, c.ability_dots) == (
        "Combatant 1",
        "Dexterity",
        3,
        "Firearms",
        2,
    )
    assert (c.accuracy, c.damage, c.damage_type, c.initiative) == (1, 6, "L", 5)
    c1, c2 = parse("# comment\n\nA: Strength 2, M-Str 1, Might 3\nB: mega dex 1, Athletics 2")
    assert (c1.attribute, c1.mega, c1.ability) == ("Strength", 1, "Might")
    assert (c2.attribute, c2.mega, c2.attribute_value) == ("Dexterity", 1, 2)
    described = parse(OFFICER)[0].describe()
    assert "Police officer: Dex 3 + Firearms 2 + accuracy 1 + damage 6L" in described


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("", "at least one combatant"),
        ("Cop: Dex three", "line 1: “Dex three” is not “name number”"),
        ("Cop: Dex 11, Firearms 2", "attribute must be a whole number from 0 to 10"),
        ("Cop: Dex 3, Firearms 2, Brawl 2", "the ability is already Firearms"),
        ("Cop: Dex 3, Str 2", "the attribute is already Dexterity"),
        ("Cop: Dex 3, damage 6, damage 4", "damage is given twice"),
        ("Cop: Dex 3, accuracy -1", "from 0 to 10"),
        ("Cop: Dex 3, Mega-Str 1", "must be the attack's attribute"),
        ("Cop: Dex 3, formula sum", "needs the enemy's resistance pool"),
        ("Cop: Dex 3, resist 3, formula triple", "“formula 2x” or “formula sum”"),
        ("Cop: Dex 3, incap 9, dead 4", "incap must not be more than dead"),
        ("Cop: Dex 3, track Str 2", "needs Stamina"),
        ("Cop: Dex 3, track Str 2 Sta 3, incap 4", "either a track or incap/dead"),
        ("Cop: Dex 3, initiative 4A", "only damage and soak take a type letter"),
        ("Cop: soak 3", "no attack given"),
        ("A: Dex 1\nA: Dex 2", "line 2: the name “A” is used twice"),
        ("\n".join(f"C{i}: Dex 1" for i in range(9)), "at most 8 combatants"),
    ],
)
def test_bad_lines_name_the_field_and_line(text, expect):
    err = refusal(parse, text)
    assert err.field == "a_combatants"
    assert "Side A combatants" in err.message
    assert expect in err.message


# --- the line format, read in linear time (issue 11) ------------------------------------


def test_the_track_that_froze_the_page_is_refused_at_once():
    # the old pattern backtracked exponentially: minutes for 30 groups, the limit allows 500
    for groups in (30, 495):
        with pytest.raises(InputError, match=r"write the 2\.0 track as"):
            parse("X: Dex 3, track " + "a 1 " * groups + "!")


@pytest.mark.parametrize(
    ("track", "expected"),
    [
        ("track Str 2 Sta 3", {"strength": 2, "stamina": 3}),
        ("track str2sta3", {"strength": 2, "stamina": 3}),
        ("track Sta 3, ", {"stamina": 3, "strength": 0}),
        (
            "track Mega Sta 1 Sta 2 M-Str 1",
            {"mega_stamina": 1, "stamina": 2, "mega_strength": 1, "strength": 0},
        ),
        (
            "track sta 4 q 2 armour 1 str 1",
            {"stamina": 4, "quantum": 2, "armour_levels": 1, "strength": 1},
        ),
        # the 2.1 track takes Willpower and Resistance too (issue 10)
        (
            "track Str 2 Sta 3 Will 5 Res 1",
            {"strength": 2, "stamina": 3, "willpower": 5, "resistance": 1},
        ),
        ("track sta 2 willpower 4", {"stamina": 2, "willpower": 4, "strength": 0}),
        (
            "track wp 3 sta 1 resistance 0",
            {"willpower": 3, "stamina": 1, "resistance": 0, "strength": 0},
        ),
    ],
)
def test_track_spellings(track, expected):
    (c,) = parse(f"Cop: Dex 3, {track}")
    assert dict(c.track) == expected


@pytest.mark.parametrize(
    "track", ["track", "track 3", "track sta 3 2", "track sta", "track sta 3 !", "track stå 3"]
)
def test_track_without_names_and_numbers(track):
    with pytest.raises(InputError, match=r"write the 2\.0 track as"):
        parse(f"Cop: Dex 3, {track}")


@pytest.mark.parametrize(
    ("item", "field", "value"),
    [
        ("Dex : 3", "attribute_dots", 3),
        ("dex=3", "attribute_dots", 3),
        ("Dex 3 ", "attribute_dots", 3),
        ("damage: 6 L", "damage_type", "L"),
        ("6 l damage", "damage_type", "L"),
        ("6L weapon damage", "damage", 6),
        ("+2 accuracy", "accuracy", 2),
        ("accuracy +2", "accuracy", 2),
        ("2 l brawl", None, "only damage and soak take a type letter"),
        ("Dex 3 4", None, "is not “name number”"),
        ("dex = : 3", None, "is not “name number”"),
        ("3", None, "has a number but no name"),
        ("6 l", None, "has a number but no name"),
    ],
)
def test_item_spellings(item, field, value):
    if field is None:
        with pytest.raises(InputError, match=value):
            parse(f"Cop: Brawl 1, {item}")
    else:
        (c,) = parse(f"Cop: Brawl 1, {item}")
        assert getattr(c, field) == value


# --- Quantum powers used ------------------------------------------------------------------

POWERS = TextParam("a_powers", "Side A Quantum powers used")


@pytest.mark.parametrize("cost", ["²", "①", "٣", "３", "1.5", "-1", "51", "1" * 60])
def test_a_power_cost_is_written_in_the_digits_0_to_9(cost):
    # "²".isdigit() is true but int("²") fails: was a ValueError traceback
    err = refusal(parse_power_text, f"Flight, {cost}, instant", POWERS)
    assert err.field == "a_powers"
    assert err.message == (
        "Side A Quantum powers used, line 1: the cost must be a whole number from 0 to 50."
    )


def test_power_costs_with_leading_zeros():
    (use,) = parse_power_text("Nova: Flight, 0050, maint", POWERS)
    assert (use.who, use.power, use.cost, use.kind, use.spent) == (
        "Nova",
        "Flight",
        50,
        "maintenance",
        100,
    )
    assert parse_power_text("Flight, " + "0" * 1000 + ", instant", POWERS)[0].cost == 0


# --- the 2.1 track (issue 10) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("track", "expect"),
    [
        ("track Sta 3 Will 0", "track will must be from 1 to 10"),
        ("track Sta 3 Will 11", "track will must be from 1 to 10"),
        ("track Sta 3 Res 11", "track res must be from 0 to 10"),
        ("track Sta 3 Will 2 wp 3", "track wp is given twice"),
    ],
)
def test_track_willpower_and_resistance_ranges(track, expect):
    with pytest.raises(InputError, match=expect):
        parse(f"Cop: Dex 3, {track}")


def test_thresholds_from_a_21_track():
    # "Characters have (Willpower + [Stamina * 2] + [Mega-Stamina * 6] + Quantum) health
    # levels. […] Past that, a character has an additional (Stamina) Incapacitated levels,
    # and Dying health levels equivalent to (Strength + Stamina) * 2."
    # Str 2, Sta 3, Will 5: 5 + 6 = 11 levels; Incapacitated when the 12th (the first of 3
    # Incap levels) is filled; 11 + 3 + (2 + 3) × 2 = 24 levels in all → dead at 24.
    assert thresholds(V21, strength=2, stamina=3, willpower=5) == (12, 24)
    # Resistance only moves the wound penalties: the thresholds stay
    assert thresholds(V21, strength=2, stamina=3, willpower=5, resistance=4) == (12, 24)
    # Mega-Stamina 1 (+6 levels), Quantum 2 (+2), armour 1 (+1, a −0 level):
    # 5 + 6 + 6 + 2 + 1 = 20 levels; Incap at 21; 20 + 3 + 10 = 33
    assert thresholds(
        V21, strength=2, stamina=3, willpower=5, mega_stamina=1, quantum=2, armour_levels=1
    ) == (21, 33)
    # Str 0, Sta 1, Will 1: 1 + 2 = 3 levels, Incap at 4, 3 + 1 + 2 = 6
    assert thresholds(V21, strength=0, stamina=1, willpower=1) == (4, 6)
    # 2.0 ignores Willpower and Resistance: Str 2, Sta 3 → (8, 13) as thresholds_20
    assert thresholds(V20, strength=2, stamina=3, willpower=5, resistance=4) == (8, 13)


def test_the_21_track_needs_willpower():
    with pytest.raises(ValueError, match="Willpower"):
        thresholds(V21, strength=2, stamina=3)
