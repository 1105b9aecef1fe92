"""The commander's own rolls with his henchmen: his condition, his defence, his Quantum power.

Combat alterations › Mass Combat › Henchmen › Dice Pool:

    Each henchman adds to the commander's pool for attacks and defenses (the
    defensive bonus is generally represented by suppressive fire, fire and
    overwatch tactics, and other options that allow for increased survival
    rates). […] If the henchmen have Psi or Quantum powers (generally only for
    sub-aberrants and universally psi-capable aliens like Chromatics), this
    bonus is given to Psi usage as well, or adds to the dice pool for Quantum
    powers that both parties have.

Quick reference › 2.0 Rules › Combat › Dazing/Stunning: "Dazed characters are at
+1 difficulty to all actions, Stunned ones suffer +1 difficulty to all actions and
may not take more than a single action (without powers such as Quickness or
Temporal Manipulation)." The difficulty comes from
:func:`ruleslab.quickref.conditions.daze_difficulty`; on the defence roll it is read as
every defence roll is (:func:`ruleslab.quickref.conditions.defence_successes`, rules note
RN-COND-5).

The bonus itself is :func:`ruleslab.alterations.henchmen.henchmen_bonus`; the support weapon
attack is :mod:`ruleslab.alterations.henchmen.support`. Readings: ``docs/rules-notes/henchmen.md``
(RN-HENCH-3, RN-HENCH-13 … RN-HENCH-15).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.alterations.henchmen import DICE_POOL, HenchmenBonus
from ruleslab.alterations.henchmen.domain import check_count, check_reading
from ruleslab.dice import pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.quickref.conditions import RollKind, daze_difficulty, defence_successes
from ruleslab.quickref.damage import DAZING

__all__ = [
    "CONDITIONS",
    "Condition",
    "LeaderDefence",
    "LeaderPower",
    "leader_condition",
    "leader_defence",
    "leader_power",
    "power_attack_bonus",
]

CONDITIONS = ("none", "dazed", "stunned")
"""The commander's condition this turn (Dazing/Stunning): the keys of
:data:`ruleslab.character.DAZE_STATES`."""

HIS_ACTIONS = RollKind("his actions")
"""The commander's rolls here (the support attack, a defence, a power) are actions."""


@dataclass(frozen=True)
class Condition:
    """The commander's condition this turn: ``penalty`` is the difficulty it adds to
    every action he takes; ``steps`` say why."""

    key: str
    penalty: int
    steps: tuple[Step, ...]


def leader_condition(condition: str) -> Condition:
    """What Dazed or Stunned does to the commander's rolls this turn.

    "Dazed characters are at +1 difficulty to all actions, Stunned ones suffer
    +1 difficulty to all actions and may not take more than a single action
    (without powers such as Quickness or Temporal Manipulation)." The support
    weapon attack, the defence roll and a power roll are actions: each is at
    +1 difficulty (:func:`ruleslab.quickref.conditions.daze_difficulty`; rules notes
    RN-HENCH-14, RN-COND-4).
    """
    check_reading("leader_condition", condition, CONDITIONS)
    penalty, _ = daze_difficulty(HIS_ACTIONS, condition)
    if not penalty:
        return Condition(key=condition, penalty=0, steps=())
    text = (
        "Commander Dazed: +1 difficulty to all actions, so to the support attack and to his "
        "defence roll (rules note RN-HENCH-14)"
    )
    if condition == "stunned":
        text = (
            "Commander Stunned: +1 difficulty to all actions (the support attack and his "
            "defence roll), and at most a single action this turn unless he has Quickness "
            "or Temporal Manipulation: the support attack or a defence that takes an "
            "action, not both; each figure is that roll as his one action (rules note "
            "RN-HENCH-14)"
        )
    return Condition(key=condition, penalty=penalty, steps=(Step(text, DAZING),))


