"""Soak: a character's natural soak against each kind of damage, plus armour.

Quick reference › 2.0 Rules › Soak:

    Natural Character Soak is by default (Quantum + Stamina + Mega-Stamina)
    Bashing/(Quantum + Stamina/2 + Mega-Stamina) Lethal/(Quantum/2) Aggravated.

    This is modified by any sort of armor a character wears and by some
    Enhancements.

Quick reference › 2.0 Rules › Combat:

    Stun Damage: Stun damage is soaked as bashing damage, …

    Armor Piercing: Armor Piercing attacks only decrease power or armored soak,
    they have no effect on natural soak.

The formula counts Mega-Stamina once per dot: it accounts for the Mega-Attribute
separately, so the "counts for 2 dots" rule does not apply here (a step says so).
The halves round down by default (rules note RN-SOAK-1); the 2.1 rules do not
restate soak, so the same soak applies under both (RN-SOAK-2). Readings:
``docs/rules-notes/health.md`` (RN-SOAK-1, RN-SOAK-2) and
``docs/rules-notes/damage.md`` (RN-SOAK-3).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.explain import Explained, Figure, Step
from ruleslab.quickref.mega import MEGA_ATTRIBUTES
from ruleslab.sources import QR, rule

__all__ = [
    "KINDS",
    "Soak",
    "armour_after_ap",
    "halve",
    "natural_soak_against",
    "natural_soak_of",
    "natural_soak_steps",
    "natural_soak_values",
    "soak",
    "soak_kind",
]

SOAK = rule(QR, "2.0 Rules", "Soak")
STUN_DAMAGE = rule(QR, "2.0 Rules", "Combat", "Stun Damage")
ARMOR_PIERCING = rule(QR, "2.0 Rules", "Combat", "Armor Piercing")

KINDS = ("stun", "bashing", "lethal", "aggravated")
"""Damage kinds, least to most severe (stun is 2.0's)."""


def halve(x: int, rounding: str = "down") -> int:
    """``x / 2`` rounded down (default) or up."""
    return x // 2 if rounding == "down" else -(-x // 2)


def natural_soak_values(
    quantum: int, stamina: int, mega_stamina: int, rounding: str = "down"
) -> tuple[int, int, int]:
    """(bashing, lethal, aggravated) natural soak.

    "(Quantum + Stamina + Mega-Stamina) Bashing/(Quantum + Stamina/2 +
    Mega-Stamina) Lethal/(Quantum/2) Aggravated"; the halves round per ``rounding``.
    """
    return (
        quantum + stamina + mega_stamina,
        quantum + halve(stamina, rounding) + mega_stamina,
        halve(quantum, rounding),
    )


def soak_kind(kind: str) -> str:
    """The kind whose soak applies: "Stun damage is soaked as bashing damage"."""
    return "bashing" if kind == "stun" else kind


def natural_soak_against(
    kind: str, quantum: int, stamina: int, mega_stamina: int, rounding: str = "down"
) -> int:
    """Natural soak against one kind of damage (stun: bashing), from :func:`natural_soak_values`."""
    values = natural_soak_values(quantum, stamina, mega_stamina, rounding)
    return dict(zip(("bashing", "lethal", "aggravated"), values, strict=True))[soak_kind(kind)]


def natural_soak_of(
    kind: str,
    quantum: int,
    stamina: int,
    mega_stamina: int,
    rounding: str = "down",
    whose: str = "the target",
) -> tuple[int, Step]:
    """A person's natural soak against ``kind``, from his record, with the step saying so.

    :func:`natural_soak_against` on his Quantum, Stamina and Mega-Stamina, the one
    derivation every calculator uses (the Damage resolution calculator, Autofire's
    target: rules note RN-SOAK-4); the step names the formula for that kind.
    """
    value = natural_soak_against(kind, quantum, stamina, mega_stamina, rounding)
    basis = soak_kind(kind)
    way = "rounded down" if rounding == "down" else "rounded up"
    formula = {
        "bashing": f"Quantum {quantum} + Stamina {stamina} + Mega-Stamina {mega_stamina}",
        "lethal": (
            f"Quantum {quantum} + Stamina {stamina}/2 ({way}) + Mega-Stamina {mega_stamina}"
        ),
        "aggravated": f"Quantum {quantum}/2 ({way})",
    }[basis]
    as_ = " (stun is soaked as bashing)" if kind == "stun" else ""
    return value, Step(
        f"Natural {basis} soak{as_} from {whose}'s record = {formula} = {value} (rules note "
        "RN-SOAK-4)",
        STUN_DAMAGE if kind == "stun" else SOAK,
    )


def armour_after_ap(armour: int, armour_piercing: int) -> int:
    """Armour (or power) soak left after Armor Piercing, never below 0.

    "AP(X): Armor Piercing. Reduce target soak by (X)." and "Armor Piercing
    attacks only decrease power or armored soak, they have no effect on natural
    soak." — so AP beyond the armour soak is wasted (rules note RN-SOAK-3).
    """
    return max(0, armour - armour_piercing)


def natural_soak_steps(
    quantum: int, stamina: int, mega_stamina: int, rounding: str = "down"
) -> list[Step]:
    """The steps explaining :func:`natural_soak_values`."""
    b, lethal, a = natural_soak_values(quantum, stamina, mega_stamina, rounding)
    way = "rounded down" if rounding == "down" else "rounded up"
    steps = [
        Step(
            f"Natural bashing soak = Quantum {quantum} + Stamina {stamina} + "
            f"Mega-Stamina {mega_stamina} = {b}",
            SOAK,
        ),
        Step(
            f"Natural lethal soak = Quantum {quantum} + Stamina {stamina}/2 ({way}: "
            f"{halve(stamina, rounding)}) + Mega-Stamina {mega_stamina} = {lethal} "
            "(rules note RN-SOAK-1)",
            SOAK,
        ),
        Step(f"Natural aggravated soak = Quantum {quantum}/2 ({way}) = {a}", SOAK),
    ]
    if mega_stamina:
        steps.append(
            Step(
                f"Mega-Stamina {mega_stamina} is added once per dot: the soak formula accounts "
                "for it separately, so it does not count as 2 Stamina dots here",
                MEGA_ATTRIBUTES,
            )
        )
    return steps


@dataclass(frozen=True, kw_only=True)
class Soak(Explained):
    """Natural, armour and total soak against bashing, lethal and aggravated damage.

    Stun damage uses the bashing figures ("soaked as bashing damage").
    """

    natural_bashing: int
    natural_lethal: int
    natural_aggravated: int
    armour_bashing: int
    armour_lethal: int
    armour_aggravated: int

    @property
    def bashing(self) -> int:
        return self.natural_bashing + self.armour_bashing

    @property
    def lethal(self) -> int:
        return self.natural_lethal + self.armour_lethal

    @property
    def aggravated(self) -> int:
        return self.natural_aggravated + self.armour_aggravated

    def natural(self, kind: str) -> int:
        """Natural soak against ``kind`` (stun: bashing)."""
        soak: int = getattr(self, f"natural_{soak_kind(kind)}")
        return soak

    def armour(self, kind: str) -> int:
        """Armour soak against ``kind`` (stun: bashing)."""
        soak: int = getattr(self, f"armour_{soak_kind(kind)}")
        return soak

    def total(self, kind: str) -> int:
        """Total soak against ``kind`` (stun: bashing)."""
        return self.natural(kind) + self.armour(kind)

    def text(self) -> str:
        """ "5 B / 3 L / 1 A"."""
        return f"{self.bashing} B / {self.lethal} L / {self.aggravated} A"

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure(
                "soak",
                "Soak (bashing / lethal / aggravated)",
                (self.bashing, self.lethal, self.aggravated),
                self.text(),
            ),
        )


