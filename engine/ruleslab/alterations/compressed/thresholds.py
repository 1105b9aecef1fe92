"""Compressed combat's health thresholds: the levels of damage that take a combatant out.

Combat alterations › Compressed Combat › Resolution › Damage and Death: "The total
successes rolled by a "side" equal the levels of damage a character takes."

A line's ``track`` item gives the traits of a health track, built under the
calculator's Rules version by :func:`ruleslab.quickref.health.track`:

Quick reference › 2.0 Rules › Health Levels: "Characters start with -0 x 1/-1 x
2/-2 x 2/-4 x 1/Incap health levels, with Dying HLs equal to (Strength +
Stamina)."

Quick reference › 2.1 Rules › Health Levels: "Characters have (Willpower +
[Stamina * 2] + [Mega-Stamina * 6] + Quantum) health levels. The character takes a
-1 wound penalty for every (Stamina + Resistance)/2 + 1, (round down) health levels
of damage they suffer. Past that, a character has an additional (Stamina)
Incapacitated levels, and Dying health levels equivalent to (Strength + Stamina) *
2."

A combatant is Incapacitated when their first Incap level is filled and dead when
their last Dying level is (rules notes RN-COMP-15, RN-HEALTH-8). Without a track, the
line's ``incap``/``dead`` or the side's fields give the thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.alterations.compressed.combatants import Combatant
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.quickref.health import DYING, HL_20, HL_21, INCAP, HealthLevel, track
from ruleslab.ruleset import V20, V21

__all__ = [
    "HEALTH_LEVELS",
    "Thresholds",
    "combatant_thresholds",
    "thresholds",
    "thresholds_20",
    "track_thresholds",
]

HEALTH_LEVELS = {V20: HL_20, V21: HL_21}
"""Each ruleset's Health Levels rule, cited by the track's step."""


@dataclass(frozen=True)
class Thresholds:
    """A track's thresholds: (``incap``, ``dead``) levels of damage, and what made them.

    ``normal`` counts the normal levels less armour's, ``armour`` armour's −0
    levels, ``incap_levels`` and ``dying`` the Incapacitated and Dying levels.
    """

    ruleset: str
    incap: int
    dead: int
    normal: int
    armour: int
    incap_levels: int
    dying: int


def track_thresholds(
    ruleset: str,
    *,
    strength: int,
    stamina: int,
    mega_strength: int = 0,
    mega_stamina: int = 0,
    quantum: int = 0,
    armour_levels: int = 0,
    willpower: int | None = None,
    resistance: int = 0,
) -> Thresholds:
    """The thresholds of the track :func:`ruleslab.quickref.health.track` builds under ``ruleset``.

    Incapacitated when the first Incap level is filled; dead when the last Dying
    level is filled (rules note RN-HEALTH-8's default). 2.1 needs ``willpower``
    (:class:`ValueError` without it); its ``resistance`` moves only the wound
    penalties, never a threshold. 2.0 has no use for either.
    """
    if ruleset == V21 and willpower is None:
        raise ValueError("the 2.1 track needs Willpower")
    levels, _ = track(
        ruleset,
        strength=strength,
        mega_strength=mega_strength,
        stamina=stamina,
        mega_stamina=mega_stamina,
        quantum=quantum,
        willpower=1 if willpower is None else willpower,
        resistance=resistance,
        armour_levels=armour_levels,
    )
    return _counted(ruleset, levels)


def _counted(ruleset: str, levels: tuple[HealthLevel, ...]) -> Thresholds:
    incap = next(i for i, lv in enumerate(levels) if lv.kind == INCAP) + 1
    armour = sum(1 for lv in levels if lv.source == "armour")
    return Thresholds(
        ruleset=ruleset,
        incap=incap,
        dead=len(levels),
        normal=incap - 1 - armour,
        armour=armour,
        incap_levels=sum(1 for lv in levels if lv.kind == INCAP),
        dying=sum(1 for lv in levels if lv.kind == DYING),
    )


def thresholds(ruleset: str, **traits: int) -> tuple[int, int]:
    """(levels of damage to Incapacitated, levels to Dead) on the track of ``ruleset``.

    2.1, Str 2, Sta 3, Will 5: 5 + 3 × 2 = 11 levels, 3 Incap, (2 + 3) × 2 = 10
    Dying → (12, 24). 2.0: see :func:`thresholds_20`.
    """
    t = track_thresholds(ruleset, **traits)
    return t.incap, t.dead


def thresholds_20(**traits: int) -> tuple[int, int]:
    """(levels of damage to Incapacitated, levels to Dead) on a 2.0 track: :func:`thresholds`
    under 2.0, the same traits (Strength, Stamina, Mega-Strength, Mega-Stamina, Quantum,
    armour levels).

    Incapacitated when the first Incap level is filled; dead when the last
    Dying level is filled (rules note RN-HEALTH-8's default). A Str 2, Sta 2
    character: 6 normal levels, Incap, 4 Dying → (7, 11).
    """
    return thresholds(V20, **traits)


def _levels_text(t: Thresholds, traits: dict[str, int]) -> str:
    """How the track's levels add up, as the text of ``t.ruleset`` counts them."""
    armour = f" + {t.armour} armour (−0)" if t.armour else ""
    if t.ruleset == V21:
        ignored = ""
        if "resistance" in traits:
            ignored = "; Resistance moves only the wound penalties, not the thresholds"
        return (
            f"{t.normal} health levels (Willpower + Stamina × 2 + Mega-Stamina × 6 + Quantum)"
            f"{armour}, {t.incap_levels} Incapacitated (Stamina), {t.dying} Dying "
            f"((Strength + Stamina) × 2){ignored}"
        )
    unused = [n for n in ("willpower", "resistance") if n in traits]
    ignored = ""
    if unused:
        ignored = f"; {' and '.join(n.capitalize() for n in unused)} count only under 2.1"
    return (
        f"{t.normal} normal levels{armour}, {t.incap_levels} Incap, {t.dying} Dying "
        f"(Strength + Stamina){ignored}"
    )


def combatant_thresholds(
    c: Combatant,
    label: str,
    *,
    incap: int,
    dead: int,
    ruleset: str,
    field: str,
    steps: list[Step],
) -> tuple[int, int]:
    """(levels to Incapacitated, levels to dead) of ``c`` on side ``label``: its track's
    under ``ruleset`` (with its step), else its ``incap``/``dead`` items, else the side's
    ``incap``/``dead``. A 2.1 track without Willpower raises :class:`InputError` on
    ``field`` (the side's combatants), naming the line."""
    if not c.track:
        return (c.incap if c.incap is not None else incap), (c.dead if c.dead is not None else dead)
    traits = dict(c.track)
    try:
        t = track_thresholds(ruleset, **traits)
    except ValueError:
        raise InputError(
            field,
            f"{label} combatants, line {c.line}: the 2.1 track needs Willpower, e.g. "
            "“track Str 2 Sta 3 Will 5” (or choose Rules version 2.0).",
        ) from None
    steps.append(
        Step(
            f"{label}, {c.name}: {ruleset} track ("
            + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in c.track)
            + f"): {_levels_text(t, traits)}: Incapacitated at {t.incap} levels of "
            f"damage, dead at {t.dead} (the last Dying level filled; rules note RN-COMP-15)",
            HEALTH_LEVELS[ruleset],
        )
    )
    return t.incap, t.dead
