"""Warfare: forces, attacks of opportunity, Power and Quantity is Quality.

Combat alterations › Warfare › Force Attributes:

    All forces have three attributes generally rated from 1-10:
    • Size: … Every level of Size represents roughly 2 times the number of people
      above it, with Size 1 being roughly platoon-level (~40 men). Size 5 is
      therefore a roughly battalion sized unit while Size 10 is ~20,000 combat
      personnel, or roughly an entire Corps.
    • Firepower: … Firepower is the lethal damage that a successful attack on the
      party by an opposing armed force deals, ignoring soak.
    • Skill: … The unit's skill rating is used for attacks of opportunity.

    All forces also have at least two tracks and possibly three rated from 0-10:
    • Morale: … A unit may spend 1 Morale to add 1 success to all actions the
      unit takes in that round.
    • Support: … 1 point of this track can be spent to add the permanent support
      track size to the Skill dice pool, and add 1 automatic success to
      firepower rolls.
    • Power: … A horde of sub-Aberrants has Power 1, while an all-Doyen force
      would have Power 10.

Combat alterations › Warfare › Attacks of Opportunity:

    A unit gets as many attacks of opportunity as its Size, … but only up to
    (Intelligence + Command) attacks of opportunity can be used on the
    battlefield. …
    These attacks use a unit's Skill + Size + Support (if support is used)
    versus the enemy's Wits + Tactics as a defense. Success deals post-soak
    damage dice equal to Firepower + Size, ignoring soak or other factors …
    Note that against squads, these attacks are always considered Area attacks,
    with an x3 multiplier.
    For ease of resolution, the attack/damage pools can be divided by 3, then
    rounded up.

Combat alterations › Warfare › Power Overwhelming:

    • Boost: A commander can spend 1 point from the Power track and roll its
      permanent rating. Successes temporarily increase the effectiveness of all
      units with the same powers, adding a temporary +1 Psi for 1 turn for
      Psions. For Quantum users, this instead adds +1 to power rating and +1 to
      Quantum for the same turn.
    • Recharge: A commander can spend 1 point from the power track to add 1
      Quantum or Psi to all his soldiers. …
    • Firepower: A commander can use his force's noetic or quantum ability as
      support, with identical rules, save replacing Support for Power. … This can
      be used alongside Support as well …

Combat alterations › Warfare › Quantity is Quality:

    • Reduced Defense: … The net size difference inflicts a +1 difficulty
      penalty per point to any defensive or awareness rolls. …
    • Reduced Morale: … Each point of size may be used to reduce the smaller
      unit's Morale track by 1. This affects temporary and permanent Morale.

Damage dice are a d10 pool, 7+ = one health level (rules note RN-DMG-1). Squads
lose henchmen as in Combat alterations › Henchmen (Damage Soak, Area
Vulnerability). Readings of ambiguous text: ``docs/rules-notes/warfare.md``
(RN-WAR-*).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from ruleslab.dice import SuccessDistribution, pool_distribution, roll_pool
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.henchmen import (
    AREA,
    LEADER_IS_HENCHMAN,
    ROUNDING,
    SOAK,
    TRAINING,
    squad_losses,
    squad_losses_distribution,
)
from ruleslab.mega import effective
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars, convolve
from ruleslab.pmf import mean as pmf_mean
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "AREA_MULTIPLIER",
    "HEADCOUNT_AT_SIZE_1",
    "WarfareReport",
    "attacks_allowed",
    "divide_pool",
    "headcount",
    "hit_probability",
    "per_attack_damage",
    "roll_turn",
    "sum_of_attacks",
    "warfare",
]

WARFARE = rule(ALT, "Mass Combat", "Warfare")
FORCE = rule(ALT, "Mass Combat", "Warfare", "Force Attributes")
AOO = rule(ALT, "Mass Combat", "Warfare", "Attacks of Opportunity")
POWER = rule(ALT, "Mass Combat", "Warfare", "Power Overwhelming")
QUANTITY = rule(ALT, "Mass Combat", "Warfare", "Quantity is Quality")
DAMAGE_DIE = rule(QR, "2.0 Rules", "Combat")

HEADCOUNT_AT_SIZE_1 = 40
"""Size 1 is "roughly platoon-level (~40 men)"; each level doubles it."""

AREA_MULTIPLIER = 3
"""Against squads "these attacks are always considered Area attacks, with an x3 multiplier"."""


# --- the rules as functions ----------------------------------------------------------


def headcount(size: int) -> int:
    """Roughly how many combatants a force of ``size`` is: ``40 × 2^(size − 1)``.

    "Size 1 being roughly platoon-level (~40 men)"; "Every level of Size represents
    roughly 2 times the number of people". Size 5 → 640 (a battalion), Size 10 →
    20,480 (the text rounds it to "~20,000"). Size 0 (the party alone, no force of
    its own, RN-WAR-7) → 20.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise InputError("size", "Size must be a whole number from 0 up.")
    doubling: int = 2**size  # size >= 0: an int
    return HEADCOUNT_AT_SIZE_1 * doubling // 2


