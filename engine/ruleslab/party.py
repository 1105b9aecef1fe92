"""The party: the GM's characters, kept as records, written to and read from a JSON file.

A party holds Aberrant characters (:class:`~ruleslab.character.Character`) and
Chimera fighters (:class:`~ruleslab.chimera.fighter.Fighter`), each under a
name the GM chose. In Python the party's characters are the records
themselves, usable in any calculator::

    from pathlib import Path
    from ruleslab.party import parse_party
    from ruleslab.calculators.lifting import lifting_and_encumbrance

    party = parse_party(Path("party.json").read_text())
    lifting_and_encumbrance(lifter=party["Aiko"], object_kg=450)

The file (what the app page exports and imports, :func:`party_json`) names
itself, like a Dexie export::

    {"format": "ruleslab-party", "format_version": 2, "engine_version": "0.1.0",
     "characters": [{"id": "…", "name": "Aiko", "kind": "character",
                     "record_version": 1, "fields": {"strength": 4, …},
                     "entered": ["strength"]}, …]}

Each character knows which of its fields the GM *entered* (:attr:`Entry.entered`),
told apart from the defaults he never touched: ``entered`` lists them. A file of
format version 1, and a record stored before it, has no ``entered``: it is read as
the fields whose value differs from the record's default (rules note RN-PARTY-1),
so an old file opens with the same figures and the same sheet.

:func:`parse_party` checks everything before anything is used: the size
(:data:`MAX_TEXT`), the nesting (:data:`MAX_DEPTH`, checked before the JSON is
read), the format's name and version (a newer file is refused, not guessed
at), the number of characters (:data:`MAX_CHARACTERS`), each id and name
(:func:`check_name`: no control or invisible characters, at most
:data:`MAX_NAME` characters, no two alike), each kind (:data:`KINDS`) and
record version (an older one is migrated on read by :data:`MIGRATIONS`), and
each field through its record's own declaration (the record's constructor: the
form's messages). A field a file leaves out takes the record's default.
Every refusal is an :class:`~ruleslab.params.InputError` whose message names
the character and the field, fit to show a GM.

One character also travels alone, in a link (:func:`shared_character`,
:func:`parse_shared_character`): the same entry, without its id, only the
fields entered (those that differ from the defaults among them), as base64url
JSON; the fields a link carries are the fields entered.

Over 600 lines, for a reason: the file, the stored record and the link are one format
(one entry's checks, its ``entered`` and its migrations), read and written here
together so that no reader can drift from the writer.

Standard library only, like the whole engine.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import importlib
import json
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ruleslab.params import InputError, Param
from ruleslab.records import fields_of, record_params

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "KINDS",
    "MAX_CHARACTERS",
    "MAX_DEPTH",
    "MAX_LINK",
    "MAX_NAME",
    "MAX_TEXT",
    "MIGRATIONS",
    "SHARE_FORMAT",
    "SHARE_FORMAT_VERSION",
    "Entry",
    "Kind",
    "Party",
    "check_name",
    "differing",
    "entry_json",
    "json_depth",
    "kind_for",
    "kind_of",
    "parse_entry",
    "parse_party",
    "parse_shared_character",
    "party_json",
    "shared_character",
]

FORMAT = "ruleslab-party"
"""The ``format`` of a party file."""
FORMAT_VERSION = 2
"""The version of the party file's layout this engine writes (and the newest it reads):
2 added each character's ``entered`` (version 1 is read as RN-PARTY-1 says)."""
SHARE_FORMAT = "ruleslab-character"
"""The ``format`` of one character in a link."""
SHARE_FORMAT_VERSION = 1
"""The version of a link's layout (unchanged by ``entered``: a link's fields are the
fields entered)."""
MAX_TEXT = 1_000_000
"""The longest party file read, in characters (the page refuses a file over 1 MB)."""
MAX_LINK = 4000
"""The longest character link value read, in characters."""
MAX_DEPTH = 8
"""The deepest nesting of JSON arrays and objects read (a party needs 4)."""
MAX_CHARACTERS = 500
"""The most characters a party holds."""
MAX_NAME = 60
"""The longest character name, in characters."""
_MAX_ID = 40
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides and isolates, zero-width), surrogate, private,
unassigned characters and line or paragraph separators: never in a name."""


@dataclass(frozen=True)
class Kind:
    """A kind of character a party holds: its ``key`` in the file, its record (the class
    ``name`` in ``module``, imported when first needed: the Chimera rules are not loaded
    for a calculator that never meets a fighter) and the record's version."""

    key: str
    label: str
    module: str
    name: str
    version: int = 1

    @property
    def record(self) -> type:
        """The record's class."""
        cls: type = getattr(importlib.import_module(self.module), self.name)
        return cls

    def holds(self, cls: type) -> bool:
        """Whether ``cls`` is this kind's record (without importing it)."""
        return cls.__module__ == self.module and cls.__qualname__ == self.name

    @property
    def a(self) -> str:
        """The label with its article: "an Aberrant character", "a Chimera fighter"."""
        return ("an " if self.label[0] in "AEIOU" else "a ") + self.label

    @property
    def fields(self) -> tuple[str, ...]:
        """The record's declared fields, in order (what a file's ``fields`` may name)."""
        return fields_of(self.record)

    @property
    def params(self) -> tuple[Param, ...]:
        """The record's declarations (label, range, help), in the order of :attr:`fields`."""
        return record_params(self.record)

    def check_whole(self, rec: Any) -> None:
        """Check what spans two fields of one record, before it is saved from a sheet: a
        fighter's wounds at most his Wound Limit (``ValueError`` with the rule's words):
        the record's own ``check_whole``, where it has one."""
        check = getattr(rec, "check_whole", None)
        if check is not None:
            check()

    def make(self, name: str, fields: Mapping[str, Any]) -> Any:
        """The record called ``name`` with ``fields`` (the others: defaults), checked."""
        if self.key == "fighter":  # (his name is his first field, not a declared one)
            return self.record(name, **fields)
        return self.record(**fields)


