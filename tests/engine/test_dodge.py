"""The target's defence against an attack (``ruleslab.quickref.defence.dodge``): the 2.0 dodge, the
2.1 Defense, active defence and power block, and net successes, worked by hand."""

from fractions import Fraction

import pytest

from ruleslab.dice import pool_distribution
from ruleslab.params import InputError
from ruleslab.quickref.defence.dodge import (
    attack_target,
    net_successes,
    target_defense,
    target_dodge,
)

P, Q = Fraction(4, 10), Fraction(6, 10)  # a die's success / failure


def test_two_attack_dice_against_one_dodge_die():
    # A ∈ {0, 1, 2} with Q², 2PQ, P²; D ∈ {0, 1} with Q, P; hit iff A − D ≥ 1
    attack, dodge = pool_distribution(2), pool_distribution(1, upto=4)
    r = net_successes(attack, dodge, False, difficulty=1, base=1, targets=1)
    # A = 1, D = 0: no extra; A = 2, D = 1: no extra; A = 2, D = 0: one extra
    assert r.extras == (2 * P * Q * Q + P * P * P, P * P * Q)
    assert r.p_hit == 2 * P * Q * Q + P * P
    assert r.p_miss == 1 - r.p_hit
    assert r.p_any_hit == r.p_hit
    assert r.unresolved == 0


def test_ignoring_the_first_dodge_success():
    # Guided: one dodge die never cancels anything
    attack, dodge = pool_distribution(1), pool_distribution(1, upto=3)
    r = net_successes(attack, dodge, True, difficulty=1, base=1, targets=1)
    assert r.p_hit == P


def test_each_target_dodges_on_its_own():
    # one attack die, each of 2 targets dodges with one die: at least one fails to dodge
    attack, dodge = pool_distribution(1), pool_distribution(1, upto=3)
    r = net_successes(attack, dodge, False, difficulty=1, base=1, targets=2)
    assert r.p_hit == P * Q
    assert r.p_any_hit == P * (1 - P * P)


# --- the target's defence: 2.0 dodge, 2.1 Defense (issue 10) ---------------------------


def test_20_dodge():
    d = target_dodge(3, reroll_tens=True)
    assert (d.ruleset, d.defense, d.roll, d.dice, d.reroll_tens) == ("2.0", 0, "dodge", 3, True)
    assert d.defense_next is None
    assert d.summary == "dodge 3 dice, 10s reroll"
    assert target_dodge(0).summary == "no dodge"


@pytest.mark.parametrize(
    ("dex", "wits", "before", "defense"),
    [(4, 5, 0, 2), (4, 5, 1, 1), (4, 5, 2, 0), (4, 5, 9, 0), (7, 10, 0, 3), (1, 6, 0, 0)],
)
def test_21_defense_lower_halved_down_less_earlier_attacks(dex, wits, before, defense):
    # "(lower of Dexterity or Wits, divided by 2). Round defenses down. … reduced by 1 for
    # every successful or unsuccessful attack made against them"
    d = target_defense(dexterity=dex, wits=wits, attacks_before=before)
    assert d.defense == defense
    assert d.dice == 0
    assert d.defense_next == max(0, defense - 1)
    assert d.summary == f"Defense +{defense}"


def test_21_active_defence_uses_the_higher_attribute_and_the_ability():
    # "using the higher of Dex or Wits, plus the defending ability"
    d = target_defense(dexterity=2, wits=5, ability=3, action="active")
    assert (d.defense, d.roll, d.dice, d.reroll_tens) == (1, "active defence", 8, False)
    assert d.guided_ignores_first
    # Mega-Wits 1: Wits 4 + 2 = 6 > Dex 5, rerolls 10s; Defense ⌊5 ÷ 2⌋ = 2
    m = target_defense(dexterity=5, wits=4, mega_wits=1, ability=1, action="active")
    assert (m.defense, m.dice, m.reroll_tens) == (2, 7, True)
    s = target_defense(dexterity=2, wits=2, ability=1, action="active", specialty=True)
    assert s.dice == 2 + 1 + 1


def test_21_power_block_readings():
    # "adding an additional (Quantum/2) to their Defense, as well as using the power's pool"
    d = target_defense(dexterity=4, wits=4, action="power_block", power_pool=6, quantum=5)
    assert (d.defense, d.roll, d.dice, d.guided_ignores_first) == (4, "power block", 6, False)
    # 3 earlier attacks against Defense 2: decays → (2 + 2) − 3 = 1; fresh → 0 + 2 = 2
    late = dict(dexterity=4, wits=4, action="power_block", power_pool=6, quantum=5)
    assert target_defense(attacks_before=3, **late).defense == 1
    assert target_defense(attacks_before=3, power_block_bonus="fresh", **late).defense == 2
    assert target_defense(attacks_before=3, **late).defense_next == 0
    assert target_defense(specialty=True, **late).dice == 7


def test_21_power_block_without_a_power_names_the_field():
    with pytest.raises(InputError) as err:
        target_defense(dexterity=2, wits=2, action="power_block", power_pool=0)
    assert err.value.field == "target_power_pool"
    assert "1 to 40 dice" in err.value.message


def test_attack_target_without_one():
    assert attack_target("2.0", None, 2).dice == 2
    t = attack_target("2.1", None)
    assert (t.ruleset, t.defense, t.dice) == ("2.1", 0, 0)
