"""Henchmen support weapons (:mod:`ruleslab.alterations.henchmen.support`) and the commander's own
rolls.

Combat alterations › Mass Combat › Henchmen › Support Weapons: "This attack is made at
full dice pool with henchmen accuracy/damage bonuses. Weapons capable of firing bursts
are assumed to fire the largest possible burst they can." Expected values are worked
by hand, by brute force over every die's success or failure, or by icepool, never by
the code under test.
"""

from fractions import Fraction

import pytest
from dice_oracle import P, Q, exactly, rolls
from helpers_autofire import refusal

from ruleslab.alterations.henchmen import henchmen_bonus
from ruleslab.alterations.henchmen.leader import leader_condition, leader_defence
from ruleslab.alterations.henchmen.support import fired_burst, support_attack
from ruleslab.quickref.defence.dodge import target_defense, target_dodge
from ruleslab.quickref.weapons import Weapon


def brute_levels(pool, difficulty, damage_of, soak, adds=0, dodge=0):
    """P(k health levels) by brute force: every attack die, dodge die and damage die is a
    success (4/10) or a failure (6/10); hit when attack − dodge successes ≥ difficulty;
    damage_of(net) damage dice, less soak; adds only if a die is left; a hit with no die
    left pings (1 die, no adds)."""
    out: dict[int, Fraction] = {}
    for att, pa in rolls(pool):
        for dod, pd in rolls(dodge):
            net = att - dod
            if net < difficulty:
                out[0] = out.get(0, Fraction(0)) + pa * pd
                continue
            left = damage_of(net) - soak
            n, plus = (left, adds) if left >= 1 else (1, 0)
            for dmg, pg in rolls(n):
                k = dmg + plus
                out[k] = out.get(k, Fraction(0)) + pa * pd * pg
    top = max(out)
    return tuple(out.get(k, Fraction(0)) for k in range(top + 1))


def small_bonus():
    # (Charisma 1 + Command 0) × 2 = limit 2; 1 henchman (pool 5): +1d, +1 damage.
    return henchmen_bonus(charisma=1, command=0, henchmen=1, henchman_pool=5)


def single_shot(**changes):
    """The small squad's commander (Dex 1, ability 1) fires one heavy weapon (2 damage dice,
    accuracy 0) a single shot, 2.0, at an undodging target of natural soak 2: the attack
    most tests below start from; ``changes`` replace any of its arguments."""
    kw = dict(
        bonus=small_bonus(),
        heavy_weapons=1,
        weapon=Weapon(accuracy=0, damage_dice=2),
        largest_burst="none",
        ammunition=1,
        dexterity=1,
        ability=1,
        ruleset="2.0",
        target=target_dodge(0),
        natural_soak=2,
    )
    return support_attack(**(kw | changes))


# --- the largest possible burst ------------------------------------------------------


@pytest.mark.parametrize(
    ("largest", "ammo", "burst", "rounds"),
    [
        ("sustained", 50, "sustained", 50),
        ("sustained", 49, "long", 20),
        ("sustained", 19, "medium", 10),
        ("long", 1000, "long", 20),
        ("medium", 9, "short", 3),
        ("short", 3, "short", 3),
        ("short", 2, "none", 1),
        ("none", 100, "none", 1),
    ],
)
def test_the_largest_burst_the_weapon_and_its_ammunition_allow(largest, ammo, burst, rounds):
    # Short 3, medium 10, long 20, sustained 50 shots (Ranged Attack Maneuvers › Autofire).
    got, used, steps = fired_burst(largest, ammo)
    assert (got, used) == (burst, rounds)
    assert "RN-HENCH-12" in steps[-1].text


def test_no_round_loaded_is_refused_at_the_ammunition_field():
    assert refusal(fired_burst, "long", 0).field == "support_ammunition"


# --- the attack, by brute force -------------------------------------------------------


