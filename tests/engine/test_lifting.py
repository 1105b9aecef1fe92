"""Lifting & encumbrance (key ``lifting``): capacity, multipliers and the lift roll,
from the text's own numbers, and the calculator combining the lift with the carried load."""

import math
from fractions import Fraction

import pytest
from dice_oracle import at_least
from printed_working import NUMBER, check_all, number

from ruleslab.calculators.lifting import lifting_and_encumbrance
from ruleslab.params import InputError
from ruleslab.quickref.encumbrance import TIER_EFFECTS, mega_strength_multiplier
from ruleslab.quickref.lifting import lift

FIGURE_KEYS = ["capacity", "tier", "effects", "roll_needed", "difficulty", "p_lift"]


@pytest.mark.parametrize(
    ("dots", "mult"),
    [(0, 1), (1, 10), (2, 100), (3, 250), (4, 500), (5, 1000), (6, 10_000), (7, 100_000)],
)
def test_mega_strength_multipliers(dots, mult):
    # "10/100/250/500/1000 at M-Str 1-5 … an additional 10 per dot" beyond 5.
    assert mega_strength_multiplier(dots) == mult


def test_capacity_str3_might1():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=0)
    assert r.figure("capacity").value == 120
    assert r.figure("capacity").text == "120 kg"
    assert "Lift capacity = 30 kg × (Str 3 + Might 1) = 120 kg" in r.explain()


def test_capacity_with_mega_strength_2():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=2, load_kg=0, object_kg=0)
    assert r.capacity_kg == 12_000
    assert r.figure("capacity").text == "12\u202f000 kg"


def test_text_example_450kg_needs_15_difficulty_6():
    # "a 450kg object, requiring Str/Might 15, has difficulty … 6.5, rounded to 6"
    r = lift(7, 7, 0, 450)
    assert r.needed == 15
    assert r.difficulty == 6
    assert r.requirement == "success"
    assert "⌊15 ÷ 2 − 1⌋ = ⌊6.5⌋ = 6" in r.explain()


def test_no_roll_at_capacity():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=120)
    assert r.figure("roll_needed").text == "No"
    assert r.figure("difficulty").text == "—"
    assert r.p_lift == 1
    assert r.figure("p_lift").text == "100 %"


def test_one_over_needs_a_success_small_pool():
    # Str 2 + Might 0 = 2 dice; 90 kg needs 3 → difficulty ⌊0.5⌋ = 0 → raised to 1.
    r = lifting_and_encumbrance(strength=2, might=0, mega_strength=0, load_kg=0, object_kg=90)
    assert r.figure("roll_needed").text == "Yes"
    assert r.figure("difficulty").text == "1"
    assert r.p_lift == 1 - Fraction(6, 10) ** 2 == Fraction(16, 25)


def test_one_over_matches_binomial_by_hand():
    # Str 3 + Might 2 = 5 dice, 180 kg needs 6 → difficulty ⌊2⌋ = 2.
    r = lift(3, 2, 0, 180)
    q, p = Fraction(6, 10), Fraction(4, 10)
    assert r.difficulty == 2
    assert r.p_lift == 1 - q**5 - 5 * p * q**4


def test_two_over_needs_exceptional_beyond_difficulty():
    # 13 dice, 450 kg needs 15 = 13 + 2 → difficulty 6, exceptional = 6 + 6 = 12 successes.
    r = lift(7, 6, 0, 450)
    p, q = Fraction(4, 10), Fraction(6, 10)
    assert r.requirement == "exceptional"
    assert r.p_lift == 13 * p**12 * q + p**13


def test_two_over_all_successes_reading():
    # "rolled": at least max(difficulty 6, 6) = 6 successes on 13 dice.
    r = lift(7, 6, 0, 450, net_successes="rolled")
    beyond = lift(7, 6, 0, 450)
    assert r.p_lift > beyond.p_lift
    assert r.p_lift == at_least(13, 6)


def test_three_over_cannot_lift():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=450)
    assert r.figure("roll_needed").text == "Cannot lift"
    assert r.figure("difficulty").text == "6"  # the object's own, item 4 below
    assert r.p_lift == 0
    assert r.figure("p_lift").text == "0 %"
    assert "cannot be lifted" in r.explain()


