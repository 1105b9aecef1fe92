"""What each condition does to a roll (ruleslab.quickref.conditions), worked by hand from the
text."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ruleslab.character import Character, Conditions
from ruleslab.quickref.conditions import (
    RollKind,
    actions_allowed,
    defence_successes,
    on_roll,
    stun_after_scene,
)

JUMP = RollKind("the jump roll", physical="movement")
LIFT = RollKind("the lift roll", physical="other")
DODGE = RollKind("the dodge", physical="movement", defensive=True)
BLOCK = RollKind("the power block", defensive=True)
ATTACK = RollKind("the attack", physical="other")
SOAK = RollKind("the soak", action=False)
HERO = Character(strength=3, might=1)  # Str + Might 4: thresholds 20/40/60/80 kg


@pytest.mark.parametrize(
    ("load_kg", "jump", "lift"),
    [
        (20, 0, 0),  # unencumbered (up to 5 kg per dot)
        (40, 0, 0),  # light: only long-term endurance
        (60, 1, 0),  # moderate: +1 to movement or endurance
        (80, 2, 1),  # heavy: +2 movement, +1 other physical
        (100, 2, 1),  # heavy lasts up to the lift capacity, 30 kg per dot (RN-ENC-2)
    ],
)
def test_encumbrance_adds_the_tiers_difficulty_by_kind_of_roll(load_kg, jump, lift):
    cond = Conditions(load_kg=load_kg)
    assert on_roll(JUMP, HERO, cond).difficulty == jump
    assert on_roll(LIFT, HERO, cond).difficulty == lift
    assert on_roll(BLOCK, HERO, cond).difficulty == 0  # not physical
    # Light: "+1 difficulty for all rolls involving long-term physical endurance"
    march = RollKind("the forced march", physical="long_endurance")
    assert on_roll(march, HERO, cond).difficulty == (
        0 if load_kg <= 20 else 1 if load_kg <= 60 else 2
    )


def test_sprinting_allows_only_defensive_maneuvers_at_plus_one():
    cond = Conditions(sprinting=True)
    assert on_roll(DODGE, HERO, cond).difficulty == 1
    assert on_roll(DODGE, HERO, cond).allowed
    assert not on_roll(ATTACK, HERO, cond).allowed
    assert on_roll(SOAK, HERO, cond).allowed  # takes no action
    assert actions_allowed(cond) == 0
    assert on_roll(ATTACK, HERO, Conditions()).allowed


@pytest.mark.parametrize(
    ("daze", "added", "most"), [("none", 0, None), ("dazed", 1, None), ("stunned", 1, 1)]
)
def test_dazed_and_stunned(daze, added, most):
    cond = Conditions(daze=daze)
    assert on_roll(ATTACK, HERO, cond).difficulty == added
    assert on_roll(SOAK, HERO, cond).difficulty == 0
    assert actions_allowed(cond) == most


def test_multiple_actions_in_2_1_only_and_the_active_defence_counts():
    # 3 actions, an active defence one of them: the last at +2
    cond = Conditions(actions=3, active_defence=True)
    assert on_roll(BLOCK, HERO, cond).difficulty == 2
    assert on_roll(BLOCK, HERO, cond, ruleset="2.0").difficulty == 0
    assert on_roll(BLOCK, HERO, Conditions(actions=1)).difficulty == 0
    # heavy load, Dazed and two actions on a dodge: 2 + 1 + 1
    both = Conditions(load_kg=80, daze="dazed", actions=2)
    assert on_roll(DODGE, HERO, both).difficulty == 4
    assert len(on_roll(DODGE, HERO, both).steps) == 3


def test_a_difficulty_on_a_defence_roll_spends_its_first_successes():
    pmf = tuple(Fraction(n, 10) for n in (1, 2, 3, 4))  # P(0..3 successes)
    assert defence_successes(pmf, 0) == pmf
    # spend 1: 0 ← {0, 1}, 1 ← 2, 2 ← 3
    assert defence_successes(pmf, 1) == (Fraction(3, 10), Fraction(3, 10), Fraction(4, 10), 0)
    # threshold 1: needs 2 to count; 1 success counts as none
    assert defence_successes(pmf, 1, "threshold") == (
        Fraction(3, 10),
        0,
        Fraction(3, 10),
        Fraction(4, 10),
    )
    # both readings agree on whether the defence succeeds at all: P(≥ 2 rolled) = 0.7
    for reading in ("spend", "threshold"):
        assert sum(defence_successes(pmf, 1, reading)[1:]) == Fraction(7, 10)


def test_stun_goes_away_at_the_end_of_the_scene():
    assert stun_after_scene(3, Conditions())[0] == 3
    stun, step = stun_after_scene(3, Conditions(scene_ended=True))
    assert stun == 0
    assert step is not None
    assert "3 stun levels go away" in step.text
