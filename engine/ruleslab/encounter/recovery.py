"""Healing: levels taken off the track now, and the time the rest takes after the fight.

Quick reference › 2.1 Rules › Healing:

    Characters heal at the below rates. • -0 HLs: 1 hour (bashing)/12 hours (lethal) …
    Being treated by someone with Medicine 2+ and at least Int 2 halves healing times …

The rates are :func:`ruleslab.quickref.healing.healing_time`'s, on the combatant's own track.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab.encounter.combatant import KINDS, Damage
from ruleslab.encounter.log import Change, EncounterError
from ruleslab.encounter.state import Encounter, done, find, health, put, track_of
from ruleslab.explain import Step
from ruleslab.quickref.healing import HealingTime, healing_time
from ruleslab.quickref.health import INCAP, NORMAL, STATES, TRACK, penalty_step_21
from ruleslab.ruleset import V21

__all__ = ["heal", "time_to_heal"]


def heal(enc: Encounter, key: str, damage: Damage) -> Change[Encounter]:
    """Levels healed now (a power, the GM's ruling): taken off his track, not below 0."""
    c = find(enc, key)
    d = c.damage
    left = Damage(**{k: max(0, getattr(d, k) - getattr(damage, k)) for k in KINDS})
    c = replace(c, damage=left, stun_clock=c.stun_clock if left.stun else 0)
    state = health(enc, c)
    lines = [Step(f"{c.name} heals {damage.text()}: now {STATES[state.state]}", TRACK)]
    return done(enc, lines, combatants=put(enc, c))


def time_to_heal(
    enc: Encounter,
    key: str,
    *,
    healer_medicine: int = 0,
    healer_intelligence: int = 2,
    supplies: str = "none",
) -> HealingTime:
    """2.1: the time his lethal and bashing damage takes to heal after the fight
    (:func:`ruleslab.quickref.healing.healing_time` on his track)."""
    if enc.ruleset != V21:
        raise EncounterError("ruleset", "Healing times are given by the 2.1 rules only.")
    c = find(enc, key)
    ch = c.character
    levels = track_of(enc, c)
    normal = sum(1 for lv in levels if lv.kind == NORMAL) - c.armour_levels
    incap = sum(1 for lv in levels if lv.kind == INCAP)
    return healing_time(
        lethal=c.damage.lethal + c.damage.aggravated,
        bashing=c.damage.bashing,
        health_levels=normal,
        levels_per_penalty=penalty_step_21(ch.stamina, ch.resistance),
        incap_levels=incap,
        healer_medicine=healer_medicine,
        healer_intelligence=healer_intelligence,
        supplies=supplies,
    )
