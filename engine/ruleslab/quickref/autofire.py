"""Ranged attack maneuvers: autofire bursts and strafing.

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
"single shots". Burst weapons have a slash in their Rate stat, with their
effective rate of fire following the unadjusted RoF."

The attacker chooses accuracy or damage. "+[1] Damage" is one damage *add*
(bracketed numbers are adds: rules note RN-RANGED-1, option ``burst_damage``).
A Burst(X) weapon's autofire spends "shots/bursts": X rounds a shot (RN-RANGED-9,
option ``burst_weapon_ammo``). A weapon's Rate, when given, caps the burst it
may fire: a burst's shots/bursts may not exceed the effective rate of fire, for a
Burst(X) weapon written "A/B" the unadjusted A (:func:`rate_of_fire`,
RN-RANGED-17, option ``rate_reading``). The attack itself is
:func:`ruleslab.quickref.attack.resolve_attack`; the "Autofire & strafing" calculator is
:mod:`ruleslab.calculators.autofire`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.quickref.attack import Maneuver
from ruleslab.quickref.weapons import Burst, tag_rule
from ruleslab.sources import QR, rule

__all__ = [
    "BURSTS",
    "BURST_DAMAGE_READINGS",
    "RATE_READINGS",
    "BurstSize",
    "RateOfFire",
    "autofire_maneuver",
    "rate_of_fire",
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

BURST_DAMAGE_READINGS = (
    "Burst “+[X] Damage” is",
    (("adds", "X damage adds"), ("dice", "X damage dice")),
)
"""What a burst's "+[X] Damage" is (rules note RN-RANGED-1): the reading's label and its
choices, as the forms that offer it word them."""

RATE_READINGS = ("unadjusted", "rounds")
"""Which figure of a Burst(X) weapon's slashed Rate "A/B" is its effective rate of fire:
the unadjusted A (shots/bursts, default) or the rounds B = A × X (RN-RANGED-17)."""


@dataclass(frozen=True)
class RateOfFire:
    """A weapon's Rate and the bursts it allows.

    ``rate`` is the Rate typed (the unadjusted RoF: the only figure, or the one
    before a Burst(X) weapon's slash); ``written`` the Rate as the weapon shows
    it ("3/9" for Burst(3)); ``effective`` the effective rate of fire, the most
    shots/bursts one attack may fire; ``largest`` the largest burst whose shots
    fit it (None: single shots only); ``step`` says why.
    """

    rate: int
    written: str
    effective: int
    largest: BurstSize | None
    step: Step


def rate_of_fire(rate: int, rounds_per_attack: int = 1, reading: str = "unadjusted") -> RateOfFire:
    """The effective rate of fire of a weapon of Rate ``rate`` and the largest burst it allows.

    Weapon Tags › Burst(X): "Burst weapons have a slash in their Rate stat,
    with their effective rate of fire following the unadjusted RoF." A Burst(X)
    weapon's Rate is written "A/B": A, the unadjusted RoF (shots/bursts), and
    B = A × X, the rounds. Its effective rate of fire is A under the default
    ``reading`` ``"unadjusted"``, B under ``"rounds"``; an ordinary weapon's is
    its Rate. A burst fits when its shots ("3 shots/bursts worth of
    ammunition") do not exceed the effective rate (rules note RN-RANGED-17).
    """
    if isinstance(rate, bool) or not isinstance(rate, int) or rate < 1:
        raise InputError("rate", "rate must be a whole number ≥ 1.")
    if reading not in RATE_READINGS:
        raise InputError("rate_reading", f"rate_reading must be one of {', '.join(RATE_READINGS)}.")
    x = rounds_per_attack
    if x > 1:
        rounds = rate * x
        written = f"{rate}/{rounds}"
        effective = rate if reading == "unadjusted" else rounds
        which = (
            f"the unadjusted RoF {rate} (bursts, not the {rounds} rounds after the slash)"
            if reading == "unadjusted"
            else f"the {rounds} rounds after the slash (option “rounds”)"
        )
        head = (
            f"Rate {written}: a Burst({x}) weapon has a slash in its Rate ({rate} bursts of {x} "
            f"rounds = {rounds} rounds); its effective rate of fire follows {which} = {effective}"
        )
    else:
        written = str(rate)
        effective = rate
        head = f"Rate {rate}: effective rate of fire {rate}"
    fits = [b for b in BURSTS.values() if b.shots <= effective]
    largest = fits[-1] if fits else None
    allows = (
        f"the largest burst it allows is a {largest.name[:-1].lower()} ({largest.shots} "
        "shots/bursts)"
        if largest is not None
        else f"it allows no burst (a short burst needs {BURSTS['short'].shots} shots/bursts): "
        "single shots only"
    )
    step = Step(f"{head}; {allows} (rules note RN-RANGED-17)", tag_rule(Burst))
    return RateOfFire(rate=rate, written=written, effective=effective, largest=largest, step=step)


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
    rate: RateOfFire | None = None,
) -> tuple[Maneuver, int]:
    """The autofire/strafing :class:`~ruleslab.quickref.attack.Maneuver` and the rounds it uses.

    Raises :class:`InputError` naming ``ammunition`` when fewer rounds are left
    than the attack uses, and naming ``targets`` when there are more targets
    than rounds used ("A single attack may not target more enemies than it uses
    rounds of ammunition"), and naming ``burst`` when ``rate`` (the weapon's
    :func:`rate_of_fire`, None: not checked) does not allow the burst. The
    messages start with those fields' labels on the calculator's form
    ("Ammunition available", "Targets (strafing)", "Autofire").
    """
    used, ammo_step = rounds_used(burst, rounds_per_attack, burst_weapon_ammo)
    steps: list[Step] = []
    if rate is not None:
        steps.append(rate.step)
        size_ = BURSTS.get(burst)
        if size_ is not None and size_.shots > rate.effective:
            most = (
                f"at most a {rate.largest.name[:-1].lower()}"
                if rate.largest is not None
                else "single shots only"
            )
            raise InputError(
                "burst",
                f"Autofire: a {size_.name[:-1].lower()} fires {size_.shots} shots/bursts, more "
                f"than the weapon's effective rate of fire {rate.effective} (Rate {rate.written}): "
                f"{most}.",
            )
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
            f"Ammunition available: this attack uses {used} rounds but only {ammunition} are "
            "available.",
        )
    steps.append(
        Step(f"Ammunition: {used} of {ammunition} rounds used (rules note RN-RANGED-11)", AUTOFIRE)
    )
    if targets > used:
        raise InputError(
            "targets",
            "Targets (strafing): a single attack may not target more enemies than it uses "
            f"rounds of ammunition ({used} here), so at most {used}.",
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
