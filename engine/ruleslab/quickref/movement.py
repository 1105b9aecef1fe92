"""Movement: walking, running and sprinting speeds, with encumbrance.

Quick reference › Movement:

    • Walking: (Strength + Dexterity) meters/round.
    • Running: (5 + [Dexterity * 2] + Strength) meters/round.
    • Sprinting: (5 + [Athletics] + [Dexterity * 3] + [Strength]) meters/round.
      Sprinting characters may not take any actions during the turn except
      defensive maneuvers, and are at +1 difficulty to all defensive maneuvers
      they take.

Quick reference › Encumbrance (the tier comes from
:func:`ruleslab.quickref.encumbrance.encumbrance`): Light "reduces her Dexterity by 1 for the
purposes of movement", Moderate "subtracts 1 from Strength and Dexterity for effective movement
speeds", Heavy "-2 to strength and dexterity for movement … Heavily encumbered characters may
not run or sprint"; each tier: "The dexterity penalty may not reduce Walking
speeds to lower than 3 m/round."

Quick reference › Mega-Attributes: "Unless stated otherwise (or separately
accounted for), each dot of a Mega-Attribute counts for 2 dots of an
attribute." The speed formulas do not account for Mega-Strength or
Mega-Dexterity, so each Mega dot counts 2 dots in them (rules note RN-MOVE-1).

Readings of the text: ``docs/rules-notes/movement.md`` (RN-MOVE-1 … RN-MOVE-4).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.explain import Explained, Figure, Step
from ruleslab.quickref.encumbrance import ENCUMBRANCE, Encumbrance
from ruleslab.quickref.mega import effective
from ruleslab.sources import QR, rule

__all__ = [
    "SPRINT_LIMITS",
    "MovementResult",
    "movement",
]

MOVEMENT = rule(QR, "Movement")
WALKING = rule(QR, "Movement", "Walking")
RUNNING = rule(QR, "Movement", "Running")
SPRINTING = rule(QR, "Movement", "Sprinting")

SPRINT_LIMITS = (
    "While sprinting: no actions that turn except defensive maneuvers, "
    "and +1 difficulty to every defensive maneuver taken"
)


@dataclass(frozen=True, kw_only=True)
class MovementResult(Explained):
    """Speeds in metres per round (``None``: not allowed) and the encumbrance behind them.

    ``strength_for_movement``/``dexterity_for_movement`` are the effective
    attributes (Mega dots counted twice) after the encumbrance penalty.
    """

    strength: int
    dexterity: int
    athletics: int
    mega_strength: int
    mega_dexterity: int
    strength_for_movement: int
    dexterity_for_movement: int
    walking: int | None
    running: int | None
    sprinting: int | None
    encumbrance: Encumbrance

    @property
    def effects(self) -> tuple[str, ...]:
        """The encumbrance effects and, if she may sprint, sprinting's limits."""
        out: tuple[str, ...] = (self.encumbrance.effects.text(),)
        if self.sprinting is not None:
            out += (SPRINT_LIMITS + ".",)
        return out

    def _speed(self, key: str, label: str, value: int | None, why: str) -> Figure:
        return Figure(key, label, value, why if value is None else f"{value} m/round")

    def figures(self) -> tuple[Figure, ...]:
        enc = self.encumbrance
        no_move = f"Cannot move ({enc.tier_label.lower()})"
        why = no_move if not enc.effects.can_move else f"Not allowed ({enc.tier_label.lower()})"
        return (
            self._speed("walking", "Walking", self.walking, no_move),
            self._speed("running", "Running", self.running, why),
            self._speed("sprinting", "Sprinting", self.sprinting, why),
            Figure("tier", "Encumbrance", enc.tier, enc.tier_label),
            Figure("effects", "Effects", self.effects, " ".join(self.effects)),
        )


def _penalised(name: str, value: int, penalty: int, tier: str) -> tuple[int, Step | None]:
    """An effective attribute after an encumbrance penalty (never below 0, RN-MOVE-3)."""
    if not penalty:
        return value, None
    out = max(0, value - penalty)
    clamp = " (not below 0, rules note RN-MOVE-3)" if value - penalty < 0 else ""
    return out, Step(
        f"{name} for movement = {value} − {penalty} ({tier} encumbrance) = {out}{clamp}",
        ENCUMBRANCE,
    )


