"""The Warfare calculator (key ``warfare``): one turn of an enemy force's attacks of opportunity.

The rules are in :mod:`ruleslab.warfare` (force Size, attacks of opportunity,
what the force spends, Quantity is Quality, a squad's losses) and
:mod:`ruleslab.henchmen`; this module declares the calculator's inputs,
combines the rules into one explained result (:class:`WarfareReport`), its
chart and its "Roll it" log. See :mod:`ruleslab.declare`. (A little over 600
lines: 27 inputs, and a report of up to 13 figures.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from ruleslab.declare import Calculator, Chart, ChartView, Roll
from ruleslab.dice import roll_pool
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.henchmen import squad_losses
from ruleslab.inputs import HENCHMEN_TRAINING, LEADER_IS_HENCHMAN, LOSSES_ROUNDING
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.sources import ALT, rule
from ruleslab.warfare import (
    AREA_MULTIPLIER,
    FORCE,
    attacks_of_opportunity,
    defence_pool,
    force_pools,
    headcount,
    power_spent,
    quantity_is_quality,
    squad_turn_losses,
    turn_damage,
)

__all__ = ["CALCULATOR", "WarfareReport", "roll_turn", "warfare"]

TARGET_CHARACTER = "character"
TARGET_SQUAD = "squad"

POWER_USES = (
    ("none", "Not used"),
    ("firepower", "Firepower (Power used as Support)"),
    ("boost", "Boost (+1 Psi, or +1 power rating and Quantum)"),
    ("recharge", "Recharge (+1 Quantum or Psi to all soldiers)"),
)


@dataclass(frozen=True, kw_only=True)
class WarfareReport(Explained):
    """One turn of a force's attacks of opportunity against a character or a squad.

    ``damage_pmf[k]`` is the exact P(the turn's attacks deal k health levels in
    all); for a squad ``losses_pmf[k]`` is P(k henchmen removed) (capped at the
    squad), else ``None``. ``size_difference`` is enemy Size − party Size.
    """

    enemy_size: int
    headcount: int
    attacks_granted: int
    attack_cap: int
    attacks: int
    attack_dice: int
    attack_auto: int
    defence_dice: int
    defence_penalty: int
    defence_reading: str
    damage_dice: int
    damage_auto: int
    p_hit: Fraction
    p_any_hit: Fraction
    damage_pmf: tuple[Fraction, ...]
    expected_damage: Fraction
    size_difference: int
    morale_reduction: int
    power_use: str
    power_text: str
    target: str
    squad_size: int
    training: str
    rounding: str
    leader_is_henchman: bool
    losses_pmf: tuple[Fraction, ...] | None
    expected_losses: Fraction | None

    @property
    def p_wiped(self) -> Fraction | None:
        """P(every removable member of the squad is removed), None for a character."""
        return None if self.losses_pmf is None else self.losses_pmf[-1]

    def _penalty_text(self) -> str:
        d = self.size_difference
        if d > 0:
            return f"+{d} difficulty to the party's defensive and awareness rolls"
        if d < 0:
            return f"+{-d} difficulty to the enemy's defensive and awareness rolls"
        return "none (equal Size)"

    def _morale_text(self) -> str:
        d = self.size_difference
        if d > 0:
            return f"the party's force may lose up to {d} Morale"
        if d < 0:
            return f"the enemy may lose up to {-d} Morale"
        return "none (equal Size)"

    def figures(self) -> tuple[Figure, ...]:
        auto = f" + {self.attack_auto} auto" if self.attack_auto else ""
        dauto = f" + {self.damage_auto} auto" if self.damage_auto else ""
        defence = (
            f"{self.defence_dice} dice"
            if self.defence_reading == "opposed"
            else f"Defense {self.defence_dice}"
        )
        if self.defence_penalty:
            defence += f", −{self.defence_penalty} for Size"
        figs = [
            Figure(
                "attacks",
                "Attacks of opportunity used",
                self.attacks,
                f"{self.attacks} of {self.attacks_granted}",
            ),
            Figure(
                "attack_pool", "Attack pool", self.attack_dice, f"{self.attack_dice} dice{auto}"
            ),
            Figure("defence_pool", "Defence", self.defence_dice, defence),
            Figure("damage_dice", "Damage dice", self.damage_dice, f"{self.damage_dice}{dauto}"),
            Figure("p_hit", "Chance each attack hits", self.p_hit, fmt_prob(self.p_hit)),
            Figure(
                "p_any_hit", "Chance of at least one hit", self.p_any_hit, fmt_prob(self.p_any_hit)
            ),
            Figure(
                "expected_damage",
                "Expected health levels (lethal)",
                self.expected_damage,
                fmt_num(self.expected_damage, "levels"),
            ),
        ]
        if self.losses_pmf is not None:
            assert self.expected_losses is not None
            assert self.p_wiped is not None
            figs += [
                Figure(
                    "expected_losses",
                    "Expected henchmen removed",
                    self.expected_losses,
                    fmt_num(self.expected_losses, f"of {self.squad_size}"),
                ),
                Figure(
                    "p_wiped", "Chance the squad is wiped out", self.p_wiped, fmt_prob(self.p_wiped)
                ),
            ]
        figs += [
            Figure(
                "headcount",
                "Enemy force, roughly",
                self.headcount,
                f"~{fmt_num(self.headcount)} combatants",
            ),
            Figure(
                "defence_penalty",
                "Size difference: difficulty",
                self.size_difference,
                self._penalty_text(),
            ),
            Figure(
                "morale_reduction",
                "Size difference: Morale",
                self.morale_reduction,
                self._morale_text(),
            ),
            Figure("power_effect", "Power track", self.power_use, self.power_text),
        ]
        return tuple(figs)

    def chart_pmf(self) -> tuple[Fraction, ...]:
        """The charted distribution: henchmen removed for a squad, else health levels."""
        return self.losses_pmf if self.losses_pmf is not None else self.damage_pmf

    def chart(self) -> Chart:
        """Bars ``(str(k), P(total k))``, cut after the last bar at least 10⁻⁶ likely;
        none highlighted."""
        return Chart(chart_bars(self.chart_pmf()))


# --- inputs -------------------------------------------------------------------------


class _Range(TypedDict):
    minimum: int
    maximum: int


_ATTR: _Range = {"minimum": 1, "maximum": 10}
_TRACK: _Range = {"minimum": 0, "maximum": 10}


@checked(
    IntParam(
        "enemy_size",
        "Enemy Size",
        **_ATTR,
        help="Size 1 ≈ 40 combatants, doubling per level (Size 5 ≈ battalion, 10 ≈ corps).",
    ),
    IntParam(
        "enemy_firepower",
        "Enemy Firepower",
        **_ATTR,
        help="Adds to the damage dice: Firepower + Size, lethal, ignoring soak.",
    ),
    IntParam(
        "enemy_skill",
        "Enemy Skill",
        **_ATTR,
        help="The attack pool is Skill + Size (+ Support, + Power, when spent).",
    ),
    IntParam(
        "morale",
        "Enemy Morale track",
        **_TRACK,
        help="Current Morale; spending needs at least 1.",
    ),
    BoolParam(
        "spend_morale",
        "Spend 1 Morale",
        help="+1 success to all the unit's actions this round (RN-WAR-4).",
    ),
    IntParam(
        "support",
        "Enemy Support (permanent)",
        **_TRACK,
        help="Off-board firepower; 5+ is a first-world military.",
    ),
    BoolParam(
        "spend_support",
        "Spend 1 Support",
        help=(
            "Adds the permanent Support to the attack pool and 1 automatic success "
            "to damage (RN-WAR-5)."
        ),
    ),
    IntParam(
        "power",
        "Enemy Power (permanent)",
        **_TRACK,
        help="Psi/Quantum forces only: sub-Aberrant horde 1, all-Doyen 10.",
    ),
    ChoiceParam(
        "power_use",
        "Spend 1 Power on",
        choices=POWER_USES,
        help=(
            "Firepower counts as Support (and can be used alongside it); Boost and "
            "Recharge help the enemy's own powers (RN-WAR-6)."
        ),
    ),
    IntParam(
        "commander_intelligence",
        "Enemy commander's Intelligence",
        help="With Command, caps the attacks of opportunity used: Intelligence + Command.",
        **_ATTR,
    ),
    IntParam(
        "commander_mega_intelligence",
        "Enemy commander's Mega-Intelligence",
        minimum=0,
        maximum=10,
        help=(
            "Counts 2 per dot towards the attack cap unless the Rules option says "
            "otherwise (RN-WAR-1)."
        ),
    ),
    IntParam(
        "commander_command",
        "Enemy commander's Command",
        **_TRACK,
        help="Attacks used = Size, at most Intelligence + Command.",
    ),
    IntParam(
        "party_size",
        "Party's force Size",
        **_TRACK,
        help=(
            "0: the party has no force of its own (RN-WAR-7). The net Size "
            "difference drives Quantity is Quality."
        ),
    ),
    ChoiceParam(
        "target",
        "Target",
        choices=((TARGET_CHARACTER, "A character"), (TARGET_SQUAD, "A squad of henchmen")),
        help="Against squads the attacks are Area attacks, ×3.",
    ),
    IntParam("wits", "Target's Wits", **_ATTR, help="The character's, or the squad leader's."),
    IntParam(
        "mega_wits",
        "Target's Mega-Wits",
        minimum=0,
        maximum=10,
        help="Each dot counts as 2 Wits dots (Quick reference › Mega-Attributes).",
    ),
    IntParam(
        "tactics",
        "Target's Tactics",
        help="The defence against attacks of opportunity is the target's Wits + Tactics.",
        **_TRACK,
    ),
    IntParam(
        "defence_bonus",
        "Extra defence dice",
        minimum=0,
        maximum=60,
        help="E.g. a squad's henchmen, +1d each (Henchmen › Dice Pool).",
    ),
    IntParam(
        "henchmen",
        "Henchmen in the squad",
        minimum=1,
        maximum=1000,
        help="Squad target only: each point of damage × 3 removes one (RN-WAR-8).",
    ),
    HENCHMEN_TRAINING,
    LEADER_IS_HENCHMAN,
    ChoiceParam(
        "defence_reading",
        "How Wits + Tactics defends",
        choices=(
            ("opposed", "Rolled: its successes cancel attack successes"),
            ("defense_score", "Not rolled: added to the difficulty (a Defense score)"),
        ),
        help="See rules note RN-WAR-2.",
    ),
    ChoiceParam(
        "size_penalty",
        "Size difficulty penalty on the defence",
        choices=(("apply", "Applies to the defence"), ("ignore", "Not applied here")),
        help=(
            "Quantity is Quality: +1 difficulty per point of net Size to defensive "
            "rolls. See RN-WAR-3."
        ),
    ),
    ChoiceParam(
        "divide_by_3",
        "Divide pools by 3",
        choices=(
            ("no", "No"),
            ("attack_damage", "Attack and damage pools (as written)"),
            ("all", "Attack, damage and defence pools"),
        ),
        help="“For ease of resolution”, rounded up. See RN-WAR-9.",
    ),
    ChoiceParam(
        "mega_intelligence",
        "Mega-Intelligence and the attack cap",
        choices=(("counts", "Each dot counts as 2"), ("ignored", "Not counted")),
        help="See rules note RN-WAR-1.",
    ),
    ChoiceParam(
        "morale_on_damage",
        "Spent Morale on damage",
        choices=(("attack", "Attack roll only"), ("both", "Attack and damage rolls")),
        help="See rules note RN-WAR-4.",
    ),
    LOSSES_ROUNDING,
)
def warfare(
    enemy_size: int = 5,
    enemy_firepower: int = 3,
    enemy_skill: int = 3,
    morale: int = 5,
    spend_morale: bool = False,
    support: int = 0,
    spend_support: bool = False,
    power: int = 0,
    power_use: str = "none",
    commander_intelligence: int = 3,
    commander_mega_intelligence: int = 0,
    commander_command: int = 3,
    party_size: int = 0,
    target: str = TARGET_CHARACTER,
    wits: int = 3,
    mega_wits: int = 0,
    tactics: int = 2,
    defence_bonus: int = 0,
    henchmen: int = 10,
    training: str = "regular",
    leader_is_henchman: bool = False,
    defence_reading: str = "opposed",
    size_penalty: str = "apply",
    divide_by_3: str = "no",
    mega_intelligence: str = "counts",
    morale_on_damage: str = "attack",
    rounding: str = "down",
) -> WarfareReport:
    """One turn of an enemy force's attacks of opportunity, exactly (see :mod:`ruleslab.warfare`).

    A squad of up to 1,000 henchmen, and an all-henchmen commander removed after
    them (up to 1,001 to remove, RN-HENCH-7).
    """
    if spend_morale and morale < 1:
        raise InputError("spend_morale", "Spend 1 Morale needs a Morale track of at least 1.")
    if spend_support and support < 1:
        raise InputError("spend_support", "Spend 1 Support needs a Support track of at least 1.")
    if power_use != "none" and power < 1:
        use = dict(POWER_USES)[power_use].split(" (")[0]
        raise InputError("power_use", f"Spend 1 Power on {use} needs a Power track of at least 1.")
    squad = target == TARGET_SQUAD
    squad_size = henchmen + (1 if leader_is_henchman else 0)

    heads = headcount(enemy_size)
    head_step = Step(
        f"Enemy Size {enemy_size} ≈ 40 × 2^{enemy_size - 1} = {fmt_num(heads)} combatants", FORCE
    )
    count = attacks_of_opportunity(
        enemy_size,
        commander_intelligence,
        commander_command,
        commander_mega_intelligence,
        mega_counts=mega_intelligence == "counts",
    )
    pools = force_pools(
        skill=enemy_skill,
        size=enemy_size,
        firepower=enemy_firepower,
        support=support,
        spend_support=spend_support,
        power=power,
        power_as_support=power_use == "firepower",
        spend_morale=spend_morale,
        morale_on_damage=morale_on_damage == "both",
        divide=divide_by_3 in ("attack_damage", "all"),
    )
    defence = defence_pool(
        wits=wits,
        tactics=tactics,
        mega_wits=mega_wits,
        extra=defence_bonus,
        squad=squad,
        divide=divide_by_3 == "all",
    )
    size = quantity_is_quality(
        enemy_size,
        party_size,
        defence.dice,
        apply_penalty=size_penalty == "apply",
        opposed=defence_reading == "opposed",
    )
    turn = turn_damage(
        attacks=count.attacks,
        pools=pools,
        defence=defence.dice,
        penalty=size.penalty,
        reading=defence_reading,
    )
    losses = None
    if squad:
        losses = squad_turn_losses(
            turn.per_attack,
            count.attacks,
            henchmen=henchmen,
            leader_is_henchman=leader_is_henchman,
            training=training,
            rounding=rounding,
        )
    spent = power_spent(power_use, power)
    return WarfareReport(
        enemy_size=enemy_size,
        headcount=heads,
        attacks_granted=enemy_size,
        attack_cap=count.cap,
        attacks=count.attacks,
        attack_dice=pools.attack_dice,
        attack_auto=pools.attack_auto,
        defence_dice=defence.dice,
        defence_penalty=size.penalty,
        defence_reading=defence_reading,
        damage_dice=pools.damage_dice,
        damage_auto=pools.damage_auto,
        p_hit=turn.p_hit,
        p_any_hit=turn.p_any_hit,
        damage_pmf=turn.total,
        expected_damage=turn.expected,
        size_difference=size.difference,
        morale_reduction=abs(size.difference),
        power_use=power_use,
        power_text=spent.text,
        target=target,
        squad_size=squad_size,
        training=training,
        rounding=rounding,
        leader_is_henchman=leader_is_henchman,
        losses_pmf=None if losses is None else losses.losses,
        expected_losses=None if losses is None else losses.expected,
        steps=(
            head_step,
            *count.steps,
            *pools.steps,
            *defence.steps,
            *size.steps,
            *turn.steps,
            *(() if losses is None else losses.steps),
            *spent.steps,
        ),
    )


def roll_turn(report: WarfareReport, seed: int) -> tuple[str, ...]:
    """One seeded turn of the attacks of opportunity ``report`` describes, as lines to read out."""
    rng = random.Random(seed)
    lines = [f"{report.attacks} attacks of opportunity"]
    total = 0
    left = report.squad_size
    for i in range(1, report.attacks + 1):
        a = roll_pool(report.attack_dice, auto=report.attack_auto, rng=rng)
        line = f"Attack {i}: {report.attack_dice} dice {list(a.faces)} → {a.successes}"
        if report.defence_reading == "opposed":
            d = roll_pool(report.defence_dice, rng=rng)
            counted = max(0, d.successes - report.defence_penalty)
            pen = f" − {report.defence_penalty} Size penalty" if report.defence_penalty else ""
            line += f" vs defence {list(d.faces)} → {d.successes}{pen} = {counted}"
            net = a.successes - counted
            hit = net >= 1
            line += f"; net {net}"
        else:
            need = 1 + max(0, report.defence_dice - report.defence_penalty)
            hit = a.successes >= need
            line += f" (needs {need})"
        if not hit:
            lines.append(line + ": MISS")
            continue
        dmg = roll_pool(report.damage_dice, auto=report.damage_auto, rng=rng)
        levels = dmg.successes
        total += levels
        line += f": HIT, damage {list(dmg.faces)} → {levels} lethal"
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
        lines.append(f"Total: {total} lethal health levels, soak ignored")
    return tuple(lines)


CALCULATOR = Calculator(
    key="warfare",
    title="Warfare",
    summary=(
        "The war around the party: an enemy force's attacks of opportunity in one turn "
        "(Size, capped by its commander's Intelligence + Command), exact odds of a hit and "
        "the total lethal damage to a character, or henchmen removed from a squad (Area ×3); "
        "Support, Power and Morale spending; Quantity is Quality."
    ),
    compute=warfare,
    rules=(
        rule(
            ALT,
            "Mass Combat",
            "Warfare (Force Attributes, Attacks of Opportunity, Power Overwhelming, "
            "Quantity is Quality)",
        ),
        rule(ALT, "Mass Combat", "Henchmen"),
    ),
    options=(
        "defence_reading",
        "size_penalty",
        "divide_by_3",
        "mega_intelligence",
        "morale_on_damage",
        "rounding",
    ),
    rolls=(
        Roll(
            "Roll it",
            roll_turn,
            help=(
                "Rolls one turn of attacks of opportunity with the current inputs; the "
                "same seed replays the same turn."
            ),
        ),
    ),
    views=(
        ChartView(
            title="Total damage this turn",
            x_label="Health levels (character) or henchmen removed (squad)",
            chart=WarfareReport.chart,
        ),
    ),
    example=(
        "from ruleslab.calculators.warfare import roll_turn, warfare\n"
        "r = warfare(enemy_size=7, enemy_skill=4, support=3, spend_support=True,\n"
        "            target='squad', henchmen=12, training='trained')\n"
        "print(r.attacks, float(r.p_hit), float(r.expected_losses))\n"
        "print('\\n'.join(roll_turn(r, 1)))"
    ),
)
