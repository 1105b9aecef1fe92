"""The ammunition of a fight, counted down by the encounter (ruleslab.encounter.ammunition),
and the bonus the attacker chose for a burst.

Quick reference › Ranged Attack Maneuvers › Autofire:

    Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition.
    Medium Bursts: +4 Accuracy or +[2] Damage, 10 shots
    Long Bursts: +6 Accuracy or +[3] Damage, 20 shots
    Sustained Bursts: +10 Accuracy or +[5] Damage, 50 shots

Worked by hand: Ana (quick foe, Dex 4, Wits 4, Sta 3, 30 rounds) shoots Bo (Dex 2, Wits 2,
Sta 2) in 2.0 (no Defense score, no wound penalty yet): a short burst for its Accuracy
rolls her typed pool 6 + 2 = 8 dice against the base difficulty 1 and leaves 27 rounds; a
medium burst for its Damage rolls 6 dice and puts [2] on the hit's damage ("+[1]" is one
damage add, RN-RANGED-1) and leaves 30 - 10 = 20. Bo's soak is his record's: Stamina 2
bashing (Quantum 0, 2.0 Rules › Soak), Stamina/2 = 1 lethal.
"""

from __future__ import annotations

from random import Random

import pytest

from ruleslab import InputError
from ruleslab.character import Character
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_roll import roll_attack, rolled_attack
from ruleslab.encounter.damage_roll import damage_setup, rolled_damage, weapon_of


def _fight(ammo: int | None = 30, ruleset: str = "2.0") -> ab.Encounter:
    enc = ab.new_encounter(
        ruleset,
        [
            ab.quick_foe("ana", "Ana", dexterity=4, wits=4, stamina=3, ammo=ammo),
            ab.quick_foe("bo", "Bo", dexterity=2, wits=2, stamina=2),
        ],
    )
    return ab.set_initiative(enc, {"ana": 12, "bo": 5}).encounter


def _successes(seed: int, dice: int) -> tuple[list[int], int]:
    rng = Random(seed)
    faces = [rng.randint(1, 10) for _ in range(dice)]
    return faces, sum(1 for f in faces if f >= 7)


@pytest.mark.parametrize(("burst", "accuracy"), [("short", 2), ("medium", 4), ("sustained", 10)])
def test_a_burst_for_its_accuracy_adds_its_dice_to_the_roll(burst, accuracy):
    enc = _fight(ammo=None)
    for seed in range(40):
        faces, successes = _successes(seed, 6 + accuracy)
        r = roll_attack(
            enc, "ana", "bo", pool=6, difficulty=1, seed=seed, burst=burst, burst_use="accuracy"
        )
        assert (r.dice, list(r.faces), r.successes) == (6 + accuracy, faces, successes)
    assert f"+ {accuracy} (" in r.steps[0].text


def test_a_burst_for_its_damage_adds_no_dice_to_the_roll():
    enc = _fight()
    for seed in range(20):
        faces, _ = _successes(seed, 6)
        r = roll_attack(enc, "ana", "bo", pool=6, seed=seed, burst="medium", burst_use="damage")
        assert list(r.faces) == faces


@pytest.mark.parametrize(
    ("burst", "rounds", "left"),
    [("short", 0, 27), ("medium", 0, 20), ("long", 0, 10), ("", 1, 29), ("", 3, 27), ("", 0, 30)],
)
def test_the_rounds_fired_are_counted_down_hit_or_miss(burst, rounds, left):
    for hit in (True, False):
        change = ab.resolve_attack(_fight(), "ana", "bo", hit=hit, burst=burst, rounds=rounds)
        assert ab.find(change.encounter, "ana").ammo == left
        if left != 30:
            assert any(f"{left} rounds left" in s.text for s in change.lines)


def test_a_rolled_attack_counts_its_burst_and_logs_the_choice():
    change = rolled_attack(
        _fight(), "ana", "bo", pool=6, seed=3, burst="short", burst_use="damage", rounds=0
    )
    assert ab.find(change.encounter, "ana").ammo == 27
    text = " ".join(s.text for s in change.lines)
    assert "+[1] Damage" in text
    assert "27 rounds left" in text


