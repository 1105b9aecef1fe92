"""Warfare: one turn of an enemy force's attacks of opportunity, as one explained result.

The rules are in :mod:`ruleslab.alterations.warfare` (force Size, attacks of opportunity,
the "divide by 3" shortcut, a squad's losses), :mod:`ruleslab.alterations.warfare.support`
(what the force spends: Support and its special types, Morale, Power),
:mod:`ruleslab.alterations.warfare.quantity` (Quantity is Quality: defence, awareness,
Morale) and :mod:`ruleslab.alterations.henchmen`; what the target's conditions do to his
defence is :mod:`ruleslab.quickref.conditions`. Here they are combined into one turn
(:func:`warfare_turn`, its :class:`~ruleslab.alterations.warfare.report.WarfareReport`) and
its "Roll it" log (:func:`roll_turn`), which the Warfare calculator
(:mod:`ruleslab.calculators.warfare`) declares. Readings:
``docs/rules-notes/warfare.md`` (RN-WAR-*).
"""

from __future__ import annotations

import random
from fractions import Fraction

from ruleslab.alterations.henchmen import squad_losses
from ruleslab.alterations.warfare import (
    AOO,
    AREA_MULTIPLIER,
    DEFENCE_ROLL,
    FORCE,
    Defence,
    ForcePools,
    Squad,
    TurnDamage,
    attacks_of_opportunity,
    defence_pool,
    fmt_threes,
    headcount,
    squad_expected_losses,
    squad_turn_losses,
    turn_damage,
)
from ruleslab.alterations.warfare.quantity import awareness_roll, morale_loss, quantity_is_quality
from ruleslab.alterations.warfare.report import WarfareReport
from ruleslab.alterations.warfare.support import force_pools, power_spent
from ruleslab.character import Character, Conditions
from ruleslab.dice import roll_pool
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.params import InputError
from ruleslab.quickref.conditions import DAZING, daze_difficulty, defence_successes
from ruleslab.quickref.mega import effective

__all__ = [
    "SHORTCUT_OF_OPTION",
    "TARGET_CHARACTER",
    "TARGET_SQUAD",
    "counted_successes",
    "roll_turn",
    "warfare_turn",
]

TARGET_CHARACTER = "character"
TARGET_SQUAD = "squad"

SHORTCUT_OF_OPTION = {"no": "none", "scaled": "threes", "attack_damage": "divide", "all": "divide"}
"""The ``divide_by_3`` option's value → :data:`ruleslab.alterations.warfare.SHORTCUTS` for the
attack and damage pools (``all`` divides the defence too; rules note RN-WAR-9)."""


DAZED_DIFFICULTY, _ = daze_difficulty(DEFENCE_ROLL, "dazed")
"""What Dazed (or Stunned) adds to his defence: +1 (rules note RN-WAR-13)."""


def counted_successes(rolled: int, added: int, reading: str) -> int:
    """The successes a defence roll of ``rolled`` successes counts at ``added`` difficulty:
    :func:`ruleslab.quickref.conditions.defence_successes` on that one roll (RN-COND-5)."""
    one = (Fraction(0),) * rolled + (Fraction(1),)
    return defence_successes(one, added, reading).index(1)


