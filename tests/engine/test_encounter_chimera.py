"""A Chimera fight for two rounds through the encounter, worked by hand from the text.

Vera (PC, Defence 2, WL 3, Shoot, Resist +2) and Tomas (PC, Defence 1, WL 3, Fight,
Resist +1, skips the cool-down, Fatigue TN 11) against the Bandit chief (classed, leads
his side, Defence 1, WL 4, Resist +1, Morale TN 10) and two Bandits (Defence 0, WL 2,
Morale TN 9).
"""

from __future__ import annotations

import pytest
from encounter_fights import VERA, Play, fight_chimera

from ruleslab.chimera.attack import FightRules
from ruleslab.chimera.sections import COMBAT, VANQUISHING
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.log import EncounterError


def who(p: Play, key: str) -> ch.ChimeraCombatant:
    return ch.find(p.enc, key)


ROUND_1_FACES = {"vera": 10, "tomas": 6, "chief": 8, "bandit": 5, "bandit2": 7}
ROUND_1_IMS = {"tomas": 1, "bandit": -1}


def play_chimera() -> Play:
    p = Play(fight_chimera())
    # Round 1: 1d12 + IM: Vera 10, Tomas 6 + 1 = 7, the chief 8, Bandit 5 − 1 = 4,
    # Bandit two 7: Tomas and Bandit two tie at 7. "reroll" (RN-CHIM-9): they roll again.
    with pytest.raises(EncounterError, match="tie at 7"):
        ch.start_round(p.enc, ROUND_1_IMS, ROUND_1_FACES)
    p(ch.start_round, ROUND_1_IMS, ROUND_1_FACES, {"tomas": (9,), "bandit2": (3,)})
    assert p.enc.order == ("vera", "chief", "tomas", "bandit2", "bandit")
    assert who(p, "tomas").initiative == 7

    # Vera shoots the Bandit: damage 5 − Defence 0 = severity 5 > WL 2: vanquished.
    p(ch.resolve_attack, "vera", "bandit", hit=True, damage_roll=5)
    assert who(p, "bandit").status == "vanquished"
    assert who(p, "vera").shot
    # 1 of the chief's 2 allies down: not more than 50 %; no morale check yet.
    assert who(p, "chief").morale_due == ""
    with pytest.raises(EncounterError, match="one full action"):
        ch.resolve_attack(p.enc, "vera", "bandit2", hit=False)
    with pytest.raises(EncounterError, match="It is Vera's turn, not Tomas's"):
        ch.resolve_attack(p.enc, "tomas", "bandit2", hit=False)
    p(ch.choose_fate, "vera", "bandit", "driven_off")
    assert who(p, "bandit").status == "driven_off"
    assert "1 turns" in p.text()  # Vera's level 1

    p(ch.next_turn)  # the chief hits Tomas: 4 − 1 = 3, not over WL 3; a PC never checks.
    p(ch.resolve_attack, "chief", "tomas", hit=True, damage_roll=4)
    assert who(p, "tomas").wounds == 1
    assert who(p, "tomas").status == "fighting"
    assert who(p, "tomas").morale_due == ""

    p(ch.next_turn)  # Tomas hits Bandit two: 2 − 0 = 2: 1 wound; WP 1 is half his WL 2.
    p(ch.resolve_attack, "tomas", "bandit2", hit=True, damage_roll=2)
    assert who(p, "bandit2").wounds == 1
    assert "half his Wound Limit" in who(p, "bandit2").morale_due
    # His check: d20 14 + Resist 0 − WP 1 = 13 ≥ Morale TN 9: he stays.
    p(ch.morale_check, "bandit2", 14)
    assert who(p, "bandit2").status == "fighting"
    assert who(p, "bandit2").morale_due == ""
    assert COMBAT in {s.rule for s in p.lines}

    p(ch.next_turn)  # Bandit two misses Vera
    p(ch.resolve_attack, "bandit2", "vera", hit=False)
    p(ch.next_turn)  # the Bandit, driven off, does not act
    assert "does not act" in p.text()
    p(ch.next_turn)  # the round is over
    assert p.enc.order == ()
    assert all(c.initiative is None for c in p.enc.combatants)

    # Round 2: only those in the fight roll: Vera 3, Tomas 11 + 1 − WP 1 = 11, the chief
    # 5, Bandit two 9 − WP 1 = 8.
    faces = {"vera": 3, "tomas": 11, "chief": 5, "bandit2": 9}
    p(ch.start_round, {"tomas": 1}, faces)
    assert p.enc.order == ("tomas", "bandit2", "chief", "vera")
    assert who(p, "tomas").initiative == 11
    assert who(p, "bandit2").initiative == 8
    assert p.enc.round == 2

    # Tomas hits the chief: 7 − 1 = 6 > WL 4: vanquished. The leader has fallen, and
    # 2 of Bandit two's 2 allies are down (more than 50 %): he must check morale.
    p(ch.resolve_attack, "tomas", "chief", hit=True, damage_roll=7)
    assert who(p, "chief").status == "vanquished"
    due = who(p, "bandit2").morale_due
    assert "leader has fallen" in due
    assert "2 of his 2 allies down" in due
    # The Killer Blow: the chief is classed and Resists against TN 12: d20 10 + Resist 1 −
    # WP 1 = 10 < 12: he dies. Without his roll the fate is refused.
    with pytest.raises(EncounterError, match="Resists"):
        ch.choose_fate(p.enc, "tomas", "chief", "killer_blow")
    p(ch.choose_fate, "tomas", "chief", "killer_blow", resist_natural=10)
    assert who(p, "chief").status == "dead"
    assert VANQUISHING in {s.rule for s in p.lines}

    p(ch.next_turn)  # Bandit two checks: 4 + 0 − 1 = 3 < 9: he surrenders or retreats.
    p(ch.morale_check, "bandit2", 4)
    assert who(p, "bandit2").status == "surrendered"
    p(ch.next_turn)
    p(ch.next_turn)  # Vera: nothing left to fight
    p(ch.next_turn)  # the round is over

    # After the fight: Vera spends the cool-down and, having shot, makes an Ammo Check;
    # Tomas skips it: a Resistance Roll against Fatigue TN 11 (d20 + 1 − WP 1).
    p(ch.end_fight, {})
    text = p.text()
    assert "Vera spends the cool-down" in text
    assert "Vera engaged in ranged combat: an Ammo Check now" in text
    assert "Tomas skips" in text
    assert "Fatigue TN 11" in text
    assert "Tomas engaged" not in text
    assert "Bandit" not in text
    assert p.enc.over
    with pytest.raises(EncounterError, match="over"):
        ch.next_turn(p.enc)
    return p


