"""The Autofire & strafing calculator (key ``autofire``): a burst at one or more targets.

The rules are in :mod:`ruleslab.quickref.autofire` (bursts, strafing, ammunition, Rate),
:mod:`ruleslab.quickref.defence.dodge` (the target's 2.0 dodge or 2.1 Defense, active defence
and power block), :mod:`ruleslab.quickref.attack` (the attack against that defence and
soak), :mod:`ruleslab.alterations.henchmen.area_vulnerability` (a squad of henchmen as the target)
and
:mod:`ruleslab.quickref.weapons` (the weapon and its tags); this module
declares the calculator's inputs, combines the rules into one explained result
(:class:`AutofireReport`) and its chart. See :mod:`ruleslab.declare`.

The inputs used by one ruleset only are labelled "2.0: …" or "2.1: …", grouped,
and shown by the form under that ruleset only (``shown_when``); the steps name
the ones the chosen ruleset does not use (rules note RN-RANGED-16).

The attacker and the 2.1 target are roles of :class:`~ruleslab.character.Character`
(:data:`ATTACKER`, :data:`TARGET`: their fields declared once, there), their
conditions roles of :class:`~ruleslab.character.Conditions` (:data:`ATTACKER_CONDITIONS`,
:data:`TARGET_CONDITIONS`), applied by :mod:`ruleslab.quickref.conditions` to the attack roll
and to the target's defence roll (rules notes RN-COND-1 … RN-COND-5). The weapon (its
stats and tags, the burst, the ammunition and the Rate) is the role :data:`WEAPON` of
:class:`~ruleslab.quickref.weapon.Weapon`, its fields under their own names (``accuracy``, ``tags``
…).

The target's natural soak is derived from its record (Quantum, Stamina, Mega-Stamina)
by :func:`ruleslab.quickref.soak.natural_soak_of`, the derivation the Damage resolution
calculator uses, unless "Target's natural soak from" is "entered" (an override, said so
in a step; rules note RN-SOAK-4).

Over 600 lines, for a reason: the form is 74 inputs (the attacker and his conditions,
the weapon, the target under 2.0 and under 2.1 and its conditions, a squad target, and
12 rules options); 44 come from the five roles, the other 30 are read from no record and
are declared here with their range and help, and no other module may declare them
(rule modules declare no inputs; ``calculators/`` holds one module per calculator).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslab.alterations.henchmen.area_vulnerability import SquadHit, against_squad
from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Headline
from ruleslab.explain import Explained, Figure, Step
from ruleslab.inputs import (
    DAZE_ON_DEFENCE,
    HENCHMEN_COUNT,
    HENCHMEN_TRAINING,
    LOSSES_ROUNDING,
    ONLY_UNDER_20,
    ONLY_UNDER_21,
    SOAK_ROUNDING,
    TRACK_HELP,
    TRACK_LABELS,
    override,
    record_or_entered,
)
from ruleslab.inputs import MEGA_IN_DEFENSE as BASE_MEGA_IN_DEFENSE
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import (
    BoolParam,
    ChoiceParam,
    InputError,
    IntParam,
    checked,
)
from ruleslab.pmf import chart_bars
from ruleslab.quickref.attack import (
    EXTRA_SUCCESS_READINGS,
    NO_CONDITIONS,
    AttackResult,
    resolve_attack,
)
from ruleslab.quickref.autofire import (
    BURST_DAMAGE_READINGS,
    RateOfFire,
    autofire_maneuver,
    rate_of_fire,
)
from ruleslab.quickref.conditions import (
    DEFENCE_DIFFICULTY_READINGS,
    Modifier,
    RollKind,
    load_encumbrance,
    on_roll,
    single_action,
)
from ruleslab.quickref.defence import DEFENSES
from ruleslab.quickref.defence.dodge import DEFENSIVE, TargetDefence, target_defense, target_dodge
from ruleslab.quickref.health import WOUND_TRAITS
from ruleslab.quickref.soak import natural_soak_of
from ruleslab.quickref.weapon import TAGS, TagsParam, Weapon
from ruleslab.records import Role, fields_of
from ruleslab.ruleset import V20, V21
from ruleslab.sources import ALT, QR, rule

__all__ = ["CALCULATOR", "TAGS", "AutofireReport", "TagsParam", "autofire_and_strafing"]


# --- inputs ---------------------------------------------------------------------------


ATTACKER = Role(
    "attacker",
    "The attacker",
    Character,
    ("dexterity", "mega_dexterity", "firearms", "might", *WOUND_TRAITS),
    names={"firearms": "ability"},
    help={
        "dexterity": "The attacker's Dexterity dots (Mega-Dexterity is separate).",
        "mega_dexterity": (
            "Each Mega-Dexterity dot counts as 2 Dexterity dots in the attack pool; in 2.1 a "
            "Mega-Attribute also lets the attack reroll 10s."
        ),
        "firearms": (
            "Dots in the ability the attack uses (Firearms, Athletics for thrown weapons …)."
        ),
        "strength": "The attacker's Strength: with Might and Mega-Strength, what his load weighs.",
        "might": "The attacker's Might, added to Strength for his load's encumbrance.",
        **TRACK_HELP,
    },
    labels=TRACK_LABELS,
    defaults={"dexterity": 3, "firearms": 2},
)
"""The attacker: Dex + Firearms (+ 2 per Mega-Dexterity dot) roll the attack; Str, Might
and Mega-Strength set the tier of the load he carries (rules note RN-COND-1); with Stamina,
Mega-Stamina, Quantum, Willpower and Resistance they make his health track, whose wound
penalty his levels lost put on the attack (rules note RN-COND-7)."""
ATTACKER_CONDITIONS = Role(
    "conditions",
    "The attacker's load and conditions",
    Conditions,
    ("load_kg", "daze", "extra_actions_power", "actions", "levels_lost"),
    applies=("sprinting",),  # a sprinter may not attack (RN-COND-2)
    label="Attacker: ",
    help={
        "load_kg": (
            "What the attacker carries, in kilograms: a Heavy load (or more) puts the attack, "
            "‘another physical action’, at +1 difficulty (rules note RN-COND-1)."
        ),
        "actions": (
            "2.1: the attacker's actions this turn, this attack included: ‘Every additional "
            "action past the first adds a cumulative +1 difficulty’, so the attack is at "
            "+(actions − 1) (rules note RN-COND-3)."
        ),
    },
)
"""The attacker's load, daze and actions this turn: each adds difficulty to the attack."""
ATTACK_ROLL = RollKind("the attack roll (Dex + Firearms)", physical="other")
"""A Dexterity + Firearms attack is aimed, not run with: "another physical action" (RN-COND-1)."""
TARGET = Role(
    "target",
    "Target under 2.1",
    Character,
    (
        "dexterity",
        "mega_dexterity",
        "wits",
        "mega_wits",
        "athletics",
        "quantum",
        "stamina",
        "mega_stamina",
        "strength",
        "might",
        "mega_strength",
        "willpower",
        "resistance",
    ),
    prefix="target_",
    label="2.1: target's ",
    names={"athletics": "target_ability"},
    labels={
        "athletics": "2.1: target's defending ability",
        "quantum": "Target's Quantum",
        "stamina": "Target's Stamina",
        "mega_stamina": "Target's Mega-Stamina",
        "strength": "Target: Strength",
        "might": "Target: Might",
        "mega_strength": "Target: Mega-Strength",
        "willpower": "Target: Willpower (2.1 track)",
        "resistance": "Target: Resistance (2.1 track)",
    },
    help={
        "strength": (
            "The target's Strength: with Might and Mega-Strength, what its carried load is "
            "graded against (rules note RN-COND-1). Read for the load only."
        ),
        "might": "The target's Might, added to Strength for its load's encumbrance.",
        "mega_strength": (
            "The target's Mega-Strength: multiplies its load's encumbrance thresholds."
        ),
        "dexterity": (
            "2.1 only. The target's Dexterity dots, from its sheet: its Defense is ⌊lower of "
            "Dexterity or Wits ÷ 2⌋, and an active defence uses the higher. See rules note "
            "RN-RANGED-14."
        ),
        "mega_dexterity": (
            "2.1 only. Each dot counts as 2 Dexterity dots in the target's Defense and active "
            "defence; an active defence with Dexterity rerolls 10s."
        ),
        "wits": (
            "2.1 only. The target's Wits dots: its Defense uses the lower of Dexterity and Wits."
        ),
        "mega_wits": (
            "2.1 only. Each dot counts as 2 Wits dots in the target's Defense and active "
            "defence; an active defence with Wits rerolls 10s."
        ),
        "athletics": (
            "2.1 only, active defence. The ability it defends with (Athletics, Melee, Brawl …)."
        ),
        "quantum": (
            "The target's Quantum rating: its natural soak (+1 bashing and lethal, Quantum/2 "
            "aggravated), and under 2.1 a power block adds ⌊Quantum ÷ 2⌋ to its Defense."
        ),
        "stamina": (
            "The target's Stamina (1–20): its natural soak, Quantum + Stamina bashing, "
            "Quantum + Stamina/2 lethal (rules note RN-SOAK-4). For a squad, its henchmen's."
        ),
        "mega_stamina": (
            "The target's Mega-Stamina: +1 bashing and lethal natural soak per dot; its "
            "health track too."
        ),
        "willpower": TRACK_HELP["willpower"],
        "resistance": TRACK_HELP["resistance"],
    },
    defaults={"dexterity": 2, "wits": 2, "athletics": 2, "quantum": 1, "stamina": 2},
)
"""The target: under 2.1 its Defense, active defence and power block
(:func:`ruleslab.quickref.defence.dodge.target_defense`); under either ruleset its Str, Might and
Mega-Strength, the tier of the load it carries (rules note RN-COND-1)."""
TARGET_LOAD = ("target_strength", "target_might", "target_mega_strength")
"""The target's fields read for its load only, under either ruleset."""
TARGET_TRACK = ("target_willpower", "target_resistance")
"""The target's fields read for its health track only (its wound penalty, RN-COND-7)."""
TARGET_SOAK_FIELDS = ("quantum", "stamina", "mega_stamina")
"""The target's record fields its natural soak is derived from (rules note RN-SOAK-4)."""
TARGET_SOAK = tuple(TARGET.prefix + f for f in TARGET_SOAK_FIELDS)
"""The target's fields its natural soak is derived from, under either ruleset."""
TARGET_CONDITIONS = Role(
    "target_conditions",
    "The target's conditions",
    Conditions,
    ("load_kg", "sprinting", "daze", "extra_actions_power", "actions", "levels_lost"),
    applies=("active_defence",),  # checked against target_defends
    prefix="target_",
    label="Target: ",
    help={
        "load_kg": (
            "What the target carries, in kilograms, graded against its Str + Might and "
            "Mega-Strength: Moderate adds +1 to its dodge or active defence, ‘a physical "
            "action involving movement’, Heavy +2 (rules note RN-COND-1); a power block is "
            "not physical."
        ),
        "sprinting": (
            "‘Sprinting characters … are at +1 difficulty to all defensive maneuvers they "
            "take’: the target's dodge, active defence or power block (rules note RN-COND-2)."
        ),
        "daze": (
            "‘Dazed characters are at +1 difficulty to all actions’: a 2.1 active defence or "
            "power block is an action, and so, by default, is a 2.0 dodge, a defensive "
            "maneuver (rules note RN-COND-4; the option below says otherwise)."
        ),
        "actions": (
            "2.1: the target's actions this turn, its active defence or power block included "
            "(‘Characters may take an action to actively defend’): the defence roll is at "
            "+(actions − 1) (rules note RN-COND-3)."
        ),
    },
)
"""What the target is in: each adds difficulty to its defence roll (rules note RN-COND-5)."""
DEFENCE_DIFFICULTY = ChoiceParam(
    "defence_difficulty",
    "A difficulty on the target's defence roll",
    choices=DEFENCE_DIFFICULTY_READINGS,
    help=(
        "What the target's conditions' added difficulty does to its dodge, active defence or "
        "power block, whose successes cancel attack successes: its first successes pay for it "
        "(default), or the roll must reach 1 + the difficulty to count at all. See rules note "
        "RN-COND-5."
    ),
)


