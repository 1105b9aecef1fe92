"""The Initiative & defence calculator (key ``defence``): initiative, then defence by ruleset.

The rules are in :mod:`ruleslab.quickref.initiative` (initiative and who acts first),
:mod:`ruleslab.quickref.defence` (2.0 defensive maneuvers, 2.1 Defense) and
:mod:`ruleslab.quickref.defence.turn` (the defender's conditions on them, 2.1 multiple
actions); this module declares the calculator's inputs, combines the rules into
one explained result (:class:`DefenceReport`) and its chart. See
:mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Chart, ChartView, Headline
from ruleslab.explain import Explained, Figure, Step
from ruleslab.inputs import (
    DAZE_ON_DEFENCE,
    DEFENCE_DIFFICULTY,
    MEGA_IN_DEFENSE,
    ONLY_UNDER_21,
    TRACK_HELP,
    TRACK_LABELS,
)
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.quickref.conditions import on_roll
from ruleslab.quickref.defence import DEFENSES, MULTIPLE, Defense, Maneuvers, PoolRoll
from ruleslab.quickref.defence.turn import (
    DEFENCE_POSITIONS,
    OWN_ACTION,
    MultipleActions,
    defense_21,
    maneuvers_20,
    multiple_actions,
    plan_turn,
)
from ruleslab.quickref.health import WOUND_TRAITS, wounds
from ruleslab.quickref.initiative import InitiativeOdds, initiative
from ruleslab.records import Role
from ruleslab.ruleset import V20, V21
from ruleslab.sources import QR, rule

__all__ = [
    "CALCULATOR",
    "CONDITIONS",
    "DEFENDER",
    "DefenceReport",
    "initiative_and_defence",
]


# --- inputs ---------------------------------------------------------------------------


OPPONENT_RATING = IntParam(
    "opponent_rating",
    "Opponent's initiative rating",
    minimum=0,
    maximum=40,
    help=(
        "The opponent's Dexterity + Wits + Mega-Dexterity + Mega-Wits (before the "
        "1d10). Used for the chance that the character acts first."
    ),
)
TIES = ChoiceParam(
    "ties",
    "Initiative ties",
    choices=(
        ("rating", "Higher rating acts first, else together"),
        ("reroll", "Reroll until someone wins"),
        ("together", "Both act at the same time"),
    ),
    help=(
        "The text does not say who acts first when both initiative totals are equal. "
        "‘Higher rating’: the higher Dex + Wits + Mega rating goes first (as compressed "
        "combat breaks ties by base initiative); equal ratings act at the same time. "
        "See rules note RN-DEF-2."
    ),
)
RULESET = replace(
    BASE_RULESET,
    help=(
        "2.0: dodge, parry and powerblock rolls. 2.1: the passive Defense score, active "
        "defence, power block and multiple actions. Initiative is the same in both "
        "(rules note RN-DEF-1). Default 2.1."
    ),
)
POWER_POOL = IntParam(
    "power_pool",
    "Power's dice pool",
    minimum=0,
    maximum=40,
    unit="dice",
    help=(
        "Dice of the power used to block (its activation roll). 0: the character has no "
        "blocking power."
    ),
)
SPECIALTY = BoolParam(
    "specialty",
    "Specialty applies",
    help=(
        "Tick if one of the character's specialties fits its defence (e.g. Athletics: dodge). "
        "2.1: +1 die to the active defence and power block rolls; 2.0: the dodge, parry and "
        "powerblock reroll 10s. It applies to every defence roll shown: read the one it fits. "
        "See rules note RN-DEF-8."
    ),
)
ATTACK_POOL = IntParam(
    "attack_pool",
    "Attack pool",
    minimum=0,
    maximum=40,
    unit="dice",
    help="Dice of the character's own action (e.g. Dex + Firearms), for the multiple-action odds.",
    shown_when=ONLY_UNDER_21,
)
ATTACK_DIFFICULTY = IntParam(
    "attack_difficulty",
    "Difficulty of the first action",
    minimum=1,
    maximum=30,
    help=(
        "Successes the first action needs (a target's Defense included); later actions add "
        "the multiple-action penalty."
    ),
    shown_when=ONLY_UNDER_21,
)
ATTACK_REROLLS = BoolParam(
    "attack_rerolls",
    "Action rerolls 10s",
    help="2.1: tick if a Mega-Attribute applies to the action's roll (10s are rerolled).",
    shown_when=ONLY_UNDER_21,
)
MULTIPLE_READING = ChoiceParam(
    "multiple_reading",
    "“Cumulative +1 difficulty” means",
    choices=(
        ("stepwise", "Each later action +1 more (0, +1, +2 …)"),
        ("all", "All actions at +1 per extra action"),
        ("compounding", "Penalties add up (0, +1, +3, +6 …)"),
    ),
    help=(
        "‘Each later action +1 more’: the 2nd action is at +1, the 3rd at +2. ‘All actions’: "
        "with 3 actions every one is at +2. ‘Penalties add up’: 0, +1, +3, +6. "
        "See rules note RN-DEF-7."
    ),
    shown_when=ONLY_UNDER_21,
)


DEFENCE_POSITION = ChoiceParam(
    "defence_position",
    "An active defence is",
    choices=DEFENCE_POSITIONS,
    help=(
        "Where the active defence falls among his actions this turn. ‘Last’: the defence "
        "is at the penalty of all his other actions (+(actions − 1) stepwise) and they "
        "keep their places. ‘First’: the defence is at +0 (stepwise) and his other "
        "actions each one place later. See rules note RN-DEF-9."
    ),
    shown_when=ONLY_UNDER_21,
)


WOUND_ON_INITIATIVE = ChoiceParam(
    "wound_on_initiative",
    "The wound penalty on initiative",
    choices=(
        ("pools", "Dice pools only: initiative (a rating + 1d10) untouched"),
        ("rating", "Initiative too: the penalty comes off his rating"),
    ),
    help=(
        "‘The character takes a -1 wound penalty …’ without saying on what. Default: off "
        "every dice pool he rolls (dodge, parry, power block, active defence, his actions), "
        "not initiative, which is a rating + 1d10 and not a pool (as the encounter tracker "
        "rolls it); ‘rating’: off his initiative rating too. Rules note RN-COND-7."
    ),
)
DEFENDER = Role(
    "defender",
    "The defender",
    Character,
    (
        "dexterity",
        "mega_dexterity",
        "wits",
        "mega_wits",
        "athletics",
        "melee_brawl",
        "might",
        *WOUND_TRAITS,  # Str, Mega-Str, Sta, Mega-Sta, Quantum, Willpower, Resistance
    ),
    help={
        "dexterity": "The character's Dexterity dots (Mega-Dexterity is separate).",
        "mega_dexterity": (
            "Mega-Dexterity dots. Initiative adds them once each; dodge, parry and "
            "Defense count each dot as 2 Dexterity dots."
        ),
        "wits": "The character's Wits dots (Mega-Wits is separate).",
        "mega_wits": (
            "Mega-Wits dots. Initiative adds them once each; Defense counts each dot as 2 "
            "Wits dots."
        ),
        "athletics": "Athletics dots: the dodge pool (2.0) and a defending ability (2.1).",
        "melee_brawl": (
            "Melee (armed) or Brawl (unarmed) dots: the parry pool (2.0), a defending "
            "ability (2.1)."
        ),
        "quantum": "Quantum dots: a 2.1 power block adds Quantum ÷ 2 (rounded down) to Defense.",
        "strength": "Strength dots: with Might and Mega-Strength they set the load's "
        "encumbrance tier (rules note RN-COND-1).",
        "might": "Might dots: added to Strength for the load's encumbrance tier.",
        **{k: v for k, v in TRACK_HELP.items() if k != "quantum"},
    },
    labels=TRACK_LABELS,
    shown_when_field={"quantum": ONLY_UNDER_21},
)
"""The defender: his Dex, Wits (and their Mega dots), defending abilities, Quantum, and the
Str, Might and Mega-Strength that set his load's encumbrance tier."""
QUANTUM = DEFENDER.param("quantum")
"""The defender's Quantum as the form shows it (named among the inputs 2.0 does not use)."""
CONDITIONS = Role(
    "conditions",
    "The defender's conditions",
    Conditions,
    (
        "sprinting",
        "actions",
        "levels_lost",
        "active_defence",
        "daze",
        "extra_actions_power",
        "load_kg",
    ),
    help={
        "sprinting": (
            "A sprinting character may take only defensive maneuvers and is at +1 difficulty "
            "to them (rules note RN-DEF-4)."
        ),
        "actions": (
            "Every action the character takes this turn, his active defence included if he "
            "takes one: two attacks and an active defence are 3, not 2 (2.1 multiple "
            "actions; rules notes RN-COND-3, RN-DEF-9)."
        ),
        "active_defence": (
            "2.1 (2.0 has none): ‘Characters may take an action to actively defend’: tick if "
            "one of the ‘Actions this turn’ counted above is an active defence. It is not "
            "added to them: with 3 actions ticked here, he declares 2 more (rules notes "
            "RN-COND-3, RN-DEF-9)."
        ),
    },
    labels={"active_defence": "One of these actions is an active defence"},
    defaults={"actions": 3},
    shown_when_field={"actions": ONLY_UNDER_21, "active_defence": ONLY_UNDER_21},
)
"""What he is in this turn: sprinting, how many actions, an active defence among them,
Dazed or Stunned, the load he carries (:func:`ruleslab.quickref.conditions.on_roll`)."""
ACTIONS = CONDITIONS.param("actions")
"""His actions this turn as the form shows them (named among the inputs 2.0 does not use)."""


