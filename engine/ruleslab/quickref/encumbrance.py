"""Encumbrance: the tier of a carried load and what it costs.

Quick reference › Encumbrance:

    Unencumbered: A character is unencumbered if he carries up to 5 kg per dot
    of Str + Might.

    Light Encumbrance: … carrying more than that, up to 10 kg per dot of Str +
    Might. A lightly encumbered character merely adds +1 difficulty for all
    rolls involving long-term physical endurance and reduces her Dexterity by 1
    for the purposes of movement. The dexterity penalty may not reduce Walking
    speeds to lower than 3 m/round.

    Moderate Encumbrance: … up to 15 kg per dot of Str + Might, adding +1
    difficulty to all physical actions involving movement or endurance, and
    subtracts 1 from Strength and Dexterity for effective movement speeds. …

    Heavy Encumbrance: Characters carrying 20 kg per dot of Str + Might are
    heavily encumbered, and suffer +2 difficulty to all physical actions
    involving movement or endurance, -2 to strength and dexterity for movement,
    and +1 difficulty to all other physical actions. The dexterity penalty may
    not reduce Walking speeds to lower than 3 m/s. Heavily encumbered
    characters may not run or sprint.

    Mega-Strength and Encumbrance: Each dot of Mega-Strength multiplies the
    character's encumbrance thresholds by the same amount it multiplies the
    character's lifting thresholds.

This module is also the lower layer of :mod:`ruleslab.quickref.lifting`: it holds the
Mega-Strength multiplier and lift capacity (Quick reference ›
Lifting: "Mega-Strength multiplies lifting capacity by 10/100/250/500/1000 at
M-Str 1-5. Mega-Strength scores beyond 5 multiply lifting capacity by an
additional 10 per dot."), which both rules use.

Movement speeds themselves are not computed here: only the penalties and
limits the tier puts on them. Readings of the text:
``docs/rules-notes/lifting.md`` (RN-ENC-1 … RN-ENC-3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.decimals import fmt_exact, typed_decimal
from ruleslab.explain import Explained, Figure, Step, fmt_num
from ruleslab.sources import QR, rule

__all__ = [
    "KG_PER_DOT",
    "TIER_EFFECTS",
    "Encumbrance",
    "EncumbranceEffects",
    "encumbrance",
    "kg",
    "lift_capacity_kg",
    "mega_strength_multiplier",
]

KG_PER_DOT = 30
"""Kilograms one dot of Strength + Might lifts without a roll."""

WALKING_FLOOR_M = 3
"""Metres per round the encumbrance penalty cannot push Walking below (RN-ENC-3)."""

_MULTIPLIERS = (1, 10, 100, 250, 500, 1000)

LIFTING = rule(QR, "Lifting")
ENCUMBRANCE = rule(QR, "Encumbrance")
MEGA_ENCUMBRANCE = rule(QR, "Encumbrance", "Mega-Strength and Encumbrance")
_TIER_RULE = {
    "unencumbered": rule(QR, "Encumbrance", "Unencumbered"),
    "light": rule(QR, "Encumbrance", "Light Encumbrance"),
    "moderate": rule(QR, "Encumbrance", "Moderate Encumbrance"),
    "heavy": rule(QR, "Encumbrance", "Heavy Encumbrance"),
    "over": ENCUMBRANCE,
}


def mega_strength_multiplier(mega_strength: int) -> int:
    """×1 at 0 dots, ×10/100/250/500/1000 at 1–5, then ×10 more per dot (6 → 10 000)."""
    if mega_strength < 0:
        raise ValueError("Mega-Strength cannot be negative")
    if mega_strength < len(_MULTIPLIERS):
        return _MULTIPLIERS[mega_strength]
    tens: int = 10 ** (mega_strength - 5)  # a positive power: an int
    return _MULTIPLIERS[-1] * tens


def lift_capacity_kg(strength: int, might: int, mega_strength: int) -> int:
    """30 kg × (Strength + Might) × the Mega-Strength multiplier."""
    return KG_PER_DOT * (strength + might) * mega_strength_multiplier(mega_strength)


def kg(x: float | Fraction) -> str:
    """Kilograms for display: whole numbers with thousands separators (13 000 kg), a typed
    weight as the exact decimal it was typed as (90.004 kg: the number the rules used)."""
    return fmt_exact(typed_decimal(x), "kg")


def multiplier_step(mega_strength: int, mult: int) -> Step:
    """The line that states the Mega-Strength multiplier."""
    if mega_strength == 0:
        return Step("Mega-Strength multiplier: no Mega-Strength → ×1", LIFTING)
    if mega_strength <= 5:
        text = f"Mega-Strength multiplier: M-Str {mega_strength} → ×{fmt_num(mult)}"
    else:
        text = (
            f"Mega-Strength multiplier: M-Str {mega_strength} → ×{fmt_num(1000)} at 5 dots, "
            f"×10 per dot past 5 → {fmt_num(1000)} × 10^{mega_strength - 5} = ×{fmt_num(mult)}"
        )
    return Step(text, LIFTING)


def capacity_step(strength: int, might: int, mult: int, capacity: int) -> Step:
    """The line that computes lift capacity."""
    times = "" if mult == 1 else f" × {fmt_num(mult)}"
    return Step(
        f"Lift capacity = {KG_PER_DOT} kg × (Str {strength} + Might {might}){times} "
        f"= {kg(capacity)}",
        LIFTING,
    )


@dataclass(frozen=True, kw_only=True)
class EncumbranceEffects:
    """What a tier does. Difficulties are added (+n); penalties are subtracted (−n).

    ``endurance_difficulty`` applies to rolls involving physical endurance (at
    Light only *long-term* endurance), ``movement_difficulty`` to physical
    actions involving movement, ``other_physical_difficulty`` to all other
    physical actions. ``str_movement_penalty``/``dex_movement_penalty`` come off
    Strength/Dexterity for movement speeds only, never lowering Walking below
    ``walking_floor_m`` metres per round (``None``: no penalty, or no movement).
    """

    endurance_difficulty: int = 0
    movement_difficulty: int = 0
    other_physical_difficulty: int = 0
    str_movement_penalty: int = 0
    dex_movement_penalty: int = 0
    can_move: bool = True
    can_run: bool = True
    can_sprint: bool = True
    walking_floor_m: int | None = None
    long_term_only: bool = False

    def text(self) -> str:
        """The effects as one readable sentence."""
        parts: list[str] = []
        if not self.can_move:
            parts.append("cannot move while carrying this load")
        e, m = self.endurance_difficulty, self.movement_difficulty
        if e and e == m:
            parts.append(f"+{e} difficulty to physical actions involving movement or endurance")
        else:
            if e:
                what = "long-term physical endurance" if self.long_term_only else "endurance"
                parts.append(f"+{e} difficulty to rolls involving {what}")
            if m:
                parts.append(f"+{m} difficulty to physical actions involving movement")
        if self.other_physical_difficulty:
            parts.append(
                f"+{self.other_physical_difficulty} difficulty to all other physical actions"
            )
        if self.can_move:
            s, d = self.str_movement_penalty, self.dex_movement_penalty
            floor = (
                f" (Walking not below {self.walking_floor_m} m/round)"
                if self.walking_floor_m is not None
                else ""
            )
            if s and d:
                parts.append(f"−{s} Strength and −{d} Dexterity for movement speeds{floor}")
            elif d:
                parts.append(f"−{d} Dexterity for movement{floor}")
            if not self.can_run and not self.can_sprint:
                parts.append("may not run or sprint")
        if not parts:
            return "No penalties."
        sentence = "; ".join(parts)
        return sentence[0].upper() + sentence[1:] + "."


_HEAVY = EncumbranceEffects(
    endurance_difficulty=2,
    movement_difficulty=2,
    other_physical_difficulty=1,
    str_movement_penalty=2,
    dex_movement_penalty=2,
    can_run=False,
    can_sprint=False,
    walking_floor_m=WALKING_FLOOR_M,
)

TIER_EFFECTS: dict[str, EncumbranceEffects] = {
    "unencumbered": EncumbranceEffects(),
    "light": EncumbranceEffects(
        endurance_difficulty=1,
        dex_movement_penalty=1,
        walking_floor_m=WALKING_FLOOR_M,
        long_term_only=True,
    ),
    "moderate": EncumbranceEffects(
        endurance_difficulty=1,
        movement_difficulty=1,
        str_movement_penalty=1,
        dex_movement_penalty=1,
        walking_floor_m=WALKING_FLOOR_M,
    ),
    "heavy": _HEAVY,
    # The text is silent beyond heavy (RN-ENC-2): heavy's penalties, and no movement.
    "over": replace(_HEAVY, can_move=False, walking_floor_m=None),
}
"""Each tier's effects (``over`` is the reading of RN-ENC-2)."""