WEAPON = Role("weapon", "The weapon", Weapon, fields_of(Weapon))
"""The weapon, its burst, ammunition and Rate: the :class:`~ruleslab.quickref.weapon.Weapon`
record's fields, under their own names (``accuracy``, ``tags``, ``burst`` …)."""
SPECIALTY = BoolParam(
    "specialty",
    "Specialty applies",
    help="Tick if one of the attacker's specialties fits (2.1: +1 die; 2.0: reroll 10s).",
)
RULESET = replace(
    BASE_RULESET,
    help=(
        "Which revision applies. 2.1: a specialty adds +1 die, Mega-Dexterity rerolls 10s, and "
        "the target's Defense adds to the difficulty (the “2.1: …” inputs); 2.0: a specialty "
        "rerolls 10s and the target dodges (the “2.0: …” inputs). Default 2.1."
    ),
)
BASE_DIFFICULTY = IntParam(
    "base_difficulty",
    "Base difficulty",
    minimum=1,
    maximum=30,
    help=(
        "Successes the attack needs before strafing, range and aircraft penalties (1 normally; "
        "add other penalties here). Under 2.1 the target's Defense is added from its own "
        "inputs: do not add it here."
    ),
)
RANGE_PENALTY = IntParam(
    "range_penalty",
    "Range penalty",
    minimum=0,
    maximum=10,
    help="Difficulty added for range. A Guided weapon reduces it by 1 (not below 0).",
)
AIRCRAFT_PENALTY = IntParam(
    "aircraft_penalty",
    "Aircraft penalty",
    minimum=0,
    maximum=10,
    help=(
        "Difficulty your table adds for firing at an aircraft (the text gives no number; 0 if "
        "the target is not an aircraft). An AA weapon ignores it."
    ),
)
DODGE_POOL = IntParam(
    "dodge_pool",
    "2.0: target's dodge pool",
    minimum=0,
    maximum=60,
    help=(
        "2.0 only. Dice the target rolls to dodge (Dex + Athletics); each success cancels one "
        "attack success (Guided ignores the first). 0: no dodge. Not used under 2.1, where "
        "the target's Defense replaces it."
    ),
)
DODGE_REROLLS = BoolParam(
    "dodge_reroll_tens",
    "2.0: dodge rerolls 10s",
    help="2.0 only. Tick if a specialty fits the target's dodge: the dodge rerolls 10s.",
)
ATTACKS_BEFORE = IntParam(
    "attacks_before",
    "2.1: attacks already made against the target this turn",
    minimum=0,
    maximum=100,
    help=(
        "2.1 only. Each earlier attack against the target this turn, hit or miss, lowers its "
        "Defense by 1 (never below 0). A burst or a strafe counts as one attack against each "
        "target. See rules note RN-RANGED-14."
    ),
)
TARGET_DEFENDS = ChoiceParam(
    "target_defends",
    "2.1: target's defensive action",
    choices=(
        ("none", "None (Defense only)"),
        ("active", "Active defence (Dex or Wits + ability)"),
        ("power_block", "Power block (+Quantum ÷ 2, the power's roll)"),
    ),
    help=(
        "2.1 only. An action the target takes against this attack: an active defence rolls the "
        "higher of Dex or Wits + the defending ability; a power block adds ⌊Quantum ÷ 2⌋ to its "
        "Defense and rolls the power's pool. Each success of the roll cancels one attack "
        "success. See rules note RN-RANGED-15."
    ),
)
TARGET_SPECIALTY = BoolParam(
    "target_specialty",
    "2.1: target's specialty fits its defence",
    help="2.1 only. A fitting specialty adds +1 die to the active defence or power block roll.",
)
TARGET_POWER_POOL = IntParam(
    "target_power_pool",
    "2.1: target's power pool",
    minimum=0,
    maximum=40,
    unit="dice",
    help="2.1 only, power block. The dice pool of the power the target blocks with.",
)
MEGA_IN_DEFENSE = replace(
    BASE_MEGA_IN_DEFENSE,
    label="2.1: Mega-Dex/Mega-Wits in the target's Defense",
    help=(
        "2.1 only. The Defense score uses the lower of Dexterity and Wits. ‘Counts as 2’ "
        "applies the Mega-Attributes rule; the active defence pool counts them either way. "
        "See rules note RN-DEF-5."
    ),
)
POWER_BLOCK_BONUS = ChoiceParam(
    "power_block_bonus",
    "2.1: a power block after earlier attacks",
    choices=(
        ("decays", "Defense + Quantum ÷ 2, less 1 per earlier attack"),
        ("fresh", "Quantum ÷ 2 added to the Defense left"),
    ),
    help=(
        "2.1 only. Whether earlier attacks also wear down the power block's ⌊Quantum ÷ 2⌋ "
        "(default, as the Initiative & defence calculator shows it) or the block adds it in "
        "full to what is left of the Defense. See rules note RN-RANGED-15."
    ),
    shown_when=ONLY_UNDER_21,
)
RATE_READING = ChoiceParam(
    "rate_reading",
    "A Burst(X) weapon's effective rate of fire",
    choices=(
        ("unadjusted", "The unadjusted RoF, before the slash (bursts)"),
        ("rounds", "The rounds, after the slash (RoF × X)"),
    ),
    help=(
        "“Burst weapons have a slash in their Rate stat, with their effective rate of fire "
        "following the unadjusted RoF”: default, the figure before the slash (each burst "
        "counts as one shot); or the rounds after it. See rules note RN-RANGED-17."
    ),
)
TARGET_KIND = ChoiceParam(
    "target_kind",
    "Target",
    choices=(
        ("character", "A character"),
        ("squad", "A squad of henchmen"),
    ),
    help=(
        "A character, or a squad of henchmen: each point of post-soak damage removes a "
        "henchman (÷ 2 or 3 for trained or fanatical ones), and an Area(X) weapon multiplies "
        "that damage (Area Vulnerability). For a squad, the target's soak and defence inputs "
        "are the squad's: the most numerous henchman type's soak, the commander's defence "
        "with his henchmen's dice. See rules note RN-RANGED-18."
    ),
)
SQUAD_HENCHMEN = replace(
    HENCHMEN_COUNT,
    name="squad_henchmen",
    label="Squad: henchmen",
    minimum=1,
    help=(
        "Squad target only. Henchmen in the squad (its leader not counted): until all are "
        "removed the leader cannot be targeted."
    ),
)
SQUAD_TRAINING = replace(
    HENCHMEN_TRAINING,
    name="squad_training",
    label="Squad: henchmen's training",
    help="Squad target only. Well-trained and fanatical henchmen divide their losses by 2 or 3.",
)
AREA_MULTIPLIER = IntParam(
    "area_multiplier",
    "Squad: area multiplier for an Area(X) weapon",
    minimum=2,
    maximum=4,
    help=(
        "Squad target and Area(X) weapon only. “Generally, all post-soak damage is doubled "
        "for area attacks, although particularly large ones may triple or even quadruple "
        "post-soak effects on henchman squads”: 2 (default), 3 or 4. See rules note "
        "RN-RANGED-18."
    ),
)
SQUAD_INPUTS = (SQUAD_HENCHMEN, SQUAD_TRAINING, AREA_MULTIPLIER)
"""Inputs used only when the target is a squad of henchmen."""
LOSSES = replace(LOSSES_ROUNDING, name="losses_rounding", label="Squad: rounding divided losses")
ONLY_20 = (DODGE_POOL, DODGE_REROLLS)
"""Inputs used under 2.0 only."""
ONLY_20_NAMES = tuple(p.name for p in ONLY_20)
ONLY_21 = (
    "target_dexterity",
    "target_mega_dexterity",
    "target_wits",
    "target_mega_wits",
    "attacks_before",
    "target_defends",
    "target_ability",
    "target_specialty",
    "target_power_pool",
)
"""Inputs used under 2.1 only, by name: TARGET's and four more (the rules options
MEGA_IN_DEFENSE and POWER_BLOCK_BONUS too)."""
NATURAL_SOAK_FROM, NATURAL_SOAK = override(
    IntParam(
        "natural_soak",
        "Target's natural soak",
        minimum=0,
        maximum=60,
        help="the target's natural soak against this damage type (Armor Piercing does not "
        "reduce it).",
    ),
    record="The target's record (Quantum, Stamina, Mega-Stamina)",
    help=(
        "Default: worked out from the target's Quantum, Stamina and Mega-Stamina against the "
        "weapon's damage type, as the Damage resolution calculator does (‘Natural Character "
        "Soak is by default (Quantum + Stamina + Mega-Stamina) Bashing/(Quantum + Stamina/2 + "
        "Mega-Stamina) Lethal/(Quantum/2) Aggravated’); “entered” uses the figure typed below "
        "instead, and a step says it overrides the record. A link or a call giving the soak "
        "but not this choice reads as “entered”. See rules note RN-SOAK-4."
    ),
)
ARMOUR_SOAK = IntParam(
    "armour_soak",
    "Target's armour soak",
    minimum=0,
    maximum=60,
    help="The target's armour (or power) soak against this damage type; AP(X) reduces it by X.",
)
EXTRA_SUCCESSES = ChoiceParam(
    "extra_successes",
    EXTRA_SUCCESS_READINGS[0],
    choices=EXTRA_SUCCESS_READINGS[1],
    help=(
        "Devastating deals X “per net attack success after the first instead of just +1”: "
        "default +1 damage die per extra success (plain numbers are dice, bracketed ones adds). "
        "Devastating replaces this whatever you pick. See rules note RN-RANGED-3."
    ),
)
NET_FROM = ChoiceParam(
    "net_from",
    "Extra successes count from",
    choices=(
        ("difficulty", "Beyond the difficulty"),
        ("first", "Beyond the first net success"),
    ),
    help=(
        "Which net successes are “after the first”: those beyond the difficulty (default; the "
        "same at difficulty 1) or every net success after the first, even those the difficulty "
        "needed. See rules note RN-RANGED-4."
    ),
)


