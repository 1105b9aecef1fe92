"""The combatants of an Aberrant encounter: who they are and what the fight did to them.

A combatant is built from a character record (a party's entry, :func:`combatant`),
entered quickly as a foe (a name and the numbers the rules read, :func:`quick_foe`),
or is a henchmen squad (a leader and the henchmen screening him, :func:`squad`).
Records only: the rules that change them are :mod:`ruleslab.encounter.aberrant`.

Combat alterations › Mass Combat › Henchmen › Damage Soak:

    Until all henchmen are eliminated, the leader cannot be targeted. … Each point
    of damage dealt removes from play one of these henchmen, until only the
    commander is left and can be engaged normally.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.alterations.henchmen import DIVISORS
from ruleslab.character import LOAD_KG, Character, Conditions
from ruleslab.encounter.log import EncounterError, whole
from ruleslab.params import InputError
from ruleslab.party import Entry, check_name

__all__ = [
    "KINDS",
    "SIDES",
    "TRAININGS",
    "Combatant",
    "Damage",
    "combatant",
    "from_entry",
    "quick_foe",
    "squad",
]

SIDES = ("party", "foes")

TRAININGS = tuple(DIVISORS)
"""A squad's henchmen training, as :func:`squad` takes it (regular, trained, fanatical)."""

KINDS = ("aggravated", "lethal", "bashing", "stun")
"""The kinds of damage, worst first."""


@dataclass(frozen=True)
class Damage:
    """Levels of damage after soak, by kind (what the damage roll put on the track)."""

    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0
    stun: int = 0

    def __post_init__(self) -> None:
        for kind in KINDS:
            value = getattr(self, kind)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 200:
                raise EncounterError(kind, f"{kind} levels must be a whole number from 0 to 200.")

    @property
    def total(self) -> int:
        return self.bashing + self.lethal + self.aggravated + self.stun

    def text(self) -> str:
        parts = [f"{getattr(self, k)} {k}" for k in KINDS if getattr(self, k)]
        return ", ".join(parts) or "no damage"


@dataclass(frozen=True)
class Combatant:
    """One combatant and what the fight has done to him so far.

    Who he is: ``key`` (unique in the encounter), ``name``, ``character`` (every trait
    the rules read), ``side``, ``armour_levels`` (his armour's −0 levels),
    ``henchmen``, their ``training`` and ``henchman_pool`` (their attribute + ability
    total: over 7 each adds +2d, else +1d) (a squad: henchmen screening their leader, rules
    note RN-TRACK-5), ``hidden`` (the GM hides him from the players' view),
    ``load_kg`` (what he carries), ``group`` (identical foes sharing one initiative
    roll; empty: his own), ``ammo`` (rounds left in his weapon; ``None``: not
    counted). What the fight did: ``initiative``; ``damage``
    on his track; ``taken_this_turn`` (levels this turn, towards Dazed and
    Stunned); ``daze`` and the last turn it holds (``daze_until``); his
    ``actions`` declared this turn (an active defence among them when
    ``active_defence``), ``sprinting``; ``acted`` (actions taken this turn);
    ``attacks_against`` (this turn: each wears his 2.1 Defense down by 1);
    ``stun_clock`` (turns since his stun last healed a level).
    """

    key: str
    name: str
    character: Character
    side: str = "party"
    armour_levels: int = 0
    henchmen: int = 0
    training: str = "regular"
    henchman_pool: int = 0
    hidden: bool = False
    load_kg: float = 0.0
    group: str = ""
    ammo: int | None = None
    initiative: int | None = None
    damage: Damage = Damage()
    taken_this_turn: int = 0
    daze: str = "none"
    daze_until: int = 0
    actions: int = 1
    active_defence: bool = False
    sprinting: bool = False
    acted: int = 0
    attacks_against: int = 0
    stun_clock: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key.strip():
            raise EncounterError("key", "A combatant needs a key (a short id): give one.")
        try:
            check_name(self.name, "A combatant")
            LOAD_KG.check(self.load_kg)
        except InputError as e:
            raise EncounterError(e.field, e.message) from None
        if not isinstance(self.character, Character):
            raise EncounterError("character", f"{self.name}: an Aberrant Character record.")
        if self.side not in SIDES:
            raise EncounterError("side", f"{self.name}'s side must be one of {', '.join(SIDES)}.")
        if self.training not in DIVISORS:
            raise EncounterError(
                "training", f"{self.name}'s henchmen training: one of {', '.join(DIVISORS)}."
            )
        if self.ammo is not None and not whole(self.ammo, 0, 100_000):
            raise EncounterError("ammo", f"{self.name}'s ammunition: 0 to 100000 rounds.")
        for name, hi in (("armour_levels", 20), ("henchmen", 1000), ("henchman_pool", 40)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
                raise EncounterError(name, f"{self.name}: {name} must be 0 to {hi}.")

    def conditions(self) -> Conditions:
        """His conditions now, as the rules read them for his next roll."""
        return Conditions(
            load_kg=self.load_kg,
            sprinting=self.sprinting,
            daze=self.daze,
            actions=self.actions,
            active_defence=self.active_defence,
        )


def combatant(
    key: str, name: str, character: Character, side: str = "party", **more: object
) -> Combatant:
    """A combatant from a character record (a party's entry: ``entry.record``)."""
    return Combatant(key, name, character, side, **more)  # type: ignore[arg-type]


def from_entry(entry: Entry, side: str = "party") -> Combatant:
    """A party's character (:class:`~ruleslab.party.Entry`) as a combatant: his id is his
    key, his name and record are the party's."""
    if not isinstance(entry.record, Character):
        raise EncounterError(
            "character", f"{entry.name} is {entry.kind.a}, not an Aberrant character."
        )
    return Combatant(entry.id, entry.name, entry.record, side)


def quick_foe(
    key: str,
    name: str,
    *,
    dexterity: int = 2,
    wits: int = 2,
    stamina: int = 2,
    strength: int = 2,
    willpower: int = 3,
    resistance: int = 0,
    quantum: int = 0,
    armour_levels: int = 0,
    hidden: bool = False,
    group: str = "",
    ammo: int | None = None,
) -> Combatant:
    """A foe entered quickly: a name and the numbers the rules read (initiative:
    Dex + Wits; Defense: Dex, Wits; the track: Str, Sta, Willpower, Resistance,
    Quantum), and the rounds in his weapon (``None``: not counted). A quick foe is
    mundane: Quantum 0 unless given."""
    char = Character(
        dexterity=dexterity,
        wits=wits,
        stamina=stamina,
        strength=strength,
        willpower=willpower,
        resistance=resistance,
        quantum=quantum,
    )
    return Combatant(
        key, name, char, "foes", armour_levels=armour_levels, hidden=hidden, group=group, ammo=ammo
    )


def squad(
    key: str,
    name: str,
    leader: Character,
    henchmen: int,
    training: str = "regular",
    side: str = "foes",
    henchman_pool: int = 0,
    ammo: int | None = None,
) -> Combatant:
    """A henchmen squad: its leader and the ``henchmen`` screening him (Combat
    alterations › Mass Combat › Henchmen › Damage Soak), each adding to his attacks; the
    rounds in the leader's weapon (``None``: not counted)."""
    return Combatant(
        key,
        name,
        leader,
        side,
        henchmen=henchmen,
        training=training,
        henchman_pool=henchman_pool,
        ammo=ammo,
    )
