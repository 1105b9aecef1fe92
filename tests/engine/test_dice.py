"""ruleslab.dice: hand-worked cases, independent oracles (icepool, numpy Monte Carlo),
property tests (hypothesis) and the dice_pool calculator.

icepool, numpy and hypothesis are imported with ``pytest.importorskip`` inside the tests
that need them, so the pure-engine tests also run in Pyodide, which has none of them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from dice_oracle import icepool_successes
from property_support import hypothesis_or_skip

from ruleslab.dice import (
    Comparison,
    SuccessDistribution,
    compare,
    pool_distribution,
)
from ruleslab.pmf import Dist

F = Fraction
TAIL = F(1, 10**12)


# --- hand-worked cases ---------------------------------------------------------------


def test_one_die():
    d = pool_distribution(1)
    assert d.pmf == (F(6, 10), F(4, 10))
    assert d.at_least(1) == F(4, 10)
    assert d.p_botch == F(1, 10)
    assert d.tail_bound == 0
    assert d.mean() == d.full_mean == F(4, 10)


def test_two_dice_botch_and_pmf():
    d = pool_distribution(2)
    # no success and at least one 1: (6/10)^2 - (5/10)^2
    assert d.p_botch == F(36, 100) - F(25, 100) == F(11, 100)
    assert d.pmf == (F(36, 100), F(48, 100), F(16, 100))
    assert d.at_least(2) == F(16, 100)


def test_single_die_reroll_chain():
    d = pool_distribution(1, reroll_tens=True)
    assert d.pmf[0] == F(6, 10)
    for k in range(1, len(d.pmf)):
        assert d.pmf[k] == F(36, 100) * F(1, 10) ** (k - 1)
    # exact tail: the geometric remainder after the last kept k
    k_max = len(d.pmf) - 1
    assert d.tail_bound == F(36, 100) * F(1, 10) ** k_max / (1 - F(1, 10))
    assert 0 < d.tail_bound < TAIL
    assert d.total() + d.tail_bound == 1
    # rerolling does not change the botch: a 10 already is a success
    assert d.p_botch == F(1, 10)
    assert d.full_mean == F(4, 9)
    assert d.full_mean - d.mean() < TAIL * 10


def test_reroll_target_ten_is_geometric():
    d = pool_distribution(1, target=10, reroll_tens=True)
    assert d.pmf[0] == F(9, 10)
    for k in range(1, len(d.pmf)):
        assert d.pmf[k] == F(9, 10) * F(1, 10) ** k
    assert d.full_mean == F(1, 9)


def test_target_two_botch_needs_all_ones():
    d = pool_distribution(3, target=2)
    assert d.p_botch == F(1, 1000)
    assert d.pmf[3] == F(9, 10) ** 3


def test_zero_dice():
    for reroll in (False, True):
        d = pool_distribution(0, reroll_tens=reroll)
        assert d.pmf == (F(1),)
        assert d.tail_bound == 0
        assert d.p_botch == 0
        assert d.at_least(1) == 0
    d = pool_distribution(0, auto=2)
    assert d.pmf == (0, 0, 1)
    assert d.at_least(2) == 1
    assert d.at_least(3) == 0


def test_automatic_successes_shift_and_prevent_botch():
    base = pool_distribution(4)
    d = pool_distribution(4, auto=3)
    assert d.pmf[:3] == (0, 0, 0)
    assert d.pmf[3:] == base.pmf
    assert d.p_botch == 0  # total successes are at least 3 > 0
    assert d.at_least(3) == 1
    assert d.at_least(5) == base.at_least(2)
    assert d.full_mean == base.full_mean + 3


def test_at_least_and_probability_edges():
    d = pool_distribution(3)
    assert d.at_least(0) == d.at_least(-5) == 1
    assert d.at_least(4) == 0
    assert d.at_least(99) == 0
    assert d.probability(-1) == 0
    assert d.probability(4) == 0
    assert d.probability(3) == F(64, 1000)
    r = pool_distribution(3, reroll_tens=True)
    n = len(r.pmf)
    assert r.at_least(n) == r.tail_bound  # exact: the whole omitted tail
    assert r.at_least(n + 1) == 0  # beyond the table: lower bound
    assert r.at_least(2) == 1 - r.pmf[0] - r.pmf[1]  # exact, tail included


def test_bad_pool_arguments():
    for kwargs in (
        {"dice": -1},
        {"dice": 2, "auto": -1},
        {"dice": 2, "target": 1},
        {"dice": 2, "target": 11},
        {"dice": 1.5},
        {"dice": True},
    ):
        with pytest.raises(ValueError, match="must be"):
            pool_distribution(**kwargs)


def test_tail_is_exact_and_small_for_large_pools():
    for n in (5, 30, 60):
        for t in (2, 7, 10):
            d = pool_distribution(n, target=t, reroll_tens=True)
            assert 0 < d.tail_bound < TAIL
            assert sum(d.pmf) + d.tail_bound == 1
            # the cut is minimal: one bar fewer would leave too much out
            assert d.tail_bound + d.pmf[-1] >= TAIL


# --- compare ---------------------------------------------------------------------------


def test_compare_hand_cases():
    c = compare(pool_distribution(1), pool_distribution(0))
    assert c == Comparison(p_a_wins=F(4, 10), p_tie=F(6, 10), p_b_wins=F(0), uncertainty=F(0))
    c = compare(pool_distribution(1), pool_distribution(1))
    assert (c.p_a_wins, c.p_tie, c.p_b_wins) == (F(24, 100), F(52, 100), F(24, 100))
    c = compare(pool_distribution(0), pool_distribution(2))
    assert c.p_b_wins == F(64, 100)
    assert c.p_tie == F(36, 100)


def test_compare_reroll_uncertainty_is_exact():
    a = pool_distribution(4, reroll_tens=True)
    b = pool_distribution(2, auto=1)
    c = compare(a, b)
    assert c.uncertainty == a.tail_bound
    assert c.p_a_wins + c.p_tie + c.p_b_wins + c.uncertainty == 1
    # swapping the pools swaps the winners
    s = compare(b, a)
    assert (s.p_a_wins, s.p_tie, s.p_b_wins) == (c.p_b_wins, c.p_tie, c.p_a_wins)


# --- oracle: icepool -------------------------------------------------------------------


@pytest.mark.parametrize("target", [2, 5, 7, 8, 10])
@pytest.mark.parametrize("n", [1, 3, 6, 12])
def test_pmf_matches_icepool_without_rerolls(n, target):
    icepool = pytest.importorskip("icepool")
    die = icepool_successes(icepool, n, target=target)
    d = pool_distribution(n, target=target)
    assert len(d.pmf) == n + 1
    for k in range(n + 1):
        assert d.pmf[k] == die.probability(k), k


@pytest.mark.parametrize("target", [6, 7, 10])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_pmf_matches_icepool_explode(n, target):
    icepool = pytest.importorskip("icepool")
    depth = 24
    die = icepool_successes(icepool, n, target=target, reroll_tens=True, depth=depth)
    d = pool_distribution(n, target=target, reroll_tens=True)
    # icepool stops exploding after `depth` rerolls; an outcome it truncates has at least
    # depth+1 tens, hence ≥ depth+1 successes, so every k ≤ depth must agree exactly.
    assert len(d.pmf) - 1 <= depth
    for k in range(len(d.pmf)):
        assert d.pmf[k] == die.probability(k), k
    # and icepool's mass above our table is our exact tail, up to its own truncation
    beyond = sum(die.probability(k) for k in die.outcomes() if k >= len(d.pmf))
    assert abs(beyond - d.tail_bound) <= n * F(1, 10) ** (depth + 1)


@pytest.mark.parametrize(("n", "target"), [(1, 7), (2, 7), (5, 7), (8, 6), (4, 2), (3, 10)])
def test_botch_matches_icepool(n, target):
    icepool = pytest.importorskip("icepool")
    # a 1 counts 1, other failures 0, a success 1000: botch ⇔ 1 ≤ total < 1000
    code = icepool.d10.map(lambda f: 1000 if f >= target else (1 if f == 1 else 0))
    total = n @ code
    oracle = sum(total.probability(x) for x in total.outcomes() if 1 <= x < 1000)
    assert pool_distribution(n, target=target).p_botch == oracle
    assert pool_distribution(n, target=target, reroll_tens=True).p_botch == oracle


@pytest.mark.parametrize(("na", "nb", "auto_b"), [(3, 2, 0), (5, 5, 0), (2, 4, 1), (7, 3, 2)])
def test_compare_matches_icepool(na, nb, auto_b):
    icepool = pytest.importorskip("icepool")
    diff = icepool_successes(icepool, na) - (icepool_successes(icepool, nb) + auto_b)
    c = compare(pool_distribution(na), pool_distribution(nb, auto=auto_b))
    assert c.uncertainty == 0
    assert c.p_a_wins == sum(diff.probability(x) for x in diff.outcomes() if x > 0)
    assert c.p_tie == diff.probability(0)
    assert c.p_b_wins == sum(diff.probability(x) for x in diff.outcomes() if x < 0)


def test_compare_rerolled_matches_icepool_within_uncertainty():
    icepool = pytest.importorskip("icepool")
    depth = 14
    ia = icepool_successes(icepool, 3, reroll_tens=True, depth=depth)
    ib = icepool_successes(icepool, 2, target=6, reroll_tens=True, depth=depth)
    diff = ia - ib
    c = compare(
        pool_distribution(3, reroll_tens=True), pool_distribution(2, target=6, reroll_tens=True)
    )
    # icepool is exact except on rolls with more than `depth` rerolls in one die
    slack = c.uncertainty + 5 * F(1, 10) ** (depth + 1)
    assert abs(c.p_a_wins - sum(diff.probability(x) for x in diff.outcomes() if x > 0)) <= slack
    assert abs(c.p_tie - diff.probability(0)) <= slack
    assert abs(c.p_b_wins - sum(diff.probability(x) for x in diff.outcomes() if x < 0)) <= slack


# --- oracle: numpy Monte Carlo for rerolled pools ---------------------------------------


def test_rerolled_pool_monte_carlo():
    """10^6 simulated rolls of 5 dice, target 7, 10s rerolled (seeded).

    Each estimated probability must lie within 5 standard errors
    sqrt(p(1-p)/N) of the exact value (a false alarm has chance ~1e-6 per figure).
    """
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(20240601)
    n_rolls, n_dice, target = 1_000_000, 5, 7
    first = rng.integers(1, 11, size=(n_rolls, n_dice), dtype=np.int8)
    succ = (first >= target).sum(axis=1).astype(np.int64)
    botch = (succ == 0) & (first == 1).any(axis=1)
    pending = (first == 10).sum(axis=1)
    while pending.any():
        rows = np.nonzero(pending)[0]
        width = int(pending[rows].max())
        roll = rng.integers(1, 11, size=(rows.size, width), dtype=np.int8)
        live = np.arange(width)[None, :] < pending[rows][:, None]
        succ[rows] += ((roll >= target) & live).sum(axis=1)
        pending[rows] = ((roll == 10) & live).sum(axis=1)

    d = pool_distribution(n_dice, target=target, reroll_tens=True)

    def close(exact: Fraction, hits: int) -> bool:
        p = float(exact)
        se = math.sqrt(max(p * (1 - p), 1e-12) / n_rolls)
        return abs(hits / n_rolls - p) <= 5 * se

    counts = np.bincount(succ, minlength=len(d.pmf))
    for k in range(9):
        assert close(d.pmf[k], int(counts[k])), k
    assert close(d.p_botch, int(botch.sum()))
    sd = math.sqrt(float(sum(k * k * p for k, p in enumerate(d.pmf)) - d.mean() ** 2))
    assert abs(succ.mean() - float(d.full_mean)) <= 5 * sd / math.sqrt(n_rolls)


# --- property tests (hypothesis) ---------------------------------------------------------


def test_property_distribution_sums_to_one():
    hyp, st = hypothesis_or_skip()

    @hyp.settings(max_examples=80, deadline=None)
    @hyp.given(st.integers(0, 60), st.integers(0, 10), st.integers(2, 10), st.booleans())
    def check(n, auto, target, reroll):
        d = pool_distribution(n, auto, target, reroll)
        assert all(p >= 0 for p in d.pmf)
        assert sum(d.pmf) + d.tail_bound == 1
        assert 0 <= d.tail_bound < TAIL
        if not reroll or n == 0:
            assert d.tail_bound == 0
            assert len(d.pmf) == n + auto + 1
            assert d.mean() == d.full_mean
        else:
            assert 0 <= d.full_mean - d.mean() < F(1, 10**9)
        assert 0 <= d.p_botch <= d.pmf[0]

    check()


def test_property_more_dice_never_lower_success():
    hyp, st = hypothesis_or_skip()

    @hyp.settings(max_examples=80, deadline=None)
    @hyp.given(
        st.integers(0, 40),
        st.integers(1, 3),
        st.integers(0, 5),
        st.integers(2, 10),
        st.booleans(),
        st.integers(0, 70),
    )
    def check(n, extra, auto, target, reroll, difficulty):
        small = pool_distribution(n, auto, target, reroll)
        big = pool_distribution(n + extra, auto, target, reroll)
        assert big.at_least(difficulty) >= small.at_least(difficulty)

    check()


def test_property_lower_target_and_rerolls_never_hurt():
    hyp, st = hypothesis_or_skip()

    @hyp.settings(max_examples=60, deadline=None)
    @hyp.given(st.integers(0, 30), st.integers(3, 10), st.integers(0, 40))
    def check(n, target, difficulty):
        plain = pool_distribution(n, target=target).at_least(difficulty)
        assert pool_distribution(n, target=target - 1).at_least(difficulty) >= plain
        # `upto` makes the rerolled table reach the difficulty, so the value is exact
        rerolled = pool_distribution(n, target=target, reroll_tens=True, upto=difficulty)
        assert rerolled.at_least(difficulty) >= plain

    check()


def test_property_compare_sums_to_one():
    hyp, st = hypothesis_or_skip()
    pools = st.builds(
        pool_distribution, st.integers(0, 25), st.integers(0, 4), st.integers(2, 10), st.booleans()
    )

    @hyp.settings(max_examples=60, deadline=None)
    @hyp.given(pools, pools)
    def check(a, b):
        c = compare(a, b)
        assert min(c.p_a_wins, c.p_tie, c.p_b_wins) >= 0
        assert c.p_a_wins + c.p_tie + c.p_b_wins + c.uncertainty == 1
        assert 0 <= c.uncertainty < 2 * TAIL
        if not a.tail_bound and not b.tail_bound:
            assert c.uncertainty == 0

    check()


def test_success_distribution_can_be_built_directly():
    d = SuccessDistribution(successes=Dist(0, (1, 1), 2), tail_bound=F(0), p_botch=F(0))
    assert d.full_mean is None
    assert d.mean() == F(1, 2)
    assert d.at_least(1) == F(1, 2)
    assert d.pmf == (F(1, 2), F(1, 2))


def test_automatic_successes_start_the_distribution():
    # 1 die and 2 automatic successes: 2 or 3 successes, the table padded with zeros
    d = pool_distribution(1, auto=2)
    assert (d.successes.lo, d.highest) == (2, 3)
    assert d.pmf == (0, 0, F(6, 10), F(4, 10))
    assert d.probability(1) == 0
    assert d.probability(3) == F(4, 10)
    assert [d.at_least(k) for k in range(-1, 6)] == [1, 1, 1, 1, F(4, 10), 0, 0]
    assert d.mean() == 2 + F(4, 10)


def test_roll_frequencies_match_the_exact_distribution():
    """Seeded rolls agree with the exact pmf (5 standard errors, 20,000 rolls)."""
    import random

    from ruleslab.dice import roll_pool

    rng = random.Random(7)
    n = 20_000
    counts: dict[int, int] = {}
    botches = 0
    for _ in range(n):
        r = roll_pool(4, rng=rng, reroll_tens=True)
        counts[r.successes] = counts.get(r.successes, 0) + 1
        botches += r.botch
    dist = pool_distribution(4, reroll_tens=True)
    for k in range(5):
        p = float(dist.probability(k))
        se = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(k, 0) / n - p) < 5 * se + 1e-9
    p = float(dist.p_botch)
    assert abs(botches / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def _rerolled_by_the_sum(n: int, target: int, upto: int) -> tuple[Dist, Fraction]:
    """The rerolled-10s table by the former sum (every way m closing faces succeed and the
    rest of the successes are 10s), k terms per entry, as the oracle of the recurrence."""
    a, b = 10 - target, target - 1
    w = [math.comb(n, m) * a**m * b ** (n - m) * 10**m for m in range(n + 1)]
    c: list[int] = []
    nums: list[int] = []
    cum, den, k = 0, 10**n, 0
    while True:
        c.append(1 if k == 0 else c[-1] * (k + n - 1) // k)
        nums.append(sum(c[k - m] * w[m] for m in range(min(n, k) + 1)))
        cum = cum * 10 + nums[-1]
        rem = den - cum
        if k >= upto and rem * 10**12 < den:
            break
        k += 1
        den *= 10
    weights = tuple(nums[i] * 10 ** (k - i) for i in range(k + 1))
    return Dist(0, weights, den), Fraction(rem, den)


@pytest.mark.parametrize(
    ("n", "target", "upto"),
    [(n, t, upto) for t in range(2, 11) for n, upto in [(1, 0), (2, 5), (7, 0), (40, 60)]]
    + [(402, t, 0) for t in (2, 7, 10)],
)
def test_rerolled_tables_by_the_recurrence_match_the_sum(n, target, upto):
    # the pool's generating function's three-term recurrence gives the same table, tail
    # and cut as the sum over the closing faces did, for every target
    got = pool_distribution(n, 0, target, True, upto=upto)
    table, tail = _rerolled_by_the_sum(n, target, upto)
    assert got.successes == table
    assert got.tail_bound == tail
