"""One burst at several targets: a strafe, typed from the table's dice or rolled by the site.

Quick reference › Ranged Attack Maneuvers › Strafing:

    An autofire/burst attack may target multiple foes, adding +1 difficulty for every
    additional target, but applyies the results against all targets. A single attack may
    not target more enemies than it uses rounds of ammunition.

The strafe is one of the attacker's actions and one roll (his pool, with the burst's
Accuracy, his squad's dice, less his wound penalty, as :mod:`.attack_roll` rolls it); "the
results" are its successes, held against each target's own difficulty: the base one, the
attacker's conditions, +1 for each target after the first and, in 2.1, that target's
Defense, each worn down by 1 (a strafe is one attack against each, RN-DEF-3). The rounds
it fires are counted once (:func:`~ruleslab.encounter.ammunition.spend_ammunition`); only
a burst, or a Burst(X) weapon's single shot of X rounds, strafes (RN-RANGED-10). The
damage of each hit is then typed or rolled for each target ("Roll damage"), each with
its own extra successes. Rules note RN-TRACK-19.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

from ruleslab.dice import roll_pool
from ruleslab.encounter.aberrant import COMBAT_20, attack_setup
from ruleslab.encounter.ammunition import burst_bonus, spend_ammunition
from ruleslab.encounter.attack_roll import attack_dice
from ruleslab.encounter.log import Change, EncounterError, whole_in
from ruleslab.encounter.state import (
    Encounter,
    current,
    defense_now,
    done,
    find,
    put,
    still_open,
)
from ruleslab.explain import Step
from ruleslab.quickref.autofire import STRAFING
from ruleslab.quickref.defence import DEFENSES
from ruleslab.ruleset import V21

__all__ = ["StrafeRoll", "roll_strafe", "strafe", "strafe_needs"]


def _targets(enc: Encounter, attacker: str, targets: Sequence[str]) -> tuple[str, ...]:
    keys = tuple(targets)
    if len(keys) < 2 or len(set(keys)) != len(keys):
        raise EncounterError("targets", "A strafe: two or more different targets.")
    for key in keys:
        if key == attacker:
            raise EncounterError("targets", f"{find(enc, key).name} cannot strafe himself.")
        find(enc, key)
    return keys


def strafe_needs(
    enc: Encounter, attacker: str, targets: Sequence[str], difficulty: int = 1
) -> dict[str, int]:
    """The successes each target needs: the base ``difficulty``, the attacker's conditions,
    +1 for each target after the first and, in 2.1, the target's Defense."""
    keys = _targets(enc, attacker, targets)
    more = len(keys) - 1
    out = {}
    for key in keys:
        s = attack_setup(enc, attacker, key)
        out[key] = difficulty + s.added_difficulty + more + s.defense
    return out


@dataclass(frozen=True)
class StrafeRoll:
    """One seeded roll of a strafe: the ``dice`` rolled, their ``faces``, the
    ``successes`` and whether it botched, and its log line."""

    seed: int
    dice: int
    faces: tuple[int, ...]
    successes: int
    botch: bool
    step: Step


def roll_strafe(
    enc: Encounter,
    attacker: str,
    targets: Sequence[str],
    *,
    pool: int,
    seed: int,
    burst: str = "",
    burst_use: str = "accuracy",
) -> StrafeRoll:
    """The strafe's one roll with ``random.Random(seed)``: ``pool`` dice (before the fight's
    penalties), the burst's Accuracy and a squad's dice added, the wound penalty taken off."""
    whole_in(pool, "Attack pool", 0, 60)
    keys = _targets(enc, attacker, targets)
    bonus = burst_bonus(burst, burst_use, enc.burst_damage)
    setup = attack_setup(enc, attacker, keys[0])
    dice, parts = attack_dice(setup, pool, bonus)
    roll = roll_pool(dice, rng=Random(seed))
    faces = ", ".join(map(str, roll.faces)) or "no dice"
    said = "a botch (no success, a 1)" if roll.botch else f"{roll.successes} successes"
    a = find(enc, attacker)
    text = (
        f"{a.name} rolls the strafe (seed {seed}): {' '.join(parts)} = {dice} dice: {faces}: {said}"
    )
    return StrafeRoll(seed, dice, roll.faces, roll.successes, roll.botch, Step(text, COMBAT_20))


