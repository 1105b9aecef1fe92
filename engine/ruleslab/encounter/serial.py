"""An encounter as a JSON-safe dict, and back: what a saved or shared fight holds.

:func:`to_dict` writes either kind of encounter (``"game"``: ``"aberrant"`` or
``"chimera"``) with the format's name and version; :func:`from_dict` reads one back and
checks every field: an unknown or missing field, a value of the wrong type or outside
its range, a combatant record the rules refuse, an initiative order naming someone who
is not there — each is refused with :class:`~ruleslab.encounter.log.EncounterError`
naming where it is (``combatants[2].damage.lethal``), never read as something else.
A record's fields are checked by the record itself (:class:`~ruleslab.character.Character`,
:class:`~ruleslab.chimera.fighter.Fighter`), with the message it gives.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from ruleslab.character import DAZE_STATES, Character
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.encounter.chimera import ChimeraCombatant, ChimeraEncounter
from ruleslab.encounter.combatant import KINDS, Combatant, Damage
from ruleslab.encounter.log import EncounterError, whole
from ruleslab.encounter.state import DAZE_LASTS, Encounter
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.party import json_depth
from ruleslab.quickref.attack import EXTRA_SUCCESS_READINGS
from ruleslab.quickref.autofire import BURST_DAMAGE_READINGS
from ruleslab.records import fields_of
from ruleslab.ruleset import RULESETS

__all__ = ["FORMAT", "MAX_DEPTH", "VERSION", "from_dict", "read_json", "read_log", "to_dict"]

FORMAT = "ruleslab-encounter"
VERSION = 1
MAX_COMBATANTS = 200
MAX_LOG = 20_000
MAX_TEXT = 2000

MAX_DEPTH = 16
"""The deepest nesting of JSON arrays and objects read (an encounter needs 4, a stored
record with its undo steps 6): deeper text is refused before ``json.loads``, whose
recursion on ``"[" * 100_000`` overflows Pyodide's stack (a fatal error there, not a
``RecursionError``)."""

AnyEncounter = Encounter | ChimeraEncounter


def read_json(text: str, field: str, what: str, refusal: str = "is not a saved encounter") -> Any:
    """JSON ``text`` (a saved encounter, a stored record, a link's unpacked value) read,
    or :class:`EncounterError` on ``field``: "``what`` ``refusal`` (not JSON: …)"."""
    if json_depth(text) > MAX_DEPTH:
        raise EncounterError(field, f"{what} is nested too deeply to be a saved encounter.")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise EncounterError(field, f"{what} {refusal} (not JSON: {e}).") from None


def _record(rec: object) -> dict[str, Any]:
    return {f: getattr(rec, f) for f in fields_of(type(rec))}


def _plain(obj: Any) -> Any:
    if isinstance(obj, Fighter):  # (his name is his first field, not a declared one)
        return {"name": obj.name, **_record(obj)}
    if isinstance(obj, Character):
        return _record(obj)
    if isinstance(obj, FightRules | Damage):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if isinstance(obj, tuple):
        return [_plain(x) for x in obj]
    return obj


def _combatant(c: Combatant | ChimeraCombatant) -> dict[str, Any]:
    return {f.name: _plain(getattr(c, f.name)) for f in dataclasses.fields(c)}


def to_dict(enc: AnyEncounter, *, log: bool = True) -> dict[str, Any]:
    """The encounter as plain dicts, lists, text, numbers and booleans (``log``: False,
    without its log, which a stored step keeps as a length: :mod:`.stored`)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": "aberrant" if isinstance(enc, Encounter) else "chimera",
    }
    for f in dataclasses.fields(enc):
        value = getattr(enc, f.name)
        if f.name == "combatants":
            out[f.name] = [_combatant(c) for c in value]
        elif f.name == "log":
            if log:
                out[f.name] = [[s.text, s.rule] for s in value]
        else:
            out[f.name] = _plain(value)
    return out


# --- reading ---------------------------------------------------------------------------

Check = Callable[[Any, str], Any]


def _fail(where: str, message: str) -> EncounterError:
    return EncounterError(where, f"{where}: {message}")


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _fail(where, f"must be text of at most {MAX_TEXT} characters.")
    return value


def _int(lo: int, hi: int) -> Check:
    def check(value: Any, where: str) -> int:
        if not whole(value, lo, hi):
            raise _fail(where, f"must be a whole number from {lo} to {hi}.")
        return int(value)

    return check


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "must be true or false.")
    return value


def _float(value: Any, where: str) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not 0 <= value <= 1e12:
        raise _fail(where, "must be a number from 0 to 1e12.")
    return float(value)


def _maybe(check: Check) -> Check:
    def inner(value: Any, where: str) -> Any:
        return None if value is None else check(value, where)

    return inner


