"""A Chimera combatant: the :class:`Fighter` record, each of its fields declared once.

Each trait is one :class:`~ruleslab.params.Param` (label, range, help as the
"Chimera fight" form shows them) and :func:`~ruleslab.records.record` makes the
frozen dataclass check every field with it: ``Fighter(name="A", mr=41)`` raises
:class:`~ruleslab.params.InputError` naming the field and its range. The
calculator (``ruleslab.calculators.chimera``) gives the record two roles,
combatant A (fields ``a_…``) and B (``b_…``); a Python caller builds one and passes
it to the rules (:func:`ruleslab.chimera.fight.fight_odds`) or to the calculator
(``chimera_fight(a=Fighter(name="A", mr=12))``).

A field holds the form's value: a choice's key (``bound="bound"``, ``cool_down=
"skipped"``, ``leader="fallen"``, ``movement_die="d12"``), so that a link keeps its
text; the rules read the properties (:attr:`Fighter.is_bound`,
:attr:`Fighter.spends_cool_down`, :attr:`Fighter.leader_fell`,
:attr:`Fighter.movement_sides`). ``damage`` is dice text (``"2d6"``; a
:class:`~ruleslab.chimera.dice.DamageDice` is taken too, and held as its text);
the rules read :attr:`Fighter.dice`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from ruleslab.chimera.cover import POSITION_AFTER, POSITION_BEFORE
from ruleslab.chimera.dice import DamageDice, check_dice, parse_dice
from ruleslab.chimera.movement import MOVEMENT_DICE, adjusted_mr
from ruleslab.chimera.wounds import CAPTURE_PENALTY
from ruleslab.params import ChoiceParam, InputError, IntParam, TextParam
from ruleslab.records import record

__all__ = [
    "ATTACK_KINDS",
    "CHARACTERS",
    "FATE_CHOICES",
    "MAX_WOUND_LIMIT",
    "PARRY_FROM",
    "PLANS",
    "DiceParam",
    "Fighter",
    "roll_bonus",
    "target_number",
]

MAX_WOUND_LIMIT = 10
"""The highest Wound Limit (and wounds so far) the form takes."""


def target_number(name: str, label: str, *, help: str) -> IntParam:
    """A Target Number field (a Resistance Roll's, a Sneak roll's): a whole number, 1 to 40."""
    return IntParam(name, label, minimum=1, maximum=40, help=help)


def roll_bonus(name: str, label: str, *, help: str) -> IntParam:
    """A bonus added to a roll (Fight or Shoot, Resistance, Sneak): a whole number, −10 to 20."""
    return IntParam(name, label, minimum=-10, maximum=20, help=help)


def _wound_count(name: str, label: str, *, help: str) -> IntParam:
    """A number of wounds (the Wound Limit, wounds so far): 0 to :data:`MAX_WOUND_LIMIT`."""
    return IntParam(name, label, minimum=0, maximum=MAX_WOUND_LIMIT, help=help)


def _allies(name: str, label: str, *, help: str) -> IntParam:
    """A number of his allies (on his side, down): 0 to 1,000."""
    return IntParam(name, label, minimum=0, maximum=1000, help=help)


@dataclass(frozen=True, kw_only=True)
class DiceParam(TextParam):
    """A dice-expression field (``d8``, ``2d6``, ``d6+1``): its value is the dice's text.

    Typed text is read by :func:`~ruleslab.chimera.dice.parse_dice` and kept in its
    plain form (``"1d8"`` and ``" d8 "`` are ``"d8"``), as the form's default and a
    link hold it; :attr:`Fighter.dice` is the parsed dice. Also accepts a
    :class:`DamageDice`, so Python callers may pass one, checked against the same
    limits with the same messages as typed text (:func:`check_dice`):
    ``DamageDice(40, 100)`` is refused, not computed for minutes (issue 11).
    """

    def check(self, value: Any) -> str:
        if isinstance(value, DamageDice):
            try:
                return check_dice(value).text
            except ValueError as exc:
                raise InputError(self.name, f"{self.label}: {exc}.") from None
        dice: DamageDice = super().check(value)
        return dice.text


def _damage_parser(text: str, param: TextParam) -> DamageDice:
    try:
        return parse_dice(text)
    except ValueError as exc:
        raise InputError(param.name, f"{param.label}: {exc}.") from None


MR = IntParam(
    "mr",
    "Base Movement Rate (MR)",
    minimum=0,
    maximum=40,
    help=(
        "His base MR. Adjusted for his Encumbrance, the MR modifier, his Wound "
        "Penalty (and −4 if bound), it is the base TN to hit him and how far he walks."
    ),
)
DEFENCE = IntParam(
    "defence",
    "Defence (DF)",
    minimum=0,
    maximum=20,
    help="Subtracted from each damage roll against him: severity = damage − DF.",
)
WOUND_LIMIT = _wound_count(
    "wound_limit",
    "Wound Limit (WL)",
    help="Vanquished when the number of wounds, or one wound's severity, exceeds it.",
)
WOUNDS = _wound_count(
    "wounds",
    "Wounds so far",
    help="Wounds already suffered (each is −1 to all rolls and MR); at most the WL.",
)
DAMAGE = DiceParam(
    "damage",
    "Weapon damage",
    parser=_damage_parser,
    example="d8, 2d6 or d6+1",
    max_length=40,
    help="The weapon's damage die (rolled twice on a Critical Success).",
)
ATTACK = roll_bonus(
    "attack",
    "Attack bonus",
    help="Skill or attribute bonus added to the Fight or Shoot roll.",
)
INITIATIVE = IntParam(
    "initiative",
    "Initiative Modifier (IM)",
    minimum=-10,
    maximum=10,
    help="The chosen action's Initiative Modifier, added to the 1d12 Initiative roll.",
)
KIND = ChoiceParam(
    "kind",
    "Attacks with",
    choices=(
        ("fight", "Fight (melee)"),
        ("shoot", "Shoot (ranged)"),
        ("blast", "Blast (the foe resists it)"),
    ),
    help=(
        "Crouching and prone cover bonuses count against Shoot and Blast attacks. "
        "Against a blast the foe makes a Resistance Roll against this combatant's "
        "Blast TN, his cover added to it. See RN-CHIM-7."
    ),
)
POSITION = ChoiceParam(
    "position",
    "Position",
    choices=(
        ("standing", "Standing"),
        ("crouching", "Crouching (+1 vs Shoot and Blast; moves by creeping)"),
        ("prone", "Prone (+2 vs Shoot and Blast; may only Shoot or creep)"),
        ("drops_prone", "Standing, drops prone on his first turn (free)"),
        ("gets_up", "Prone, gets up on his first turn (free; costs Encumbrance in MR)"),
    ),
    help=(
        "A cover bonus against Shoot and Blast attacks. Dropping prone and getting up "
        "are free actions, taken on his first turn. See RN-CHIM-22."
    ),
)
PLAN = ChoiceParam(
    "plan",
    "First turn",
    choices=(
        ("attack", "Attacks (or closes in, if he Fights)"),
        ("ready", "Readies an item (full action): attacks from his next turn"),
    ),
    help=(
        "'only 1 full action is permitted': readying an item is his whole first turn "
        "(walking up to his MR is free). See RN-CHIM-19."
    ),
)
PARRY = IntParam(
    "parry",
    "Parry bonus",
    minimum=0,
    maximum=10,
    help="A shield's or melee weapon's parry bonus, added to the attacker's TN.",
)
COVER = ChoiceParam(
    "cover",
    "Cover",
    choices=(
        ("none", "None"),
        ("light", "Light: ¼ covered (+1)"),
        ("medium", "Medium: ½ covered (+2)"),
        ("heavy", "Heavy: ¾ covered (+4)"),
    ),
    help="A barrier's cover bonus, added to the attacker's TN.",
)
CHARACTER = ChoiceParam(
    "character",
    "Character",
    choices=(
        ("pc", "Player character (classed; never checks morale)"),
        ("classed", "Classed NPC"),
        ("npc", "Unclassed NPC"),
    ),
    help="NPCs check morale; classed characters may Resist a Killer Blow against TN 12.",
)
MORALE_TN = target_number(
    "morale_tn",
    "Morale TN",
    help="The Resistance Roll an NPC must meet to stay in the fight.",
)
RESIST = roll_bonus(
    "resist",
    "Resistance bonus",
    help="Added to Resistance Rolls (morale, Killer Blow, Fatigue).",
)
BOUND = ChoiceParam(
    "bound",
    "Bound",
    choices=(("free", "Free"), ("bound", "Bound (captured): −4 to all rolls and MR")),
    help=(
        "Capture: 'impose a penalty of –4 to all rolls and MR while bound' (his attack, "
        "initiative and Resistance Rolls, and the TN to hit him). See RN-CHIM-15."
    ),
)
LEVEL = IntParam(
    "level",
    "Level",
    minimum=1,
    maximum=20,
    help="A foe he drives off will not return before this many turns (10 minutes each).",
)
COOL_DOWN = ChoiceParam(
    "cool_down",
    "After the fight",
    choices=(
        ("spent", "Spends the 10-minute cool-down"),
        ("skipped", "Skips it: Resistance Roll against Fatigue"),
    ),
    help=(
        "Skipping the 1-turn cool-down 'mandates an immediate Resistance Roll against "
        "Fatigue', at the Wound Penalty he ends the fight with. See RN-CHIM-16."
    ),
)
FATIGUE_TN = target_number(
    "fatigue_tn",
    "Fatigue TN",
    help="The TN of the Resistance Roll against Fatigue (the text gives none).",
)
LEADER = ChoiceParam(
    "leader",
    "His leader",
    choices=(
        ("standing", "Stands (or he has none)"),
        ("fallen", "Has just fallen: an NPC checks morale"),
    ),
    help="'his leader falls': an NPC checks morale before round 1. See RN-CHIM-18.",
)
ALLIES = _allies(
    "allies",
    "Allies on his side",
    help="His allies elsewhere in the battle (himself not counted).",
)
ALLIES_DOWN = _allies(
    "allies_down",
    "Allies down",
    help=(
        "'his allies suffer more than 50% casualties': an NPC checks morale before "
        "round 1. At most his allies. See RN-CHIM-18."
    ),
)
FATE = ChoiceParam(
    "fate",
    "Fate he gives a vanquished foe",
    choices=(
        ("any", "Not said (each fate is shown)"),
        ("capture", "Capture"),
        ("driven_off", "Driven Off"),
        ("killer_blow", "Killer Blow"),
        ("unconscious", "Unconscious"),
        ("coup_de_grace", "Unconscious, then a coup de grâce (free action)"),
    ),
    help=(
        "The victor chooses his foe's fate. A coup de grâce on an Unconscious foe is a "
        "free action. Gives the chance the foe ends the fight dead. See RN-CHIM-23."
    ),
)
ENCUMBRANCE = IntParam(
    "encumbrance",
    "Encumbrance",
    minimum=0,
    maximum=40,
    help=(
        "Taken off his MR. Getting up from prone 'costs your Encumbrance in MR' again that round."
    ),
)
MR_MODIFIER = IntParam(
    "mr_modifier",
    "Other MR modifier",
    minimum=-40,
    maximum=40,
    help=(
        "Terrain, Fatigue Penalty, slow or haste powers: added to his MR (negative for a penalty)."
    ),
)
MOVEMENT_DIE = ChoiceParam(
    "movement_die",
    "Movement Die",
    choices=tuple((f"d{n}", f"d{n}") for n in MOVEMENT_DICE),
    help=(
        "Running = MR + the die, creeping = MR − the die (a full action each); walking "
        "up to his MR is free. The text does not size the die. See RN-CHIM-20."
    ),
)
BARRIER = ChoiceParam(
    "barrier",
    "His cover's barrier",
    choices=(
        ("ordinary", "Ordinary"),
        ("reinforced", "Thick, strong or reinforced (cover ×2 vs blasts)"),
    ),
    help="'double the bonus for thick, strong, or reinforced barriers' vs blasts.",
)
PARRY_SOURCE = ChoiceParam(
    "parry_from",
    "Parry bonus from",
    choices=(("weapon", "A melee weapon"), ("shield", "A shield")),
    help=(
        "A shield's bonus may also count in his Resistance Roll vs blasts, at the GM's "
        "option (rules option 'Shield vs blasts')."
    ),
)
BLAST_TN = target_number(
    "blast_tn",
    "Blast TN (of his blasts)",
    help=(
        "When he attacks with a Blast: the TN of his foe's Resistance Roll (the text "
        "gives none; his weapon's or power's). See RN-CHIM-7."
    ),
)


def _keys(param: ChoiceParam) -> tuple[str, ...]:
    return tuple(value for value, _ in param.choices)


ATTACK_KINDS = _keys(KIND)
"""A Fight (melee), Shoot (ranged) or Blast (area: the defender resists, RN-CHIM-7) attack."""

CHARACTERS = _keys(CHARACTER)
"""A player character, a classed non-player character, an unclassed one."""

PLANS = _keys(PLAN)
"""A combatant's full action each round: an attack, or readying an item on his first turn
and attacking from the next (Combat Actions; rules note RN-CHIM-19)."""

PARRY_FROM = _keys(PARRY_SOURCE)
"""What gives a parry bonus: a melee weapon, or a shield (which may count vs. blasts)."""

FATE_CHOICES = _keys(FATE)
"""The fate a victor gives a vanquished foe: not said (the GM decides; each is shown), one
of the text's four, or Unconscious and then a coup de grâce (a free action, RN-CHIM-23)."""


