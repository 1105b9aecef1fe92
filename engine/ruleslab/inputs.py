"""Inputs several calculators ask for: the character's traits, the ruleset switch.

A calculator declares its own inputs in ``ruleslab/calculators/<key>.py``;
an input that several calculators share (Strength, Dexterity, the rules
version …) is declared once here, without a default: each calculator's
function gives its default in its signature (see :func:`ruleslab.checked`).
Declarations only, no rules.
"""

from __future__ import annotations

from dataclasses import replace

from ruleslab.character import (
    ATHLETICS,
    DEXTERITY,
    LOAD_KG,
    MEGA_DEXTERITY,
    MEGA_STRENGTH,
    MIGHT,
    STRENGTH,
)
from ruleslab.explain import Step
from ruleslab.params import BoolParam, ChoiceParam, IntParam
from ruleslab.quickref.conditions import DAZE_ON_DEFENCE_READINGS, DEFENCE_DIFFICULTY_READINGS
from ruleslab.ruleset import V20, V21

__all__: list[str] = []

# Each section below adds its names to __all__.

# --- every area ------------------------------------------------------------------------

RULESET = ChoiceParam(
    "ruleset",
    "Rules version",
    choices=((V21, "Aberrant 2.1"), (V20, "Aberrant 2.0")),
    help=(
        "Which revision of the rules applies where 2.0 and 2.1 differ "
        "(specialties, Mega-Attribute rerolls, health levels, defence). Default 2.1."
    ),
)
ONLY_UNDER_20 = ("ruleset", V20)
ONLY_UNDER_21 = ("ruleset", V21)
"""The ``shown_when`` of an input only one ruleset uses: the form shows it under that
ruleset only."""
__all__ += ["ONLY_UNDER_20", "ONLY_UNDER_21", "RULESET", "one_roll_dice_rules"]


def one_roll_dice_rules(
    roll: str, *, fits: str, mega: str, mega_20: str = "", note: str = ""
) -> tuple[ChoiceParam, BoolParam]:
    """The rules version and the "Specialty applies" switch of a calculator around one
    Attribute + Ability roll (``roll``: "the jump roll"), each help saying what it does
    to that roll: in 2.1 the ``mega`` Mega-Attribute rerolls 10s and a specialty adds a
    die; in 2.0 a specialty rerolls 10s (``mega_20``: what 2.0 says of the Mega-Attribute,
    if anything). ``fits``: what a specialty must fit ("this jump"); ``note``: the rules
    note both cite, if any."""
    see = f" See rules note {note}." if note else ""
    ruleset = replace(
        RULESET,
        help=(
            f"Which revision's dice rules apply to {roll}. In 2.1 a character with {mega} "
            f"rerolls 10s on it and a specialty adds +1 die; in 2.0 {mega_20}a specialty "
            f"rerolls 10s instead.{see}"
        ),
    )
    specialty = BoolParam(
        "specialty",
        "Specialty applies",
        help=(
            f"Tick if one of the character's specialties fits {fits} "
            f"(2.1: +1 die to the pool; 2.0: reroll 10s).{see}"
        ),
    )
    return ruleset, specialty


# --- physical: lifting, movement, jumping, falling ----------------------------------
# (declared with the character's record, :mod:`ruleslab.character`, and kept here
# under their old names: Dexterity, Mega-Dexterity and Athletics carry the physical
# calculators' help texts; the defence calculator's roles give theirs.)

__all__ += [
    "ATHLETICS",
    "BEYOND_HEAVY",
    "DEXTERITY",
    "HEAVY_FROM",
    "LOAD_KG",
    "MEGA_DEXTERITY",
    "MEGA_STRENGTH",
    "MIGHT",
    "STRENGTH",
]

HEAVY_FROM = ChoiceParam(
    "heavy_from",
    "Heavy encumbrance starts",
    choices=(
        ("above_15", "Above 15 kg per dot"),
        ("at_20", "At 20 kg per dot"),
    ),
    help=(
        "The text says moderate is ‘up to 15 kg per dot’ and heavy is ‘carrying 20 kg per "
        "dot’. ‘Above 15’: heavy covers everything over 15 kg per dot. ‘At 20’: moderate "
        "lasts until the load reaches 20 kg per dot. See rules note RN-ENC-1."
    ),
)
BEYOND_HEAVY = ChoiceParam(
    "beyond_heavy",
    "Loads beyond heavy",
    choices=(
        ("capacity", "Heavy up to lift capacity (30 kg per dot)"),
        ("immobile", "Over 20 kg per dot: cannot move"),
    ),
    help=(
        "The text stops at 20 kg per dot. ‘Heavy up to lift capacity’: heavy lasts up to "
        "30 kg per dot, what the character lifts without a roll; more is over capacity and "
        "she cannot move with it. ‘Over 20 kg per dot’: anything above 20 kg per dot is "
        "over-encumbered and she cannot move. See rules note RN-ENC-2."
    ),
)

