"""The Chimera fight calculator (key ``chimera``): two combatants, one blow each way, the duel.

The rules are in :mod:`ruleslab.chimera` (:func:`ruleslab.chimera.fight.fight_odds`
takes the two combatants as :class:`~ruleslab.chimera.attack.Fighter` records and
the readings of the text as :class:`~ruleslab.chimera.attack.FightRules`); this
module declares the calculator's inputs (one field per combatant trait,
``a_…`` for combatant A and ``b_…`` for B, and the rules options), builds the
two records from them (:func:`chimera_fight`), and adds the figures, the two
charts and the "Play a round" / "Play the fight" logs (:class:`FightReport`).
See :mod:`ruleslab.declare`.

Over 600 lines, for a reason: two combatants of 31 fields each and fourteen rules
options, each declared with its label, range and help as the form shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice, check_dice, parse_dice
from ruleslab.chimera.duel import SurprisePlan
from ruleslab.chimera.fight import FightOdds, fight_chart, fight_odds, play_log, vanquish_bar
from ruleslab.chimera.movement import MOVEMENT_DICE
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Roll
from ruleslab.explain import Explained, Figure
from ruleslab.params import ChoiceParam, InputError, IntParam, Param, TextParam, checked
from ruleslab.sources import CHIMERA, rule

__all__ = [
    "CALCULATOR",
    "OPTIONS",
    "DiceParam",
    "FightReport",
    "chimera_fight",
    "play_fight",
    "play_round",
]

MAX_WOUND_LIMIT = 10
MAX_DISTANCE = 40
"""The farthest start the form takes, in MR units: at worst a crouched combatant creeping
1 a round under fire, which the exact chain still solves in the time allowed."""
PLAY_FIGHT_ROUNDS = 100
""""Play the fight" stops after this many rounds (the log says so)."""


# --- inputs ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DiceParam(TextParam):
    """A dice-expression field (``d8``, ``2d6``, ``d6+1``).

    Also accepts an already parsed :class:`DamageDice`, so Python callers may pass
    one (the form passes text; see ``CalculatorView.parse``), checked against the
    same limits with the same messages as typed text (:func:`check_dice`):
    ``DamageDice(40, 100)`` is refused, not computed for minutes (issue 11).
    """

    def check(self, value: Any) -> Any:
        if isinstance(value, DamageDice):
            try:
                return check_dice(value)
            except ValueError as exc:
                raise InputError(self.name, f"{self.label}: {exc}.") from None
        return super().check(value)


def _damage_parser(text: str, param: TextParam) -> DamageDice:
    try:
        return parse_dice(text)
    except ValueError as exc:
        raise InputError(param.name, f"{param.label}: {exc}.") from None


def _side_params(s: str) -> tuple[Param, ...]:
    """The fields of combatant ``s`` ("A" or "B"): ``a_mr``, ``a_defence`` … (labels "A: …")."""
    p = s.lower()
    return (
        IntParam(
            f"{p}_mr",
            f"{s}: Base Movement Rate (MR)",
            minimum=0,
            maximum=40,
            help=(
                f"{s}'s base MR. Adjusted for his Encumbrance, the MR modifier, his Wound "
                "Penalty (and −4 if bound), it is the base TN to hit him and how far he walks."
            ),
        ),
        IntParam(
            f"{p}_defence",
            f"{s}: Defence (DF)",
            minimum=0,
            maximum=20,
            help="Subtracted from each damage roll against him: severity = damage − DF.",
        ),
        IntParam(
            f"{p}_wound_limit",
            f"{s}: Wound Limit (WL)",
            minimum=0,
            maximum=MAX_WOUND_LIMIT,
            help="Vanquished when the number of wounds, or one wound's severity, exceeds it.",
        ),
        IntParam(
            f"{p}_wounds",
            f"{s}: Wounds so far",
            minimum=0,
            maximum=MAX_WOUND_LIMIT,
            help="Wounds already suffered (each is −1 to all rolls and MR); at most the WL.",
        ),
        DiceParam(
            f"{p}_damage",
            f"{s}: Weapon damage",
            parser=_damage_parser,
            example="d8, 2d6 or d6+1",
            max_length=40,
            help="The weapon's damage die (rolled twice on a Critical Success).",
        ),
        IntParam(
            f"{p}_attack",
            f"{s}: Attack bonus",
            minimum=-10,
            maximum=20,
            help="Skill or attribute bonus added to the Fight or Shoot roll.",
        ),
        IntParam(
            f"{p}_initiative",
            f"{s}: Initiative Modifier (IM)",
            minimum=-10,
            maximum=10,
            help="The chosen action's Initiative Modifier, added to the 1d12 Initiative roll.",
        ),
        ChoiceParam(
            f"{p}_kind",
            f"{s}: Attacks with",
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
        ),
        ChoiceParam(
            f"{p}_position",
            f"{s}: Position",
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
        ),
        ChoiceParam(
            f"{p}_plan",
            f"{s}: First turn",
            choices=(
                ("attack", "Attacks (or closes in, if he Fights)"),
                ("ready", "Readies an item (full action): attacks from his next turn"),
            ),
            help=(
                "'only 1 full action is permitted': readying an item is his whole first turn "
                "(walking up to his MR is free). See RN-CHIM-19."
            ),
        ),
        IntParam(
            f"{p}_parry",
            f"{s}: Parry bonus",
            minimum=0,
            maximum=10,
            help="A shield's or melee weapon's parry bonus, added to the attacker's TN.",
        ),
        ChoiceParam(
            f"{p}_cover",
            f"{s}: Cover",
            choices=(
                ("none", "None"),
                ("light", "Light: ¼ covered (+1)"),
                ("medium", "Medium: ½ covered (+2)"),
                ("heavy", "Heavy: ¾ covered (+4)"),
            ),
            help="A barrier's cover bonus, added to the attacker's TN.",
        ),
        ChoiceParam(
            f"{p}_character",
            f"{s}: Character",
            choices=(
                ("pc", "Player character (classed; never checks morale)"),
                ("classed", "Classed NPC"),
                ("npc", "Unclassed NPC"),
            ),
            help="NPCs check morale; classed characters may Resist a Killer Blow against TN 12.",
        ),
        IntParam(
            f"{p}_morale_tn",
            f"{s}: Morale TN",
            minimum=1,
            maximum=40,
            help="The Resistance Roll an NPC must meet to stay in the fight.",
        ),
        IntParam(
            f"{p}_resist",
            f"{s}: Resistance bonus",
            minimum=-10,
            maximum=20,
            help="Added to Resistance Rolls (morale, Killer Blow, Fatigue).",
        ),
        ChoiceParam(
            f"{p}_bound",
            f"{s}: Bound",
            choices=(("free", "Free"), ("bound", "Bound (captured): −4 to all rolls and MR")),
            help=(
                "Capture: 'impose a penalty of –4 to all rolls and MR while bound' (his attack, "
                "initiative and Resistance Rolls, and the TN to hit him). See RN-CHIM-15."
            ),
        ),
        IntParam(
            f"{p}_level",
            f"{s}: Level",
            minimum=1,
            maximum=20,
            help="A foe he drives off will not return before this many turns (10 minutes each).",
        ),
        ChoiceParam(
            f"{p}_cool_down",
            f"{s}: After the fight",
            choices=(
                ("spent", "Spends the 10-minute cool-down"),
                ("skipped", "Skips it: Resistance Roll against Fatigue"),
            ),
            help=(
                "Skipping the 1-turn cool-down 'mandates an immediate Resistance Roll against "
                "Fatigue', at the Wound Penalty he ends the fight with. See RN-CHIM-16."
            ),
        ),
        IntParam(
            f"{p}_fatigue_tn",
            f"{s}: Fatigue TN",
            minimum=1,
            maximum=40,
            help="The TN of the Resistance Roll against Fatigue (the text gives none).",
        ),
        ChoiceParam(
            f"{p}_leader",
            f"{s}: His leader",
            choices=(
                ("standing", "Stands (or he has none)"),
                ("fallen", "Has just fallen: an NPC checks morale"),
            ),
            help="'his leader falls': an NPC checks morale before round 1. See RN-CHIM-18.",
        ),
        IntParam(
            f"{p}_allies",
            f"{s}: Allies on his side",
            minimum=0,
            maximum=1000,
            help="His allies elsewhere in the battle (himself not counted).",
        ),
        IntParam(
            f"{p}_allies_down",
            f"{s}: Allies down",
            minimum=0,
            maximum=1000,
            help=(
                "'his allies suffer more than 50% casualties': an NPC checks morale before "
                "round 1. At most his allies. See RN-CHIM-18."
            ),
        ),
        ChoiceParam(
            f"{p}_fate",
            f"{s}: Fate he gives a vanquished foe",
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
        ),
        IntParam(
            f"{p}_encumbrance",
            f"{s}: Encumbrance",
            minimum=0,
            maximum=40,
            help=(
                "Taken off his MR. Getting up from prone 'costs your Encumbrance in MR' again "
                "that round."
            ),
        ),
        IntParam(
            f"{p}_mr_modifier",
            f"{s}: Other MR modifier",
            minimum=-40,
            maximum=40,
            help=(
                "Terrain, Fatigue Penalty, slow or haste powers: added to his MR (negative for "
                "a penalty)."
            ),
        ),
        ChoiceParam(
            f"{p}_movement_die",
            f"{s}: Movement Die",
            choices=tuple((f"d{n}", f"d{n}") for n in MOVEMENT_DICE),
            help=(
                "Running = MR + the die, creeping = MR − the die (a full action each); walking "
                "up to his MR is free. The text does not size the die. See RN-CHIM-20."
            ),
        ),
        ChoiceParam(
            f"{p}_barrier",
            f"{s}: His cover's barrier",
            choices=(
                ("ordinary", "Ordinary"),
                ("reinforced", "Thick, strong or reinforced (cover ×2 vs blasts)"),
            ),
            help="'double the bonus for thick, strong, or reinforced barriers' vs blasts.",
        ),
        ChoiceParam(
            f"{p}_parry_from",
            f"{s}: Parry bonus from",
            choices=(("weapon", "A melee weapon"), ("shield", "A shield")),
            help=(
                "A shield's bonus may also count in his Resistance Roll vs blasts, at the GM's "
                "option (rules option 'Shield vs blasts')."
            ),
        ),
        IntParam(
            f"{p}_blast_tn",
            f"{s}: Blast TN (of his blasts)",
            minimum=1,
            maximum=40,
            help=(
                "When he attacks with a Blast: the TN of his foe's Resistance Roll (the text "
                "gives none; his weapon's or power's). See RN-CHIM-7."
            ),
        ),
    )


MOVING = (
    "encumbrance",
    "mr_modifier",
    "movement_die",
    "barrier",
    "parry_from",
    "blast_tn",
)
"""A combatant's fields shown in his second box: moving, his barrier, his blasts."""


