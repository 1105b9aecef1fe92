"""The Dice pool calculator (``ruleslab.calculators.dice_pool``): its form, figures,
steps, chart and roll log, against hand-worked values (the pool's rules are
tested in ``test_dice.py``)."""

from fractions import Fraction

import pytest

from ruleslab.calculators.dice_pool import PoolOdds, dice_pool, roll_log
from ruleslab.dice import DICE, pool_distribution
from ruleslab.explain import Explained
from ruleslab.params import BoolParam, InputError, IntParam
from ruleslab.sources import QR

F = Fraction


def test_dice_pool_declares_its_form():
    names = [p.name for p in dice_pool.params]
    assert names == ["dice", "auto_successes", "difficulty", "reroll_tens", "target"]
    kinds = [type(p) for p in dice_pool.params]
    assert kinds == [IntParam, IntParam, IntParam, BoolParam, IntParam]
    assert all(p.help for p in dice_pool.params)


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"dice": -1}, "dice", ("Dice", "0 to 60")),
        ({"dice": 200}, "dice", ("Dice", "0 to 60")),
        ({"difficulty": 0}, "difficulty", ("Difficulty (successes needed)", "1 to 60")),
        ({"target": 11}, "target", ("Target number", "2 to 10")),
        ({"auto_successes": 31}, "auto_successes", ("Automatic successes", "0 to 30")),
    ],
)
def test_dice_pool_rejects_out_of_range(kwargs, field, words):
    args = {"dice": 6, "auto_successes": 0, "difficulty": 1, "reroll_tens": False, "target": 7}
    args.update(kwargs)
    with pytest.raises(InputError) as err:
        dice_pool(**args)
    assert err.value.field == field
    for w in words:
        assert w in err.value.message


def test_dice_pool_figures_and_steps():
    r = dice_pool(dice=6, auto_successes=0, difficulty=2, reroll_tens=False, target=7)
    assert isinstance(r, PoolOdds)
    assert isinstance(r, Explained)
    assert [f.key for f in r.figures()] == ["p_success", "p_botch", "mean", "p_failure"]
    d = pool_distribution(6)
    assert r.distribution == d
    assert r.p_success == d.at_least(2) == 1 - F(6, 10) ** 6 - 6 * F(4, 10) * F(6, 10) ** 5
    assert r.figure("p_failure").value == 1 - r.p_success
    assert r.p_botch == F(6, 10) ** 6 - F(5, 10) ** 6
    assert r.mean == F(12, 5)
    assert r.figure("mean").text == "2.4 successes"
    assert r.figure("p_success").text.endswith("%")
    text = r.explain()
    assert "A die succeeds on 7–10: 4/10" in text
    assert "P(successes ≥ 2)" in text
    assert all(s.rule.startswith((DICE + " › ", QR + " › ")) for s in r.steps)
    rules = {s.rule for s in r.steps}
    assert {"Dice pool › Successes", "Dice pool › Botch", "Dice pool › Difficulty"} <= rules
    assert not any(s.rule.startswith(QR) for s in r.steps)  # no reroll: no reroll citation


def test_dice_pool_with_rerolls_and_auto():
    r = dice_pool(dice=5, auto_successes=2, difficulty=4, reroll_tens=True, target=7)
    rules = [s.rule for s in r.steps]
    assert "Quick reference › 2.0 Rules › Specialties" in rules
    assert "Quick reference › 2.1 Rules › Specialties" in rules
    assert "Dice pool › Automatic successes" in rules
    assert r.p_botch == 0
    assert r.mean == 5 * F(4, 9) + 2
    assert r.p_success == pool_distribution(5, 2, 7, True).at_least(4)
    text = r.explain()
    assert "36/100 · (1/10)^(k−1)" in text
    assert "10⁻¹²" in text  # the tail bound is stated
    assert "cannot" in text or "no botch" in text


def test_dice_pool_chart_cut():
    r = dice_pool(dice=6, auto_successes=1, difficulty=1, reroll_tens=True, target=7)
    chart = r.chart()
    assert chart.highlight_from == 1  # the difficulty
    bars = chart.bars
    assert bars[0] == ("0", 0.0)
    assert [label for label, _ in bars] == [str(k) for k in range(len(bars))]
    assert bars[-1][1] >= 1e-6
    nxt = r.distribution.probability(len(bars))
    assert nxt < F(1, 10**6)
    assert all(r.distribution.probability(k) < F(1, 10**6) for k in range(len(bars), 40))


def test_dice_pool_impossible_difficulty():
    r = dice_pool(dice=2, auto_successes=0, difficulty=5, reroll_tens=False, target=7)
    assert r.p_success == 0
    assert r.figure("p_success").text == "0 %"
    r = dice_pool(dice=0, auto_successes=0, difficulty=1, reroll_tens=True, target=7)
    assert r.p_success == 0
    assert r.p_botch == 0
    assert "no botch" in r.explain()


def test_upto_extends_the_rerolled_table():
    # found by hypothesis: 27 dice needing 27 tens; without `upto` the table stops earlier
    short = pool_distribution(27, target=10, reroll_tens=True)
    assert len(short.pmf) <= 27
    assert short.at_least(28) == 0
    d = pool_distribution(27, target=10, reroll_tens=True, upto=27)
    assert len(d.pmf) >= 28
    assert d.pmf[: len(short.pmf)] == short.pmf
    assert d.at_least(27) >= F(1, 10**27)  # at least: all 27 dice show 10
    assert sum(d.pmf) + d.tail_bound == 1
    assert d.tail_bound < short.tail_bound
    r = dice_pool(dice=27, auto_successes=0, difficulty=27, reroll_tens=True, target=10)
    assert r.p_success == d.at_least(27) > 0
    assert r.figure("p_success").text == "< 0.01 %"
    r = dice_pool(dice=1, auto_successes=3, difficulty=60, reroll_tens=True, target=7)
    assert r.p_success == F(4, 10) * F(1, 10) ** 56  # 56 tens in a row, then 7..10


def test_roll_log_is_seeded_and_consistent():
    import random

    from ruleslab.dice import roll_pool

    odds = dice_pool(dice=8, auto_successes=1, difficulty=3, reroll_tens=True, target=7)
    assert roll_log(odds, 42) == roll_log(odds, 42)
    assert any(roll_log(odds, s) != roll_log(odds, 42) for s in range(43, 50))
    for seed in range(200):
        roll = roll_pool(
            8, auto=1, target=7, reroll_tens=True, difficulty=3, rng=random.Random(seed)
        )
        assert len(roll.faces) == 8 + sum(1 for f in roll.faces if f == 10)
        assert roll.successes == 1 + sum(1 for f in roll.faces if f >= 7)
        assert roll.success == (roll.successes >= 3)
        assert not roll.botch  # an automatic success never botches
