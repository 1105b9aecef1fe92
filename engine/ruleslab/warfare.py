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

The arithmetic first, then one turn's explained pieces in the order the Warfare
calculator (:mod:`ruleslab.calculators.warfare`) shows them; a little over 600
lines, kept whole so that the Warfare section is read in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import SuccessDistribution, pool_distribution
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.henchmen import AREA, DIVISORS, SOAK, squad_losses_distribution
from ruleslab.mega import effective
from ruleslab.params import InputError
from ruleslab.pmf import convolve
from ruleslab.pmf import mean as pmf_mean
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "AREA_MULTIPLIER",
    "HEADCOUNT_AT_SIZE_1",
    "AttackCount",
    "Defence",
    "ForcePools",
    "PowerSpent",
    "SizeDifference",
    "TurnDamage",
    "TurnLosses",
    "attacks_allowed",
    "attacks_of_opportunity",
    "defence_pool",
    "divide_pool",
    "force_pools",
    "headcount",
    "hit_probability",
    "per_attack_damage",
    "power_spent",
    "quantity_is_quality",
    "squad_turn_losses",
    "sum_of_attacks",
    "turn_damage",
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


# --- the rules explained: one turn of a force's attacks of opportunity ----------------


@dataclass(frozen=True, kw_only=True)
class AttackCount:
    """Attacks of opportunity used in a turn: ``granted`` (the force's Size), at most
    ``cap`` = the commander's Intelligence (Mega dots counted or not) + Command."""

    granted: int
    cap: int
    attacks: int
    steps: tuple[Step, ...]


def attacks_of_opportunity(
    size: int,
    intelligence: int,
    command: int,
    mega_intelligence: int = 0,
    *,
    mega_counts: bool = True,
) -> AttackCount:
    """Attacks of opportunity used in a turn: Size, at most Intelligence + Command.

    Whether the commander's Mega-Intelligence counts 2 per dot is ``mega_counts``
    (rules note RN-WAR-1).
    """
    steps: list[Step] = []
    if mega_counts:
        eff = effective(
            "Intelligence", intelligence, mega_intelligence, purpose="for the attack cap"
        )
        counted = eff.value
        if eff.step:
            steps.append(eff.step)
    else:
        counted = intelligence
        if mega_intelligence:
            steps.append(
                Step(
                    f"Mega-Intelligence {mega_intelligence} not counted (option, RN-WAR-1)",
                    AOO,
                )
            )
    cap = counted + command
    attacks = attacks_allowed(size, cap)
    steps.append(
        Step(
            f"Attacks of opportunity = Size {size}, at most Intelligence {counted} + "
            f"Command {command} = {cap}: {attacks} used",
            AOO,
        )
    )
    return AttackCount(granted=size, cap=cap, attacks=attacks, steps=tuple(steps))


@dataclass(frozen=True, kw_only=True)
class ForcePools:
    """A force's attack of opportunity: ``attack_dice`` (+ ``attack_auto`` successes) to
    hit, ``damage_dice`` (+ ``damage_auto``) lethal health levels, soak ignored."""

    attack_dice: int
    attack_auto: int
    damage_dice: int
    damage_auto: int
    steps: tuple[Step, ...]


def force_pools(
    *,
    skill: int,
    size: int,
    firepower: int,
    support: int = 0,
    spend_support: bool = False,
    power: int = 0,
    power_as_support: bool = False,
    spend_morale: bool = False,
    morale_on_damage: bool = False,
    divide: bool = False,
) -> ForcePools:
    """A force's attack and damage pools: Skill + Size to hit, Firepower + Size damage.

    Spending 1 Support adds the permanent Support to the attack pool and 1
    automatic success to damage (RN-WAR-5); Power used as Support does the same
    with Power, alongside Support too (RN-WAR-6); 1 Morale adds 1 success to the
    attack roll, and to the damage roll when ``morale_on_damage`` (RN-WAR-4).
    ``divide``: both pools ÷ 3, rounded up (automatic successes are not divided).
    """
    steps: list[Step] = []
    parts = [f"Skill {skill}", f"Size {size}"]
    dice = skill + size
    damage_auto = 0
    if spend_support:
        dice += support
        damage_auto += 1
        parts.append(f"Support {support}")
        steps.append(
            Step(
                f"1 Support spent: +{support} dice to the attack pool, +1 automatic "
                "success to damage (RN-WAR-5)",
                FORCE,
            )
        )
    if power_as_support:
        dice += power
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
                + (" and to the damage roll" if morale_on_damage else "")
                + " (RN-WAR-4)",
                FORCE,
            )
        )
        if morale_on_damage:
            damage_auto += 1
    damage_dice = firepower + size
    text = f"Attack pool = {' + '.join(parts)} = {dice} dice"
    if divide:
        text += f"; ÷ 3 rounded up = {divide_pool(dice)}"
        dice = divide_pool(dice)
    steps.append(Step(text, AOO))
    dtext = f"Damage dice = Firepower {firepower} + Size {size} = {damage_dice}"
    if divide:
        dtext += f"; ÷ 3 rounded up = {divide_pool(damage_dice)}"
        damage_dice = divide_pool(damage_dice)
    steps.append(Step(dtext + ", lethal, soak ignored (the dice are already post-soak)", AOO))
    return ForcePools(
        attack_dice=dice,
        attack_auto=attack_auto,
        damage_dice=damage_dice,
        damage_auto=damage_auto,
        steps=tuple(steps),
    )


