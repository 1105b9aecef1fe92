"""The ammunition an attack uses, counted down; a reload.

Quick reference › Ranged Attack Maneuvers › Autofire:

    Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition.
    Medium Bursts: … 10 shots; Long Bursts: … 20 shots; Sustained Bursts: … 50 shots

The bursts are :data:`ruleslab.quickref.autofire.BURSTS`; a combatant whose ``ammo`` is ``None``
is not counted. The bonus the attacker chose for his burst (:func:`burst_bonus`: the
Accuracy dice on the attack roll, or the Damage adds on the hit) is the Autofire
calculator's own (:func:`ruleslab.quickref.autofire.autofire_maneuver`, "+[1]" read as one
damage add, RN-RANGED-1). Rules note RN-TRACK-17.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab.encounter.combatant import Combatant
from ruleslab.encounter.log import Change, EncounterError, whole
from ruleslab.encounter.state import Encounter, done, find, put, still_open
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.quickref.attack import Maneuver
from ruleslab.quickref.autofire import AUTOFIRE, BURSTS, autofire_maneuver

__all__ = ["BURSTS", "BURST_USES", "burst_bonus", "reload", "spend_ammunition"]

BURST_USES = ("accuracy", "damage")
"""What a burst's bonus goes to: "+2 Accuracy or +[1] Damage", the attacker's choice."""


def burst_bonus(burst: str, use: str, burst_damage: str = "adds") -> Maneuver:
    """The bonus of an autofire ``burst`` (a key of :data:`BURSTS`; empty: no burst) put to
    ``use``: "accuracy" (its dice on the attack roll) or "damage" (its "+[X]" on the hit's
    damage: X adds, or X dice under the ``burst_damage`` reading "dice", RN-RANGED-1), with
    the step saying which; an empty :class:`Maneuver` for no burst."""
    if not burst:
        return Maneuver()
    if burst not in BURSTS:
        raise EncounterError("burst", f"The burst: one of {', '.join(BURSTS)}.")
    if use not in BURST_USES:
        raise EncounterError("burst_use", f"The burst's bonus: one of {', '.join(BURST_USES)}.")
    try:
        bonus, _ = autofire_maneuver(
            burst=burst, burst_use=use, targets=1, ammunition=100_000, burst_damage=burst_damage
        )
    except InputError as e:  # (not reached: one target, rounds enough)
        raise EncounterError(e.field, e.message) from None
    return replace(bonus, steps=bonus.steps[:1])  # (its choice; the rounds are counted here)


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


def reload(enc: Encounter, key: str, ammo: int | None) -> Change[Encounter]:
    """His weapon reloaded: ``ammo`` rounds in it (the reload itself is an action the
    GM rules on); ``None``: his rounds no longer counted."""
    still_open(enc)
    c = find(enc, key)
    if ammo is not None and not whole(ammo, 0, 100_000):
        raise EncounterError("ammo", f"{c.name}'s ammunition: 0 to 100000 rounds.")
    said = (
        f"{c.name} reloads: {ammo} rounds"
        if ammo is not None
        else f"{c.name}'s rounds: not counted"
    )
    lines = [Step(said, AUTOFIRE)]
    return done(enc, lines, combatants=put(enc, replace(c, ammo=ammo)))