A_PARAMS = _side_params("A")
B_PARAMS = _side_params("B")

SURPRISE_WHO = ChoiceParam(
    "surprise",
    "Surprise",
    choices=(
        ("none", "No one tries"),
        ("A", "A tries to surprise B"),
        ("B", "B tries to surprise A"),
    ),
    help="A Sneak roll against the foe's Surprise TN before the fight.",
)
SNEAK = IntParam(
    "sneak",
    "Sneak bonus",
    minimum=-10,
    maximum=20,
    help="The surpriser's Sneak bonus, added to the Sneak roll.",
)
SURPRISE_TN = IntParam(
    "surprise_tn",
    "Foe's Surprise TN",
    minimum=1,
    maximum=40,
    help="The Target Number of the Sneak roll.",
)
DISTANCE = IntParam(
    "distance",
    "Distance between them",
    minimum=0,
    maximum=MAX_DISTANCE,
    help=(
        "At the start, in MR units. A Fight attacker must close it: he walks up to his MR "
        "(free) and attacks, or runs (his full action). Shoot and Blast reach any distance. "
        "See RN-CHIM-21."
    ),
)
SURPRISE_BENEFIT = ChoiceParam(
    "surprise_benefit",
    "On a successful Sneak",
    choices=(
        ("action", "A full action before the foe can respond"),
        ("bonus", "AR +2 on the first round"),
    ),
    help="The surpriser chooses one benefit (both on a Critical Success, at the GM's option).",
)

