"""The Chimera fight calculator (key ``chimera``): two combatants, one blow each way, the duel.

The rules are in :mod:`ruleslab.chimera` (:func:`ruleslab.chimera.fight.fight_odds`
takes the two combatants as :class:`~ruleslab.chimera.fighter.Fighter` records and
the readings of the text as :class:`~ruleslab.chimera.attack.FightRules`); this
module gives the record two roles (:data:`A` and :data:`B`: the fields ``a_…``
and ``b_…``, each declared once by the record, :mod:`ruleslab.chimera.fighter`),
declares the rules options and the surprise, and adds the figures, the charts and
the "Play a round" / "Play the fight" logs (:class:`FightReport`). See
:mod:`ruleslab.declare` and :mod:`ruleslab.records`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ruleslab.chimera.attack import CHOICES, READING_LABELS, FightRules
from ruleslab.chimera.duel import SurprisePlan
from ruleslab.chimera.fight import FightOdds, fight_chart, fight_odds, play_log, vanquish_bar
from ruleslab.chimera.fighter import MR, DiceParam, Fighter, roll_bonus, target_number
from ruleslab.chimera.plan import BENEFIT_CHOICES
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Headline, Roll
from ruleslab.explain import Explained, Figure
from ruleslab.params import ChoiceParam, InputError, IntParam, checked
from ruleslab.records import Role, fields_of
from ruleslab.sources import CHIMERA, rule

__all__ = [
    "CALCULATOR",
    "OPTIONS",
    "A",
    "B",
    "DiceParam",
    "FightReport",
    "chimera_fight",
    "play_fight",
    "play_round",
]

MAX_DISTANCE = 40
"""The farthest start the form takes, in MR units: at worst a crouched combatant creeping
1 a round under fire, which the exact chain still solves in the time allowed."""
PLAY_FIGHT_ROUNDS = 100
""""Play the fight" stops after this many rounds (the log says so)."""


# --- inputs ---------------------------------------------------------------------------

MOVING = (
    "encumbrance",
    "mr_modifier",
    "movement_die",
    "barrier",
    "parry_from",
    "blast_tn",
)
"""A combatant's fields shown in his second box: moving, his barrier, his blasts."""
FIGHT_FIELDS = tuple(f for f in fields_of(Fighter) if f not in MOVING)
"""A combatant's fields shown in his first box: his fight (every other field, in the
record's order)."""


def _side(side: str, defaults: Mapping[str, Any]) -> Role:
    """Combatant ``side`` ("A" or "B"): the :class:`Fighter` in fields ``a_mr``, ``a_defence`` …
    (labels "A: …"), the function's argument ``a``."""
    mr_help = MR.help.replace("His base MR", f"{side}'s base MR", 1)
    return Role(
        side.lower(),
        f"Combatant {side}",
        Fighter,
        FIGHT_FIELDS + MOVING,
        prefix=f"{side.lower()}_",
        label=f"{side}: ",
        help={"mr": mr_help},
        defaults=defaults,
        fixed={"name": side},
    )


A = _side("A", {"character": "pc", "resist": 2})
"""Combatant A: the record's defaults, a player character with a d8 and Resistance +2."""
B = _side("B", {"mr": 12, "wound_limit": 2, "damage": "d6", "attack": 2})
"""Combatant B: an unclassed NPC, MR 12, WL 2, a d6, attack +2."""

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
SNEAK = roll_bonus(
    "sneak",
    "Sneak bonus",
    help="The surpriser's Sneak bonus, added to the Sneak roll.",
)
SURPRISE_TN = target_number(
    "surprise_tn",
    "Foe's Surprise TN",
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
    choices=BENEFIT_CHOICES,
    help="The surpriser chooses one benefit (both on a Critical Success, at the GM's option).",
)

# --- rules options: readings of the text (rules notes RN-CHIM-*), the fields of FightRules


