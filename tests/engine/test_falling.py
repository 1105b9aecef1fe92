"""Falling (key ``falling``): safe distance, damage dice (and the text's "40d at ~170m"),
break-fall, lethal, and the chart of the dice left."""

import math
from fractions import Fraction

import pytest
from dice_oracle import P, Q, exactly, icepool_successes
from printed_working import NUMBER, check_all, number

from ruleslab.calculators.falling import fall
from ruleslab.params import InputError
from ruleslab.quickref.falling import MAX_DICE, damage_dice, safe_distance_m
from ruleslab.quickref.mega import MEGA_ATTRIBUTES

FIGURE_KEYS = ["safe_distance", "damage_dice", "mean_dice_left", "threshold", "p_lethal"]


def test_safe_distance():
    # "(Stamina - 1) * 2 meters"
    assert [safe_distance_m(s) for s in (1, 2, 3, 5)] == [0, 2, 4, 8]


def test_first_20_metres_at_one_die_per_two():
    # safe 4 m: 11 m past it → ⌊11/2⌋ = 5; 20 m past → 10
    assert damage_dice(15, 4) == 5
    assert damage_dice(24, 4) == 10
    assert damage_dice(4, 4) == 0
    assert damage_dice(5, 4) == 0  # 1 m past: rounds down to 0
    assert damage_dice(6, 4) == 1


def test_then_one_die_per_five():
    assert damage_dice(28, 4) == 10  # 4 m past the first 20: ⌊4/5⌋ = 0
    assert damage_dice(29, 4) == 11
    assert damage_dice(74, 4) == 20


def test_40_dice_at_about_170_m():
    # "up to 40d pre-soak damage from a fall (at ~170m)": 10 + ⌊(e − 20)/5⌋ = 40 at e = 170 m
    # past the safe distance, so a fall of 170 m + safe distance.
    for safe in (0, 2, 4, 8):
        first = next(h for h in range(400) if damage_dice(h, safe) == MAX_DICE)
        assert first == 170 + safe
    # the other reading (first 20 m of the fall): 170 m + 2.5 × safe
    for safe in (0, 2, 4, 8):
        first = next(h for h in range(400) if damage_dice(h, safe, "top") == MAX_DICE)
        assert first == 170 + 5 * safe // 2
    assert damage_dice(10_000, 4) == MAX_DICE


def test_count_from_top_reading():
    # safe 4 m, fall 25 m: 16 m to the 20 m mark at 1/2 → 8, 5 m after at 1/5 → 1
    assert damage_dice(25, 4, "top") == 9
    assert damage_dice(25, 4, "safe") == 10
    assert damage_dice(30, 24, "top") == 1  # safe beyond 20 m: only the 1/5 rate


def test_count_from_threshold_reading():
    # RN-FALL-1, third reading: the safe distance is only a threshold; a longer fall counts
    # its dice from the top. Safe 4 m (Stamina 3), by hand:
    assert damage_dice(4, 4, "threshold") == 0  # not longer than the safe distance
    assert damage_dice(4.5, 4, "threshold") == 2  # ⌊4.5 ÷ 2⌋
    assert damage_dice(15, 4, "threshold") == 7  # ⌊15 ÷ 2⌋ (safe reading: ⌊11 ÷ 2⌋ = 5)
    assert damage_dice(20, 4, "threshold") == 10
    assert damage_dice(25, 4, "threshold") == 11  # 10 + ⌊5 ÷ 5⌋ (safe: 10, top: 9)
    assert damage_dice(169.999, 4, "threshold") == 39  # 10 + ⌊149.999 ÷ 5⌋
    # Safe 20 m (effective Stamina 11): 20 m is safe, 21 m takes the whole first 20 m.
    assert damage_dice(20, 20, "threshold") == 0
    assert damage_dice(21, 20, "threshold") == 10  # 10 + ⌊1 ÷ 5⌋
    assert damage_dice(21, 20, "safe") == 0  # 1 m past the safe distance: ⌊1 ÷ 2⌋
    # RN-FALL-1's worked line, Stamina 3: 15 m is 5, 5, 7 dice; 25 m is 10, 9, 11.
    readings = ("safe", "top", "threshold")
    assert [damage_dice(15, 4, c) for c in readings] == [5, 5, 7]
    assert [damage_dice(25, 4, c) for c in readings] == [10, 9, 11]


