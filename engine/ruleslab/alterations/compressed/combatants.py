"""Compressed combat's combatants: one line of text a combatant, parsed into records.

Combat alterations › Compressed Combat:

    Compressed combat uses (attack roll + base attack damage - enemy soak) for
    every character in question. In other words, it's (attribute + ability +
    damage - soak). For example, a police officer with Dexterity 3, Firearms 2
    + 1 accuracy, weapon damage 6L, and soak 4L has a total of 12d and subtracts
    4d from the opponent's pool.

› Strange Interactions: "Some powers may not have actual damage ratings, or may
be resisted differently. In that case, the user's pool is either (2 * attack
roll - enemy resistance pool) or (attack roll + damage roll - enemy resistance
roll)." (a line's ``resist`` and ``formula`` items).

› Resolution › Timeframe: "Each dot of a Mega-Attribute counts as 2 dots of a
normal attribute." (:attr:`Combatant.attribute_value`).

› Resolution › Victory: "The winning side achieve their intent, which should be
a one sentence goal." (:func:`parse_intent`).

A line names what the text gives a combatant (attribute, ability, accuracy,
damage, soak, initiative) and what the modifiers and the health track need
(Tactics, dodge pool, automatic successes, bonus dice, Quantum, a health track);
this module only reads it: the pools are built in :mod:`ruleslab.alterations.compressed.pools`.

A ``track`` item gives the traits of a health track: Strength, Stamina,
Mega-Stamina, Mega-Strength, Quantum and armour levels for both rulesets, and
Willpower and Resistance for 2.1 (Quick reference › 2.1 Rules › Health Levels:
"Characters have (Willpower + [Stamina * 2] + [Mega-Stamina * 6] + Quantum)
health levels. […] Past that, a character has an additional (Stamina)
Incapacitated levels, and Dying health levels equivalent to (Strength +
Stamina) * 2."). :mod:`ruleslab.alterations.compressed.thresholds` builds it under the
calculator's Rules version with :func:`ruleslab.quickref.health.track`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruleslab.alterations.compressed.quantum_costs import PowerUse, parse_powers
from ruleslab.params import InputError

if TYPE_CHECKING:  # the parsers' ``param`` (a form field: its name and label)
    from ruleslab.params import TextParam

__all__ = [
    "ATTRIBUTES",
    "MAX_COMBATANTS",
    "MAX_INTENT",
    "MAX_NAME",
    "Combatant",
    "parse_combatants",
    "parse_intent",
    "parse_power_text",
]

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

_SPLIT = re.compile(r"[,;]| \+ ")
# The scanners below read a run of characters with one of these (a single class
# repeated: no backtracking), so every parser is linear in its text (issue 11).
_DIGIT = re.compile(r"[0-9]")
_DIGITS = re.compile(r"[0-9]*")
_SPACES = re.compile(r"\s*")
_TRACK_NAME = re.compile(r"[a-z ]*")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
_TYPES = ("l", "b", "a")
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
    "will": "willpower",
    "willpower": "willpower",
    "wp": "willpower",
    "res": "resistance",
    "resistance": "resistance",
}
_TRACK_RANGES = {
    "strength": (0, 20),
    "stamina": (1, 20),
    "mega_stamina": (0, 10),
    "mega_strength": (0, 10),
    "quantum": (0, 30),
    "armour_levels": (0, 20),
    "willpower": (1, 10),
    "resistance": (0, 10),
}


@dataclass(frozen=True)
class Combatant:
    """One important combatant, as parsed from a line of the side's list.

    ``attribute`` is the attribute's name ("Dexterity", or "Attribute" when
    written as ``attribute 3``); ``ability`` the ability's name as typed
    ("Firearms"). ``resist`` set means the combatant attacks with a power
    resisted differently (Strange Interactions), with ``formula`` ``"double"``
    (2 × attack − resistance) or ``"sum"`` (attack + damage − resistance).
    ``incap``/``dead`` are levels of damage that incapacitate/kill (``None``:
    the side's defaults); ``track`` the health track's traits they come from, if
    any (built under the calculator's Rules version:
    :func:`~ruleslab.alterations.compressed.thresholds.track_thresholds`).
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
            extra.append("track " + " ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.track))
        else:
            if self.incap is not None:
                extra.append(f"incap {self.incap}")
            if self.dead is not None:
                extra.append(f"dead {self.dead}")
        return text + ", " + ", ".join(extra)


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


def _end(run: re.Pattern[str], text: str, start: int) -> int:
    """Where the run of ``run``'s characters starting at ``start`` ends."""
    m = run.match(text, start)
    assert m is not None  # a repeated class matches, if only the empty string
    return m.end()


def _key_first(low: str) -> tuple[str, str, str] | None:
    """``name [:|=] number [type]`` read from a normalised item: (name, number, type).

    The number is the first run of digits, with the sign just before it; the
    name is what comes before it, less a separator (spaces, one ``:`` or ``=``)
    and holds no ``+``, ``=`` or ``:``; after the number only a type letter
    (``l``, ``b``, ``a``) may follow. None if the item is not of this form.
    """
    first = _DIGIT.search(low)
    if first is None:
        return None
    digits, end = first.start(), _end(_DIGITS, low, first.start())
    kind = low[end:].lstrip()
    if kind and kind not in _TYPES:
        return None
    head = low[:digits]
    start = len(head)  # the separator: [spaces] [: or =] [spaces] [sign], read backwards
    if start and head[start - 1] in "+-":
        start -= 1
    start = len(head[:start].rstrip())
    if start and head[start - 1] in ":=":
        start -= 1
    start = len(head[:start].rstrip())
    if any(c in head[:start] for c in "+=:"):
        return None
    sign = head[-1] if head[-1:] in ("+", "-") else ""
    return head[:start], sign + low[digits:end], kind


def _number_first(low: str) -> tuple[str, str, str] | None:
    """``number [type] name`` read from a normalised item: (name, number, type).

    The name starts with a letter a–z and holds no digit; it follows the number
    (and its type letter ``l``, ``b`` or ``a``, if any) after a space. None if
    the item is not of this form.
    """
    sign = 1 if low[:1] in ("+", "-") else 0
    end = _end(_DIGITS, low, sign)
    if end == sign:
        return None
    gap = _end(_SPACES, low, end)
    if low[gap : gap + 1] in _TYPES:
        after = _end(_SPACES, low, gap + 1)
        if after > gap + 1 and _is_name(low[after:]):
            return low[after:], low[:end], low[gap]
    if gap > end and _is_name(low[gap:]):
        return low[gap:], low[:end], ""
    return None


def _is_name(text: str) -> bool:
    """A name after its number: a letter a–z first, no digit."""
    return text[:1] in _LETTERS and _DIGIT.search(text) is None


def _track_pairs(body: str) -> list[tuple[str, str]] | None:
    """The (name, number) pairs of a track's normalised text ``str 2 sta 3``, or None.

    Each name starts with a letter a–z and holds letters and spaces; each number
    is a run of digits; a space may separate a number from the next name.
    """
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if body[i] not in _LETTERS:
            return None
        name_end = _end(_SPACES, body, _end(_TRACK_NAME, body, i))
        end = _end(_DIGITS, body, name_end)
        if end == name_end:
            return None
        pairs.append((body[i:name_end].strip(), body[name_end:end]))
        i = _end(_SPACES, body, end)
    return pairs or None


def _parse_track(text: str, where: str, field: str) -> tuple[tuple[str, int], ...]:
    body = _norm(text)[len("track") :].strip()
    pairs = _track_pairs(body)
    if pairs is None:
        raise InputError(
            field,
            f"{where}: write the 2.0 track as “track Str 2 Sta 3” (names and numbers; "
            "2.1 adds Willpower: “track Str 2 Sta 3 Will 5 Res 1”).",
        )
    values: dict[str, int] = {}
    for key, number in pairs:
        name = _TRACK_KEYS.get(key)
        if name is None:
            raise InputError(
                field,
                f"{where}: “track” takes Str, Sta, MSta, MStr, Quantum, armour, Will and Res "
                f"(e.g. “track Str 2 Sta 3 Will 5”), not “{key[:20]}”.",
            )
        lo, hi = _TRACK_RANGES[name]
        value = int(number)
        if not lo <= value <= hi:
            raise InputError(field, f"{where}: track {key} must be from {lo} to {hi}.")
        if name in values:
            raise InputError(field, f"{where}: track {key} is given twice.")
        values[name] = value
    if "stamina" not in values:
        raise InputError(field, f"{where}: the track needs Stamina, e.g. “track Str 2 Sta 3”.")
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
        read = _key_first(low) or _number_first(low)
        if read is None:
            raise InputError(
                field,
                f"{where}: “{shown}” is not “name number”; write e.g. “Dex 3”, “Firearms 2”, "
                "“damage 6L”.",
            )
        key = _norm(read[0])
        value = int(read[1])
        kind = read[2].upper()
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
    Str 2 Sta 3`` (a health track; ``Will 5 Res 1`` for 2.1). Items are separated
    by commas, semicolons or `` + ``.
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


def parse_intent(text: str, param: TextParam) -> str:
    """A side's intent, its whitespace collapsed (“(no intent stated)” when empty)."""
    intent = " ".join(text.split())
    return intent or "(no intent stated)"


def parse_power_text(text: str, param: TextParam) -> tuple[PowerUse, ...]:
    """A side's Quantum powers used, one a line
    (:func:`~ruleslab.alterations.compressed.quantum_costs.parse_powers`)."""
    return parse_powers(text, field=param.name, label=param.label)