KINDS: dict[str, Kind] = {
    "character": Kind("character", "Aberrant character", "ruleslab.character", "Character"),
    "fighter": Kind("fighter", "Chimera fighter", "ruleslab.chimera.fighter", "Fighter"),
}
"""The kinds a party holds, by their key in a file."""

MIGRATIONS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``(kind, record version) -> function``: turns an older version's fields into the
next version's. Empty while every record is at version 1; a record whose fields
change gets a new version and an entry here, so older files keep opening."""


def kind_of(rec: Any) -> Kind:
    """The :class:`Kind` of record ``rec`` (a Character or a Fighter)."""
    kind = kind_for(type(rec))
    if kind is None:
        accepted = ", ".join(k.name for k in KINDS.values())
        raise InputError("kind", f"A party holds {accepted} records, not {type(rec).__name__}.")
    return kind


def kind_for(cls: type) -> Kind | None:
    """The :class:`Kind` whose record is class ``cls``, if any."""
    return next((k for k in KINDS.values() if k.holds(cls)), None)


def _is_fighter(rec: Any) -> bool:
    return kind_of(rec).key == "fighter"


def check_name(name: Any, where: str = "A character") -> str:
    """``name`` trimmed, or :class:`InputError`: text of 1 to :data:`MAX_NAME`
    characters, with no control or invisible characters (bidi overrides …)."""
    if not isinstance(name, str):
        raise InputError("name", f"{where}'s name must be text.")
    text = unicodedata.normalize("NFC", name.strip())
    if not text:
        raise InputError("name", f"{where} has no name: give one.")
    if len(text) > MAX_NAME:
        raise InputError("name", f"{where}'s name is too long: at most {MAX_NAME} characters.")
    for ch in text:
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            raise InputError(
                "name",
                f"{where}'s name holds an invisible or control character "
                f"(U+{ord(ch):04X}): type the name again without it.",
            )
    return text


def differing(kind: Kind, name: str, rec: Any) -> frozenset[str]:
    """The declared fields of record ``rec`` (of ``kind``, called ``name``) whose value is
    not the record's default: what an entry always counts as entered (RN-PARTY-1)."""
    defaults = kind.make(name, {})
    return frozenset(f for f in kind.fields if getattr(defaults, f) != getattr(rec, f))


