"""A dodge against an attack: net successes worked by hand (``ruleslab.dodge``)."""

from fractions import Fraction

from ruleslab.dice import pool_distribution
from ruleslab.dodge import net_successes

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