# --- the result and the calculator -------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DefenceReport(Explained):
    """The "Initiative & defence" calculator: initiative (both rulesets), then 2.0
    maneuvers or 2.1 Defense and multiple actions, by ``ruleset``, under the defender's
    conditions."""

    ruleset: str
    initiative: InitiativeOdds
    maneuvers: Maneuvers | None
    defense: Defense | None
    multiple: MultipleActions | None

    @property
    def defence_roll(self) -> PoolRoll:
        """The defensive roll the chart shows: 2.0 dodge, 2.1 active defence."""
        if self.maneuvers is not None:
            return self.maneuvers.dodge
        assert self.defense is not None
        return self.defense.active

    def chart(self) -> Chart:
        """The defensive roll's successes: bars ``(str(k), P(exactly k successes))``
        (cut after the last bar of at least 10⁻⁶), highlighted from the roll's
        difficulty (the rolls that succeed: 1 success, one more per difficulty added)."""
        roll = self.defence_roll
        return Chart(chart_bars(roll.distribution.pmf), roll.difficulty)

    def figures(self) -> tuple[Figure, ...]:
        figs = list(self.initiative.figures())
        for part in (self.maneuvers, self.defense, self.multiple):
            if part is not None:
                figs += part.figures()
        return tuple(figs)


