"""Autofire and strafing: the text's table, ammunition and targets (``ruleslab.autofire``),
and the Autofire & strafing calculator (``ruleslab.calculators.autofire``): its form,
figures, chart and messages."""

from fractions import Fraction

import pytest

from ruleslab.attack import resolve_attack
from ruleslab.autofire import BURSTS, autofire_maneuver, rounds_used
from ruleslab.calculators.autofire import CALCULATOR, TAGS, AutofireReport, autofire_and_strafing
from ruleslab.declare import Chart
from ruleslab.params import InputError
from ruleslab.weapons import AP, Burst, Guided, Weapon

P, Q = Fraction(4, 10), Fraction(6, 10)

FIGURE_KEYS = [
    "ammo_used",
    "difficulty",
    "p_hit",
    "expected_dice",
    "expected_levels",
    "p_wound",
    "p_any_hit",
    "pool",
]


@pytest.mark.parametrize(
    ("key", "accuracy", "damage", "shots"),
    [("short", 2, 1, 3), ("medium", 4, 2, 10), ("long", 6, 3, 20), ("sustained", 10, 5, 50)],
)
def test_the_texts_table(key, accuracy, damage, shots):
    # "Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition" …
    b = BURSTS[key]
    assert (b.accuracy, b.damage, b.shots) == (accuracy, damage, shots)


def test_rounds_used():
    assert rounds_used("none", 1)[0] == 1
    assert rounds_used("short", 1)[0] == 3
    assert rounds_used("sustained", 1)[0] == 50
    # a Burst(3) weapon: a single shot fires 3 rounds; a short burst is 3 bursts
    assert rounds_used("none", 3)[0] == 3
    assert rounds_used("short", 3)[0] == 9
    assert rounds_used("short", 3, "rounds")[0] == 3


def test_defaults_figures_and_hand_worked_hit():
    r = autofire_and_strafing()
    assert [f.key for f in r.figures()] == FIGURE_KEYS
    # Dex 3 + ability 2 + accuracy 1 + short burst 2 = 8 dice, difficulty 1
    assert r.figure("pool").value == 8
    assert r.p_hit == 1 - Q**8
    assert r.figure("ammo_used").text == "3 of 30 rounds"
    assert r.figure("difficulty").text == "1"
    assert sum(r.levels) == 1


def test_accuracy_choice_adds_dice():
    for key, b in BURSTS.items():
        r = autofire_and_strafing(burst=key, ammunition=50)
        assert r.attack.pool == 6 + b.accuracy


def test_damage_choice_adds_damage_adds_by_default():
    r = autofire_and_strafing(
        burst="medium", burst_use="damage", dexterity=1, ability=0, accuracy=0
    )
    # 1 die: a hit is 5 dice + [2] adds
    assert r.attack.damage_dice == ((5, 2, P),)
    assert "+[2] Damage = +2 damage adds" in r.explain()
    dice = autofire_and_strafing(
        burst="medium", burst_use="damage", dexterity=1, ability=0, accuracy=0, burst_damage="dice"
    )
    assert dice.attack.damage_dice == ((7, 0, P),)


def test_single_shot_has_no_bonus():
    r = autofire_and_strafing(burst="none")
    assert r.attack.pool == 6
    assert r.ammo_used == 1


def test_strafing_adds_one_difficulty_per_additional_target():
    r = autofire_and_strafing(burst="medium", targets=4)
    assert r.figure("difficulty").value == 1 + 3
    assert "Strafing 4 targets: +1 difficulty for each of the 3 additional targets" in (r.explain())
    assert r.figure("p_any_hit").label == "Chance to hit at least one of 4 targets"


def test_strafing_applies_one_roll_to_all_targets():
    # no dodge: every target is hit exactly when the one roll meets the difficulty
    r = autofire_and_strafing(burst="short", targets=3)
    assert r.attack.p_any_hit == r.p_hit == r.attack.p_hit
    dodged = autofire_and_strafing(burst="short", targets=3, dodge_pool=2)
    assert dodged.attack.p_any_hit > dodged.p_hit


