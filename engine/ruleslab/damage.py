"""Damage resolution: soak, damage adds, ping, and Dazed/Stunned.

Quick reference › 2.0 Rules › Combat:

    Soak: Characters subtract soak from damage dice, not damage adds. Damage
    adds apply if the attack deals at least one die of damage after soak.

    Ping: If an attack fails to penetrate soak, it deals 1 die of ping damage of
    one lower type. Bashing damage deals Stun, Lethal damage deals Bashing, and
    Aggravated damage deals Lethal.

    Dazing/Stunning: A character is Dazed if he takes (2 * Stamina) HLs of
    damage in a single turn from any combination of sources, and Stunned if he
    takes (3 * Stamina) HLs of damage. Dazed characters are at +1 difficulty to
    all actions, Stunned ones suffer +1 difficulty to all actions and may not
    take more than a single action (without powers such as Quickness or
    Temporal Manipulation).

    Armor Piercing: Armor Piercing attacks only decrease power or armored soak,
    they have no effect on natural soak.

    Stun Damage: Stun damage is soaked as bashing damage, …

Readings (``docs/rules-notes/health-damage.md``): a damage die is rolled like
any d10 pool die, each success (target 7+) being one health level (RN-DMG-1);
each damage add is one more health level (RN-DMG-2); "at least one die after
soak" counts dice, not successes (RN-DMG-3); the ping die is not soaked again
and takes no adds (RN-DMG-4); a stun attack that fails to penetrate deals
nothing (RN-DMG-5); Dazed/Stunned thresholds are "at least" and Mega-Stamina
counts 2 Stamina for them (RN-DMG-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import DICE, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.params import ChoiceParam, InputError, IntParam, checked
from ruleslab.soak import (
    ARMOR_PIERCING,
    KINDS,
    armour_after_ap,
)
from ruleslab.sources import QR, rule

__all__ = [
    "KINDS",
    "LOWER_KIND",
    "DamageTaken",
    "damage_mixture",
    "damage_taken",
]

COMBAT_SOAK = rule(QR, "2.0 Rules", "Combat", "Soak")
PING = rule(QR, "2.0 Rules", "Combat", "Ping")
DAZING = rule(QR, "2.0 Rules", "Combat", "Dazing/Stunning")
STUN_DAMAGE = rule(QR, "2.0 Rules", "Combat", "Stun Damage")
AP_TAG = rule(QR, "Weapon Tags", "AP(X)")

LOWER_KIND = {"bashing": "stun", "lethal": "bashing", "aggravated": "lethal"}
"""Ping: "Bashing damage deals Stun, Lethal damage deals Bashing, and Aggravated
damage deals Lethal." Stun has no lower kind."""

CHART_CUTOFF = 1e-6

KIND = ChoiceParam(
    "kind",
    "Damage type",
    default="lethal",
    choices=(
        ("bashing", "Bashing"),
        ("lethal", "Lethal"),
        ("aggravated", "Aggravated"),
        ("stun", "Stun"),
    ),
    help="The attack's damage type. Stun is soaked as bashing.",
)
DICE_PARAM = IntParam(
    "dice",
    "Damage dice",
    default=6,
    minimum=0,
    maximum=500,
    help="The attack's damage dice before soak (weapon damage plus extra successes' dice).",
)
ADDS = IntParam(
    "adds",
    "Damage adds",
    default=0,
    minimum=0,
    maximum=200,
    help=(
        "Damage adds, the [X] in a weapon's damage: each is one health level, not soaked, "
        "and applies only if at least one die is left after soak (RN-DMG-2)."
    ),
)
NATURAL_SOAK = IntParam(
    "natural_soak",
    "Natural soak",
    default=0,
    minimum=0,
    maximum=200,
    help="The target's natural soak against this damage type (Armor Piercing does not reduce it).",
)
ARMOUR_SOAK = IntParam(
    "armour_soak",
    "Armour soak",
    default=0,
    minimum=0,
    maximum=200,
    help=(
        "The target's armour (or power) soak against this damage type; Armor Piercing reduces "
        "only this."
    ),
)
AP = IntParam(
    "armour_piercing",
    "Armor Piercing",
    default=0,
    minimum=0,
    maximum=200,
    help="The weapon's AP(X): reduces armour or power soak by X, never natural soak.",
)
TARGET = IntParam(
    "target",
    "Target number",
    default=7,
    minimum=2,
    maximum=10,
    help="A damage die showing this number or more is one health level (7 normally).",
)

