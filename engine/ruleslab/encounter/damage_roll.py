"""An attack's damage rolled by the site: "Roll damage", seeded, after a hit.

The rules are the engine's own, called, not restated here:

    Devastating (X): The weapon deals (X) additional damage per net attack success after
    the first instead of just +1. (Weapon Tags)

(:func:`ruleslab.quickref.attack.per_extra_success`: without the tag each extra success is
one more damage die, RN-RANGED-3, or the fight's ``extra_successes`` reading; the extra
successes are those beyond the difficulty,
RN-RANGED-4);

    Natural Character Soak is by default (Quantum + Stamina + Mega-Stamina)
    Bashing/(Quantum + Stamina/2 + Mega-Stamina) Lethal/(Quantum/2) Aggravated.
    (2.0 Rules › Soak)

(:func:`ruleslab.quickref.soak.natural_soak_of`, the target's record: RN-SOAK-4; his armour
soak typed, as the record holds none);

    Soak: Characters subtract soak from damage dice, not damage adds. Damage adds apply if
    the attack deals at least one die of damage after soak.
    Ping: If an attack fails to penetrate soak, it deals 1 die of ping damage of one lower
    type. (2.0 Rules › Combat)

(:func:`ruleslab.quickref.damage.damage_taken`: the dice left, the adds that apply, the ping
die, and the exact odds shown before the roll; :func:`ruleslab.quickref.damage.dazing` the
chance the levels Daze or Stun him this turn). The dice left (or the ping die) are rolled
once with ``random.Random(seed)`` (:func:`ruleslab.dice.roll_pool`: each die at 7 or more
one health level, RN-DMG-1), so the same seed replays the same faces; the seed is logged.
The levels go on the target's track (:func:`ruleslab.encounter.aberrant.apply_damage`: a
squad's henchmen first, Dazed and Stunned). A squad leader's henchmen add +1 damage die
each (the dice of RN-HENCH-11). A burst fired for its Damage adds its "+[1]" (one add a
step, RN-RANGED-1: :func:`ruleslab.encounter.ammunition.burst_bonus`); on a squad the
area multiplier multiplies the henchmen it takes out (RN-TRACK-5). Rules notes
RN-TRACK-15, RN-TRACK-17.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random

from ruleslab.dice import roll_pool
from ruleslab.encounter.aberrant import Damage, apply_damage, find, squad_bonus
from ruleslab.encounter.ammunition import burst_bonus
from ruleslab.encounter.log import Change, EncounterError, whole_in
from ruleslab.encounter.state import Encounter, still_open
from ruleslab.explain import Step
from ruleslab.quickref.attack import per_extra_success
from ruleslab.quickref.damage import (
    ATTACK_KINDS,
    COMBAT_SOAK,
    PING,
    DamageTaken,
    Dazing,
    damage_taken,
    dazing,
)
from ruleslab.quickref.soak import natural_soak_of
from ruleslab.quickref.weapon import Weapon as WeaponRecord
from ruleslab.quickref.weapons import Weapon

__all__ = [
    "ATTACK_KINDS",
    "MAX_EXTRA",
    "DamageRoll",
    "DamageSetup",
    "Weapon",
    "damage_odds",
    "damage_setup",
    "roll_damage",
    "rolled_damage",
    "weapon_of",
]

MAX_EXTRA = 60
"""The most extra successes :func:`damage_setup` takes (an attack pool is at most 60 dice)."""


def weapon_of(*, damage_dice: int, damage_adds: int, damage_type: str, tags: str = "") -> Weapon:
    """The weapon as the GM types it (its damage dice [adds], type and tags: AP,
    Devastating), each field checked as the Autofire form checks it (its messages name
    the field); the weapon the damage rules take. (``ATTACK_KINDS``: the damage types.)"""
    return WeaponRecord(
        damage_dice=damage_dice, damage_adds=damage_adds, damage_type=damage_type, tags=tags
    ).stats()


@dataclass(frozen=True)
class DamageSetup:
    """The damage of ``attacker``'s hit on ``target`` before it is rolled: the damage
    ``dice`` and ``adds`` (the weapon's, the extra successes', a squad's), its ``kind``,
    the target's ``natural`` and ``armour`` soak and the weapon's Armor Piercing ``ap``,
    and the steps saying where each came from."""

    dice: int
    adds: int
    kind: str
    natural: int
    armour: int
    ap: int
    steps: tuple[Step, ...]

    def taken(self) -> DamageTaken:
        """The exact health levels it takes off him (the engine's damage resolution)."""
        return damage_taken(
            dice=self.dice,
            adds=self.adds,
            kind=self.kind,
            natural_soak=self.natural,
            armour_soak=self.armour,
            armour_piercing=self.ap,
        )


def damage_setup(
    enc: Encounter,
    attacker: str,
    target: str,
    weapon: Weapon,
    *,
    extra: int = 0,
    armour_soak: int = 0,
    natural_soak: int | None = None,
    burst: str = "",
) -> DamageSetup:
    """The damage of ``attacker``'s hit with ``weapon`` on ``target`` with ``extra``
    successes beyond the difficulty (and the Damage of the autofire ``burst`` he fired
    for it): his natural soak from his record (``natural_soak`` given: the GM's figure,
    which a squad with henchmen left needs, the most numerous henchman type's,
    RN-RANGED-18), his ``armour_soak`` as typed."""
    whole_in(extra, "Extra successes", 0, MAX_EXTRA)
    whole_in(armour_soak, "Armour soak", 0, 200)
    bonus = burst_bonus(burst, "damage", enc.burst_damage)
    a, t = find(enc, attacker), find(enc, target)
    kind = weapon.damage_type
    per_dice, per_adds, per_step = per_extra_success(weapon, enc.extra_successes)
    steps = [per_step]
    dice = weapon.damage_dice + per_dice * extra
    adds = weapon.damage_adds + per_adds * extra
    parts = f"weapon {weapon.damage_dice} [{weapon.damage_adds}] {kind}"
    if extra:
        parts += f" + {extra} extra success{'es' if extra != 1 else ''}"
    if burst:
        dice += bonus.damage_dice
        adds += bonus.damage_adds
        got = f"{bonus.damage_dice}" if bonus.damage_dice else f"[{bonus.damage_adds}]"
        parts += f" + {got} ({bonus.label}'s Damage)"
        steps.extend(bonus.steps)
    if a.henchmen:
        squad = squad_bonus(a)
        dice += squad.damage
        parts += f" + {squad.damage} (his henchmen, a die each: RN-HENCH-11)"
    steps.append(
        Step(f"{a.name}'s damage on {t.name}: {parts} = {dice} dice [{adds}]", COMBAT_SOAK)
    )
    if natural_soak is None:
        if t.henchmen:
            raise EncounterError(
                "natural_soak",
                f"{t.name}'s soak is his henchmen's (the most numerous type's): type it.",
            )
        ch = t.character
        natural, step = natural_soak_of(kind, ch.quantum, ch.stamina, ch.mega_stamina, whose=t.name)
        steps.append(step)
    else:
        natural = whole_in(natural_soak, "Natural soak", 0, 200)
        whose = f"{t.name}'s henchmen's" if t.henchmen else f"{t.name}'s"
        steps.append(Step(f"Natural soak {natural}: {whose}, as typed (RN-SOAK-4)", COMBAT_SOAK))
    return DamageSetup(dice, adds, kind, natural, armour_soak, weapon.armour_piercing, tuple(steps))


def damage_odds(setup: DamageSetup, enc: Encounter, target: str) -> tuple[DamageTaken, Dazing]:
    """The odds before the roll: the exact levels it takes off ``target`` and the chance
    they Daze or Stun him this turn, with the levels he has taken this turn already."""
    t = find(enc, target)
    taken = setup.taken()
    daze = dazing(
        taken,
        stamina=t.character.stamina,
        mega_stamina=t.character.mega_stamina,
        taken_this_turn=t.taken_this_turn,
    )
    return taken, daze


@dataclass(frozen=True)
class DamageRoll:
    """One seeded damage roll: the ``faces`` of the dice left after soak (or the ping die),
    the health ``levels`` of kind ``kind`` they and the adds deal, and the log lines."""

    seed: int
    faces: tuple[int, ...]
    levels: int
    kind: str
    steps: tuple[Step, ...]

    def damage(self) -> Damage:
        """The levels as the track takes them (at most 200 of a kind, as it holds them:
        far more than any track's boxes)."""
        return Damage(**{self.kind: min(200, self.levels)}) if self.levels else Damage()


def roll_damage(setup: DamageSetup, seed: int, who: str = "The attacker") -> DamageRoll:
    """The damage of ``setup`` rolled once with ``random.Random(seed)``: the dice left after
    soak, each at 7 or more one level, plus the adds if a die was left; none left: the ping
    die of the lower kind (stun: nothing), as :func:`~ruleslab.quickref.damage.damage_taken`
    resolves it."""
    taken = setup.taken()
    count = taken.dice_after_soak or (1 if taken.pinged else 0)
    roll = roll_pool(count, rng=Random(seed))
    levels = roll.successes + taken.adds_applied
    faces = ", ".join(map(str, roll.faces)) or "no die"
    soak = f"soak {taken.soak}"
    if taken.pinged:
        how = f"no die left after {soak}: the ping die ({taken.kind_dealt}): {faces}"
        rule_ = PING
    elif count:
        plus = f", + {taken.adds_applied} add{'s' if taken.adds_applied != 1 else ''}"
        how = f"{count} dice left after {soak}: {faces}: {roll.successes} at 7+"
        how += plus if taken.adds_applied else ""
        rule_ = COMBAT_SOAK
    else:
        how = f"no die left after {soak}; stun has no lower kind to ping (RN-DMG-5)"
        rule_ = PING
    text = (
        f"{who} rolls damage (seed {seed}): {setup.dice} dice [{setup.adds}] {setup.kind}, "
        f"{how} = {levels} {taken.kind_dealt} level{'s' if levels != 1 else ''} (RN-DMG-1)"
    )
    steps = (*setup.steps, *taken.steps[:-1], Step(text, rule_))
    return DamageRoll(seed, roll.faces, levels, taken.kind_dealt, steps)


def rolled_damage(
    enc: Encounter,
    attacker: str,
    target: str,
    weapon: Weapon,
    *,
    seed: int,
    extra: int = 0,
    armour_soak: int = 0,
    natural_soak: int | None = None,
    area: int = 1,
    burst: str = "",
) -> Change[Encounter]:
    """The damage of ``attacker``'s hit on ``target`` (already resolved: this takes no
    action) rolled by the site (:func:`roll_damage`) and put on his track
    (:func:`~ruleslab.encounter.aberrant.apply_damage`); the log says the roll,
    its seed in it, after the damage's make-up and the soak's source (``area``: the area
    multiplier on a squad, ``burst``: a burst fired for its Damage)."""
    still_open(enc)
    setup = damage_setup(
        enc,
        attacker,
        target,
        weapon,
        extra=extra,
        armour_soak=armour_soak,
        natural_soak=natural_soak,
        burst=burst,
    )
    roll = roll_damage(setup, seed, find(enc, attacker).name)
    said = (*setup.steps[1:], roll.steps[-1])  # (what it is, whose soak, the roll)
    if not roll.levels:
        return Change(replace(enc, log=(*enc.log, *said)), said)
    after = apply_damage(enc, target, roll.damage(), area=area)
    lines = (*said, *after.lines)
    return Change(replace(after.encounter, log=(*enc.log, *lines)), lines)
