"""The damage rolled by the site after a hit (ruleslab.encounter.damage_roll).

Worked by hand from the quick reference: Thug (a quick foe, Stamina 3, Quantum 0) soaks
"(Quantum + Stamina + Mega-Stamina) Bashing/(Quantum + Stamina/2 + Mega-Stamina) Lethal/
(Quantum/2) Aggravated" = 3 bashing, 0 + 3 // 2 = 1 lethal, 0 aggravated. "Characters
subtract soak from damage dice, not damage adds. Damage adds apply if the attack deals at
least one die of damage after soak"; each damage die at 7 or more is a level (RN-DMG-1);
each extra success one more die (RN-RANGED-3); "If an attack fails to penetrate soak, it
deals 1 die of ping damage of one lower type" (not soaked again, no adds: RN-DMG-4); a
stun attack that fails deals nothing (RN-DMG-5). Dazed at 2 × Stamina = 6 levels in a turn.
The dice are recomputed here with random.Random(seed), never read from the code.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from random import Random

import pytest

from ruleslab import Character, InputError
from ruleslab.encounter import EncounterError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_roll import roll_attack
from ruleslab.encounter.damage_roll import damage_odds, damage_setup, rolled_damage, weapon_of
from ruleslab.encounter.history import record, start, undo
from ruleslab.quickref.weapons import Weapon, parse_tags


def _fight(*more: ab.Combatant) -> ab.Encounter:
    enc = ab.new_encounter(
        "2.1",
        [
            ab.quick_foe("ana", "Ana", dexterity=4, wits=4, stamina=3),
            ab.quick_foe("thug", "Thug", dexterity=2, wits=2, stamina=3),
            *more,
        ],
    )
    return ab.set_initiative(enc, {c.key: 20 - i for i, c in enumerate(enc.combatants)}).encounter


def _faces(seed: int, n: int) -> list[int]:
    rng = Random(seed)
    return [rng.randint(1, 10) for _ in range(n)]


RIFLE = Weapon(name="Rifle", damage_dice=4, damage_adds=1, damage_type="lethal")


def test_the_dice_left_after_soak_are_rolled_and_the_adds_land():
    enc = _fight()
    for seed in range(60):
        # 4 dice + 2 extra successes = 6 dice [1]; lethal soak 1: 5 dice left
        faces = _faces(seed, 5)
        levels = sum(1 for f in faces if f >= 7) + 1
        change = rolled_damage(enc, "ana", "thug", RIFLE, seed=seed, extra=2)
        thug = ab.find(change.encounter, "thug")
        assert thug.damage == ab.Damage(lethal=levels)
        assert thug.taken_this_turn == levels
        roll = next(s.text for s in change.lines if f"(seed {seed})" in s.text)
        assert ", ".join(map(str, faces)) in roll
        assert change.encounter.log[-len(change.lines) :] == change.lines
        # the same seed replays the same encounter
        assert rolled_damage(enc, "ana", "thug", RIFLE, seed=seed, extra=2) == change
    # the damage takes no action: Ana still has hers
    assert ab.find(change.encounter, "ana").acted == 0


def test_a_hit_that_fails_to_penetrate_pings_one_kind_lower_without_adds():
    enc = _fight()
    club = Weapon(name="Club", damage_dice=2, damage_adds=2, damage_type="bashing")
    for seed in range(40):  # 2 dice against bashing soak 3: none left; 1 stun die, no adds
        level = 1 if _faces(seed, 1)[0] >= 7 else 0
        thug = ab.find(rolled_damage(enc, "ana", "thug", club, seed=seed).encounter, "thug")
        assert thug.damage == ab.Damage(stun=level)
    stunner = Weapon(name="Stunner", damage_dice=3, damage_type="stun")
    change = rolled_damage(enc, "ana", "thug", stunner, seed=1)
    assert ab.find(change.encounter, "thug").damage == ab.Damage()
    assert "RN-DMG-5" in change.lines[-1].text


def test_devastating_armour_and_armour_piercing():
    enc = _fight()
    gun = Weapon(
        name="Gun",
        damage_dice=3,
        damage_type="lethal",
        tags=parse_tags("AP(2), Devastating(2 [1])"),
    )
    s = damage_setup(enc, "ana", "thug", gun, extra=2, armour_soak=3)
    # 3 + 2 × 2 = 7 dice, 0 + 2 × 1 = 2 adds; armour 3 − AP 2 = 1, natural lethal 1
    assert (s.dice, s.adds, s.natural, s.armour, s.ap) == (7, 2, 1, 3, 2)
    taken = s.taken()
    assert (taken.soak, taken.dice_after_soak, taken.adds_applied) == (2, 5, 2)


def test_the_odds_before_the_roll_are_the_brute_forced_levels():
    enc = _fight()
    s = damage_setup(enc, "ana", "thug", RIFLE, extra=2)
    taken, daze = damage_odds(s, enc, "thug")
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 11), repeat=5):  # 5 dice left, + 1 add
        k = sum(1 for f in faces if f >= 7) + 1
        counts[k] = counts.get(k, 0) + 1
    want = [Fraction(counts.get(k, 0), 10**5) for k in range(7)]
    assert list(taken.levels) == want
    assert taken.mean == Fraction(3)  # 5 × 4/10 + 1
    assert daze.p_dazed == Fraction(counts[6], 10**5)  # 6 = 2 × Stamina 3


def test_a_squad_soaks_as_its_henchmen_typed_and_its_leader_adds_a_die_each():
    leader = Character(dexterity=3, wits=3, stamina=3, charisma=3, command=2)
    enc = _fight(ab.squad("sq", "Squad", leader, 4, "regular", side="foes"))
    with pytest.raises(EncounterError) as e:
        damage_setup(enc, "ana", "sq", RIFLE)
    assert e.value.field == "natural_soak"
    plain = Weapon(name="Pistol", damage_dice=4, damage_type="lethal")
    for seed in range(20):  # 4 dice against the henchmen's soak 2: 2 dice, each a henchman
        lost = sum(1 for f in _faces(seed, 2) if f >= 7)
        change = rolled_damage(enc, "ana", "sq", plain, seed=seed, natural_soak=2)
        assert ab.find(change.encounter, "sq").henchmen == 4 - lost
    # the leader's henchmen: limit (Cha 3 + Command 2) × 2 = 10, all 4 counted, +4 dice
    assert damage_setup(enc, "sq", "thug", plain).dice == 4 + 4


def test_undo_of_the_roll_gives_back_the_encounter():
    enc = _fight()
    history = start(enc)
    history = record(history, rolled_damage(enc, "ana", "thug", RIFLE, seed=3, extra=1))
    assert undo(history).present == enc


def test_the_extra_successes_of_a_rolled_hit():
    enc = _fight()
    for seed in range(80):  # 7 dice against base 1 + Thug's Defense min(2, 2) // 2 = 1: 2
        successes = sum(1 for f in _faces(seed, 7) if f >= 7)
        r = roll_attack(enc, "ana", "thug", pool=7, seed=seed)
        assert r.extra == (successes - 2 if successes >= 2 else 0)


@pytest.mark.parametrize(
    ("kw", "field"),
    [({"extra": -1}, "Extra successes"), ({"armour_soak": 201}, "Armour soak")],
)
def test_out_of_range_inputs_are_refused_by_name(kw, field):
    with pytest.raises(EncounterError) as e:
        damage_setup(_fight(), "ana", "thug", RIFLE, **kw)
    assert e.value.field == field


def test_the_weapon_as_typed_is_checked_by_its_fields():
    gun = weapon_of(damage_dice=3, damage_adds=1, damage_type="lethal", tags="ap 2")
    assert (gun.damage_dice, gun.damage_adds, gun.armour_piercing) == (3, 1, 2)
    with pytest.raises(InputError) as e:
        weapon_of(damage_dice=61, damage_adds=0, damage_type="lethal")
    assert e.value.field == "damage_dice"
    with pytest.raises(InputError) as e:
        weapon_of(damage_dice=3, damage_adds=0, damage_type="lethal", tags="Sharp")
    assert e.value.field == "tags"


def test_more_levels_than_a_track_holds_are_put_on_it_not_refused():
    enc = _fight()
    huge = weapon_of(damage_dice=60, damage_adds=60, damage_type="lethal", tags="Devastating(7)")
    change = rolled_damage(enc, "ana", "thug", huge, seed=2, extra=60)  # 480 dice [60]
    thug = ab.find(change.encounter, "thug")
    assert thug.damage.lethal == 200
    assert any("(seed 2)" in s.text for s in change.lines)
