"""Warfare › Quantity is Quality: the Size difference on defensive and awareness rolls, and Morale.

The rules (:mod:`ruleslab.alterations.warfare.quantity`) and how the Warfare calculator
(:mod:`ruleslab.calculators.warfare`) applies them: the text's own example (a
platoon surrounded by 20,000 men), hand-worked difficulties, odds and Morale
tracks, the readings of rules notes RN-WAR-3, RN-WAR-11 and RN-WAR-12.
"""

from fractions import Fraction
from math import comb

import pytest

from ruleslab.alterations.warfare import hit_probability
from ruleslab.alterations.warfare.quantity import awareness_roll, morale_loss, quantity_is_quality
from ruleslab.calculators.warfare import warfare
from ruleslab.dice import pool_distribution
from ruleslab.params import InputError

P = Fraction(2, 5)  # one d10 at 7+
Q = 1 - P


def at_least(dice: int, k: int) -> Fraction:
    """P(at least k successes on `dice` d10 at 7+), summed by hand from the binomial."""
    return sum((comb(dice, j) * P**j * Q ** (dice - j) for j in range(k, dice + 1)), Fraction(0))


# --- the text's example: "a platoon surrounded by 20,000 men" ------------------------


def test_a_platoon_surrounded_by_20000_men():
    # "The net size difference inflicts a +1 difficulty penalty per point to any
    # defensive or awareness rolls. It's not so hard for a group of commandos to sneak
    # past you when you're a platoon surrounded by 20,000 men."
    # A platoon is Size 1 ("Size 1 being roughly platoon-level (~40 men)"), 20,000 men
    # Size 10 ("Size 10 is ~20,000 combat personnel"): net difference 10 − 1 = 9.
    r = warfare(
        enemy_size=10,
        party_size=1,
        awareness_dice=8,
        awareness_difficulty=1,
        party_morale=7,
        party_morale_permanent=8,
    )
    assert r.headcount == 20_480
    assert r.size_difference == 9
    # defensive rolls: +9 difficulty on the platoon's Wits + Tactics defence
    assert r.defence_penalty == 9
    assert r.figure("defence_penalty").text == (
        "+9 difficulty to the party's defensive and awareness rolls"
    )
    # awareness: the roll to spot the commandos needs 1 + 9 = 10 successes; 8 dice
    # cannot roll 10, so the commandos get past for certain (without the Size: 1 − 0.6^8)
    assert r.awareness_difficulty_total == 10
    assert r.p_awareness == 0
    assert r.p_awareness_without_size == 1 - Q**8
    assert r.figure("awareness").text == (
        "0 % at difficulty 1 + 9 for Size = 10 (without the Size penalty: 98.32 %)"
    )
    # Reduced Morale: 9 points of Size take the platoon's Morale, both tracks, to 0
    assert r.morale_reduction == 9
    assert (r.party_morale_after, r.party_morale_permanent_after) == (0, 0)
    assert r.figure("morale_reduction").text == (
        "the party's force loses 9: temporary 7 → 0, permanent 8 → 0"
    )


def test_the_platoons_defence_against_the_corps():
    # Same platoon, defence 5 dice (Wits 3 + Tactics 2): the first 9 successes of the
    # defence go to the +9 difficulty, and 5 dice never roll more than 5, so the defence
    # cancels nothing: each attack hits when its 3 + 10 = 13 dice roll 1 success.
    r = warfare(enemy_size=10, party_size=1, commander_intelligence=5, commander_command=5)
    assert r.attack_dice == 13
    assert r.p_hit == 1 - Q**13
    assert r.attacks == 10


# --- the defence penalty (RN-WAR-3) --------------------------------------------------


@pytest.mark.parametrize(
    ("enemy", "party", "apply", "diff", "penalty"),
    [(5, 2, True, 3, 3), (5, 2, False, 3, 0), (2, 5, True, -3, 0), (4, 4, True, 0, 0)],
)
def test_quantity_is_quality(enemy, party, apply, diff, penalty):
    r = quantity_is_quality(enemy, party, 5, apply_penalty=apply)
    assert (r.difference, r.penalty) == (diff, penalty)


def test_size_difference_penalises_the_smaller_sides_defence():
    r = warfare(enemy_size=5, party_size=2)
    assert r.size_difference == 3
    assert r.defence_penalty == 3
    assert r.morale_reduction == 3
    assert r.figure("defence_penalty").text.startswith("+3 difficulty to the party's")
    # the defaults: temporary 5 of a permanent 10
    assert r.figure("morale_reduction").text == (
        "the party's force loses 3: temporary 5 → 2, permanent 10 → 7"
    )
    assert r.p_hit == hit_probability(pool_distribution(8), 5, penalty=3)


def test_larger_party_penalises_the_enemy_not_the_defence():
    r = warfare(enemy_size=2, party_size=5)
    assert r.size_difference == -3
    assert r.defence_penalty == 0
    assert r.morale_reduction == 3
    assert "enemy's" in r.figure("defence_penalty").text
    assert r.figure("morale_reduction").text == (
        "the enemy loses 3: temporary 5 → 2, permanent 10 → 7"
    )