def test_out_of_reach_still_reports_the_objects_difficulty():
    # Issue 10, item 4. The text's 450 kg object: "requiring Str/Might 15, has difficulty
    # 15/2 = 7.5 - 1 = 6.5, rounded to 6". Str 3 + Might 1 = 4 is 11 short: no roll lifts
    # it, but the object's difficulty is still 6, shown next to "Cannot lift".
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=450)
    assert r.figure("roll_needed").text == "Cannot lift"
    assert r.lift.difficulty == 6
    assert r.figure("difficulty").value == 6
    assert r.figure("difficulty").text == "6"
    assert r.p_lift == 0
    text = r.explain()
    assert "Difficulty = ⌊15 ÷ 2 − 1⌋ = ⌊6.5⌋ = 6" in text
    assert text.index("⌊6.5⌋ = 6") < text.index("cannot be lifted")
    # Mega-Strength 1: 4 500 kg needs ⌈4500 ÷ 300⌉ = 15 → the same difficulty 6.
    assert lift(3, 1, 1, 4500).difficulty == 6
    # Needed 3 (90 kg) with Str 0 + Might 0: ⌊3 ÷ 2 − 1⌋ = ⌊0.5⌋ = 0, raised to 1 by
    # default, 0 under the automatic-success reading (RN-LIFT-2).
    low = lift(0, 0, 0, 90)
    assert (low.requirement, low.difficulty) == ("impossible", 1)
    assert lift(0, 0, 0, 90, low_difficulty="zero").difficulty == 0
    # The heaviest object the form takes: 10¹² kg needs ⌈10¹² ÷ 30⌉ = 33 333 333 334.
    huge = lift(1, 0, 0, 1e12)
    assert huge.needed == 33_333_333_334
    assert huge.difficulty == 16_666_666_666
    assert huge.figures()[2].text == "16\u202f666\u202f666\u202f666"
    assert "⌊33\u202f333\u202f333\u202f334 ÷ 2 − 1⌋ = ⌊16\u202f666\u202f666\u202f666⌋" in (
        huge.explain()
    )


@pytest.mark.parametrize("mega", [0, 1, 6])
def test_every_printed_difficulty_is_true(mega):
    # "⌊n ÷ 2 − 1⌋ = ⌊h⌋ = d" holds for the numbers printed, in reach or not.
    import math
    import re

    mult = mega_strength_multiplier(mega)
    for kg in (120.001, 150.0001, 180.5, 450, 1234.5678, 99_999.99, 1e9):
        text = lift(3, 1, mega, kg * mult).explain()
        (found,) = re.findall(rf"⌊({NUMBER}) ÷ 2 − 1⌋ = ⌊({NUMBER})⌋ = ({NUMBER})", text)
        n, h, d = (number(x) for x in found)
        assert h == n / 2 - 1
        assert d == math.floor(h)


def test_no_difficulty_when_no_roll_is_needed():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=120)
    assert r.lift.difficulty is None
    assert r.figure("difficulty").text == "—"


def test_zero_strength_zero_capacity():
    r = lifting_and_encumbrance(strength=0, might=0, mega_strength=0, load_kg=0, object_kg=5)
    assert r.capacity_kg == 0
    assert r.figure("roll_needed").text == "Yes"
    assert r.p_lift == 0
    assert "0 dice" in r.explain()
    nothing = lifting_and_encumbrance(strength=0, might=0, mega_strength=0, load_kg=0, object_kg=0)
    assert nothing.figure("roll_needed").text == "No"


def test_low_difficulty_zero_option_is_automatic():
    r = lift(2, 0, 0, 90, low_difficulty="zero")
    assert r.difficulty == 0
    assert r.p_lift == 1


def test_mega_strength_rerolls_tens_in_21_not_20():
    # 4 dice, M-Str 1: 1 500 kg needs ⌈1500/300⌉ = 5 → difficulty 1.
    r21 = lift(3, 1, 1, 1500, ruleset="2.1")
    r20 = lift(3, 1, 1, 1500, ruleset="2.0")
    assert r21.reroll_tens
    assert not r20.reroll_tens
    # At least one success does not depend on rerolls.
    assert r21.p_lift == r20.p_lift == 1 - Fraction(6, 10) ** 4


def test_rerolled_tens_raise_exceptional_chance():
    # 4 dice, M-Str 1, 1 800 kg needs 6 = 4 + 2 → difficulty 2, exceptional needs 8.
    r21 = lift(3, 1, 1, 1800, ruleset="2.1")
    r20 = lift(3, 1, 1, 1800, ruleset="2.0")
    assert r20.p_lift == 0  # 4 dice cannot roll 8 successes without rerolls
    assert r21.p_lift > 0


def test_specialty_21_adds_a_die_20_rerolls():
    base = lift(2, 0, 0, 90)
    r21 = lift(2, 0, 0, 90, specialty=True, ruleset="2.1")
    r20 = lift(2, 0, 0, 90, specialty=True, ruleset="2.0")
    assert (base.dice, r21.dice, r20.dice) == (2, 3, 2)
    assert r21.p_lift == 1 - Fraction(6, 10) ** 3
    assert r20.reroll_tens
    assert r20.p_lift == base.p_lift