def _choice(choices: tuple[str, ...]) -> Check:
    def check(value: Any, where: str) -> str:
        if value not in choices:
            raise _fail(where, f"must be one of {', '.join(choices)}, not {value!r}.")
        return str(value)

    return check


def _keys(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_COMBATANTS:
        raise _fail(where, f"must be a list of at most {MAX_COMBATANTS} keys.")
    return tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))


def _object(
    value: Any, where: str, spec: Mapping[str, Check], later: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``value`` as a dict holding exactly ``spec``'s fields, each checked; a field of
    ``later`` (one added since the first records were written) may be missing: its
    default then."""
    if not isinstance(value, dict):
        raise _fail(where, "must be an object of named fields.")
    unknown = sorted(set(value) - set(spec), key=str)
    if unknown:
        raise _fail(where, f"holds a field this version does not know: {unknown[0]!r}.")
    added = later or {}
    missing = [k for k in spec if k not in value and k not in added]
    if missing:
        raise _fail(where, f"misses the field {missing[0]!r}.")
    return {
        k: check(value[k], f"{where}.{k}") if k in value else added[k] for k, check in spec.items()
    }


def _make(cls: Callable[..., Any], where: str, **fields: Any) -> Any:
    try:
        return cls(**fields)
    except InputError as e:
        raise _fail(where if not e.field else f"{where}.{e.field}", e.message) from None
    except (TypeError, ValueError) as e:
        raise _fail(where, str(e)) from None


def _record_of(cls: type, value: Any, where: str, *first: Any) -> Any:
    if not isinstance(value, dict):
        raise _fail(where, "must be an object of named fields.")
    names = fields_of(cls)
    unknown = sorted(set(value) - set(names) - ({"name"} if first else set()), key=str)
    if unknown:
        raise _fail(where, f"holds a field {cls.__name__} does not have: {unknown[0]!r}.")
    given = {k: v for k, v in value.items() if k in names}
    return _make(cls, where, **dict(zip(("name",), first, strict=False)), **given)


def _damage(value: Any, where: str) -> Damage:
    fields = _object(value, where, {k: _int(0, 200) for k in KINDS})
    return Damage(**fields)


def _character(value: Any, where: str) -> Character:
    return _record_of(Character, value, where)  # type: ignore[no-any-return]


def _fighter(value: Any, where: str) -> Fighter:
    if not isinstance(value, dict) or "name" not in value:
        raise _fail(where, "must be a fighter's fields, his name among them.")
    name = _text(value["name"], f"{where}.name")
    return _record_of(Fighter, value, where, name)  # type: ignore[no-any-return]


ABERRANT_COMBATANT: dict[str, Check] = {
    "key": _text,
    "name": _text,
    "character": _character,
    "side": _text,
    "armour_levels": _int(0, 20),
    "henchmen": _int(0, 1000),
    "training": _text,
    "henchman_pool": _int(0, 40),
    "hidden": _bool,
    "load_kg": _float,
    "group": _text,
    "ammo": _maybe(_int(0, 100_000)),
    "initiative": _maybe(_int(0, 200)),
    "damage": _damage,
    "taken_this_turn": _int(0, 1000),
    "daze": _choice(tuple(k for k, _ in DAZE_STATES)),
    "daze_until": _int(0, 1_000_000),
    "actions": _int(1, 10),
    "active_defence": _bool,
    "sprinting": _bool,
    "acted": _int(0, 10),
    "attacks_against": _int(0, 1000),
    "stun_clock": _int(0, 10),
}

CHIMERA_COMBATANT: dict[str, Check] = {
    "key": _text,
    "fighter": _fighter,
    "side": _text,
    "leader": _bool,
    "hidden": _bool,
    "wounds": _int(0, 100),
    "status": _text,
    "im": _int(-10, 10),
    "initiative": _maybe(_int(-100, 100)),
    "acted": _bool,
    "morale_due": _text,
    "shot": _bool,
    "vanquished_by": _text,
    "flaw": _bool,
    "ar_bonus": _int(-10, 10),
}


def read_log(value: Any, where: str) -> tuple[Step, ...]:
    """Log lines as :func:`to_dict` writes them (``[[text, rule], …]``), each checked."""
    if not isinstance(value, list) or len(value) > MAX_LOG:
        raise _fail(where, f"must be a list of at most {MAX_LOG} lines.")
    out = []
    for i, line in enumerate(value):
        if not isinstance(line, list) or len(line) != 2:
            raise _fail(f"{where}[{i}]", "must be a line's text and its rule.")
        out.append(Step(_text(line[0], f"{where}[{i}]"), _text(line[1], f"{where}[{i}]")))
    return tuple(out)


def _people(
    value: Any, spec: Mapping[str, Check], cls: type, known: Mapping[int, Any]
) -> tuple[Any, ...]:
    same = known.get(id(value))
    if same is not None:  # (the very list read before: its combatants)
        return same  # type: ignore[no-any-return]
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_COMBATANTS:
        raise _fail("combatants", f"must be a list of 1 to {MAX_COMBATANTS} combatants.")
    out = []
    for i, item in enumerate(value):
        where = f"combatants[{i}]"
        same = known.get(id(item))
        out.append(same if same is not None else _make(cls, where, **_object(item, where, spec)))
    keys = [c.key for c in out]
    if len(set(keys)) != len(keys):
        raise _fail("combatants", "two combatants share a key.")
    return tuple(out)


def _check_order(order: tuple[str, ...], place: int, people: tuple[Any, ...]) -> None:
    keys = {c.key for c in people}
    for i, k in enumerate(order):
        if k not in keys:
            raise _fail(f"order[{i}]", f"names {k!r}, who is not in the encounter.")
    if len(set(order)) != len(order):
        raise _fail("order", "names a combatant twice.")
    if place > len(order):
        raise _fail("place", f"must be at most {len(order)}, the order's length.")


def from_dict(
    data: Any, *, known: Mapping[int, Any] | None = None, log: tuple[Step, ...] | None = None
) -> AnyEncounter:
    """The encounter ``data`` holds (:func:`to_dict`'s form), every field checked.

    A stored undo step (:mod:`.stored`) is read from its neighbour, already checked:
    ``known`` maps the ``id()`` of a combatant's dict read before to the combatant it
    gave, and of a combatants' list read before to their tuple (that very object: not
    checked again), and ``log`` is its log, checked (``data``'s
    own ``"log"`` then must be ``[]``)."""
    was = known or {}

    def log_of(v: Any, w: str) -> tuple[Step, ...]:
        if log is None:
            return read_log(v, w)
        if v != []:
            raise _fail(w, "a stored step's log is read from its neighbour.")
        return log

    if not isinstance(data, dict):
        raise _fail("encounter", "is not an encounter (an object of named fields).")
    if data.get("format") != FORMAT:
        raise _fail("format", f"this is not a ruleslab encounter (format {FORMAT!r}).")
    if data.get("version") != VERSION:
        raise _fail("version", f"version {data.get('version')!r}: this engine reads {VERSION}.")
    game = data.get("game")
    body = {k: v for k, v in data.items() if k not in ("format", "version", "game")}
    if game == "aberrant":
        spec: dict[str, Check] = {
            "ruleset": _choice(RULESETS),
            "combatants": lambda v, w: _people(v, ABERRANT_COMBATANT, Combatant, was),
            "turn": _int(0, 1_000_000),
            "order": _keys,
            "place": _int(0, MAX_COMBATANTS),
            "scene_over": _bool,
            "daze_lasts": _choice(tuple(k for k, _ in DAZE_LASTS)),
            "initiative_each_turn": _bool,
            "extra_successes": _choice(tuple(k for k, _ in EXTRA_SUCCESS_READINGS[1])),
            "burst_damage": _choice(tuple(k for k, _ in BURST_DAMAGE_READINGS[1])),
            "log": log_of,
        }
        fields = _object(body, "encounter", spec, ABERRANT_LATER)
        _check_order(fields["order"], fields["place"], fields["combatants"])
        for i, c in enumerate(fields["combatants"]):
            if c.acted > c.actions:
                raise _fail(f"combatants[{i}].acted", "more actions taken than declared.")
        return Encounter(**fields)
    if game == "chimera":
        spec = {
            "combatants": lambda v, w: _people(v, CHIMERA_COMBATANT, ChimeraCombatant, was),
            "rules": lambda v, w: _make(FightRules, w, **_object(v, w, RULES_SPEC)),
            "round": _int(0, 1_000_000),
            "order": _keys,
            "place": _int(0, MAX_COMBATANTS),
            "over": _bool,
            "first": _text,
            "log": log_of,
        }
        fields = _object(body, "encounter", spec)
        _check_order(fields["order"], fields["place"], fields["combatants"])
        keys = {c.key for c in fields["combatants"]} | {""}
        if fields["first"] not in keys:
            raise _fail("first", "names no combatant here.")
        for i, c in enumerate(fields["combatants"]):
            if c.vanquished_by not in keys:
                raise _fail(f"combatants[{i}].vanquished_by", "names no combatant here.")
        return ChimeraEncounter(**fields)
    raise _fail("game", f"must be 'aberrant' or 'chimera', not {game!r}.")


ABERRANT_LATER = {"extra_successes": "die", "burst_damage": "adds"}
"""The Aberrant encounter's fields added since the first records: their defaults when a
record, a file or a link written before them is read."""
RULES_SPEC: dict[str, Check] = {f.name: _text for f in dataclasses.fields(FightRules)}