@dataclass(frozen=True)
class Entry:
    """One character of a party: its ``id`` (stable across renames), ``name``, record,
    and the fields of the record the GM ``entered``.

    ``entered`` always holds every field whose value differs from the record's default
    (added when the entry is made: a value no one entered cannot be other than the
    default), and may hold others: a field the GM typed at its default value. The
    remaining fields are defaults he never touched (a sheet shows them as such; a fill
    never lets them overwrite what he typed). An entry made without ``entered`` (an old
    file or stored record, a record made in Python) counts exactly the fields that
    differ from the defaults (rules note RN-PARTY-1).
    """

    id: str
    name: str
    record: Any
    entered: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        kind = self.kind
        unknown = sorted(set(self.entered) - set(kind.fields))
        if unknown:
            raise InputError(
                "entered",
                f"{self.name}: “{str(unknown[0])[:40]}” is not a field of {kind.a}. "
                f"Its fields: {', '.join(kind.fields)}.",
            )
        entered = frozenset(self.entered) | differing(kind, self.name, self.record)
        object.__setattr__(self, "entered", entered)

    @property
    def kind(self) -> Kind:
        return kind_of(self.record)

    @property
    def fields(self) -> dict[str, Any]:
        """The record's declared fields and their values, in order."""
        return {f: getattr(self.record, f) for f in self.kind.fields}

    @property
    def entered_fields(self) -> tuple[str, ...]:
        """The fields entered, in the record's order."""
        return tuple(f for f in self.kind.fields if f in self.entered)

    def to_json(self) -> dict[str, Any]:
        """The entry as a party file writes it."""
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind.key,
            "record_version": self.kind.version,
            "fields": self.fields,
            "entered": list(self.entered_fields),
        }


def new_id() -> str:
    """A fresh character id."""
    return uuid.uuid4().hex[:12]