@dataclass(frozen=True, kw_only=True)
class Defence:
    """The defence against attacks of opportunity: ``dice`` (Wits + Tactics + extra)."""

    dice: int
    steps: tuple[Step, ...]


def defence_pool(
    *,
    wits: int,
    tactics: int,
    mega_wits: int = 0,
    extra: int = 0,
    squad: bool = False,
    divide: bool = False,
) -> Defence:
    """The target's Wits + Tactics (a squad's: its leader's) + ``extra`` dice.

    Mega-Wits counts 2 per dot; ``divide``: ÷ 3 rounded up like the other pools
    (RN-WAR-9).
    """
    steps: list[Step] = []
    w = effective("Wits", wits, mega_wits, purpose="for the defence")
    if w.step:
        steps.append(w.step)
    dice = w.value + tactics + extra
    who = "the squad leader's" if squad else "the target's"
    parts = f"Wits {w.value} + Tactics {tactics}" + (f" + {extra} extra" if extra else "")
    text = f"Defence = {who} {parts} = {dice}"
    if divide:
        text += f"; ÷ 3 rounded up = {divide_pool(dice)} (RN-WAR-9)"
        dice = divide_pool(dice)
    steps.append(Step(text, AOO))
    return Defence(dice=dice, steps=tuple(steps))


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
) -> SizeDifference:
    """Quantity is Quality: the net Size difference, a difficulty and a Morale loss.

    How the difficulty meets a rolled (``opposed``) defence or a Defense score
    ``defence``: rules note RN-WAR-3.
    """
    steps: list[Step] = []
    diff = enemy_size - party_size
    penalty = max(0, diff) if apply_penalty else 0
    if diff > 0:
        steps.append(
            Step(
                f"Net Size difference {enemy_size} − {party_size} = {diff}: +{diff} "
                f"difficulty to the party's defensive rolls; the party's force may "
                f"lose up to {diff} Morale",
                QUANTITY,
            )
        )
        if not apply_penalty:
            text = "Size penalty not applied to this defence (option, RN-WAR-3)"
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
                f"party's favour: +{-diff} difficulty to the enemy's defensive rolls; "
                f"the enemy may lose up to {-diff} Morale",
                QUANTITY,
            )
        )
    else:
        steps.append(Step("Equal Size: no Quantity is Quality effects", QUANTITY))
    return SizeDifference(difference=diff, penalty=penalty, steps=tuple(steps))


@dataclass(frozen=True, kw_only=True)
class TurnDamage:
    """A turn of attacks of opportunity against one target, exactly.

    ``p_hit`` per attack; ``per_attack[k]`` = P(one attack deals k health levels,
    a miss dealing 0); ``total[k]`` = P(the turn's attacks deal k in all).
    """

    p_hit: Fraction
    p_any_hit: Fraction
    per_attack: tuple[Fraction, ...]
    total: tuple[Fraction, ...]
    expected: Fraction
    steps: tuple[Step, ...]