def test_more_targets_than_rounds_is_an_error():
    # "A single attack may not target more enemies than it uses rounds of ammunition"
    with pytest.raises(InputError) as err:
        autofire_and_strafing(burst="short", targets=4)
    assert err.value.field == "targets"
    assert "Targets (strafing)" in err.value.message
    assert "at most 3" in err.value.message
    with pytest.raises(InputError) as err:
        autofire_and_strafing(burst="none", targets=2)
    assert err.value.field == "targets"
    assert autofire_and_strafing(burst="short", targets=3).figure("difficulty").value == 3


def test_burst_weapon_single_shot_may_strafe():
    r = autofire_and_strafing(burst="none", tags="Burst(3)", targets=3)
    assert r.ammo_used == 3
    assert r.attack.pool == 6  # no burst bonus
    assert r.figure("difficulty").value == 3
    with pytest.raises(InputError) as err:
        autofire_and_strafing(burst="none", tags="Burst(3)", targets=4)
    assert err.value.field == "targets"


def test_burst_weapon_autofire_uses_bursts():
    r = autofire_and_strafing(burst="short", tags="Burst(3)")
    assert r.ammo_used == 9
    assert (
        autofire_and_strafing(burst="short", tags="Burst(3)", burst_weapon_ammo="rounds").ammo_used
        == 3
    )


def test_not_enough_ammunition_is_an_error():
    with pytest.raises(InputError) as err:
        autofire_and_strafing(burst="long", ammunition=19)
    assert err.value.field == "ammunition"
    assert "Ammunition available" in err.value.message
    assert "uses 20 rounds" in err.value.message
    assert autofire_and_strafing(burst="long", ammunition=20).ammo_used == 20
    with pytest.raises(InputError) as err:
        autofire_and_strafing(burst="none", ammunition=0)
    assert err.value.field == "ammunition"


def test_bad_tag_text_names_the_field():
    with pytest.raises(InputError) as err:
        autofire_and_strafing(tags="AP(2), Laser")
    assert err.value.field == "tags"
    assert err.value.message.startswith("Weapon tags")


@pytest.mark.parametrize(
    ("field", "value", "expect"),
    [
        ("dexterity", 11, "from 0 to 10"),
        ("dodge_pool", -1, "from 0 to 60"),
        ("base_difficulty", 0, "from 1 to 30"),
        ("targets", 0, "from 1 to 50"),
        ("dexterity", -1, "from 0 to 10"),
        ("burst", "huge", "one of"),
        ("burst_use", "both", "one of"),
        ("natural_soak", 61, "from 0 to 60"),
        ("ammunition", 10_001, "from 0 to 10,000"),
    ],
)
def test_bad_values_name_their_field(field, value, expect):
    with pytest.raises(InputError) as err:
        autofire_and_strafing(**{field: value})
    assert err.value.field == field
    assert expect in err.value.message


def test_tags_are_parsed_once_by_the_fields_parser():
    # the form parses the text; the calculator receives the tags, not the text
    tags = TAGS.parse("ap ( 2 ) ;guided")
    assert tags == (AP(2), Guided())
    values = {**CALCULATOR.defaults(), "tags": tags, "burst": "none"}
    r = CALCULATOR.run(values)
    assert r.attack.weapon.tags == (AP(2), Guided())
    assert "tags AP(2), Guided" in r.explain()


def test_tags_field_takes_parsed_tags_and_checks_them():
    assert TAGS.check((AP(2), Guided())) == (AP(2), Guided())
    assert autofire_and_strafing(tags=(Burst(3),)).ammo_used == 9
    with pytest.raises(InputError) as err:
        TAGS.check((AP(2), AP(3)))
    assert err.value.field == "tags"
    assert err.value.message == "Weapon tags: AP(X) is given twice."
    for bad in (5, ("AP(2)",)):
        with pytest.raises(InputError) as err:
            TAGS.check(bad)
        assert err.value.message == "Weapon tags must be text such as “AP(2), Burst(3), Guided”."


