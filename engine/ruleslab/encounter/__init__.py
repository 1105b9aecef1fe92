"""The encounter: a fight, turn by turn, with the rules the texts tie to time applied.

An encounter is an immutable record (:class:`~ruleslab.encounter.aberrant.Encounter`
for Aberrant 2.0 and 2.1, :class:`~ruleslab.encounter.chimera.ChimeraEncounter` for
Chimera). Every change is a pure function of the encounter and what happened at the
table (the dice the table rolled, the GM's choices) returning a
:class:`~ruleslab.encounter.log.Change`: the next encounter and the log lines of
that change, each naming its rule. Nothing the texts tie to a turn, a round or the
end of the scene is typed by the GM: the encounter applies it (wound penalties
from the track, Dazed and Stunned, the 2.1 Defense worn down and restored, the
multiple-action difficulty, stun healing and its end with the scene; in Chimera
initiative each round, the Wound Penalty, vanquishing, the morale triggers, the
fate and the checks after the fight).

The modules:

- :mod:`~ruleslab.encounter.combatant` (an Aberrant combatant: from a character record
  or a party's entry, a quick foe, a henchmen squad), :mod:`~ruleslab.encounter.state`
  (the Aberrant encounter and what reads it: the track, the worn Defense),
  :mod:`~ruleslab.encounter.aberrant` (its changes: initiative, declared actions, an
  attack resolved, damage, next turn, end of turn, end of scene),
  :mod:`~ruleslab.encounter.ammunition`, :mod:`~ruleslab.encounter.recovery` (healing),
  :mod:`~ruleslab.encounter.attack_inputs` (an attack as the Autofire & strafing
  calculator's inputs, filled), :mod:`~ruleslab.encounter.attack_roll` (an attack rolled
  by the site, seeded: "Roll it"), :mod:`~ruleslab.encounter.damage_roll` (its damage
  rolled by the site against the target's soak: "Roll damage");
- :mod:`~ruleslab.encounter.chimera_state` (the Chimera encounter and its combatants),
  :mod:`~ruleslab.encounter.chimera` (its changes: surprise, rounds and initiative,
  attacks, morale, fates, the coup de grâce, the end of the fight; an attack's odds);
- :mod:`~ruleslab.encounter.readings` (the readings a fight is played under, chosen by
  the GM as a step), :mod:`~ruleslab.encounter.history` (undo and redo),
  :mod:`~ruleslab.encounter.serial`
  (a JSON-safe dict and back, refusing what it cannot read),
  :mod:`~ruleslab.encounter.share` (the state as a link's value, some 1 KB),
  :mod:`~ruleslab.encounter.board` (the fight at a glance; the players' view) and
  :mod:`~ruleslab.encounter.tracker` (the tracker in a notebook or Python).

Readings: ``docs/rules-notes/encounter.md`` (RN-TRACK-*).

In Python::

    from ruleslab.character import Character
    from ruleslab.encounter import aberrant as ab

    enc = ab.new_encounter("2.1", [
        ab.combatant("ana", "Ana", Character(dexterity=4, wits=3, stamina=3)),
        ab.quick_foe("thug", "Thug", dexterity=2, wits=2, stamina=2),
    ])
    enc = ab.set_initiative(enc, {"ana": 12, "thug": 7}).encounter
"""

from ruleslab.encounter.log import Change, EncounterError

__all__ = ["Change", "EncounterError"]