TARGETS = IntParam(
    "targets",
    "Targets (strafing)",
    minimum=1,
    maximum=50,
    help=(
        "Foes the attack strafes: +1 difficulty per target after the first; one roll applies "
        "to all. No more targets than rounds the attack uses."
    ),
)
BURST_DAMAGE = ChoiceParam(
    "burst_damage",
    BURST_DAMAGE_READINGS[0],
    choices=BURST_DAMAGE_READINGS[1],
    help=(
        "The text writes the damage bonus in brackets, as in “Devastating (5 [2]) … +5 damage "
        "and an extra 2 damage adds”: bracketed numbers are adds (default). See rules note "
        "RN-RANGED-1."
    ),
)
BURST_WEAPON_AMMO = ChoiceParam(
    "burst_weapon_ammo",
    "Autofire with a Burst(X) weapon uses",
    choices=(("bursts", "Shots × X rounds"), ("rounds", "Shots as rounds")),
    help=(
        "“3 shots/bursts worth of ammunition”: for a Burst(X) weapon each shot is a burst of X "
        "rounds (default), or the burst counts rounds only. See rules note RN-RANGED-9."
    ),
)


RULES_OPTIONS = (
    RULESET,
    EXTRA_SUCCESSES,
    NET_FROM,
    BURST_DAMAGE,
    BURST_WEAPON_AMMO,
    MEGA_IN_DEFENSE,
    POWER_BLOCK_BONUS,
    RATE_READING,
    LOSSES,
    DEFENCE_DIFFICULTY,
    DAZE_ON_DEFENCE,
    SOAK_ROUNDING,
)
"""The rules version and the readings of the text: the form's options, last."""


