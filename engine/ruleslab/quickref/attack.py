"""A ranged attack that honours its weapon's tags: pool, difficulty, dodge, damage, soak.

The quick reference gives the pieces but not the whole attack. What it says:

* Weapon Tags: "Guided: Ignores first dodge success, reduces range penalty
  difficulties by 1." "AA: Anti-aircraft tracking, can be fired at aircraft
  without any difficulty penalties." "AP(X): Armor Piercing. Reduce target soak
  by (X)." "Devastating (X): The weapon deals (X) additional damage per net
  attack success after the first instead of just +1. A weapon with Devastating
  (5 [2]) would deal +5 damage and an extra 2 damage adds for each extra
  success."
* 2.0 Rules › Combat: "Defensive Maneuvers: Characters can dodge (Dex +
  Athletics) …"; "Soak: Characters subtract soak from damage dice, not damage
  adds." (applied by :func:`ruleslab.quickref.damage.damage_taken`).
* 2.1 Rules › Defenses: "Their Defense score adds to the difficulty of attacks
  against them, but is reduced by 1 for every successful or unsuccessful attack
  made against them." (the target's side: :mod:`ruleslab.quickref.defence.dodge`).
* Mega-Attributes: "each dot of a Mega-Attribute counts for 2 dots of an
  attribute"; 2.1 Specialties: "Specialties allow a character to add +1 to their
  dice pool if applicable. Mega-Attributes allow a character to reroll 10s if
  applicable." (2.0: "Specialties allow a character to reroll 10s".)

The resolution the engine uses (rules notes RN-RANGED-2 … RN-RANGED-4):

* attack pool = attribute (+ 2 per Mega dot) + ability + weapon accuracy +
  any maneuver's accuracy bonus (+1 die for a 2.1 specialty);
* the difficulty adds the target's 2.1 Defense (RN-RANGED-14);
* net successes = attack successes − the target's defence roll's successes (a
  2.0 dodge, a 2.1 active defence or power block; Guided ignores a dodge's
  first success); the attack hits when net successes ≥ the difficulty
  (:mod:`ruleslab.quickref.defence.dodge`);
* each net success beyond the difficulty ("after the first" at difficulty 1)
  adds +1 damage die, or Devastating's X dice [Y adds] instead;
* the damage dice and adds then meet the target's soak;
* the attacker's conditions add to the difficulty, the target's to its defence
  roll (:mod:`ruleslab.quickref.conditions`, rules notes RN-COND-1 … RN-COND-5).

Over 600 lines, for a reason: :func:`resolve_attack` is one attack from pool to
soak, in the order a GM works it, each step naming its rule; its separable pieces
(pool, difficulty, a defence roll's added difficulty, soak) are already functions.

Every probability is exact (:class:`fractions.Fraction`); with rerolled 10s the
attack's success table is cut where its omitted mass is below 10⁻¹² and that
mass is reported exactly as ``unresolved``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.dice import SuccessDistribution, dice_text, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob, fmt_prob_at_least
from ruleslab.pmf import Dist, binomial_mixture, constant, mixture
from ruleslab.quickref.conditions import SCALE_NOTE, Modifier, defence_successes
from ruleslab.quickref.damage import COMBAT_SOAK, MAX_ADDS, MAX_DICE, PING, damage_taken
from ruleslab.quickref.defence import DEFENSES
from ruleslab.quickref.defence.dodge import DEFENSIVE, TargetDefence, attack_target, net_successes
from ruleslab.quickref.mega import effective
from ruleslab.quickref.soak import ARMOR_PIERCING, armour_after_ap
from ruleslab.quickref.specialties import SPECIALTIES_20, SPECIALTIES_21
from ruleslab.quickref.weapons import (
    AA,
    WEAPON_TAGS,
    Area,
    Devastating,
    FastTracking,
    Guided,
    Scale,
    Weapon,
    format_tags,
    tag_rule,
)
from ruleslab.ruleset import V21
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "EXTRA_SUCCESS_READINGS",
    "MAX_DAMAGE_ADDS",
    "MAX_DAMAGE_DICE",
    "NO_CONDITIONS",
    "AttackResult",
    "Maneuver",
    "defence_with_difficulty",
    "per_extra_success",
    "resolve_attack",
]

MANEUVERS = rule(QR, "Ranged Attack Maneuvers")
ATTACK_POOL = rule(ALT, "Compressed Combat")
"""The only text naming the attack pool: "Dexterity 3, Firearms 2 + 1 accuracy"."""

MAX_DAMAGE_DICE = MAX_DICE
"""Largest damage-dice count resolved against soak (damage_taken's range)."""
MAX_DAMAGE_ADDS = MAX_ADDS
"""Largest damage-adds count resolved against soak (damage_taken's range)."""


# --- pieces -------------------------------------------------------------------------


@dataclass(frozen=True)
class Maneuver:
    """What a ranged maneuver adds to an attack (autofire, strafing), with its steps.

    ``damage_dice``/``damage_adds`` are added to every hit; ``extra_difficulty`` to
    the difficulty; ``targets`` is how many targets the one roll applies to.
    """

    accuracy: int = 0
    damage_dice: int = 0
    damage_adds: int = 0
    extra_difficulty: int = 0
    targets: int = 1
    label: str = ""
    steps: tuple[Step, ...] = ()


def _pool(
    weapon: Weapon,
    dexterity: int,
    mega_dexterity: int,
    ability: int,
    specialty: bool,
    ruleset: str,
    maneuver: Maneuver,
) -> tuple[int, bool, list[Step]]:
    """Dice in the attack pool, whether 10s reroll, and the steps saying why."""
    steps: list[Step] = []
    dex = effective("Dexterity", dexterity, mega_dexterity, purpose="in the attack pool")
    if dex.step is not None:
        steps.append(dex.step)
    dex_text = f"Dexterity {dex.value}" + (" (effective)" if mega_dexterity else "")
    parts = [dex_text, f"ability {ability}", f"accuracy {weapon.accuracy:+d}"]
    dice = dex.value + ability + weapon.accuracy
    if maneuver.accuracy:
        dice += maneuver.accuracy
        parts.append(f"{maneuver.label} accuracy +{maneuver.accuracy}")
    if specialty and ruleset == "2.1":
        dice += 1
        parts.append("specialty 1")
    raw = dice
    dice = max(0, dice)
    floor = " (a pool cannot go below 0)" if raw < 0 else ""
    steps.append(
        Step(
            f"Attack pool = {' + '.join(parts)} = {dice_text(dice)}{floor} "
            "(attribute + ability + accuracy, rules note RN-RANGED-2)",
            ATTACK_POOL,
        )
    )
    if specialty and ruleset == "2.1":
        steps.append(Step("Specialty (2.1): +1 die", SPECIALTIES_21))
    reroll = False
    if ruleset == "2.1" and mega_dexterity > 0:
        reroll = True
        steps.append(
            Step(
                f"Mega-Dexterity {mega_dexterity} (2.1): the attack rerolls 10s "
                "(rules note RN-RANGED-13)",
                SPECIALTIES_21,
            )
        )
    if ruleset == "2.0" and specialty:
        reroll = True
        steps.append(Step("Specialty (2.0): the attack rerolls 10s", SPECIALTIES_20))
    return dice, reroll, steps


def _difficulty(
    weapon: Weapon,
    base: int,
    range_penalty: int,
    aircraft_penalty: int,
    maneuver: Maneuver,
    target: TargetDefence,
    conditions: int = 0,
) -> tuple[int, list[Step]]:
    steps: list[Step] = []
    parts = [f"base {base}"]
    total = base
    if conditions:
        total += conditions
        parts.append(f"the attacker's conditions {conditions}")
    if maneuver.extra_difficulty:
        total += maneuver.extra_difficulty
        parts.append(f"strafing {maneuver.extra_difficulty}")
    if range_penalty:
        rng = range_penalty
        if weapon.has(Guided):
            rng = max(0, range_penalty - 1)
            steps.append(
                Step(
                    f"Guided: range penalty {range_penalty} − 1 = {rng} (not below 0; "
                    "rules note RN-RANGED-12)",
                    tag_rule(Guided),
                )
            )
        total += rng
        parts.append(f"range {rng}")
    if aircraft_penalty:
        if weapon.has(AA):
            steps.append(
                Step(
                    f"AA: fired at an aircraft without the aircraft penalty "
                    f"(+{aircraft_penalty} ignored; rules note RN-RANGED-6)",
                    tag_rule(AA),
                )
            )
        else:
            total += aircraft_penalty
            parts.append(f"aircraft {aircraft_penalty}")
    if target.ruleset == V21:
        total += target.defense
        parts.append(f"target's Defense {target.defense}")
    each = " against each target" if maneuver.targets > 1 else ""
    steps.append(
        Step(
            f"Difficulty{each} = {' + '.join(parts)} = {total} "
            f"success{'' if total == 1 else 'es'} needed",
            DEFENSES if target.ruleset == V21 else MANEUVERS,
        )
    )
    return total, steps


NO_CONDITIONS = Modifier(difficulty=0, allowed=True, steps=())
"""A roll no condition touches."""


def defence_with_difficulty(
    defence: SuccessDistribution, added: int, reading: str = "spend"
) -> SuccessDistribution:
    """The successes of a defence roll that cancel attack successes, ``added`` difficulty on it.

    :func:`ruleslab.quickref.conditions.defence_successes` (rules note RN-COND-5): ``spend``,
    its first ``added`` successes pay for the difficulty; ``threshold``, it counts
    only with ``1 + added`` successes. The table keeps reaching as far past the
    attack's as before, less the ``added`` successes spent (roll ``added`` more).
    """
    if not added:
        return defence
    pmf = defence_successes(defence.pmf, added, reading)
    if reading == "spend":  # the last ``added`` entries are now empty
        pmf = pmf[: max(1, len(pmf) - added)]
    return SuccessDistribution(Dist.from_pmf(0, pmf), defence.tail_bound, defence.p_botch)


EXTRA_SUCCESS_READINGS = (
    "Each extra attack success adds",
    (("die", "+1 damage die"), ("add", "+1 damage add"), ("none", "Nothing")),
)
"""What "+1" per extra success is without Devastating (rules note RN-RANGED-3): the
reading's label and its choices, as the forms that offer it word them."""


def per_extra_success(weapon: Weapon, extra_successes: str = "die") -> tuple[int, int, Step]:
    """The damage dice and adds each extra attack success gives ``weapon``, with the step
    saying so: "Devastating (X): The weapon deals (X) additional damage per net attack
    success after the first instead of just +1" (rules notes RN-RANGED-1, RN-RANGED-3:
    without the tag, ``extra_successes`` reads the "+1": a ``die``, an ``add`` or ``none``).
    """
    dev = weapon.tag(Devastating)
    if dev is not None:
        per = f"{dev}: +{dev.x} damage dice" + (f" and +{dev.adds} adds" if dev.adds else "")
        text = f"{per} per extra success instead of +1 (rules note RN-RANGED-1)"
        return dev.x, dev.adds, Step(text, tag_rule(Devastating))
    per_dice, per_adds = {"die": (1, 0), "add": (0, 1), "none": (0, 0)}[extra_successes]
    what = {"die": "+1 damage die", "add": "+1 damage add", "none": "no extra damage"}
    text = f"Each extra success gives {what[extra_successes]} (rules note RN-RANGED-3)"
    return per_dice, per_adds, Step(text, tag_rule(Devastating))


@functools.lru_cache(maxsize=4096)
def _taken(
    dice: int, adds: int, kind: str, natural: int, armour: int, ap: int
) -> tuple[Dist, bool, str]:
    t = damage_taken(
        dice=dice,
        adds=adds,
        kind=kind,
        natural_soak=natural,
        armour_soak=armour,
        armour_piercing=ap,
    )
    return t.lost, t.pinged, t.kind_dealt


# --- the result ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class AttackResult(Explained):
    """One ranged attack against one or more identical targets, resolved exactly.

    ``p_hit`` is the chance the attack hits one target (after its dodge);
    ``p_any_hit`` the chance it hits at least one of ``targets`` (one attack roll,
    each target dodging on its own). ``damage_dice`` lists ``(dice, adds, P)``:
    the chance of a hit with that damage, before soak; ``expected_dice`` is the
    mean damage dice *given a hit* (None if it cannot hit). ``levels[k]`` is
    ``P(k health levels lost)`` per target, misses included; ``p_ping`` the
    chance of a hit that fails to penetrate soak (a ping of the lower type).
    ``target`` is what each target sets against the attack (its 2.1 Defense is
    in ``difficulty``; its defence roll in ``p_hit``).
    ``unresolved`` is the exact probability left out of every table (attack
    successes beyond the rerolled-10s table, or damage beyond 500 dice); each
    reported probability is exact up to it. ``damage_unresolved`` is the part of
    it that is hits with more damage than :func:`~ruleslab.quickref.damage.damage_taken`
    resolves: the damage figures are then lower bounds and say so ("≥").
    """

    weapon: Weapon
    pool: int
    reroll_tens: bool
    difficulty: int
    targets: int
    target: TargetDefence
    p_hit: Fraction
    p_any_hit: Fraction
    damage_dice: tuple[tuple[int, int, Fraction], ...]
    expected_dice: Fraction | None
    levels: tuple[Fraction, ...]
    expected_levels: Fraction
    p_wound: Fraction
    p_ping: Fraction
    kind_dealt: str
    unresolved: Fraction = Fraction(0)
    damage_unresolved: Fraction = Fraction(0)

    def figures(self) -> tuple[Figure, ...]:
        # hits too big to resolve against soak make the damage figures lower bounds
        at_least = "≥ " if self.damage_unresolved else ""
        exp = "—" if self.expected_dice is None else fmt_num(self.expected_dice, "dice")
        exp = at_least + exp if self.expected_dice is not None else exp
        diff = str(self.difficulty)
        if self.target.ruleset == V21:
            diff += f" (target's Defense +{self.target.defense} included)"
        return (
            Figure("pool", "Attack pool", self.pool, dice_text(self.pool)),
            Figure("difficulty", "Difficulty", self.difficulty, diff),
            Figure("target_defence", "Target's defence", self.target, self.target.summary),
            Figure("p_hit", "Chance to hit (per target)", self.p_hit, fmt_prob(self.p_hit)),
            Figure(
                "expected_dice",
                "Expected damage dice on a hit (before soak)",
                self.expected_dice,
                exp,
            ),
            Figure(
                "expected_levels",
                "Expected health levels lost (per target)",
                self.expected_levels,
                at_least + fmt_num(self.expected_levels, "levels"),
            ),
            Figure(
                "p_wound",
                "Chance of at least 1 health level (per target)",
                self.p_wound,
                fmt_prob_at_least(self.p_wound, bool(self.damage_unresolved)),
            ),
            Figure(
                "p_any_hit",
                f"Chance to hit at least one of {self.targets} target"
                + ("s" if self.targets > 1 else ""),
                self.p_any_hit,
                fmt_prob(self.p_any_hit),
            ),
        )


# --- the attack ---------------------------------------------------------------------


def resolve_attack(
    *,
    weapon: Weapon,
    dexterity: int,
    mega_dexterity: int = 0,
    ability: int,
    specialty: bool = False,
    ruleset: str = "2.1",
    base_difficulty: int = 1,
    range_penalty: int = 0,
    aircraft_penalty: int = 0,
    dodge_pool: int = 0,
    dodge_reroll_tens: bool = False,
    natural_soak: int = 2,
    armour_soak: int = 0,
    extra_successes: str = "die",
    net_from: str = "difficulty",
    maneuver: Maneuver | None = None,
    target: TargetDefence | None = None,
    conditions: Modifier = NO_CONDITIONS,
    defence_conditions: Modifier = NO_CONDITIONS,
    defence_difficulty: str = "spend",
) -> AttackResult:
    """Resolve a ranged attack with ``weapon`` exactly, honouring its tags.

    Guided: "Ignores first dodge success, reduces range penalty difficulties by
    1." AA: "can be fired at aircraft without any difficulty penalties" (the
    ``aircraft_penalty`` is dropped). AP(X): "Armor Piercing attacks only
    decrease power or armored soak". Devastating (X [Y]): "(X) additional damage
    per net attack success after the first instead of just +1". Area, Scale and
    Fast-Tracking are reported in the steps but change nothing: the text gives
    no numbers for them (rules notes RN-RANGED-8, RN-COND-6: Scale and
    Fast-Tracking say so in one step, :data:`ruleslab.quickref.conditions.SCALE_NOTE`).
    ``maneuver`` adds autofire's bonuses and strafing's targets and difficulty (see
    :mod:`ruleslab.quickref.autofire`).

    ``target`` is what each target sets against the attack, of the same
    ``ruleset``: :func:`ruleslab.quickref.defence.dodge.target_dodge` (2.0) or
    :func:`ruleslab.quickref.defence.dodge.target_defense` (2.1 Defense, active defence, power
    block). Without it a 2.0 target dodges with ``dodge_pool`` dice and a 2.1
    target has Defense 0 and no defensive action; ``dodge_pool`` under 2.1 (which
    has no dodge pool) or beside ``target`` raises :class:`ValueError`.

    ``conditions``: what the attacker's conditions do to the attack roll
    (:func:`ruleslab.quickref.conditions.on_roll`): their difficulty is added, and an attack
    they forbid (a sprinter's) has no chance (rules note RN-COND-2).
    ``defence_conditions``: what the target's conditions do to its defence roll:
    their difficulty is read by ``defence_difficulty`` (:func:`defence_with_difficulty`).
    """
    man = maneuver or Maneuver()
    target = attack_target(ruleset, target, dodge_pool, dodge_reroll_tens)
    steps: list[Step] = [
        Step(
            f"Weapon: accuracy {weapon.accuracy:+d}, damage {weapon.damage_text}, "
            f"tags {format_tags(weapon.tags)}",
            WEAPON_TAGS,
        )
    ]
    steps.extend(man.steps)
    dice, reroll, pool_steps = _pool(
        weapon, dexterity, mega_dexterity, ability, specialty, ruleset, man
    )
    steps.extend(pool_steps)
    steps.extend(conditions.steps)
    dice = max(0, dice - conditions.dice)  # his wound penalty (rules note RN-COND-7)
    wounded = bool(target.dice) and (defence_conditions.dice > 0 or not defence_conditions.allowed)
    if wounded:  # dice off the defence roll, or none (Incapacitated): RN-COND-7
        left = max(0, target.dice - defence_conditions.dice) if defence_conditions.allowed else 0
        target = replace(target, dice=left)
    steps.extend(target.steps)
    difficulty, diff_steps = _difficulty(
        weapon, base_difficulty, range_penalty, aircraft_penalty, man, target, conditions.difficulty
    )
    steps.extend(diff_steps)

    attack = pool_distribution(dice if conditions.allowed else 0, 0, 7, reroll, upto=difficulty)
    guided = weapon.has(Guided) and target.dice > 0
    ignore = guided and target.guided_ignores_first
    added = defence_conditions.difficulty if target.dice else 0
    defence = defence_with_difficulty(
        pool_distribution(target.dice, 0, 7, target.reroll_tens, upto=attack.highest + 2 + added),
        added,
        defence_difficulty,
    )
    if added or wounded:
        steps.extend(defence_conditions.steps)
    if added:
        how = {
            "spend": f"its first {added} success{'' if added == 1 else 'es'} pay for it, the "
            "rest cancel attack successes",
            "threshold": f"it cancels attack successes only with at least {1 + added} "
            "successes, and then every one counts",
        }[defence_difficulty]
        text = f"The target's {target.roll} is at +{added} difficulty: {how} (rules note RN-COND-5)"
        steps.append(Step(text, DEFENSES if target.ruleset == V21 else DEFENSIVE))
    if ignore:
        text = f"Guided: the first {target.roll} success is ignored (rules note RN-RANGED-12)"
        steps.append(Step(text, tag_rule(Guided)))
    elif guided:
        text = (
            f"Guided ignores the first dodge success; a {target.roll} is not a dodge, so "
            "every one of its successes counts (rules note RN-RANGED-15)"
        )
        steps.append(Step(text, tag_rule(Guided)))

    base = difficulty if net_from == "difficulty" else 1
    res = net_successes(attack, defence, ignore, difficulty, base, man.targets)
    how = dice_text(dice) + (", 10s rerolled" if reroll else "")
    how += "" if conditions.allowed else "; he may not attack this turn: no chance"
    minus = f" − {target.roll} successes" if target.dice else ""
    steps.append(
        Step(
            f"Hit when attack successes{minus} ≥ {difficulty}: "
            f"P(hit) = {fmt_prob(res.p_hit)} ({how}) (rules note RN-RANGED-2)",
            DEFENSIVE if target.ruleset != V21 else DEFENSES,
        )
    )

    # damage per extra success
    per_dice, per_adds, per_step = per_extra_success(weapon, extra_successes)
    steps.append(per_step)
    if net_from == "difficulty":
        counted = f"net successes beyond the difficulty {difficulty}"
    else:
        counted = "net successes after the first"
    steps.append(
        Step(f"Extra successes = {counted} (rules note RN-RANGED-4)", tag_rule(Devastating))
    )

    base_dice = weapon.damage_dice + man.damage_dice
    base_adds = weapon.damage_adds + man.damage_adds
    if man.damage_dice or man.damage_adds:
        bonus = f"+{man.damage_dice} dice" if man.damage_dice else f"+[{man.damage_adds}] adds"
        steps.append(
            Step(
                f"Damage on a hit = weapon {weapon.damage_dice} [{weapon.damage_adds}] "
                f"{bonus} ({man.label}) = {base_dice} [{base_adds}] before extra successes",
                rule(QR, "Ranged Attack Maneuvers", "Autofire"),
            )
        )
    by_damage: dict[tuple[int, int], Fraction] = {}
    too_big = Fraction(0)
    for e, p in res.hits.items():
        d, a = base_dice + per_dice * e, base_adds + per_adds * e
        if d > MAX_DAMAGE_DICE or a > MAX_DAMAGE_ADDS:
            too_big += p
            continue
        by_damage[(d, a)] = by_damage.get((d, a), Fraction(0)) + p
    resolved_hit = res.p_hit - too_big
    expected = None
    if resolved_hit > 0:
        expected = sum((d * p for (d, _), p in by_damage.items()), Fraction(0)) / resolved_hit
        steps.append(
            Step(
                f"Expected damage dice on a hit = {fmt_num(expected, 'dice')} (before soak)",
                tag_rule(Devastating),
            )
        )

    # soak, via ruleslab.quickref.damage
    ap = weapon.armour_piercing
    kind = weapon.damage_type
    parts: list[tuple[Fraction, Dist]] = [(res.p_miss, constant(0))]
    p_ping = Fraction(0)
    ping_kind = ""
    # a hit with dice left after soak loses Binomial(dice left, 4/10) + adds levels
    # (damage_taken): those are mixed per number of adds by binomial_mixture, without a
    # table per hit (the same levels; a squad's support attack has hundreds of them)
    rolled: dict[int, dict[int, Fraction]] = {}
    soak = natural_soak + armour_after_ap(armour_soak, ap)
    for i, ((d, a), p) in enumerate(sorted(by_damage.items())):
        if i and d > soak:  # the first one checks the soak (damage_taken's messages)
            by_left = rolled.setdefault(a, {})
            by_left[d - soak] = by_left.get(d - soak, Fraction(0)) + p
            continue
        lv, pinged, dealt = _taken(d, a, kind, natural_soak, armour_soak, ap)
        parts.append((p, lv))
        if pinged:
            p_ping += p
            ping_kind = dealt
    for a, by_left in sorted(rolled.items()):
        if 8 * len(by_left) >= max(by_left):  # many counts of dice: one Horner pass for all
            # a damage die succeeds on 7-10 (damage_taken's target 7): 4 faces of 10
            parts.append((Fraction(1), binomial_mixture(by_left, 4, 6).shift(a)))
        else:  # a few (Devastating's adds make one group per hit): a table each is cheaper
            parts.extend(
                (p, _taken(n + soak, a, kind, natural_soak, armour_soak, ap)[0])
                for n, p in sorted(by_left.items())
            )
    levels = mixture(parts)
    if ap:
        after = max(0, armour_soak - ap)
        steps.append(
            Step(
                f"AP({ap}): armour soak {armour_soak} − {ap} = {after} (not below 0); natural soak "
                f"{natural_soak} unchanged (rules note RN-RANGED-7)",
                ARMOR_PIERCING,
            )
        )
        soak_total = natural_soak + after
    else:
        soak_total = natural_soak + armour_soak
    steps.append(
        Step(
            f"Soak {soak_total} (natural {natural_soak} + armour "
            f"{soak_total - natural_soak}) is subtracted from the damage dice, not the adds; "
            "adds count only if a die is left; otherwise 1 die of ping damage one type lower",
            COMBAT_SOAK,
        )
    )
    if p_ping:
        steps.append(
            Step(
                f"P(a hit fails to penetrate and pings for {ping_kind}) = {fmt_prob(p_ping)}",
                PING,
            )
        )
    expected_levels = levels.mean()
    p_wound = levels.at_least(1)
    steps.append(
        Step(
            f"Per target: expected {fmt_num(expected_levels, 'health levels')}, "
            f"P(at least 1 level) = {fmt_prob(p_wound)} (misses count as 0)",
            COMBAT_SOAK,
        )
    )

    # tags the texts give no number for (Area: against a squad,
    # ruleslab.alterations.henchmen.area_vulnerability)
    if (area := weapon.tag(Area)) is not None:
        meaning = (
            f"area-of-effect ordnance with rating {area.x}; the texts give an area rule only "
            "against henchman squads (Area Vulnerability: post-soak damage × 2 to × 4, applied "
            "when the target is a squad, rules note RN-RANGED-18), none against a character's "
            "health levels, so the rating itself changes no figure"
        )
        steps.append(Step(f"{area}: {meaning} (rules note RN-RANGED-8)", tag_rule(Area)))
    scaled = tuple(t for t in weapon.tags if isinstance(t, Scale | FastTracking))
    if scaled:  # said once, in ruleslab.quickref.conditions (rules note RN-COND-6)
        steps.append(Step(f"{format_tags(scaled)}: {SCALE_NOTE}", tag_rule(type(scaled[0]))))

    if man.targets > 1:
        if target.ruleset == V21:
            own = f"has its own Defense (+{target.defense}, the targets being alike)"
            own += f" and rolls its own {target.roll}" if target.dice else ""
        else:
            own = "dodges on its own"
        steps.append(
            Step(
                f"Strafing: one attack roll “applies the results against all targets”; each of "
                f"the {man.targets} targets {own}, so P(at least one hit) = "
                f"{fmt_prob(res.p_any_hit)} (rules notes RN-RANGED-5, RN-RANGED-14)",
                rule(QR, "Ranged Attack Maneuvers", "Strafing"),
            )
        )
    if target.defense_next is not None:
        each = "each target" if man.targets > 1 else "the target"
        steps.append(
            Step(
                f"This attack is one attack against {each} (a burst is “a single attack”): "
                f"the next attack against it faces Defense {target.defense_next}"
                + (" before any power block" if target.roll == "power block" else "")
                + " (rules note RN-RANGED-14)",
                DEFENSES,
            )
        )
    unresolved = res.unresolved + too_big
    if res.unresolved:
        steps.append(
            Step(
                f"Attack successes beyond {attack.highest} (rerolled 10s) have exact "
                f"probability {float(res.unresolved):.3g} (< 10⁻¹²), left out of every figure",
                rule("Dice pool", "Rerolling 10s"),
            )
        )
    if too_big:
        steps.append(
            Step(
                f"Hits with more than {MAX_DAMAGE_DICE} damage dice or {MAX_DAMAGE_ADDS} adds "
                f"have probability {float(too_big):.3g}; they are left out of the damage "
                "figures, which are then lower bounds (shown “≥”)",
                COMBAT_SOAK,
            )
        )

    return AttackResult(
        weapon=weapon,
        pool=dice,
        reroll_tens=reroll,
        difficulty=difficulty,
        targets=man.targets,
        target=target,
        p_hit=res.p_hit,
        p_any_hit=res.p_any_hit,
        damage_dice=tuple((d, a, p) for (d, a), p in sorted(by_damage.items())),
        expected_dice=expected,
        levels=levels.table(),
        expected_levels=expected_levels,
        p_wound=p_wound,
        p_ping=p_ping,
        kind_dealt=kind,
        unresolved=unresolved,
        damage_unresolved=too_big,
        steps=tuple(steps),
    )