@dataclass(frozen=True, kw_only=True)
class LeaderDefence(Explained):
    """The commander's defence roll with his henchmen's dice.

    ``dice`` = ``own`` (his dodge, 2.1 active defence or other defence pool) +
    ``bonus`` (the henchmen's dice, "suppressive fire"); the roll succeeds with
    ``difficulty`` successes rolled (1, +1 when Dazed or Stunned), with exact
    chance ``p_success``; ``mean`` successes it counts (a Dazed or Stunned
    commander's first success pays for the difficulty, rules note RN-COND-5).
    """

    own: int
    bonus: int
    dice: int
    difficulty: int
    p_success: Fraction
    mean: Fraction

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure(
                "defence_pool",
                "Leader's defence pool with henchmen",
                self.dice,
                f"{self.dice} dice ({self.own} + henchmen {self.bonus})",
            ),
            Figure(
                "p_defence",
                f"Chance the leader's defence roll gets {self.difficulty}+ "
                f"success{'' if self.difficulty == 1 else 'es'}",
                self.p_success,
                fmt_prob(self.p_success),
            ),
        )


def leader_defence(
    *,
    own_pool: int,
    bonus: HenchmenBonus,
    condition: Condition,
    reading: str = "spend",
    daze_counts: bool = True,
) -> LeaderDefence:
    """The commander's defence roll: his own pool plus the henchmen's dice bonus.

    "Each henchman adds to the commander's pool for attacks and defenses (the
    defensive bonus is generally represented by suppressive fire, fire and
    overwatch tactics, and other options that allow for increased survival
    rates)." A defence roll succeeds with 1 success (rules note RN-DEF-4); each
    die succeeds on 7+ (rules note RN-HENCH-13). A Dazed or Stunned commander's
    +1 difficulty is read as on every defence roll
    (:func:`ruleslab.quickref.conditions.defence_successes`, ``reading``, rules notes
    RN-COND-5, RN-HENCH-14): it succeeds with 2 successes rolled under either
    reading; under ``spend`` its first success pays for the difficulty and the
    rest count, under ``threshold`` all count once it has 2. ``daze_counts`` false: a
    2.0 defensive maneuver read as taking no action, untouched by Dazed or Stunned
    (the other reading of rules note RN-COND-4).
    """
    check_count("leader_defence", own_pool)
    dice = own_pool + bonus.dice
    added = condition.penalty if daze_counts else 0
    difficulty = 1 + added
    counted = defence_successes(pool_distribution(dice).pmf, added, reading)
    p = sum(counted[1:], Fraction(0))
    mean = sum((k * q for k, q in enumerate(counted)), Fraction(0))
    steps = [
        Step(
            f"Leader's defence pool = his own {own_pool} + henchmen +{bonus.dice}d = {dice} "
            "dice: the henchmen's dice add to his defences too (“suppressive fire, fire and "
            "overwatch tactics”; rules note RN-HENCH-13)",
            DICE_POOL,
        )
    ]
    if condition.penalty and not added:
        steps.append(
            Step(
                f"Commander {condition.key.capitalize()}: under this reading a 2.0 defensive "
                "maneuver takes no action, so his defence roll is not at +1 (rules note "
                "RN-COND-4)",
                DAZING,
            )
        )
    if not added:
        steps.append(
            Step(
                f"The defence roll needs 1 success (rules note RN-DEF-4): P({dice} dice get "
                f"1+) = {fmt_prob(p)}; mean {fmt_num(mean)} successes, each cancelling one "
                "attack success where the attack is rolled (rules note RN-RANGED-2)",
                DICE_POOL,
            )
        )
    else:
        first = "its first success pays" if added == 1 else f"its first {added} successes pay"
        how = (
            f"{first} for the difficulty, the rest count"
            if reading == "spend"
            else f"it must roll {difficulty} successes, then every success counts"
        )
        steps.append(
            Step(
                f"The defence roll needs 1 success + {added} ({condition.key.capitalize()}) = "
                f"{difficulty} successes rolled: {how} (rules notes RN-DEF-4, RN-HENCH-14, "
                f"RN-COND-5): P({dice} dice get {difficulty}+) = {fmt_prob(p)}; mean "
                f"{fmt_num(mean)} successes counted, each cancelling one attack success where "
                "the attack is rolled (rules note RN-RANGED-2)",
                DAZING,
            )
        )
    return LeaderDefence(
        own=own_pool,
        bonus=bonus.dice,
        dice=dice,
        difficulty=difficulty,
        p_success=p,
        mean=mean,
        steps=tuple(steps),
    )


