"""The Lifting & encumbrance calculator (key ``lifting``): what a character lifts and carries.

The rules are in :mod:`ruleslab.quickref.lifting` (capacity, the Mega-Strength
multiplier, the lift roll) and :mod:`ruleslab.quickref.encumbrance` (the carried load's
tier and its effects); this module declares the calculator's inputs and
combines the two rules into one explained result (:class:`LiftingReport`).
See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Headline
from ruleslab.explain import Explained, Figure
from ruleslab.inputs import BEYOND_HEAVY, HEAVY_FROM, TRACK_HELP, TRACK_LABELS, one_roll_dice_rules
from ruleslab.params import ChoiceParam, NumberParam, checked
from ruleslab.quickref.conditions import RollKind, load_encumbrance, on_roll
from ruleslab.quickref.encumbrance import Encumbrance
from ruleslab.quickref.health import WOUND_TRAITS
from ruleslab.quickref.lifting import LiftResult, lift
from ruleslab.records import Role
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "LIFTER", "LIFTER_CONDITIONS", "LiftingReport", "lifting_and_encumbrance"]

LIFTER = Role(
    "lifter",
    "The lifter",
    Character,
    ("strength", "might", "mega_strength", *WOUND_TRAITS[2:]),
    labels=TRACK_LABELS,
    help=TRACK_HELP,
    defaults={"strength": 3},
)
"""The character who lifts and carries: his Str, Might and Mega-Strength."""
LIFTER_CONDITIONS = Role(
    "conditions",
    "The lifter's conditions",
    Conditions,
    ("load_kg", "daze", "levels_lost"),
    applies=("sprinting", "actions"),  # a Python caller's record: on_roll applies them
    defaults={"load_kg": 20.0},
)
"""What he carries (the encumbrance tier) and whether he is Dazed or Stunned: both
add difficulty to the lift roll (:func:`ruleslab.quickref.conditions.on_roll`)."""
LIFT_ROLL = RollKind("the lift roll", physical="other")
"""Lifting strains but neither moves nor endures: "+1 difficulty to all other physical
actions" at Heavy (rules note RN-COND-1)."""

RULESET, SPECIALTY = one_roll_dice_rules(
    "the lift roll",
    fits="this lift",
    mega="Mega-Strength",
    mega_20="Mega-Strength gives no reroll and ",
    note="RN-LIFT-4",
)
NET_SUCCESSES = ChoiceParam(
    "net_successes",
    "“Net successes” means",
    choices=(
        ("beyond", "Successes beyond the difficulty"),
        ("rolled", "All successes rolled"),
    ),
    help=(
        "An exceptional success (more than 5 net successes) adds +2 to Str + Might instead "
        "of +1. ‘Beyond the difficulty’: at least 6 successes over the difficulty "
        "(difficulty 6 needs 12). ‘All successes rolled’: at least 6 successes in all "
        "(and at least the difficulty). See rules note RN-LIFT-1."
    ),
)
LOW_DIFFICULTY = ChoiceParam(
    "low_difficulty",
    "Difficulty below 1",
    choices=(
        ("one", "Raise it to 1"),
        ("zero", "Difficulty 0: automatic success"),
    ),
    help=(
        "For objects needing Str + Might 3 or less the formula gives difficulty 0 or −1. "
        "‘Raise it to 1’: the roll still needs one success. ‘Automatic success’: the "
        "+1 comes without a success (an exceptional success still has to be rolled). "
        "See rules note RN-LIFT-2."
    ),
)
MEGA_ON_ROLL = ChoiceParam(
    "mega_on_roll",
    "Mega-Strength on the lift roll",
    choices=(
        ("multiplier", "Only through the multiplier"),
        ("dice", "Also +2 dice per dot"),
    ),
    help=(
        "Mega-Strength already multiplies what each dot of Str + Might lifts. ‘Only "
        "through the multiplier’ keeps the pool at Str + Might; ‘Also +2 dice per dot’ "
        "counts each Mega-Strength dot as 2 Strength dots in the pool too. "
        "See rules note RN-LIFT-3."
    ),
)
OBJECT_KG = NumberParam(
    "object_kg",
    "Object's weight",
    unit="kg",
    minimum=0,
    maximum=1e12,
    help=(
        "What the character tries to lift, in kilograms. Up to the lift capacity needs no "
        "roll; one or two 30 kg steps (× the Mega-Strength multiplier) beyond it need a "
        "Str + Might roll; more cannot be lifted."
    ),
)


