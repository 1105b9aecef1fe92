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

:class:`~ruleslab.encounter.history.History` keeps every step for undo and redo;
:mod:`ruleslab.encounter.serial` writes an encounter to a JSON-safe dict and reads
it back, refusing what it cannot read. Readings: ``docs/rules-notes/encounter.md``
(RN-TRACK-*).

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