KIND_NAMES = {k: k.capitalize() for k in KINDS}


@dataclass(frozen=True, kw_only=True)
class DamageTaken(Explained):
    """What one attack's damage does to a target after soak.

    ``dice_after_soak`` is the number of damage dice left after soak (0 when the
    attack fails to penetrate). ``pinged`` is True when a ping die is rolled
    instead; ``kind_dealt`` is the kind of the health levels lost (the lower kind
    when pinged). ``levels[k]`` is the exact ``P(k health levels lost)``, the
    table complete (it sums to 1). ``mean`` is the exact mean.
    """

    dice: int
    adds: int
    kind: str
    soak: int
    dice_after_soak: int
    adds_applied: int
    pinged: bool
    kind_dealt: str
    levels: tuple[Fraction, ...]
    mean: Fraction

    def p_at_least(self, k: int) -> Fraction:
        """``P(at least k health levels lost)``, exact."""
        if k <= 0:
            return Fraction(1)
        return sum(self.levels[k:], Fraction(0))

    def kind_text(self) -> str:
        name = KIND_NAMES[self.kind_dealt]
        return f"{name} (ping)" if self.pinged else name

    def figures(self) -> tuple[Figure, ...]:
        p_any = self.p_at_least(1)
        return (
            Figure(
                "dice_after_soak",
                "Damage dice after soak",
                self.dice_after_soak,
                str(self.dice_after_soak),
            ),
            Figure("kind_dealt", "Damage dealt as", self.kind_dealt, self.kind_text()),
            Figure("mean", "Mean health levels lost", self.mean, fmt_num(self.mean, "levels")),
            Figure("p_any", "Chance of at least 1 health level", p_any, fmt_prob(p_any)),
        )


