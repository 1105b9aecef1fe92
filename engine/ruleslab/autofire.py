"""Ranged attack maneuvers: autofire bursts and strafing, and the "Autofire & strafing" calculator.

Quick reference › Ranged Attack Maneuvers:

    Autofire:
      Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition.
      Medium Bursts: +4 Accuracy or +[2] Damage, 10 shots
      Long Bursts: +6 Accuracy or +[3] Damage, 20 shots
      Sustained Bursts: +10 Accuracy or +[5] Damage, 50 shots

    Strafing: An autofire/burst attack may target multiple foes, adding +1
    difficulty for every additional target, but applyies the results against
    all targets. A single attack may not target more enemies than it uses
    rounds of ammunition.

Quick reference › Weapon Tags › Burst(X): "Fires (X) rounds per single attack
rather than 1, allowing it to use autofire multiple-attack rules even with
"single shots"."

The attacker chooses accuracy or damage. "+[1] Damage" is one damage *add*
(bracketed numbers are adds: rules note RN-RANGED-1, option ``burst_damage``).
A Burst(X) weapon's autofire spends "shots/bursts": X rounds a shot (RN-RANGED-9,
option ``burst_weapon_ammo``). The attack itself is :func:`ruleslab.attack.resolve_attack`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.attack import (
    ABILITY,
    ACCURACY,
    AIRCRAFT_PENALTY,
    ARMOUR_SOAK,
    ATTRIBUTE,
    BASE_DIFFICULTY,
    DAMAGE_ADDS,
    DAMAGE_DICE,
    DAMAGE_TYPE,
    DODGE_POOL,
    DODGE_REROLLS,
    EXTRA_SUCCESSES,
    MEGA_ATTRIBUTE,
    NATURAL_SOAK,
    NET_FROM,
    RANGE_PENALTY,
    RULESET,
    SPECIALTY,
    TAGS,
    AttackResult,
    Maneuver,
    resolve_attack,
)
from ruleslab.explain import Explained, Figure, Step
from ruleslab.params import ChoiceParam, InputError, IntParam, checked
from ruleslab.sources import QR, rule
from ruleslab.weapons import Burst, Tag, Weapon, tag_rule

__all__ = [
    "AMMUNITION",
    "BURST",
    "BURSTS",
    "BURST_DAMAGE",
    "BURST_USE",
    "BURST_WEAPON_AMMO",
    "TARGETS",
    "AutofireReport",
    "BurstSize",
    "autofire_and_strafing",
    "autofire_maneuver",
    "rounds_used",
]

AUTOFIRE = rule(QR, "Ranged Attack Maneuvers", "Autofire")
STRAFING = rule(QR, "Ranged Attack Maneuvers", "Strafing")


@dataclass(frozen=True)
class BurstSize:
    """One autofire line: "+<accuracy> Accuracy or +[<damage>] Damage, <shots> shots"."""

    key: str
    name: str
    accuracy: int
    damage: int
    shots: int


BURSTS: dict[str, BurstSize] = {
    b.key: b
    for b in (
        BurstSize("short", "Short Bursts", 2, 1, 3),
        BurstSize("medium", "Medium Bursts", 4, 2, 10),
        BurstSize("long", "Long Bursts", 6, 3, 20),
        BurstSize("sustained", "Sustained Bursts", 10, 5, 50),
    )
}
"""The text's table, by key."""

BURST = ChoiceParam(
    "burst",
    "Autofire",
    default="short",
    choices=(
        ("none", "None (single shot)"),
        ("short", "Short burst (+2 Acc or +[1] Dmg, 3 shots)"),
        ("medium", "Medium burst (+4 Acc or +[2] Dmg, 10 shots)"),
        ("long", "Long burst (+6 Acc or +[3] Dmg, 20 shots)"),
        ("sustained", "Sustained burst (+10 Acc or +[5] Dmg, 50 shots)"),
    ),
    help="The burst fired, if any: each gives an accuracy or a damage bonus and uses ammunition.",
)
BURST_USE = ChoiceParam(
    "burst_use",
    "Burst bonus goes to",
    default="accuracy",
    choices=(("accuracy", "Accuracy"), ("damage", "Damage")),
    help="The attacker chooses: the burst's accuracy bonus (dice) or its damage bonus.",
)
TARGETS = IntParam(
    "targets",
    "Targets (strafing)",
    default=1,
    minimum=1,
    maximum=50,
    help=(
        "Foes the attack strafes: +1 difficulty per target after the first; one roll applies "
        "to all. No more targets than rounds the attack uses."
    ),
)
AMMUNITION = IntParam(
    "ammunition",
    "Ammunition available",
    unit="rounds",
    default=30,
    minimum=0,
    maximum=10_000,
    help="Rounds left in the weapon: the attack cannot use more.",
)
BURST_DAMAGE = ChoiceParam(
    "burst_damage",
    "Burst “+[X] Damage” is",
    default="adds",
    choices=(("adds", "X damage adds"), ("dice", "X damage dice")),
    help=(
        "The text writes the damage bonus in brackets, as in “Devastating (5 [2]) … +5 damage "
        "and an extra 2 damage adds”: bracketed numbers are adds (default). See rules note "
        "RN-RANGED-1."
    ),
)
BURST_WEAPON_AMMO = ChoiceParam(
    "burst_weapon_ammo",
    "Autofire with a Burst(X) weapon uses",
    default="bursts",
    choices=(("bursts", "Shots × X rounds"), ("rounds", "Shots as rounds")),
    help=(
        "“3 shots/bursts worth of ammunition”: for a Burst(X) weapon each shot is a burst of X "
        "rounds (default), or the burst counts rounds only. See rules note RN-RANGED-9."
    ),
)


