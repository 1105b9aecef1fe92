"""Warfare › Quantity is Quality: what the net Size difference does to the smaller side.

Combat alterations › Mass Combat › Warfare › Quantity is Quality:

    The larger a unit is, the deadlier it is, even if outdated and poorly led,
    numbers can be effective. The net difference in size can add several
    complications on the tactical scale.
    • Reduced Defense: … The net size difference inflicts a +1 difficulty penalty
      per point to any defensive or awareness rolls. It's not so hard for a group
      of commandos to sneak past you when you're a platoon surrounded by 20,000 men.
    • Reduced Morale: … Each point of size may be used to reduce the smaller unit's
      Morale track by 1. This affects temporary and permanent Morale.
    • Attacks of Opportunity: As seen above, a unit's size plays a significant role
      in the lethality of attacks of opportunity. …

The third bullet is :mod:`ruleslab.alterations.warfare` (the attack pool is Skill + Size).
Here: the difference and its difficulty on the party's defence against attacks
of opportunity (rules note RN-WAR-3), on the party's awareness rolls
(RN-WAR-11), and the Morale it takes from the smaller side's temporary and
permanent tracks (RN-WAR-7, RN-WAR-12). Difficulty = successes needed
(Quick reference, RN-DICE-1); one d10 succeeds on 7+.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import pool_distribution
from ruleslab.explain import Step, fmt_prob
from ruleslab.sources import ALT, rule

__all__ = [
    "QUANTITY",
    "AwarenessRoll",
    "MoraleLoss",
    "SizeDifference",
    "awareness_roll",
    "morale_loss",
    "quantity_is_quality",
]

QUANTITY = rule(ALT, "Mass Combat", "Warfare", "Quantity is Quality")


@dataclass(frozen=True, kw_only=True)
class SizeDifference:
    """Quantity is Quality: ``difference`` = enemy Size − party Size; ``penalty`` the
    difficulty added to the party's defence (0 when the party is as large or larger,
    or when it is not applied)."""

    difference: int
    penalty: int
    steps: tuple[Step, ...]


def quantity_is_quality(
    enemy_size: int,
    party_size: int,
    defence: int,
    *,
    apply_penalty: bool = True,
    opposed: bool = True,
    difficulty_reading: str = "spend",
) -> SizeDifference:
    """Quantity is Quality: the net Size difference and its difficulty on the party's defence.

    How the difficulty meets a rolled (``opposed``) defence or a Defense score
    ``defence``: rules note RN-WAR-3, as ``difficulty_reading`` reads a difficulty
    on a defence roll (``spend`` or ``threshold``, rules note RN-COND-5).
    """
    steps: list[Step] = []
    diff = enemy_size - party_size
    penalty = max(0, diff) if apply_penalty else 0
    if diff > 0:
        steps.append(
            Step(
                f"Net Size difference {enemy_size} − {party_size} = {diff}: +{diff} "
                "difficulty to the party's defensive and awareness rolls",
                QUANTITY,
            )
        )
        if not apply_penalty:
            text = "Size penalty not applied to this defence (option, RN-WAR-3)"
        elif difficulty_reading == "threshold" and opposed:
            text = (
                f"The defence is a defensive roll: it cancels nothing unless it rolls at least "
                f"{1 + diff} successes, and then all of them cancel (RN-WAR-3, RN-COND-5)"
            )
        elif difficulty_reading == "threshold":
            kept = defence if defence >= 1 + diff else 0
            text = f"Defense {defence} must reach {1 + diff} to count: {kept} (RN-WAR-3, RN-COND-5)"
        elif opposed:
            text = (
                f"The defence is a defensive roll: only its successes beyond the first "
                f"{diff} cancel attack successes (RN-WAR-3)"
            )
        else:
            text = (
                f"Defense {defence} − {diff} = {max(0, defence - diff)} (never below 0) (RN-WAR-3)"
            )
        steps.append(Step(text, QUANTITY))
    elif diff < 0:
        steps.append(
            Step(
                f"Net Size difference {party_size} − {enemy_size} = {-diff} in the "
                f"party's favour: +{-diff} difficulty to the enemy's defensive and "
                "awareness rolls",
                QUANTITY,
            )
        )
    else:
        steps.append(Step("Equal Size: no Quantity is Quality effects", QUANTITY))
    return SizeDifference(difference=diff, penalty=penalty, steps=tuple(steps))


@dataclass(frozen=True, kw_only=True)
class AwarenessRoll:
    """The party's awareness roll: ``dice`` at ``difficulty`` successes (the base
    difficulty + ``penalty`` for Size); ``p_success`` its chance, and
    ``p_without_penalty`` the chance at the base difficulty, for comparison."""

    dice: int
    base_difficulty: int
    penalty: int
    difficulty: int
    p_success: Fraction
    p_without_penalty: Fraction
    steps: tuple[Step, ...]


def awareness_roll(dice: int, difficulty: int, size_difference: int) -> AwarenessRoll:
    """A roll of ``dice`` to notice a threat, at ``difficulty`` + the Size penalty.

    "+1 difficulty penalty per point to any defensive or awareness rolls": when
    the enemy is larger (``size_difference`` > 0) the party's roll needs that
    many more successes (rules note RN-WAR-11); otherwise it is rolled as it is.
    """
    penalty = max(0, size_difference)
    pool = pool_distribution(dice)
    need = difficulty + penalty
    p = pool.at_least(need)
    plain = pool.at_least(difficulty)
    if penalty:
        text = (
            f"Awareness roll: {dice} dice at difficulty {difficulty} + {penalty} for Size = "
            f"{need}: {fmt_prob(p)} (without the Size penalty: {fmt_prob(plain)}) (RN-WAR-11)"
        )
    else:
        text = (
            f"Awareness roll: {dice} dice at difficulty {difficulty}: {fmt_prob(p)}; no Size "
            "penalty, the party's force is not the smaller (RN-WAR-11)"
        )
    return AwarenessRoll(
        dice=dice,
        base_difficulty=difficulty,
        penalty=penalty,
        difficulty=need,
        p_success=p,
        p_without_penalty=plain,
        steps=(Step(text, QUANTITY),),
    )


@dataclass(frozen=True, kw_only=True)
class MoraleLoss:
    """Reduced Morale: the smaller ``side`` (``"party"``, ``"enemy"``, or ``""`` at
    equal Size) loses ``points`` from both Morale tracks, each never below 0:
    ``temporary_before`` → ``temporary_after`` and ``permanent_before`` →
    ``permanent_after``. ``text`` says it in words."""

    side: str
    points: int
    temporary_before: int
    temporary_after: int
    permanent_before: int
    permanent_after: int
    text: str
    steps: tuple[Step, ...]

    @classmethod
    def none_taken(
        cls,
        side: str,
        text: str,
        step: Step | None = None,
        *,
        temporary: int = 0,
        permanent: int = 0,
    ) -> MoraleLoss:
        """No Morale lost this turn: both tracks stay at ``temporary`` and ``permanent``."""
        return cls(
            side=side,
            points=0,
            temporary_before=temporary,
            temporary_after=temporary,
            permanent_before=permanent,
            permanent_after=permanent,
            text=text,
            steps=() if step is None else (step,),
        )


def morale_loss(
    size_difference: int,
    *,
    party_has_force: bool,
    party_temporary: int,
    party_permanent: int,
    enemy_temporary: int,
    enemy_permanent: int,
    apply: bool = True,
) -> MoraleLoss:
    """Reduced Morale: each point of the net Size difference takes 1 from the smaller
    side's temporary and permanent Morale (rules notes RN-WAR-7, RN-WAR-12).

    ``size_difference`` is enemy Size − party Size. ``apply`` False: the larger
    side does not use it this turn (already taken, or not used: "may be used"),
    and the loss is only shown. A party without a force of its own
    (``party_has_force`` False, Size 0) has no Morale track to lose.
    """
    points = abs(size_difference)
    if size_difference == 0:
        return MoraleLoss.none_taken("", "none (equal Size)")
    if size_difference > 0:
        side, who, temp, perm = "party", "the party's force", party_temporary, party_permanent
    else:
        side, who, temp, perm = "enemy", "the enemy", enemy_temporary, enemy_permanent
    if side == "party" and not party_has_force:
        text = "the party has no force (Size 0): no Morale track to lose"
        step = Step(f"Reduced Morale: {text} (RN-WAR-7)", QUANTITY)
        return MoraleLoss.none_taken(side, text, step)
    if not apply:
        text = f"{who} may lose up to {points} Morale (not taken this turn)"
        step = Step(f"Reduced Morale: {text} (option, RN-WAR-12)", QUANTITY)
        return MoraleLoss.none_taken(side, text, step, temporary=temp, permanent=perm)
    temp_after, perm_after = max(0, temp - points), max(0, perm - points)
    text = f"{who} loses {points}: temporary {temp} → {temp_after}, permanent {perm} → {perm_after}"
    step = Step(
        f"Reduced Morale: {points} points of Size taken from {who}'s Morale this turn, "
        f"before any is spent: temporary {temp} − {points} → {temp_after}, permanent "
        f"{perm} − {points} → {perm_after} (never below 0) (RN-WAR-12)",
        QUANTITY,
    )
    return MoraleLoss(
        side=side,
        points=points,
        temporary_before=temp,
        temporary_after=temp_after,
        permanent_before=perm,
        permanent_after=perm_after,
        text=text,
        steps=(step,),
    )
