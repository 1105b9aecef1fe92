"""Henchmen: the leader's limit, the bonuses henchmen give, and a squad's losses.

Combat alterations › Mass Combat › Henchmen:

    Henchmen are irrelevant, faceless mooks who don't even have the status of an
    extra. They are used as enhancements to the actions of a leader figure, who
    may benefit from up to (Charisma + Command) * 2 henchmen at a time during most
    situations. Certain situations (wide open battlefields with no cover) may
    increase the number of henchmen that can be effectively used, while tight
    quarters may reduce or even eliminate the option of using henchmen.

    • Dice Pool: Each henchman adds to the commander's pool for attacks and
    defenses […]. This bonus is generally +1d, but increases to +2d if the
    henchman in question has an attribute and ability total in that area over
    7d. If the henchmen have Psi or Quantum powers […], this bonus is given to
    Psi usage as well, or adds to the dice pool for Quantum powers that both
    parties have.

    • Damage: Each henchman adds +1 to the damage of the commander's weapon. […]

    • Support Weapons: Instead of attacking himself, a commander can use a
    henchman's heavy weapon. […] This attack is made at full dice pool with
    henchmen accuracy/damage bonuses. Weapons capable of firing bursts are
    assumed to fire the largest possible burst they can. This attack can only
    be done once per combat per henchman equipped with a heavy weapon.

    • Damage Soak: Until all henchmen are eliminated, the leader cannot be
    targeted. When targeting a squad with henchmen in it, the squad's soak is
    assumed to be the representative soak of the most numerous henchman type.
    Each point of damage dealt removes from play one of these henchmen, until
    only the commander is left and can be engaged normally. Some squads may be
    all-henchmen, which means the commander himself is eliminated like a
    henchman. […] Well-trained and fanatical henchmen may divide losses by 2 or
    3, […]

    • Area Vulnerability: […] Generally, all post-soak damage is doubled for
    area attacks, although particularly large ones may triple or even quadruple
    post-soak effects on henchman squads.

Combat alterations › Compressed Combat: "In general, the henchmen rules should be
used to model combatants. Up to the henchmen limit add to the dice pool, but each
additional henchman past that is an effective extra health level for the
character in question."

Readings: ``docs/rules-notes/henchmen.md`` (RN-HENCH-1 … RN-HENCH-15). The
support weapon attack is :mod:`ruleslab.alterations.henchmen.support`; the commander's own
rolls (his condition, his defence, his Quantum power) :mod:`ruleslab.alterations.henchmen.leader`.
An incoming attack on the squad is :func:`squad_under_attack`. The Henchmen squad
builder calculator combining these rules is :mod:`ruleslab.calculators.henchmen`;
compressed combat and warfare use them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.alterations.henchmen.domain import check_reading
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.params import InputError
from ruleslab.pmf import mean as pmf_mean
from ruleslab.quickref.damage import damage_taken
from ruleslab.quickref.mega import effective
from ruleslab.sources import ALT, rule

__all__ = [
    "AREA",
    "DICE_POOL",
    "DIVISORS",
    "SOAK",
    "SUPPORT",
    "HenchmenBonus",
    "SquadLosses",
    "SquadUnderAttack",
    "divided_losses",
    "henchmen_bonus",
    "incoming_levels",
    "squad_losses",
    "squad_losses_distribution",
    "squad_under_attack",
]

HENCHMEN = rule(ALT, "Mass Combat", "Henchmen")
DICE_POOL = rule(ALT, "Mass Combat", "Henchmen", "Dice Pool")
DAMAGE = rule(ALT, "Mass Combat", "Henchmen", "Damage")
SUPPORT = rule(ALT, "Mass Combat", "Henchmen", "Support Weapons")
SOAK = rule(ALT, "Mass Combat", "Henchmen", "Damage Soak")
AREA = rule(ALT, "Mass Combat", "Henchmen", "Area Vulnerability")
COMPRESSED = rule(ALT, "Compressed Combat")

BIG_POOL_OVER = 7
""""an attribute and ability total in that area over 7d": 8 dice or more give +2d."""

DIVISORS = {"regular": 1, "trained": 2, "fanatical": 3}
"""Losses are divided by 1 (regular), 2 (well-trained) or 3 (fanatical)."""

ROUNDED = {"down": "⌊⌋", "up": "⌈⌉"}
"""The brackets a divided loss is written in, by its rounding."""


# --- the limit and the bonuses ------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HenchmenBonus(Explained):
    """What a leader's henchmen add.

    ``limit`` = (Charisma + Command) × 2 + the situational adjustment, at least 0;
    ``counted`` = the henchmen within the limit; ``extra_health_levels`` = the
    henchmen past it (compressed combat: each is an extra health level for the
    leader); ``dice`` = the pool bonus (+1d per counted henchman, +2d when their
    attribute + ability in the area is over 7); ``damage`` = +1 per counted
    henchman.
    """

    limit: int
    counted: int
    extra_health_levels: int
    dice: int
    damage: int

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("limit", "Henchmen limit", self.limit, fmt_num(self.limit, "henchmen")),
            Figure("counted", "Henchmen counted", self.counted, str(self.counted)),
            Figure("dice", "Dice pool bonus", self.dice, f"+{self.dice}d"),
            Figure("damage", "Damage bonus", self.damage, f"+{self.damage}"),
            Figure(
                "extra_health_levels",
                "Extra health levels (compressed combat)",
                self.extra_health_levels,
                str(self.extra_health_levels),
            ),
        )


def henchmen_bonus(
    *,
    charisma: int,
    command: int,
    henchmen: int,
    henchman_pool: int,
    situation: int = 0,
    mega_charisma: int = 0,
) -> HenchmenBonus:
    """The leader's henchmen limit and what the henchmen within it add.

    "[A leader] may benefit from up to (Charisma + Command) * 2 henchmen at a
    time during most situations." Each henchman adds "+1d, but […] +2d if the
    henchman in question has an attribute and ability total in that area over
    7d", and "+1 to the damage of the commander's weapon". Compressed combat:
    "Up to the henchmen limit add to the dice pool, but each additional henchman
    past that is an effective extra health level". ``situation`` is the GM's
    adjustment ("wide open battlefields" raise the limit, "tight quarters may
    reduce or even eliminate" it); the limit never goes below 0. Mega-Charisma
    counts 2 Charisma (rules note RN-HENCH-1).
    """
    steps: list[Step] = []
    cha = effective("Charisma", charisma, mega_charisma, purpose="for the henchmen limit")
    if cha.step:
        steps.append(cha.step)
    base = (cha.value + command) * 2
    steps.append(
        Step(
            f"Henchmen limit = (Charisma {cha.value} + Command {command}) × 2 = {base}",
            HENCHMEN,
        )
    )
    limit = max(0, base + situation)
    if situation:
        floor = (
            " (never below 0: tight quarters can eliminate henchmen)"
            if base + situation < 0
            else ""
        )
        steps.append(
            Step(
                f"Situational adjustment {situation:+d}: limit = max(0, {base} {situation:+d}) = "
                f"{limit}{floor} (rules note RN-HENCH-2)",
                HENCHMEN,
            )
        )
    counted = min(henchmen, limit)
    extra = henchmen - counted
    steps.append(
        Step(
            f"Henchmen counted = min({henchmen}, limit {limit}) = {counted}",
            HENCHMEN,
        )
    )
    per = 2 if henchman_pool > BIG_POOL_OVER else 1
    why = "over" if per == 2 else "not over"
    dice = counted * per
    steps.append(
        Step(
            f"Dice pool bonus = {counted} × {per}d = +{dice}d (henchmen's attribute + ability "
            f"{henchman_pool} is {why} 7d); it applies to the commander's attacks and defences, "
            "and to Psi or shared Quantum powers when the henchmen have them (rules note "
            "RN-HENCH-3)",
            DICE_POOL,
        )
    )
    steps.append(
        Step(f"Damage bonus = +1 × {counted} henchmen = +{counted}", DAMAGE),
    )
    steps.append(
        Step(
            f"Henchmen past the limit = {henchmen} − {counted} = {extra}: in compressed combat "
            f"each is an extra health level for the leader (rules note RN-HENCH-4)",
            COMPRESSED,
        )
    )
    return HenchmenBonus(
        limit=limit,
        counted=counted,
        extra_health_levels=extra,
        dice=dice,
        damage=counted,
        steps=tuple(steps),
    )


# --- losses ------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SquadLosses(Explained):
    """What ``damage`` post-soak damage points do to a squad.

    ``multiplied`` = damage × area; ``losses`` = that divided by the training
    divisor and rounded; ``removed`` henchmen are out (never more than the
    squad), ``remaining`` are left. ``leader_exposed``: no henchman is left, so
    the leader can now be targeted. ``leader_eliminated``: an all-henchmen squad's
    commander went too (he goes like a henchman, after the others).
    ``overflow_to_leader``: with an ordinary leader, the post-soak damage points
    of this attack beyond those needed to remove every henchman (in the attack's
    own points: no area multiplier, no training divisor; rules note RN-HENCH-8).
    """

    damage: int
    henchmen: int
    area: int
    divisor: int
    multiplied: int
    losses: int
    removed: int
    remaining: int
    leader_exposed: bool
    leader_eliminated: bool
    overflow_to_leader: int

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("removed", "Henchmen removed", self.removed, str(self.removed)),
            Figure("remaining", "Henchmen remaining", self.remaining, str(self.remaining)),
            Figure(
                "leader_exposed",
                "Leader can be targeted",
                self.leader_exposed,
                "Yes" if self.leader_exposed else "No",
            ),
            Figure(
                "overflow_to_leader",
                "Damage left over for the leader",
                self.overflow_to_leader,
                str(self.overflow_to_leader),
            ),
        )


def _divide(points: int, divisor: int, rounding: str) -> int:
    return points // divisor if rounding == "down" else -(-points // divisor)


def _check_squad(henchmen: int, training: str, area: int, rounding: str) -> None:
    """The rule's own domain (the forms' ranges are the calculators')."""
    if isinstance(henchmen, bool) or not isinstance(henchmen, int) or henchmen < 0:
        raise InputError("henchmen", "henchmen must be a whole number from 0 up.")
    check_reading("training", training, DIVISORS)
    if isinstance(area, bool) or not isinstance(area, int) or not 1 <= area <= 4:
        raise InputError("area", "area must be a whole number from 1 to 4 (× 1 … × 4).")
    if rounding not in ("down", "up"):
        raise InputError("rounding", "rounding must be down or up.")


def divided_losses(
    damage: int, *, training: str = "regular", area: int = 1, rounding: str = "down"
) -> int:
    """Henchmen ``damage`` post-soak points remove, before the squad's size caps them.

    ``damage × area``, then divided by the training divisor (1, 2 or 3) and
    rounded ``down`` or ``up`` (rules note RN-HENCH-6).
    """
    return _divide(damage * area, DIVISORS[training], rounding)


def _needed(capacity: int, area: int, divisor: int, rounding: str) -> int:
    """The fewest damage points whose losses reach ``capacity``."""
    if capacity <= 0:
        return 0
    if rounding == "down":  # ⌊d·a/v⌋ ≥ c  ⇔  d ≥ ⌈c·v/a⌉
        return -(-capacity * divisor // area)
    # ⌈d·a/v⌉ ≥ c  ⇔  d·a > (c−1)·v  ⇔  d ≥ ⌊(c−1)·v/a⌋ + 1
    return (capacity - 1) * divisor // area + 1


def squad_losses(
    *,
    damage: int,
    henchmen: int,
    training: str = "regular",
    area: int = 1,
    leader_is_henchman: bool = False,
    rounding: str = "down",
) -> SquadLosses:
    """Henchmen one attack removes from a squad.

    "Each point of damage dealt removes from play one of these henchmen, until
    only the commander is left and can be engaged normally. Some squads may be
    all-henchmen, which means the commander himself is eliminated like a
    henchman." "Well-trained and fanatical henchmen may divide losses by 2 or
    3". "All post-soak damage is doubled for area attacks, although
    particularly large ones may triple or even quadruple post-soak effects on
    henchman squads." The area multiplier applies to the post-soak damage
    first, then the training divisor, then the rounding (rules note RN-HENCH-6).
    """
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise InputError("damage", "damage must be a whole number from 0 up.")
    _check_squad(henchmen, training, area, rounding)
    divisor = DIVISORS[training]
    multiplied = damage * area
    losses = _divide(multiplied, divisor, rounding)
    removed = min(henchmen, losses)
    remaining = henchmen - removed
    exposed = remaining == 0
    eliminated = leader_is_henchman and losses > henchmen
    if leader_is_henchman:
        overflow = 0
    else:
        overflow = max(0, damage - _needed(henchmen, area, divisor, rounding)) if exposed else 0
    steps = [
        Step(
            "Each point of post-soak damage removes one henchman (soak: the most numerous "
            "henchman type's)",
            SOAK,
        )
    ]
    if area > 1:
        steps.append(Step(f"Area attack: post-soak damage {damage} × {area} = {multiplied}", AREA))
    if divisor > 1:
        rnd = ROUNDED[rounding]
        steps.append(
            Step(
                f"{training.capitalize()} henchmen divide losses by {divisor}: "
                f"{rnd[0]}{multiplied} ÷ {divisor}{rnd[1]} = {losses} (rounded {rounding}, "
                "rules note RN-HENCH-6)",
                SOAK,
            )
        )
    steps.append(
        Step(
            f"Henchmen removed = min({henchmen}, {losses}) = {removed}; {remaining} remain",
            SOAK,
        )
    )
    if leader_is_henchman:
        fate = (
            "eliminated" if eliminated else ("the last one left" if exposed else "still screened")
        )
        steps.append(
            Step(
                f"All-henchmen squad: the commander is eliminated like a henchman, after "
                f"the others — he is {fate} (rules note RN-HENCH-7)",
                SOAK,
            )
        )
    elif exposed:
        steps.append(
            Step(
                "No henchman left: the leader can now be targeted and engaged normally; "
                f"damage points left over from this attack: {overflow} (rules note "
                "RN-HENCH-8)",
                SOAK,
            )
        )
    else:
        steps.append(Step("Until all henchmen are eliminated, the leader cannot be targeted", SOAK))
    return SquadLosses(
        damage=damage,
        henchmen=henchmen,
        area=area,
        divisor=divisor,
        multiplied=multiplied,
        losses=losses,
        removed=removed,
        remaining=remaining,
        leader_exposed=exposed,
        leader_eliminated=eliminated,
        overflow_to_leader=overflow,
        steps=tuple(steps),
    )


def _check_pmf(damage_pmf: Sequence[Fraction]) -> tuple[Fraction, ...]:
    out = []
    for p in damage_pmf:
        if isinstance(p, bool) or not isinstance(p, int | Fraction):
            raise InputError("damage_pmf", "damage_pmf must hold exact probabilities (Fraction).")
        p = Fraction(p)
        if p < 0:
            raise InputError("damage_pmf", "damage_pmf probabilities must not be negative.")
        out.append(p)
    return tuple(out)


def squad_losses_distribution(
    damage_pmf: Sequence[Fraction],
    *,
    henchmen: int,
    training: str = "regular",
    area: int = 1,
    leader_is_henchman: bool = False,
    rounding: str = "down",
) -> tuple[Fraction, ...]:
    """``P(k henchmen removed)`` for ``k = 0 … henchmen`` when the damage is random.

    ``damage_pmf[d]`` is ``P(d post-soak damage points)``; each ``d`` removes
    ``min(henchmen, divided_losses(d, …))``, as in :func:`squad_losses`. The result sums to what
    ``damage_pmf`` sums to. ``P(leader exposed)`` is the last entry (all
    henchmen removed).
    """
    pmf = _check_pmf(damage_pmf)
    _check_squad(henchmen, training, area, rounding)
    out = [Fraction(0)] * (henchmen + 1)
    for d, p in enumerate(pmf):
        if p:
            out[
                min(henchmen, divided_losses(d, training=training, area=area, rounding=rounding))
            ] += p
    return tuple(out)


# --- one incoming attack on the squad ---------------------------------------------------


def incoming_levels(
    incoming: str, attack_damage: int, adds: int, squad_soak: int, ping: bool
) -> tuple[tuple[Fraction, ...], tuple[Step, ...]]:
    """The incoming attack's post-soak damage points against the squad, with the working.

    ``incoming="dice"``: ``attack_damage`` dice (at most
    :data:`~ruleslab.quickref.damage.MAX_DICE`, the caller checks) and ``adds`` against "the
    representative soak of the most numerous henchman type" (RN-HENCH-9), a ping point
    removing a henchman only when ``ping`` (RN-HENCH-10); otherwise
    ``attack_damage`` post-soak points, fixed.
    """
    steps: list[Step] = []
    if incoming != "dice":
        steps.append(
            Step(
                f"Incoming attack: {attack_damage} post-soak damage points (soak already applied)",
                SOAK,
            )
        )
        return (Fraction(0),) * attack_damage + (Fraction(1),), tuple(steps)
    taken = damage_taken(
        dice=attack_damage, adds=adds, kind="lethal", natural_soak=squad_soak, armour_soak=0
    )
    steps.append(
        Step(
            f"Incoming attack: {attack_damage} damage dice against the squad soak "
            f"{squad_soak} (the most numerous henchman type's)",
            SOAK,
        )
    )
    steps += [s for s in taken.steps if not s.text.startswith("Soak = natural")]
    levels = taken.levels
    if taken.pinged and not ping:
        levels = (Fraction(1),)
        steps.append(
            Step("The ping die does not remove henchmen (rules note RN-HENCH-10): 0 points", SOAK)
        )
    elif taken.pinged:
        steps.append(
            Step(
                "A ping point removes a henchman like any damage point (rules note RN-HENCH-10)",
                SOAK,
            )
        )
    return tuple(levels), tuple(steps)


@dataclass(frozen=True, kw_only=True)
class SquadUnderAttack(Explained):
    """What one attack of random post-soak damage does to a squad.

    ``levels[d]`` = P(d post-soak damage points); ``removed[k]`` = P(k henchmen
    removed) (``k = 0 … henchmen``); ``p_leader_exposed`` = P(no henchman
    left); ``p_leader_eliminated`` = P(an all-henchmen squad's commander goes
    too) (0 with an ordinary leader).
    """

    henchmen: int
    leader_is_henchman: bool
    levels: tuple[Fraction, ...]
    removed: tuple[Fraction, ...]
    mean_removed: Fraction
    p_leader_exposed: Fraction
    p_leader_eliminated: Fraction

    def figures(self) -> tuple[Figure, ...]:
        elim = fmt_prob(self.p_leader_eliminated) if self.leader_is_henchman else "— (has a leader)"
        return (
            Figure(
                "mean_removed",
                "Mean henchmen removed by the attack",
                self.mean_removed,
                fmt_num(self.mean_removed, "henchmen"),
            ),
            Figure(
                "p_leader_exposed",
                "Chance the leader is left exposed",
                self.p_leader_exposed,
                fmt_prob(self.p_leader_exposed),
            ),
            Figure(
                "p_leader_eliminated",
                "Chance the commander is eliminated (all-henchmen squad)",
                self.p_leader_eliminated,
                elim,
            ),
        )


def squad_under_attack(
    levels: Sequence[Fraction],
    *,
    henchmen: int,
    training: str = "regular",
    area: int = 1,
    leader_is_henchman: bool = False,
    rounding: str = "down",
) -> SquadUnderAttack:
    """The henchmen an attack of post-soak damage ``levels`` removes, exactly, with the
    working: :func:`squad_losses_distribution`, its mean, P(the leader is exposed) and,
    for an all-henchmen squad, P(the commander goes too: losses > henchmen, RN-HENCH-7)."""
    removed = squad_losses_distribution(
        levels, henchmen=henchmen, training=training, area=area, rounding=rounding
    )
    p_elim = Fraction(0)
    if leader_is_henchman:  # the commander goes after the others (RN-HENCH-7)
        p_elim = sum(
            (
                p
                for d, p in enumerate(levels)
                if p
                and divided_losses(d, training=training, area=area, rounding=rounding) > henchmen
            ),
            Fraction(0),
        )
    divisor = DIVISORS[training]
    rnd = ROUNDED[rounding]
    how = f"{rnd[0]}points × {area} ÷ {divisor}{rnd[1]}"
    mean = pmf_mean(removed)
    p_exposed = removed[-1]
    steps = [
        Step(
            f"Henchmen removed = min({henchmen}, {how}): post-soak damage × area multiplier "
            f"{area}, then ÷ {divisor} ({training}), rounded {rounding} (rules note RN-HENCH-6)",
            AREA if area > 1 else SOAK,
        ),
        Step(
            f"Mean henchmen removed = {fmt_num(mean)}; P(all {henchmen} removed, the leader "
            f"can be targeted) = {fmt_prob(p_exposed)}",
            SOAK,
        ),
    ]
    if leader_is_henchman:
        steps.append(
            Step(
                f"All-henchmen squad: the commander goes like a henchman, after the others: "
                f"P(eliminated) = P(losses > {henchmen}) = {fmt_prob(p_elim)} (rules note "
                "RN-HENCH-7)",
                SOAK,
            )
        )
    return SquadUnderAttack(
        henchmen=henchmen,
        leader_is_henchman=leader_is_henchman,
        levels=tuple(levels),
        removed=removed,
        mean_removed=mean,
        p_leader_exposed=p_exposed,
        p_leader_eliminated=p_elim,
        steps=tuple(steps),
    )
