"""The encounter built from a party, group initiative, the load and sprinting on an
attack, a Chimera attack's odds before the roll and the coup de grâce — worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from encounter_fights import ANA, BANDIT, CHIEF, VERA, fight_chimera

from ruleslab import Party
from ruleslab.chimera.attack import FightRules
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.log import EncounterError


def test_the_party_becomes_combatants():
    party = Party().add("Ana", ANA).add("Vera", VERA)
    ana, vera = party.entries
    c = ab.from_entry(ana)
    assert (c.key, c.name, c.character, c.side) == (ana.id, "Ana", ANA, "party")
    f = ch.fighter_from_entry(vera)
    assert (f.key, f.fighter, f.side) == (vera.id, VERA, "party")
    with pytest.raises(EncounterError, match="not an Aberrant character"):
        ab.from_entry(vera)
    with pytest.raises(EncounterError, match="not a Chimera fighter"):
        ch.fighter_from_entry(ana)


def test_identical_foes_share_one_initiative_roll():
    # Three thugs (Dex 2 + Wits 2 = 4) of one group roll one d10: 6 → 10 each; Ana
    # (Dex 4 + Wits 3 = 7) rolls 1 → 8. Ties among the thugs: the one added first.
    thugs = [ab.quick_foe(f"t{i}", f"Thug {i}", group="thugs") for i in (1, 2, 3)]
    enc = ab.new_encounter("2.1", [ab.combatant("ana", "Ana", ANA), *thugs])
    assert set(ab.seeded_faces(enc, 7)) == {"ana", "thugs"}
    enc = ab.roll_initiative(enc, {"ana": 1, "thugs": 6}).encounter
    assert [ab.find(enc, k).initiative for k in ("ana", "t1", "t2", "t3")] == [8, 10, 10, 10]
    assert enc.order == ("t1", "t2", "t3", "ana")
    # The same seed, the same faces.
    assert ab.seeded_faces(enc, 7) == ab.seeded_faces(enc, 7)


def test_the_load_and_sprinting_on_an_attack():
    # Ana: Str 2 + Might 0 = 2 dots; above 15 kg per dot (30 kg) is Heavy encumbrance:
    # "+1 difficulty to all other physical actions" — an attack is one (RN-TRACK-7).
    enc = ab.new_encounter(
        "2.1", [ab.combatant("ana", "Ana", ANA, load_kg=31.0), ab.quick_foe("t", "Thug")]
    )
    enc = ab.set_initiative(enc, {"ana": 9, "t": 4}).encounter
    assert ab.attack_setup(enc, "ana", "t").added_difficulty == 1
    # A sprinter "may not take any actions during the turn except defensive maneuvers".
    enc = ab.declare(enc, "ana", 1, sprinting=True).encounter
    with pytest.raises(EncounterError, match="sprinting"):
        ab.attack_setup(enc, "ana", "t")


def test_heal_takes_levels_off_the_track():
    enc = ab.new_encounter("2.1", [ab.combatant("ana", "Ana", ANA)])
    enc = ab.apply_damage(enc, "ana", Damage(lethal=3, stun=2)).encounter
    enc = ab.heal(enc, "ana", Damage(lethal=1, stun=5)).encounter
    assert ab.find(enc, "ana").damage == Damage(lethal=2)


def test_a_chimera_attacks_odds_before_the_roll():
    # Vera: d20 + Shoot 3 against the Bandit's TN = his MR 10: a natural 7 or more,
    # 14 faces of 20. With 1 wound (WP −1) she needs an 8: 13 of 20.
    enc = fight_chimera()
    assert ch.odds(enc, "vera", "bandit").p_hit == Fraction(14, 20)
    wounded = ch.new_chimera(
        [ch.fighter("vera", VERA.__class__("Vera", kind="shoot", wounds=1)), *enc.combatants[2:]]
    )
    assert ch.odds(wounded, "vera", "bandit").p_hit == Fraction(13, 20)


def _knocked_out(rules: FightRules) -> ch.ChimeraEncounter:
    enc = ch.new_chimera(
        [ch.fighter("vera", VERA), ch.fighter("chief", CHIEF, "b"), ch.fighter("x", BANDIT, "b")],
        rules,
    )
    enc = ch.start_round(enc, {}, {"vera": 12, "chief": 1, "x": 2}).encounter
    # 9 − Defence 1 = 8 > WL 4: vanquished; knocked Unconscious.
    enc = ch.resolve_attack(enc, "vera", "chief", hit=True, damage_roll=9).encounter
    return ch.choose_fate(enc, "vera", "chief", "unconscious").encounter


def test_the_coup_de_grace():
    enc = _knocked_out(FightRules())
    # "resist" (default): the classed chief Resists: d20 11 + Resist 1 − WP 1 = 11 < 12:
    # dead. With a 12: 12 ≥ 12, he lives, with a permanent Flaw.
    dead = ch.coup_de_grace(enc, "vera", "chief", resist_natural=11).encounter
    assert ch.find(dead, "chief").status == "dead"
    alive = ch.coup_de_grace(enc, "vera", "chief", resist_natural=12).encounter
    assert ch.find(alive, "chief").status == "unconscious"
    assert ch.find(alive, "chief").flaw
    # A free action: Vera's full action this round is still the attack alone.
    assert ch.find(alive, "vera").acted
    # "kills": no Resistance Roll.
    enc = _knocked_out(FightRules(coup_de_grace="kills"))
    assert ch.find(ch.coup_de_grace(enc, "vera", "chief").encounter, "chief").status == "dead"
    with pytest.raises(EncounterError, match="not unconscious"):
        ch.coup_de_grace(enc, "vera", "x")


def test_the_ammunition_an_attack_uses_is_counted_down():
    # 12 rounds; a Short Burst spends "3 shots/bursts worth of ammunition": 9 left; a
    # Medium Burst's 10 shots are more than he has.
    foe = ab.quick_foe("t", "Thug")
    enc = ab.new_encounter("2.1", [ab.combatant("ana", "Ana", ANA, ammo=12), foe])
    enc = ab.set_initiative(enc, {"ana": 9, "t": 4}).encounter
    enc = ab.declare(enc, "ana", 3).encounter
    change = ab.resolve_attack(enc, "ana", "t", hit=False, burst="short")
    enc = change.encounter
    assert ab.find(enc, "ana").ammo == 9
    assert any("9 rounds left" in s.text for s in change.lines)
    with pytest.raises(EncounterError, match="9 rounds left, not 10"):
        ab.resolve_attack(enc, "ana", "t", hit=False, burst="medium")
    enc = ab.resolve_attack(enc, "ana", "t", hit=False, rounds=1).encounter
    assert ab.find(enc, "ana").ammo == 8
    enc = ab.reload(enc, "ana", 30).encounter
    assert ab.find(enc, "ana").ammo == 30
    with pytest.raises(EncounterError, match="The burst"):
        ab.resolve_attack(enc, "ana", "t", hit=False, burst="huge")
