"""Issue 33 (b): the wound penalty of the health levels lost, a condition (RN-COND-7).

Quick reference › 2.1 Rules › Health Levels: "Characters have (Willpower + [Stamina * 2] +
[Mega-Stamina * 6] + Quantum) health levels. The character takes a -1 wound penalty for
every (Stamina + Resistance)/2 + 1, (round down) health levels of damage they suffer. Past
that, a character has an additional (Stamina) Incapacitated levels …"; 2.0: "-0 x 1/-1 x
2/-2 x 2/-4 x 1/Incap", a -0 level at Stamina 3, one per Quantum dot.

Reading (RN-COND-7): the penalty of the worst box filled comes off each dice pool he rolls
(an attack, a dodge, a parry, a power block, an active defence, his other actions);
initiative only under the "rating" option; Incapacitated, no roll may be made.

Every expected figure is worked by hand in the comments (a die succeeds on 7–10: 2/5).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab.calculators.defence import initiative_and_defence
from ruleslab.calculators.health import health
from ruleslab.character import Character, Conditions

F = Fraction
P, Q = F(2, 5), F(3, 5)

# 2.1, Stamina 3, Resistance 0, Willpower 3, Quantum 1 (the Character record's defaults):
# 3 + 2 × 3 + 0 + 1 = 10 levels, −1 per ⌊(3 + 0)/2⌋ + 1 = 2 levels of damage: the k-th
# level lost is at −⌊k/2⌋: 1 → −0, 2 → −1, 3 → −1, 4 → −2 … 10 → −5; 11–13 Incapacitated.
PENALTY_21 = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 9: 4, 10: 5}


@pytest.mark.parametrize(("lost", "penalty"), PENALTY_21.items())
def test_the_2_1_penalty_is_the_health_calculators(lost, penalty):
    track = health(strength=3, stamina=3, willpower=3, resistance=0, quantum=1, bashing=lost)
    assert track.figure("wound_penalty").value == penalty
    # Initiative & defence's active defence: Dex 3 + Athletics 2 = 5 dice, less the penalty
    d = initiative_and_defence(levels_lost=lost)
    assert d.defense.active.dice == 5 - penalty
    # Autofire's attack: Dex 3 + Firearms 2 + accuracy 1 + short burst 2 = 8, less it
    assert autofire_and_strafing(levels_lost=lost).attack.pool == 8 - penalty


def test_2_1_defence_and_actions_by_hand():
    # 3 lost: −1. The active defence (difficulty 1) rolls 4 dice: 1 − (3/5)^4 = 544/625.
    d = initiative_and_defence(levels_lost=3)
    assert d.defense.active.p_success == 1 - Q**4 == F(544, 625)
    # his declared actions roll 6 − 1 = 5 dice; the 1st at difficulty 1: 1 − (3/5)^5
    assert d.multiple.rolls[0].dice == 5
    assert d.multiple.rolls[0].p_success == F(2882, 3125)
    working = " ".join(s.text for s in d.steps)
    assert "the full pool of 6 − wound penalty 1 = 5 dice" in working
    # initiative untouched by default: Dex 3 + Wits 3 = 6 against 6
    assert d.figure("initiative").value == 6
    assert "initiative, a rating + 1d10 and not a dice pool, untouched" in working


def test_initiative_takes_it_under_the_rating_option():
    # rating 6 − 1 = 5 against an opponent's 6; a tie goes to the higher rating (his 6), so
    # he acts first when his d10 beats the other's by 2 or more: 8 + 7 + … + 1 = 36 of 100
    d = initiative_and_defence(levels_lost=3, wound_on_initiative="rating")
    assert d.figure("initiative").value == 5
    assert d.figure("p_first").value == F(36, 100)
    assert initiative_and_defence().figure("p_first").value != F(36, 100)


def test_incapacitated_he_may_roll_nothing():
    # 13 lost: the 13th box is his 3rd Incap level (10 levels, then Stamina 3 Incap)
    d = initiative_and_defence(levels_lost=13)
    assert d.defense.active.p_success == 0
    assert all(r.p_success == 0 for r in d.multiple.rolls)
    assert "Incapacitated, he may take no action" in " ".join(s.text for s in d.steps)
    a = autofire_and_strafing(levels_lost=11)
    assert a.p_hit == 0
    # an Incapacitated 2.0 target cannot dodge: the 2-die attack hits as if undodged,
    # 1 − (3/5)^2 = 16/25 (Sta 2, Quantum 1: −0 ×2, −1 ×2, −2 ×2, −4, then Incap: 8th box)
    two = {"ruleset": "2.0", "dodge_pool": 2, "dexterity": 1, "ability": 1}
    base = {**two, "accuracy": 0, "burst": "none"}
    assert autofire_and_strafing(**base, target_levels_lost=8).p_hit == F(16, 25)
    # 7 lost: the 7th box is its −4, more than its 2 dice: the same 16/25; 4 lost: the
    # 4th box, −1, a 1-die dodge: 12/25·3/5 + 4/25·1 = 56/125
    assert autofire_and_strafing(**base, target_levels_lost=7).p_hit == F(16, 25)
    assert autofire_and_strafing(**base, target_levels_lost=4).p_hit == F(56, 125)


def test_2_0_tracks_by_hand():
    # 2.0 defender, Sta 5, Quantum 0: base −0, −1, −1, −2, −2, −4 plus Sta 3 (−0) and
    # Sta 5 (−1): −0 ×2, −1 ×3, −2 ×2, −4, Incap. 5 lost: −1; 6 lost: −2; 8 lost: −4
    person = {"ruleset": "2.0", "stamina": 5, "quantum": 0}
    for lost, dice in ((0, 5), (2, 5), (5, 4), (6, 3), (8, 1), (9, 0)):
        assert initiative_and_defence(**person, levels_lost=lost).maneuvers.dodge.dice == dice
        track = health(ruleset="2.0", strength=3, stamina=5, quantum=0, bashing=lost)
        state = track.figure("state").text
        assert (state == "Incapacitated") == (lost == 9)


def test_the_same_record_gives_the_same_penalty_in_every_calculator():
    # one saved character (2.1, Sta 4, Res 2, Willpower 5, Quantum 2): 5 + 8 + 0 + 2 = 15
    # levels, −1 per ⌊6/2⌋ + 1 = 4: 7 lost → −1, 8 lost → −2
    hero = Character(stamina=4, resistance=2, willpower=5, quantum=2, dexterity=3, wits=3)
    for lost, penalty in ((3, 0), (7, 1), (8, 2), (15, 3)):
        track = health(character=hero, bashing=lost)
        assert track.figure("wound_penalty").value == penalty
        d = initiative_and_defence(defender=hero, conditions=Conditions(levels_lost=lost))
        assert d.defense.active.dice == 3 + 2 - penalty
        a = autofire_and_strafing(attacker=hero, conditions=Conditions(levels_lost=lost))
        assert a.attack.pool == 3 + 2 + 1 + 2 - penalty


def test_a_calculator_that_cannot_apply_it_refuses_it():
    from ruleslab.calculators import get
    from ruleslab.params import InputError

    # Movement (speeds, no roll) and Health & soak (the track itself) take no levels lost
    with pytest.raises(InputError) as err:
        get("movement").compute(conditions=Conditions(levels_lost=2))
    assert "“Health levels lost”" in err.value.message
