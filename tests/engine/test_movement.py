"""Movement (key ``movement``): the text's speed formulas, encumbrance penalties and the
walking floor."""

import pytest

from ruleslab.calculators.movement import movement
from ruleslab.params import InputError
from ruleslab.quickref.mega import MEGA_ATTRIBUTES
from ruleslab.quickref.movement import SPRINT_LIMITS

FIGURE_KEYS = ["walking", "running", "sprinting", "tier", "effects"]


def move(strength, dexterity, athletics, load_kg, **kw):
    """movement() of a mover of no Might and no Mega-attributes unless ``kw`` gives them."""
    kw = {"might": 0, "mega_strength": 0, "mega_dexterity": 0, **kw}
    return movement(
        strength=strength, dexterity=dexterity, athletics=athletics, load_kg=load_kg, **kw
    )


def speeds(r):
    return r.walking, r.running, r.sprinting


def test_formulas_unencumbered():
    # Walking Str + Dex; Running 5 + 2 Dex + Str; Sprinting 5 + Ath + 3 Dex + Str.
    r = move(3, 2, 4, 0)
    assert speeds(r) == (5, 12, 18)
    assert r.figure("walking").text == "5 m/round"
    assert r.figure("tier").text == "Unencumbered"
    assert "Walking = Str 3 + Dex 2 = 5 m/round" in r.explain()
    assert "Running = 5 + 2 × Dex 2 + Str 3 = 12 m/round" in r.explain()
    assert "Sprinting = 5 + Athletics 4 + 3 × Dex 2 + Str 3 = 18 m/round" in r.explain()


def test_sprint_limits_are_effects():
    r = move(3, 2, 4, 0)
    assert any(SPRINT_LIMITS in e for e in r.effects)
    assert "defensive maneuvers" in r.figure("effects").text
    assert "+1 difficulty" in r.figure("effects").text


def test_zero_attributes():
    r = move(0, 0, 0, 0)
    assert speeds(r) == (0, 5, 5)


def test_figure_keys_in_order():
    r = move(3, 3, 2, 0)
    assert [f.key for f in r.figures()] == FIGURE_KEYS


def test_mega_attributes_count_two_dots():
    # Str 3 + 2×1 = 5, Dex 2 + 2×2 = 6.
    r = movement(
        strength=3, dexterity=2, athletics=1, might=0, mega_strength=1, mega_dexterity=2, load_kg=0
    )
    assert speeds(r) == (11, 5 + 12 + 5, 5 + 1 + 18 + 5)
    mega_steps = [s for s in r.steps if s.rule == MEGA_ATTRIBUTES]
    assert len(mega_steps) == 2
    assert "Strength 3 + 2 × Mega-Strength 1 = 5" in mega_steps[0].text
    assert "Dexterity 2 + 2 × Mega-Dexterity 2 = 6" in mega_steps[1].text


def test_no_mega_step_without_mega_dots():
    r = move(3, 2, 1, 0)
    assert not [s for s in r.steps if s.rule == MEGA_ATTRIBUTES]


def test_light_encumbrance_takes_one_dexterity():
    # Str 3 + Might 0: light is over 15 kg up to 30 kg.
    r = move(3, 3, 2, 20)
    assert r.figure("tier").text == "Light"
    assert r.dexterity_for_movement == 2
    assert r.strength_for_movement == 3
    assert speeds(r) == (5, 5 + 4 + 3, 5 + 2 + 6 + 3)


def test_moderate_takes_one_strength_and_dexterity():
    r = move(3, 3, 2, 40)
    assert r.figure("tier").text == "Moderate"
    assert speeds(r) == (4, 5 + 4 + 2, 5 + 2 + 6 + 2)
    assert "+1 difficulty" in r.figure("effects").text


def test_heavy_forbids_running_and_sprinting():
    r = move(4, 4, 2, 70)  # 70 kg > 15 × 4 = 60 kg
    assert r.figure("tier").text == "Heavy"
    assert r.walking == 4  # (4−2) + (4−2)
    assert r.running is None
    assert r.sprinting is None
    assert r.figure("running").text == "Not allowed (heavy)"
    assert r.figure("sprinting").text == "Not allowed (heavy)"
    assert "may not run or sprint" in r.figure("effects").text
    assert SPRINT_LIMITS not in r.figure("effects").text


