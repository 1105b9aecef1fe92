"""What a tracker asks of a Chimera fight beside the rules' changes: the site's dice
(seeded, as "Roll it" does), a combatant joining, and the GM's marks.

Chimera combat › Combat:

    Attacks are made with a Fight or Shoot roll against a Target Number equal to your
    foe's adjusted Movement Rate … If the attack succeeds, the defender is hit, and the
    attacker rolls the weapon's damage die (2 dice if the attack is a Critical Success).

:func:`seeded_attack` rolls that attack with the odds' TN and modifier
(:func:`ruleslab.encounter.chimera.odds`) and the weapon's dice
(:func:`ruleslab.chimera.play.rolled_damage`); its result goes to
:func:`~ruleslab.encounter.chimera.resolve_attack` like the table's own dice.
:func:`seeded_blast` rolls a blast at everyone in its area (each one's Resistance Roll,
the blast's damage rolled once), for :func:`~ruleslab.encounter.chimera.resolve_blast`.
:func:`seeded_die` is the action die of a Resistance Roll (morale, a Killer Blow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

from ruleslab.chimera.action import ACTION_DICE
from ruleslab.chimera.attack import Fighter
from ruleslab.chimera.play import action_roll, blast_at, rolled_damage
from ruleslab.chimera.sections import COMBAT, COMBAT_ACTIONS
from ruleslab.chimera.wounds import FATES
from ruleslab.encounter.chimera import odds
from ruleslab.encounter.chimera_state import (
    ChimeraCombatant,
    ChimeraEncounter,
    find,
    still_open,
)
from ruleslab.encounter.log import Change, EncounterError, logged, people_of, put_keyed
from ruleslab.explain import Step

__all__ = [
    "FATES",
    "Fighter",
    "RolledAttack",
    "RolledBlast",
    "die_range",
    "join",
    "mark_hidden",
    "mark_leader",
    "seeded_attack",
    "seeded_blast",
    "seeded_die",
]
"""(``Fighter``, a combatant's record, and ``FATES``, the victor's choices, are the
tracker's to offer: :mod:`ruleslab.chimera.fighter`, :mod:`ruleslab.chimera.wounds`.)"""


@dataclass(frozen=True)
class RolledAttack:
    """An attack the site rolled: ``hit``, the ``damage_roll`` (0 on a miss) and the
    rolls in words (``text``)."""

    hit: bool
    damage_roll: int
    text: str


def seeded_attack(enc: ChimeraEncounter, attacker: str, target: str, seed: int) -> RolledAttack:
    """``attacker``'s Fight or Shoot roll at ``target`` against the TN of :func:`odds`, and
    on a hit the weapon's damage (two dice on a Critical Success), from ``seed``."""
    a = find(enc, attacker).fighter
    if a.kind == "blast":
        raise EncounterError("attacker", f"{a.name} blasts: roll the blast at those in its area.")
    o = odds(enc, attacker, target)
    tn, modifier = o.tn or 0, o.modifier or 0
    rng = Random(seed)
    faces, total, ok, crit = action_roll(rng, enc.rules, modifier, tn)
    head = (
        f"{a.name} {a.verb}s (rolled by the site): {'+'.join(map(str, faces))} "
        f"{modifier:+d} = {total} vs TN {tn}"
    )
    if not ok:
        return RolledAttack(False, 0, f"{head}: miss")
    value, how = rolled_damage(rng, enc.rules, a, crit)
    hit = "a Critical Success" if crit else "hit"
    return RolledAttack(True, value, f"{head}: {hit}; damage {how} = {value}")


@dataclass(frozen=True)
class RolledBlast:
    """A blast the site rolled: the damage each fighter in its area takes (``taken``, in
    the area's order: 0 if it missed him or he avoided it) and the rolls in words."""

    taken: tuple[tuple[str, int], ...]
    text: str


def seeded_blast(
    enc: ChimeraEncounter, attacker: str, targets: Sequence[str], seed: int
) -> RolledBlast:
    """``attacker``'s blast at everyone in ``targets``, from ``seed``: for each, the roll to
    land it (the fight's ``blast_roll`` reading), his Resistance Roll against the Blast TN
    (:func:`ruleslab.chimera.play.blast_at`, RN-CHIM-7), and the weapon's damage if he fails
    (or halves it). The blast's damage is rolled once and taken by each who fails (two dice
    on a Critical Success, rolled once too): rules note RN-TRACK-16."""
    a = find(enc, attacker)
    if a.fighter.kind != "blast":
        raise EncounterError("attacker", f"{a.name} does not blast: he {a.fighter.verb}s.")
    if not targets:
        raise EncounterError("target", "The blast's area: at least one fighter in it.")
    rng = Random(seed)
    rolled: dict[bool, tuple[int, str]] = {}

    def damage(att: Fighter, crit: bool) -> tuple[int, str]:
        if crit not in rolled:
            rolled[crit] = rolled_damage(rng, enc.rules, att, crit)
        return rolled[crit]

    taken: list[tuple[str, int]] = []
    said: list[str] = []
    for key in targets:
        t = find(enc, key)
        value, _, text = blast_at(
            rng, enc.rules, a.fighter, t.fighter, (a.wounds, t.wounds), a.ar_bonus, damage
        )
        taken.append((t.key, value or 0))
        said.append(text)
    return RolledBlast(tuple(taken), f"(rolled by the site, seed {seed}) " + "; ".join(said))


def seeded_die(enc: ChimeraEncounter, seed: int) -> int:
    """The fight's action die (``rules.action_die``), rolled from ``seed``: the natural
    roll of a Resistance Roll (morale, a Killer Blow)."""
    count, sides = ACTION_DICE[enc.rules.action_die]
    rng = Random(seed)
    return sum(rng.randint(1, sides) for _ in range(count))


def die_range(enc: ChimeraEncounter) -> tuple[int, int]:
    """The lowest and highest natural roll of the fight's action die."""
    count, sides = ACTION_DICE[enc.rules.action_die]
    return count, count * sides


def join(enc: ChimeraEncounter, newcomer: ChimeraCombatant) -> Change[ChimeraEncounter]:
    """``newcomer`` joins the fight (his key unique); in a round already begun he rolls
    initiative with everyone at the next round's start."""
    still_open(enc)
    people = people_of((*enc.combatants, newcomer))
    line = Step(f"{newcomer.name} joins the fight ({newcomer.side})", COMBAT)
    return logged(enc, [line], combatants=people)


def mark_hidden(enc: ChimeraEncounter, key: str, hidden: bool) -> Change[ChimeraEncounter]:
    """``key`` hidden from the players' view (his name and wounds), or shown again."""
    c = replace(find(enc, key), hidden=hidden)
    line = Step(
        f"{c.name} {'hidden from' if hidden else 'shown in'} the players' view", COMBAT_ACTIONS
    )
    return logged(enc, [line], combatants=put_keyed(enc.combatants, c))


def mark_leader(enc: ChimeraEncounter, key: str, leader: bool) -> Change[ChimeraEncounter]:
    """``key`` marked as his side's leader (his fall calls a morale check, RN-CHIM-18), or not."""
    still_open(enc)
    c = replace(find(enc, key), leader=leader)
    what = "leads" if leader else "no longer leads"
    line = Step(f"{c.name} {what} his side ({c.side})", COMBAT)
    return logged(enc, [line], combatants=put_keyed(enc.combatants, c))
