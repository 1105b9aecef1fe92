"""Warfare: force Size, attacks of opportunity, the "divide by 3" shortcut, squads.

The rules (:mod:`ruleslab.alterations.warfare`) and the Warfare calculator
(:mod:`ruleslab.calculators.warfare`): the text's own numbers, hand-worked
pools, boundaries and bad input. icepool and
numpy oracles are imported with ``pytest.importorskip`` inside the tests, so the
file runs inside Pyodide too. What the force spends (Support and its special
types, Morale, Power) is tested in ``test_warfare_support.py``, Quantity is
Quality in ``test_warfare_quantity.py``.

Every worked example of the Warfare text is a test:

* "Size 1 being roughly platoon-level (~40 men)", "Size 5 … a roughly battalion
  sized unit", "Size 10 is ~20,000 combat personnel": the head count tests below;
* "as many attacks of opportunity as its Size … only up to (Intelligence +
  Command)": ``test_attacks_are_size_capped_by_intelligence_plus_command``;
* "against squads … Area attacks, with an x3 multiplier":
  ``test_regular_squad_triples_until_wiped``;
* "divided by 3, then rounded up": ``test_divide_by_3_rounds_up`` and the
  shortcut tests (RN-WAR-9);
* "Support 5+ is generally a first world military", "A horde of sub-Aberrants
  has Power 1, while an all-Doyen force would have Power 10", the tactical
  nuclear weapons and the tactical recon: ``test_warfare_support.py``;
* "a platoon surrounded by 20,000 men": ``test_warfare_quantity.py``.
"""

from fractions import Fraction
from math import comb

import pytest
from warfare_forces import ONE_ATTACK

from ruleslab.alterations.henchmen import squad_losses_distribution
from ruleslab.alterations.warfare import (
    Squad,
    attacks_allowed,
    attacks_of_opportunity,
    defence_pool,
    divide_pool,
    headcount,
    hit_probability,
    in_threes,
    per_attack_damage,
    squad_expected_losses,
    squad_turn_losses,
    successes_pmf,
    sum_of_attacks,
    turn_damage,
)
from ruleslab.alterations.warfare.support import force_pools
from ruleslab.calculators.warfare import roll_turn, warfare
from ruleslab.dice import pool_distribution
from ruleslab.params import InputError

