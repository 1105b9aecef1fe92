"""How many undo steps of a long fight survive a reload, and the stored record's size.

Two long fights are played through the engine with seeded dice, step by step as the
tracker page records them (:func:`ruleslab.encounter.history.record`): ten turns of a
six-combatant Aberrant 2.1 fight (each acting one declares two actions and attacks
twice) and ten rounds of a six-fighter Chimera fight. Each is written as the tracker
stores it (:meth:`ruleslab_widgets.tracker_record.Fight.text` within the record store's
``MAX_RECORD_TEXT``) and read back (:func:`~ruleslab_widgets.tracker_record.parse_fight`)::

    .venv/bin/python -m bench.tracker_record

prints, for each fight and for its present with 50 steps undone (redo kept), the steps
in memory, the steps read back and the record's length in characters; then the time
to read a hostile record (:func:`hostile`).
"""

from __future__ import annotations

from random import Random
from typing import Any

from ruleslab.character import Character
from ruleslab.chimera.fighter import Fighter
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.chimera_state import fighter
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.history import History, record, start, undo
from ruleslab.encounter.log import EncounterError

__all__ = ["figures", "hostile", "long_aberrant", "long_chimera", "main"]


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


def figures(name: str, ruleset: str, history: History[Any]) -> dict[str, Any]:
    """The stored record of ``history`` and what a reload reads back of it."""
    from ruleslab_widgets.records import MAX_RECORD_TEXT
    from ruleslab_widgets.tracker_record import Fight, parse_fight

    text = Fight(name, ruleset, history).text(MAX_RECORD_TEXT)
    back = parse_fight(text).history
    assert back is not None
    return {
        "fight": name,
        "steps": len(history.past),
        "redo": len(history.future),
        "log lines": len(history.present.log),
        "undo kept": len(back.past),
        "redo kept": len(back.future),
        "characters": len(text),
    }


def hostile() -> dict[str, Any]:
    """The time to read a hostile record: 2000 empty steps (each the present again) over
    a present of 20,000 log lines and 200 combatants."""
    import json
    import time

    from ruleslab.encounter.stored import history_from_dict, history_to_dict

    data = json.loads(json.dumps(history_to_dict(long_aberrant(turns=1), 0)))
    enc = data["encounter"]
    enc["log"] = [["", ""]] * 20_000
    enc["combatants"] = [{**enc["combatants"][i % 6], "key": f"k{i}"} for i in range(200)]
    enc["order"], enc["place"] = [], 0
    text = json.dumps({"encounter": enc, "past": [{}] * 2000})
    start = time.perf_counter()
    back = history_from_dict(enc, [{}] * 2000, [])
    took = time.perf_counter() - start
    assert len(back.past) == 2000
    return {"fight": "hostile: 2000 empty steps", "characters": len(text), "read (s)": took}


def main() -> None:
    for name, ruleset, history in (
        ("2.1, 10 turns, 6 combatants", "2.1", long_aberrant()),
        ("Chimera, 10 rounds, 6 fighters", "chimera", long_chimera()),
    ):
        for label, h in ((name, history), (f"{name}, 50 undone", _undone(history, 50))):
            print(figures(label, ruleset, h))
    print(hostile())


def _undone(history: History[Any], n: int) -> History[Any]:
    for _ in range(n):
        history = undo(history)
    return history


if __name__ == "__main__":
    main()
