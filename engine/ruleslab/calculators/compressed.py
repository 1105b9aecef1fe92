"""The Compressed combat calculator (key ``compressed``): a whole fight in one opposed roll.

Combat alterations › Compressed Combat: "This is a system used for
less-narratively important fights, compressing the effect of a fight into one roll."

The rules, each module quoting the text it implements, are in
:mod:`ruleslab.alterations.compressed.combatants` (a combatant a line of text),
:mod:`ruleslab.alterations.compressed.pools` (each side's pools, its Quantum spent),
:mod:`ruleslab.alterations.compressed.odds` (the opposed roll, damage, death, the timeframe),
:mod:`ruleslab.alterations.compressed.roll` (one rolled fight),
:mod:`ruleslab.alterations.compressed.result` (the explained result, :class:`CompressedCombat`, with
its charts) and
:mod:`ruleslab.alterations.compressed.quantum_costs` (the power-type multipliers). This module
declares the inputs: a side's fields once (:data:`SIDE_FIELDS`, the record :class:`Side`), the two
roles that record plays (:data:`SIDE_A`, :data:`SIDE_B`: the form's ``a_*`` and ``b_*``
fields, the function's ``a`` and ``b``) and the rules options (:data:`OPTIONS`); then it
combines the rules (:func:`compressed_combat`), its "Roll it" log
(:func:`combat_roll_log`) and :data:`CALCULATOR`. See :mod:`ruleslab.declare`.
Readings of the text: ``docs/rules-notes/compressed.md`` (RN-COMP-1 … RN-COMP-20).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

from ruleslab.alterations.compressed.combatants import (
    MAX_INTENT,
    Combatant,
    parse_combatants,
    parse_intent,
    parse_power_text,
)
from ruleslab.alterations.compressed.lines import RecordsParam, write_combatant, write_power
from ruleslab.alterations.compressed.odds import (
    after_ablative,
    health_odds,
    success_table,
    timeframe,
    victory_odds,
)
from ruleslab.alterations.compressed.pools import (
    COMPRESSED,
    SideInput,
    build_side,
    spend,
    take_cover,
)
from ruleslab.alterations.compressed.pools import HENCHMEN as HENCHMEN_RULE
from ruleslab.alterations.compressed.quantum_costs import PowerUse, spend_steps
from ruleslab.alterations.compressed.result import CompressedCombat
from ruleslab.alterations.compressed.roll import play
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Headline, Roll
from ruleslab.explain import Step
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, TextParam, checked
from ruleslab.records import Role, record
from ruleslab.ruleset import V21
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "CALCULATOR",
    "OPTIONS",
    "PARAMS",
    "SIDE_A",
    "SIDE_B",
    "SIDE_FIELDS",
    "CompressedCombat",
    "RecordsParam",
    "Side",
    "combat_roll_log",
    "compressed_combat",
]


# --- the form ----------------------------------------------------------------------------

COMBATANTS = RecordsParam(
    "combatants",
    "combatants",
    parser=parse_combatants,
    record=Combatant,
    writer=write_combatant,
    multiline=True,
    max_length=2000,
    example="Name: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5",
    help=(
        "One important combatant a line: “Name: Dex 3, Firearms 2, accuracy 1, "
        "damage 6L, soak 4L, initiative 5”. Also: Mega-Dex 1, Tactics 3, dodge 6, "
        "auto 1, bonus 2, Quantum 10, resist 5 + formula 2x|sum (a power resisted "
        "differently), incap 7 + dead 11 or a health track of the Rules version: "
        "track Str 2 Sta 3 (2.0; also MSta, MStr, Quantum, armour), track Str 2 Sta 3 "
        "Will 5 (2.1; Res too). The first line leads the side (modifiers, henchmen)."
    ),
)
INTENT = TextParam(
    "intent",
    "intent",
    parser=parse_intent,
    max_length=MAX_INTENT,
    example="Drive the gang off",
    help=f"The side's one-sentence goal, achieved if it wins (at most {MAX_INTENT} characters).",
)
POSITION = IntParam(
    "position",
    "superior position",
    minimum=0,
    maximum=5,
    unit="dice",
    help="Superior Position: +1–5d to this side's pool (0: none).",
)
COVER = IntParam(
    "cover",
    "cover",
    minimum=0,
    maximum=3,
    unit="dice",
    help="Cover this side has: −1–3d to the opponent's pool (like +difficulty).",
)
SUPPORT = IntParam(
    "support",
    "supporting power",
    minimum=0,
    maximum=5,
    unit="dice",
    help="Relevant Supporting Power: +1–5d.",
)
TANGENTIAL = IntParam(
    "tangential",
    "tangential power dots",
    minimum=0,
    maximum=20,
    help="Powers tangentially beneficial (Telekinesis, Invisibility …): +1d per dot.",
)
FORCEFIELD = IntParam(
    "forcefield",
    "forcefield / ablative dots",
    minimum=0,
    maximum=20,
    help="Forcefield, other ablative soak or powers raising attack difficulty: "
    "each dot subtracts 1 success from the opponent's roll.",
)
FORCEFIELD_PROPER = BoolParam(
    "forcefield_proper",
    "forcefield proper (not a suite power)",
    help="Forcefield proper subtracts +1 more success (rules note RN-COMP-11).",
)
EXTRAS = IntParam(
    "extras",
    "defensive extras",
    minimum=0,
    maximum=10,
    help="Relevant defensive extras of the forcefield: +1 success subtracted each "
    "(rules note RN-COMP-11).",
)
HENCHMEN = IntParam(
    "henchmen",
    "henchmen",
    minimum=0,
    maximum=500,
    help="Henchmen with the side's leader (the first line). Up to the limit they add "
    "dice and damage; past it each is an extra health level for the leader.",
)
HENCHMEN_SITUATION = IntParam(
    "henchmen_situation",
    "henchmen limit adjustment",
    minimum=-20,
    maximum=20,
    help="The GM's situational change to the henchmen limit: wide open battlefields "
    "raise it, tight quarters lower it (never below 0).",
)
HENCHMAN_POOL = IntParam(
    "henchman_pool",
    "henchman pool",
    minimum=0,
    maximum=20,
    unit="dice",
    help="A henchman's attribute + ability (over 7: +2d each instead of +1d).",
)
HENCHMAN_SOAK = IntParam(
    "henchman_soak",
    "henchmen's soak",
    minimum=0,
    maximum=50,
    help="The representative soak of the most numerous henchman type. While the side "
    "has henchmen it is the squad's soak: the opponent attacks through it, not the "
    "leader's own soak (rules note RN-COMP-20).",
)

HENCHMEN_SHARE_POWER = BoolParam(
    "henchmen_share_power",
    "henchmen share the leader's Quantum power",
    help="Only for a leader attacking with a power (a line with a resistance pool): "
    "henchmen add ‘to the dice pool for Quantum powers that both parties have’. Tick if "
    "they have his power; otherwise they add neither dice nor damage to it (rules note "
    "RN-COMP-21).",
)


def _leader_trait(trait: str) -> IntParam:
    """The leader's ``trait`` (Charisma or Command, 0 to 10): the two set the henchmen limit."""
    return IntParam(
        f"leader_{trait.lower()}",
        f"leader's {trait}",
        minimum=0,
        maximum=10,
        help="Henchmen limit = (Charisma + Command) × 2.",
    )


