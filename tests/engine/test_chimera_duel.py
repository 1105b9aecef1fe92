"""The Chimera duel: hand-solved chains, ends, surprise, and a seeded simulation."""

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from ruleslab.calculators.chimera import SURPRISE_BENEFIT
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import parse_dice
from ruleslab.chimera.duel import SurprisePlan, duel_odds, play

# Wound Limit 0, Defence 0, d4+10 damage: every hit vanquishes. A hits on 11+
# (p = 1/2), B on 16+ (q = 1/4); equal initiative, no criticals.
A0 = Fighter(name="A", mr=16, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
B0 = Fighter(name="B", mr=11, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
NO_CRIT = FightRules(critical="none")


def test_one_hit_duel_by_hand():
    p, q = Fraction(1, 2), Fraction(1, 4)
    # per round: A first (1/2) then B; or B first (1/2) then A
    r_a = Fraction(1, 2) * p + Fraction(1, 2) * (1 - q) * p
    r_b = Fraction(1, 2) * (1 - p) * q + Fraction(1, 2) * q
    d = duel_odds(A0, B0, NO_CRIT)
    assert d.p_win == (r_a / (r_a + r_b), r_b / (r_a + r_b)) == (Fraction(7, 10), Fraction(3, 10))
    assert d.expected_rounds == 1 / (r_a + r_b) == Fraction(8, 5)
    assert d.p_draw == d.p_endless == 0
    assert d.p_morale == (0, 0)


def test_simultaneous_ties_can_draw():
    p, q = Fraction(1, 2), Fraction(1, 4)
    first, tie = Fraction(11, 24), Fraction(1, 12)
    r_a = first * p + first * (1 - q) * p + tie * p * (1 - q)
    r_b = first * (1 - p) * q + first * q + tie * q * (1 - p)
    r_d = tie * p * q
    d = duel_odds(A0, B0, replace(NO_CRIT, ties="simultaneous"))
    total = r_a + r_b + r_d
    assert d.p_win == (r_a / total, r_b / total)
    assert d.p_draw == r_d / total
    assert d.expected_rounds == 1 / total
    assert sum(d.p_win) + d.p_draw == 1


def test_nobody_can_be_hurt_is_endless():
    armoured = replace(A0, defence=20)
    d = duel_odds(armoured, replace(B0, defence=20), NO_CRIT)
    assert d.p_endless == 1
    assert d.expected_rounds is None
    # one side can be hurt: the other always wins eventually
    d = duel_odds(armoured, B0, NO_CRIT)
    assert d.p_win == (1, 0)
    assert d.expected_rounds is not None


def test_surprise_action_that_always_kills():
    sure = replace(B0, mr=0)  # TN 0: A cannot miss, and any hit vanquishes
    plan = SurprisePlan(side=0, sneak=20, tn=1, benefit="action")
    d = duel_odds(A0, sure, NO_CRIT, plan)
    assert d.p_win == (1, 0)
    assert d.expected_rounds == 1  # the surprise round
    # the other reading: A acts first in round 1, the same here
    d = duel_odds(A0, sure, replace(NO_CRIT, surprise_action="first"), plan)
    assert d.p_win == (1, 0)
    assert d.expected_rounds == 1


def test_surprise_bonus_mixes_the_sneak_outcomes():
    # Sneak +0 against TN 11: fails 1/2, succeeds 1/2 (no criticals).
    plan = SurprisePlan(side=0, sneak=0, tn=11, benefit="bonus")
    plain = duel_odds(A0, B0, NO_CRIT)
    d = duel_odds(A0, B0, NO_CRIT, plan)
    # first round with A at +2: p = 3/5
    p, q = Fraction(3, 5), Fraction(1, 4)
    r1_a = Fraction(1, 2) * p + Fraction(1, 2) * (1 - q) * p
    r1_b = Fraction(1, 2) * (1 - p) * q + Fraction(1, 2) * q
    stay = 1 - r1_a - r1_b
    with_bonus = r1_a + stay * plain.p_win[0]
    assert d.p_win[0] == Fraction(1, 2) * plain.p_win[0] + Fraction(1, 2) * with_bonus


def test_morale_wins_are_counted():
    a = Fighter(
        name="A", mr=10, defence=1, wound_limit=3, damage=parse_dice("d8"), attack=3, character="pc"
    )
    b = Fighter(name="B", mr=12, defence=1, wound_limit=2, damage=parse_dice("d6"), attack=2)
    d = duel_odds(a, b)
    assert d.p_morale[0] > 0
    assert d.p_morale[1] == 0
    assert sum(d.p_win) + d.p_draw + d.p_endless == 1
    fearless = duel_odds(a, replace(b, character="pc"))
    assert fearless.p_morale == (0, 0)
    assert fearless.p_win[0] < d.p_win[0]


def test_starting_wounds_are_used():
    a = replace(A0, wound_limit=3, damage=parse_dice("d4"))
    b = replace(B0, wound_limit=3, damage=parse_dice("d4"))
    fresh = duel_odds(a, b, NO_CRIT)
    hurt = duel_odds(a, replace(b, wounds=3), NO_CRIT)
    assert hurt.p_win[0] > fresh.p_win[0]
    assert hurt.states == 4  # B stays at 3 wounds; A from 0 to 3


def _simulate(a, b, rules, plan, n, seed):
    rng = random.Random(seed)
    ends = {"v0": 0, "v1": 0, "m0": 0, "m1": 0, "draw": 0, None: 0}
    rounds = 0
    for _ in range(n):
        played = play(a, b, rules, rng, surprise=plan, max_rounds=1000)
        ends[played.end] += 1
        rounds += played.rounds
    return ends, rounds / n


@pytest.mark.parametrize(
    ("rules", "plan"),
    [
        (FightRules(), None),
        (FightRules(ties="simultaneous", critical="margin5"), SurprisePlan(1, 3, 12, "action")),
        (
            FightRules(critical_damage="best", parry_cover="defence"),
            SurprisePlan(0, 1, 12, "bonus"),
        ),
    ],
)
def test_duel_matches_a_seeded_simulation(rules, plan):
    # 10 000 seeded fights; 4 standard errors (≤ 0.02 for a probability).
    # A: the record's defaults (MR 10, DF 1, WL 3, d8, attack +3), a PC with parry and IM +1
    a = Fighter(name="A", character="pc", parry=1, initiative=1)
    b = Fighter(name="B", mr=12, wound_limit=2, damage="d6+1", attack=2, cover="light", resist=1)
    exact = duel_odds(a, b, rules, plan)
    n = 10_000
    ends, mean_rounds = _simulate(a, b, rules, plan, n, seed=20240601)
    tol = 4 * (0.25 / n) ** 0.5
    assert abs(ends["v0"] / n - float(exact.p_vanquish[0])) < tol
    assert abs(ends["v1"] / n - float(exact.p_vanquish[1])) < tol
    assert abs(ends["m0"] / n - float(exact.p_morale[0])) < tol
    assert abs(ends["draw"] / n - float(exact.p_draw)) < tol
    assert ends[None] == 0
    assert abs(mean_rounds - float(exact.expected_rounds)) < 0.05


# --- a Python caller's bad values (issue 11) -------------------------------------------


def test_more_wounds_than_the_wound_limit_says_so():
    # Before: KeyError (0, 5) from the table of states.
    b = replace(B0, wound_limit=3, wounds=5)
    message = (
        "B's wounds (5) must be at most his Wound Limit (3): more would already have vanquished him"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        duel_odds(A0, b, NO_CRIT)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        play(A0, b, NO_CRIT, random.Random(1))


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        (
            {"side": 2, "sneak": 0, "tn": 10},
            "SurprisePlan.side must be 0 (A sneaks) or 1 (B sneaks), not 2",
        ),
        (
            {"side": 0, "sneak": 0, "tn": 10, "benefit": "both"},
            "SurprisePlan.benefit must be one of action, bonus, not 'both'",
        ),
        ({"side": 0, "sneak": 1.5, "tn": 10}, "SurprisePlan.sneak must be a whole number, not 1.5"),
        ({"side": 0, "sneak": 0, "tn": "12"}, "SurprisePlan.tn must be a whole number, not '12'"),
    ],
)
def test_a_bad_surprise_plan_says_so(plan, message):
    for benefit, _ in SURPRISE_BENEFIT.choices:  # what the form offers is taken
        assert SurprisePlan(side=1, sneak=0, tn=10, benefit=benefit).benefit == benefit
    # Before: side 2 was an IndexError when played and silently B's surprise in the odds;
    # an unknown benefit was silently "action".
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        SurprisePlan(**plan)
