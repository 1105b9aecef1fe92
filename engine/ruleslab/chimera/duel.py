"""A duel: two combatants trade blows until one is vanquished or breaks.

Exact odds as a Markov chain over the states ``(wounds of A, wounds of B)``.
Every round follows the text (Chimera combat › Combat):

* both roll "1d12 for Initiative" adjusted by the action's Initiative Modifier
  and their Wound Penalty; the higher acts first (ties: option ``ties``,
  rules note RN-CHIM-9);
* the first attacks; "it's possible to dispatch a foe before he can act", so a
  vanquished or routed defender never answers; otherwise he attacks back with
  the Wound Penalty of any wound just taken;
* a wound that brings a non-player character's Wound Penalty to half his Wound
  Limit makes him check morale; failure ends the fight ("surrender or retreat",
  RN-CHIM-10).

Wounds only grow, so from each state the chain moves to a state with as many or
more wounds, or ends. A state's only loop is the round in which nobody is
wounded, so each state is solved exactly, from the most wounded down:
``V(s) = (Σ_{s'≠s} P(s→s')·V(s') + P(s→end)) / (1 − P(s→s))``. No round cap is
needed. A state from which nobody can ever be wounded (``P(s→s) = 1``) is an
endless fight; its probability is reported exactly and the expected length is
then infinite (``None``).

Surprise (RN-CHIM-11, RN-CHIM-12) only changes the first round: the Sneak
roll's three outcomes each start the chain through their own first round; a
fallen leader or heavy casualties make an NPC check morale before it (RN-CHIM-18).
The ends are also found forward, with both combatants' wounds at each end
(:attr:`DuelOdds.ends`: the aftermath's Fatigue roll and revival start from them).

Over 600 lines, for a reason: the exact chain, its forward pass and the seeded
play (:func:`play`) apply the same rules side by side, so that a played fight
rolls what the odds compute.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from ruleslab.chimera.action import ACTION_DICE, is_critical, is_success
from ruleslab.chimera.attack import (
    Fighter,
    FightRules,
    attack_odds,
    defence_against,
    whole_number,
)
from ruleslab.chimera.initiative import INITIATIVE_DIE, initiative_order
from ruleslab.chimera.morale import p_morale_fails, side_morale_trigger, wound_triggers_morale
from ruleslab.chimera.surprise import SURPRISE_AR_BONUS, surprise_odds
from ruleslab.chimera.wounds import is_vanquished

__all__ = [
    "DuelOdds",
    "End",
    "Plan",
    "SurprisePlan",
    "check_wounds",
    "duel_odds",
    "play",
]

END_KEYS = ("v0", "v1", "m0", "m1", "draw")
"""Ends of a fight: ``v<i>`` side i vanquishes the other, ``m<i>`` side i wins because
the other failed morale, ``draw`` both fall at once (only with simultaneous ties)."""

State = tuple[int, int]


class End(NamedTuple):
    """An end of the fight (``key``: one of :data:`END_KEYS`, ``"endless"`` or ``"break"``)
    with both combatants' wounds at that moment (the wound that ends it included)."""

    key: str
    a: int
    b: int


Outcome = State | End
"""Where a round leaves the duel: the wounds it goes on with, or an :class:`End`."""
DEFAULT_RULES = FightRules()
BENEFITS = ("action", "bonus")
"""A successful Sneak roll's benefit: a full action before the foe can respond, or AR +2."""


def check_wounds(*fighters: Fighter) -> None:
    """:class:`ValueError` unless each fighter's ``wounds`` is at most his Wound Limit.

    "If the total number of wounds … exceeds the defender's Wound Limit, he's
    vanquished": a combatant with more wounds is already out of the fight.
    """
    for f in fighters:
        if f.wounds > f.wound_limit:
            raise ValueError(
                f"{f.name}'s wounds ({f.wounds}) must be at most his Wound Limit "
                f"({f.wound_limit}): more would already have vanquished him"
            )