# --- rules options: readings of the text (rules notes RN-CHIM-*), the fields of FightRules

ACTION_DIE = ChoiceParam(
    "action_die",
    "Action Roll die",
    choices=(
        ("d20", "d20 (Chimera's Action Roll)"),
        ("2d10", "2d10 (house rule)"),
        ("3d6", "3d6 (house rule)"),
    ),
    help=(
        "The text uses Target Numbers but does not restate the Action Roll. Chimera rolls a "
        "d20 plus modifiers and succeeds on meeting or beating the TN. See rules note RN-CHIM-1."
    ),
)
CRITICAL = ChoiceParam(
    "critical",
    "Critical Success",
    choices=(
        ("natural", "A natural 20 (always succeeds)"),
        ("natural_hit", "A natural 20 that also meets the TN"),
        ("margin10", "Beating the TN by 10 or more"),
        ("margin5", "Beating the TN by 5 or more"),
        ("none", "No Critical Successes"),
    ),
    help=(
        "The text does not define a Critical Success (it doubles the damage dice and can give "
        "both surprise benefits). 'Natural 20' means the die's highest face (all dice at their "
        "highest for 2d10 or 3d6). See rules note RN-CHIM-2."
    ),
)
CRITICAL_DAMAGE = ChoiceParam(
    "critical_damage",
    "Critical damage (“2 dice”)",
    choices=(("sum", "Roll two dice and add them"), ("best", "Roll two dice, keep the higher")),
    help="On a Critical Success the attacker rolls 2 damage dice. See rules note RN-CHIM-3.",
)
TIES = ChoiceParam(
    "ties",
    "Initiative ties",
    choices=(
        ("reroll", "Roll again until one is higher"),
        ("simultaneous", "Both act at once (both blows land)"),
    ),
    help=(
        "The text says the highest goes first but not what a tie does. 'Roll again': the "
        "order is as if ties never happened. 'At once': both attacks are resolved on the "
        "wounds before the round, so both may fall. See rules note RN-CHIM-9."
    ),
)
PARRY_COVER = ChoiceParam(
    "parry_cover",
    "Parry and Cover",
    choices=(("tn", "Added to the attacker's TN"), ("defence", "Folded into Defence (DF)")),
    help=(
        "'Parry and Cover are optional; if you don't want to use them, apply any Parry or "
        "Cover bonus … to the combatant's Defence.' See rules note RN-CHIM-6."
    ),
)
PARRY_APPLIES = ChoiceParam(
    "parry_applies",
    "Parry counts against",
    choices=(("all", "Fight and Shoot attacks"), ("fight", "Fight attacks only")),
    help="The text does not limit parrying to melee. See rules note RN-CHIM-4.",
)
COVER_STACKING = ChoiceParam(
    "cover_stacking",
    "Position and barrier cover",
    choices=(("add", "Add together"), ("best", "Only the better one")),
    help="A crouching or prone combatant behind a barrier. See rules note RN-CHIM-4.",
)
SURPRISE_ACTION = ChoiceParam(
    "surprise_action",
    "Surprise action",
    choices=(
        ("extra", "A surprise round: only the sneak acts"),
        ("first", "The sneak simply acts first in round 1"),
    ),
    help=(
        "'execute a full combat action before your foe can respond': either a round of its own "
        "in which the foe does nothing, or the sneak wins round 1's initiative and the foe "
        "answers in the same round. See rules note RN-CHIM-11."
    ),
)
CASUALTIES = ChoiceParam(
    "casualties",
    "“More than 50% casualties” of",
    choices=(
        ("allies", "His allies (himself not counted)"),
        ("side", "His whole side (himself counted, standing)"),
    ),
    help=(
        "'his allies suffer more than 50% casualties': more than half of his allies down, or "
        "more than half of his side counting himself. See rules note RN-CHIM-18."
    ),
)
SURPRISE_CRITICAL = ChoiceParam(
    "surprise_critical",
    "Critical Sneak roll",
    choices=(
        ("both", "The GM allows both benefits"),
        ("one", "Only the chosen benefit"),
    ),
    help=(
        "At the GM's discretion, a Sneak roll that is a Critical Success gives both the "
        "surprise action and AR +2. See rules note RN-CHIM-12."
    ),
)

