"""The duel's chain counted on whole numbers gives the figures it gave as Fractions (issue 23).

The chain's chances are counted over one common denominator (the start's times
every reachable place's leaving count) and the aftermath sums the ends'
numerators, so that no gcd runs on chances of thousands of digits. Nothing a GM
sees may change: the digests below are of the whole outcome (every figure with
its exact value, every step, every panel, every "Roll it" log) as
``tests/golden/generate.compute`` shows it, computed by the unoptimised engine
(commit 1e61f5a, before this change; issue 23's slow set took 10 to 12 s there
on a loaded machine). Nothing here is timed: ``bench/worst_inputs.py`` times.
"""

from __future__ import annotations

import heapq
from fractions import Fraction

import pytest
from helpers_outcome import assert_outcome_is

from ruleslab.chimera.aftermath import fate_steps, p_dies, p_fatigue_fails_after
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.duel import End, _Chain, _order, duel_odds
from ruleslab.chimera.paths import atoms, path_bound

_SLOW = (
    "a_wound_limit=10&a_damage=10d100-20&a_bound=bound&a_cool_down=skipped&b_wound_limit=10"
    "&b_damage=10d100-20&b_kind=shoot&b_leader=fallen&b_allies=1000&b_allies_down=1"
    "&b_encumbrance=20&b_mr_modifier=-40&b_movement_die=d12&b_blast_tn=39&distance=40"
    "&sneak=-9&surprise_tn=40&action_die=2d10"
)

BEFORE = {
    "issue 23's slow set": (
        _SLOW,
        "56d78156987776aa914cd38c11cdc6f75ba821d21762d6475648dc91777a3978",
        {"p_a_wins": "36.00 %", "expected_rounds": "0.66 rounds", "a_fatigue_fails": "55.00 %"},
    ),
    "the slow set, B blasting": (
        _SLOW.replace("b_kind=shoot", "b_kind=blast"),
        "e9ba233e6faecd8fe924aa7e6187cfa6e45361d6be0a592ccd286350b554a436",
        {"p_b_wins": "64.00 %", "expected_rounds": "0.65 rounds"},
    ),
    "fates chosen, both classed, both skip the cool-down": (
        "a_wound_limit=6&b_wound_limit=6&a_damage=2d10&b_damage=3d6%2B2&a_character=classed"
        "&b_character=classed&a_cool_down=skipped&b_cool_down=skipped&a_fate=coup_de_grace"
        "&b_fate=killer_blow&ties=simultaneous",
        "c3616f43b2294f01522b74a89bc2e39bfd4e59138a599bfbc7b15eedf357ad06",
        {"a_fatigue_fails": "35.18 %", "b_fatigue_fails": "45.65 %", "a_dead": "28.33 %"},
    ),
    "a PC and an NPC, capture and Unconscious, surprise": (
        "a_wound_limit=10&b_wound_limit=8&a_damage=d100&b_damage=10d12&a_character=pc"
        "&b_character=npc&a_fate=capture&b_fate=unconscious&b_cool_down=skipped&surprise=A"
        "&coup_de_grace=kills",
        "0e2a301f5dc57dee4cac8fe20e01909f455dfb0d49c3f72da53730472133e261",
        {"p_a_wins": "61.66 %", "b_fatigue_fails": "45.38 %", "b_dead": "0 %"},
    ),
    "the longest opening, crouching under blasts": (
        "distance=40&a_position=crouching&a_mr=12&a_movement_die=d12&a_defence=0"
        "&a_wound_limit=10&a_character=pc&b_kind=blast&b_damage=d4&b_wound_limit=10"
        "&b_character=pc&ties=simultaneous&a_fate=killer_blow&b_fate=coup_de_grace",
        "8569ded869d32ac94a836c155f4622e99e3ec41d7496f8276d355da361ffea92",
        {"expected_rounds": "17.59 rounds", "a_dead": "87.53 %", "b_dead": "5.99 %"},
    ),
}
"""Input sets (link queries), the SHA-256 of their whole outcome and a few figures' texts,
all from the unoptimised engine."""


@pytest.mark.parametrize("name", list(BEFORE))
def test_the_outcome_is_the_unoptimised_engines(name):
    assert_outcome_is("chimera", *BEFORE[name])


def _forward_in_fractions(chain: _Chain, start: dict) -> tuple[dict[End, Fraction], Fraction]:
    """The chain as it was solved before: every chance a Fraction (the reference)."""
    out: dict[End, Fraction] = {}
    mass: dict = {}
    queue: list = []
    rounds = Fraction(0)

    def route(k, p):
        if isinstance(k, End):
            out[k] = out.get(k, Fraction(0)) + p
        elif k in mass:
            mass[k] += p
        else:
            mass[k] = p
            heapq.heappush(queue, (_order(k), k))

    for k, p in start.items():
        route(k, p)
    while queue:
        _, s = heapq.heappop(queue)
        m = mass.pop(s)
        den, t = chain.moves_of(s)
        leave = den - t.get(s, 0)
        if not leave:
            route(End("endless", s[0], s[1]), m)
            continue
        scale = m / leave
        rounds += scale * den
        for k, n in t.items():
            if k != s and n:
                route(k, scale * n)
    return out, rounds


_FIGHTERS = [
    (Fighter("A", wound_limit=3), Fighter("B", wound_limit=2), FightRules(), 0),
    (
        Fighter("A", wound_limit=4, damage="2d6", kind="shoot", character="classed"),
        Fighter("B", wound_limit=3, damage="d10", movement_die="d12"),
        FightRules(ties="simultaneous"),
        12,
    ),
    (
        Fighter("A", wound_limit=2, damage="d4", defence=2, position="crouching"),
        Fighter("B", wound_limit=5, damage="d8+2", kind="blast"),
        FightRules(),
        20,
    ),
]


