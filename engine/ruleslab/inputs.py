"""Inputs several calculators ask for: the character's traits, the ruleset switch.

A calculator declares its own inputs in ``ruleslab/calculators/<key>.py``;
an input that several calculators share (Strength, Dexterity, the rules
version …) is declared once here, without a default: each calculator's
function gives its default in its signature (see :func:`ruleslab.checked`).
Declarations only, no rules.
"""

from __future__ import annotations

from ruleslab.params import BoolParam, ChoiceParam, IntParam, NumberParam

__all__: list[str] = []

# Keep the imports used: sections below add their names to __all__.
_KINDS = (BoolParam, ChoiceParam, IntParam, NumberParam)

# --- physical: lifting, movement, jumping, falling ----------------------------------

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
    choices=(("down", "Round down"), ("up", "Round up")),
    help=(
        "Natural lethal soak uses Stamina/2 and aggravated soak Quantum/2; the text does not "
        "say how to round. Default: round down, as the text does elsewhere. See rules note "
        "RN-SOAK-1."
    ),
)
"""The soak reading of the health and damage calculators (:func:`ruleslab.soak.halve`)."""

# --- ranged attacks, defence, healing ---------------------------------------------------

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
    choices=(("down", "Round down"), ("up", "Round up")),
    help=(
        "Trained (÷ 2) and fanatical (÷ 3) squads: how to round the divided losses "
        "(rules note RN-HENCH-6). Default: down."
    ),
)

# --- compressed combat -------------------------------------------------------------------

# --- Chimera ---------------------------------------------------------------------------------
