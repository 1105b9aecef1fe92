"""Falling: the safe distance, the damage dice, the break-fall roll and lethal damage.

Quick reference › Falling:

    A character can safely fall (Stamina - 1) * 2 meters without taking damage.
    Past that, falling damage is 1d/2 meters (round down) for the first 20
    meters and then 1d/5 meters past that, up to 40d pre-soak damage from a
    fall (at ~170m). Fall damage is lethal if the damage equals or exceeds the
    character's (Stamina + Athletics).

    A character may roll (Dexterity + Athletics) to break a fall, with each
    success reducing fall damage by 1 per success.

Quick reference › Mega-Attributes: "Unless stated otherwise (or separately
accounted for), each dot of a Mega-Attribute counts for 2 dots of an
attribute." The falling rule does not account for Mega-Stamina or
Mega-Dexterity, so each of their dots counts 2 dots of Stamina (safe distance,
lethal threshold) or Dexterity (break-fall pool); in 2.1 Mega-Dexterity also
rerolls 10s on the break-fall roll (2.1 Rules › Specialties).

Soak is left out: the text's figures are "pre-soak", and which soak applies
depends on whether the damage is lethal (rules note RN-FALL-5).

Quick reference › Encumbrance: Moderate adds "+1 difficulty to all physical
actions involving movement or endurance", Heavy "+2"; 2.0 Rules › Combat ›
Dazing/Stunning: "Dazed characters are at +1 difficulty to all actions". The
break-fall roll is a physical action involving movement; the faller's
conditions reach it through :func:`ruleslab.quickref.conditions.on_roll` (a
:class:`~ruleslab.quickref.conditions.Modifier`). Its first successes pay for the added
difficulty and each further one removes a die (rules notes RN-COND-5,
RN-FALL-7).

Readings of the text: ``docs/rules-notes/falling.md`` (RN-FALL-1 … RN-FALL-7).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.decimals import equals, fmt_exact, typed_decimal
from ruleslab.dice import pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.quickref.conditions import Modifier, defence_successes, paid_by
from ruleslab.quickref.encumbrance import ENCUMBRANCE, Encumbrance
from ruleslab.quickref.mega import effective
from ruleslab.quickref.specialties import specialty_and_rerolls
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = [
    "COUNT_FROM",
    "FIRST_SEGMENT_M",
    "MAX_DICE",
    "FallResult",
    "damage_dice",
    "fall",
    "safe_distance_m",
]

FALLING = rule(QR, "Falling")

FIRST_SEGMENT_M = 20
""""1d/2 meters (round down) for the first 20 meters"."""

MAX_DICE = 40
""""up to 40d pre-soak damage from a fall"."""


def safe_distance_m(stamina: int) -> int:
    """``(Stamina − 1) × 2`` metres (Stamina here is the effective one, Mega dots counted)."""
    return (stamina - 1) * 2


COUNT_FROM = ("safe", "top", "threshold")
"""The readings of where a fall's dice are counted from (rules note RN-FALL-1)."""


def _segments(h: Fraction, safe_m: int, count_from: str) -> tuple[Fraction, Fraction]:
    """(metres at 1 die per 2 m, metres at 1 die per 5 m) of a fall of ``h`` metres."""
    if count_from == "safe":
        past = max(Fraction(0), h - safe_m)
        first = min(past, Fraction(FIRST_SEGMENT_M))
        return first, past - first
    if count_from == "top":
        first = max(Fraction(0), min(h, Fraction(FIRST_SEGMENT_M)) - safe_m)
        return first, max(Fraction(0), h - max(FIRST_SEGMENT_M, safe_m))
    if count_from == "threshold":
        if h <= safe_m:
            return Fraction(0), Fraction(0)
        first = min(h, Fraction(FIRST_SEGMENT_M))
        return first, h - first
    raise ValueError(f"count_from must be one of {', '.join(COUNT_FROM)}, not {count_from!r}")


def damage_dice(height_m: Fraction | float, safe_m: int, count_from: str = "safe") -> int:
    """Damage dice of a fall of ``height_m`` with ``safe_m`` safe metres, capped at 40.

    ``count_from="safe"``: the first 20 m are the first 20 m past the safe
    distance; ``"top"``: the first 20 m of the fall itself, less the safe
    distance; ``"threshold"``: the safe distance is only a threshold, and a
    longer fall counts all its metres from the top (RN-FALL-1). Each part
    rounds down on its own.
    """
    h = typed_decimal(height_m)  # as typed: 19.999 m is 19999/1000 m
    first, rest = _segments(h, safe_m, count_from)
    return min(MAX_DICE, math.floor(first / 2) + math.floor(rest / 5))


