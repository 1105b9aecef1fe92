"""ruleslab — exact rules engine for Aberrant 2.0/2.1 and Chimera.

Standard library only: it runs unchanged in CPython and in Pyodide. Every rule
is a function of plain inputs returning a frozen result with its figures and
the steps (each naming its rule) that produced them.

A character is built once and passed to every calculator that takes one::

    from ruleslab import Character, Conditions
    from ruleslab.calculators.lifting import lifting_and_encumbrance

    hero = Character(strength=4, might=2)
    lifting_and_encumbrance(lifter=hero, conditions=Conditions(load_kg=40), object_kg=450)

The GM's party (saved on the app page, exported as a file) reads back as the same
records: ``parse_party(text)["Aiko"]`` (:mod:`ruleslab.party`).
"""

from ruleslab.character import Character, Conditions
from ruleslab.explain import Explained, Figure, Step
from ruleslab.params import (
    BoolParam,
    ChoiceParam,
    InputError,
    IntParam,
    NumberParam,
    Param,
    TextParam,
    checked,
)
from ruleslab.party import Party, parse_party, party_json
from ruleslab.quickref.weapon import Weapon
from ruleslab.records import Role, record
from ruleslab.whatif import Range, compare, sweep

__version__ = "0.1.0"

__all__ = [
    "BoolParam",
    "Character",
    "ChoiceParam",
    "Conditions",
    "Explained",
    "Figure",
    "InputError",
    "IntParam",
    "NumberParam",
    "Param",
    "Party",
    "Range",
    "Role",
    "Step",
    "TextParam",
    "Weapon",
    "checked",
    "compare",
    "parse_party",
    "party_json",
    "record",
    "sweep",
]
