"""The Henchmen squad builder calculator (key ``henchmen``): a leader's squad and one attack on it.

The rules are in :mod:`ruleslab.alterations.henchmen` (the limit and bonuses, an incoming
attack on the squad), :mod:`ruleslab.alterations.henchmen.leader` (the leader's condition,
defence roll and Quantum power roll), :mod:`ruleslab.alterations.henchmen.support` (the
support weapon attack, through :mod:`ruleslab.quickref.attack` and
:mod:`ruleslab.quickref.defence.dodge`) and :mod:`ruleslab.quickref.damage`; this module declares
the calculator's inputs (the leader and the support attack's target as
:class:`~ruleslab.character.Character` roles, the leader's condition as a
:class:`~ruleslab.character.Conditions` role, the heavy weapon as a
:class:`~ruleslab.quickref.weapon.Weapon` role, ``support_…``) and combines the rules into one
explained result (:class:`HenchmenSquad`) with its charts. See
:mod:`ruleslab.declare`.

Over 600 lines, for a reason: the form is 41 inputs; 16 come from the four roles,
the other 25 (the squad, the incoming attack, the support attack's difficulty, the
target's 2.0 dodge and soak, the leader's defence and power pools, 5 rules options)
belong to no record and are declared here, each with its range and help, next to
the function whose signature gives their defaults. The support attack's target is
the Autofire calculator's (:mod:`ruleslab.calculators.autofire`): its inputs are
declared there and only renamed and explained for this form here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.alterations.henchmen import (
    HenchmenBonus,
    SquadUnderAttack,
    henchmen_bonus,
    incoming_levels,
    squad_under_attack,
)
from ruleslab.alterations.henchmen.leader import LeaderDefence, LeaderPower
from ruleslab.alterations.henchmen.leader import leader_condition as condition_of
from ruleslab.alterations.henchmen.leader import leader_defence as defence_roll
from ruleslab.alterations.henchmen.leader import leader_power as power_roll
from ruleslab.alterations.henchmen.support import SupportAttack, support_attack
from ruleslab.calculators import autofire as burst
from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Headline
from ruleslab.explain import Explained, Figure
from ruleslab.inputs import (
    DAZE_ON_DEFENCE,
    DEFENCE_DIFFICULTY,
    HENCHMEN_COUNT,
    HENCHMEN_TRAINING,
    LEADER_IS_HENCHMAN,
    LOSSES_ROUNDING,
    ONLY_UNDER_20,
    ONLY_UNDER_21,
    SOAK_ROUNDING,
    override,
)
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.quickref.damage import MAX_DICE
from ruleslab.quickref.defence.dodge import target_defense
from ruleslab.quickref.defence.dodge import target_dodge as dodging
from ruleslab.quickref.weapon import Weapon
from ruleslab.records import Role
from ruleslab.ruleset import V20, V21
from ruleslab.sources import ALT, QR, rule

__all__ = ["CALCULATOR", "HenchmenSquad", "henchmen_squad"]

# --- inputs -------------------------------------------------------------------------

LEADER = Role(
    "leader",
    "The leader",
    Character,
    ("charisma", "mega_charisma", "command", "dexterity", "mega_dexterity", "firearms"),
    label="Leader's ",
    names={
        "dexterity": "leader_dexterity",
        "mega_dexterity": "leader_mega_dexterity",
        "firearms": "leader_ability",
    },
    labels={"firearms": "Leader's attack ability (Firearms …)"},
    help={
        "charisma": "The leader's Charisma dots (Mega-Charisma is separate).",
        "mega_charisma": "Each dot counts as 2 Charisma for the henchmen limit (rules note "
        "RN-HENCH-1).",
        "command": "The leader's Command ability dots.",
        "dexterity": "The leader's Dexterity dots: his full dice pool for the support attack.",
        "mega_dexterity": "Each dot counts as 2 Dexterity dots in the support attack's pool; "
        "under 2.1 it also lets the attack reroll 10s.",
        "firearms": "The ability the leader fires the heavy weapon with (Firearms, Heavy "
        "Weapons …).",
    },
    defaults={"charisma": 3, "command": 2, "dexterity": 3, "firearms": 2},
)
"""The leader: Charisma and Command set the henchmen limit; Dexterity and his attack
ability are his full pool for the support attack (form names kept: ``leader_*``)."""
TARGET = Role(
    "target",
    "The support attack's target",
    Character,
    ("dexterity", "wits", *burst.TARGET_SOAK_FIELDS),
    prefix=burst.TARGET.prefix,
    label=burst.TARGET.label,
    labels={f: burst.TARGET.labels[f] for f in burst.TARGET_SOAK_FIELDS},
    help={
        "dexterity": "2.1 only. The target's Defense is ⌊lower of Dexterity or Wits ÷ 2⌋ "
        "(rules note RN-RANGED-14).",
        "wits": burst.TARGET.help["wits"],
        **{f: burst.TARGET.help[f] for f in burst.TARGET_SOAK_FIELDS},
    },
    defaults={"dexterity": 2, "wits": 2, "quantum": 1, "stamina": 2},
    shown_when_field={"dexterity": ONLY_UNDER_21, "wits": ONLY_UNDER_21},
)
"""The support attack's target, as far as its 2.1 Defense and its natural soak read it:
the Autofire calculator's target (:data:`ruleslab.calculators.autofire.TARGET`), five of
its fields (Quantum, Stamina and Mega-Stamina under both rulesets, rules note RN-SOAK-4)."""
LEADER_CONDITIONS = Role(
    "leader_conditions",
    "The leader's condition",
    Conditions,
    ("daze",),
    names={"daze": "leader_condition"},
    labels={"daze": "Leader's condition this turn"},
    help={
        "daze": "Dazed (2 × Stamina levels taken this turn) or Stunned (3 × Stamina): +1 "
        "difficulty to all actions, so to the support attack, his defence roll and his power "
        "roll; Stunned allows a single action (rules notes RN-HENCH-14, RN-COND-4, RN-COND-5)."
    },
)
"""The leader's condition this turn: Dazed or Stunned
(:func:`ruleslab.quickref.conditions.daze_difficulty`)."""

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

LEADER_SPECIALTY = BoolParam(
    "leader_specialty",
    "Leader's specialty applies",
    help="Tick if one of the leader's specialties fits the support attack (2.1: +1 die; 2.0: "
    "reroll 10s).",
)
SUPPORT_WEAPON = Role(
    "support_weapon",
    "The heavy weapon",
    Weapon,
    ("accuracy", "damage_dice", "damage_adds", "damage_type", "burst", "ammunition", "burst_use"),
    prefix="support_",
    labels={
        "accuracy": "Heavy weapon's accuracy",
        "damage_dice": "Heavy weapon's damage dice",
        "damage_adds": "Heavy weapon's damage adds",
        "damage_type": "Heavy weapon's damage type",
        "burst": "Largest burst the heavy weapon fires",
        "ammunition": "Heavy weapon's ammunition",
    },
    help={
        "accuracy": "The support (heavy) weapon's Accuracy: dice added to (or taken from) the "
        "pool.",
        "damage_dice": "The heavy weapon's damage dice (the 8 in “8 [2]”), before soak.",
        "damage_adds": "The heavy weapon's damage adds (the [2] in “8 [2]”): not soaked, applied "
        "if a die is left after soak.",
        "damage_type": "The heavy weapon's damage type; a hit that fails to penetrate soak pings "
        "one type lower.",
        "burst": "“Weapons capable of firing bursts are assumed to fire the largest possible "
        "burst they can”: the largest the weapon fires that its ammunition covers (rules note "
        "RN-HENCH-12).",
        "ammunition": "Rounds loaded in the heavy weapon: the burst fired is the largest these "
        "cover.",
        "burst_use": "The leader chooses: the burst's accuracy bonus (dice) or its damage adds.",
    },
    defaults={"accuracy": 0, "damage_dice": 8, "burst": "long"},
)
"""The heavy weapon the leader fires: a :class:`~ruleslab.quickref.weapon.Weapon` (form names kept:
``support_*``). Its tags are the record's (none in the form); its Rate is not read."""
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
TARGET_DODGE = replace(
    burst.DODGE_POOL,
    name="target_dodge",
    unit="dice",
    help="2.0 only. Dice the support attack's target dodges with; each success cancels one "
    "attack success. 0: no dodge.",
    shown_when=ONLY_UNDER_20,
)
ATTACKS_BEFORE = replace(
    burst.ATTACKS_BEFORE,
    help="2.1 only. Each earlier attack against the target this turn, hit or miss, lowers its "
    "Defense by 1 (never below 0).",
    shown_when=ONLY_UNDER_21,
)
TARGET_NATURAL_SOAK_FROM, TARGET_NATURAL_SOAK = override(
    IntParam(
        "target_natural_soak",
        "Target's natural soak",
        minimum=burst.NATURAL_SOAK.minimum,
        maximum=burst.NATURAL_SOAK.maximum,
        help="the support attack's target's natural soak against the heavy weapon's damage type.",
    ),
    record=burst.NATURAL_SOAK_FROM.choices[0][1],
    help=burst.NATURAL_SOAK_FROM.help,
)
TARGET_ARMOUR_SOAK = replace(
    burst.ARMOUR_SOAK,
    name="target_armour_soak",
    help="The support attack's target's armour (or power) soak against that damage type.",
)
"""The support attack's target's 2.0 dodge, earlier attacks and soak: the Autofire
calculator's target inputs (label and range declared once, there), under this form's
names and help."""
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
LEADER_POWER_POOL = IntParam(
    "leader_power_pool",
    "Leader's Quantum power pool",
    minimum=0,
    maximum=60,
    unit="dice",
    help=(
        "The dice the leader rolls for one of his Quantum powers; 0: no power roll. The "
        "henchmen's dice add to it only if they have that power too (rules note RN-HENCH-15)."
    ),
)
HENCHMEN_HAVE_POWER = BoolParam(
    "henchmen_have_power",
    "The henchmen have this power too",
    help=(
        "“If the henchmen have Psi or Quantum powers (generally only for sub-aberrants …), "
        "this bonus […] adds to the dice pool for Quantum powers that both parties have”: "
        "tick only if they have the leader's power (for Psi usage: if they have Psi). "
        "Henchmen are mooks without powers: off by default (rules note RN-HENCH-15)."
    ),
)
LEADER_DAZE_ON_DEFENCE = replace(
    DAZE_ON_DEFENCE,
    label="Dazed or Stunned on the leader's 2.0 defence roll",
)
"""RN-COND-4's reading, for the leader's defence roll (a 2.0 dodge or other maneuver)."""
LEADER_DEFENCE_DIFFICULTY = replace(
    DEFENCE_DIFFICULTY,
    label="A difficulty on the leader's defence roll",
)
"""RN-COND-5's reading, for the successes the leader's defence roll counts."""

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
ONLY_21 = (*TARGET.params[:2], ATTACKS_BEFORE)
"""Inputs used under 2.1 only."""
SUPPORT_INPUTS = (
    LEADER_SPECIALTY,
    SUPPORT_WEAPON,
    SUPPORT_DIFFICULTY,
)
"""The support weapon attack's group: the leader's pool (with his role's
``leader_dexterity`` …) and the heavy weapon."""

