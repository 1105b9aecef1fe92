"""ruleslab.pmf: exact table arithmetic shared by the rule modules."""

from fractions import Fraction as F

from ruleslab.pmf import convolve, fractions, mean, mix, numerators


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
