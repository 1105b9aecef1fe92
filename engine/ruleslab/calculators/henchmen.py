"""The Henchmen squad builder calculator (key ``henchmen``): a leader's squad and one attack on it.

The rules are in :mod:`ruleslab.henchmen` (the limit and bonuses, the leader's
defence roll and condition, a squad's losses), :mod:`ruleslab.henchmen_support`
(the support weapon attack, through :mod:`ruleslab.attack` and
:mod:`ruleslab.dodge`) and :mod:`ruleslab.damage` (the incoming attack's dice
against the squad's soak); this module declares the calculator's inputs and
combines the rules into one explained result (:class:`HenchmenSquad`) with its
charts. See :mod:`ruleslab.declare`.

Over 600 lines, for a reason: the form is 39 inputs (the leader and his squad, the
incoming attack, the support weapon and its target under 2.0 and 2.1, the leader's
condition and defence, and 5 rules options), each with its range and help; splitting
them from the function whose signature gives their defaults would part each input
from its default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.damage import MAX_DICE, damage_taken
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup
from ruleslab.dodge import DEFENSIVE, target_defense
from ruleslab.dodge import target_dodge as dodging
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.henchmen import (
    AREA,
    DIVISORS,
    SOAK,
    HenchmenBonus,
    LeaderDefence,
    divided_losses,
    henchmen_bonus,
    squad_losses_distribution,
)
from ruleslab.henchmen import leader_condition as condition_of
from ruleslab.henchmen import leader_defence as defence_roll
from ruleslab.henchmen_support import SupportAttack, support_attack
from ruleslab.inputs import (
    DAMAGE_KIND,
    HENCHMEN_COUNT,
    HENCHMEN_TRAINING,
    LEADER_IS_HENCHMAN,
    LOSSES_ROUNDING,
)
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.pmf import mean as pmf_mean
from ruleslab.ruleset import V20, V21
from ruleslab.sources import ALT, QR, rule
from ruleslab.weapons import Weapon

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

# the support weapon attack (Support Weapons) and the leader's own rolls

LEADER_DEXTERITY = IntParam(
    "leader_dexterity",
    "Leader's Dexterity",
    minimum=0,
    maximum=10,
    unit="dots",
    help="The leader's Dexterity dots: his full dice pool for the support attack.",
)
LEADER_MEGA_DEXTERITY = IntParam(
    "leader_mega_dexterity",
    "Leader's Mega-Dexterity",
    minimum=0,
    maximum=10,
    unit="dots",
    help=(
        "Each dot counts as 2 Dexterity dots in the support attack's pool; under 2.1 it also "
        "lets the attack reroll 10s."
    ),
)
LEADER_ABILITY = IntParam(
    "leader_ability",
    "Leader's attack ability (Firearms …)",
    minimum=0,
    maximum=10,
    unit="dots",
    help="The ability the leader fires the heavy weapon with (Firearms, Heavy Weapons …).",
)
LEADER_SPECIALTY = BoolParam(
    "leader_specialty",
    "Leader's specialty applies",
    help="Tick if one of the leader's specialties fits the support attack (2.1: +1 die; 2.0: "
    "reroll 10s).",
)
SUPPORT_ACCURACY = IntParam(
    "support_accuracy",
    "Heavy weapon's accuracy",
    minimum=-5,
    maximum=10,
    help="The support (heavy) weapon's Accuracy: dice added to (or taken from) the pool.",
)
SUPPORT_DAMAGE_DICE = IntParam(
    "support_damage_dice",
    "Heavy weapon's damage dice",
    minimum=0,
    maximum=60,
    help="The heavy weapon's damage dice (the 8 in “8 [2]”), before soak.",
)
SUPPORT_DAMAGE_ADDS = IntParam(
    "support_damage_adds",
    "Heavy weapon's damage adds",
    minimum=0,
    maximum=60,
    help="The heavy weapon's damage adds (the [2] in “8 [2]”): not soaked, applied if a die "
    "is left after soak.",
)
SUPPORT_DAMAGE_TYPE = replace(
    DAMAGE_KIND,
    name="support_damage_type",
    label="Heavy weapon's damage type",
    help="The heavy weapon's damage type; a hit that fails to penetrate soak pings one type lower.",
)
SUPPORT_BURST = ChoiceParam(
    "support_burst",
    "Largest burst the heavy weapon fires",
    choices=(
        ("none", "None (no autofire)"),
        ("short", "Short burst (3 shots)"),
        ("medium", "Medium burst (10 shots)"),
        ("long", "Long burst (20 shots)"),
        ("sustained", "Sustained burst (50 shots)"),
    ),
    help=(
        "“Weapons capable of firing bursts are assumed to fire the largest possible burst "
        "they can”: the largest the weapon fires that its ammunition covers (rules note "
        "RN-HENCH-12)."
    ),
)
SUPPORT_AMMUNITION = IntParam(
    "support_ammunition",
    "Heavy weapon's ammunition",
    minimum=1,
    maximum=10_000,
    unit="rounds",
    help="Rounds loaded in the heavy weapon: the burst fired is the largest these cover.",
)
SUPPORT_BURST_USE = ChoiceParam(
    "support_burst_use",
    "Burst bonus goes to",
    choices=(("accuracy", "Accuracy"), ("damage", "Damage")),
    help="The leader chooses: the burst's accuracy bonus (dice) or its damage adds.",
)
SUPPORT_DIFFICULTY = IntParam(
    "support_difficulty",
    "Support attack's base difficulty",
    minimum=1,
    maximum=30,
    help=(
        "Successes the support attack needs before the target's 2.1 Defense (1 normally; add "
        "range and other penalties here). A Dazed or Stunned leader adds 1 (see his condition)."
    ),
)
TARGET_DODGE = IntParam(
    "target_dodge",
    "2.0: target's dodge pool",
    minimum=0,
    maximum=60,
    unit="dice",
    help="2.0 only. Dice the support attack's target dodges with; each success cancels one "
    "attack success. 0: no dodge.",
    shown_when=("ruleset", V20),
)
TARGET_DEXTERITY = IntParam(
    "target_dexterity",
    "2.1: target's Dexterity",
    minimum=0,
    maximum=10,
    unit="dots",
    help="2.1 only. The target's Defense is ⌊lower of Dexterity or Wits ÷ 2⌋ (rules note "
    "RN-RANGED-14).",
    shown_when=("ruleset", V21),
)
TARGET_WITS = IntParam(
    "target_wits",
    "2.1: target's Wits",
    minimum=0,
    maximum=10,
    unit="dots",
    help="2.1 only. The target's Wits dots: its Defense uses the lower of Dexterity and Wits.",
    shown_when=("ruleset", V21),
)
ATTACKS_BEFORE = IntParam(
    "attacks_before",
    "2.1: attacks already made against the target this turn",
    minimum=0,
    maximum=100,
    help="2.1 only. Each earlier attack against the target this turn, hit or miss, lowers its "
    "Defense by 1 (never below 0).",
    shown_when=("ruleset", V21),
)
TARGET_NATURAL_SOAK = IntParam(
    "target_natural_soak",
    "Target's natural soak",
    minimum=0,
    maximum=60,
    help="The support attack's target's natural soak against the heavy weapon's damage type.",
)
TARGET_ARMOUR_SOAK = IntParam(
    "target_armour_soak",
    "Target's armour soak",
    minimum=0,
    maximum=60,
    help="The support attack's target's armour (or power) soak against that damage type.",
)
LEADER_CONDITION = ChoiceParam(
    "leader_condition",
    "Leader's condition this turn",
    choices=(("none", "Neither"), ("dazed", "Dazed"), ("stunned", "Stunned")),
    help=(
        "Dazed (2 × Stamina levels taken this turn) or Stunned (3 × Stamina): +1 difficulty to "
        "all actions, so to the support attack and his defence roll; Stunned allows a single "
        "action (rules note RN-HENCH-14)."
    ),
)
LEADER_DEFENCE = IntParam(
    "leader_defence",
    "Leader's own defence pool",
    minimum=0,
    maximum=60,
    unit="dice",
    help=(
        "The dice the leader defends with (2.0 dodge: Dex + Athletics; 2.1 active defence: "
        "higher of Dex or Wits + ability): the henchmen add their dice to it (rules note "
        "RN-HENCH-13)."
    ),
)
RULESET = replace(
    BASE_RULESET,
    help=(
        "Which revision applies to the support attack. 2.1: a specialty adds +1 die, "
        "Mega-Dexterity rerolls 10s, and the target's Defense adds to the difficulty (the "
        "“2.1: …” inputs); 2.0: a specialty rerolls 10s and the target dodges (the “2.0: …” "
        "input). Default 2.1."
    ),
)
SUPPORT_BONUSES = ChoiceParam(
    "support_bonuses",
    "Henchmen bonuses on the support attack",
    choices=(
        ("squad", "Added (the squad's dice and damage)"),
        ("weapon", "Not added (the heavy weapon's own)"),
    ),
    help=(
        "“Made at full dice pool with henchmen accuracy/damage bonuses”: the squad's dice "
        "bonus as accuracy and its damage bonus on the weapon (default), or the heavy weapon "
        "alone. See rules note RN-HENCH-11."
    ),
)
HENCHMEN_DAMAGE = ChoiceParam(
    "henchmen_damage",
    "Henchmen's “+1 to the damage” is",
    choices=(("dice", "+1 damage die each"), ("adds", "+1 damage add each")),
    help=(
        "“Each henchman adds +1 to the damage of the commander's weapon”: a plain number is "
        "damage dice (default, rules note RN-RANGED-1), or read it as adds. See rules note "
        "RN-HENCH-11."
    ),
)
ONLY_20 = (TARGET_DODGE,)
"""Inputs used under 2.0 only."""
ONLY_21 = (TARGET_DEXTERITY, TARGET_WITS, ATTACKS_BEFORE)
"""Inputs used under 2.1 only."""
SUPPORT_INPUTS = (
    LEADER_DEXTERITY,
    LEADER_MEGA_DEXTERITY,
    LEADER_ABILITY,
    LEADER_SPECIALTY,
    SUPPORT_ACCURACY,
    SUPPORT_DAMAGE_DICE,
    SUPPORT_DAMAGE_ADDS,
    SUPPORT_DAMAGE_TYPE,
    SUPPORT_BURST,
    SUPPORT_AMMUNITION,
    SUPPORT_BURST_USE,
    SUPPORT_DIFFICULTY,
)
"""The support weapon attack's group: the leader's pool and the heavy weapon."""
TARGET_INPUTS = (*ONLY_20, *ONLY_21, TARGET_NATURAL_SOAK, TARGET_ARMOUR_SOAK)
"""The support attack's target's group."""
LEADER_INPUTS = (LEADER_CONDITION, LEADER_DEFENCE)
"""The leader's condition and defence group."""
TARGET_RULE = {V20: DEFENSIVE, V21: rule(QR, "2.1 Rules", "Defenses")}
"""The rule a step about the target's defence names, by ruleset."""