@record(
    MR,
    DEFENCE,
    WOUND_LIMIT,
    WOUNDS,
    DAMAGE,
    ATTACK,
    INITIATIVE,
    KIND,
    POSITION,
    PLAN,
    PARRY,
    COVER,
    CHARACTER,
    MORALE_TN,
    RESIST,
    BOUND,
    LEVEL,
    COOL_DOWN,
    FATIGUE_TN,
    LEADER,
    ALLIES,
    ALLIES_DOWN,
    FATE,
    ENCUMBRANCE,
    MR_MODIFIER,
    MOVEMENT_DIE,
    BARRIER,
    PARRY_SOURCE,
    BLAST_TN,
)
@dataclass(frozen=True)
class Fighter:
    """One combatant: ``name`` and his traits, each declared above (label, range, help).

    ``damage``: his weapon's dice, as text (``"d8"``, ``"2d6+1"``; the rules read
    :attr:`dice`). ``mr``: his base Movement Rate; ``encumbrance`` and ``mr_modifier`` (terrain,
    Fatigue Penalty, slow/haste; negative for a penalty) adjust it, and so do his
    ``wounds`` (:meth:`adjusted_mr`). ``attack``: the Fight or Shoot bonus; ``kind``:
    ``"fight"``, ``"shoot"`` or ``"blast"``. ``initiative``: the chosen action's
    Initiative Modifier. ``position``: standing, crouching, prone, or a change on
    his first turn (``drops_prone``, ``gets_up``; :mod:`ruleslab.chimera.cover`).
    ``cover``: none, light, medium or heavy, behind an ``ordinary`` or
    ``reinforced`` ``barrier`` (doubled vs. blasts). ``parry_from``: a ``weapon``
    or a ``shield`` (a shield's bonus may count vs. blasts). ``character``:
    ``"pc"`` (classed, never checks morale), ``"classed"`` (a classed NPC) or
    ``"npc"``. ``resist`` is the Resistance Roll bonus (morale, Killer Blow,
    Fatigue, blasts). ``movement_die``: his Movement Die, ``"d4"`` to ``"d12"``
    (running = MR + it, creeping = MR − it; :attr:`movement_sides`). ``plan``:
    ``"attack"`` (his full action each round is an attack, or a move while he must
    close on his foe) or ``"ready"`` (readies an item on his first turn).
    ``blast_tn``: the TN of the Resistance Roll against his blasts. ``fate``: what
    he does with a foe he vanquishes (:data:`FATE_CHOICES`).

    ``bound``: ``"bound"`` if captured ("impose a penalty of –4 to all rolls and MR
    while bound"): −4 to every roll he makes and to his MR (:attr:`bound_penalty`,
    rules note RN-CHIM-15), else ``"free"``. ``cool_down``: ``"spent"`` if he spends
    the 10-minute cool-down after the fight, ``"skipped"`` if not (a Resistance Roll
    against ``fatigue_tn``, RN-CHIM-16). ``level``: his level (a foe he drives off
    stays away that many turns). ``leader`` (``"standing"`` or ``"fallen"``),
    ``allies`` and ``allies_down``: the morale triggers "his leader falls" and "his
    allies suffer more than 50% casualties" (RN-CHIM-18), checked before the duel's
    first round.

    Each field is checked by its declaration (:class:`~ruleslab.params.InputError`
    names it and its range). That ``wounds`` is at most ``wound_limit`` and
    ``allies_down`` at most ``allies`` is checked by the fight itself
    (:meth:`check_whole`, :func:`~ruleslab.chimera.plan.check_wounds`), by a sheet before
    it saves, and by the calculator at the field.
    """

    name: str
    mr: int = 10
    defence: int = 1
    wound_limit: int = 3
    damage: str = "d8"
    attack: int = 3
    wounds: int = 0
    initiative: int = 0
    kind: str = "fight"
    position: str = "standing"
    parry: int = 0
    cover: str = "none"
    character: str = "npc"
    morale_tn: int = 10
    resist: int = 0
    bound: str = "free"
    cool_down: str = "spent"
    fatigue_tn: int = 10
    level: int = 1
    leader: str = "standing"
    allies: int = 0
    allies_down: int = 0
    encumbrance: int = 0
    mr_modifier: int = 0
    movement_die: str = "d6"
    plan: str = "attack"
    barrier: str = "ordinary"
    parry_from: str = "weapon"
    blast_tn: int = 12
    fate: str = "any"

    def check_whole(self) -> None:
        """:class:`ValueError` unless ``wounds`` is at most the Wound Limit and
        ``allies_down`` at most ``allies`` (two fields of one record).

        "If the total number of wounds … exceeds the defender's Wound Limit, he's
        vanquished": a combatant with more wounds is already out of the fight.
        """
        if self.wounds > self.wound_limit:
            raise ValueError(
                f"{self.name}'s wounds ({self.wounds}) must be at most his Wound Limit "
                f"({self.wound_limit}): more would already have vanquished him"
            )
        if self.allies_down > self.allies:
            raise ValueError(
                f"{self.name}'s allies_down ({self.allies_down}) must be at most his allies "
                f"({self.allies})"
            )

    @functools.cached_property
    def dice(self) -> DamageDice:
        """His weapon's damage dice, parsed from :attr:`damage`."""
        return parse_dice(self.damage)

    @property
    def classed(self) -> bool:
        return self.character in ("pc", "classed")

    @property
    def checks_morale(self) -> bool:
        """'Player characters do not need to check morale.'"""
        return self.character != "pc"

    @property
    def is_bound(self) -> bool:
        """Captured and bound (Capture, rules note RN-CHIM-15)."""
        return self.bound == "bound"

    @property
    def spends_cool_down(self) -> bool:
        """He spends the 1-turn cool-down after the fight (else he rolls vs Fatigue)."""
        return self.cool_down == "spent"

    @property
    def leader_fell(self) -> bool:
        """'his leader falls' (a morale trigger, RN-CHIM-18)."""
        return self.leader == "fallen"

    @property
    def movement_sides(self) -> int:
        """The sides of his Movement Die (``"d8"``: 8)."""
        return int(self.movement_die.removeprefix("d"))

    @property
    def bound_penalty(self) -> int:
        """What being bound takes off every roll and the MR: 4 (Capture), else 0."""
        return -CAPTURE_PENALTY if self.is_bound else 0

    def penalty_text(self, wounds: int) -> str:
        """What his ``wounds`` and being bound take off his rolls and MR, in words:
        ``" − WP 2 − 4 bound (Capture)"``, empty if nothing."""
        text = f" − WP {wounds}" if wounds else ""
        if self.is_bound:
            text += f" − {self.bound_penalty} bound (Capture)"
        return text

    def resist_modifier(self, wounds: int) -> int:
        """His Resistance Roll modifier with ``wounds`` wounds: his Resistance bonus − the
        Wound Penalty (− 4 if bound)."""
        return self.resist - wounds - self.bound_penalty

    @property
    def verb(self) -> str:
        return {"fight": "Fight", "shoot": "Shoot", "blast": "Blast"}[self.kind]

    @property
    def melee(self) -> bool:
        """A Fight attacker, who must reach his foe (a Shoot or Blast attack has range)."""
        return self.kind == "fight"

    def adjusted_mr(self, wounds: int) -> int:
        """His adjusted MR with ``wounds`` wounds
        (:func:`~ruleslab.chimera.movement.adjusted_mr`)."""
        return adjusted_mr(self.mr, self.encumbrance, self.mr_modifier, wounds, self.is_bound)

    @property
    def position_before(self) -> str:
        """His position until his first turn (standing, crouching or prone)."""
        return POSITION_BEFORE[self.position]

    @property
    def position_after(self) -> str:
        """His position from his first turn on (standing, crouching or prone)."""
        return POSITION_AFTER[self.position]

    def settled(self) -> Fighter:
        """This combatant from his first turn on: his position after any change."""
        after = self.position_after
        return self if after == self.position else replace(self, position=after)

    def unsettled(self) -> Fighter:
        """This combatant until his first turn: his position before any change."""
        before = self.position_before
        return self if before == self.position else replace(self, position=before)