@dataclass(frozen=True, kw_only=True)
class FallResult(Explained):
    """A fall's damage dice, their exact distribution after the break-fall, and P(lethal).

    ``dice_left[d]`` is ``P(d damage dice remain)`` for ``d = 0 … damage_dice``
    (exact, rerolled 10s included). ``p_lethal`` is the chance the damage is
    lethal (Lethal damage rather than Bashing, RN-FALL-3) under ``lethal_means``.
    ``added_difficulty``: what the faller's conditions added to the break-fall roll
    (its first successes pay for it, RN-FALL-7; 0 when no roll was made).
    """

    height_m: float
    effective_stamina: int
    effective_dexterity: int
    athletics: int
    safe_m: int
    damage_dice: int
    break_fall: bool
    break_dice: int
    reroll_tens: bool
    dice_left: tuple[Fraction, ...]
    mean_dice_left: Fraction
    threshold: int
    lethal_means: str
    p_lethal: Fraction
    added_difficulty: int = 0

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("safe_distance", "Safe distance", self.safe_m, fmt_num(self.safe_m, "m")),
            Figure("damage_dice", "Damage dice", self.damage_dice, f"{self.damage_dice}d"),
            Figure(
                "mean_dice_left",
                "Dice left after the break-fall (mean)",
                self.mean_dice_left,
                f"{fmt_num(self.mean_dice_left)}d",
            ),
            Figure(
                "threshold",
                "Lethal at (Stamina + Athletics)",
                self.threshold,
                str(self.threshold),
            ),
            Figure(
                "p_lethal", "Chance the damage is lethal", self.p_lethal, fmt_prob(self.p_lethal)
            ),
        )


def _rolled_at_least(dice: int, k: int) -> Fraction:
    """P(at least ``k`` successes on ``dice`` damage d10s, 7+, no rerolls)."""
    return pool_distribution(dice).at_least(k)