def test_a_chimera_fight_for_two_rounds():
    play_chimera()


def test_simultaneous_ties_act_at_once():
    enc = ch.new_chimera(fight_chimera().combatants, FightRules(ties="simultaneous"))
    change = ch.start_round(enc, ROUND_1_IMS, ROUND_1_FACES)
    assert change.encounter.order == ("vera", "chief", "tomas", "bandit2", "bandit")
    assert any("act at once" in s.text for s in change.lines)


def test_a_severity_of_zero_is_no_wound_and_a_wound_penalty_lowers_initiative():
    enc = ch.start_round(fight_chimera(), {}, {**ROUND_1_FACES, "bandit2": 12}).encounter
    # Bandit two (12, first) strikes 1 − Vera's Defence 2 = −1: ignored.
    enc = ch.resolve_attack(enc, "bandit2", "vera", hit=True, damage_roll=1).encounter
    assert ch.find(enc, "vera").wounds == 0


def test_refusals():
    enc = fight_chimera()
    with pytest.raises(EncounterError, match="1 to 12"):
        ch.start_round(enc, {}, {**ROUND_1_FACES, "vera": 13})
    enc = ch.start_round(enc, {}, {**ROUND_1_FACES, "bandit2": 2}).encounter
    with pytest.raises(EncounterError, match="no morale check"):
        ch.morale_check(enc, "chief", 10)
    with pytest.raises(EncounterError, match="not a foe"):
        ch.choose_fate(enc, "vera", "chief", "capture")
    with pytest.raises(EncounterError, match="0 to 200"):
        ch.resolve_attack(enc, "vera", "chief", hit=True, damage_roll=-1)


def test_the_fighters_own_initiative_modifier_is_the_default():
    # Vera with IM +3 on her record: d12 4 + 3 = 7 unless the GM gives another IM.
    enc = ch.new_chimera([ch.fighter("v", VERA.__class__("Vera", initiative=3))])
    assert ch.find(ch.start_round(enc, {}, {"v": 4}).encounter, "v").initiative == 7
    assert ch.find(ch.start_round(enc, {"v": -1}, {"v": 4}).encounter, "v").initiative == 3
