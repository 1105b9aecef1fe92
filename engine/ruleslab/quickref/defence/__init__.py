"""Defence: 2.0 defensive maneuvers, 2.1 Defense, and the rule of 2.1 multiple actions.

Quick reference › 2.0 Rules › Combat:

    Defensive Maneuvers: Characters can dodge (Dex + Athletics), parry (Dex +
    Melee/Brawl), or powerblock (power activation roll) incoming attacks.

Quick reference › Movement:

    Sprinting: … Sprinting characters may not take any actions during the turn
    except defensive maneuvers, and are at +1 difficulty to all defensive
    maneuvers they take.

Quick reference › 2.1 Rules › Defenses:

    Characters have a Defense score of (lower of Dexterity or Wits, divided by
    2). Round defenses down. Their Defense score adds to the difficulty of
    attacks against them, but is reduced by 1 for every successful or
    unsuccessful attack made against them.

    Characters may take an action to actively defend, using the higher of Dex or
    Wits, plus the defending ability. Characters may also power block, adding an
    additional (Quantum/2) to their Defense, as well as using the power's dice
    pool.

Quick reference › 2.1 Rules › Multiple Actions (the rolls, with the defender's
conditions: :func:`ruleslab.quickref.defence.turn.multiple_actions`):

    Every additional action past the first adds a cumulative +1 difficulty
    penalty rather than subtracting dice.

Difficulty is the number of successes a roll needs (:mod:`ruleslab.dice`).
Readings of silent or ambiguous text: ``docs/rules-notes/defence.md``
(RN-DEF-*). Initiative is :mod:`ruleslab.quickref.initiative`; the "Initiative &
defence" calculator combining them is :mod:`ruleslab.calculators.defence`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import SuccessDistribution, dice_text, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.quickref.conditions import MULTIPLE_ACTIONS as MULTIPLE
from ruleslab.quickref.conditions import Modifier
from ruleslab.quickref.mega import MEGA_ATTRIBUTES, effective
from ruleslab.quickref.movement import SPRINTING
from ruleslab.quickref.specialties import SPECIALTIES_20, SPECIALTIES_21
from ruleslab.sources import QR, rule

__all__ = [
    "BASE_DEFENCE_DIFFICULTY",
    "DEFENSES",
    "MULTIPLE",
    "NOTHING_ADDED",
    "ActiveDefence",
    "Defense",
    "DefenseScore",
    "Maneuvers",
    "PoolRoll",
    "action_penalties",
    "active_defence",
    "defending_ability",
    "defense",
    "defense_per_attack",
    "defense_score",
    "defensive_maneuvers",
    "ordinal",
    "per_attack_text",
    "pool_roll",
]

MANEUVERS = rule(QR, "2.0 Rules", "Combat", "Defensive Maneuvers")
DEFENSES = rule(QR, "2.1 Rules", "Defenses")

BASE_DEFENCE_DIFFICULTY = 1
"""A defensive roll needs one success; sprinting makes it two (rules note RN-DEF-4)."""

NOTHING_ADDED = Modifier(difficulty=0, allowed=True, steps=())
"""No conditions on a roll: what the rule functions' ``…_added`` arguments default to.
:mod:`ruleslab.quickref.defence.turn` passes the defender's
(:func:`ruleslab.quickref.conditions.on_roll`)."""

ORDINALS = ("1st", "2nd", "3rd")


def ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th"."""
    if n <= 3:
        return ORDINALS[n - 1]
    return f"{n}th"


# --- one defensive or attack roll ---------------------------------------------------


@dataclass(frozen=True)
class PoolRoll:
    """One roll: ``dice`` d10 (10s rerolled or not) needing ``difficulty`` successes."""

    name: str
    dice: int
    reroll_tens: bool
    difficulty: int
    distribution: SuccessDistribution
    p_success: Fraction
    mean: Fraction

    def text(self) -> str:
        dice = dice_text(self.dice)
        if self.reroll_tens:
            dice += " (10s reroll)"
        return (
            f"{dice}: {fmt_prob(self.p_success)} to get {self.difficulty}+ "
            f"{'success' if self.difficulty == 1 else 'successes'}, "
            f"mean {fmt_num(self.mean)}"
        )


