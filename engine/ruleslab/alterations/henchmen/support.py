"""Henchmen support weapons: the commander fires a henchman's heavy weapon.

Combat alterations › Mass Combat › Henchmen › Support Weapons:

    Instead of attacking himself, a commander can use a henchman's heavy
    weapon. This could be anything from molotov cocktails and AK-47s for the
    leader of a rioting mob armed with clubs and knives, to pulse cannons and
    plasma guns for a Trinity-era Legion strike team. This attack is made at
    full dice pool with henchmen accuracy/damage bonuses. Weapons capable of
    firing bursts are assumed to fire the largest possible burst they can.
    This attack can only be done once per combat per henchman equipped with a
    heavy weapon. The rest of the time, the henchman is assumed to be missing
    dramatically.

The attack itself is an ordinary ranged attack (:func:`ruleslab.quickref.attack.resolve_attack`,
with the burst of :func:`ruleslab.quickref.autofire.autofire_maneuver`): the commander's
own pool (attribute + ability), the heavy weapon, and the henchmen's bonuses of
:func:`ruleslab.alterations.henchmen.henchmen_bonus` (the dice as accuracy, the damage on
the weapon's damage). A Dazed or Stunned commander fires at +1 difficulty
(:func:`ruleslab.alterations.henchmen.leader.leader_condition`). Readings:
``docs/rules-notes/henchmen.md`` (RN-HENCH-5, RN-HENCH-11 … RN-HENCH-14).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.alterations.henchmen import SUPPORT, HenchmenBonus
from ruleslab.alterations.henchmen.domain import check_count, check_reading
from ruleslab.alterations.henchmen.leader import Condition
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob, fmt_prob_at_least
from ruleslab.params import InputError
from ruleslab.quickref.attack import AttackResult, resolve_attack
from ruleslab.quickref.autofire import AUTOFIRE, BURSTS, autofire_maneuver, rounds_used
from ruleslab.quickref.defence.dodge import TargetDefence
from ruleslab.quickref.weapons import Weapon

__all__ = [
    "BONUS_READINGS",
    "BURST_ORDER",
    "HENCHMEN_DAMAGE",
    "SupportAttack",
    "fired_burst",
    "support_attack",
]

BURST_ORDER = ("none", *BURSTS)
"""Burst sizes, smallest first ("none": the weapon cannot fire bursts)."""

BONUS_READINGS = ("squad", "weapon")
""""with henchmen accuracy/damage bonuses": the squad's bonuses are added (``squad``,
rules note RN-HENCH-11) or the heavy weapon fires with its own accuracy and damage only."""

HENCHMEN_DAMAGE = ("dice", "adds")
""""Each henchman adds +1 to the damage": a damage die each (``dice``, the plain number
of RN-RANGED-1) or a damage add each."""

NO_ATTACK = "— (no heavy weapon within the limit)"


def fired_burst(largest: str, ammunition: int) -> tuple[str, int, tuple[Step, ...]]:
    """The burst the support weapon fires, the rounds it uses, and the steps saying why.

    "Weapons capable of firing bursts are assumed to fire the largest possible
    burst they can": the largest burst up to the weapon's ``largest`` whose
    rounds the ``ammunition`` covers; a single shot when none does (or the
    weapon fires no bursts). Raises :class:`InputError` naming
    ``support_ammunition`` when not even a single shot is loaded (rules note
    RN-HENCH-12).
    """
    check_reading("support_burst", largest, BURST_ORDER)
    check_count("support_ammunition", ammunition)
    if ammunition < 1:
        raise InputError(
            "support_ammunition",
            "Support weapon's ammunition: the support attack fires at least 1 round, and "
            "none is loaded; enter 1 to 10,000 rounds.",
        )
    steps: list[Step] = []
    top = BURST_ORDER.index(largest)
    for key in reversed(BURST_ORDER[1 : top + 1]):
        used, _ = rounds_used(key, 1)
        if used <= ammunition:
            name = BURSTS[key].name
            skipped = BURST_ORDER[BURST_ORDER.index(key) + 1 : top + 1]
            why = (
                f"; {', '.join(BURSTS[k].name for k in skipped)} would need more than the "
                f"{ammunition} rounds loaded"
                if skipped
                else ""
            )
            steps.append(
                Step(
                    f"Largest possible burst: {name} ({used} rounds){why} (rules note RN-HENCH-12)",
                    SUPPORT,
                )
            )
            return key, used, tuple(steps)
    if top == 0:
        text = "The support weapon cannot fire bursts: a single shot (rules note RN-HENCH-12)"
    else:
        text = (
            f"Largest possible burst: none, {ammunition} round"
            f"{'' if ammunition == 1 else 's'} loaded is fewer than a short burst's 3: a "
            "single shot (rules note RN-HENCH-12)"
        )
    steps.append(Step(text, SUPPORT))
    return "none", 1, tuple(steps)


@dataclass(frozen=True, kw_only=True)
class SupportAttack(Explained):
    """One support weapon attack, resolved exactly, and how many the squad has.

    ``available`` is the number of support attacks this combat (one per heavy
    weapon within the limit); ``attack`` the resolved attack
    (:class:`~ruleslab.quickref.attack.AttackResult`: pool, difficulty, chance to hit,
    ``levels[k]`` = P(k health levels lost by the target), misses included), or
    ``None`` when no attack is available. ``burst`` is the burst fired
    (``"none"``: a single shot), ``rounds`` its ammunition; ``accuracy_bonus``
    and ``damage_bonus`` what the henchmen added; ``penalty`` the difficulty
    a Dazed or Stunned commander adds.
    """

    available: int
    burst: str
    rounds: int
    accuracy_bonus: int
    damage_bonus: int
    penalty: int
    attack: AttackResult | None

    def figures(self) -> tuple[Figure, ...]:
        a = self.attack
        if a is None:
            return tuple(Figure(key, label, None, NO_ATTACK) for key, label in FIGURES.items())
        burst = (
            "Single shot (1 round)"
            if self.burst == "none"
            else f"{BURSTS[self.burst].name[:-1].capitalize()} ({self.rounds} rounds)"
        )
        at_least = "≥ " if a.damage_unresolved else ""
        shown = {
            "support_burst": (self.burst, burst),
            "support_pool": (a.pool, f"{a.pool} dice"),
            "support_difficulty": (a.difficulty, str(a.difficulty)),
            "support_p_hit": (a.p_hit, fmt_prob(a.p_hit)),
            "support_expected_levels": (
                a.expected_levels,
                at_least + fmt_num(a.expected_levels, "levels"),
            ),
            "support_p_wound": (a.p_wound, fmt_prob_at_least(a.p_wound, bool(a.damage_unresolved))),
        }
        return tuple(Figure(key, label, *shown[key]) for key, label in FIGURES.items())


FIGURES = {
    "support_burst": "Support attack: burst fired",
    "support_pool": "Support attack pool",
    "support_difficulty": "Support attack difficulty",
    "support_p_hit": "Support attack: chance to hit",
    "support_expected_levels": "Support attack: expected health levels dealt",
    "support_p_wound": "Support attack: chance of at least 1 health level",
}
"""The support attack's figures, by key: their labels, with or without an attack."""


