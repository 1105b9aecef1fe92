"""The Aberrant 2.0/2.1 quick reference: its rules, one module per section.

The text is
``/work/shared/rules/aberrant-2.0-2.1-quick-reference.txt``;
a step of working cites it as ``QR`` (:data:`ruleslab.sources.QR`). Its sections,
and the modules that implement them:

* Lifting, Encumbrance, Movement (Jumping), Falling: :mod:`.lifting`,
  :mod:`.encumbrance`, :mod:`.movement`, :mod:`.jumping`, :mod:`.falling`;
* Mega-Attributes, 2.1 Rules › Specialties: :mod:`.mega`, :mod:`.specialties`;
* 2.0/2.1 Rules › Health Levels, Soak, Combat (damage), 2.1 Rules › Healing:
  :mod:`.health`, :mod:`.soak`, :mod:`.damage`, :mod:`.healing`;
* 2.0 Rules › Combat (initiative, defensive maneuvers), 2.1 Rules › Defense:
  :mod:`.initiative`, :mod:`.defence` (with :mod:`.defence.dodge` and
  :mod:`.defence.turn`);
* Weapon Tags, Ranged Attack Maneuvers (autofire, strafing): :mod:`.weapons`,
  :mod:`.weapon` (the weapon record), :mod:`.attack`, :mod:`.autofire`;
* what a character's conditions do to his rolls: :mod:`.conditions`.

Rules only: no inputs are declared here (they are in :mod:`ruleslab.calculators`).
"""