def pool_roll(name: str, dice: int, difficulty: int, reroll_tens: bool = False) -> PoolRoll:
    """The exact distribution of ``dice`` d10 and P(at least ``difficulty`` successes)."""
    dist = pool_distribution(dice, reroll_tens=reroll_tens, upto=difficulty)
    mean = dist.full_mean if dist.full_mean is not None else dist.mean()
    return PoolRoll(
        name=name,
        dice=dice,
        reroll_tens=reroll_tens,
        difficulty=difficulty,
        distribution=dist,
        p_success=dist.at_least(difficulty),
        mean=mean,
    )


def _roll_step(roll: PoolRoll, rule_: str) -> Step:
    return Step(f"{roll.name}: {roll.text()}", rule_)


def _defence_difficulty(sprinting: bool, what: str) -> tuple[int, list[Step]]:
    if not sprinting:
        return BASE_DEFENCE_DIFFICULTY, []
    d = BASE_DEFENCE_DIFFICULTY + 1
    return d, [
        Step(
            f"Sprinting: +1 difficulty to {what}, so they need {d} successes (rules note RN-DEF-4)",
            SPRINTING,
        )
    ]


# --- 2.0 defensive maneuvers ----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Maneuvers(Explained):
    """2.0 defensive maneuvers: dodge, parry and (with a power) powerblock rolls."""

    dexterity: int
    dodge: PoolRoll
    parry: PoolRoll
    powerblock: PoolRoll | None

    def figures(self) -> tuple[Figure, ...]:
        pb = self.powerblock
        return (
            Figure("dodge", "Dodge (Dex + Athletics)", self.dodge, self.dodge.text()),
            Figure("parry", "Parry (Dex + Melee/Brawl)", self.parry, self.parry.text()),
            Figure(
                "powerblock",
                "Powerblock (power's roll)",
                pb,
                pb.text() if pb else "— (no power)",
            ),
        )


def defensive_maneuvers(
    dexterity: int,
    mega_dexterity: int,
    athletics: int,
    melee_brawl: int,
    power_pool: int,
    sprinting: bool = False,
    specialty: bool = False,
    dodge_added: Modifier = NOTHING_ADDED,
    parry_added: Modifier = NOTHING_ADDED,
    powerblock_added: Modifier = NOTHING_ADDED,
    notes: tuple[Step, ...] = (),
) -> Maneuvers:
    """2.0: "dodge (Dex + Athletics), parry (Dex + Melee/Brawl), or powerblock (power
    activation roll)". Each Mega-Dexterity dot counts as 2 Dexterity dots in the
    pools (Quick reference › Mega-Attributes); 2.0 Mega-Attributes give no reroll.
    2.0 Specialties: "Specialties allow a character to reroll 10s if applicable":
    with ``specialty`` every defence roll rerolls 10s (rules note RN-DEF-8).
    ``…_added``: the difficulty the defender's conditions add to each roll, its steps
    said before the roll's; ``notes``: steps on the conditions, before the rolls."""
    dex = effective("Dexterity", dexterity, mega_dexterity, purpose="in the dodge and parry pools")
    steps: list[Step] = [dex.step] if dex.step else []
    difficulty, sprint_steps = _defence_difficulty(sprinting, "all defensive maneuvers")
    steps += sprint_steps
    if not sprinting:
        steps.append(
            Step(
                "A defensive maneuver succeeds with 1 success or more (rules note RN-DEF-4)",
                MANEUVERS,
            )
        )
    steps += notes
    dodge = pool_roll(
        "Dodge",
        dodge_added.pool(dex.value + athletics),
        difficulty + dodge_added.difficulty,
        specialty,
    )
    parry = pool_roll(
        "Parry",
        parry_added.pool(dex.value + melee_brawl),
        difficulty + parry_added.difficulty,
        specialty,
    )
    steps += dodge_added.steps
    steps.append(
        Step(
            f"Dodge pool = Dex {dex.value} + Athletics {athletics}{dodge_added.less()} = "
            f"{dodge.dice}; {dodge.text()}",
            MANEUVERS,
        )
    )
    steps += parry_added.steps
    steps.append(
        Step(
            f"Parry pool = Dex {dex.value} + Melee/Brawl {melee_brawl}{parry_added.less()} = "
            f"{parry.dice}; "
            f"{parry.text()}",
            MANEUVERS,
        )
    )
    powerblock = None
    if power_pool:
        pb_difficulty = difficulty + powerblock_added.difficulty
        powerblock = pool_roll(
            "Powerblock", powerblock_added.pool(power_pool), pb_difficulty, specialty
        )
        steps += powerblock_added.steps
        steps.append(
            Step(f"Powerblock = the power's activation roll, {powerblock.text()}", MANEUVERS)
        )
    else:
        steps.append(Step("No blocking power (power's dice pool 0): no powerblock", MANEUVERS))
    if specialty:
        rolls = "dodge, parry and powerblock" if power_pool else "dodge and parry"
        text = f"Specialty (2.0): the {rolls} rolls reroll 10s (rules note RN-DEF-8)"
        steps.append(Step(text, SPECIALTIES_20))
    steps.append(
        Step(
            "2.0: Mega-Attributes do not reroll 10s (only Specialties do, when they apply)",
            SPECIALTIES_20,
        )
    )
    return Maneuvers(
        dexterity=dex.value, dodge=dodge, parry=parry, powerblock=powerblock, steps=tuple(steps)
    )


