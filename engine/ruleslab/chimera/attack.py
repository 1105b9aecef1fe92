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

A combatant's ``mr`` is his MR already adjusted for Encumbrance, terrain,
Fatigue and slow/haste; the Wound Penalty from his ``wounds`` is taken off here
(never below 0, rules note RN-CHIM-5).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.action import ACTION_DICE, ActionOdds, action_odds, critical_text
from ruleslab.chimera.dice import DamageDice, check_dice
from ruleslab.chimera.wounds import CAPTURE_PENALTY, COMBAT, Severity, severity_odds
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.sources import CHIMERA, rule

__all__ = [
    "ATTACK_KINDS",
    "ATTACK_TN",
    "CHARACTERS",
    "COVER_BONUS",
    "POSITION_BONUS",
    "READINGS",
    "AttackOdds",
    "FightRules",
    "Fighter",
    "attack_odds",
    "blast_resistance_bonus",
    "defence_against",
    "whole_number",
]

ATTACK_TN = rule(CHIMERA, "Combat", "Attack Target Numbers")
ACTION_ROLL = rule(CHIMERA, "Combat")

COVER_BONUS: dict[str, int] = {"none": 0, "light": 1, "medium": 2, "heavy": 4}
"""Light covers ¼ (+1), medium ½ (+2), heavy ¾ (+4) of the target."""

POSITION_BONUS: dict[str, int] = {"standing": 0, "crouching": 1, "prone": 2}
"""Cover bonus of a position, vs. Shoot and Blast attacks only."""

ATTACK_KINDS = ("fight", "shoot")
"""A Fight (melee) or Shoot (ranged) attack."""

CHARACTERS = ("pc", "classed", "npc")
"""A player character, a classed non-player character, an unclassed one."""


READINGS: dict[str, tuple[str, ...]] = {
    "action_die": tuple(ACTION_DICE),
    "critical": ("natural", "natural_hit", "margin10", "margin5", "none"),
    "critical_damage": ("sum", "best"),
    "ties": ("reroll", "simultaneous"),
    "parry_cover": ("tn", "defence"),
    "parry_applies": ("all", "fight"),
    "cover_stacking": ("add", "best"),
    "surprise_critical": ("both", "one"),
    "surprise_action": ("extra", "first"),
    "casualties": ("allies", "side"),
}
"""The readings each field of :class:`FightRules` may take (rules notes RN-CHIM-*): the
Action Roll's die (RN-CHIM-1), the Critical Success (RN-CHIM-2, see
:func:`~ruleslab.chimera.action.is_critical`), critical damage (RN-CHIM-3), initiative
ties (RN-CHIM-9), Parry and Cover to the TN or to Defence (RN-CHIM-6), parry against
which attacks and position with barrier cover (RN-CHIM-4), the surprise action and a
Critical Sneak roll (RN-CHIM-11, RN-CHIM-12), whose casualties count (RN-CHIM-18)."""


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