BLAST_ROLL = ChoiceParam(
    "blast_roll",
    "A blast reaches its target",
    choices=(
        ("area", "Without a roll: everyone in its area resists"),
        ("hit", "If the attacker's Shoot roll first beats the adjusted MR"),
    ),
    help=(
        "The text gives the defender a Resistance Roll against blasts but no roll to hit. "
        "See rules note RN-CHIM-7."
    ),
)
BLAST_RESISTED = ChoiceParam(
    "blast_resisted",
    "Resisting a blast",
    choices=(
        ("avoids", "Avoids it: no damage"),
        ("halves", "Halves its damage (rounded down)"),
    ),
    help="The text does not say what a successful Resistance Roll does. See RN-CHIM-7.",
)
BLAST_SHIELD = ChoiceParam(
    "blast_shield",
    "Shield vs blasts",
    choices=(
        ("counts", "The GM lets a shield's bonus count"),
        ("ignored", "Only cover counts"),
    ),
    help="'Add the Cover bonus (and shield bonus, at the GM's option)'. See RN-CHIM-7.",
)
COUP_DE_GRACE = ChoiceParam(
    "coup_de_grace",
    "A coup de grâce on a classed foe",
    choices=(
        ("resist", "He may Resist it as a Killer Blow (TN 12)"),
        ("kills", "It kills him: no Resistance Roll"),
    ),
    help=(
        "'Classed characters … may Resist a Killer Blow'; 'Unconscious foes may be "
        "dispatched with a coup de grâce as a free action'. See RN-CHIM-23."
    ),
)