def fall(
    height_m: float,
    stamina: int,
    dexterity: int,
    athletics: int,
    mega_stamina: int = 0,
    mega_dexterity: int = 0,
    break_fall: bool = True,
    ruleset: str = V21,
    specialty: bool = False,
    count_from: str = "safe",
    lethal_means: str = "dice",
    conditions: Modifier | None = None,
    load: Encumbrance | None = None,
) -> FallResult:
    """Damage dice of a fall, the dice left after a break-fall roll, and the chance
    the damage is lethal.

    Safe = (Stamina − 1) × 2 m; past it 1 die per 2 m for the first 20 m, then 1
    die per 5 m, at most 40 dice; each break-fall success (Dexterity +
    Athletics) removes a die; lethal if the damage reaches Stamina + Athletics.

    ``conditions``: what the faller's conditions do to the break-fall roll
    (:func:`ruleslab.quickref.conditions.on_roll`): its first ``conditions.difficulty``
    successes pay for the added difficulty, each further one removes a die
    (RN-COND-5, RN-FALL-7); if the roll is not ``allowed`` it is not made.
    ``load``: the encumbrance of what he carries; a load he cannot move with
    leaves no break-fall roll (RN-ENC-2). Its difficulty is already in ``conditions``.
    """
    steps: list[Step] = []
    sta = effective("Stamina", stamina, mega_stamina, purpose="for falling")
    dex = effective("Dexterity", dexterity, mega_dexterity, purpose="for breaking a fall")
    if sta.step is not None:
        steps.append(sta.step)
    stamina_dots = sta.value
    safe = safe_distance_m(stamina_dots)
    steps.append(
        Step(f"Safe distance = (Stamina {stamina_dots} − 1) × 2 = {fmt_num(safe, 'm')}", FALLING)
    )

    h = typed_decimal(float(height_m))
    dice = damage_dice(h, safe, count_from)
    first, rest = _segments(h, safe, count_from)
    if count_from == "safe":
        past = max(Fraction(0), h - safe)
        where = (
            f"Fall {fmt_exact(h, 'm')} − safe {fmt_num(safe, 'm')} = {fmt_exact(past, 'm')} "
            f"past the safe distance: the first {fmt_exact(first, 'm')} at 1 die per 2 m"
        )
    elif count_from == "top":
        where = (
            f"Fall {fmt_exact(h, 'm')}: {fmt_exact(first, 'm')} between the safe distance and "
            "20 m below the start at 1 die per 2 m"
        )
    else:
        where = (
            f"Fall {fmt_exact(h, 'm')} > safe distance {fmt_num(safe, 'm')}: the safe distance "
            "is only a threshold, so the dice count from the top of the fall: the first "
            f"{fmt_exact(first, 'm')} at 1 die per 2 m"
        )
    raw = math.floor(first / 2) + math.floor(rest / 5)
    text = (
        f"{where} → ⌊{fmt_exact(first)} ÷ 2⌋ = {math.floor(first / 2)}, the next "
        f"{fmt_exact(rest, 'm')} at 1 die per 5 m → ⌊{fmt_exact(rest)} ÷ 5⌋ = "
        f"{math.floor(rest / 5)}; {raw} dice (rules note RN-FALL-1)"
    )
    if h <= safe:
        text = f"Fall {fmt_exact(h, 'm')} ≤ safe distance {fmt_num(safe, 'm')}: no damage"
    steps.append(Step(text, FALLING))
    if raw > MAX_DICE:
        steps.append(Step(f"At most {MAX_DICE} dice from a fall: {MAX_DICE} dice", FALLING))

    threshold = stamina_dots + athletics
    steps.append(
        Step(
            f"Lethal if the damage equals or exceeds Stamina {stamina_dots} + "
            f"Athletics {athletics} = "
            f"{threshold} (Lethal rather than Bashing damage, rules note RN-FALL-3)",
            FALLING,
        )
    )

    # The break-fall roll.
    pool = 0
    reroll = False
    added = 0
    rolls = bool(break_fall and dice)
    if rolls and load is not None and not load.effects.can_move:
        rolls = False  # no roll: what his conditions would add to it does not matter
        steps.append(
            Step(
                f"{load.tier_label}: he cannot move while carrying this load, so he cannot "
                "break the fall (rules notes RN-ENC-2, RN-FALL-7)",
                ENCUMBRANCE,
            )
        )
    if rolls and conditions is not None:
        steps.extend(conditions.steps)
        rolls = conditions.allowed
    if rolls:
        added = conditions.difficulty if conditions is not None else 0
        if dex.step is not None:
            steps.append(dex.step)
        pool = dex.value + athletics
        parts = [f"Dex {dex.value}", f"Athletics {athletics}"]
        if specialty and ruleset == V21:
            pool += 1
            parts.append("specialty 1")
        less = conditions.less() if conditions is not None else ""
        if conditions is not None:  # his wound penalty (rules note RN-COND-7)
            pool = max(0, pool - conditions.dice)
        steps.append(
            Step(
                f"Break-fall roll = {' + '.join(parts)}{less} = {pool} "
                f"{'die' if pool == 1 else 'dice'}; "
                "each success removes one damage die",
                FALLING,
            )
        )
        reroll, reroll_steps = specialty_and_rerolls(
            "the break-fall roll", ruleset, specialty, "Dexterity", mega_dexterity
        )
        steps.extend(reroll_steps)
        if added:
            steps.append(
                Step(
                    f"+{added} difficulty on the break-fall roll: {paid_by(added)} for it, each "
                    "further success removes one damage die (the reading of a difficulty on a "
                    "defence roll, rules notes RN-COND-5, RN-FALL-7)",
                    FALLING,
                )
            )
        succ = pool_distribution(pool, 0, 7, reroll, upto=dice + added)
        # c = max(0, rolled − added) successes count (RN-COND-5), each removing a die
        counted = defence_successes(succ.pmf, added)
        left = [Fraction(0)] * (dice + 1)
        for c in range(min(dice, len(counted))):
            left[dice - c] = counted[c]
        left[0] = succ.at_least(dice + added)  # exact: the table reaches `dice + added`
        if added:
            text = (
                f"Dice left = {dice} − (successes − {added}) (neither below 0): P(0 left) = "
                f"P(≥ {dice} + {added} = {dice + added} successes): {fmt_prob(left[0])}"
            )
        else:
            text = (
                f"Dice left = {dice} − successes (not below 0): P(0 left) = P(≥ {dice} "
                f"successes): {fmt_prob(left[0])}"
            )
        steps.append(Step(text, FALLING))
    else:
        left = [Fraction(0)] * dice + [Fraction(1)]
        if dice:
            steps.append(Step(f"No break-fall roll: all {dice} dice remain", FALLING))
    mean = sum((d * p for d, p in enumerate(left)), Fraction(0))
    if rolls:
        steps.append(Step(f"Mean dice left {equals(mean)}", FALLING))

    if lethal_means == "dice":
        p_lethal = sum(left[threshold:], Fraction(0))
        steps.append(
            Step(
                f"P(lethal) = P(≥ {threshold} dice left): {fmt_prob(p_lethal)} "
                "(damage counted in dice, rules note RN-FALL-2)",
                FALLING,
            )
        )
    else:
        p_lethal = sum(
            (p * _rolled_at_least(d, threshold) for d, p in enumerate(left) if p),
            Fraction(0),
        )
        steps.append(
            Step(
                f"P(lethal) = Σ P(d dice left) × P(≥ {threshold} successes on d damage dice, "
                f"7+, no rerolls): {fmt_prob(p_lethal)} (damage rolled, rules note RN-FALL-2)",
                FALLING,
            )
        )
    steps.append(
        Step(
            "Soak is not applied: the fall's dice are pre-soak (rules note RN-FALL-5)",
            FALLING,
        )
    )

    return FallResult(
        height_m=height_m,
        effective_stamina=stamina_dots,
        effective_dexterity=dex.value,
        athletics=athletics,
        safe_m=safe,
        damage_dice=dice,
        break_fall=break_fall,
        break_dice=pool,
        reroll_tens=reroll,
        dice_left=tuple(left),
        mean_dice_left=mean,
        threshold=threshold,
        lethal_means=lethal_means,
        p_lethal=p_lethal,
        added_difficulty=added,
        steps=tuple(steps),
    )