ROUNDING = (("down", "Round down"), ("up", "Round up"))
"""The choices of a reading that rounds a division the text leaves unrounded."""
__all__ += ["ROUNDING"]

# --- health and damage ----------------------------------------------------------------

__all__ += ["DAMAGE_KIND", "SOAK_ROUNDING"]

DAMAGE_KIND = ChoiceParam(
    "kind",
    "Damage type",
    choices=(
        ("bashing", "Bashing"),
        ("lethal", "Lethal"),
        ("aggravated", "Aggravated"),
        ("stun", "Stun"),
    ),
    help="The attack's damage type. Stun is soaked as bashing.",
)
"""The damage calculator's attack type; the ranged attacks' weapon type is this, renamed."""

SOAK_ROUNDING = ChoiceParam(
    "soak_rounding",
    "Rounding of Stamina/2 and Quantum/2 in soak",
    choices=ROUNDING,
    help=(
        "Natural lethal soak uses Stamina/2 and aggravated soak Quantum/2; the text does not "
        "say how to round. Default: round down, as the text does elsewhere. See rules note "
        "RN-SOAK-1."
    ),
)
"""The soak reading of the health and damage calculators (:func:`ruleslab.quickref.soak.halve`)."""

# --- ranged attacks, defence, healing ---------------------------------------------------

__all__ += ["MEGA_IN_DEFENSE"]

MEGA_IN_DEFENSE = ChoiceParam(
    "mega_in_defense",
    "Mega-Dex/Mega-Wits in Defense",
    choices=(
        ("double", "Each dot counts as 2 dots"),
        ("ignore", "Not counted"),
    ),
    help=(
        "The 2.1 Defense score uses the lower of Dexterity and Wits. ‘Counts as 2’ applies "
        "the Mega-Attributes rule (each Mega dot counts for 2 attribute dots). "
        "See rules note RN-DEF-5."
    ),
    shown_when=ONLY_UNDER_21,
)
"""The 2.1 Defense's reading of Mega-Dexterity and Mega-Wits (rules note RN-DEF-5), as the
defence calculator asks it; the autofire target's is this, relabelled."""

__all__ += ["DAZE_ON_DEFENCE", "DEFENCE_DIFFICULTY"]

DAZE_ON_DEFENCE = ChoiceParam(
    "daze_on_defence",
    "Dazed or Stunned on a 2.0 defensive maneuver",
    choices=DAZE_ON_DEFENCE_READINGS,
    help=(
        "‘Dazed characters are at +1 difficulty to all actions’. Default: a defensive "
        "maneuver is an action (the Sprinting text's ‘may not take any actions … except "
        "defensive maneuvers’ counts it as one), so a Dazed or Stunned 2.0 dodge, parry or "
        "powerblock is at +1 too; or a 2.0 defensive maneuver takes no action and is "
        "untouched. A 2.1 active defence or power block is an action either way. See rules "
        "note RN-COND-4."
    ),
    shown_when=ONLY_UNDER_20,
)
"""The reading of Dazed on a 2.0 defensive maneuver (RN-COND-4), in every calculator with
a defence roll (Initiative & defence, Autofire, Henchmen)."""

DEFENCE_DIFFICULTY = ChoiceParam(
    "defence_difficulty",
    "A difficulty on a defence roll",
    choices=DEFENCE_DIFFICULTY_READINGS,
    help=(
        "What a difficulty the conditions add to a defence roll (dodge, active defence, power "
        "block) does: its first successes pay for it and the rest count (default), or the "
        "roll must reach 1 + the difficulty to count at all, then every success counts. Either "
        "way it succeeds with 1 + the difficulty; the successes it counts differ. See rules "
        "note RN-COND-5."
    ),
)
"""The reading of a difficulty on a defence roll (RN-COND-5), in every calculator that
makes one (each may relabel it)."""

# --- henchmen and warfare ----------------------------------------------------------------

__all__ += ["HENCHMEN_COUNT", "HENCHMEN_TRAINING", "LEADER_IS_HENCHMAN", "LOSSES_ROUNDING"]

HENCHMEN_COUNT = IntParam(
    "henchmen",
    "Henchmen",
    minimum=0,
    maximum=1000,
    help="How many henchmen follow the leader (the leader not counted).",
)
"""The henchmen squad builder's input; warfare checks its squad with it too."""

