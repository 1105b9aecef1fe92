"""The Henchmen squad builder calculator (key ``henchmen``): a leader's squad and one attack on it.

The rules are in :mod:`ruleslab.henchmen` (the limit and bonuses, a squad's
losses) and :mod:`ruleslab.damage` (the incoming attack's dice against the
squad's soak); this module declares the calculator's inputs and combines the
rules into one explained result (:class:`HenchmenSquad`) with its chart. See
:mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.damage import MAX_DICE, damage_taken
from ruleslab.declare import Calculator, Chart, ChartView
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.henchmen import (
    AREA,
    DIVISORS,
    SOAK,
    SUPPORT,
    HenchmenBonus,
    divided_losses,
    henchmen_bonus,
    squad_losses_distribution,
)
from ruleslab.inputs import HENCHMEN_COUNT, HENCHMEN_TRAINING, LEADER_IS_HENCHMAN, LOSSES_ROUNDING
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.pmf import mean as pmf_mean
from ruleslab.sources import ALT, rule

__all__ = ["CALCULATOR", "HenchmenSquad", "henchmen_squad"]

# --- inputs -------------------------------------------------------------------------

CHARISMA = IntParam(
    "charisma",
    "Leader's Charisma",
    minimum=0,
    maximum=10,
    help="The leader's Charisma dots (Mega-Charisma is separate).",
)
MEGA_CHARISMA = IntParam(
    "mega_charisma",
    "Leader's Mega-Charisma",
    minimum=0,
    maximum=10,
    help="Each dot counts as 2 Charisma for the henchmen limit (rules note RN-HENCH-1).",
)
COMMAND = IntParam(
    "command",
    "Leader's Command",
    minimum=0,
    maximum=10,
    help="The leader's Command ability dots.",
)
HENCHMAN_POOL = IntParam(
    "henchman_pool",
    "Henchmen's attribute + ability",
    minimum=0,
    maximum=40,
    help=(
        "The henchmen's attribute + ability dice in the area in question (e.g. Dexterity + "
        "Firearms for shooting). Over 7 (8 or more): +2d per henchman instead of +1d."
    ),
)
SITUATION = IntParam(
    "situation",
    "Situational adjustment to the limit",
    minimum=-100,
    maximum=100,
    help=(
        "The GM's adjustment: more for wide open battlefields with no cover, fewer in tight "
        "quarters. The limit never goes below 0 (rules note RN-HENCH-2)."
    ),
)
HEAVY_WEAPONS = IntParam(
    "heavy_weapons",
    "Henchmen with heavy weapons",
    minimum=0,
    maximum=1000,
    help=(
        "How many of the henchmen carry a support (heavy) weapon: each allows one "
        "support weapon attack per combat (rules note RN-HENCH-5)."
    ),
)
SQUAD_SOAK = IntParam(
    "squad_soak",
    "Squad soak",
    minimum=0,
    maximum=200,
    help=(
        "The soak of the most numerous henchman type, against the incoming attack's "
        "damage type (rules note RN-HENCH-9)."
    ),
)
INCOMING = ChoiceParam(
    "incoming",
    "Incoming attack given as",
    choices=(("dice", "Damage dice (before soak)"), ("levels", "Post-soak damage points")),
    help=(
        "Damage dice: rolled against the squad soak (7+ is a point). Post-soak damage "
        "points: a fixed number already past soak."
    ),
)
ATTACK_DAMAGE = IntParam(
    "attack_damage",
    "Incoming damage",
    minimum=0,
    maximum=1000,
    help=(
        f"The incoming attack's damage dice (0 to {MAX_DICE}), or its post-soak damage "
        "points (0 to 1,000; see above)."
    ),
)
ADDS = IntParam(
    "adds",
    "Incoming damage adds",
    minimum=0,
    maximum=200,
    help=(
        "Damage adds of the incoming attack (damage dice only): +1 point each if at "
        "least one die is left after soak."
    ),
)
AREA_MULT = IntParam(
    "area",
    "Area multiplier",
    minimum=1,
    maximum=4,
    help=(
        "1 for an ordinary attack; 2 for an area attack; 3 or 4 for particularly large ones. "
        "Multiplies post-soak damage against the squad."
    ),
)
PING = BoolParam(
    "ping",
    "Ping removes henchmen",
    help=(
        "An attack that fails to penetrate the squad soak still rolls 1 ping die; tick "
        "to let its point remove a henchman (rules note RN-HENCH-10)."
    ),
)

# --- the result ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HenchmenSquad(Explained):
    """Result of :func:`henchmen_squad`: a leader's squad and one incoming attack.

    ``bonus`` is the :class:`~ruleslab.henchmen.HenchmenBonus`; ``support_attacks``
    the support weapon attacks available this combat. ``levels[d]`` is the exact
    ``P(d post-soak damage points)`` of the incoming attack against the squad's
    soak, ``removed[k]`` the exact ``P(k henchmen removed)`` (``k = 0 …
    henchmen``); ``p_leader_exposed`` = ``P(no henchman left)``;
    ``p_leader_eliminated`` = ``P(an all-henchmen squad's commander goes too)``
    (0 with an ordinary leader).
    """

    bonus: HenchmenBonus
    henchmen: int
    heavy_weapons: int
    support_attacks: int
    leader_is_henchman: bool
    levels: tuple[Fraction, ...]
    removed: tuple[Fraction, ...]
    mean_removed: Fraction
    p_leader_exposed: Fraction
    p_leader_eliminated: Fraction

    def figures(self) -> tuple[Figure, ...]:
        elim = fmt_prob(self.p_leader_eliminated) if self.leader_is_henchman else "— (has a leader)"
        return (
            *self.bonus.figures(),
            Figure(
                "support_attacks",
                "Support weapon attacks this combat",
                self.support_attacks,
                str(self.support_attacks),
            ),
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

    def chart(self) -> Chart:
        """Bars ``(str(k), P(k henchmen removed))``, cut after the last visible one;
        none highlighted."""
        return Chart(chart_bars(self.removed))


# --- the calculator's function ------------------------------------------------------


def _incoming(
    incoming: str, attack_damage: int, adds: int, squad_soak: int, ping: bool
) -> tuple[tuple[Fraction, ...], list[Step]]:
    """The incoming attack's post-soak damage points against the squad, with the working."""
    steps: list[Step] = []
    if incoming != "dice":
        steps.append(
            Step(
                f"Incoming attack: {attack_damage} post-soak damage points (soak already applied)",
                SOAK,
            )
        )
        return (Fraction(0),) * attack_damage + (Fraction(1),), steps
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
    return tuple(levels), steps


@checked(
    CHARISMA,
    MEGA_CHARISMA,
    COMMAND,
    HENCHMEN_COUNT,
    HENCHMAN_POOL,
    SITUATION,
    HEAVY_WEAPONS,
    HENCHMEN_TRAINING,
    SQUAD_SOAK,
    INCOMING,
    ATTACK_DAMAGE,
    ADDS,
    AREA_MULT,
    LEADER_IS_HENCHMAN,
    LOSSES_ROUNDING,
    PING,
)
def henchmen_squad(
    charisma: int = 3,
    mega_charisma: int = 0,
    command: int = 2,
    henchmen: int = 12,
    henchman_pool: int = 5,
    situation: int = 0,
    heavy_weapons: int = 2,
    training: str = "regular",
    squad_soak: int = 2,
    incoming: str = "dice",
    attack_damage: int = 8,
    adds: int = 0,
    area: int = 1,
    leader_is_henchman: bool = False,
    rounding: str = "down",
    ping: bool = True,
) -> HenchmenSquad:
    """A leader's henchmen: limit, bonuses, support weapons, and one attack on the squad.

    "Instead of attacking himself, a commander can use a henchman's heavy
    weapon. […] This attack is made at full dice pool with henchmen
    accuracy/damage bonuses. Weapons capable of firing bursts are assumed to
    fire the largest possible burst they can. This attack can only be done once
    per combat per henchman equipped with a heavy weapon." The incoming attack
    is resolved against "the representative soak of the most numerous henchman
    type"; "each point of damage dealt removes from play one of these
    henchmen".

    The "Incoming damage" field takes up to 1,000 post-soak damage points (one
    per henchman of the largest squad), but at most
    :data:`~ruleslab.damage.MAX_DICE` (500) damage dice, the most the damage
    rule resolves: more dice are refused at that field, with both of its ranges.
    """
    if heavy_weapons > henchmen:
        raise InputError(
            "heavy_weapons",
            f"Henchmen with heavy weapons must be at most the number of henchmen ({henchmen}).",
        )
    if incoming == "levels" and adds:
        raise InputError(
            "adds",
            "Incoming damage adds apply to damage dice only: set them to 0 for post-soak points.",
        )
    if incoming == "dice" and attack_damage > MAX_DICE:
        raise InputError(
            "attack_damage",
            f"{ATTACK_DAMAGE.label} must be a whole number from 0 to {MAX_DICE:,} for damage "
            f"dice (up to {ATTACK_DAMAGE.maximum:,} for post-soak damage points).",
        )
    b = henchmen_bonus(
        charisma=charisma,
        command=command,
        henchmen=henchmen,
        henchman_pool=henchman_pool,
        situation=situation,
        mega_charisma=mega_charisma,
    )
    steps = list(b.steps)
    support = min(heavy_weapons, b.counted)
    steps.append(
        Step(
            f"Support weapon attacks this combat = min({heavy_weapons} heavy weapons, "
            f"{b.counted} henchmen counted) = {support}: once per combat per henchman so "
            f"equipped, instead of the commander's own attack, at his full pool (+{b.dice}d) "
            f"with +{b.damage} damage, bursts at the largest burst (rules note RN-HENCH-5)",
            SUPPORT,
        )
    )
    levels, incoming_steps = _incoming(incoming, attack_damage, adds, squad_soak, ping)
    steps += incoming_steps
    removed = squad_losses_distribution(
        levels,
        henchmen=henchmen,
        training=training,
        area=area,
        leader_is_henchman=leader_is_henchman,
        rounding=rounding,
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
    rnd = "⌊⌋" if rounding == "down" else "⌈⌉"
    how = f"{rnd[0]}points × {area} ÷ {divisor}{rnd[1]}"
    steps.append(
        Step(
            f"Henchmen removed = min({henchmen}, {how}): post-soak damage × area multiplier "
            f"{area}, then ÷ {divisor} ({training}), rounded {rounding} (rules note RN-HENCH-6)",
            AREA if area > 1 else SOAK,
        )
    )
    mean = pmf_mean(removed)
    p_exposed = removed[-1]
    steps.append(
        Step(
            f"Mean henchmen removed = {fmt_num(mean)}; P(all {henchmen} removed, the leader "
            f"can be targeted) = {fmt_prob(p_exposed)}",
            SOAK,
        )
    )
    if leader_is_henchman:
        steps.append(
            Step(
                f"All-henchmen squad: the commander goes like a henchman, after the others: "
                f"P(eliminated) = P(losses > {henchmen}) = {fmt_prob(p_elim)} (rules note "
                "RN-HENCH-7)",
                SOAK,
            )
        )
    return HenchmenSquad(
        bonus=b,
        henchmen=henchmen,
        heavy_weapons=heavy_weapons,
        support_attacks=support,
        leader_is_henchman=leader_is_henchman,
        levels=levels,
        removed=removed,
        mean_removed=mean,
        p_leader_exposed=p_exposed,
        p_leader_eliminated=p_elim,
        steps=tuple(steps),
    )


CALCULATOR = Calculator(
    key="henchmen",
    title="Henchmen squad builder",
    summary=(
        "A leader's henchmen: the (Charisma + Command) × 2 limit, the dice and damage "
        "bonuses, support weapon attacks, extra health levels in compressed combat, and "
        "the exact number of henchmen an incoming attack removes from the squad."
    ),
    compute=henchmen_squad,
    rules=(rule(ALT, "Mass Combat", "Henchmen"),),
    options=("rounding", "ping"),
    views=(
        ChartView(
            title="Henchmen removed by the incoming attack",
            x_label="Henchmen removed",
            chart=HenchmenSquad.chart,
        ),
    ),
    example=(
        "from ruleslab.calculators.henchmen import henchmen_squad\n"
        "from ruleslab.henchmen import henchmen_bonus, squad_losses\n"
        "b = henchmen_bonus(charisma=3, command=2, henchmen=12, henchman_pool=8)\n"
        "print(b.limit, b.dice, b.damage, b.extra_health_levels)\n"
        "print(squad_losses(damage=5, henchmen=8, training='trained', area=2).removed)\n"
        "r = henchmen_squad(henchmen=8, attack_damage=10, training='trained', area=2)\n"
        "print(r.figure('mean_removed').text, r.figure('p_leader_exposed').text)"
    ),
)
