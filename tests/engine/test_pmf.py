"""ruleslab.pmf: exact table arithmetic shared by the rule modules."""

from fractions import Fraction as F

from ruleslab.pmf import chart_bars, convolve, fractions, last_visible, mean, mix, numerators


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


def test_mix_weights_tables_of_any_length():
    got = mix([(F(1, 2), (F(1),)), (F(1, 2), (F(0), F(1, 2), F(1, 2))), (F(0), (F(1),))])
    assert got == (F(1, 2), F(1, 4), F(1, 4))
    assert mix([]) == (F(0),)


def test_charts_end_at_the_last_visible_bar():
    pmf = [F(1, 2), F(1, 2) - F(1, 10**7), F(1, 10**7)]
    assert last_visible(pmf) == 1  # 10⁻⁷ is below the 10⁻⁶ cut-off
    assert chart_bars(pmf) == (("0", 0.5), ("1", float(pmf[1])))
    assert last_visible([F(1, 10**9)] * 3, default=2) == 2
    assert chart_bars([F(1, 10**9), F(1)]) == (("0", 1e-09), ("1", 1.0))
