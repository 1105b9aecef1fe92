"""A duel: two combatants trade blows until one is vanquished or breaks.

Exact odds as a Markov chain. Every round follows the text (Chimera combat › Combat):

* both roll "1d12 for Initiative" adjusted by the action's Initiative Modifier
  and their Wound Penalty; the higher acts first (ties: option ``ties``,
  rules note RN-CHIM-9);
* on his turn each takes "only 1 full action" and "any number of free actions"
  (Combat Actions, rules note RN-CHIM-19): his attack (Fight, Shoot or Blast); or,
  on his first turn, readying an item; or, while a Fight attacker cannot reach his
  foe by walking (free, up to his MR), running (MR + Movement Die) or, crouched,
  creeping (MR − Movement Die) towards him (RN-CHIM-21). Dropping prone or
  getting up (costing his Encumbrance in MR) is a free action on his first turn
  (RN-CHIM-22);
* "it's possible to dispatch a foe before he can act", so a vanquished or routed
  defender never answers; otherwise he acts with the Wound Penalty of any wound
  just taken;
* a wound that brings a non-player character's Wound Penalty to half his Wound
  Limit makes him check morale; failure ends the fight ("surrender or retreat",
  RN-CHIM-10).

Where the duel stands between rounds is ``(A's wounds, B's wounds)`` once both have
had their first turn and the distance is closed, the *settled* states; before that
it is an *opening* situation ``(A's wounds, B's wounds, distance, A has acted, B has
acted)``. Wounds only grow, the distance only shrinks, a first turn is taken once:
every move leads to a later place or stays. The only loop is a round that changes
nothing, so the chain is solved exactly forward, in that order: the chance of
reaching each place leaves it through its other moves, scaled by
``1 / (1 − P(stay))``, which is also the expected number of rounds spent there.
No round cap is needed. A place nobody can leave (``P(stay) = 1``) is an endless
fight; its probability is reported exactly and the expected length is then
infinite (``None``).

Surprise (RN-CHIM-11, RN-CHIM-12) only changes the first round: the Sneak
roll's three outcomes each start the chain through their own first round; a
fallen leader or heavy casualties make an NPC check morale before it (RN-CHIM-18).
The ends are found with both combatants' wounds at each end
(:attr:`DuelOdds.ends`: the aftermath's Fatigue roll and revival start from them).
The seeded play that rolls the same rules is :func:`ruleslab.chimera.play.play`.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.blast import blow_odds
from ruleslab.chimera.initiative import initiative_order
from ruleslab.chimera.morale import p_morale_fails, side_morale_trigger, wound_triggers_morale
from ruleslab.chimera.movement import move_dist
from ruleslab.chimera.paths import path_bound
from ruleslab.chimera.plan import (
    END_KEYS,
    End,
    Plan,
    SurprisePlan,
    check_distance,
    check_wounds,
    has_first_turn,
)
from ruleslab.chimera.play import play
from ruleslab.chimera.surprise import SURPRISE_AR_BONUS, surprise_odds

__all__ = [
    "DuelOdds",
    "End",
    "Plan",
    "SurprisePlan",
    "check_wounds",
    "duel_odds",
    "play",
]

State = tuple[int, int]
"""A settled state: (A's wounds, B's wounds)."""
Sit = tuple[int, int, int, int, int]
"""An opening situation: (A's wounds, B's wounds, distance, A has acted, B has acted)."""
Place = State | Sit
Outcome = Place | End
"""Where a round leaves the duel: the place it goes on from, or an :class:`End`."""
DEFAULT_RULES = FightRules()


@dataclass(frozen=True)
class DuelOdds:
    """Exact odds of a duel.

    ``p_vanquish[i]``: side i vanquishes the other; ``p_morale[i]``: side i wins
    because the other fails morale; ``p_draw``: both fall in the same instant
    (simultaneous ties only); ``p_endless``: the fight reaches a state where
    nobody can be wounded any more (or, before the distance is closed, nobody can
    hurt or reach anybody); ``p_both_break`` both fail the morale check
    that a fallen leader or heavy casualties force before the first round
    (``p_break[i]``: side i breaks then, a part of the other side's
    ``p_morale``). They sum to 1. ``ends`` is the exact distribution of every
    end with both combatants' wounds at that moment (:class:`End`; for the
    aftermath: revival, the Fatigue roll). ``expected_rounds`` is exact,
    or ``None`` when ``p_endless > 0`` (the expectation is infinite). A
    surprise round counts as a round. ``states`` counts the settled states
    (A's wounds, B's wounds) from the starting wounds up to the Wound Limits;
    ``opening`` the opening situations the fight passed through (first turns
    not yet taken, a distance not yet closed).
    """

    p_vanquish: tuple[Fraction, Fraction]
    p_morale: tuple[Fraction, Fraction]
    p_draw: Fraction
    p_endless: Fraction
    expected_rounds: Fraction | None
    states: int
    p_break: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    p_both_break: Fraction = Fraction(0)
    end_counts: tuple[int, tuple[tuple[End, int], ...]] = (1, ())
    """:attr:`ends` counted: ``(denominator, ((end, numerator) …))``, one denominator for all
    (a long fight's chances have thousands of digits: a Fraction each would cost a gcd
    each; sums over them are taken on the whole numbers, one Fraction per figure)."""
    opening: int = 0

    @property
    def ends(self) -> tuple[tuple[End, Fraction], ...]:
        """Every end with both combatants' wounds, and its exact chance (sorted)."""
        den, counts = self.end_counts
        return tuple((e, Fraction(n, den)) for e, n in counts)

    def end_wounds(self, key: str) -> tuple[tuple[int, int, Fraction], ...]:
        """``(A's wounds, B's wounds, P)`` of every way the fight ends as ``key`` (``v0`` …)."""
        return tuple((e.a, e.b, p) for e, p in self.ends if e.key == key)

    def end_weights(self, key: str) -> tuple[tuple[int, int, int], ...]:
        """:meth:`end_wounds` counted: ``(A's wounds, B's wounds, numerator)`` over
        ``end_counts[0]``."""
        return tuple((e.a, e.b, n) for e, n in self.end_counts[1] if e.key == key)

    @property
    def p_win(self) -> tuple[Fraction, Fraction]:
        return (self.p_vanquish[0] + self.p_morale[0], self.p_vanquish[1] + self.p_morale[1])


