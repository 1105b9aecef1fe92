"""Three fights played step by step through the encounter, for the encounter tests.

Each fight is a script of steps; :class:`Play` applies them one by one, records each
encounter in a :class:`~ruleslab.encounter.history.History` and keeps them all (the
undo and serialization tests walk every one). The expectations are in the tests
(``test_encounter_aberrant.py``, ``test_encounter_chimera.py``), worked by hand from
the texts in their comments.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.chimera_state import fighter
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.history import History, record, start
from ruleslab.encounter.log import Change, EncounterError
from ruleslab.explain import Step


class Play:
    """Applies steps to an encounter, keeping every encounter and the history."""

    def __init__(self, enc: Any) -> None:
        self.history: History[Any] = start(enc)
        self.states: list[Any] = [enc]
        self.lines: tuple[Step, ...] = ()

    @property
    def enc(self) -> Any:
        return self.history.present

    def __call__(self, fn: Callable[..., Change[Any]], *args: Any, **kw: Any) -> Change[Any]:
        change = fn(self.enc, *args, **kw)
        self.history = record(self.history, change)
        self.states.append(change.encounter)
        self.lines = change.lines
        return change

    def text(self) -> str:
        """The last step's lines, one text."""
        return " | ".join(s.text for s in self.lines)


# --- the 2.1 party and foes -----------------------------------------------------------

ANA = Character(strength=2, dexterity=4, stamina=2, wits=3, willpower=3, resistance=1, quantum=1)
BEN = Character(
    strength=3, dexterity=3, stamina=4, mega_stamina=2, wits=4, willpower=4, resistance=2, quantum=2
)
GOON_LEADER = Character(strength=2, dexterity=2, stamina=2, wits=2, willpower=2, quantum=0)


def fight_21() -> ab.Encounter:
    return ab.new_encounter(
        "2.1",
        [
            ab.combatant("ana", "Ana", ANA),
            ab.combatant("ben", "Ben", BEN),
            ab.quick_foe(
                "kessler", "Kessler", dexterity=3, wits=2, stamina=2, strength=3, willpower=8
            ),
            ab.squad("goons", "Goons", GOON_LEADER, henchmen=3),
        ],
    )


CARA = Character(strength=2, dexterity=3, stamina=3, wits=2, quantum=1)


def fight_20() -> ab.Encounter:
    return ab.new_encounter(
        "2.0",
        [
            ab.combatant("cara", "Cara", CARA),
            ab.quick_foe("brute", "Brute", dexterity=2, wits=2, stamina=1, strength=3),
        ],
    )


VERA = Fighter("Vera", character="pc", mr=12, defence=2, wound_limit=3, kind="shoot", resist=2)
TOMAS = Fighter(
    "Tomas",
    character="pc",
    defence=1,
    wound_limit=3,
    resist=1,
    cool_down="skipped",
    fatigue_tn=11,
)
CHIEF = Fighter("Bandit chief", character="classed", defence=1, wound_limit=4, resist=1)
BANDIT = Fighter("Bandit", defence=0, wound_limit=2, morale_tn=9)
BANDIT_2 = Fighter("Bandit two", defence=0, wound_limit=2, morale_tn=9)


def fight_chimera() -> ch.ChimeraEncounter:
    return ch.new_chimera(
        [
            ch.fighter("vera", VERA),
            ch.fighter("tomas", TOMAS),
            ch.fighter("chief", CHIEF, "bandits", leader=True),
            ch.fighter("bandit", BANDIT, "bandits"),
            ch.fighter("bandit2", BANDIT_2, "bandits"),
        ]
    )


def _try(history: History[Any], fn: Any, *args: Any, **kw: Any) -> History[Any]:
    """``history`` after the step ``fn(present, …)``, or unchanged if the rules refuse it."""
    try:
        return record(history, fn(history.present, *args, **kw))
    except EncounterError:
        return history


def long_aberrant(turns: int = 10, seed: int = 1) -> History[Any]:
    """``turns`` turns of a 2.1 fight of six: two characters and a quick foe on each side
    of three, each acting one declaring two actions and attacking twice (seeded)."""
    rng = Random(seed)
    people = [
        ab.combatant("ana", "Ana", Character(dexterity=4, wits=3, stamina=5)),
        ab.combatant("bo", "Bo", Character(dexterity=3, wits=3, stamina=5)),
        ab.quick_foe("cy", "Cy", dexterity=3, wits=2, stamina=5),
        ab.quick_foe("thug1", "Thug", dexterity=2, wits=2, stamina=5),
        ab.quick_foe("thug2", "Thug", dexterity=2, wits=2, stamina=5),
        ab.squad("squad1", "Guards", Character(dexterity=2, wits=2, stamina=5), 4),
    ]
    h = start(ab.new_encounter("2.1", people[:1]))
    for c in people[1:]:
        h = _try(h, ab.join, c)
    h = _try(h, ab.roll_initiative, ab.seeded_faces(h.present, rng.getrandbits(32)))
    while h.present.turn <= turns:
        who = ab.current(h.present)
        if who is not None:
            h = _try(h, ab.declare, who.key, 2)
            foes = [c for c in h.present.combatants if c.side != who.side]
            for _ in range(2):
                target = rng.choice(foes).key
                hit = rng.random() < 0.5
                damage = Damage(bashing=rng.randint(0, 2)) if hit else Damage()
                h = _try(h, ab.resolve_attack, who.key, target, hit=hit, damage=damage)
        h = _try(h, ab.next_turn)
    return h


def long_chimera(rounds: int = 10, seed: int = 1) -> History[Any]:
    """``rounds`` rounds of a Chimera fight of six (three a side), each fighter attacking
    once a round with the site's seeded dice."""
    rng = Random(seed)
    people = [
        fighter(f"p{i}", Fighter(f"Hero {i}", mr=8, defence=2, wound_limit=10)) for i in range(3)
    ] + [
        fighter(f"f{i}", Fighter(f"Bandit {i}", mr=7, defence=2, wound_limit=10), "foes")
        for i in range(3)
    ]
    h = start(ch.new_chimera(people))
    for _ in range(rounds):
        faces = ch.seeded_d12(h.present, rng.getrandbits(32))
        ties = {k: [rng.randint(1, 12) for _ in range(6)] for k in faces}
        h = _try(h, ch.start_round, {}, faces, ties)
        while h.present.order and h.present.place < len(h.present.order):
            who = h.present.order[h.present.place]
            side = next(c.side for c in h.present.combatants if c.key == who)
            foes = [c for c in h.present.combatants if c.side != side and c.in_fight]
            if foes:
                hit = rng.random() < 0.5
                roll = rng.randint(1, 4) if hit else 0
                target = rng.choice(foes).key
                h = _try(h, ch.resolve_attack, who, target, hit=hit, damage_roll=roll)
            before = h
            h = _try(h, ch.next_turn)  # (after the last: the round ends)
            if h is before:
                break
    return h


def stored_lines(data: dict[str, Any], log: list[int] | None = None) -> list[tuple[str, str]]:
    """The log lines ``(text, rule)`` a stored history (``data``: its ``table``; ``log``:
    the places, by default its present's) spells, read here by hand: each table line
    is ``[words, rule, number, ...]``, its words' pieces with its numbers between them."""
    table = data["table"]
    out = []
    for n in data["encounter"]["log"] if log is None else log:
        words, rule, *numbers = table["lines"][n]
        pieces = table["texts"][words]
        text = pieces[0] + "".join(str(x) + w for x, w in zip(numbers, pieces[1:], strict=True))
        out.append((text, table["rules"][rule]))
    return out