def test_threshold_reading_reaches_40_dice_at_170_m():
    # "up to 40d … (at ~170m)": from the top, 10 + ⌊(h − 20) ÷ 5⌋ = 40 at h = 170 m,
    # whatever the safe distance below it.
    for safe in (0, 2, 4, 8, 20):
        first = next(h for h in range(400) if damage_dice(h, safe, "threshold") == MAX_DICE)
        assert first == 170


def test_threshold_reading_in_the_calculator():
    # 15 m, Sta 3 (safe 4 m): 7 dice from the top; break-fall Dex 3 + Ath 2 = 5 dice;
    # lethal at 5: P(≥ 5 dice left) = P(≤ 2 successes).
    r = fall(height_m=15, stamina=3, dexterity=3, athletics=2, count_from="threshold")
    assert r.damage_dice == 7
    assert r.dice_left == (0, 0, *(exactly(5, 7 - d) for d in range(2, 8)))
    assert r.p_lethal == sum(exactly(5, k) for k in range(3))
    text = r.explain()
    assert "Fall 15 m > safe distance 4 m: the safe distance is only a threshold" in text
    assert "⌊15 ÷ 2⌋ = 7" in text
    assert "rules note RN-FALL-1" in text
    assert (
        fall(height_m=4, stamina=3, dexterity=3, athletics=2, count_from="threshold").damage_dice
        == 0
    )
    assert (
        "no damage"
        in fall(height_m=4, stamina=3, dexterity=3, athletics=2, count_from="threshold").explain()
    )


def test_hand_worked_break_fall():
    # Sta 3, Dex 3, Ath 2, 15 m: 5 dice; 5 break-fall dice; lethal at 5 dice.
    r = fall(height_m=15, stamina=3, dexterity=3, athletics=2)
    assert [f.key for f in r.figures()] == FIGURE_KEYS
    assert r.safe_m == 4
    assert r.damage_dice == 5
    assert r.threshold == 5
    assert r.dice_left == tuple(exactly(5, 5 - d) for d in range(6))
    assert r.mean_dice_left == 5 - 5 * P == 3
    assert r.p_lethal == Q**5
    assert r.figure("damage_dice").text == "5d"
    assert r.figure("mean_dice_left").text == "3d"


def test_more_successes_than_dice_leave_zero():
    # 20 m with safe 4: 8 dice; break-fall 10 dice → P(0 left) = P(≥ 8 of 10)
    r = fall(height_m=20, stamina=3, dexterity=5, athletics=5)
    assert r.damage_dice == 8
    assert r.dice_left[0] == sum(exactly(10, k) for k in range(8, 11))
    assert sum(r.dice_left) == 1


def test_no_break_fall_keeps_every_die():
    r = fall(height_m=15, stamina=3, dexterity=3, athletics=2, break_fall=False)
    assert r.dice_left == (0, 0, 0, 0, 0, 1)
    assert r.p_lethal == 1  # 5 ≥ Sta 3 + Ath 2


def test_within_safe_distance_no_damage():
    r = fall(height_m=4, stamina=3, dexterity=3, athletics=2)
    assert r.damage_dice == 0
    assert r.p_lethal == 0
    assert r.dice_left == (1,)
    assert "no damage" in r.explain()


MEGA_FALL = dict(height_m=30, stamina=2, dexterity=1, athletics=1, mega_stamina=1, mega_dexterity=1)
"""A 30 m fall with Mega-Stamina 1 and Mega-Dexterity 1, worked by hand just below."""


def test_mega_stamina_and_dexterity_count_two_dots():
    # Sta 2 + 2×1 = 4 → safe 6 m, lethal at 4 + Ath 1 = 5; Dex 1 + 2×1 = 3 → 4 dice, 10s reroll
    r = fall(**MEGA_FALL)
    assert r.safe_m == 6
    assert r.threshold == 5
    assert r.break_dice == 4
    assert r.reroll_tens
    mega = [s.text for s in r.steps if s.rule == MEGA_ATTRIBUTES]
    assert any("Stamina 2 + 2 × Mega-Stamina 1 = 4" in t for t in mega)
    assert any("Dexterity 1 + 2 × Mega-Dexterity 1 = 3" in t for t in mega)
    r20 = fall(**MEGA_FALL, ruleset="2.0")
    assert not r20.reroll_tens