@dataclass(frozen=True)
class SurprisePlan:
    """Who tries to surprise whom, and how.

    ``side`` (0 = A, 1 = B) rolls Sneak ``sneak`` against the foe's Surprise TN
    ``tn``; ``benefit`` is ``"action"`` (a full action before the foe can respond)
    or ``"bonus"`` (AR +2 on the first round's action). Any other value raises
    :class:`ValueError` naming it and what is allowed.
    """

    side: int
    sneak: int
    tn: int
    benefit: str = "action"

    def __post_init__(self) -> None:
        if isinstance(self.side, bool) or self.side not in (0, 1):
            raise ValueError(
                f"SurprisePlan.side must be 0 (A sneaks) or 1 (B sneaks), not {self.side!r}"
            )
        whole_number("SurprisePlan.", "sneak", self.sneak)
        whole_number("SurprisePlan.", "tn", self.tn)
        if not isinstance(self.benefit, str) or self.benefit not in BENEFITS:
            raise ValueError(
                f"SurprisePlan.benefit must be one of {', '.join(BENEFITS)}, not {self.benefit!r}"
            )


@dataclass(frozen=True)
class Plan:
    """The first round's special rules after a Sneak roll.

    ``kind``: ``"none"``, ``"action"``, ``"bonus"`` or ``"both"``; ``side`` the
    sneak (ignored for ``"none"``).
    """

    kind: str = "none"
    side: int = 0


@dataclass(frozen=True)
class DuelOdds:
    """Exact odds of a duel.

    ``p_vanquish[i]``: side i vanquishes the other; ``p_morale[i]``: side i wins
    because the other fails morale; ``p_draw``: both fall in the same instant
    (simultaneous ties only); ``p_endless``: the fight reaches a state where
    nobody can be wounded any more; ``p_both_break`` both fail the morale check
    that a fallen leader or heavy casualties force before the first round
    (``p_break[i]``: side i breaks then, a part of the other side's
    ``p_morale``). They sum to 1. ``ends`` is the exact distribution of every
    end with both combatants' wounds at that moment (:class:`End`; for the
    aftermath: revival, the Fatigue roll). ``expected_rounds`` is exact,
    or ``None`` when ``p_endless > 0`` (the expectation is infinite). A
    surprise round counts as a round.
    """

    p_vanquish: tuple[Fraction, Fraction]
    p_morale: tuple[Fraction, Fraction]
    p_draw: Fraction
    p_endless: Fraction
    expected_rounds: Fraction | None
    states: int
    p_break: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    p_both_break: Fraction = Fraction(0)
    ends: tuple[tuple[End, Fraction], ...] = ()

    def end_wounds(self, key: str) -> tuple[tuple[int, int, Fraction], ...]:
        """``(A's wounds, B's wounds, P)`` of every way the fight ends as ``key`` (``v0`` …)."""
        return tuple((e.a, e.b, p) for e, p in self.ends if e.key == key)

    @property
    def p_win(self) -> tuple[Fraction, Fraction]:
        return (self.p_vanquish[0] + self.p_morale[0], self.p_vanquish[1] + self.p_morale[1])


@dataclass(frozen=True)
class _Value:
    ends: dict[str, Fraction]  # END_KEYS + "endless"
    rounds: Fraction | None


_Blow = tuple[Fraction, Fraction, Fraction, Fraction]
"""One blow's P(no wound), P(wound, fight goes on), P(vanquish), P(wound and rout)."""