def test_tags_field_messages_start_with_its_label():
    with pytest.raises(InputError) as err:
        TAGS.parse("x" * 201)
    assert err.value.message == "Weapon tags is too long (at most 200 characters)."
    assert TAGS.describe_range() == "e.g. AP(2), Burst(3), Guided"


def test_chart_is_the_levels_highlighted_from_one():
    # one die, 1 damage die, no soak: 0 levels with 1 − 0.4·0.4, 1 level with 0.16
    r = autofire_and_strafing(
        dexterity=1, ability=0, accuracy=0, damage_dice=1, burst="none", natural_soak=0
    )
    chart = r.chart()
    assert isinstance(chart, Chart)
    assert chart.bars == (("0", 1 - 0.16), ("1", 0.16))
    assert chart.highlight_from == 1
    assert CALCULATOR.views[0].chart is AutofireReport.chart


def test_calculator_equals_the_attack_with_its_maneuver():
    weapon = Weapon(accuracy=1, damage_dice=6, damage_adds=1, tags=(AP(1), Guided()))
    man, used = autofire_maneuver(burst="medium", burst_use="accuracy", targets=2, ammunition=30)
    direct = resolve_attack(
        weapon=weapon,
        dexterity=3,
        ability=2,
        dodge_pool=2,
        range_penalty=2,
        natural_soak=2,
        armour_soak=2,
        maneuver=man,
    )
    r = autofire_and_strafing(
        damage_dice=6,
        damage_adds=1,
        tags="AP(1), Guided",
        burst="medium",
        targets=2,
        dodge_pool=2,
        range_penalty=2,
        natural_soak=2,
        armour_soak=2,
    )
    assert used == 10
    assert r.attack == direct
    assert r.figure("difficulty").value == 1 + 1 + 1  # base, strafing, range 2 − 1 (Guided)


def test_steps_name_the_texts_headings():
    r = autofire_and_strafing(burst="short", targets=2, tags="Guided", range_penalty=1)
    text = r.explain()
    for heading in (
        "Quick reference › Ranged Attack Maneuvers › Autofire",
        "Quick reference › Ranged Attack Maneuvers › Strafing",
        "Quick reference › Weapon Tags › Guided",
        "Quick reference › 2.0 Rules › Combat › Soak",
    ):
        assert heading in text


def test_levels_match_numpy_monte_carlo():
    np = pytest.importorskip("numpy")
    # medium burst for damage: 1 + 0 + 0 = 1 … use Dex 2 + ability 1 = 3 dice, +[2] adds;
    # 5 lethal dice, soak 3, dodge 1 die, 2 targets (difficulty 2)
    r = autofire_and_strafing(
        dexterity=2,
        ability=1,
        accuracy=0,
        damage_dice=5,
        burst="medium",
        burst_use="damage",
        targets=2,
        dodge_pool=1,
        natural_soak=3,
    )
    rng = np.random.default_rng(7)
    n = 200_000
    a = (rng.integers(1, 11, size=(n, 3)) >= 7).sum(axis=1)
    d = (rng.integers(1, 11, size=n) >= 7).astype(int)
    net = a - d
    hit = net >= 2
    dice = 5 + np.maximum(0, net - 2)
    left = np.maximum(0, dice - 3)
    rolled = ((rng.integers(1, 11, size=(n, 6)) >= 7) & (np.arange(6) < left[:, None])).sum(1)
    levels = np.where(hit, rolled + 2, 0)  # left ≥ 2 always here: adds apply
    for k in range(6):
        p = float(r.levels[k]) if k < len(r.levels) else 0.0
        assert abs((levels == k).mean() - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-4
