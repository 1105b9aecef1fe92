"""The Aberrant 2.0 combat alterations: compressed combat and mass combat.

The text is
``/work/shared/rules/aberrant-2.0-combat-alterations.txt``;
a step of working cites it as ``ALT`` (:data:`ruleslab.sources.ALT`). Its parts:

* Compressed Combat (with its Quantum Powers costs): :mod:`.compressed`;
* Mass Combat › Henchmen (with Support Weapons and Area weapons against a squad):
  :mod:`.henchmen`;
* Mass Combat › Warfare (Force Attributes, Quantity is Quality, attacks of
  opportunity): :mod:`.warfare`.

Rules only: no inputs are declared here (they are in :mod:`ruleslab.calculators`).
"""