def test_specialty_per_ruleset():
    assert fall(height_m=15, stamina=3, dexterity=3, athletics=2, specialty=True).break_dice == 6
    r20 = fall(height_m=15, stamina=3, dexterity=3, athletics=2, ruleset="2.0", specialty=True)
    assert r20.break_dice == 5
    assert r20.reroll_tens


def test_lethal_means_rolled():
    # 5 dice, no break-fall: lethal if ≥ 5 successes rolled on the 5 damage dice
    r = fall(
        height_m=15, stamina=3, dexterity=3, athletics=2, break_fall=False, lethal_means="rolled"
    )
    assert r.p_lethal == P**5
    # with the break-fall: mixture over the dice left
    r = fall(
        height_m=15, stamina=3, dexterity=3, athletics=1, lethal_means="rolled"
    )  # 4 break-fall dice, lethal at 4
    left = {d: exactly(4, 5 - d) for d in range(1, 6)}
    expected = left[5] * (exactly(5, 4) + exactly(5, 5)) + left[4] * exactly(4, 4)
    assert r.p_lethal == expected


def test_chart_and_highlight():
    r = fall(height_m=15, stamina=3, dexterity=3, athletics=2)
    assert [b[0] for b in r.chart().bars] == ["0", "1", "2", "3", "4", "5"]
    assert r.chart().highlight_from == 5
    assert (
        fall(height_m=15, stamina=3, dexterity=3, athletics=2, lethal_means="rolled")
        .chart()
        .highlight_from
        is None
    )
    assert (
        fall(height_m=15, stamina=5, dexterity=3, athletics=2).chart().highlight_from is None
    )  # threshold 7 > 3 dice


def test_rerolled_break_fall_matches_icepool():
    icepool = pytest.importorskip("icepool")
    depth = 30
    # 50 m, Sta 3: 10 + ⌊26/5⌋ = 15 dice; Dex 2 + M-Dex 1 → 4 + Ath 2 = 6 dice, 10s reroll
    r = fall(height_m=50, stamina=3, dexterity=2, athletics=2, mega_dexterity=1)
    assert r.damage_dice == 15
    assert r.break_dice == 6
    assert r.reroll_tens
    rolled = icepool_successes(icepool, 6, reroll_tens=True, depth=depth)
    left = rolled.map(lambda s: max(0, 15 - s))
    # icepool truncates outcomes with > 30 tens, which all leave 0 dice
    for d in range(1, 16):
        assert r.dice_left[d] == left.probability(d), d
    assert abs(r.dice_left[0] - left.probability(0)) < Fraction(1, 10**20)
    oracle = sum(left.probability(d) for d in left.outcomes() if d >= 5)
    assert r.p_lethal == oracle


def test_rolled_lethality_matches_monte_carlo():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(2024)
    n = 200_000
    r = fall(
        height_m=30, stamina=2, dexterity=2, athletics=1, lethal_means="rolled"
    )  # 11 damage dice, 3 break dice, lethal at 3
    assert r.damage_dice == 11
    assert r.break_dice == 3
    breaks = (rng.integers(1, 11, size=(n, 3)) >= 7).sum(axis=1)
    left = np.maximum(0, 11 - breaks)
    damage_rolls = rng.integers(1, 11, size=(n, 11)) >= 7
    mask = np.arange(11)[None, :] < left[:, None]
    rolled = (damage_rolls & mask).sum(axis=1)
    assert abs((rolled >= 3).mean() - float(r.p_lethal)) < 0.005  # ~5 sd
    assert abs(left.mean() - float(r.mean_dice_left)) < 0.01


def test_bad_input_names_the_field():
    with pytest.raises(InputError) as err:
        fall(height_m=-1, stamina=3, dexterity=3, athletics=2)
    assert err.value.field == "height_m"
    assert "Height of the fall" in err.value.message
    assert "from 0 to" in err.value.message
    with pytest.raises(InputError) as err:
        fall(height_m=10, stamina=0, dexterity=3, athletics=2)
    assert err.value.field == "stamina"
    assert "1 to 20" in err.value.message  # the Character record's Stamina range
    with pytest.raises(InputError) as err:
        fall(height_m=10, stamina=3, dexterity=3, athletics=2, count_from="bottom")
    assert err.value.field == "count_from"