def rounds_used(
    burst: str, rounds_per_attack: int, burst_weapon_ammo: str = "bursts"
) -> tuple[int, Step]:
    """Rounds an attack uses, and the step saying why.

    No burst: one attack's rounds (X for a Burst(X) weapon, else 1). A burst:
    its shots, each a burst of X rounds for a Burst(X) weapon under the default
    reading ("3 shots/bursts worth of ammunition").
    """
    if burst == "none":
        if rounds_per_attack > 1:
            text = (
                f"Single shot of a Burst({rounds_per_attack}) weapon: {rounds_per_attack} rounds "
                "(rules note RN-RANGED-10)"
            )
            return rounds_per_attack, Step(text, tag_rule(Burst))
        return 1, Step("Single shot: 1 round", AUTOFIRE)
    size = BURSTS[burst]
    if rounds_per_attack > 1 and burst_weapon_ammo == "bursts":
        n = size.shots * rounds_per_attack
        text = (
            f"{size.name}: {size.shots} bursts of {rounds_per_attack} rounds = {n} rounds "
            "(“shots/bursts worth of ammunition”, rules note RN-RANGED-9)"
        )
        return n, Step(text, AUTOFIRE)
    return size.shots, Step(f"{size.name}: {size.shots} rounds", AUTOFIRE)


def autofire_maneuver(
    *,
    burst: str,
    burst_use: str,
    targets: int,
    ammunition: int,
    rounds_per_attack: int = 1,
    burst_damage: str = "adds",
    burst_weapon_ammo: str = "bursts",
) -> tuple[Maneuver, int]:
    """The autofire/strafing :class:`~ruleslab.attack.Maneuver` and the rounds it uses.

    Raises :class:`InputError` naming ``ammunition`` when fewer rounds are left
    than the attack uses, and naming ``targets`` when there are more targets
    than rounds used ("A single attack may not target more enemies than it uses
    rounds of ammunition").
    """
    used, ammo_step = rounds_used(burst, rounds_per_attack, burst_weapon_ammo)
    steps: list[Step] = []
    accuracy = dice = adds = 0
    label = "single shot"
    if burst != "none":
        size = BURSTS[burst]
        label = size.name[:-1].lower()  # "short burst"
        if burst_use == "accuracy":
            accuracy = size.accuracy
            text = f"{size.name}: +{size.accuracy} Accuracy (chosen over +[{size.damage}] Damage)"
        else:
            if burst_damage == "adds":
                adds = size.damage
                what = f"+{size.damage} damage adds"
            else:
                dice = size.damage
                what = f"+{size.damage} damage dice"
            text = (
                f"{size.name}: +[{size.damage}] Damage = {what} (chosen over +{size.accuracy} "
                "Accuracy; rules note RN-RANGED-1)"
            )
        steps.append(Step(text, AUTOFIRE))
    elif rounds_per_attack > 1:
        steps.append(
            Step(
                f"A Burst({rounds_per_attack}) single shot may strafe like autofire but gets no "
                "burst bonus (rules note RN-RANGED-10)",
                tag_rule(Burst),
            )
        )
    steps.append(ammo_step)
    if ammunition < used:
        raise InputError(
            "ammunition",
            f"{AMMUNITION.label}: this attack uses {used} rounds but only {ammunition} are "
            "available.",
        )
    steps.append(
        Step(f"Ammunition: {used} of {ammunition} rounds used (rules note RN-RANGED-11)", AUTOFIRE)
    )
    if targets > used:
        raise InputError(
            "targets",
            f"{TARGETS.label}: a single attack may not target more enemies than it uses rounds "
            f"of ammunition ({used} here), so at most {used}.",
        )
    extra = targets - 1
    if targets > 1:
        steps.append(
            Step(
                f"Strafing {targets} targets: +1 difficulty for each of the {extra} additional "
                f"targets = +{extra}; {targets} targets ≤ {used} rounds used",
                STRAFING,
            )
        )
    maneuver = Maneuver(
        accuracy=accuracy,
        damage_dice=dice,
        damage_adds=adds,
        extra_difficulty=extra,
        targets=targets,
        label=label,
        steps=tuple(steps),
    )
    return maneuver, used