# --- the result and the calculator -------------------------------------------------


TARGET_RULE = {V20: DEFENSIVE, V21: DEFENSES}
"""The rule a step about the target's defence names, by ruleset."""
DODGES_UNDER_20 = "under 2.0 the target dodges; its 2.1 Defense does not apply"
"""Why the target's 2.1 inputs are not used under 2.0 (this form's and the henchmen's)."""


def with_unused(target: TargetDefence, ruleset: str, listed: str, why: str) -> TargetDefence:
    """``target`` with a first step naming the other ruleset's inputs (``listed``), not
    used under ``ruleset``, and ``why``; the henchmen's support attack says it too."""
    step = Step(f"Not used under {ruleset}: {listed}; {why}", TARGET_RULE[ruleset])
    return replace(target, steps=(step, *target.steps))


def _with_unused(
    target: TargetDefence,
    ruleset: str,
    unused: tuple[str, ...],
    values: dict[str, Any],
    why: str,
) -> TargetDefence:
    """:func:`with_unused`, each input named with its value (rules note RN-RANGED-16)."""
    params = {p.name: p for p in autofire_and_strafing.params}
    listed = ", ".join(f"“{params[n].label}” {params[n].shown(values[n])}" for n in unused)
    return with_unused(target, ruleset, listed, f"{why} (rules note RN-RANGED-16)")


