"""The Chimera encounter record, its combatants, and what reads them.

A combatant is a :class:`~ruleslab.chimera.fighter.Fighter` record (a party's entry,
or a foe entered quickly: a name and the few numbers the rules read) with what the
fight has done to him; the changes are :mod:`ruleslab.encounter.chimera`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.wounds import wound_penalty
from ruleslab.encounter.log import EncounterError, find_key, people_of
from ruleslab.explain import Step
from ruleslab.party import Entry

__all__ = [
    "DEFAULT_RULES",
    "FIGHTING",
    "STATUSES",
    "ChimeraCombatant",
    "ChimeraEncounter",
    "fighter",
    "fighter_from_entry",
    "find",
    "new_chimera",
    "roll_penalty",
    "still_open",
]

FIGHTING = "fighting"
STATUSES = {
    FIGHTING: "In the fight",
    "vanquished": "Vanquished: the victor chooses his fate",
    "captured": "Captured: bound, −4 to all rolls and MR",
    "driven_off": "Driven off: fled the scene",
    "dead": "Dead (Killer Blow)",
    "unconscious": "Unconscious",
    "surrendered": "Failed his morale check: surrendered or retreated",
}
"""Where a combatant stands; every status but ``fighting`` is out of the fight."""

DEFAULT_RULES = FightRules()
"""The readings by default (rules notes RN-CHIM-*)."""


@dataclass(frozen=True)
class ChimeraCombatant:
    """One combatant: ``key``, his :class:`~ruleslab.chimera.fighter.Fighter` record, his
    ``side``, whether he leads it (``leader``), ``hidden`` from the players' view; what
    the fight did: ``wounds``, ``status``, this round's chosen ``im`` and ``initiative``,
    whether he ``acted`` this round (one full action), a ``morale_due`` reason (empty:
    none), ``shot`` (he engaged in ranged combat), ``vanquished_by`` (the victor's key),
    ``flaw`` (a Killer Blow Resisted: a random permanent Flaw) and ``ar_bonus`` (AR +2 on
    his first action, from surprise)."""

    key: str
    fighter: Fighter
    side: str = "party"
    leader: bool = False
    hidden: bool = False
    wounds: int = 0
    status: str = FIGHTING
    im: int = 0
    initiative: int | None = None
    acted: bool = False
    morale_due: str = ""
    shot: bool = False
    vanquished_by: str = ""
    flaw: bool = False
    ar_bonus: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key.strip():
            raise EncounterError("key", "A combatant needs a key (a short id): give one.")
        if not isinstance(self.fighter, Fighter):
            raise EncounterError("fighter", f"{self.key}: a Chimera Fighter record.")
        if self.status not in STATUSES:
            raise EncounterError("status", f"{self.name}'s status: one of {', '.join(STATUSES)}.")
        if not isinstance(self.side, str) or not self.side.strip():
            raise EncounterError("side", f"{self.name} needs a side.")
        if self.status == "vanquished" and not self.vanquished_by:
            raise EncounterError("vanquished_by", f"{self.name} is vanquished: by whom?")

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def in_fight(self) -> bool:
        return self.status == FIGHTING


@dataclass(frozen=True)
class ChimeraEncounter:
    """A Chimera fight: the combatants, the ``round`` (0 before the first), this round's
    initiative ``order`` and the ``place`` in it, whether the fight is ``over``, the
    readings (:class:`~ruleslab.chimera.attack.FightRules`), who acts ``first`` in the
    coming round whatever his initiative (a surprise, RN-CHIM-11) and the ``log``."""

    combatants: tuple[ChimeraCombatant, ...]
    rules: FightRules = DEFAULT_RULES
    round: int = 0
    order: tuple[str, ...] = ()
    place: int = 0
    over: bool = False
    first: str = ""
    log: tuple[Step, ...] = ()


def fighter(
    key: str, record: Fighter, side: str = "party", *, leader: bool = False
) -> ChimeraCombatant:
    """A combatant from a fighter record (a party's entry, or a foe entered quickly:
    ``Fighter("Bandit", mr=8, defence=1, wound_limit=2)``); his wounds so far start
    from the record's."""
    return ChimeraCombatant(key, record, side, leader, wounds=record.wounds)


def fighter_from_entry(entry: Entry, side: str = "party") -> ChimeraCombatant:
    """A party's fighter (:class:`~ruleslab.party.Entry`) as a combatant, keyed by his id."""
    if not isinstance(entry.record, Fighter):
        raise EncounterError("fighter", f"{entry.name} is {entry.kind.a}, not a Chimera fighter.")
    return fighter(entry.id, replace(entry.record, name=entry.name), side)


def new_chimera(
    combatants: Iterable[ChimeraCombatant], rules: FightRules = DEFAULT_RULES
) -> ChimeraEncounter:
    """A new fight (keys unique, at least one combatant)."""
    return ChimeraEncounter(people_of(combatants), rules)


def find(enc: ChimeraEncounter, key: str) -> ChimeraCombatant:
    """The combatant ``key``, or :class:`EncounterError`."""
    return find_key(enc.combatants, key)


def still_open(enc: ChimeraEncounter) -> None:
    """Refuse a change once the fight is over."""
    if enc.over:
        raise EncounterError("fight", "The fight is over: start a new encounter.")


def roll_penalty(c: ChimeraCombatant) -> int:
    """What his wounds and being bound take off every roll (WP; −4 bound)."""
    return -wound_penalty(c.wounds) + c.fighter.bound_penalty
