"""Warfare: forces and their attacks of opportunity, exactly.

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
    Morale, Support, Power (:mod:`ruleslab.alterations.warfare.support`).

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

What a force spends on these attacks (Support and its special types, Morale,
Power: Force Attributes and Power Overwhelming) is :mod:`ruleslab.alterations.warfare.support`;
Quantity is Quality (the Size difference on defence, awareness and Morale) is
:mod:`ruleslab.alterations.warfare.quantity`. Damage dice are a d10 pool, 7+ = one health
level (rules note RN-DMG-1). Squads lose henchmen as in Combat alterations ›
Henchmen (Damage Soak, Area Vulnerability). Readings of ambiguous text:
``docs/rules-notes/warfare.md`` (RN-WAR-*).

The arithmetic first, then one turn's explained pieces in the order the Warfare
calculator (:mod:`ruleslab.calculators.warfare`) shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.alterations.henchmen import AREA, DIVISORS, SOAK, squad_losses_distribution
from ruleslab.dice import SuccessDistribution, pool_distribution
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.params import InputError
from ruleslab.pmf import convolve, fractions, numerators, packed_convolve
from ruleslab.pmf import mean as pmf_mean
from ruleslab.quickref.conditions import RollKind, daze_difficulty, defence_successes
from ruleslab.quickref.damage import DAZING, sum_with_dazing
from ruleslab.quickref.mega import effective
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "AREA_MULTIPLIER",
    "DEFENCE_ROLL",
    "HEADCOUNT_AT_SIZE_1",
    "SHORTCUTS",
    "AttackCount",
    "Defence",
    "ForcePools",
    "Squad",
    "TurnDamage",
    "TurnLosses",
    "attacks_allowed",
    "attacks_of_opportunity",
    "defence_counted",
    "defence_pool",
    "divide_pool",
    "fmt_threes",
    "headcount",
    "hit_probability",
    "in_threes",
    "per_attack_damage",
    "shorten_pool",
    "squad_expected_losses",
    "squad_turn_losses",
    "successes_pmf",
    "sum_of_attacks",
    "turn_damage",
]

WARFARE = rule(ALT, "Mass Combat", "Warfare")
FORCE = rule(ALT, "Mass Combat", "Warfare", "Force Attributes")
AOO = rule(ALT, "Mass Combat", "Warfare", "Attacks of Opportunity")
POWER = rule(ALT, "Mass Combat", "Warfare", "Power Overwhelming")
DAMAGE_DIE = rule(QR, "2.0 Rules", "Combat")

DEFENCE_ROLL = RollKind("his defence against attacks of opportunity", defensive=True)
"""The target's Wits + Tactics: a defensive roll, where a Dazed character's "+1 difficulty to
all actions" applies (RN-WAR-13; :func:`ruleslab.quickref.conditions.daze_difficulty`)."""

HEADCOUNT_AT_SIZE_1 = 40
"""Size 1 is "roughly platoon-level (~40 men)"; each level doubles it."""

AREA_MULTIPLIER = 3
"""Against squads "these attacks are always considered Area attacks, with an x3 multiplier"."""

SHORTCUTS = ("none", "threes", "divide")
"""The "divide by 3" shortcut on the attack and damage pools (rules note RN-WAR-9):
``none``; ``threes``: a die for every 3, each of its successes counting 3, the 1 or
2 dice left over rolled as they are (keeps every pool's expected successes);
``divide``: as written, ⌈dice ÷ 3⌉ dice counting 1 each."""


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


def in_threes(dice: int) -> tuple[int, int]:
    """The shortcut that keeps the outcome: ``(threes, singles)`` = ``divmod(dice, 3)``.

    ``threes`` dice each stand for three (a success counts 3), the ``singles``
    left over are rolled as they are: 0.4 × 3 × threes + 0.4 × singles = 0.4 ×
    dice expected successes, as the full pool (rules note RN-WAR-9).
    """
    return divmod(dice, 3)


def successes_pmf(dice: int, threes: int = 0, auto: int = 0) -> tuple[Fraction, ...]:
    """P(k successes) of ``dice`` d10 (7+) of which ``threes`` count 3 per success,
    plus ``auto`` automatic successes; ``threes`` 0 is the plain pool."""
    plain = pool_distribution(dice - threes, auto).pmf
    if not threes:
        return plain
    tripled = [Fraction(0)] * (3 * threes + 1)
    for k, p in enumerate(pool_distribution(threes).pmf):
        tripled[3 * k] = p
    return convolve(tripled, plain)


def _at_least(attack: SuccessDistribution | tuple[Fraction, ...], k: int) -> Fraction:
    if isinstance(attack, SuccessDistribution):
        return attack.at_least(k)
    return sum(attack[max(0, k) :], Fraction(0))


