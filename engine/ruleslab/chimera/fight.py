"""A Chimera fight: two combatants, one blow each way at their current wounds, and the duel.

Everything comes from Chimera combat › Combat (``shared/rules/chimera-combat.txt``):
the Target Number is the defender's adjusted Movement Rate plus parry and cover;
a hit rolls the weapon's damage die (two on a Critical Success); severity is
damage minus Defence; each wound is −1 to all rolls and Movement Rate; a
combatant is vanquished when his wounds or one wound's severity exceed his Wound
Limit; non-player characters check morale when their Wound Penalty reaches half
their Wound Limit. The Action Roll and the Critical Success are not restated by
the text: rules notes RN-CHIM-1 and RN-CHIM-2 (``docs/rules-notes/chimera.md``).

:func:`fight_odds` takes the two combatants (:class:`~ruleslab.chimera.attack.Fighter`),
the readings of the text (:class:`~ruleslab.chimera.attack.FightRules`) and who
tries to surprise whom (:class:`~ruleslab.chimera.duel.SurprisePlan`), and
combines the rules of the other modules of :mod:`ruleslab.chimera` into
:class:`FightOdds` with its working; :func:`play_log` plays the same fight
with seeded dice. The "Chimera fight" calculator (``ruleslab.calculators.chimera``)
builds the combatants from its form.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.action import critical_text
from ruleslab.chimera.actions import action_steps, distance_step, first_turn_steps
from ruleslab.chimera.aftermath import (
    aftermath_steps,
    chosen_fate_steps,
    fate_steps,
    p_dies,
    p_fatigue_fails_after,
)
from ruleslab.chimera.attack import AttackOdds, Fighter, FightRules
from ruleslab.chimera.blast import blow_odds
from ruleslab.chimera.duel import (
    DEFAULT_RULES,
    DuelOdds,
    SurprisePlan,
    check_wounds,
    duel_odds,
)
from ruleslab.chimera.initiative import initiative_order
from ruleslab.chimera.morale import p_morale_fails, side_morale_trigger
from ruleslab.chimera.movement import Movement, movement
from ruleslab.chimera.play import fate_roll, play
from ruleslab.chimera.sections import COMBAT, COMBAT_ACTIONS, VANQUISHING
from ruleslab.chimera.surprise import SurpriseOdds, surprise_odds
from ruleslab.chimera.wounds import FATES, killer_blow_resist
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.pmf import Dist

__all__ = [
    "FightOdds",
    "fight_chart",
    "fight_odds",
    "play_log",
    "vanquish_bar",
]


@dataclass(frozen=True, kw_only=True)
class FightOdds(Explained):
    """A fight worked out: both combatants, one blow each way, the duel; figures and steps.

    ``a_on_b`` and ``b_on_a`` are one blow each way at the combatants' current
    wounds; ``duel`` the whole duel (after the Sneak roll of ``surprise``, whose
    odds are ``surprise_odds``); ``killer_blow`` each side's chance to Resist a
    Killer Blow if the next wound vanquishes him (``None`` for an unclassed
    character); ``fatigue`` each side's chance to fail the Resistance Roll
    against Fatigue when he wins and skips the cool-down (``None`` if he spends
    it or cannot win); ``moves`` how far each walks, runs and creeps in a round at
    his current wounds; ``distance`` between them at the start; ``dead`` the chance
    each ends the fight dead by the other's chosen fate (``None`` when the other's
    choice is not given).
    """

    a: Fighter
    b: Fighter
    rules: FightRules
    surprise: SurprisePlan | None
    surprise_odds: SurpriseOdds | None
    a_on_b: AttackOdds
    b_on_a: AttackOdds
    duel: DuelOdds
    killer_blow: tuple[Fraction | None, Fraction | None]
    fatigue: tuple[Fraction | None, Fraction | None] = (None, None)
    moves: tuple[Movement, Movement] | None = None
    distance: int = 0
    dead: tuple[Fraction | None, Fraction | None] = (None, None)

    def figures(self) -> tuple[Figure, ...]:
        d = self.duel
        figs: list[Figure] = []
        for key, blow in (("a", self.a_on_b), ("b", self.b_on_a)):
            att, dfd = blow.attacker, blow.defender
            figs += [
                Figure(
                    f"{key}_tn",
                    f"TN for {att} to hit {dfd}",
                    blow.tn,
                    str(blow.tn) if blow.tn is not None else _no_tn(blow),
                ),
                Figure(
                    f"{key}_p_hit",
                    f"{att} hits {dfd}"
                    + (" (his blast harms him)" if blow.kind == "blast" else ""),
                    blow.p_hit,
                    fmt_prob(blow.p_hit),
                ),
                Figure(
                    f"{key}_p_critical",
                    f"{att} scores a Critical Success",
                    blow.p_critical,
                    fmt_prob(blow.p_critical),
                ),
                Figure(
                    f"{key}_p_wound", f"{att} wounds {dfd}", blow.p_wound, fmt_prob(blow.p_wound)
                ),
                Figure(
                    f"{key}_p_vanquish",
                    f"{att} vanquishes {dfd} with this blow",
                    blow.p_vanquish,
                    fmt_prob(blow.p_vanquish),
                ),
            ]
        p_a, p_b = d.p_win
        neither = d.p_draw + d.p_endless + d.p_both_break
        rounds = d.expected_rounds
        figs += [
            Figure("p_a_wins", f"{self.a.name} wins the duel", p_a, fmt_prob(p_a)),
            Figure("p_b_wins", f"{self.b.name} wins the duel", p_b, fmt_prob(p_b)),
            Figure(
                "p_neither",
                "Neither wins (both fall at once, both break before it, or no one can be hurt)",
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
        for key, f, p in (("a", self.a, self.killer_blow[0]), ("b", self.b, self.killer_blow[1])):
            figs.append(
                Figure(
                    f"{key}_killer_blow",
                    f"{f.name} resists a Killer Blow (if vanquished by the next wound)",
                    p,
                    "not classed" if p is None else fmt_prob(p),
                )
            )
        for key, f, p in (("a", self.a, self.fatigue[0]), ("b", self.b, self.fatigue[1])):
            figs.append(
                Figure(
                    f"{key}_fatigue_fails",
                    f"{f.name} wins, skips the cool-down and fails the Fatigue roll "
                    f"(of {f.name}'s wins)",
                    p,
                    "cool-down spent"
                    if f.spends_cool_down
                    else ("cannot win" if p is None else fmt_prob(p)),
                )
            )
        if self.moves is not None:
            for key, m in zip(("a", "b"), self.moves, strict=True):
                figs += _movement_figures(key, m)
        for key, f, by, p in (
            ("a", self.a, self.b, self.dead[0]),
            ("b", self.b, self.a, self.dead[1]),
        ):
            figs.append(
                Figure(
                    f"{key}_dead",
                    f"{f.name} ends the fight dead (by {by.name}'s choice of fate)",
                    p,
                    f"{by.name}'s choice not given" if p is None else fmt_prob(p),
                )
            )
        return tuple(figs)


def _no_tn(blow: AttackOdds) -> str:
    """The TN figure of a blast that needs no roll to hit: what the defender resists instead."""
    tn = "" if blow.resist is None else f" {blow.resist.tn}"
    return f"no roll (a blast: {blow.defender} resists against TN{tn})"


def _movement_figures(key: str, m: Movement) -> list[Figure]:
    def span(d: Dist) -> str:
        values = [v for v, _ in d.items()]
        lo, hi = min(values), max(values)
        return (str(lo) if lo == hi else f"{lo} to {hi}") + f" (mean {fmt_num(d.mean())})"

    return [
        Figure(
            f"{key}_mr",
            f"{m.name}'s adjusted MR: the TN's base, and how far he walks (a free action)",
            m.mr,
            str(m.mr),
        ),
        Figure(
            f"{key}_run",
            f"{m.name} runs in a round (MR + d{m.sides}, a full action)",
            m.run.mean(),
            span(m.run),
        ),
        Figure(
            f"{key}_creep",
            f"{m.name} creeps in a round (MR − d{m.sides}, never below 0; a full action)",
            m.creep.mean(),
            span(m.creep),
        ),
    ]


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


def _initiative_step(a: Fighter, b: Fighter, rules: FightRules) -> Step:
    ia, ib = a.initiative - a.bound_penalty, b.initiative - b.bound_penalty
    p0, tie, p1 = initiative_order(ia, a.wounds, ib, b.wounds)
    tie_text = (
        "ties are rolled again"
        if rules.ties == "reroll"
        else "on a tie both act at once, on the wounds before the round"
    )
    return Step(
        f"Each round: 1d12 {ia - a.wounds:+d} ({a.name}) against 1d12 "
        f"{ib - b.wounds:+d} ({b.name}), IM and WP included"
        + (" (and −4 bound)" if a.is_bound or b.is_bound else "")
        + f": {a.name} higher "
        f"{fmt_prob(p0)}, tie {fmt_prob(tie)}, {b.name} higher {fmt_prob(p1)}; {tie_text} "
        "(RN-CHIM-9); the first to act may vanquish the other before he acts",
        COMBAT_ACTIONS,
    )


def _morale_step(f: Fighter, rules: FightRules) -> Step:
    if not f.checks_morale:
        return Step(f"{f.name} is a player character: never checks morale", COMBAT)
    at = -(-f.wound_limit // 2)  # ⌈WL/2⌉
    if f.wound_limit == 0 or at <= f.wounds:
        return Step(
            f"{f.name}: no morale check from wounds in this duel (WL {f.wound_limit}, "
            f"{f.wounds} wounds so far; RN-CHIM-10)",
            COMBAT,
        )
    mod = f.resist - f.bound_penalty
    fail = p_morale_fails(mod, at, f.morale_tn, rules.action_die, rules.critical)
    return Step(
        f"{f.name} checks morale at wound {at} (WP {at} ≥ half of WL {f.wound_limit}): "
        f"{rules.action_die} {mod - at:+d} vs Morale TN {f.morale_tn} fails "
        f"{fmt_prob(fail)}: surrender or retreat ends the duel (RN-CHIM-10)",
        COMBAT,
    )


def _surprise_step(
    sneak: Fighter, foe: Fighter, plan: SurprisePlan, odds: SurpriseOdds, rules: FightRules
) -> Step:
    benefit = (
        "a full action before the foe can respond"
        + (
            " (a surprise round, RN-CHIM-11)"
            if rules.surprise_action == "extra"
            else " (acts first in round 1, RN-CHIM-11)"
        )
        if plan.benefit == "action"
        else "AR +2 on the first round"
    )
    crit = "both benefits" if rules.surprise_critical == "both" else "the chosen benefit only"
    return Step(
        f"{sneak.name} sneaks: {rules.action_die} {plan.sneak:+d} vs {foe.name}'s Surprise TN "
        f"{plan.tn}: fails {fmt_prob(odds.p_fail)}, succeeds {fmt_prob(odds.p_success)} "
        f"({benefit}), Critical Success {fmt_prob(odds.p_critical)} ({crit}, RN-CHIM-12)",
        COMBAT,
    )


def _duel_steps(
    a: Fighter, b: Fighter, duel: DuelOdds, rules: FightRules, surprise: SurprisePlan | None
) -> list[Step]:
    pa, pb = duel.p_win
    steps = [
        Step(
            f"Duel, solved exactly over {duel.states} ({a.name} wounds, {b.name} wounds) "
            "states"
            + (
                f" and {duel.opening} opening situations (first turns, the distance)"
                if duel.opening
                else ""
            )
            + f": {a.name} wins {fmt_prob(pa)} (of which {b.name}'s morale fails "
            f"{fmt_prob(duel.p_morale[0])}), {b.name} wins {fmt_prob(pb)} (of which "
            f"{a.name}'s morale fails {fmt_prob(duel.p_morale[1])})"
            + (f", both fall at once {fmt_prob(duel.p_draw)}" if duel.p_draw else "")
            + (
                f", both break before the first round {fmt_prob(duel.p_both_break)}"
                if duel.p_both_break
                else ""
            )
            + (
                f", nobody can be hurt{' (or reached)' if duel.opening else ''} any more "
                f"{fmt_prob(duel.p_endless)}"
                if duel.p_endless
                else ""
            ),
            COMBAT,
        )
    ]
    if duel.expected_rounds is None:
        steps.append(
            Step(
                "Expected length: endless — with positive probability no one can wound anyone",
                COMBAT_ACTIONS,
            )
        )
    else:
        secs = duel.expected_rounds * 10
        surprise_round = surprise is not None and rules.surprise_action == "extra"
        steps.append(
            Step(
                f"Expected length: {fmt_num(duel.expected_rounds)} rounds of 10 seconds "
                f"(≈ {fmt_num(secs)} s)" + (" (a surprise round counts)" if surprise_round else ""),
                COMBAT_ACTIONS,
            )
        )
    return steps


def _killer_blow(f: Fighter, rules: FightRules) -> tuple[Fraction | None, list[Step]]:
    """P(``f`` Resists a Killer Blow if the next wound vanquishes him), ``None`` if unclassed."""
    if not f.classed:
        return None, []
    mod = f.resist - f.bound_penalty
    p = killer_blow_resist(mod, f.wounds + 1, rules.action_die, rules.critical)
    step = Step(
        f"{f.name} is classed: Resists a Killer Blow with {rules.action_die} "
        f"{mod - f.wounds - 1:+d} vs TN 12 (WP {f.wounds + 1}) = {fmt_prob(p)}; "
        "success leaves him Unconscious with a random permanent Flaw",
        VANQUISHING,
    )
    return p, [step]


def fight_odds(
    a: Fighter,
    b: Fighter,
    rules: FightRules = DEFAULT_RULES,
    surprise: SurprisePlan | None = None,
    distance: int = 0,
) -> FightOdds:
    """Two Chimera combatants: the odds of one blow each way and of the whole duel.

    "Attacks are made with a Fight or Shoot roll against a Target Number equal to
    your foe's adjusted Movement Rate … If the attack succeeds, the defender is
    hit, and the attacker rolls the weapon's damage die (2 dice if the attack is
    a Critical Success)." "When hit, a defender suffers a wound of severity equal
    to the damage roll minus his Defence". "If the total number of wounds, or the
    severity of a single wound, exceeds the defender's Wound Limit, he's
    vanquished". The duel repeats rounds of "1d12 for Initiative" until one side
    is vanquished or fails morale (see :mod:`ruleslab.chimera.duel`). "You can perform
    any number of free actions each round, but only 1 full action is permitted": each
    combatant's round is his attack, or readying an item on his first turn, or closing
    the ``distance`` by running or creeping ("MR ± your Movement Die"), with free
    actions beside it (walking up to his MR, dropping prone, getting up; see
    :mod:`ruleslab.chimera.actions`).

    Each combatant's ``wounds`` must be at most his Wound Limit (more would
    already have vanquished him): else :class:`ValueError` says so
    (:func:`~ruleslab.chimera.duel.check_wounds`). Bad values in the records or
    the rules are refused when they are built (:class:`Fighter`,
    :class:`FightRules`, :class:`SurprisePlan`).
    """
    check_wounds(a, b)
    steps: list[Step] = [
        Step(
            f"Action Roll: {rules.action_die} + modifiers, succeeding when it meets or beats the "
            f"TN (rules note RN-CHIM-1); a Critical Success is "
            f"{critical_text(rules.critical, rules.action_die)} (RN-CHIM-2); each wound is −1 to "
            "every roll and to MR",
            COMBAT,
        )
    ]
    steps += [
        Step(
            f"{f.name} is bound (captured): −{f.bound_penalty} to all his rolls (attack, "
            "initiative, Resistance Rolls) and to his MR (Capture; RN-CHIM-15)",
            VANQUISHING,
        )
        for f in (a, b)
        if f.is_bound
    ]
    a_on_b = blow_odds(a.settled(), b.settled(), a.wounds, b.wounds, rules)
    b_on_a = blow_odds(b.settled(), a.settled(), b.wounds, a.wounds, rules)
    steps += _blow_steps(a_on_b, b)
    steps += _blow_steps(b_on_a, a)
    steps += first_turn_steps(a, b, rules, (a.wounds, b.wounds))
    steps += action_steps(a, b) + action_steps(b, a)
    reach = distance_step(a, b, distance)
    if reach is not None:
        steps.append(reach)
    moves = tuple(
        movement(
            f.name,
            f.mr,
            f.movement_sides,
            encumbrance=f.encumbrance,
            modifier=f.mr_modifier,
            wounds=f.wounds,
            bound=f.is_bound,
            position=f.position,
        )
        for f in (a, b)
    )
    for m in moves:
        steps += m.steps
    steps.append(_initiative_step(a, b, rules))
    steps += [_morale_step(f, rules) for f in (a, b)]
    for f in (a, b):
        why = side_morale_trigger(f, rules.casualties)
        if why is not None:
            mod = f.resist - f.wounds - f.bound_penalty
            fail = p_morale_fails(
                f.resist - f.bound_penalty, f.wounds, f.morale_tn, rules.action_die, rules.critical
            )
            steps.append(
                Step(
                    f"{f.name} checks morale before the first round ({why}): "
                    f"{rules.action_die} {mod:+d} vs Morale TN {f.morale_tn} fails "
                    f"{fmt_prob(fail)}: he surrenders or retreats before a blow is struck "
                    "(RN-CHIM-18)",
                    COMBAT,
                )
            )

    s_odds: SurpriseOdds | None = None
    if surprise is not None:
        s_odds = surprise_odds(surprise.sneak, surprise.tn, rules.action_die, rules.critical)
        sneak, foe = (a, b) if surprise.side == 0 else (b, a)
        steps.append(_surprise_step(sneak, foe, surprise, s_odds, rules))

    duel = duel_odds(a, b, rules, surprise, distance)
    steps += _duel_steps(a, b, duel, rules, surprise)

    kb_a, kb_steps = _killer_blow(a, rules)
    steps += kb_steps
    kb_b, kb_steps = _killer_blow(b, rules)
    steps += kb_steps
    steps.append(Step("The victor chooses: " + "; ".join(FATES.values()), VANQUISHING))
    fatigue: list[Fraction | None] = []
    dead: list[Fraction | None] = []
    # the ends' chances as numerators over one denominator: one Fraction per figure
    den = duel.end_counts[0]
    dies: list[Fraction | None] = []
    for x, f in enumerate((a, b)):
        foe = (b, a)[x]
        fallen = _fallen(duel, 1 - x)
        weight = sum(p for _, p in fallen)
        if foe.fate == "any":
            dies.append(None)
            dead.append(None)
        else:
            p = p_dies(f, foe.fate, fallen, rules)
            dies.append(p)
            dead.append(Fraction(weight, den) * p if weight else Fraction(0))
    for x, (f, foe) in enumerate(((a, b), (b, a))):
        wins = _wins(duel, x)
        fails = None if f.spends_cool_down else p_fatigue_fails_after(f, wins, rules)
        fatigue.append(fails)
        steps += fate_steps(f, foe, _fallen(duel, x), rules, den)
        steps += chosen_fate_steps(f, foe, _fallen(duel, x), rules, den, dies[1 - x])
        steps += aftermath_steps(f, wins, rules, fired=f.kind != "fight", fails=fails)
    return FightOdds(
        a=a,
        b=b,
        rules=rules,
        surprise=surprise,
        surprise_odds=s_odds,
        a_on_b=a_on_b,
        b_on_a=b_on_a,
        duel=duel,
        killer_blow=(kb_a, kb_b),
        fatigue=(fatigue[0], fatigue[1]),
        moves=(moves[0], moves[1]),
        distance=distance,
        dead=(dead[0], dead[1]),
        steps=tuple(steps),
    )


def _wins(duel: DuelOdds, x: int) -> tuple[tuple[int, int], ...]:
    """Side ``x``'s wounds at the end of each way he wins (vanquish or the foe's morale),
    each with its chance's numerator over ``duel.end_counts[0]``."""
    return tuple(
        (a if x == 0 else b, n) for key in (f"v{x}", f"m{x}") for a, b, n in duel.end_weights(key)
    )