def _with_step(m: Modifier, step: Step | None) -> Modifier:
    """``m`` with ``step`` (a Stunned character's single action) before its own."""
    return replace(m, steps=(step, *m.steps)) if step is not None else m


def _on_defence(
    defence: TargetDefence, target: Character, conditions: Conditions, daze_on_defence: str
) -> Modifier:
    """What the target's conditions do to its defence roll (none without a roll).

    A dodge, an active defence and a power block are defensive maneuvers (a sprinter's
    +1); under 2.1 the active defence or power block "takes an action" and is counted
    among the target's actions (Dazed +1, +(actions − 1), rules note RN-COND-3); a
    2.0 dodge takes no action, but Dazed or Stunned puts it at +1 too unless
    ``daze_on_defence`` is "no_action" (rules note RN-COND-4). The target's load,
    graded against its own Str + Might and Mega-Strength, encumbers a dodge or an
    active defence, "a physical action involving movement" (RN-COND-1); a power
    block is a power's roll, not physical.
    """
    if not defence.dice:
        return NO_CONDITIONS
    action = defence.ruleset == V21
    physical = "none" if defence.roll == "power block" else "movement"
    kind = RollKind(
        f"the target's {defence.roll}", physical=physical, defensive=True, action=action
    )
    counted = replace(conditions, active_defence=action)
    load = load_encumbrance(target, counted, prefix="target_")
    stunned_step = None
    if action:  # a Stunned target's defence roll is his one action (RN-COND-4)
        counted, stunned_step = single_action(counted, f"its {defence.roll}")
    m = on_roll(
        kind, target, counted, ruleset=defence.ruleset, load=load, daze_on_defence=daze_on_defence
    )
    return _with_step(m, stunned_step)


