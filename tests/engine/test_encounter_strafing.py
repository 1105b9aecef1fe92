"""A strafe from the tracker (ruleslab.encounter.strafing), worked by hand.

Quick reference › Ranged Attack Maneuvers › Strafing: "An autofire/burst attack may target
multiple foes, adding +1 difficulty for every additional target, but applyies the results
against all targets. A single attack may not target more enemies than it uses rounds of
ammunition." 2.1 Rules › Defenses: Bo (Dex 4, Wits 5) has Defense min(4, 5) // 2 = 2, Cy
(Dex 2, Wits 2) 1, each added to the difficulty and worn down by 1 by the strafe.

Ana (30 rounds) strafes Bo and Cy with a short burst (3 rounds) at base difficulty 1: Bo
needs 1 + 1 (one more target) + 2 = 4 successes, Cy 1 + 1 + 1 = 3.
"""

from __future__ import annotations

from random import Random

import pytest

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.strafing import roll_strafe, strafe


def _fight(ruleset: str = "2.1") -> ab.Encounter:
    enc = ab.new_encounter(
        ruleset,
        [
            ab.quick_foe("ana", "Ana", dexterity=4, wits=4, stamina=3, ammo=30),
            ab.quick_foe("bo", "Bo", dexterity=4, wits=5, stamina=2),
            ab.quick_foe("cy", "Cy", dexterity=2, wits=2, stamina=2),
            ab.quick_foe("di", "Di", dexterity=2, wits=2, stamina=2),
            ab.quick_foe("ed", "Ed", dexterity=2, wits=2, stamina=2),
        ],
    )
    return ab.set_initiative(enc, {"ana": 12, "bo": 5, "cy": 4, "di": 3, "ed": 2}).encounter


@pytest.mark.parametrize(("successes", "bo_hit", "cy_hit"), [(4, True, True), (3, False, True)])
def test_one_result_held_against_each_targets_own_difficulty(successes, bo_hit, cy_hit):
    change = strafe(_fight(), "ana", ("bo", "cy"), successes=successes, burst="short")
    text = [s.text for s in change.lines]
    assert text[0] == "Ana fires (Short Burst: 3 shots): 27 rounds left"
    assert any(t.startswith("Ana strafes 2 targets (action 1): +1 difficulty") for t in text)
    bo = next(t for t in text if t.startswith("Bo: "))
    cy = next(t for t in text if t.startswith("Cy: "))
    assert bo.endswith(" = 4: " + ("a hit, 0 extra" if bo_hit else "a miss"))
    assert cy.endswith(" = 3: " + (f"a hit, {successes - 3} extra" if cy_hit else "a miss"))
    enc = change.encounter
    assert ab.find(enc, "ana").ammo == 27
    assert ab.find(enc, "ana").acted == 1
    assert (ab.find(enc, "bo").attacks_against, ab.find(enc, "cy").attacks_against) == (1, 1)
    assert (ab.defense_now(enc, ab.find(enc, "bo")), ab.defense_now(enc, ab.find(enc, "cy"))) == (
        1,
        0,
    )


def test_in_20_no_defense_is_added():
    change = strafe(_fight("2.0"), "ana", ("bo", "cy"), successes=2, burst="short")
    assert any(s.text.startswith("Bo: difficulty base 1 +0 (the attacker's conditions) +1 "
                                 "(strafing) = 2: a hit") for s in change.lines)  # fmt: skip


def test_no_more_targets_than_rounds_and_only_a_burst_strafes():
    with pytest.raises(InputError) as e:
        strafe(_fight(), "ana", ("bo", "cy", "di", "ed"), successes=5, burst="short")
    assert e.value.field == "targets"
    assert "at most 3" in e.value.message
    with pytest.raises(InputError) as e:
        strafe(_fight(), "ana", ("bo", "cy"), successes=5, rounds=1)
    assert e.value.field == "Fires"
    # a Burst(3) weapon's single shot: 3 rounds, three targets (RN-RANGED-10)
    change = strafe(_fight(), "ana", ("bo", "cy", "di"), successes=5, rounds=3)
    assert ab.find(change.encounter, "ana").ammo == 27
    with pytest.raises(InputError):
        strafe(_fight(), "ana", ("bo",), successes=5, burst="short")
    with pytest.raises(InputError):
        strafe(_fight(), "ana", ("bo", "bo"), successes=5, burst="short")
    with pytest.raises(InputError):
        strafe(_fight(), "ana", ("ana", "bo"), successes=5, burst="short")
    with pytest.raises(InputError):
        strafe(_fight(), "bo", ("cy", "di"), successes=5, burst="short")  # (Ana's action)


def test_the_site_rolls_one_pool_with_the_bursts_accuracy():
    for seed in range(40):
        rng = Random(seed)
        faces = [rng.randint(1, 10) for _ in range(8)]  # 6 + the short burst's 2
        successes = sum(f >= 7 for f in faces)
        r = roll_strafe(_fight(), "ana", ("bo", "cy"), pool=6, seed=seed, burst="short")
        assert (r.dice, list(r.faces), r.successes) == (8, faces, successes)
        change = strafe(
            _fight(), "ana", ("bo", "cy"), pool=6, seed=seed, burst="short", difficulty=1
        )
        assert change.lines[0].text.startswith(f"Ana rolls the strafe (seed {seed})")
        bo = next(s.text for s in change.lines if s.text.startswith("Bo: "))
        assert ("a hit" in bo) is (successes >= 4)