def test_single_shot_with_the_squads_bonuses_by_brute_force():
    # Pool = Dex 1 + ability 1 + accuracy 0 + henchmen 1d = 3 dice, 2.0, no dodge,
    # difficulty 1. Damage = 2 dice + henchmen 1 die + 1 die per success past the first,
    # soak 2: net n successes leave (3 + n − 1) − 2 = n dice.
    r = single_shot()
    want = brute_levels(3, 1, lambda n: 3 + n - 1, soak=2)
    assert r.attack is not None
    assert r.attack.pool == 3
    assert r.attack.levels == want
    assert r.attack.p_hit == 1 - Q**3
    assert (r.available, r.burst, r.rounds) == (1, "none", 1)
    assert (r.accuracy_bonus, r.damage_bonus) == (1, 1)
    assert r.figure("support_pool").text == "3 dice"
    assert r.figure("support_burst").text == "Single shot (1 round)"


def test_against_a_dodge_with_damage_adds_by_brute_force():
    # 2.0: the target dodges with 2 dice, each success cancelling one attack success.
    # Pool = Dex 1 + ability 0 + accuracy 1 + henchmen 1d = 3; damage 1 [1] + 1 die.
    r = single_shot(
        weapon=Weapon(accuracy=1, damage_dice=1, damage_adds=1),
        ammunition=5,
        ability=0,
        target=target_dodge(2),
        natural_soak=1,
    )
    want = brute_levels(3, 1, lambda n: 2 + n - 1, soak=1, adds=1, dodge=2)
    assert r.attack is not None
    assert r.attack.levels == want


def test_a_dazed_commander_fires_at_plus_one_difficulty_by_brute_force():
    # "Dazed characters are at +1 difficulty to all actions": difficulty 1 + 1 = 2;
    # extra successes count beyond it (RN-RANGED-4): damage 3 + (n − 2) dice, soak 2.
    calm = single_shot(dexterity=2)
    dazed = single_shot(dexterity=2, condition=leader_condition("dazed"))
    assert calm.attack is not None
    assert dazed.attack is not None
    assert calm.attack.difficulty == 1
    assert dazed.attack.difficulty == 2
    assert dazed.penalty == 1
    # pool 2 + 1 + 1 = 4 dice: P(hit) = P(≥ 2 successes)
    assert dazed.attack.p_hit == 1 - exactly(4, 0) - exactly(4, 1)
    assert dazed.attack.levels == brute_levels(4, 2, lambda n: 3 + n - 2, soak=2)
    assert "Commander Dazed: +1 difficulty to all actions" in dazed.explain()
    assert "Dazing/Stunning" in dazed.explain()


def test_a_long_burst_against_a_21_defense_matches_icepool():
    icepool = pytest.importorskip("icepool")
    # Limit (2 + 1) × 2 = 6, 3 henchmen with attribute + ability 8 (over 7d): +6d, +3.
    bonus = henchmen_bonus(charisma=2, command=1, henchmen=3, henchman_pool=8)
    assert (bonus.dice, bonus.damage) == (6, 3)
    # 2.1: Defense = ⌊min(Dex 4, Wits 3) ÷ 2⌋ = 1, no earlier attack; Stunned: +1.
    # Difficulty = 1 + 1 (Stunned) + Defense 1 = 3.
    # Pool = Dex 2 + ability 1 + accuracy (−1 + 6 henchmen) + long burst 6 = 14 dice.
    # Damage on a hit: 4 [1] + 3 dice + (net − 3) dice; soak 2 + 1 armour = 3.
    r = support_attack(
        bonus=bonus,
        heavy_weapons=2,
        weapon=Weapon(accuracy=-1, damage_dice=4, damage_adds=1),
        largest_burst="long",
        ammunition=25,
        dexterity=2,
        ability=1,
        ruleset="2.1",
        target=target_defense(dexterity=4, wits=3),
        natural_soak=2,
        armour_soak=1,
        condition=leader_condition("stunned"),
    )
    hit = icepool.d10.map(lambda f: 1 if f >= 7 else 0)

    def levels(s):
        if s < 3:
            return 0
        return (7 + s - 3 - 3) @ hit + 1  # at least 1 die left, so the add applies

    want = (14 @ hit).map(levels)
    den = want.denominator()
    assert r.attack is not None
    assert (r.attack.pool, r.attack.difficulty, r.burst, r.rounds) == (14, 3, "long", 20)
    got = r.attack.levels
    assert len(got) == max(want.outcomes()) + 1
    for k, p in enumerate(got):
        assert p == Fraction(want.quantity(k), den)
    assert "single action" in r.explain()


