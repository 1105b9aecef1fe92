"""Warfare: force Size, attacks of opportunity, Support/Power/Morale, Quantity is Quality.

The rules (:mod:`ruleslab.warfare`) and the Warfare calculator
(:mod:`ruleslab.calculators.warfare`): the text's own numbers, hand-worked
pools, boundaries and bad input. icepool and
numpy oracles are imported with ``pytest.importorskip`` inside the tests, so the
file runs inside Pyodide too.
"""

from fractions import Fraction

import pytest

from ruleslab.calculators.warfare import roll_turn, warfare
from ruleslab.dice import pool_distribution
from ruleslab.henchmen import squad_losses_distribution
from ruleslab.params import InputError
from ruleslab.warfare import (
    attacks_allowed,
    attacks_of_opportunity,
    defence_pool,
    divide_pool,
    force_pools,
    headcount,
    hit_probability,
    per_attack_damage,
    power_spent,
    quantity_is_quality,
    squad_turn_losses,
    sum_of_attacks,
    turn_damage,
)

FIGURE_KEYS = [
    "attacks",
    "attack_pool",
    "defence_pool",
    "damage_dice",
    "p_hit",
    "p_any_hit",
    "expected_damage",
    "headcount",
    "defence_penalty",
    "morale_reduction",
    "power_effect",
]


# --- Size as a head count ------------------------------------------------------------


def test_size_1_is_a_platoon_of_about_40():
    # "Size 1 being roughly platoon-level (~40 men)"
    assert headcount(1) == 40
    assert headcount(2) == 80


def test_size_5_is_a_battalion_and_size_10_about_20000():
    # "Size 5 is therefore a roughly battalion sized unit"
    assert headcount(5) == 640
    # "Size 10 is ~20,000 combat personnel": 40 × 2^9 = 20,480, which the text rounds.
    assert headcount(10) == 40 * 2**9 == 20_480


def test_each_level_doubles():
    for size in range(1, 10):
        assert headcount(size + 1) == 2 * headcount(size)


def test_headcount_figure_and_step():
    r = warfare(enemy_size=10)
    assert r.figure("headcount").value == 20_480
    assert r.figure("headcount").text == "~20\u202f480 combatants"
    assert "40 × 2^9 = 20\u202f480" in r.explain()


# --- how many attacks ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "cap", "used"), [(5, 6, 5), (8, 6, 6), (10, 10, 10), (3, 0, 0), (1, 20, 1)]
)
def test_attacks_are_size_capped_by_intelligence_plus_command(size, cap, used):
    assert attacks_allowed(size, cap) == used


def test_calculator_attack_count():
    r = warfare(enemy_size=8, commander_intelligence=3, commander_command=3)
    assert r.attacks == 6
    assert r.figure("attacks").text == "6 of 8"
    assert "at most Intelligence 3 + Command 3 = 6: 6 used" in r.explain()


def test_mega_intelligence_counts_double_by_default():
    r = warfare(enemy_size=10, commander_intelligence=3, commander_mega_intelligence=1)
    assert r.attack_cap == 3 + 2 + 3
    assert r.attacks == 8
    assert "Mega-Intelligence" in r.explain()


def test_mega_intelligence_ignored_option():
    r = warfare(
        enemy_size=10,
        commander_intelligence=3,
        commander_mega_intelligence=1,
        mega_intelligence="ignored",
    )
    assert r.attacks == 6


def test_zero_command_low_intelligence_still_caps():
    r = warfare(enemy_size=4, commander_intelligence=1, commander_command=0)
    assert r.attacks == 1


# --- pools --------------------------------------------------------------------------


def test_default_pools():
    r = warfare()
    assert r.attack_dice == 3 + 5
    assert r.damage_dice == 3 + 5
    assert r.defence_dice == 3 + 2
    assert r.attack_auto == r.damage_auto == 0
    assert r.figure("attack_pool").text == "8 dice"


def test_support_spent_adds_rating_and_an_automatic_damage_success():
    # "add the permanent support track size to the Skill dice pool, and add 1
    # automatic success to firepower rolls"
    r = warfare(support=4, spend_support=True)
    assert r.attack_dice == 3 + 5 + 4
    assert r.damage_dice == 8
    assert r.damage_auto == 1
    assert r.figure("damage_dice").text == "8 + 1 auto"


def test_support_not_spent_adds_nothing():
    assert warfare(support=4).attack_dice == 8