@dataclass(frozen=True, kw_only=True)
class LeaderPower(Explained):
    """The commander's roll for one of his Quantum powers, with his henchmen's dice if
    they have that power too.

    ``dice`` = ``own`` (his pool for the power) + ``added`` (the henchmen's dice
    bonus when ``shared``, else 0); it succeeds with ``difficulty`` successes (1,
    +1 when Dazed or Stunned), exact chance ``p_success``.
    """

    own: int
    shared: bool
    added: int
    dice: int
    difficulty: int
    p_success: Fraction

    def figures(self) -> tuple[Figure, ...]:
        why = f"henchmen {self.added}" if self.shared else "henchmen 0: they lack the power"
        return (
            Figure(
                "power_pool",
                "Leader's Quantum power pool with henchmen",
                self.dice,
                f"{self.dice} dice ({self.own} + {why})",
            ),
            Figure(
                "p_power",
                f"Chance the leader's power roll gets {self.difficulty}+ "
                f"success{'' if self.difficulty == 1 else 'es'}",
                self.p_success,
                fmt_prob(self.p_success),
            ),
        )


def leader_power(
    *, own_pool: int, bonus: HenchmenBonus, shared: bool, condition: Condition
) -> LeaderPower:
    """The commander's roll for a Quantum power: the henchmen's dice only if they have it.

    "If the henchmen have Psi or Quantum powers […], this bonus is given to Psi
    usage as well, or adds to the dice pool for Quantum powers that both parties
    have." The commander rolls his ``own_pool`` for one of his powers; the dice
    bonus (the same +1d or +2d per henchman counted) is added when the henchmen
    have that power too (``shared``), else nothing (rules note RN-HENCH-15). The
    roll needs 1 success, +1 when he is Dazed or Stunned (an action, RN-HENCH-14).
    """
    check_count("leader_power_pool", own_pool)
    added = bonus.dice if shared else 0
    dice = own_pool + added
    difficulty = 1 + condition.penalty
    p = pool_distribution(dice, upto=difficulty).at_least(difficulty)
    if shared:
        text = (
            f"Leader's Quantum power pool = his own {own_pool} + henchmen +{added}d = {dice} "
            "dice: the henchmen have the power too, and their bonus “adds to the dice pool "
            "for Quantum powers that both parties have” (rules note RN-HENCH-15)"
        )
    else:
        text = (
            f"Leader's Quantum power pool = his own {own_pool} dice: the henchmen lack this "
            "power, so their dice add nothing (only “Quantum powers that both parties have”; "
            "rules note RN-HENCH-15)"
        )
    needs = f"1 + {condition.penalty} ({condition.key.capitalize()})" if condition.penalty else "1"
    steps = [
        Step(text, DICE_POOL),
        Step(
            f"The power roll needs {needs} = {difficulty} success"
            f"{'' if difficulty == 1 else 'es'}: P({dice} dice get {difficulty}+) = "
            f"{fmt_prob(p)}",
            DAZING if condition.penalty else DICE_POOL,
        ),
    ]
    return LeaderPower(
        own=own_pool,
        shared=shared,
        added=added,
        dice=dice,
        difficulty=difficulty,
        p_success=p,
        steps=tuple(steps),
    )


def power_attack_bonus(
    bonus: HenchmenBonus, *, shared: bool, who: str
) -> tuple[HenchmenBonus, Step]:
    """What henchmen add to a commander's attack with a Quantum power (compressed combat):
    their bonus "adds to the dice pool for Quantum powers that both parties have", so all
    of it when they have the power (``shared``), else no dice and no weapon damage (their
    damage is "the commander's weapon"'s); past the limit they stay extra health levels
    (rules note RN-COMP-21). ``who`` names the side and commander in the step."""
    how = (
        f"share: their {bonus.dice}d and damage {bonus.damage} count"
        if shared
        else "do not have: they add no dice ('adds to the dice pool for Quantum powers that "
        "both parties have') and no weapon damage"
    )
    step = Step(
        f"{who} attacks with a Quantum power his henchmen {how} (rules note RN-COMP-21)",
        DICE_POOL,
    )
    return (bonus if shared else replace(bonus, dice=0, damage=0)), step
