"""Issue 33's contract over every calculator: each condition it applies moves the figure
the rules say it touches, in the stated direction and by the stated amount (worked by
hand in the comments; d10s succeed on 7+), and a condition it cannot apply is refused with
a message naming it, never silently dropped.

The table :data:`EFFECTS` lists, per calculator and conditions role, every field of
:class:`~ruleslab.character.Conditions` the calculator applies; a calculator that starts
applying another (or stops) must change the table, so nothing is applied unseen.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers_autofire import AUTOFIRE_2D

from ruleslab.calculators import CALCULATORS, get
from ruleslab.character import Conditions
from ruleslab.params import InputError
from ruleslab.records import record_params

F = Fraction

# 5 dice: P(≥1) 2882/3125, P(≥2) 2072/3125, P(≥3) 992/3125, P(≥4) 272/3125, P(5) 32/3125.
FALL = {"height_m": 20}  # 8 dice, lethal at 5, 5-die break-fall: lethal unless 4 counted
JUMP = {"distance_m": 6}  # 5 dice, 3 successes to clear
LIFT = {"strength": 5, "object_kg": 180, "load_kg": 0}  # 5 dice at difficulty 2
# 2-die attack against a 2-die dodge: 192/625

EFFECTS: dict[tuple[str, str], set[str]] = {
    ("falling", "conditions"): {"load_kg", "daze", "sprinting", "actions", "levels_lost"},
    ("jumping", "conditions"): {"load_kg", "daze", "sprinting", "actions", "levels_lost"},
    ("lifting", "conditions"): {"load_kg", "daze", "sprinting", "actions", "levels_lost"},
    ("movement", "conditions"): {"load_kg", "sprinting"},
    ("defence", "conditions"): {
        "levels_lost",
        "sprinting",
        "actions",
        "active_defence",
        "daze",
        "extra_actions_power",
        "load_kg",
    },
    ("autofire", "conditions"): {
        "load_kg",
        "daze",
        "extra_actions_power",
        "actions",
        "sprinting",
        "levels_lost",
    },
    ("autofire", "target_conditions"): {
        "load_kg",
        "sprinting",
        "daze",
        "extra_actions_power",
        "actions",
        "active_defence",
        "levels_lost",
    },
    ("henchmen", "leader_conditions"): {"daze"},
    ("health", "conditions"): {"scene_ended"},
    ("warfare", "conditions"): {"daze"},  # the party's defence at +1 (RN-WAR-13)
}


def _conditions_roles():
    for calc in CALCULATORS:
        for role in getattr(calc.compute, "roles", ()):
            if role.record is Conditions:
                yield calc, role


def test_the_table_lists_every_condition_each_calculator_applies():
    found = {
        (calc.key, role.name): set(role.fields) | set(role.applies)
        for calc, role in _conditions_roles()
    }
    assert found == EFFECTS


# (calculator, base inputs, the condition, figure, before, after, direction)
MOVES = [
    # Falling: the break-fall is a movement action; +1 leaves only 5 of 5 (32/3125)
    ("falling", FALL, {"load_kg": 40}, "p_lethal", F(2853, 3125), F(3093, 3125), "up"),
    ("falling", FALL, {"daze": "dazed"}, "p_lethal", F(2853, 3125), F(3093, 3125), "up"),
    ("falling", FALL, {"actions": 2}, "p_lethal", F(2853, 3125), F(3093, 3125), "up"),
    # 2 levels lost (RN-COND-7; 2.1, the record's Sta 3, Res 0: −1 per ⌊3/2⌋ + 1 = 2
    # levels, the 2nd at −1): a 4-die break-fall must count 4 of 4: 1 − 16/625
    ("falling", FALL, {"levels_lost": 2}, "p_lethal", F(2853, 3125), F(609, 625), "up"),
    # a sprinter may not break the fall: every fall of 8 dice ≥ 5 is lethal
    ("falling", FALL, {"sprinting": True}, "p_lethal", F(2853, 3125), F(1), "up"),
    # Jumping: +1 → 4 successes needed
    ("jumping", JUMP, {"load_kg": 40}, "p_clear", F(992, 3125), F(272, 3125), "down"),
    ("jumping", JUMP, {"daze": "stunned"}, "p_clear", F(992, 3125), F(272, 3125), "down"),
    ("jumping", JUMP, {"actions": 2}, "p_clear", F(992, 3125), F(272, 3125), "down"),
    # 2 lost: −1, 4 dice for 3 successes: (4·2³·3 + 2⁴)/5⁴ = 112/625
    ("jumping", JUMP, {"levels_lost": 2}, "p_clear", F(992, 3125), F(112, 625), "down"),
    ("jumping", JUMP, {"sprinting": True}, "p_clear", F(992, 3125), F(0), "down"),
    # Lifting: another physical action: Heavy (Str 5: past 75 kg) +1 → P(≥3)
    ("lifting", LIFT, {"load_kg": 100}, "p_lift", F(2072, 3125), F(992, 3125), "down"),
    ("lifting", LIFT, {"daze": "dazed"}, "p_lift", F(2072, 3125), F(992, 3125), "down"),
    ("lifting", LIFT, {"actions": 2}, "p_lift", F(2072, 3125), F(992, 3125), "down"),
    # 2 lost: −1, 4 dice for 2 successes: 1 − (3⁴ + 4·2·3³)/5⁴ = 328/625
    ("lifting", LIFT, {"levels_lost": 2}, "p_lift", F(2072, 3125), F(328, 625), "down"),
    ("lifting", LIFT, {"sprinting": True}, "p_lift", F(2072, 3125), F(0), "down"),
    # Initiative & defence, 2.0: the 5-die dodge at +1
    (
        "defence",
        {"ruleset": "2.0"},
        {"daze": "dazed"},
        "dodge",
        F(2882, 3125),
        F(2072, 3125),
        "down",
    ),
    (
        "defence",
        {"ruleset": "2.0"},
        {"sprinting": True},
        "dodge",
        F(2882, 3125),
        F(2072, 3125),
        "down",
    ),
    ("defence", {"ruleset": "2.0"}, {"load_kg": 40}, "dodge", F(2882, 3125), F(2072, 3125), "down"),
    # Autofire: the target's dodge at +1 or +2 lets more hits through
    ("autofire", AUTOFIRE_2D, {"target_load_kg": 50}, "p_hit", F(192, 625), F(16, 25), "up"),
    ("autofire", AUTOFIRE_2D, {"target_sprinting": True}, "p_hit", F(192, 625), F(352, 625), "up"),
    ("autofire", AUTOFIRE_2D, {"target_daze": "dazed"}, "p_hit", F(192, 625), F(352, 625), "up"),
    # the attacker's 2-die attack at +1 (difficulty 2, no dodge): P(≥2 of 2) = 4/25
    (
        "autofire",
        {**AUTOFIRE_2D, "dodge_pool": 0},
        {"daze": "dazed"},
        "p_hit",
        F(16, 25),
        F(4, 25),
        "down",
    ),
    (
        "autofire",
        {**AUTOFIRE_2D, "dodge_pool": 0},
        {"load_kg": 50},
        "p_hit",
        F(16, 25),
        F(4, 25),
        "down",
    ),
    # Wounds (RN-COND-7), 2.0 tracks by hand from the text ("-0 x 1/-1 x 2/-2 x 2/-4 x 1/
    # Incap", a -0 at Stamina 3, a -0 per Quantum dot). The defender (Sta 3, Quantum 1):
    # -0 x3, -1 x2, -2 x2, -4, Incap; 4 lost: -1, so his 5-die dodge rolls 4: 1 - (3/5)^4
    (
        "defence",
        {"ruleset": "2.0"},
        {"levels_lost": 4},
        "dodge",
        F(2882, 3125),
        F(544, 625),
        "down",
    ),
    # 6 lost: -2, 3 dice: 1 - (3/5)^3 = 98/125
    ("defence", {"ruleset": "2.0"}, {"levels_lost": 6}, "dodge", F(2882, 3125), F(98, 125), "down"),
    # Autofire's attacker (Sta 3, Quantum 1), 4 lost: -1, his 2-die attack rolls 1: 2/5
    (
        "autofire",
        {**AUTOFIRE_2D, "dodge_pool": 0},
        {"levels_lost": 4},
        "p_hit",
        F(16, 25),
        F(2, 5),
        "down",
    ),
    # the target (Sta 2, Quantum 1: -0 x2, -1 x2 …), 3 lost: -1, a 1-die dodge:
    # 12/25·3/5 + 4/25·1 = 56/125
    ("autofire", AUTOFIRE_2D, {"target_levels_lost": 3}, "p_hit", F(192, 625), F(56, 125), "up"),
    # Henchmen: the leader's 5-die defence, Dazed: 2 successes
    (
        "henchmen",
        {"henchmen": 0, "heavy_weapons": 0},
        {"leader_condition": "dazed"},
        "p_defence",
        F(2882, 3125),
        F(2072, 3125),
        "down",
    ),
]


def _figure(r, key):
    if key == "dodge":
        return r.maneuvers.dodge.p_success
    if key == "p_lift":
        return r.lift.p_lift
    return (
        r.figure(key).value
        if hasattr(r, "figure") and key not in ("p_lethal", "p_clear")
        else getattr(r, key)
    )


@pytest.mark.parametrize(
    ("key", "base", "condition", "figure", "before", "after", "direction"), MOVES
)
def test_a_condition_moves_its_figure_as_stated(
    key, base, condition, figure, before, after, direction
):
    calc = get(key)
    compute = calc.compute
    shown = {p.name for p in calc.params}
    flat = {n: v for n, v in condition.items() if n in shown}
    unshown = {n: v for n, v in condition.items() if n not in shown}  # a Python record's
    extra = {"conditions": Conditions(**unshown)} if unshown else {}
    was = _figure(compute(**base), figure)
    now = _figure(compute(**{**base, **flat}, **extra), figure)
    assert (was, now) == (before, after)
    assert (now > was) if direction == "up" else (now < was)


def test_the_2_1_defence_rolls_take_the_actions_and_daze():
    from ruleslab.calculators.autofire import autofire_and_strafing
    from ruleslab.calculators.defence import initiative_and_defence

    # the active defence, one of 3 actions, last: +2; Dazed +1 more
    base = initiative_and_defence(actions=3)
    assert base.defense.active.difficulty == 1
    assert initiative_and_defence(actions=3, active_defence=True).defense.active.difficulty == 3
    both = initiative_and_defence(actions=3, active_defence=True, daze="dazed")
    assert both.defense.active.difficulty == 4
    # Autofire 2.1: a 1-die active defence at +1 cancels nothing, 1 attack die vs it
    one = dict(dexterity=1, ability=0, target_dexterity=1, target_wits=1, target_ability=0)
    plain = autofire_and_strafing(**one, target_defends="active", burst="none", accuracy=0)
    busy = autofire_and_strafing(
        **one, target_defends="active", burst="none", accuracy=0, target_actions=2
    )
    assert busy.p_hit > plain.p_hit


def test_movement_and_health_conditions():
    from ruleslab.calculators.health import health
    from ruleslab.calculators.movement import movement

    # Str 3, Dex 3: a Moderate load (40 kg) takes 1 from Str and Dex for speeds
    assert (
        movement(load_kg=40).figure("walking").value < movement(load_kg=0).figure("walking").value
    )
    stunned = health(stun=2)
    cleared = health(stun=2, scene_ended=True)
    assert stunned.figure("state").text != cleared.figure("state").text
    assert cleared.figure("state").text == health().figure("state").text


def _unapplied():
    for calc, role in _conditions_roles():
        read = set(role.fields) | set(role.applies)
        for p in record_params(Conditions):
            if p.name not in read:
                yield calc.key, role.name, p


def _other(p):
    other = {"load_kg": 1.0, "actions": 2, "levels_lost": 3}
    return other.get(p.name, True if p.default is False else "dazed")


@pytest.mark.parametrize(
    ("key", "role", "param"), list(_unapplied()), ids=lambda x: getattr(x, "name", x)
)
def test_a_condition_a_calculator_cannot_apply_is_refused(key, role, param):
    record = Conditions(**{param.name: _other(param)})
    with pytest.raises(InputError) as info:
        get(key).compute(**{role: record})
    assert info.value.field == role
    assert f"“{param.label}”" in info.value.message
    assert "does not apply it" in info.value.message


def test_every_calculator_with_a_roll_for_a_person_takes_his_conditions():
    with_conditions = {key for key, _ in EFFECTS}
    assert with_conditions == {
        "falling",
        "jumping",
        "lifting",
        "movement",
        "defence",
        "autofire",
        "henchmen",
        "health",
        "warfare",
    }
