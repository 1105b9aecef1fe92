"""An Aberrant character, and the conditions he is in at the moment of a roll: two records.

:class:`Character` holds every trait any calculator reads (attributes,
abilities, Mega-Attributes, Quantum, Willpower), each declared once with its
label, range and help (:func:`ruleslab.records.record`). A Python user builds
one and passes it to every calculator that takes a character::

    from ruleslab.character import Character, Conditions
    from ruleslab.calculators.lifting import lifting_and_encumbrance

    hero = Character(strength=4, might=2, athletics=3)
    lifting_and_encumbrance(lifter=hero, object_kg=450)

:class:`Conditions` is what the character is in when he rolls: the load he
carries, whether he sprints this turn, Dazed or Stunned, how many actions he
takes this turn, whether one of them is an active defence, whether the scene
has ended. What each condition does to a roll is :mod:`ruleslab.quickref.conditions`
(one function per condition, quoting the text); every calculator passes its
rolls through it.

Records sit with the declarations of :mod:`ruleslab.params`, below the rules (a
rule may take a record); :mod:`ruleslab.inputs` re-exports the traits it shares.
A calculator reads only some fields; which ones is its :class:`~ruleslab.records.Role`
(``ruleslab/calculators/<key>.py``). Declarations only, no rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ruleslab.params import BoolParam, ChoiceParam, IntParam, NumberParam
from ruleslab.records import record

__all__ = [
    "ATHLETICS",
    "DAZE_STATES",
    "DEXTERITY",
    "LOAD_KG",
    "MEGA_DEXTERITY",
    "MEGA_STRENGTH",
    "MIGHT",
    "STRENGTH",
    "Character",
    "Conditions",
]


def _dots(name: str, label: str, help: str, minimum: int = 0, maximum: int = 10) -> IntParam:
    """A trait in dots: a whole number, 0 to 10 unless given."""
    return IntParam(name, label, minimum=minimum, maximum=maximum, unit="dots", help=help)


STRENGTH = _dots("strength", "Strength", "The character's Strength dots (0–10).")

MIGHT = _dots(
    "might",
    "Might",
    "The character's Might dots (0–10); added to Strength for lifting and carrying.",
)

MEGA_STRENGTH = _dots(
    "mega_strength",
    "Mega-Strength",
    (
        "Mega-Strength dots (0–10). Multiplies lifting capacity and encumbrance thresholds: "
        "×10/100/250/500/1000 at 1–5 dots, then ×10 more per dot (6 dots: ×10 000)."
    ),
)

LOAD_KG = NumberParam(
    "load_kg",
    "Carried load",
    unit="kg",
    minimum=0,
    maximum=1e12,
    help=(
        "Everything the character carries (pack, armour, gear), in kilograms. Sets the "
        "encumbrance tier: up to 5/10/15/20 kg per dot of Str + Might, × the Mega-Strength "
        "multiplier."
    ),
)

DEXTERITY = _dots(
    "dexterity", "Dexterity", "The character's Dexterity dots (0–10); Mega-Dexterity is separate."
)

MEGA_DEXTERITY = _dots(
    "mega_dexterity",
    "Mega-Dexterity",
    "Mega-Dexterity dots (0–10). Each dot counts as 2 Dexterity dots (rules note RN-MOVE-1).",
)

ATHLETICS = _dots("athletics", "Athletics", "The character's Athletics dots (0–10).")


def _mega(attribute: str) -> IntParam:
    return _dots(
        f"mega_{attribute.lower()}",
        f"Mega-{attribute}",
        f"Mega-{attribute} dots (0–10); unless stated otherwise each dot counts as 2 "
        f"{attribute} dots.",
    )


@record(
    replace(STRENGTH, maximum=20, help="The character's Strength dots (0–20)."),
    DEXTERITY,
    _dots("stamina", "Stamina", "The character's Stamina dots (1–20).", minimum=1, maximum=20),
    _dots("charisma", "Charisma", "The character's Charisma dots (0–10)."),
    _dots("intelligence", "Intelligence", "The character's Intelligence dots (0–10)."),
    _dots("wits", "Wits", "The character's Wits dots (0–10)."),
    MIGHT,
    MEGA_STRENGTH,
    MEGA_DEXTERITY,
    _mega("Stamina"),
    _mega("Charisma"),
    _mega("Intelligence"),
    _mega("Wits"),
    ATHLETICS,
    _dots("melee_brawl", "Melee or Brawl", "The Melee or Brawl dots he parries with (0–10)."),
    _dots("firearms", "Attack ability (Firearms …)", "The ability he attacks with (0–10)."),
    _dots("command", "Command", "The character's Command dots (0–10)."),
    _dots("tactics", "Tactics", "The character's Tactics dots (0–10)."),
    _dots("medicine", "Medicine", "The character's Medicine dots (0–10)."),
    _dots("resistance", "Resistance", "The character's Resistance dots (0–10)."),
    _dots("quantum", "Quantum", "The character's Quantum rating (0–10)."),
    _dots("willpower", "Willpower", "The character's Willpower (1–10).", minimum=1),
)
@dataclass(frozen=True, kw_only=True)
class Character:
    """An Aberrant character: every trait a calculator reads, each checked against its range.

    ``Character(strength=11)`` raises :class:`~ruleslab.params.InputError`
    ("Strength must be a whole number from 0 to 10 dots."). Mega-Attributes are
    separate fields; each calculator says how it counts them (usually "each dot
    of a Mega-Attribute counts for 2 dots of an attribute").
    """

    strength: int = 3
    dexterity: int = 3
    stamina: int = 3
    charisma: int = 3
    intelligence: int = 3
    wits: int = 3
    might: int = 0
    mega_strength: int = 0
    mega_dexterity: int = 0
    mega_stamina: int = 0
    mega_charisma: int = 0
    mega_intelligence: int = 0
    mega_wits: int = 0
    athletics: int = 2
    melee_brawl: int = 2
    firearms: int = 2
    command: int = 2
    tactics: int = 2
    medicine: int = 0
    resistance: int = 0
    quantum: int = 1
    willpower: int = 3


DAZE_STATES = (
    ("none", "Neither"),
    ("dazed", "Dazed (+1 difficulty to all actions)"),
    ("stunned", "Stunned (+1 difficulty; a single action)"),
)


@record(
    LOAD_KG,
    BoolParam(
        "sprinting",
        "Sprinting this turn",
        help=(
            "‘Sprinting characters may not take any actions during the turn except defensive "
            "maneuvers, and are at +1 difficulty to all defensive maneuvers they take.’"
        ),
    ),
    ChoiceParam(
        "daze",
        "Dazed or Stunned",
        choices=DAZE_STATES,
        help=(
            "‘Dazed characters are at +1 difficulty to all actions, Stunned ones suffer +1 "
            "difficulty to all actions and may not take more than a single action.’"
        ),
    ),
    BoolParam(
        "extra_actions_power",
        "Has Quickness or Temporal Manipulation",
        help=(
            "Stunned characters ‘may not take more than a single action (without powers such "
            "as Quickness or Temporal Manipulation)’: tick if he has such a power. Stunned "
            "still adds +1 difficulty, but no longer limits his actions (rules note RN-COND-4)."
        ),
        shown_when=("daze", "stunned"),
    ),
    IntParam(
        "actions",
        "Actions this turn",
        minimum=1,
        maximum=10,
        help=(
            "How many actions he takes this turn, an active defence included (counted here "
            "once, not again: 2 attacks and an active defence are 3; 2.1: ‘Every additional "
            "action past the first adds a cumulative +1 difficulty penalty’)."
        ),
    ),
    BoolParam(
        "active_defence",
        "One of his actions this turn is an active defence",
        help=(
            "2.1: ‘Characters may take an action to actively defend’: the active defence is "
            "one of his ‘Actions this turn’, already counted there (rules note RN-COND-3)."
        ),
    ),
    IntParam(
        "levels_lost",
        "Health levels lost",
        minimum=0,
        maximum=300,
        help=(
            "The health levels of damage he has taken (any kind; armour's −0 levels not "
            "counted). ‘The character takes a -1 wound penalty for every (Stamina + "
            "Resistance)/2 + 1 … health levels of damage’ (2.0: the track's −0/−1/−2/−4): "
            "the penalty of the worst box filled comes off each dice pool he rolls; "
            "Incapacitated, he may take no action (rules note RN-COND-7)."
        ),
    ),
    BoolParam(
        "scene_ended",
        "The scene has ended",
        help="Stun damage ‘goes away at the end of the scene’: tick to clear it.",
    ),
    refuse_unread=True,
)
@dataclass(frozen=True, kw_only=True)
class Conditions:
    """The conditions a character is in at the moment of a roll (all off by default).

    ``load_kg``: what he carries (its encumbrance tier follows from his Str +
    Might and Mega-Strength); ``sprinting``: he sprints this turn; ``daze``:
    ``"none"``, ``"dazed"`` or ``"stunned"``; ``extra_actions_power``: he has a power
    such as Quickness or Temporal Manipulation, the exception to Stunned's single
    action; ``actions``: how many actions he
    takes this turn (1: one), an active defence included; ``active_defence``: one
    of them is an active defence (at least one action, then); ``levels_lost``: the
    health levels of damage he has taken (his wound penalty follows from his track,
    :func:`ruleslab.quickref.health.wounds`); ``scene_ended``: the
    scene in which he took stun damage is over.
    :mod:`ruleslab.quickref.conditions` says what each does to a roll. A calculator refuses a
    record with a field set that it does not apply (:attr:`ruleslab.records.Role.applies`).
    """

    load_kg: float = 0.0
    sprinting: bool = False
    daze: str = "none"
    extra_actions_power: bool = False
    actions: int = 1
    active_defence: bool = False
    levels_lost: int = 0
    scene_ended: bool = False