FIGURE_KEYS = [
    "attacks",
    "attack_pool",
    "defence_pool",
    "damage_dice",
    "p_hit",
    "p_any_hit",
    "expected_damage",
    "p_dazed",
    "p_stunned",
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


#: Size 10 against a commander of Intelligence 3 + Mega-Intelligence 1 (Command 3).
MEGA_COMMANDER = {"enemy_size": 10, "commander_intelligence": 3, "commander_mega_intelligence": 1}


def test_mega_intelligence_counts_double_by_default():
    r = warfare(**MEGA_COMMANDER)
    assert r.attack_cap == 3 + 2 + 3
    assert r.attacks == 8
    assert "Mega-Intelligence" in r.explain()


def test_mega_intelligence_ignored_option():
    r = warfare(**MEGA_COMMANDER, mega_intelligence="ignored")
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
    r = warfare(**ONE_ATTACK)
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
    # independent attacks (a Dazed target's +1 is test_warfare_dazing.py)
    r = warfare(enemy_size=6, commander_command=5, party_size=6, dazing="ignore")
    n = r.attacks
    assert r.p_any_hit == 1 - (1 - r.p_hit) ** n
    assert sum(r.damage_pmf) == 1
    assert r.expected_damage == n * r.p_hit * Fraction(2 * (3 + 6), 5)


def test_zero_attacks_deal_nothing():
    # The calculator always allows at least 1 (Intelligence ≥ 1); the helpers handle 0.
    assert attacks_allowed(3, 0) == 0
    per = per_attack_damage(Fraction(1, 2), pool_distribution(3))
    assert sum_of_attacks(per, 0) == (Fraction(1),)


# --- "divide the pools by 3 for ease of resolution" (RN-WAR-9) ------------------------


def _binomial(dice: int) -> list[float]:
    """P(k successes) of `dice` d10 at 7+, by hand (floats, independent of the engine)."""
    return [comb(dice, k) * 0.4**k * 0.6 ** (dice - k) for k in range(dice + 1)]


def _in_threes(dice: int) -> list[float]:
    """dice // 3 dice counting 3 successes each, dice % 3 dice counting 1 (by hand)."""
    threes, singles = divmod(dice, 3)
    out = [0.0] * (3 * threes + singles + 1)
    for a, pa in enumerate(_binomial(threes)):
        for b, pb in enumerate(_binomial(singles)):
            out[3 * a + b] += pa * pb
    return out


def _expected_turn(attack, defence, damage, n: int, penalty: int = 0):
    """P(hit) and the expected damage of n attacks: a hit needs attack successes −
    max(0, defence successes − penalty) ≥ 1 (by hand, floats)."""
    p_hit = sum(pd * sum(attack[1 + max(0, d - penalty) :]) for d, pd in enumerate(defence))
    return p_hit, n * p_hit * sum(k * p for k, p in enumerate(damage))


def test_in_threes_splits_a_pool():
    assert [in_threes(n) for n in range(8)] == [
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
    ]


def test_successes_in_threes_hand_worked():
    # 2 dice, 1 of them counting 3: 0 (0.6 × 0.6), 1 (0.6 × 0.4), 3 (0.4 × 0.6), 4 (0.4²)
    assert successes_pmf(2, threes=1) == (
        Fraction(36, 100),
        Fraction(24, 100),
        0,
        Fraction(24, 100),
        Fraction(16, 100),
    )
    assert successes_pmf(1, auto=2) == (0, 0, Fraction(3, 5), Fraction(2, 5))


@pytest.mark.parametrize("dice", range(41))
def test_threes_keep_the_expected_successes_of_every_pool(dice):
    # n dice: 0.4 n successes on average; n // 3 dice counting 3 and n % 3 counting 1:
    # 3 × 0.4 × (n // 3) + 0.4 × (n % 3) = 0.4 n, exactly.
    threes, singles = in_threes(dice)
    pmf = successes_pmf(threes + singles, threes=threes)
    assert sum(k * p for k, p in enumerate(pmf)) == Fraction(2, 5) * dice
    assert sum(pmf) == 1


# 4 dice vs 1 die: the defence fails (3/5) and the attack rolls 1+ (1 − 0.6⁴ = 0.8704), or
# the defence rolls 1 (2/5) and the attack 2+ (1 − 0.1296 − 4 × 0.4 × 0.216 = 0.5248).
P_HIT_4_VS_1 = Fraction(3, 5) * Fraction(8704, 10000) + Fraction(2, 5) * Fraction(5248, 10000)

# Hand-worked: Skill 2 + Size 2 = 4 attack dice, Wits 1 + Tactics 0 = 1 defence die,
# Firepower 1 + Size 2 = 3 damage dice, one attack (Intelligence 1 + Command 0).
TINY = {**ONE_ATTACK, "enemy_size": 2, "enemy_skill": 2, "party_size": 2}


def test_full_pools_hand_worked():
    r = warfare(**TINY)
    assert (r.attack_dice, r.defence_dice, r.damage_dice, r.attacks) == (4, 1, 3, 1)
    assert r.p_hit == P_HIT_4_VS_1
    assert r.expected_damage == P_HIT_4_VS_1 * Fraction(6, 5)  # 3 dice × 0.4


def test_threes_hand_worked():
    # Attack: 1 die counting 3 + 1 die: 0, 1, 3, 4 successes with 36, 24, 24, 16 %.
    # Defence 0 (3/5): hit on 1+ (64 %); defence 1 (2/5): hit on 2+ (40 %).
    # Damage: 1 die counting 3: 0 or 3 levels, mean 1.2 = 3 dice × 0.4.
    r = warfare(**TINY, divide_by_3="scaled")
    p = Fraction(3, 5) * Fraction(64, 100) + Fraction(2, 5) * Fraction(40, 100)
    assert p == Fraction(68, 125)
    assert (r.attack_dice, r.attack_threes, r.damage_dice, r.damage_threes) == (2, 1, 1, 1)
    assert r.defence_dice == 1  # the text divides the attack and damage pools only
    assert r.p_hit == p
    assert r.damage_pmf == (1 - p + p * Fraction(3, 5), 0, 0, p * Fraction(2, 5))
    assert r.expected_damage == p * Fraction(6, 5)
    assert r.figure("attack_pool").text == "1 die ×3 + 1 die"
    assert r.figure("damage_dice").text == "1 die ×3"
    # side by side: the full pools' figures
    assert r.p_hit_full == P_HIT_4_VS_1
    assert r.expected_damage_full == P_HIT_4_VS_1 * Fraction(6, 5)
    keys = [f.key for f in r.figures()]
    assert keys[keys.index("p_hit") + 1] == "p_hit_full"
    assert keys[keys.index("expected_damage") + 1] == "expected_damage_full"
    assert r.figure("p_hit_full").text == "73.22 %"
    assert r.figure("expected_damage_full").text == "0.88 levels"


def test_literal_division_hand_worked():
    # ⌈4 ÷ 3⌉ = 2 attack dice vs 1 die: 56/125; ⌈3 ÷ 3⌉ = 1 damage die, mean 0.4.
    r = warfare(**TINY, divide_by_3="attack_damage")
    assert (r.attack_dice, r.attack_threes, r.damage_dice, r.damage_threes) == (2, 0, 1, 0)
    assert r.p_hit == Fraction(56, 125)
    assert r.expected_damage == Fraction(56, 125) * Fraction(2, 5)
    assert r.expected_damage_full == P_HIT_4_VS_1 * Fraction(6, 5)
    assert r.figure("expected_damage_full").label == "Expected health levels, full pools"


def test_no_full_pool_figures_without_the_shortcut():
    r = warfare(**TINY)
    assert r.p_hit_full is None
    assert r.expected_damage_full is None
    assert "p_hit_full" not in [f.key for f in r.figures()]


@pytest.mark.parametrize(
    ("party_size", "option", "full", "divided"),
    [
        # the default party (no force, Size 0): +5 difficulty, the defence cancels nothing
        (0, "attack_damage", 15.73, 4.70),  # −70 %
        (0, "all", 15.73, 4.70),
        (0, "scaled", 15.73, 13.93),
        # a party's force of Size 5: no penalty, the 5 defence dice cancel successes
        (5, "attack_damage", 10.43, 1.05),  # −90 %
        (5, "all", 10.43, 2.77),  # −73 %
        (5, "scaled", 10.43, 9.55),  # −8 %
    ],
)
def test_what_each_shortcut_does_to_the_default_force(party_size, option, full, divided):
    # Defaults: 5 attacks of Skill 3 + Size 5 = 8 dice against Wits 3 + Tactics 2 = 5
    # dice, Firepower 3 + Size 5 = 8 damage dice. Worked here with floats from the
    # binomial, independently of the engine.
    pen = 5 - party_size
    att, dfn, dmg = _binomial(8), _binomial(5), _binomial(8)
    _, want_full = _expected_turn(att, dfn, dmg, 5, pen)
    if option == "attack_damage":  # ⌈8 ÷ 3⌉ = 3 attack and damage dice, defence 5
        p, want = _expected_turn(_binomial(3), dfn, _binomial(3), 5, pen)
    elif option == "all":  # 3 attack, ⌈5 ÷ 3⌉ = 2 defence, 3 damage dice
        p, want = _expected_turn(_binomial(3), _binomial(2), _binomial(3), 5, pen)
    else:  # 2 dice ×3 + 2 dice for attack and damage, defence 5 as it is
        p, want = _expected_turn(_in_threes(8), dfn, _in_threes(8), 5, pen)
    # independent attacks (with the defaults' penalty a Dazed target's +1 would change
    # the party-Size-5 rows; Dazing is test_warfare_dazing.py)
    r = warfare(divide_by_3=option, party_size=party_size, dazing="ignore")
    assert float(r.p_hit) == pytest.approx(p, rel=1e-12)
    assert float(r.expected_damage) == pytest.approx(want, rel=1e-12)
    assert float(r.expected_damage_full) == pytest.approx(want_full, rel=1e-12)
    assert round(want_full, 2) == full
    assert round(want, 2) == divided


def test_threes_keep_the_expected_damage_of_a_hit_everywhere():
    # Over every Firepower and Size the form accepts (and Support/Power/Morale automatic
    # successes), a hit's expected damage in threes equals the full pool's: 0.4 per die.
    for firepower in range(1, 11):
        for size in (1, 5, 10):
            r = warfare(
                enemy_firepower=firepower,
                enemy_size=size,
                divide_by_3="scaled",
                support=2,
                spend_support=True,
            )
            dmg = sum(
                k * p
                for k, p in enumerate(
                    successes_pmf(r.damage_dice, threes=r.damage_threes, auto=r.damage_auto)
                )
            )
            assert dmg == Fraction(2, 5) * (firepower + size) + 1


def test_shortcut_labels_say_what_they_do():
    from ruleslab.calculators.warfare import CALCULATOR

    choices = dict(next(p for p in CALCULATOR.params if p.name == "divide_by_3").choices)
    assert list(choices) == ["no", "scaled", "attack_damage", "all"]
    assert "same expected damage per hit" in choices["scaled"]
    assert choices["attack_damage"].startswith("As written")
    assert "weaker" in choices["attack_damage"]
    assert "weaker" in choices["all"]


def test_squad_full_pool_losses_side_by_side():
    r = warfare(target="squad", henchmen=200, divide_by_3="attack_damage")
    full = warfare(target="squad", henchmen=200)
    # regular henchmen, 200 of them: never wiped by 5 attacks of at most 8 levels × 3
    assert r.expected_losses_full == 3 * full.expected_damage
    keys = [f.key for f in r.figures()]
    assert keys[keys.index("expected_losses") + 1] == "expected_losses_full"


def test_roll_turn_in_threes_matches_the_distribution():
    r = warfare(**{**TINY, "commander_command": 1}, divide_by_3="scaled")
    log = roll_turn(r, 5)
    assert "1 die ×3" in log[1]
    seen: dict[int, int] = {}
    n = 4000
    for seed in range(n):
        total = int(roll_turn(r, seed)[-1].split()[1])
        seen[total] = seen.get(total, 0) + 1
    assert set(seen) <= {k for k, p in enumerate(r.damage_pmf) if p}
    for k, p in enumerate(r.damage_pmf):
        assert abs(seen.get(k, 0) / n - float(p)) < 0.035, k


# --- squads -------------------------------------------------------------------------


def test_trained_squad_rounds_each_attacks_losses_down_by_default():
    # one attack; a hit of 1 level: × 3 = 3, ÷ 2 → 1 (down) or 2 (up); 2 levels → 3
    kw = {
        **ONE_ATTACK,
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
        (
            {"morale": 6, "morale_permanent": 5},
            "morale",
            "Enemy Morale (temporary) can be at most the permanent Morale, 5.",
        ),
        (
            {"party_morale": 3, "party_morale_permanent": 2},
            "party_morale",
            "Party's force Morale (temporary) can be at most its permanent Morale, 2.",
        ),
        ({"awareness_dice": 31}, "awareness_dice", "from 0 to 30"),
        ({"awareness_difficulty": 0}, "awareness_difficulty", "from 1 to 10"),
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
        support_kind="nuclear",
        awareness_dice=4,
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
    r = warfare(**ONE_ATTACK)
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
        {"divide_by_3": "scaled", "support": 3, "spend_support": True, "support_kind": "recon"},
        {"divide_by_3": "scaled", "enemy_firepower": 7, "spend_morale": True, "party_size": 2},
        {
            "divide_by_3": "scaled",
            "defence_reading": "defense_score",
            "support": 2,
            "spend_support": True,
            "support_kind": "nuclear",
        },
    ],
)
def test_total_damage_matches_icepool(kwargs):
    icepool = pytest.importorskip("icepool")
    # independent attacks, as icepool sums them below (``r.attacks @ per``); a Dazed
    # target's +1 on the later attacks is test_warfare_dazing.py
    r = warfare(**kwargs, dazing="ignore")
    s = icepool.d10 >= 7

    def pool(n: int, auto: int = 0, threes: int = 0):
        ones = n - threes
        return (
            (3 * (threes @ s) if threes else icepool.Die([0]))
            + (ones @ s if ones else icepool.Die([0]))
            + auto
        )

    att = pool(r.attack_dice, r.attack_auto, r.attack_threes)
    if r.defence_reading == "opposed":
        hit = icepool.map(
            lambda a, d: a - max(0, d - r.defence_penalty) >= 1, att, pool(r.defence_dice)
        )
    else:
        hit = att >= 1 + max(0, r.defence_dice - r.defence_penalty)
    damage = pool(r.damage_dice, r.damage_auto, r.damage_threes)
    per = icepool.map(lambda h, dmg: dmg if h else 0, hit, damage)
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