@dataclass(frozen=True, kw_only=True)
class AutofireReport(Explained):
    """The "Autofire & strafing" calculator's result: the ammunition and the attack."""

    ammo_used: int
    ammunition: int
    attack: AttackResult

    @property
    def p_hit(self) -> Fraction:
        return self.attack.p_hit

    @property
    def levels(self) -> tuple[Fraction, ...]:
        return self.attack.levels

    def figures(self) -> tuple[Figure, ...]:
        att = {f.key: f for f in self.attack.figures()}
        return (
            Figure(
                "ammo_used",
                "Ammunition used",
                self.ammo_used,
                f"{self.ammo_used} of {self.ammunition} rounds",
            ),
            att["difficulty"],
            att["p_hit"],
            att["expected_dice"],
            att["expected_levels"],
            att["p_wound"],
            att["p_any_hit"],
            att["pool"],
        )

    def chart(self) -> tuple[tuple[str, float], ...]:
        return self.attack.chart()


@checked(
    ATTRIBUTE,
    MEGA_ATTRIBUTE,
    ABILITY,
    SPECIALTY,
    ACCURACY,
    DAMAGE_DICE,
    DAMAGE_ADDS,
    DAMAGE_TYPE,
    TAGS,
    BURST,
    BURST_USE,
    TARGETS,
    AMMUNITION,
    BASE_DIFFICULTY,
    RANGE_PENALTY,
    AIRCRAFT_PENALTY,
    DODGE_POOL,
    DODGE_REROLLS,
    NATURAL_SOAK,
    ARMOUR_SOAK,
    RULESET,
    EXTRA_SUCCESSES,
    NET_FROM,
    BURST_DAMAGE,
    BURST_WEAPON_AMMO,
)
def autofire_and_strafing(
    dexterity: int = 3,
    mega_dexterity: int = 0,
    ability: int = 2,
    specialty: bool = False,
    accuracy: int = 1,
    damage_dice: int = 5,
    damage_adds: int = 0,
    damage_type: str = "lethal",
    tags: tuple[Tag, ...] | str = "",
    burst: str = "short",
    burst_use: str = "accuracy",
    targets: int = 1,
    ammunition: int = 30,
    base_difficulty: int = 1,
    range_penalty: int = 0,
    aircraft_penalty: int = 0,
    dodge_pool: int = 0,
    dodge_reroll_tens: bool = False,
    natural_soak: int = 2,
    armour_soak: int = 0,
    ruleset: str = "2.1",
    extra_successes: str = "die",
    net_from: str = "difficulty",
    burst_damage: str = "adds",
    burst_weapon_ammo: str = "bursts",
) -> AutofireReport:
    """The "Autofire & strafing" calculator: a burst (or single shot) against one or
    more targets, with ammunition, difficulty, exact hit chance and the exact
    distribution of health levels each target loses after soak.

    "Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of
    ammunition …"; "Strafing: An autofire/burst attack may target multiple foes,
    adding +1 difficulty for every additional target, but applyies the results
    against all targets. A single attack may not target more enemies than it
    uses rounds of ammunition."
    """
    assert not isinstance(tags, str), "TAGS' parser turns the text into tags (@checked)"
    weapon = Weapon(
        name="Weapon",
        accuracy=accuracy,
        damage_dice=damage_dice,
        damage_adds=damage_adds,
        damage_type=damage_type,
        tags=tags,
    )
    maneuver, used = autofire_maneuver(
        burst=burst,
        burst_use=burst_use,
        targets=targets,
        ammunition=ammunition,
        rounds_per_attack=weapon.rounds_per_attack,
        burst_damage=burst_damage,
        burst_weapon_ammo=burst_weapon_ammo,
    )
    attack = resolve_attack(
        weapon=weapon,
        dexterity=dexterity,
        mega_dexterity=mega_dexterity,
        ability=ability,
        specialty=specialty,
        ruleset=ruleset,
        base_difficulty=base_difficulty,
        range_penalty=range_penalty,
        aircraft_penalty=aircraft_penalty,
        dodge_pool=dodge_pool,
        dodge_reroll_tens=dodge_reroll_tens,
        natural_soak=natural_soak,
        armour_soak=armour_soak,
        extra_successes=extra_successes,
        net_from=net_from,
        maneuver=maneuver,
    )
    return AutofireReport(ammo_used=used, ammunition=ammunition, attack=attack, steps=attack.steps)