def soak(
    quantum: int,
    stamina: int,
    mega_stamina: int,
    armour_bashing: int = 0,
    armour_lethal: int = 0,
    armour_aggravated: int = 0,
    soak_rounding: str = "down",
) -> Soak:
    """Natural soak (the 2.0 formula) plus armour soak per kind of damage, explained."""
    b, lethal, a = natural_soak_values(quantum, stamina, mega_stamina, soak_rounding)
    steps = natural_soak_steps(quantum, stamina, mega_stamina, soak_rounding)
    if armour_bashing or armour_lethal or armour_aggravated:
        steps.append(
            Step(
                f"Total soak = natural + armour: bashing {b} + {armour_bashing} = "
                f"{b + armour_bashing}, lethal {lethal} + {armour_lethal} = "
                f"{lethal + armour_lethal}, aggravated {a} + {armour_aggravated} = "
                f"{a + armour_aggravated} (\u201cmodified by any sort of armor\u201d)",
                SOAK,
            )
        )
    steps.append(
        Step(
            "Stun damage is soaked as bashing damage; the 2.1 rules do not restate soak, so this "
            "soak applies under both (rules note RN-SOAK-2)",
            STUN_DAMAGE,
        )
    )
    return Soak(
        natural_bashing=b,
        natural_lethal=lethal,
        natural_aggravated=a,
        armour_bashing=armour_bashing,
        armour_lethal=armour_lethal,
        armour_aggravated=armour_aggravated,
        steps=tuple(steps),
    )