@dataclass(frozen=True, kw_only=True)
class LiftingReport(Explained):
    """The "Lifting & encumbrance" calculator's result: the lift and the carried load."""

    lift: LiftResult
    encumbrance: Encumbrance

    @property
    def capacity_kg(self) -> int:
        return self.lift.capacity_kg

    @property
    def p_lift(self) -> Fraction:
        return self.lift.p_lift

    def figures(self) -> tuple[Figure, ...]:
        enc = self.encumbrance
        lift_figs = {f.key: f for f in self.lift.figures()}
        return (
            lift_figs["capacity"],
            Figure("tier", "Encumbrance", enc.tier, enc.tier_label),
            Figure("effects", "Encumbrance effects", enc.effects, enc.effects.text()),
            lift_figs["roll_needed"],
            lift_figs["difficulty"],
            lift_figs["p_lift"],
        )


RULES_OPTIONS = (
    RULESET,
    SPECIALTY,
    NET_SUCCESSES,
    LOW_DIFFICULTY,
    MEGA_ON_ROLL,
    HEAVY_FROM,
    BEYOND_HEAVY,
)
"""The rules version, the specialty and the readings of the text: the form's options."""


@checked(LIFTER, LIFTER_CONDITIONS, OBJECT_KG, *RULES_OPTIONS)
def lifting_and_encumbrance(
    lifter: Character | None = None,
    conditions: Conditions | None = None,
    object_kg: float = 100.0,
    ruleset: str = V21,
    specialty: bool = False,
    net_successes: str = "beyond",
    low_difficulty: str = "one",
    mega_on_roll: str = "multiplier",
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
) -> LiftingReport:
    """The "Lifting & encumbrance" calculator: lift capacity, the carried load's tier
    and effects, and the roll (and exact chance) to lift one object.

    "Characters can lift 30kg times their (Strength + Might) total. To lift more
    than that, a character requires a Str + Might roll" (:func:`ruleslab.quickref.lifting.lift`);
    "A character is unencumbered if he carries up to 5 kg per dot of Str + Might"
    … (:func:`ruleslab.quickref.encumbrance.encumbrance`). The load and a Dazed or Stunned
    state add their difficulty to the lift roll (:func:`ruleslab.quickref.conditions.on_roll`).
    ``lifter`` and ``conditions`` are records (``None``: the form's defaults); a
    caller may instead pass their fields (``strength=4``).
    """
    assert lifter is not None  # (filled in by @checked)
    assert conditions is not None
    enc = load_encumbrance(lifter, conditions, heavy_from, beyond_heavy)
    modifier = on_roll(
        LIFT_ROLL,
        lifter,
        conditions,
        ruleset=ruleset,
        load=enc,
    )
    lifted = lift(
        lifter.strength,
        lifter.might,
        lifter.mega_strength,
        object_kg,
        ruleset=ruleset,
        specialty=specialty,
        net_successes=net_successes,
        low_difficulty=low_difficulty,
        mega_on_roll=mega_on_roll,
        conditions=modifier,
    )
    # The encumbrance steps repeat the multiplier and capacity lines; keep them once.
    seen = {s.text for s in lifted.steps}
    enc_steps = tuple(s for s in enc.steps if s.text not in seen)
    return LiftingReport(lift=lifted, encumbrance=enc, steps=lifted.steps + enc_steps)


CALCULATOR = Calculator(
    key="lifting",
    title="Lifting & encumbrance",
    summary=(
        "How much a character lifts and carries: lift capacity, the encumbrance tier and "
        "its effects, and the exact odds of a lift roll for a heavier object."
    ),
    compute=lifting_and_encumbrance,
    headlines=(
        Headline(
            ("roll_needed", "p_lift", "capacity"),
            when=lambda v: v["object_kg"] > 0,
            question="Can the object be lifted, and the chance",
        ),
        Headline(
            ("capacity", "tier", "effects"),
            question="No object: what the character lifts and what his load costs him",
        ),
    ),
    rules=(rule(QR, "Mega-Attributes, Lifting, Encumbrance"),),
    options=tuple(p.name for p in RULES_OPTIONS),
    example=(
        "from ruleslab.calculators.lifting import lifting_and_encumbrance\n"
        "from ruleslab.character import Character, Conditions\n"
        "hero = Character(strength=3, might=2)\n"
        "report = lifting_and_encumbrance(lifter=hero, conditions=Conditions(load_kg=40),\n"
        "                                 object_kg=450)\n"
        "print(report.explain())"
    ),
)