# --- 2.1 Defense ----------------------------------------------------------------------


def defending_ability(athletics: int, melee_brawl: int) -> tuple[str, int]:
    """The defending ability of a 2.1 active defence: the higher of Athletics and
    Melee/Brawl (Athletics on a tie), its name and rating."""
    if athletics >= melee_brawl:
        return "Athletics", athletics
    return "Melee/Brawl", melee_brawl


def defense_per_attack(score: int) -> tuple[int, ...]:
    """Defense against the 1st, 2nd, … attack of a round until it reaches 0 (last entry 0)."""
    return tuple(range(score, -1, -1))


def per_attack_text(values: tuple[int, ...]) -> str:
    """ "1st +2, 2nd +1, 3rd on +0" (the last value holds for every later attack)."""
    if len(values) == 1:
        return f"+{values[0]} against every attack"
    parts = [f"{ordinal(i + 1)} +{v}" for i, v in enumerate(values[:-1])]
    parts.append(f"{ordinal(len(values))} on +{values[-1]}")
    return ", ".join(parts)


@dataclass(frozen=True)
class DefenseScore:
    """The 2.1 Defense ``score`` (Mega dots as ``mega_in_defense`` says, RN-DEF-5), and
    the effective ``dexterity`` and ``wits`` (Mega dots ×2) an active defence uses;
    ``pool_steps`` explain those when the score left the Mega dots out."""

    score: int
    dexterity: int
    wits: int
    steps: tuple[Step, ...]
    pool_steps: tuple[Step, ...]


def defense_score(
    dexterity: int,
    mega_dexterity: int,
    wits: int,
    mega_wits: int,
    mega_in_defense: str = "double",
) -> DefenseScore:
    """2.1: "Characters have a Defense score of (lower of Dexterity or Wits, divided
    by 2). Round defenses down." ``mega_in_defense``: ``double`` (each Mega dot
    counts as 2 dots) or ``ignore`` (rules note RN-DEF-5)."""
    steps: list[Step] = []
    pool_steps: list[Step] = []
    dex = effective("Dexterity", dexterity, mega_dexterity)
    wit = effective("Wits", wits, mega_wits)
    if mega_in_defense == "double":
        d_dex, d_wit = dex.value, wit.value
        steps += [s.step for s in (dex, wit) if s.step]
        if dex.step or wit.step:
            steps.append(
                Step(
                    "Mega dots count as 2 in the Defense score and the active defence pool "
                    "(rules note RN-DEF-5)",
                    MEGA_ATTRIBUTES,
                )
            )
    else:
        d_dex, d_wit = dexterity, wits
        if mega_dexterity or mega_wits:
            steps.append(
                Step(
                    "Mega-Dexterity and Mega-Wits are not counted in the Defense score "
                    "(option; rules note RN-DEF-5)",
                    DEFENSES,
                )
            )
        pool_steps = [s.step for s in (dex, wit) if s.step]
    lower = min(d_dex, d_wit)
    which = "Dexterity" if d_dex <= d_wit else "Wits"
    score = lower // 2
    steps.append(
        Step(
            f"Defense = ⌊lower of Dex {d_dex} or Wits {d_wit} ({which} {lower}) ÷ 2⌋ = {score}",
            DEFENSES,
        )
    )
    return DefenseScore(score, dex.value, wit.value, tuple(steps), tuple(pool_steps))


