"""The Compressed combat calculator (key ``compressed``): a whole fight in one opposed roll.

Combat alterations › Compressed Combat: "This is a system used for
less-narratively important fights, compressing the effect of a fight into one roll."

The rules, each module quoting the text it implements, are in
:mod:`ruleslab.compressed.combatants` (a combatant a line of text),
:mod:`ruleslab.compressed.pools` (each side's pools, its Quantum spent),
:mod:`ruleslab.compressed.odds` (the opposed roll, damage, death, the timeframe),
:mod:`ruleslab.compressed.roll` (one rolled fight) and :mod:`ruleslab.quantum_costs`
(the power-type multipliers). This module declares the calculator's inputs
(:data:`PARAMS`, two sides and the rules options), combines the rules into one
explained result (:class:`CompressedCombat`, with its charts), its "Roll it" log
(:func:`combat_roll_log`) and :data:`CALCULATOR`. See :mod:`ruleslab.declare`.
Readings of the text: ``docs/rules-notes/compressed.md`` (RN-COMP-1 … RN-COMP-20).

Over 600 lines, for a reason: the form is 43 inputs (18 a side, each with its range
and help, and 7 rules options) and takes about 250 of them; splitting it from the
function whose signature gives their defaults would part each input from its default.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from ruleslab.compressed.combatants import (
    MAX_INTENT,
    Combatant,
    parse_combatants,
    parse_intent,
    parse_power_text,
)
from ruleslab.compressed.lines import write_combatant, write_power
from ruleslab.compressed.odds import (
    after_ablative,
    fate_labels,
    health_odds,
    levels_to_down,
    margin_probabilities,
    success_table,
    timeframe,
    victory_odds,
)
from ruleslab.compressed.pools import COMPRESSED, Side, SideInput, build_side, spend, take_cover
from ruleslab.compressed.roll import play
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Roll
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.inputs import RULESET as BASE_RULESET
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, Param, TextParam, checked
from ruleslab.pmf import CHART_CUTOFF, chart_bars
from ruleslab.pmf import mean as pmf_mean
from ruleslab.quantum_costs import PowerUse, spend_steps
from ruleslab.ruleset import V21
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "CALCULATOR",
    "OPTIONS",
    "PARAMS",
    "CompressedCombat",
    "RecordsParam",
    "combat_roll_log",
    "compressed_combat",
]


# --- the form ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RecordsParam(TextParam):
    """A list field (combatants, powers): text parsed into a tuple of ``record`` objects.

    Also accepts the already parsed records (a tuple or list), so Python callers may
    pass them (the form passes text; see ``CalculatorView.parse``). Records get the
    same checks and messages as the form: ``writer`` (see
    :mod:`ruleslab.compressed.lines`) writes each as the line the form would take, on
    its own line number so that messages name the same line; the field's parser reads
    the lines back, and the records must be what it reads. A value out of range gets
    the parser's message for that item; a record no line gives (an ability named like
    another item, a name with a colon …) is refused, naming the first field that does
    not read back.
    """

    record: type = object
    writer: Callable[[Any], str] | None = None

    def check(self, value: Any) -> Any:
        if isinstance(value, tuple | list) and all(isinstance(x, self.record) for x in value):
            if self.writer is not None:
                return self._check_records(tuple(value), self.writer)
        if not isinstance(value, str):
            raise InputError(
                self.name,
                f"{self.label} must be text, one a line (or a tuple of "
                f"{self.record.__name__} records).",
            )
        return super().check(value)

    def _check_records(
        self, records: tuple[Any, ...], writer: Callable[[Any], str]
    ) -> tuple[Any, ...]:
        limit = 4 * self.max_length  # written out in full, records may run longer than typed
        keep_lines = _increasing_lines(records, limit)
        lines: list[str] = []
        length = 0
        for record in records:
            if keep_lines:  # blank lines up to the record's own line number
                length += record.line - 1 - len(lines)
                lines.extend([""] * (record.line - 1 - len(lines)))
            lines.append(writer(record))
            length += len(lines[-1]) + 1
            if length > limit:
                raise InputError(
                    self.name, f"{self.label} is too long: at most {self.max_length:,} characters."
                )
        parsed = tuple(self.parser("\n".join(lines), self))
        for given, read in zip(records, parsed, strict=True):
            if given != replace(read, line=given.line):
                raise InputError(self.name, _not_read_back(self.label, given, read))
        return parsed


def _increasing_lines(records: tuple[Any, ...], limit: int) -> bool:
    """Whether the records' line numbers can be kept: whole numbers from 1 up, increasing."""
    lines = [getattr(r, "line", None) for r in records]
    numbers = [n for n in lines if type(n) is int]
    return len(numbers) == len(lines) and all(
        a < b <= limit for a, b in itertools.pairwise([0, *numbers])
    )