@dataclass(frozen=True)
class Fighter:
    """One combatant, as the calculator's per-side fields give him.

    ``mr``: Movement Rate already adjusted for Encumbrance, terrain, Fatigue and
    slow/haste (not for wounds: ``wounds`` is separate). ``attack``: the Fight or
    Shoot bonus; ``kind``: ``"fight"`` or ``"shoot"``. ``initiative``: the chosen
    action's Initiative Modifier. ``position``: standing, crouching or prone.
    ``cover``: none, light, medium or heavy. ``character``: ``"pc"`` (classed,
    never checks morale), ``"classed"`` (a classed NPC) or ``"npc"``. ``resist``
    is the Resistance Roll bonus (morale, Killer Blow, Fatigue).

    ``bound``: captured ("impose a penalty of –4 to all rolls and MR while
    bound"): −4 to every roll he makes and to his MR (:attr:`bound_penalty`,
    rules note RN-CHIM-15). ``cool_down``: whether he spends the 10-minute
    cool-down after the fight (else a Resistance Roll against ``fatigue_tn``,
    RN-CHIM-16). ``level``: his level (a foe he drives off stays away that many
    turns). ``leader_fell``, ``allies`` and ``allies_down``: the morale triggers
    "his leader falls" and "his allies suffer more than 50% casualties"
    (RN-CHIM-18), checked before the duel's first round.

    :class:`ValueError` names what is wrong: an unknown ``kind``, ``position``,
    ``cover`` or ``character``; a number that is not a whole number; negative
    ``wounds`` or ``wound_limit``; ``damage`` that is not a :class:`DamageDice`. (That
    ``wounds`` is at most ``wound_limit`` is checked by the fight itself:
    :func:`~ruleslab.chimera.duel.check_wounds`.)
    """

    name: str
    mr: int
    defence: int
    wound_limit: int
    damage: DamageDice
    attack: int
    wounds: int = 0
    initiative: int = 0
    kind: str = "fight"
    position: str = "standing"
    parry: int = 0
    cover: str = "none"
    character: str = "npc"
    morale_tn: int = 10
    resist: int = 0
    bound: bool = False
    cool_down: bool = True
    fatigue_tn: int = 10
    level: int = 1
    leader_fell: bool = False
    allies: int = 0
    allies_down: int = 0

    def __post_init__(self) -> None:
        for field, allowed in (
            ("kind", ATTACK_KINDS),
            ("position", tuple(POSITION_BONUS)),
            ("cover", tuple(COVER_BONUS)),
            ("character", CHARACTERS),
        ):
            value = getattr(self, field)
            if value not in allowed:
                raise ValueError(
                    f"{self.name}'s {field} must be one of {', '.join(allowed)}, not {value!r}"
                )
        owner = f"{self.name}'s "
        for field in ("mr", "defence", "attack", "initiative", "parry", "morale_tn", "resist"):
            whole_number(owner, field, getattr(self, field))
        for field in ("wound_limit", "wounds", "allies", "allies_down", "fatigue_tn"):
            whole_number(owner, field, getattr(self, field), minimum=0)
        whole_number(owner, "level", self.level, minimum=1)
        for field in ("bound", "cool_down", "leader_fell"):
            if not isinstance(getattr(self, field), bool):
                raise ValueError(
                    f"{owner}{field} must be True or False, not {getattr(self, field)!r}"
                )
        if self.allies_down > self.allies:
            raise ValueError(
                f"{owner}allies_down ({self.allies_down}) must be at most his allies "
                f"({self.allies})"
            )
        if not isinstance(self.damage, DamageDice):
            raise ValueError(
                f"{owner}damage must be a DamageDice (e.g. parse_dice('d8')), not {self.damage!r}"
            )
        try:
            check_dice(self.damage)
        except ValueError as exc:
            raise ValueError(f"{owner}damage {self.damage}: {exc}") from None

    @property
    def classed(self) -> bool:
        return self.character in ("pc", "classed")

    @property
    def checks_morale(self) -> bool:
        """'Player characters do not need to check morale.'"""
        return self.character != "pc"

    @property
    def bound_penalty(self) -> int:
        """What being bound takes off every roll and the MR: 4 (Capture), else 0."""
        return -CAPTURE_PENALTY if self.bound else 0

    @property
    def verb(self) -> str:
        return "Shoot" if self.kind == "shoot" else "Fight"


def _defensive_bonuses(
    defender: Fighter, attack_kind: str, rules: FightRules
) -> tuple[int, int, list[str]]:
    """(parry bonus, cover bonus, text parts) that apply against this attack."""
    parts: list[str] = []
    parry = defender.parry if (rules.parry_applies == "all" or attack_kind == "fight") else 0
    if parry:
        parts.append(f"parry +{parry}")
    pos = POSITION_BONUS[defender.position] if attack_kind == "shoot" else 0
    cov = COVER_BONUS[defender.cover]
    if rules.cover_stacking == "best" and pos and cov:
        cover = max(pos, cov)
        parts.append(
            f"cover +{cover} (the better of {defender.position} +{pos}, "
            f"{defender.cover} cover +{cov})"
        )
    else:
        cover = pos + cov
        if pos:
            parts.append(f"{defender.position} +{pos}")
        if cov:
            parts.append(f"{defender.cover} cover +{cov}")
    return parry, cover, parts


