"""The defender's turn under his conditions: the Initiative & defence calculator's rolls.

:mod:`ruleslab.quickref.defence` gives the defence rolls themselves; this module puts
the defender's :class:`~ruleslab.character.Conditions` on them through
:func:`ruleslab.quickref.conditions.on_roll` (encumbrance, sprinting, Dazed/Stunned) and
prices his turn's actions, an active defence among them (rules notes RN-COND-1
to RN-COND-5, RN-DEF-9).

Quick reference › Movement › Sprinting:

    Sprinting characters may not take any actions during the turn except
    defensive maneuvers, and are at +1 difficulty to all defensive maneuvers
    they take.

Quick reference › 2.0 Rules › Combat › Dazing/Stunning:

    Dazed characters are at +1 difficulty to all actions, Stunned ones suffer +1
    difficulty to all actions and may not take more than a single action.

Quick reference › 2.1 Rules › Defenses and Multiple Actions:

    Characters may take an action to actively defend … Every additional action
    past the first adds a cumulative +1 difficulty penalty rather than
    subtracting dice.

What kind of roll each defence is (:class:`~ruleslab.quickref.conditions.RollKind`): a
dodge (Dex + Athletics) is a physical action involving movement, a parry (Dex +
Melee/Brawl) another physical action, a power block is not physical. A 2.0
defensive maneuver takes no action (it is rolled against an attack, not in the
defender's turn: Dazed does not touch it, rules note RN-COND-4); a 2.1 active
defence or power block is "an action".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.character import Character, Conditions
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.quickref.conditions import (
    DAZING,
    MULTIPLE_ACTIONS,
    SPRINTING,
    Modifier,
    RollKind,
    actions_allowed,
    defence_successes,
    load_encumbrance,
    multiple_actions_difficulty,
    on_roll,
)
from ruleslab.quickref.defence import (
    DEFENSES,
    MANEUVERS,
    NOTHING_ADDED,
    Defense,
    Maneuvers,
    PoolRoll,
    action_penalties,
    defending_ability,
    defense,
    defensive_maneuvers,
    ordinal,
    pool_roll,
)
from ruleslab.quickref.encumbrance import Encumbrance
from ruleslab.quickref.specialties import SPECIALTIES_21
from ruleslab.ruleset import V20, V21

__all__ = [
    "DEFENCE_POSITIONS",
    "DODGE",
    "PARRY",
    "POWERBLOCK",
    "MultipleActions",
    "Turn",
    "active_kind",
    "defence_modifier",
    "defense_21",
    "maneuvers_20",
    "multiple_actions",
    "plan_turn",
    "whole_turn",
]

DODGE = RollKind("the dodge roll", physical="movement", defensive=True, action=False)
"""2.0 dodge (Dex + Athletics): moves, a defensive maneuver, takes no action."""
PARRY = RollKind("the parry roll", physical="other", defensive=True, action=False)
"""2.0 parry (Dex + Melee/Brawl): "other physical", a defensive maneuver, no action."""
POWERBLOCK = RollKind("the powerblock roll", defensive=True, action=False)
"""2.0 powerblock (the power's activation roll): not physical, no action."""
POWER_BLOCK_21 = RollKind("the power block roll", defensive=True)
"""2.1 power block: the power's pool, not physical; a way to actively defend, an action."""
OWN_ACTION = RollKind("his declared actions")
"""His own actions (the attack pool): what they are is not given, so no encumbrance."""

DEFENCE_POSITIONS = (
    ("last", "The turn's last action (+ all the others' penalty)"),
    ("first", "The turn's first action (his other actions after it)"),
)
"""Where an active defence sits among his turn's cumulative penalties (rules note RN-DEF-9)."""


def active_kind(ability_name: str) -> RollKind:
    """The 2.1 active defence: with Athletics a dodge (movement), with Melee/Brawl a parry."""
    physical = "movement" if ability_name == "Athletics" else "other"
    return RollKind("the active defence roll", physical=physical, defensive=True)


def defence_modifier(
    kind: RollKind,
    defender: Character,
    conditions: Conditions,
    ruleset: str,
    extra: int = 0,
    load: Encumbrance | None = None,
    daze_on_defence: str = "action",
) -> Modifier:
    """``on_roll`` (multiple actions left out: :func:`plan_turn` prices them) plus ``extra``;
    ``load``: his load's encumbrance, worked out once for all his defence rolls;
    ``daze_on_defence``: Dazed on a 2.0 defensive maneuver (rules note RN-COND-4)."""
    m = on_roll(
        kind,
        defender,
        conditions,
        ruleset=ruleset,
        count_actions=False,
        load=load,
        daze_on_defence=daze_on_defence,
    )
    return replace(m, difficulty=m.difficulty + extra)


def _needs_step(rule_: str, reading: str = "spend") -> Step:
    how = (
        "its first N successes pay for the difficulty and the rest count"
        if reading == "spend"
        else "it counts only with 1 + N successes rolled, and then every success counts"
    )
    return Step(
        f"A defence roll at +N difficulty needs 1 + N successes: {how} "
        f"(ruleslab.quickref.conditions.defence_successes, the '{reading}' reading; rules note "
        "RN-COND-5)",
        rule_,
    )


def counted_mean(roll: PoolRoll, added: int, reading: str) -> Fraction:
    """The mean successes a defence ``roll`` at ``added`` difficulty counts, by ``reading``
    (:func:`ruleslab.quickref.conditions.defence_successes`, rules note RN-COND-5)."""
    counted = defence_successes(roll.distribution.pmf, added, reading)
    return sum((k * p for k, p in enumerate(counted)), Fraction(0))


def counted_steps(
    rolls: tuple[tuple[PoolRoll | None, int], ...], reading: str, rule_: str
) -> list[Step]:
    """Under the ``threshold`` reading, a step per defence roll with an added difficulty:
    the successes it counts (mean), which the reading changes (the chance to succeed it
    does not); the default ``spend`` reading is said by :func:`_needs_step`."""
    out: list[Step] = []
    if reading == "spend":
        return out
    for roll, added in rolls:
        if roll is None or not added:
            continue
        mean = counted_mean(roll, added, reading)
        out.append(
            Step(
                f"{roll.name} at +{added}: it counts {fmt_num(mean)} successes on average "
                f"against an attack (the '{reading}' reading, rules note RN-COND-5)",
                rule_,
            )
        )
    return out


# --- 2.0 defensive maneuvers ----------------------------------------------------------


def maneuvers_20(
    defender: Character,
    conditions: Conditions,
    power_pool: int,
    specialty: bool = False,
    daze_on_defence: str = "action",
    defence_difficulty: str = "spend",
) -> Maneuvers:
    """2.0 :func:`ruleslab.quickref.defence.defensive_maneuvers` with the defender's conditions on
    each roll: sprinting +1 to each (a defensive maneuver), the load on the dodge (movement) and
    the parry (other physical); Dazed/Stunned +1 to each by default, a defensive maneuver
    being an action (``daze_on_defence`` "no_action": nothing, RN-COND-4).
    ``defence_difficulty``: the reading of an added difficulty (RN-COND-5)."""
    d = defender
    load = load_encumbrance(d, conditions)
    dodge, parry, pb = (
        defence_modifier(k, d, conditions, V20, load=load, daze_on_defence=daze_on_defence)
        for k in (DODGE, PARRY, POWERBLOCK)
    )
    notes = (
        [_needs_step(MANEUVERS, defence_difficulty)]
        if dodge.difficulty or parry.difficulty or pb.difficulty
        else []
    )
    maneuvers = defensive_maneuvers(
        d.dexterity,
        d.mega_dexterity,
        d.athletics,
        d.melee_brawl,
        power_pool,
        specialty=specialty,
        dodge_added=dodge,
        parry_added=parry,
        powerblock_added=pb,
        notes=tuple(notes),
    )
    counted = counted_steps(
        (
            (maneuvers.dodge, dodge.difficulty),
            (maneuvers.parry, parry.difficulty),
            (maneuvers.powerblock, pb.difficulty),
        ),
        defence_difficulty,
        MANEUVERS,
    )
    maneuvers = replace(maneuvers, steps=(*maneuvers.steps, *counted))
    if conditions.daze == "none" or daze_on_defence == "action":
        return maneuvers
    state = "Dazed" if conditions.daze == "dazed" else "Stunned"
    text = (
        f"{state}: +1 difficulty to all actions, but a 2.0 defensive maneuver takes no "
        "action: the dodge, parry and powerblock are unchanged (rules note RN-COND-4)"
    )
    return replace(maneuvers, steps=(*maneuvers.steps, Step(text, DAZING)))


# --- 2.1 turn: the declared actions and the active defence ------------------------------


@dataclass(frozen=True)
class Turn:
    """How his 2.1 turn is priced: ``allowed`` of his ``declared`` actions may be taken,
    ``total`` actions count for the penalty (an active defence included); ``penalties``
    are the allowed declared actions', ``defence_penalty`` the active defence's."""

    declared: int
    allowed: int
    total: int
    penalties: tuple[int, ...]
    defence_penalty: int
    limit_reason: str
    steps: tuple[Step, ...]
    defence_steps: tuple[Step, ...]


def plan_turn(conditions: Conditions, reading: str = "stepwise", position: str = "last") -> Turn:
    """His actions this turn: ``conditions.actions``, an active defence among them when
    ``conditions.active_defence`` ("Characters may take an action to actively defend"),
    the others declared;
    a sprinter takes none but defensive maneuvers, a Stunned character a single action
    (the active defence, if he takes one: then none of the others). The penalties are
    :func:`ruleslab.quickref.defence.action_penalties` for the total; the active defence takes the
    last place (``position``: or the first; rules note RN-DEF-9)."""
    defence = 1 if conditions.active_defence else 0
    declared = conditions.actions - defence
    limit = actions_allowed(conditions)
    steps: list[Step] = []
    defence_steps: list[Step] = []
    reason = ""
    if limit is None:
        allowed = declared
    elif conditions.sprinting:
        allowed = 0
        reason = "sprinting: no actions but defensive maneuvers"
        steps.append(
            Step(
                f"Sprinting: he may take no action this turn but defensive maneuvers, so none "
                f"of his {declared} declared actions (rules note RN-COND-2)",
                SPRINTING,
            )
        )
    else:
        allowed = max(0, min(declared, limit - defence))
        reason = "Stunned: a single action" + (", his active defence" if defence else "")
        which = "his active defence" if defence else "his 1st declared action"
        steps.append(
            Step(
                f"Stunned: 'may not take more than a single action': {which} only; "
                f"{declared - allowed} of his {declared} declared actions are not allowed "
                "(rules note RN-COND-4)",
                DAZING,
            )
        )
    total = allowed + defence
    table = action_penalties(total, reading) if total else ()
    penalties: tuple[int, ...] = table
    defence_penalty = 0
    if defence:
        if position == "last":
            defence_penalty, penalties = table[-1], table[:-1]
        else:
            defence_penalty, penalties = table[0], table[1:]
        counted = Conditions(actions=max(1, min(total, 10)), active_defence=True)
        added, step = multiple_actions_difficulty(RollKind("the active defence roll"), counted)
        if position == "last" and reading in ("stepwise", "all") and total <= 10:
            assert added == defence_penalty
        else:
            place = "last" if position == "last" else "first"
            step = Step(
                f"{total} actions this turn, his active defence one of them (the {place}): "
                f"+{defence_penalty} difficulty to the active defence roll (rules notes "
                "RN-COND-3, RN-DEF-9)",
                MULTIPLE_ACTIONS,
            )
        if step is not None:
            defence_steps.append(step)
        if allowed:
            steps.append(
                Step(
                    f"Actions this turn: {allowed} declared + the active defence = {total}; his "
                    f"declared actions are the {'first' if position == 'last' else 'last'} "
                    f"{allowed} (rules notes RN-COND-3, RN-DEF-9)",
                    MULTIPLE_ACTIONS,
                )
            )
    return Turn(
        declared,
        allowed,
        total,
        penalties,
        defence_penalty,
        reason,
        tuple(steps),
        tuple(defence_steps),
    )


def whole_turn(actions: int, reading: str = "stepwise") -> Turn:
    """A turn of ``actions`` declared actions, every one allowed, no active defence."""
    return Turn(actions, actions, actions, action_penalties(actions, reading), 0, "", (), ())


@dataclass(frozen=True, kw_only=True)
class MultipleActions(Explained):
    """2.1 multiple actions: each action's difficulty and chance of success. Of his
    ``declared`` actions, those his conditions forbid are "not allowed" (``limit_reason``),
    with chance 0; ``p_all``, the chance that every declared action succeeds (the rolls are
    independent), is 0 unless every one is allowed."""

    declared: int
    rolls: tuple[PoolRoll, ...]
    p_all: Fraction
    limit_reason: str

    @property
    def difficulties(self) -> tuple[int, ...]:
        return tuple(r.difficulty for r in self.rolls)

    @property
    def chances(self) -> tuple[Fraction, ...]:
        refused = (Fraction(0),) * (self.declared - len(self.rolls))
        return tuple(r.p_success for r in self.rolls) + refused

    def _refused(self) -> str:
        n = len(self.rolls)
        if n == self.declared:
            return ""
        names = ", ".join(ordinal(i + 1) for i in range(n, self.declared))
        return f"{names} not allowed ({self.limit_reason})"

    def figures(self) -> tuple[Figure, ...]:
        refused = self._refused()
        diffs = ", ".join(f"{ordinal(i + 1)} {d}" for i, d in enumerate(self.difficulties))
        chances = ", ".join(
            f"{ordinal(i + 1)} {fmt_prob(r.p_success)}" for i, r in enumerate(self.rolls)
        )
        if refused:
            diffs = f"{diffs}; {refused}" if diffs else refused
            chances = f"{chances}; {refused}: 0 %" if chances else f"{refused}: 0 %"
        p_all = fmt_prob(self.p_all) + (f" ({refused})" if refused else "")
        return (
            Figure("action_difficulties", "Difficulty of each action", self.difficulties, diffs),
            Figure("action_chances", "Chance each action succeeds", self.chances, chances),
            Figure("p_all_actions", "Chance all actions succeed", self.p_all, p_all),
        )


def multiple_actions(
    attack_pool: int,
    attack_difficulty: int,
    actions: int | Turn,
    attack_rerolls: bool = False,
    multiple_reading: str = "stepwise",
    added: Modifier = NOTHING_ADDED,
) -> MultipleActions:
    """2.1: "Every additional action past the first adds a cumulative +1 difficulty
    penalty rather than subtracting dice." Each action rolls the full pool.

    ``actions``: how many (:func:`whole_turn`), or the :class:`Turn` his conditions allow
    (:func:`plan_turn`); each action at its penalty plus ``added`` (his conditions': Dazed/
    Stunned +1 to all actions)."""
    turn = whole_turn(actions, multiple_reading) if isinstance(actions, int) else actions
    pool = added.pool(attack_pool)  # less his wound penalty (rules note RN-COND-7)
    how = {
        "stepwise": "each action past the first adds +1 more than the one before",
        "all": f"{turn.total} actions: every action is at +{max(0, turn.total - 1)}",
        "compounding": "the penalties add up: +1, then +1 +2, then +1 +2 +3 …",
    }[multiple_reading]
    steps = list(turn.steps)
    if turn.penalties:
        steps.append(
            Step(
                f"Multiple actions: the full pool of {attack_pool}{added.less()}"
                f"{f' = {pool}' if added.dice else ''} dice each time; {how}: "
                + ", ".join(f"{ordinal(i + 1)} +{p}" for i, p in enumerate(turn.penalties))
                + " (rules note RN-DEF-7)",
                MULTIPLE_ACTIONS,
            )
        )
    if attack_rerolls and turn.penalties:
        steps.append(Step("A Mega-Attribute applies: 10s reroll (2.1)", SPECIALTIES_21))
    steps += added.steps if turn.penalties else ()
    rolls = []
    p_all = Fraction(1)
    for i, pen in enumerate(turn.penalties):
        diff = attack_difficulty + pen + added.difficulty
        roll = pool_roll(f"{ordinal(i + 1)} action", pool, diff, attack_rerolls)
        rolls.append(roll)
        p_all *= roll.p_success
        dazed = f" + {added.difficulty}" if added.difficulty else ""
        steps.append(
            Step(
                f"{roll.name}: difficulty {attack_difficulty} + {pen}{dazed} = {roll.difficulty}; "
                f"P(success) = {fmt_prob(roll.p_success)}",
                MULTIPLE_ACTIONS,
            )
        )
    if len(rolls) < turn.declared:
        p_all = Fraction(0)
        steps.append(
            Step(
                f"All {turn.declared} declared actions succeed: 0 %, as "
                f"{turn.declared - len(rolls)} of them may not be taken ({turn.limit_reason})",
                MULTIPLE_ACTIONS,
            )
        )
    else:
        steps.append(
            Step(
                f"All {turn.declared} succeed (independent rolls): "
                + " × ".join(fmt_prob(r.p_success) for r in rolls)
                + f" = {fmt_prob(p_all)}",
                MULTIPLE_ACTIONS,
            )
        )
    return MultipleActions(
        declared=turn.declared,
        rolls=tuple(rolls),
        p_all=p_all,
        limit_reason=turn.limit_reason,
        steps=tuple(steps),
    )


# --- 2.1 Defense ----------------------------------------------------------------------


def defense_21(
    defender: Character,
    conditions: Conditions,
    power_pool: int,
    turn: Turn,
    mega_in_defense: str = "double",
    specialty: bool = False,
    defence_difficulty: str = "spend",
) -> Defense:
    """2.1 :func:`ruleslab.quickref.defence.defense` with the defender's conditions on the active
    defence and power block rolls: sprinting +1 (defensive maneuvers), Dazed/Stunned +1 (an
    action), the multiple-action penalty of ``turn`` when he takes an active defence, and
    the load on the active defence (Athletics: movement; Melee/Brawl: other physical)."""
    d = defender
    ability_name, _ = defending_ability(d.athletics, d.melee_brawl)
    extra = turn.defence_penalty
    load = load_encumbrance(d, conditions)
    active = defence_modifier(active_kind(ability_name), d, conditions, V21, extra, load)
    power_block = defence_modifier(POWER_BLOCK_21, d, conditions, V21, extra, load)
    needs = (
        (_needs_step(DEFENSES, defence_difficulty),)
        if active.difficulty or power_block.difficulty
        else ()
    )
    active_steps = (*active.steps, *turn.defence_steps, *needs)
    result = defense(
        d.dexterity,
        d.mega_dexterity,
        d.wits,
        d.mega_wits,
        d.athletics,
        d.melee_brawl,
        d.quantum,
        power_pool,
        mega_in_defense=mega_in_defense,
        specialty=specialty,
        active_added=replace(active, steps=active_steps),
        power_block_added=power_block,
    )
    counted = counted_steps(
        ((result.active, active.difficulty), (result.power_roll, power_block.difficulty)),
        defence_difficulty,
        DEFENSES,
    )
    return replace(result, steps=(*result.steps, *counted)) if counted else result