LEADER_CHARISMA = _leader_trait("Charisma")
LEADER_COMMAND = _leader_trait("Command")
POWERS = RecordsParam(
    "powers",
    "Quantum powers used",
    parser=parse_power_text,
    record=PowerUse,
    writer=write_power,
    multiline=True,
    max_length=2000,
    example="Flight, 1, maintenance",
    help="One power a line: “[Who:] Power, cost, type” with type maintenance, "
    "concentration (× 2), action (× 5) or instant (× 10). Who defaults to the "
    "first combatant with a Quantum pool, else the leader.",
)
INCAP = IntParam(
    "incap",
    "levels to Incapacitated",
    minimum=1,
    maximum=200,
    help="Levels of damage that incapacitate a combatant of this side (7: a 2.0 track "
    "with Str 2, Sta 2; 2.1, Str 2, Sta 2, Will 3: 8). A line's incap/dead/track "
    "overrides it.",
)
DEAD = IntParam(
    "dead",
    "levels to Dead",
    minimum=1,
    maximum=300,
    help="Levels of damage that kill (11: a 2.0 track with Str 2, Sta 2: the last "
    "Dying level filled; 2.1, Str 2, Sta 2, Will 3: 17).",
)

SIDE_FIELDS = (
    COMBATANTS,
    INTENT,
    POSITION,
    COVER,
    SUPPORT,
    TANGENTIAL,
    FORCEFIELD,
    FORCEFIELD_PROPER,
    EXTRAS,
    HENCHMEN,
    HENCHMEN_SITUATION,
    HENCHMAN_POOL,
    HENCHMAN_SOAK,
    HENCHMEN_SHARE_POWER,
    LEADER_CHARISMA,
    LEADER_COMMAND,
    POWERS,
    INCAP,
    DEAD,
)


