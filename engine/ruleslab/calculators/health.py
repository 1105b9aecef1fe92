"""The Health & soak calculator (key ``health``): a character's track, the damage on it, soak.

The rules are in :mod:`ruleslab.quickref.health` (the 2.0 and 2.1 tracks, how damage
fills them, stun healing) and :mod:`ruleslab.quickref.soak`; this module declares the
calculator's inputs and combines the rules into one explained result
(:class:`HealthReport`), drawn as a health track. See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, Headline, HealthTrackView
from ruleslab.explain import Explained, Figure
from ruleslab.inputs import ONLY_UNDER_21, SOAK_ROUNDING
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, IntParam, checked
from ruleslab.quickref.conditions import stun_after_scene
from ruleslab.quickref.health import (
    DYING,
    INCAP,
    NORMAL,
    STATES,
    WOUND_TRAITS,
    HealthLevel,
    fill,
    stun_recovery,
    track,
)
from ruleslab.quickref.soak import Soak, soak
from ruleslab.records import Role
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "CHARACTER", "CHARACTER_CONDITIONS", "HealthReport", "health"]


@dataclass(frozen=True, kw_only=True)
class HealthReport(Explained):
    """Result of :func:`health`: the track, the damage on it, state and soak.

    ``levels`` is the track (:class:`~ruleslab.quickref.health.HealthLevel`), ``filled``
    what fills each box, ``state`` a key of :data:`~ruleslab.quickref.health.STATES`,
    ``penalty`` the current wound penalty (``None`` once Incapacitated or
    worse); ``stun_turns`` the turns per level of stun healed.
    """

    ruleset: str
    levels: tuple[HealthLevel, ...]
    filled: tuple[str | None, ...]
    state: str
    penalty: int | None
    overflow: int
    stun_lost: int
    soak: Soak
    stun_turns: int

    def count(self, kind: str) -> int:
        """How many levels of this kind (normal, incap, dying) the track has."""
        return sum(1 for lv in self.levels if lv.kind == kind)

    @property
    def total_levels(self) -> int:
        return len(self.levels)

    def penalty_text(self) -> str:
        if self.penalty is None:
            return f"— ({STATES[self.state]})"
        return f"\u2212{self.penalty}"

    def boxes(self) -> list[dict[str, object]]:
        """The track for drawing: one dict per box (index, label, kind, filled)."""
        return [
            {"index": i, "label": lv.label, "kind": lv.kind, "filled": f or ""}
            for i, (lv, f) in enumerate(zip(self.levels, self.filled, strict=True))
        ]

    def figures(self) -> tuple[Figure, ...]:
        normal, incap, dying = self.count(NORMAL), self.count(INCAP), self.count(DYING)
        return (
            Figure(
                "total_levels",
                "Health levels",
                self.total_levels,
                f"{self.total_levels} ({normal} + {incap} Incap + {dying} Dying)",
            ),
            Figure("wound_penalty", "Current wound penalty", self.penalty, self.penalty_text()),
            Figure("state", "State", self.state, STATES[self.state]),
            *self.soak.figures(),
            Figure(
                "stun_recovery",
                "Stun heals",
                self.stun_turns,
                f"1 level per {self.stun_turns} turn{'s' if self.stun_turns > 1 else ''}",
            ),
        )


RULESET = replace(
    BASE_RULESET,
    help=(
        "2.0: a fixed −0/−1/−2/−4 track grown by Stamina, Mega-Stamina and Quantum. 2.1: "
        "Willpower + 2 × Stamina + 6 × Mega-Stamina + Quantum levels, −1 per "
        "⌊(Stamina + Resistance)/2⌋ + 1 levels of damage. Soak is the same in both "
        "(RN-SOAK-2)."
    ),
)


CHARACTER = Role(
    "character",
    "The character",
    Character,
    WOUND_TRAITS,  # the traits of his track, read the same way by every calculator
    help={
        "strength": "Strength dots (Dying levels).",
        "mega_strength": "Each dot counts as 2 Strength for Dying levels (Mega-Attributes rule).",
        "stamina": "Stamina dots.",
        "mega_stamina": (
            "2.0: each dot gives a −0, −1, −2, −4 and Incap level; 2.1: 6 levels each; "
            "both: +1 bashing and lethal soak."
        ),
        "quantum": "Quantum dots.",
        "willpower": "Willpower dots (2.1 health levels only).",
        "resistance": "Resistance dots (2.1 wound-penalty step only).",
    },
    defaults={"strength": 2, "stamina": 2, "quantum": 0},
    labels={"willpower": "Willpower (2.1)", "resistance": "Resistance (2.1)"},
    shown_when_field={"willpower": ONLY_UNDER_21, "resistance": ONLY_UNDER_21},
)
"""The character whose track it is: Strength and Mega-Strength (Dying levels), Stamina,
Mega-Stamina and Quantum (levels and soak), Willpower and Resistance (2.1 only)."""
CHARACTER_CONDITIONS = Role(
    "conditions",
    "The character's conditions",
    Conditions,
    ("scene_ended",),
    help={
        "scene_ended": (
            "Stun damage ‘goes away at the end of the scene’: tick to clear the stun levels "
            "from the track (rules note RN-COND-4)."
        ),
    },
)
"""Whether the scene has ended: its stun damage then goes away
(:func:`ruleslab.quickref.conditions.stun_after_scene`); no other condition touches the track."""


def _armour_soak(kind: str) -> IntParam:
    return IntParam(
        f"armour_{kind}",
        f"Armour soak vs {kind}",
        minimum=0,
        maximum=50,
        help=f"Soak the armour (or a power) adds vs {kind}.",
    )


def _damage(kind: str, help: str) -> IntParam:
    return IntParam(kind, f"{kind.capitalize()} damage taken", minimum=0, maximum=500, help=help)


@checked(
    RULESET,
    CHARACTER,
    IntParam(
        "armour_levels",
        "Armour health levels",
        minimum=0,
        maximum=20,
        help="Health levels the armour gives (−0).",
    ),
    _armour_soak("bashing"),
    _armour_soak("lethal"),
    _armour_soak("aggravated"),
    _damage("bashing", "Levels of bashing damage on the track."),
    _damage("lethal", "Levels of lethal damage on the track."),
    _damage("aggravated", "Levels of aggravated damage on the track."),
    _damage(
        "stun",
        "Levels of stun (from bashing pings): fills the boxes after other damage, never "
        "a Dying level; gone at the end of the scene.",
    ),
    CHARACTER_CONDITIONS,
    BoolParam(
        "mega_stamina_elsewhere",
        "Mega-Stamina also counts as 2 Stamina in the track",
        help=(
            "Off (default): Mega-Stamina gives only its own levels (2.0: “rather than adding +2 "
            "to Stamina for HL calculations”; 2.1: its × 6). On: it also counts as 2 Stamina "
            "in Dying levels (2.0) or the wound-penalty step, Incap and Dying levels (2.1). "
            "See rules note RN-HEALTH-3."
        ),
    ),
    ChoiceParam(
        "death_at",
        "Death",
        choices=(
            ("last_dying", "When the last Dying level is filled"),
            ("beyond", "Only from damage beyond the last Dying level"),
        ),
        help="The text gives Dying levels but not when death comes. See rules note RN-HEALTH-8.",
    ),
    SOAK_ROUNDING,
)
def health(
    ruleset: str = V21,
    character: Character | None = None,
    armour_levels: int = 0,
    armour_bashing: int = 0,
    armour_lethal: int = 0,
    armour_aggravated: int = 0,
    bashing: int = 0,
    lethal: int = 0,
    aggravated: int = 0,
    stun: int = 0,
    conditions: Conditions | None = None,
    mega_stamina_elsewhere: bool = False,
    death_at: str = "last_dying",
    soak_rounding: str = "down",
) -> HealthReport:
    """A character's health track (2.0 or 2.1), the damage on it, state and soak.

    The track is :func:`~ruleslab.quickref.health.track`'s, filled by
    :func:`~ruleslab.quickref.health.fill` (worst damage first, then stun); soak is
    :func:`~ruleslab.quickref.soak.soak`'s ("(Quantum + Stamina + Mega-Stamina)
    Bashing/(Quantum + Stamina/2 + Mega-Stamina) Lethal/(Quantum/2)
    Aggravated", plus armour); stun "heals at the rate of 1 level per (10 -
    Stamina) turns, minimum 1, and goes away at the end of the scene": once
    ``conditions.scene_ended``, the entered stun levels are cleared before the
    track is filled (:func:`ruleslab.quickref.conditions.stun_after_scene`, rules note
    RN-COND-4), so the boxes, wound penalty and state follow. ``character`` and
    ``conditions`` are records (``None``: the form's defaults); a caller may
    instead pass their fields (``stamina=3``, ``scene_ended=True``).
    """
    assert character is not None  # (filled in by @checked)
    assert conditions is not None
    c = character
    levels, steps = track(
        ruleset,
        strength=c.strength,
        mega_strength=c.mega_strength,
        stamina=c.stamina,
        mega_stamina=c.mega_stamina,
        quantum=c.quantum,
        willpower=c.willpower,
        resistance=c.resistance,
        armour_levels=armour_levels,
        mega_stamina_elsewhere=mega_stamina_elsewhere,
    )
    stun_left, scene_step = stun_after_scene(stun, conditions)
    done = fill(
        levels,
        bashing=bashing,
        lethal=lethal,
        aggravated=aggravated,
        stun=stun_left,
        death_at=death_at,
    )
    sk = soak(
        quantum=c.quantum,
        stamina=c.stamina,
        mega_stamina=c.mega_stamina,
        armour_bashing=armour_bashing,
        armour_lethal=armour_lethal,
        armour_aggravated=armour_aggravated,
        soak_rounding=soak_rounding,
    )
    turns, stun_steps = stun_recovery(c.stamina, c.mega_stamina)
    scene_steps = () if scene_step is None else (scene_step,)
    return HealthReport(
        ruleset=ruleset,
        levels=levels,
        filled=done.filled,
        state=done.state,
        penalty=done.penalty,
        overflow=done.overflow,
        stun_lost=done.stun_lost,
        soak=sk,
        stun_turns=turns,
        steps=(*steps, *scene_steps, *done.steps, *sk.steps, *stun_steps),
    )


CALCULATOR = Calculator(
    key="health",
    title="Health & soak",
    summary=(
        "A character's health track under 2.0 or 2.1, filled as damage is entered: "
        "wound penalty, state (hurt, incapacitated, dying, dead) and soak."
    ),
    compute=health,
    headlines=(
        Headline(
            ("state", "wound_penalty", "total_levels"),
            when=lambda v: v["bashing"] + v["lethal"] + v["aggravated"] + v["stun"] > 0,
            question="What his wounds leave him: his state and wound penalty",
        ),
        Headline(("total_levels", "soak", "state"), question="Unhurt: his health levels and soak"),
    ),
    rules=(
        rule(QR, "2.0 Rules", "Health Levels, Soak, Combat (Stun Damage)"),
        rule(QR, "2.1 Rules", "Health Levels"),
    ),
    options=("mega_stamina_elsewhere", "death_at", "soak_rounding"),
    views=(HealthTrackView(),),
    example=(
        "from ruleslab.calculators.health import health\n"
        "from ruleslab.character import Character, Conditions\n"
        "from ruleslab.quickref.health import track_20\n"
        "hero = Character(strength=3, stamina=3, quantum=2)\n"
        "r = health(ruleset='2.0', character=hero, bashing=1, lethal=2, stun=4)\n"
        "print(r.explain())\n"
        "print(r.figure('wound_penalty').text, r.figure('soak').text)\n"
        "later = health(ruleset='2.0', character=hero, bashing=1, lethal=2, stun=4,\n"
        "               conditions=Conditions(scene_ended=True))\n"
        "print(later.figure('wound_penalty').text)\n"
        "levels, _ = track_20(strength=3, stamina=5)\n"
        "print(' '.join(lv.label for lv in levels))"
    ),
)