@checked(DICE_PARAM, ADDS, KIND, NATURAL_SOAK, ARMOUR_SOAK, AP, TARGET)
def damage_taken(
    *,
    dice: int,
    adds: int,
    kind: str,
    natural_soak: int,
    armour_soak: int,
    armour_piercing: int = 0,
    target: int = 7,
) -> DamageTaken:
    """Exact distribution of health levels one attack takes off a target.

    "Characters subtract soak from damage dice, not damage adds. Damage adds
    apply if the attack deals at least one die of damage after soak." "If an
    attack fails to penetrate soak, it deals 1 die of ping damage of one lower
    type." ``natural_soak`` and ``armour_soak`` are the target's soak against
    ``kind`` (for stun: its bashing soak); Armor Piercing lowers only
    ``armour_soak``.
    """
    steps: list[Step] = []
    armour = armour_after_ap(armour_soak, armour_piercing)
    if armour_piercing:
        steps.append(
            Step(
                f"Armour soak {armour_soak} − AP {armour_piercing} = {armour} (never below 0); "
                f"AP has no effect on natural soak {natural_soak}",
                ARMOR_PIERCING,
            )
        )
    total_soak = natural_soak + armour
    if kind == "stun":
        steps.append(Step("Stun damage is soaked as bashing damage", STUN_DAMAGE))
    steps.append(
        Step(
            f"Soak = natural {natural_soak} + armour {armour} = {total_soak}",
            COMBAT_SOAK,
        )
    )
    left = max(0, dice - total_soak)
    steps.append(
        Step(
            f"Damage dice after soak = max(0, {dice} − {total_soak}) = {left} "
            "(soak is subtracted from damage dice, not from damage adds)",
            COMBAT_SOAK,
        )
    )
    s = 11 - target
    if left >= 1:
        applied = adds
        dist = pool_distribution(left, adds, target)
        levels = dist.pmf
        steps.append(
            Step(
                f"Each damage die showing {target}–10 is one health level: {s}/10 per die; "
                f"{left} dice give C({left}, k) · ({s}/10)^k · ({target - 1}/10)^({left}−k) "
                "(rules note RN-DMG-1)",
                rule(DICE, "Successes"),
            )
        )
        if adds:
            steps.append(
                Step(
                    f"At least one die is left after soak, so the {adds} damage adds apply: "
                    f"+{adds} health levels (rules note RN-DMG-2)",
                    COMBAT_SOAK,
                )
            )
        pinged, dealt = False, kind
    else:
        applied = 0
        if adds:
            steps.append(
                Step(
                    f"No die is left after soak, so the {adds} damage adds do not apply "
                    "(rules note RN-DMG-3)",
                    COMBAT_SOAK,
                )
            )
        if kind == "stun":
            pinged, dealt = False, "stun"
            levels = (Fraction(1),)
            steps.append(
                Step(
                    "The attack fails to penetrate soak; stun has no lower type, so it deals "
                    "no damage (rules note RN-DMG-5)",
                    PING,
                )
            )
        else:
            pinged, dealt = True, LOWER_KIND[kind]
            levels = (Fraction(target - 1, 10), Fraction(s, 10))
            steps.append(
                Step(
                    f"The attack fails to penetrate soak: 1 die of {dealt} ping damage "
                    f"(one type lower than {kind}), not soaked again and without adds: "
                    f"1 level with {s}/10 (rules note RN-DMG-4)",
                    PING,
                )
            )
    mean = sum((k * p for k, p in enumerate(levels) if p), Fraction(0))
    steps.append(
        Step(
            f"Mean health levels lost = {fmt_num(mean)} "
            f"({'1 die' if pinged else f'{left} × {s}/10 + {applied}'})",
            rule(DICE, "Successes"),
        )
    )
    return DamageTaken(
        dice=dice,
        adds=adds,
        kind=kind,
        soak=total_soak,
        dice_after_soak=left,
        adds_applied=applied,
        pinged=pinged,
        kind_dealt=dealt,
        levels=tuple(levels),
        mean=mean,
        steps=tuple(steps),
    )


def damage_mixture(
    dice_pmf: dict[int, Fraction],
    *,
    adds: int,
    kind: str,
    natural_soak: int,
    armour_soak: int,
    armour_piercing: int = 0,
    target: int = 7,
) -> tuple[Fraction, ...]:
    """Health levels lost when the number of damage dice is itself random.

    ``dice_pmf[d]`` is ``P(d damage dice)``; the result's ``[k]`` is
    ``Σ_d dice_pmf[d] · P(k levels | d dice)`` (see :func:`damage_taken`). The
    probabilities need not sum to 1 (e.g. weighted by the chance to hit); the
    result sums to what they sum to. Levels are counted whatever their kind: for
    dice counts that fail to penetrate soak they are ping levels of the lower
    kind (use :func:`damage_taken` per count to tell them apart).
    """
    out: list[Fraction] = []
    for d, p in sorted(dice_pmf.items()):
        if isinstance(d, bool) or not isinstance(d, int):
            raise InputError("dice_pmf", "dice_pmf keys must be whole numbers of dice.")
        p = Fraction(p)
        if p < 0:
            raise InputError("dice_pmf", "dice_pmf probabilities must not be negative.")
        if not p:
            continue
        taken = damage_taken(
            dice=d,
            adds=adds,
            kind=kind,
            natural_soak=natural_soak,
            armour_soak=armour_soak,
            armour_piercing=armour_piercing,
            target=target,
        )
        if len(out) < len(taken.levels):
            out.extend([Fraction(0)] * (len(taken.levels) - len(out)))
        for k, q in enumerate(taken.levels):
            out[k] += p * q
    return tuple(out) if out else (Fraction(0),)