def support_attack(
    *,
    bonus: HenchmenBonus,
    heavy_weapons: int,
    weapon: Weapon,
    largest_burst: str,
    ammunition: int,
    burst_use: str = "accuracy",
    dexterity: int,
    mega_dexterity: int = 0,
    ability: int,
    specialty: bool = False,
    ruleset: str = "2.1",
    target: TargetDefence | None = None,
    base_difficulty: int = 1,
    natural_soak: int = 2,
    armour_soak: int = 0,
    condition: Condition | None = None,
    bonuses: str = "squad",
    henchmen_damage: str = "dice",
) -> SupportAttack:
    """The commander fires one henchman's heavy ``weapon``, exactly.

    "Instead of attacking himself, a commander can use a henchman's heavy
    weapon. […] This attack is made at full dice pool with henchmen
    accuracy/damage bonuses. Weapons capable of firing bursts are assumed to
    fire the largest possible burst they can. This attack can only be done once
    per combat per henchman equipped with a heavy weapon."

    Available attacks = min(``heavy_weapons``, henchmen counted) (RN-HENCH-5).
    The pool is the commander's ``dexterity`` + ``ability`` + the weapon's
    accuracy + the henchmen's dice bonus (``bonuses="squad"``, RN-HENCH-11) +
    the largest burst's accuracy (``burst_use="accuracy"``) or damage;
    the henchmen's damage bonus adds ``henchmen_damage`` (damage dice by
    default) to the weapon's damage. ``target`` is the target's 2.0 dodge or
    2.1 Defense (:mod:`ruleslab.quickref.defence.dodge`; None: no dodge, Defense 0), soaking
    with ``natural_soak`` + ``armour_soak``. A Dazed or Stunned commander
    (``condition``) adds +1 to the difficulty (RN-HENCH-14). With no attack
    available, ``attack`` is None.
    """
    check_reading("support_bonuses", bonuses, BONUS_READINGS)
    check_reading("henchmen_damage", henchmen_damage, HENCHMEN_DAMAGE)
    check_count("heavy_weapons", heavy_weapons)
    available = min(heavy_weapons, bonus.counted)
    steps = [
        Step(
            f"Support weapon attacks this combat = min({heavy_weapons} heavy weapons, "
            f"{bonus.counted} henchmen counted) = {available}: once per combat per henchman so "
            "equipped, instead of the commander's own attack (rules note RN-HENCH-5)",
            SUPPORT,
        )
    ]
    burst, used, burst_steps = fired_burst(largest_burst, ammunition)
    if not available:
        steps.append(
            Step(
                "No henchman with a heavy weapon within the limit: no support attack to resolve",
                SUPPORT,
            )
        )
        return SupportAttack(
            available=0,
            burst=burst,
            rounds=used,
            accuracy_bonus=0,
            damage_bonus=0,
            penalty=0,
            attack=None,
            steps=tuple(steps),
        )
    steps += burst_steps
    if bonuses == "squad":
        acc_bonus, dmg_bonus = bonus.dice, bonus.damage
    else:
        acc_bonus = dmg_bonus = 0
    add_dice = dmg_bonus if henchmen_damage == "dice" else 0
    add_adds = dmg_bonus if henchmen_damage == "adds" else 0
    fired = Weapon(
        name="Support weapon",
        accuracy=weapon.accuracy + acc_bonus,
        damage_dice=weapon.damage_dice + add_dice,
        damage_adds=weapon.damage_adds + add_adds,
        damage_type=weapon.damage_type,
        tags=weapon.tags,
    )
    if bonuses == "squad":
        what = "dice" if henchmen_damage == "dice" else "adds"
        steps.append(
            Step(
                f"“At full dice pool with henchmen accuracy/damage bonuses”: accuracy "
                f"{weapon.accuracy:+d} + henchmen +{acc_bonus}d = {fired.accuracy:+d}; damage "
                f"{weapon.damage_dice} [{weapon.damage_adds}] + henchmen +{dmg_bonus} damage "
                f"{what} = {fired.damage_dice} [{fired.damage_adds}] (rules note RN-HENCH-11)",
                SUPPORT,
            )
        )
    else:
        steps.append(
            Step(
                f"The heavy weapon fires with its own accuracy {weapon.accuracy:+d} and damage "
                f"{weapon.damage_dice} [{weapon.damage_adds}]; the squad's bonuses are not "
                "added (option support_bonuses, rules note RN-HENCH-11)",
                SUPPORT,
            )
        )
    cond = condition or Condition(key="none", penalty=0, steps=())
    difficulty = base_difficulty + cond.penalty
    steps += cond.steps
    if cond.penalty:
        steps.append(
            Step(
                f"Support attack's base difficulty {base_difficulty} + {cond.penalty} "
                f"({cond.key.capitalize()}) = {difficulty} (rules note RN-HENCH-14)",
                SUPPORT,
            )
        )
    maneuver, _ = autofire_maneuver(
        burst=burst, burst_use=burst_use, targets=1, ammunition=ammunition
    )
    if burst != "none":
        steps.append(
            Step(
                f"The burst's bonus goes to {burst_use} (the commander's choice)",
                AUTOFIRE,
            )
        )
    attack = resolve_attack(
        weapon=fired,
        dexterity=dexterity,
        mega_dexterity=mega_dexterity,
        ability=ability,
        specialty=specialty,
        ruleset=ruleset,
        base_difficulty=difficulty,
        target=target,
        natural_soak=natural_soak,
        armour_soak=armour_soak,
        maneuver=maneuver,
    )
    steps += attack.steps
    at_least = "≥ " if attack.damage_unresolved else ""
    steps.append(
        Step(
            f"Support attack: pool {attack.pool} dice at difficulty {attack.difficulty}, "
            f"P(hit) = {fmt_prob(attack.p_hit)}, expected {at_least}"
            f"{fmt_num(attack.expected_levels, 'health levels')} after soak, P(at least 1 "
            f"level) = {fmt_prob_at_least(attack.p_wound, bool(attack.damage_unresolved))}; "
            f"{available} such attack"
            f"{'' if available == 1 else 's'} this combat",
            SUPPORT,
        )
    )
    return SupportAttack(
        available=available,
        burst=burst,
        rounds=used,
        accuracy_bonus=acc_bonus,
        damage_bonus=dmg_bonus,
        penalty=cond.penalty,
        attack=attack,
        steps=tuple(steps),
    )
