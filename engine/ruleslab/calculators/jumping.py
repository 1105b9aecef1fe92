"""The Jumping calculator (key ``jumping``): a jump's exact distance and the chance to clear a gap.

The rule is :func:`ruleslab.quickref.jumping.jump`; this module declares the
calculator's inputs and their defaults (the jumper, a
:class:`~ruleslab.character.Character`: :data:`JUMPER`; his
:class:`~ruleslab.character.Conditions`: :data:`JUMPER_CONDITIONS`), and its
result (:class:`JumpReport`: the rule's result and its distance chart). See
:mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Chart, ChartView, Headline
from ruleslab.explain import fmt_num
from ruleslab.inputs import TRACK_HELP, TRACK_LABELS, one_roll_dice_rules
from ruleslab.params import ChoiceParam, NumberParam, checked
from ruleslab.pmf import last_visible
from ruleslab.quickref import jumping
from ruleslab.quickref.conditions import RollKind, load_encumbrance, on_roll
from ruleslab.quickref.health import WOUND_TRAITS
from ruleslab.quickref.jumping import JumpResult
from ruleslab.records import Role
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "JUMPER", "JUMPER_CONDITIONS", "JumpReport", "jump"]

JUMPER = Role(
    "jumper",
    "The jumper",
    Character,
    ("strength", "athletics", "mega_strength", "might", *WOUND_TRAITS[2:]),
    labels=TRACK_LABELS,
    help={
        **TRACK_HELP,
        "mega_strength": (
            "Mega-Strength dots (0–10): 5 automatic successes per dot, and the distance is "
            "multiplied by (Mega-Strength + 1). In 2.1 any Mega-Strength also rerolls 10s."
        ),
        "might": (
            "Might dots (0–10): not in the jump pool, but added to Strength for the "
            "encumbrance tier of his carried load (rules note RN-COND-1)."
        ),
    },
)
"""The character who jumps: the pool's Strength and Athletics, and Mega-Strength (its
automatic successes and multiplier), and Might: with Strength and Mega-Strength, what
his load's encumbrance tier is graded against (Might is not in the jump pool)."""
JUMPER_CONDITIONS = Role(
    "conditions",
    "The jumper's conditions",
    Conditions,
    ("load_kg", "daze", "levels_lost"),
    applies=("sprinting", "actions"),  # a Python caller's record: on_roll applies them
    help={
        "load_kg": (
            "Everything the character carries, in kilograms. Moderate encumbrance adds +1 "
            "difficulty to the jump roll, Heavy +2; a load he cannot move with stops the "
            "jump. See rules notes RN-COND-1 and RN-JUMP-5."
        ),
    },
)
"""What he carries and whether he is Dazed or Stunned: both add difficulty to the jump
roll (:func:`ruleslab.quickref.conditions.on_roll`), paid with its first successes (RN-JUMP-5)."""
JUMP_ROLL = RollKind("the jump roll", physical="movement")
"""A jump is "a physical action involving movement" (Moderate +1, Heavy +2, rules note
RN-COND-1) and an action (Dazed or Stunned +1, RN-COND-4)."""
DIRECTION = ChoiceParam(
    "direction",
    "Jump",
    choices=(
        ("horizontal", "Horizontal (2 m per success)"),
        ("vertical", "Vertical (0.5 m per success)"),
    ),
    help="A horizontal leap gives 2 m per success, a vertical jump 0.5 m per success.",
)
DISTANCE = NumberParam(
    "distance_m",
    "Distance to clear",
    unit="m",
    minimum=0,
    maximum=100_000,
    help=(
        "The gap (horizontal) or height (vertical) the character must clear, in metres. "
        "The jump clears it if its distance is at least this."
    ),
)
RULESET, SPECIALTY = one_roll_dice_rules(
    "the jump roll", fits="this jump", mega="Mega-Strength", note="RN-JUMP-3"
)
MEGA_IN_POOL = ChoiceParam(
    "mega_in_pool",
    "Mega-Strength in the jump pool",
    choices=(
        ("separate", "Only as automatic successes and the multiplier"),
        ("dice", "Also +2 dice per dot"),
    ),
    help=(
        "The jumping rule accounts for Mega-Strength itself (5 automatic successes per dot, "
        "distance × (Mega-Strength + 1)). ‘Also +2 dice per dot’ counts each dot as 2 "
        "Strength dots in the pool as well. See rules note RN-JUMP-1."
    ),
)