def test_size_penalty_can_be_left_out():
    r = warfare(enemy_size=5, party_size=2, size_penalty="ignore")
    assert r.defence_penalty == 0
    assert r.p_hit == hit_probability(pool_distribution(8), 5)


def test_penalty_raises_the_hit_chance():
    assert warfare(party_size=0).p_hit > warfare(party_size=5).p_hit


# --- awareness rolls (RN-WAR-11) ------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "difficulty", "diff", "need"),
    [(6, 1, 3, 4), (6, 2, 0, 2), (6, 2, -4, 2), (3, 1, 1, 2), (10, 3, 9, 12)],
)
def test_awareness_roll_hand_worked(dice, difficulty, diff, need):
    r = awareness_roll(dice, difficulty, diff)
    assert r.penalty == max(0, diff)
    assert r.difficulty == need
    assert r.p_success == at_least(dice, need)
    assert r.p_without_penalty == at_least(dice, difficulty)
    assert r.steps[-1].rule.endswith("Warfare › Quantity is Quality")


def test_awareness_in_the_calculator():
    # Enemy Size 5, party's force Size 2: +3; 6 dice at difficulty 1 + 3 = 4.
    r = warfare(enemy_size=5, party_size=2, awareness_dice=6)
    assert r.p_awareness == at_least(6, 4)
    assert r.figure("awareness").value == at_least(6, 4)
    assert r.figure("awareness").text == (
        "17.92 % at difficulty 1 + 3 for Size = 4 (without the Size penalty: 95.33 %)"
    )
    assert "Awareness roll" in r.explain()
    # the size_penalty option is about the defence only: the awareness roll keeps it
    assert warfare(
        enemy_size=5, party_size=2, awareness_dice=6, size_penalty="ignore"
    ).p_awareness == (at_least(6, 4))


def test_awareness_when_the_party_is_not_smaller():
    r = warfare(enemy_size=2, party_size=5, awareness_dice=6, awareness_difficulty=2)
    assert r.p_awareness == at_least(6, 2)
    assert r.figure("awareness").text == (
        "76.67 % at difficulty 2 (no Size penalty: the party's force is not smaller)"
    )


def test_no_awareness_roll_by_default():
    r = warfare()
    assert r.p_awareness is None
    assert "awareness" not in [f.key for f in r.figures()]


# --- Reduced Morale, temporary and permanent (RN-WAR-12) --------------------------------


def test_morale_loss_hand_worked():
    party = {"party_has_force": True, "party_temporary": 4, "party_permanent": 6}
    r = morale_loss(3, **party, enemy_temporary=5, enemy_permanent=5)
    assert (r.side, r.points) == ("party", 3)
    assert (r.temporary_before, r.temporary_after) == (4, 1)
    assert (r.permanent_before, r.permanent_after) == (6, 3)
    enemy = morale_loss(-2, **party, enemy_temporary=1, enemy_permanent=7)
    assert (enemy.side, enemy.points) == ("enemy", 2)
    assert (enemy.temporary_after, enemy.permanent_after) == (0, 5)  # never below 0


def test_morale_loss_not_taken_and_no_force():
    kw = {"party_temporary": 5, "party_permanent": 5, "enemy_temporary": 5, "enemy_permanent": 5}
    off = morale_loss(3, party_has_force=True, apply=False, **kw)
    assert (off.side, off.points) == ("party", 0)
    assert off.text == "the party's force may lose up to 3 Morale (not taken this turn)"
    none = morale_loss(3, party_has_force=False, **kw)
    assert none.points == 0
    assert none.text == "the party has no force (Size 0): no Morale track to lose"
    equal = morale_loss(0, party_has_force=True, **kw)
    assert (equal.side, equal.points, equal.text) == ("", 0, "none (equal Size)")


def test_a_smaller_enemy_spends_the_morale_it_has_left():
    # Party's force Size 5, enemy Size 2: the enemy loses 3 Morale before it spends any.
    ok = warfare(enemy_size=2, party_size=5, morale=4, morale_permanent=4, spend_morale=True)
    assert (ok.morale_after, ok.morale_permanent_after) == (1, 1)
    assert ok.attack_auto == 1
    short = dict(enemy_size=2, party_size=5, morale=3, morale_permanent=5, spend_morale=True)
    with pytest.raises(InputError) as exc:
        warfare(**short)
    assert exc.value.field == "spend_morale"
    assert exc.value.message == (
        "Spend 1 Morale needs at least 1 Morale left: Quantity is Quality takes 3 of the "
        "enemy's 3 this turn."
    )
    # not taken this turn: the enemy spends from the Morale typed
    later = warfare(**short, size_morale="ignore")
    assert later.attack_auto == 1
    assert later.morale_reduction == 0
    assert later.figure("morale_reduction").text == (
        "the enemy may lose up to 3 Morale (not taken this turn)"
    )


def test_party_without_a_force_has_no_morale_to_lose():
    r = warfare(enemy_size=5, party_size=0)
    assert r.morale_reduction == 0
    assert r.figure("morale_reduction").text == (
        "the party has no force (Size 0): no Morale track to lose"
    )