@record(*SIDE_FIELDS)
@dataclass(frozen=True, kw_only=True)
class Side(SideInput):
    """One side of the fight, as a Python caller passes it (``compressed_combat(a=Side(…))``):
    the fields of :class:`~ruleslab.alterations.compressed.pools.SideInput` (defaults written
    there), each declared once above and checked. ``combatants`` and ``powers`` may be the form's
    text (parsed) or records; the role sets ``label``. Example::

        Side(combatants="Police officer: Dex 3, Firearms 2, damage 6L, soak 4L", cover=1)
    """


def side_role(letter: str, *, combatants: str, intent: str) -> Role:
    """Side ``letter`` ("a"/"b"): the function's argument ``letter``, the form's fields
    ``<letter>_<field>`` labelled "Side A <field's label>" in a box titled "Side A", with
    the side's own default combatants and intent."""
    title = f"Side {letter.upper()}"
    return Role(
        letter,
        title,
        Side,
        tuple(p.name for p in SIDE_FIELDS),
        prefix=f"{letter}_",
        label=f"{title} ",
        defaults={"combatants": combatants, "intent": intent, "powers": ""},  # the texts
        fixed={"label": title},
    )


# The text's example: "a police officer with Dexterity 3, Firearms 2 + 1 accuracy, weapon
# damage 6L, and soak 4L […] The opposing gangbanger with Dexterity 2, Firearms 2, weapon
# damage 5L, and soak 1L".
SIDE_A = side_role(
    "a",
    combatants="Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5",
    intent="Arrest the gangbanger",
)
"""Side A: the form's ``a_*`` fields, the function's argument ``a``."""
SIDE_B = side_role(
    "b",
    combatants="Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4",
    intent="Get away with the stash",
)
"""Side B: the form's ``b_*`` fields, the function's argument ``b``."""

RULESET = replace(
    BASE_RULESET,
    help=(
        "The health track a combatant's “track …” item builds: 2.1 (Willpower + Stamina × 2 "
        "+ Mega-Stamina × 6 + Quantum levels, Stamina Incapacitated levels, (Strength + "
        "Stamina) × 2 Dying; the track needs Will) or 2.0 (the −0/−1/−2/−4 levels, Incap, "
        "Strength + Stamina Dying). See rules note RN-COMP-15. Default 2.1."
    ),
)