def target_soak(
    kind: str,
    target: Character,
    soak_from: str,
    entered: int,
    rounding: str,
    choice: ChoiceParam = NATURAL_SOAK_FROM,
) -> tuple[int, Step]:
    """The target's natural soak against ``kind`` and the step saying where it came from:
    its record (:func:`~ruleslab.quickref.soak.natural_soak_of`, as in the Damage
    resolution calculator), or ``entered``, an override the step names with the record's
    figure (:func:`ruleslab.inputs.record_or_entered`, rules note RN-SOAK-4); ``choice``:
    the form's "… natural soak from" (the Henchmen calculator's support target has its own)."""
    derived = natural_soak_of(kind, target.quantum, target.stamina, target.mega_stamina, rounding)
    return record_or_entered(
        choice,
        soak_from,
        entered,
        derived,
        what="Natural soak",
        whose="the target's",
        note="rules note RN-SOAK-4",
    )


def before_soak(steps: tuple[Step, ...], soak_step: Step) -> tuple[Step, ...]:
    """``steps`` with ``soak_step`` just before the soak is subtracted (the first step
    on Armor Piercing or on the soak), or last if the attack never reaches the soak."""
    at = next((i for i, s in enumerate(steps) if s.text.startswith(("Soak ", "AP("))), len(steps))
    return (*steps[:at], soak_step, *steps[at:])


@dataclass(frozen=True, kw_only=True)
class AutofireReport(Explained):
    """The "Autofire & strafing" calculator's result: the ammunition and the attack."""

    ammo_used: int
    ammunition: int
    attack: AttackResult
    rate: RateOfFire | None = None
    squad: SquadHit | None = None

    @property
    def p_hit(self) -> Fraction:
        return self.attack.p_hit

    @property
    def levels(self) -> tuple[Fraction, ...]:
        return self.attack.levels

    def figures(self) -> tuple[Figure, ...]:
        att = {f.key: f for f in self.attack.figures()}
        return (
            Figure(
                "ammo_used",
                "Ammunition used",
                self.ammo_used,
                f"{self.ammo_used} of {self.ammunition} rounds",
            ),
            att["difficulty"],
            att["target_defence"],
            att["p_hit"],
            att["expected_dice"],
            att["expected_levels"],
            att["p_wound"],
            att["p_any_hit"],
            att["pool"],
            *self._rate_figures(),
            *(self.squad.figures() if self.squad is not None else ()),
        )

    def _rate_figures(self) -> tuple[Figure, ...]:
        if self.rate is None:
            return ()
        largest = self.rate.largest
        text = (
            f"{largest.name[:-1]} ({largest.shots} shots/bursts)"
            if largest is not None
            else "None: single shots only"
        )
        text += f"; Rate {self.rate.written}, effective rate {self.rate.effective}"
        key = largest.key if largest is not None else "none"
        return (Figure("largest_burst", "Largest burst the Rate allows", key, text),)

    def squad_chart(self) -> Chart:
        """Bars ``(str(k), P(k henchmen removed))`` per squad, highlighted from 1; no
        bars when the target is a character."""
        if self.squad is None:
            return Chart(())
        return Chart(chart_bars(self.squad.removed), highlight_from=1)

    def chart(self) -> Chart:
        """Bars ``(str(k), P(k health levels lost))`` per target, misses in the 0 bar,
        highlighted from 1 level (the hits that wound); bars after the last one of
        at least 10⁻⁶ are cut."""
        return Chart(chart_bars(self.levels), highlight_from=1)


