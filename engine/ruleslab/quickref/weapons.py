"""Weapons and their tags: the data a weapon carries, and a parser for tag text.

Quick reference › Weapon Tags:

    AA: Anti-aircraft tracking, can be fired at aircraft without any difficulty
    penalties.

    AP(X): Armor Piercing. Reduce target soak by (X).

    Area(X): Area of effect ordinance with rating X.

    Burst(X): Fires (X) rounds per single attack rather than 1, allowing it to
    use autofire multiple-attack rules even with "single shots". Burst weapons
    have a slash in their Rate stat, with their effective rate of fire
    following the unadjusted RoF.

    Devastating (X): The weapon deals (X) additional damage per net attack
    success after the first instead of just +1. A weapon with Devastating
    (5 [2]) would deal +5 damage and an extra 2 damage adds for each extra
    success.

    Guided: Ignores first dodge success, reduces range penalty difficulties by 1.

    Scale [X]: The weapon is considered a Scale of (X) for attack resolution
    purposes.

    Fast-Tracking Weapons [X]: These weapons reduce the Scale of the mounting
    vehicle by [X] when resolving an attack.

Each tag is a small frozen dataclass (a :class:`Tag`, or a :class:`RatedTag`
when it carries a number); :func:`parse_tags` reads a tag string such as
``"AP(2), Burst(3), Guided"`` (brackets or parentheses, any case) and raises
:class:`~ruleslab.params.InputError` naming the field on anything it cannot
read; :func:`check_tags` checks tags given as data the same way. How the
attack uses each tag is :mod:`ruleslab.quickref.attack`'s business; the readings are in
``docs/rules-notes/autofire.md`` (RN-RANGED-*).

Bracketed numbers are damage adds, plain ones damage dice: the text's own
example "Devastating (5 [2]) would deal +5 damage and an extra 2 damage adds"
(rules note RN-RANGED-1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from ruleslab.params import InputError
from ruleslab.quickref.soak import KINDS
from ruleslab.sources import QR, rule

__all__ = [
    "AA",
    "AP",
    "DAMAGE_TYPES",
    "TAGS_EXAMPLE",
    "TAG_NAMES",
    "Area",
    "Burst",
    "Devastating",
    "FastTracking",
    "Guided",
    "RatedTag",
    "Scale",
    "Tag",
    "Weapon",
    "check_tags",
    "format_tags",
    "parse_tags",
    "tag_rule",
]

WEAPON_TAGS = rule(QR, "Weapon Tags")

DAMAGE_TYPES = KINDS
"""Damage types a weapon may deal, least to most severe (the soak rules' kinds)."""

MAX_TAG_VALUE = 100
"""Largest number a tag may carry (AP(100) already ignores any armour)."""

MAX_TAG_TEXT = 200
"""Longest tag text the parser reads."""


@dataclass(frozen=True)
class Tag:
    """A weapon tag: ``heading`` is its heading in the text, ``example`` how one is written.

    A tag without a number (AA, Guided) is written as its heading; the others
    are :class:`RatedTag`.
    """

    heading: ClassVar[str]
    example: ClassVar[str]

    def numbers(self) -> tuple[int, ...]:
        """The numbers the tag is written with (none for AA and Guided)."""
        return ()

    def __str__(self) -> str:
        return self.heading


@dataclass(frozen=True)
class RatedTag(Tag):
    """A tag with a number ``x``, written as ``written`` says (``"AP({x})"``)."""

    x: int
    written: ClassVar[str]

    def numbers(self) -> tuple[int, ...]:
        return (self.x,)

    def __str__(self) -> str:
        return self.written.format(x=self.x)


class AA(Tag):
    """AA: "can be fired at aircraft without any difficulty penalties"."""

    heading = "AA"
    example = "AA"


class AP(RatedTag):
    """AP(X): "Reduce target soak by (X)" (armoured soak only, RN-RANGED-7)."""

    heading = "AP(X)"
    example = "AP(2)"
    written = "AP({x})"


class Area(RatedTag):
    """Area(X): "Area of effect ordinance with rating X": against a squad of henchmen its
    post-soak damage is × 2 to × 4 (Area Vulnerability,
    :mod:`ruleslab.alterations.henchmen.area_vulnerability`); against a character it is reported,
    the texts giving no number (RN-RANGED-8)."""

    heading = "Area(X)"
    example = "Area(3)"
    written = "Area({x})"


class Burst(RatedTag):
    """Burst(X): "Fires (X) rounds per single attack rather than 1"; its Rate "has a slash"
    (A/A×X) and its effective rate of fire is the unadjusted A
    (:func:`ruleslab.quickref.autofire.rate_of_fire`, RN-RANGED-17)."""

    heading = "Burst(X)"
    example = "Burst(3)"
    written = "Burst({x})"


@dataclass(frozen=True)
class Devastating(RatedTag):
    """Devastating (X [Y]): X damage dice and Y damage adds per extra success, instead of +1."""

    adds: int = 0
    heading = "Devastating (X)"
    example = "Devastating (5 [2])"

    def numbers(self) -> tuple[int, ...]:
        return (self.x, self.adds) if self.adds else (self.x,)

    def __str__(self) -> str:
        return f"Devastating ({self.x} [{self.adds}])" if self.adds else f"Devastating ({self.x})"


class Guided(Tag):
    """Guided: "Ignores first dodge success, reduces range penalty difficulties by 1"."""

    heading = "Guided"
    example = "Guided"


class Scale(RatedTag):
    """Scale [X]: "considered a Scale of (X) for attack resolution purposes" (reported: the
    texts define no Scale rules, RN-RANGED-8)."""

    heading = "Scale [X]"
    example = "Scale [2]"
    written = "Scale [{x}]"


class FastTracking(RatedTag):
    """Fast-Tracking [X]: "reduce the Scale of the mounting vehicle by [X]" (reported: no
    Scale rules, no vehicle, RN-RANGED-8)."""

    heading = "Fast-Tracking Weapons [X]"
    example = "Fast-Tracking [1]"
    written = "Fast-Tracking [{x}]"


TAG_TYPES: tuple[type[Tag], ...] = (AA, AP, Area, Burst, Devastating, Guided, Scale, FastTracking)

TAG_NAMES = (
    "AA",
    "AP(X)",
    "Area(X)",
    "Burst(X)",
    "Devastating(X) or Devastating(X [Y])",
    "Guided",
    "Scale[X]",
    "Fast-Tracking[X]",
)
"""How each tag is written, for messages and help texts."""

T = TypeVar("T", bound=Tag)
"""A tag class, for :meth:`Weapon.tag`."""

# name as typed (lower case, no spaces or hyphens) -> tag class
_NAMES: dict[str, type[Tag]] = {
    "aa": AA,
    "ap": AP,
    "armorpiercing": AP,
    "armourpiercing": AP,
    "area": Area,
    "burst": Burst,
    "devastating": Devastating,
    "guided": Guided,
    "scale": Scale,
    "fasttracking": FastTracking,
    "fasttrackingweapons": FastTracking,
    "fasttrackingweapon": FastTracking,
}

_HEAD = re.compile(r"[A-Za-z][A-Za-z \-]*")
_DIGITS = re.compile(r"[0-9]*")


def _digits(text: str) -> str:
    """The run of digits ``text`` starts with ("" if none)."""
    m = _DIGITS.match(text)
    assert m is not None  # a repeated class matches, if only the empty string
    return m.group()


def _read_item(item: str) -> tuple[str, str | None, str | None, str | None] | None:
    """One stripped tag item read as ``(name, x, y, bare)``, or None if it cannot be.

    ``name`` (a letter A–Z, then letters, spaces and hyphens) runs to its last
    letter or hyphen; after it, between spaces, comes nothing, a number
    (``bare``: "Scale 2") or a bracket: ``(x)``, ``[x]``, ``(x [y])``, either
    number may be missing ("Devastating (5 [2])", "AP()"). A few passes over
    the text, none backtracking: the cost is linear in its length (issue 11).
    """
    head = _HEAD.match(item)
    if head is None:
        return None
    name = head.group().rstrip(" ")
    core = item[len(name) :].strip()
    if not core:
        return name, None, None, None
    if _digits(core) == core:
        return name, None, None, core
    if len(core) < 2 or core[0] not in "([" or core[-1] not in ")]":
        return None
    inner = core[1:-1].strip()  # x, then [y], between spaces
    x = _digits(inner)
    rest = inner[len(x) :].lstrip()
    y = None
    if rest:
        y = rest[1:-1].strip()
        if len(rest) < 2 or rest[0] != "[" or rest[-1] != "]" or not y or _digits(y) != y:
            return None
    return name, x or None, y, None


TAGS_EXAMPLE = "AP(2), Burst(3), Guided"
"""Tag text as the messages show it."""


def tag_rule(tag: Tag | type[Tag]) -> str:
    """The rule reference of a tag: ``Quick reference › Weapon Tags › AP(X)``."""
    return rule(QR, "Weapon Tags", tag.heading)


def _shown(item: str) -> str:
    """A user-typed item, shortened for a message (the view escapes it)."""
    item = " ".join(item.split())
    return item if len(item) <= 24 else item[:23] + "…"


def _unreadable(cls: type[Tag], field: str, label: str) -> InputError:
    """A number that is not a whole number from 0 up ("AP(-2)", "AP(2.5)")."""
    return InputError(
        field,
        f"{label}: {cls.heading} needs a whole number from 1 to {MAX_TAG_VALUE}, "
        f"written like {cls.example}.",
    )


def _check_tag(
    cls: type[Tag], numbers: tuple[int, ...], seen: set[type[Tag]], field: str, label: str
) -> None:
    """The checks every tag passes, typed or given as data: its numbers from 1 to
    :data:`MAX_TAG_VALUE`, its kind not given before (``seen`` gains it)."""
    if any(not 1 <= v <= MAX_TAG_VALUE for v in numbers):
        raise InputError(
            field, f"{label}: the number of {cls.heading} must be from 1 to {MAX_TAG_VALUE}."
        )
    if cls in seen:
        raise InputError(field, f"{label}: {cls.heading} is given twice.")
    seen.add(cls)


def parse_tags(text: str, *, field: str = "tags", label: str = "Weapon tags") -> tuple[Tag, ...]:
    """Read a weapon's tag text, e.g. ``"AP(2), Burst(3), Guided"``, into tags.

    Items are separated by commas or semicolons; names are read in any case
    ("ap(2)", "Fast-Tracking [1]", "Scale 2"); a number goes in parentheses or
    brackets; Devastating takes a damage number and optional bracketed adds
    ("Devastating (5 [2])"). Empty text is no tags. Any item that is not one of
    the tags, a missing or superfluous number, a number outside 1..100 or a tag
    given twice raises :class:`InputError` for ``field``, its message starting
    with ``label``.
    """
    if not isinstance(text, str):
        raise InputError(field, f"{label} must be text such as “{TAGS_EXAMPLE}”.")
    if len(text) > MAX_TAG_TEXT:
        raise InputError(field, f"{label} is too long (at most {MAX_TAG_TEXT} characters).")
    known = ", ".join(TAG_NAMES)
    tags: list[Tag] = []
    seen: set[type[Tag]] = set()
    for raw in re.split(r"[,;]", text):
        item = raw.strip()
        if not item:
            continue
        read = _read_item(item)
        cls = None
        if read:
            cls = _NAMES.get(re.sub(r"[\s\-]", "", read[0]).lower())
        if cls is None:
            head = _HEAD.match(item)
            named = head and _NAMES.get(re.sub(r"[\s\-]", "", head.group()).lower())
            if named and issubclass(named, RatedTag):  # a number it cannot read ("AP(-2)")
                raise _unreadable(named, field, label)
            raise InputError(
                field, f"{label}: “{_shown(item)}” is not a weapon tag. Known tags: {known}."
            )
        assert read is not None
        x_text = read[1] or read[3]
        y_text = read[2]
        numbers = tuple(int(t) for t in (x_text, y_text) if t is not None)
        if not issubclass(cls, RatedTag):
            if numbers:
                raise InputError(field, f"{label}: {cls.heading} takes no number.")
            tag = cls()
        elif x_text is None:
            raise InputError(
                field, f"{label}: {cls.heading} needs a number, written like {cls.example}."
            )
        elif y_text is not None and cls is not Devastating:
            raise InputError(
                field, f"{label}: only Devastating takes bracketed adds; write {cls.example}."
            )
        else:
            tag = cls(*numbers)
        _check_tag(cls, numbers, seen, field, label)
        tags.append(tag)
    return tuple(tags)


def check_tags(
    tags: tuple[Tag, ...], *, field: str = "tags", label: str = "Weapon tags"
) -> tuple[Tag, ...]:
    """``tags`` given as data (a Python caller's tuple), checked as :func:`parse_tags`
    checks typed text, with its messages: whole numbers from 1 to 100, no tag twice.
    """
    if not isinstance(tags, tuple) or not all(isinstance(t, TAG_TYPES) for t in tags):
        raise InputError(field, f"{label} must be text such as “{TAGS_EXAMPLE}”.")
    seen: set[type[Tag]] = set()
    for tag in tags:
        numbers = tag.numbers()
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in numbers):
            raise _unreadable(type(tag), field, label)
        _check_tag(type(tag), numbers, seen, field, label)
    return tags


