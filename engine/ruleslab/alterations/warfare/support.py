"""Warfare: what a force spends on its attacks of opportunity — Support, Morale, Power.

Combat alterations › Mass Combat › Warfare › Force Attributes:

    All forces also have at least two tracks and possibly three rated from 0-10:
    • Morale: A unit's morale is essentially a unit's willpower track. A unit may
      spend 1 Morale to add 1 success to all actions the unit takes in that round.
    • Support: How much "off-board" firepower a unit possesses. A unit with
      Support 0 has no actual support and has to make do. A unit with Support 5+
      is generally a first world military … 1 point of this track can be spent
      to add the permanent support track size to the Skill dice pool, and add 1
      automatic success to firepower rolls. Certain types of support may have
      additional effects such as tactical nuclear weapons turning damage
      aggravated or tactical recon assets adding +1 to accuracy for all enemy
      attacks on the turn.
    • Power: … A horde of sub-Aberrants has Power 1, while an all-Doyen force
      would have Power 10.

Combat alterations › Mass Combat › Warfare › Power Overwhelming:

    • Boost: A commander can spend 1 point from the Power track and roll its
      permanent rating. Successes temporarily increase the effectiveness of all
      units with the same powers, adding a temporary +1 Psi for 1 turn for
      Psions. For Quantum users, this instead adds +1 to power rating and +1 to
      Quantum for the same turn.
    • Recharge: A commander can spend 1 point from the power track to add 1
      Quantum or Psi to all his soldiers. …
    • Firepower: A commander can use his force's noetic or quantum ability as
      support, with identical rules, save replacing Support for Power. … This can
      be used alongside Support as well …

The pools these build are rolled by :mod:`ruleslab.alterations.warfare` (Attacks of
Opportunity, the "divide by 3" shortcut). Readings: rules notes RN-WAR-4
(Morale), RN-WAR-5 (Support), RN-WAR-6 (Power), RN-WAR-10 (special Support).
Accuracy adds dice: Compressed combat's officer has "Dexterity 3, Firearms 2 + 1
accuracy, weapon damage 6L … a total of 12d".
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.alterations.warfare import AOO, FORCE, POWER, ForcePools, shorten_pool
from ruleslab.dice import pool_distribution
from ruleslab.explain import Step, fmt_prob
from ruleslab.params import InputError

__all__ = [
    "RECON_ACCURACY",
    "SUPPORT_KINDS",
    "PowerSpent",
    "force_pools",
    "power_spent",
]

SUPPORT_KINDS = ("ordinary", "nuclear", "recon")
"""Support: ordinary, or a special type with "additional effects" (rules note RN-WAR-10):
tactical nuclear weapons (the damage is aggravated), tactical recon (+1 accuracy)."""

RECON_ACCURACY = 1
"""Tactical recon: "+1 to accuracy for all enemy attacks on the turn", one more die each."""


def _special_support(kind: str, spent: bool) -> Step | None:
    """The step for Support's "additional effects" (RN-WAR-10), or None for ordinary Support."""
    if kind not in SUPPORT_KINDS:
        raise InputError("support_kind", f"unknown kind of Support {kind!r}")
    if kind == "ordinary":
        return None
    name = "tactical nuclear weapons" if kind == "nuclear" else "tactical recon assets"
    if not spent:
        return Step(f"Support not spent this turn: its {name} are not used (RN-WAR-10)", FORCE)
    if kind == "nuclear":
        text = "Tactical nuclear weapons (special Support): the damage is aggravated (RN-WAR-10)"
    else:
        text = (
            f"Tactical recon (special Support): +{RECON_ACCURACY} accuracy, one more die, on "
            "every attack of the turn (RN-WAR-10)"
        )
    return Step(text, FORCE)


def _as_support(spent: str, dice: int, anchor: str, rule: str) -> Step:
    """The step for what Support buys when spent (and Power spent as Support, the same)."""
    return Step(
        f"{spent}: +{dice} dice to the attack pool, +1 automatic success to damage ({anchor})",
        rule,
    )