# --- the result ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HenchmenSquad(Explained):
    """Result of :func:`henchmen_squad`: a leader's squad, its support weapon attack, the
    leader's defence roll, and one incoming attack on the squad.

    ``bonus`` is the :class:`~ruleslab.henchmen.HenchmenBonus`; ``support`` the
    :class:`~ruleslab.henchmen_support.SupportAttack` (``support.available``
    attacks this combat, ``support.attack`` one of them resolved exactly, None
    when none is available); ``defence`` the leader's defence roll with the
    henchmen's dice (:class:`~ruleslab.henchmen.LeaderDefence`). ``levels[d]``
    is the exact ``P(d post-soak damage points)`` of the incoming attack against
    the squad's soak, ``removed[k]`` the exact ``P(k henchmen removed)`` (``k =
    0 … henchmen``); ``p_leader_exposed`` = ``P(no henchman left)``;
    ``p_leader_eliminated`` = ``P(an all-henchmen squad's commander goes too)``
    (0 with an ordinary leader).
    """

    bonus: HenchmenBonus
    henchmen: int
    heavy_weapons: int
    support: SupportAttack
    defence: LeaderDefence
    leader_is_henchman: bool
    levels: tuple[Fraction, ...]
    removed: tuple[Fraction, ...]
    mean_removed: Fraction
    p_leader_exposed: Fraction
    p_leader_eliminated: Fraction

    @property
    def support_attacks(self) -> int:
        """Support weapon attacks available this combat."""
        return self.support.available

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
            *self.support.figures(),
            *self.defence.figures(),
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

    def support_chart(self) -> Chart:
        """Bars ``(str(k), P(k health levels dealt))`` by one support attack to its
        target, misses in the 0 bar, highlighted from 1 level; a single 0 bar when no
        support attack is available."""
        attack = self.support.attack
        levels = attack.levels if attack is not None else (Fraction(1),)
        return Chart(chart_bars(levels), highlight_from=1 if attack is not None else None)


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
    *SUPPORT_INPUTS,
    *TARGET_INPUTS,
    *LEADER_INPUTS,
    RULESET,
    LOSSES_ROUNDING,
    PING,
    SUPPORT_BONUSES,
    HENCHMEN_DAMAGE,
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
    leader_dexterity: int = 3,
    leader_mega_dexterity: int = 0,
    leader_ability: int = 2,
    leader_specialty: bool = False,
    support_accuracy: int = 0,
    support_damage_dice: int = 8,
    support_damage_adds: int = 0,
    support_damage_type: str = "lethal",
    support_burst: str = "long",
    support_ammunition: int = 30,
    support_burst_use: str = "accuracy",
    support_difficulty: int = 1,
    target_dodge: int = 0,
    target_dexterity: int = 2,
    target_wits: int = 2,
    attacks_before: int = 0,
    target_natural_soak: int = 2,
    target_armour_soak: int = 0,
    leader_condition: str = "none",
    leader_defence: int = 5,
    ruleset: str = V21,
    rounding: str = "down",
    ping: bool = True,
    support_bonuses: str = "squad",
    henchmen_damage: str = "dice",
) -> HenchmenSquad:
    """A leader's henchmen: limit, bonuses, a support weapon attack, the leader's defence,
    and one attack on the squad.

    "Instead of attacking himself, a commander can use a henchman's heavy
    weapon. […] This attack is made at full dice pool with henchmen
    accuracy/damage bonuses. Weapons capable of firing bursts are assumed to
    fire the largest possible burst they can. This attack can only be done once
    per combat per henchman equipped with a heavy weapon." One such attack is
    resolved exactly against a target's 2.0 dodge or 2.1 Defense and soak
    (:func:`~ruleslab.henchmen_support.support_attack`). "Each henchman adds to
    the commander's pool for attacks and defenses (the defensive bonus is
    generally represented by suppressive fire […])": the leader's defence roll
    with those dice (:func:`~ruleslab.henchmen.leader_defence`). A Dazed or
    Stunned leader rolls both at +1 difficulty. The incoming attack is resolved
    against "the representative soak of the most numerous henchman type"; "each
    point of damage dealt removes from play one of these henchmen".

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
    condition = condition_of(leader_condition)
    if ruleset == V20:
        target = dodging(target_dodge)
        unused = ", ".join(p.label for p in ONLY_21)
        why = "under 2.0 the target dodges; its 2.1 Defense does not apply"
    else:
        target = target_defense(
            dexterity=target_dexterity, wits=target_wits, attacks_before=attacks_before
        )
        unused = ", ".join(p.label for p in ONLY_20)
        why = "under 2.1 the target's Defense replaces the dodge"
    note = Step(f"Not used under {ruleset}: {unused}; {why}", TARGET_RULE[ruleset])
    target = replace(target, steps=(note, *target.steps))
    support = support_attack(
        bonus=b,
        heavy_weapons=heavy_weapons,
        weapon=Weapon(
            name="Heavy weapon",
            accuracy=support_accuracy,
            damage_dice=support_damage_dice,
            damage_adds=support_damage_adds,
            damage_type=support_damage_type,
        ),
        largest_burst=support_burst,
        ammunition=support_ammunition,
        burst_use=support_burst_use,
        dexterity=leader_dexterity,
        mega_dexterity=leader_mega_dexterity,
        ability=leader_ability,
        specialty=leader_specialty,
        ruleset=ruleset,
        target=target,
        base_difficulty=support_difficulty,
        natural_soak=target_natural_soak,
        armour_soak=target_armour_soak,
        condition=condition,
        bonuses=support_bonuses,
        henchmen_damage=henchmen_damage,
    )
    steps += support.steps
    defence = defence_roll(own_pool=leader_defence, bonus=b, condition=condition)
    steps += defence.steps
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
        support=support,
        defence=defence,
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
        "bonuses, a support weapon attack at the leader's full pool with those bonuses and "
        "the largest burst (exact odds and health levels against a target's 2.0 dodge or 2.1 "
        "Defense and soak), the leader's defence pool with the henchmen's dice, Dazed or "
        "Stunned at +1 difficulty, extra health levels in compressed combat, and the exact "
        "number of henchmen an incoming attack removes from the squad."
    ),
    compute=henchmen_squad,
    rules=(
        rule(ALT, "Mass Combat", "Henchmen"),
        rule(QR, "Ranged Attack Maneuvers", "Autofire"),
        rule(QR, "2.0 Rules", "Combat (Defensive Maneuvers, Soak, Ping, Dazing/Stunning)"),
        rule(QR, "2.1 Rules", "Specialties, Defenses"),
    ),
    options=("ruleset", "rounding", "ping", "support_bonuses", "henchmen_damage"),
    groups=(
        FieldGroup("Support weapon attack", tuple(p.name for p in SUPPORT_INPUTS)),
        FieldGroup("Support attack's target", tuple(p.name for p in TARGET_INPUTS)),
        FieldGroup("Leader's condition and defence", tuple(p.name for p in LEADER_INPUTS)),
    ),
    views=(
        ChartView(
            title="Henchmen removed by the incoming attack",
            x_label="Henchmen removed",
            chart=HenchmenSquad.chart,
        ),
        ChartView(
            title="Health levels one support attack deals",
            x_label="Health levels",
            chart=HenchmenSquad.support_chart,
        ),
    ),
    example=(
        "from ruleslab.calculators.henchmen import henchmen_squad\n"
        "from ruleslab.henchmen import henchmen_bonus, squad_losses\n"
        "b = henchmen_bonus(charisma=3, command=2, henchmen=12, henchman_pool=8)\n"
        "print(b.limit, b.dice, b.damage, b.extra_health_levels)\n"
        "print(squad_losses(damage=5, henchmen=8, training='trained', area=2).removed)\n"
        "r = henchmen_squad(henchmen=8, attack_damage=10, training='trained', area=2)\n"
        "print(r.figure('mean_removed').text, r.figure('p_leader_exposed').text)\n"
        "r = henchmen_squad(support_burst='sustained', support_ammunition=60,\n"
        "                   leader_condition='dazed')\n"
        "print(r.figure('support_pool').text, r.figure('support_p_hit').text)"
    ),
)
