"""Warfare: what a force spends on its attacks of opportunity — Support, Morale, Power.

The rules (:mod:`ruleslab.alterations.warfare.support`) and how the Warfare calculator
(:mod:`ruleslab.calculators.warfare`) applies them: the text's own examples
(Support 5 "a first world military", Power 1 "a horde of sub-Aberrants" and
Power 10 "an all-Doyen force", tactical nuclear weapons and tactical recon),
hand-worked pools and odds; rules notes RN-WAR-4, -5, -6 and -10.
"""

from fractions import Fraction

import pytest
from warfare_forces import ONE_ATTACK

from ruleslab.alterations.warfare.support import force_pools, power_spent
from ruleslab.calculators.warfare import roll_turn, warfare
from ruleslab.params import InputError

# --- special Support: tactical nuclear weapons, tactical recon (RN-WAR-10) --------------
# "Certain types of support may have additional effects such as tactical nuclear weapons
# turning damage aggravated or tactical recon assets adding +1 to accuracy for all enemy
# attacks on the turn."
# Hand-worked force: Skill 1 + Size 1 + Support 1 = 3 dice against Wits 1 + Tactics 0 =
# 1 die; Firepower 1 + Size 1 = 2 damage dice + 1 automatic success (Support); one attack.
SMALL = {**ONE_ATTACK, "support": 1, "spend_support": True}
# 3 dice vs 1 die: the defence fails (3/5) and the attack rolls 1+ (1 − 0.6³ = 0.784), or
# the defence rolls 1 (2/5) and the attack 2+ (1 − 0.216 − 3 × 0.4 × 0.36 = 0.352).
P_HIT_3_VS_1 = Fraction(3, 5) * Fraction(784, 1000) + Fraction(2, 5) * Fraction(352, 1000)
# 4 dice vs 1 die: 1 − 0.6⁴ = 0.8704; 2+ = 1 − 0.1296 − 4 × 0.4 × 0.216 = 0.5248.
P_HIT_4_VS_1 = Fraction(3, 5) * Fraction(8704, 10000) + Fraction(2, 5) * Fraction(5248, 10000)


def test_ordinary_support_is_lethal():
    r = warfare(**SMALL)
    assert r.support_kind == "ordinary"
    assert r.damage_type == "lethal"
    assert r.p_hit == P_HIT_3_VS_1 == Fraction(764, 1250)
    # 2 dice (mean 0.8) + 1 automatic success
    assert r.expected_damage == P_HIT_3_VS_1 * Fraction(9, 5)
    assert r.figure("expected_damage").label == "Expected health levels (lethal)"


def test_tactical_nuclear_weapons_make_the_damage_aggravated():
    r = warfare(**SMALL, support_kind="nuclear")
    assert r.damage_type == "aggravated"
    # the same dice and odds: only the type changes (soak is already ignored)
    assert r.attack_dice == 3
    assert r.p_hit == P_HIT_3_VS_1
    assert r.expected_damage == P_HIT_3_VS_1 * Fraction(9, 5)
    assert r.figure("expected_damage").label == "Expected health levels (aggravated)"
    assert r.figure("damage_dice").text == "2 + 1 auto, aggravated"
    assert "Tactical nuclear weapons" in r.explain()
    assert roll_turn(r, 3)[-1].endswith("aggravated health levels, soak ignored")


def test_tactical_recon_adds_one_accuracy_die_to_every_attack():
    # Accuracy is dice: Compressed combat's officer has "Dexterity 3, Firearms 2 + 1
    # accuracy, weapon damage 6L … a total of 12d" (3 + 2 + 1 + 6).
    r = warfare(**SMALL, support_kind="recon")
    assert r.attack_dice == 1 + 1 + 1 + 1
    assert r.damage_type == "lethal"
    assert r.p_hit == P_HIT_4_VS_1 == Fraction(9152, 12500)
    assert r.expected_damage == P_HIT_4_VS_1 * Fraction(9, 5)
    assert "+1 accuracy" in r.explain()
    five = warfare(**{**SMALL, "commander_command": 4, "enemy_size": 5}, support_kind="recon")
    assert five.attacks == 5
    assert five.attack_dice == 1 + 5 + 1 + 1  # every attack of the turn gets it