def warfare_turn(
    *,
    defender: Character,
    commander: Character,
    conditions: Conditions,
    enemy_size: int,
    enemy_firepower: int,
    enemy_skill: int,
    morale: int,
    morale_permanent: int,
    spend_morale: bool,
    support: int,
    spend_support: bool,
    support_kind: str,
    power: int,
    power_use: str,
    party_size: int,
    party_morale: int,
    party_morale_permanent: int,
    awareness_dice: int,
    awareness_difficulty: int,
    target: str,
    defence_bonus: int,
    henchmen: int,
    training: str,
    leader_is_henchman: bool,
    defence_reading: str,
    defence_difficulty: str,
    size_penalty: str,
    size_morale: str,
    dazing: str,
    divide_by_3: str,
    mega_intelligence: str,
    morale_on_damage: str,
    rounding: str,
) -> WarfareReport:
    """One turn of an enemy force's attacks of opportunity, exactly (see
    :mod:`ruleslab.alterations.warfare`).

    ``defender``: the target character (a squad: its leader), whose Wits +
    Tactics defends and whose Stamina sets when he is Dazed; ``commander``: the
    enemy commander, whose Intelligence + Command caps the attacks; ``conditions``:
    the target's (a squad: its leader's) at the start of the turn: already Dazed or
    Stunned, every defence this turn is at +1 difficulty (rules note RN-WAR-14). A
    squad of up to 1,000 henchmen, and an all-henchmen commander removed after
    them (up to 1,001 to remove, RN-HENCH-7).
    """
    if morale > morale_permanent:
        raise InputError(
            "morale",
            f"Enemy Morale (temporary) can be at most the permanent Morale, {morale_permanent}.",
        )
    if party_morale > party_morale_permanent:
        raise InputError(
            "party_morale",
            "Party's force Morale (temporary) can be at most its permanent Morale, "
            f"{party_morale_permanent}.",
        )
    if spend_morale and morale < 1:
        raise InputError("spend_morale", "Spend 1 Morale needs a Morale track of at least 1.")
    if spend_support and support < 1:
        raise InputError("spend_support", "Spend 1 Support needs a Support track of at least 1.")
    if power_use != "none" and power < 1:
        use = power_use.capitalize()
        raise InputError("power_use", f"Spend 1 Power on {use} needs a Power track of at least 1.")
    lost = morale_loss(
        enemy_size - party_size,
        party_has_force=party_size > 0,
        party_temporary=party_morale,
        party_permanent=party_morale_permanent,
        enemy_temporary=morale,
        enemy_permanent=morale_permanent,
        apply=size_morale == "apply",
    )
    enemy_lost = lost.side == "enemy" and lost.points > 0
    party_lost = lost.side == "party" and lost.points > 0
    if spend_morale and enemy_lost and lost.temporary_after < 1:
        raise InputError(
            "spend_morale",
            f"Spend 1 Morale needs at least 1 Morale left: Quantity is Quality takes "
            f"{lost.points} of the enemy's {morale} this turn.",
        )
    squad = target == TARGET_SQUAD
    members = Squad(
        henchmen=henchmen,
        leader_is_henchman=leader_is_henchman,
        training=training,
        rounding=rounding,
    )
    squad_size = members.size

    heads = headcount(enemy_size)
    head_step = Step(
        f"Enemy Size {enemy_size} ≈ 40 × 2^{enemy_size - 1} = {fmt_num(heads)} combatants", FORCE
    )
    count = attacks_of_opportunity(
        enemy_size,
        commander.intelligence,
        commander.command,
        commander.mega_intelligence,
        mega_counts=mega_intelligence == "counts",
    )

    def pools_for(shortcut: str) -> ForcePools:
        return force_pools(
            skill=enemy_skill,
            size=enemy_size,
            firepower=enemy_firepower,
            support=support,
            spend_support=spend_support,
            support_kind=support_kind,
            power=power,
            power_as_support=power_use == "firepower",
            spend_morale=spend_morale,
            morale_on_damage=morale_on_damage == "both",
            shortcut=shortcut,
        )

    def defence_for(divide: bool) -> Defence:
        return defence_pool(
            wits=defender.wits,
            tactics=defender.tactics,
            mega_wits=defender.mega_wits,
            extra=defence_bonus,
            squad=squad,
            divide=divide,
        )

    pools = pools_for(SHORTCUT_OF_OPTION[divide_by_3])
    defence = defence_for(divide_by_3 == "all")
    already, daze_step = daze_difficulty(DEFENCE_ROLL, conditions.daze)
    dazed_at: int | None = None
    stunned_at: int | None = None
    stamina_steps: tuple[Step, ...] = () if daze_step is None else (daze_step,)
    if not squad and dazing == "apply":
        eff = effective(
            "Stamina", defender.stamina, defender.mega_stamina, purpose="for Dazing/Stunning"
        )
        dazed_at, stunned_at = 2 * eff.value, 3 * eff.value
        stamina_steps += () if eff.step is None else (eff.step,)
    if already and dazed_at is not None:
        stamina_steps += (
            Step(
                f"Already {conditions.daze.capitalize()} when the turn starts: every attack "
                "meets his defence at the +1, and being Dazed again this turn adds no second "
                "(rules note RN-WAR-14)",
                DAZING,
            ),
        )
    size = quantity_is_quality(
        enemy_size,
        party_size,
        defence.dice,
        apply_penalty=size_penalty == "apply",
        opposed=defence_reading == "opposed",
        difficulty_reading=defence_difficulty,
    )

    def damage_for(attack: ForcePools, defence_dice: int) -> TurnDamage:
        return turn_damage(
            attacks=count.attacks,
            pools=attack,
            defence=defence_dice,
            penalty=size.penalty + already,
            reading=defence_reading,
            dazed_at=None if already else dazed_at,
            difficulty_reading=defence_difficulty,
        )

    turn = damage_for(pools, defence.dice)
    losses = squad_turn_losses(turn.per_attack, count.attacks, members) if squad else None
    full: TurnDamage | None = None
    full_losses: Fraction | None = None
    full_steps: tuple[Step, ...] = ()
    if divide_by_3 != "no":  # the full pools, side by side (RN-WAR-9)
        full = damage_for(pools_for("none"), defence_for(False).dice)
        if squad:
            full_losses = squad_expected_losses(full.per_attack, count.attacks, members)
        full_steps = (
            Step(
                f"For comparison, the full pools (no ÷ 3): P(hit) {fmt_prob(full.p_hit)}, "
                f"expected {fmt_num(full.expected, 'health levels')}"
                + (f", {fmt_num(full_losses)} henchmen removed" if full_losses is not None else "")
                + " (RN-WAR-9)",
                AOO,
            ),
        )
    aware = None
    if awareness_dice:
        aware = awareness_roll(awareness_dice, awareness_difficulty, size.difference)
    spent = power_spent(power_use, power)
    return WarfareReport(
        enemy_size=enemy_size,
        headcount=heads,
        attacks_granted=enemy_size,
        attack_cap=count.cap,
        attacks=count.attacks,
        attack_dice=pools.attack_dice,
        attack_threes=pools.attack_threes,
        attack_auto=pools.attack_auto,
        defence_dice=defence.dice,
        defence_penalty=size.penalty,
        defence_reading=defence_reading,
        difficulty_reading=defence_difficulty,
        daze_at_start=conditions.daze,
        daze_difficulty=already,
        damage_dice=pools.damage_dice,
        damage_threes=pools.damage_threes,
        damage_auto=pools.damage_auto,
        damage_type=pools.damage_type,
        support_kind=support_kind,
        p_hit=turn.p_hit,
        p_hit_dazed=turn.p_hit_dazed,
        dazed_at=dazed_at,
        stunned_at=stunned_at,
        p_any_hit=turn.p_any_hit,
        damage_pmf=turn.total,
        expected_damage=turn.expected,
        p_hit_full=None if full is None else full.p_hit,
        expected_damage_full=None if full is None else full.expected,
        size_difference=size.difference,
        awareness_dice=awareness_dice,
        awareness_difficulty_total=0 if aware is None else aware.difficulty,
        p_awareness=None if aware is None else aware.p_success,
        p_awareness_without_size=None if aware is None else aware.p_without_penalty,
        morale_reduction=lost.points,
        morale_text=lost.text,
        morale_after=lost.temporary_after if enemy_lost else morale,
        morale_permanent_after=lost.permanent_after if enemy_lost else morale_permanent,
        party_morale_after=lost.temporary_after if party_lost else party_morale,
        party_morale_permanent_after=(
            lost.permanent_after if party_lost else party_morale_permanent
        ),
        power_use=power_use,
        power_text=spent.text,
        target=target,
        squad_size=squad_size,
        training=training,
        rounding=rounding,
        leader_is_henchman=leader_is_henchman,
        losses_pmf=None if losses is None else losses.losses,
        expected_losses=None if losses is None else losses.expected,
        expected_losses_full=full_losses,
        steps=(
            head_step,
            *count.steps,
            *pools.steps,
            *defence.steps,
            *size.steps,
            *stamina_steps,
            *turn.steps,
            *(() if losses is None else losses.steps),
            *full_steps,
            *(() if aware is None else aware.steps),
            *lost.steps,
            *spent.steps,
        ),
    )


