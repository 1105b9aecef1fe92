"""Compressed combat: a whole fight in one opposed roll, with exact odds.

Combat alterations › Compressed Combat:

    Compressed combat uses (attack roll + base attack damage - enemy soak) for
    every character in question. In other words, it's (attribute + ability +
    damage - soak). For example, a police officer with Dexterity 3, Firearms 2
    + 1 accuracy, weapon damage 6L, and soak 4L has a total of 12d and subtracts
    4d from the opponent's pool. The opposing gangbanger with Dexterity 2,
    Firearms 2, weapon damage 5L, and soak 1L has a total of 9d and subtracts 1d
    from the opponent's pool. Automatic successes are removed first by "soak" in
    this system. If facing multiple opponents, use the highest opponent's soak.

    In general, the henchmen rules should be used to model combatants. Up to the
    henchmen limit add to the dice pool, but each additional henchman past that
    is an effective extra health level for the character in question.

› Modifiers: "modifiers can never more than double the base (attack + damage)
pool before soak is factored in. • Higher Tactics than opponent: +1d • Dodge
pool higher than opponent attack pool: +1d • Superior Position: +1-5d • Cover:
-1-3d to the opponent's pool (equal to normal +difficulty) • Relevant Supporting
Power: +1-5d".

› Strange Interactions: "the user's pool is either (2 * attack roll - enemy
resistance pool) or (attack roll + damage roll - enemy resistance roll) …
Powers which may be tangentially beneficial … add +1d to your basic combat roll
for each dot in the power. Forcefield and other sources of ablative soak
subtract 1 success from the enemy attack roll per dot (+1 additional success
subtracted for forcefield proper rather than a suite power), same with any
power which increases attack difficulty. Any relevant defensive extras increase
forcefield's success-subtracting properties."

› Resolution: "The timeframe of a compressed combat is equal to the highest
(attribute + ability) dice pool of the combatants in question, in turns. Each
dot of a Mega-Attribute counts as 2 dots of a normal attribute." "The winner is
the side which rolls more total successes. The winning side achieve their
intent, which should be a one sentence goal. … A tie is resolved by base
initiative-the character with the higher initiative wins the fight." "The
total successes rolled by a "side" equal the levels of damage a character
takes. In the event that both characters take enough damage to be
incapacitated or killed, the character with the higher base initiative
survives on their last -4 health level, while the character with lower
initiative is killed. Against multiple important opponents, total damage
successes should be divided as seen fit (generally evenly)."

Everything is exact (:class:`fractions.Fraction`): each side's successes are a
sum of d10 pools (no 10s rerolled, so the table is complete), and the two sides
roll independently. Readings of the text: ``docs/rules-notes/compressed.md``
(RN-COMP-1 … RN-COMP-19).
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslab.dice import SuccessDistribution, compare, pool_distribution, roll_pool
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.health import INCAP, track_20
from ruleslab.henchmen import HenchmenBonus, henchmen_bonus
from ruleslab.mega import effective
from ruleslab.params import BoolParam, ChoiceParam, InputError, IntParam, TextParam, checked
from ruleslab.pmf import CHART_CUTOFF, chart_bars, convolve, fractions, numerators
from ruleslab.pmf import mean as pmf_mean
from ruleslab.quantum_costs import PowerUse, QuantumSpend, parse_powers, quantum_spend, spend_steps
from ruleslab.sources import ALT, rule

__all__ = [
    "PARAMS",
    "Combatant",
    "CombatantPool",
    "CompressedCombat",
    "RecordsParam",
    "Side",
    "combat_roll_log",
    "compressed_combat",
    "parse_combatants",
    "thresholds_20",
]

COMPRESSED = rule(ALT, "Compressed Combat")
MODIFIERS = rule(ALT, "Compressed Combat", "Modifiers")
STRANGE = rule(ALT, "Compressed Combat", "Strange Interactions")
TIMEFRAME = rule(ALT, "Compressed Combat", "Resolution", "Timeframe")
VICTORY = rule(ALT, "Compressed Combat", "Resolution", "Victory")
DAMAGE_DEATH = rule(ALT, "Compressed Combat", "Resolution", "Damage and Death")
HENCHMEN = rule(ALT, "Mass Combat", "Henchmen")
NOTES = "Rules notes"

MAX_COMBATANTS = 8
MAX_NAME = 40
MAX_INTENT = 120
ATTRIBUTES = {
    "str": "Strength",
    "dex": "Dexterity",
    "sta": "Stamina",
    "per": "Perception",
    "int": "Intelligence",
    "wit": "Wits",
    "app": "Appearance",
    "man": "Manipulation",
    "cha": "Charisma",
}
_ABBR = {"wits": "wit"} | {full.lower(): abbr for abbr, full in ATTRIBUTES.items()}

# key → (field of Combatant, lowest, highest, label)
_KEYS: dict[str, tuple[str, int, int, str]] = {}
for _names, _spec in (
    (("attribute", "attr"), ("attribute_dots", 0, 10, "attribute")),
    (("mega",), ("mega", 0, 10, "Mega-Attribute")),
    (("ability",), ("ability_dots", 0, 10, "ability")),
    (("accuracy", "acc"), ("accuracy", 0, 10, "accuracy")),
    (("damage", "dmg", "dam", "weapon damage", "weapon"), ("damage", 0, 50, "damage")),
    (("soak",), ("soak", 0, 50, "soak")),
    (("initiative", "init", "ini"), ("initiative", 0, 50, "initiative")),
    (("tactics",), ("tactics", 0, 10, "Tactics")),
    (("dodge", "dodge pool"), ("dodge", 0, 50, "dodge pool")),
    (
        ("auto", "automatic", "auto successes", "automatic successes"),
        ("auto", 0, 30, "automatic successes"),
    ),
    (("bonus", "bonus dice"), ("bonus", 0, 30, "bonus dice")),
    (("quantum", "q"), ("quantum", 0, 100, "Quantum")),
    (("resist", "resistance", "resistance pool"), ("resist", 0, 50, "resistance pool")),
    (("incap", "incapacitated"), ("incap", 1, 200, "incap")),
    (("dead", "death", "killed"), ("dead", 1, 300, "dead")),
):
    for _n in _names:
        _KEYS[_n] = _spec

_FORMULAS = {
    "2x": "double",
    "2×": "double",
    "x2": "double",
    "double": "double",
    "2 x attack": "double",
    "sum": "sum",
    "add": "sum",
    "attack+damage": "sum",
    "attack + damage": "sum",
}

_ITEM_KEY_FIRST = re.compile(
    r"^(?P<key>[^\d+=:]*?)\s*[:=]?\s*(?P<num>[+-]?\d+)\s*(?P<kind>[lba])?$"
)
_ITEM_NUM_FIRST = re.compile(r"^(?P<num>[+-]?\d+)\s*(?P<kind>[lba])?\s+(?P<key>[a-z][^\d]*)$")
_SPLIT = re.compile(r"[,;]| \+ ")
_TRACK_PAIR = re.compile(r"([a-z][a-z ]*?)\s*(\d+)")
_TRACK_BODY = re.compile(r"^(?:[a-z][a-z ]*?\s*\d+\s*)+$")
_TRACK_KEYS = {
    "str": "strength",
    "strength": "strength",
    "sta": "stamina",
    "stamina": "stamina",
    "msta": "mega_stamina",
    "m sta": "mega_stamina",
    "mega sta": "mega_stamina",
    "mega stamina": "mega_stamina",
    "mstr": "mega_strength",
    "m str": "mega_strength",
    "mega str": "mega_strength",
    "mega strength": "mega_strength",
    "q": "quantum",
    "quantum": "quantum",
    "armour": "armour_levels",
    "armor": "armour_levels",
}
_TRACK_RANGES = {
    "strength": (0, 20),
    "stamina": (1, 20),
    "mega_stamina": (0, 10),
    "mega_strength": (0, 10),
    "quantum": (0, 30),
    "armour_levels": (0, 20),
}


# --- combatants ------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """One important combatant, as parsed from a line of the side's list.

    ``attribute`` is the attribute's name ("Dexterity", or "Attribute" when
    written as ``attribute 3``); ``ability`` the ability's name as typed
    ("Firearms"). ``resist`` set means the combatant attacks with a power
    resisted differently (Strange Interactions), with ``formula`` ``"double"``
    (2 × attack − resistance) or ``"sum"`` (attack + damage − resistance).
    ``incap``/``dead`` are levels of damage that incapacitate/kill (``None``:
    the side's defaults); ``track`` the 2.0 track they came from, if any.
    """

    name: str
    line: int
    attribute: str = "Attribute"
    attribute_dots: int = 0
    mega: int = 0
    ability: str = "Ability"
    ability_dots: int = 0
    accuracy: int = 0
    damage: int = 0
    damage_type: str = ""
    soak: int = 0
    initiative: int = 0
    tactics: int = 0
    dodge: int = 0
    auto: int = 0
    bonus: int = 0
    quantum: int | None = None
    resist: int | None = None
    formula: str = ""
    incap: int | None = None
    dead: int | None = None
    track: tuple[tuple[str, int], ...] = ()

    @property
    def attribute_value(self) -> int:
        """Attribute dots with each Mega dot counting 2."""
        return self.attribute_dots + 2 * self.mega

    @property
    def attack(self) -> int:
        """The attack roll: attribute (Mega counts 2) + ability + accuracy."""
        return self.attribute_value + self.ability_dots + self.accuracy

    @property
    def attribute_ability(self) -> int:
        """Attribute (Mega counts 2) + ability: the timeframe's pool."""
        return self.attribute_value + self.ability_dots

    def describe(self) -> str:
        """The parsed line, e.g. ``Police officer: Dex 3 + Firearms 2 + accuracy 1 …``."""
        attr = self.attribute[:3] if self.attribute != "Attribute" else "attribute"
        parts = [f"{attr} {self.attribute_dots}"]
        if self.mega:
            parts.append(f"Mega-{attr} {self.mega}")
        parts.append(f"{self.ability} {self.ability_dots}")
        if self.accuracy:
            parts.append(f"accuracy {self.accuracy}")
        parts.append(f"damage {self.damage}{self.damage_type}")
        text = f"{self.name}: " + " + ".join(parts)
        extra = [f"soak {self.soak}", f"initiative {self.initiative}"]
        for label, value in (
            ("Tactics", self.tactics),
            ("dodge", self.dodge),
            ("auto", self.auto),
            ("bonus", self.bonus),
        ):
            if value:
                extra.append(f"{label} {value}")
        if self.quantum is not None:
            extra.append(f"Quantum {self.quantum}")
        if self.resist is not None:
            extra.append(f"vs resistance {self.resist} ({self.formula})")
        if self.track:
            extra.append("2.0 track " + " ".join(f"{k} {v}" for k, v in self.track))
        else:
            if self.incap is not None:
                extra.append(f"incap {self.incap}")
            if self.dead is not None:
                extra.append(f"dead {self.dead}")
        return text + ", " + ", ".join(extra)


def thresholds_20(
    *,
    strength: int,
    stamina: int,
    mega_strength: int = 0,
    mega_stamina: int = 0,
    quantum: int = 0,
    armour_levels: int = 0,
) -> tuple[int, int]:
    """(levels of damage to Incapacitated, levels to Dead) on a 2.0 track.

    Incapacitated when the first Incap level is filled; dead when the last
    Dying level is filled (rules note RN-HEALTH-8's default). A Str 2, Sta 2
    character: 6 normal levels, Incap, 4 Dying → (7, 11).
    """
    levels, _ = track_20(
        strength=strength,
        mega_strength=mega_strength,
        stamina=stamina,
        mega_stamina=mega_stamina,
        quantum=quantum,
        armour_levels=armour_levels,
    )
    incap = next(i for i, lv in enumerate(levels) if lv.kind == INCAP) + 1
    return incap, len(levels)


def _norm(key: str) -> str:
    return " ".join(key.lower().replace("-", " ").replace("_", " ").split())


def _mega_key(key: str) -> str | None:
    """``"mega"``, ``"mega dex"``, ``"m dex"``, ``"mdex"`` → the attribute ("" if unnamed)."""
    if key == "mega":
        return ""
    for prefix in ("mega ", "m ", "m"):
        if key.startswith(prefix):
            rest = key[len(prefix) :].strip()
            if rest in ATTRIBUTES:
                return rest
            if rest in _ABBR:
                return _ABBR[rest]
    return None


def _parse_track(text: str, where: str, field: str) -> tuple[tuple[str, int], ...]:
    body = _norm(text)[len("track") :].strip()
    if not _TRACK_BODY.match(body):
        raise InputError(
            field, f"{where}: write the 2.0 track as “track Str 2 Sta 3” (names and numbers)."
        )
    values: dict[str, int] = {}
    for m in _TRACK_PAIR.finditer(body):
        key = m.group(1).strip()
        name = _TRACK_KEYS.get(key)
        if name is None:
            raise InputError(
                field,
                f"{where}: “track” takes Str, Sta, MSta, MStr, Quantum and armour "
                f"(e.g. “track Str 2 Sta 3”), not “{key[:20]}”.",
            )
        lo, hi = _TRACK_RANGES[name]
        value = int(m.group(2))
        if not lo <= value <= hi:
            raise InputError(field, f"{where}: track {key} must be from {lo} to {hi}.")
        if name in values:
            raise InputError(field, f"{where}: track {key} is given twice.")
        values[name] = value
    if "stamina" not in values:
        raise InputError(field, f"{where}: the 2.0 track needs Stamina, e.g. “track Str 2 Sta 3”.")
    values.setdefault("strength", 0)
    return tuple(values.items())


def _parse_line(raw: str, number: int, index: int, field: str, label: str) -> Combatant:
    where = f"{label}, line {number}"
    line = raw.strip()
    name = ""
    if ":" in line:
        head, rest = line.split(":", 1)
        head_key = _norm(head)
        if (
            head_key in _KEYS
            or head_key in ATTRIBUTES
            or head_key in _ABBR
            or _mega_key(head_key) is not None
            or head_key in ("track", "formula")
        ):
            name = ""
        else:
            name = " ".join(head.split())
            line = rest
    if len(name) > MAX_NAME:
        raise InputError(field, f"{where}: the name is longer than {MAX_NAME} characters.")
    name = name or f"Combatant {index}"
    values: dict[str, Any] = {}
    attr_name: str | None = None
    ability_name: str | None = None
    mega_attr: str | None = None

    def put(key: str, value: Any, shown: str) -> None:
        if key in values:
            raise InputError(field, f"{where}: {shown} is given twice.")
        values[key] = value

    items = [item.strip() for item in _SPLIT.split(line)]
    for item in items:
        if not item:
            continue
        shown = item if len(item) <= 30 else item[:27] + "…"
        low = " ".join(item.lower().split())
        if low.startswith("track ") or low == "track":
            put("track", _parse_track(item, where, field), "track")
            continue
        if low.startswith("formula"):
            formula = _FORMULAS.get(low[len("formula") :].strip().lstrip(":=").strip())
            if formula is None:
                raise InputError(
                    field, f"{where}: “{shown}”: the formula is “formula 2x” or “formula sum”."
                )
            put("formula", formula, "formula")
            continue
        m = _ITEM_KEY_FIRST.match(low) or _ITEM_NUM_FIRST.match(low)
        if not m:
            raise InputError(
                field,
                f"{where}: “{shown}” is not “name number”; write e.g. “Dex 3”, “Firearms 2”, "
                "“damage 6L”.",
            )
        key = _norm(m.group("key"))
        value = int(m.group("num"))
        kind = (m.group("kind") or "").upper()
        if not key:
            raise InputError(field, f"{where}: “{shown}” has a number but no name.")
        if kind and key not in ("damage", "dmg", "dam", "weapon damage", "weapon", "soak"):
            raise InputError(
                field, f"{where}: “{shown}”: only damage and soak take a type letter (L, B, A)."
            )
        mega = _mega_key(key)
        if key in ATTRIBUTES or key in _ABBR:
            abbr = key if key in ATTRIBUTES else _ABBR[key]
            if attr_name is not None:
                raise InputError(
                    field,
                    f"{where}: “{shown}”: the attribute is already {attr_name}; "
                    "one attribute per combatant.",
                )
            attr_name = ATTRIBUTES[abbr]
            key = "attribute"
        elif mega is not None:
            if mega_attr is not None:
                raise InputError(field, f"{where}: the Mega-Attribute is given twice.")
            mega_attr = mega
            key = "mega"
        elif key not in _KEYS:
            if ability_name is not None:
                raise InputError(
                    field,
                    f"{where}: “{shown}” is not a known item, and the ability is already "
                    f"{ability_name}; known items: attribute (Dex, Str …), one ability, "
                    "accuracy, damage, soak, initiative, Tactics, dodge, auto, bonus, Quantum, "
                    "resist, formula, incap, dead, track.",
                )
            ability_name = " ".join(w.capitalize() for w in key.split())[:30]
            key = "ability"
        attr, lo, hi, what = _KEYS[key]
        if not lo <= value <= hi:
            raise InputError(field, f"{where}: {what} must be a whole number from {lo} to {hi}.")
        put(attr, value, what)
        if kind and attr == "damage":
            values["damage_type"] = kind
    if not any(k in values for k in ("attribute_dots", "ability_dots", "damage", "mega")):
        raise InputError(
            field,
            f"{where}: no attack given; write e.g. “Police officer: Dex 3, Firearms 2, "
            "accuracy 1, damage 6L, soak 4L, initiative 5”.",
        )
    if attr_name:
        values["attribute"] = attr_name
        if mega_attr and ATTRIBUTES[mega_attr] != attr_name:
            raise InputError(
                field,
                f"{where}: the Mega-Attribute (Mega-{ATTRIBUTES[mega_attr]}) must be the "
                f"attack's attribute ({attr_name}).",
            )
    elif mega_attr:
        values["attribute"] = ATTRIBUTES[mega_attr]
    if ability_name:
        values["ability"] = ability_name
    if "formula" in values and "resist" not in values:
        raise InputError(
            field, f"{where}: “formula” needs the enemy's resistance pool, e.g. “resist 5”."
        )
    if "resist" in values:
        values.setdefault("formula", "double")
    if "track" in values and ("incap" in values or "dead" in values):
        raise InputError(field, f"{where}: give either a track or incap/dead, not both.")
    if "incap" in values and "dead" in values and values["incap"] > values["dead"]:
        raise InputError(field, f"{where}: incap must not be more than dead.")
    return Combatant(name=name, line=number, **values)


def parse_combatants(text: str, param: TextParam) -> tuple[Combatant, ...]:
    """One combatant a line: ``[Name:] item, item, …``; ``#`` comments and blank lines skipped.

    Items are ``name number`` (or ``number name``, ``name: number``, ``name=number``):
    an attribute (``Dex 3``, ``Strength 4``, ``attribute 3``), a Mega-Attribute
    (``Mega-Dex 2``, ``mega 2``), one ability (any other name: ``Firearms 2``),
    ``accuracy``, ``damage`` (``6L`` allowed), ``soak``, ``initiative``,
    ``Tactics``, ``dodge`` (dodge pool), ``auto`` (automatic successes),
    ``bonus`` (modifier dice of this combatant), ``Quantum`` (Quantum pool),
    ``resist`` (enemy resistance pool, Strange Interactions) with ``formula 2x``
    or ``formula sum``, ``incap`` and ``dead`` (levels of damage), or ``track
    Str 2 Sta 3`` (a 2.0 track). Items are separated by commas, semicolons or
    `` + ``.
    """
    combatants: list[Combatant] = []
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(combatants) == MAX_COMBATANTS:
            raise InputError(param.name, f"{param.label}: at most {MAX_COMBATANTS} combatants.")
        combatants.append(_parse_line(raw, number, len(combatants) + 1, param.name, param.label))
    if not combatants:
        raise InputError(
            param.name,
            f"{param.label}: list at least one combatant, e.g. "
            "“Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4”.",
        )
    seen: set[str] = set()
    for c in combatants:
        if c.name.lower() in seen:
            raise InputError(
                param.name, f"{param.label}, line {c.line}: the name “{c.name}” is used twice."
            )
        seen.add(c.name.lower())
    return tuple(combatants)


@dataclass(frozen=True, kw_only=True)
class RecordsParam(TextParam):
    """A list field (combatants, powers): text parsed into a tuple of ``record`` objects.

    Also accepts the already parsed tuple, so Python callers may pass records
    (the form passes text; see ``CalculatorView.parse``).
    """

    record: type = object
    allow_empty: bool = True

    def check(self, value: Any) -> Any:
        if isinstance(value, tuple) and all(isinstance(x, self.record) for x in value):
            if not value and not self.allow_empty:
                return self.parser("", self)  # raises the "list at least one" message
            return value
        return super().check(value)


def _parse_intent(text: str, param: TextParam) -> str:
    intent = " ".join(text.split())
    return intent or "(no intent stated)"


def _parse_power_text(text: str, param: TextParam) -> tuple[PowerUse, ...]:
    return parse_powers(text, field=param.name, label=param.label)


# --- pools -----------------------------------------------------------------------


@dataclass(frozen=True)
class CombatantPool:
    """One combatant's compressed-combat pool.

    ``base`` is the base (attack + damage) pool (or 2 × attack / attack + damage
    against a resistance pool) including henchmen when they count as base;
    ``modifiers`` the modifier dice after the cap; ``against`` the soak or
    resistance subtracted (``against_kind`` "soak", "resistance", "resistance
    roll" or "none"); ``auto_removed`` the automatic successes it removed first;
    ``dice``/``auto`` what is rolled; ``resist_dice`` the dice of a rolled
    resistance (mode "roll") whose successes are subtracted.
    """

    name: str
    base: int
    modifiers: int
    against: int
    against_kind: str
    auto_removed: int
    cover_removed: int
    dice: int
    auto: int
    resist_dice: int
    incap: int
    dead: int
    initiative: int

    def pool_text(self) -> str:
        text = f"{self.dice} {'die' if self.dice == 1 else 'dice'}"
        if self.auto:
            text += f" + {self.auto} auto"
        if self.resist_dice:
            text += f" − a {self.resist_dice}-dice resistance roll"
        return text


@dataclass(frozen=True)
class Side:
    """One side of the fight: its combatants, pools and exact success table."""

    label: str
    combatants: tuple[Combatant, ...]
    pools: tuple[CombatantPool, ...]
    initiative: int
    ablative: int
    intent: str
    henchmen: HenchmenBonus | None
    quantum: tuple[QuantumSpend, ...]
    successes: tuple[Fraction, ...]

    @property
    def dice(self) -> int:
        return sum(p.dice for p in self.pools)

    @property
    def auto(self) -> int:
        return sum(p.auto for p in self.pools)

    @property
    def title(self) -> str:
        names = ", ".join(c.name for c in self.combatants)
        return f"{self.label} ({names})"

    def pool_text(self) -> str:
        texts = [p.pool_text() for p in self.pools]
        if len(texts) == 1:
            return texts[0]
        return " + ".join(f"{p.name} {t}" for p, t in zip(self.pools, texts, strict=True))

    def quantum_text(self) -> str:
        if not self.quantum:
            return "none"
        return "; ".join(s.text() for s in self.quantum)


def _remove(dice: int, auto: int, amount: int) -> tuple[int, int, int]:
    """Remove ``amount`` from a pool, automatic successes first → (dice, auto, auto removed)."""
    taken_auto = min(auto, amount)
    return max(0, dice - (amount - taken_auto)), auto - taken_auto, taken_auto


def _binomial(dice: int, auto: int) -> tuple[Fraction, ...]:
    return pool_distribution(dice, auto).pmf


def _difference_floor(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """pmf of max(0, A − B) for independent A, B."""
    (na, da), (nb, db) = numerators(a), numerators(b)
    out = [0] * len(na)
    for i, x in enumerate(na):
        if x:
            for j, y in enumerate(nb):
                if y:
                    out[max(0, i - j)] += x * y
    return fractions(out, da * db)


def _shift_floor(pmf: tuple[Fraction, ...], by: int) -> tuple[Fraction, ...]:
    """pmf of max(0, X − by)."""
    if by <= 0:
        return pmf
    if by >= len(pmf):
        return (Fraction(1),)
    return (sum(pmf[: by + 1], Fraction(0)), *pmf[by + 1 :])


# --- damage and health -------------------------------------------------------------


def _shares(total: int, pools: tuple[CombatantPool, ...], split: str) -> list[int]:
    """Levels of damage each combatant takes from the side's ``total`` (RN-COMP-14)."""
    n = len(pools)
    if split == "even":
        return [total // n + (1 if i < total % n else 0) for i in range(n)]
    shares = [0] * n
    left = total
    for stage in ("incap", "dead"):
        for i, p in enumerate(pools):
            cap = getattr(p, stage)
            take = min(left, max(0, cap - shares[i]))
            shares[i] += take
            left -= take
    shares[-1] += left
    return shares


def _states(total: int, pools: tuple[CombatantPool, ...], split: str) -> tuple[bool, bool]:
    """(side down: every combatant Incapacitated or worse, someone killed)."""
    shares = _shares(total, pools, split)
    down = all(s >= p.incap for s, p in zip(shares, pools, strict=True))
    killed = any(s >= p.dead for s, p in zip(shares, pools, strict=True))
    return down, killed


# --- the result --------------------------------------------------------------------


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
            Figure(
                "p_a_down",
                f"{a.label} incapacitated or killed",
                self.p_a_down,
                fmt_prob(self.p_a_down),
            ),
            Figure("p_a_killed", f"{a.label}: a death", self.p_a_killed, fmt_prob(self.p_a_killed)),
            Figure(
                "p_b_down",
                f"{b.label} incapacitated or killed",
                self.p_b_down,
                fmt_prob(self.p_b_down),
            ),
            Figure("p_b_killed", f"{b.label}: a death", self.p_b_killed, fmt_prob(self.p_b_killed)),
            Figure(
                "timeframe",
                "Timeframe",
                self.timeframe,
                f"{self.timeframe} turn{'' if self.timeframe == 1 else 's'}",
            ),
            Figure("quantum_a", f"{a.label}: Quantum spent", a.quantum, a.quantum_text()),
            Figure("quantum_b", f"{b.label}: Quantum spent", b.quantum, b.quantum_text()),
        )

    def margin(self) -> tuple[int, tuple[float, ...]]:
        """(lowest margin, P(margin)) for the margin A − B of the successes compared."""
        pa = [float(p) for p in self.victory_a]
        pb = [float(p) for p in self.victory_b]
        lo = -(len(pb) - 1)
        out = [0.0] * (len(pa) + len(pb) - 1)
        for i, x in enumerate(pa):
            if x:
                for j, y in enumerate(pb):
                    out[i - j - lo] += x * y
        return lo, tuple(out)

    def margin_chart(self) -> tuple[tuple[str, float], ...]:
        """Bars ``(margin, P)`` for successes A − B, trimmed where below 10⁻⁶ at both ends."""
        lo, probs = self.margin()
        keep = [i for i, p in enumerate(probs) if p >= CHART_CUTOFF] or [0]
        first, last = min([*keep, -lo]), max([*keep, -lo])
        return tuple(
            (f"{lo + i:+d}".replace("-", "−") if lo + i else "0", probs[i])
            for i in range(first, last + 1)
        )

    def margin_highlight(self) -> int:
        """Index in :meth:`margin_chart` of the first bar where side A takes the fight."""
        lo, probs = self.margin()
        keep = [i for i, p in enumerate(probs) if p >= CHART_CUTOFF] or [0]
        first = min([*keep, -lo])
        zero = -lo - first
        return zero if self.tie_to == "A" else zero + 1

    def damage_chart(self, side: str) -> tuple[tuple[str, float], ...]:
        """Bars ``(levels, P)`` of the health levels ``side`` ("a"/"b") loses."""
        pmf = self.damage_to_a if side == "a" else self.damage_to_b
        return chart_bars(pmf)

    def down_from(self, side: str) -> int | None:
        """The fewest levels of damage that take ``side`` out (before the both-down rule)."""
        s = self.side_a if side == "a" else self.side_b
        top = sum(p.dead for p in s.pools)
        for d in range(top + 1):
            if _states(d, s.pools, self.damage_split)[0]:
                return d
        return None


# --- the calculator ------------------------------------------------------------------


def _side_params(side: str, default_lines: str, default_intent: str) -> list[Any]:
    S = side.upper()
    return [
        RecordsParam(
            f"{side}_combatants",
            f"Side {S} combatants",
            default=default_lines,
            parser=parse_combatants,
            record=Combatant,
            allow_empty=False,
            multiline=True,
            max_length=2000,
            example="Name: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5",
            help=(
                "One important combatant a line: “Name: Dex 3, Firearms 2, accuracy 1, "
                "damage 6L, soak 4L, initiative 5”. Also: Mega-Dex 1, Tactics 3, dodge 6, "
                "auto 1, bonus 2, Quantum 10, resist 5 + formula 2x|sum (a power resisted "
                "differently), incap 7 + dead 11 or track Str 2 Sta 3 (health). "
                "The first line leads the side (modifiers, henchmen)."
            ),
        ),
        TextParam(
            f"{side}_intent",
            f"Side {S} intent",
            default=default_intent,
            parser=_parse_intent,
            max_length=MAX_INTENT,
            example="Drive the gang off",
            help=f"The side's one-sentence goal, achieved if it wins (at most {MAX_INTENT} "
            "characters).",
        ),
        IntParam(
            f"{side}_position",
            f"Side {S} superior position",
            default=0,
            minimum=0,
            maximum=5,
            unit="dice",
            help="Superior Position: +1–5d to this side's pool (0: none).",
        ),
        IntParam(
            f"{side}_cover",
            f"Side {S} cover",
            default=0,
            minimum=0,
            maximum=3,
            unit="dice",
            help="Cover this side has: −1–3d to the opponent's pool (like +difficulty).",
        ),
        IntParam(
            f"{side}_support",
            f"Side {S} supporting power",
            default=0,
            minimum=0,
            maximum=5,
            unit="dice",
            help="Relevant Supporting Power: +1–5d.",
        ),
        IntParam(
            f"{side}_tangential",
            f"Side {S} tangential power dots",
            default=0,
            minimum=0,
            maximum=20,
            help="Powers tangentially beneficial (Telekinesis, Invisibility …): +1d per dot.",
        ),
        IntParam(
            f"{side}_forcefield",
            f"Side {S} forcefield / ablative dots",
            default=0,
            minimum=0,
            maximum=20,
            help="Forcefield, other ablative soak or powers raising attack difficulty: "
            "each dot subtracts 1 success from the opponent's roll.",
        ),
        BoolParam(
            f"{side}_forcefield_proper",
            f"Side {S}: Forcefield proper (not a suite power)",
            default=False,
            help="Forcefield proper subtracts +1 more success (rules note RN-COMP-11).",
        ),
        IntParam(
            f"{side}_extras",
            f"Side {S} defensive extras",
            default=0,
            minimum=0,
            maximum=10,
            help="Relevant defensive extras of the forcefield: +1 success subtracted each "
            "(rules note RN-COMP-11).",
        ),
        IntParam(
            f"{side}_henchmen",
            f"Side {S} henchmen",
            default=0,
            minimum=0,
            maximum=500,
            help="Henchmen with the side's leader (the first line). Up to the limit they add "
            "dice and damage; past it each is an extra health level for the leader.",
        ),
        IntParam(
            f"{side}_henchmen_situation",
            f"Side {S} henchmen limit adjustment",
            default=0,
            minimum=-20,
            maximum=20,
            help="The GM's situational change to the henchmen limit: wide open battlefields "
            "raise it, tight quarters lower it (never below 0).",
        ),
        IntParam(
            f"{side}_henchman_pool",
            f"Side {S} henchman pool",
            default=4,
            minimum=0,
            maximum=20,
            unit="dice",
            help="A henchman's attribute + ability (over 7: +2d each instead of +1d).",
        ),
        IntParam(
            f"{side}_leader_charisma",
            f"Side {S} leader's Charisma",
            default=2,
            minimum=0,
            maximum=10,
            help="Henchmen limit = (Charisma + Command) × 2.",
        ),
        IntParam(
            f"{side}_leader_command",
            f"Side {S} leader's Command",
            default=0,
            minimum=0,
            maximum=10,
            help="Henchmen limit = (Charisma + Command) × 2.",
        ),
        RecordsParam(
            f"{side}_powers",
            f"Side {S} Quantum powers used",
            default="",
            parser=_parse_power_text,
            record=PowerUse,
            multiline=True,
            max_length=2000,
            example="Flight, 1, maintenance",
            help="One power a line: “[Who:] Power, cost, type” with type maintenance, "
            "concentration (× 2), action (× 5) or instant (× 10). Who defaults to the "
            "first combatant with a Quantum pool, else the leader.",
        ),
        IntParam(
            f"{side}_incap",
            f"Side {S} levels to Incapacitated",
            default=7,
            minimum=1,
            maximum=200,
            help="Levels of damage that incapacitate a combatant of this side (7: a 2.0 track "
            "with Str 2, Sta 2). A line's incap/dead/track overrides it.",
        ),
        IntParam(
            f"{side}_dead",
            f"Side {S} levels to Dead",
            default=11,
            minimum=1,
            maximum=300,
            help="Levels of damage that kill (11: a 2.0 track with Str 2, Sta 2: the last "
            "Dying level filled).",
        ),
    ]


OPTIONS = (
    ChoiceParam(
        "strange_mode",
        "Attack + damage − resistance “roll”",
        default="pool",
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
        default="once",
        choices=(("once", "+1 success in all"), ("per_dot", "+1 success per dot")),
        help="See rules note RN-COMP-11.",
    ),
    ChoiceParam(
        "ablative_applies",
        "Ablative soak subtracts successes for",
        default="both",
        choices=(("both", "Victory and damage"), ("damage", "Damage only")),
        help="See rules note RN-COMP-12.",
    ),
    ChoiceParam(
        "initiative_tie",
        "Equal initiative",
        default="neither",
        choices=(
            ("neither", "A tie stands; both-down damage stands as rolled"),
            ("coin", "Each side takes it half the time"),
        ),
        help="When both sides' best base initiative is equal. See rules note RN-COMP-13.",
    ),
    ChoiceParam(
        "damage_split",
        "Damage among several combatants",
        default="even",
        choices=(
            ("even", "Evenly (remainder to the first listed)"),
            ("focus", "One at a time, in list order"),
        ),
        help="See rules note RN-COMP-14.",
    ),
    ChoiceParam(
        "henchmen_count_as",
        "Henchmen dice and damage count as",
        default="base",
        choices=(("base", "Base pool (not capped)"), ("modifier", "Modifiers (capped)")),
        help="See rules note RN-COMP-8.",
    ),
)

_A_DEFAULT = "Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5"
_B_DEFAULT = "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"

PARAMS = (
    *_side_params("a", _A_DEFAULT, "Arrest the gangbanger"),
    *_side_params("b", _B_DEFAULT, "Get away with the stash"),
    *OPTIONS,
)


@dataclass(frozen=True)
class _SideInput:
    label: str
    combatants: tuple[Combatant, ...]
    intent: str
    position: int
    cover: int
    support: int
    tangential: int
    forcefield: int
    forcefield_proper: bool
    extras: int
    henchmen: int
    henchmen_situation: int
    henchman_pool: int
    leader_charisma: int
    leader_command: int
    powers: tuple[PowerUse, ...]
    incap: int
    dead: int


def _henchmen(s: _SideInput) -> HenchmenBonus | None:
    if not s.henchmen:
        return None
    return henchmen_bonus(
        charisma=s.leader_charisma,
        command=s.leader_command,
        henchmen=s.henchmen,
        henchman_pool=s.henchman_pool,
        situation=s.henchmen_situation,
    )


def _thresholds(c: Combatant, s: _SideInput, steps: list[Step]) -> tuple[int, int]:
    if c.track:
        incap, dead = thresholds_20(**dict(c.track))
        steps.append(
            Step(
                f"{s.label}, {c.name}: 2.0 track ("
                + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in c.track)
                + f"): Incapacitated at {incap} levels of damage, dead at {dead} "
                "(the last Dying level filled; rules note RN-COMP-15)",
                rule("Quick reference", "2.0 Rules", "Health Levels"),
            )
        )
        return incap, dead
    incap = c.incap if c.incap is not None else s.incap
    dead = c.dead if c.dead is not None else s.dead
    return incap, dead


def _build_side(
    s: _SideInput,
    other: _SideInput,
    side: str,
    *,
    strange_mode: str,
    forcefield_bonus: str,
    henchmen_count_as: str,
    split: str,
    steps: list[Step],
) -> tuple[list[dict[str, Any]], Any, int, int]:
    """Each combatant's pool before the opponent's cover; also henchmen, ablative, initiative."""
    lead = s.combatants[0]
    hench = _henchmen(s)
    h_dice = h_damage = h_levels = 0
    if hench is not None:
        h_dice, h_damage, h_levels = hench.dice, hench.damage, hench.extra_health_levels
        steps.extend(Step(f"{s.label}: {st.text}", st.rule) for st in hench.steps)
        steps.append(
            Step(
                f"{s.label}: {s.henchmen} henchmen with {lead.name} (limit {hench.limit}): "
                f"+{h_dice}d and +{h_damage} damage from the {hench.counted} counted; "
                f"{h_levels} past the limit are extra health levels for {lead.name}",
                COMPRESSED,
            )
        )
    # modifiers of the side (to the lead)
    mods: list[tuple[str, int, str]] = []
    my_tac = max(c.tactics for c in s.combatants)
    their_tac = max(c.tactics for c in other.combatants)
    if my_tac > their_tac:
        mods.append((f"Tactics {my_tac} > {their_tac}", 1, MODIFIERS))
    my_dodge = max(c.dodge for c in s.combatants)
    their_attack = max(c.attack for c in other.combatants)
    if my_dodge > their_attack:
        mods.append((f"dodge pool {my_dodge} > attack pool {their_attack}", 1, MODIFIERS))
    if s.position:
        mods.append(("superior position", s.position, MODIFIERS))
    if s.support:
        mods.append(("supporting power", s.support, MODIFIERS))
    if s.tangential:
        mods.append((f"tangential powers {s.tangential} dots × 1d", s.tangential, STRANGE))
    if henchmen_count_as == "modifier" and hench is not None and (h_dice or h_damage):
        mods.append(("henchmen (as modifiers)", h_dice + h_damage, HENCHMEN))
    side_mods = sum(v for _, v, _ in mods)
    enemy_soak = max(c.soak for c in other.combatants)
    if len(other.combatants) > 1:
        soaker = max(other.combatants, key=lambda c: c.soak)
        steps.append(
            Step(
                f"{s.label} faces {len(other.combatants)} opponents: the highest soak applies, "
                f"{soaker.name}'s {enemy_soak} (rules note RN-COMP-2)",
                COMPRESSED,
            )
        )
    pools: list[dict[str, Any]] = []
    for i, c in enumerate(s.combatants):
        eff = effective(c.attribute, c.attribute_dots, c.mega, purpose="in the pool")
        if eff.step:
            steps.append(Step(f"{s.label}, {c.name}: {eff.step.text}", eff.step.rule))
        parts = [f"{c.attribute[:3]} {eff.value}", f"{c.ability} {c.ability_dots}"]
        if c.accuracy:
            parts.append(f"accuracy {c.accuracy}")
        attack = c.attack
        if c.resist is None or c.formula == "sum":
            base = attack + c.damage
            parts.append(f"damage {c.damage}")
            what = "(attack + damage)"
        else:
            base = 2 * attack
            what = "2 × attack"
        base_text = " + ".join(parts)
        if c.resist is not None and c.formula == "double":
            base_text = f"2 × ({base_text})"
        if i == 0 and henchmen_count_as == "base" and (h_dice or h_damage):
            base += h_dice + h_damage
            base_text += f" + henchmen {h_dice}d + henchmen damage {h_damage}"
        steps.append(
            Step(f"{s.label}, {c.name}: base {what} pool = {base_text} = {base}", COMPRESSED)
        )
        # modifiers, capped at the base
        wanted = c.bonus + (side_mods if i == 0 else 0)
        named = ([("bonus dice", c.bonus, MODIFIERS)] if c.bonus else []) + (mods if i == 0 else [])
        modifiers = min(wanted, base)
        if named:
            listed = ", ".join(f"{n} +{v}d" for n, v, _ in named)
            text = f"{s.label}, {c.name}: modifiers {listed} = +{wanted}d"
            if wanted > base:
                text += (
                    f"; capped at +{base}d (modifiers never more than double the base pool "
                    "before soak)"
                )
            steps.append(Step(text + " (rules note RN-COMP-4)", MODIFIERS))
        dice, auto = base + modifiers, c.auto
        incap, dead = _thresholds(c, s, steps)
        if i == 0 and h_levels:
            incap, dead = incap + h_levels, dead + h_levels
            steps.append(
                Step(
                    f"{s.label}, {c.name}: +{h_levels} extra health levels from henchmen past "
                    f"the limit → Incapacitated at {incap}, dead at {dead} (rules note RN-COMP-8)",
                    COMPRESSED,
                )
            )
        resist_dice = 0
        if c.resist is None:
            against, kind = enemy_soak, "soak"
        elif c.formula == "double" or strange_mode == "pool":
            against, kind = c.resist, "resistance"
        elif strange_mode == "expected":
            against, kind = (2 * c.resist) // 5, "expected resistance"
        else:
            against, kind, resist_dice = 0, "resistance roll", c.resist
        dice, auto, removed = _remove(dice, auto, against)
        if kind == "soak":
            text = f"{c.name} faces soak {against}"
        elif kind == "expected resistance":
            text = (
                f"{c.name} faces the expected successes of a {c.resist}-dice resistance roll, "
                f"⌊{c.resist} × 2/5⌋ = {against} (rules note RN-COMP-10)"
            )
        elif kind == "resistance":
            text = f"{c.name} faces the enemy resistance pool {against} (no soak)"
        else:
            text = (
                f"{c.name} faces a rolled {c.resist}-dice resistance pool: its successes are "
                "subtracted from the attack's (no soak; rules note RN-COMP-10)"
            )
        if removed:
            text += f": {removed} automatic successes removed first"
        text += f" → {dice} dice" + (f" + {auto} automatic successes" if auto else "")
        steps.append(Step(f"{s.label}: {text}", STRANGE if c.resist is not None else COMPRESSED))
        pools.append(
            dict(
                name=c.name,
                base=base,
                modifiers=modifiers,
                against=against,
                against_kind=kind,
                auto_removed=removed,
                dice=dice,
                auto=auto,
                resist_dice=resist_dice,
                incap=incap,
                dead=dead,
                initiative=c.initiative,
            )
        )
    # ablative soak
    per_dot = s.forcefield
    proper = 0
    if s.forcefield_proper and s.forcefield:
        proper = s.forcefield if forcefield_bonus == "per_dot" else 1
    extras = s.extras if s.forcefield else 0
    if s.extras and not s.forcefield:
        steps.append(
            Step(
                f"{s.label}: defensive extras need a forcefield (0 dots): ignored "
                "(rules note RN-COMP-11)",
                STRANGE,
            )
        )
    ablative = per_dot + proper + extras
    if ablative:
        bits = [f"{per_dot} dots × 1"]
        if proper:
            bits.append(f"forcefield proper +{proper}")
        if extras:
            bits.append(f"defensive extras +{extras}")
        steps.append(
            Step(
                f"{s.label}'s ablative soak: {' + '.join(bits)} = {ablative} successes subtracted "
                "from the opponent's roll (rules note RN-COMP-11)",
                STRANGE,
            )
        )
    initiative = max(c.initiative for c in s.combatants)
    return pools, hench, ablative, initiative


def _apply_cover(pools: list[dict[str, Any]], cover: int) -> int:
    """Remove ``cover`` dice from the pools in list order; returns the dice removed."""
    left = cover
    for p in pools:
        take = min(left, p["dice"])
        p["dice"] -= take
        p["cover_removed"] = take
        left -= take
    return cover - left


def _spend(s: _SideInput, field: str) -> tuple[QuantumSpend, ...]:
    if not s.powers:
        return ()
    by_name = {c.name.lower(): c for c in s.combatants}
    default = next((c for c in s.combatants if c.quantum is not None), s.combatants[0])
    groups: dict[str, list[PowerUse]] = {}
    for use in s.powers:
        if use.who:
            c = by_name.get(use.who.lower())
            if c is None:
                raise InputError(
                    field,
                    f"{s.label} Quantum powers used, line {use.line}: no combatant named "
                    f"“{use.who[:30]}” (the side has "
                    + ", ".join(by_name_c.name for by_name_c in s.combatants)
                    + ").",
                )
        else:
            c = default
        groups.setdefault(c.name, []).append(
            PowerUse(who=c.name, power=use.power, cost=use.cost, kind=use.kind, line=use.line)
        )
    out = []
    for c in s.combatants:
        if c.name in groups:
            out.append(quantum_spend(c.name, tuple(groups[c.name]), c.quantum))
    return tuple(out)


def _side_table(pools: tuple[CombatantPool, ...]) -> tuple[Fraction, ...]:
    plain_dice = sum(p.dice for p in pools if not p.resist_dice)
    plain_auto = sum(p.auto for p in pools if not p.resist_dice)
    table = _binomial(plain_dice, plain_auto)
    for p in pools:
        if p.resist_dice:
            own = _difference_floor(_binomial(p.dice, p.auto), _binomial(p.resist_dice, 0))
            table = convolve(table, own)
    return table


def _health(
    damage: tuple[Fraction, ...], pools: tuple[CombatantPool, ...], split: str
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(down), P(killed), P(down but nobody killed)) before the both-down rule."""
    down = killed = down_alive = Fraction(0)
    for d, p in enumerate(damage):
        if not p:
            continue
        is_down, is_killed = _states(d, pools, split)
        if is_down:
            down += p
            if not is_killed:
                down_alive += p
        if is_killed:
            killed += p
    return down, killed, down_alive


def _both_down(
    higher: str, a: tuple[Fraction, ...], b: tuple[Fraction, ...]
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Apply “higher initiative survives on the last −4, lower is killed” to (down, killed).

    ``a``/``b`` are (P(down), P(killed), P(down and nobody killed)); returns
    (A down, A killed, B down, B killed).
    """
    (ad, ak, aa), (bd, bk, ba) = a, b
    if higher == "A":
        return ad - ad * bd, ak - ak * bd, bd, bk + ad * ba
    if higher == "B":
        return ad, ak + bd * aa, bd - bd * ad, bk - bk * ad
    return ad, ak, bd, bk


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
    b_leader_charisma: int = 2,
    b_leader_command: int = 0,
    b_powers: Any = "",
    b_incap: int = 7,
    b_dead: int = 11,
    strange_mode: str = "pool",
    forcefield_bonus: str = "once",
    ablative_applies: str = "both",
    initiative_tie: str = "neither",
    damage_split: str = "even",
    henchmen_count_as: str = "base",
) -> CompressedCombat:
    """A compressed combat between two sides: pools, P(win), damage, health, timeframe, Quantum.

    Text fields (combatants, intent, powers) arrive as text and are parsed by
    their declared parsers. Cross-field checks (a side's incap above its dead,
    a power naming nobody) raise :class:`InputError` naming the field.
    """
    loc = locals()
    inputs = {}
    for side in ("a", "b"):
        if loc[f"{side}_incap"] > loc[f"{side}_dead"]:
            raise InputError(
                f"{side}_incap",
                f"Side {side.upper()} levels to Incapacitated must not be more than levels "
                "to Dead.",
            )
        inputs[side] = _SideInput(
            label=f"Side {side.upper()}",
            combatants=loc[f"{side}_combatants"],
            intent=loc[f"{side}_intent"],
            position=loc[f"{side}_position"],
            cover=loc[f"{side}_cover"],
            support=loc[f"{side}_support"],
            tangential=loc[f"{side}_tangential"],
            forcefield=loc[f"{side}_forcefield"],
            forcefield_proper=loc[f"{side}_forcefield_proper"],
            extras=loc[f"{side}_extras"],
            henchmen=loc[f"{side}_henchmen"],
            henchmen_situation=loc[f"{side}_henchmen_situation"],
            henchman_pool=loc[f"{side}_henchman_pool"],
            leader_charisma=loc[f"{side}_leader_charisma"],
            leader_command=loc[f"{side}_leader_command"],
            powers=loc[f"{side}_powers"],
            incap=loc[f"{side}_incap"],
            dead=loc[f"{side}_dead"],
        )
    ia, ib = inputs["a"], inputs["b"]
    steps: list[Step] = []
    for s in (ia, ib):
        for c in s.combatants:
            steps.append(Step(f"{s.label}: {c.describe()}", COMPRESSED))
    build_side = functools.partial(
        _build_side,
        strange_mode=strange_mode,
        forcefield_bonus=forcefield_bonus,
        henchmen_count_as=henchmen_count_as,
        split=damage_split,
        steps=steps,
    )
    raw_a, hench_a, abl_a, init_a = build_side(ia, ib, "a")
    raw_b, hench_b, abl_b, init_b = build_side(ib, ia, "b")
    for s, other, raw in ((ia, ib, raw_b), (ib, ia, raw_a)):
        if s.cover:
            removed = _apply_cover(raw, s.cover)
            steps.append(
                Step(
                    f"{s.label}'s cover: −{s.cover}d to {other.label}'s pool "
                    f"({removed} dice removed, in list order; rules note RN-COMP-6)",
                    MODIFIERS,
                )
            )
    for raw in (raw_a, raw_b):
        for p in raw:
            p.setdefault("cover_removed", 0)
    pools_a = tuple(CombatantPool(**p) for p in raw_a)
    pools_b = tuple(CombatantPool(**p) for p in raw_b)
    table_a, table_b = _side_table(pools_a), _side_table(pools_b)
    for label, pools in (("Side A", pools_a), ("Side B", pools_b)):
        if len(pools) > 1:
            steps.append(
                Step(
                    f"{label}'s successes = the sum of its combatants' rolls: "
                    + " + ".join(f"{p.name} {p.pool_text()}" for p in pools),
                    DAMAGE_DEATH,
                )
            )

    # ablative soak: successes removed
    dmg_b = _shift_floor(table_a, abl_b)  # damage B takes = A's successes − B's ablative
    dmg_a = _shift_floor(table_b, abl_a)
    if ablative_applies == "both":
        vic_a, vic_b = dmg_b, dmg_a
    else:
        vic_a, vic_b = table_a, table_b
    if abl_a or abl_b:
        steps.append(
            Step(
                "Ablative soak subtracts successes (floored at 0) "
                + (
                    "before the sides are compared and from the damage"
                    if ablative_applies == "both"
                    else "from the damage only; victory compares the successes rolled"
                )
                + " (rules note RN-COMP-12)",
                STRANGE,
            )
        )
    cmp = compare(
        SuccessDistribution(vic_a, Fraction(0), Fraction(0)),
        SuccessDistribution(vic_b, Fraction(0), Fraction(0)),
    )
    if init_a > init_b:
        tie_to = "A"
    elif init_b > init_a:
        tie_to = "B"
    else:
        tie_to = "coin" if initiative_tie == "coin" else "neither"
    half = Fraction(1, 2)
    p_a_takes = cmp.p_a_wins + (
        cmp.p_tie if tie_to == "A" else cmp.p_tie * half if tie_to == "coin" else 0
    )
    p_b_takes = cmp.p_b_wins + (
        cmp.p_tie if tie_to == "B" else cmp.p_tie * half if tie_to == "coin" else 0
    )
    steps.append(
        Step(
            f"P(Side A rolls more successes) = {fmt_prob(cmp.p_a_wins)}; P(Side B) = "
            f"{fmt_prob(cmp.p_b_wins)}; P(tie) = {fmt_prob(cmp.p_tie)}",
            VICTORY,
        )
    )
    tie_why = {
        "A": f"Side A's base initiative {init_a} > Side B's {init_b}: Side A takes ties",
        "B": f"Side B's base initiative {init_b} > Side A's {init_a}: Side B takes ties",
        "neither": f"equal base initiative {init_a}: a tie is a standoff, neither side "
        "achieves its intent (rules note RN-COMP-13)",
        "coin": f"equal base initiative {init_a}: each side takes a tie half the time "
        "(rules note RN-COMP-13)",
    }[tie_to]
    steps.append(Step(f"A tie is resolved by base initiative: {tie_why}", VICTORY))
    if p_a_takes != p_b_takes:
        win = ia if p_a_takes > p_b_takes else ib
        steps.append(
            Step(
                f"More likely winner: {win.label}, achieving its intent “{win.intent}”",
                VICTORY,
            )
        )

    # damage and death
    steps.append(
        Step(
            f"Damage: each side takes the other side's total successes in health levels"
            f" (after ablative soak): expected {fmt_num(pmf_mean(dmg_a))} to Side A, "
            f"{fmt_num(pmf_mean(dmg_b))} to Side B",
            DAMAGE_DEATH,
        )
    )
    for label, pools in (("Side A", pools_a), ("Side B", pools_b)):
        if len(pools) > 1:
            how = (
                "evenly, the remainder one each to the first listed"
                if damage_split == "even"
                else "one at a time in list order, each to Incapacitated, then each to dead"
            )
            steps.append(
                Step(f"{label}'s damage is shared {how} (rules note RN-COMP-14)", DAMAGE_DEATH)
            )
    ha, hb = _health(dmg_a, pools_a, damage_split), _health(dmg_b, pools_b, damage_split)
    if tie_to in ("A", "B"):
        a_down, a_killed, b_down, b_killed = _both_down(tie_to, ha, hb)
    elif tie_to == "coin":
        x, y = _both_down("A", ha, hb), _both_down("B", ha, hb)
        a_down, a_killed, b_down, b_killed = ((u + v) * half for u, v in zip(x, y, strict=True))
    else:
        a_down, a_killed, b_down, b_killed = _both_down("neither", ha, hb)
    both = ha[0] * hb[0]
    if tie_to in ("A", "B"):
        hi, lo = ("Side A", "Side B") if tie_to == "A" else ("Side B", "Side A")
        rule_text = (
            f"both sides taken out with P = {fmt_prob(both)}: then {hi} (higher base "
            f"initiative) survives on its last −4 level and {lo} is killed"
        )
    elif tie_to == "coin":
        rule_text = (
            f"both sides taken out with P = {fmt_prob(both)}: equal initiative, each side "
            "survives it half the time (rules note RN-COMP-13)"
        )
    else:
        rule_text = (
            f"both sides taken out with P = {fmt_prob(both)}: equal initiative, so the damage "
            "stands as rolled (rules note RN-COMP-13)"
        )
    steps.append(Step(f"Both down: {rule_text} (rules note RN-COMP-16)", DAMAGE_DEATH))
    steps.append(
        Step(
            f"Side A incapacitated or killed {fmt_prob(a_down)}, a death {fmt_prob(a_killed)}; "
            f"Side B incapacitated or killed {fmt_prob(b_down)}, a death {fmt_prob(b_killed)}",
            DAMAGE_DEATH,
        )
    )

    # timeframe
    everyone = [(s.label, c) for s in (ia, ib) for c in s.combatants]
    best_label, best = max(everyone, key=lambda t: t[1].attribute_ability)
    timeframe = best.attribute_ability
    mega = f" (Mega-{best.attribute} {best.mega} counts 2 per dot)" if best.mega else ""
    steps.append(
        Step(
            f"Timeframe = the highest attribute + ability: {best_label}'s {best.name}, "
            f"{best.attribute[:3]} {best.attribute_value} + {best.ability} {best.ability_dots} "
            f"= {timeframe} turns{mega} (rules note RN-COMP-17)",
            TIMEFRAME,
        )
    )

    # quantum
    spends_a, spends_b = _spend(ia, "a_powers"), _spend(ib, "b_powers")
    steps += spend_steps("Side A", spends_a) + spend_steps("Side B", spends_b)

    side_a = Side(
        label="Side A",
        combatants=ia.combatants,
        pools=pools_a,
        initiative=init_a,
        ablative=abl_a,
        intent=ia.intent,
        henchmen=hench_a,
        quantum=spends_a,
        successes=table_a,
    )
    side_b = Side(
        label="Side B",
        combatants=ib.combatants,
        pools=pools_b,
        initiative=init_b,
        ablative=abl_b,
        intent=ib.intent,
        henchmen=hench_b,
        quantum=spends_b,
        successes=table_b,
    )
    return CompressedCombat(
        side_a=side_a,
        side_b=side_b,
        victory_a=vic_a,
        victory_b=vic_b,
        damage_to_a=dmg_a,
        damage_to_b=dmg_b,
        p_a_wins=cmp.p_a_wins,
        p_b_wins=cmp.p_b_wins,
        p_tie=cmp.p_tie,
        tie_to=tie_to,
        p_a_takes=p_a_takes,
        p_b_takes=p_b_takes,
        p_a_down=a_down,
        p_a_killed=a_killed,
        p_b_down=b_down,
        p_b_killed=b_killed,
        timeframe=timeframe,
        damage_split=damage_split,
        ablative_applies=ablative_applies,
        steps=tuple(steps),
    )


