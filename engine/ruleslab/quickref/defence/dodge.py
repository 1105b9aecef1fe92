"""The target's defence against one attack: the 2.0 dodge or the 2.1 Defense, and the
exact net successes of one attack roll against it.

Quick reference › 2.0 Rules › Combat:

    Defensive Maneuvers: Characters can dodge (Dex + Athletics), parry (Dex +
    Melee/Brawl), or powerblock (power activation roll) incoming attacks.

Quick reference › 2.1 Rules › Defenses:

    Characters have a Defense score of (lower of Dexterity or Wits, divided by
    2). Round defenses down. Their Defense score adds to the difficulty of
    attacks against them, but is reduced by 1 for every successful or
    unsuccessful attack made against them.

    Characters may take an action to actively defend, using the higher of Dex or
    Wits, plus the defending ability. Characters may also power block, adding an
    additional (Quantum/2) to their Defense, as well as using the power's dice
    pool.

Quick reference › Weapon Tags › Guided: "Ignores first dodge success".

A :class:`TargetDefence` is what one target sets against one attack: the
difficulty it adds (2.1 Defense, after the attacks already made against it)
and a defence roll whose successes cancel attack successes (2.0 dodge, 2.1
active defence or power block). :func:`target_dodge` builds the 2.0 one,
:func:`target_defense` the 2.1 one. The text does not say how a dodge meets
an attack; the reading (rules note RN-RANGED-2) is that each dodge success
cancels one attack success: net successes = attack successes − defence
successes, and the attack hits when they reach the difficulty. A 2.1 active
defence or power block roll acts the same way (RN-RANGED-15). A Guided weapon
ignores the first success of a dodge or active defence (RN-RANGED-12,
RN-RANGED-15). Strafing rolls the attack once against several targets, each
defending on its own (RN-RANGED-5, RN-RANGED-14).
:func:`ruleslab.quickref.attack.resolve_attack` turns the net successes into damage.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import SuccessDistribution, dice_text
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.pmf import Dist, constant
from ruleslab.quickref.defence import DEFENSES, active_defence, defense_score
from ruleslab.quickref.defence import MANEUVERS as DEFENSIVE
from ruleslab.quickref.specialties import SPECIALTIES_21
from ruleslab.ruleset import V20, V21

__all__ = [
    "DEFENSIVE",
    "NetSuccesses",
    "TargetDefence",
    "attack_target",
    "net_successes",
    "target_defense",
    "target_dodge",
]

POWER_POOL_LABEL = "2.1: target's power pool"
"""The Autofire & strafing form's label of the power block's pool (messages start with it)."""


@dataclass(frozen=True)
class TargetDefence:
    """What one target sets against one attack, and the steps saying why.

    ``defense`` is added to the attack's difficulty against this target (2.1
    Defense after the attacks already made against it, with a power block's
    Quantum ÷ 2; 0 under 2.0). ``roll`` names the defence roll ("dodge",
    "active defence", "power block"; "" for none) of ``dice`` dice, 10s
    rerolled when ``reroll_tens``: each of its successes cancels one attack
    success. ``guided_ignores_first``: a Guided weapon ignores its first success
    (a dodge or an active defence, not a power's roll). ``defense_next`` is the
    Defense the next attack against the target faces before any power block (2.1;
    None under 2.0): this attack is one more made against it (RN-RANGED-14).
    """

    ruleset: str
    defense: int = 0
    roll: str = ""
    dice: int = 0
    reroll_tens: bool = False
    guided_ignores_first: bool = True
    defense_next: int | None = None
    steps: tuple[Step, ...] = ()

    @property
    def summary(self) -> str:
        """What the target sets against the attack, for the result's figure."""
        parts = []
        if self.ruleset == V21:
            block = " (power block)" if self.roll == "power block" else ""
            parts.append(f"Defense +{self.defense}{block}")
        if self.dice:
            parts.append(
                f"{self.roll} {dice_text(self.dice)}" + (", 10s reroll" if self.reroll_tens else "")
            )
        return ", ".join(parts) or "no dodge"


def target_dodge(pool: int, reroll_tens: bool = False) -> TargetDefence:
    """2.0: "Characters can dodge (Dex + Athletics) … incoming attacks": the target rolls
    ``pool`` dice, each success cancelling one attack success (RN-RANGED-2)."""
    if not pool:
        return TargetDefence(
            ruleset=V20, steps=(Step("No dodge: every attack success counts", DEFENSIVE),)
        )
    how = ", 10s rerolled" if reroll_tens else ""
    step = Step(
        f"The target dodges with {dice_text(pool)}{how}: each dodge success cancels one attack "
        "success (rules note RN-RANGED-2)",
        DEFENSIVE,
    )
    return TargetDefence(
        ruleset=V20, roll="dodge", dice=pool, reroll_tens=reroll_tens, steps=(step,)
    )


def target_defense(
    *,
    dexterity: int,
    mega_dexterity: int = 0,
    wits: int,
    mega_wits: int = 0,
    attacks_before: int = 0,
    action: str = "none",
    ability: int = 0,
    specialty: bool = False,
    power_pool: int = 0,
    quantum: int = 0,
    mega_in_defense: str = "double",
    power_block_bonus: str = "decays",
) -> TargetDefence:
    """2.1: the target's Defense against this attack and its defensive action, if any.

    Defense = ⌊lower of Dexterity or Wits ÷ 2⌋ (:func:`ruleslab.quickref.defence.defense_score`),
    less 1 for each of the ``attacks_before`` attacks already made against the
    target this turn, never below 0 (RN-DEF-3). ``action``: ``none`` (Defense
    only), ``active`` ("the higher of Dex or Wits, plus the defending ability",
    :func:`ruleslab.quickref.defence.active_defence`) or ``power_block`` ("adding an
    additional (Quantum/2) to their Defense, as well as using the power's dice
    pool"); ``power_block_bonus``: ``decays`` (the power-blocking Defense drops
    by 1 per earlier attack, as the Initiative & defence calculator shows it)
    or ``fresh`` (Quantum ÷ 2 added to what is left). A specialty adds +1 die to
    the defence roll (2.1 Specialties). Raises :class:`InputError` naming
    ``target_power_pool`` for a power block without a power.
    """
    ds = defense_score(dexterity, mega_dexterity, wits, mega_wits, mega_in_defense)
    steps = list(ds.steps)
    left = max(0, ds.score - attacks_before)
    steps.append(
        Step(
            f"Attacks already made against the target this turn: {attacks_before}; each, hit or "
            f"miss, lowers its Defense by 1, never below 0: Defense {left} against this attack "
            "(rules notes RN-DEF-3, RN-RANGED-14)",
            DEFENSES,
        )
    )
    defense = left
    roll, dice, reroll, ignores = "", 0, False, True
    if action == "active":
        act = active_defence(
            ds, mega_dexterity, mega_wits, ability, f"{ability} dots", specialty=specialty
        )
        steps += ds.pool_steps
        steps += act.steps
        roll, dice, reroll = "active defence", act.roll.dice, act.roll.reroll_tens
        steps.append(
            Step(
                f"The target actively defends with {dice_text(dice)}: each success cancels one "
                "attack success, as a dodge's; its Defense still adds to the difficulty "
                "(rules note RN-RANGED-15)",
                DEFENSES,
            )
        )
    elif action == "power_block":
        if power_pool < 1:
            raise InputError(
                "target_power_pool",
                f"{POWER_POOL_LABEL}: a power block uses the power's dice pool, so enter it "
                "(1 to 40 dice) or choose another defensive action.",
            )
        half_q = quantum // 2
        if power_block_bonus == "fresh":
            defense = left + half_q
            how = f"Defense left {left} + ⌊Quantum {quantum} ÷ 2⌋ {half_q} = {defense}"
        else:
            defense = max(0, ds.score + half_q - attacks_before)
            how = (
                f"(Defense {ds.score} + ⌊Quantum {quantum} ÷ 2⌋ {half_q}) − {attacks_before} "
                f"earlier = {defense}, never below 0"
            )
        steps.append(Step(f"Power block: {how} (rules note RN-RANGED-15)", DEFENSES))
        dice = power_pool + (1 if specialty else 0)
        roll, ignores = "power block", False
        plus = f" + specialty 1 = {dice_text(dice)}" if specialty else ""
        steps.append(
            Step(
                f"Power block roll, the power's pool {dice_text(power_pool)}{plus}: each success "
                "cancels one attack success (rules note RN-RANGED-15)",
                DEFENSES,
            )
        )
        if specialty:
            text = "Specialty (2.1): +1 die to the power block roll (rules note RN-DEF-8)"
            steps.append(Step(text, SPECIALTIES_21))
    else:
        steps.append(
            Step(
                "The target takes no defensive action: its Defense alone adds to the difficulty",
                DEFENSES,
            )
        )
    return TargetDefence(
        ruleset=V21,
        defense=defense,
        roll=roll,
        dice=dice,
        reroll_tens=reroll,
        guided_ignores_first=ignores,
        defense_next=max(0, left - 1),
        steps=tuple(steps),
    )


def attack_target(
    ruleset: str, target: TargetDefence | None, dodge_pool: int = 0, dodge_reroll_tens: bool = False
) -> TargetDefence:
    """The target an attack under ``ruleset`` meets: ``target``, or without one a 2.0
    dodge of ``dodge_pool`` dice, or a 2.1 target with Defense 0 and no defensive action.

    Raises :class:`ValueError` for a dodge pool under 2.1 (which has none) or beside
    ``target``, and for a ``target`` of the other ruleset.
    """
    if target is not None:
        if dodge_pool or dodge_reroll_tens:
            raise ValueError("give the target's dodge in target, not beside it")
        if target.ruleset != ruleset:
            raise ValueError(f"a {target.ruleset} target against a {ruleset} attack")
        return target
    if ruleset != V21:
        return target_dodge(dodge_pool, dodge_reroll_tens)
    if dodge_pool or dodge_reroll_tens:
        raise ValueError(
            "2.1 has no dodge pool: pass target=ruleslab.quickref.defence.dodge.target_defense(...)"
        )
    text = "No target's Defense given: Defense 0 and no defensive action"
    return TargetDefence(ruleset=V21, defense_next=0, steps=(Step(text, DEFENSES),))


@dataclass(frozen=True)
class NetSuccesses:
    """Exact outcome of attack vs dodge: hit mass per extra-success count.

    ``hits`` is the part of the distribution of extra successes that hits (its
    total is ``p_hit``, less any hit with fewer net successes than the count
    starts from); ``extras[e]`` its table, ``P(hit with e extra successes)``.
    ``p_any_hit`` is the chance that at least one of ``targets`` targets, each
    dodging on its own, is hit; ``unresolved`` the attack table's omitted tail.
    """

    hits: Dist
    p_hit: Fraction
    p_miss: Fraction
    p_any_hit: Fraction
    unresolved: Fraction

    @functools.cached_property
    def extras(self) -> tuple[Fraction, ...]:
        """``extras[e] = P(hit with e extra successes)``, ``e = 0 …``."""
        return self.hits.table()


def net_successes(
    attack: SuccessDistribution,
    dodge: SuccessDistribution,
    ignore_first: bool,
    difficulty: int,
    base: int,
    targets: int,
) -> NetSuccesses:
    """Attack successes A, dodge successes D' = max(0, D − ignore): hit iff A − D' ≥ difficulty.

    ``base`` is what extras count from: extras = A − D' − base (a hit below
    ``base`` net successes, only possible with a difficulty below it, is in
    ``p_hit`` but has no extras). ``dodge`` must reach past the attack table (so
    every miss is counted exactly); the only unresolved mass is the attack's own
    tail.
    """
    ignored = 1 if ignore_first else 0
    counted = dodge.successes.shift(-ignored).max_with(constant(0))  # D'
    reach = attack.highest - difficulty + ignored  # the most dodge successes that matter
    assert dodge.tail_bound == 0 or reach <= dodge.highest, (
        "the dodge table must reach past the attack table"
    )
    hits = (attack.successes - counted).tail(difficulty)
    p_hit = hits.total()
    if targets == 1:
        p_any = p_hit
    else:  # each target dodges on its own: P(D' ≤ a − difficulty) for each
        p_any = sum(
            (
                pa * (1 - (1 - counted.at_most(a - difficulty)) ** targets)
                for a, pa in attack.successes.items()
            ),
            Fraction(0),
        )
    return NetSuccesses(
        hits=hits.tail(base).shift(-base),
        p_hit=p_hit,
        p_miss=attack.total() - p_hit,
        p_any_hit=p_any,
        unresolved=attack.tail_bound,
    )
