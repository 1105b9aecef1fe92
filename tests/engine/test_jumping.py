"""Jumping (key ``jumping``): (Str + Athletics) roll, metres per success, Mega-Strength,
exact odds, and the distance chart."""

import math
from fractions import Fraction

import pytest
from dice_oracle import Q, at_least, icepool_successes
from printed_working import NUMBER, check_all, number

from ruleslab.calculators.jumping import jump
from ruleslab.params import InputError
from ruleslab.quickref.jumping import exact_metres

FIGURE_KEYS = ["p_clear", "mean_distance", "successes_needed", "pool"]


def test_text_numbers_per_success():
    # "a 0.5 meter vertical jump or 2m horizontal leap per success"
    assert jump(
        strength=3, athletics=2, mega_strength=0, direction="vertical", distance_m=1
    ).metres_per_success == Fraction(1, 2)
    assert (
        jump(
            strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=1
        ).metres_per_success
        == 2
    )


def test_text_numbers_mega_strength():
    # "Mega-Strength adds 5 automatic successes per dot, giving an additional 2.5 meters of
    # height or 10m of horizontal distance, and additionally … multiplied by (M-Str + 1)"
    r = jump(strength=0, athletics=0, mega_strength=1, direction="vertical", distance_m=0)
    assert r.auto_successes == 5
    assert r.mean_distance == Fraction(5, 2) * 2  # 5 × 0.5 m = 2.5 m, × (1 + 1)
    r = jump(strength=0, athletics=0, mega_strength=1, direction="horizontal", distance_m=0)
    assert r.mean_distance == 10 * 2
    r = jump(strength=0, athletics=0, mega_strength=3, direction="horizontal", distance_m=0)
    assert r.auto_successes == 15
    assert r.metres_per_success == 8
    assert r.mean_distance == 15 * 8


def test_hand_worked_horizontal():
    # 5 dice, 6 m at 2 m per success → 3 successes.
    r = jump(strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=6)
    assert r.successes_needed == 3
    assert r.p_clear == at_least(5, 3)
    assert r.mean_distance == 4  # 5 × 0.4 × 2 m
    assert r.figure("mean_distance").text == "4 m"
    assert [f.key for f in r.figures()] == FIGURE_KEYS


def test_round_up_successes_needed():
    # 1.1 m vertical: ⌈1.1 ÷ 0.5⌉ = 3 (exact decimal, not binary float)
    assert (
        jump(
            strength=3, athletics=2, mega_strength=0, direction="vertical", distance_m=1.1
        ).successes_needed
        == 3
    )
    assert (
        jump(
            strength=3, athletics=2, mega_strength=0, direction="vertical", distance_m=1.0
        ).successes_needed
        == 2
    )
    assert exact_metres(0.1) == Fraction(1, 10)


def test_zero_distance_is_certain():
    r = jump(strength=0, athletics=0, mega_strength=0, direction="horizontal", distance_m=0)
    assert r.successes_needed == 0
    assert r.p_clear == 1


def test_zero_pool_cannot_clear():
    r = jump(strength=0, athletics=0, mega_strength=0, direction="horizontal", distance_m=1)
    assert r.p_clear == 0
    assert r.mean_distance == 0
    assert "0 dice" in r.explain()


def test_beyond_the_pool_is_impossible_without_rerolls():
    r = jump(
        strength=2, athletics=1, mega_strength=0, direction="horizontal", distance_m=8
    )  # 4 successes needed, 3 dice
    assert r.p_clear == 0
    assert r.p_clear_unresolved == 0
    assert r.figure("p_clear").text == "0 %"


def test_mega_strength_21_rerolls_and_auto_successes():
    # M-Str 1: 5 auto, ×2 → 4 m per success; 30 m needs 8 → 3 rolled successes, 10s reroll.
    kw = dict(strength=3, athletics=2, mega_strength=1, direction="horizontal", distance_m=30)
    r = jump(**kw)
    assert r.reroll_tens
    assert r.successes_needed == 8
    assert r.mean_distance == (5 * Fraction(4, 9) + 5) * 4
    r20 = jump(**kw, ruleset="2.0")
    assert not r20.reroll_tens
    assert r20.p_clear == at_least(5, 3)
    assert r.p_clear > r20.p_clear


