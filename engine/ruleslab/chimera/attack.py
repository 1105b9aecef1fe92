"""Attacks: the combatants, the Target Number to hit and the odds of one blow.

Chimera combat › Combat:

    Attacks are made with a Fight or Shoot roll against a Target Number equal to
    your foe's adjusted Movement Rate … If the attack succeeds, the defender is
    hit, and the attacker rolls the weapon's damage die (2 dice if the attack is
    a Critical Success).

    The base Target Number to hit a defender is his adjusted Movement Rate.
    In this case, adjusted MR means the base MR modified by Encumbrance,
    terrain, Wound or Fatigue Penalty, and the effects of slow or haste powers.
    Use this value even when the target is running or creeping.

    • Crouch: … you gain +1 cover bonus vs. Shoot and Blast attacks.
    • Prone: … gain a +2 cover bonus vs. Shoot and Blast attacks. While prone,
      you may move at your creeping MR or Shoot. Getting up is a free action, but
      costs your Encumbrance in MR.

    Parrying uses a shield or melee weapon to block or deflect blows; any parry
    bonus is added to the attacker's Target Number. … cover bonuses are also
    added to the attacker's Target Number, based on target exposure:
    Light (+1), Medium (+2), Heavy (+4).

    Add the Cover bonus (and shield bonus, at the GM's option) to your
    Resistance Roll vs. blast attacks (double the bonus for thick, strong, or
    reinforced barriers).

    Parry and Cover are optional; if you don't want to use them, apply any Parry
    or Cover bonus noted in the rules to the combatant's Defence (DF).

A combatant's ``mr`` is his base MR; his ``encumbrance`` and ``mr_modifier``
(terrain, Fatigue, slow/haste) and the Wound Penalty of his ``wounds`` are taken
off here (never below 0, rules note RN-CHIM-5). A Blast attack is resolved by the
defender's Resistance Roll (:mod:`ruleslab.chimera.blast`, RN-CHIM-7).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.action import ActionOdds, action_odds, critical_text
from ruleslab.chimera.cover import COVER_BONUS, POSITION_BONUS, blast_resistance_bonus
from ruleslab.chimera.fighter import (
    ATTACK_KINDS,
    CHARACTERS,
    FATE_CHOICES,
    PARRY_FROM,
    PLANS,
    Fighter,
)
from ruleslab.chimera.sections import ATTACK_TN, COMBAT
from ruleslab.chimera.wounds import Severity, severity_odds
from ruleslab.explain import Step, fmt_num, fmt_prob

__all__ = [
    "ATTACK_KINDS",
    "CHARACTERS",
    "CHOICES",
    "COVER_BONUS",
    "FATE_CHOICES",
    "PARRY_FROM",
    "PLANS",
    "POSITION_BONUS",
    "READINGS",
    "READING_LABELS",
    "READING_NOTES",
    "AttackOdds",
    "FightRules",
    "Fighter",
    "attack_odds",
    "blast_resistance_bonus",
    "defence_against",
    "mr_text",
    "roll_modifier",
    "whole_number",
]

CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "action_die": (
        ("d20", "d20 (Chimera's Action Roll)"),
        ("2d10", "2d10 (house rule)"),
        ("3d6", "3d6 (house rule)"),
    ),
    "critical": (
        ("natural", "A natural 20 (always succeeds)"),
        ("natural_hit", "A natural 20 that also meets the TN"),
        ("margin10", "Beating the TN by 10 or more"),
        ("margin5", "Beating the TN by 5 or more"),
        ("none", "No Critical Successes"),
    ),
    "critical_damage": (
        ("sum", "Roll two dice and add them"),
        ("best", "Roll two dice, keep the higher"),
    ),
    "ties": (
        ("reroll", "Roll again until one is higher"),
        ("simultaneous", "Both act at once (both blows land)"),
    ),
    "parry_cover": (("tn", "Added to the attacker's TN"), ("defence", "Folded into Defence (DF)")),
    "parry_applies": (("all", "Fight and Shoot attacks"), ("fight", "Fight attacks only")),
    "cover_stacking": (("add", "Add together"), ("best", "Only the better one")),
    "surprise_critical": (
        ("both", "The GM allows both benefits"),
        ("one", "Only the chosen benefit"),
    ),
    "surprise_action": (
        ("extra", "A surprise round: only the sneak acts"),
        ("first", "The sneak simply acts first in round 1"),
    ),
    "casualties": (
        ("allies", "His allies (himself not counted)"),
        ("side", "His whole side (himself counted, standing)"),
    ),
    "blast_roll": (
        ("area", "Without a roll: everyone in its area resists"),
        ("hit", "If the attacker's Shoot roll first beats the adjusted MR"),
    ),
    "blast_resisted": (
        ("avoids", "Avoids it: no damage"),
        ("halves", "Halves its damage (rounded down)"),
    ),
    "blast_shield": (
        ("counts", "The GM lets a shield's bonus count"),
        ("ignored", "Only cover counts"),
    ),
    "coup_de_grace": (
        ("resist", "He may Resist it as a Killer Blow (TN 12)"),
        ("kills", "It kills him: no Resistance Roll"),
    ),
}
"""The readings each field of :class:`FightRules` may take (rules notes RN-CHIM-*), each
with its words as the "Chimera fight" form offers it (the calculator's rules options are
these choices): the Action Roll's die (RN-CHIM-1), the Critical Success (RN-CHIM-2, see
:func:`~ruleslab.chimera.action.is_critical`), critical damage (RN-CHIM-3), initiative
ties (RN-CHIM-9), Parry and Cover to the TN or to Defence (RN-CHIM-6), parry against
which attacks and position with barrier cover (RN-CHIM-4), the surprise action and a
Critical Sneak roll (RN-CHIM-11, RN-CHIM-12), whose casualties count (RN-CHIM-18), how a
blast reaches its target, what resisting it does and whether a shield counts against it
(RN-CHIM-7), whether a classed foe may Resist a coup de grâce (RN-CHIM-23)."""
READING_LABELS: dict[str, str] = {
    "action_die": "Action Roll die",
    "critical": "Critical Success",
    "critical_damage": "Critical damage (“2 dice”)",
    "ties": "Initiative ties",
    "parry_cover": "Parry and Cover",
    "parry_applies": "Parry counts against",
    "cover_stacking": "Position and barrier cover",
    "surprise_action": "Surprise action",
    "casualties": "“More than 50% casualties” of",
    "surprise_critical": "Critical Sneak roll",
    "blast_roll": "A blast reaches its target",
    "blast_resisted": "Resisting a blast",
    "blast_shield": "Shield vs blasts",
    "coup_de_grace": "A coup de grâce on a classed foe",
}
"""What each field of :class:`FightRules` decides, in the words of the forms that offer it
(the "Chimera fight" calculator's rules options, the tracker's readings)."""
READING_NOTES: dict[str, str] = {
    "action_die": "RN-CHIM-1",
    "critical": "RN-CHIM-2",
    "critical_damage": "RN-CHIM-3",
    "ties": "RN-CHIM-9",
    "parry_cover": "RN-CHIM-6",
    "parry_applies": "RN-CHIM-4",
    "cover_stacking": "RN-CHIM-4",
    "surprise_action": "RN-CHIM-11",
    "surprise_critical": "RN-CHIM-12",
    "casualties": "RN-CHIM-18",
    "blast_roll": "RN-CHIM-7",
    "blast_resisted": "RN-CHIM-7",
    "blast_shield": "RN-CHIM-7",
    "coup_de_grace": "RN-CHIM-23",
}
"""The rules note that gives each field's readings and the reasons for its default."""
READINGS = {field: tuple(key for key, _ in choices) for field, choices in CHOICES.items()}
"""Each field's readings, by key (:data:`CHOICES` without the words)."""