class _Chain:
    """Transitions and solved values of one duel (both fighters, the rules)."""

    def __init__(self, fighters: tuple[Fighter, Fighter], rules: FightRules) -> None:
        self.f = fighters
        self.rules = rules
        self._blows: dict[tuple[int, State, int], _Blow] = {}
        self.values: dict[State, _Value] = {}
        self.moves: dict[State, tuple[dict[Outcome, Fraction], Fraction]] = {}
        """Each solved state's transitions to other outcomes, and its chance to stay."""

    # -- one blow ------------------------------------------------------------
    def blow(self, x: int, w: State, ar: int = 0) -> _Blow:
        """(P(no wound), P(wound, fight goes on), P(vanquish), P(wound and rout))."""
        key = (x, w, ar)
        cached = self._blows.get(key)
        if cached is not None:
            return cached
        y = 1 - x
        att, dfd = self.f[x], self.f[y]
        odds = attack_odds(att, dfd, w[x], w[y], self.rules, ar)
        p_v = odds.p_vanquish
        p_w = odds.p_wound - p_v
        p_r = Fraction(0)
        if p_w and dfd.checks_morale and wound_triggers_morale(dfd.wound_limit, w[y], w[y] + 1):
            fails = p_morale_fails(
                dfd.resist - dfd.bound_penalty,
                w[y] + 1,
                dfd.morale_tn,
                self.rules.action_die,
                self.rules.critical,
            )
            p_r, p_w = p_w * fails, p_w * (1 - fails)
        out = (1 - odds.p_wound, p_w, p_v, p_r)
        self._blows[key] = out
        return out

    # -- one round -----------------------------------------------------------
    @staticmethod
    def _hurt(w: State, side: int) -> State:
        return (w[0] + 1, w[1]) if side == 0 else (w[0], w[1] + 1)

    def sequential(self, w: State, x: int, ar: tuple[int, int]) -> dict[Outcome, Fraction]:
        out: dict[Outcome, Fraction] = {}

        def add(k: Outcome, p: Fraction) -> None:
            if p:
                out[k] = out.get(k, Fraction(0)) + p

        y = 1 - x
        n, wd, v, r = self.blow(x, w, ar[x])
        hurt = self._hurt(w, y)
        add(End(f"v{x}", *hurt), v)
        add(End(f"m{x}", *hurt), r)
        for p, w2 in ((n, w), (wd, hurt)):
            if not p:
                continue
            n2, wd2, v2, r2 = self.blow(y, w2, ar[y])
            add(End(f"v{y}", *self._hurt(w2, x)), p * v2)
            add(End(f"m{y}", *self._hurt(w2, x)), p * r2)
            add(w2, p * n2)
            add(self._hurt(w2, x), p * wd2)
        return out

    def simultaneous(self, w: State, ar: tuple[int, int]) -> dict[Outcome, Fraction]:
        out: dict[Outcome, Fraction] = {}
        a = self.blow(0, w, ar[0])  # A's blow on B
        b = self.blow(1, w, ar[1])  # B's blow on A
        # effects: 0 none, 1 wound, 2 vanquish, 3 rout
        for ea, pa in enumerate(a):
            if not pa:
                continue
            for eb, pb in enumerate(b):
                if not pb:
                    continue
                p = pa * pb
                a_out, b_out = eb >= 2, ea >= 2  # A is out when B's blow takes him out
                after = (w[0] + (eb >= 1), w[1] + (ea >= 1))  # every effect but 0 is a wound
                k: Outcome = after
                if a_out and b_out:
                    k = End("draw", *after)
                elif b_out:
                    k = End("v0" if ea == 2 else "m0", *after)
                elif a_out:
                    k = End("v1" if eb == 2 else "m1", *after)
                out[k] = out.get(k, Fraction(0)) + p
        return out

    def only(self, w: State, x: int, ar: int) -> dict[Outcome, Fraction]:
        n, wd, v, r = self.blow(x, w, ar)
        out: dict[Outcome, Fraction] = {}
        hurt = self._hurt(w, 1 - x)
        parts: tuple[tuple[Outcome, Fraction], ...] = (
            (w, n),
            (hurt, wd),
            (End(f"v{x}", *hurt), v),
            (End(f"m{x}", *hurt), r),
        )
        for k, p in parts:
            if p:
                out[k] = out.get(k, Fraction(0)) + p
        return out

    def round(
        self, w: State, ar: tuple[int, int] = (0, 0), first: int | None = None
    ) -> dict[Outcome, Fraction]:
        if first is not None:
            return self.sequential(w, first, ar)
        f0, f1 = self.f
        p0, tie, p1 = initiative_order(
            f0.initiative - f0.bound_penalty, w[0], f1.initiative - f1.bound_penalty, w[1]
        )
        if self.rules.ties == "reroll":
            p0, p1, tie = p0 / (p0 + p1), p1 / (p0 + p1), Fraction(0)
        out: dict[Outcome, Fraction] = {}
        parts: tuple[tuple[Fraction, Callable[[], dict[Outcome, Fraction]]], ...] = (
            (p0, lambda: self.sequential(w, 0, ar)),
            (p1, lambda: self.sequential(w, 1, ar)),
            (tie, lambda: self.simultaneous(w, ar)),
        )
        for weight, part in parts:
            if weight:
                for k, p in part().items():
                    out[k] = out.get(k, Fraction(0)) + weight * p
        return out

    # -- solving ---------------------------------------------------------------
    def solve(self, start: State) -> None:
        wl0, wl1 = self.f[0].wound_limit, self.f[1].wound_limit
        for a in range(wl0, start[0] - 1, -1):
            for b in range(wl1, start[1] - 1, -1):
                self.values[(a, b)] = self._solve_state((a, b))

    def _solve_state(self, s: State) -> _Value:
        t = self.round(s)
        p_self = t.pop(s, Fraction(0))
        self.moves[s] = (t, p_self)
        ends = dict.fromkeys((*END_KEYS, "endless"), Fraction(0))
        if p_self == 1:
            ends["endless"] = Fraction(1)
            return _Value(ends, None)
        return self._combine(t, scale=1 / (1 - p_self), base_rounds=Fraction(1), ends=ends)

    def _combine(
        self,
        t: dict[Outcome, Fraction],
        scale: Fraction,
        base_rounds: Fraction,
        ends: dict[str, Fraction],
    ) -> _Value:
        rounds: Fraction | None = base_rounds
        for k, p in t.items():
            if isinstance(k, End):
                ends[k.key] += p
            else:
                nxt = self.values[k]
                for e, q in nxt.ends.items():
                    if q:
                        ends[e] += p * q
                if nxt.rounds is None:
                    rounds = None
                elif rounds is not None:
                    rounds += p * nxt.rounds
        ends = {k: v * scale for k, v in ends.items()}
        if ends["endless"]:
            rounds = None
        return _Value(ends, None if rounds is None else rounds * scale)

    def first_moves(self, start: State, plan: Plan) -> dict[Outcome, Fraction]:
        """Where the first round leaves the fight when it follows ``plan`` (not ``"none"``)."""
        ar = SURPRISE_AR_BONUS if plan.kind in ("bonus", "both") else 0
        ars = (ar, 0) if plan.side == 0 else (0, ar)
        if plan.kind == "bonus":
            return self.round(start, ars)
        if self.rules.surprise_action == "extra":
            return self.only(start, plan.side, ar)
        return self.round(start, ars, first=plan.side)

    def ends_from(self, start: dict[Outcome, Fraction]) -> dict[End, Fraction]:
        """The exact distribution of the fight's ends, with the wounds at each end.

        ``start`` is where the fight stands (states and ends with their
        chances). Forward over the solved states in increasing order (wounds
        only grow, so every move leads to a later state): a state's chance
        leaves it through its other moves, scaled by ``1 / (1 − P(stay))``; a
        state nobody can leave is an endless fight.
        """
        out: dict[End, Fraction] = {}
        mass: dict[State, Fraction] = {}

        def route(k: Outcome, p: Fraction) -> None:
            if isinstance(k, End):
                out[k] = out.get(k, Fraction(0)) + p
            else:
                mass[k] = mass.get(k, Fraction(0)) + p

        for k, p in start.items():
            route(k, p)
        for s in sorted(self.moves):
            m = mass.pop(s, Fraction(0))
            if not m:
                continue
            t, p_self = self.moves[s]
            if p_self == 1:
                route(End("endless", *s), m)
                continue
            scale = m / (1 - p_self)
            for k, p in t.items():
                route(k, p * scale)
        return out

    def first_round(self, start: State, plan: Plan) -> _Value:
        """Value of the fight from ``start`` when the first round follows ``plan``."""
        if plan.kind == "none":
            return self.values[start]
        t = self.first_moves(start, plan)
        ends = dict.fromkeys((*END_KEYS, "endless"), Fraction(0))
        return self._combine(t, scale=Fraction(1), base_rounds=Fraction(1), ends=ends)