def format_tags(tags: tuple[Tag, ...]) -> str:
    """Tags written back in their standard form: ``"AP(2), Burst(3), Guided"`` ("none" if none)."""
    return ", ".join(str(t) for t in tags) if tags else "none"


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A ranged weapon: its stats and tags.

    ``damage_dice`` and ``damage_adds`` are the weapon's damage ("dice [adds]");
    ``damage_type`` one of :data:`DAMAGE_TYPES`; ``rate`` the Rate stat as
    written (Burst weapons "have a slash in their Rate stat"); ``ammo_per_attack``
    the rounds one attack fires (a ``Burst(X)`` tag makes it X: leave it 1 or
    give X). Raises :class:`InputError` for a type outside the list, a negative
    figure, a tag given twice or an ``ammo_per_attack`` contradicting Burst(X).
    """

    name: str = "Weapon"
    accuracy: int = 0
    damage_dice: int = 0
    damage_adds: int = 0
    damage_type: str = "lethal"
    rate: str = "1"
    ammo_per_attack: int = 1
    tags: tuple[Tag, ...] = ()

    def __post_init__(self) -> None:
        if self.damage_type not in DAMAGE_TYPES:
            raise InputError(
                "damage_type", f"Damage type must be one of {', '.join(DAMAGE_TYPES)}."
            )
        for name in ("damage_dice", "damage_adds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(name, f"{name} must be a whole number of at least 0.")
        if isinstance(self.accuracy, bool) or not isinstance(self.accuracy, int):
            raise InputError("accuracy", "accuracy must be a whole number.")
        if isinstance(self.tags, str):  # a Python caller's tag text, read once
            object.__setattr__(self, "tags", parse_tags(self.tags))
        else:
            check_tags(self.tags)
        burst = self.tag(Burst)
        if (
            isinstance(self.ammo_per_attack, bool)
            or not isinstance(self.ammo_per_attack, int)
            or self.ammo_per_attack < 1
        ):
            raise InputError("ammo_per_attack", "ammo_per_attack must be a whole number ≥ 1.")
        if burst is not None and self.ammo_per_attack not in (1, burst.x):
            raise InputError(
                "ammo_per_attack",
                f"{burst} fires {burst.x} rounds per attack, not {self.ammo_per_attack}.",
            )

    def tag(self, cls: type[T]) -> T | None:
        """The weapon's tag of this class, or None."""
        return next((t for t in self.tags if isinstance(t, cls)), None)

    def has(self, cls: type[Tag]) -> bool:
        return self.tag(cls) is not None

    @property
    def rounds_per_attack(self) -> int:
        """Rounds one attack ("single shot") fires: X for Burst(X), else ``ammo_per_attack``."""
        burst = self.tag(Burst)
        return burst.x if burst is not None else self.ammo_per_attack

    @property
    def armour_piercing(self) -> int:
        ap = self.tag(AP)
        return ap.x if ap is not None else 0

    @property
    def damage_text(self) -> str:
        """Damage as written: ``"5 [2] lethal"`` (dice [adds] type)."""
        adds = f" [{self.damage_adds}]" if self.damage_adds else ""
        return f"{self.damage_dice}{adds} {self.damage_type}"