OPTIONS = (
    RULESET,
    ChoiceParam(
        "strange_mode",
        "Attack + damage − resistance “roll”",
        choices=(
            ("pool", "Subtract the resistance pool as dice"),
            ("roll", "Roll the resistance: subtract its successes"),
            ("expected", "Subtract the resistance's expected successes (rounded down) as dice"),
        ),
        help="For a line with “resist N, formula sum”. See rules note RN-COMP-10.",
    ),
    ChoiceParam(
        "forcefield_bonus",
        "Forcefield proper's +1",
        choices=(("once", "+1 success in all"), ("per_dot", "+1 success per dot")),
        help="See rules note RN-COMP-11.",
    ),
    ChoiceParam(
        "ablative_applies",
        "Ablative soak subtracts successes for",
        choices=(("both", "Victory and damage"), ("damage", "Damage only")),
        help="See rules note RN-COMP-12.",
    ),
    ChoiceParam(
        "initiative_tie",
        "Equal initiative",
        choices=(
            ("neither", "A tie stands; both-down damage stands as rolled"),
            ("coin", "Each side takes it half the time"),
        ),
        help="When both sides' best base initiative is equal. See rules note RN-COMP-13.",
    ),
    ChoiceParam(
        "damage_split",
        "Damage among several combatants",
        choices=(
            ("even", "Evenly (remainder to the first listed)"),
            ("focus", "One at a time, in list order"),
        ),
        help="See rules note RN-COMP-14.",
    ),
    ChoiceParam(
        "henchmen_count_as",
        "Henchmen dice and damage count as",
        choices=(("base", "Base pool (not capped)"), ("modifier", "Modifiers (capped)")),
        help="See rules note RN-COMP-8.",
    ),
)


# --- the calculator ----------------------------------------------------------------------


@checked(SIDE_A, SIDE_B, *OPTIONS)
def compressed_combat(
    a: Side | None = None,
    b: Side | None = None,
    ruleset: str = V21,
    strange_mode: str = "pool",
    forcefield_bonus: str = "once",
    ablative_applies: str = "both",
    initiative_tie: str = "neither",
    damage_split: str = "even",
    henchmen_count_as: str = "base",
) -> CompressedCombat:
    """A compressed combat between two sides: pools, P(win), damage, health, timeframe, Quantum.

    Compressed Combat: "Compressed combat uses (attack roll + base attack damage -
    enemy soak) for every character in question." Resolution › Victory: "The winner is
    the side which rolls more total successes." › Damage and Death: "The total
    successes rolled by a "side" equal the levels of damage a character takes."

    In named steps: each side's pools (:func:`~ruleslab.alterations.compressed.pools.build_side`,
    then the opponent's cover), the success tables, ablative soak, victory and the tie,
    damage and the both-down rule, the timeframe and the Quantum spent.

    Each side is a :class:`Side` record: pass ``a=Side(…)``,
    ``b=Side(…)``, or its fields flat (``a_combatants=…``, ``b_cover=1``), or both (a flat
    field then changes that one field of the record); a side not given holds its role's
    defaults. Text fields (combatants, intent, powers) are parsed by their declared
    parsers (or given as already parsed records). Cross-field checks (a side's incap above its
    dead, a power naming nobody, a 2.1 track without Willpower) raise
    :class:`InputError` naming the field.
    """
    assert a is not None  # @checked builds both sides' records
    assert b is not None
    ia, ib = _checked_side(SIDE_A, a), _checked_side(SIDE_B, b)
    steps = [Step(f"{s.label}: {c.describe()}", COMPRESSED) for s in (ia, ib) for c in s.combatants]
    build = functools.partial(
        build_side,
        strange_mode=strange_mode,
        forcefield_bonus=forcefield_bonus,
        henchmen_count_as=henchmen_count_as,
        ruleset=ruleset,
        steps=steps,
    )
    built_a = build(ia, ib, field=SIDE_A.flat_name("combatants"))
    built_b = build(ib, ia, field=SIDE_B.flat_name("combatants"))
    pools_b = take_cover(ia, ib, built_b.pools, steps)
    pools_a = take_cover(ib, ia, built_a.pools, steps)
    table_a = success_table("Side A", pools_a, steps)
    table_b = success_table("Side B", pools_b, steps)
    dmg_a, dmg_b, vic_a, vic_b = after_ablative(
        table_a, table_b, built_a.ablative, built_b.ablative, ablative_applies, steps
    )
    win = victory_odds(
        vic_a, vic_b, ia, ib, built_a.initiative, built_b.initiative, initiative_tie, steps
    )
    hurt = health_odds(
        dmg_a, dmg_b, pools_a, pools_b, tie_to=win.tie_to, split=damage_split, steps=steps
    )
    turns = timeframe(ia, ib, steps)
    spends_a, spends_b = (
        spend(ia, SIDE_A.flat_name("powers")),
        spend(ib, SIDE_B.flat_name("powers")),
    )
    steps += spend_steps("Side A", spends_a) + spend_steps("Side B", spends_b)
    return CompressedCombat(
        side_a=built_a.side(ia, pools_a, spends_a, table_a),
        side_b=built_b.side(ib, pools_b, spends_b, table_b),
        victory_a=vic_a,
        victory_b=vic_b,
        damage_to_a=dmg_a,
        damage_to_b=dmg_b,
        **asdict(win),
        **asdict(hurt),
        timeframe=turns,
        damage_split=damage_split,
        ablative_applies=ablative_applies,
        steps=tuple(steps),
    )


