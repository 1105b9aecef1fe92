"""The Healing time calculator (key ``healing``): time to heal back to full health (2.1).

The rule is :func:`ruleslab.quickref.healing.healing_time`; this module declares its
inputs (the healer as a :class:`~ruleslab.character.Character`, :data:`HEALER`)
and the calculator, whose function hands the healer's traits to the rule.
See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from ruleslab.character import Character
from ruleslab.declare import Calculator, Headline
from ruleslab.params import ChoiceParam, IntParam, checked
from ruleslab.quickref import healing
from ruleslab.records import Role
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "HEALER", "healing_time"]


def _levels(name: str, label: str, help: str, *, minimum: int = 0, maximum: int = 20) -> IntParam:
    """A number of health levels (of the track, of damage on it)."""
    return IntParam(name, label, minimum=minimum, maximum=maximum, unit="levels", help=help)


LETHAL = _levels(
    "lethal",
    "Lethal levels",
    "Health levels marked with lethal damage. They fill the track from the top "
    "(rules note RN-HEAL-3).",
    maximum=100,
)
BASHING = _levels(
    "bashing",
    "Bashing levels",
    "Health levels marked with bashing damage, below the lethal ones.",
    maximum=100,
)
HEALTH_LEVELS = _levels(
    "health_levels",
    "Health levels (before Incapacitated)",
    "From the sheet: Willpower + Stamina × 2 + Mega-Stamina × 6 + Quantum (2.1).",
    minimum=1,
    maximum=100,
)
LEVELS_PER_PENALTY = _levels(
    "levels_per_penalty",
    "Levels per −1 wound penalty",
    "From the sheet: (Stamina + Resistance) ÷ 2 + 1, rounded down (2.1).",
    minimum=1,
)
INCAP_LEVELS = _levels(
    "incap_levels",
    "Incapacitated levels",
    "From the sheet: equal to Stamina (2.1). Damage beyond them is on the Dying levels.",
)
HEALER = Role(
    "healer",
    "The healer",
    Character,
    ("medicine", "intelligence", "mega_intelligence"),
    prefix="healer_",
    label="Healer's ",
    help={
        "medicine": (
            "Medicine of whoever treats the character; 0 for no treatment. "
            "Medicine 2+ and Int 2+ halve healing times, Medicine 4+ and Int 3+ quarter them."
        ),
        "intelligence": "Intelligence of the healer (Mega-Intelligence is separate).",
        "mega_intelligence": "Each dot counts as 2 Intelligence dots for the treatment thresholds.",
    },
    defaults={"intelligence": 2},
)
"""Whoever treats the character: his Medicine, Intelligence and Mega-Intelligence (the
treatment's thresholds, rules note RN-HEAL-7)."""
SUPPLIES = ChoiceParam(
    "supplies",
    "Medical supplies",
    choices=(
        ("none", "None"),
        ("basic", "Basic supplies (−1 wound penalty)"),
        ("clinic", "Small clinic (−2)"),
        ("hospital", "Well-stocked hospital (−4)"),
    ),
    help=(
        "Reduce wound penalties for healing: a level heals at the rate of a lesser penalty "
        "(a −3 level under a small clinic heals at the −1 rate). See rules note RN-HEAL-2."
    ),
)
ORDER = ChoiceParam(
    "order",
    "How levels heal",
    choices=(
        ("one_at_a_time", "One at a time, worst first"),
        ("all_at_once", "All at once"),
    ),
    help=(
        "The text gives times per level but not how several levels heal. ‘One at a time’: "
        "the worst level heals first, then the next; the times add up. ‘All at once’: every "
        "level heals at the same time; the slowest decides. See rules note RN-HEAL-1."
    ),
)
PENALTY_FROM = ChoiceParam(
    "penalty_from",
    "Wound penalty of a level",
    choices=(
        ("after", "Penalty after that much damage"),
        ("rows", "Rows of equal levels from −0"),
    ),
    help=(
        "With 3 levels per penalty: ‘after that much damage’ makes levels 1–2 −0 and "
        "levels 3–5 −1 (the 3rd level of damage brings the −1); ‘rows’ makes levels 1–3 −0 "
        "and 4–6 −1. See rules note RN-HEAL-4."
    ),
)
DYING_BASHING = ChoiceParam(
    "dying_bashing",
    "Bashing on Dying levels",
    choices=(
        ("lethal_rate", "Heals like Dying lethal (5 months)"),
        ("incap_rate", "Heals like Incapacitated bashing (1 day)"),
    ),
    help="The table gives Dying only a lethal time. See rules note RN-HEAL-5.",
)


@checked(
    LETHAL,
    BASHING,
    HEALTH_LEVELS,
    LEVELS_PER_PENALTY,
    INCAP_LEVELS,
    HEALER,
    SUPPLIES,
    ORDER,
    PENALTY_FROM,
    DYING_BASHING,
)
def healing_time(
    lethal: int = 2,
    bashing: int = 3,
    health_levels: int = 12,
    levels_per_penalty: int = 3,
    incap_levels: int = 3,
    healer: Character | None = None,
    supplies: str = "none",
    order: str = "one_at_a_time",
    penalty_from: str = "after",
    dying_bashing: str = "lethal_rate",
) -> healing.HealingTime:
    """:func:`ruleslab.quickref.healing.healing_time` with the healer as a record, every input
    checked against its declaration. ``healer`` is a
    :class:`~ruleslab.character.Character` (``None``: the form's defaults, Medicine 0
    and Intelligence 2); a caller may instead pass its fields by their form names
    (``healer_medicine=2``)."""
    assert healer is not None  # (filled in by @checked)
    return healing.healing_time(
        lethal=lethal,
        bashing=bashing,
        health_levels=health_levels,
        levels_per_penalty=levels_per_penalty,
        incap_levels=incap_levels,
        healer_medicine=healer.medicine,
        healer_intelligence=healer.intelligence,
        healer_mega_intelligence=healer.mega_intelligence,
        supplies=supplies,
        order=order,
        penalty_from=penalty_from,
        dying_bashing=dying_bashing,
    )


CALCULATOR = Calculator(
    key="healing",
    title="Healing time",
    summary=(
        "How long a character takes to heal back to full health (2.1): each damaged "
        "level's time from the healing table, with treatment and medical supplies."
    ),
    compute=healing_time,
    headlines=(
        Headline(
            ("total_time", "treatment", "per_level"),
            when=lambda v: v["healer_medicine"] > 0 or v["supplies"] != "none",
            question="How long he takes to heal under this care",
        ),
        Headline(("total_time", "per_level"), question="How long he takes to heal"),
    ),
    rules=(rule(QR, "2.1 Rules", "Healing, Health Levels"),),
    options=("order", "penalty_from", "dying_bashing"),
    example=(
        "from ruleslab.calculators.healing import healing_time\n"
        "from ruleslab.character import Character\n"
        "doctor = Character(medicine=2, intelligence=3)\n"
        "r = healing_time(lethal=2, bashing=3, health_levels=12, levels_per_penalty=3,\n"
        "                 incap_levels=3, healer=doctor, supplies='clinic')\n"
        "print(r.explain())"
    ),
)
