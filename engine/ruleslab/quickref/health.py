"""Health levels (2.0 and 2.1), damage on the track, and the character's state.

Quick reference › 2.0 Rules › Health Levels:

    Characters start with -0 x 1/-1 x 2/-2 x 2/-4 x 1/Incap health levels, with
    Dying HLs equal to (Strength + Stamina).

    Characters gain 1 health level for every odd point of Stamina past 1, so 1
    at 3, 1 at 5, etc. These HLs go -0/-1/-2/-4 and cycle back (so Sta 3 gets a
    -0 HL, Sta 5 gets a -1 HL, Sta 7 gets a -2 HL, Sta 9 grants a -4 HL, Sta 11
    grants another -0, etc.)

    Each point of M-Sta gives 1 -0, 1 -1, 1 -2, 1 -4, and 1 Incap HL (rather
    than adding +2 to Stamina for HL calculations). Each point of Quantum gives
    a -0 HL.

    Health Levels from armor are -0 HLs.

Quick reference › 2.1 Rules › Health Levels:

    Characters have (Willpower + [Stamina * 2] + [Mega-Stamina * 6] + Quantum)
    health levels. The character takes a -1 wound penalty for every (Stamina +
    Resistance)/2 + 1, (round down) health levels of damage they suffer. Past
    that, a character has an additional (Stamina) Incapacitated levels, and
    Dying health levels equivalent to (Strength + Stamina) * 2.

Quick reference › 2.0 Rules › Combat:

    Stun Damage: Stun damage is soaked as bashing damage, but heals at the rate
    of 1 level per (10 - Stamina) turns, minimum 1, and goes away at the end of
    the scene. Stun damage does not spill over to bashing or lethal. Filling a
    character's health levels with Stun damage knocks them unconscious.

A track is an ordered tuple of :class:`HealthLevel` (normal levels with their
wound penalty, then Incapacitated, then Dying). :func:`fill` puts damage on it.
Readings of silent or ambiguous text: ``docs/rules-notes/health.md``
(RN-HEALTH-1 … RN-HEALTH-9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from ruleslab.explain import Step
from ruleslab.quickref.mega import effective
from ruleslab.quickref.soak import STUN_DAMAGE
from ruleslab.ruleset import V20, V21
from ruleslab.sources import QR, rule

__all__ = [
    "DYING",
    "INCAP",
    "NORMAL",
    "STATES",
    "WOUND_TRAITS",
    "HealthLevel",
    "TrackFill",
    "Wounds",
    "fill",
    "penalty_step_21",
    "stun_recovery",
    "stun_recovery_turns",
    "track",
    "track_20",
    "track_21",
    "wounds",
]

HL_20 = rule(QR, "2.0 Rules", "Health Levels")
HL_21 = rule(QR, "2.1 Rules", "Health Levels")
TRACK = "Health track"
"""Source name for how damage fills the track (the text is silent: RN-HEALTH-5..7)."""

NORMAL, INCAP, DYING = "normal", "incap", "dying"

CYCLE_20 = (0, 1, 2, 4)
"""2.0's -0/-1/-2/-4 cycle (penalties as positive numbers of dice/difficulty)."""

DAMAGE_ORDER = ("aggravated", "lethal", "bashing")
"""Boxes fill from the top, most severe damage first (RN-HEALTH-5)."""

STATES = {
    "unhurt": "Unhurt",
    "hurt": "Hurt",
    "unconscious": "Unconscious (stun)",
    "incapacitated": "Incapacitated",
    "dying": "Dying",
    "dead": "Dead",
}


@dataclass(frozen=True)
class HealthLevel:
    """One box of the track.

    ``penalty`` is the wound penalty while this is the worst box filled, as a
    positive number (2 means −2); ``None`` for Incapacitated and Dying levels.
    ``kind`` is ``"normal"``, ``"incap"`` or ``"dying"``; ``source`` says where the
    level comes from ("base", "Stamina 5", "Mega-Stamina", "Quantum", "armour" …).
    """

    penalty: int | None
    kind: str
    source: str

    @property
    def label(self) -> str:
        """ "−0", "−2", "Incap", "Dying"."""
        if self.kind == INCAP:
            return "Incap"
        if self.kind == DYING:
            return "Dying"
        return f"\u2212{self.penalty}"


