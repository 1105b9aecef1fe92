"""Chimera die algebra and the d20 Action Roll: hand-worked odds and bad dice text."""

import re
from fractions import Fraction

import pytest

from ruleslab.chimera.action import action_odds
from ruleslab.chimera.dice import DamageDice, constant, dice, die, parse_dice
from ruleslab.chimera.initiative import initiative_order


def test_one_die_and_sums():
    assert die(6).items() == tuple((k, Fraction(1, 6)) for k in range(1, 7))
    two = dice(2, 6)
    assert two.lo == 2
    assert two.hi == 12
    assert two.p(7) == Fraction(6, 36)
    assert two.total() == 1
    assert two.mean() == 7
    assert dice(0, 8) == constant(0)
    assert dice(3, 6).p(3) == Fraction(1, 216)


def test_higher_of_two():
    best = die(6).max_with(die(6))
    assert best.p(6) == Fraction(11, 36)
    assert best.p(1) == Fraction(1, 36)
    assert best.total() == 1
    assert best.at_least(5) == 1 - Fraction(16, 36)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d8", DamageDice(1, 8)),
        ("1d8", DamageDice(1, 8)),
        (" 2D6 ", DamageDice(2, 6)),
        ("d6+1", DamageDice(1, 6, 1)),
        ("d10 - 2", DamageDice(1, 10, -2)),
    ],
)
def test_parse_dice(text, expected):
    assert parse_dice(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("eight", "not a dice expression"),
        ("d1", "from 2 to 100"),
        ("11d6", "from 1 to 10"),
        ("d6+30", "from −20 to +20"),
        ("", "not a dice expression"),
    ],
)
def test_parse_dice_rejects(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        parse_dice(text)


def test_critical_damage_doubles_the_dice_not_the_bonus():
    d = parse_dice("d6+1")
    assert d.doubled("sum") == dice(2, 6).shift(1)
    assert d.doubled_text("sum") == "2d6+1"
    assert d.doubled("best").p(7) == Fraction(11, 36)  # higher of two d6 = 6, +1
    assert str(parse_dice("2d6")) == "2d6"


def test_action_roll_meets_or_beats():
    # d20 + 3 against TN 12 needs a natural 9: 12 faces of 20.
    odds = action_odds(3, 12)
    assert odds.p_success == Fraction(12, 20)
    assert odds.p_critical == Fraction(1, 20)
    assert odds.need == 9


def test_critical_readings():
    # TN out of reach: only a natural 20 (always succeeds) under the default.
    assert action_odds(0, 25).p_success == Fraction(1, 20)
    assert action_odds(0, 25, critical="natural_hit").p_success == 0
    assert action_odds(0, 25, critical="natural_hit").p_critical == 0
    # margin 10: total ≥ TN + 10, i.e. a natural 15+ against TN 5.
    m = action_odds(0, 5, critical="margin10")
    assert m.p_success == Fraction(16, 20)
    assert m.p_critical == Fraction(6, 20)
    assert action_odds(0, 5, critical="margin5").p_critical == Fraction(11, 20)
    assert action_odds(0, 5, critical="none").p_critical == 0
    # an easy TN: every roll succeeds
    assert action_odds(10, 5).p_success == 1


def test_other_action_dice():
    assert action_odds(0, 18, "3d6").p_critical == Fraction(1, 216)
    assert action_odds(0, 18, "3d6", "natural_hit").p_success == Fraction(1, 216)
    assert action_odds(0, 20, "2d10").p_success == Fraction(1, 100)


def test_initiative_order():
    a, tie, b = initiative_order(0, 0, 0, 0)
    assert tie == Fraction(1, 12)
    assert a == b == Fraction(11, 24)
    # a modifier of 12 or more always wins; each wound is −1 to the roll
    assert initiative_order(12, 0, 0, 0) == (1, 0, 0)
    assert initiative_order(1, 1, 0, 0) == (a, tie, b)