def _reading(name: str, *, help: str) -> ChoiceParam:
    """The rules option for :class:`~ruleslab.chimera.attack.FightRules`'s field ``name``:
    its label and readings, as :data:`~ruleslab.chimera.attack.READING_LABELS` and
    :data:`~ruleslab.chimera.attack.CHOICES` word them."""
    return ChoiceParam(name, READING_LABELS[name], choices=CHOICES[name], help=help)


ACTION_DIE = _reading(
    "action_die",
    help=(
        "The text uses Target Numbers but does not restate the Action Roll. Chimera rolls a "
        "d20 plus modifiers and succeeds on meeting or beating the TN. See rules note RN-CHIM-1."
    ),
)
CRITICAL = _reading(
    "critical",
    help=(
        "The text does not define a Critical Success (it doubles the damage dice and can give "
        "both surprise benefits). 'Natural 20' means the die's highest face (all dice at their "
        "highest for 2d10 or 3d6). See rules note RN-CHIM-2."
    ),
)
CRITICAL_DAMAGE = _reading(
    "critical_damage",
    help="On a Critical Success the attacker rolls 2 damage dice. See rules note RN-CHIM-3.",
)
TIES = _reading(
    "ties",
    help=(
        "The text says the highest goes first but not what a tie does. 'Roll again': the "
        "order is as if ties never happened. 'At once': both attacks are resolved on the "
        "wounds before the round, so both may fall. See rules note RN-CHIM-9."
    ),
)
PARRY_COVER = _reading(
    "parry_cover",
    help=(
        "'Parry and Cover are optional; if you don't want to use them, apply any Parry or "
        "Cover bonus … to the combatant's Defence.' See rules note RN-CHIM-6."
    ),
)
PARRY_APPLIES = _reading(
    "parry_applies",
    help="The text does not limit parrying to melee. See rules note RN-CHIM-4.",
)
COVER_STACKING = _reading(
    "cover_stacking",
    help="A crouching or prone combatant behind a barrier. See rules note RN-CHIM-4.",
)
SURPRISE_ACTION = _reading(
    "surprise_action",
    help=(
        "'execute a full combat action before your foe can respond': either a round of its own "
        "in which the foe does nothing, or the sneak wins round 1's initiative and the foe "
        "answers in the same round. See rules note RN-CHIM-11."
    ),
)
CASUALTIES = _reading(
    "casualties",
    help=(
        "'his allies suffer more than 50% casualties': more than half of his allies down, or "
        "more than half of his side counting himself. See rules note RN-CHIM-18."
    ),
)
SURPRISE_CRITICAL = _reading(
    "surprise_critical",
    help=(
        "At the GM's discretion, a Sneak roll that is a Critical Success gives both the "
        "surprise action and AR +2. See rules note RN-CHIM-12."
    ),
)

BLAST_ROLL = _reading(
    "blast_roll",
    help=(
        "The text gives the defender a Resistance Roll against blasts but no roll to hit. "
        "See rules note RN-CHIM-7."
    ),
)
BLAST_RESISTED = _reading(
    "blast_resisted",
    help="The text does not say what a successful Resistance Roll does. See RN-CHIM-7.",
)
BLAST_SHIELD = _reading(
    "blast_shield",
    help="'Add the Cover bonus (and shield bonus, at the GM's option)'. See RN-CHIM-7.",
)
COUP_DE_GRACE = _reading(
    "coup_de_grace",
    help=(
        "'Classed characters … may Resist a Killer Blow'; 'Unconscious foes may be "
        "dispatched with a coup de grâce as a free action'. See RN-CHIM-23."
    ),
)