OPTIONS = (
    "action_die",
    "critical",
    "critical_damage",
    "ties",
    "parry_cover",
    "parry_applies",
    "cover_stacking",
    "surprise_action",
    "surprise_critical",
    "casualties",
    "blast_roll",
    "blast_resisted",
    "blast_shield",
    "coup_de_grace",
)
"""The calculator's rules options (readings of the text), by parameter name."""


# --- the result -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FightReport(Explained):
    """Result of :func:`chimera_fight`: the fight's odds (``odds``), its figures and charts."""

    odds: FightOdds

    def figures(self) -> tuple[Figure, ...]:
        return self.odds.figures()

    def a_chart(self) -> Chart:
        """A's blow on B: "Miss", "No wound", then each severity, highlighted from the
        first severity that vanquishes B."""
        o = self.odds
        return Chart(fight_chart(o.a_on_b), vanquish_bar(o.a_on_b, o.b.wound_limit, o.b.wounds))

    def b_chart(self) -> Chart:
        """B's blow on A, as :meth:`a_chart`: highlighted from what vanquishes A."""
        o = self.odds
        return Chart(fight_chart(o.b_on_a), vanquish_bar(o.b_on_a, o.a.wound_limit, o.a.wounds))

    def a_move_chart(self) -> Chart:
        """How far A moves in a round by his full action: running (MR + Movement Die), or
        creeping (MR − die) if crouching or prone; highlighted: the distances that reach B."""
        return self._move_chart(0)

    def b_move_chart(self) -> Chart:
        """How far B moves in a round, as :meth:`a_move_chart`."""
        return self._move_chart(1)

    def _move_chart(self, x: int) -> Chart:
        o = self.odds
        assert o.moves is not None  # the calculator's fight always has them
        f = (o.a, o.b)[x]
        return o.moves[x].chart("run" if f.position_after == "standing" else "creep", o.distance)