@dataclass(frozen=True)
class ActiveDefence:
    """A 2.1 active defence roll, the attribute it used and the steps saying why."""

    roll: PoolRoll
    attribute: str
    steps: tuple[Step, ...]


def active_defence(
    score: DefenseScore,
    mega_dexterity: int,
    mega_wits: int,
    ability: int,
    ability_text: str,
    difficulty: int = BASE_DEFENCE_DIFFICULTY,
    specialty: bool = False,
    added: Modifier = NOTHING_ADDED,
) -> ActiveDefence:
    """2.1: "Characters may take an action to actively defend, using the higher of Dex
    or Wits, plus the defending ability." Mega dots count ×2 in the pool, and the
    Mega-Attribute of the attribute used rerolls 10s ("Mega-Attributes allow a
    character to reroll 10s if applicable"); a fitting specialty adds +1 die
    ("Specialties allow a character to add +1 to their dice pool if applicable",
    rules note RN-DEF-8). ``ability_text`` names the defending ability in the step;
    ``added``: his conditions, for the dice they take off (his wound penalty, RN-COND-7)."""
    dex_pool, wit_pool = score.dexterity, score.wits
    if dex_pool > wit_pool or (dex_pool == wit_pool and (mega_dexterity or not mega_wits)):
        attr, attr_value, mega = "Dexterity", dex_pool, mega_dexterity
    else:
        attr, attr_value, mega = "Wits", wit_pool, mega_wits
    bonus = 1 if specialty else 0
    roll = pool_roll(
        "Active defence",
        added.pool(attr_value + ability + bonus),
        difficulty,
        reroll_tens=mega > 0,
    )
    plus = " + specialty 1" if specialty else ""
    steps = [
        Step(
            f"Active defence (an action) = higher of Dex {dex_pool} or Wits {wit_pool} "
            f"({attr}) + defending ability ({ability_text}){plus}{added.less()} = {roll.dice} dice "
            "(rules note RN-DEF-6)",
            DEFENSES,
        )
    ]
    if mega:
        steps.append(
            Step(f"Mega-{attr} {mega} (2.1): the active defence roll rerolls 10s", SPECIALTIES_21)
        )
    if specialty:
        text = "Specialty (2.1): +1 die to the active defence roll (rules note RN-DEF-8)"
        steps.append(Step(text, SPECIALTIES_21))
    return ActiveDefence(roll=roll, attribute=attr, steps=tuple(steps))


@dataclass(frozen=True, kw_only=True)
class Defense(Explained):
    """2.1 Defense: the passive score per successive attack, active defence and power block.

    ``per_attack[i]`` is the difficulty added to the (i+1)-th attack of a round;
    the last entry (0) holds for every later attack. ``power_block_per_attack`` is
    the same with a power block's Quantum ÷ 2 added (``None`` without a power).
    """

    score: int
    per_attack: tuple[int, ...]
    active: PoolRoll
    active_attribute: str
    power_block_score: int | None
    power_block_per_attack: tuple[int, ...] | None
    power_roll: PoolRoll | None

    def figures(self) -> tuple[Figure, ...]:
        pbs = self.power_block_per_attack
        return (
            Figure(
                "defense",
                "Defense against each attack",
                self.per_attack,
                per_attack_text(self.per_attack),
            ),
            Figure("active_defence", "Active defence roll", self.active, self.active.text()),
            Figure(
                "power_block",
                "Power block: Defense against each attack",
                pbs,
                per_attack_text(pbs) if pbs else "— (no power)",
            ),
            Figure(
                "power_block_roll",
                "Power block roll",
                self.power_roll,
                self.power_roll.text() if self.power_roll else "— (no power)",
            ),
        )