HENCHMEN_TRAINING = ChoiceParam(
    "training",
    "Henchmen's training",
    choices=(
        ("regular", "Regular (losses ÷ 1)"),
        ("trained", "Well-trained (losses ÷ 2)"),
        ("fanatical", "Fanatical (losses ÷ 3)"),
    ),
    help="Well-trained and fanatical henchmen divide their losses by 2 or 3.",
)
LEADER_IS_HENCHMAN = BoolParam(
    "leader_is_henchman",
    "All-henchmen squad",
    help=(
        "Tick when the commander is a henchman too: he is eliminated like one, after the "
        "others (rules note RN-HENCH-7)."
    ),
)
LOSSES_ROUNDING = ChoiceParam(
    "rounding",
    "Rounding divided losses",
    choices=ROUNDING,
    help=(
        "Trained (÷ 2) and fanatical (÷ 3) squads: how to round the divided losses "
        "(rules note RN-HENCH-6). Default: down."
    ),
)

# --- compressed combat -------------------------------------------------------------------
# (none shared: its two sides' inputs and rules options are its own, declared in
# ruleslab/calculators/compressed.py.)

# --- Chimera ---------------------------------------------------------------------------------


# --- a person's health track, read for the wound penalty of his levels lost ---------

__all__ += ["TRACK_HELP", "TRACK_LABELS"]

TRACK_HELP = {
    "stamina": "Stamina dots: his health track (with his levels lost, the wound penalty).",
    "mega_stamina": "Mega-Stamina dots: his health track (levels, and 2.0's Dying levels).",
    "quantum": "Quantum dots: +1 health level each (his track, for the wound penalty).",
    "willpower": "2.1: Willpower, his health levels (his track, for the wound penalty).",
    "resistance": "2.1: Resistance, the wound-penalty step ⌊(Stamina + Resistance)/2⌋ + 1.",
}
"""Help for the traits of a person's health track (:data:`~ruleslab.quickref.health.WOUND_TRAITS`)
read only for the wound penalty of his levels lost (rules note RN-COND-7)."""
TRACK_LABELS = {"willpower": "Willpower (2.1 track)", "resistance": "Resistance (2.1 track)"}


# --- overrides: a person's figure from his record, or entered (issue 33) ---------------
# "Soak, health track, Defense and initiative must be derived from the record the same
# way everywhere (an override stays possible, marked as such)": a calculator declares
# such a figure with override() (a choice "<name>_from", record or entered, and the
# entered field, shown and implied as the override: Calculator.implied), and
# record_or_entered() takes the record's figure or the entered one with a step marking it.

__all__ += ["ENTERED", "RECORD", "override", "record_or_entered"]

RECORD = "record"
ENTERED = "entered"


def override(value: IntParam, *, record: str, help: str) -> tuple[ChoiceParam, IntParam]:
    """The choice ``<value.name>_from``, labelled "<value's label> from" (``record``,
    labelled ``record``: "The target's record (Quantum, Stamina, Mega-Stamina)";
    ``entered``: ``value`` overrides it) and ``value`` shown and implied as the override
    (labelled "… (entered, overrides the record)"). ``help``: the choice's help, saying
    how the record's figure is worked out."""
    choice = ChoiceParam(
        f"{value.name}_from",
        f"{value.label} from",
        choices=((RECORD, record), (ENTERED, "Entered: an override of the record")),
        help=help,
    )
    entered = replace(
        value,
        label=f"{value.label} (entered, overrides the record)",
        help=f"Used only when “{choice.label}” is “entered”: {value.help}",
        shown_when=(choice.name, ENTERED),
        implies=(choice.name, ENTERED),
    )
    return choice, entered


def record_or_entered(
    choice: ChoiceParam,
    source: str,
    entered: int,
    derived: tuple[int, Step],
    *,
    what: str,
    whose: str,
    note: str,
) -> tuple[int, Step]:
    """The figure ``source`` (the value of ``choice``, made by :func:`override`) says:
    the record's (``derived``: the figure and the step working it out) or ``entered``,
    with a step marking the override and naming the record's figure beside it: "Natural
    soak 4 entered (“Target's natural soak from”: entered), overriding the target's
    record, which gives 2 (rules note RN-SOAK-4)" (``what``: "Natural soak"; ``whose``:
    "the target's"; ``note``: the rules note)."""
    value, step = derived
    if source == RECORD:
        return value, step
    if source != ENTERED:  # (checked by the choice; a wrong caller is a bug)
        raise ValueError(f"{choice.name}: {source!r}")
    return entered, Step(
        f"{what} {entered} entered (“{choice.label}”: entered), overriding {whose} record, "
        f"which gives {value} ({note})",
        step.rule,
    )