# --- one seeded roll ---------------------------------------------------------------------


def _roll_side(side: Side, rng: random.Random, lines: list[str]) -> int:
    total = 0
    for p in side.pools:
        roll = roll_pool(p.dice, auto=p.auto, rng=rng)
        faces = ", ".join(map(str, roll.faces)) or "no dice"
        got = roll.successes
        text = f"{side.label}, {p.name}: {p.dice} d10: {faces} → {got - p.auto}"
        if p.auto:
            text += f" + {p.auto} auto = {got}"
        if p.resist_dice:
            r = roll_pool(p.resist_dice, rng=rng)
            rf = ", ".join(map(str, r.faces))
            got = max(0, got - r.successes)
            text += f"; resistance {p.resist_dice} d10: {rf} → {r.successes}; net {got}"
        lines.append(text + (" success" if got == 1 else " successes"))
        total += got
    return total


def combat_roll_log(result: CompressedCombat, seed: int) -> tuple[str, ...]:
    """One seeded outcome of the fight, as lines a GM can read out.

    Rolls every combatant's pool (and any rolled resistance) with
    ``random.Random(seed)``, then applies ablative soak, victory, the tie rule,
    damage sharing and the both-down rule exactly as :func:`compressed_combat`.
    """
    rng = random.Random(seed)
    a, b = result.side_a, result.side_b
    lines: list[str] = []
    xa = _roll_side(a, rng, lines)
    xb = _roll_side(b, rng, lines)
    da, db = max(0, xb - a.ablative), max(0, xa - b.ablative)
    if len(a.pools) > 1 or len(b.pools) > 1:
        lines.append(f"Totals: Side A {xa}, Side B {xb}")
    if a.ablative or b.ablative:
        lines.append(
            f"Ablative soak: Side A's {a.ablative} leaves Side B {da}; "
            f"Side B's {b.ablative} leaves Side A {db}"
        )
    va, vb = (db, da) if result.ablative_applies == "both" else (xa, xb)
    tie_to = result.tie_to
    if tie_to == "coin":
        tie_to = rng.choice(("A", "B"))
    if va > vb or (va == vb and tie_to == "A"):
        winner: Side | None = a
    elif vb > va or (va == vb and tie_to == "B"):
        winner = b
    else:
        winner = None
    if winner is None:
        lines.append(f"TIE {va}–{vb}, equal initiative: a standoff, neither intent is achieved")
    else:
        how = f"{max(va, vb)} to {min(va, vb)}" if va != vb else f"tie {va}–{vb}, on initiative"
        lines.append(f"{winner.title} WINS ({how}): “{winner.intent}”")
    states = {}
    for side, dmg in ((a, da), (b, db)):
        shares = _shares(dmg, side.pools, result.damage_split)
        states[side.label] = [
            ("dead" if s >= p.dead else "incapacitated" if s >= p.incap else "standing", s)
            for s, p in zip(shares, side.pools, strict=True)
        ]
    down = {k: all(st != "standing" for st, _ in v) for k, v in states.items()}
    if down["Side A"] and down["Side B"] and tie_to in ("A", "B"):
        hi, lo = ("Side A", "Side B") if tie_to == "A" else ("Side B", "Side A")
        hi_side = a if hi == "Side A" else b
        states[hi] = [
            ("survives on the last −4 level", p.incap - 1)
            for (_, _), p in zip(states[hi], hi_side.pools, strict=True)
        ]
        states[lo] = [("killed", s) for _, s in states[lo]]
        lines.append(f"Both sides down: {hi} has the higher initiative and survives; {lo} dies")
    for side, dmg in ((a, da), (b, db)):
        who = "; ".join(
            f"{p.name} {s} levels, {st}"
            for (st, s), p in zip(states[side.label], side.pools, strict=True)
        )
        lines.append(f"{side.label} takes {dmg} levels of damage: {who}")
    return tuple(lines)
