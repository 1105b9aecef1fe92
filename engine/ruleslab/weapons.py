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

Each tag is a small frozen dataclass; :func:`parse_tags` reads a tag string
such as ``"AP(2), Burst(3), Guided"`` (brackets or parentheses, any case) and
raises :class:`~ruleslab.params.InputError` naming the field on anything it
cannot read. How the attack uses each tag is :mod:`ruleslab.attack`'s business;
the readings are in ``docs/rules-notes/ranged.md`` (RN-RANGED-*).

Bracketed numbers are damage adds, plain ones damage dice: the text's own
example "Devastating (5 [2]) would deal +5 damage and an extra 2 damage adds"
(rules note RN-RANGED-1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

from ruleslab.params import InputError, Param
from ruleslab.soak import KINDS
from ruleslab.sources import QR, rule

__all__ = [
    "AA",
    "AP",
    "DAMAGE_TYPES",
    "TAG_NAMES",
    "Area",
    "Burst",
    "Devastating",
    "FastTracking",
    "Guided",
    "Scale",
    "Tag",
    "TagsParam",
    "Weapon",
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
class AA:
    """AA: "can be fired at aircraft without any difficulty penalties"."""

    heading = "AA"
    example = "AA"

    def __str__(self) -> str:
        return "AA"


@dataclass(frozen=True)
class AP:
    """AP(X): "Reduce target soak by (X)" (armoured soak only, RN-RANGED-7)."""

    x: int
    heading = "AP(X)"
    example = "AP(2)"

    def __str__(self) -> str:
        return f"AP({self.x})"


@dataclass(frozen=True)
class Area:
    """Area(X): "Area of effect ordinance with rating X" (reported, not applied)."""

    x: int
    heading = "Area(X)"
    example = "Area(3)"

    def __str__(self) -> str:
        return f"Area({self.x})"


@dataclass(frozen=True)
class Burst:
    """Burst(X): "Fires (X) rounds per single attack rather than 1"."""

    x: int
    heading = "Burst(X)"
    example = "Burst(3)"

    def __str__(self) -> str:
        return f"Burst({self.x})"


@dataclass(frozen=True)
class Devastating:
    """Devastating (X [Y]): X damage dice and Y damage adds per extra success, instead of +1."""

    x: int
    adds: int = 0
    heading = "Devastating (X)"
    example = "Devastating (5 [2])"

    def __str__(self) -> str:
        return f"Devastating ({self.x} [{self.adds}])" if self.adds else f"Devastating ({self.x})"


@dataclass(frozen=True)
class Guided:
    """Guided: "Ignores first dodge success, reduces range penalty difficulties by 1"."""

    heading = "Guided"
    example = "Guided"

    def __str__(self) -> str:
        return "Guided"


@dataclass(frozen=True)
class Scale:
    """Scale [X]: "considered a Scale of (X) for attack resolution purposes" (reported)."""

    x: int
    heading = "Scale [X]"
    example = "Scale [2]"

    def __str__(self) -> str:
        return f"Scale [{self.x}]"


@dataclass(frozen=True)
class FastTracking:
    """Fast-Tracking [X]: "reduce the Scale of the mounting vehicle by [X]" (reported)."""

    x: int
    heading = "Fast-Tracking Weapons [X]"
    example = "Fast-Tracking [1]"

    def __str__(self) -> str:
        return f"Fast-Tracking [{self.x}]"


Tag = AA | AP | Area | Burst | Devastating | Guided | Scale | FastTracking
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

# name as typed (lower case, no spaces or hyphens) -> tag class
T = TypeVar("T", bound=Tag)
"""A tag class, for :meth:`Weapon.tag`."""

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
_WITHOUT_VALUE = (AA, Guided)

_ITEM = re.compile(
    r"""^(?P<name>[A-Za-z][A-Za-z \-]*?)\s*
        (?:
            [(\[]\s*(?P<x>\d+)?\s*(?:\[\s*(?P<y>\d+)\s*\])?\s*[)\]]   # (2) [2] (5 [2])
          | (?P<bare>\d+)                                           # Scale 2
        )?\s*$""",
    re.VERBOSE,
)


def tag_rule(tag: Tag | type[Tag]) -> str:
    """The rule reference of a tag: ``Quick reference › Weapon Tags › AP(X)``."""
    return rule(QR, "Weapon Tags", tag.heading)


def _shown(item: str) -> str:
    """A user-typed item, shortened for a message (the view escapes it)."""
    item = " ".join(item.split())
    return item if len(item) <= 24 else item[:23] + "…"


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
        raise InputError(field, f"{label} must be text such as “AP(2), Burst(3), Guided”.")
    if len(text) > MAX_TAG_TEXT:
        raise InputError(field, f"{label} is too long (at most {MAX_TAG_TEXT} characters).")
    known = ", ".join(TAG_NAMES)
    tags: list[Tag] = []
    seen: set[type[Tag]] = set()
    for raw in re.split(r"[,;]", text):
        item = raw.strip()
        if not item:
            continue
        m = _ITEM.match(item)
        cls = None
        if m:
            cls = _NAMES.get(re.sub(r"[\s\-]", "", m.group("name")).lower())
        if cls is None:
            head = re.match(r"[A-Za-z][A-Za-z \-]*", item)
            named = head and _NAMES.get(re.sub(r"[\s\-]", "", head.group()).lower())
            if (
                named and named not in _WITHOUT_VALUE
            ):  # a number it cannot read ("AP(-2)", "AP(2.5)")
                raise InputError(
                    field,
                    f"{label}: {named.heading} needs a whole number from 1 to "
                    f"{MAX_TAG_VALUE}, written like {named.example}.",
                )
            raise InputError(
                field, f"{label}: “{_shown(item)}” is not a weapon tag. Known tags: {known}."
            )
        assert m is not None
        x_text = m.group("x") or m.group("bare")
        y_text = m.group("y")
        written = cls.example
        if cls in _WITHOUT_VALUE:
            if x_text is not None or y_text is not None:
                raise InputError(field, f"{label}: {cls.heading} takes no number.")
            tag: Tag = cls()
        else:
            if x_text is None:
                raise InputError(
                    field, f"{label}: {cls.heading} needs a number, written like {written}."
                )
            if y_text is not None and cls is not Devastating:
                raise InputError(
                    field,
                    f"{label}: only Devastating takes bracketed adds; write {written}.",
                )
            values = [int(x_text)] + ([int(y_text)] if y_text is not None else [])
            if any(not 1 <= v <= MAX_TAG_VALUE for v in values):
                raise InputError(
                    field,
                    f"{label}: the number of {cls.heading} must be from 1 to {MAX_TAG_VALUE}.",
                )
            tag = cls(*values)
        if cls in seen:
            raise InputError(field, f"{label}: {cls.heading} is given twice.")
        seen.add(cls)
        tags.append(tag)
    return tuple(tags)


def format_tags(tags: tuple[Tag, ...]) -> str:
    """Tags written back in their standard form: ``"AP(2), Burst(3), Guided"`` ("none" if none)."""
    return ", ".join(str(t) for t in tags) if tags else "none"


@dataclass(frozen=True, kw_only=True)
class TagsParam(Param):
    """A weapon-tag text field: parses to a tuple of tags (``check`` also accepts the tuple).

    The form shows it as a text box; a bad item raises :class:`InputError` naming
    the field. The parsed tags, never the typed text, are what results show.
    """

    def describe_range(self) -> str:
        return "e.g. AP(2), Burst(3), Guided"

    def check(self, value: Any) -> tuple[Tag, ...]:
        if isinstance(value, str):
            return parse_tags(value, field=self.name, label=self.label)
        if isinstance(value, tuple) and all(isinstance(t, TAG_TYPES) for t in value):
            # re-check through the text form: the same duplicates and ranges apply
            return parse_tags(
                format_tags(value) if value else "", field=self.name, label=self.label
            )
        raise InputError(self.name, f"{self.label} must be text such as “AP(2), Burst(3), Guided”.")


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
        object.__setattr__(
            self, "tags", TagsParam("tags", "Weapon tags", default="").check(self.tags)
        )
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