def _not_read_back(label: str, given: Any, read: Any) -> str:
    """The message for a record that no line of the form gives."""
    name = next(
        (f.name for f in fields(given) if getattr(given, f.name) != getattr(read, f.name)), "line"
    )
    return (
        f"{label}, line {read.line}: {name} {_shown(getattr(given, name))} is not what a line "
        f"of this field can give (the line written for it reads "
        f"{_shown(getattr(read, name))}); pass the list as text, one a line."
    )


def _shown(value: object) -> str:
    """A record's value in a message: text in quotes, anything else as Python shows it."""
    if isinstance(value, str):
        return f"“{value[:40]}”"
    return repr(value)[:40]


def _side_params(side: str) -> list[Param]:
    """Side ``side`` ("a"/"b")'s inputs: its combatants, intent, modifiers, henchmen,
    powers and health thresholds."""
    upper = side.upper()
    return [
        RecordsParam(
            f"{side}_combatants",
            f"Side {upper} combatants",
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
        ),
        TextParam(
            f"{side}_intent",
            f"Side {upper} intent",
            parser=parse_intent,
            max_length=MAX_INTENT,
            example="Drive the gang off",
            help=f"The side's one-sentence goal, achieved if it wins (at most {MAX_INTENT} "
            "characters).",
        ),
        IntParam(
            f"{side}_position",
            f"Side {upper} superior position",
            minimum=0,
            maximum=5,
            unit="dice",
            help="Superior Position: +1–5d to this side's pool (0: none).",
        ),
        IntParam(
            f"{side}_cover",
            f"Side {upper} cover",
            minimum=0,
            maximum=3,
            unit="dice",
            help="Cover this side has: −1–3d to the opponent's pool (like +difficulty).",
        ),
        IntParam(
            f"{side}_support",
            f"Side {upper} supporting power",
            minimum=0,
            maximum=5,
            unit="dice",
            help="Relevant Supporting Power: +1–5d.",
        ),
        IntParam(
            f"{side}_tangential",
            f"Side {upper} tangential power dots",
            minimum=0,
            maximum=20,
            help="Powers tangentially beneficial (Telekinesis, Invisibility …): +1d per dot.",
        ),
        IntParam(
            f"{side}_forcefield",
            f"Side {upper} forcefield / ablative dots",
            minimum=0,
            maximum=20,
            help="Forcefield, other ablative soak or powers raising attack difficulty: "
            "each dot subtracts 1 success from the opponent's roll.",
        ),
        BoolParam(
            f"{side}_forcefield_proper",
            f"Side {upper}: Forcefield proper (not a suite power)",
            help="Forcefield proper subtracts +1 more success (rules note RN-COMP-11).",
        ),
        IntParam(
            f"{side}_extras",
            f"Side {upper} defensive extras",
            minimum=0,
            maximum=10,
            help="Relevant defensive extras of the forcefield: +1 success subtracted each "
            "(rules note RN-COMP-11).",
        ),
        IntParam(
            f"{side}_henchmen",
            f"Side {upper} henchmen",
            minimum=0,
            maximum=500,
            help="Henchmen with the side's leader (the first line). Up to the limit they add "
            "dice and damage; past it each is an extra health level for the leader.",
        ),
        IntParam(
            f"{side}_henchmen_situation",
            f"Side {upper} henchmen limit adjustment",
            minimum=-20,
            maximum=20,
            help="The GM's situational change to the henchmen limit: wide open battlefields "
            "raise it, tight quarters lower it (never below 0).",
        ),
        IntParam(
            f"{side}_henchman_pool",
            f"Side {upper} henchman pool",
            minimum=0,
            maximum=20,
            unit="dice",
            help="A henchman's attribute + ability (over 7: +2d each instead of +1d).",
        ),
        IntParam(
            f"{side}_henchman_soak",
            f"Side {upper} henchmen's soak",
            minimum=0,
            maximum=50,
            help="The representative soak of the most numerous henchman type. While the side "
            "has henchmen it is the squad's soak: the opponent attacks through it, not the "
            "leader's own soak (rules note RN-COMP-20).",
        ),
        IntParam(
            f"{side}_leader_charisma",
            f"Side {upper} leader's Charisma",
            minimum=0,
            maximum=10,
            help="Henchmen limit = (Charisma + Command) × 2.",
        ),
        IntParam(
            f"{side}_leader_command",
            f"Side {upper} leader's Command",
            minimum=0,
            maximum=10,
            help="Henchmen limit = (Charisma + Command) × 2.",
        ),
        RecordsParam(
            f"{side}_powers",
            f"Side {upper} Quantum powers used",
            parser=parse_power_text,
            record=PowerUse,
            writer=write_power,
            multiline=True,
            max_length=2000,
            example="Flight, 1, maintenance",
            help="One power a line: “[Who:] Power, cost, type” with type maintenance, "
            "concentration (× 2), action (× 5) or instant (× 10). Who defaults to the "
            "first combatant with a Quantum pool, else the leader.",
        ),
        IntParam(
            f"{side}_incap",
            f"Side {upper} levels to Incapacitated",
            minimum=1,
            maximum=200,
            help="Levels of damage that incapacitate a combatant of this side (7: a 2.0 track "
            "with Str 2, Sta 2; 2.1, Str 2, Sta 2, Will 3: 8). A line's incap/dead/track "
            "overrides it.",
        ),
        IntParam(
            f"{side}_dead",
            f"Side {upper} levels to Dead",
            minimum=1,
            maximum=300,
            help="Levels of damage that kill (11: a 2.0 track with Str 2, Sta 2: the last "
            "Dying level filled; 2.1, Str 2, Sta 2, Will 3: 17).",
        ),
    ]


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