def test_more_than_he_has_left_is_refused_and_nothing_changes():
    enc = _fight(ammo=8)
    with pytest.raises(InputError) as e:
        ab.resolve_attack(enc, "ana", "bo", hit=True, burst="medium")
    assert e.value.field == "ammo"
    assert "8 rounds left, not 10" in e.value.message
    with pytest.raises(InputError):
        rolled_attack(enc, "ana", "bo", pool=6, seed=1, burst="medium")
    assert ab.find(enc, "ana").ammo == 8


def test_an_unknown_burst_or_bonus_is_refused():
    with pytest.raises(InputError) as e:
        ab.resolve_attack(_fight(), "ana", "bo", hit=True, burst="huge")
    assert e.value.field == "burst"
    with pytest.raises(InputError) as e:
        roll_attack(_fight(), "ana", "bo", pool=6, seed=1, burst="short", burst_use="both")
    assert e.value.field == "burst_use"


@pytest.mark.parametrize(("burst", "adds"), [("", 0), ("short", 1), ("medium", 2), ("long", 3)])
def test_a_burst_for_its_damage_adds_to_the_damage_adds(burst, adds):
    gun = weapon_of(damage_dice=4, damage_adds=1, damage_type="lethal")
    setup = damage_setup(_fight(), "ana", "bo", gun, burst=burst)
    assert (setup.dice, setup.adds, setup.natural) == (4, 1 + adds, 1)
    # rolled: 4 dice less soak 1 = 3 dice left, each at 7+ a level, plus the adds
    for seed in range(20):
        _, successes = _successes(seed, 3)
        change = rolled_damage(_fight(), "ana", "bo", gun, seed=seed, burst=burst)
        taken = ab.find(change.encounter, "bo").damage.lethal
        # "Damage adds apply if the attack deals at least one die of damage after soak"
        assert taken == successes + 1 + adds


def test_the_area_multiplier_reaches_a_squad_from_a_rolled_damage():
    """Combat alterations › Henchmen › Damage Soak: "All post-soak damage is doubled for
    area attacks" and a regular squad loses a henchman a point (divisor 1): with no soak,
    6 dice [4] lose (successes + 4) × area henchmen of 40."""
    leader = Character(dexterity=3, wits=3, stamina=3)
    enc = ab.new_encounter(
        "2.0", [ab.quick_foe("ana", "Ana"), ab.squad("sq", "Goons", leader, 40, "regular")]
    )
    enc = ab.set_initiative(enc, {"ana": 12, "sq": 5}).encounter
    gun = weapon_of(damage_dice=6, damage_adds=4, damage_type="lethal")
    for seed in range(10):
        _, successes = _successes(seed, 6)
        for area in (1, 2, 3):
            change = rolled_damage(enc, "ana", "sq", gun, seed=seed, natural_soak=0, area=area)
            assert ab.find(change.encounter, "sq").henchmen == 40 - (successes + 4) * area


def test_a_reload_sets_the_count_or_stops_counting():
    enc = ab.resolve_attack(_fight(), "ana", "bo", hit=False, burst="long").encounter
    assert ab.find(enc, "ana").ammo == 10
    enc = ab.reload(enc, "ana", 30).encounter
    assert ab.find(enc, "ana").ammo == 30
    assert enc.log[-1].text == "Ana reloads: 30 rounds"
    enc = ab.reload(enc, "ana", None).encounter
    assert ab.find(enc, "ana").ammo is None
    with pytest.raises(InputError):
        ab.reload(enc, "ana", -1)


def test_a_squad_and_a_quick_foe_carry_their_rounds():
    leader = Character(dexterity=3, wits=3, stamina=3)
    assert ab.squad("sq", "Goons", leader, 5, ammo=60).ammo == 60
    assert ab.quick_foe("f", "Foe", ammo=12).ammo == 12
    assert ab.quick_foe("f", "Foe").ammo is None
