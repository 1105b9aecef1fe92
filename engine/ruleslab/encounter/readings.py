"""The readings a fight is played under, chosen by the GM and changed as a step.

Where a text is ambiguous the encounter plays the reading a GM would expect, and offers
the others (the rules notes quote the text, give the reading and why):

- Aberrant: how long Dazed or Stunned lasts (RN-TRACK-2: "Dazed characters are at +1
  difficulty to all actions" from the turn the levels were taken: through the next turn,
  or only until that turn's end), whether initiative is rolled once for the scene or
  again at each turn (RN-TRACK-1), what each extra attack success adds to the damage
  rolled (RN-RANGED-3: "instead of just +1") and whether a burst's "+[X] Damage" is adds
  or dice (RN-RANGED-1), as the Autofire & strafing calculator offers them;
- Chimera: the fields of :class:`~ruleslab.chimera.attack.FightRules` (the Action Roll's
  die, the Critical Success, ties, Parry and Cover, the surprise, the casualties, a
  blast, a coup de grâce: rules notes RN-CHIM-*), as the "Chimera fight" calculator
  offers them, in its words (:data:`~ruleslab.chimera.attack.READING_LABELS`,
  :data:`~ruleslab.chimera.attack.CHOICES`).

A change of reading is a step like any other: logged with what it was, undone by undo,
and it governs the steps that follow (what is already on the tracks stays).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from ruleslab.chimera.attack import CHOICES, READING_LABELS, READING_NOTES
from ruleslab.chimera.sections import COMBAT
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.chimera_state import still_open as chimera_open
from ruleslab.encounter.log import Change, EncounterError, logged
from ruleslab.encounter.state import DAZE_LASTS, Encounter, still_open
from ruleslab.explain import Step
from ruleslab.quickref.attack import EXTRA_SUCCESS_READINGS
from ruleslab.quickref.autofire import AUTOFIRE, BURST_DAMAGE_READINGS
from ruleslab.quickref.conditions import DAZING
from ruleslab.quickref.initiative import INITIATIVE
from ruleslab.quickref.weapons import Devastating, tag_rule

__all__ = ["ABERRANT_READINGS", "Reading", "chimera_readings", "readings_of", "set_reading"]


@dataclass(frozen=True)
class Reading:
    """One reading the GM may choose: its ``name``, ``label``, the ``choices`` ((value,
    words), …), the ``note`` that gives the reasons and the ``rule`` it reads."""

    name: str
    label: str
    choices: tuple[tuple[str, str], ...]
    note: str
    rule: str


INITIATIVE_READINGS = (
    ("scene", "Once, for the whole scene"),
    ("each_turn", "Again at the start of each turn"),
)
"""When Aberrant initiative is rolled (rules note RN-TRACK-1)."""

ABERRANT_READINGS = (
    Reading("daze_lasts", "Dazed or Stunned lasts", DAZE_LASTS, "RN-TRACK-2", DAZING),
    Reading("initiative", "Initiative is rolled", INITIATIVE_READINGS, "RN-TRACK-1", INITIATIVE),
    Reading("extra_successes", *EXTRA_SUCCESS_READINGS, "RN-RANGED-3", tag_rule(Devastating)),
    Reading("burst_damage", *BURST_DAMAGE_READINGS, "RN-RANGED-1", AUTOFIRE),
)
"""The readings of an Aberrant fight."""


def chimera_readings() -> tuple[Reading, ...]:
    """The readings of a Chimera fight: the fields of its ``FightRules``."""
    return tuple(
        Reading(name, READING_LABELS[name], CHOICES[name], READING_NOTES[name], COMBAT)
        for name in READING_LABELS
    )


def readings_of(enc: Encounter | ChimeraEncounter) -> dict[str, str]:
    """The value of each reading ``enc`` is played under, by name."""
    if isinstance(enc, ChimeraEncounter):
        return {name: getattr(enc.rules, name) for name in READING_LABELS}
    return {
        "daze_lasts": enc.daze_lasts,
        "initiative": "each_turn" if enc.initiative_each_turn else "scene",
        "extra_successes": enc.extra_successes,
        "burst_damage": enc.burst_damage,
    }


E = TypeVar("E", Encounter, ChimeraEncounter)


def set_reading(enc: E, name: str, value: str) -> Change[E]:
    """``enc`` played from now on under ``value`` of the reading ``name``; the log says
    what it was. :class:`EncounterError` naming the reading for a value it does not
    take."""
    chimera = isinstance(enc, ChimeraEncounter)
    if isinstance(enc, ChimeraEncounter):
        chimera_open(enc)
    else:
        still_open(enc)
    offered = {r.name: r for r in (chimera_readings() if chimera else ABERRANT_READINGS)}
    reading = offered.get(name)
    if reading is None:
        raise EncounterError("reading", f"The readings: {', '.join(offered)}.")
    words = dict(reading.choices)
    if value not in words:
        raise EncounterError(
            name, f"{reading.label}: one of {', '.join(w for _, w in reading.choices)}."
        )
    was = readings_of(enc)[name]
    if value == was:
        raise EncounterError(name, f"{reading.label}: “{words[value]}” already.")
    line = Step(
        f"Reading changed: {reading.label}: “{words[value]}”, no longer “{words[was]}” "
        f"(the GM's choice; rules notes {reading.note})",
        reading.rule,
    )
    if isinstance(enc, ChimeraEncounter):
        return logged(enc, [line], rules=replace(enc.rules, **{name: value}))
    if name == "initiative":
        return logged(enc, [line], initiative_each_turn=value == "each_turn")
    return logged(enc, [line], **{name: value})
