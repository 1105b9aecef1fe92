"""One Chimera blow: Target Numbers, severity, vanquishing, morale and fates."""

from dataclasses import replace
from fractions import Fraction

import pytest

from ruleslab.chimera.attack import Fighter, FightRules, attack_odds, blast_resistance_bonus
from ruleslab.chimera.dice import parse_dice
from ruleslab.chimera.morale import must_check_morale, p_morale_fails, wound_triggers_morale
from ruleslab.chimera.surprise import surprise_odds
from ruleslab.chimera.wounds import (
    driven_off_turns,
    is_vanquished,
    killer_blow_resist,
    unconscious_turns,
    wound_penalty,
)
from ruleslab.pmf import dice

A = Fighter(name="A", mr=10, defence=1, wound_limit=3, damage=parse_dice("d8"), attack=3)
B = Fighter(name="B", mr=12, defence=1, wound_limit=2, damage=parse_dice("d6"), attack=2)
RULES = FightRules()


def test_default_blow_by_hand():
    odds = attack_odds(A, B, 0, 0, RULES)
    assert odds.tn == 12
    assert odds.p_hit == Fraction(3, 5)
    assert odds.p_critical == Fraction(1, 20)
    # plain hit 11/20: d8 − 1 ≥ 1 on 7 of 8; critical 1/20: 2d8 − 1 ≥ 1 always
    assert odds.p_wound == Fraction(11, 20) * Fraction(7, 8) + Fraction(1, 20) == Fraction(17, 32)
    # vanquish needs severity > WL 2: d8 ≥ 4 (5/8), or 2d8 ≥ 4 (61/64)
    expect = Fraction(11, 20) * Fraction(5, 8) + Fraction(1, 20) * Fraction(61, 64)
    assert odds.p_vanquish == expect == Fraction(501, 1280)
    sev = odds.severity
    assert sev.p_miss + sev.p_no_wound + sev.p_wound == 1
    # severity 1: d8 shows 2, or a critical's 2d8 shows 2
    assert dict(sev.pmf)[1] == Fraction(11, 20) * Fraction(1, 8) + Fraction(1, 20) * Fraction(1, 64)


def test_wound_penalty_lowers_tn_and_rolls():
    # B with 2 wounds: TN 12 − 2 = 10; A with 1 wound rolls +3 − 1 = +2.
    odds = attack_odds(A, B, 1, 2, RULES)
    assert odds.tn == 10
    assert odds.modifier == 2
    assert odds.p_hit == Fraction(13, 20)  # a natural 8 or more
    # B at WL 2 already: any wound (the third) vanquishes
    assert odds.p_vanquish == odds.p_wound
    assert wound_penalty(3) == -3
    # adjusted MR never below 0
    assert attack_odds(A, replace(B, mr=1), 0, 2, RULES).tn == 0


def test_positions_count_against_shoot_only():
    shooter = replace(A, kind="shoot")
    crouch = replace(B, position="crouching")
    prone = replace(B, position="prone", kind="shoot")
    assert attack_odds(A, crouch, 0, 0, RULES).tn == 12
    assert attack_odds(shooter, crouch, 0, 0, RULES).tn == 13
    assert attack_odds(shooter, prone, 0, 0, RULES).tn == 14


def test_parry_and_cover_add_to_tn_or_fold_into_defence():
    guarded = replace(B, parry=2, cover="heavy")
    assert attack_odds(A, guarded, 0, 0, RULES).tn == 12 + 2 + 4
    folded = attack_odds(A, guarded, 0, 0, replace(RULES, parry_cover="defence"))
    assert folded.tn == 12
    assert folded.defence == 1 + 2 + 4
    shooter = replace(A, kind="shoot")
    assert attack_odds(shooter, guarded, 0, 0, replace(RULES, parry_applies="fight")).tn == 16
    both = replace(B, position="prone", cover="light", kind="shoot")
    assert attack_odds(shooter, both, 0, 0, RULES).tn == 12 + 2 + 1
    assert attack_odds(shooter, both, 0, 0, replace(RULES, cover_stacking="best")).tn == 14


