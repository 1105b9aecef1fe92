"""Compressed combat's rules: a whole fight in one opposed roll, with exact odds.

Combat alterations › Compressed Combat: "This is a system used for
less-narratively important fights, compressing the effect of a fight into one roll."

Modules, each quoting the text it implements:
:mod:`~ruleslab.alterations.compressed.combatants` (a combatant a line of text),
:mod:`~ruleslab.alterations.compressed.thresholds` (the health thresholds: the 2.0 or 2.1 track),
:mod:`~ruleslab.alterations.compressed.pools` (a side's inputs, :class:`SideInput`, and building
its pools in named steps: henchmen, modifiers, enemy soak, ablative soak, cover, the
Quantum spent),
:mod:`~ruleslab.alterations.compressed.odds` (the opposed roll, ablative soak, victory and ties,
damage sharing, the both-down rule, the timeframe) and
:mod:`~ruleslab.alterations.compressed.roll` (one rolled fight, by the same rules) and
:mod:`~ruleslab.alterations.compressed.result` (the explained result and its charts); the
power-type costs are :mod:`ruleslab.alterations.compressed.quantum_costs`;
:mod:`~ruleslab.alterations.compressed.lines` writes records back as the lines the form takes and
holds the list fields' kind,
:class:`~ruleslab.alterations.compressed.lines.RecordsParam` (for checking records passed from
Python). Rules only: the "Compressed combat" calculator (its inputs, each side's
record :class:`~ruleslab.calculators.compressed.Side` and its two roles,
:func:`~ruleslab.calculators.compressed.compressed_combat`) is
:mod:`ruleslab.calculators.compressed`. Readings of the text:
``docs/rules-notes/compressed.md`` (RN-COMP-*).
"""

from ruleslab.alterations.compressed.combatants import Combatant, parse_combatants
from ruleslab.alterations.compressed.odds import health_odds, success_table, timeframe, victory_odds
from ruleslab.alterations.compressed.pools import (
    CombatantPool,
    SideInput,
    SideResult,
    build_side,
    take_cover,
)
from ruleslab.alterations.compressed.roll import play
from ruleslab.alterations.compressed.thresholds import thresholds, thresholds_20

__all__ = [
    "Combatant",
    "CombatantPool",
    "SideInput",
    "SideResult",
    "build_side",
    "health_odds",
    "parse_combatants",
    "play",
    "success_table",
    "take_cover",
    "thresholds",
    "thresholds_20",
    "timeframe",
    "victory_odds",
]