PARAMS = compressed_combat.params
"""The form, in order: side A's inputs (``a_combatants`` …), side B's, the rules options."""


def _checked_side(role: Role, side: Side) -> Side:
    """Side ``side`` in ``role``, its health thresholds in order: an error names the
    role's form field (``a_incap``)."""
    if side.incap > side.dead:
        raise InputError(
            role.flat_name("incap"),
            f"{role.title} levels to Incapacitated must not be more than levels to Dead.",
        )
    return side


def combat_roll_log(result: CompressedCombat, seed: int) -> tuple[str, ...]:
    """One seeded outcome of the fight, as lines a GM can read out.

    Rolls every combatant's pool (and any rolled resistance) with ``random.Random(seed)``,
    then applies ablative soak, victory, the tie rule, damage sharing and the both-down
    rule exactly as :func:`compressed_combat` (:func:`ruleslab.alterations.compressed.odds.play`).
    """
    return play(
        result.side_a,
        result.side_b,
        random.Random(seed),
        ablative_applies=result.ablative_applies,
        tie_to=result.tie_to,
        damage_split=result.damage_split,
    )


def _damage_view(side: str, chart: Callable[[CompressedCombat], Chart]) -> ChartView:
    """The chart of the health levels side ``side`` loses: highlighted, it is taken out."""
    return ChartView(
        title=f"Health levels side {side} loses",
        x_label="Levels of damage",
        chart=chart,
        highlight=f"side {side} taken out",
    )


CALCULATOR = Calculator(
    key="compressed",
    title="Compressed combat",
    summary=(
        "A whole fight in one opposed roll: each side's pool is attack + damage − the "
        "enemy's soak, with modifiers, powers and henchmen; exact odds of winning, the "
        "damage each side takes, incapacitation and death, the timeframe and Quantum spent."
    ),
    compute=compressed_combat,
    headlines=(
        Headline(
            ("winner", "p_a_down", "p_b_down"),
            question="Who wins the fight, and is either side taken out",
        ),
    ),
    groups=tuple(FieldGroup(role.title, role.flat_names) for role in (SIDE_A, SIDE_B)),
    columns=2,
    rules=(
        rule(
            ALT, "Compressed Combat", "Modifiers, Quantum Powers, Strange Interactions, Resolution"
        ),
        HENCHMEN_RULE,
        rule(QR, "2.0 Rules, 2.1 Rules", "Health Levels"),
    ),
    options=tuple(p.name for p in OPTIONS),
    rolls=(
        Roll(
            "Roll it",
            combat_roll_log,
            help="Rolls the fight once: both sides' dice, the winner and their intent, "
            "the damage; the same seed replays the same fight.",
        ),
    ),
    views=(
        ChartView(
            title="Success margin, side A − side B",
            x_label="Side A's successes minus side B's",
            chart=CompressedCombat.margin_chart,
            highlight="side A takes the fight",
        ),
        _damage_view("A", CompressedCombat.damage_chart_a),
        _damage_view("B", CompressedCombat.damage_chart_b),
    ),
    example=(
        "from ruleslab.calculators.compressed import Side, compressed_combat\n"
        "officer = Side(\n"
        '    combatants="Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, '
        'initiative 5",\n'
        '    intent="Arrest the gangbanger",\n'
        ")\n"
        "gangbanger = Side(\n"
        '    combatants="Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4",\n'
        '    intent="Get away with the stash",\n'
        ")\n"
        "r = compressed_combat(a=officer, b=gangbanger)\n"
        "print(r.figure('p_a_wins').text, r.figure('damage_to_b').text)"
    ),
)