PARAMS = (*_side_params("a"), *_side_params("b"), *OPTIONS)
"""The form, in order: side A's inputs, side B's, the rules options."""


# --- the result --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CompressedCombat(Explained):
    """Result of :func:`compressed_combat`: both sides, the odds, damage and health.

    ``victory_a``/``victory_b`` are the success tables compared for victory,
    ``damage_to_a``/``damage_to_b`` the exact distributions of health levels each
    side loses. ``p_a_wins``/``p_b_wins`` are "more successes" only; ties go to
    ``tie_to`` ("A", "B", "neither" or "coin"); ``p_a_takes``/``p_b_takes``
    include the ties each side takes. ``p_*_down``: every combatant of the side
    Incapacitated or dead; ``p_*_killed``: at least one of them killed — both
    after the both-down rule.
    """

    side_a: Side
    side_b: Side
    victory_a: tuple[Fraction, ...]
    victory_b: tuple[Fraction, ...]
    damage_to_a: tuple[Fraction, ...]
    damage_to_b: tuple[Fraction, ...]
    p_a_wins: Fraction
    p_b_wins: Fraction
    p_tie: Fraction
    tie_to: str
    p_a_takes: Fraction
    p_b_takes: Fraction
    p_a_down: Fraction
    p_a_killed: Fraction
    p_b_down: Fraction
    p_b_killed: Fraction
    timeframe: int
    damage_split: str
    ablative_applies: str

    @property
    def favoured(self) -> str:
        """ "A", "B" or "even": the side more likely to take the fight."""
        if self.p_a_takes == self.p_b_takes:
            return "even"
        return "A" if self.p_a_takes > self.p_b_takes else "B"

    @property
    def expected_damage_to_a(self) -> Fraction:
        return pmf_mean(self.damage_to_a)

    @property
    def expected_damage_to_b(self) -> Fraction:
        return pmf_mean(self.damage_to_b)

    def winner_text(self) -> str:
        a, b = self.p_a_takes, self.p_b_takes
        if a == b:
            return "Even odds: neither side is favoured"
        side = self.side_a if a > b else self.side_b
        p = max(a, b)
        return f"{side.title}, {fmt_prob(p)} — intent: “{side.intent}”"

    def tie_text(self) -> str:
        who = {
            "A": f"to {self.side_a.label} (higher initiative)",
            "B": f"to {self.side_b.label} (higher initiative)",
            "neither": "to neither (equal initiative)",
            "coin": "half to each (equal initiative)",
        }[self.tie_to]
        return f"{fmt_prob(self.p_tie)}, {who}"

    def figures(self) -> tuple[Figure, ...]:
        a, b = self.side_a, self.side_b
        return (
            Figure("pool_a", f"{a.label}'s pool", (a.dice, a.auto), a.pool_text()),
            Figure("pool_b", f"{b.label}'s pool", (b.dice, b.auto), b.pool_text()),
            Figure("p_a_wins", f"{a.label} wins", self.p_a_takes, fmt_prob(self.p_a_takes)),
            Figure("p_b_wins", f"{b.label} wins", self.p_b_takes, fmt_prob(self.p_b_takes)),
            Figure("p_tie", "Tie (same successes)", self.p_tie, self.tie_text()),
            Figure("winner", "Likely winner", self.favoured, self.winner_text()),
            Figure(
                "damage_to_a",
                f"Expected damage to {a.label}",
                self.expected_damage_to_a,
                fmt_num(self.expected_damage_to_a, "health levels"),
            ),
            Figure(
                "damage_to_b",
                f"Expected damage to {b.label}",
                self.expected_damage_to_b,
                fmt_num(self.expected_damage_to_b, "health levels"),
            ),
            *self._fate_figures("a", a, self.p_a_down, self.p_a_killed),
            *self._fate_figures("b", b, self.p_b_down, self.p_b_killed),
            Figure(
                "timeframe",
                "Timeframe",
                self.timeframe,
                f"{self.timeframe} turn{'' if self.timeframe == 1 else 's'}",
            ),
            Figure("quantum_a", f"{a.label}: Quantum spent", a.quantum, a.quantum_text()),
            Figure("quantum_b", f"{b.label}: Quantum spent", b.quantum, b.quantum_text()),
        )

    @staticmethod
    def _fate_figures(key: str, side: Side, down: Fraction, killed: Fraction) -> list[Figure]:
        """``p_*_down`` and ``p_*_killed``, labelled for what they count: with several
        combatants the side is down only when all are, and one death is "a death"."""
        down_label, killed_label = fate_labels(side.label, len(side.pools))
        return [
            Figure(f"p_{key}_down", down_label, down, fmt_prob(down)),
            Figure(f"p_{key}_killed", killed_label, killed, fmt_prob(killed)),
        ]

    def margin(self) -> tuple[int, tuple[float, ...]]:
        """(lowest margin, P(margin)) for the margin A − B of the successes compared."""
        return margin_probabilities(self.victory_a, self.victory_b)

    def _margin_bars(self) -> tuple[int, tuple[float, ...], int, int]:
        """:meth:`margin` and the first and last bar shown (below 10⁻⁶ trimmed, 0 kept)."""
        lo, probs = self.margin()
        keep = [i for i, p in enumerate(probs) if p >= CHART_CUTOFF] or [0]
        return lo, probs, min([*keep, -lo]), max([*keep, -lo])

    def margin_chart(self) -> Chart:
        """Bars ``(margin, P)`` for successes A − B, trimmed where below 10⁻⁶ at both ends
        (the bar 0 always kept), highlighted from the first margin where side A takes the
        fight: 0 when ties go to A (higher base initiative), else +1.

        Resolution › Victory: "The winner is the side which rolls more total successes.
        […] A tie is resolved by base initiative".
        """
        lo, probs, first, last = self._margin_bars()
        bars = tuple(
            (f"{lo + i:+d}".replace("-", "−") if lo + i else "0", probs[i])
            for i in range(first, last + 1)
        )
        zero = -lo - first
        return Chart(bars, zero if self.tie_to == "A" else zero + 1)

    def _damage_chart(self, side: Side, pmf: tuple[Fraction, ...]) -> Chart:
        return Chart(chart_bars(pmf), levels_to_down(side.pools, self.damage_split))

    def damage_chart_a(self) -> Chart:
        """Bars ``(levels, P)`` of the health levels side A loses, highlighted from the
        fewest levels that take every combatant of side A out (before the both-down rule;
        ``None`` when no damage can).

        Resolution › Damage and Death: "The total successes rolled by a "side" equal the
        levels of damage a character takes."
        """
        return self._damage_chart(self.side_a, self.damage_to_a)

    def damage_chart_b(self) -> Chart:
        """Bars ``(levels, P)`` of the health levels side B loses, highlighted like
        :meth:`damage_chart_a`."""
        return self._damage_chart(self.side_b, self.damage_to_b)


