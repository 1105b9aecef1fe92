"""The attack rolled by the site (ruleslab.encounter.attack_roll): the pool less the wound
penalty, against the base difficulty plus the fight's, rolled with random.Random(seed).

Worked by hand: Ana (quick foe, Dex 4, Wits 4, Sta 3) attacks Bo (Dex 4, Wits 5, Sta 2).
2.1 Defenses: Bo's Defense min(4, 5) // 2 = 2, added to the difficulty. Multiple Actions:
Ana's second declared action at +1. 2.1 Health Levels: Ana (Willpower 3, Sta 3, Quantum 0)
"-1 wound penalty for every (3 + 0)/2 + 1 = 2" levels: 4 lethal levels take 2 dice off.
Each die at 7 or more is a success; the difficulty is the successes needed.
"""

from __future__ import annotations

from random import Random

import pytest

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_roll import roll_attack, rolled_attack


def _fight() -> ab.Encounter:
    enc = ab.new_encounter(
        "2.1",
        [
            ab.quick_foe("ana", "Ana", dexterity=4, wits=4, stamina=3),
            ab.quick_foe("bo", "Bo", dexterity=4, wits=5, stamina=2),
        ],
    )
    return ab.set_initiative(enc, {"ana": 12, "bo": 5}).encounter


def _by_hand(seed: int, dice: int, need: int) -> tuple[list[int], int, bool]:
    rng = Random(seed)
    faces = [rng.randint(1, 10) for _ in range(dice)]
    successes = sum(1 for f in faces if f >= 7)
    return faces, successes, successes >= need


def test_the_roll_adds_the_defense_and_the_second_actions_difficulty():
    enc = ab.declare(_fight(), "ana", 2).encounter
    hit_seed = miss_seed = None
    for seed in range(200):
        faces, successes, hit = _by_hand(seed, 6, 1 + 2)  # base 1 + Defense 2
        r = roll_attack(enc, "ana", "bo", pool=6, difficulty=1, seed=seed)
        assert (r.dice, r.difficulty, list(r.faces), r.successes) == (6, 3, faces, successes)
        assert r.hit is hit
        if hit and hit_seed is None:
            hit_seed = seed
        if not hit and miss_seed is None:
            miss_seed = seed
    assert hit_seed is not None
    assert miss_seed is not None
    # a hit: the levels typed land; the seed is in the log, the Defense worn to +1
    change = rolled_attack(enc, "ana", "bo", pool=6, seed=hit_seed, damage=ab.Damage(lethal=2))
    bo = ab.find(change.encounter, "bo")
    assert bo.damage == ab.Damage(lethal=2)
    assert f"(seed {hit_seed})" in change.lines[0].text
    assert change.encounter.log[-len(change.lines) :] == change.lines
    # the second action: +1 difficulty, Defense +1: 1 + 1 + 1 = 3 again
    second = roll_attack(change.encounter, "ana", "bo", pool=6, seed=3)
    assert second.difficulty == 3
    # a miss: no damage, the action and the Defense used all the same
    missed = rolled_attack(enc, "ana", "bo", pool=6, seed=miss_seed, damage=ab.Damage(lethal=2))
    bo = ab.find(missed.encounter, "bo")
    assert bo.damage == ab.Damage()
    assert bo.attacks_against == 1
    assert ab.find(missed.encounter, "ana").acted == 1


def test_the_wound_penalty_takes_dice_off_and_bad_numbers_are_refused():
    enc = ab.apply_damage(_fight(), "ana", ab.Damage(lethal=4)).encounter
    faces, successes, _ = _by_hand(11, 6 - 2, 3)
    r = roll_attack(enc, "ana", "bo", pool=6, seed=11)
    assert (r.dice, list(r.faces), r.successes) == (4, faces, successes)
    assert "pool 6 − 2 (wounds) = 4 dice" in r.steps[0].text
    with pytest.raises(InputError, match=r"Attack pool: a whole number from 0 to 60\."):
        roll_attack(enc, "ana", "bo", pool=61, seed=1)
    with pytest.raises(InputError, match=r"Base difficulty: a whole number from 1 to 20\."):
        roll_attack(enc, "ana", "bo", pool=6, difficulty=0, seed=1)
    with pytest.raises(InputError, match="It is Ana's action"):
        rolled_attack(enc, "bo", "ana", pool=6, seed=1)