# --- the calculator's function: one argument per field ----------------------------------


def _dice(value: DamageDice | str) -> DamageDice:
    """A damage field's value: parsed by its field already, or text (a direct call)."""
    return value if isinstance(value, DamageDice) else parse_dice(value)


def _fighter(name: str, form: Mapping[str, Any]) -> Fighter:
    """Combatant ``name``'s record from the form's ``<name>_…`` fields (``a_mr`` → ``mr``)."""
    prefix = f"{name.lower()}_"
    v = {k.removeprefix(prefix): x for k, x in form.items() if k.startswith(prefix)}
    return _check_fighter(
        Fighter(
            name=name,
            mr=v["mr"],
            defence=v["defence"],
            wound_limit=v["wound_limit"],
            wounds=v["wounds"],
            damage=_dice(v["damage"]),
            attack=v["attack"],
            initiative=v["initiative"],
            kind=v["kind"],
            position=v["position"],
            parry=v["parry"],
            cover=v["cover"],
            character=v["character"],
            morale_tn=v["morale_tn"],
            resist=v["resist"],
            bound=v["bound"] == "bound",
            cool_down=v["cool_down"] == "spent",
            fatigue_tn=v["fatigue_tn"],
            level=v["level"],
            leader_fell=v["leader"] == "fallen",
            allies=v["allies"],
            allies_down=v["allies_down"],
            encumbrance=v["encumbrance"],
            mr_modifier=v["mr_modifier"],
            movement_die=int(v["movement_die"].removeprefix("d")),
            plan=v["plan"],
            barrier=v["barrier"],
            parry_from=v["parry_from"],
            blast_tn=v["blast_tn"],
            fate=v["fate"],
        )
    )


def _check_fighter(f: Fighter) -> Fighter:
    """The rules across one combatant's fields (named ``a_…``/``b_…`` as on the form)."""
    s, field = f.name, f.name.lower()
    if f.wounds > f.wound_limit:
        raise InputError(
            f"{field}_wounds",
            f"{s}: Wounds so far must be a whole number from 0 to the Wound Limit "
            f"({f.wound_limit}); more wounds would already have vanquished {s}.",
        )
    if f.position_after == "prone" and f.kind == "fight":
        raise InputError(
            f"{field}_position",
            f"{s}: a prone combatant may only move or Shoot (Chimera combat); choose Shoot "
            "or another position (or 'Prone, gets up on his first turn').",
        )
    return f