def duel_odds(
    a: Fighter,
    b: Fighter,
    rules: FightRules = DEFAULT_RULES,
    surprise: SurprisePlan | None = None,
) -> DuelOdds:
    """Exact odds that A or B wins a duel starting at their current wounds.

    With a ``surprise`` plan the Sneak roll is rolled first: on failure the fight
    is ordinary; on a success the sneak gets his ``benefit``; on a Critical
    Success both benefits when ``rules.surprise_critical == "both"``. Each
    combatant's ``wounds`` must be at most his Wound Limit (:func:`check_wounds`).
    """
    check_wounds(a, b)
    chain = _Chain((a, b), rules)
    start = (a.wounds, b.wounds)
    chain.solve(start)
    breaks = tuple(_p_breaks_before(f, rules) for f in (a, b))
    hold = (1 - breaks[0]) * (1 - breaks[1])
    before: dict[Outcome, Fraction] = {}
    for k, p in (
        (End("m1", *start), breaks[0] * (1 - breaks[1])),
        (End("m0", *start), breaks[1] * (1 - breaks[0])),
        (End("break", *start), breaks[0] * breaks[1]),
    ):
        if p:
            before[k] = p
    mix: list[tuple[Fraction, Plan]]
    if surprise is None:
        mix = [(Fraction(1), Plan())]
    else:
        odds = surprise_odds(surprise.sneak, surprise.tn, rules.action_die, rules.critical)
        crit_kind = "both" if rules.surprise_critical == "both" else surprise.benefit
        mix = [
            (odds.p_fail, Plan()),
            (odds.p_success, Plan(surprise.benefit, surprise.side)),
            (odds.p_critical, Plan(crit_kind, surprise.side)),
        ]
    ends = dict.fromkeys((*END_KEYS, "endless", "break"), Fraction(0))
    for where, p in before.items():
        assert isinstance(where, End)
        ends[where.key] += p
    rounds: Fraction | None = Fraction(0)
    start_moves: dict[Outcome, Fraction] = dict(before)
    for weight, plan in mix:
        weight *= hold
        if not weight:
            continue
        value = chain.first_round(start, plan)
        moves: dict[Outcome, Fraction] = (
            {start: Fraction(1)} if plan.kind == "none" else chain.first_moves(start, plan)
        )
        for where, q in moves.items():
            start_moves[where] = start_moves.get(where, Fraction(0)) + weight * q
        for e, q in value.ends.items():
            ends[e] += weight * q
        if value.rounds is None or rounds is None:
            rounds = None
        else:
            rounds += weight * value.rounds
    if ends["endless"]:
        rounds = None
    return DuelOdds(
        p_vanquish=(ends["v0"], ends["v1"]),
        p_morale=(ends["m0"], ends["m1"]),
        p_draw=ends["draw"],
        p_endless=ends["endless"],
        expected_rounds=rounds,
        states=len(chain.values),
        p_break=(breaks[0] * (1 - breaks[1]), breaks[1] * (1 - breaks[0])),
        p_both_break=ends["break"],
        ends=tuple(sorted(chain.ends_from(start_moves).items())),
    )


