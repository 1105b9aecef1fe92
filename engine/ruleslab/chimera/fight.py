"""The "Chimera fight" calculator: two combatants, one blow each way, and the duel.

Everything comes from Chimera combat › Combat (``shared/rules/chimera-combat.txt``):
the Target Number is the defender's adjusted Movement Rate plus parry and cover;
a hit rolls the weapon's damage die (two on a Critical Success); severity is
damage minus Defence; each wound is −1 to all rolls and Movement Rate; a
combatant is vanquished when his wounds or one wound's severity exceed his Wound
Limit; non-player characters check morale when their Wound Penalty reaches half
their Wound Limit. The Action Roll and the Critical Success are not restated by
the text: rules notes RN-CHIM-1 and RN-CHIM-2 (``docs/rules-notes/chimera.md``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslab.chimera.action import ACTION_DIE, CRITICAL, critical_text
from ruleslab.chimera.aftermath import AFTERMATH, COOL_DOWN_MINUTES
from ruleslab.chimera.attack import AttackOdds, Fighter, FightRules, attack_odds
from ruleslab.chimera.dice import DamageDice, parse_dice
from ruleslab.chimera.duel import DuelOdds, SurprisePlan, duel_odds, play
from ruleslab.chimera.initiative import INITIATIVE, TIES, initiative_order
from ruleslab.chimera.morale import MORALE, p_morale_fails
from ruleslab.chimera.surprise import (
    SURPRISE,
    SURPRISE_ACTION,
    SURPRISE_CRITICAL,
    SurpriseOdds,
    surprise_odds,
)
from ruleslab.chimera.wounds import COMBAT, FATES, VANQUISHING, killer_blow_resist
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.params import ChoiceParam, InputError, IntParam, Param, TextParam, checked
from ruleslab.sources import CHIMERA, rule

__all__ = [
    "DiceParam",
    "FightReport",
    "chimera_fight",
    "fight_chart",
    "play_fight",
    "play_round",
]

ACTION_ROLL = rule(CHIMERA, "Combat")
MAX_WOUND_LIMIT = 10
PLAY_FIGHT_ROUNDS = 100
""""Play the fight" stops after this many rounds (the log says so)."""


@dataclass(frozen=True, kw_only=True)
class DiceParam(TextParam):
    """A dice-expression field (``d8``, ``2d6``, ``d6+1``).

    Also accepts an already parsed :class:`DamageDice`, so Python callers may pass
    one (the form passes text; see ``CalculatorView.parse``).
    """

    def check(self, value: Any) -> Any:
        if isinstance(value, DamageDice):
            return value
        return super().check(value)


def _damage_parser(text: str, param: TextParam) -> DamageDice:
    try:
        return parse_dice(text)
    except ValueError as exc:
        raise InputError(param.name, f"{param.label}: {exc}.") from None


def _side_params(
    s: str,
    *,
    mr: int,
    defence: int,
    wound_limit: int,
    damage: str,
    attack: int,
    character: str,
    resist: int,
) -> tuple[Param, ...]:
    """The per-side fields ``<s>_mr``, ``<s>_defence`` … of combatant ``s`` ("A" or "B")."""
    return (
        IntParam(
            f"{s}_mr",
            f"{s}: Movement Rate (MR)",
            default=mr,
            minimum=0,
            maximum=40,
            help=(
                f"{s}'s MR adjusted for Encumbrance, terrain, Fatigue and slow/haste (the Wound "
                "Penalty is taken off here). It is the base TN to hit him."
            ),
        ),
        IntParam(
            f"{s}_defence",
            f"{s}: Defence (DF)",
            default=defence,
            minimum=0,
            maximum=20,
            help="Subtracted from each damage roll against him: severity = damage − DF.",
        ),
        IntParam(
            f"{s}_wound_limit",
            f"{s}: Wound Limit (WL)",
            default=wound_limit,
            minimum=0,
            maximum=MAX_WOUND_LIMIT,
            help="Vanquished when the number of wounds, or one wound's severity, exceeds it.",
        ),
        IntParam(
            f"{s}_wounds",
            f"{s}: Wounds so far",
            default=0,
            minimum=0,
            maximum=MAX_WOUND_LIMIT,
            help="Wounds already suffered (each is −1 to all rolls and MR); at most the WL.",
        ),
        DiceParam(
            f"{s}_damage",
            f"{s}: Weapon damage",
            default=damage,
            parser=_damage_parser,
            example="d8, 2d6 or d6+1",
            max_length=40,
            help="The weapon's damage die (rolled twice on a Critical Success).",
        ),
        IntParam(
            f"{s}_attack",
            f"{s}: Attack bonus",
            default=attack,
            minimum=-10,
            maximum=20,
            help="Skill or attribute bonus added to the Fight or Shoot roll.",
        ),
        IntParam(
            f"{s}_initiative",
            f"{s}: Initiative Modifier (IM)",
            default=0,
            minimum=-10,
            maximum=10,
            help="The chosen action's Initiative Modifier, added to the 1d12 Initiative roll.",
        ),
        ChoiceParam(
            f"{s}_kind",
            f"{s}: Attacks with",
            default="fight",
            choices=(("fight", "Fight (melee)"), ("shoot", "Shoot (ranged)")),
            help="Crouching and prone cover bonuses count only against Shoot attacks.",
        ),
        ChoiceParam(
            f"{s}_position",
            f"{s}: Position",
            default="standing",
            choices=(
                ("standing", "Standing"),
                ("crouching", "Crouching (+1 vs Shoot)"),
                ("prone", "Prone (+2 vs Shoot; may only Shoot)"),
            ),
            help="A cover bonus against Shoot attacks. A prone combatant may move or Shoot only.",
        ),
        IntParam(
            f"{s}_parry",
            f"{s}: Parry bonus",
            default=0,
            minimum=0,
            maximum=10,
            help="A shield's or melee weapon's parry bonus, added to the attacker's TN.",
        ),
        ChoiceParam(
            f"{s}_cover",
            f"{s}: Cover",
            default="none",
            choices=(
                ("none", "None"),
                ("light", "Light: ¼ covered (+1)"),
                ("medium", "Medium: ½ covered (+2)"),
                ("heavy", "Heavy: ¾ covered (+4)"),
            ),
            help="A barrier's cover bonus, added to the attacker's TN.",
        ),
        ChoiceParam(
            f"{s}_character",
            f"{s}: Character",
            default=character,
            choices=(
                ("pc", "Player character (classed; never checks morale)"),
                ("classed", "Classed NPC"),
                ("npc", "Unclassed NPC"),
            ),
            help=("NPCs check morale; classed characters may Resist a Killer Blow against TN 12."),
        ),
        IntParam(
            f"{s}_morale_tn",
            f"{s}: Morale TN",
            default=10,
            minimum=1,
            maximum=40,
            help="The Resistance Roll an NPC must meet to stay in the fight.",
        ),
        IntParam(
            f"{s}_resist",
            f"{s}: Resistance bonus",
            default=resist,
            minimum=-10,
            maximum=20,
            help="Added to Resistance Rolls (morale, Killer Blow).",
        ),
    )


A_PARAMS = _side_params(
    "A", mr=10, defence=1, wound_limit=3, damage="d8", attack=3, character="pc", resist=2
)
B_PARAMS = _side_params(
    "B", mr=12, defence=1, wound_limit=2, damage="d6", attack=2, character="npc", resist=0
)

SURPRISE_WHO = ChoiceParam(
    "surprise",
    "Surprise",
    default="none",
    choices=(
        ("none", "No one tries"),
        ("A", "A tries to surprise B"),
        ("B", "B tries to surprise A"),
    ),
    help="A Sneak roll against the foe's Surprise TN before the fight.",
)
SNEAK = IntParam(
    "sneak",
    "Sneak bonus",
    default=2,
    minimum=-10,
    maximum=20,
    help="The surpriser's Sneak bonus, added to the Sneak roll.",
)
SURPRISE_TN = IntParam(
    "surprise_tn",
    "Foe's Surprise TN",
    default=12,
    minimum=1,
    maximum=40,
    help="The Target Number of the Sneak roll.",
)
SURPRISE_BENEFIT = ChoiceParam(
    "surprise_benefit",
    "On a successful Sneak",
    default="action",
    choices=(
        ("action", "A full action before the foe can respond"),
        ("bonus", "AR +2 on the first round"),
    ),
    help="The surpriser chooses one benefit (both on a Critical Success, at the GM's option).",
)
CRITICAL_DAMAGE = ChoiceParam(
    "critical_damage",
    "Critical damage (“2 dice”)",
    default="sum",
    choices=(("sum", "Roll two dice and add them"), ("best", "Roll two dice, keep the higher")),
    help="On a Critical Success the attacker rolls 2 damage dice. See rules note RN-CHIM-3.",
)
PARRY_COVER = ChoiceParam(
    "parry_cover",
    "Parry and Cover",
    default="tn",
    choices=(("tn", "Added to the attacker's TN"), ("defence", "Folded into Defence (DF)")),
    help=(
        "'Parry and Cover are optional; if you don't want to use them, apply any Parry or "
        "Cover bonus … to the combatant's Defence.' See rules note RN-CHIM-6."
    ),
)
PARRY_APPLIES = ChoiceParam(
    "parry_applies",
    "Parry counts against",
    default="all",
    choices=(("all", "Fight and Shoot attacks"), ("fight", "Fight attacks only")),
    help="The text does not limit parrying to melee. See rules note RN-CHIM-4.",
)
COVER_STACKING = ChoiceParam(
    "cover_stacking",
    "Position and barrier cover",
    default="add",
    choices=(("add", "Add together"), ("best", "Only the better one")),
    help="A crouching or prone combatant behind a barrier. See rules note RN-CHIM-4.",
)

OPTIONS = (
    "action_die",
    "critical",
    "critical_damage",
    "ties",
    "parry_cover",
    "parry_applies",
    "cover_stacking",
    "surprise_action",
    "surprise_critical",
)
"""The calculator's rules options (readings of the text), by parameter name."""


