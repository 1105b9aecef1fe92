"""Jumping: the (Strength + Athletics) roll and the exact distribution of the distance.

Quick reference › Movement › Jumping:

    Jumping is a (Strength + Athletics) roll, giving the character a 0.5 meter
    vertical jump or 2m horizontal leap per success. Mega-Strength adds 5
    automatic successes per dot, giving an additional 2.5 meters of height or
    10m of horizontal distance, and additionally jumping distances and heights
    are multiplied by (Mega-Strength + 1).

Quick reference › 2.0 Rules › Specialties: "Specialties allow a character to
reroll 10s if applicable." › 2.1 Rules › Specialties: "Specialties allow a
character to add +1 to their dice pool if applicable. Mega-Attributes allow a
character to reroll 10s if applicable."

Quick reference › Encumbrance: Moderate adds "+1 difficulty to all physical
actions involving movement or endurance", Heavy "+2"; 2.0 Rules › Combat ›
Dazing/Stunning: "Dazed characters are at +1 difficulty to all actions". The
jump roll is a physical action involving movement; the jumper's conditions
reach it through :func:`ruleslab.quickref.conditions.on_roll` (a
:class:`~ruleslab.quickref.conditions.Modifier`). Each point of added difficulty is paid
with one success, the rest count (rules notes RN-COND-5, RN-JUMP-5).

Distance = successes × (0.5 m or 2 m) × (Mega-Strength + 1), so the distance's
distribution is the success distribution of :func:`ruleslab.dice.pool_distribution`
relabelled. Readings of the text: ``docs/rules-notes/jumping.md`` (RN-JUMP-1 …
RN-JUMP-5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.decimals import equals, fmt_exact, typed_decimal
from ruleslab.dice import SuccessDistribution, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob_bound
from ruleslab.pmf import Dist
from ruleslab.quickref.conditions import Modifier, defence_successes, paid_by
from ruleslab.quickref.encumbrance import ENCUMBRANCE, Encumbrance
from ruleslab.quickref.mega import MEGA_ATTRIBUTES
from ruleslab.quickref.specialties import specialty_and_rerolls
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = [
    "AUTO_PER_MEGA_DOT",
    "METRES_PER_SUCCESS",
    "JumpResult",
    "exact_metres",
    "jump",
]

JUMPING = rule(QR, "Movement", "Jumping")

METRES_PER_SUCCESS = {"vertical": Fraction(1, 2), "horizontal": Fraction(2)}
""""a 0.5 meter vertical jump or 2m horizontal leap per success"."""

AUTO_PER_MEGA_DOT = 5
""""Mega-Strength adds 5 automatic successes per dot"."""

EXTRA_TABLE = 100
"""With rerolled 10s, the success table is resolved up to dice + automatic + this many."""


def exact_metres(x: float) -> Fraction:
    """A distance typed in metres as the exact decimal it was written as (0.1 → 1/10)."""
    return typed_decimal(float(x))


@dataclass(frozen=True, kw_only=True)
class JumpResult(Explained):
    """A jump's pool, the exact distribution of its distance and the chance to clear a gap.

    ``distribution`` is the distribution of the successes that count (automatic
    ones included, less the ``added_difficulty`` his conditions put on the roll,
    which its first successes pay for: RN-JUMP-5); a jump with ``k`` of them
    covers ``k × metres_per_success``. ``allowed``: whether he may jump at all
    (not while his load keeps him from moving, RN-JUMP-5).
    ``p_clear`` is exact unless ``p_clear_unresolved`` is positive: then the
    successes needed lie beyond the resolved rerolled-10s table and the true
    chance lies in ``[p_clear, p_clear + p_clear_unresolved]`` (RN-JUMP-4).
    """

    strength: int
    athletics: int
    mega_strength: int
    direction: str
    distance_m: float
    dice: int
    auto_successes: int
    reroll_tens: bool
    metres_per_success: Fraction
    successes_needed: int
    distribution: SuccessDistribution
    p_clear: Fraction
    p_clear_unresolved: Fraction
    mean_distance: Fraction
    added_difficulty: int = 0
    allowed: bool = True

    def p_clear_text(self) -> str:
        """``p_clear`` as a percentage; "< …"/"≤ …" when only its upper bound is known."""
        return fmt_prob_bound(self.p_clear, self.p_clear_unresolved)

    def figures(self) -> tuple[Figure, ...]:
        pool = f"{self.dice} {'die' if self.dice == 1 else 'dice'}"
        if self.auto_successes:
            pool += f" + {self.auto_successes} automatic"
        if self.reroll_tens:
            pool += ", 10s reroll"
        return (
            Figure("p_clear", "Chance to clear it", self.p_clear, self.p_clear_text()),
            Figure(
                "mean_distance",
                "Mean distance",
                self.mean_distance,
                fmt_num(self.mean_distance, "m"),
            ),
            Figure(
                "successes_needed",
                "Successes needed",
                self.successes_needed,
                str(self.successes_needed),
            ),
            Figure("pool", "Jump roll", (self.dice, self.auto_successes, self.reroll_tens), pool),
        )


def jump(
    strength: int,
    athletics: int,
    mega_strength: int,
    direction: str,
    distance_m: float,
    ruleset: str = V21,
    specialty: bool = False,
    mega_in_pool: str = "separate",
    conditions: Modifier | None = None,
    load: Encumbrance | None = None,
) -> JumpResult:
    """How far a jump goes (exact distribution) and the chance it clears ``distance_m``.

    Pool = Strength + Athletics ("Jumping is a (Strength + Athletics) roll"), +5
    automatic successes per Mega-Strength dot; each success is 0.5 m up or 2 m
    across, and the whole distance is multiplied by (Mega-Strength + 1).

    ``conditions``: what the jumper's conditions do to the roll
    (:func:`ruleslab.quickref.conditions.on_roll`): its first ``conditions.difficulty``
    successes pay for the added difficulty and the rest count (RN-COND-5,
    RN-JUMP-5); if the roll is not ``allowed`` he does not jump. ``load``: the
    encumbrance of what he carries; a load he cannot move with keeps him from
    jumping (RN-ENC-2). Its difficulty is already in ``conditions``.
    """
    per = METRES_PER_SUCCESS[direction]
    mult = mega_strength + 1
    mps = per * mult
    auto = AUTO_PER_MEGA_DOT * mega_strength
    steps: list[Step] = []

    dice = strength + athletics
    parts = [f"Str {strength} + Athletics {athletics}"]
    if mega_in_pool == "dice" and mega_strength:
        dice += 2 * mega_strength
        parts.append(f"2 × M-Str {mega_strength}")
    if specialty and ruleset == V21:
        dice += 1
        parts.append("specialty 1")
    steps.append(
        Step(f"Jump pool = {' + '.join(parts)} = {dice} {'die' if dice == 1 else 'dice'}", JUMPING)
    )
    if mega_strength:
        if mega_in_pool == "dice":
            steps.append(
                Step(
                    f"Each Mega-Strength dot counts as 2 Strength dots: +{2 * mega_strength} dice "
                    "(rules note RN-JUMP-1)",
                    MEGA_ATTRIBUTES,
                )
            )
        else:
            steps.append(
                Step(
                    "Mega-Strength is accounted for separately by the jumping rule (automatic "
                    "successes and the multiplier), so it adds no Strength dots to the pool "
                    "(rules note RN-JUMP-1)",
                    MEGA_ATTRIBUTES,
                )
            )
        steps.append(
            Step(
                f"Mega-Strength {mega_strength}: +{AUTO_PER_MEGA_DOT} × {mega_strength} = "
                f"{auto} automatic successes",
                JUMPING,
            )
        )
    reroll, reroll_steps = specialty_and_rerolls(
        "the jump roll", ruleset, specialty, "Strength", mega_strength
    )
    steps.extend(reroll_steps)

    if conditions is not None and conditions.dice:  # his wound penalty (rules note RN-COND-7)
        dice = max(0, dice - conditions.dice)
    added = conditions.difficulty if conditions is not None else 0
    allowed = conditions is None or conditions.allowed
    if load is None or load.effects.can_move:
        steps.extend(conditions.steps if conditions is not None else ())
    else:  # no roll: what his conditions would add to it does not matter
        allowed = False
        steps.append(
            Step(
                f"{load.tier_label}: he cannot move while carrying this load, so he cannot "
                "jump (rules notes RN-ENC-2, RN-JUMP-5)",
                ENCUMBRANCE,
            )
        )
    if allowed and added:
        steps.append(
            Step(
                f"+{added} difficulty on the jump roll: {paid_by(added)} for it, only the "
                "rest count for the distance (the reading of a difficulty on a defence roll, "
                "rules notes RN-COND-5, RN-JUMP-5)",
                JUMPING,
            )
        )

    way = "up" if direction == "vertical" else "across"
    times = f" × (Mega-Strength {mega_strength} + 1)" if mega_strength else ""
    steps.append(
        Step(
            f"Each success covers {fmt_exact(per, 'm')} {way}{times} = {fmt_exact(mps, 'm')} "
            "(the multiplier applies to the whole distance, rules note RN-JUMP-2)",
            JUMPING,
        )
    )

    target = exact_metres(distance_m)
    needed = math.ceil(target / mps)
    steps.append(
        Step(
            f"Successes needed to clear {fmt_exact(target, 'm')} = "
            f"⌈{fmt_exact(target)} ÷ {fmt_exact(mps)}⌉ = {needed}",
            JUMPING,
        )
    )

    def result(
        dice: int,
        auto: int,
        reroll: bool,
        dist: SuccessDistribution,
        p: Fraction,
        unresolved: Fraction,
        mean: Fraction,
    ) -> JumpResult:
        return JumpResult(
            strength=strength,
            athletics=athletics,
            mega_strength=mega_strength,
            direction=direction,
            distance_m=distance_m,
            dice=dice,
            auto_successes=auto,
            reroll_tens=reroll,
            metres_per_success=mps,
            successes_needed=needed,
            distribution=dist,
            p_clear=p,
            p_clear_unresolved=unresolved,
            mean_distance=mean,
            added_difficulty=added if allowed else 0,
            allowed=allowed,
            steps=tuple(steps),
        )

    if not allowed:
        p = Fraction(1) if needed <= 0 else Fraction(0)
        steps.append(
            Step(f"No jump: it covers 0 m, P(clear) = {fmt_prob_bound(p, Fraction(0))}", JUMPING)
        )
        return result(0, 0, False, pool_distribution(0), p, Fraction(0), Fraction(0))

    upto = min(needed + added, dice + auto + EXTRA_TABLE) if reroll else 0
    rolled = pool_distribution(dice, auto, 7, reroll, upto=upto)
    dist = _counted(rolled, added)
    p = dist.at_least(needed)
    unresolved = dist.tail_bound if needed > dist.highest + 1 else Fraction(0)
    how = f"{dice} {'die' if dice == 1 else 'dice'}"
    if auto:
        how += f" + {auto} automatic"
    if reroll:
        how += ", 10s rerolled"
    if needed <= auto - added:
        why = f"the {auto} automatic successes alone clear it"
    elif needed > dist.highest + 1 and not reroll:
        why = f"at most {rolled.highest} successes are possible"
    else:
        why = ""
    result_text = fmt_prob_bound(p, unresolved)
    rolled_needed = f"{needed} + {added} = {needed + added}" if added and needed > 0 else needed
    steps.append(
        Step(
            f"P(clear) = P(≥ {rolled_needed} successes on {how}) = {result_text}"
            + (f": {why}" if why else ""),
            JUMPING,
        )
    )
    if unresolved:
        steps.append(
            Step(
                f"{needed} successes lie beyond the resolved table of rerolled 10s: the chance "
                f"is below its exact omitted tail (rules note RN-JUMP-4)",
                JUMPING,
            )
        )
    per_die = "4/9" if reroll else "4/10"
    mean_succ = dist.full_mean if dist.full_mean is not None else dist.mean()
    mean = mean_succ * mps
    if added:
        mean_text = (
            f"Mean distance = mean of max(0, successes − {added}) on {how} "
            f"× {fmt_exact(mps, 'm')} {equals(mean, 'm')}"
        )
    else:
        mean_text = (
            f"Mean distance = ({dice} × {per_die} + {auto}) successes × {fmt_exact(mps, 'm')} "
            f"{equals(mean, 'm')}"
        )
    steps.append(Step(mean_text, JUMPING))
    if dice == 0 and auto == 0:
        steps.append(Step("A pool of 0 dice rolls no successes: the jump covers 0 m", JUMPING))

    return result(dice, auto, reroll, dist, p, unresolved, mean)


def _counted(rolled: SuccessDistribution, added: int) -> SuccessDistribution:
    """The successes that count once ``added`` difficulty is paid: ``max(0, k − added)``
    for ``k`` rolled (RN-COND-5's "spend"), with its exact mean (RN-JUMP-5).

    ``rolled``'s table must reach ``added`` (the mean's correction uses P(k) for
    ``k < added``); its tail, beyond the table, moves down with it.
    """
    if not added:
        return rolled
    pmf = defence_successes(rolled.pmf, added, "spend")
    pmf = pmf[: max(1, len(pmf) - added)]  # nothing is left above highest − added
    full_mean = None
    if rolled.full_mean is not None:
        short = sum(
            (Fraction(added - k) * rolled.probability(k) for k in range(added)), Fraction(0)
        )
        full_mean = rolled.full_mean - added + short
    return SuccessDistribution(Dist.from_pmf(0, pmf), rolled.tail_bound, rolled.p_botch, full_mean)
