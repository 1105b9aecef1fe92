"""Blast attacks: the defender's Resistance Roll, with his cover (and shield) added to it.

Chimera combat › Combat:

    • Crouch: … you gain +1 cover bonus vs. Shoot and Blast attacks.
    • Prone: … gain a +2 cover bonus vs. Shoot and Blast attacks.

    Add the Cover bonus (and shield bonus, at the GM's option) to your
    Resistance Roll vs. blast attacks (double the bonus for thick, strong, or
    reinforced barriers).

The text names blast attacks and the defender's Resistance Roll against them but
not what the roll is made against nor what succeeding does. Reading (rules note
RN-CHIM-7): a blast catches everyone in its area without a roll to hit; each
defender makes a Resistance Roll (his Resistance bonus − his Wound Penalty, − 4
if bound, + the blast bonus: his cover, doubled behind a reinforced barrier, his
crouching or prone bonus, and his shield's bonus if the GM lets it count) against
the blast's TN, which the attacker's weapon or power gives (the calculator's
"Blast TN"); success avoids the blast, failure takes the damage die (no Critical
Success: the attacker rolls nothing). The other readings are rules options:
``blast_roll == "hit"`` (the attacker first makes a Shoot roll against the
defender's adjusted MR, which may be a Critical Success: 2 dice) and
``blast_resisted == "halves"`` (success halves the damage, rounded down, instead
of avoiding it); ``blast_shield`` is the GM's option on the shield.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ruleslab.chimera.action import action_odds, critical_text
from ruleslab.chimera.attack import (
    AttackOdds,
    Fighter,
    FightRules,
    attack_odds,
    mr_text,
    roll_modifier,
)
from ruleslab.chimera.cover import COVER_BONUS, POSITION_BONUS, blast_resistance_bonus
from ruleslab.chimera.sections import ATTACK_TN, COMBAT
from ruleslab.chimera.wounds import halved, severity_of
from ruleslab.explain import Step, fmt_prob

__all__ = ["blast_bonus", "blast_defence", "blow_odds", "halved"]
# ``halved`` is the damage halving of :mod:`ruleslab.chimera.wounds`, re-exported here


def blast_bonus(defender: Fighter, rules: FightRules) -> tuple[int, str]:
    """The bonus ``defender`` adds to his Resistance Roll vs. a blast, and its parts in words.

    His barrier's cover (doubled if thick, strong or reinforced), his position's cover
    bonus (crouching +1, prone +2: "vs. Shoot and Blast attacks"), and his shield's
    parry bonus when the GM lets it count (``rules.blast_shield``); the option
    ``cover_stacking == "best"`` keeps the better of barrier and position (RN-CHIM-4).
    """
    reinforced = defender.barrier == "reinforced"
    shield = defender.parry if defender.parry_from == "shield" else 0
    counts = rules.blast_shield == "counts"
    position = defender.position_after
    total = blast_resistance_bonus(
        defender.cover, position, shield, counts, reinforced, rules.cover_stacking
    )
    parts = []
    barrier = COVER_BONUS[defender.cover] * (2 if reinforced else 1)
    pos = POSITION_BONUS[position]
    if barrier:
        doubled = f" (×2, reinforced: {COVER_BONUS[defender.cover]} × 2)" if reinforced else ""
        parts.append(f"{defender.cover} cover +{barrier}{doubled}")
    if pos:
        parts.append(f"{position} +{pos}")
    if rules.cover_stacking == "best" and barrier and pos:
        parts = [f"the better of {' and '.join(parts)}: +{max(barrier, pos)}"]
    if shield:
        parts.append(
            f"shield +{shield}" if counts else f"shield +{shield} not counted (the GM's option)"
        )
    return total, ", ".join(parts)


def blast_defence(defender: Fighter, rules: FightRules) -> int:
    """``defender``'s Defence against a blast's damage: his DF, + his blast bonus when the
    fight puts Parry and Cover in the Defence (``parry_cover == "defence"``, RN-CHIM-6)."""
    return defender.defence + (0 if rules.parry_cover == "tn" else blast_bonus(defender, rules)[0])


@functools.lru_cache(maxsize=8192)
def blow_odds(
    attacker: Fighter,
    defender: Fighter,
    attacker_wounds: int,
    defender_wounds: int,
    rules: FightRules,
    ar_bonus: int = 0,
) -> AttackOdds:
    """Exact odds of one blow of any kind on ``defender`` and its wound: a Fight or Shoot
    attack is :func:`~ruleslab.chimera.attack.attack_odds`'s; a blast is resolved here
    (rules note RN-CHIM-7).

    P(a blast reaches him) is 1 (``blast_roll == "area"``) or his attacker's Shoot roll
    against his adjusted MR (``"hit"``: parry and cover do not add to that TN; the cover
    goes to the Resistance Roll). He then resists: ``die + resist − WP (− 4 bound) + blast
    bonus`` against the attacker's Blast TN (with ``parry_cover == "defence"`` the blast
    bonus goes to his Defence instead, RN-CHIM-6). Failing takes the damage (2 dice on
    the attacker's Critical Success); succeeding avoids it, or halves it (rounded down)
    with ``blast_resisted == "halves"``.
    """
    if attacker.kind != "blast":
        return attack_odds(attacker, defender, attacker_wounds, defender_wounds, rules, ar_bonus)
    steps: list[Step] = []
    if rules.blast_roll == "hit":
        tn: int | None = defender.adjusted_mr(defender_wounds)
        modifier, mod_parts = roll_modifier(attacker, attacker_wounds, ar_bonus)
        action = action_odds(modifier, tn, rules.action_die, rules.critical)
        p_reach, p_crit = action.p_success, action.p_critical
        steps.append(
            Step(
                f"{attacker.name}'s blast must land: {rules.action_die} {modifier:+d} "
                f"({mod_parts}) against {defender.name}'s adjusted "
                f"{mr_text(defender, defender_wounds)} = TN {tn} (his parry and cover count "
                "in his Resistance Roll instead); "
                f"P(lands) = {fmt_prob(p_reach)}, P(Critical Success) = {fmt_prob(p_crit)} "
                f"({critical_text(rules.critical, rules.action_die)}) (RN-CHIM-7)",
                COMBAT,
            )
        )
    else:
        tn = modifier = None
        p_reach, p_crit = Fraction(1), Fraction(0)
        steps.append(
            Step(
                f"{attacker.name}'s blast catches everyone in its area, {defender.name} "
                "included: no roll to hit, so no Critical Success (RN-CHIM-7)",
                ATTACK_TN,
            )
        )
    bonus, bonus_text = blast_bonus(defender, rules)
    in_roll = rules.parry_cover == "tn"
    res_mod = defender.resist_modifier(defender_wounds) + (bonus if in_roll else 0)
    resist = action_odds(res_mod, attacker.blast_tn, rules.action_die, rules.critical)
    p_res = resist.p_success
    halves = rules.blast_resisted == "halves"
    mod_text = f"Resistance {defender.resist:+d}{defender.penalty_text(defender_wounds)}"
    if bonus_text and in_roll:
        mod_text += f" + {bonus_text}"
    steps.append(
        Step(
            f"{defender.name} resists: {rules.action_die} {res_mod:+d} ({mod_text}) against "
            f"{attacker.name}'s Blast TN {attacker.blast_tn}: succeeds {fmt_prob(p_res)} and "
            + ("halves the damage (rounded down)" if halves else "avoids the blast")
            + "; cover, doubled behind a thick, strong or reinforced barrier, and a shield at "
            "the GM's option add to this roll (RN-CHIM-7)",
            ATTACK_TN,
        )
    )
    df = blast_defence(defender, rules)
    steps.append(
        Step(
            f"{defender.name}'s Defence = DF {defender.defence} + {bonus_text} = {df} (Parry "
            "and Cover go to Defence, RN-CHIM-6)"
            if not in_roll and bonus
            else f"{defender.name}'s Defence = {df}",
            ATTACK_TN,
        )
    )
    dmg, how = attacker.dice, rules.critical_damage
    fails = 1 - p_res
    rolls = [
        ((p_reach - p_crit) * fails, (dmg, "plain", False)),
        (p_crit * fails, (dmg, how, False)),
    ]
    if halves:
        rolls += [
            ((p_reach - p_crit) * p_res, (dmg, "plain", True)),
            (p_crit * p_res, (dmg, how, True)),
        ]
    p_hit = p_reach if halves else p_reach * fails
    sev = severity_of(tuple(rolls), df, defender.wound_limit, defender_wounds)
    damage_text = f"Damage {attacker.dice}"
    if rules.blast_roll == "hit":
        doubled_text = attacker.dice.doubled_text(rules.critical_damage)
        damage_text += f" ({doubled_text} on a Critical Success)"
    if halves:
        damage_text += ", halved (rounded down) if he resists,"
    return AttackOdds(
        attacker=attacker.name,
        defender=defender.name,
        kind="blast",
        tn=tn,
        modifier=modifier,
        defence=df,
        p_hit=p_hit,
        p_critical=p_crit if halves else p_crit * fails,
        severity=sev,
        lead=tuple(steps),
        damage_text=damage_text,
        resist=resist,
    )