@checked(
    ATTACKER,
    ATTACKER_CONDITIONS,
    SPECIALTY,
    WEAPON,
    TARGETS,
    BASE_DIFFICULTY,
    RANGE_PENALTY,
    AIRCRAFT_PENALTY,
    NATURAL_SOAK_FROM,
    NATURAL_SOAK,
    ARMOUR_SOAK,
    TARGET_KIND,
    *SQUAD_INPUTS,
    *ONLY_20,
    TARGET,
    ATTACKS_BEFORE,
    TARGET_DEFENDS,
    TARGET_SPECIALTY,
    TARGET_POWER_POOL,
    TARGET_CONDITIONS,
    *RULES_OPTIONS,
)
def autofire_and_strafing(
    attacker: Character | None = None,
    conditions: Conditions | None = None,
    specialty: bool = False,
    weapon: Weapon | None = None,
    targets: int = 1,
    base_difficulty: int = 1,
    range_penalty: int = 0,
    aircraft_penalty: int = 0,
    natural_soak_from: str = "record",
    natural_soak: int = 2,
    armour_soak: int = 0,
    target_kind: str = "character",
    squad_henchmen: int = 5,
    squad_training: str = "regular",
    area_multiplier: int = 2,
    dodge_pool: int = 0,
    dodge_reroll_tens: bool = False,
    target: Character | None = None,
    attacks_before: int = 0,
    target_defends: str = "none",
    target_specialty: bool = False,
    target_power_pool: int = 0,
    target_conditions: Conditions | None = None,
    ruleset: str = V21,
    extra_successes: str = "die",
    net_from: str = "difficulty",
    burst_damage: str = "adds",
    burst_weapon_ammo: str = "bursts",
    mega_in_defense: str = "double",
    power_block_bonus: str = "decays",
    rate_reading: str = "unadjusted",
    losses_rounding: str = "down",
    defence_difficulty: str = "spend",
    daze_on_defence: str = "action",
    soak_rounding: str = "down",
) -> AutofireReport:
    """The "Autofire & strafing" calculator: a burst (or single shot) against one or
    more targets, with ammunition, difficulty, exact hit chance and the exact
    distribution of health levels each target loses after soak.

    "Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of
    ammunition …"; "Strafing: An autofire/burst attack may target multiple foes,
    adding +1 difficulty for every additional target, but applyies the results
    against all targets. A single attack may not target more enemies than it
    uses rounds of ammunition."

    The target: under 2.0 it dodges ("Characters can dodge (Dex + Athletics)");
    under 2.1 "Their Defense score adds to the difficulty of attacks against them,
    but is reduced by 1 for every successful or unsuccessful attack made against
    them", and it may actively defend or power block (:mod:`ruleslab.quickref.defence.dodge`).

    Burst(X): "Burst weapons have a slash in their Rate stat, with their
    effective rate of fire following the unadjusted RoF": a ``rate`` above 0
    caps the burst (:func:`ruleslab.quickref.autofire.rate_of_fire`). A squad target
    (``target_kind="squad"``) loses henchmen by the henchmen rules, an Area(X)
    weapon's post-soak damage × ``area_multiplier`` ("Area Vulnerability",
    :func:`ruleslab.quickref.attack.against_squad`).

    ``attacker``, ``target`` (its 2.1 traits) and their ``conditions`` and
    ``target_conditions`` are records (``None``: the form's defaults; a caller may
    pass their flat fields instead, ``dexterity=4``, ``target_wits=3``). The
    attacker's load, daze and actions add difficulty to the attack roll; the
    target's sprinting, daze and actions (its active defence one of them) add
    difficulty to its defence roll, read by ``defence_difficulty``
    (:mod:`ruleslab.quickref.conditions`, rules notes RN-COND-1 … RN-COND-5).

    The target's natural soak: from its record (``target``'s Quantum, Stamina and
    Mega-Stamina against the weapon's damage type, rounded per ``soak_rounding``) unless
    ``natural_soak_from="entered"``, when ``natural_soak`` overrides it (rules note
    RN-SOAK-4).
    """
    assert attacker is not None  # (filled in by @checked)
    assert conditions is not None
    assert target is not None
    assert target_conditions is not None
    assert weapon is not None
    conditions, stunned_step = single_action(conditions, "this attack")
    arms = weapon.stats()
    rate = rate_of_fire(weapon.rate, arms.rounds_per_attack, rate_reading) if weapon.rate else None
    maneuver, used = autofire_maneuver(
        burst=weapon.burst,
        burst_use=weapon.burst_use,
        targets=targets,
        ammunition=weapon.ammunition,
        rounds_per_attack=arms.rounds_per_attack,
        burst_damage=burst_damage,
        burst_weapon_ammo=burst_weapon_ammo,
        rate=rate,
    )
    values = {**locals(), **TARGET.flatten(target)}  # by name, for the step naming those not used
    natural, soak_step = target_soak(
        arms.damage_type, target, natural_soak_from, natural_soak, soak_rounding
    )
    if ruleset == V20:
        defence = target_dodge(dodge_pool, dodge_reroll_tens)
        unused: tuple[str, ...] = (
            *ONLY_21,
            *(("target_quantum",) if natural_soak_from == "entered" else ()),
            MEGA_IN_DEFENSE.name,
            POWER_BLOCK_BONUS.name,
        )
        why = DODGES_UNDER_20
    else:
        if target_conditions.active_defence and target_defends == "none":
            raise InputError(
                "target_defends",
                f"{TARGET_DEFENDS.label}: the target's conditions say it takes an active "
                "defence this turn, so choose it (or clear active_defence).",
            )
        defence = target_defense(
            dexterity=target.dexterity,
            mega_dexterity=target.mega_dexterity,
            wits=target.wits,
            mega_wits=target.mega_wits,
            attacks_before=attacks_before,
            action=target_defends,
            ability=target.athletics,
            specialty=target_specialty,
            power_pool=target_power_pool,
            quantum=target.quantum,
            mega_in_defense=mega_in_defense,
            power_block_bonus=power_block_bonus,
        )
        unused = ONLY_20_NAMES
        why = "under 2.1 the target's Defense and its defensive action replace the dodge"
    defence = _with_unused(defence, ruleset, unused, values, why)
    attack = resolve_attack(
        weapon=arms,
        dexterity=attacker.dexterity,
        mega_dexterity=attacker.mega_dexterity,
        ability=attacker.firearms,
        specialty=specialty,
        ruleset=ruleset,
        base_difficulty=base_difficulty,
        range_penalty=range_penalty,
        aircraft_penalty=aircraft_penalty,
        target=defence,
        natural_soak=natural,
        armour_soak=armour_soak,
        extra_successes=extra_successes,
        net_from=net_from,
        maneuver=maneuver,
        conditions=_with_step(
            on_roll(ATTACK_ROLL, attacker, conditions, ruleset=ruleset), stunned_step
        ),
        defence_conditions=_on_defence(defence, target, target_conditions, daze_on_defence),
        defence_difficulty=defence_difficulty,
    )
    squad = None
    if target_kind == "squad":
        squad = against_squad(
            attack,
            henchmen=squad_henchmen,
            training=squad_training,
            area_multiplier=area_multiplier,
            rounding=losses_rounding,
        )
    return AutofireReport(
        ammo_used=used,
        ammunition=weapon.ammunition,
        attack=attack,
        rate=rate,
        squad=squad,
        steps=(
            *before_soak(attack.steps, soak_step),
            *(squad.steps if squad is not None else ()),
        ),
    )


