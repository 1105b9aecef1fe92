"""Fights of random steps (seeded): what must hold after every step, whatever is played.

After each step: no damage, wound or Defense below 0; no more actions taken than
declared (nor a second one once Stunned); a daze never outlives the turn its
reading ends it in; every Defense is back at the start of a turn; the encounter reads
back from JSON as it was. At the end, undoing every step gives the first encounter.
"""

from __future__ import annotations

import json
from random import Random

import pytest
from encounter_fights import fight_20, fight_21, fight_chimera

from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.combatant import KINDS, Damage
from ruleslab.encounter.history import History, record, start, undo
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.serial import from_dict, to_dict

STEPS = 80


def _unwind(h: History, first: object) -> None:
    while h.can_undo:
        h = undo(h)
    assert h.present == first


def _aberrant_step(rng: Random, enc: ab.Encounter):
    keys = [c.key for c in enc.combatants]
    now = ab.current(enc)
    actor = now.key if now else rng.choice(keys)
    pick = rng.randrange(10)
    if pick < 2:
        return ab.declare(enc, actor, rng.randint(1, 3), active_defence=rng.random() < 0.3)
    if pick < 6:
        damage = Damage(**{rng.choice(KINDS): rng.randint(0, 4)})
        return ab.resolve_attack(
            enc, actor, rng.choice(keys), hit=rng.random() < 0.6, damage=damage
        )
    if pick < 7:
        return ab.heal(enc, rng.choice(keys), Damage(stun=1, bashing=rng.randint(0, 1)))
    return ab.next_turn(enc)


def _check_aberrant(before: ab.Encounter, enc: ab.Encounter, turn_began: bool) -> None:
    for b, c in zip(before.combatants, enc.combatants, strict=True):
        if b.daze == "stunned" and b.acted >= 1 and not turn_began:
            assert c.acted == b.acted  # "may not take more than a single action"
        assert all(getattr(c.damage, k) >= 0 for k in KINDS)
        assert ab.defense_now(enc, c) >= 0
        assert 0 <= c.acted <= c.actions
        if c.daze != "none":
            assert c.daze_until >= enc.turn
        if turn_began:
            assert c.attacks_against == 0
            assert c.taken_this_turn == 0
    assert from_dict(json.loads(json.dumps(to_dict(enc)))) == enc


@pytest.mark.parametrize("seed", range(12))
def test_random_aberrant_fights_keep_the_rules_invariants(seed):
    rng = Random(seed)
    first = fight_21() if seed % 2 else fight_20()
    h = start(first)
    h = record(h, ab.roll_initiative(first, ab.seeded_faces(first, seed)))
    for _ in range(STEPS):
        enc = h.present
        try:
            change = _aberrant_step(rng, enc)
        except EncounterError:
            continue  # refused: nothing changed
        h = record(h, change)
        _check_aberrant(enc, change.encounter, change.encounter.turn != enc.turn)
    _unwind(h, first)


def _chimera_step(rng: Random, enc: ch.ChimeraEncounter):
    fighting = [c for c in enc.combatants if c.in_fight]
    due = [c for c in fighting if c.morale_due]
    if due:
        return ch.morale_check(enc, due[0].key, rng.randint(1, 20))
    down = [c for c in enc.combatants if c.status == "vanquished"]
    if down:
        fate = rng.choice(("capture", "driven_off", "killer_blow", "unconscious"))
        return ch.choose_fate(
            enc, down[0].vanquished_by, down[0].key, fate, resist_natural=rng.randint(1, 20)
        )
    if not enc.order:
        faces = ch.seeded_d12(enc, rng.randrange(1000))
        ties = {c.key: (rng.randint(1, 12), rng.randint(1, 12)) for c in fighting}
        return ch.start_round(enc, {}, faces, ties)
    now = ch.find(enc, enc.order[enc.place])
    if now.in_fight and not now.acted and rng.random() < 0.8:
        foes = [c for c in fighting if c.side != now.side]
        if foes:
            target = rng.choice(foes).key
            return ch.resolve_attack(
                enc, now.key, target, hit=rng.random() < 0.7, damage_roll=rng.randint(0, 9)
            )
    return ch.next_turn(enc)


@pytest.mark.parametrize("seed", range(12))
def test_random_chimera_fights_keep_the_rules_invariants(seed):
    rng = Random(seed)
    first = fight_chimera()
    h = start(first)
    for _ in range(STEPS):
        enc = h.present
        try:
            change = _chimera_step(rng, enc)
        except EncounterError:
            continue
        h = record(h, change)
        nxt = change.encounter
        for c in nxt.combatants:
            assert c.wounds >= 0
            assert c.in_fight or not c.morale_due
            if not c.fighter.checks_morale:
                assert not c.morale_due
        assert from_dict(json.loads(json.dumps(to_dict(nxt)))) == nxt
    _unwind(h, first)
