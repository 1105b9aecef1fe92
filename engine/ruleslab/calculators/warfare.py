"""The Warfare calculator (key ``warfare``): one turn of an enemy force's attacks of opportunity.

The rules are in :mod:`ruleslab.warfare` (force Size, attacks of opportunity,
the "divide by 3" shortcut, a squad's losses), :mod:`ruleslab.warfare_support`
(what the force spends: Support and its special types, Morale, Power),
:mod:`ruleslab.warfare_quantity` (Quantity is Quality: defence, awareness,
Morale) and :mod:`ruleslab.henchmen`; this module declares the calculator's
inputs, combines the rules into one explained result (:class:`WarfareReport`),
its chart and its "Roll it" log. See :mod:`ruleslab.declare`. (Over 600 lines,
for a reason: 34 inputs, and a report of up to 17 figures, kept in the one
module the project gives each calculator.)
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
from ruleslab.mega import effective
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.sources import ALT, rule
from ruleslab.warfare import (
    AOO,
    AREA_MULTIPLIER,
    FORCE,
    Defence,
    ForcePools,
    TurnDamage,
    TurnLosses,
    attacks_of_opportunity,
    defence_pool,
    fmt_threes,
    headcount,
    squad_expected_losses,
    squad_turn_losses,
    turn_damage,
)
from ruleslab.warfare_quantity import awareness_roll, morale_loss, quantity_is_quality
from ruleslab.warfare_support import force_pools, power_spent

__all__ = ["CALCULATOR", "WarfareReport", "roll_turn", "warfare"]

TARGET_CHARACTER = "character"
TARGET_SQUAD = "squad"
ONLY_CHARACTER = ("target", TARGET_CHARACTER)
"""Shown only against a character (his Stamina: Dazing, RN-WAR-13)."""
ONLY_SQUAD = ("target", TARGET_SQUAD)
"""Shown only against a squad (its henchmen)."""

SUPPORT_KIND_CHOICES = (
    ("ordinary", "Ordinary"),
    ("nuclear", "Tactical nuclear weapons (the damage is aggravated)"),
    ("recon", "Tactical recon (+1 accuracy on every attack)"),
)

SHORTCUT_CHOICES = (
    ("no", "No: full pools"),
    ("scaled", "In threes: a die for 3 dice, each success ×3 (same expected damage per hit)"),
    (
        "attack_damage",
        "As written: attack and damage pools ÷ 3, rounded up (much weaker attacks)",
    ),
    ("all", "Attack, damage and defence pools ÷ 3, rounded up (weaker attacks)"),
)
"""The "divide by 3" shortcut (RN-WAR-9): the form's value → what it does."""

