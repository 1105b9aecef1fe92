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

Distance = successes × (0.5 m or 2 m) × (Mega-Strength + 1), so the distance's
distribution is the success distribution of :func:`ruleslab.dice.pool_distribution`
relabelled. Readings of the text: ``docs/rules-notes/jumping.md`` (RN-JUMP-1 …
RN-JUMP-4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.decimals import equals, fmt_exact, typed_decimal
from ruleslab.dice import SuccessDistribution, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob_bound
from ruleslab.ruleset import V20, V21
from ruleslab.sources import QR, rule

__all__ = [
    "AUTO_PER_MEGA_DOT",
    "METRES_PER_SUCCESS",
    "JumpResult",
    "exact_metres",
    "jump",
]

JUMPING = rule(QR, "Movement", "Jumping")
MEGA_ATTRIBUTES = rule(QR, "Mega-Attributes")
SPECIALTIES_20 = rule(QR, "2.0 Rules", "Specialties")
SPECIALTIES_21 = rule(QR, "2.1 Rules", "Specialties")

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

    ``distribution`` is the distribution of total successes (automatic ones
    included); a jump with ``k`` successes covers ``k × metres_per_success``.
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
) -> JumpResult:
    """How far a jump goes (exact distribution) and the chance it clears ``distance_m``.

    Pool = Strength + Athletics ("Jumping is a (Strength + Athletics) roll"), +5
    automatic successes per Mega-Strength dot; each success is 0.5 m up or 2 m
    across, and the whole distance is multiplied by (Mega-Strength + 1).
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
    if specialty and ruleset == V21:
        steps.append(Step("Specialty (2.1): +1 die", SPECIALTIES_21))
    reroll = (ruleset == V21 and mega_strength > 0) or (ruleset == V20 and specialty)
    if ruleset == V21 and mega_strength > 0:
        steps.append(
            Step(f"Mega-Strength {mega_strength} (2.1): the jump roll rerolls 10s", SPECIALTIES_21)
        )
    if ruleset == V20 and specialty:
        steps.append(Step("Specialty (2.0): the jump roll rerolls 10s", SPECIALTIES_20))

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

    upto = min(needed, dice + auto + EXTRA_TABLE) if reroll else 0
    dist = pool_distribution(dice, auto, 7, reroll, upto=upto)
    p = dist.at_least(needed)
    unresolved = dist.tail_bound if needed > dist.highest + 1 else Fraction(0)
    how = f"{dice} {'die' if dice == 1 else 'dice'}"
    if auto:
        how += f" + {auto} automatic"
    if reroll:
        how += ", 10s rerolled"
    if needed <= auto:
        why = f"the {auto} automatic successes alone clear it"
    elif needed > dist.highest + 1 and not reroll:
        why = f"at most {dist.highest} successes are possible"
    else:
        why = ""
    result_text = fmt_prob_bound(p, unresolved)
    steps.append(
        Step(
            f"P(clear) = P(≥ {needed} successes on {how}) = {result_text}"
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
    steps.append(
        Step(
            f"Mean distance = ({dice} × {per_die} + {auto}) successes × {fmt_exact(mps, 'm')} "
            f"{equals(mean, 'm')}",
            JUMPING,
        )
    )
    if dice == 0 and auto == 0:
        steps.append(Step("A pool of 0 dice rolls no successes: the jump covers 0 m", JUMPING))

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
        steps=tuple(steps),
    )
