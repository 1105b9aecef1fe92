"""An attack of the encounter as the "Autofire & strafing" calculator's inputs, filled.

The tracker does not roll the attack itself: the GM opens the calculator with the
attacker, the target, the weapon and their conditions as the fight has left them, sees
the odds before the roll, and brings the result back (:func:`ruleslab.encounter.aberrant.
resolve_attack`). :func:`attack_inputs` gives those inputs by the calculator's names
(``ruleslab.calculators.autofire.autofire_and_strafing``); it names them only, so the
encounter stays below the calculators.

The attacker's conditions are his as of this action: his k-th declared action is
priced with k actions so far (the calculator prices the roll as the turn's last action,
RN-COND-3: +(k − 1), what :func:`~ruleslab.encounter.aberrant.attack_setup` gives it);
the target's Defense is worn by the attacks made on him this turn (``attacks_before``,
RN-DEF-3), and a squad is a squad target with its henchmen left. Each one's health levels
lost (the boxes his damage fills, his armour's −0 levels left out: the calculator's track
has none) are his ``levels_lost``, so the odds carry his wound penalty (RN-COND-7). The
fight's readings of the damage (``extra_successes``, ``burst_damage``) go with them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ruleslab.character import Conditions
from ruleslab.encounter.aberrant import attack_setup
from ruleslab.encounter.combatant import Combatant
from ruleslab.encounter.state import Encounter, find, health
from ruleslab.quickref.weapon import Weapon

__all__ = ["attack_inputs", "levels_lost"]


def levels_lost(enc: Encounter, c: Combatant) -> int:
    """The health levels of damage on his track below his armour's −0 levels (which come
    first and carry no penalty, RN-HEALTH-4): what a calculator's ``levels_lost`` reads
    against his track without armour, the same wound penalty (rules note RN-COND-7)."""
    filled = sum(1 for box in health(enc, c).filled if box is not None)
    return max(0, filled - c.armour_levels)


def attack_inputs(
    enc: Encounter, attacker: str, target: str, weapon: Weapon | None = None
) -> dict[str, Any]:
    """The calculator's inputs for ``attacker``'s next attack on ``target`` (with
    ``weapon``, its ammunition the rounds he has left when the encounter counts them)."""
    setup = attack_setup(enc, attacker, target)  # (refuses an attack he may not make)
    a, t = find(enc, attacker), find(enc, target)
    own = Conditions(
        load_kg=a.load_kg, daze=a.daze, actions=setup.action, levels_lost=levels_lost(enc, a)
    )
    inputs: dict[str, Any] = {
        "attacker": a.character,
        "conditions": own,
        "target": t.character,
        "target_conditions": replace(t.conditions(), levels_lost=levels_lost(enc, t)),
        "attacks_before": t.attacks_against,
        "ruleset": enc.ruleset,
        "extra_successes": enc.extra_successes,
        "burst_damage": enc.burst_damage,
    }
    if t.henchmen:
        inputs.update(target_kind="squad", squad_henchmen=t.henchmen, squad_training=t.training)
    if weapon is not None:
        inputs["weapon"] = weapon if a.ammo is None else replace(weapon, ammunition=a.ammo)
    return inputs