def defence_against(
    defender: Fighter, attack_kind: str, wounds: int, rules: FightRules
) -> tuple[int, int, Step, Step]:
    """(TN, Defence) against one attack, and the two steps that explain them."""
    bound = defender.bound_penalty
    adjusted = max(0, defender.mr - wounds - bound)
    parry, cover, parts = _defensive_bonuses(defender, attack_kind, rules)
    mr_text = f"MR {defender.mr}" + (f" − WP {wounds}" if wounds else "")
    if bound:
        mr_text += f" − {bound} bound (Capture)"
    if adjusted != defender.mr - wounds - bound:
        mr_text += " (not below 0)"
    if rules.parry_cover == "tn":
        tn, df = adjusted + parry + cover, defender.defence
        extra = "".join(f" + {p}" for p in parts)
        tn_step = Step(f"TN to hit {defender.name} = {mr_text}{extra} = {tn}", ATTACK_TN)
        df_step = Step(f"{defender.name}'s Defence = {df}", ATTACK_TN)
    else:
        tn, df = adjusted, defender.defence + parry + cover
        tn_step = Step(
            f"TN to hit {defender.name} = adjusted {mr_text} = {tn} (Parry and Cover go to "
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
    """One blow of ``attacker`` on ``defender`` at the given wounds: TN, roll and severity."""

    attacker: str
    defender: str
    tn: int
    modifier: int
    defence: int
    action: ActionOdds
    severity: Severity
    steps: tuple[Step, ...]

    @property
    def p_hit(self) -> Fraction:
        return self.action.p_success

    @property
    def p_critical(self) -> Fraction:
        return self.action.p_critical

    @property
    def p_wound(self) -> Fraction:
        return self.severity.p_wound

    @property
    def p_vanquish(self) -> Fraction:
        return self.severity.p_vanquish


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
    exceed the Wound Limit.
    """
    tn, df, tn_step, df_step = defence_against(defender, attacker.kind, defender_wounds, rules)
    modifier = attacker.attack - attacker_wounds - attacker.bound_penalty + ar_bonus
    action = action_odds(modifier, tn, rules.action_die, rules.critical)
    sev = severity_odds(
        action.p_success,
        action.p_critical,
        attacker.damage,
        df,
        defender.wound_limit,
        defender_wounds,
        rules.critical_damage,
    )
    mod_parts = f"{attacker.verb} {attacker.attack:+d}"
    if attacker_wounds:
        mod_parts += f" − WP {attacker_wounds}"
    if attacker.bound:
        mod_parts += f" − {attacker.bound_penalty} bound (Capture)"
    if ar_bonus:
        mod_parts += f" + AR {ar_bonus:+d}"
    return AttackOdds(
        attacker=attacker.name,
        defender=defender.name,
        tn=tn,
        modifier=modifier,
        defence=df,
        action=action,
        severity=sev,
        steps=(
            tn_step,
            Step(
                f"{attacker.name} rolls {rules.action_die} {modifier:+d} ({mod_parts}) against "
                f"TN {tn}: needs a natural {tn - modifier} or more; "
                f"P(hit) = {fmt_prob(action.p_success)}, P(Critical Success) = "
                f"{fmt_prob(action.p_critical)} "
                f"({critical_text(rules.critical, rules.action_die)})",
                ACTION_ROLL,
            ),
            df_step,
            Step(
                f"Damage {attacker.damage} ({attacker.damage.doubled_text(rules.critical_damage)} "
                f"on a Critical Success) − Defence {df}: P(a wound) = {fmt_prob(sev.p_wound)}, "
                f"mean severity {fmt_num(sev.mean())}",
                COMBAT,
            ),
        ),
    )


def blast_resistance_bonus(
    cover: str = "none",
    position: str = "standing",
    shield: int = 0,
    shield_counts: bool = False,
    reinforced: bool = False,
) -> int:
    """Bonus to the Resistance Roll against a blast attack.

    "Add the Cover bonus (and shield bonus, at the GM's option) to your
    Resistance Roll vs. blast attacks (double the bonus for thick, strong, or
    reinforced barriers)." The position's cover bonus (crouch +1, prone +2) is
    a cover bonus "vs. Shoot and Blast attacks" and counts too; only the
    barrier's bonus doubles (rules note RN-CHIM-7).
    """
    barrier = COVER_BONUS[cover] * (2 if reinforced else 1)
    return barrier + POSITION_BONUS[position] + (shield if shield_counts else 0)