@pytest.mark.parametrize(("cover", "bonus"), [("light", 1), ("medium", 2), ("heavy", 4)])
def test_cover_table(cover, bonus):
    assert attack_odds(A, replace(B, cover=cover), 0, 0, RULES).tn == 12 + bonus


def test_blast_resistance_bonus():
    assert blast_resistance_bonus("medium") == 2
    assert blast_resistance_bonus("medium", reinforced=True) == 4
    assert blast_resistance_bonus("heavy", "prone", shield=1, shield_counts=True) == 4 + 2 + 1
    assert blast_resistance_bonus("light", shield=2) == 1


def test_vanquish_boundaries():
    # "exceeds": equal to the Wound Limit is not enough
    assert not is_vanquished(3, 3, 3)
    assert is_vanquished(4, 1, 3)
    assert is_vanquished(1, 4, 3)
    # zero-or-less severities are ignored: Defence 7 against d6 never wounds
    odds = attack_odds(B, replace(A, defence=7), 0, 0, replace(RULES, critical="none"))
    assert odds.p_wound == 0
    assert odds.p_vanquish == 0


def test_critical_rolls_two_dice():
    # Defence 8 against d8: only a critical (2d8 − 8 ≥ 1, i.e. 2d8 ≥ 9) wounds.
    tough = replace(B, defence=8)
    odds = attack_odds(A, tough, 0, 0, RULES)
    assert odds.p_wound == Fraction(1, 20) * dice(2, 8).at_least(9)
    best = attack_odds(A, tough, 0, 0, replace(RULES, critical_damage="best"))
    assert best.p_wound == 0


def test_morale_triggers_and_odds():
    assert wound_triggers_morale(2, 0, 1)
    assert not wound_triggers_morale(2, 1, 2)
    assert wound_triggers_morale(3, 1, 2)
    assert not wound_triggers_morale(3, 0, 1)
    assert wound_triggers_morale(1, 0, 1)
    assert not wound_triggers_morale(0, 0, 1)
    assert not must_check_morale(player_character=True, wounds=5, wound_limit=2)
    assert must_check_morale(player_character=False, wounds=1, wound_limit=2)
    assert must_check_morale(player_character=False, wounds=0, wound_limit=4, leader_fell=True)
    assert not must_check_morale(
        player_character=False, wounds=0, wound_limit=4, allies_lost=Fraction(1, 2)
    )
    assert must_check_morale(
        player_character=False, wounds=0, wound_limit=4, allies_lost=Fraction(3, 5)
    )
    # d20 + 0 − 1 against 10 needs 11: fails on 1..10
    assert p_morale_fails(0, 1, 10) == Fraction(1, 2)


def test_fates_and_surprise():
    # Killer Blow: d20 + 2 − 1 against TN 12 needs 11
    assert killer_blow_resist(2, 1) == Fraction(10, 20)
    assert unconscious_turns().mean() == Fraction(7, 2)
    assert driven_off_turns(4) == 4
    s = surprise_odds(2, 12)
    assert s.p_fail == Fraction(9, 20)
    assert s.p_success == Fraction(10, 20)
    assert s.p_critical == Fraction(1, 20)


def test_against_icepool():
    icepool = pytest.importorskip("icepool")
    odds = attack_odds(A, B, 0, 0, RULES)

    def outcome(roll, d1, d2):
        hit = roll + 3 >= 12 or roll == 20
        if not hit:
            return -1
        return max((d2 if roll == 20 else d1) - 1, 0)

    die = icepool.map(outcome, icepool.d20, icepool.d8, 2 @ icepool.d8)
    den = die.denominator()
    got = {k: Fraction(q, den) for k, q in die.items()}
    assert got[-1] == odds.severity.p_miss
    assert got.get(0, 0) == odds.severity.p_no_wound
    assert {k: v for k, v in got.items() if k >= 1} == dict(odds.severity.pmf)