_TIER_LABEL = {
    "unencumbered": "Unencumbered",
    "light": "Light",
    "moderate": "Moderate",
    "heavy": "Heavy",
}


def _bands(heavy_from: str, beyond_heavy: str) -> list[tuple[str, int, bool]]:
    """(tier, upper bound in kg per dot, whether the bound is included), in order."""
    moderate = (15, True) if heavy_from == "above_15" else (20, False)
    heavy = (KG_PER_DOT, True) if beyond_heavy == "capacity" else (20, True)
    return [
        ("unencumbered", 5, True),
        ("light", 10, True),
        ("moderate", *moderate),
        ("heavy", *heavy),
    ]


@dataclass(frozen=True, kw_only=True)
class Encumbrance(Explained):
    """The tier of a carried load (``tier`` key and ``tier_label``) and its effects.

    ``kg_per_dot_unit`` is what one "kg per dot" is worth for this character in
    kilograms: (Str + Might) × the Mega-Strength multiplier.
    """

    strength: int
    might: int
    mega_strength: int
    multiplier: int
    load_kg: float
    kg_per_dot_unit: int
    tier: str
    tier_label: str
    effects: EncumbranceEffects

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("tier", "Encumbrance", self.tier, self.tier_label),
            Figure("effects", "Encumbrance effects", self.effects, self.effects.text()),
        )