def test_auto_successes_alone_clear():
    r = jump(
        strength=1, athletics=0, mega_strength=1, direction="horizontal", distance_m=20
    )  # 20 m ÷ 4 m = 5 ≤ 5 automatic
    assert r.p_clear == 1
    assert "automatic successes alone" in r.explain()


def test_specialty_per_ruleset():
    kw = dict(
        strength=3,
        athletics=2,
        mega_strength=0,
        direction="horizontal",
        distance_m=6,
        specialty=True,
    )
    r21 = jump(ruleset="2.1", **kw)
    assert r21.dice == 6
    assert not r21.reroll_tens
    assert r21.p_clear == at_least(6, 3)
    r20 = jump(ruleset="2.0", **kw)
    assert r20.dice == 5
    assert r20.reroll_tens


def test_mega_in_pool_dice_option():
    kw = dict(strength=3, athletics=2, mega_strength=2, direction="vertical", distance_m=0)
    r = jump(**kw, mega_in_pool="dice")
    assert r.dice == 9
    assert r.auto_successes == 10
    assert jump(**kw).dice == 5


def test_far_beyond_table_is_bounded_not_zero():
    r = jump(strength=3, athletics=2, mega_strength=1, direction="horizontal", distance_m=10_000)
    assert r.p_clear == 0
    assert 0 < r.p_clear_unresolved < Fraction(1, 10**12)
    assert r.figure("p_clear").text == "< 0.01 %"


def test_chart_labels_in_metres_from_auto_successes():
    r = jump(
        strength=3, athletics=2, mega_strength=1, direction="vertical", distance_m=3
    )  # 1 m per success, 5 automatic
    bars = r.chart().bars
    assert bars[0][0] == "5"  # 5 automatic successes × 1 m
    assert bars[0][1] == float(Q**5)
    assert bars[1][0] == "6"
    assert r.chart().highlight_from == 0  # 3 needed ≤ 5 automatic
    v = jump(strength=3, athletics=2, mega_strength=0, direction="vertical", distance_m=1.5)
    assert [b[0] for b in v.chart().bars] == ["0", "0.5", "1", "1.5", "2", "2.5"]
    assert v.chart().highlight_from == 3


def test_distance_distribution_matches_icepool():
    icepool = pytest.importorskip("icepool")
    # 4 dice with 10s rerolled (M-Str 1, 2.1) + 5 automatic; 4 m per success.
    depth = 20
    r = jump(strength=2, athletics=2, mega_strength=1, direction="horizontal", distance_m=30)
    metres = (icepool_successes(icepool, 4, reroll_tens=True, depth=depth) + 5) * 4
    # icepool truncates only outcomes with > depth tens (≥ depth + 1 rolled successes)
    for k, p in enumerate(r.distribution.pmf):
        if k < depth:
            assert p == metres.probability(4 * k), k
    oracle = sum(metres.probability(m) for m in metres.outcomes() if m >= 30)
    assert abs(r.p_clear - oracle) <= 4 * Fraction(1, 10) ** (depth + 1)
    assert r.mean_distance == (4 * Fraction(4, 9) + 5) * 4


def test_no_reroll_distance_matches_monte_carlo():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(1234)
    r = jump(
        strength=4, athletics=3, mega_strength=0, direction="vertical", distance_m=2
    )  # 7 dice, 0.5 m per success, needs 4
    rolls = rng.integers(1, 11, size=(200_000, 7))
    metres = (rolls >= 7).sum(axis=1) * 0.5
    assert abs((metres >= 2).mean() - float(r.p_clear)) < 0.005  # ~4.5 sd
    assert abs(metres.mean() - float(r.mean_distance)) < 0.01


def test_bad_input_names_the_field():
    with pytest.raises(InputError) as err:
        jump(strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=-1)
    assert err.value.field == "distance_m"
    assert "Distance to clear" in err.value.message
    assert "from 0 to" in err.value.message
    with pytest.raises(InputError) as err:
        jump(strength=3, athletics=2, mega_strength=0, direction="sideways", distance_m=1)
    assert err.value.field == "direction"
    with pytest.raises(InputError) as err:
        jump(strength=3, athletics=11, mega_strength=0, direction="horizontal", distance_m=1)
    assert err.value.field == "athletics"