def test_defaults_are_the_forms():
    # 15 m, Stamina 3 (safe 4 m), Dexterity 3, Athletics 2: the hand-worked fall above.
    r = fall()
    assert r == fall(height_m=15.0, stamina=3, dexterity=3, athletics=2)
    assert r.damage_dice == 5
    assert r.p_lethal == Q**5


# --- the working's equations are true for the numbers they print (issue 11, defect 6) ------


def check_working(text):
    """Every "⌊a ÷ b⌋ = n" and "Fall a m − safe b m = c m" in ``text`` holds for the
    numbers it prints; how many there were."""
    floors = check_all(
        rf"⌊({NUMBER}) ÷ ({NUMBER})⌋ = (\d+)",
        text,
        lambda a, b, n: math.floor(number(a) / number(b)) == int(n),
    )
    differences = check_all(
        rf"Fall ({NUMBER}) m − safe ({NUMBER}) m = ({NUMBER}) m",
        text,
        lambda a, b, c: number(a) - number(b) == number(c),
    )
    return floors + differences


def test_the_fall_prints_the_heights_its_dice_used():
    # Before: "Fall 20 m − safe 4 m = 16 m … ⌊16 ÷ 2⌋ = 7" for 19.999 m.
    r = fall(height_m=19.999, stamina=3, dexterity=3, athletics=2)
    assert r.damage_dice == 7  # ⌊(19.999 − 4) ÷ 2⌋ = ⌊7.9995⌋, by hand
    text = r.explain()
    assert "Fall 19.999 m − safe 4 m = 15.999 m past the safe distance" in text
    assert "⌊15.999 ÷ 2⌋ = 7" in text
    r = fall(
        height_m=29.998, stamina=3, dexterity=3, athletics=2
    )  # 25.998 m past: 20 m at 1 per 2, 5.998 m at 1 per 5
    assert r.damage_dice == 10 + 1
    assert "⌊5.998 ÷ 5⌋ = 1" in r.explain()


@pytest.mark.parametrize("count_from", ["safe", "top", "threshold"])
def test_every_printed_floor_and_difference_is_true(count_from):
    for metres in (4.001, 5.999, 19.999, 23.996, 24.004, 29.998, 44.9999, 170.005, 1234.567):
        text = fall(
            height_m=metres, stamina=3, dexterity=3, athletics=2, count_from=count_from
        ).explain()
        assert check_working(text) >= 2


def test_a_rounded_mean_is_printed_as_approximate():
    # 8 m, safe 4 m: 2 dice; a 5-die break-fall leaves 2 with P(0 successes) = 0.6⁵ and 1
    # with P(1 success) = 5 × 0.4 × 0.6⁴: mean 2 × 0.07776 + 0.2592 = 0.41472, not "0.41".
    r = fall(height_m=8, stamina=3, dexterity=3, athletics=2)
    assert r.mean_dice_left == Fraction("0.41472")
    (mean,) = [s.text for s in r.steps if s.text.startswith("Mean dice left")]
    assert mean == "Mean dice left ≈ 0.41"
    # 6 m: 1 die; a 1-die break-fall (Dex 1, Athletics 0) leaves it with P 0.6: exact, "="
    (mean,) = [
        s.text
        for s in fall(height_m=6, stamina=3, dexterity=1, athletics=0).steps
        if s.text.startswith("Mean dice left")
    ]
    assert mean == "Mean dice left = 0.6"


# --- the text's statements, one test each (issue 10, item 5) ---------------------------------


def test_text_lethal_if_the_damage_equals_or_exceeds_stamina_plus_athletics():
    # "Fall damage is lethal if the damage equals or exceeds the character's (Stamina +
    # Athletics)": Stamina 3 (safe 4 m) + Athletics 2 = 5, no break-fall. 14 m: ⌊10 ÷ 2⌋ = 5
    # dice, equal → lethal; 13 m: ⌊9 ÷ 2⌋ = 4 dice → not.
    assert fall(height_m=14, stamina=3, dexterity=3, athletics=2, break_fall=False).damage_dice == 5
    assert fall(height_m=14, stamina=3, dexterity=3, athletics=2, break_fall=False).p_lethal == 1
    assert fall(height_m=13, stamina=3, dexterity=3, athletics=2, break_fall=False).damage_dice == 4
    assert fall(height_m=13, stamina=3, dexterity=3, athletics=2, break_fall=False).p_lethal == 0