def defence_counted(
    defence_dice: int, penalty: int, reading: str, difficulty_reading: str = "spend"
) -> tuple[Fraction, ...]:
    """P(the defence counts c successes) once ``penalty`` difficulty is on it (RN-WAR-2, -3).

    ``opposed``: ``defence_dice`` rolled; ``defense_score``: always that many successes.
    The difficulty is met as :func:`ruleslab.quickref.conditions.defence_successes` reads it
    (``difficulty_reading`` ``spend`` or ``threshold``, rules note RN-COND-5)."""
    if reading == "defense_score":
        rolled = (Fraction(0),) * defence_dice + (Fraction(1),)
    elif reading == "opposed":
        rolled = pool_distribution(defence_dice).pmf
    else:
        raise InputError("defence_reading", f"unknown defence reading {reading!r}")
    return defence_successes(rolled, penalty, difficulty_reading)


def hit_probability(
    attack: SuccessDistribution | tuple[Fraction, ...],
    defence_dice: int,
    penalty: int = 0,
    reading: str = "opposed",
    difficulty_reading: str = "spend",
) -> Fraction:
    """P(an attack of opportunity hits) — rules note RN-WAR-2: the defence's counted
    successes (:func:`defence_counted`) are added to the attack's difficulty of 1."""
    counted = defence_counted(defence_dice, penalty, reading, difficulty_reading)
    return sum((pc * _at_least(attack, 1 + c) for c, pc in enumerate(counted) if pc), Fraction(0))


def per_attack_damage(
    p_hit: Fraction, damage: SuccessDistribution | tuple[Fraction, ...]
) -> tuple[Fraction, ...]:
    """Health levels one attack deals: 0 on a miss, else the damage roll's successes."""
    table = damage.pmf if isinstance(damage, SuccessDistribution) else damage
    pmf = [p_hit * p for p in table]
    pmf[0] += 1 - p_hit
    return tuple(pmf)


def sum_of_attacks(
    per_attack: tuple[Fraction, ...], attacks: int, cap: int | None = None
) -> tuple[Fraction, ...]:
    """Exact distribution of the total over ``attacks`` independent attacks (0 attacks → 0).

    With ``cap``, totals above it count as ``cap`` (a squad can lose no more than
    it has): min(x + y, cap) = min(min(x, cap) + min(y, cap), cap), so each partial
    sum is capped as it is built. Binary powering (few convolutions even for 10
    attacks) on integer numerators over a common denominator, converted to
    fractions once at the end.
    """

    def capped(xs: list[int]) -> list[int]:
        if cap is None or len(xs) <= cap + 1:
            return xs
        return [*xs[:cap], sum(xs[cap:])]

    nums, den = numerators(per_attack)
    total, total_den = [1], 1
    power, power_den, n = capped(nums), den, attacks
    while n:
        if n & 1:
            total, total_den = capped(packed_convolve(total, power)), total_den * power_den
        n >>= 1
        if n:
            power, power_den = capped(packed_convolve(power, power)), power_den * power_den
    return fractions(total, total_den)


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
    """A force's attack of opportunity: ``attack_dice`` rolled (``attack_threes`` of them
    counting 3 per success, the "in threes" shortcut) + ``attack_auto`` successes to hit;
    ``damage_dice`` (``damage_threes``) + ``damage_auto`` health levels of
    ``damage_type`` (``lethal``, or ``aggravated``), soak ignored."""

    attack_dice: int
    attack_threes: int
    attack_auto: int
    damage_dice: int
    damage_threes: int
    damage_auto: int
    damage_type: str
    steps: tuple[Step, ...]

    def attack_pmf(self) -> tuple[Fraction, ...]:
        """P(k attack successes)."""
        return successes_pmf(self.attack_dice, self.attack_threes, self.attack_auto)

    def damage_pmf(self) -> tuple[Fraction, ...]:
        """P(k health levels) when the attack hits."""
        return successes_pmf(self.damage_dice, self.damage_threes, self.damage_auto)


def shorten_pool(dice: int, shortcut: str) -> tuple[int, int, str]:
    """``(dice rolled, of them counting 3, the step's words)`` under the ÷ 3 ``shortcut``."""
    if shortcut == "divide":
        return (
            divide_pool(dice),
            0,
            f"; ÷ 3 rounded up = {divide_pool(dice)} (as written, RN-WAR-9)",
        )
    if shortcut == "threes":
        threes, singles = in_threes(dice)
        return threes + singles, threes, f"; in threes: {fmt_threes(threes, singles)} (RN-WAR-9)"
    if shortcut != "none":
        raise InputError("divide_by_3", f"unknown shortcut {shortcut!r}")
    return dice, 0, ""