def _roll(
    dice: int, threes: int, auto: int, rng: random.Random, *, count: bool = True
) -> tuple[str, int]:
    """Roll a pool (``threes`` of its dice counting 3 per success): its faces in words
    (``count``: after the number of dice) and its successes. Without threes, one
    :func:`roll_pool` of the whole pool."""
    if not threes:
        r = roll_pool(dice, auto=auto, rng=rng)
        return (f"{dice} dice " if count else "") + str(list(r.faces)), r.successes
    tripled = roll_pool(threes, rng=rng)
    rest = roll_pool(dice - threes, auto=auto, rng=rng)
    text = f"{fmt_threes(threes, 0)} {list(tripled.faces)}"
    if dice > threes:
        text += f" + {fmt_threes(0, dice - threes)} {list(rest.faces)}"
    return text, 3 * tripled.successes + rest.successes


def roll_turn(report: WarfareReport, seed: int) -> tuple[str, ...]:
    """One seeded turn of the attacks of opportunity ``report`` describes, as lines to read out."""
    rng = random.Random(seed)
    lines = [f"{report.attacks} attacks of opportunity"]
    total = 0
    left = report.squad_size
    kind = report.damage_type
    dazed = report.daze_difficulty  # the difficulty Dazed adds: from the start, or once Dazed
    why = report.daze_at_start.capitalize() if dazed else "Dazed"
    spend = report.difficulty_reading == "spend"
    for i in range(1, report.attacks + 1):
        faces, successes = _roll(report.attack_dice, report.attack_threes, report.attack_auto, rng)
        line = f"Attack {i}: {faces} → {successes}"
        penalty = report.defence_penalty + dazed
        if report.defence_reading == "opposed":
            d = roll_pool(report.defence_dice, rng=rng)
            counted = counted_successes(d.successes, penalty, report.difficulty_reading)
            pen = f" − {report.defence_penalty} Size penalty" if report.defence_penalty else ""
            pen += f" − {dazed} {why}" if dazed else ""
            if not spend and penalty:
                pen = f" (at +{penalty} difficulty: counts only at {1 + penalty})"
            line += f" vs defence {list(d.faces)} → {d.successes}{pen} = {counted}"
            net = successes - counted
            hit = net >= 1
            line += f"; net {net}"
        else:
            need = 1 + counted_successes(report.defence_dice, penalty, report.difficulty_reading)
            hit = successes >= need
            line += f" (needs {need})"
        if not hit:
            lines.append(line + ": MISS")
            continue
        faces, levels = _roll(
            report.damage_dice, report.damage_threes, report.damage_auto, rng, count=False
        )
        total += levels
        line += f": HIT, damage {faces} → {levels} {kind}"
        if report.dazed_at is not None and report.stunned_at is not None and not dazed:
            if total >= report.dazed_at:
                dazed = DAZED_DIFFICULTY
                state = "Stunned" if total >= report.stunned_at else "Dazed"
                line += f"; {total} levels this turn: {state} (+1 difficulty from now on)"
        elif report.stunned_at is not None and total >= report.stunned_at > total - levels:
            line += f"; {total} levels this turn: Stunned"
        if report.target == TARGET_SQUAD and left == 0:
            line += "; no one left to remove: the leader is exposed (not applied, RN-WAR-8)"
        elif report.target == TARGET_SQUAD:
            out = squad_losses(
                damage=levels,
                henchmen=left,
                training=report.training,
                area=AREA_MULTIPLIER,
                rounding=report.rounding,
            )
            div = f" ÷ {out.divisor} rounded {report.rounding}" if out.divisor > 1 else ""
            line += f" × 3 = {out.multiplied}{div} → {out.removed} removed"
            left -= out.removed
        lines.append(line)
    if report.target == TARGET_SQUAD:
        removed = report.squad_size - left
        lines.append(
            f"Total: {total} health levels; {removed} of {report.squad_size} removed"
            + (" — squad wiped out" if removed == report.squad_size else "")
        )
    else:
        lines.append(f"Total: {total} {kind} health levels, soak ignored")
    return tuple(lines)