@checked(
    *A_PARAMS,
    *B_PARAMS,
    DISTANCE,
    SURPRISE_WHO,
    SNEAK,
    SURPRISE_TN,
    SURPRISE_BENEFIT,
    ACTION_DIE,
    CRITICAL,
    CRITICAL_DAMAGE,
    TIES,
    PARRY_COVER,
    PARRY_APPLIES,
    COVER_STACKING,
    SURPRISE_ACTION,
    SURPRISE_CRITICAL,
    CASUALTIES,
    BLAST_ROLL,
    BLAST_RESISTED,
    BLAST_SHIELD,
    COUP_DE_GRACE,
)
def chimera_fight(
    a_mr: int = 10,
    a_defence: int = 1,
    a_wound_limit: int = 3,
    a_wounds: int = 0,
    a_damage: DamageDice | str = "d8",
    a_attack: int = 3,
    a_initiative: int = 0,
    a_kind: str = "fight",
    a_position: str = "standing",
    a_parry: int = 0,
    a_cover: str = "none",
    a_character: str = "pc",
    a_morale_tn: int = 10,
    a_resist: int = 2,
    a_bound: str = "free",
    a_level: int = 1,
    a_cool_down: str = "spent",
    a_fatigue_tn: int = 10,
    a_leader: str = "standing",
    a_allies: int = 0,
    a_allies_down: int = 0,
    a_plan: str = "attack",
    a_fate: str = "any",
    a_encumbrance: int = 0,
    a_mr_modifier: int = 0,
    a_movement_die: str = "d6",
    a_barrier: str = "ordinary",
    a_parry_from: str = "weapon",
    a_blast_tn: int = 12,
    b_mr: int = 12,
    b_defence: int = 1,
    b_wound_limit: int = 2,
    b_wounds: int = 0,
    b_damage: DamageDice | str = "d6",
    b_attack: int = 2,
    b_initiative: int = 0,
    b_kind: str = "fight",
    b_position: str = "standing",
    b_parry: int = 0,
    b_cover: str = "none",
    b_character: str = "npc",
    b_morale_tn: int = 10,
    b_resist: int = 0,
    b_bound: str = "free",
    b_level: int = 1,
    b_cool_down: str = "spent",
    b_fatigue_tn: int = 10,
    b_leader: str = "standing",
    b_allies: int = 0,
    b_allies_down: int = 0,
    b_plan: str = "attack",
    b_fate: str = "any",
    b_encumbrance: int = 0,
    b_mr_modifier: int = 0,
    b_movement_die: str = "d6",
    b_barrier: str = "ordinary",
    b_parry_from: str = "weapon",
    b_blast_tn: int = 12,
    distance: int = 0,
    surprise: str = "none",
    sneak: int = 2,
    surprise_tn: int = 12,
    surprise_benefit: str = "action",
    action_die: str = "d20",
    critical: str = "natural",
    critical_damage: str = "sum",
    ties: str = "reroll",
    parry_cover: str = "tn",
    parry_applies: str = "all",
    cover_stacking: str = "add",
    surprise_action: str = "extra",
    surprise_critical: str = "both",
    casualties: str = "allies",
    blast_roll: str = "area",
    blast_resisted: str = "avoids",
    blast_shield: str = "counts",
    coup_de_grace: str = "resist",
) -> FightReport:
    """Two Chimera combatants from the form's fields: the odds of one blow each way and
    of the whole duel (:func:`ruleslab.chimera.fight.fight_odds`).

    Builds combatant A from the ``a_…`` fields and B from the ``b_…`` fields
    (:class:`~ruleslab.chimera.attack.Fighter`), the readings of the text from
    the rules options (:class:`~ruleslab.chimera.attack.FightRules`) and the
    Sneak roll from the surprise fields. Raises :class:`~ruleslab.InputError`
    for more wounds than the Wound Limit ("If the total number of wounds …
    exceeds the defender's Wound Limit, he's vanquished") and for a prone
    combatant who fights ("While prone, you may move at your creeping MR or
    Shoot"), and for more allies down than allies.
    """
    form = dict(locals())  # the fields as given, before any other name is bound
    for s, allies, down in (("A", a_allies, a_allies_down), ("B", b_allies, b_allies_down)):
        if down > allies:
            raise InputError(
                f"{s.lower()}_allies_down",
                f"{s}: Allies down must be a whole number from 0 to his allies on the side "
                f"({allies}).",
            )
    a, b = _fighter("A", form), _fighter("B", form)
    rules = FightRules(
        action_die=action_die,
        critical=critical,
        critical_damage=critical_damage,
        ties=ties,
        parry_cover=parry_cover,
        parry_applies=parry_applies,
        cover_stacking=cover_stacking,
        surprise_critical=surprise_critical,
        surprise_action=surprise_action,
        casualties=casualties,
        blast_roll=blast_roll,
        blast_resisted=blast_resisted,
        blast_shield=blast_shield,
        coup_de_grace=coup_de_grace,
    )
    plan = None
    if surprise != "none":
        side = 0 if surprise == "A" else 1
        plan = SurprisePlan(side=side, sneak=sneak, tn=surprise_tn, benefit=surprise_benefit)
    odds = fight_odds(a, b, rules, plan, distance)
    return FightReport(odds=odds, steps=odds.steps)