@pytest.mark.parametrize(("a", "b", "rules", "distance"), _FIGHTERS)
def test_the_whole_number_chain_equals_the_fraction_chain(a, b, rules, distance):
    chain = _Chain((a, b), rules, distance)
    start = {chain.start(): Fraction(1, 3), End("m1", 0, 0): Fraction(2, 3)}
    den, counts, rounds = chain.forward(start)
    ends, expected = _forward_in_fractions(_Chain((a, b), rules, distance), start)
    assert {e: Fraction(n, den) for e, n in counts.items()} == ends
    assert Fraction(rounds, den) == expected
    odds = duel_odds(a, b, rules, distance=distance)
    assert sum(p for _, p in odds.ends) == 1
    assert odds.ends == tuple((e, Fraction(n, odds.end_counts[0])) for e, n in odds.end_counts[1])


def test_the_aftermath_reads_numerators_as_it_reads_chances():
    winner = Fighter("A", wound_limit=4, fate="killer_blow", cool_down="skipped")
    loser = Fighter("B", wound_limit=4, character="classed")
    counts = ((0, 3), (2, 5), (2, 1), (4, 7))  # numerators over 64, a wound count twice
    chances = tuple((w, Fraction(n, 64)) for w, n in counts)
    rules = FightRules()
    assert p_fatigue_fails_after(winner, counts, rules) == p_fatigue_fails_after(
        winner, chances, rules
    )
    assert p_dies(loser, "killer_blow", counts, rules) == p_dies(
        loser, "killer_blow", chances, rules
    )
    assert fate_steps(winner, loser, counts, rules, 64) == fate_steps(winner, loser, chances, rules)


def _paths(moves, s, acc, out):
    """Every path's product of leaving counts from ``s`` (brute force over the chain)."""
    den, t = moves[s]
    leave = den - t.get(s, 0)
    if not leave:
        out.append(acc)
        return
    acc *= leave
    out.append(acc)
    for k, n in t.items():
        if n and k != s and not isinstance(k, End):
            _paths(moves, k, acc, out)


@pytest.mark.parametrize(("a", "b", "rules", "distance"), _FIGHTERS)
def test_the_common_denominator_is_divided_by_every_path(a, b, rules, distance):
    # the forward pass divides a place's chance by its leaving count: exact only when the
    # common denominator is a multiple of every path's product of those counts
    chain = _Chain((a, b), rules, distance)
    start = chain.start()
    chain.forward({start: Fraction(1)})
    products: list[int] = []
    _paths(chain.moves, start, 1, products)
    order = sorted(chain.moves, key=_order)
    leaves = {k: den - t.get(k, 0) for k, (den, t) in chain.moves.items()}
    nexts = {
        k: [j for j, n in t.items() if n and j != k and not isinstance(j, End)]
        for k, (_, t) in chain.moves.items()
    }
    bound = path_bound(order, leaves, nexts)
    assert all(bound % p == 0 for p in products)
    leaves = [den - t.get(k, 0) for k, (den, t) in chain.moves.items()]
    product = 1
    for n in leaves:
        product *= n or 1
    assert product % bound == 0  # never more than the product of all the counts


@pytest.mark.parametrize(
    "n", [1, 2, 2**10 * 3**4 * 2039, 2053 * 2063 * 7**3, 12**88 - 1, 97 * (10**40 + 121)]
)
def test_atoms_multiply_back(n):
    split = atoms(n)
    product = 1
    for f, e in split.items():
        product *= f**e
    assert product == n
    assert all(f >= 2048 or all(f % q for q in range(2, f)) for f in split)  # small ones prime


def _both_at_once_before(w, ea, eb, gap):
    """Where simultaneous blows left the fight before the table (the former function)."""
    a_out, b_out = eb >= 2, ea >= 2
    after = (w[0] + (eb >= 1), w[1] + (ea >= 1))
    if a_out and b_out:
        return End("draw", *after)
    if b_out:
        return End("v0" if ea == 2 else "m0", *after)
    if a_out:
        return End("v1" if eb == 2 else "m1", *after)
    return after if gap == 0 else (after[0], after[1], gap, 1, 1)


def test_simultaneous_blows_end_as_before():
    # a round of simultaneous turns, from an opening situation and from a settled state: the
    # same outcomes, each with the same count, as the former per-pair function gives
    rules = FightRules(ties="simultaneous")
    a = Fighter("A", wound_limit=3, damage="d6", movement_die="d8", character="npc")
    b = Fighter("B", wound_limit=3, damage="d8", kind="shoot", character="npc")
    chain = _Chain((a, b), rules, 9)
    for s in [(0, 1, 9, 1, 1), (2, 2, 0, 1, 1), (1, 0, 4, 1, 1)]:
        counts: dict = {}
        chain._simultaneous(counts, s, (0, 0), Fraction(1, 3))
        da, ta = chain.turn(0, s, 0)
        db, tb = chain.turn(1, s, 0)
        expected: dict = {}
        for (ea, ga), na in ta:
            for (eb, gb), nb in tb:
                after = 0 if ga == 0 or gb == 0 else max(0, ga + gb - s[2])
                k = _both_at_once_before((s[0], s[1]), ea, eb, after)
                expected[k] = expected.get(k, 0) + na * nb
        assert counts == {3 * da * db: expected}
        assert any(isinstance(k, End) for k in expected)  # the ends are among them
