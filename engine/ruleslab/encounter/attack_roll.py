"""An attack rolled by the site: "Roll it", as the calculators roll, for the tracker.

The attack's pool is the GM's (his attribute + ability, the weapon's accuracy); what the
fight adds to it is the encounter's (:func:`ruleslab.encounter.aberrant.attack_setup`):

    Dazed characters are at +1 difficulty to all actions, Stunned ones suffer +1
    difficulty to all actions … (2.0 Rules › Combat › Dazing/Stunning)

    Their Defense score adds to the difficulty of attacks against them … (2.1 Rules ›
    Defenses)

    Every additional action past the first adds a cumulative +1 difficulty penalty
    rather than subtracting dice. (2.1 Rules › Multiple Actions)

and the wound penalty takes dice off the pool (2.1 Rules › Health Levels), a squad's
henchmen add theirs (Combat alterations › Henchmen › Dice Pool), and a burst fired for
its Accuracy its dice ("Short Bursts: +2 Accuracy or +[1] Damage",
:func:`ruleslab.encounter.ammunition.burst_bonus`). The pool is rolled once
with ``random.Random(seed)`` (:func:`ruleslab.dice.roll_pool`: each die at 7 or more a
success; the difficulty the successes needed), so the same seed replays the same faces;
the seed is logged. The attack is then resolved as the roll says
(:func:`ruleslab.encounter.aberrant.resolve_attack`), the levels typed (after soak)
applied on a hit, the rounds fired counted down. Rules notes RN-TRACK-14, RN-TRACK-17.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random

from ruleslab.dice import roll_pool
from ruleslab.encounter.aberrant import (
    COMBAT_20,
    NO_DAMAGE,
    AttackSetup,
    Damage,
    attack_setup,
    find,
    resolve_attack,
)
from ruleslab.encounter.ammunition import burst_bonus
from ruleslab.encounter.log import Change, whole_in
from ruleslab.encounter.state import Encounter
from ruleslab.explain import Step
from ruleslab.quickref.attack import Maneuver

__all__ = ["AttackRoll", "attack_dice", "roll_attack", "rolled_attack"]


@dataclass(frozen=True)
class AttackRoll:
    """One seeded roll of an attack: the ``dice`` rolled (the pool less the wound penalty,
    plus a squad's dice), the ``difficulty`` (the base one plus the fight's), each die's
    ``faces``, the ``successes``, whether it ``hit`` or botched, and its log lines."""

    seed: int
    dice: int
    difficulty: int
    faces: tuple[int, ...]
    successes: int
    hit: bool
    botch: bool
    steps: tuple[Step, ...]

    @property
    def extra(self) -> int:
        """The successes beyond the difficulty on a hit (0 on a miss): each adds to the
        damage (rules notes RN-RANGED-3, RN-RANGED-4; ``damage_roll.rolled_damage``)."""
        return self.successes - self.difficulty if self.hit else 0


def attack_dice(setup: AttackSetup, pool: int, bonus: Maneuver) -> tuple[int, list[str]]:
    """The dice an attack rolls: ``pool`` (the GM's), a burst's Accuracy (``bonus``), a
    squad's dice, less the wound penalty; and the parts of that sum, in words."""
    dice = max(0, pool + bonus.accuracy + setup.squad_dice - setup.wound_penalty)
    parts = [f"pool {pool}"]
    if bonus.accuracy:
        parts.append(f"+ {bonus.accuracy} ({bonus.label}'s Accuracy)")
    if setup.wound_penalty:
        parts.append(f"− {setup.wound_penalty} (wounds)")
    if setup.squad_dice:
        parts.append(f"+ {setup.squad_dice} (henchmen)")
    return dice, parts


def roll_attack(
    enc: Encounter,
    attacker: str,
    target: str,
    *,
    pool: int,
    difficulty: int = 1,
    seed: int,
    burst: str = "",
    burst_use: str = "accuracy",
) -> AttackRoll:
    """``attacker``'s next attack on ``target`` rolled with ``random.Random(seed)``:
    ``pool`` dice (before the fight's penalties) against ``difficulty`` successes (before
    the fight's additions); an autofire ``burst`` fired for its ``burst_use``
    "accuracy" adds its dice."""
    whole_in(pool, "Attack pool", 0, 60)
    whole_in(difficulty, "Base difficulty", 1, 20)
    bonus = burst_bonus(burst, burst_use, enc.burst_damage)
    setup = attack_setup(enc, attacker, target)
    a, t = find(enc, attacker), find(enc, target)
    dice, parts = attack_dice(setup, pool, bonus)
    need = difficulty + setup.added_difficulty + setup.defense
    roll = roll_pool(dice, difficulty=need, rng=Random(seed))
    adds = [f"base {difficulty}"]
    if setup.added_difficulty:
        adds.append(f"+{setup.added_difficulty} (his conditions)")
    if setup.defense:
        adds.append(f"+{setup.defense} ({t.name}'s Defense)")
    faces = ", ".join(map(str, roll.faces)) or "no dice"
    verdict = (
        "a botch (no success, a 1): a miss"
        if roll.botch
        else f"{roll.successes} success{'es' if roll.successes != 1 else ''}: "
        + ("a hit" if roll.success else "a miss")
    )
    if roll.success and roll.successes > need:
        more = roll.successes - need
        verdict += f", {more} extra success{'es' if more != 1 else ''} for the damage"
    text = (
        f"{a.name} rolls the attack on {t.name} (seed {seed}): {' '.join(parts)} = {dice} "
        f"dice against difficulty {' '.join(adds)} = {need}: {faces}; {verdict}"
    )
    return AttackRoll(
        seed,
        dice,
        need,
        roll.faces,
        roll.successes,
        roll.success,
        roll.botch,
        (Step(text, COMBAT_20), *bonus.steps, *setup.steps),
    )


def rolled_attack(
    enc: Encounter,
    attacker: str,
    target: str,
    *,
    pool: int,
    difficulty: int = 1,
    seed: int,
    damage: Damage = NO_DAMAGE,
    area: int = 1,
    burst: str = "",
    burst_use: str = "accuracy",
    rounds: int = 0,
) -> Change[Encounter]:
    """The attack rolled (:func:`roll_attack`) and resolved as the roll says: a hit puts
    ``damage`` (levels after soak) on the target; the roll's line heads the log, the
    burst's choice after it; the ``burst``'s shots (or ``rounds`` fired) are counted down
    (:func:`~ruleslab.encounter.aberrant.resolve_attack`)."""
    roll = roll_attack(
        enc,
        attacker,
        target,
        pool=pool,
        difficulty=difficulty,
        seed=seed,
        burst=burst,
        burst_use=burst_use,
    )
    change = resolve_attack(
        enc,
        attacker,
        target,
        hit=roll.hit,
        damage=damage if roll.hit else NO_DAMAGE,
        area=area,
        burst=burst,
        burst_use=burst_use,
        rounds=rounds,
    )
    lines = (roll.steps[0], *change.lines)
    return Change(replace(change.encounter, log=(*enc.log, *lines)), lines)