def test_mega_on_roll_dice_option():
    r = lift(3, 1, 2, 15_000, mega_on_roll="dice")
    assert r.dice == 4 + 4
    assert lift(3, 1, 2, 15_000).dice == 4


def test_figure_keys_in_order():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=30, object_kg=150)
    assert [f.key for f in r.figures()] == FIGURE_KEYS
    assert r.figure("tier").text == "Light"


def test_params_declared_for_the_form():
    names = [p.name for p in lifting_and_encumbrance.params]
    assert names[:3] == ["strength", "might", "mega_strength"]
    # issue 33: his health track, for the wound penalty of his levels lost (RN-COND-7)
    assert names[3:11] == [
        "stamina",
        "mega_stamina",
        "quantum",
        "willpower",
        "resistance",
        "load_kg",
        "daze",
        "levels_lost",
    ]
    assert names[11] == "object_kg"
    assert {"ruleset", "specialty", "net_successes", "low_difficulty", "mega_on_roll"} <= set(names)
    assert all(p.help for p in lifting_and_encumbrance.params)


def test_negative_strength_is_an_input_error():
    with pytest.raises(InputError) as err:
        lifting_and_encumbrance(strength=-1)
    assert err.value.field == "strength"
    assert "Strength" in err.value.message
    assert "0 to 20" in err.value.message


def test_negative_weight_is_an_input_error():
    with pytest.raises(InputError) as err:
        lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=0, object_kg=-5)
    assert err.value.field == "object_kg"
    assert "Object's weight" in err.value.message
    assert "from 0" in err.value.message


def test_negative_load_is_an_input_error():
    with pytest.raises(InputError) as err:
        lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=-5, object_kg=0)
    assert err.value.field == "load_kg"
    assert "Carried load" in err.value.message


def test_report_tier_and_effects_figures():
    r = lifting_and_encumbrance(strength=3, might=1, mega_strength=0, load_kg=30, object_kg=0)
    assert r.figure("tier").text == "Light"
    assert r.figure("effects").text == TIER_EFFECTS["light"].text()
    assert "Load 30 kg: over 20 kg (5 kg per dot), up to 40 kg (10 kg per dot) → Light" in (
        r.explain()
    )


def test_defaults_are_the_forms():
    # The calculator's signature gives the form's defaults: Str 3, a 20 kg load, a 100 kg object.
    r = lifting_and_encumbrance()
    assert r == lifting_and_encumbrance(
        strength=3, might=0, mega_strength=0, load_kg=20.0, object_kg=100.0
    )
    assert r.capacity_kg == 90
    assert r.figure("tier").text == "Light"  # 20 kg: over 5 × 3 = 15 kg, up to 30 kg
    assert r.figure("roll_needed").text == "Yes"  # 100 kg needs ⌈100 ÷ 30⌉ = 4 = 3 + 1


# --- the working's equations are true for the numbers they print (issue 11, defect 6) ------


def check_needed(text):
    """Every "⌈w kg ÷ 30 kg⌉ = n" or "⌈w kg ÷ (30 kg × m)⌉ = n" in ``text`` holds for the
    numbers it prints; how many there were."""
    return check_all(
        rf"⌈({NUMBER}) kg ÷ \(?30 kg(?: × ({NUMBER}))?\)?⌉ = ({NUMBER})",
        text,
        lambda w, m, n: math.ceil(number(w) / (30 * number(m or "1"))) == number(n),
    )


def check_load(text):
    """Every "Load l kg: over a kg …, up to b kg …" holds for the numbers it prints."""
    import re

    (line,) = [ln for ln in text.splitlines() if ln.startswith("Load ")]
    load = number(re.match(rf"Load ({NUMBER}) kg:", line).group(1))
    for word, bound in re.findall(rf"(over|at least|up to|under) ({NUMBER}) kg", line):
        b = number(bound)
        holds = {"over": load > b, "at least": load >= b, "up to": load <= b, "under": load < b}
        assert holds[word], line


def test_the_strength_needed_prints_the_weight_its_ceiling_used():
    # Before: "⌈90 kg ÷ 30 kg⌉ = 4" for 90.004 kg.
    r = lift(3, 0, 0, 90.004)
    assert r.needed == 4  # ⌈90.004 ÷ 30⌉, by hand
    assert "Str + Might needed for 90.004 kg = ⌈90.004 kg ÷ 30 kg⌉ = 4" in r.explain()


