"""Issue 33: every condition applied the same in every calculator.

Each figure is worked by hand from the texts (the working in the comment);
d10s succeed on 7+ (p = 2/5, q = 3/5), so P(k of n) = C(n, k)·2^k·3^(n−k)/5^n.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers_autofire import AUTOFIRE_2D

from ruleslab.calculators.falling import fall
from ruleslab.calculators.jumping import jump

# --- A load graded against the form's own Strength, Might and Mega-Strength -------------
# Falling at 20 m, Stamina 3 (safe (3 − 1) × 2 = 4 m; 16 m → 8 dice), lethal at Stamina 3
# + Athletics 2 = 5, break-fall Dex 3 + Athletics 2 = 5 dice: lethal unless 8 − counted
# successes < 5, i.e. 4 counted. P(≥4 of 5) = (5·16·3 + 32)/3125 = 272/3125; with +1 only
# 5 of 5 (32/3125); with +2 none. Tiers per dot of Str + Might: 5/10/15 kg (Light up to
# 10, Moderate up to 15, Heavy past it), × the Mega-Strength multiplier (×10 at 1).


@pytest.mark.parametrize(
    ("fields", "load_kg", "p_lethal"),
    [
        ({"strength": 5}, 40, Fraction(2853, 3125)),  # the issue: 25/50 kg, 40 is Light: untouched
        ({"strength": 3}, 40, Fraction(3093, 3125)),  # 15/30/45: Moderate, +1 → 1 − 32/3125
        ({"strength": 3, "might": 2}, 40, Fraction(2853, 3125)),  # Str + Might 5: Light
        ({"strength": 2}, 40, Fraction(1)),  # 10/20/30: Heavy, +2: no 4 counted of 5 dice
        ({"strength": 3, "mega_strength": 1}, 100, Fraction(2853, 3125)),  # 150 kg unencumbered
    ],
)
def test_falling_grades_the_load_against_the_forms_strength(fields, load_kg, p_lethal):
    r = fall(height_m=20, load_kg=load_kg, **fields)
    assert r.p_lethal == p_lethal


# Jumping 6 m horizontal (2 m per success: 3 successes), pool Str 3 + Athletics 2 = 5 dice.
# P(≥3 of 5) = (10·8·9 + 5·16·3 + 32)/3125 = 992/3125; ≥4: 272/3125; 5: 32/3125.


@pytest.mark.parametrize(
    ("might", "load_kg", "p_clear"),
    [
        (2, 40, Fraction(992, 3125)),  # the issue: Str + Might 5 → 25/50 kg: Light, untouched
        (0, 40, Fraction(272, 3125)),  # Str 3 alone: 15/30/45, Moderate +1
        (1, 40, Fraction(992, 3125)),  # Str + Might 4: 20/40 kg, Light
        (0, 50, Fraction(32, 3125)),  # Str 3: past 45 kg, Heavy +2
        (3, 100, Fraction(32, 3125)),  # Str + Might 6: 30/60/90 kg, 100 is Heavy (+2)
    ],
)
def test_jumping_grades_the_load_against_strength_plus_might(might, load_kg, p_clear):
    r = jump(strength=3, might=might, load_kg=load_kg, distance_m=6)
    assert r.p_clear == p_clear


# --- Autofire keeps the target's load -----------------------------------------------------
# A 2-die attack (Dex 1 + ability 1, accuracy 0, single shot) at difficulty 1 against a 2.0
# dodge of 2 dice: attack and dodge successes 0/1/2 with 9/25, 12/25, 4/25. P(hit) =
# P(a − d ≥ 1) = 12/25·9/25 + 4/25·21/25 = 192/625. A dodge is "a physical action involving
# movement": Moderate +1 (the dodge's first success pays: counted 0 with 21/25, 1 with
# 4/25) → 12/25·21/25 + 4/25 = 352/625; Heavy +2 cancels nothing: P(a ≥ 1) = 16/25.


@pytest.mark.parametrize(
    ("fields", "p_hit"),
    [
        ({"target_load_kg": 50}, Fraction(16, 25)),  # the issue: Str 3, 50 kg > 45: Heavy
        ({}, Fraction(192, 625)),  # no load
        ({"target_load_kg": 40}, Fraction(352, 625)),  # 30 < 40 ≤ 45: Moderate
        ({"target_load_kg": 50, "target_might": 2}, Fraction(192, 625)),  # 25/50 kg: Light
        ({"target_load_kg": 50, "target_mega_strength": 1}, Fraction(192, 625)),  # ×10
    ],
)
def test_autofire_reads_the_targets_load(fields, p_hit):
    from ruleslab.calculators.autofire import autofire_and_strafing

    assert autofire_and_strafing(**AUTOFIRE_2D, **fields).p_hit == p_hit


def test_autofire_a_power_block_is_not_encumbered():
    from ruleslab.calculators.autofire import autofire_and_strafing

    block = {"target_defends": "power_block", "target_power_pool": 3}
    assert (
        autofire_and_strafing(**block, target_load_kg=50).p_hit
        == autofire_and_strafing(**block).p_hit
    )


# --- Lifting: "not allowed" is not priced -------------------------------------------------
# Str 5 lifting 180 kg: needed ⌈180 ÷ 30⌉ = 6 = 5 + 1, difficulty ⌊6 ÷ 2 − 1⌋ = 2 on 5 dice:
# P(≥2 of 5) = 1 − (243 + 810)/3125 = 2072/3125. Dazed +1: P(≥3) = 992/3125.


def test_lifting_a_sprinters_lift_roll_is_not_allowed():
    from ruleslab.calculators.lifting import lifting_and_encumbrance
    from ruleslab.character import Conditions

    free = lifting_and_encumbrance(strength=5, object_kg=180, load_kg=0)
    assert free.lift.p_lift == Fraction(2072, 3125)
    sprinting = lifting_and_encumbrance(
        strength=5, object_kg=180, conditions=Conditions(sprinting=True)
    )
    assert sprinting.lift.p_lift == 0
    assert sprinting.lift.requirement == "not_allowed"
    assert sprinting.figure("roll_needed").text == "Not allowed this turn"
    assert "not allowed" in sprinting.explain()
    dazed = lifting_and_encumbrance(strength=5, object_kg=180, load_kg=0, daze="dazed")
    assert dazed.lift.p_lift == Fraction(992, 3125)
    # Str 4 lifting 120 kg needs 4: no roll, so nothing to forbid
    no_roll = lifting_and_encumbrance(
        strength=4, object_kg=120, conditions=Conditions(sprinting=True)
    )
    assert no_roll.lift.p_lift == 1


# --- Heavy load and sprinting: refused, naming both fields ---------------------------------


def _refusal(fn, **kwargs):
    from ruleslab.params import InputError

    with pytest.raises(InputError) as info:
        fn(**kwargs)
    return info.value


@pytest.mark.parametrize(
    ("calculator", "inputs", "field"),
    [
        ("defence", {"load_kg": 50, "sprinting": True}, "sprinting"),  # Str 3: > 45 kg
        ("defence", {"load_kg": 80, "sprinting": True, "strength": 4}, "sprinting"),  # > 60
        (
            "autofire",
            {"ruleset": "2.0", "dodge_pool": 2, "target_load_kg": 50, "target_sprinting": True},
            "target_sprinting",
        ),
    ],
)
def test_heavy_load_and_sprinting_are_refused(calculator, inputs, field):
    from ruleslab.calculators import get

    err = _refusal(get(calculator).compute, **inputs)
    assert err.field == field
    assert "Sprinting this turn" in err.message
    assert "Carried load" in err.message
    assert "may not run or sprint" in err.message


def test_a_moderate_load_may_sprint():
    from ruleslab.calculators.defence import initiative_and_defence

    # Str 3: 40 kg is Moderate (≤ 45): sprinting allowed
    assert initiative_and_defence(load_kg=40, sprinting=True, ruleset="2.0")


def test_heavy_load_and_sprinting_refused_from_python_records():
    from ruleslab.calculators.lifting import lifting_and_encumbrance
    from ruleslab.calculators.movement import movement
    from ruleslab.character import Conditions

    heavy_sprint = Conditions(load_kg=50, sprinting=True)
    assert _refusal(lifting_and_encumbrance, conditions=heavy_sprint).field == "sprinting"
    assert _refusal(movement, conditions=heavy_sprint).field == "sprinting"


# --- Compressed combat: henchmen add to a Quantum power only when they share it ------------
# A line with a resistance pool attacks with a power: 2 × (Int 3 + Mental Blast 3) − 4 = 8.
# 4 henchmen (limit (Charisma 2 + Command 0) × 2 = 4) add +4d and +4 damage: 12 + 8 − 4 = 16
# when they share the power; with henchman pool 8 (over 7: +2d each) 12 + 8 + 4 − 4 = 20.
# A weapon attack keeps them: Dex 3 + Firearms 2 + accuracy 1 + damage 6 + 4 + 4 − soak 1.
PSION = "Psion: Int 3, Mental Blast 3, resist 4, soak 2L"


@pytest.mark.parametrize(
    ("inputs", "pool"),
    [
        ({"a_combatants": PSION}, 8),
        ({"a_combatants": PSION, "a_henchmen": 4}, 8),  # the issue: they lack the power
        ({"a_combatants": PSION, "a_henchmen": 4, "a_henchmen_share_power": True}, 16),
        ({"a_combatants": PSION, "a_henchmen": 4, "a_henchman_pool": 8}, 8),
        (
            {
                "a_combatants": PSION,
                "a_henchmen": 4,
                "a_henchman_pool": 8,
                "a_henchmen_share_power": True,
            },
            20,
        ),
        ({"a_combatants": PSION, "a_henchmen": 4, "henchmen_count_as": "modifier"}, 8),
        ({"a_henchmen": 4}, 19),  # a weapon attack: unchanged
    ],
)
def test_compressed_henchmen_and_a_quantum_power(inputs, pool):
    from ruleslab.calculators.compressed import compressed_combat

    assert compressed_combat(**inputs).figure("pool_a").value[0] == pool


# --- Dazed on a 2.0 dodge: one reading everywhere, the other an option in each ------------
# A defensive maneuver is an action for "+1 difficulty to all actions" (RN-COND-4). Five
# dice: P(≥1) = 1 − 243/3125 = 2882/3125; P(≥2) = 1 − (243 + 810)/3125 = 2072/3125.
# Four dice (Dex 2 + Athletics 2): P(≥2) = 1 − (81 + 216)/625 = 328/625. Sprinting and
# Dazed: +2, P(≥3 of 5) = 992/3125.


@pytest.mark.parametrize(
    ("inputs", "p_dodge"),
    [
        ({"daze": "dazed"}, Fraction(2072, 3125)),  # the issue: Henchmen's figure, now here
        ({"daze": "dazed", "daze_on_defence": "no_action"}, Fraction(2882, 3125)),
        ({"daze": "stunned", "actions": 1}, Fraction(2072, 3125)),
        ({"daze": "dazed", "dexterity": 2}, Fraction(328, 625)),
        ({"daze": "dazed", "sprinting": True}, Fraction(992, 3125)),
        ({}, Fraction(2882, 3125)),
    ],
)
def test_defence_dazed_on_a_20_dodge(inputs, p_dodge):
    from ruleslab.calculators.defence import initiative_and_defence

    r = initiative_and_defence(ruleset="2.0", **inputs)
    assert r.maneuvers.dodge.p_success == p_dodge


@pytest.mark.parametrize(
    ("inputs", "p_defence"),
    [
        ({"leader_condition": "dazed"}, Fraction(2072, 3125)),  # 2.1: an active defence
        ({"leader_condition": "dazed", "ruleset": "2.0"}, Fraction(2072, 3125)),
        (
            {"leader_condition": "dazed", "ruleset": "2.0", "daze_on_defence": "no_action"},
            Fraction(2882, 3125),
        ),
        (  # under 2.1 the defence is an action whatever the option says
            {"leader_condition": "dazed", "daze_on_defence": "no_action"},
            Fraction(2072, 3125),
        ),
        ({"leader_condition": "dazed", "leader_defence": 4}, Fraction(328, 625)),
    ],
)
def test_henchmen_dazed_on_the_leaders_defence(inputs, p_defence):
    from ruleslab.calculators.henchmen import henchmen_squad

    r = henchmen_squad(henchmen=0, heavy_weapons=0, **inputs)
    assert r.figure("p_defence").value == p_defence


def test_autofire_dazed_on_a_20_dodge():
    from ruleslab.calculators.autofire import autofire_and_strafing

    # the 2-die attack against a 2-die dodge above: Dazed is the dodge's +1, 352/625
    assert autofire_and_strafing(**AUTOFIRE_2D, target_daze="dazed").p_hit == Fraction(352, 625)
    other = autofire_and_strafing(**AUTOFIRE_2D, target_daze="dazed", daze_on_defence="no_action")
    assert other.p_hit == Fraction(192, 625)


# --- The defence-roll difficulty reading, switchable in Defence and Henchmen too -----------
# Five dice at +1: "spend" counts max(0, k − 1), mean E[k] − P(k ≥ 1) = 2 − 2882/3125 =
# 3368/3125; "threshold" counts k only from 2, mean 2 − P(k = 1) = 2 − 810/3125 = 1088/625.
# Both succeed with 2 rolled: 2072/3125.


@pytest.mark.parametrize(
    ("reading", "mean"), [("spend", Fraction(3368, 3125)), ("threshold", Fraction(1088, 625))]
)
def test_henchmen_defence_difficulty_reading(reading, mean):
    from ruleslab.calculators.henchmen import henchmen_squad

    r = henchmen_squad(
        henchmen=0, heavy_weapons=0, leader_condition="dazed", defence_difficulty=reading
    )
    assert r.defence.mean == mean
    assert r.figure("p_defence").value == Fraction(2072, 3125)


def test_defence_defence_difficulty_reading():
    from ruleslab.calculators.defence import initiative_and_defence
    from ruleslab.quickref.defence.turn import counted_mean

    spend = initiative_and_defence(ruleset="2.0", daze="dazed")
    threshold = initiative_and_defence(ruleset="2.0", daze="dazed", defence_difficulty="threshold")
    for r in (spend, threshold):
        assert r.maneuvers.dodge.p_success == Fraction(2072, 3125)
    assert "the 'spend' reading" in spend.explain()
    assert "Dodge at +1: it counts 1.74 successes" in threshold.explain()
    assert counted_mean(spend.maneuvers.dodge, 1, "spend") == Fraction(3368, 3125)
    assert counted_mean(spend.maneuvers.dodge, 1, "threshold") == Fraction(1088, 625)


# --- Stunned: the Quickness / Temporal Manipulation exception, one behaviour for more actions
# Initiative & defence, 2.1, attack difficulty 1, stepwise: the n-th action +(n − 1), Stunned
# +1. Stunned alone: his 1st declared action only, at 1 + 0 + 1 = 2, the rest not allowed;
# with Quickness (the exception) all three: 2, 3, 4.


def test_defence_stunned_with_quickness_takes_every_action():
    from ruleslab.calculators.defence import initiative_and_defence

    assert initiative_and_defence(daze="stunned", actions=3).multiple.difficulties == (2,)
    quick = initiative_and_defence(daze="stunned", actions=3, extra_actions_power=True)
    assert quick.multiple.difficulties == (2, 3, 4)
    assert initiative_and_defence(
        daze="stunned", actions=2, extra_actions_power=True
    ).multiple.difficulties == (2, 3)


# Autofire, 2.1 defaults: difficulty 1 + the target's Defense ⌊2 ÷ 2⌋ = 1, + Stunned 1 = 3.
# Stunned with 3 actions declared: the attack is his one action (the others not allowed),
# still 3 (it was refused); with Quickness all 3 are taken: +2 more, 5.


@pytest.mark.parametrize(
    ("inputs", "difficulty"),
    [
        ({"daze": "stunned", "actions": 1}, 3),
        ({"daze": "stunned", "actions": 3}, 3),
        ({"daze": "stunned", "actions": 3, "extra_actions_power": True}, 5),
        ({"daze": "stunned", "actions": 2, "extra_actions_power": True}, 4),
        ({"daze": "dazed", "actions": 3}, 5),
    ],
)
def test_autofire_stunned_attacker_single_action(inputs, difficulty):
    from ruleslab.calculators.autofire import autofire_and_strafing

    assert autofire_and_strafing(**inputs).figure("difficulty").value == difficulty


def test_the_exception_is_shown_only_when_stunned():
    from ruleslab.calculators import get

    for key, names in (
        ("defence", ("extra_actions_power",)),
        ("autofire", ("extra_actions_power", "target_extra_actions_power")),
    ):
        params = {p.name: p for p in get(key).params}
        for name in names:
            daze = name.replace("extra_actions_power", "daze")
            assert params[name].shown_when == (daze, "stunned")
            assert "Quickness or Temporal Manipulation" in params[name].label


# --- Actions this turn and the active defence: counted once ----------------------------------


def test_the_active_defence_is_labelled_as_one_of_the_actions():
    from ruleslab.calculators import get

    params = {p.name: p for p in get("defence").params}
    assert params["active_defence"].label == "One of these actions is an active defence"
    assert "not 2" in params["actions"].help
    assert "not added to them" in params["active_defence"].help
    # 3 actions, one of them the active defence: 2 declared, at +0 and +1; the defence +2
    from ruleslab.calculators.defence import initiative_and_defence

    r = initiative_and_defence(actions=3, active_defence=True)
    assert r.multiple.difficulties == (1, 2)
    assert r.defense.active.difficulty == 3