@dataclass(frozen=True, kw_only=True)
class FightReport(Explained):
    """Result of :func:`chimera_fight`: both combatants, one blow each way, the duel."""

    a: Fighter
    b: Fighter
    rules: FightRules
    surprise: SurprisePlan | None
    surprise_odds: SurpriseOdds | None
    a_on_b: AttackOdds
    b_on_a: AttackOdds
    duel: DuelOdds
    killer_blow: tuple[Fraction | None, Fraction | None]

    def figures(self) -> tuple[Figure, ...]:
        d = self.duel
        figs: list[Figure] = []
        for key, odds in (("a", self.a_on_b), ("b", self.b_on_a)):
            att, dfd = odds.attacker, odds.defender
            figs += [
                Figure(f"{key}_tn", f"TN for {att} to hit {dfd}", odds.tn, str(odds.tn)),
                Figure(f"{key}_p_hit", f"{att} hits {dfd}", odds.p_hit, fmt_prob(odds.p_hit)),
                Figure(
                    f"{key}_p_critical",
                    f"{att} scores a Critical Success",
                    odds.p_critical,
                    fmt_prob(odds.p_critical),
                ),
                Figure(
                    f"{key}_p_wound", f"{att} wounds {dfd}", odds.p_wound, fmt_prob(odds.p_wound)
                ),
                Figure(
                    f"{key}_p_vanquish",
                    f"{att} vanquishes {dfd} with this blow",
                    odds.p_vanquish,
                    fmt_prob(odds.p_vanquish),
                ),
            ]
        p_a, p_b = d.p_win
        neither = d.p_draw + d.p_endless
        rounds = d.expected_rounds
        figs += [
            Figure("p_a_wins", "A wins the duel", p_a, fmt_prob(p_a)),
            Figure("p_b_wins", "B wins the duel", p_b, fmt_prob(p_b)),
            Figure(
                "p_neither",
                "Neither wins (both fall at once, or no one can be hurt)",
                neither,
                fmt_prob(neither),
            ),
            Figure(
                "expected_rounds",
                "Expected length of the duel",
                rounds,
                "endless" if rounds is None else fmt_num(rounds, "rounds"),
            ),
        ]
        so = self.surprise_odds
        p_sur = None if so is None else so.p_success + so.p_critical
        figs.append(
            Figure(
                "p_surprise",
                "Surprise succeeds",
                p_sur,
                "—" if p_sur is None else fmt_prob(p_sur),
            )
        )
        for key, who, p in (("a", "A", self.killer_blow[0]), ("b", "B", self.killer_blow[1])):
            figs.append(
                Figure(
                    f"{key}_killer_blow",
                    f"{who} resists a Killer Blow (if vanquished by the next wound)",
                    p,
                    "not classed" if p is None else fmt_prob(p),
                )
            )
        return tuple(figs)


