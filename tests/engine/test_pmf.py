"""ruleslab.pmf: exact table and distribution arithmetic shared by the rule modules."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from ruleslab.pmf import (
    Dist,
    binomial_mixture,
    chart_bars,
    constant,
    convolve,
    dice,
    die,
    fractions,
    last_visible,
    mean,
    mixture,
    numerators,
)

F = Fraction


def test_numerators_round_trip():
    table = (F(1, 2), F(1, 3), F(1, 6))
    nums, den = numerators(table)
    assert (nums, den) == ([3, 2, 1], 6)
    assert fractions(nums, den) == table
    assert numerators(()) == ([], 1)


def test_convolve_two_coins():
    coin = (F(1, 2), F(1, 2))
    assert convolve(coin, coin) == (F(1, 4), F(1, 2), F(1, 4))
    assert convolve((F(1),), (F(1, 3), F(2, 3))) == (F(1, 3), F(2, 3))


def test_mean():
    assert mean((F(1, 4), F(1, 2), F(1, 4))) == 1
    assert mean((F(1),)) == 0


def test_charts_end_at_the_last_visible_bar():
    pmf = [F(1, 2), F(1, 2) - F(1, 10**7), F(1, 10**7)]
    assert last_visible(pmf) == 1  # 10⁻⁷ is below the 10⁻⁶ cut-off
    assert chart_bars(pmf) == (("0", 0.5), ("1", float(pmf[1])))
    assert last_visible([F(1, 10**9)] * 3, default=2) == 2
    assert chart_bars([F(1, 10**9), F(1)]) == (("0", 1e-09), ("1", 1.0))


def _enumerated(count, sides):
    """``{total: P}`` for ``count`` dice, listing all ``sides**count`` rolls."""
    totals = Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=count))
    return {t: F(n, sides**count) for t, n in totals.items()}


@pytest.mark.parametrize(
    ("count", "sides"), [(0, 6), (1, 1), (1, 20), (2, 6), (3, 6), (4, 3), (2, 10), (5, 2)]
)
def test_dice_match_enumeration(count, sides):
    got = dice(count, sides)
    assert dict(got.items()) == _enumerated(count, sides)
    assert (got.lo, got.hi) == (count, count * sides)


def test_one_die_and_sums():
    assert die(6).items() == tuple((k, F(1, 6)) for k in range(1, 7))
    two = dice(2, 6)
    assert two.p(7) == F(6, 36)
    assert two.p(13) == 0
    assert two.total() == 1
    assert two.mean() == 7
    assert two.at_least(11) == F(3, 36)
    assert two.at_least(-5) == 1
    assert two.at_least(20) == 0
    assert dice(0, 8) == constant(0)
    assert dice(3, 6).p(3) == F(1, 216)
    assert die(2) + die(2).shift(10) == Dist(12, (1, 2, 1), 4)


def test_dice_at_the_declared_limits():
    # 20 d100 (a critical 10d100): all ones is 1 roll in 100²⁰; a total of 22 has one die
    # at 3 or two at 2: 20 + C(20, 2) = 210 rolls; the table is symmetric about 1010.
    big = dice(20, 100)
    assert (big.lo, big.hi) == (20, 2000)
    assert big.p(20) == big.p(2000) == F(1, 100**20)
    assert big.p(22) == F(210, 100**20)
    assert big.p(700) == big.p(1320)
    assert big.total() == 1
    assert big.mean() == 1010


def test_bad_dice():
    with pytest.raises(ValueError, match="at least one side"):
        die(0)
    with pytest.raises(ValueError, match="cannot be negative"):
        dice(-1, 6)
    with pytest.raises(ValueError, match="must be positive"):
        Dist(0, (1,), 0)


def test_weights_are_kept_in_lowest_terms():
    assert Dist(3, (2, 4), 6) == Dist(3, (1, 2), 3)
    assert Dist(3, (2, 4), 6).den == 3
    assert Dist(0, (0, 0), 5) == Dist(0, (0, 0), 1)
    table = (F(1, 2), F(1, 3), F(1, 6))
    assert Dist.from_pmf(-1, table) == Dist(-1, (3, 2, 1), 6)
    assert Dist.from_pmf(-1, table).pmf == table


def test_higher_of_two():
    best = die(6).max_with(die(6))
    assert best.p(6) == F(11, 36)
    assert best.p(1) == F(1, 36)
    assert best.total() == 1
    assert best.at_least(5) == 1 - F(16, 36)
    # different ranges: a certain 3 against a d6 gives 3 on 1-3, else the die
    assert constant(3).max_with(die(6)) == Dist(3, (3, 1, 1, 1), 6)
    pairs = Counter(max(a, b) for a in range(1, 5) for b in range(3, 6))  # d4 vs d3+2
    want = {v: F(n, 12) for v, n in pairs.items()}
    assert dict(die(4).max_with(die(3).shift(2)).items()) == want


def test_tails_and_mixtures():
    d6 = die(6)
    top = d6.tail(5)
    assert top.items() == ((5, F(1, 6)), (6, F(1, 6)))
    assert top.total() == F(1, 3)
    assert top.mean() == F(11, 6)
    assert d6.tail(-3) == d6
    assert d6.tail(9).items() == ()
    assert d6.tail(9).total() == 0
    # half the time 0, half the time a d2: 0 ½, 1 ¼, 2 ¼
    assert mixture([(F(1, 2), constant(0)), (F(1, 2), die(2))]) == Dist(0, (2, 1, 1), 4)
    assert mixture([(F(1, 3), die(2).shift(5)), (F(0), constant(-9))]) == Dist(6, (1, 1), 6)
    assert mixture([]) == Dist(0, (0,))


def test_at_most_and_tables_counted_from_zero():
    d6 = die(6)
    assert d6.at_most(2) == F(1, 3)
    assert d6.at_most(0) == 0
    assert d6.at_most(6) == d6.at_most(40) == 1
    assert d6.at_most(3) + d6.at_least(4) == 1
    assert die(2).shift(1).table() == (0, 0, F(1, 2), F(1, 2))
    assert constant(0).table() == (1,)
    assert d6.tail(9).table() == ()
    assert mixture([]).table() == (0,)
    with pytest.raises(ValueError, match="negative"):
        die(2).shift(-2).table()


def _pairs(x, y):
    """``{(a, b): P}`` for independent ``x`` and ``y``, listing every pair."""
    return {(a, b): p * q for a, p in x.items() for b, q in y.items()}


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (die(6), die(6)),
        (die(4).shift(-3), die(3).shift(2)),
        (dice(2, 3), constant(4)),
        (constant(0), die(10).shift(7)),
        (Dist(2, (1, 0, 3), 5), Dist(-1, (2, 0, 0, 1), 4)),  # parts of distributions
    ],
)
def test_difference_and_versus_match_every_pair(x, y):
    pairs = _pairs(x, y)
    want = Counter()
    for (a, b), p in pairs.items():
        want[a - b] += p
    diff = x - y
    assert {v: p for v, p in diff.items()} == {v: p for v, p in want.items() if p}
    assert dict((-y).items()) == {-b: q for b, q in y.items()}
    assert x.versus(y) == (
        sum((p for (a, b), p in pairs.items() if a > b), F(0)),
        sum((p for (a, b), p in pairs.items() if a == b), F(0)),
        sum((p for (a, b), p in pairs.items() if a < b), F(0)),
    )


def test_versus_by_hand():
    # a d6 against a d6: 15 of the 36 pairs higher, 6 equal, 15 lower
    assert die(6).versus(die(6)) == (F(15, 36), F(6, 36), F(15, 36))
    assert constant(3).versus(die(2)) == (F(1), F(0), F(0))


def test_p_where_counts_the_values_of_an_event():
    two = dice(2, 6)
    asked = []

    def even(v):
        asked.append(v)
        return v % 2 == 0

    assert two.p_where(even) == F(18, 36)  # 18 of the 36 rolls have an even total
    assert sorted(asked) == list(range(2, 13))
    asked.clear()
    assert Dist(0, (1, 0, 1), 2).p_where(even) == 1
    assert asked == [0, 2]  # a value of probability 0 is not asked
    assert two.p_where(lambda v: v > 20) == 0


def test_packed_convolve_with_an_all_zero_table():
    # The slot width must hold each entry too: with one table all 0 the sums are 0,
    # but the other table's entries (300 > one byte) must still be packed.
    from ruleslab.pmf import packed_convolve

    assert packed_convolve([0, 0], [300, 5]) == [0, 0, 0]
    assert packed_convolve([300, 5], [0]) == [0, 0]
    assert packed_convolve([2, 3], [300, 5]) == [600, 910, 15]


def _binomial_by_enumeration(counts, success, failure):
    """``Σ P(n) · P(k successes of n dice)`` by listing every face of every die."""
    faces = success + failure
    table: dict[int, Fraction] = {}
    for n, p in counts.items():
        for roll in itertools.product(range(faces), repeat=n):
            k = sum(face < success for face in roll)
            table[k] = table.get(k, Fraction(0)) + p / faces**n
    return table


@pytest.mark.parametrize(
    ("counts", "success", "failure"),
    [
        ({0: Fraction(1)}, 4, 6),
        ({3: Fraction(1)}, 1, 1),
        ({1: Fraction(1, 3), 4: Fraction(2, 7)}, 4, 6),  # weights summing to less than 1
        ({0: Fraction(1, 5), 2: Fraction(1, 5), 5: Fraction(3, 5)}, 3, 2),
        ({2: Fraction(1, 2), 3: Fraction(0), 6: Fraction(1, 2)}, 0, 3),  # no face succeeds
    ],
)
def test_binomial_mixture_matches_enumeration(counts, success, failure):
    mixed = binomial_mixture(counts, success, failure)
    listed = _binomial_by_enumeration(counts, success, failure)
    assert {k: p for k, p in mixed.items()} == {k: p for k, p in listed.items() if p}
    assert mixed.total() == sum(counts.values())


def test_binomial_mixture_equals_the_mixture_of_pool_tables():
    # hundreds of dice with weights of hundreds of digits, as a squad's support attack has
    # them: the same Dist as mixing the pool tables themselves (ruleslab.dice, by formula)
    from ruleslab.dice import pool_distribution

    den = 7 * 10**150 + 3
    counts = {n: Fraction((n * 7919) ** 40 % den + 1, den) for n in range(180, 260, 3)}
    counts[0] = Fraction(1, den)
    expected = mixture([(p, pool_distribution(n, 0, 7).successes) for n, p in counts.items()])
    assert binomial_mixture(counts, 4, 6) == expected
    assert binomial_mixture({}, 4, 6) == mixture([])


def test_binomial_mixture_refuses_negative_counts():
    with pytest.raises(ValueError, match="must not be negative"):
        binomial_mixture({-1: Fraction(1)}, 4, 6)
    with pytest.raises(ValueError, match="must fail"):
        binomial_mixture({1: Fraction(1)}, 4, 0)
