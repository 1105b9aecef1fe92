"""Henchmen (issue 19): the leader's Quantum power with the henchmen's dice only when both
have it, a difficulty on his defence roll read as every defence roll is (RN-COND-5), and
the leader, the target and his condition as records. Expectations worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dice_oracle import P, Q
from helpers_autofire import squad

from ruleslab.alterations.henchmen import henchmen_bonus
from ruleslab.alterations.henchmen.leader import leader_condition, leader_defence
from ruleslab.calculators.henchmen import LEADER, LEADER_CONDITIONS, TARGET, henchmen_squad
from ruleslab.character import Character, Conditions

# --- Dice Pool: "adds to the dice pool for Quantum powers that both parties have" ---------


def test_no_power_pool_shows_nothing_new():
    # 0 dice (the default): no power roll, today's figures and working unchanged
    r = squad()
    assert r.power is None
    assert "power_pool" not in {f.key for f in r.figures()}
    assert "Quantum power pool" not in r.explain()


@pytest.mark.parametrize(
    ("kw", "own", "bonus"),
    [
        # defaults: limit (3 + 2) × 2 = 10, 12 henchmen → 10 counted, pool 5 → +1d each: +10d
        ({"leader_power_pool": 4}, 4, 10),
        # 3 henchmen, attribute + ability 8 (over 7d) → +2d each: +6d
        ({"leader_power_pool": 2, "henchmen": 3, "henchman_pool": 8}, 2, 6),
    ],
)
def test_the_henchmens_dice_go_only_to_a_power_they_have_too(kw, own, bonus):
    lacking = squad(**kw)  # default: mooks without powers
    sharing = squad(**kw, henchmen_have_power=True)
    assert lacking.figure("power_pool").value == own
    assert sharing.figure("power_pool").value == own + bonus
    # one success needed: P = 1 − 0.6^dice
    assert lacking.figure("p_power").value == 1 - Q**own
    assert sharing.figure("p_power").value == 1 - Q ** (own + bonus)
    assert (
        lacking.figure("power_pool").text == f"{own} dice ({own} + henchmen 0: they lack the power)"
    )
    assert "RN-HENCH-15" in sharing.explain()
    # the attack and defence bonus is the same either way
    assert lacking.figure("defence_pool") == sharing.figure("defence_pool")


def test_a_dazed_leaders_power_roll_needs_two_successes():
    # 3 henchmen at +2d, own 2: 8 dice shared; Dazed: P(2+) = 1 − 0.6^8 − 8 · 0.4 · 0.6^7
    r = squad(
        leader_power_pool=2,
        henchmen=3,
        henchman_pool=8,
        henchmen_have_power=True,
        leader_condition="dazed",
    )
    assert r.figure("p_power").value == 1 - Q**8 - 8 * P * Q**7
    assert r.figure("p_power").label == "Chance the leader's power roll gets 2+ successes"


# --- a difficulty on the defence roll: the spend reading (RN-COND-5) ---------------------


def test_the_defence_roll_under_a_daze_by_hand():
    # defaults: own 5 + henchmen 10 = 15 dice. Calm: P(1+) = 1 − 0.6^15, mean 15 × 0.4 = 6.
    calm, dazed = squad(), squad(leader_condition="dazed")
    assert calm.defence.p_success == 1 - Q**15
    assert calm.defence.mean == 6
    # Dazed: the first success pays for the +1: P(counted ≥ 1) = P(rolled ≥ 2)
    # = 1 − 0.6^15 − 15 · 0.4 · 0.6^14; mean counted = E[max(0, k − 1)] = 6 − 1 + 0.6^15
    assert dazed.defence.p_success == 1 - Q**15 - 15 * P * Q**14
    assert dazed.defence.mean == 5 + Q**15
    assert "RN-COND-5" in dazed.explain()


def test_a_one_die_defence_under_a_daze_counts_nothing():
    # 1 henchman (+1d), own pool 0: 1 die. Calm: P = 0.4, mean 0.4. Dazed: 1 die can never
    # roll 2 successes: P = 0, mean counted max(0, k − 1) = 0.
    calm = squad(henchmen=1, heavy_weapons=0, leader_defence=0)
    dazed = squad(henchmen=1, heavy_weapons=0, leader_defence=0, leader_condition="stunned")
    assert (calm.defence.p_success, calm.defence.mean) == (P, P)
    assert (dazed.defence.p_success, dazed.defence.mean) == (0, 0)


def test_both_readings_give_the_same_chance_but_count_differently():
    # 7 dice, Dazed. Spend: mean E[k] − 1 + P(0) = 2.8 − 1 + 0.6^7. Threshold: every success
    # counts from 2 on: mean E[k] − 1 · P(k = 1) = 2.8 − 7 · 0.4 · 0.6^6. P(2+) the same.
    bonus = henchmen_bonus(charisma=2, command=0, henchmen=4, henchman_pool=5)
    dazed = leader_condition("dazed")
    spend = leader_defence(own_pool=3, bonus=bonus, condition=dazed)
    threshold = leader_defence(own_pool=3, bonus=bonus, condition=dazed, reading="threshold")
    assert spend.p_success == threshold.p_success == 1 - Q**7 - 7 * P * Q**6
    assert spend.mean == Fraction(9, 5) + Q**7
    assert threshold.mean == Fraction(14, 5) - 7 * P * Q**6


# --- roles: the leader, the target, his condition ------------------------------------------


def test_the_roles_keep_every_flat_name_and_default():
    defaults = {p.name: p.default for p in henchmen_squad.params}
    assert {
        "charisma": 3,
        "mega_charisma": 0,
        "command": 2,
        "leader_dexterity": 3,
        "leader_mega_dexterity": 0,
        "leader_ability": 2,
        "target_dexterity": 2,
        "target_wits": 2,
        "leader_condition": "none",
    }.items() <= defaults.items()
    assert LEADER.flat_names[3:] == ("leader_dexterity", "leader_mega_dexterity", "leader_ability")
    assert TARGET.flat_names == (
        "target_dexterity",
        "target_wits",
        "target_quantum",  # issue 33: its natural soak from its record (RN-SOAK-4)
        "target_stamina",
        "target_mega_stamina",
    )
    assert LEADER_CONDITIONS.flat_names == ("leader_condition",)


def test_records_and_flat_fields_give_the_same_result():
    flat = squad(
        charisma=4,
        command=3,
        leader_dexterity=5,
        leader_mega_dexterity=1,
        leader_ability=4,
        target_dexterity=3,
        target_wits=6,
        leader_condition="dazed",
    )
    args = {p.name: p.default for p in henchmen_squad.params}
    for role in (LEADER, TARGET, LEADER_CONDITIONS):
        for name in role.flat_names:
            del args[name]
    records = henchmen_squad(
        **args,
        leader=Character(charisma=4, command=3, dexterity=5, mega_dexterity=1, firearms=4),
        target=Character(dexterity=3, wits=6, stamina=2),  # (the form's default Stamina 2)
        leader_conditions=Conditions(daze="dazed"),
    )
    assert records.figures() == flat.figures()
    assert records.steps == flat.steps
    # the limit read the leader's Charisma 4 + Command 3: (4 + 3) × 2 = 14
    assert records.figure("limit").value == 14
