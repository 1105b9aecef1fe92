"""Compressed combat's list fields written back as text: each record as the line the form takes.

The calculator's list fields (combatants, Quantum powers used) accept records
already parsed from Python. So that such records get the form's checks and
messages, :class:`RecordsParam` (the list fields' kind) writes each
record as a line with :func:`write_combatant` or :func:`write_power`, reads the
lines back with the field's parser
(:func:`~ruleslab.alterations.compressed.combatants.parse_combatants`,
:func:`~ruleslab.alterations.compressed.quantum_costs.parse_powers`) and refuses a record that does
not read back as itself. A writer never fails and never writes a huge number: a
value the form cannot take is written so that the parser refuses it with that
item's message (a number out of every range, text no line reads back as).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from ruleslab.alterations.compressed.combatants import Combatant
from ruleslab.alterations.compressed.quantum_costs import PowerUse
from ruleslab.params import InputError, TextParam

__all__ = ["RecordsParam", "write_combatant", "write_power"]


def _number(value: object) -> str:
    """A whole number as typed; anything else (or a huge one) is written out of every range,
    so the parser refuses it with the item's range."""
    if type(value) is int and -(10**9) < value < 10**9:
        return str(value)
    return str(10**9)


def _text(value: object) -> str:
    """Text as typed; anything else is written as “?”, which never reads back as it."""
    return value if isinstance(value, str) else "?"


_TRACK_WORDS = {
    "strength": "Str",
    "stamina": "Sta",
    "mega_stamina": "MSta",
    "mega_strength": "MStr",
    "quantum": "Quantum",
    "armour_levels": "armour",
    "willpower": "Will",
    "resistance": "Res",
}


def write_combatant(c: Combatant) -> str:
    """The line the form takes for ``c``: ``Name: Dexterity 3, Firearms 2, …`` (its items
    as the field's help writes them; items at their default left out)."""
    attribute = _text(c.attribute)
    items = [
        f"{attribute if attribute != 'Attribute' else 'attribute'} {_number(c.attribute_dots)}"
    ]
    if c.mega != 0:
        mega = "Mega" if attribute == "Attribute" else f"Mega-{attribute}"
        items.append(f"{mega} {_number(c.mega)}")
    ability = _text(c.ability)
    items.append(f"{ability if ability != 'Ability' else 'ability'} {_number(c.ability_dots)}")
    if c.damage != 0 or c.damage_type != "":
        items.append(f"damage {_number(c.damage)}{_text(c.damage_type)}")
    for word, value, default in (
        ("accuracy", c.accuracy, 0),
        ("soak", c.soak, 0),
        ("initiative", c.initiative, 0),
        ("Tactics", c.tactics, 0),
        ("dodge", c.dodge, 0),
        ("auto", c.auto, 0),
        ("bonus", c.bonus, 0),
        ("Quantum", c.quantum, None),
        ("resist", c.resist, None),
        ("incap", c.incap, None),
        ("dead", c.dead, None),
    ):
        if value != default:
            items.append(f"{word} {_number(value)}")
    if c.formula != "":
        items.append(f"formula {'2x' if c.formula == 'double' else _text(c.formula)}")
    if c.track != ():
        pairs = c.track if isinstance(c.track, tuple) else ()
        words = [
            f"{_TRACK_WORDS.get(_text(p[0]), _text(p[0]))} {_number(p[1])}"
            if isinstance(p, tuple) and len(p) == 2
            else "?"
            for p in pairs
        ]
        items.append("track " + (" ".join(words) or "?"))
    return f"{_text(c.name)}: " + ", ".join(items)


def write_power(use: PowerUse) -> str:
    """The line the form takes for ``use``: ``[Who:] Power, cost, type``."""
    who = f"{_text(use.who)}: " if use.who != "" else ""
    return f"{who}{_text(use.power)}, {_number(use.cost)}, {_text(use.kind)}"


@dataclass(frozen=True, kw_only=True)
class RecordsParam(TextParam):
    """A list field (combatants, powers): text parsed into a tuple of ``record`` objects.

    Also accepts the already parsed records (a tuple or list), so Python callers may
    pass them (the form passes text; see ``CalculatorView.parse``). Records get the
    same checks and messages as the form: ``writer`` (:func:`write_combatant`,
    :func:`write_power`) writes each as the line the form would take, on
    its own line number so that messages name the same line; the field's parser reads
    the lines back, and the records must be what it reads. A value out of range gets
    the parser's message for that item; a record no line gives (an ability named like
    another item, a name with a colon …) is refused, naming the first field that does
    not read back. A kind of field, like those of :mod:`ruleslab.params`: the calculator
    declares the fields (:mod:`ruleslab.calculators.compressed`).
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
        for item in records:
            if keep_lines:  # blank lines up to the record's own line number
                length += item.line - 1 - len(lines)
                lines.extend([""] * (item.line - 1 - len(lines)))
            lines.append(writer(item))
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
