"""The Aberrant encounter record, and what can be read from it without changing it.

:class:`Encounter` holds the combatants (:mod:`ruleslab.encounter.combatant`), the
turn, the initiative order and the log; :func:`health` reads a combatant's track
(:func:`ruleslab.quickref.health.track`, :func:`ruleslab.quickref.health.fill`) and
:func:`defense_now` his 2.1 Defense as the attacks of this turn have worn it
(:func:`ruleslab.quickref.defence.defense_per_attack`). The changes are
:mod:`ruleslab.encounter.aberrant`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ruleslab.encounter.combatant import Combatant
from ruleslab.encounter.log import Change, EncounterError, find_key, logged, people_of, put_keyed
from ruleslab.explain import Step
from ruleslab.quickref.defence import defense_per_attack, defense_score
from ruleslab.quickref.health import HealthLevel, TrackFill, fill, track
from ruleslab.ruleset import RULESETS, V21

__all__ = [
    "DAZE_LASTS",
    "Encounter",
    "current",
    "defense_now",
    "done",
    "find",
    "health",
    "new_encounter",
    "put",
    "still_open",
    "track_of",
]

DAZE_LASTS = (
    ("next_turn", "Through the next turn (his next actions), then gone"),
    ("this_turn", "Until the end of the turn in which he took the damage"),
)
"""How long Dazed or Stunned lasts (rules note RN-TRACK-2)."""


@dataclass(frozen=True)
class Encounter:
    """An Aberrant fight: ``ruleset`` ("2.0" or "2.1"), the combatants, the ``turn``
    (0 before initiative), the initiative ``order`` (keys) and the place in it whose
    action it is (``place``), whether the scene is over, the readings chosen
    (``daze_lasts``: :data:`DAZE_LASTS`; ``initiative_each_turn``, RN-TRACK-1; what an
    extra success adds to the damage, ``extra_successes``, RN-RANGED-3; a burst's "+[X]
    Damage" as adds or dice, ``burst_damage``, RN-RANGED-1) and the
    ``log`` of every step so far."""

    ruleset: str
    combatants: tuple[Combatant, ...]
    turn: int = 0
    order: tuple[str, ...] = ()
    place: int = 0
    scene_over: bool = False
    daze_lasts: str = "next_turn"
    initiative_each_turn: bool = False
    extra_successes: str = "die"
    burst_damage: str = "adds"
    log: tuple[Step, ...] = ()


def new_encounter(
    ruleset: str,
    combatants: Iterable[Combatant],
    *,
    daze_lasts: str = "next_turn",
    initiative_each_turn: bool = False,
) -> Encounter:
    """A new fight under ``ruleset`` with ``combatants`` (keys unique)."""
    if ruleset not in RULESETS:
        raise EncounterError("ruleset", f"The rules version must be one of {', '.join(RULESETS)}.")
    if daze_lasts not in dict(DAZE_LASTS):
        raise EncounterError("daze_lasts", f"daze_lasts: one of {', '.join(dict(DAZE_LASTS))}.")
    people = people_of(combatants)
    return Encounter(
        ruleset, people, daze_lasts=daze_lasts, initiative_each_turn=initiative_each_turn
    )


# --- reading it ------------------------------------------------------------------------


def find(enc: Encounter, key: str) -> Combatant:
    """The combatant ``key``, or :class:`EncounterError`."""
    return find_key(enc.combatants, key)


def current(enc: Encounter) -> Combatant | None:
    """Whose action it is (``None`` before initiative or once the turn's order is done)."""
    if not enc.order or enc.place >= len(enc.order):
        return None
    return find(enc, enc.order[enc.place])


def track_of(enc: Encounter, c: Combatant) -> tuple[HealthLevel, ...]:
    """His health track under the encounter's rules, his armour's levels included."""
    ch = c.character
    levels, _ = track(
        enc.ruleset,
        strength=ch.strength,
        mega_strength=ch.mega_strength,
        stamina=ch.stamina,
        mega_stamina=ch.mega_stamina,
        quantum=ch.quantum,
        willpower=ch.willpower,
        resistance=ch.resistance,
        armour_levels=c.armour_levels,
    )
    return levels


def health(enc: Encounter, c: Combatant) -> TrackFill:
    """His track with his damage on it (:func:`ruleslab.quickref.health.fill`): state, wound
    penalty."""
    d = c.damage
    return fill(
        track_of(enc, c),
        bashing=d.bashing,
        lethal=d.lethal,
        aggravated=d.aggravated,
        stun=d.stun,
    )


def defense_now(enc: Encounter, c: Combatant) -> int:
    """His 2.1 Defense against the next attack: the score less 1 per attack made against
    him this turn, not below 0 (:func:`ruleslab.quickref.defence.defense_per_attack`); 0 in 2.0."""
    if enc.ruleset != V21:
        return 0
    ch = c.character
    score = defense_score(ch.dexterity, ch.mega_dexterity, ch.wits, ch.mega_wits).score
    per_attack = defense_per_attack(score)
    return per_attack[min(c.attacks_against, len(per_attack) - 1)]


def put(enc: Encounter, *changed: Combatant) -> tuple[Combatant, ...]:
    """The combatants with ``changed`` put in place of those with their keys."""
    return put_keyed(enc.combatants, *changed)


def done(enc: Encounter, lines: list[Step], **changes: object) -> Change[Encounter]:
    """The change: ``enc`` with ``changes``, and ``lines`` added to its log."""
    return logged(enc, lines, **changes)


def still_open(enc: Encounter) -> None:
    """Refuse a change once the scene is over."""
    if enc.scene_over:
        raise EncounterError("scene", "The scene is over: start a new encounter.")