def test_defence_pool_hand_worked():
    assert defence_pool(wits=3, tactics=2).dice == 5
    r = defence_pool(wits=3, tactics=2, mega_wits=1, extra=4, squad=True, divide=True)
    assert r.dice == 4  # ⌈(3 + 2 + 2 + 4) ÷ 3⌉
    assert "the squad leader's" in r.steps[-1].text


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
    r = squad_turn_losses(per, 1, Squad(henchmen=2))
    assert r.losses == (Fraction(1, 2), Fraction(0), Fraction(1, 2))
    assert r.expected == 1
    led = squad_turn_losses(per, 1, Squad(henchmen=2, leader_is_henchman=True))
    assert led.squad_size == 3
    assert led.losses == (Fraction(1, 2), Fraction(0), Fraction(0), Fraction(1, 2))
    # two attacks, trained (÷ 2, down): a hit removes ⌊3/2⌋ = 1; 10 henchmen, no cap
    two = squad_turn_losses(per, 2, Squad(henchmen=10, training="trained"))
    assert two.losses[:3] == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert sum(two.losses) == 1
    assert len(two.losses) == 11


# --- exact sums over a turn's attacks, by brute force ------------------------------------


def _brute_sum(per_attack, attacks, cap=None, each=lambda k: k):
    """P(total) by enumerating every combination of the attacks' outcomes."""
    from itertools import product

    out: dict[int, Fraction] = {}
    for combo in product(range(len(per_attack)), repeat=attacks):
        p = Fraction(1)
        for k in combo:
            p *= per_attack[k]
        total = sum(each(k) for k in combo)
        if cap is not None:
            total = min(total, cap)
        out[total] = out.get(total, Fraction(0)) + p
    return [out.get(k, Fraction(0)) for k in range(max(out) + 1)]