def test_power_as_firepower_alongside_support():
    # "use his force's noetic or quantum ability as support … alongside Support as well"
    r = warfare(support=4, spend_support=True, power=2, power_use="firepower")
    assert r.attack_dice == 3 + 5 + 4 + 2
    assert r.damage_auto == 2
    assert r.figure("power_effect").text.startswith("Firepower: +2 attack dice")


def test_morale_adds_a_success_to_the_attack():
    r = warfare(spend_morale=True)
    assert r.attack_auto == 1
    assert r.damage_auto == 0
    assert r.figure("attack_pool").text == "8 dice + 1 auto"
    both = warfare(spend_morale=True, morale_on_damage="both")
    assert both.attack_auto == 1
    assert both.damage_auto == 1


def test_divide_by_3_rounds_up():
    assert [divide_pool(n) for n in (0, 1, 2, 3, 4, 8, 9, 10, 30)] == [0, 1, 1, 1, 2, 3, 3, 4, 10]
    r = warfare(divide_by_3="attack_damage")
    assert (r.attack_dice, r.damage_dice, r.defence_dice) == (3, 3, 5)
    r = warfare(divide_by_3="all")
    assert (r.attack_dice, r.damage_dice, r.defence_dice) == (3, 3, 2)
    assert "÷ 3 rounded up = 3" in r.explain()


def test_divide_by_3_leaves_automatic_successes():
    r = warfare(support=4, spend_support=True, divide_by_3="attack_damage")
    assert r.attack_dice == divide_pool(12) == 4
    assert r.damage_auto == 1


def test_mega_wits_and_extra_defence_dice():
    r = warfare(wits=3, mega_wits=1, tactics=2, defence_bonus=4)
    assert r.defence_dice == 3 + 2 + 2 + 4
    assert "Mega-Wits" in r.explain()


# --- hitting ------------------------------------------------------------------------


def test_hit_probability_hand_worked():
    one = pool_distribution(1)
    assert hit_probability(one, 0) == Fraction(2, 5)
    # 1 die vs 1 die: hit only on attack success and defence failure
    assert hit_probability(one, 1) == Fraction(2, 5) * Fraction(3, 5)
    # a 1-point penalty: the single defence success cancels nothing
    assert hit_probability(one, 1, penalty=1) == Fraction(2, 5)
    # 2 dice vs 1 die: 0.48 × 0.6 + 0.16 = 0.448
    assert hit_probability(pool_distribution(2), 1) == Fraction(56, 125)


def test_defense_score_reading():
    two = pool_distribution(2)
    # Defense 1 → difficulty 2
    assert hit_probability(two, 1, reading="defense_score") == Fraction(4, 25)
    assert hit_probability(two, 1, penalty=1, reading="defense_score") == 1 - Fraction(9, 25)
    with pytest.raises(InputError):
        hit_probability(two, 1, reading="bogus")


def test_one_attack_hand_worked_through_the_calculator():
    # Skill 1 + Size 1 = 2 dice vs Wits 1 + Tactics 0 = 1 die; Firepower 1 + Size 1 = 2
    # damage dice; Intelligence 1 + Command 0 → 1 attack; party Size 1: no penalty.
    r = warfare(
        enemy_size=1,
        enemy_firepower=1,
        enemy_skill=1,
        commander_intelligence=1,
        commander_command=0,
        party_size=1,
        wits=1,
        tactics=0,
    )
    p = Fraction(56, 125)
    assert r.attacks == 1
    assert r.p_hit == p
    assert r.p_any_hit == p
    assert r.damage_pmf == (
        1 - p + p * Fraction(36, 100),
        p * Fraction(48, 100),
        p * Fraction(16, 100),
    )
    assert r.expected_damage == p * Fraction(4, 5)
    assert r.defence_penalty == 0
    assert r.size_difference == 0


def test_two_attacks_convolve():
    per = (Fraction(1, 2), Fraction(1, 2))  # a fair coin of one level
    assert sum_of_attacks(per, 2) == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert sum_of_attacks(per, 0) == (Fraction(1),)
    assert sum(sum_of_attacks(per, 7)) == 1


def test_per_attack_damage_mixes_miss_and_roll():
    dmg = pool_distribution(1)
    assert per_attack_damage(Fraction(1, 2), dmg) == (
        Fraction(1, 2) + Fraction(3, 10),
        Fraction(1, 5),
    )