@dataclass(frozen=True)
class Party:
    """The GM's characters, in order; names and ids unique.

    ``party["Aiko"]`` is Aiko's record; :attr:`characters` all the records;
    :attr:`entries` each with its id and name. Changing a party gives a new one
    (:meth:`add`, :meth:`rename`, :meth:`remove`, :meth:`update`, :meth:`merged`).
    """

    entries: tuple[Entry, ...] = ()

    def __post_init__(self) -> None:
        if len(self.entries) > MAX_CHARACTERS:
            raise InputError(
                "characters",
                f"A party holds at most {MAX_CHARACTERS} characters, not {len(self.entries):,}.",
            )
        ids: set[str] = set()
        names: set[str] = set()
        for e in self.entries:
            if e.id in ids:
                raise InputError("id", f"Two characters have the id “{e.id}”.")
            if e.name.casefold() in names:
                raise InputError("name", f"Two characters are called “{e.name}”.")
            ids.add(e.id)
            names.add(e.name.casefold())
            kind_of(e.record)

    @classmethod
    def of(cls, records: Mapping[str, Any]) -> Party:
        """A party from ``{name: record}`` (new ids)."""
        party = cls()
        for name, rec in records.items():
            party = party.add(name, rec)
        return party

    check_name = staticmethod(check_name)
    """:func:`check_name` (the widgets reach the party's API through :class:`Party`)."""

    @staticmethod
    def kind_for(cls: type) -> Kind | None:
        """The :class:`Kind` whose record is class ``cls``, if any (:func:`kind_for`)."""
        return kind_for(cls)

    def link(self, id: str) -> str:
        """Character ``id`` as a link's value (:func:`shared_character`)."""
        return shared_character(self.entry(id=id))

    @classmethod
    def from_link(cls, value: Any) -> Party:
        """The party of the one character a link carries (:func:`parse_shared_character`)."""
        return cls((parse_shared_character(value),))

    @property
    def characters(self) -> tuple[Any, ...]:
        """Every character's record, in order."""
        return tuple(e.record for e in self.entries)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __getitem__(self, name: str) -> Any:
        """The record of the character called ``name``."""
        return self.entry(name=name).record

    def entry(self, *, id: str | None = None, name: str | None = None) -> Entry:
        """The entry with this ``id`` or ``name`` (a name matched ignoring case)."""
        for e in self.entries:
            if (id is not None and e.id == id) or (
                name is not None and e.name.casefold() == name.casefold()
            ):
                return e
        raise KeyError(id if id is not None else name)

    def free_name(self, name: str) -> str:
        """``name``, or ``name (2)``, ``(3)`` … if the party has one called so already."""
        taken = {e.name.casefold() for e in self.entries}
        if name.casefold() not in taken:
            return name
        n = 2
        while True:
            suffix = f" ({n})"
            candidate = name[: MAX_NAME - len(suffix)] + suffix
            if candidate.casefold() not in taken:
                return candidate
            n += 1

    def add(
        self, name: str, rec: Any, *, id: str | None = None, entered: Iterable[str] = ()
    ) -> Party:
        """This party and one more character (``name`` checked; a Fighter takes it as his);
        ``entered``: the fields the GM entered (those that differ from the defaults are
        counted anyway, :class:`Entry`)."""
        name = check_name(name)
        if _is_fighter(rec) and rec.name != name:
            rec = dataclasses.replace(rec, name=name)
        return Party((*self.entries, Entry(id or new_id(), name, rec, frozenset(entered))))

    def rename(self, id: str, name: str) -> Party:
        """The character ``id`` called ``name``."""
        name = check_name(name)
        return Party(
            tuple(
                Entry(
                    e.id,
                    name,
                    dataclasses.replace(e.record, name=name) if _is_fighter(e.record) else e.record,
                    e.entered,
                )
                if e.id == id
                else e
                for e in self.entries
            )
        )

    def update(
        self,
        id: str,
        rec: Any,
        *,
        entered: Iterable[str] | None = None,
        typed: Iterable[str] = (),
    ) -> Party:
        """The character ``id`` with record ``rec`` (same kind; his name kept). The fields
        entered: ``entered`` (and those that differ from the defaults); if not given, the
        ones entered before, every field whose value changed and the fields ``typed``."""
        old = self.entry(id=id)
        if type(rec) is not type(old.record):
            raise InputError("kind", f"{old.name} is {old.kind.a}.")
        if _is_fighter(rec):
            rec = dataclasses.replace(rec, name=old.name)
        if entered is None:
            changed = {f for f in old.kind.fields if getattr(rec, f) != getattr(old.record, f)}
            entered = old.entered | changed | set(typed)
        new = Entry(old.id, old.name, rec, frozenset(entered))
        return Party(tuple(new if e.id == id else e for e in self.entries))

    def remove(self, id: str) -> Party:
        """This party without the character ``id``."""
        return Party(tuple(e for e in self.entries if e.id != id))

    def merged(self, other: Party) -> Party:
        """This party and ``other``'s characters added (new ids; a name taken: " (2)")."""
        party = self
        for e in other.entries:
            party = party.add(party.free_name(e.name), e.record, entered=e.entered)
        return party


# -- reading -----------------------------------------------------------------------


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a party file holds")


def _load(text: Any, what: str, limit: int, thing: str = "party file") -> Any:
    if not isinstance(text, str):
        raise InputError("file", f"{what} must be text.")
    if len(text) > limit:
        raise InputError(
            "file", f"{what} is too large: {len(text):,} characters, at most {limit:,}."
        )
    if json_depth(text) > MAX_DEPTH:
        raise InputError("file", f"{what} is nested too deeply to be a ruleslab {thing}.")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_int_of)
    except _TooLongError as exc:
        raise InputError(
            "file",
            f"{what} holds a number of {exc.args[0]:,} digits: no field of a ruleslab "
            f"{thing} takes one that long.",
        ) from None
    except (ValueError, RecursionError) as exc:
        raise InputError("file", f"{what} is not a ruleslab {thing} (not JSON: {exc}).") from exc