PER = (Fraction(3, 10), Fraction(1, 7), Fraction(0), Fraction(1, 3), Fraction(47, 210))


@pytest.mark.parametrize("attacks", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("cap", [None, 0, 1, 4, 7, 30])
def test_sum_of_attacks_matches_brute_force(attacks, cap):
    assert sum(PER) == 1
    got = list(sum_of_attacks(PER, attacks, cap))
    want = _brute_sum(PER, attacks, cap)
    # trailing zeros aside, the same table
    while got and got[-1] == 0 and len(got) > len(want):
        got.pop()
    assert got == want


@pytest.mark.parametrize("training", ["regular", "trained", "fanatical"])
@pytest.mark.parametrize("rounding", ["down", "up"])
@pytest.mark.parametrize("henchmen", [1, 4, 9, 40])
def test_squad_losses_match_brute_force(training, rounding, henchmen):
    # 3 attacks, each dealing 0–4 levels (PER); each hit's levels × 3, ÷ the training
    # divisor, rounded per attack; the turn's losses capped at the squad.
    div = {"regular": 1, "trained": 2, "fanatical": 3}[training]

    def each(k):
        return -(-3 * k // div) if rounding == "up" else 3 * k // div

    squad = Squad(henchmen=henchmen, training=training, rounding=rounding)
    r = squad_turn_losses(PER, 3, squad)
    want = _brute_sum(PER, 3, henchmen, each)
    want += [Fraction(0)] * (henchmen + 1 - len(want))
    assert list(r.losses) == want
    expected = sum(k * p for k, p in enumerate(want))
    assert r.expected == expected
    assert squad_expected_losses(PER, 3, squad) == expected