def encumbrance(
    strength: int,
    might: int,
    mega_strength: int,
    load_kg: float,
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
) -> Encumbrance:
    """The encumbrance tier of ``load_kg`` and its effects.

    Thresholds are 5/10/15/20 kg per dot of Str + Might, times the
    Mega-Strength multiplier ("Each dot of Mega-Strength multiplies the
    character's encumbrance thresholds by the same amount it multiplies the
    character's lifting thresholds").
    """
    mult = mega_strength_multiplier(mega_strength)
    dots = strength + might
    unit = dots * mult
    steps = [multiplier_step(mega_strength, mult)]
    times = "" if mult == 1 else f" × {fmt_num(mult)}"
    bands = _bands(heavy_from, beyond_heavy)
    marks = sorted({per for _, per, _ in bands})
    listing = ", ".join(
        f"{per} → {kg(per * unit)}" + (" (lift capacity)" if per == KG_PER_DOT else "")
        for per in marks
    )
    steps.append(
        Step(
            f"Encumbrance thresholds = kg per dot × (Str {strength} + Might {might}){times}: "
            f"{listing}",
            MEGA_ENCUMBRANCE if mult != 1 else ENCUMBRANCE,
        )
    )
    if dots == 0:
        steps.append(
            Step(
                "Str + Might 0: every threshold is 0 kg, so any load over 0 kg is too much",
                ENCUMBRANCE,
            )
        )

    load = typed_decimal(load_kg)
    tier = "over"
    lower: tuple[int, bool] | None = None  # previous band's bound and whether it was included
    for name, per, inclusive in bands:
        bound = per * unit
        if load < bound or (inclusive and load == bound):
            tier = name
            break
        lower = (per, inclusive)

    why: list[str] = []
    if lower is not None:
        per, inclusive = lower
        word = "over" if inclusive else "at least"
        why.append(f"{word} {kg(per * unit)} ({per} kg per dot)")
    if tier != "over":
        per, inclusive = next((p, i) for n, p, i in bands if n == tier)
        word = "up to" if inclusive else "under"
        why.append(f"{word} {kg(per * unit)} ({per} kg per dot)")
    if tier == "over":
        label = "Over capacity" if beyond_heavy == "capacity" else "Over-encumbered"
    else:
        label = _TIER_LABEL[tier]
    notes = []
    if (tier == "moderate" and heavy_from == "at_20") or (tier == "heavy" and lower == (15, True)):
        notes.append("RN-ENC-1")
    if tier == "over" or (tier == "heavy" and beyond_heavy == "capacity"):
        notes.append("RN-ENC-2")
    note = f" (rules note {', '.join(notes)})" if notes else ""
    steps.append(Step(f"Load {kg(load_kg)}: {', '.join(why)} → {label}{note}", ENCUMBRANCE))
    effects = TIER_EFFECTS[tier]
    steps.append(Step(f"{label}: {effects.text()}", _TIER_RULE[tier]))
    if tier == "heavy":
        steps.append(
            Step(
                f"The Dexterity penalty may not reduce Walking below {effects.walking_floor_m} "
                "m/round (heavy's “3 m/s” read as m/round, rules note RN-ENC-3)",
                _TIER_RULE[tier],
            )
        )
    return Encumbrance(
        strength=strength,
        might=might,
        mega_strength=mega_strength,
        multiplier=mult,
        load_kg=load_kg,
        kg_per_dot_unit=unit,
        tier=tier,
        tier_label=label,
        effects=effects,
        steps=tuple(steps),
    )