def _normal(penalty: int, source: str, n: int = 1) -> list[HealthLevel]:
    return [HealthLevel(penalty, NORMAL, source) for _ in range(n)]


def _strength_stamina(
    strength: int, mega_strength: int, stamina: int, mega_stamina: int, mega_elsewhere: bool
) -> tuple[int, int, list[Step]]:
    """Strength and Stamina as used for Dying (and 2.1's Incap and penalty step)."""
    steps: list[Step] = []
    s = effective("Strength", strength, mega_strength, purpose="for Dying levels")
    if s.step:
        steps.append(s.step)
    if mega_elsewhere:
        t = effective("Stamina", stamina, mega_stamina, purpose="for the Stamina-based levels")
        if t.step:
            steps.append(
                Step(
                    t.step.text + " (option: Mega-Stamina also counts as 2 Stamina; "
                    "rules note RN-HEALTH-3)",
                    t.step.rule,
                )
            )
        sta = t.value
    else:
        sta = stamina
    return s.value, sta, steps


class _TrackInputs(TypedDict):
    """The inputs both editions' tracks take."""

    strength: int
    mega_strength: int
    stamina: int
    mega_stamina: int
    quantum: int
    armour_levels: int
    mega_stamina_elsewhere: bool


def track_20(
    *,
    strength: int,
    mega_strength: int = 0,
    stamina: int,
    mega_stamina: int = 0,
    quantum: int = 0,
    armour_levels: int = 0,
    mega_stamina_elsewhere: bool = False,
) -> tuple[tuple[HealthLevel, ...], tuple[Step, ...]]:
    """The 2.0 track (levels, steps): normal levels sorted by penalty, Incap, then Dying.

    Armour's −0 levels come first (RN-HEALTH-4). Mega-Stamina gives its own five
    levels "rather than adding +2 to Stamina for HL calculations", so by default
    it does not count in Dying = Strength + Stamina (RN-HEALTH-3).
    """
    steps: list[Step] = []
    levels: list[HealthLevel] = _normal(0, "armour", armour_levels)
    levels += _normal(0, "base") + _normal(1, "base", 2) + _normal(2, "base", 2)
    levels += _normal(4, "base")
    steps.append(Step("Base levels: −0 ×1, −1 ×2, −2 ×2, −4 ×1, Incap ×1", HL_20))
    extra = []
    for point in range(3, stamina + 1, 2):
        penalty = CYCLE_20[((point - 3) // 2) % 4]
        levels += _normal(penalty, f"Stamina {point}")
        extra.append(f"Sta {point} → −{penalty}")
    if extra:
        steps.append(
            Step(
                f"Stamina {stamina}: one level per odd point past 1, cycling −0/−1/−2/−4: "
                + ", ".join(extra),
                HL_20,
            )
        )
    else:
        steps.append(Step(f"Stamina {stamina}: no odd point past 1, no extra level", HL_20))
    if mega_stamina:
        for p in CYCLE_20:
            levels += _normal(p, "Mega-Stamina", mega_stamina)
        steps.append(
            Step(
                f"Mega-Stamina {mega_stamina}: {mega_stamina} × (−0, −1, −2, −4, Incap) levels, "
                "rather than adding +2 to Stamina for HL calculations (the Mega-Attributes "
                "rule is accounted for separately here)",
                HL_20,
            )
        )
    if quantum:
        levels += _normal(0, "Quantum", quantum)
        steps.append(Step(f"Quantum {quantum}: {quantum} × −0 levels", HL_20))
    if armour_levels:
        steps.append(
            Step(
                f"Armour: {armour_levels} × −0 levels, taken first (rules note RN-HEALTH-4)",
                HL_20,
            )
        )
    # Stable sort: armour first among the −0s, then by penalty.
    levels.sort(key=lambda lv: (lv.penalty, lv.source != "armour"))
    levels += [HealthLevel(None, INCAP, "base")]
    levels += [HealthLevel(None, INCAP, "Mega-Stamina") for _ in range(mega_stamina)]
    s, sta, more = _strength_stamina(
        strength, mega_strength, stamina, mega_stamina, mega_stamina_elsewhere
    )
    steps += more
    dying = s + sta
    levels += [HealthLevel(None, DYING, "Strength + Stamina") for _ in range(dying)]
    if not mega_stamina_elsewhere and mega_stamina:
        why = " (Mega-Stamina gave its own levels instead; rules note RN-HEALTH-3)"
    else:
        why = ""
    steps.append(Step(f"Dying levels = Strength {s} + Stamina {sta} = {dying}{why}", HL_20))
    return tuple(levels), tuple(steps)


def penalty_step_21(stamina: int, resistance: int) -> int:
    """Levels of damage per −1: ``⌊(Stamina + Resistance) / 2⌋ + 1`` (RN-HEALTH-2)."""
    return (stamina + resistance) // 2 + 1


def track_21(
    *,
    strength: int,
    mega_strength: int = 0,
    stamina: int,
    mega_stamina: int = 0,
    quantum: int = 0,
    willpower: int,
    resistance: int,
    armour_levels: int = 0,
    mega_stamina_elsewhere: bool = False,
) -> tuple[tuple[HealthLevel, ...], tuple[Step, ...]]:
    """The 2.1 track (levels, steps).

    Normal levels = Willpower + 2 × Stamina + 6 × Mega-Stamina + Quantum; the
    n-th level of damage carries a penalty of ⌊n / step⌋ with step =
    ⌊(Stamina + Resistance)/2⌋ + 1; then Stamina Incap and (Str + Sta) × 2 Dying.
    """
    steps: list[Step] = []
    n = willpower + 2 * stamina + 6 * mega_stamina + quantum
    steps.append(
        Step(
            f"Health levels = Willpower {willpower} + Stamina {stamina} × 2 + Mega-Stamina "
            f"{mega_stamina} × 6 + Quantum {quantum} = {n}"
            + (" (Mega-Stamina is accounted for separately by its × 6)" if mega_stamina else ""),
            HL_21,
        )
    )
    s, sta, more = _strength_stamina(
        strength, mega_strength, stamina, mega_stamina, mega_stamina_elsewhere
    )
    steps += more
    step = penalty_step_21(sta, resistance)
    steps.append(
        Step(
            f"−1 wound penalty per ⌊(Stamina {sta} + Resistance {resistance}) / 2⌋ + 1 = {step} "
            f"levels of damage: the k-th level of damage is at −⌊k / {step}⌋ "
            "(rules note RN-HEALTH-2)",
            HL_21,
        )
    )
    levels = _normal(0, "armour", armour_levels)
    if armour_levels:
        steps.append(
            Step(
                f"Armour: {armour_levels} × −0 levels, taken first and not counted towards the "
                "wound penalty (the 2.0 text: “Health Levels from armor are -0 HLs”; "
                "rules note RN-HEALTH-4)",
                HL_20,
            )
        )
    for k in range(1, n + 1):
        levels += _normal(k // step, "health")
    levels += [HealthLevel(None, INCAP, "Stamina") for _ in range(sta)]
    dying = (s + sta) * 2
    levels += [HealthLevel(None, DYING, "(Strength + Stamina) × 2") for _ in range(dying)]
    steps.append(
        Step(
            f"Then Stamina {sta} Incapacitated levels and (Strength {s} + Stamina {sta}) × 2 "
            f"= {dying} Dying levels",
            HL_21,
        )
    )
    return tuple(levels), tuple(steps)


def track(
    ruleset: str,
    *,
    strength: int,
    mega_strength: int = 0,
    stamina: int,
    mega_stamina: int = 0,
    quantum: int = 0,
    willpower: int,
    resistance: int,
    armour_levels: int = 0,
    mega_stamina_elsewhere: bool = False,
) -> tuple[tuple[HealthLevel, ...], tuple[Step, ...]]:
    """The track under ``ruleset`` (levels, steps): :func:`track_20` for 2.0, which has
    no use for Willpower and Resistance, or :func:`track_21` for 2.1."""
    common = _TrackInputs(
        strength=strength,
        mega_strength=mega_strength,
        stamina=stamina,
        mega_stamina=mega_stamina,
        quantum=quantum,
        armour_levels=armour_levels,
        mega_stamina_elsewhere=mega_stamina_elsewhere,
    )
    if ruleset == V20:
        return track_20(**common)
    assert ruleset == V21
    levels, steps = track_21(willpower=willpower, resistance=resistance, **common)
    return levels, (Step("2.1: Willpower and Resistance count; 2.0 ignores them", HL_21), *steps)


@dataclass(frozen=True)
class TrackFill:
    """Damage on a track: what fills each box, and the resulting state.

    ``filled[i]`` is ``"aggravated"``, ``"lethal"``, ``"bashing"``, ``"stun"`` or
    ``None``. ``state`` is a key of :data:`STATES`. ``penalty`` is the current
    wound penalty (positive, 2 means −2), ``None`` once Incapacitated or worse.
    ``overflow`` is bashing/lethal/aggravated damage beyond the last box;
    ``stun_lost`` is stun that found no box (it does not spill over).
    """

    filled: tuple[str | None, ...]
    state: str
    penalty: int | None
    overflow: int
    stun_lost: int
    steps: tuple[Step, ...]


def fill(
    levels: tuple[HealthLevel, ...],
    *,
    bashing: int = 0,
    lethal: int = 0,
    aggravated: int = 0,
    stun: int = 0,
    death_at: str = "last_dying",
) -> TrackFill:
    """Put damage on a track, most severe first, then stun (RN-HEALTH-5, -6, -7).

    Aggravated, then lethal, then bashing fill the boxes from the top; stun
    fills the boxes after them but never a Dying level ("Stun damage does not
    spill over to bashing or lethal. Filling a character's health levels with
    Stun damage knocks them unconscious."). ``death_at``: ``"last_dying"`` (the
    character dies when the last Dying level is filled) or ``"beyond"`` (only
    damage beyond the last Dying level kills) (RN-HEALTH-8).
    """
    n = len(levels)
    counts = {"aggravated": aggravated, "lethal": lethal, "bashing": bashing}
    severe = [kind for kind in DAMAGE_ORDER for _ in range(counts[kind])]
    placed = severe[:n]
    overflow = len(severe) - len(placed)
    non_dying = sum(1 for lv in levels if lv.kind != DYING)
    room = max(0, non_dying - len(placed))
    stun_placed = min(stun, room)
    stun_lost = stun - stun_placed
    filled: list[str | None] = [*placed, *["stun"] * stun_placed]
    filled += [None] * (n - len(filled))
    steps: list[Step] = []
    total_severe = aggravated + lethal + bashing
    if total_severe:
        steps.append(
            Step(
                f"Damage fills the track from the top, worst first: {aggravated} aggravated, "
                f"{lethal} lethal, {bashing} bashing (rules note RN-HEALTH-5)",
                TRACK,
            )
        )
    if stun:
        text = (
            f"Stun fills the boxes after that, never a Dying level: {stun_placed} of {stun} placed"
        )
        if stun_lost:
            text += f"; {stun_lost} lost (stun does not spill over to bashing or lethal)"
        steps.append(Step(text + " (rules note RN-HEALTH-6)", STUN_DAMAGE))

    last = max((i for i, f in enumerate(filled) if f), default=None)
    dying_total = sum(1 for lv in levels if lv.kind == DYING)
    if overflow or (death_at == "last_dying" and dying_total and len(placed) == n):
        state = "dead"
    elif last is None:
        state = "unhurt"
    elif levels[last].kind == DYING:
        state = "dying"
    elif levels[last].kind == INCAP:
        state = "unconscious" if filled[last] == "stun" else "incapacitated"
    else:
        state = "hurt"
    penalty = levels[last].penalty if state == "hurt" and last is not None else None
    if state == "unhurt":
        penalty = 0
    if state == "dead":
        how = (
            f"{overflow} levels of damage beyond the last Dying level"
            if overflow
            else "every Dying level is filled"
        )
        steps.append(Step(f"Dead: {how} (rules note RN-HEALTH-8)", TRACK))
    elif state == "unconscious":
        steps.append(
            Step(
                "Stun damage fills the last level before Dying: knocked unconscious "
                "(rules note RN-HEALTH-6)",
                STUN_DAMAGE,
            )
        )
    elif state in ("dying", "incapacitated"):
        steps.append(
            Step(
                f"The worst box filled is a{'n Incap' if state != 'dying' else ' Dying'} "
                f"level: {STATES[state]}",
                TRACK,
            )
        )
    elif state == "hurt" and last is not None:  # (hurt: some box is filled)
        steps.append(
            Step(
                f"The worst box filled is a {levels[last].label} level: wound penalty "
                f"−{penalty} (rules note RN-HEALTH-7)",
                TRACK,
            )
        )
    return TrackFill(
        filled=tuple(filled),
        state=state,
        penalty=penalty,
        overflow=overflow,
        stun_lost=stun_lost,
        steps=tuple(steps),
    )


WOUND_TRAITS = (
    "strength",
    "mega_strength",
    "stamina",
    "mega_stamina",
    "quantum",
    "willpower",
    "resistance",
)
"""The traits of a :class:`~ruleslab.character.Character` his track is built from: a
calculator applying his levels lost reads every one of them (rules note RN-COND-7)."""


@dataclass(frozen=True)
class Wounds:
    """What ``levels_lost`` health levels of damage leave him with (:func:`wounds`).

    ``penalty``: the wound penalty (dice off each pool, 2 means −2), ``None`` once
    Incapacitated or worse (he may take no action); ``state``: a key of :data:`STATES`."""

    levels_lost: int
    penalty: int | None
    state: str
    step: Step


def wounds(ruleset: str, character: Any, levels_lost: int) -> Wounds:
    """His wound penalty and state after ``levels_lost`` levels of damage, read off the
    track the Health & soak calculator draws for him (:func:`track`, no armour levels:
    ``levels_lost`` counts the levels below armour's −0s; :func:`fill`): the penalty of
    the worst box filled (RN-HEALTH-7), none past the −0s, no action once Incapacitated
    (rules note RN-COND-7). ``character``: a :class:`~ruleslab.character.Character`
    (every field of :data:`WOUND_TRAITS` read)."""
    levels, _ = track(ruleset, **{t: getattr(character, t) for t in WOUND_TRAITS})
    filled = fill(levels, bashing=levels_lost)
    rule_ = HL_21 if ruleset == V21 else HL_20
    lost = f"{levels_lost} health level{'' if levels_lost == 1 else 's'} lost"
    if filled.penalty is None:
        text = f"{lost}: {STATES[filled.state]}, he may take no action (rules note RN-COND-7)"
    else:
        text = (
            f"{lost}: the worst box filled is a −{filled.penalty} level, wound penalty "
            f"−{filled.penalty} (rules notes RN-HEALTH-7, RN-COND-7)"
        )
    return Wounds(levels_lost, filled.penalty, filled.state, Step(text, rule_))


def stun_recovery_turns(stamina: int) -> int:
    """Turns per level of stun healed: ``max(1, 10 − Stamina)``."""
    return max(1, 10 - stamina)


def stun_recovery(stamina: int, mega_stamina: int = 0) -> tuple[int, tuple[Step, ...]]:
    """(turns per level of stun healed, steps), with effective Stamina (RN-HEALTH-9).

    "Stun damage … heals at the rate of 1 level per (10 - Stamina) turns,
    minimum 1, and goes away at the end of the scene."
    """
    eff = effective("Stamina", stamina, mega_stamina, purpose="for stun healing")
    turns = stun_recovery_turns(eff.value)
    steps = [eff.step] if eff.step else []
    steps.append(
        Step(
            f"Stun heals 1 level per (10 − Stamina {eff.value}) turns, minimum 1: {turns}; "
            "it goes away at the end of the scene (rules note RN-HEALTH-9)",
            STUN_DAMAGE,
        )
    )
    return turns, tuple(steps)