def test_defaults_are_the_forms():
    # Str 3 + Athletics 2 = 5 dice, horizontal, 6 m: 3 successes needed.
    r = jump()
    assert r == jump(
        strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=6.0
    )
    assert r.successes_needed == 3
    assert r.p_clear == at_least(5, 3)


# --- the working's equations are true for the numbers they print (issue 11, defect 6) ------


def check_ceilings(text):
    """Every "⌈a ÷ b⌉ = n" in ``text`` holds for the a, b and n it prints; how many there were."""
    return check_all(
        rf"⌈({NUMBER}) ÷ ({NUMBER})⌉ = (\d+)",
        text,
        lambda a, b, n: math.ceil(number(a) / number(b)) == int(n),
    )


def test_the_successes_needed_print_the_distance_the_ceiling_used():
    # Before: "⌈2 ÷ 2⌉ = 2" for 2.004 m (the distance rounded, its ceiling not).
    r = jump(strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=2.004)
    assert r.successes_needed == 2  # ⌈2.004 ÷ 2⌉, by hand
    assert "Successes needed to clear 2.004 m = ⌈2.004 ÷ 2⌉ = 2" in r.explain()
    r = jump(strength=3, athletics=2, mega_strength=0, direction="vertical", distance_m=1.0001)
    assert r.successes_needed == 3  # ⌈1.0001 ÷ 0.5⌉
    assert "⌈1.0001 ÷ 0.5⌉ = 3" in r.explain()


@pytest.mark.parametrize("direction", ["horizontal", "vertical"])
@pytest.mark.parametrize("mega", [0, 1, 3])
def test_every_printed_ceiling_is_true(direction, mega):
    for metres in (0.001, 0.499, 0.501, 1.999, 2.004, 6.0, 7.25, 12.3456, 99.995, 1234.5678):
        assert (
            check_ceilings(
                jump(
                    strength=3,
                    athletics=2,
                    mega_strength=mega,
                    direction=direction,
                    distance_m=metres,
                ).explain()
            )
            == 1
        )


def test_a_rounded_mean_distance_is_printed_as_approximate():
    # M-Str 1 (2.1): 5 dice rerolling 10s, 5 automatic, 4 m per success:
    # (5 × 4/9 + 5) × 4 = 260/9 m = 28.888… m, which "28.89 m" is not.
    r = jump(strength=3, athletics=2, mega_strength=1, direction="horizontal", distance_m=30)
    assert r.mean_distance == Fraction(260, 9)
    (mean,) = [s.text for s in r.steps if s.text.startswith("Mean distance")]
    assert mean.endswith("× 4 m ≈ 28.89 m")
    (mean,) = [
        s.text
        for s in jump(
            strength=3, athletics=2, mega_strength=0, direction="horizontal", distance_m=6
        ).steps
        if "Mean" in s.text
    ]
    assert mean == "Mean distance = (5 × 4/10 + 0) successes × 2 m = 4 m"  # exact: "="


# --- the text's statements, one test each (issue 10, item 5) ---------------------------------


@pytest.mark.parametrize("mega", range(11))
def test_text_mega_strength_distance_per_dot(mega):
    # "Mega-Strength adds 5 automatic successes per dot, giving an additional 2.5 meters of
    # height or 10m of horizontal distance, and additionally jumping distances and heights
    # are multiplied by (Mega-Strength + 1)". No dice (Str 0 + Athletics 0): the automatic
    # successes alone, 2.5 m or 10 m per dot, × (M-Str + 1).
    vertical = jump(strength=0, athletics=0, mega_strength=mega, direction="vertical", distance_m=0)
    horizontal = jump(
        strength=0, athletics=0, mega_strength=mega, direction="horizontal", distance_m=0
    )
    assert vertical.auto_successes == horizontal.auto_successes == 5 * mega
    assert vertical.metres_per_success == Fraction(1, 2) * (mega + 1)
    assert horizontal.metres_per_success == 2 * (mega + 1)
    assert vertical.mean_distance == Fraction(5, 2) * mega * (mega + 1)
    assert horizontal.mean_distance == 10 * mega * (mega + 1)