def test_p_any_hit_and_expected_damage_agree():
    r = warfare(enemy_size=6, commander_command=5, party_size=6)
    n = r.attacks
    assert r.p_any_hit == 1 - (1 - r.p_hit) ** n
    assert sum(r.damage_pmf) == 1
    assert r.expected_damage == n * r.p_hit * Fraction(2 * (3 + 6), 5)


def test_zero_attacks_deal_nothing():
    # The calculator always allows at least 1 (Intelligence ≥ 1); the helpers handle 0.
    assert attacks_allowed(3, 0) == 0
    per = per_attack_damage(Fraction(1, 2), pool_distribution(3))
    assert sum_of_attacks(per, 0) == (Fraction(1),)


# --- Quantity is Quality ------------------------------------------------------------


def test_size_difference_penalises_the_smaller_sides_defence():
    r = warfare(enemy_size=5, party_size=2)
    assert r.size_difference == 3
    assert r.defence_penalty == 3
    assert r.morale_reduction == 3
    assert r.figure("defence_penalty").text.startswith("+3 difficulty to the party's")
    assert "may lose up to 3 Morale" in r.figure("morale_reduction").text
    assert r.p_hit == hit_probability(pool_distribution(8), 5, penalty=3)


def test_larger_party_penalises_the_enemy_not_the_defence():
    r = warfare(enemy_size=2, party_size=5)
    assert r.size_difference == -3
    assert r.defence_penalty == 0
    assert r.morale_reduction == 3
    assert "enemy's" in r.figure("defence_penalty").text
    assert "the enemy may lose up to 3 Morale" == r.figure("morale_reduction").text


def test_size_penalty_can_be_left_out():
    r = warfare(enemy_size=5, party_size=2, size_penalty="ignore")
    assert r.defence_penalty == 0
    assert r.p_hit == hit_probability(pool_distribution(8), 5)


def test_penalty_raises_the_hit_chance():
    assert warfare(party_size=0).p_hit > warfare(party_size=5).p_hit


# --- squads -------------------------------------------------------------------------


def test_trained_squad_rounds_each_attacks_losses_down_by_default():
    # one attack; a hit of 1 level: × 3 = 3, ÷ 2 → 1 (down) or 2 (up); 2 levels → 3
    kw = {
        "enemy_size": 1,
        "enemy_firepower": 1,
        "enemy_skill": 1,
        "commander_intelligence": 1,
        "commander_command": 0,
        "party_size": 1,
        "wits": 1,
        "tactics": 0,
        "target": "squad",
        "henchmen": 20,
        "training": "trained",
    }
    p = Fraction(56, 125)
    down = warfare(**kw)
    up = warfare(**kw, rounding="up")
    assert down.losses_pmf[1] == p * Fraction(48, 100)
    assert up.losses_pmf[2] == p * Fraction(48, 100)
    assert down.losses_pmf[3] == up.losses_pmf[3] == p * Fraction(16, 100)
    assert sum(down.losses_pmf) == 1


def test_squad_losses_distribution_one_attack():
    dmg = pool_distribution(2).pmf  # 0, 1, 2 levels
    out = squad_losses_distribution(dmg, henchmen=4, area=3)
    # 1 level → 3 removed; 2 levels → 6, capped at the 4 henchmen
    assert out == (Fraction(36, 100), 0, 0, Fraction(48, 100), Fraction(16, 100))


def test_fanatical_squad_loses_exactly_the_levels():
    # × 3 area then ÷ 3 for fanatics: one henchman per health level, capped.
    r = warfare(target="squad", henchmen=500, training="fanatical")
    assert r.losses_pmf[: len(r.damage_pmf)] == r.damage_pmf
    assert r.expected_losses == r.expected_damage


def test_regular_squad_triples_until_wiped():
    r = warfare(target="squad", henchmen=500)
    assert r.expected_losses == 3 * r.expected_damage
    small = warfare(target="squad", henchmen=5)
    assert len(small.losses_pmf) == 6
    assert sum(small.losses_pmf) == 1
    assert small.p_wiped == small.losses_pmf[5] > Fraction(9, 10)
    assert small.figure("p_wiped").value == small.p_wiped
    assert "expected_losses" in [f.key for f in small.figures()]


def test_all_henchmen_squad_counts_the_leader():
    r = warfare(target="squad", henchmen=5, leader_is_henchman=True)
    assert r.squad_size == 6
    assert len(r.losses_pmf) == 7