def test_the_burst_bonus_to_damage_is_adds():
    # Long burst used for damage: +[3] damage adds (RN-RANGED-1), no accuracy.
    r = single_shot(largest_burst="long", ammunition=20, burst_use="damage")
    want = brute_levels(3, 1, lambda n: 3 + n - 1, soak=2, adds=3)
    assert r.attack is not None
    assert r.attack.pool == 3
    assert r.attack.levels == want


@pytest.mark.parametrize(
    ("bonuses", "pool", "dice", "adds"), [("squad", 3, 3, 0), ("weapon", 2, 2, 0)]
)
def test_the_squads_bonuses_or_the_weapon_alone(bonuses, pool, dice, adds):
    r = single_shot(natural_soak=0, bonuses=bonuses)
    assert r.attack is not None
    assert r.attack.pool == pool
    assert r.attack.weapon.damage_dice == dice
    assert r.attack.weapon.damage_adds == adds
    assert "RN-HENCH-11" in r.explain()


def test_the_henchmen_damage_read_as_adds():
    # 1 henchman's +1 as a damage add: 2 [1]; soak 2 leaves (2 + n − 1) − 2 dice.
    r = single_shot(henchmen_damage="adds")
    want = brute_levels(3, 1, lambda n: 2 + n - 1, soak=2, adds=1)
    assert r.attack is not None
    assert r.attack.levels == want


def test_no_heavy_weapon_within_the_limit_resolves_no_attack():
    bonus = henchmen_bonus(charisma=1, command=0, henchmen=5, henchman_pool=5, situation=-2)
    assert bonus.counted == 0
    r = support_attack(
        bonus=bonus,
        heavy_weapons=3,
        weapon=Weapon(damage_dice=5),
        largest_burst="long",
        ammunition=30,
        dexterity=3,
        ability=2,
    )
    assert r.available == 0
    assert r.attack is None
    assert r.figure("support_p_hit").text.startswith("—")
    assert "no support attack" in r.explain()


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        (dict(bonuses="both"), "support_bonuses"),
        (dict(henchmen_damage="dice and adds"), "henchmen_damage"),
        (dict(heavy_weapons=-1), "heavy_weapons"),
        (dict(largest_burst="huge"), "support_burst"),
    ],
)
def test_support_attack_bad_input_names_the_field(kw, field):
    assert refusal(single_shot, **kw).field == field


# --- the commander's defence and condition ---------------------------------------------


@pytest.mark.parametrize(
    ("condition", "want"),
    [
        ("none", 1 - Q**7),
        ("dazed", 1 - Q**7 - 7 * P * Q**6),
        ("stunned", 1 - Q**7 - 7 * P * Q**6),
    ],
)
def test_the_henchmen_add_their_dice_to_the_leaders_defence(condition, want):
    # 4 henchmen within the limit (pool 5): +4d; the leader's own 3 dice: 7 dice. A
    # defence roll needs 1 success (RN-DEF-4), 2 when Dazed or Stunned.
    bonus = henchmen_bonus(charisma=2, command=0, henchmen=4, henchman_pool=5)
    r = leader_defence(own_pool=3, bonus=bonus, condition=leader_condition(condition))
    assert (r.own, r.bonus, r.dice) == (3, 4, 7)
    assert r.difficulty == (1 if condition == "none" else 2)
    assert r.p_success == want
    # mean successes counted: 7 × 0.4 = 2.8; Dazed/Stunned (RN-COND-5, "spend"): the first
    # success pays for the +1, E[max(0, k − 1)] = E[k] − 1 + P(k = 0) = 2.8 − 1 + 0.6^7
    assert r.mean == (
        Fraction(14, 5) if condition == "none" else Fraction(9, 5) + Fraction(3, 5) ** 7
    )
    assert r.figure("defence_pool").text == "7 dice (3 + henchmen 4)"
    assert "suppressive fire" in r.explain()


def test_leader_condition_steps_and_bad_input():
    assert leader_condition("none").penalty == 0
    assert leader_condition("none").steps == ()
    stunned = leader_condition("stunned")
    assert stunned.penalty == 1
    assert "Quickness or Temporal Manipulation" in stunned.steps[0].text
    assert refusal(leader_condition, "asleep").field == "leader_condition"
    err = refusal(leader_defence, own_pool=-1, bonus=small_bonus(), condition=stunned)
    assert err.field == "leader_defence"