def test_text_roll_is_strength_plus_athletics():
    # "Jumping is a (Strength + Athletics) roll": every pool 0–20 without Mega-Strength.
    for strength in range(11):
        for athletics in range(11):
            r = jump(
                strength=strength,
                athletics=athletics,
                mega_strength=0,
                direction="vertical",
                distance_m=0,
            )
            assert r.dice == strength + athletics
            assert r.auto_successes == 0


# --- the jumper's conditions on the jump roll (issue 19) -------------------------------
# Worked by hand from the text. Str 3 + Athletics 2 = 5 dice, each a success on 7+ (4/10);
# a 6 m leap at 2 m per success needs 3 successes. Encumbrance (Str 3 + Might 0 = 3 dots):
# Light up to 10 kg per dot = 30 kg, Moderate up to 15 per dot = 45 kg, Heavy up to lift
# capacity 30 per dot = 90 kg, over that he cannot move. A jump is "a physical action
# involving movement": Moderate +1, Heavy +2 (RN-COND-1); "Dazed characters are at +1
# difficulty to all actions", Stunned too (RN-COND-4). Each +1 is paid with one success
# (RN-COND-5's spend, RN-JUMP-5), so clearing 6 m needs 3 + added successes rolled:
#   P(≥ 3 of 5) = 10·.4³·.6² + 5·.4⁴·.6 + .4⁵ = .2304 + .0768 + .01024 = .31744
#   P(≥ 4 of 5) = .0768 + .01024 = .08704;  P(≥ 5 of 5) = .4⁵ = .01024


@pytest.mark.parametrize(
    ("load_kg", "daze", "added", "p"),
    [
        (0, "none", 0, Fraction(31744, 100000)),  # unencumbered
        (25, "none", 0, Fraction(31744, 100000)),  # light: long-term endurance only
        (40, "none", 1, Fraction(8704, 100000)),  # moderate: +1
        (60, "none", 2, Fraction(1024, 100000)),  # heavy: +2
        (0, "dazed", 1, Fraction(8704, 100000)),
        (0, "stunned", 1, Fraction(8704, 100000)),
        (40, "dazed", 2, Fraction(1024, 100000)),  # moderate +1, dazed +1
    ],
)
def test_the_jumpers_load_and_daze_are_paid_with_successes(load_kg, daze, added, p):
    from ruleslab.character import Character, Conditions

    r = jump(
        jumper=Character(strength=3, athletics=2),
        conditions=Conditions(load_kg=load_kg, daze=daze),
        direction="horizontal",
        distance_m=6,
    )
    assert r.added_difficulty == added
    assert r.p_clear == p == at_least(5, 3 + added)
    assert r.successes_needed == 3  # still 3 that count
    if added:
        assert "RN-COND-5" in r.explain()
        assert f"P(clear) = P(≥ 3 + {added} = {3 + added} successes on 5 dice)" in r.explain()


def test_an_added_difficulty_lowers_the_mean_distance():
    # Mean successes that count with +1: E[max(0, k − 1)] = E[k] − 1 + P(k = 0)
    # = 5 × 0.4 − 1 + 0.6⁵ = 1.07776; × 2 m = 2.15552 m (before: 2 successes, 4 m).
    # With +2: E[k] − 2 + 2·P(0) + 1·P(1) = 2 − 2 + 2 × .07776 + .2592 = .41472 → .82944 m.
    from ruleslab.character import Conditions

    assert jump(distance_m=6, conditions=Conditions()).mean_distance == 4
    dazed = jump(distance_m=6, conditions=Conditions(daze="dazed"))
    assert dazed.mean_distance == Fraction(215552, 100000)
    heavy = jump(distance_m=6, conditions=Conditions(load_kg=60))
    assert heavy.mean_distance == Fraction(82944, 100000)
    # the counted distribution: P(0 count) = P(k ≤ 1) = .6⁵ + 5 × .4 × .6⁴ = .33696
    assert dazed.distribution.pmf[0] == Fraction(33696, 100000)
    assert sum(dazed.distribution.pmf) == 1