def _initiative_wounds(
    ruleset: str, defender: Character, conditions: Conditions, reading: str
) -> tuple[int, tuple[Step, ...]]:
    """The wound penalty his initiative rating takes (``reading`` "rating") or not
    ("pools", the default: initiative is a rating + 1d10, not a dice pool), with the step
    saying which (rules note RN-COND-7); nothing lost, nothing said."""
    if not conditions.levels_lost:
        return 0, ()
    w = wounds(ruleset, defender, conditions.levels_lost)
    if not w.penalty:
        return 0, ()
    if reading == "rating":
        return w.penalty, (Step(f"{w.step.text}: off his initiative rating too", w.step.rule),)
    return 0, (
        Step(
            f"{w.step.text}: off his dice pools; initiative, a rating + 1d10 and not a dice "
            f"pool, untouched (“{WOUND_ON_INITIATIVE.label}” says otherwise)",
            w.step.rule,
        ),
    )


@checked(
    RULESET,
    DEFENDER,
    OPPONENT_RATING,
    POWER_POOL,
    SPECIALTY,
    ATTACK_POOL,
    ATTACK_DIFFICULTY,
    ATTACK_REROLLS,
    CONDITIONS,
    TIES,
    MULTIPLE_READING,
    DEFENCE_POSITION,
    MEGA_IN_DEFENSE,
    DAZE_ON_DEFENCE,
    DEFENCE_DIFFICULTY,
    WOUND_ON_INITIATIVE,
)
def initiative_and_defence(
    ruleset: str = V21,
    defender: Character | None = None,
    opponent_rating: int = 6,
    power_pool: int = 0,
    specialty: bool = False,
    attack_pool: int = 6,
    attack_difficulty: int = 1,
    attack_rerolls: bool = False,
    conditions: Conditions | None = None,
    ties: str = "rating",
    multiple_reading: str = "stepwise",
    defence_position: str = "last",
    mega_in_defense: str = "double",
    daze_on_defence: str = "action",
    defence_difficulty: str = "spend",
    wound_on_initiative: str = "pools",
) -> DefenceReport:
    """Initiative and the chance to act first; under 2.0 the dodge, parry and
    powerblock rolls; under 2.1 Defense per attack, active defence, power block and
    the multiple-action difficulties and chances. The defender's conditions act on
    them (:mod:`ruleslab.quickref.defence.turn`): sprinting ("may not take any actions during
    the turn except defensive maneuvers, and are at +1 difficulty to all defensive
    maneuvers"), an active defence ("Characters may take an action to actively
    defend": one more action), Dazed/Stunned ("+1 difficulty to all actions", Stunned
    "may not take more than a single action") and the load's encumbrance. ``defender``
    and ``conditions`` are records (``None``: the form's defaults); a caller may instead
    pass their fields (``dexterity=4``, ``sprinting=True``)."""
    assert defender is not None  # (filled in by @checked)
    assert conditions is not None
    d = defender
    penalty, wound_steps = _initiative_wounds(ruleset, d, conditions, wound_on_initiative)
    init = initiative(
        d.dexterity, d.wits, d.mega_dexterity, d.mega_wits, opponent_rating, ties, penalty
    )
    steps = [*wound_steps, *init.steps]
    maneuvers = defense_ = multiple = None
    if ruleset == V20:
        maneuvers = maneuvers_20(
            d, conditions, power_pool, specialty, daze_on_defence, defence_difficulty
        )
        steps += maneuvers.steps
        steps.append(
            Step(
                "2.0: the text gives no multiple-action rule (2.1 replaced subtracting dice), "
                "so multiple actions are shown under 2.1 only",
                MULTIPLE,
            )
        )
        unused = ", ".join(
            f"{p.label} {p.shown(value)}"
            for p, value in (
                (QUANTUM, d.quantum),
                (ATTACK_POOL, attack_pool),
                (ATTACK_DIFFICULTY, attack_difficulty),
                (ACTIONS, conditions.actions),
                (ATTACK_REROLLS, attack_rerolls),
                (MULTIPLE_READING, multiple_reading),
                (MEGA_IN_DEFENSE, mega_in_defense),
            )
        )
        steps.append(
            Step(
                f"These inputs serve the 2.1 Defense, power block and multiple actions and are "
                f"not used under 2.0: {unused}",
                DEFENSES,
            )
        )
        if conditions.active_defence:
            steps.append(
                Step(
                    "2.0 has no active defence (it came with 2.1): the ticked active defence "
                    "is not used",
                    DEFENSES,
                )
            )
    else:
        assert ruleset == V21
        turn = plan_turn(conditions, multiple_reading, defence_position)
        defense_ = defense_21(
            d, conditions, power_pool, turn, mega_in_defense, specialty, defence_difficulty
        )
        own = on_roll(OWN_ACTION, d, conditions, ruleset=ruleset, count_actions=False)
        multiple = multiple_actions(
            attack_pool, attack_difficulty, turn, attack_rerolls, multiple_reading, own
        )
        steps += defense_.steps
        steps += multiple.steps
        steps.append(
            Step(
                "Active defence is an action too: taken with other actions it counts among "
                "them for the multiple-action penalty",
                DEFENSES,
            )
        )
    return DefenceReport(
        ruleset=ruleset,
        initiative=init,
        maneuvers=maneuvers,
        defense=defense_,
        multiple=multiple,
        steps=tuple(steps),
    )