def test_walking_floor_holds_at_three():
    # Str 3 Dex 1 heavy (50 kg > 45 kg): (3−2) + max(0, 1−2) = 1 → floor 3.
    r = move(3, 1, 0, 50)
    assert r.walking == 3
    assert "may not reduce Walking below 3 m/round" in r.explain()


def test_walking_floor_never_raises_above_unencumbered():
    # Str 1 Dex 1: unencumbered Walking 2; moderate takes both to 0 → floor min(3, 2) = 2.
    r = move(1, 1, 0, 12)
    assert r.figure("tier").text == "Moderate"
    assert r.walking == 2


def test_walking_floor_dexterity_only_option():
    # Str 3 Dex 1 heavy: Strength penalty in full → 1 + 1 = 2 before Dex; Dex penalty may
    # not push below min(3, 2) = 2 → 2 (the whole-penalty reading gives 3).
    whole = move(3, 1, 0, 50)
    dex_only = move(3, 1, 0, 50, walking_floor="dexterity")
    assert whole.walking == 3
    assert dex_only.walking == 2
    # Str 1 Dex 3 heavy: Str 0 + Dex 3 = 3 before Dex penalty → floor 3 under both.
    assert move(1, 3, 0, 20, walking_floor="dexterity").walking == 3


def test_floor_does_not_touch_running():
    r = move(1, 1, 0, 12)  # moderate: Str 0, Dex 0 for movement
    assert r.running == 5
    assert r.sprinting == 5


def test_over_capacity_cannot_move():
    r = move(2, 2, 2, 61)  # lift capacity 60 kg
    assert r.figure("tier").text == "Over capacity"
    assert speeds(r) == (None, None, None)
    assert r.figure("walking").text.startswith("Cannot move")


def test_beyond_heavy_option_passes_through():
    r = move(2, 2, 2, 50, beyond_heavy="immobile")  # 25 kg per dot
    assert r.walking is None


def test_mega_strength_multiplies_encumbrance_thresholds():
    # Str 2 M-Str 1: thresholds × 10 → 100 kg is still unencumbered (5 × 2 × 10).
    r = move(2, 2, 0, 100, mega_strength=1)
    assert r.figure("tier").text == "Unencumbered"
    assert r.walking == 2 + 2 + 2


def test_bad_input_names_the_field():
    with pytest.raises(InputError) as err:
        move(3, 11, 0, 0)
    assert err.value.field == "dexterity"
    assert "Dexterity" in err.value.message
    assert "0 to 10" in err.value.message
    with pytest.raises(InputError) as err:
        move(3, 3, 0, -1)
    assert err.value.field == "load_kg"
    with pytest.raises(InputError) as err:
        move(3, 3, 0, 0, walking_floor="none")
    assert err.value.field == "walking_floor"


def test_defaults_are_the_forms():
    # Str 3, Dex 3, Athletics 2, a 20 kg load: light (over 15 kg, up to 30 kg), Dex 2 for
    # movement → Walking 5, Running 5 + 4 + 3 = 12, Sprinting 5 + 2 + 6 + 3 = 16.
    r = movement()
    assert r == move(3, 3, 2, 20.0)
    assert speeds(r) == (5, 12, 16)
    assert r.figure("tier").text == "Light"


def test_the_load_prints_the_weight_its_tier_used():
    # (issue 11, defect 6) Before: "Load 15 kg: over 15 kg (5 kg per dot) …" for 15.002 kg:
    # Str 3 + Might 0 is unencumbered up to 15 kg, lightly encumbered over it.
    r = move(3, 3, 2, 15.002)
    assert r.encumbrance.tier == "light"
    assert r.walking == 3 + 3 - 1
    assert "Load 15.002 kg: over 15 kg (5 kg per dot), up to 30 kg (10 kg per dot) → Light" in (
        r.explain()
    )
    r = move(3, 3, 2, 14.998)
    assert r.encumbrance.tier == "unencumbered"
    assert "Load 14.998 kg: up to 15 kg (5 kg per dot) → Unencumbered" in r.explain()