def test_automatic_successes_pay_for_the_difficulty_too():
    # Str 1 + Ath 0 = 1 die, Mega-Strength 1: 5 automatic successes, 2 m × 2 = 4 m each;
    # 20 m needs 5: the automatic ones alone clear it (2.0: no reroll). Dazed: the first
    # success pays for the +1, so 6 are needed: the die must succeed, P = 0.4.
    from ruleslab.character import Character, Conditions

    hero = Character(strength=1, athletics=0, mega_strength=1)
    calm = jump(jumper=hero, distance_m=20, ruleset="2.0")
    assert calm.p_clear == 1
    dazed = jump(jumper=hero, distance_m=20, ruleset="2.0", conditions=Conditions(daze="dazed"))
    assert dazed.p_clear == Fraction(2, 5)
    # the chart starts at the 4 automatic successes that count: 16 m, then 20 m
    assert [b for b, _ in dazed.chart().bars] == ["16", "20"]
    assert dazed.chart().highlight_from == 1


def test_a_heavy_load_still_jumps_but_a_load_beyond_capacity_does_not():
    # "Heavily encumbered characters may not run or sprint": the text does not forbid a
    # jump (RN-JUMP-5), so Heavy only adds +2. Over lift capacity (90 kg for Str 3) he
    # cannot move (RN-ENC-2): no jump, 0 m, P(clear 6 m) = 0; a 0 m "gap" is still cleared.
    from ruleslab.character import Conditions

    heavy = jump(distance_m=6, conditions=Conditions(load_kg=90))
    assert heavy.allowed
    assert heavy.p_clear == Fraction(1024, 100000)
    over = jump(distance_m=6, conditions=Conditions(load_kg=91))
    assert not over.allowed
    assert over.p_clear == 0
    assert over.mean_distance == 0
    assert "cannot move while carrying this load, so he cannot jump" in over.explain()
    assert jump(distance_m=0, conditions=Conditions(load_kg=91)).p_clear == 1


def test_conditions_a_python_caller_sets_on_the_record_apply_too():
    # The form shows load and daze; a record's other conditions still reach the roll
    # through on_roll: 2.1, 3 actions this turn: +2 (RN-COND-3); a sprinter takes no
    # action but defensive maneuvers (RN-COND-2): no jump.
    from ruleslab.character import Conditions

    three = jump(distance_m=6, conditions=Conditions(actions=3))
    assert three.added_difficulty == 2
    assert three.p_clear == at_least(5, 5)
    sprinting = jump(distance_m=6, conditions=Conditions(sprinting=True))
    assert not sprinting.allowed
    assert sprinting.p_clear == 0


def test_no_condition_set_changes_nothing():
    from ruleslab.character import Conditions

    assert jump(distance_m=6, conditions=Conditions()) == jump(distance_m=6)
    assert jump(distance_m=6, conditions=Conditions(load_kg=30)) == jump(distance_m=6)


def test_a_character_record_and_flat_fields_give_the_same_report():
    from ruleslab.character import Character, Conditions

    by_record = jump(
        jumper=Character(strength=4, athletics=3, mega_strength=1),
        conditions=Conditions(load_kg=700, daze="dazed"),
        distance_m=30,
    )
    by_fields = jump(
        strength=4, athletics=3, mega_strength=1, load_kg=700, daze="dazed", distance_m=30
    )
    assert by_record == by_fields
    # Str 4 × the Mega-Strength multiplier 10 = 40 kg per "kg per dot": 700 kg is above
    # 15 × 40 = 600 and up to 30 × 40 = 1200: Heavy, +2; Dazed +1.
    assert by_record.added_difficulty == 3
    mixed = jump(
        jumper=Character(strength=1, athletics=3, mega_strength=1),
        strength=4,
        load_kg=700,
        daze="dazed",
        distance_m=30,
    )
    assert mixed == by_record


def test_the_form_keeps_its_field_names():
    from ruleslab.calculators.jumping import CALCULATOR

    assert [p.name for p in CALCULATOR.params] == [
        "strength",
        "athletics",
        "mega_strength",
        "might",
        "stamina",  # issue 33: his health track, for the wound penalty (RN-COND-7)
        "mega_stamina",
        "quantum",
        "willpower",
        "resistance",
        "direction",
        "distance_m",
        "load_kg",
        "daze",
        "levels_lost",
        "ruleset",
        "specialty",
        "mega_in_pool",
    ]
