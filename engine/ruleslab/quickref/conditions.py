"""What a character's conditions do to his rolls: one function per condition, quoting the text.

Every roll a calculator computes is described by a :class:`RollKind` (is it
physical, and how: movement, endurance, other; is it a defensive maneuver;
does it take an action) and passes through :func:`on_roll`, which applies
each condition of :class:`~ruleslab.character.Conditions` in turn and returns
the difficulty added, whether the roll may be taken at all this turn, and a
step per condition that changed something (naming its rule and rules note).

Quick reference › Encumbrance:

    Light Encumbrance: … adds +1 difficulty for all rolls involving long-term
    physical endurance … Moderate Encumbrance: … adding +1 difficulty to all
    physical actions involving movement or endurance … Heavy Encumbrance: …
    suffer +2 difficulty to all physical actions involving movement or
    endurance, … and +1 difficulty to all other physical actions.

Quick reference › Movement › Sprinting:

    Sprinting characters may not take any actions during the turn except
    defensive maneuvers, and are at +1 difficulty to all defensive maneuvers
    they take.

Quick reference › 2.0 Rules › Combat › Dazing/Stunning:

    Dazed characters are at +1 difficulty to all actions, Stunned ones suffer +1
    difficulty to all actions and may not take more than a single action
    (without powers such as Quickness or Temporal Manipulation).

Quick reference › 2.0 Rules › Combat › Stun Damage:

    Stun damage … goes away at the end of the scene.

Quick reference › 2.1 Rules › Defenses and Multiple Actions:

    Characters may take an action to actively defend … Every additional action
    past the first adds a cumulative +1 difficulty penalty rather than
    subtracting dice.

"A difficulty on a defence roll" has one reading everywhere
(:func:`defence_successes`, rules note RN-COND-5): the defence's first
successes pay for the added difficulty, what is left counts; the other
reading ("threshold") is a rules option where a calculator has defence rolls.

Readings: ``docs/rules-notes/README.md`` (RN-COND-*).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.character import Character, Conditions
from ruleslab.dice import dice_text
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.quickref.encumbrance import Encumbrance, encumbrance, kg
from ruleslab.quickref.health import wounds
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = [
    "DAZE_ON_DEFENCE_READINGS",
    "DAZING",
    "DEFENCE_DIFFICULTY_READINGS",
    "ENCUMBRANCE_RULE",
    "MULTIPLE_ACTIONS",
    "PHYSICAL_KINDS",
    "SCALE_NOTE",
    "SPRINTING",
    "STUN_DAMAGE",
    "Modifier",
    "RollKind",
    "actions_allowed",
    "daze_difficulty",
    "defence_successes",
    "encumbrance_difficulty",
    "load_encumbrance",
    "multiple_actions_difficulty",
    "on_roll",
    "paid_by",
    "single_action",
    "sprinting_modifier",
    "stun_after_scene",
    "wound_penalty",
]

ENCUMBRANCE_RULE = rule(QR, "Encumbrance")
SPRINTING = rule(QR, "Movement", "Sprinting")
DAZING = rule(QR, "2.0 Rules", "Combat", "Dazing/Stunning")
STUN_DAMAGE = rule(QR, "2.0 Rules", "Combat", "Stun Damage")
MULTIPLE_ACTIONS = rule(QR, "2.1 Rules", "Multiple Actions")

PHYSICAL_KINDS = ("movement", "endurance", "long_endurance", "other", "none")
"""How a roll is physical, for encumbrance: an action involving movement; one
involving (short-term) endurance; long-term physical endurance; another
physical action; not physical (mental, social, a power's activation)."""

DEFENCE_DIFFICULTY_READINGS = (
    ("spend", "Its first successes pay for it; the rest count"),
    ("threshold", "It must reach the difficulty; then every success counts"),
)
"""The readings of a difficulty added to a defence roll (rules note RN-COND-5)."""

DAZE_ON_DEFENCE_READINGS = (
    ("action", "A defensive maneuver is an action: +1 to it too"),
    ("no_action", "A 2.0 defensive maneuver takes no action: untouched"),
)
"""The readings of Dazed or Stunned ("+1 difficulty to all actions") on a 2.0 dodge,
parry or powerblock (rules note RN-COND-4); the first is every calculator's default."""

SCALE_NOTE = (
    "Scale [X] and Fast-Tracking [X] are reported, not applied: the text gives no "
    "numbers for Scale (rules note RN-COND-6)."
)
"""Said once, here: every calculator that reads weapon tags reports these two this way."""


@dataclass(frozen=True)
class RollKind:
    """What kind of roll a calculator is about to make, as the conditions need to know it.

    ``what`` names it for the steps ("the jump roll"); ``physical`` is one of
    :data:`PHYSICAL_KINDS`; ``defensive``: a defensive maneuver (dodge, parry,
    power block, an active defence); ``action``: it takes one of the turn's
    actions (a 2.0 defensive maneuver, a soak or a Resistance Roll does not).
    """

    what: str
    physical: str = "none"
    defensive: bool = False
    action: bool = True

    def __post_init__(self) -> None:
        if self.physical not in PHYSICAL_KINDS:
            raise ValueError(f"physical must be one of {PHYSICAL_KINDS}, not {self.physical!r}")


@dataclass(frozen=True)
class Modifier:
    """What the conditions do to one roll.

    ``difficulty``: added to the roll's difficulty (each +1 is one more success
    needed, or one fewer counted: see :func:`defence_successes`); ``allowed``:
    whether he may make the roll at all this turn (a sprinter's attack is not);
    ``steps``: one per condition that changed something, in order; ``dice``: dice
    taken off the pool (his wound penalty, rules note RN-COND-7), never below 0 dice.
    """

    difficulty: int
    allowed: bool
    steps: tuple[Step, ...]
    dice: int = 0

    def pool(self, dice: int) -> int:
        """A pool of ``dice`` as rolled under these conditions: less the wound penalty,
        never below 0; none when the roll is not allowed (rules note RN-COND-7)."""
        return max(0, dice - self.dice) if self.allowed else 0

    def less(self) -> str:
        """What a pool's sum says of the wound penalty: " − wound penalty 2" or ""."""
        return f" − wound penalty {self.dice}" if self.dice else ""


def load_encumbrance(
    character: Character,
    conditions: Conditions,
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
    prefix: str = "",
) -> Encumbrance:
    """The encumbrance of what he carries (:func:`ruleslab.quickref.encumbrance.encumbrance`).

    "Heavily encumbered characters may not run or sprint": a Heavy load (or more)
    with ``sprinting`` is refused (:class:`~ruleslab.params.InputError` on the form's
    ``<prefix>sprinting`` field, naming both fields; rules note RN-COND-2), never
    priced.
    """
    enc = encumbrance(
        character.strength,
        character.might,
        character.mega_strength,
        conditions.load_kg,
        heavy_from=heavy_from,
        beyond_heavy=beyond_heavy,
    )
    if conditions.sprinting and not enc.effects.can_sprint:
        raise InputError(
            f"{prefix}sprinting",
            f"“Sprinting this turn” and “Carried load” {kg(conditions.load_kg)} cannot both "
            f"be: the load is {enc.tier_label} for his Str + Might, and ‘Heavily encumbered "
            "characters may not run or sprint’. Lighten the load or clear sprinting (rules "
            "note RN-COND-2).",
        )
    return enc


def encumbrance_difficulty(kind: RollKind, enc: Encumbrance) -> tuple[int, Step | None]:
    """The difficulty his load adds to a roll of ``kind`` (rules notes RN-COND-1).

    Movement rolls take the tier's movement difficulty, endurance rolls its
    endurance difficulty (Light: only long-term endurance), other physical
    rolls its "+1 difficulty to all other physical actions"; a roll that is not
    physical is untouched.
    """
    effects = enc.effects
    added = {
        "movement": effects.movement_difficulty,
        "endurance": 0 if effects.long_term_only else effects.endurance_difficulty,
        "long_endurance": effects.endurance_difficulty,
        "other": effects.other_physical_difficulty,
        "none": 0,
    }[kind.physical]
    if not added:
        return 0, None
    how = {
        "movement": "a physical action involving movement",
        "endurance": "a physical action involving endurance",
        "long_endurance": "a roll involving long-term physical endurance",
        "other": "a physical action",
    }[kind.physical]
    return added, Step(
        f"{enc.tier_label} encumbrance: +{added} difficulty to {kind.what}, {how} "
        "(rules note RN-COND-1)",
        ENCUMBRANCE_RULE,
    )


def sprinting_modifier(kind: RollKind, sprinting: bool) -> tuple[int, bool, Step | None]:
    """Sprinting: no actions but defensive maneuvers, and +1 difficulty to those (RN-COND-2).

    Returns (difficulty added, whether the roll may be made, step).
    """
    if not sprinting:
        return 0, True, None
    if kind.defensive:
        return (
            1,
            True,
            Step(
                f"Sprinting: +1 difficulty to {kind.what}, a defensive maneuver "
                "(rules note RN-COND-2)",
                SPRINTING,
            ),
        )
    if not kind.action:
        return 0, True, None
    return (
        0,
        False,
        Step(
            f"Sprinting: he may take no action this turn but defensive maneuvers, so not "
            f"{kind.what} (rules note RN-COND-2)",
            SPRINTING,
        ),
    )


def daze_difficulty(
    kind: RollKind, daze: str, on_defence: str = "action"
) -> tuple[int, Step | None]:
    """Dazed or Stunned: +1 difficulty to all actions (rules note RN-COND-4).

    A roll that takes no action (a soak, a Resistance Roll) is untouched. A
    defensive maneuver is an action for this rule by default (``on_defence``
    "action": the Sprinting text's "may not take any actions … except defensive
    maneuvers" counts it among them), so a 2.0 dodge, parry or powerblock is at +1
    too; "no_action" leaves a defensive maneuver that takes no action (2.0) alone.
    """
    if on_defence not in dict(DAZE_ON_DEFENCE_READINGS):
        raise ValueError(f"unknown reading {on_defence!r}")
    if daze == "none":
        return 0, None
    if not kind.action and not (kind.defensive and on_defence == "action"):
        return 0, None
    state = "Dazed" if daze == "dazed" else "Stunned"
    why = "" if kind.action else ", a defensive maneuver and so an action"
    return 1, Step(f"{state}: +1 difficulty to {kind.what}{why} (rules note RN-COND-4)", DAZING)


def actions_allowed(conditions: Conditions) -> int | None:
    """The most actions he may take this turn: a Stunned character "may not take more
    than a single action (without powers such as Quickness or Temporal Manipulation)"
    (``extra_actions_power``: he has one, no limit); a sprinter none but defensive
    maneuvers (0); else no limit."""
    if conditions.sprinting:
        return 0
    if conditions.daze == "stunned" and not conditions.extra_actions_power:
        return 1
    return None


def single_action(conditions: Conditions, what: str) -> tuple[Conditions, Step | None]:
    """A Stunned character's actions this turn, where the calculator prices one roll
    (``what``, "this attack"): that roll is his single action, the others he declared
    are not allowed, so he is counted at one action (no multiple-action penalty), with
    a step saying so; anyone else's conditions unchanged (rules note RN-COND-4). The
    Initiative & defence calculator, pricing every declared action, marks the others
    "not allowed" the same way (:func:`ruleslab.quickref.defence.turn.plan_turn`)."""
    if actions_allowed(conditions) != 1 or conditions.sprinting or conditions.actions <= 1:
        return conditions, None
    others = conditions.actions - 1
    step = Step(
        f"Stunned: 'may not take more than a single action (without powers such as "
        f"Quickness or Temporal Manipulation)': {what} is his one action; the other "
        f"{others} of his {conditions.actions} actions this turn are not allowed (rules "
        "note RN-COND-4)",
        DAZING,
    )
    return replace(conditions, actions=1), step


def multiple_actions_difficulty(
    kind: RollKind, conditions: Conditions, ruleset: str = V21
) -> tuple[int, Step | None]:
    """2.1 multiple actions, an active defence counted among them (rules note RN-COND-3).

    ``conditions.actions`` counts his actions this turn, an active defence
    included when ``conditions.active_defence`` is set. Each action past the
    first adds +1, cumulatively: the roll, one of those actions, is at
    +(actions − 1), the difficulty of the turn's last action (a calculator that
    prices each action in turn has its own reading, RN-DEF-7). 2.0 has no such
    penalty.
    """
    actions = conditions.actions
    if ruleset != V21 or not kind.action or actions <= 1:
        return 0, None
    added = actions - 1
    with_defence = ", his active defence one of them" if conditions.active_defence else ""
    return added, Step(
        f"{actions} actions this turn{with_defence}: +{added} difficulty to "
        f"{kind.what} (rules note RN-COND-3)",
        MULTIPLE_ACTIONS,
    )


def wound_penalty(
    kind: RollKind, character: Character, conditions: Conditions, ruleset: str = V21
) -> tuple[int, bool, Step | None]:
    """His levels lost: the wound penalty of his track's worst box filled comes off the
    pool of every roll he makes, a defensive maneuver too; Incapacitated (or worse) he
    may make none (rules note RN-COND-7). Returns (dice off, whether the roll may be
    made, step); nothing lost, nothing changed. ``character`` must hold every trait of
    :data:`ruleslab.quickref.health.WOUND_TRAITS` (his track)."""
    if not conditions.levels_lost:
        return 0, True, None
    w = wounds(ruleset, character, conditions.levels_lost)
    if w.penalty is None:
        return 0, False, Step(f"{w.step.text}: not {kind.what}", w.step.rule)
    if not w.penalty:
        return 0, True, Step(f"{w.step.text}: {kind.what} untouched", w.step.rule)
    return (
        w.penalty,
        True,
        Step(f"{w.step.text}: {dice_text(w.penalty)} off {kind.what}", w.step.rule),
    )


def on_roll(
    kind: RollKind,
    character: Character,
    conditions: Conditions,
    *,
    ruleset: str = V21,
    heavy_from: str = "above_15",
    beyond_heavy: str = "capacity",
    count_actions: bool = True,
    load: Encumbrance | None = None,
    daze_on_defence: str = "action",
) -> Modifier:
    """Every condition applied to one roll: encumbrance, sprinting, Dazed/Stunned,
    the wound penalty (:func:`wound_penalty`: dice off) and
    multiple actions (``count_actions=False`` where the calculator prices multiple
    actions itself, roll by roll). ``load``: the encumbrance of what he carries where
    the caller has already worked it out (:func:`load_encumbrance`), else worked out
    here with ``heavy_from`` and ``beyond_heavy``. ``daze_on_defence``: the reading of
    Dazed on a defensive maneuver that takes no action (:func:`daze_difficulty`)."""
    steps: list[Step] = []
    total = 0
    if load is None:
        load = load_encumbrance(character, conditions, heavy_from, beyond_heavy)
    enc_added, enc_step = encumbrance_difficulty(kind, load)
    sprint_added, allowed, sprint_step = sprinting_modifier(kind, conditions.sprinting)
    daze_added, daze_step = daze_difficulty(kind, conditions.daze, daze_on_defence)
    actions_added, actions_step = (
        multiple_actions_difficulty(kind, conditions, ruleset) if count_actions else (0, None)
    )
    for added, step in (
        (enc_added, enc_step),
        (sprint_added, sprint_step),
        (daze_added, daze_step),
        (actions_added, actions_step),
    ):
        total += added
        if step is not None:
            steps.append(step)
    dice, can, wound_step = wound_penalty(kind, character, conditions, ruleset)
    if wound_step is not None:
        steps.append(wound_step)
    return Modifier(difficulty=total, allowed=allowed and can, steps=tuple(steps), dice=dice)


def defence_successes(
    pmf: tuple[Fraction, ...], added: int, reading: str = "spend"
) -> tuple[Fraction, ...]:
    """The successes a defence roll counts, once ``added`` difficulty is on it (RN-COND-5).

    ``pmf[k]`` is P(k successes rolled). ``spend`` (default): its first
    ``added`` successes pay for the difficulty, the rest count (``max(0, k −
    added)``); it succeeds with at least one left, i.e. with ``1 + added``
    rolled, the same chance as a roll needing ``1 + added`` successes.
    ``threshold``: it must roll ``1 + added`` successes to count at all, and then
    every success counts. With ``added`` 0 both are the roll itself.
    """
    if added < 0:
        raise ValueError("added difficulty must be 0 or more")
    if reading not in dict(DEFENCE_DIFFICULTY_READINGS):
        raise ValueError(f"unknown reading {reading!r}")
    if added == 0:
        return pmf
    out = [Fraction(0)] * len(pmf)
    for k, p in enumerate(pmf):
        if reading == "spend":
            out[max(0, k - added)] += p
        else:
            out[k if k >= 1 + added else 0] += p
    return tuple(out)


def paid_by(added: int) -> str:
    """Who pays an added difficulty in the "spend" reading (RN-COND-5), for a step:
    "its first success pays" / "its first 3 successes pay"."""
    return "its first success pays" if added == 1 else f"its first {added} successes pay"


def stun_after_scene(stun: int, conditions: Conditions) -> tuple[int, Step | None]:
    """Stun damage "goes away at the end of the scene": none is left once it has ended."""
    if not conditions.scene_ended or stun == 0:
        return stun, None
    return 0, Step(
        f"The scene has ended: its {stun} stun level{'s' if stun != 1 else ''} go away "
        "(rules note RN-COND-4)",
        STUN_DAMAGE,
    )