def _fallen(duel: DuelOdds, x: int) -> tuple[tuple[int, int], ...]:
    """The foe's wounds when side ``x`` vanquishes him (numerators, as :func:`_wins`)."""
    return tuple((b if x == 0 else a, n) for a, b, n in duel.end_weights(f"v{x}"))


def play_log(odds: FightOdds, seed: int, rounds: int) -> tuple[str, ...]:
    """The fight of ``odds`` played with dice seeded by ``seed``, at most ``rounds`` rounds.

    One line per roll (the Sneak roll if any, each round's initiative and blows),
    then who won, or that both still stand.
    """
    a, b = odds.a.name, odds.b.name
    lines: list[str] = []
    rng = random.Random(seed)
    out = play(
        odds.a,
        odds.b,
        odds.rules,
        rng,
        surprise=odds.surprise,
        max_rounds=rounds,
        say=lines.append,
        distance=odds.distance,
    )
    end, played = out.end, out.rounds
    verdict = {
        "v0": f"{a} vanquishes {b}: {a} chooses {b}'s fate",
        "v1": f"{b} vanquishes {a}: {b} chooses {a}'s fate",
        "m0": f"{b} fails morale and surrenders or retreats: {a} wins",
        "m1": f"{a} fails morale and surrenders or retreats: {b} wins",
        "draw": "Both fall at once",
        "break": "Both fail morale before the fight: both surrender or retreat",
        None: (
            f"Both still standing after {played} round{'s' if played != 1 else ''}"
            + (" (the log stops here)" if rounds > 1 else "")
        ),
    }[end]
    lines.append(verdict)
    if end in ("v0", "v1"):
        x = int(end[1])
        winner, loser = (odds.a, odds.b) if x == 0 else (odds.b, odds.a)
        fate = fate_roll(winner, loser, out.wounds[1 - x], odds.rules, rng)
        if fate:
            lines.append(fate)
    return tuple(lines)