_Blow = tuple[Fraction, Fraction, Fraction, Fraction]
"""One blow's P(no wound), P(wound, fight goes on), P(vanquish), P(wound and rout)."""
_Turn = tuple[int, tuple[tuple[tuple[int, int], int], ...]]
"""One turn's outcomes, counted: (denominator, ((effect on the foe: 0 none, 1 wound,
2 vanquish, 3 rout; the distance after it), numerator) ...)."""
_Counts = dict[int, dict["Outcome", int]]
"""Outcomes counted by denominator: {den: {outcome: numerator}}, merged once (:func:`_tally`)."""
_Tally = tuple[int, dict["Outcome", int]]
"""A round's outcomes over one common denominator: (den, {outcome: numerator})."""


_END_NAMES = ({2: "v0", 3: "m0"}, {2: "v1", 3: "m1"})
"""The end a blow of side 0 or 1 makes with effect 2 (vanquish) or 3 (rout)."""


def _add(out: dict[Outcome, Fraction], k: Outcome, p: Fraction) -> None:
    if p:
        out[k] = out.get(k, Fraction(0)) + p


def _count(counts: _Counts, den: int, k: Outcome, num: int) -> None:
    if num:
        bucket = counts.setdefault(den, {})
        bucket[k] = bucket.get(k, 0) + num


def _tally(counts: _Counts) -> _Tally:
    """The counts over their least common denominator, each outcome's numerators summed."""
    common = math.lcm(*counts) if counts else 1
    out: dict[Outcome, int] = {}
    for den, bucket in counts.items():
        scale = common // den
        for k, num in bucket.items():
            out[k] = out.get(k, 0) + num * scale
    return common, out


def _fractions(tally: _Tally) -> dict[Outcome, Fraction]:
    den, counts = tally
    return {k: Fraction(n, den) for k, n in counts.items() if n}


def _hurt(w: State, side: int) -> State:
    return (w[0] + 1, w[1]) if side == 0 else (w[0], w[1] + 1)