def movement(
    strength: int,
    dexterity: int,
    athletics: int,
    mega_strength: int,
    mega_dexterity: int,
    load: Encumbrance,
    walking_floor: str = "whole",
) -> MovementResult:
    """Walking, running and sprinting speeds (m/round) while carrying a load of
    encumbrance ``load`` (:func:`ruleslab.quickref.encumbrance.encumbrance`, worked out once by
    the caller, as for the rolls).

    Walking = Str + Dex, Running = 5 + 2 × Dex + Str, Sprinting = 5 + Athletics
    + 3 × Dex + Str, with Strength and Dexterity counting Mega dots twice and
    lowered by the encumbrance tier's movement penalties. Walking is kept at
    3 m/round at least while encumbered (RN-MOVE-2); heavy encumbrance forbids
    running and sprinting; a load over capacity forbids moving at all (RN-ENC-2).
    """
    steps: list[Step] = []
    s_eff = effective("Strength", strength, mega_strength, purpose="for movement speeds")
    d_eff = effective("Dexterity", dexterity, mega_dexterity, purpose="for movement speeds")
    for e in (s_eff, d_eff):
        if e.step is not None:
            steps.append(e.step)
    str_dots, dex_dots = s_eff.value, d_eff.value

    enc = load
    steps.extend(enc.steps)
    fx = enc.effects
    tier = enc.tier_label.lower()

    def result(
        walk: int | None, run: int | None, sprint: int | None, s: int, d: int
    ) -> MovementResult:
        return MovementResult(
            strength=strength,
            dexterity=dexterity,
            athletics=athletics,
            mega_strength=mega_strength,
            mega_dexterity=mega_dexterity,
            strength_for_movement=s,
            dexterity_for_movement=d,
            walking=walk,
            running=run,
            sprinting=sprint,
            encumbrance=enc,
            steps=tuple(steps),
        )

    if not fx.can_move:
        steps.append(
            Step(
                f"{enc.tier_label}: the character cannot move while carrying this load, so "
                "she neither walks, runs nor sprints (rules note RN-ENC-2)",
                ENCUMBRANCE,
            )
        )
        return result(None, None, None, str_dots, dex_dots)

    str_moving, s_step = _penalised("Strength", str_dots, fx.str_movement_penalty, tier)
    dex_moving, d_step = _penalised("Dexterity", dex_dots, fx.dex_movement_penalty, tier)
    for st in (s_step, d_step):
        if st is not None:
            steps.append(st)

    # Walking, and the 3 m/round floor on what the penalty may take away (RN-MOVE-2).
    walk = str_moving + dex_moving
    steps.append(Step(f"Walking = Str {str_moving} + Dex {dex_moving} = {walk} m/round", WALKING))
    if fx.walking_floor_m is not None and (fx.str_movement_penalty or fx.dex_movement_penalty):
        if walking_floor == "whole":
            before = str_dots + dex_dots
            what = f"the encumbrance penalty (unencumbered Walking {before} m/round)"
        else:
            before = str_moving + dex_dots
            what = (
                "the Dexterity penalty (Walking before it: "
                f"Str {str_moving} + Dex {dex_dots} = {before})"
            )
        floor = min(fx.walking_floor_m, before)
        if walk < floor:
            steps.append(
                Step(
                    f"{what[0].upper()}{what[1:]} may not reduce Walking below "
                    f"{fx.walking_floor_m} m/round: Walking = {floor} m/round "
                    "(rules notes RN-MOVE-2, RN-ENC-3)",
                    ENCUMBRANCE,
                )
            )
            walk = floor

    if not fx.can_run:
        steps.append(
            Step(
                f"{enc.tier_label} encumbrance: the character may not run or sprint",
                ENCUMBRANCE,
            )
        )
        return result(walk, None, None, str_moving, dex_moving)

    run = 5 + 2 * dex_moving + str_moving
    steps.append(
        Step(f"Running = 5 + 2 × Dex {dex_moving} + Str {str_moving} = {run} m/round", RUNNING)
    )
    sprint = 5 + athletics + 3 * dex_moving + str_moving
    steps.append(
        Step(
            f"Sprinting = 5 + Athletics {athletics} + 3 × Dex {dex_moving} + Str {str_moving} "
            f"= {sprint} m/round",
            SPRINTING,
        )
    )
    steps.append(Step(SPRINT_LIMITS, SPRINTING))
    return result(walk, run, sprint, str_moving, dex_moving)
