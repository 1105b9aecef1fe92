"""The Falling calculator (key ``falling``): a fall's damage dice, the break-fall and lethality.

The rule is :func:`ruleslab.quickref.falling.fall`; this module declares the
calculator's inputs and their defaults (the faller, a
:class:`~ruleslab.character.Character`: :data:`FALLER`; his
:class:`~ruleslab.character.Conditions`: :data:`FALLER_CONDITIONS`), and its
result (:class:`FallReport`: the rule's result and the chart of the dice left).
See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Chart, ChartView, Headline
from ruleslab.inputs import TRACK_HELP, TRACK_LABELS, one_roll_dice_rules
from ruleslab.params import BoolParam, ChoiceParam, NumberParam, checked
from ruleslab.quickref import falling
from ruleslab.quickref.conditions import RollKind, load_encumbrance, on_roll
from ruleslab.quickref.falling import FallResult
from ruleslab.records import Role
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "FALLER", "FALLER_CONDITIONS", "FallReport", "fall"]

HEIGHT = NumberParam(
    "height_m",
    "Height of the fall",
    unit="m",
    minimum=0,
    maximum=100_000,
    help="How far the character falls, in metres.",
)
FALLER = Role(
    "faller",
    "The faller",
    Character,
    (
        "stamina",
        "dexterity",
        "athletics",
        "mega_stamina",
        "mega_dexterity",
        "strength",
        "might",
        "mega_strength",
        "quantum",
        "willpower",
        "resistance",
    ),
    labels=TRACK_LABELS,
    help={
        **{k: TRACK_HELP[k] for k in ("quantum", "willpower", "resistance")},
        "stamina": "The character's Stamina dots (1–20); Mega-Stamina is separate.",
        "mega_stamina": (
            "Mega-Stamina dots (0–10). Each dot counts as 2 Stamina dots for the safe "
            "distance and the lethal threshold (rules note RN-FALL-4)."
        ),
        "mega_dexterity": (
            "Mega-Dexterity dots (0–10). Each dot counts as 2 Dexterity dots in the "
            "break-fall roll; in 2.1 any Mega-Dexterity also rerolls 10s on it (rules note "
            "RN-FALL-4)."
        ),
        "strength": (
            "The character's Strength dots (0–20): with Might and Mega-Strength, what his "
            "carried load's encumbrance tier is graded against (rules note RN-COND-1)."
        ),
    },
)
"""The character who falls: Stamina (safe distance, lethal threshold), the break-fall
roll's Dexterity and Athletics, their Mega-Attributes, and the Strength, Might and
Mega-Strength his load is graded against (Quick reference › Encumbrance: "up to 10 kg
per dot of Str + Might", and "Each dot of Mega-Strength multiplies the character's
encumbrance thresholds")."""
FALLER_CONDITIONS = Role(
    "conditions",
    "The faller's conditions",
    Conditions,
    ("load_kg", "daze", "levels_lost"),
    applies=("sprinting", "actions"),  # a Python caller's record: on_roll applies them
    help={
        "load_kg": (
            "Everything the character carries, in kilograms. Moderate encumbrance adds +1 "
            "difficulty to the break-fall roll, Heavy +2; a load he cannot move with leaves "
            "no break-fall roll. See rules notes RN-COND-1 and RN-FALL-7."
        ),
    },
)
"""What he carries and whether he is Dazed or Stunned: both add difficulty to the
break-fall roll (:func:`ruleslab.quickref.conditions.on_roll`), paid with its first successes
(RN-FALL-7), its tier graded against the faller's own Strength, Might and
Mega-Strength (fields of :data:`FALLER`)."""
BREAK_FALL_ROLL = RollKind("the break-fall roll", physical="movement")
"""Breaking a fall is "a physical action involving movement" (Moderate +1, Heavy +2,
rules note RN-COND-1) and an action (Dazed or Stunned +1, RN-COND-4)."""
BREAK_FALL = BoolParam(
    "break_fall",
    "Tries to break the fall",
    help="The character rolls Dexterity + Athletics; each success removes one damage die.",
)
RULESET, SPECIALTY = one_roll_dice_rules(
    "the break-fall roll", fits="breaking this fall", mega="Mega-Dexterity"
)
COUNT_FROM = ChoiceParam(
    "count_from",
    "Fall damage is counted",
    choices=(
        ("safe", "Past the safe distance; its first 20 m at 1 die per 2 m"),
        ("top", "Past the safe distance; 1 die per 2 m down to 20 m below the top"),
        ("threshold", "From the top, once the fall is longer than the safe distance"),
    ),
    help=(
        "Damage is 1 die per 2 m for the first 20 m and 1 die per 5 m after. ‘Its first "
        "20 m’: the 20 m start at the safe distance (10 dice after 20 m of unsafe fall, 40 "
        "dice at 170 m past the safe distance). ‘Down to 20 m below the top’: the safe metres "
        "still come off, but the 2 m rate stops 20 m below the start. ‘From the top’: the "
        "safe distance is only a threshold; a longer fall counts every metre from the start "
        "(40 dice at 170 m). See rules note RN-FALL-1."
    ),
)
LETHAL_MEANS = ChoiceParam(
    "lethal_means",
    "“Damage” for lethality means",
    choices=(
        ("dice", "Damage dice (after the break-fall)"),
        ("rolled", "Damage rolled (successes on the dice)"),
    ),
    help=(
        "The damage is lethal if it equals or exceeds Stamina + Athletics. ‘Damage dice’: "
        "compare the dice left after the break-fall. ‘Damage rolled’: roll them (7+ is a "
        "success) and compare the successes. See rules note RN-FALL-2."
    ),
)


@dataclass(frozen=True, kw_only=True)
class FallReport(FallResult):
    """The Falling calculator's result: the rule's :class:`~ruleslab.quickref.falling.FallResult`
    (same fields and figures) and the chart of the damage dice left."""

    @classmethod
    def of(cls, result: FallResult) -> FallReport:
        """The report of a fall :func:`ruleslab.quickref.falling.fall` computed."""
        return cls(**{f.name: getattr(result, f.name) for f in fields(result)})

    def chart(self) -> Chart:
        """Bars ``(d, P(d damage dice left))`` for ``d = 0 … damage_dice``, highlighted
        from the first lethal one when dice are compared (none when rolled damage is
        compared, or when no number of dice left reaches the lethal threshold)."""
        bars = tuple((str(d), float(p)) for d, p in enumerate(self.dice_left))
        lethal_bar = self.lethal_means == "dice" and self.threshold <= self.damage_dice
        return Chart(bars, self.threshold if lethal_bar else None)


@checked(
    HEIGHT,
    FALLER,
    BREAK_FALL,
    FALLER_CONDITIONS,
    RULESET,
    SPECIALTY,
    COUNT_FROM,
    LETHAL_MEANS,
)
def fall(
    height_m: float = 15.0,
    faller: Character | None = None,
    break_fall: bool = True,
    conditions: Conditions | None = None,
    ruleset: str = V21,
    specialty: bool = False,
    count_from: str = "safe",
    lethal_means: str = "dice",
) -> FallReport:
    """The Falling calculator: "A character can safely fall (Stamina - 1) * 2 meters
    without taking damage. Past that, falling damage is 1d/2 meters (round down) for
    the first 20 meters and then 1d/5 meters past that, up to 40d pre-soak damage …
    Fall damage is lethal if the damage equals or exceeds the character's (Stamina +
    Athletics)", less the break-fall roll's successes (:func:`ruleslab.quickref.falling.fall`).

    His load and a Dazed or Stunned state add their difficulty to the break-fall
    roll (:func:`ruleslab.quickref.conditions.on_roll`); its first successes pay for it.
    ``faller`` and ``conditions`` are records (``None``: the form's defaults); a
    caller may instead pass their fields (``stamina=4``, ``load_kg=30``).
    """
    assert faller is not None  # (filled in by @checked)
    assert conditions is not None
    load = load_encumbrance(faller, conditions)
    return FallReport.of(
        falling.fall(
            height_m,
            faller.stamina,
            faller.dexterity,
            faller.athletics,
            mega_stamina=faller.mega_stamina,
            mega_dexterity=faller.mega_dexterity,
            break_fall=break_fall,
            ruleset=ruleset,
            specialty=specialty,
            count_from=count_from,
            lethal_means=lethal_means,
            conditions=on_roll(BREAK_FALL_ROLL, faller, conditions, ruleset=ruleset, load=load),
            load=load,
        )
    )


CALCULATOR = Calculator(
    key="falling",
    title="Falling",
    summary=(
        "A fall's safe distance and damage dice, the exact distribution of the dice left "
        "after a (Dexterity + Athletics) break-fall roll, and the chance the damage is "
        "lethal."
    ),
    compute=fall,
    headlines=(
        Headline(
            ("p_lethal", "damage_dice", "threshold"),
            when=lambda v: v["height_m"] > 0,
            question="Is the fall lethal, and the chance",
        ),
        Headline(("safe_distance", "threshold"), question="No fall: how far he falls unhurt"),
    ),
    rules=(rule(QR, "Falling"), rule(QR, "Mega-Attributes"), rule(QR, "Specialties")),
    options=("ruleset", "specialty", "count_from", "lethal_means"),
    views=(
        ChartView(
            "Damage dice left after the break-fall",
            "Dice left",
            FallReport.chart,
            highlight="lethal: the dice left reach the lethal threshold",
        ),
    ),
    example=(
        "from ruleslab.calculators.falling import fall\n"
        "from ruleslab.character import Character, Conditions\n"
        "hero = Character(stamina=3, dexterity=3, athletics=2)\n"
        "r = fall(height_m=30, faller=hero, conditions=Conditions(load_kg=40))\n"
        "print(r.damage_dice, float(r.p_lethal))"
    ),
)