_SHORTCUT = {"no": "none", "scaled": "threes", "attack_damage": "divide", "all": "divide"}
"""The form's value → :data:`ruleslab.warfare.SHORTCUTS` for the attack and damage pools."""

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
    all), of ``damage_type``; for a squad ``losses_pmf[k]`` is P(k henchmen
    removed) (capped at the squad), else ``None``. ``attack_threes`` and
    ``damage_threes`` dice count 3 per success (the "in threes" shortcut). With a
    ÷ 3 shortcut on, ``p_hit_full``, ``expected_damage_full`` and (for a squad)
    ``expected_losses_full`` are the full pools' figures, else ``None``.
    ``size_difference`` is enemy Size − party Size; ``morale_reduction`` the
    Morale the smaller side loses from each track this turn, ``morale_after``
    and ``party_morale_after`` (with their ``_permanent_after``) the tracks after
    it, before any Morale is spent. ``p_awareness`` is ``None`` when no awareness
    roll is asked for. For a character with Dazing applied, ``dazed_at`` and
    ``stunned_at`` are 2 × and 3 × his Stamina, and ``p_hit_dazed`` an attack's
    chance once he is Dazed (else all three ``None``).
    """

    enemy_size: int
    headcount: int
    attacks_granted: int
    attack_cap: int
    attacks: int
    attack_dice: int
    attack_threes: int
    attack_auto: int
    defence_dice: int
    defence_penalty: int
    defence_reading: str
    damage_dice: int
    damage_threes: int
    damage_auto: int
    damage_type: str
    support_kind: str
    p_hit: Fraction
    p_hit_dazed: Fraction | None
    dazed_at: int | None
    stunned_at: int | None
    p_any_hit: Fraction
    damage_pmf: tuple[Fraction, ...]
    expected_damage: Fraction
    p_hit_full: Fraction | None
    expected_damage_full: Fraction | None
    size_difference: int
    awareness_dice: int
    awareness_difficulty_total: int
    p_awareness: Fraction | None
    p_awareness_without_size: Fraction | None
    morale_reduction: int
    morale_text: str
    morale_after: int
    morale_permanent_after: int
    party_morale_after: int
    party_morale_permanent_after: int
    power_use: str
    power_text: str
    target: str
    squad_size: int
    training: str
    rounding: str
    leader_is_henchman: bool
    losses_pmf: tuple[Fraction, ...] | None
    expected_losses: Fraction | None
    expected_losses_full: Fraction | None

    def p_total_at_least(self, levels: int) -> Fraction:
        """P(the turn's attacks deal at least ``levels`` health levels)."""
        return sum(self.damage_pmf[levels:], Fraction(0))

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

    def _awareness_text(self) -> str:
        assert self.p_awareness is not None
        assert self.p_awareness_without_size is not None
        d = max(0, self.size_difference)
        if not d:
            return (
                f"{fmt_prob(self.p_awareness)} at difficulty {self.awareness_difficulty_total} "
                "(no Size penalty: the party's force is not smaller)"
            )
        return (
            f"{fmt_prob(self.p_awareness)} at difficulty {self.awareness_difficulty_total - d} + "
            f"{d} for Size = {self.awareness_difficulty_total} (without the Size penalty: "
            f"{fmt_prob(self.p_awareness_without_size)})"
        )

    @staticmethod
    def _dice(dice: int, threes: int) -> str:
        return fmt_threes(threes, dice - threes) if threes else f"{dice} dice"

    def figures(self) -> tuple[Figure, ...]:
        auto = f" + {self.attack_auto} auto" if self.attack_auto else ""
        dauto = f" + {self.damage_auto} auto" if self.damage_auto else ""
        damage = (
            fmt_threes(self.damage_threes, self.damage_dice - self.damage_threes)
            if self.damage_threes
            else str(self.damage_dice)
        ) + dauto
        if self.damage_type != "lethal":
            damage += f", {self.damage_type}"
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
                "attack_pool",
                "Attack pool",
                self.attack_dice,
                self._dice(self.attack_dice, self.attack_threes) + auto,
            ),
            Figure("defence_pool", "Defence", self.defence_dice, defence),
            Figure("damage_dice", "Damage dice", self.damage_dice, damage),
            Figure("p_hit", "Chance each attack hits", self.p_hit, fmt_prob(self.p_hit)),
        ]
        if self.p_hit_full is not None:
            figs.append(
                Figure(
                    "p_hit_full",
                    "Chance each attack hits, full pools",
                    self.p_hit_full,
                    fmt_prob(self.p_hit_full),
                )
            )
        figs += [
            Figure(
                "p_any_hit", "Chance of at least one hit", self.p_any_hit, fmt_prob(self.p_any_hit)
            ),
            Figure(
                "expected_damage",
                f"Expected health levels ({self.damage_type})",
                self.expected_damage,
                fmt_num(self.expected_damage, "levels"),
            ),
        ]
        if self.expected_damage_full is not None:
            figs.append(
                Figure(
                    "expected_damage_full",
                    "Expected health levels, full pools",
                    self.expected_damage_full,
                    fmt_num(self.expected_damage_full, "levels"),
                )
            )
        if self.dazed_at is not None and self.stunned_at is not None:
            p_dazed = self.p_total_at_least(self.dazed_at)
            p_stunned = self.p_total_at_least(self.stunned_at)
            figs += [
                Figure(
                    "p_dazed",
                    "Chance he is Dazed this turn",
                    p_dazed,
                    f"{fmt_prob(p_dazed)} (at {self.dazed_at} levels)",
                ),
                Figure(
                    "p_stunned",
                    "Chance he is Stunned this turn",
                    p_stunned,
                    f"{fmt_prob(p_stunned)} (at {self.stunned_at} levels)",
                ),
            ]
        if self.losses_pmf is not None:
            assert self.expected_losses is not None
            assert self.p_wiped is not None
            figs.append(
                Figure(
                    "expected_losses",
                    "Expected henchmen removed",
                    self.expected_losses,
                    fmt_num(self.expected_losses, f"of {self.squad_size}"),
                )
            )
            if self.expected_losses_full is not None:
                figs.append(
                    Figure(
                        "expected_losses_full",
                        "Expected henchmen removed, full pools",
                        self.expected_losses_full,
                        fmt_num(self.expected_losses_full, f"of {self.squad_size}"),
                    )
                )
            figs.append(
                Figure(
                    "p_wiped", "Chance the squad is wiped out", self.p_wiped, fmt_prob(self.p_wiped)
                )
            )
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
        ]
        if self.p_awareness is not None:
            figs.append(
                Figure(
                    "awareness",
                    "Party's awareness roll",
                    self.p_awareness,
                    self._awareness_text(),
                )
            )
        figs += [
            Figure(
                "morale_reduction",
                "Size difference: Morale",
                self.morale_reduction,
                self.morale_text,
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
        "Enemy Morale (temporary)",
        **_TRACK,
        help=(
            "The Morale points the enemy has now; spending needs at least 1 left after "
            "Quantity is Quality."
        ),
    ),
    IntParam(
        "morale_permanent",
        "Enemy Morale (permanent)",
        **_TRACK,
        help=(
            "The track's rating, at least the temporary Morale; a smaller enemy loses "
            "Morale from both (RN-WAR-12)."
        ),
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
    ChoiceParam(
        "support_kind",
        "Kind of Support",
        choices=SUPPORT_KIND_CHOICES,
        help=(
            "Special Support adds its effect when Support is spent: nuclear weapons make "
            "the damage aggravated, recon gives every attack +1 accuracy (RN-WAR-10)."
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
    IntParam(
        "party_morale",
        "Party's force Morale (temporary)",
        **_TRACK,
        help="Party's force Size 1 or more: the Morale points it has now.",
    ),
    IntParam(
        "party_morale_permanent",
        "Party's force Morale (permanent)",
        **_TRACK,
        help=(
            "The track's rating, at least the temporary Morale; a smaller party's force "
            "loses Morale from both (RN-WAR-12)."
        ),
    ),
    IntParam(
        "awareness_dice",
        "Party's awareness roll (dice)",
        minimum=0,
        maximum=30,
        help=(
            "A roll to notice a threat this turn (e.g. Perception + Awareness); 0: none. "
            "A smaller party rolls it at +1 difficulty per point of Size (RN-WAR-11)."
        ),
    ),
    IntParam(
        "awareness_difficulty",
        "Awareness difficulty",
        minimum=1,
        maximum=10,
        help="The successes the roll needs before the Size penalty.",
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
        "stamina",
        "Target's Stamina",
        minimum=1,
        maximum=20,
        help="A character target: Dazed at 2 × Stamina levels in the turn (RN-WAR-13).",
        shown_when=ONLY_CHARACTER,
    ),
    IntParam(
        "mega_stamina",
        "Target's Mega-Stamina",
        minimum=0,
        maximum=10,
        help="Each dot counts as 2 Stamina for Dazed/Stunned (RN-DMG-6).",
        shown_when=ONLY_CHARACTER,
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
        shown_when=ONLY_SQUAD,
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
        "size_morale",
        "Size difference and Morale",
        choices=(
            ("apply", "Taken this turn, before any Morale is spent"),
            ("ignore", "Not this turn (already taken, or not used)"),
        ),
        help=(
            "Each point of net Size takes 1 from the smaller side's temporary and "
            "permanent Morale. See RN-WAR-12."
        ),
    ),
    ChoiceParam(
        "dazing",
        "A Dazed character's later defences",
        choices=(
            ("apply", "+1 difficulty once the turn's attacks have Dazed him"),
            ("ignore", "Not applied (every attack meets the full defence)"),
        ),
        help="Dazing/Stunning: +1 difficulty to all actions. See RN-WAR-13.",
        shown_when=ONLY_CHARACTER,
    ),
    ChoiceParam(
        "divide_by_3",
        "Divide pools by 3",
        choices=SHORTCUT_CHOICES,
        help=(
            "“For ease of resolution”. With a shortcut on, the full pools' figures are "
            "shown beside. See RN-WAR-9."
        ),
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
    morale_permanent: int = 10,
    spend_morale: bool = False,
    support: int = 0,
    spend_support: bool = False,
    support_kind: str = "ordinary",
    power: int = 0,
    power_use: str = "none",
    commander_intelligence: int = 3,
    commander_mega_intelligence: int = 0,
    commander_command: int = 3,
    party_size: int = 0,
    party_morale: int = 5,
    party_morale_permanent: int = 10,
    awareness_dice: int = 0,
    awareness_difficulty: int = 1,
    target: str = TARGET_CHARACTER,
    wits: int = 3,
    mega_wits: int = 0,
    tactics: int = 2,
    stamina: int = 3,
    mega_stamina: int = 0,
    defence_bonus: int = 0,
    henchmen: int = 10,
    training: str = "regular",
    leader_is_henchman: bool = False,
    defence_reading: str = "opposed",
    size_penalty: str = "apply",
    size_morale: str = "apply",
    dazing: str = "apply",
    divide_by_3: str = "no",
    mega_intelligence: str = "counts",
    morale_on_damage: str = "attack",
    rounding: str = "down",
) -> WarfareReport:
    """One turn of an enemy force's attacks of opportunity, exactly (see :mod:`ruleslab.warfare`).

    A squad of up to 1,000 henchmen, and an all-henchmen commander removed after
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
        use = dict(POWER_USES)[power_use].split(" (")[0]
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
            wits=wits,
            tactics=tactics,
            mega_wits=mega_wits,
            extra=defence_bonus,
            squad=squad,
            divide=divide,
        )

    def losses_for(per_attack: tuple[Fraction, ...]) -> TurnLosses:
        return squad_turn_losses(
            per_attack,
            count.attacks,
            henchmen=henchmen,
            leader_is_henchman=leader_is_henchman,
            training=training,
            rounding=rounding,
        )

    pools = pools_for(_SHORTCUT[divide_by_3])
    defence = defence_for(divide_by_3 == "all")
    dazed_at: int | None = None
    stunned_at: int | None = None
    stamina_steps: tuple[Step, ...] = ()
    if not squad and dazing == "apply":
        eff = effective("Stamina", stamina, mega_stamina, purpose="for Dazing/Stunning")
        dazed_at, stunned_at = 2 * eff.value, 3 * eff.value
        stamina_steps = () if eff.step is None else (eff.step,)
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
        dazed_at=dazed_at,
    )
    losses = losses_for(turn.per_attack) if squad else None
    full: TurnDamage | None = None
    full_losses: Fraction | None = None
    full_steps: tuple[Step, ...] = ()
    if divide_by_3 != "no":  # the full pools, side by side (RN-WAR-9)
        full = turn_damage(
            attacks=count.attacks,
            pools=pools_for("none"),
            defence=defence_for(False).dice,
            penalty=size.penalty,
            reading=defence_reading,
            dazed_at=dazed_at,
        )
        if squad:
            full_losses = squad_expected_losses(
                full.per_attack,
                count.attacks,
                henchmen=henchmen,
                leader_is_henchman=leader_is_henchman,
                training=training,
                rounding=rounding,
            )
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
    dazed = False
    for i in range(1, report.attacks + 1):
        faces, successes = _roll(report.attack_dice, report.attack_threes, report.attack_auto, rng)
        line = f"Attack {i}: {faces} → {successes}"
        penalty = report.defence_penalty + (1 if dazed else 0)
        if report.defence_reading == "opposed":
            d = roll_pool(report.defence_dice, rng=rng)
            counted = max(0, d.successes - penalty)
            pen = f" − {report.defence_penalty} Size penalty" if report.defence_penalty else ""
            pen += " − 1 Dazed" if dazed else ""
            line += f" vs defence {list(d.faces)} → {d.successes}{pen} = {counted}"
            net = successes - counted
            hit = net >= 1
            line += f"; net {net}"
        else:
            need = 1 + max(0, report.defence_dice - penalty)
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
                dazed = True
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


CALCULATOR = Calculator(
    key="warfare",
    title="Warfare",
    summary=(
        "The war around the party: an enemy force's attacks of opportunity in one turn "
        "(Size, capped by its commander's Intelligence + Command), exact odds of a hit and "
        "the total damage to a character, or henchmen removed from a squad (Area ×3); "
        "Support (tactical nukes: aggravated; recon: +1 accuracy), Power and Morale "
        "spending; Quantity is Quality on defence, awareness and both Morale tracks; the "
        "÷ 3 shortcut shown beside the full pools."
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
        "size_morale",
        "dazing",
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