def strafe(
    enc: Encounter,
    attacker: str,
    targets: Sequence[str],
    *,
    successes: int | None = None,
    difficulty: int = 1,
    burst: str = "",
    burst_use: str = "accuracy",
    rounds: int = 0,
    pool: int | None = None,
    seed: int | None = None,
) -> Change[Encounter]:
    """``attacker``'s strafe at ``targets`` (in order), its ``successes`` as the table's
    dice gave them, or rolled by the site from ``pool`` with ``seed``
    (:func:`roll_strafe`), against the base ``difficulty``: each target hit whose own
    difficulty the successes meet; his action taken, the rounds fired counted down, each
    target's 2.1 Defense worn down."""
    still_open(enc)
    keys = _targets(enc, attacker, targets)
    whole_in(difficulty, "Base difficulty", 1, 20)
    rolled = None
    if seed is not None:
        rolled = roll_strafe(
            enc, attacker, keys, pool=pool or 0, seed=seed, burst=burst, burst_use=burst_use
        )
        successes = 0 if rolled.botch else rolled.successes
    successes = whole_in(successes, "Successes", 0, 60)
    bonus = burst_bonus(burst, burst_use, enc.burst_damage)
    a = find(enc, attacker)
    now = current(enc)
    if now is None or now.key != a.key:  # (rules note RN-TRACK-1)
        whose = f"It is {now.name}'s action" if now else "Roll or enter initiative first"
        raise EncounterError("attacker", f"{whose}, not {a.name}'s.")
    setups = {key: attack_setup(enc, attacker, key) for key in keys}
    needs = strafe_needs(enc, attacker, keys, difficulty)
    spent, ammo_lines = spend_ammunition(a, burst, rounds)
    if not burst and spent < 2:
        raise EncounterError(
            "Fires", "A strafe is an autofire or burst attack: fire a burst, or a Burst(X) shot."
        )
    if len(keys) > spent:
        raise EncounterError(
            "targets",
            f"Targets (strafing): a single attack may not target more enemies than it uses "
            f"rounds of ammunition ({spent} here), so at most {spent}.",
        )
    more = len(keys) - 1
    first = setups[keys[0]]
    lines = [*ammo_lines, *bonus.steps]
    if rolled is not None:
        lines.insert(0, rolled.step)
    lines.append(
        Step(
            f"{a.name} strafes {len(keys)} targets (action {first.action}): +1 difficulty for "
            f"each target after the first, +{more}; one roll, {successes} "
            f"success{'es' if successes != 1 else ''}, held against each",
            STRAFING,
        )
    )
    people = [replace(a, acted=a.acted + 1, ammo=None if a.ammo is None else a.ammo - spent)]
    for key in keys:
        s, t = setups[key], find(enc, key)
        need = needs[key]
        hit = successes >= need
        defense = f" +{s.defense} (his Defense)" if enc.ruleset == V21 else ""
        verdict = f"a hit, {successes - need} extra" if hit else "a miss"
        lines.append(
            Step(
                f"{t.name}: difficulty base {difficulty} +{s.added_difficulty} (the attacker's "
                f"conditions) +{more} (strafing){defense} = {need}: {verdict}",
                DEFENSES if enc.ruleset == V21 else COMBAT_20,
            )
        )
        t2 = replace(t, attacks_against=t.attacks_against + 1)
        if enc.ruleset == V21:
            worn = defense_now(enc, t2)
            lines.append(
                Step(f"{t.name}'s Defense is worn down to +{worn} for the next attack", DEFENSES)
            )
        people.append(t2)
    return done(enc, lines, combatants=put(enc, *people))