def fmt_threes(threes: int, singles: int) -> str:
    """``"2 dice ×3 + 1 die"``: dice counting 3 per success, then dice counting 1."""
    parts = [f"{threes} {'die' if threes == 1 else 'dice'} ×3"] if threes else []
    if singles or not threes:
        parts.append(f"{singles} {'die' if singles == 1 else 'dice'}")
    return " + ".join(parts)


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
class TurnDamage:
    """A turn of attacks of opportunity against one target, exactly.

    ``p_hit`` per attack; ``per_attack[k]`` = P(one attack deals k health levels,
    a miss dealing 0); ``total[k]`` = P(the turn's attacks deal k in all). With
    Dazing applied, ``p_hit_dazed`` is an attack's chance once the target is
    Dazed (``p_hit`` and ``per_attack`` are before), else ``None``.
    """

    p_hit: Fraction
    p_any_hit: Fraction
    per_attack: tuple[Fraction, ...]
    total: tuple[Fraction, ...]
    expected: Fraction
    steps: tuple[Step, ...]
    p_hit_dazed: Fraction | None = None


def turn_damage(
    *,
    attacks: int,
    pools: ForcePools,
    defence: int,
    penalty: int = 0,
    reading: str = "opposed",
    dazed_at: int | None = None,
    difficulty_reading: str = "spend",
) -> TurnDamage:
    """``attacks`` attacks of opportunity with ``pools`` against ``defence``.

    The defence is read as rules note RN-WAR-2 ``reading`` says, less the
    ``penalty`` (Size, and Dazed at the start of the turn) as ``difficulty_reading``
    says (RN-COND-5); each damage die at 7+ is one health level (RN-DMG-1), three on a
    die of the "in threes" shortcut (RN-WAR-9). With ``dazed_at`` (a character's
    2 × Stamina), an attack made once the turn's earlier attacks have dealt that
    many levels meets the defence at +1 difficulty (Dazing/Stunning, rules note
    RN-WAR-13); without it the attacks are independent.
    """
    p_hit = hit_probability(pools.attack_pmf(), defence, penalty, reading, difficulty_reading)
    if reading == "defense_score":
        counted = defence_counted(defence, penalty, reading, difficulty_reading).index(1)
        how = f"P(attack successes ≥ 1 + {counted})"
    elif not penalty:
        how = "P(attack successes − defence successes ≥ 1)"
    elif difficulty_reading == "spend":
        how = f"P(attack successes − max(0, defence successes − {penalty}) ≥ 1)"
    else:
        how = f"P(attack successes − (defence successes if at least {1 + penalty}, else 0) ≥ 1)"
    steps = [Step(f"P(hit) = {how} = {fmt_prob(p_hit)} (RN-WAR-2)", AOO)]
    dmg = pools.damage_pmf()
    threes = pools.damage_threes
    dice = fmt_threes(threes, pools.damage_dice - threes) if threes else f"{pools.damage_dice} dice"
    steps.append(
        Step(
            f"Damage roll: {dice}"
            + (f" + {pools.damage_auto} automatic" if pools.damage_auto else "")
            + ", each 7+ is one health level"
            + (" (3 on a ×3 die)" if threes else "")
            + " (RN-DMG-1): mean "
            + fmt_num(pmf_mean(dmg)),
            DAMAGE_DIE,
        )
    )
    per = per_attack_damage(p_hit, dmg)
    p_hit_dazed: Fraction | None = None
    if dazed_at is None:
        total = sum_of_attacks(per, attacks)
        p_any = 1 - (1 - p_hit) ** attacks
    else:
        dazed, _ = daze_difficulty(DEFENCE_ROLL, "dazed")
        p_hit_dazed = hit_probability(
            pools.attack_pmf(), defence, penalty + dazed, reading, difficulty_reading
        )
        total = sum_with_dazing(per, per_attack_damage(p_hit_dazed, dmg), attacks, dazed_at)
        p_any = 1 - (1 - p_hit) ** attacks  # no hit before: never Dazed, so every miss at p_hit
    expected = pmf_mean(total)
    steps.append(
        Step(
            f"P(at least one hit) = 1 − (1 − {fmt_prob(p_hit)})^{attacks} = {fmt_prob(p_any)}", AOO
        )
    )
    if p_hit_dazed is None:
        steps.append(
            Step(
                f"Total over {attacks} independent attacks: expected {attacks} × "
                f"{fmt_prob(p_hit)} × {fmt_num(pmf_mean(dmg))} = "
                f"{fmt_num(expected, 'health levels')}",
                AOO,
            )
        )
    else:
        undazed = attacks * p_hit * pmf_mean(dmg)
        steps.append(
            Step(
                f"Dazed at {dazed_at} levels in the turn: each later attack meets the defence at "
                f"+1 difficulty, P(hit) {fmt_prob(p_hit_dazed)} (Stunned: the same +1; rules "
                "note RN-WAR-13)",
                DAZING,
            )
        )
        steps.append(
            Step(
                f"Total over {attacks} attacks, one after another: expected "
                f"{fmt_num(expected, 'health levels')} (without Dazing: {attacks} × "
                f"{fmt_prob(p_hit)} × {fmt_num(pmf_mean(dmg))} = {fmt_num(undazed)})",
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
        p_hit_dazed=p_hit_dazed,
    )


@dataclass(frozen=True, kw_only=True)
class TurnLosses:
    """A squad's losses to a turn of attacks of opportunity: ``losses[k]`` = P(k of its
    ``squad_size`` members removed), ``expected`` their mean."""

    squad_size: int
    losses: tuple[Fraction, ...]
    expected: Fraction
    steps: tuple[Step, ...]


@dataclass(frozen=True, kw_only=True)
class Squad:
    """The squad a force's attacks fall on: ``henchmen``, and its commander one more
    henchman, removed last, when ``leader_is_henchman`` (an all-henchmen squad,
    RN-HENCH-7); their ``training`` divides each attack's losses, rounded as
    ``rounding`` says (Henchmen › Damage Soak, RN-HENCH-6)."""

    henchmen: int
    leader_is_henchman: bool = False
    training: str = "regular"
    rounding: str = "down"

    @property
    def size(self) -> int:
        """The members the attacks may remove."""
        return self.henchmen + (1 if self.leader_is_henchman else 0)

    def attack_losses(self, per_attack: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        """P(k members removed by one attack) from its health levels ``per_attack``."""
        return squad_losses_distribution(
            per_attack,
            henchmen=self.size,
            training=self.training,
            area=AREA_MULTIPLIER,
            rounding=self.rounding,
        )


def squad_turn_losses(per_attack: tuple[Fraction, ...], attacks: int, squad: Squad) -> TurnLosses:
    """A squad's losses to a turn of attacks of opportunity: Area attacks, × 3.

    Each hit's health levels (``per_attack``) × 3, divided by the training
    divisor and rounded per attack (Henchmen › Damage Soak); the turn's losses
    are summed and capped at the squad (rules note RN-WAR-8). An all-henchmen
    squad's commander is one more henchman, removed last (RN-HENCH-7).
    """
    henchmen, training, rounding = squad.henchmen, squad.training, squad.rounding
    squad_size = squad.size
    per_loss = squad.attack_losses(per_attack)
    divisor = DIVISORS[training]
    if AREA_MULTIPLIER % divisor:  # ÷ 2: each attack's losses rounded on their own
        total = sum_of_attacks(per_loss, attacks, cap=squad_size)
    else:  # × 3 ÷ 1 or ÷ 3 rounds nothing: the turn's losses are (3 ÷ divisor) × its levels
        each = AREA_MULTIPLIER // divisor
        # min(each·L, S) = min(each·min(L, c), S), c = ⌈S / each⌉: the sum capped at c
        levels = sum_of_attacks(per_attack, attacks, cap=-(-squad_size // each))
        spread = [Fraction(0)] * (each * (len(levels) - 1) + 1)
        for k, p in enumerate(levels):
            spread[each * k] = p
        total = tuple(spread)
    # capped at the squad, padded with zeros:
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
            + (" + the commander, last)" if squad.leader_is_henchman else "; the leader is left)")
            + f": expected {fmt_num(expected)}, wiped out {fmt_prob(losses[-1])}"
            + " (later attacks on the exposed leader are not counted, RN-WAR-8)",
            SOAK,
        )
    )
    return TurnLosses(squad_size=squad_size, losses=losses, expected=expected, steps=tuple(steps))


def squad_expected_losses(per_attack: tuple[Fraction, ...], attacks: int, squad: Squad) -> Fraction:
    """``squad_turn_losses(…).expected``, the same exact figure, without the whole table
    when the squad is too large to be wiped out this turn: then the cap never applies
    and the expected total is ``attacks`` × one attack's expected losses."""
    per_loss = squad.attack_losses(per_attack)
    most = max((k for k, p in enumerate(per_loss) if p), default=0)
    if attacks * most <= squad.size:
        return attacks * pmf_mean(per_loss)
    return squad_turn_losses(per_attack, attacks, squad).expected