class _TooLongError(ValueError):
    """A JSON number too long to read; ``args[0]``: how many digits it had."""


_MAX_DIGITS = 100
"""The longest whole number a file's JSON may hold (a field's value has a few digits);
longer ones are refused by their length, never handed to ``int`` (whose own limit says
"set_int_max_str_digits", which no GM should read)."""


def _int_of(text: str) -> int:
    if (digits := len(text.lstrip("-"))) > _MAX_DIGITS:
        raise _TooLongError(digits)
    return int(text)


def _check_format(data: Any, fmt: str, what: str, newest: int = FORMAT_VERSION) -> None:
    if not isinstance(data, dict) or data.get("format") != fmt:
        thing = "party file" if fmt == FORMAT else "character"
        raise InputError("format", f"{what} is not a ruleslab {thing} (no “format”: “{fmt}”).")
    version = data.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError("format_version", f"{what} has no valid “format_version”.")
    if version > newest:
        raise InputError(
            "format_version",
            f"{what} was written by a newer ruleslab (format version {version}; this one reads "
            f"up to {newest}). Open it with the newer site.",
        )


def _entry(item: Any, n: int, *, with_id: bool) -> Entry:
    """Entry number ``n`` (from 1) of a file, every part checked."""
    where = f"Character {n}"
    if not isinstance(item, dict):
        raise InputError("characters", f"{where} is not a character (an object with its fields).")
    expected = {"name", "kind", "record_version", "fields"} | ({"id"} if with_id else set())
    unknown = sorted(set(item) - expected - {"entered"})
    if unknown:
        raise InputError(
            "characters",
            f"{where} has unknown parts {', '.join(map(repr, unknown))}: "
            f"a character has {', '.join(sorted(expected))}.",
        )
    name = check_name(item.get("name"), where)
    where = f"Character {n} (“{name}”)"
    if with_id:
        ident = item.get("id")
        if not (isinstance(ident, str) and 0 < len(ident) <= _MAX_ID and set(ident) <= _ID_CHARS):
            raise InputError(
                "id", f"{where} has no valid id (letters, digits, - and _, 1–{_MAX_ID})."
            )
    else:
        ident = new_id()
    key = item.get("kind")
    kind = KINDS.get(key) if isinstance(key, str) else None
    if kind is None:
        raise InputError(
            "kind",
            f"{where} is of kind {json.dumps(key)[:40]}: a party holds "
            + ", ".join(f"“{k}” ({v.label})" for k, v in KINDS.items())
            + ".",
        )
    version = item.get("record_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError("record_version", f"{where} has no valid “record_version”.")
    if version > kind.version:
        raise InputError(
            "record_version",
            f"{where} was saved by a newer ruleslab ({kind.label} version {version}; this one "
            f"reads up to {kind.version}). Open it with the newer site.",
        )
    fields = item.get("fields")
    if not isinstance(fields, dict):
        raise InputError("fields", f"{where} has no “fields” (an object of field: value).")
    while version < kind.version:
        fields = MIGRATIONS[(kind.key, version)](dict(fields))
        version += 1
    known = kind.fields
    unknown = sorted(set(fields) - set(known))
    if unknown:
        raise InputError(
            unknown[0],
            f"{where}: “{str(unknown[0])[:40]}” is not a field of {kind.a}. "
            f"Its fields: {', '.join(known)}.",
        )
    try:
        rec = kind.make(name, fields)
    except InputError as exc:
        param = next(p for p in record_params(kind.record) if p.name == exc.field)
        accepted = getattr(param, "choices", None)
        values = (
            f" (its values: {', '.join(v for v, _ in accepted)})" if accepted is not None else ""
        )
        raise InputError(exc.field, f"{where}, field “{exc.field}”: {exc.message}{values}") from exc
    entered = item.get("entered", ())  # (none: RN-PARTY-1's reading, by Entry)
    if not isinstance(entered, list | tuple) or not all(isinstance(f, str) for f in entered):
        raise InputError("entered", f"{where} has no valid “entered” (a list of its fields).")
    strange = sorted(set(entered) - set(known))
    if strange:
        raise InputError(
            "entered",
            f"{where}: “entered” names “{strange[0][:40]}”, not a field of {kind.a}.",
        )
    if not with_id:  # a link: the fields it carries are the fields entered
        entered = [*entered, *fields]
    return Entry(ident, name, rec, frozenset(entered))


def parse_party(text: Any) -> Party:
    """The party in a party file's ``text``, every part checked (see the module's
    docstring), or :class:`InputError` with a message a GM can read."""
    data = _load(text, "This file", MAX_TEXT)
    _check_format(data, FORMAT, "This file")
    unknown = sorted(
        set(data) - {"format", "format_version", "engine_version", "characters", "saved"}
    )
    if unknown:
        raise InputError("file", f"This file has unknown parts: {', '.join(map(repr, unknown))}.")
    items = data.get("characters")
    if not isinstance(items, list):
        raise InputError("characters", "This file has no “characters” list.")
    if len(items) > MAX_CHARACTERS:
        raise InputError(
            "characters",
            f"This file has {len(items):,} characters: a party holds at most {MAX_CHARACTERS}.",
        )
    return Party(tuple(_entry(item, n, with_id=True) for n, item in enumerate(items, 1)))


def _engine_version() -> str:
    from ruleslab import __version__

    return __version__


def party_json(party: Party) -> str:
    """``party`` as a party file (JSON, indented): what :func:`parse_party` reads back."""
    data = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine_version": _engine_version(),
        "characters": [e.to_json() for e in party.entries],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def entry_json(entry: Entry) -> str:
    """One character as the browser stores it, a record of its own (compact JSON of
    :meth:`Entry.to_json`): what :func:`parse_entry` reads back."""
    return json.dumps(entry.to_json(), separators=(",", ":"), ensure_ascii=False)


def parse_entry(text: Any, where: str = "A stored character") -> Entry:
    """The character one stored record holds (:func:`entry_json`), every part checked as a
    party file's character (its id kept), or :class:`InputError`."""
    return _entry(_load(text, where, MAX_LINK * 4, "character"), 1, with_id=True)


def shared_character(entry: Entry) -> str:
    """Character ``entry`` as a link's value: base64url JSON of its name, kind,
    record version and the fields entered (every field that differs from the record's
    defaults among them: :class:`Entry`)."""
    data = {
        "format": SHARE_FORMAT,
        "format_version": SHARE_FORMAT_VERSION,
        "name": entry.name,
        "kind": entry.kind.key,
        "record_version": entry.kind.version,
        "fields": {k: v for k, v in entry.fields.items() if k in entry.entered},
    }
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def parse_shared_character(value: Any) -> Entry:
    """The character a link carries (:func:`shared_character`), every part checked as a
    party file's (a new id), or :class:`InputError`."""
    what = "This link's character"
    if not isinstance(value, str):
        raise InputError("character", f"{what} must be text.")
    if len(value) > MAX_LINK:
        raise InputError("character", f"{what} is too long: at most {MAX_LINK:,} characters.")
    try:
        value = value.rstrip("=")
        if not set(value) <= _ID_CHARS:
            raise ValueError("not base64url")
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError) as exc:
        raise InputError("character", f"{what} is damaged (not base64url text).") from exc
    data = _load(text, what, MAX_LINK, "character")
    _check_format(data, SHARE_FORMAT, what, SHARE_FORMAT_VERSION)
    item = {k: v for k, v in data.items() if k not in ("format", "format_version")}
    return _entry(item, 1, with_id=False)