@dataclass(frozen=True, kw_only=True)
class JumpReport(JumpResult):
    """The Jumping calculator's result: the rule's :class:`~ruleslab.quickref.jumping.JumpResult`
    (same fields and figures) and the chart of the jump's distance."""

    @classmethod
    def of(cls, result: JumpResult) -> JumpReport:
        """The report of a jump :func:`ruleslab.quickref.jumping.jump` computed."""
        return cls(**{f.name: getattr(result, f.name) for f in fields(result)})

    def chart(self) -> Chart:
        """Bars ``(metres, P(the jump covers exactly that))``, from the fewest successes
        up, highlighted from the first bar that clears the distance.

        Starts at the automatic successes that count (nothing below them is
        possible; those paying for an added difficulty do not count); bars
        after the last one at least 10⁻⁶ likely are cut.
        """
        pmf = self.distribution.pmf
        auto = max(0, self.auto_successes - self.added_difficulty)
        first = min(auto if self.dice else 0, len(pmf) - 1)
        last = last_visible(pmf, default=first)
        bars = tuple(
            (fmt_num(k * self.metres_per_success), float(pmf[k])) for k in range(first, last + 1)
        )
        return Chart(bars, max(0, self.successes_needed - first))


@checked(
    JUMPER,
    DIRECTION,
    DISTANCE,
    JUMPER_CONDITIONS,
    RULESET,
    SPECIALTY,
    MEGA_IN_POOL,
)
def jump(
    jumper: Character | None = None,
    direction: str = "horizontal",
    distance_m: float = 6.0,
    conditions: Conditions | None = None,
    ruleset: str = V21,
    specialty: bool = False,
    mega_in_pool: str = "separate",
) -> JumpReport:
    """The Jumping calculator: "Jumping is a (Strength + Athletics) roll, giving the
    character a 0.5 meter vertical jump or 2m horizontal leap per success.
    Mega-Strength adds 5 automatic successes per dot … and additionally jumping
    distances and heights are multiplied by (Mega-Strength + 1)"
    (:func:`ruleslab.quickref.jumping.jump`), and the chance to clear ``distance_m``.

    His load and a Dazed or Stunned state add their difficulty to the jump roll
    (:func:`ruleslab.quickref.conditions.on_roll`); its first successes pay for it. ``jumper``
    and ``conditions`` are records (``None``: the form's defaults); a caller may
    instead pass their fields (``strength=4``, ``load_kg=30``).
    """
    assert jumper is not None  # (filled in by @checked)
    assert conditions is not None
    load = load_encumbrance(jumper, conditions)
    return JumpReport.of(
        jumping.jump(
            jumper.strength,
            jumper.athletics,
            jumper.mega_strength,
            direction,
            distance_m,
            ruleset=ruleset,
            specialty=specialty,
            mega_in_pool=mega_in_pool,
            conditions=on_roll(JUMP_ROLL, jumper, conditions, ruleset=ruleset, load=load),
            load=load,
        )
    )


CALCULATOR = Calculator(
    key="jumping",
    title="Jumping",
    summary=(
        "The exact distribution of a jump's height or length from the (Strength + "
        "Athletics) roll, Mega-Strength's automatic successes and multiplier, and the "
        "chance to clear a given gap or height."
    ),
    compute=jump,
    headlines=(
        Headline(
            ("p_clear", "successes_needed", "mean_distance"),
            when=lambda v: v["distance_m"] > 0,
            question="Does he clear the distance, and the chance",
        ),
        Headline(("mean_distance", "pool"), question="No distance to clear: how far he jumps"),
    ),
    rules=(rule(QR, "Movement", "Jumping"), rule(QR, "Specialties")),
    options=("ruleset", "specialty", "mega_in_pool"),
    views=(
        ChartView(
            "Distribution of the jump's distance",
            "Metres",
            JumpReport.chart,
            highlight="clears the distance",
        ),
    ),
    example=(
        "from ruleslab.calculators.jumping import jump\n"
        "from ruleslab.character import Character, Conditions\n"
        "hero = Character(strength=3, athletics=2, mega_strength=1)\n"
        "r = jump(jumper=hero, direction='horizontal', distance_m=30,\n"
        "         conditions=Conditions(load_kg=40, daze='dazed'))\n"
        "print(float(r.p_clear), r.explain())"
    ),
)