class _Chain:
    """Transitions of one duel (both fighters, the rules, the distance between them).

    A round's chances are counted on whole numbers over a common denominator and made
    Fractions once per outcome (:data:`_Counts`): the same exact values, far fewer
    Fraction operations (rules note RN-CHIM-13 on the 200 ms standard).
    """

    def __init__(
        self, fighters: tuple[Fighter, Fighter], rules: FightRules, distance: int = 0
    ) -> None:
        self.given = fighters
        self.f = (fighters[0].settled(), fighters[1].settled())
        """Each combatant from his first turn on (his position after any change)."""
        self.early = (fighters[0].unsettled(), fighters[1].unsettled())
        """Each combatant before his first turn."""
        self.first = (has_first_turn(fighters[0]), has_first_turn(fighters[1]))
        self.distance = distance if (fighters[0].melee or fighters[1].melee) else 0
        self.rules = rules
        self._blows: dict[tuple[int, State, int, bool], _Blow] = {}
        self._turns: dict[tuple[int, Sit, int], _Turn] = {}
        self._strikes: dict[
            tuple[int, State, int, bool], tuple[int, tuple[tuple[int, int], ...]]
        ] = {}
        self.moves: dict[Place, _Tally] = {}
        """Each place's round, counted (its own place among the outcomes: the chance to stay)."""

    # -- one blow ------------------------------------------------------------
    def blow(self, x: int, w: State, ar: int = 0, early: bool = False) -> _Blow:
        """(P(no wound), P(wound, fight goes on), P(vanquish), P(wound and rout)) of ``x``'s
        blow; ``early``: the defender has not had his first turn (his position before it)."""
        key = (x, w, ar, early)
        cached = self._blows.get(key)
        if cached is not None:
            return cached
        y = 1 - x
        att, dfd = self.f[x], (self.early if early else self.f)[y]
        odds = blow_odds(att, dfd, w[x], w[y], self.rules, ar)
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

    def strike(
        self, x: int, w: State, ar: int, early: bool
    ) -> tuple[int, tuple[tuple[int, int], ...]]:
        """:meth:`blow` counted over one denominator: (den, ((effect, numerator) …))."""
        key = (x, w, ar, early)
        cached = self._strikes.get(key)
        if cached is None:
            blow = self.blow(x, w, ar, early)
            den = math.lcm(*(p.denominator for p in blow))
            counts = tuple(
                (e, p.numerator * (den // p.denominator)) for e, p in enumerate(blow) if p
            )
            cached = self._strikes[key] = (den, counts)
        return cached

    # -- one turn: one full action and the free actions beside it --------------------------
    def start(self) -> Place:
        """Where the duel starts: the starting wounds, the distance, no turn taken yet."""
        a, b = self.given
        acted = (int(not self.first[0]), int(not self.first[1]))
        return _place((a.wounds, b.wounds, self.distance, *acted))

    def turn(self, x: int, s: Sit, ar: int) -> _Turn:
        """What ``x`` does on his turn in situation ``s``: one full action (rules note
        RN-CHIM-19) and the free actions beside it, as counted (effect, distance after)."""
        key = (x, s, ar)
        cached = self._turns.get(key)
        if cached is not None:
            return cached
        a, b, gap, ta, tb = s
        w, acted = (a, b), (ta, tb)
        f, given, y = self.f[x], self.given[x], 1 - x
        first = not acted[x]
        readies = first and f.plan == "ready"
        out: _Turn
        if readies and (gap == 0 or not f.melee):
            out = (1, (((0, gap), 1),))
        elif gap == 0 or not f.melee:
            den, counts = self.strike(x, w, ar, not acted[y] and self.first[y])
            out = (den, tuple(((e, gap), n) for e, n in counts))
        else:
            # a Fight attacker out of his foe's reach (RN-CHIM-21); getting up costs his
            # Encumbrance in MR this round (RN-CHIM-22)
            getting_up = first and given.position == "gets_up"
            mr = max(0, f.adjusted_mr(w[x]) - (f.encumbrance if getting_up else 0))
            walks = f.position_after == "standing"
            if readies:
                out = (1, (((0, max(0, gap - mr) if walks else gap), 1),))
            elif walks and gap <= mr:
                den, counts = self.strike(x, w, ar, not acted[y] and self.first[y])
                out = (den, tuple(((e, 0), n) for e, n in counts))
            else:
                sides = f.movement_sides
                moved = move_dist("run" if walks else "creep", mr, sides)
                per = sides // moved.den  # every chance is a whole number of faces
                after: dict[int, int] = {}
                for d, faces in enumerate(moved.weights, moved.lo):
                    if faces:
                        g = max(0, gap - d)
                        after[g] = after.get(g, 0) + faces * per
                out = (sides, tuple(((0, g), n) for g, n in after.items()))
        self._turns[key] = out
        return out

    def _after(self, x: int, s: Sit, effect: int, gap: int) -> Sit | End:
        """The situation after ``x``'s turn with this effect (an end if it takes his foe out)."""
        a, b, _, ta, tb = s
        w = _hurt((a, b), 1 - x) if effect else (a, b)
        if effect >= 2:
            return End(f"{'v' if effect == 2 else 'm'}{x}", *w)
        return (w[0], w[1], gap, 1 if x == 0 else ta, 1 if x == 1 else tb)

    # -- one round -------------------------------------------------------------------------
    def _sequential(
        self, counts: _Counts, s: Sit, x: int, ar: tuple[int, int], weight: Fraction
    ) -> None:
        """``x`` acts first, then his foe if still standing; counted into ``counts``."""
        y = 1 - x
        dx, tx = self.turn(x, s, ar[x])
        base = weight.denominator * dx
        ends_y = _END_NAMES[y]
        for (e, g), nx in tx:
            s1 = self._after(x, s, e, g)
            if isinstance(s1, End):
                _count(counts, base, s1, weight.numerator * nx)
                continue
            dy, ty = self.turn(y, s1, ar[y])
            num = weight.numerator * nx
            bucket = counts.setdefault(base * dy, {})
            a1, b1 = s1[0], s1[1]
            # after both turns both have acted: a settled state once the distance is closed
            for (e2, g2), ny in ty:
                a2, b2 = (a1 + (e2 > 0), b1) if y == 1 else (a1, b1 + (e2 > 0))
                k: Outcome
                if e2 >= 2:
                    k = End(ends_y[e2], a2, b2)
                elif g2:
                    k = (a2, b2, g2, 1, 1)
                else:
                    k = (a2, b2)
                bucket[k] = bucket.get(k, 0) + num * ny

    def _simultaneous(self, counts: _Counts, s: Sit, ar: tuple[int, int], weight: Fraction) -> None:
        """Both act at once on the fight as it was before the round."""
        a, b, gap = s[0], s[1], s[2]
        da, ta = self.turn(0, s, ar[0])
        db, tb = self.turn(1, s, ar[1])
        bucket = counts.setdefault(weight.denominator * da * db, {})
        for (ea, ga), na in ta:
            num = weight.numerator * na
            for (eb, gb), nb in tb:
                # both move at once: each closes his part of the distance
                after = 0 if ga == 0 or gb == 0 else max(0, ga + gb - gap)
                a1, b1 = a + (eb > 0), b + (ea > 0)  # every effect but 0 is a wound
                end = _BOTH[ea][eb]
                k: Outcome
                if end is not None:
                    k = End(end, a1, b1)
                else:
                    k = (a1, b1, after, 1, 1) if after else (a1, b1)
                bucket[k] = bucket.get(k, 0) + num * nb

    def round(self, s: Sit, ar: tuple[int, int] = (0, 0), first: int | None = None) -> _Tally:
        """Where one round from ``s`` leaves the fight, counted: by initiative, or with
        ``first`` acting first (a surprise's "first" reading)."""
        counts: _Counts = {}
        if first is not None:
            self._sequential(counts, s, first, ar, Fraction(1))
            return _tally(counts)
        f0, f1 = self.f
        p0, tie, p1 = initiative_order(
            f0.initiative - f0.bound_penalty, s[0], f1.initiative - f1.bound_penalty, s[1]
        )
        if self.rules.ties == "reroll":
            p0, p1, tie = p0 / (p0 + p1), p1 / (p0 + p1), Fraction(0)
        if p0:
            self._sequential(counts, s, 0, ar, p0)
        if p1:
            self._sequential(counts, s, 1, ar, p1)
        if tie:
            self._simultaneous(counts, s, ar, tie)
        return _tally(counts)

    def only(self, s: Sit, x: int, ar: int) -> _Tally:
        """A round in which only ``x`` acts (the surprise round), counted."""
        counts: _Counts = {}
        den, tx = self.turn(x, s, ar)
        for (e, g), n in tx:
            s1 = self._after(x, s, e, g)
            _count(counts, den, s1 if isinstance(s1, End) else _place(s1), n)
        return _tally(counts)

    # -- solving ---------------------------------------------------------------
    def moves_of(self, k: Place) -> _Tally:
        """The place's round, counted (cached)."""
        cached = self.moves.get(k)
        if cached is None:
            cached = self.moves[k] = self.round(_sit(k))
        return cached

    def forward(self, start: dict[Outcome, Fraction]) -> tuple[int, dict[End, int], int]:
        """The exact distribution of the fight's ends (with the wounds at each end), and the
        expected number of rounds played from ``start``, counted over one denominator:
        ``(den, {end: numerator}, numerator of the expected rounds)``.

        ``start`` is where the fight stands (places and ends with their chances). Every
        move leads to a later place (:func:`_order`), so the places are taken in that
        order: a place's chance ``m`` leaves it through its other moves, scaled by
        ``1 / (1 − P(stay))``, and ``m / (1 − P(stay))`` rounds are spent there on
        average; a place nobody can leave is an endless fight.

        Whole numbers, not Fractions: ``den`` is the start's common denominator times a
        multiple of the product of the leaving counts ``count(leave) = den(place) −
        count(stay)`` along every path (:func:`~ruleslab.chimera.paths.path_bound`). A
        place's chance is a multiple of ``1 / (start's den · the counts of the places
        before it on a path)``, so on ``den`` its numerator divides exactly by its own
        count: every step is exact integer arithmetic, with no gcd on numbers of
        thousands of digits (what made a long fight take seconds; rules note RN-CHIM-13).
        """
        # every reachable place's round, so that the common denominator is known first
        seen: set[Place] = set()
        todo = [k for k in start if not isinstance(k, End)]
        while todo:
            s = todo.pop()
            if s in seen:
                continue
            seen.add(s)
            den, t = self.moves_of(s)
            todo.extend(k for k, n in t.items() if n and k != s and not isinstance(k, End))
        common = math.lcm(*(p.denominator for p in start.values())) if start else 1
        leaves: dict[Place, int] = {}
        nexts: dict[Place, list[Place]] = {}
        for place in seen:
            den, t = self.moves[place]
            leaves[place] = den - t.get(place, 0)
            nexts[place] = [j for j, n in t.items() if n and j != place and not isinstance(j, End)]
        total = common * path_bound(sorted(seen, key=_order), leaves, nexts)
        out: dict[End, int] = {}
        mass: dict[Place, int] = {}
        queue: list[tuple[int, Place]] = []
        rounds = 0

        def route(k: Outcome, n: int) -> None:
            if isinstance(k, End):
                out[k] = out.get(k, 0) + n
            elif k in mass:
                mass[k] += n
            else:
                mass[k] = n
                heapq.heappush(queue, (_order(k), k))

        for k, p in start.items():
            route(k, p.numerator * (total // p.denominator))
        while queue:
            _, s = heapq.heappop(queue)
            m = mass.pop(s)
            den, t = self.moves_of(s)
            leave = den - t.get(s, 0)
            if not leave:
                route(End("endless", s[0], s[1]), m)
                continue
            # m / leave on ``total``: exact (see above); P(s → k) / (1 − P(stay)) = n / leave
            scale, rest = divmod(m, leave)
            assert not rest, "a place's chance must divide by its count"
            rounds += scale * den
            for k, n in t.items():
                if k != s and n:
                    route(k, scale * n)
        return total, out, rounds

    def first_moves(self, start: Place, plan: Plan) -> dict[Outcome, Fraction]:
        """Where the first round leaves the fight when it follows ``plan`` (not ``"none"``)."""
        ar = SURPRISE_AR_BONUS if plan.kind in ("bonus", "both") else 0
        ars = (ar, 0) if plan.side == 0 else (0, ar)
        s = _sit(start)
        if plan.kind == "bonus":
            return _fractions(self.round(s, ars))
        if self.rules.surprise_action == "extra":
            return _fractions(self.only(s, plan.side, ar))
        return _fractions(self.round(s, ars, first=plan.side))


_BOTH = tuple(
    tuple(
        "draw"
        if ea >= 2 and eb >= 2
        else ("v0" if ea == 2 else "m0")
        if ea >= 2
        else ("v1" if eb == 2 else "m1")
        if eb >= 2
        else None
        for eb in range(4)
    )
    for ea in range(4)
)
"""The end simultaneous blows make, by their effects ``ea`` (A's blow on B) and ``eb`` (B's
on A), each 0 none, 1 wound, 2 vanquish, 3 rout: both out is a draw, one out is the
other's win (by vanquishing or routing), ``None`` the fight goes on. Every effect but 0
is a wound, so each end is found with both combatants' wounds after the blows."""


def _place(s: Sit) -> Place:
    """A situation as the chain keeps it: settled (both have acted, no distance) as a
    :data:`State`, else as it is."""
    a, b, gap, ta, tb = s
    return (a, b) if gap == 0 and ta and tb else s


def _sit(k: Place) -> Sit:
    if len(k) == 2:
        return (k[0], k[1], 0, 1, 1)
    a, b, gap, ta, tb = k
    return (a, b, gap, ta, tb)


def _order(k: Place) -> int:
    """A number that grows with every move: wounds and turns taken up, the distance down."""
    a, b, gap, ta, tb = _sit(k)
    return a + b + ta + tb - gap


def duel_odds(
    a: Fighter,
    b: Fighter,
    rules: FightRules = DEFAULT_RULES,
    surprise: SurprisePlan | None = None,
    distance: int = 0,
) -> DuelOdds:
    """Exact odds that A or B wins a duel starting at their current wounds.

    With a ``surprise`` plan the Sneak roll is rolled first: on failure the fight
    is ordinary; on a success the sneak gets his ``benefit``; on a Critical
    Success both benefits when ``rules.surprise_critical == "both"``. Each
    combatant's ``wounds`` must be at most his Wound Limit (:func:`check_wounds`).
    ``distance`` (in the MR's units) separates them at the start: a Fight attacker
    must close it (RN-CHIM-21); Shoot and Blast attacks reach any distance.
    """
    check_wounds(a, b)
    distance = check_distance(distance)
    chain = _Chain((a, b), rules, distance)
    start = chain.start()
    breaks = tuple(_p_breaks_before(f, rules) for f in (a, b))
    hold = (1 - breaks[0]) * (1 - breaks[1])
    w0 = (a.wounds, b.wounds)
    start_moves: dict[Outcome, Fraction] = {}
    _add(start_moves, End("m1", *w0), breaks[0] * (1 - breaks[1]))
    _add(start_moves, End("m0", *w0), breaks[1] * (1 - breaks[0]))
    _add(start_moves, End("break", *w0), breaks[0] * breaks[1])
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
    first_rounds = Fraction(0)
    for weight, plan in mix:
        weight *= hold
        if not weight:
            continue
        if plan.kind == "none":
            _add(start_moves, start, weight)
            continue
        first_rounds += weight
        for where, q in chain.first_moves(start, plan).items():
            _add(start_moves, where, weight * q)
    den, ends_at, rounds = chain.forward(start_moves)
    counted = dict.fromkeys((*END_KEYS, "endless", "break"), 0)
    for e, n in ends_at.items():
        counted[e.key] += n
    ends = {key: Fraction(n, den) for key, n in counted.items()}
    opening = sum(1 for k in chain.moves if len(k) == 5)
    return DuelOdds(
        p_vanquish=(ends["v0"], ends["v1"]),
        p_morale=(ends["m0"], ends["m1"]),
        p_draw=ends["draw"],
        p_endless=ends["endless"],
        expected_rounds=None if ends["endless"] else first_rounds + Fraction(rounds, den),
        states=(a.wound_limit - a.wounds + 1) * (b.wound_limit - b.wounds + 1),
        p_break=(breaks[0] * (1 - breaks[1]), breaks[1] * (1 - breaks[0])),
        p_both_break=ends["break"],
        end_counts=(den, tuple(sorted(ends_at.items()))),
        opening=opening,
    )


def _p_breaks_before(f: Fighter, rules: FightRules) -> Fraction:
    """P(``f`` fails the morale check that his fallen leader or his side's casualties force
    before the first round); 0 if nothing forces one (rules note RN-CHIM-18)."""
    if side_morale_trigger(f, rules.casualties) is None:
        return Fraction(0)
    return p_morale_fails(
        f.resist - f.bound_penalty, f.wounds, f.morale_tn, rules.action_die, rules.critical
    )
