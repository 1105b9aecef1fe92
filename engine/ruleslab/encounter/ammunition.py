"""The ammunition an attack uses, counted down; a reload.

Quick reference › Ranged Attack Maneuvers › Autofire:

    Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition.
    Medium Bursts: … 10 shots; Long Bursts: … 20 shots; Sustained Bursts: … 50 shots

The bursts are :data:`ruleslab.quickref.autofire.BURSTS`; a combatant whose ``ammo`` is ``None``
is not counted.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab.encounter.combatant import Combatant
from ruleslab.encounter.log import Change, EncounterError, whole
from ruleslab.encounter.state import Encounter, done, find, put, still_open
from ruleslab.explain import Step
from ruleslab.quickref.autofire import AUTOFIRE, BURSTS

__all__ = ["reload", "spend_ammunition"]


def spend_ammunition(a: Combatant, burst: str, rounds: int) -> tuple[int, list[Step]]:
    """The rounds an attack spends, and its line (refused beyond what he has left)."""
    if burst and burst not in BURSTS:
        raise EncounterError("burst", f"The burst: one of {', '.join(BURSTS)}.")
    if not whole(rounds, 0, 100_000):
        raise EncounterError("rounds", "Rounds fired: a whole number from 0 up.")
    spent = BURSTS[burst].shots if burst else rounds
    what = f"{BURSTS[burst].name[:-1]}: {spent} shots" if burst else f"{spent} rounds"
    if a.ammo is None or not spent:
        return spent, []
    if spent > a.ammo:
        raise EncounterError("ammo", f"{a.name} has {a.ammo} rounds left, not {spent}.")
    left = a.ammo - spent
    return spent, [Step(f"{a.name} fires ({what}): {left} rounds left", AUTOFIRE)]


def reload(enc: Encounter, key: str, ammo: int) -> Change[Encounter]:
    """His weapon reloaded: ``ammo`` rounds in it (the reload itself is an action the
    GM rules on)."""
    still_open(enc)
    c = find(enc, key)
    if not whole(ammo, 0, 100_000):
        raise EncounterError("ammo", f"{c.name}'s ammunition: 0 to 100000 rounds.")
    lines = [Step(f"{c.name} reloads: {ammo} rounds", AUTOFIRE)]
    return done(enc, lines, combatants=put(enc, replace(c, ammo=ammo)))
