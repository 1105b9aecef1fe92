"""An attack of the encounter opens the Autofire & strafing calculator already filled.

By hand (2.1 fight of ``test_encounter_aberrant.py``): the attack's difficulty is the
base 1 + what the attacker's conditions add + the target's Defense as worn this turn.
"""

from __future__ import annotations

from encounter_fights import ANA, fight_21

from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab.character import Conditions
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_inputs import attack_inputs
from ruleslab.encounter.combatant import Damage
from ruleslab.quickref.weapon import Weapon


def _turn_1() -> ab.Encounter:
    enc = ab.roll_initiative(fight_21(), {"ana": 5, "ben": 3, "kessler": 9, "goons": 4})
    return ab.declare(enc.encounter, "kessler", 2).encounter


def test_the_calculator_is_filled_with_the_fight_so_far():
    enc = _turn_1()
    # Kessler's 1st attack on Ana: 1 + 0 + Defense 1 = 2; his 2nd: 1 + 1 (2nd action) +
    # Defense 0 (worn by the first) = 2.
    first = autofire_and_strafing(**attack_inputs(enc, "kessler", "ana"))
    assert first.attack.difficulty == 2
    enc = ab.resolve_attack(enc, "kessler", "ana", hit=True, damage=Damage(bashing=4)).encounter
    inputs = attack_inputs(enc, "kessler", "ana")
    assert inputs["attacks_before"] == 1
    assert inputs["conditions"] == Conditions(actions=2)
    assert autofire_and_strafing(**inputs).attack.difficulty == 2
    # Ana, Dazed by those 4 levels (2 × Stamina 2), on Kessler: 1 + 1 (Dazed) + 1 = 3;
    # the same as the calculator filled by hand with her state.
    enc = ab.next_turn(enc).encounter
    filled = autofire_and_strafing(**attack_inputs(enc, "ana", "kessler"))
    by_hand = autofire_and_strafing(
        attacker=ANA,
        conditions=Conditions(daze="dazed", levels_lost=4),
        target=ab.find(enc, "kessler").character,
        ruleset="2.1",
    )
    assert filled.attack.difficulty == by_hand.attack.difficulty == 3
    assert filled.p_hit == by_hand.p_hit
    # and her wound penalty (issue 33, RN-COND-7): 2.1, Stamina 2 + Resistance 1: −1 per
    # ⌊3/2⌋ + 1 = 2 levels, so her 4th level lost is at −2, as the tracker says: the
    # attack pool, Dex 4 + Firearms 2 + accuracy 1 + short burst 2 = 9, rolls 7
    assert ab.attack_setup(enc, "ana", "kessler").wound_penalty == 2
    assert filled.attack.pool == 7
    unhurt = autofire_and_strafing(
        attacker=ANA, conditions=Conditions(daze="dazed"), target=ANA, ruleset="2.1"
    )
    assert unhurt.attack.pool == 9


def test_levels_lost_leave_out_the_armour_levels():
    from dataclasses import replace

    from ruleslab.encounter.attack_inputs import levels_lost
    from ruleslab.encounter.state import put

    # Ana in armour (2 levels of −0, filled first), 3 bashing: 2 on the armour, 1 below
    enc = ab.new_encounter(
        "2.1", [ab.combatant("a", "Ana", ANA, armour_levels=2), ab.quick_foe("t", "T")]
    )
    enc = ab.set_initiative(enc, {"a": 5, "t": 1}).encounter
    enc = replace(enc, combatants=put(enc, replace(ab.find(enc, "a"), damage=Damage(bashing=3))))
    assert levels_lost(enc, ab.find(enc, "a")) == 1
    inputs = attack_inputs(enc, "a", "t")
    assert inputs["conditions"].levels_lost == 1
    # her 1st level below the armour: −⌊1/2⌋ = −0, as the tracker's own penalty
    assert ab.attack_setup(enc, "a", "t").wound_penalty == 0
    assert autofire_and_strafing(**inputs).attack.pool == 9


def test_a_squad_is_a_squad_target_and_the_ammunition_is_the_rounds_left():
    enc = _turn_1()
    enc = ab.next_turn(ab.next_turn(enc).encounter).encounter  # Ben
    inputs = attack_inputs(enc, "ben", "goons", Weapon())
    assert (inputs["target_kind"], inputs["squad_henchmen"]) == ("squad", 3)
    assert autofire_and_strafing(**inputs).squad is not None
    armed = ab.new_encounter("2.1", [ab.combatant("a", "Ana", ANA, ammo=7), ab.quick_foe("t", "T")])
    armed = ab.set_initiative(armed, {"a": 5, "t": 1}).encounter
    assert attack_inputs(armed, "a", "t", Weapon())["weapon"].ammunition == 7
