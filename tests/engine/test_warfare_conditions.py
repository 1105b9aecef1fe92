"""Warfare: the target's conditions, the roles, and one reading of a difficulty on a defence.

Every expectation is worked by hand from the text in the comments (a d10 succeeds
on 7+: p = 0.4; Bin(n, 0.4) below is the number of successes of n dice):

* Bin(1): P0 .6, P1 .4
* Bin(2): P0 .36, P1 .48, P2 .16
* Bin(3): P0 .216, P1 .432, P2 .288, P3 .064 (≥1 .784, ≥2 .352, ≥3 .064)
* Bin(4): ≥3 = 4 × .4³ × .6 + .4⁴ = .1536 + .0256 = .1792, ≥4 = .0256

"Dazed characters are at +1 difficulty to all actions" (Quick reference ›
Dazing/Stunning): a target already Dazed when the turn starts meets every attack
at +1 on his defence (rules notes RN-WAR-14, RN-COND-4); a difficulty on a defence
roll is spent by its first successes, or (option) must be reached (RN-COND-5).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from warfare_forces import ONE_ATTACK

from ruleslab.calculators.warfare import COMMANDER, DEFENDER, roll_turn, warfare
from ruleslab.character import Character, Conditions
from ruleslab.params import InputError
from ruleslab.quickref.conditions import DEFENCE_DIFFICULTY_READINGS


def q(x: str) -> Fraction:
    return Fraction(x)


# One attack (enemy Size 1), attack pool Skill 1 + Size 1 = 2 dice, damage Firepower 1 +
# Size 1 = 2 dice (mean 0.8), against Wits 1 + Tactics 0 = 1 die, party Size 1: no Size
# penalty.
ONE_ON_ONE = {
    "enemy_size": 1,
    "enemy_skill": 1,
    "enemy_firepower": 1,
    "party_size": 1,
    "wits": 1,
    "tactics": 0,
}


@pytest.mark.parametrize("daze", ["dazed", "stunned"])
def test_already_dazed_one_die_defence(daze):
    # Not Dazed: hit iff A − D ≥ 1, A ~ Bin(2), D ~ Bin(1):
    #   P(D=0) P(A≥1) + P(D=1) P(A≥2) = .6 × .64 + .4 × .16 = .384 + .064 = .448
    before = warfare(**ONE_ON_ONE)
    assert before.p_hit == q("0.448")
    assert before.expected_damage == q("0.448") * q("0.8")
    # Dazed (or Stunned: the same +1) at the start of the turn: +1 difficulty on his defence,
    # its first success pays for it, max(0, D − 1) = 0 always, so P(hit) = P(A ≥ 1) = .64
    after = warfare(**ONE_ON_ONE, daze=daze)
    assert after.p_hit == q("0.64")
    assert after.expected_damage == q("0.64") * q("0.8")  # 0.512
    assert after.daze_difficulty == 1
    assert after.p_hit_dazed is None  # no second +1 from being Dazed again this turn
    defence = {f.key: f.text for f in after.figures()}["defence_pool"]
    assert defence == f"1 dice, −1 {daze.capitalize()}"


def test_already_dazed_defense_score():
    # Defense score (not rolled): Wits 2 + Tactics 1 = 3; attack Skill 3 + Size 1 = 4 dice.
    inputs = {**ONE_ON_ONE, "enemy_skill": 3, "wits": 2, "tactics": 1}
    # Not Dazed: needs 1 + 3 = 4 successes: .4⁴ = .0256
    before = warfare(**inputs, defence_reading="defense_score")
    assert before.p_hit == q("0.0256")
    # Dazed: the score's first point pays the +1: needs 1 + 2 = 3 successes: .1792
    after = warfare(**inputs, defence_reading="defense_score", daze="dazed")
    assert after.p_hit == q("0.1792")


def test_already_dazed_two_attacks_are_independent_at_the_plus_one():
    # Enemy Size 2 (2 attacks: Int 3 + Command 3 ≥ 2), party Size 2: no Size penalty.
    # Attack Skill 1 + Size 2 = 3 dice, damage Firepower 1 + Size 2 = 3 dice (mean 1.2);
    # defence 1 die. Stamina 1: Dazed at 2 levels this turn.
    inputs = {**ONE_ON_ONE, "enemy_size": 2, "party_size": 2, "stamina": 1}
    before = warfare(**inputs)
    # .6 × P(A≥1) + .4 × P(A≥2) = .6 × .784 + .4 × .352 = .4704 + .1408 = .6112
    assert before.p_hit == q("0.6112")
    assert before.p_hit_dazed == q("0.784")  # once the first attack has Dazed him
    after = warfare(**inputs, daze="dazed")
    # every attack at +1 from the start: P(hit) = P(A ≥ 1) = .784, both attacks alike
    assert after.p_hit == q("0.784")
    assert after.p_any_hit == 1 - q("0.216") ** 2  # .953344
    assert after.expected_damage == 2 * q("0.784") * q("1.2")  # 1.8816
    assert after.dazed_at == 2  # the figures still say when this turn's damage Dazes him


def test_a_squad_leader_already_dazed():
    # A squad: its leader's Wits 1 + Tactics 0 defends; 10 regular henchmen, each health level
    # × 3 removes 3 (Area attack), one attack of at most 2 levels: never more than 6 removed.
    inputs = {**ONE_ON_ONE, "target": "squad", "henchmen": 10}
    before = warfare(**inputs)
    assert before.expected_losses == 3 * q("0.448") * q("0.8")  # 1.0752
    after = warfare(**inputs, daze="dazed")
    assert after.expected_losses == 3 * q("0.64") * q("0.8")  # 1.536


# Size penalty 1 (enemy Size 2, party Size 1); one attack (commander Int 1 + Command 0);
# attack Skill 1 + Size 2 = 3 dice; defence Wits 1 + Tactics 1 = 2 dice.
PENALISED = {**ONE_ATTACK, "enemy_size": 2, "tactics": 1}


def test_the_size_penalty_spent_or_reached():
    # spend (default): counted = max(0, D − 1): D = 2 counts 1, else 0
    #   P = (.36 + .48) × P(A≥1) + .16 × P(A≥2) = .84 × .784 + .16 × .352 = .65856 + .05632
    spend = warfare(**PENALISED)
    assert spend.attacks == 1
    assert spend.p_hit == q("0.71488")
    assert spend.p_hit == warfare(**PENALISED, defence_difficulty="spend").p_hit
    # threshold: counted = D if D ≥ 2 else 0: D = 2 counts 2
    #   P = .84 × .784 + .16 × P(A≥3) = .65856 + .16 × .064 = .65856 + .01024
    threshold = warfare(**PENALISED, defence_difficulty="threshold")
    assert threshold.p_hit == q("0.6688")
    # threshold and already Dazed: +2 in all, needs 3 successes of 2 dice: counts nothing
    assert warfare(**PENALISED, defence_difficulty="threshold", daze="dazed").p_hit == q("0.784")
    # spend and already Dazed: max(0, D − 2) = 0 always: the same
    assert warfare(**PENALISED, daze="dazed").p_hit == q("0.784")


def test_threshold_on_a_defense_score():
    # Score Wits 1 + Tactics 1 = 2 at +1 (Size): spend 2 − 1 = 1 → needs 2 successes;
    # threshold: 2 reaches 1 + 1 → all 2 count → needs 3 successes.
    spend = warfare(**PENALISED, defence_reading="defense_score")
    assert spend.p_hit == q("0.352")
    threshold = warfare(
        **PENALISED, defence_reading="defense_score", defence_difficulty="threshold"
    )
    assert threshold.p_hit == q("0.064")
    # … and Dazed too: +2, the score 2 does not reach 3 → counts 0 → needs 1 success
    assert warfare(
        **PENALISED, defence_reading="defense_score", defence_difficulty="threshold", daze="dazed"
    ).p_hit == q("0.784")


def test_the_option_is_the_conditions_choice():
    from ruleslab.calculators.warfare import CALCULATOR

    option = next(p for p in CALCULATOR.params if p.name == "defence_difficulty")
    assert option.choices == DEFENCE_DIFFICULTY_READINGS
    assert option.default == "spend"
    assert "defence_difficulty" in CALCULATOR.options


def test_roll_it_applies_the_daze_from_the_first_attack():
    r = warfare(**{**ONE_ON_ONE, "enemy_size": 3, "party_size": 3}, daze="dazed")
    attack_lines = [line for line in roll_turn(r, 11) if line.startswith("Attack")]
    assert len(attack_lines) == 3
    for line in attack_lines:
        m = re.search(r"vs defence \[[^\]]*\] → (\d+) − 1 Dazed = (\d+)", line)
        assert m is not None, line
        assert int(m.group(2)) == max(0, int(m.group(1)) - 1)
        assert "from now on" not in line  # already Dazed: no second +1


def test_roll_it_threshold_counts_all_or_nothing():
    r = warfare(**{**PENALISED, "wits": 4, "tactics": 3}, defence_difficulty="threshold")
    seen = set()
    for seed in range(40):
        for line in roll_turn(r, seed):
            m = re.search(r"→ (\d+) \(at \+1 difficulty: counts only at 2\) = (\d+)", line)
            if m:
                rolled, counted = int(m.group(1)), int(m.group(2))
                assert counted == (rolled if rolled >= 2 else 0), line
                seen.add(counted == rolled)
    assert seen == {True, False}


def test_character_records_and_flat_fields_agree():
    target = Character(wits=4, mega_wits=1, tactics=3, stamina=2, mega_stamina=1)
    boss = Character(intelligence=2, mega_intelligence=1, command=1)
    by_record = warfare(
        enemy_size=4,
        defender=target,
        commander=boss,
        conditions=Conditions(daze="stunned"),
    )
    flat = warfare(
        enemy_size=4,
        wits=4,
        mega_wits=1,
        tactics=3,
        stamina=2,
        mega_stamina=1,
        commander_intelligence=2,
        commander_mega_intelligence=1,
        commander_command=1,
        daze="stunned",
    )
    assert by_record == flat
    # Int 2 + Mega 1 × 2 = 4, + Command 1 = 5 ≥ Size 4: 4 attacks; defence Wits 4 + 2 + 3 = 9
    assert by_record.attacks == 4
    assert by_record.defence_dice == 9
    assert by_record.daze_difficulty == 1
    # a flat field changes that one field of a record
    assert warfare(defender=target, tactics=0).defence_dice == 6


def test_roles_keep_the_old_names_and_defaults():
    params = {p.name: p for p in warfare.params}
    assert [n for n in DEFENDER.flat_names] == [
        "wits",
        "mega_wits",
        "tactics",
        "stamina",
        "mega_stamina",
    ]
    assert [n for n in COMMANDER.flat_names] == [
        "commander_intelligence",
        "commander_mega_intelligence",
        "commander_command",
    ]
    defaults = {n: params[n].default for n in (*DEFENDER.flat_names, *COMMANDER.flat_names)}
    assert defaults == {
        "wits": 3,
        "mega_wits": 0,
        "tactics": 2,
        "stamina": 3,
        "mega_stamina": 0,
        "commander_intelligence": 3,
        "commander_mega_intelligence": 0,
        "commander_command": 3,
    }
    assert params["wits"].label == "Target's Wits"
    assert params["commander_command"].label == "Enemy commander's Command"
    assert params["stamina"].shown_when == ("target", "character")
    assert params["wits"].shown_when is None
    assert params["daze"].default == "none"
    with pytest.raises(InputError):
        warfare(daze="asleep")