@dataclass(frozen=True)
class FightRules:
    """The readings chosen where the text is silent or optional (rules notes RN-CHIM-*).

    Each field takes one of its :data:`READINGS`; any other value raises
    :class:`ValueError` naming it and the readings allowed (none is taken for another).
    """

    action_die: str = "d20"
    critical: str = "natural"
    critical_damage: str = "sum"
    ties: str = "reroll"
    parry_cover: str = "tn"
    parry_applies: str = "all"
    cover_stacking: str = "add"
    surprise_critical: str = "both"
    surprise_action: str = "extra"
    casualties: str = "allies"
    blast_roll: str = "area"
    blast_resisted: str = "avoids"
    blast_shield: str = "counts"
    coup_de_grace: str = "resist"

    def __post_init__(self) -> None:
        for field, allowed in READINGS.items():
            value = getattr(self, field)
            if not isinstance(value, str) or value not in allowed:
                raise ValueError(
                    f"FightRules.{field} must be one of {', '.join(allowed)}, not {value!r}"
                )


def whole_number(owner: str, field: str, value: object, minimum: int | None = None) -> int:
    """``value`` if it is a whole number (at least ``minimum``), else :class:`ValueError`
    naming ``owner``'s ``field``, the value and what is allowed."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{owner}{field} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{owner}{field} must be a whole number from {minimum} up, not {value!r}")
    return value


def mr_text(f: Fighter, wounds: int) -> str:
    """His adjusted MR worked out in words: "MR 10 − Encumbrance 1 − WP 2 = 7 (not below 0)"
    without the "= …" (the caller adds it)."""
    text = f"MR {f.mr}"
    if f.encumbrance:
        text += f" − Encumbrance {f.encumbrance}"
    if f.mr_modifier:
        text += f" {'+' if f.mr_modifier > 0 else '−'} {abs(f.mr_modifier)}"
    text += f.penalty_text(wounds)
    raw = f.mr - f.encumbrance + f.mr_modifier - wounds - f.bound_penalty
    if f.adjusted_mr(wounds) != raw:
        text += " (not below 0)"
    return text


def _defensive_bonuses(
    defender: Fighter, attack_kind: str, rules: FightRules
) -> tuple[int, int, list[str]]:
    """(parry bonus, cover bonus, text parts) that apply against this attack."""
    parts: list[str] = []
    parry = defender.parry if (rules.parry_applies == "all" or attack_kind == "fight") else 0
    if parry:
        parts.append(f"parry +{parry}")
    position = defender.position_after
    pos = POSITION_BONUS[position] if attack_kind == "shoot" else 0
    cov = COVER_BONUS[defender.cover]
    if rules.cover_stacking == "best" and pos and cov:
        cover = max(pos, cov)
        parts.append(
            f"cover +{cover} (the better of {position} +{pos}, {defender.cover} cover +{cov})"
        )
    else:
        cover = pos + cov
        if pos:
            parts.append(f"{position} +{pos}")
        if cov:
            parts.append(f"{defender.cover} cover +{cov}")
    return parry, cover, parts


def defence_against(
    defender: Fighter, attack_kind: str, wounds: int, rules: FightRules
) -> tuple[int, int, Step, Step]:
    """(TN, Defence) against one Fight or Shoot attack, and the two steps that explain them."""
    adjusted = defender.adjusted_mr(wounds)
    parry, cover, parts = _defensive_bonuses(defender, attack_kind, rules)
    mr = mr_text(defender, wounds)
    if rules.parry_cover == "tn":
        tn, df = adjusted + parry + cover, defender.defence
        extra = "".join(f" + {p}" for p in parts)
        tn_step = Step(f"TN to hit {defender.name} = {mr}{extra} = {tn}", ATTACK_TN)
        df_step = Step(f"{defender.name}'s Defence = {df}", ATTACK_TN)
    else:
        tn, df = adjusted, defender.defence + parry + cover
        tn_step = Step(
            f"TN to hit {defender.name} = adjusted {mr} = {tn} (Parry and Cover go to "
            "Defence, rules note RN-CHIM-6)",
            ATTACK_TN,
        )
        extra = "".join(f" + {p}" for p in parts)
        df_step = Step(
            f"{defender.name}'s Defence = DF {defender.defence}{extra} = {df}", ATTACK_TN
        )
    return tn, df, tn_step, df_step


@dataclass(frozen=True)
class AttackOdds:
    """One blow of ``attacker`` on ``defender`` at the given wounds: TN, roll and severity.

    ``p_hit``: the blow reaches him (a Fight or Shoot roll that succeeds; for a blast,
    one that catches him: RN-CHIM-7), ``p_critical`` a Critical Success (only from the
    attacker's own roll). ``tn`` and ``modifier`` are those of the attacker's roll
    (``None`` for a blast that needs no roll); ``resist`` the defender's Resistance
    Roll against a blast (``None`` for other attacks). ``steps`` are built when asked.
    """

    attacker: str
    defender: str
    kind: str
    tn: int | None
    modifier: int | None
    defence: int
    p_hit: Fraction
    p_critical: Fraction
    severity: Severity
    lead: tuple[Step, ...]
    damage_text: str
    resist: ActionOdds | None = None

    @property
    def p_wound(self) -> Fraction:
        return self.severity.p_wound

    @property
    def p_vanquish(self) -> Fraction:
        return self.severity.p_vanquish

    @functools.cached_property
    def steps(self) -> tuple[Step, ...]:
        """The working: the TN, the rolls, Defence, then the wound's odds (its mean
        severity is worked out only here, when the steps are shown)."""
        sev = self.severity
        return (
            *self.lead,
            Step(
                f"{self.damage_text} − Defence {self.defence}: P(a wound) = "
                f"{fmt_prob(sev.p_wound)}, mean severity {fmt_num(sev.mean())}",
                COMBAT,
            ),
        )


@functools.lru_cache(maxsize=8192)
def attack_odds(
    attacker: Fighter,
    defender: Fighter,
    attacker_wounds: int,
    defender_wounds: int,
    rules: FightRules,
    ar_bonus: int = 0,
) -> AttackOdds:
    """Exact odds of one Fight/Shoot attack and its wound, at these wound counts.

    Roll = die + attack bonus − attacker's WP + AR adjustment, against TN = the
    defender's adjusted MR (+ parry and cover, unless folded into Defence).
    Severity = damage − Defence; vanquished when wounds or one wound's severity
    exceed the Wound Limit. A Blast attack is resolved otherwise (the defender resists):
    :func:`ruleslab.chimera.blast.blow_odds` takes every kind of attack, and this function
    refuses a blast with :class:`ValueError`.
    """
    if attacker.kind == "blast":
        raise ValueError(
            f"{attacker.name} attacks with a blast: its odds are "
            "ruleslab.chimera.blast.blow_odds (the defender resists it)"
        )
    tn, df, tn_step, df_step = defence_against(defender, attacker.kind, defender_wounds, rules)
    modifier, mod_parts = roll_modifier(attacker, attacker_wounds, ar_bonus)
    action = action_odds(modifier, tn, rules.action_die, rules.critical)
    sev = severity_odds(
        action.p_success,
        action.p_critical,
        attacker.dice,
        df,
        defender.wound_limit,
        defender_wounds,
        rules.critical_damage,
    )
    return AttackOdds(
        attacker=attacker.name,
        defender=defender.name,
        kind=attacker.kind,
        tn=tn,
        modifier=modifier,
        defence=df,
        p_hit=action.p_success,
        p_critical=action.p_critical,
        severity=sev,
        lead=(
            tn_step,
            Step(
                f"{attacker.name} rolls {rules.action_die} {modifier:+d} ({mod_parts}) against "
                f"TN {tn}: needs a natural {tn - modifier} or more; "
                f"P(hit) = {fmt_prob(action.p_success)}, P(Critical Success) = "
                f"{fmt_prob(action.p_critical)} "
                f"({critical_text(rules.critical, rules.action_die)})",
                COMBAT,
            ),
            df_step,
        ),
        damage_text=(
            f"Damage {attacker.dice} ({attacker.dice.doubled_text(rules.critical_damage)} "
            "on a Critical Success)"
        ),
    )


def roll_modifier(attacker: Fighter, wounds: int, ar_bonus: int) -> tuple[int, str]:
    """The attacker's roll modifier (bonus − WP − 4 if bound + AR) and its parts in words."""
    modifier = attacker.attack - wounds - attacker.bound_penalty + ar_bonus
    parts = f"{attacker.verb} {attacker.attack:+d}{attacker.penalty_text(wounds)}"
    if ar_bonus:
        parts += f" + AR {ar_bonus:+d}"
    return modifier, parts