def fight_chart(odds: AttackOdds) -> tuple[tuple[str, float], ...]:
    """Bars of one blow: "Miss", "No wound" (severity ≤ 0), then each severity ≥ 1."""
    sev = odds.severity
    bars = [("Miss", float(sev.p_miss)), ("No wound", float(sev.p_no_wound))]
    bars += [(str(s), float(p)) for s, p in sev.pmf]
    return tuple(bars)


def vanquish_bar(odds: AttackOdds, wound_limit: int, wounds: int) -> int | None:
    """Index of the first bar of :func:`fight_chart` that vanquishes (bars from there on)."""
    sev = odds.severity
    for i, (s, _) in enumerate(sev.pmf):
        if wounds + 1 > wound_limit or s > wound_limit:
            return 2 + i
    return None


def _fighter(s: str, values: dict[str, Any]) -> Fighter:
    """Side ``s``'s fighter from its checked fields (``values``: name without prefix → value)."""
    f = Fighter(
        name=s,
        mr=values["mr"],
        defence=values["defence"],
        wound_limit=values["wound_limit"],
        wounds=values["wounds"],
        damage=values["damage"],
        attack=values["attack"],
        initiative=values["initiative"],
        kind=values["kind"],
        position=values["position"],
        parry=values["parry"],
        cover=values["cover"],
        character=values["character"],
        morale_tn=values["morale_tn"],
        resist=values["resist"],
    )
    if f.wounds > f.wound_limit:
        raise InputError(
            f"{s}_wounds",
            f"{s}: Wounds so far must be a whole number from 0 to the Wound Limit "
            f"({f.wound_limit}); more wounds would already have vanquished {s}.",
        )
    if f.position == "prone" and f.kind == "fight":
        raise InputError(
            f"{s}_position",
            f"{s}: a prone combatant may only move or Shoot (Chimera combat); choose Shoot "
            "or another position.",
        )
    return f