RULES_OPTIONS = (
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
"""The calculator's rules options (readings of the text): the fields of
:class:`~ruleslab.chimera.attack.FightRules`, in the form's order."""
OPTIONS = tuple(p.name for p in RULES_OPTIONS)
"""The rules options by parameter name."""


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


def _check_fighter(role: Role, f: Fighter) -> None:
    """The rules across one combatant's fields, each named as on the form (``a_wounds``)."""
    s = role.title.removeprefix("Combatant ")
    if f.wounds > f.wound_limit:
        raise InputError(
            role.flat_name("wounds"),
            f"{s}: Wounds so far must be a whole number from 0 to the Wound Limit "
            f"({f.wound_limit}); more wounds would already have vanquished {s}.",
        )
    if f.position_after == "prone" and f.kind == "fight":
        raise InputError(
            role.flat_name("position"),
            f"{s}: a prone combatant may only move or Shoot (Chimera combat); choose Shoot "
            "or another position (or 'Prone, gets up on his first turn').",
        )


@checked(
    A,
    B,
    DISTANCE,
    SURPRISE_WHO,
    SNEAK,
    SURPRISE_TN,
    SURPRISE_BENEFIT,
    *RULES_OPTIONS,
)
def chimera_fight(
    a: Fighter | None = None,
    b: Fighter | None = None,
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
    """Two Chimera combatants: the odds of one blow each way and of the whole duel
    (:func:`ruleslab.chimera.fight.fight_odds`).

    ``a`` and ``b`` are :class:`~ruleslab.chimera.fighter.Fighter` records (``None``:
    the form's defaults, roles :data:`A` and :data:`B`); a caller may instead pass
    their fields (``a_mr=12``), or both. Builds the readings of the text from
    the rules options (:class:`~ruleslab.chimera.attack.FightRules`) and the
    Sneak roll from the surprise fields. Raises :class:`~ruleslab.InputError`
    for more wounds than the Wound Limit ("If the total number of wounds …
    exceeds the defender's Wound Limit, he's vanquished") and for a prone
    combatant who fights ("While prone, you may move at your creeping MR or
    Shoot"), and for more allies down than allies.
    """
    assert a is not None  # (filled in by @checked)
    assert b is not None
    for role, f in ((A, a), (B, b)):
        if f.allies_down > f.allies:
            raise InputError(
                role.flat_name("allies_down"),
                f"{f.name}: Allies down must be a whole number from 0 to his allies on the "
                f"side ({f.allies}).",
            )
    _check_fighter(A, a)
    _check_fighter(B, b)
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


def _group(title: str, role: Role, fields: tuple[str, ...]) -> FieldGroup:
    """A combatant's box: his ``fields``, by their form names."""
    return FieldGroup(title, tuple(role.flat_name(f) for f in fields))


def _blow_view(side: str, foe: str, chart: Callable[[FightReport], Chart]) -> ChartView:
    """The chart of ``side``'s blow on ``foe``: highlighted from what vanquishes ``foe``."""
    return ChartView(
        title=f"{side}'s blow on {foe}: wound severity",
        x_label="Severity",
        chart=chart,
        highlight=f"vanquishes {foe}",
    )


def _move_view(side: str, foe: str, chart: Callable[[FightReport], Chart]) -> ChartView:
    """The chart of ``side``'s move in a round: highlighted, the distances that reach ``foe``."""
    return ChartView(
        title=f"{side}'s move in a round: running (creeping if crouched or prone)",
        x_label="Distance",
        chart=chart,
        highlight=f"far enough to reach {foe}",
    )


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
    headlines=(
        Headline(
            ("p_surprise", "p_a_wins", "p_b_wins"),
            when=lambda v: v["surprise"] != "none",
            question="Does the surprise succeed, and who wins the duel",
        ),
        Headline(
            ("p_a_wins", "p_b_wins", "expected_rounds"),
            question="Who wins the duel, and how long it lasts",
        ),
    ),
    groups=(
        _group(A.title, A, FIGHT_FIELDS),
        _group(B.title, B, FIGHT_FIELDS),
        _group("A: moving, cover and blasts", A, MOVING),
        _group("B: moving, cover and blasts", B, MOVING),
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
        _blow_view("A", "B", FightReport.a_chart),
        _blow_view("B", "A", FightReport.b_chart),
        _move_view("A", "B", FightReport.a_move_chart),
        _move_view("B", "A", FightReport.b_move_chart),
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