def turn_damage(
    *,
    attacks: int,
    pools: ForcePools,
    defence: int,
    penalty: int = 0,
    reading: str = "opposed",
) -> TurnDamage:
    """``attacks`` independent attacks of opportunity with ``pools`` against ``defence``.

    The defence is read as rules note RN-WAR-2 ``reading`` says, less the Size
    ``penalty``; each damage die at 7+ is one lethal health level (RN-DMG-1).
    """
    attack = pool_distribution(pools.attack_dice, pools.attack_auto)
    p_hit = hit_probability(attack, defence, penalty, reading)
    if reading == "opposed":
        how = (
            f"P(attack successes − max(0, defence successes − {penalty}) ≥ 1)"
            if penalty
            else "P(attack successes − defence successes ≥ 1)"
        )
    else:
        how = f"P(attack successes ≥ 1 + {max(0, defence - penalty)})"
    steps = [Step(f"P(hit) = {how} = {fmt_prob(p_hit)} (RN-WAR-2)", AOO)]
    dmg = pool_distribution(pools.damage_dice, pools.damage_auto)
    steps.append(
        Step(
            f"Damage roll: {pools.damage_dice} dice"
            + (f" + {pools.damage_auto} automatic" if pools.damage_auto else "")
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
    return TurnDamage(
        p_hit=p_hit,
        p_any_hit=p_any,
        per_attack=per,
        total=total,
        expected=expected,
        steps=tuple(steps),
    )


@dataclass(frozen=True, kw_only=True)
class TurnLosses:
    """A squad's losses to a turn of attacks of opportunity: ``losses[k]`` = P(k of its
    ``squad_size`` members removed), ``expected`` their mean."""

    squad_size: int
    losses: tuple[Fraction, ...]
    expected: Fraction
    steps: tuple[Step, ...]


def squad_turn_losses(
    per_attack: tuple[Fraction, ...],
    attacks: int,
    *,
    henchmen: int,
    leader_is_henchman: bool = False,
    training: str = "regular",
    rounding: str = "down",
) -> TurnLosses:
    """A squad's losses to a turn of attacks of opportunity: Area attacks, × 3.

    Each hit's health levels (``per_attack``) × 3, divided by the training
    divisor and rounded per attack (Henchmen › Damage Soak); the turn's losses
    are summed and capped at the squad (rules note RN-WAR-8). An all-henchmen
    squad's commander is one more henchman, removed last (RN-HENCH-7).
    """
    squad_size = henchmen + (1 if leader_is_henchman else 0)
    per_loss = squad_losses_distribution(
        per_attack, henchmen=squad_size, training=training, area=AREA_MULTIPLIER, rounding=rounding
    )
    total = sum_of_attacks(per_loss, attacks)  # capped at the squad, padded with zeros:
    losses = (*total[:squad_size], sum(total[squad_size:], Fraction(0)))
    losses += (Fraction(0),) * (squad_size + 1 - len(losses))
    expected = pmf_mean(losses)
    steps = [
        Step(
            "Against a squad every attack of opportunity is an Area attack: its health levels × 3",
            AOO,
        ),
        Step("Area attack: post-soak damage × 3 against the squad", AREA),
    ]
    divisor = DIVISORS[training]
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
            + f": expected {fmt_num(expected)}, wiped out {fmt_prob(losses[-1])}"
            + " (later attacks on the exposed leader are not counted, RN-WAR-8)",
            SOAK,
        )
    )
    return TurnLosses(squad_size=squad_size, losses=losses, expected=expected, steps=tuple(steps))


@dataclass(frozen=True, kw_only=True)
class PowerSpent:
    """What 1 point of the Power track buys: ``use`` (``none``, ``firepower``,
    ``boost``, ``recharge``) and ``text``, its effect in words."""

    use: str
    text: str
    steps: tuple[Step, ...]


def power_spent(use: str, power: int) -> PowerSpent:
    """What 1 Power buys: Boost (roll Power: any success, +1 Psi or +1 power rating
    and Quantum for 1 turn), Recharge, or Firepower (see :func:`force_pools`);
    rules note RN-WAR-6."""
    steps: list[Step] = []
    if use == "boost":
        p_boost = pool_distribution(power).at_least(1)
        text = (
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
    elif use == "recharge":
        text = "Recharge: +1 Quantum or Psi to every soldier"
        steps.append(Step("Recharge: +1 Quantum or Psi to all the commander's soldiers", POWER))
    elif use == "firepower":
        text = f"Firepower: +{power} attack dice, +1 automatic damage success"
    else:
        text = "not used"
    return PowerSpent(use=use, text=text, steps=tuple(steps))