def defense(
    dexterity: int,
    mega_dexterity: int,
    wits: int,
    mega_wits: int,
    athletics: int,
    melee_brawl: int,
    quantum: int,
    power_pool: int,
    sprinting: bool = False,
    mega_in_defense: str = "double",
    specialty: bool = False,
    active_added: Modifier = NOTHING_ADDED,
    power_block_added: Modifier = NOTHING_ADDED,
) -> Defense:
    """2.1 Defense = ⌊lower of Dexterity or Wits ÷ 2⌋, "reduced by 1 for every
    successful or unsuccessful attack made against them"; active defence ("the
    higher of Dex or Wits, plus the defending ability"); power block ("adding an
    additional (Quantum/2) to their Defense, as well as using the power's dice pool").
    With ``specialty`` the active defence and power block rolls get +1 die (2.1
    Specialties, rules note RN-DEF-8). ``active_added`` and ``power_block_added``: the
    difficulty the defender's conditions add to those rolls, with their steps."""
    ds = defense_score(dexterity, mega_dexterity, wits, mega_wits, mega_in_defense)
    score = ds.score
    per_attack = defense_per_attack(score)
    steps = list(ds.steps)
    steps.append(
        Step(
            f"Each attack against the character, hit or miss, lowers Defense by 1 for the rest "
            f"of the round, never below 0: {per_attack_text(per_attack)} "
            "(rules note RN-DEF-3)",
            DEFENSES,
        )
    )
    steps += ds.pool_steps

    # active defence: the higher attribute (Mega dots counted ×2) plus the defending ability
    ability_name, ability = defending_ability(athletics, melee_brawl)
    difficulty, sprint_steps = _defence_difficulty(sprinting, "active defence and power block")
    what = f"{ability_name} {ability}, the higher of Athletics and Melee/Brawl"
    act_difficulty = difficulty + active_added.difficulty
    act = active_defence(
        ds, mega_dexterity, mega_wits, ability, what, act_difficulty, specialty, active_added
    )
    active = act.roll
    steps += act.steps
    steps += sprint_steps
    steps += active_added.steps
    steps.append(
        Step(
            f"Active defence needs {act_difficulty} "
            f"{'success' if act_difficulty == 1 else 'successes'}: {active.text()}; how its "
            "successes count against the attack is not in the text (rules note RN-DEF-6)",
            DEFENSES,
        )
    )

    pb_score = pb_per_attack = power_roll = None
    if power_pool:
        half_q = quantum // 2
        pb_score = score + half_q
        pb_per_attack = defense_per_attack(pb_score)
        bonus = 1 if specialty else 0
        pb_difficulty = difficulty + power_block_added.difficulty
        power_roll = pool_roll(
            "Power block", power_block_added.pool(power_pool + bonus), pb_difficulty
        )
        steps.append(
            Step(
                f"Power block: Defense {score} + ⌊Quantum {quantum} ÷ 2⌋ {half_q} = {pb_score}; "
                f"{per_attack_text(pb_per_attack)}",
                DEFENSES,
            )
        )
        steps += power_block_added.steps
        pool = f"the power's pool {power_pool} + specialty 1" if specialty else "the power's pool"
        steps.append(Step(f"Power block roll, {pool}: {power_roll.text()}", DEFENSES))
        if specialty:
            text = "Specialty (2.1): +1 die to the power block roll (rules note RN-DEF-8)"
            steps.append(Step(text, SPECIALTIES_21))
    else:
        steps.append(Step("No blocking power (power's dice pool 0): no power block", DEFENSES))
    return Defense(
        score=score,
        per_attack=per_attack,
        active=active,
        active_attribute=act.attribute,
        power_block_score=pb_score,
        power_block_per_attack=pb_per_attack,
        power_roll=power_roll,
        steps=tuple(steps),
    )


# --- 2.1 multiple actions -------------------------------------------------------------


def action_penalties(actions: int, reading: str = "stepwise") -> tuple[int, ...]:
    """The difficulty added to each of ``actions`` actions in one turn (RN-DEF-7).

    ``stepwise``: 0, 1, 2, …; ``all``: every action at ``actions − 1``;
    ``compounding``: 0, 1, 3, 6, … (the k-th action at 1 + 2 + … + (k−1)).
    """
    if reading == "stepwise":
        return tuple(range(actions))
    if reading == "all":
        return (actions - 1,) * actions
    if reading == "compounding":
        return tuple(k * (k - 1) // 2 for k in range(1, actions + 1))
    raise ValueError(f"unknown reading {reading!r}")