def test_character_has_no_squad_figures():
    r = warfare()
    assert r.losses_pmf is None
    assert r.p_wiped is None
    assert [f.key for f in r.figures()] == FIGURE_KEYS


# --- Power --------------------------------------------------------------------------


def test_boost_chance():
    r = warfare(power=2, power_use="boost")
    assert r.attack_dice == 8  # boost does not add to attacks of opportunity
    assert r.figure("power_effect").text.startswith("Boost: 64.00 % chance")


def test_recharge():
    r = warfare(power=1, power_use="recharge")
    assert "Recharge" in r.figure("power_effect").text
    assert r.attack_dice == 8


# --- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "expect"),
    [
        ({"enemy_size": 11}, "enemy_size", "from 1 to 10"),
        ({"enemy_size": 0}, "enemy_size", "from 1 to 10"),
        ({"support": -1}, "support", "from 0 to 10"),
        ({"henchmen": 0}, "henchmen", "from 1 to 1,000"),
        ({"training": "elite"}, "training", "one of"),
        ({"target": "tank"}, "target", "one of"),
        ({"spend_support": True}, "spend_support", "at least 1"),
        ({"spend_morale": True, "morale": 0}, "spend_morale", "at least 1"),
        ({"power_use": "firepower"}, "power_use", "at least 1"),
        ({"enemy_skill": 2.5}, "enemy_skill", "whole number"),
    ],
)
def test_bad_input(kwargs, field, expect):
    with pytest.raises(InputError) as exc:
        warfare(**kwargs)
    assert exc.value.field == field
    assert expect in exc.value.message


def test_a_squad_of_1000_henchmen_and_its_commander_is_computed():
    # Issue 11: 1,000 henchmen (the field's maximum) with an all-henchmen commander were
    # refused with "Henchmen must be a whole number from 0 to 1,000." for 1,000 typed.
    # The squad is 1,001 to remove, the commander last (RN-HENCH-7).
    r = warfare(target="squad", henchmen=1000, leader_is_henchman=True)
    assert r.squad_size == 1001
    assert len(r.losses_pmf) == 1002
    assert sum(r.losses_pmf) == 1
    # The default force's 5 attacks of 8 damage dice remove at most 5 × 8 × 3 = 120 ≪ 999
    # a turn, so one henchman more changes nothing but the (impossible) count of the last.
    smaller = warfare(target="squad", henchmen=999, leader_is_henchman=True)
    assert smaller.squad_size == 1000
    assert r.losses_pmf == (*smaller.losses_pmf, 0)
    assert r.expected_losses == smaller.expected_losses
    assert max(k for k, p in enumerate(r.losses_pmf) if p) <= 120
    assert any(
        s.text.startswith("Removed at most 1001 (1000 henchmen + the commander, last)")
        for s in r.steps
    )
    assert roll_turn(r, 7)[0].endswith("attacks of opportunity")
    assert warfare(henchmen=1000, leader_is_henchman=True).losses_pmf is None


def test_headcount_rejects_negative():
    with pytest.raises(InputError):
        headcount(-1)


# --- steps and figures --------------------------------------------------------------


def test_every_step_names_its_rule():
    r = warfare(
        target="squad",
        training="trained",
        spend_morale=True,
        support=3,
        spend_support=True,
        power=2,
        power_use="firepower",
        commander_mega_intelligence=1,
        mega_wits=1,
        party_size=2,
        divide_by_3="all",
    )
    for step in r.steps:
        assert step.rule.startswith(("Combat alterations ›", "Quick reference ›")), step
    assert any("Mass Combat › Warfare › Attacks of Opportunity" in s.rule for s in r.steps)
    assert any("Mass Combat › Henchmen › Damage Soak" in s.rule for s in r.steps)
    assert any("Quantity is Quality" in s.rule for s in r.steps)


def test_chart_bars():
    r = warfare()
    bars = r.chart().bars
    assert bars[0][0] == "0"
    assert abs(sum(p for _, p in bars) - 1) < 1e-5
    assert r.chart().highlight_from is None
    squad = warfare(target="squad", henchmen=8)
    assert len(squad.chart().bars) <= 9