CALCULATOR = Calculator(
    key="autofire",
    title="Autofire & strafing",
    summary=(
        "A burst (or single shot) at one or more targets: ammunition used, difficulty, the "
        "exact chance to hit against the target's 2.0 dodge or 2.1 Defense and active "
        "defence, and the exact health levels each target loses after soak (or the henchmen "
        "a squad loses, × 2 to × 4 for an Area weapon), honouring the weapon's tags and Rate."
    ),
    compute=autofire_and_strafing,
    headlines=(
        Headline(
            ("p_hit", "squad_removed", "squad_p_cleared"),
            when=lambda v: v["target_kind"] == "squad",
            question="Does the burst hit the squad, and how many henchmen fall",
        ),
        Headline(
            ("p_any_hit", "p_hit", "expected_levels"),
            when=lambda v: v["targets"] > 1,
            question="Strafing: does it hit any target, and the levels each loses",
        ),
        Headline(
            ("p_hit", "expected_levels", "p_wound"),
            question="Does the attack hit, and the health levels lost",
        ),
    ),
    rules=(
        rule(QR, "Ranged Attack Maneuvers", "Autofire, Strafing"),
        rule(QR, "Weapon Tags"),
        rule(QR, "2.0 Rules", "Combat (Defensive Maneuvers, Soak, Ping, Armor Piercing)"),
        rule(QR, "2.1 Rules", "Specialties, Defenses"),
        rule(ALT, "Mass Combat", "Henchmen", "Damage Soak, Area Vulnerability"),
    ),
    options=tuple(p.name for p in RULES_OPTIONS),
    groups=(
        FieldGroup(ATTACKER.title, (*ATTACKER.flat_names[:3], "specialty")),
        FieldGroup(WEAPON.title, WEAPON.flat_names),
        FieldGroup(
            "The attack",
            ("targets", "base_difficulty", "range_penalty", "aircraft_penalty"),
        ),
        FieldGroup(
            ATTACKER_CONDITIONS.title, (*ATTACKER.flat_names[3:], *ATTACKER_CONDITIONS.flat_names)
        ),
        FieldGroup(
            "The target",
            ("target_kind", *TARGET_SOAK, "natural_soak_from", "natural_soak", "armour_soak"),
        ),
        FieldGroup("Target: a squad of henchmen", tuple(p.name for p in SQUAD_INPUTS)),
        FieldGroup("Target under 2.0", tuple(p.name for p in ONLY_20), shown_when=ONLY_UNDER_20),
        FieldGroup("Target under 2.1", ONLY_21, shown_when=ONLY_UNDER_21),
        FieldGroup(
            TARGET_CONDITIONS.title,
            (*TARGET_LOAD, *TARGET_TRACK, *TARGET_CONDITIONS.flat_names),
        ),
    ),
    views=(
        ChartView(
            title="Health levels lost per target",
            x_label="Health levels",
            chart=AutofireReport.chart,
            highlight="wounds (1 level or more)",
        ),
        ChartView(
            title="Henchmen removed per squad",
            x_label="Henchmen",
            chart=AutofireReport.squad_chart,
            highlight="removes at least one henchman",
        ),
    ),
    example=(
        "from ruleslab.calculators.autofire import autofire_and_strafing\n"
        "r = autofire_and_strafing(burst='medium', targets=3, tags='AP(2), Guided',\n"
        "                          target_dexterity=3, target_wits=4, attacks_before=1,\n"
        "                          target_defends='active', target_stamina=4, armour_soak=3)\n"
        "print(r.explain())\n"
        "print(autofire_and_strafing(ruleset='2.0', dodge_pool=3).figure('p_hit').text)\n"
        "print(autofire_and_strafing(tags='Area(2)', target_kind='squad',\n"
        "                            squad_henchmen=8).figure('squad_removed').text)"
    ),
)