def force_pools(
    *,
    skill: int,
    size: int,
    firepower: int,
    support: int = 0,
    spend_support: bool = False,
    support_kind: str = "ordinary",
    power: int = 0,
    power_as_support: bool = False,
    spend_morale: bool = False,
    morale_on_damage: bool = False,
    shortcut: str = "none",
) -> ForcePools:
    """A force's attack and damage pools: Skill + Size to hit, Firepower + Size damage.

    Spending 1 Support adds the permanent Support to the attack pool and 1
    automatic success to damage (RN-WAR-5); special Support adds its effect
    (``support_kind``: nuclear, the damage aggravated; recon, +1 die; RN-WAR-10);
    Power used as Support does the same as Support with Power, alongside Support
    too (RN-WAR-6); 1 Morale adds 1 success to the attack roll, and to the damage
    roll when ``morale_on_damage`` (RN-WAR-4). ``shortcut`` (:data:`SHORTCUTS`,
    RN-WAR-9) shortens both pools; automatic successes are never divided.
    """
    steps: list[Step] = []
    parts = [f"Skill {skill}", f"Size {size}"]
    if spend_support:
        parts.append(f"Support {support}")
        steps.append(_as_support("1 Support spent", support, "RN-WAR-5", FORCE))
    special = _special_support(support_kind, spend_support)
    recon = spend_support and support_kind == "recon"
    if special:
        steps.append(special)
        if recon:
            parts.append(f"recon {RECON_ACCURACY}")
    damage_type = "aggravated" if spend_support and support_kind == "nuclear" else "lethal"
    if power_as_support:
        parts.append(f"Power {power}")
        steps.append(_as_support("1 Power spent as Support", power, "RN-WAR-6", POWER))
    # each of Support and Power spent as Support: its dots to hit, 1 automatic success on damage
    dice = skill + size
    dice += (support if spend_support else 0) + (RECON_ACCURACY if recon else 0)
    dice += power if power_as_support else 0
    damage_auto = int(spend_support) + int(power_as_support)
    attack_auto = 0
    if spend_morale:
        attack_auto = 1
        steps.append(
            Step(
                "1 Morale spent: +1 success to the attack roll"
                + (" and to the damage roll" if morale_on_damage else "")
                + " (RN-WAR-4)",
                FORCE,
            )
        )
        if morale_on_damage:
            damage_auto += 1
    attack_dice, attack_threes, how = shorten_pool(dice, shortcut)
    steps.append(Step(f"Attack pool = {' + '.join(parts)} = {dice} dice{how}", AOO))
    damage = firepower + size
    damage_dice, damage_threes, how = shorten_pool(damage, shortcut)
    steps.append(
        Step(
            f"Damage dice = Firepower {firepower} + Size {size} = {damage}{how}, {damage_type}, "
            "soak ignored (the dice are already post-soak)",
            AOO,
        )
    )
    return ForcePools(
        attack_dice=attack_dice,
        attack_threes=attack_threes,
        attack_auto=attack_auto,
        damage_dice=damage_dice,
        damage_threes=damage_threes,
        damage_auto=damage_auto,
        damage_type=damage_type,
        steps=tuple(steps),
    )


@dataclass(frozen=True, kw_only=True)
class PowerSpent:
    """What 1 point of the Power track buys: ``use`` (``none``, ``firepower``,
    ``boost``, ``recharge``) and ``text``, its effect in words."""

    use: str
    text: str
    steps: tuple[Step, ...]


def power_spent(use: str, power: int) -> PowerSpent:
    """What 1 Power buys: Boost (roll Power: any success, +1 Psi or +1 power rating
    and Quantum for 1 turn), Recharge, or Firepower (see :func:`force_pools`);
    rules note RN-WAR-6."""
    steps: list[Step] = []
    if use == "boost":
        p_boost = pool_distribution(power).at_least(1)
        text = (
            f"Boost: {fmt_prob(p_boost)} chance of +1 Psi "
            "(or +1 power rating and +1 Quantum) for 1 turn"
        )
        steps.append(
            Step(
                f"Boost: roll Power {power} dice; any success gives +1 Psi (Quantum: +1 "
                f"power rating, +1 Quantum) this turn: {fmt_prob(p_boost)} (RN-WAR-6)",
                POWER,
            )
        )
    elif use == "recharge":
        text = "Recharge: +1 Quantum or Psi to every soldier"
        steps.append(Step("Recharge: +1 Quantum or Psi to all the commander's soldiers", POWER))
    elif use == "firepower":
        text = f"Firepower: +{power} attack dice, +1 automatic damage success"
    else:
        text = "not used"
    return PowerSpent(use=use, text=text, steps=tuple(steps))