# --- rolls ------------------------------------------------------------------------------


def play_round(report: FightReport, seed: int) -> tuple[str, ...]:
    """The "Play a round" button: the Sneak roll if any, then round 1, rolled with ``seed``."""
    return play_log(report.odds, seed, 1)


def play_fight(report: FightReport, seed: int) -> tuple[str, ...]:
    """The "Play the fight" button: rounds until the duel ends (at most 100)."""
    return play_log(report.odds, seed, PLAY_FIGHT_ROUNDS)


def _group(title: str, prefix: str, *, fight: bool) -> FieldGroup:
    """A combatant's box: his fight's fields (``fight``), or his :data:`MOVING` ones."""
    names = tuple(
        p.name
        for p in chimera_fight.params
        if p.name.startswith(prefix) and (p.name.removeprefix(prefix) in MOVING) != fight
    )
    return FieldGroup(title, names)


CALCULATOR = Calculator(
    key="chimera",
    title="Chimera fight",
    summary=(
        "Two Chimera combatants: the exact odds of one blow each way (hit, Critical Success, "
        "wound, vanquish) and of the whole duel (who wins, how many 10-second rounds), with "
        "initiative, the Wound Penalty, morale and surprise; each round's full and free "
        "actions, closing a distance with the Movement Die, crouching and prone, Blast "
        "attacks against cover."
    ),
    compute=chimera_fight,
    groups=(
        _group("Combatant A", "a_", fight=True),
        _group("Combatant B", "b_", fight=True),
        _group("A: moving, cover and blasts", "a_", fight=False),
        _group("B: moving, cover and blasts", "b_", fight=False),
    ),
    columns=2,
    rules=(rule(CHIMERA, "Combat", "Attack Target Numbers, Vanquishing Foes"),),
    options=OPTIONS,
    rolls=(
        Roll("Play a round", play_round),
        Roll(
            "Play the fight",
            play_fight,
            help="Plays rounds until the duel ends; the same seed replays the same fight.",
        ),
    ),
    views=(
        ChartView(
            title="A's blow on B: wound severity (highlighted: vanquishes B)",
            x_label="Severity",
            chart=FightReport.a_chart,
        ),
        ChartView(
            title="B's blow on A: wound severity (highlighted: vanquishes A)",
            x_label="Severity",
            chart=FightReport.b_chart,
        ),
        ChartView(
            title=(
                "A's move in a round: running (creeping if crouched or prone); "
                "highlighted: far enough to reach B"
            ),
            x_label="Distance",
            chart=FightReport.a_move_chart,
        ),
        ChartView(
            title=(
                "B's move in a round: running (creeping if crouched or prone); "
                "highlighted: far enough to reach A"
            ),
            x_label="Distance",
            chart=FightReport.b_move_chart,
        ),
    ),
    example=(
        "from ruleslab.calculators.chimera import chimera_fight\n"
        "from ruleslab.chimera import Fighter, fight_odds, parse_dice\n"
        "report = chimera_fight(a_attack=4, b_defence=2, surprise='A')\n"
        "print(report.odds.duel.p_win, report.odds.duel.expected_rounds)\n"
        "print(report.explain())\n"
        "# the rules take two combatants: A against an ogre\n"
        "ogre = Fighter(name='Ogre', mr=8, defence=2, wound_limit=4, "
        "damage=parse_dice('2d6'), attack=1)\n"
        "print('A beats the ogre:', fight_odds(report.odds.a, ogre).figure('p_a_wins').text)"
    ),
)