def test_chart_hand_worked():
    # 1 attack, P(hit) = 56/125 (see test_one_attack_hand_worked_through_the_calculator);
    # 2 damage dice: 0, 1 or 2 levels with 36, 48, 16 %.
    r = warfare(
        enemy_size=1,
        enemy_firepower=1,
        enemy_skill=1,
        commander_intelligence=1,
        commander_command=0,
        party_size=1,
        wits=1,
        tactics=0,
    )
    p = 56 / 125
    want = (1 - p + p * 0.36, p * 0.48, p * 0.16)
    assert [label for label, _ in r.chart().bars] == ["0", "1", "2"]
    assert [q for _, q in r.chart().bars] == pytest.approx(want, abs=1e-15)


# --- the roll -----------------------------------------------------------------------


def test_roll_turn_is_seeded_and_readable():
    r = warfare(target="squad", henchmen=6, training="trained")
    log = roll_turn(r, 42)
    assert log == roll_turn(r, 42)
    assert log[0] == f"{r.attacks} attacks of opportunity"
    assert len(log) == r.attacks + 2
    assert all(("HIT" in line) or ("MISS" in line) for line in log[1:-1])
    assert log[-1].startswith("Total:")
    assert "of 6 removed" in log[-1]


def test_roll_turn_character_and_defense_score():
    r = warfare(defence_reading="defense_score", party_size=5)
    log = roll_turn(r, 7)
    assert "(needs 6)" in log[1]
    assert log[-1].endswith("lethal health levels, soak ignored")


def test_roll_turn_frequencies_match_the_distribution():
    r = warfare(enemy_size=2, enemy_firepower=1, enemy_skill=1, commander_command=2, party_size=2)
    seen = [0] * 10
    n = 4000
    for seed in range(n):
        total = int(roll_turn(r, seed)[-1].split()[1])
        seen[total] += 1
    for k, p in enumerate(r.damage_pmf):
        assert abs(seen[k] / n - float(p)) < 0.035, k


# --- oracles ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"party_size": 2, "spend_morale": True, "support": 2, "spend_support": True},
        {"enemy_size": 3, "enemy_firepower": 6, "divide_by_3": "all", "party_size": 3},
        {"defence_reading": "defense_score", "party_size": 3, "wits": 4, "tactics": 3},
    ],
)
def test_total_damage_matches_icepool(kwargs):
    icepool = pytest.importorskip("icepool")
    r = warfare(**kwargs)
    s = icepool.d10 >= 7

    def pool(n: int, auto: int = 0):
        return (n @ s if n else icepool.Die([0])) + auto

    att = pool(r.attack_dice, r.attack_auto)
    if r.defence_reading == "opposed":
        hit = icepool.map(
            lambda a, d: a - max(0, d - r.defence_penalty) >= 1, att, pool(r.defence_dice)
        )
    else:
        hit = att >= 1 + max(0, r.defence_dice - r.defence_penalty)
    per = icepool.map(lambda h, dmg: dmg if h else 0, hit, pool(r.damage_dice, r.damage_auto))
    total = r.attacks @ per
    den = total.denominator()
    for k, p in enumerate(r.damage_pmf):
        assert p == Fraction(total.quantity(k), den), k