def test_special_support_needs_the_support_spent():
    r = warfare(**{**SMALL, "spend_support": False}, support_kind="nuclear")
    assert r.damage_type == "lethal"
    assert r.attack_dice == 2
    assert "Support not spent this turn: its tactical nuclear weapons are not used" in (r.explain())
    recon = warfare(**{**SMALL, "spend_support": False}, support_kind="recon")
    assert recon.attack_dice == 2


def test_aggravated_squad_losses_are_counted_as_before():
    squad = {**SMALL, "target": "squad", "henchmen": 10}
    nuke = warfare(**squad, support_kind="nuclear")
    plain = warfare(**squad)
    assert nuke.losses_pmf == plain.losses_pmf
    # hit: 1 + (0, 1 or 2) levels, × 3 removed: 3, 6 or 9 henchmen
    p = P_HIT_3_VS_1
    assert nuke.losses_pmf[3] == p * Fraction(36, 100)
    assert nuke.losses_pmf[6] == p * Fraction(48, 100)
    assert nuke.losses_pmf[9] == p * Fraction(16, 100)
    assert "aggravated" in nuke.explain()


# --- Support, Morale and Power in the pools ----------------------------------------------


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


def test_boost_chance():
    r = warfare(power=2, power_use="boost")
    assert r.attack_dice == 8  # boost does not add to attacks of opportunity
    assert r.figure("power_effect").text.startswith("Boost: 64.00 % chance")


def test_recharge():
    r = warfare(power=1, power_use="recharge")
    assert "Recharge" in r.figure("power_effect").text
    assert r.attack_dice == 8


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
        shortcut="divide",
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


def test_power_spent():
    assert power_spent("none", 0).text == "not used"
    assert power_spent("boost", 2).text.startswith("Boost: 64.00 % chance")
    assert power_spent("recharge", 1).steps
    assert power_spent("firepower", 3).steps == ()


# --- the text's examples --------------------------------------------------------------


def test_a_first_world_military_spends_support_5():
    # "A unit with Support 5+ is generally a first world military": Support 5 spent adds
    # 5 dice and 1 automatic damage success; Support 0 "has no actual support".
    r = warfare(support=5, spend_support=True)
    assert (r.attack_dice, r.damage_auto) == (3 + 5 + 5, 1)
    with pytest.raises(InputError):
        warfare(support=0, spend_support=True)


@pytest.mark.parametrize(
    ("power", "force"), [(1, "a horde of sub-Aberrants"), (10, "an all-Doyen force")]
)
def test_power_1_and_power_10(power, force):
    # "A horde of sub-Aberrants has Power 1, while an all-Doyen force would have Power 10."
    boost = warfare(power=power, power_use="boost")
    # Boost rolls the permanent rating: P(at least one success) = 1 − 0.6^power
    assert boost.figure("power_effect").text.startswith(
        f"Boost: {100 * (1 - 0.6**power):.2f} % chance"
    ), force
    fire = warfare(power=power, power_use="firepower")
    assert (fire.attack_dice, fire.damage_auto) == (3 + 5 + power, 1), force


def test_all_enemy_attacks_on_the_turn_get_the_recon_die():
    # "tactical recon assets adding +1 to accuracy for all enemy attacks on the turn":
    # Size 8 capped at Intelligence 3 + Command 3: 6 attacks, each with Skill 3 + Size 8 +
    # Support 2 + 1 = 14 dice.
    r = warfare(enemy_size=8, support=2, spend_support=True, support_kind="recon")
    assert (r.attacks, r.attack_dice) == (6, 14)