def test_the_load_prints_the_weight_its_tier_used():
    # Before: "Load 30 kg: over 30 kg (10 kg per dot) …" for 30.004 kg (Str 3: 30 kg a band).
    r = lifting_and_encumbrance(strength=3, might=0, mega_strength=0, load_kg=30.004, object_kg=0)
    assert r.encumbrance.tier == "moderate"
    assert "Load 30.004 kg: over 30 kg (10 kg per dot), up to 45 kg" in r.explain()


@pytest.mark.parametrize("mega", [0, 1, 6])
def test_every_printed_ceiling_and_load_is_true(mega):
    mult = mega_strength_multiplier(mega)
    for kg in (0.001, 29.999, 30.001, 59.9999, 90.004, 119.995, 150.0001, 1234.5678):
        r = lifting_and_encumbrance(
            strength=3, might=1, mega_strength=mega, load_kg=kg * mult, object_kg=kg * mult
        )
        text = r.explain()
        assert check_needed(text) == 1
        check_load(text)


# --- the text's statements, one test each (issue 10, item 5) ---------------------------------


def test_text_capacity_is_30_kg_per_dot_and_more_needs_a_roll():
    # "Characters can lift 30kg times their (Strength + Might) total. To lift more than that,
    # a character requires a Str + Might roll": every Strength and Might 0–10.
    for strength in range(11):
        for might in range(11):
            cap = 30 * (strength + might)
            at = lift(strength, might, 0, cap)
            assert at.capacity_kg == cap
            assert (at.requirement, at.p_lift) == ("none", 1)
            assert lift(strength, might, 0, cap + 0.5).requirement != "none"


def test_text_success_adds_one_exceptional_adds_two():
    # "Success adds +1 to the character's Str + Might, exceptional success (more than 5 net
    # successes rolled) adds +2." Str 5 + Might 0 = 5 dice: 180 kg needs 6 = 5 + 1 (a
    # success, difficulty ⌊6 ÷ 2 − 1⌋ = 2), 210 kg needs 7 = 5 + 2 (exceptional, difficulty
    # ⌊2.5⌋ = 2, so 2 + 6 = 8 successes on 5 dice: impossible without rerolls), 240 kg needs
    # 8 = 5 + 3 (out of reach, difficulty 3).
    p, q = Fraction(4, 10), Fraction(6, 10)
    one = lift(5, 0, 0, 180)
    assert (one.requirement, one.difficulty) == ("success", 2)
    assert one.p_lift == 1 - q**5 - 5 * p * q**4
    two = lift(5, 0, 0, 210)
    assert (two.requirement, two.difficulty, two.p_lift) == ("exceptional", 2, 0)
    three = lift(5, 0, 0, 240)
    assert (three.requirement, three.difficulty, three.p_lift) == ("impossible", 3, 0)


# --- the lifter's conditions on the lift roll (issue 19) -------------------------------
# Worked by hand from the text: 450 kg needs Str + Might 15 ("a 450kg object … has
# difficulty … 6"); a lifter of Str 9 + Might 5 = 14 is one over, so one success at the
# difficulty lifts it. Heavy encumbrance: "+1 difficulty to all other physical actions"
# (a lift neither moves nor endures): difficulty 7. Dazed: "+1 difficulty to all
# actions": 7, both: 8. P(≥ k successes on 14 d10, success on 7+) by brute force below.


@pytest.mark.parametrize(
    ("load_kg", "daze", "difficulty"),
    [
        (0, "none", 6),  # unencumbered: the object's own difficulty
        (10 * 14, "none", 6),  # light (10 kg per dot): nothing on a lift
        (15 * 14, "none", 6),  # moderate: only movement or endurance
        (20 * 14, "none", 7),  # heavy: +1 to other physical actions
        (0, "dazed", 7),
        (0, "stunned", 7),
        (20 * 14, "dazed", 8),
    ],
)
def test_the_lifters_load_and_daze_add_difficulty_to_the_lift_roll(load_kg, daze, difficulty):
    from ruleslab.character import Character, Conditions

    r = lifting_and_encumbrance(
        lifter=Character(strength=9, might=5),
        conditions=Conditions(load_kg=load_kg, daze=daze),
        object_kg=450,
    )
    assert r.lift.difficulty == difficulty
    assert r.p_lift == at_least(14, difficulty)


def test_a_character_record_and_flat_fields_give_the_same_report():
    from ruleslab.character import Character, Conditions

    by_record = lifting_and_encumbrance(
        lifter=Character(strength=4, might=2), conditions=Conditions(load_kg=40), object_kg=200
    )
    by_fields = lifting_and_encumbrance(strength=4, might=2, load_kg=40, object_kg=200)
    assert by_record == by_fields
    # a flat field changes that field of the record passed
    mixed = lifting_and_encumbrance(
        lifter=Character(strength=1, might=2), strength=4, load_kg=40, object_kg=200
    )
    assert mixed == by_record