def test_squad_losses_match_a_seeded_monte_carlo():
    np = pytest.importorskip("numpy")
    r = warfare(target="squad", henchmen=12, training="trained", party_size=3)
    rng = np.random.default_rng(2024)
    n = 200_000
    lost = np.zeros(n, dtype=np.int64)
    for _ in range(r.attacks):
        a = (rng.integers(1, 11, (n, r.attack_dice)) >= 7).sum(axis=1) + r.attack_auto
        d = (rng.integers(1, 11, (n, r.defence_dice)) >= 7).sum(axis=1)
        hit = a - np.maximum(0, d - r.defence_penalty) >= 1
        dmg = (rng.integers(1, 11, (n, r.damage_dice)) >= 7).sum(axis=1) + r.damage_auto
        lost += np.where(hit, dmg * 3 // 2, 0)  # well-trained: ÷ 2, rounded down
    lost = np.minimum(lost, r.squad_size)
    freq = np.bincount(lost, minlength=r.squad_size + 1) / n
    for k, p in enumerate(r.losses_pmf):
        assert abs(freq[k] - float(p)) < 0.006, k
    assert abs(lost.mean() - float(r.expected_losses)) < 0.05


# --- the explained pieces of a turn ---------------------------------------------------


def test_attacks_of_opportunity_explained():
    r = attacks_of_opportunity(8, 3, 3)
    assert (r.granted, r.cap, r.attacks) == (8, 6, 6)
    assert len(r.steps) == 1
    mega = attacks_of_opportunity(10, 3, 3, 1)
    assert (mega.cap, mega.attacks) == (3 + 2 + 3, 8)
    assert "Mega-Intelligence" in mega.steps[0].text
    ignored = attacks_of_opportunity(10, 3, 3, 1, mega_counts=False)
    assert (ignored.cap, ignored.attacks) == (6, 6)
    assert "not counted" in ignored.steps[0].text


def test_force_pools_hand_worked():
    # Skill 3 + Size 5 + Support 4 + Power 2 = 14 dice, ÷ 3 → 5; damage Firepower 3 +
    # Size 5 = 8, ÷ 3 → 3; Support, Power and Morale (on damage too): +3 auto damage.
    r = force_pools(
        skill=3,
        size=5,
        firepower=3,
        support=4,
        spend_support=True,
        power=2,
        power_as_support=True,
        spend_morale=True,
        morale_on_damage=True,
        divide=True,
    )
    assert (r.attack_dice, r.attack_auto, r.damage_dice, r.damage_auto) == (5, 1, 3, 3)
    assert [s.text.split(":")[0] for s in r.steps[:3]] == [
        "1 Support spent",
        "1 Power spent as Support",
        "1 Morale spent",
    ]
    plain = force_pools(skill=3, size=5, firepower=3)
    assert (plain.attack_dice, plain.attack_auto, plain.damage_dice, plain.damage_auto) == (
        8,
        0,
        8,
        0,
    )


def test_defence_pool_hand_worked():
    assert defence_pool(wits=3, tactics=2).dice == 5
    r = defence_pool(wits=3, tactics=2, mega_wits=1, extra=4, squad=True, divide=True)
    assert r.dice == 4  # ⌈(3 + 2 + 2 + 4) ÷ 3⌉
    assert "the squad leader's" in r.steps[-1].text


@pytest.mark.parametrize(
    ("enemy", "party", "apply", "diff", "penalty"),
    [(5, 2, True, 3, 3), (5, 2, False, 3, 0), (2, 5, True, -3, 0), (4, 4, True, 0, 0)],
)
def test_quantity_is_quality(enemy, party, apply, diff, penalty):
    r = quantity_is_quality(enemy, party, 5, apply_penalty=apply)
    assert (r.difference, r.penalty) == (diff, penalty)


def test_turn_damage_hand_worked():
    # 2 attack dice vs 1 defence die: P(hit) = 56/125; 2 damage dice; 2 attacks.
    pools = force_pools(skill=1, size=1, firepower=1)
    r = turn_damage(attacks=2, pools=pools, defence=1)
    p = Fraction(56, 125)
    one = (1 - p + p * Fraction(36, 100), p * Fraction(48, 100), p * Fraction(16, 100))
    assert r.p_hit == p
    assert r.per_attack == one
    assert r.p_any_hit == 1 - (1 - p) ** 2
    assert r.total[4] == one[2] ** 2
    assert r.expected == 2 * p * Fraction(4, 5)


def test_squad_turn_losses_hand_worked():
    # one attack dealing 0 or 1 level (½ each): × 3 → 3 henchmen of 2 (capped);
    # all-henchmen commander: 3 members, all removed by a hit.
    per = (Fraction(1, 2), Fraction(1, 2))
    r = squad_turn_losses(per, 1, henchmen=2)
    assert r.losses == (Fraction(1, 2), Fraction(0), Fraction(1, 2))
    assert r.expected == 1
    led = squad_turn_losses(per, 1, henchmen=2, leader_is_henchman=True)
    assert led.squad_size == 3
    assert led.losses == (Fraction(1, 2), Fraction(0), Fraction(0), Fraction(1, 2))
    # two attacks, trained (÷ 2, down): a hit removes ⌊3/2⌋ = 1; 10 henchmen, no cap
    two = squad_turn_losses(per, 2, henchmen=10, training="trained")
    assert two.losses[:3] == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert sum(two.losses) == 1
    assert len(two.losses) == 11


def test_power_spent():
    assert power_spent("none", 0).text == "not used"
    assert power_spent("boost", 2).text.startswith("Boost: 64.00 % chance")
    assert power_spent("recharge", 1).steps
    assert power_spent("firepower", 3).steps == ()