# --- the result ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HenchmenSquad(Explained):
    """Result of :func:`henchmen_squad`: a leader's squad, its support weapon attack, the
    leader's defence roll (and power roll), and one incoming attack on the squad.

    ``bonus`` is the :class:`~ruleslab.alterations.henchmen.HenchmenBonus`; ``support`` the
    :class:`~ruleslab.alterations.henchmen.support.SupportAttack` (``support.available``
    attacks this combat, ``support.attack`` one of them resolved exactly, None
    when none is available); ``defence`` the leader's defence roll with the
    henchmen's dice (:class:`~ruleslab.alterations.henchmen.leader.LeaderDefence`); ``power``
    his Quantum power roll (:class:`~ruleslab.alterations.henchmen.leader.LeaderPower`, None
    without a power pool); ``squad`` the incoming attack on the squad
    (:class:`~ruleslab.alterations.henchmen.SquadUnderAttack`: ``levels[d]`` = P(d post-soak
    damage points), ``removed[k]`` = P(k henchmen removed), …, also read here).
    """

    bonus: HenchmenBonus
    heavy_weapons: int
    support: SupportAttack
    defence: LeaderDefence
    power: LeaderPower | None
    squad: SquadUnderAttack

    @property
    def henchmen(self) -> int:
        return self.squad.henchmen

    @property
    def levels(self) -> tuple[Fraction, ...]:
        return self.squad.levels

    @property
    def removed(self) -> tuple[Fraction, ...]:
        return self.squad.removed

    @property
    def mean_removed(self) -> Fraction:
        return self.squad.mean_removed

    @property
    def p_leader_exposed(self) -> Fraction:
        return self.squad.p_leader_exposed

    @property
    def p_leader_eliminated(self) -> Fraction:
        return self.squad.p_leader_eliminated

    @property
    def support_attacks(self) -> int:
        """Support weapon attacks available this combat."""
        return self.support.available

    def figures(self) -> tuple[Figure, ...]:
        n = self.support_attacks
        return (
            *self.bonus.figures(),
            Figure("support_attacks", "Support weapon attacks this combat", n, str(n)),
            *self.support.figures(),
            *self.defence.figures(),
            *(self.power.figures() if self.power is not None else ()),
            *self.squad.figures(),
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


@checked(
    LEADER,
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
    *ONLY_20,
    TARGET,
    ATTACKS_BEFORE,
    TARGET_NATURAL_SOAK_FROM,
    TARGET_NATURAL_SOAK,
    TARGET_ARMOUR_SOAK,
    LEADER_CONDITIONS,
    LEADER_DEFENCE,
    LEADER_POWER_POOL,
    HENCHMEN_HAVE_POWER,
    RULESET,
    LOSSES_ROUNDING,
    PING,
    SUPPORT_BONUSES,
    HENCHMEN_DAMAGE,
    LEADER_DAZE_ON_DEFENCE,
    LEADER_DEFENCE_DIFFICULTY,
    SOAK_ROUNDING,
)
def henchmen_squad(
    leader: Character | None = None,
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
    leader_specialty: bool = False,
    support_weapon: Weapon | None = None,
    support_difficulty: int = 1,
    target_dodge: int = 0,
    target: Character | None = None,
    attacks_before: int = 0,
    target_natural_soak_from: str = "record",
    target_natural_soak: int = 2,
    target_armour_soak: int = 0,
    leader_conditions: Conditions | None = None,
    leader_defence: int = 5,
    leader_power_pool: int = 0,
    henchmen_have_power: bool = False,
    ruleset: str = V21,
    rounding: str = "down",
    ping: bool = True,
    support_bonuses: str = "squad",
    henchmen_damage: str = "dice",
    daze_on_defence: str = "action",
    defence_difficulty: str = "spend",
    soak_rounding: str = "down",
) -> HenchmenSquad:
    """A leader's henchmen: limit, bonuses, a support weapon attack, the leader's defence,
    and one attack on the squad.

    "Instead of attacking himself, a commander can use a henchman's heavy
    weapon. […] This attack is made at full dice pool with henchmen
    accuracy/damage bonuses. Weapons capable of firing bursts are assumed to
    fire the largest possible burst they can. This attack can only be done once
    per combat per henchman equipped with a heavy weapon." One such attack is
    resolved exactly against a target's 2.0 dodge or 2.1 Defense and soak
    (:func:`~ruleslab.alterations.henchmen.support.support_attack`). "Each henchman adds to
    the commander's pool for attacks and defenses (the defensive bonus is
    generally represented by suppressive fire […])": the leader's defence roll
    with those dice (:func:`~ruleslab.alterations.henchmen.leader_defence`). A Dazed or
    Stunned leader rolls both at +1 difficulty. The incoming attack is resolved
    against "the representative soak of the most numerous henchman type"; "each
    point of damage dealt removes from play one of these henchmen".

    The "Incoming damage" field takes up to 1,000 post-soak damage points (one
    per henchman of the largest squad), but at most
    :data:`~ruleslab.quickref.damage.MAX_DICE` (500) damage dice, the most the damage
    rule resolves: more dice are refused at that field, with both of its ranges.
    """
    assert leader is not None  # (filled in by @checked)
    assert target is not None
    assert leader_conditions is not None
    assert support_weapon is not None
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
        charisma=leader.charisma,
        command=leader.command,
        henchmen=henchmen,
        henchman_pool=henchman_pool,
        situation=situation,
        mega_charisma=leader.mega_charisma,
    )
    steps = list(b.steps)
    condition = condition_of(leader_conditions.daze)
    if ruleset == V20:
        defence = dodging(target_dodge)
        unused = ", ".join(p.label for p in ONLY_21)
        why = burst.DODGES_UNDER_20
    else:
        defence = target_defense(
            dexterity=target.dexterity, wits=target.wits, attacks_before=attacks_before
        )
        unused = ", ".join(p.label for p in ONLY_20)
        why = "under 2.1 the target's Defense replaces the dodge"
    natural, soak_step = burst.target_soak(
        support_weapon.damage_type,
        target,
        target_natural_soak_from,
        target_natural_soak,
        soak_rounding,
        TARGET_NATURAL_SOAK_FROM,
    )
    support = support_attack(
        bonus=b,
        heavy_weapons=heavy_weapons,
        weapon=support_weapon.stats("Heavy weapon"),
        largest_burst=support_weapon.burst,
        ammunition=support_weapon.ammunition,
        burst_use=support_weapon.burst_use,
        dexterity=leader.dexterity,
        mega_dexterity=leader.mega_dexterity,
        ability=leader.firearms,
        specialty=leader_specialty,
        ruleset=ruleset,
        target=burst.with_unused(defence, ruleset, unused, why),
        base_difficulty=support_difficulty,
        natural_soak=natural,
        armour_soak=target_armour_soak,
        condition=condition,
        bonuses=support_bonuses,
        henchmen_damage=henchmen_damage,
    )
    steps += burst.before_soak(support.steps, soak_step)
    own_defence = defence_roll(
        own_pool=leader_defence,
        bonus=b,
        condition=condition,
        reading=defence_difficulty,
        daze_counts=ruleset == V21 or daze_on_defence == "action",
    )
    steps += own_defence.steps
    power = None
    if leader_power_pool:
        power = power_roll(
            own_pool=leader_power_pool, bonus=b, shared=henchmen_have_power, condition=condition
        )
        steps += power.steps
    levels, incoming_steps = incoming_levels(incoming, attack_damage, adds, squad_soak, ping)
    squad = squad_under_attack(
        levels,
        henchmen=henchmen,
        training=training,
        area=area,
        leader_is_henchman=leader_is_henchman,
        rounding=rounding,
    )
    return HenchmenSquad(
        bonus=b,
        heavy_weapons=heavy_weapons,
        support=support,
        defence=own_defence,
        power=power,
        squad=squad,
        steps=(*steps, *incoming_steps, *squad.steps),
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
    headlines=(
        Headline(
            ("dice", "damage", "support_p_hit", "support_expected_levels"),
            when=lambda v: v["heavy_weapons"] > 0,
            question="What the squad adds, and what its support weapons do",
        ),
        Headline(
            ("dice", "damage", "mean_removed"),
            question="What the squad adds, and how many henchmen the attack removes",
        ),
    ),
    rules=(
        rule(ALT, "Mass Combat", "Henchmen"),
        rule(QR, "Ranged Attack Maneuvers", "Autofire"),
        rule(QR, "2.0 Rules", "Combat (Defensive Maneuvers, Soak, Ping, Dazing/Stunning)"),
        rule(QR, "2.1 Rules", "Specialties, Defenses"),
    ),
    options=(
        "ruleset",
        "rounding",
        "ping",
        "support_bonuses",
        "henchmen_damage",
        "daze_on_defence",
        "defence_difficulty",
        "soak_rounding",
    ),
    groups=(
        FieldGroup(
            "The leader and the squad",
            (
                *LEADER.flat_names[:3],
                "henchmen",
                "henchman_pool",
                "situation",
                "heavy_weapons",
                "training",
                "leader_is_henchman",
            ),
        ),
        FieldGroup(
            "An incoming attack on the squad",
            ("squad_soak", "incoming", "attack_damage", "adds", "area"),
        ),
        FieldGroup(
            "Support weapon attack",
            (
                *LEADER.flat_names[3:],
                LEADER_SPECIALTY.name,
                *SUPPORT_WEAPON.flat_names,
                SUPPORT_DIFFICULTY.name,
            ),
        ),
        FieldGroup(
            "Support attack's target",
            (
                *(p.name for p in ONLY_20),
                *(p.name for p in ONLY_21),
                *burst.TARGET_SOAK,
                "target_natural_soak_from",
                "target_natural_soak",
                "target_armour_soak",
            ),
        ),
        FieldGroup(
            "Leader's condition, defence and power",
            ("leader_condition", "leader_defence", "leader_power_pool", "henchmen_have_power"),
        ),
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
            highlight="deals at least 1 level",
        ),
    ),
    example=(
        "from ruleslab.calculators.henchmen import henchmen_squad\n"
        "from ruleslab.alterations.henchmen import henchmen_bonus, squad_losses\n"
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
