"""Compressed combat's list fields written back as text: each record as the line the form takes.

The calculator's list fields (combatants, Quantum powers used) accept records
already parsed from Python. So that such records get the form's checks and
messages, :class:`~ruleslab.calculators.compressed.RecordsParam` writes each
record as a line with :func:`write_combatant` or :func:`write_power`, reads the
lines back with the field's parser (:func:`~ruleslab.compressed.combatants.parse_combatants`,
:func:`~ruleslab.quantum_costs.parse_powers`) and refuses a record that does not
read back as itself. A writer never fails and never writes a huge number: a
value the form cannot take is written so that the parser refuses it with that
item's message (a number out of every range, text no line reads back as).
"""

from __future__ import annotations

from ruleslab.compressed.combatants import Combatant
from ruleslab.quantum_costs import PowerUse

__all__ = ["write_combatant", "write_power"]


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
    for word, value in (
        ("accuracy", c.accuracy),
        ("soak", c.soak),
        ("initiative", c.initiative),
        ("Tactics", c.tactics),
        ("dodge", c.dodge),
        ("auto", c.auto),
        ("bonus", c.bonus),
    ):
        if value != 0:
            items.append(f"{word} {_number(value)}")
    for word, optional in (
        ("Quantum", c.quantum),
        ("resist", c.resist),
        ("incap", c.incap),
        ("dead", c.dead),
    ):
        if optional is not None:
            items.append(f"{word} {_number(optional)}")
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