# --- the text's statements, one test each (issue 10, item 5) ---------------------------------


def test_text_formulas_over_every_dot():
    # "Walking: (Strength + Dexterity) meters/round. Running: (5 + [Dexterity * 2] +
    # Strength) meters/round. Sprinting: (5 + [Athletics] + [Dexterity * 3] + [Strength])
    # meters/round." Unencumbered (no load), every Strength and Dexterity 0–10, Athletics 0–5.
    for strength in range(11):
        for dexterity in range(11):
            for athletics in range(6):
                r = move(strength, dexterity, athletics, 0)
                assert speeds(r) == (
                    strength + dexterity,
                    5 + dexterity * 2 + strength,
                    5 + athletics + dexterity * 3 + strength,
                ), (strength, dexterity, athletics)


def test_text_sprinting_limits():
    # "Sprinting characters may not take any actions during the turn except defensive
    # maneuvers, and are at +1 difficulty to all defensive maneuvers they take."
    text = move(3, 3, 2, 0).figure("effects").text
    assert "no actions that turn except defensive maneuvers" in text
    assert "+1 difficulty to every defensive maneuver taken" in text


# --- the mover's load, read from his Conditions (issue 19) -------------------------------
# Worked by hand from the text. Str 3, Dex 3, Athletics 2: Walking 3 + 3 = 6, Running
# 5 + 2 × 3 + 3 = 14, Sprinting 5 + 2 + 3 × 3 + 3 = 19. Str 3 + Might 0 = 3 dots: 40 kg is
# Moderate (over 10 × 3 = 30, up to 15 × 3 = 45): "subtracts 1 from Strength and Dexterity
# for effective movement speeds": Walking 2 + 2 = 4, Running 5 + 4 + 2 = 11, Sprinting
# 5 + 2 + 6 + 2 = 15. 60 kg is Heavy: Str 1, Dex 1: Walking 2 → the 3 m/round floor,
# and "may not run or sprint".


@pytest.mark.parametrize(
    ("load_kg", "expected"),
    [(0, (6, 14, 19)), (40, (4, 11, 15)), (60, (3, None, None))],
)
def test_the_load_is_read_from_the_conditions(load_kg, expected):
    from ruleslab.character import Character, Conditions

    r = movement(
        mover=Character(strength=3, dexterity=3, athletics=2),
        conditions=Conditions(load_kg=load_kg),
    )
    assert speeds(r) == expected


def test_no_other_condition_changes_a_speed():
    # Movement makes no roll: sprinting's limits are listed as effects, a daze adds
    # difficulty to rolls only; the speeds are those of the load alone.
    from ruleslab.character import Conditions

    plain = movement(conditions=Conditions(load_kg=40))
    assert movement(conditions=Conditions(load_kg=40, sprinting=True)) == plain
    # a condition it cannot apply is refused, not dropped (issue 33)
    from ruleslab.params import InputError

    with pytest.raises(InputError, match="does not apply it"):
        movement(conditions=Conditions(load_kg=40, daze="stunned", actions=3))


def test_a_character_record_and_flat_fields_give_the_same_report():
    from ruleslab.character import Character, Conditions

    by_record = movement(
        mover=Character(strength=4, dexterity=2, athletics=3, might=1, mega_dexterity=1),
        conditions=Conditions(load_kg=50),
    )
    by_fields = movement(
        strength=4, dexterity=2, athletics=3, might=1, mega_dexterity=1, load_kg=50
    )
    assert by_record == by_fields
    mixed = movement(
        mover=Character(strength=1, dexterity=2, athletics=3, might=1, mega_dexterity=1),
        strength=4,
        load_kg=50,
    )
    assert mixed == by_record
    # the form's default load stays 20 kg (a Conditions record's own default is 0)
    assert movement() == movement(conditions=Conditions(load_kg=20))


def test_the_form_keeps_its_field_names():
    from ruleslab.calculators.movement import CALCULATOR

    assert [p.name for p in CALCULATOR.params] == [
        "strength",
        "dexterity",
        "athletics",
        "might",
        "mega_strength",
        "mega_dexterity",
        "load_kg",
        "walking_floor",
        "heavy_from",
        "beyond_heavy",
    ]