def _p_breaks_before(f: Fighter, rules: FightRules) -> Fraction:
    """P(``f`` fails the morale check that his fallen leader or his side's casualties force
    before the first round); 0 if nothing forces one (rules note RN-CHIM-18)."""
    if side_morale_trigger(f, rules.casualties) is None:
        return Fraction(0)
    return p_morale_fails(
        f.resist - f.bound_penalty, f.wounds, f.morale_tn, rules.action_die, rules.critical
    )


# --- playing it out --------------------------------------------------------------


def _roll_dice(rng: random.Random, count: int, sides: int) -> list[int]:
    return [rng.randint(1, sides) for _ in range(count)]


class _Table:
    """Plays a duel with real dice, following the same rules, and logs each roll."""

    def __init__(
        self,
        a: Fighter,
        b: Fighter,
        rules: FightRules,
        rng: random.Random,
        say: Callable[[str], None],
    ) -> None:
        self.f = (a, b)
        self.rules = rules
        self.rng = rng
        self.say = say
        self.w = [a.wounds, b.wounds]

    def action(self, modifier: int, tn: int) -> tuple[list[int], int, bool, bool]:
        count, sides = ACTION_DICE[self.rules.action_die]
        faces = _roll_dice(self.rng, count, sides)
        natural = sum(faces)
        total = natural + modifier
        top = count * sides
        ok = is_success(natural, total, tn, top, self.rules.critical)
        crit = ok and is_critical(natural, total, tn, top, self.rules.critical)
        return faces, total, ok, crit

    def attack(self, x: int, ar: int, w: list[int] | None = None) -> str:
        """One blow; wounds go to ``w`` (defaults to the live wounds). Returns the effect."""
        live = self.w if w is None else w
        y = 1 - x
        att, dfd = self.f[x], self.f[y]
        tn, df, _, _ = defence_against(dfd, att.kind, live[y], self.rules)
        modifier = att.attack - live[x] - att.bound_penalty + ar
        faces, total, ok, crit = self.action(modifier, tn)
        roll = "+".join(map(str, faces))
        head = f"{att.name} {att.verb}s: {roll} {modifier:+d} = {total} vs TN {tn}"
        if not ok:
            self.say(f"{head}: miss")
            return "none"
        dmg = att.damage
        if crit and self.rules.critical_damage == "sum":
            dice_ = _roll_dice(self.rng, 2 * dmg.count, dmg.sides)
            value = sum(dice_) + dmg.bonus
            how = f"{dmg.doubled_text('sum')}: {'+'.join(map(str, dice_))}"
        elif crit:
            one = _roll_dice(self.rng, dmg.count, dmg.sides)
            two = _roll_dice(self.rng, dmg.count, dmg.sides)
            value = max(sum(one), sum(two)) + dmg.bonus
            how = f"the higher of {sum(one)} and {sum(two)}"
        else:
            dice_ = _roll_dice(self.rng, dmg.count, dmg.sides)
            value = sum(dice_) + dmg.bonus
            how = f"{dmg}: {'+'.join(map(str, dice_))}"
        if dmg.bonus:
            how += f" {dmg.bonus:+d}"
        sev = value - df
        hit = "CRITICAL hit" if crit else "hit"
        if sev <= 0:
            self.say(f"{head}: {hit}; damage {how} = {value} − DF {df}: no wound")
            return "none"
        live[y] += 1
        text = (
            f"{head}: {hit}; damage {how} = {value} − DF {df} = severity {sev}: "
            f"{dfd.name} has {live[y]} wound{'s' if live[y] != 1 else ''} (WL {dfd.wound_limit})"
        )
        if is_vanquished(live[y], sev, dfd.wound_limit):
            self.say(f"{text}: VANQUISHED")
            return "vanq"
        self.say(text)
        if dfd.checks_morale and wound_triggers_morale(dfd.wound_limit, live[y] - 1, live[y]):
            mod = dfd.resist - live[y] - dfd.bound_penalty
            faces, total, ok, _ = self.action(mod, dfd.morale_tn)
            verdict = "holds" if ok else "FAILS: surrenders or retreats"
            self.say(
                f"{dfd.name}'s Wound Penalty reaches half his WL: morale "
                f"{'+'.join(map(str, faces))} {mod:+d} = {total} "
                f"vs Morale TN {dfd.morale_tn}: {verdict}"
            )
            if not ok:
                return "rout"
        return "wound"

    def order(self) -> int | None:
        """Roll initiative: the side acting first, or None for simultaneous."""
        a, b = self.f
        while True:
            ra = self.rng.randint(1, INITIATIVE_DIE)
            rb = self.rng.randint(1, INITIATIVE_DIE)
            ma = a.initiative - self.w[0] - a.bound_penalty
            mb = b.initiative - self.w[1] - b.bound_penalty
            ia, ib = ra + ma, rb + mb
            self.say(f"Initiative: {a.name} {ra} {ma:+d} = {ia}, {b.name} {rb} {mb:+d} = {ib}")
            if ia != ib:
                return 0 if ia > ib else 1
            if self.rules.ties == "simultaneous":
                self.say("Tie: both act at once")
                return None
            self.say("Tie: roll again")

    def round(
        self, ar: tuple[int, int], first: int | None = None, only: int | None = None
    ) -> str | None:
        """Play one round; returns an end key or None if the fight goes on."""
        if only is not None:
            eff = self.attack(only, ar[only])
            return _end(only, eff)
        x = self.order() if first is None else first
        if x is None:
            # both blows see the wounds before the round; each writes to its own copy
            wa, wb = list(self.w), list(self.w)
            e0 = self.attack(0, ar[0], w=wa)
            e1 = self.attack(1, ar[1], w=wb)
            self.w = [wb[0], wa[1]]
            out0, out1 = e1 in ("vanq", "rout"), e0 in ("vanq", "rout")
            if out0 and out1:
                return "draw"
            if out1:
                return _end(0, e0)
            if out0:
                return _end(1, e1)
            return None
        e = self.attack(x, ar[x])
        if e in ("vanq", "rout"):
            return _end(x, e)
        e = self.attack(1 - x, ar[1 - x])
        return _end(1 - x, e)


