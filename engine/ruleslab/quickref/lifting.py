"""Lifting: capacity, the Mega-Strength multiplier and the lift roll.

Quick reference › Lifting:

    Characters can lift 30kg times their (Strength + Might) total. To lift more
    than that, a character requires a Str + Might roll, with difficulty of half
    the Str + Might value needed to lift the object, minus 1. Round down. (So a
    450kg object, requiring Str/Might 15, has difficulty 15/2 = 7.5 - 1 = 6.5,
    rounded to 6). Success adds +1 to the character's Str + Might, exceptional
    success (more than 5 net successes rolled) adds +2.

    Mega-Strength multiplies lifting capacity by 10/100/250/500/1000 at M-Str
    1-5. Mega-Strength scores beyond 5 multiply lifting capacity by an
    additional 10 per dot.

Where the text is ambiguous the reading is an option; see
``docs/rules-notes/lifting.md`` (RN-LIFT-1 … RN-LIFT-6). The carried load's
encumbrance is :mod:`ruleslab.quickref.encumbrance`; the Lifting & encumbrance
calculator combining both is :mod:`ruleslab.calculators.lifting`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.decimals import typed_decimal
from ruleslab.dice import dice_text, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob, fmt_prob_bound
from ruleslab.quickref.conditions import Modifier
from ruleslab.quickref.encumbrance import (
    KG_PER_DOT,
    LIFTING,
    capacity_step,
    kg,
    lift_capacity_kg,
    mega_strength_multiplier,
    multiplier_step,
)
from ruleslab.quickref.mega import MEGA_ATTRIBUTES
from ruleslab.quickref.specialties import specialty_and_rerolls

__all__ = [
    "KG_PER_DOT",
    "LiftResult",
    "lift",
    "lift_capacity_kg",
    "mega_strength_multiplier",
]

EXCEPTIONAL_NET = 6
""""More than 5 net successes": the fewest net successes that are exceptional."""


@dataclass(frozen=True, kw_only=True)
class LiftResult(Explained):
    """Whether an object can be lifted, and the roll it takes.

    ``needed`` is the Str + Might the object needs; ``margin`` how far that is
    above the character's Str + Might (0 or less: no roll). ``requirement`` is
    ``"none"`` (no roll), ``"success"``, ``"exceptional"``, ``"impossible"`` or
    ``"not_allowed"`` (a roll he may not make this turn: a sprinter's, RN-COND-2).
    ``difficulty``, ``dice`` and ``reroll_tens`` describe the roll. ``difficulty`` is
    the object's lift difficulty ("half the Str + Might value needed to lift the
    object, minus 1. Round down."): given also when the object is out of reach
    (``"impossible"``: no roll, ``dice`` 0), ``None`` only when no roll is needed.
    """

    strength: int
    might: int
    mega_strength: int
    multiplier: int
    capacity_kg: int
    object_kg: float
    needed: int
    margin: int
    requirement: str
    difficulty: int | None
    dice: int
    reroll_tens: bool
    p_lift: Fraction
    p_lift_unresolved: Fraction = Fraction(0)

    @property
    def roll_needed(self) -> bool:
        return self.requirement in ("success", "exceptional")

    def roll_text(self) -> str:
        """ "No", "Yes", "Cannot lift" or "Not allowed this turn"."""
        return {
            "none": "No",
            "impossible": "Cannot lift",
            "not_allowed": "Not allowed this turn",
        }.get(self.requirement, "Yes")

    def p_lift_text(self) -> str:
        """``p_lift`` as a percentage; "< …" when only its upper bound is known."""
        return fmt_prob_bound(self.p_lift, self.p_lift_unresolved)

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("capacity", "Lift capacity", self.capacity_kg, kg(self.capacity_kg)),
            Figure("roll_needed", "Lift roll needed", self.requirement, self.roll_text()),
            Figure(
                "difficulty",
                "Lift roll difficulty",
                self.difficulty,
                "—" if self.difficulty is None else fmt_num(self.difficulty),
            ),
            Figure("p_lift", "Chance to lift", self.p_lift, self.p_lift_text()),
        )


def _roll_pool(
    strength: int, might: int, mega_strength: int, ruleset: str, specialty: bool, mega_on_roll: str
) -> tuple[int, bool, list[Step]]:
    """Dice in the lift roll, whether 10s reroll, and the steps saying why."""
    dice = strength + might
    parts = [f"Str {strength} + Might {might}"]
    if mega_on_roll == "dice" and mega_strength:
        dice += 2 * mega_strength
        parts.append(f"2 × M-Str {mega_strength}")
    if specialty and ruleset == "2.1":
        dice += 1
        parts.append("specialty 1")
    steps = [
        Step(
            f"Lift roll pool = {' + '.join(parts)} = {dice} {'die' if dice == 1 else 'dice'}",
            LIFTING,
        )
    ]
    if mega_on_roll == "dice" and mega_strength:
        steps.append(
            Step(
                f"Each Mega-Strength dot counts as 2 dots: +{2 * mega_strength} dice",
                MEGA_ATTRIBUTES,
            )
        )
    reroll, reroll_steps = specialty_and_rerolls(
        "the lift roll", ruleset, specialty, "Strength", mega_strength
    )
    steps.extend(reroll_steps)
    return dice, reroll, steps


def _p_at_least(dice: int, k: int, reroll: bool) -> tuple[Fraction, Fraction]:
    """(P(at least k successes) on ``dice`` d10s, how much it may understate the truth).

    The second value is 0 when the first is exact. It is only positive when 10s
    reroll and ``k`` lies beyond the dice table, whose omitted tail (< 10⁻¹²)
    bounds the true value from above.
    """
    dist = pool_distribution(dice, target=7, reroll_tens=reroll)
    p = dist.at_least(k)
    unresolved = dist.tail_bound if k > len(dist.pmf) else Fraction(0)
    return p, unresolved


def lift(
    strength: int,
    might: int,
    mega_strength: int,
    object_kg: float,
    ruleset: str = "2.1",
    specialty: bool = False,
    net_successes: str = "beyond",
    low_difficulty: str = "one",
    mega_on_roll: str = "multiplier",
    conditions: Modifier | None = None,
) -> LiftResult:
    """Can the character lift an object of ``object_kg``, and with what chance?

    Needed Str + Might = ⌈weight ÷ (30 kg × multiplier)⌉. At or under the
    character's Str + Might: no roll. One over: a Str + Might roll at difficulty
    ⌊needed ÷ 2 − 1⌋ lifts it on a success ("Success adds +1 to the character's
    Str + Might"). Two over: only an exceptional success does ("exceptional
    success (more than 5 net successes rolled) adds +2"). More: impossible.

    ``conditions``: what the lifter's conditions do to the roll
    (:func:`ruleslab.quickref.conditions.on_roll`): its difficulty is added to the
    object's, and its steps are shown with the roll; a roll they do not allow
    (a sprinter "may not take any actions during the turn except defensive
    maneuvers", rules note RN-COND-2) is not made: "not allowed", P(lift) = 0.
    """
    mult = mega_strength_multiplier(mega_strength)
    dots = strength + might
    capacity = lift_capacity_kg(strength, might, mega_strength)
    unit = KG_PER_DOT * mult
    steps = [multiplier_step(mega_strength, mult), capacity_step(strength, might, mult, capacity)]

    weight = typed_decimal(object_kg)
    needed = math.ceil(weight / unit)
    per = f"{KG_PER_DOT} kg" if mult == 1 else f"({KG_PER_DOT} kg × {fmt_num(mult)})"
    steps.append(
        Step(
            f"Str + Might needed for {kg(object_kg)} = ⌈{kg(object_kg)} ÷ {per}⌉ = "
            f"{fmt_num(needed)}",
            LIFTING,
        )
    )
    margin = needed - dots

    def result(
        requirement: str,
        difficulty: int | None,
        dice: int,
        reroll: bool,
        p: Fraction,
        unresolved: Fraction = Fraction(0),
    ) -> LiftResult:
        return LiftResult(
            strength=strength,
            might=might,
            mega_strength=mega_strength,
            multiplier=mult,
            capacity_kg=capacity,
            object_kg=object_kg,
            needed=needed,
            margin=margin,
            requirement=requirement,
            difficulty=difficulty,
            dice=dice,
            reroll_tens=reroll,
            p_lift=p,
            p_lift_unresolved=unresolved,
            steps=tuple(steps),
        )

    if margin <= 0:
        steps.append(
            Step(
                f"Needed {needed} ≤ Str {strength} + Might {might} = {dots}: "
                f"lifted without a roll, P(lift) = 100 %",
                LIFTING,
            )
        )
        return result("none", None, 0, False, Fraction(1))
    # The object's difficulty: "half the Str + Might value needed to lift the object,
    # minus 1. Round down." It belongs to the object, so it is given even when no roll
    # can reach it.
    half = Fraction(needed, 2) - 1
    raw = math.floor(half)
    steps.append(
        Step(
            f"Difficulty = ⌊{fmt_num(needed)} ÷ 2 − 1⌋ = ⌊{fmt_num(half)}⌋ = {fmt_num(raw)}",
            LIFTING,
        )
    )
    difficulty = raw
    if raw < 1:
        difficulty = 1 if low_difficulty == "one" else 0
        if low_difficulty == "one":
            note = "raised to 1: a roll needs at least one success (rules note RN-LIFT-2)"
        else:
            note = (
                f"{'taken as 0' if raw < 0 else 'difficulty 0'}: the success is "
                "automatic (rules note RN-LIFT-2)"
            )
        steps.append(Step(f"Difficulty {raw} < 1 → {difficulty}, {note}", LIFTING))
    if conditions is not None and not conditions.allowed and margin <= 2:
        steps.extend(conditions.steps)
        steps.append(
            Step(
                "The lift roll is not allowed this turn: it is not made, P(lift) = 0 % "
                "(rules note RN-COND-2)",
                LIFTING,
            )
        )
        return result("not_allowed", difficulty, 0, False, Fraction(0))
    if conditions is not None and conditions.difficulty:
        steps.extend(conditions.steps)
        steps.append(
            Step(
                f"Difficulty {fmt_num(difficulty)} + {conditions.difficulty} from his conditions "
                f"= {fmt_num(difficulty + conditions.difficulty)}",
                LIFTING,
            )
        )
        difficulty += conditions.difficulty

    if margin > 2:
        steps.append(
            Step(
                f"Needed {fmt_num(needed)} = Str + Might {dots} + {fmt_num(margin)}: a roll adds "
                "at most +2 (exceptional success), so it cannot be lifted, P(lift) = 0 %; the "
                f"object's difficulty {fmt_num(difficulty)} is shown for reference "
                "(rules note RN-LIFT-6)",
                LIFTING,
            )
        )
        return result("impossible", difficulty, 0, False, Fraction(0))

    dice, reroll, pool_steps = _roll_pool(
        strength, might, mega_strength, ruleset, specialty, mega_on_roll
    )
    steps.extend(pool_steps)
    if conditions is not None and conditions.dice:  # his wound penalty (rules note RN-COND-7)
        dice = max(0, dice - conditions.dice)
        steps.append(Step(f"Less his wound penalty {conditions.dice}: {dice_text(dice)}", LIFTING))
    how = f"{dice} {'die' if dice == 1 else 'dice'}" + (", 10s rerolled" if reroll else "")

    if margin == 1:
        k = difficulty
        p, unresolved = _p_at_least(dice, k, reroll)
        steps.append(
            Step(
                f"Needed {needed} = Str + Might {dots} + 1: a success (+1) lifts it; "
                f"P(lift) = P(≥ {k} successes on {how}) = {fmt_prob_bound(p, unresolved)}",
                LIFTING,
            )
        )
        requirement = "success"
    else:
        if net_successes == "beyond":
            k = difficulty + EXCEPTIONAL_NET
            why = f"difficulty {difficulty} + 6 net successes = {k} successes"
        else:
            k = max(difficulty, EXCEPTIONAL_NET)
            why = f"at least 6 successes rolled (and the difficulty {difficulty}) = {k} successes"
        p, unresolved = _p_at_least(dice, k, reroll)
        steps.append(
            Step(
                f"Needed {needed} = Str + Might {dots} + 2: only an exceptional success (+2) "
                f"lifts it: {why} (rules note RN-LIFT-1); "
                f"P(lift) = P(≥ {k} successes on {how}) = {fmt_prob_bound(p, unresolved)}",
                LIFTING,
            )
        )
        requirement = "exceptional"
    if unresolved:
        steps.append(
            Step(
                f"{k} successes lie beyond the dice table: the chance is under its "
                f"omitted tail, {fmt_prob(unresolved)}",
                LIFTING,
            )
        )
    if dice == 0 and p == 0:
        steps.append(
            Step("A pool of 0 dice rolls no successes, so the roll cannot succeed", LIFTING)
        )
    return result(requirement, difficulty, dice, reroll, p, unresolved)