def _blow_steps(odds: AttackOdds, defender: Fighter) -> list[Step]:
    steps = list(odds.steps)
    wl, w = defender.wound_limit, defender.wounds
    if w + 1 > wl:
        why = f"any wound is his wound {w + 1} > WL {wl}"
    else:
        why = f"only a severity above WL {wl} (wound {w + 1} ≤ WL)"
    steps.append(
        Step(
            f"{defender.name} has {w} wound{'s' if w != 1 else ''}: {why} vanquishes him; "
            f"P(vanquished by this blow) = {fmt_prob(odds.p_vanquish)}",
            VANQUISHING,
        )
    )
    return steps


@checked(
    *A_PARAMS,
    *B_PARAMS,
    SURPRISE_WHO,
    SNEAK,
    SURPRISE_TN,
    SURPRISE_BENEFIT,
    ACTION_DIE,
    CRITICAL,
    CRITICAL_DAMAGE,
    TIES,
    PARRY_COVER,
    PARRY_APPLIES,
    COVER_STACKING,
    SURPRISE_ACTION,
    SURPRISE_CRITICAL,
)
def chimera_fight(
    A_mr: int = 10,
    A_defence: int = 1,
    A_wound_limit: int = 3,
    A_wounds: int = 0,
    A_damage: str = "d8",
    A_attack: int = 3,
    A_initiative: int = 0,
    A_kind: str = "fight",
    A_position: str = "standing",
    A_parry: int = 0,
    A_cover: str = "none",
    A_character: str = "pc",
    A_morale_tn: int = 10,
    A_resist: int = 2,
    B_mr: int = 12,
    B_defence: int = 1,
    B_wound_limit: int = 2,
    B_wounds: int = 0,
    B_damage: str = "d6",
    B_attack: int = 2,
    B_initiative: int = 0,
    B_kind: str = "fight",
    B_position: str = "standing",
    B_parry: int = 0,
    B_cover: str = "none",
    B_character: str = "npc",
    B_morale_tn: int = 10,
    B_resist: int = 0,
    surprise: str = "none",
    sneak: int = 2,
    surprise_tn: int = 12,
    surprise_benefit: str = "action",
    action_die: str = "d20",
    critical: str = "natural",
    critical_damage: str = "sum",
    ties: str = "reroll",
    parry_cover: str = "tn",
    parry_applies: str = "all",
    cover_stacking: str = "add",
    surprise_action: str = "extra",
    surprise_critical: str = "both",
) -> FightReport:
    """Two Chimera combatants: the odds of one blow each way and of the whole duel.

    "Attacks are made with a Fight or Shoot roll against a Target Number equal to
    your foe's adjusted Movement Rate … If the attack succeeds, the defender is
    hit, and the attacker rolls the weapon's damage die (2 dice if the attack is
    a Critical Success)." "When hit, a defender suffers a wound of severity equal
    to the damage roll minus his Defence". "If the total number of wounds, or the
    severity of a single wound, exceeds the defender's Wound Limit, he's
    vanquished". The duel repeats rounds of "1d12 for Initiative" until one side
    is vanquished or fails morale (see :mod:`ruleslab.chimera.duel`).
    """
    loc = locals()
    a = _fighter("A", {k[2:]: v for k, v in loc.items() if k.startswith("A_")})
    b = _fighter("B", {k[2:]: v for k, v in loc.items() if k.startswith("B_")})
    rules = FightRules(
        action_die=action_die,
        critical=critical,
        critical_damage=critical_damage,
        ties=ties,
        parry_cover=parry_cover,
        parry_applies=parry_applies,
        cover_stacking=cover_stacking,
        surprise_critical=surprise_critical,
        surprise_action=surprise_action,
    )
    steps: list[Step] = [
        Step(
            f"Action Roll: {action_die} + modifiers, succeeding when it meets or beats the TN "
            f"(rules note RN-CHIM-1); a Critical Success is {critical_text(critical, action_die)} "
            "(RN-CHIM-2); each wound is −1 to every roll and to MR",
            ACTION_ROLL,
        )
    ]
    a_on_b = attack_odds(a, b, a.wounds, b.wounds, rules)
    b_on_a = attack_odds(b, a, b.wounds, a.wounds, rules)
    steps += _blow_steps(a_on_b, b)
    steps += _blow_steps(b_on_a, a)

    p0, tie, p1 = initiative_order(a.initiative, a.wounds, b.initiative, b.wounds)
    tie_text = (
        "ties are rolled again"
        if ties == "reroll"
        else "on a tie both act at once, on the wounds before the round"
    )
    steps.append(
        Step(
            f"Each round: 1d12 {a.initiative - a.wounds:+d} (A) against 1d12 "
            f"{b.initiative - b.wounds:+d} (B), IM and WP included: A higher {fmt_prob(p0)}, "
            f"tie {fmt_prob(tie)}, B higher {fmt_prob(p1)}; {tie_text} (RN-CHIM-9); the first "
            "to act may vanquish the other before he acts",
            INITIATIVE,
        )
    )
    for f in (a, b):
        if not f.checks_morale:
            steps.append(Step(f"{f.name} is a player character: never checks morale", MORALE))
            continue
        at = -(-f.wound_limit // 2)  # ⌈WL/2⌉
        if f.wound_limit == 0 or at <= f.wounds:
            steps.append(
                Step(
                    f"{f.name}: no morale check from wounds in this duel (WL {f.wound_limit}, "
                    f"{f.wounds} wounds so far; RN-CHIM-10)",
                    MORALE,
                )
            )
            continue
        fail = p_morale_fails(f.resist, at, f.morale_tn, action_die, critical)
        steps.append(
            Step(
                f"{f.name} checks morale at wound {at} (WP {at} ≥ half of WL {f.wound_limit}): "
                f"{action_die} {f.resist - at:+d} vs Morale TN {f.morale_tn} fails "
                f"{fmt_prob(fail)}: surrender or retreat ends the duel (RN-CHIM-10)",
                MORALE,
            )
        )

    plan: SurprisePlan | None = None
    s_odds: SurpriseOdds | None = None
    if surprise != "none":
        side = 0 if surprise == "A" else 1
        plan = SurprisePlan(side=side, sneak=sneak, tn=surprise_tn, benefit=surprise_benefit)
        s_odds = surprise_odds(sneak, surprise_tn, action_die, critical)
        who, foe = ("A", "B") if side == 0 else ("B", "A")
        benefit = (
            "a full action before the foe can respond"
            + (
                " (a surprise round, RN-CHIM-11)"
                if surprise_action == "extra"
                else " (acts first in round 1, RN-CHIM-11)"
            )
            if surprise_benefit == "action"
            else "AR +2 on the first round"
        )
        crit = "both benefits" if surprise_critical == "both" else "the chosen benefit only"
        steps.append(
            Step(
                f"{who} sneaks: {action_die} {sneak:+d} vs {foe}'s Surprise TN {surprise_tn}: "
                f"fails {fmt_prob(s_odds.p_fail)}, succeeds {fmt_prob(s_odds.p_success)} "
                f"({benefit}), Critical Success {fmt_prob(s_odds.p_critical)} ({crit}, "
                "RN-CHIM-12)",
                SURPRISE,
            )
        )

    duel = duel_odds(a, b, rules, plan)
    pa, pb = duel.p_win
    steps.append(
        Step(
            f"Duel, solved exactly over {duel.states} (A wounds, B wounds) states: "
            f"A wins {fmt_prob(pa)} (of which B's morale fails {fmt_prob(duel.p_morale[0])}), "
            f"B wins {fmt_prob(pb)} (of which A's morale fails {fmt_prob(duel.p_morale[1])})"
            + (f", both fall at once {fmt_prob(duel.p_draw)}" if duel.p_draw else "")
            + (
                f", nobody can be hurt any more {fmt_prob(duel.p_endless)}"
                if duel.p_endless
                else ""
            ),
            COMBAT,
        )
    )
    if duel.expected_rounds is None:
        steps.append(
            Step(
                "Expected length: endless — with positive probability no one can wound anyone",
                INITIATIVE,
            )
        )
    else:
        secs = duel.expected_rounds * 10
        steps.append(
            Step(
                f"Expected length: {fmt_num(duel.expected_rounds)} rounds of 10 seconds "
                f"(≈ {fmt_num(secs)} s)"
                + (" (a surprise round counts)" if plan and surprise_action == "extra" else ""),
                INITIATIVE,
            )
        )

    kb: list[Fraction | None] = []
    for f in (a, b):
        if f.classed:
            p = killer_blow_resist(f.resist, f.wounds + 1, action_die, critical)
            kb.append(p)
            steps.append(
                Step(
                    f"{f.name} is classed: Resists a Killer Blow with {action_die} "
                    f"{f.resist - f.wounds - 1:+d} vs TN 12 (WP {f.wounds + 1}) = {fmt_prob(p)}; "
                    "success leaves him Unconscious with a random permanent Flaw",
                    VANQUISHING,
                )
            )
        else:
            kb.append(None)
    steps.append(Step("The victor chooses: " + "; ".join(FATES.values()), VANQUISHING))
    shooters = [f.name for f in (a, b) if f.kind == "shoot"]
    steps.append(
        Step(
            f"After the fight: a 1-turn ({COOL_DOWN_MINUTES}-minute) cool-down, or an immediate "
            "Resistance Roll against Fatigue"
            + (f"; Ammo Check for {' and '.join(shooters)}" if shooters else ""),
            AFTERMATH,
        )
    )
    return FightReport(
        a=a,
        b=b,
        rules=rules,
        surprise=plan,
        surprise_odds=s_odds,
        a_on_b=a_on_b,
        b_on_a=b_on_a,
        duel=duel,
        killer_blow=(kb[0], kb[1]),
        steps=tuple(steps),
    )


def _lines(report: FightReport, seed: int, rounds: int) -> tuple[str, ...]:
    lines: list[str] = []
    end, played = play(
        report.a,
        report.b,
        report.rules,
        random.Random(seed),
        surprise=report.surprise,
        max_rounds=rounds,
        say=lines.append,
    )
    verdict = {
        "v0": "A vanquishes B: A chooses B's fate",
        "v1": "B vanquishes A: B chooses A's fate",
        "m0": "B fails morale and surrenders or retreats: A wins",
        "m1": "A fails morale and surrenders or retreats: B wins",
        "draw": "Both fall at once",
        None: (
            f"Both still standing after {played} round{'s' if played != 1 else ''}"
            + (" (the log stops here)" if rounds > 1 else "")
        ),
    }[end]
    lines.append(verdict)
    return tuple(lines)


def play_round(report: FightReport, seed: int) -> tuple[str, ...]:
    """The "Play a round" button: the Sneak roll if any, then round 1, rolled with ``seed``."""
    return _lines(report, seed, 1)


def play_fight(report: FightReport, seed: int) -> tuple[str, ...]:
    """The "Play the fight" button: rounds until the duel ends (at most 100)."""
    return _lines(report, seed, PLAY_FIGHT_ROUNDS)
