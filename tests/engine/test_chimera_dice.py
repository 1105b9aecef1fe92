"""Chimera dice: damage, severity, the d20 Action Roll, initiative; hand-worked odds, bad text."""

import itertools
import re
from fractions import Fraction

import pytest

from ruleslab.chimera.action import action_odds
from ruleslab.chimera.dice import DamageDice, check_dice, parse_dice
from ruleslab.chimera.initiative import initiative_order
from ruleslab.chimera.wounds import severity_odds
from ruleslab.pmf import dice


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d8", DamageDice(1, 8)),
        ("1d8", DamageDice(1, 8)),
        (" 2D6 ", DamageDice(2, 6)),
        ("d6+1", DamageDice(1, 6, 1)),
        ("d10 - 2", DamageDice(1, 10, -2)),
        ("\t10 d 100 + 20\n", DamageDice(10, 100, 20)),
        ("010d06-00", DamageDice(10, 6, 0)),
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
        ("2d", "not a dice expression"),
        ("d6+", "not a dice expression"),
        ("d6 1", "not a dice expression"),
        ("2 2d6", "not a dice expression"),
        ("d6+1+1", "not a dice expression"),
        (" " * 19 + "d" + " " * 19 + "x", "not a dice expression"),
    ],
)
def test_parse_dice_rejects(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        parse_dice(text)


@pytest.mark.parametrize(
    ("dice", "why"),
    [
        (DamageDice(0, 6), "the number of dice must be from 1 to 10"),
        (DamageDice(40, 100), "the number of dice must be from 1 to 10"),
        (DamageDice(2.5, 6), "the number of dice must be from 1 to 10"),
        (DamageDice(True, 6), "the number of dice must be from 1 to 10"),
        (DamageDice(1, 1), "a die must have from 2 to 100 sides"),
        (DamageDice(1, 10**6), "a die must have from 2 to 100 sides"),
        (DamageDice(1, 6, -21), "the bonus must be from −20 to +20"),
    ],
)
def test_dice_given_as_data_are_checked_like_text(dice, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        check_dice(dice)


def test_dice_within_the_limits_are_returned_as_given():
    for given in (DamageDice(1, 2, -20), DamageDice(10, 100, 20), parse_dice("2d6+1")):
        assert check_dice(given) is given


def test_critical_damage_doubles_the_dice_not_the_bonus():
    d = parse_dice("d6+1")
    assert d.doubled("sum") == dice(2, 6).shift(1)
    assert d.doubled_text("sum") == "2d6+1"
    assert d.doubled("best").p(7) == Fraction(11, 36)  # higher of two d6 = 6, +1
    assert str(parse_dice("2d6")) == "2d6"


def _enumerated_severity(p_hit, p_crit, dmg, how, defence):
    """``{severity: P}`` for severities ≥ 1, by listing every face of every die."""
    out: dict[int, Fraction] = {}
    one = list(itertools.product(range(1, dmg.sides + 1), repeat=dmg.count))
    if how == "sum":
        crit_rolls = [sum(a) + sum(b) for a in one for b in one]
    else:
        crit_rolls = [max(sum(a), sum(b)) for a in one for b in one]
    for weight, rolls in ((p_hit - p_crit, [sum(a) for a in one]), (p_crit, crit_rolls)):
        for r in rolls:
            sev = r + dmg.bonus - defence
            if sev >= 1:
                out[sev] = out.get(sev, Fraction(0)) + weight / len(rolls)
    return out


@pytest.mark.parametrize(
    ("text", "how", "defence", "wound_limit", "wounds"),
    [
        ("d6+1", "sum", 2, 3, 0),
        ("2d4", "best", 3, 2, 0),
        ("2d4-1", "sum", 0, 2, 2),  # any wound is one too many: every wound vanquishes
        ("d8", "best", 9, 3, 0),  # Defence above the dice: only criticals can wound
        ("d4", "sum", 10, 3, 0),  # no wound at all
    ],
)
def test_severity_matches_enumeration(text, how, defence, wound_limit, wounds):
    dmg = parse_dice(text)
    p_hit, p_crit = Fraction(3, 5), Fraction(1, 10)
    sev = severity_odds(p_hit, p_crit, dmg, defence, wound_limit, wounds, how)
    want = _enumerated_severity(p_hit, p_crit, dmg, how, defence)
    assert dict(sev.pmf) == want
    assert [s for s, _ in sev.pmf] == sorted(want)
    assert sev.p_wound == sum(want.values())
    assert sev.p_miss + sev.p_no_wound + sev.p_wound == 1
    assert sev.mean() == sum(s * p for s, p in want.items())
    limit = 0 if wounds + 1 > wound_limit else wound_limit
    assert sev.p_vanquish == sum(p for s, p in want.items() if s > limit)


def test_damage_at_the_limits():
    # 10d100: 991 totals; every die at 1 (or 100) is one roll in 100¹⁰, one die at 2 ten.
    d = parse_dice("10d100+20")
    roll = d.dist()
    assert (roll.lo, roll.hi) == (30, 1020)
    assert roll.p(30) == roll.p(1020) == Fraction(1, 100**10)
    assert roll.p(31) == Fraction(10, 100**10)
    assert roll.total() == 1
    assert roll.mean() == Fraction(1010, 2) + 20
    crit = d.doubled("sum")
    assert (crit.lo, crit.hi) == (40, 2020)
    assert crit.p(41) == Fraction(20, 100**20)
    best = d.doubled("best")
    assert best.p(30) == Fraction(1, 100**20)  # both rolls at their lowest
    assert best.total() == 1


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