# --- the calculator ----------------------------------------------------------------------

# The text's example: "a police officer with Dexterity 3, Firearms 2 + 1 accuracy, weapon
# damage 6L, and soak 4L […] The opposing gangbanger with Dexterity 2, Firearms 2, weapon
# damage 5L, and soak 1L".
_A_DEFAULT = "Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5"
_B_DEFAULT = "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"


@checked(*PARAMS)
def compressed_combat(
    a_combatants: Any = _A_DEFAULT,
    a_intent: Any = "Arrest the gangbanger",
    a_position: int = 0,
    a_cover: int = 0,
    a_support: int = 0,
    a_tangential: int = 0,
    a_forcefield: int = 0,
    a_forcefield_proper: bool = False,
    a_extras: int = 0,
    a_henchmen: int = 0,
    a_henchmen_situation: int = 0,
    a_henchman_pool: int = 4,
    a_henchman_soak: int = 2,
    a_leader_charisma: int = 2,
    a_leader_command: int = 0,
    a_powers: Any = "",
    a_incap: int = 7,
    a_dead: int = 11,
    b_combatants: Any = _B_DEFAULT,
    b_intent: Any = "Get away with the stash",
    b_position: int = 0,
    b_cover: int = 0,
    b_support: int = 0,
    b_tangential: int = 0,
    b_forcefield: int = 0,
    b_forcefield_proper: bool = False,
    b_extras: int = 0,
    b_henchmen: int = 0,
    b_henchmen_situation: int = 0,
    b_henchman_pool: int = 4,
    b_henchman_soak: int = 2,
    b_leader_charisma: int = 2,
    b_leader_command: int = 0,
    b_powers: Any = "",
    b_incap: int = 7,
    b_dead: int = 11,
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

    In named steps: each side's pools (:func:`~ruleslab.compressed.pools.build_side`,
    then the opponent's cover), the success tables, ablative soak, victory and the tie,
    damage and the both-down rule, the timeframe and the Quantum spent. Text fields
    (combatants, intent, powers) arrive as text and are parsed by their declared
    parsers (or as already parsed records). Cross-field checks (a side's incap above its
    dead, a power naming nobody, a 2.1 track without Willpower) raise
    :class:`InputError` naming the field.
    """
    loc = locals()
    ia, ib = _side_input("a", loc), _side_input("b", loc)
    steps = [Step(f"{s.label}: {c.describe()}", COMPRESSED) for s in (ia, ib) for c in s.combatants]
    build = functools.partial(
        build_side,
        strange_mode=strange_mode,
        forcefield_bonus=forcefield_bonus,
        henchmen_count_as=henchmen_count_as,
        ruleset=ruleset,
        steps=steps,
    )
    built_a, built_b = build(ia, ib, field="a_combatants"), build(ib, ia, field="b_combatants")
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
    spends_a, spends_b = spend(ia, "a_powers"), spend(ib, "b_powers")
    steps += spend_steps("Side A", spends_a) + spend_steps("Side B", spends_b)
    return CompressedCombat(
        side_a=built_a.side(ia, pools_a, spends_a, table_a),
        side_b=built_b.side(ib, pools_b, spends_b, table_b),
        victory_a=vic_a,
        victory_b=vic_b,
        damage_to_a=dmg_a,
        damage_to_b=dmg_b,
        p_a_wins=win.p_a_wins,
        p_b_wins=win.p_b_wins,
        p_tie=win.p_tie,
        tie_to=win.tie_to,
        p_a_takes=win.p_a_takes,
        p_b_takes=win.p_b_takes,
        p_a_down=hurt.a_down,
        p_a_killed=hurt.a_killed,
        p_b_down=hurt.b_down,
        p_b_killed=hurt.b_killed,
        timeframe=turns,
        damage_split=damage_split,
        ablative_applies=ablative_applies,
        steps=tuple(steps),
    )


def _side_input(side: str, loc: dict[str, Any]) -> SideInput:
    """Side ``side`` ("a"/"b")'s fields from :func:`compressed_combat`'s arguments."""
    if loc[f"{side}_incap"] > loc[f"{side}_dead"]:
        raise InputError(
            f"{side}_incap",
            f"Side {side.upper()} levels to Incapacitated must not be more than levels to Dead.",
        )
    names = [f.name for f in fields(SideInput) if f.name != "label"]
    return SideInput(label=f"Side {side.upper()}", **{n: loc[f"{side}_{n}"] for n in names})


def combat_roll_log(result: CompressedCombat, seed: int) -> tuple[str, ...]:
    """One seeded outcome of the fight, as lines a GM can read out.

    Rolls every combatant's pool (and any rolled resistance) with ``random.Random(seed)``,
    then applies ablative soak, victory, the tie rule, damage sharing and the both-down
    rule exactly as :func:`compressed_combat` (:func:`ruleslab.compressed.odds.play`).
    """
    return play(
        result.side_a,
        result.side_b,
        random.Random(seed),
        ablative_applies=result.ablative_applies,
        tie_to=result.tie_to,
        damage_split=result.damage_split,
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
    groups=(
        FieldGroup.prefixed("Side A", "a_", PARAMS),
        FieldGroup.prefixed("Side B", "b_", PARAMS),
    ),
    columns=2,
    rules=(
        rule(
            ALT, "Compressed Combat", "Modifiers, Quantum Powers, Strange Interactions, Resolution"
        ),
        rule(ALT, "Mass Combat", "Henchmen"),
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
            title="Success margin, side A − side B (highlighted: side A takes the fight)",
            x_label="Side A's successes minus side B's",
            chart=CompressedCombat.margin_chart,
        ),
        ChartView(
            title="Health levels side A loses (highlighted: side A taken out)",
            x_label="Levels of damage",
            chart=CompressedCombat.damage_chart_a,
        ),
        ChartView(
            title="Health levels side B loses (highlighted: side B taken out)",
            x_label="Levels of damage",
            chart=CompressedCombat.damage_chart_b,
        ),
    ),
    example=(
        "from ruleslab.calculators.compressed import compressed_combat\n"
        "r = compressed_combat(\n"
        '    a_combatants="Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, '
        'soak 4L, initiative 5",\n'
        '    b_combatants="Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4",\n'
        ")\n"
        "print(r.figure('p_a_wins').text, r.figure('damage_to_b').text)"
    ),
)