CALCULATOR = Calculator(
    key="defence",
    title="Initiative & defence",
    summary=(
        "Initiative and the chance to act first; 2.0 dodge, parry and powerblock rolls; "
        "2.1 Defense against each attack, active defence, power block and the odds of "
        "multiple actions."
    ),
    compute=initiative_and_defence,
    headlines=(
        Headline(
            ("p_first", "dodge", "parry"),
            when=lambda v: v["ruleset"] == "2.0",
            question="Under 2.0: does he act first, and his dodge and parry rolls",
        ),
        Headline(
            ("power_block", "power_block_roll", "defense"),
            when=lambda v: v["power_pool"] > 0,
            question="How well a power block defends him",
        ),
        Headline(
            ("active_defence", "defense", "p_first"),
            when=lambda v: v["active_defence"],
            question="How well his active defence defends him",
        ),
        Headline(
            ("p_all_actions", "action_chances", "defense"),
            when=lambda v: v["actions"] > 1,
            question="Splitting his actions: does each succeed, and his Defense",
        ),
        Headline(
            ("p_first", "defense", "initiative"),
            question="Does he act first, and his Defense",
        ),
    ),
    rules=(
        rule(QR, "2.0 Rules", "Combat (Initiative, Defensive Maneuvers)"),
        rule(QR, "Movement", "Sprinting"),
        rule(QR, "2.1 Rules", "Defenses, Multiple Actions"),
    ),
    options=(
        "ties",
        "multiple_reading",
        "defence_position",
        "mega_in_defense",
        "daze_on_defence",
        "defence_difficulty",
        "wound_on_initiative",
    ),
    views=(
        ChartView(
            title="Defence roll (2.0 dodge, 2.1 active defence): successes",
            x_label="Successes",
            chart=DefenceReport.chart,
            highlight="the defence succeeds",
        ),
    ),
    example=(
        "from ruleslab.calculators.defence import initiative_and_defence\n"
        "from ruleslab.character import Character, Conditions\n"
        "hero = Character(dexterity=3, mega_dexterity=1, wits=4, athletics=2, quantum=4)\n"
        "turn = Conditions(actions=2, active_defence=True, daze='dazed')\n"
        "report = initiative_and_defence(defender=hero, conditions=turn, power_pool=6)\n"
        "print(report.explain())\n"
        "print(initiative_and_defence(ruleset='2.0', sprinting=True).figure('dodge').text)"
    ),
)