def _end(x: int, effect: str) -> str | None:
    return {"vanq": f"v{x}", "rout": f"m{x}"}.get(effect)


def play(
    a: Fighter,
    b: Fighter,
    rules: FightRules,
    rng: random.Random,
    *,
    surprise: SurprisePlan | None = None,
    max_rounds: int = 1,
    say: Callable[[str], None] = lambda line: None,
) -> tuple[str | None, int]:
    """Play the duel with ``rng`` for at most ``max_rounds`` rounds.

    Returns ``(end, rounds played)``: ``end`` is one of ``v0 v1 m0 m1 draw break``
    or ``None`` if the fight is still going. Every roll is reported through ``say``.
    Each combatant's ``wounds`` must be at most his Wound Limit (:func:`check_wounds`).
    """
    check_wounds(a, b)
    table = _Table(a, b, rules, rng, say)
    broke = []
    for x, f in enumerate(table.f):
        why = side_morale_trigger(f, rules.casualties)
        if why is None:
            continue
        mod = f.resist - f.wounds - f.bound_penalty
        faces, total, ok, _ = table.action(mod, f.morale_tn)
        say(
            f"{f.name} checks morale before the fight ({why}): {'+'.join(map(str, faces))} "
            f"{mod:+d} = {total} vs Morale TN {f.morale_tn}: "
            + ("holds" if ok else "FAILS: surrenders or retreats")
        )
        if not ok:
            broke.append(x)
    if len(broke) == 2:
        return "break", 0
    if broke:
        return f"m{1 - broke[0]}", 0
    plan = Plan()
    if surprise is not None:
        sneak = table.f[surprise.side]
        faces, total, ok, crit = table.action(surprise.sneak, surprise.tn)
        roll = f"{'+'.join(map(str, faces))} {surprise.sneak:+d} = {total}"
        if not ok:
            say(f"{sneak.name} tries to surprise: Sneak {roll} vs Surprise TN {surprise.tn}: fails")
        else:
            kind = surprise.benefit
            if crit and rules.surprise_critical == "both":
                kind = "both"
            plan = Plan(kind, surprise.side)
            what = {
                "action": "a full action before the foe can respond",
                "bonus": "AR +2 on the first round",
                "both": "both: a full action before the foe can respond, with AR +2",
            }[kind]
            say(
                f"{sneak.name} tries to surprise: Sneak {roll} vs Surprise TN {surprise.tn}: "
                f"{'CRITICAL ' if crit else ''}success, {what}"
            )
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        say(f"— Round {rounds} —")
        if rounds == 1 and plan.kind != "none":
            ar = SURPRISE_AR_BONUS if plan.kind in ("bonus", "both") else 0
            ars = (ar, 0) if plan.side == 0 else (0, ar)
            if plan.kind == "bonus":
                end = table.round(ars)
            elif rules.surprise_action == "extra":
                say(f"Surprise round: only {table.f[plan.side].name} acts")
                end = table.round(ars, only=plan.side)
            else:
                end = table.round(ars, first=plan.side)
        else:
            end = table.round((0, 0))
        if end is not None:
            return end, rounds
    return None, rounds