@pytest.mark.parametrize("stamina", range(1, 11))
def test_text_safe_distance_and_rates_for_every_stamina(stamina):
    # "(Stamina - 1) * 2 meters … 1d/2 meters (round down) for the first 20 meters and then
    # 1d/5 meters past that, up to 40d": by hand, whole and half metres to 250 m.
    safe = (stamina - 1) * 2
    for tenths in range(0, 2500, 5):
        h = Fraction(tenths, 10)
        e = max(Fraction(0), h - safe)
        by_hand = min(40, int(min(e, 20) // 2) + int(max(e - 20, 0) // 5))
        assert damage_dice(h, safe) == by_hand, h
    assert fall(height_m=safe, stamina=stamina, dexterity=3, athletics=2).damage_dice == 0


# --- the faller's conditions on the break-fall roll (issue 19) ---------------------------
# Worked by hand from the text. A 15 m fall, Stamina 3: safe (3 − 1) × 2 = 4 m, 11 m past
# it → ⌊11 ÷ 2⌋ = 5 dice; lethal at Stamina 3 + Athletics 2 = 5. Break-fall: Dex 3 + Ath 2
# = 5 dice (7+: 4/10). Encumbrance (Str 3 + Might 0, the record's defaults): Light up to
# 30 kg, Moderate up to 45, Heavy up to lift capacity 90, then he cannot move. Breaking a
# fall is "a physical action involving movement": Moderate +1, Heavy +2 (RN-COND-1);
# Dazed or Stunned +1 (RN-COND-4). Its first `added` successes pay for the difficulty
# and each further one removes a die (RN-COND-5's spend, RN-FALL-7): with k rolled,
# 5 − min(5, max(0, k − added)) dice are left.
#   all 5 left (lethal, dice compared) = P(k ≤ added):
#     +0: .6⁵ = .07776;  +1: .07776 + 5·.4·.6⁴ = .33696;  +2: .33696 + 10·.4²·.6³ = .68256
#   mean left = 5 − E[max(0, k − added)]: +0: 5 − 2 = 3; +1: 5 − (2 − 1 + .07776) = 3.92224


@pytest.mark.parametrize(
    ("load_kg", "daze", "added", "p_lethal"),
    [
        (0, "none", 0, Fraction(7776, 100000)),
        (25, "none", 0, Fraction(7776, 100000)),  # light: long-term endurance only
        (40, "none", 1, Fraction(33696, 100000)),  # moderate
        (60, "none", 2, Fraction(68256, 100000)),  # heavy
        (0, "dazed", 1, Fraction(33696, 100000)),
        (0, "stunned", 1, Fraction(33696, 100000)),
        (40, "stunned", 2, Fraction(68256, 100000)),
    ],
)
def test_the_fallers_load_and_daze_are_paid_with_successes(load_kg, daze, added, p_lethal):
    from ruleslab.character import Character, Conditions

    r = fall(
        height_m=15,
        faller=Character(stamina=3, dexterity=3, athletics=2),
        conditions=Conditions(load_kg=load_kg, daze=daze),
    )
    assert (r.damage_dice, r.break_dice, r.threshold) == (5, 5, 5)
    assert r.added_difficulty == added
    assert r.p_lethal == p_lethal == sum(exactly(5, k) for k in range(added + 1))
    if added:
        assert "RN-COND-5" in r.explain()
        assert f"Dice left = 5 − (successes − {added})" in r.explain()


def test_an_added_difficulty_leaves_more_dice():
    from ruleslab.character import Conditions

    calm = fall(height_m=15, conditions=Conditions())
    assert calm.mean_dice_left == 3
    dazed = fall(height_m=15, conditions=Conditions(daze="dazed"))
    assert dazed.mean_dice_left == Fraction(392224, 100000)
    # +1: 5 left = P(k ≤ 1), 4 left = P(2), 3 = P(3), 2 = P(4), 1 = P(5), 0 = P(k ≥ 6) = 0
    assert dazed.dice_left == (
        0,
        exactly(5, 5),
        exactly(5, 4),
        exactly(5, 3),
        exactly(5, 2),
        exactly(5, 0) + exactly(5, 1),
    )


def test_the_break_fall_table_reaches_dice_plus_the_difficulty_with_rerolls():
    # 2.1, Mega-Dexterity 1: Dex 1 + 2 = 3, + Ath 1 = 4 dice, 10s reroll. A 30 m fall with
    # Stamina 2 + 2 × Mega-Stamina 1 = 4: safe 6 m, 24 m past it: 20 m → 10 dice, 4 m → 0:
    # 10 dice. Dazed: no dice left needs 11 rolled; the probabilities still sum to 1.
    from ruleslab.character import Conditions

    r = fall(**MEGA_FALL, conditions=Conditions(daze="dazed"))
    assert r.damage_dice == 10
    assert r.reroll_tens
    assert r.added_difficulty == 1
    assert sum(r.dice_left) == 1
    calm = fall(**MEGA_FALL)
    # one success fewer counts: P(all 10 left) = P(k ≤ 1) now, P(k = 0) before
    assert r.dice_left[10] > calm.dice_left[10]
    assert r.dice_left[9] == calm.dice_left[8]  # both P(k = 2 rolled)


def test_a_load_beyond_capacity_leaves_no_break_fall():
    # Over lift capacity (90 kg for Str 3) he cannot move (RN-ENC-2), so no break-fall roll:
    # all 5 dice remain, P(lethal) = 1; at Heavy (90 kg) he still rolls, at +2.
    from ruleslab.character import Conditions

    over = fall(height_m=15, conditions=Conditions(load_kg=91))
    assert over.break_dice == 0
    assert over.dice_left == (0, 0, 0, 0, 0, 1)
    assert over.p_lethal == 1
    assert "he cannot break the fall" in over.explain()
    heavy = fall(height_m=15, conditions=Conditions(load_kg=90))
    assert heavy.break_dice == 5
    assert heavy.p_lethal == Fraction(68256, 100000)


def test_conditions_do_nothing_without_a_break_fall_roll():
    from ruleslab.character import Conditions

    dazed = Conditions(load_kg=60, daze="dazed")
    assert fall(height_m=15, break_fall=False, conditions=dazed) == fall(
        height_m=15, break_fall=False
    )
    assert fall(height_m=4, conditions=dazed) == fall(height_m=4)  # within the safe distance


def test_a_sprinting_record_leaves_no_break_fall():
    # "Sprinting characters may not take any actions during the turn except defensive
    # maneuvers" (RN-COND-2): a Python caller's record with sprinting set; no roll.
    from ruleslab.character import Conditions

    r = fall(height_m=15, conditions=Conditions(sprinting=True))
    assert r.break_dice == 0
    assert r.p_lethal == 1


def test_a_character_record_and_flat_fields_give_the_same_report():
    from ruleslab.character import Character, Conditions

    by_record = fall(
        height_m=30,
        faller=Character(stamina=4, dexterity=2, athletics=3, mega_dexterity=1),
        conditions=Conditions(load_kg=40, daze="dazed"),
    )
    by_fields = fall(
        height_m=30,
        stamina=4,
        dexterity=2,
        athletics=3,
        mega_dexterity=1,
        load_kg=40,
        daze="dazed",
    )
    assert by_record == by_fields
    mixed = fall(
        height_m=30,
        faller=Character(stamina=1, dexterity=2, athletics=3, mega_dexterity=1),
        stamina=4,
        conditions=Conditions(load_kg=40),
        daze="dazed",
    )
    assert mixed == by_record


def test_the_form_keeps_its_field_names():
    from ruleslab.calculators.falling import CALCULATOR

    assert [p.name for p in CALCULATOR.params] == [
        "height_m",
        "stamina",
        "dexterity",
        "athletics",
        "mega_stamina",
        "mega_dexterity",
        "strength",
        "might",
        "mega_strength",
        "quantum",  # issue 33: his health track, for the wound penalty (RN-COND-7)
        "willpower",
        "resistance",
        "break_fall",
        "load_kg",
        "daze",
        "levels_lost",
        "ruleset",
        "specialty",
        "count_from",
        "lethal_means",
    ]