def attacks_allowed(size: int, intelligence_plus_command: int) -> int:
    """Attacks of opportunity used in a turn: Size, "but only up to (Intelligence + Command)"."""
    return max(0, min(size, intelligence_plus_command))


def divide_pool(dice: int) -> int:
    """The optional simplification: "divided by 3, then rounded up" (⌈dice ÷ 3⌉)."""
    return -(-dice // 3)


def hit_probability(
    attack: SuccessDistribution, defence_dice: int, penalty: int = 0, reading: str = "opposed"
) -> Fraction:
    """P(an attack of opportunity hits) — rules note RN-WAR-2.

    ``opposed``: the defender rolls ``defence_dice``; its successes, less the
    Quantity-is-Quality ``penalty`` (never below 0), cancel attack successes; the
    attack hits with at least 1 net success. ``defense_score``: the defence is not
    rolled; ``defence_dice − penalty`` (never below 0) is added to the attack's
    difficulty of 1, as a 2.1 Defense score is.
    """
    if reading == "defense_score":
        return attack.at_least(1 + max(0, defence_dice - penalty))
    if reading != "opposed":
        raise InputError("defence_reading", f"unknown defence reading {reading!r}")
    defence = pool_distribution(defence_dice)
    p = Fraction(0)
    for d, pd in enumerate(defence.pmf):
        if pd:
            p += pd * attack.at_least(1 + max(0, d - penalty))
    return p


def per_attack_damage(p_hit: Fraction, damage: SuccessDistribution) -> tuple[Fraction, ...]:
    """Health levels one attack deals: 0 on a miss, else the damage roll's successes."""
    pmf = [p_hit * p for p in damage.pmf]
    pmf[0] += 1 - p_hit
    return tuple(pmf)


def sum_of_attacks(per_attack: tuple[Fraction, ...], attacks: int) -> tuple[Fraction, ...]:
    """Exact distribution of the total over ``attacks`` independent attacks (0 attacks → 0)."""
    total: tuple[Fraction, ...] = (Fraction(1),)
    power, n = per_attack, attacks
    while n:  # binary powering: few convolutions even for 10 attacks
        if n & 1:
            total = convolve(total, power)
        n >>= 1
        if n:
            power = convolve(power, power)
    return total


def _cap(pmf: tuple[Fraction, ...], cap: int) -> tuple[Fraction, ...]:
    if len(pmf) <= cap + 1:
        return pmf
    return (*pmf[:cap], sum(pmf[cap:], Fraction(0)))


# --- the calculator -------------------------------------------------------------------

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

    def chart(self) -> tuple[tuple[str, float], ...]:
        """Bars ``(str(k), P(total k))``, cut after the last bar at least 10⁻⁶ likely."""
        pmf = self.chart_pmf()
        return chart_bars(pmf)


# Parameters ----------------------------------------------------------------------------


class _Range(TypedDict):
    minimum: int
    maximum: int


_ATTR: _Range = {"minimum": 1, "maximum": 10}
_TRACK: _Range = {"minimum": 0, "maximum": 10}


@checked(
    IntParam(
        "enemy_size",
        "Enemy Size",
        default=5,
        **_ATTR,
        help="Size 1 ≈ 40 combatants, doubling per level (Size 5 ≈ battalion, 10 ≈ corps).",
    ),
    IntParam(
        "enemy_firepower",
        "Enemy Firepower",
        default=3,
        **_ATTR,
        help="Adds to the damage dice: Firepower + Size, lethal, ignoring soak.",
    ),
    IntParam(
        "enemy_skill",
        "Enemy Skill",
        default=3,
        **_ATTR,
        help="The attack pool is Skill + Size (+ Support, + Power, when spent).",
    ),
    IntParam(
        "morale",
        "Enemy Morale track",
        default=5,
        **_TRACK,
        help="Current Morale; spending needs at least 1.",
    ),
    BoolParam(
        "spend_morale",
        "Spend 1 Morale",
        default=False,
        help="+1 success to all the unit's actions this round (RN-WAR-4).",
    ),
    IntParam(
        "support",
        "Enemy Support (permanent)",
        default=0,
        **_TRACK,
        help="Off-board firepower; 5+ is a first-world military.",
    ),
    BoolParam(
        "spend_support",
        "Spend 1 Support",
        default=False,
        help=(
            "Adds the permanent Support to the attack pool and 1 automatic success "
            "to damage (RN-WAR-5)."
        ),
    ),
    IntParam(
        "power",
        "Enemy Power (permanent)",
        default=0,
        **_TRACK,
        help="Psi/Quantum forces only: sub-Aberrant horde 1, all-Doyen 10.",
    ),
    ChoiceParam(
        "power_use",
        "Spend 1 Power on",
        default="none",
        choices=POWER_USES,
        help=(
            "Firepower counts as Support (and can be used alongside it); Boost and "
            "Recharge help the enemy's own powers (RN-WAR-6)."
        ),
    ),
    IntParam("commander_intelligence", "Enemy commander's Intelligence", default=3, **_ATTR),
    IntParam(
        "commander_mega_intelligence",
        "Enemy commander's Mega-Intelligence",
        default=0,
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
        default=3,
        **_TRACK,
        help="Attacks used = Size, at most Intelligence + Command.",
    ),
    IntParam(
        "party_size",
        "Party's force Size",
        default=0,
        **_TRACK,
        help=(
            "0: the party has no force of its own (RN-WAR-7). The net Size "
            "difference drives Quantity is Quality."
        ),
    ),
    ChoiceParam(
        "target",
        "Target",
        default=TARGET_CHARACTER,
        choices=((TARGET_CHARACTER, "A character"), (TARGET_SQUAD, "A squad of henchmen")),
        help="Against squads the attacks are Area attacks, ×3.",
    ),
    IntParam(
        "wits", "Target's Wits", default=3, **_ATTR, help="The character's, or the squad leader's."
    ),
    IntParam(
        "mega_wits",
        "Target's Mega-Wits",
        default=0,
        minimum=0,
        maximum=10,
        help="Each dot counts as 2 Wits dots (Quick reference › Mega-Attributes).",
    ),
    IntParam("tactics", "Target's Tactics", default=2, **_TRACK),
    IntParam(
        "defence_bonus",
        "Extra defence dice",
        default=0,
        minimum=0,
        maximum=60,
        help="E.g. a squad's henchmen, +1d each (Henchmen › Dice Pool).",
    ),
    IntParam(
        "henchmen",
        "Henchmen in the squad",
        default=10,
        minimum=1,
        maximum=1000,
        help="Squad target only: each point of damage × 3 removes one (RN-WAR-8).",
    ),
    TRAINING,
    LEADER_IS_HENCHMAN,
    ChoiceParam(
        "defence_reading",
        "How Wits + Tactics defends",
        default="opposed",
        choices=(
            ("opposed", "Rolled: its successes cancel attack successes"),
            ("defense_score", "Not rolled: added to the difficulty (a Defense score)"),
        ),
        help="See rules note RN-WAR-2.",
    ),
    ChoiceParam(
        "size_penalty",
        "Size difficulty penalty on the defence",
        default="apply",
        choices=(("apply", "Applies to the defence"), ("ignore", "Not applied here")),
        help=(
            "Quantity is Quality: +1 difficulty per point of net Size to defensive "
            "rolls. See RN-WAR-3."
        ),
    ),
    ChoiceParam(
        "divide_by_3",
        "Divide pools by 3",
        default="no",
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
        default="counts",
        choices=(("counts", "Each dot counts as 2"), ("ignored", "Not counted")),
        help="See rules note RN-WAR-1.",
    ),
    ChoiceParam(
        "morale_on_damage",
        "Spent Morale on damage",
        default="attack",
        choices=(("attack", "Attack roll only"), ("both", "Attack and damage rolls")),
        help="See rules note RN-WAR-4.",
    ),
    ROUNDING,
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
    """One turn of an enemy force's attacks of opportunity, exactly (see the module text)."""
    if spend_morale and morale < 1:
        raise InputError("spend_morale", "Spend 1 Morale needs a Morale track of at least 1.")
    if spend_support and support < 1:
        raise InputError("spend_support", "Spend 1 Support needs a Support track of at least 1.")
    if power_use != "none" and power < 1:
        use = dict(POWER_USES)[power_use].split(" (")[0]
        raise InputError("power_use", f"Spend 1 Power on {use} needs a Power track of at least 1.")

    steps: list[Step] = []
    squad = target == TARGET_SQUAD
    heads = headcount(enemy_size)
    steps.append(
        Step(
            f"Enemy Size {enemy_size} ≈ 40 × 2^{enemy_size - 1} = {fmt_num(heads)} combatants",
            FORCE,
        )
    )

    # attacks used
    if mega_intelligence == "counts":
        eff = effective(
            "Intelligence",
            commander_intelligence,
            commander_mega_intelligence,
            purpose="for the attack cap",
        )
        intelligence = eff.value
        if eff.step:
            steps.append(eff.step)
    else:
        intelligence = commander_intelligence
        if commander_mega_intelligence:
            steps.append(
                Step(
                    f"Mega-Intelligence {commander_mega_intelligence} not counted "
                    "(option, RN-WAR-1)",
                    AOO,
                )
            )
    cap = intelligence + commander_command
    attacks = attacks_allowed(enemy_size, cap)
    steps.append(
        Step(
            f"Attacks of opportunity = Size {enemy_size}, at most Intelligence {intelligence} + "
            f"Command {commander_command} = {cap}: {attacks} used",
            AOO,
        )
    )

    # attack pool
    parts = [f"Skill {enemy_skill}", f"Size {enemy_size}"]
    dice_ = enemy_skill + enemy_size
    damage_auto = 0
    if spend_support:
        dice_ += support
        damage_auto += 1
        parts.append(f"Support {support}")
        steps.append(
            Step(
                f"1 Support spent: +{support} dice to the attack pool, +1 automatic "
                "success to damage (RN-WAR-5)",
                FORCE,
            )
        )
    if power_use == "firepower":
        dice_ += power
        damage_auto += 1
        parts.append(f"Power {power}")
        steps.append(
            Step(
                f"1 Power spent as Support: +{power} dice to the attack pool, +1 automatic "
                "success to damage (RN-WAR-6)",
                POWER,
            )
        )
    attack_auto = 0
    if spend_morale:
        attack_auto = 1
        steps.append(
            Step(
                "1 Morale spent: +1 success to the attack roll"
                + (" and to the damage roll" if morale_on_damage == "both" else "")
                + " (RN-WAR-4)",
                FORCE,
            )
        )
        if morale_on_damage == "both":
            damage_auto += 1
    damage_dice = enemy_firepower + enemy_size
    divide_attack = divide_by_3 in ("attack_damage", "all")
    text = f"Attack pool = {' + '.join(parts)} = {dice_} dice"
    if divide_attack:
        text += f"; ÷ 3 rounded up = {divide_pool(dice_)}"
        dice_ = divide_pool(dice_)
    steps.append(Step(text, AOO))
    dtext = f"Damage dice = Firepower {enemy_firepower} + Size {enemy_size} = {damage_dice}"
    if divide_attack:
        dtext += f"; ÷ 3 rounded up = {divide_pool(damage_dice)}"
        damage_dice = divide_pool(damage_dice)
    steps.append(Step(dtext + ", lethal, soak ignored (the dice are already post-soak)", AOO))

    # defence
    w = effective("Wits", wits, mega_wits, purpose="for the defence")
    if w.step:
        steps.append(w.step)
    defence = w.value + tactics + defence_bonus
    who = "the squad leader's" if squad else "the target's"
    dparts = f"Wits {w.value} + Tactics {tactics}" + (
        f" + {defence_bonus} extra" if defence_bonus else ""
    )
    dtext = f"Defence = {who} {dparts} = {defence}"
    if divide_by_3 == "all":
        dtext += f"; ÷ 3 rounded up = {divide_pool(defence)} (RN-WAR-9)"
        defence = divide_pool(defence)
    steps.append(Step(dtext, AOO))

    # Quantity is Quality
    diff = enemy_size - party_size
    penalty = max(0, diff) if size_penalty == "apply" else 0
    if diff > 0:
        steps.append(
            Step(
                f"Net Size difference {enemy_size} − {party_size} = {diff}: +{diff} "
                f"difficulty to the party's defensive rolls; the party's force may "
                f"lose up to {diff} Morale",
                QUANTITY,
            )
        )
        if size_penalty == "apply":
            if defence_reading == "opposed":
                ptext = (
                    f"The defence is a defensive roll: only its successes beyond the first "
                    f"{diff} cancel attack successes (RN-WAR-3)"
                )
            else:
                ptext = (
                    f"Defense {defence} − {diff} = {max(0, defence - diff)} "
                    "(never below 0) (RN-WAR-3)"
                )
            steps.append(Step(ptext, QUANTITY))
        else:
            steps.append(
                Step("Size penalty not applied to this defence (option, RN-WAR-3)", QUANTITY)
            )
    elif diff < 0:
        steps.append(
            Step(
                f"Net Size difference {party_size} − {enemy_size} = {-diff} in the "
                f"party's favour: +{-diff} difficulty to the enemy's defensive rolls; "
                f"the enemy may lose up to {-diff} Morale",
                QUANTITY,
            )
        )
    else:
        steps.append(Step("Equal Size: no Quantity is Quality effects", QUANTITY))

    # one attack
    attack_dist = pool_distribution(dice_, attack_auto)
    p_hit = hit_probability(attack_dist, defence, penalty, defence_reading)
    if defence_reading == "opposed":
        how = (
            f"P(attack successes − max(0, defence successes − {penalty}) ≥ 1)"
            if penalty
            else "P(attack successes − defence successes ≥ 1)"
        )
    else:
        how = f"P(attack successes ≥ 1 + {max(0, defence - penalty)})"
    steps.append(Step(f"P(hit) = {how} = {fmt_prob(p_hit)} (RN-WAR-2)", AOO))
    dmg = pool_distribution(damage_dice, damage_auto)
    steps.append(
        Step(
            f"Damage roll: {damage_dice} dice"
            + (f" + {damage_auto} automatic" if damage_auto else "")
            + ", each 7+ is one health level (RN-DMG-1): mean "
            + fmt_num(dmg.full_mean or dmg.mean()),
            DAMAGE_DIE,
        )
    )

    per = per_attack_damage(p_hit, dmg)
    total = sum_of_attacks(per, attacks)
    p_any = 1 - (1 - p_hit) ** attacks
    expected = pmf_mean(total)
    steps.append(
        Step(
            f"P(at least one hit) = 1 − (1 − {fmt_prob(p_hit)})^{attacks} = {fmt_prob(p_any)}", AOO
        )
    )
    steps.append(
        Step(
            f"Total over {attacks} independent attacks: expected {attacks} × "
            f"{fmt_prob(p_hit)} × {fmt_num(pmf_mean(dmg.pmf))} = "
            f"{fmt_num(expected, 'health levels')}",
            AOO,
        )
    )

    losses_pmf = None
    expected_losses = None
    squad_size = henchmen + (1 if leader_is_henchman else 0)
    if squad:
        # The all-henchmen commander is one more henchman, removed last (RN-HENCH-7).
        per_loss = squad_losses_distribution(
            per,
            henchmen=squad_size,
            training=training,
            area=AREA_MULTIPLIER,
            rounding=rounding,
        )
        losses_pmf = _cap(sum_of_attacks(per_loss, attacks), squad_size)
        losses_pmf = losses_pmf + (Fraction(0),) * (squad_size + 1 - len(losses_pmf))
        expected_losses = pmf_mean(losses_pmf)
        steps.append(
            Step(
                "Against a squad every attack of opportunity is an Area attack: "
                "its health levels × 3",
                AOO,
            )
        )
        steps.append(Step("Area attack: post-soak damage × 3 against the squad", AREA))
        divisor = {"regular": 1, "trained": 2, "fanatical": 3}[training]
        steps.append(
            Step(
                "Each point of damage removes one henchman"
                + (
                    f"; {training} henchmen divide each attack's losses by {divisor}, "
                    f"rounded {rounding} (RN-HENCH-6, RN-WAR-8)"
                    if divisor > 1
                    else ""
                ),
                SOAK,
            )
        )
        steps.append(
            Step(
                f"Removed at most {squad_size} ({henchmen} henchmen"
                + (" + the commander, last)" if leader_is_henchman else "; the leader is left)")
                + f": expected {fmt_num(expected_losses)}, wiped out {fmt_prob(losses_pmf[-1])}"
                + " (later attacks on the exposed leader are not counted, RN-WAR-8)",
                SOAK,
            )
        )

    # Power
    if power_use == "boost":
        boost = pool_distribution(power)
        p_boost = boost.at_least(1)
        power_text = (
            f"Boost: {fmt_prob(p_boost)} chance of +1 Psi "
            "(or +1 power rating and +1 Quantum) for 1 turn"
        )
        steps.append(
            Step(
                f"Boost: roll Power {power} dice; any success gives +1 Psi (Quantum: +1 "
                f"power rating, +1 Quantum) this turn: {fmt_prob(p_boost)} (RN-WAR-6)",
                POWER,
            )
        )
    elif power_use == "recharge":
        power_text = "Recharge: +1 Quantum or Psi to every soldier"
        steps.append(Step("Recharge: +1 Quantum or Psi to all the commander's soldiers", POWER))
    elif power_use == "firepower":
        power_text = f"Firepower: +{power} attack dice, +1 automatic damage success"
    else:
        power_text = "not used"

    return WarfareReport(
        enemy_size=enemy_size,
        headcount=heads,
        attacks_granted=enemy_size,
        attack_cap=cap,
        attacks=attacks,
        attack_dice=dice_,
        attack_auto=attack_auto,
        defence_dice=defence,
        defence_penalty=penalty,
        defence_reading=defence_reading,
        damage_dice=damage_dice,
        damage_auto=damage_auto,
        p_hit=p_hit,
        p_any_hit=p_any,
        damage_pmf=total,
        expected_damage=expected,
        size_difference=diff,
        morale_reduction=abs(diff),
        power_use=power_use,
        power_text=power_text,
        target=target,
        squad_size=squad_size,
        training=training,
        rounding=rounding,
        leader_is_henchman=leader_is_henchman,
        losses_pmf=losses_pmf,
        expected_losses=expected_losses,
        steps=tuple(steps),
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
