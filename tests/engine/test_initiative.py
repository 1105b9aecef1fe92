"""2.0 Initiative: Dex + Wits + Mega-Dex + Mega-Wits + 1d10, and who acts first."""

from fractions import Fraction

import pytest

from ruleslab.quickref.initiative import initiative, initiative_distribution, initiative_rating


def test_rating_adds_mega_dots_once():
    # "Initiative is (Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10)"
    assert initiative_rating(3, 2, 1, 2) == 8
    r = initiative(3, 2, 1, 2, 6)
    assert r.rating == 8
    assert r.figure("initiative").text == "8 + 1d10 (9–18)"
    assert "accounts for them separately" in r.explain()


def test_distribution_uniform_and_mean():
    d = initiative_distribution(5)
    assert [t for t, _ in d] == list(range(6, 16))
    assert all(p == Fraction(1, 10) for _, p in d)
    assert initiative(3, 2, 0, 0, 5).mean == Fraction(21, 2)


def test_equal_ratings_hand_worked():
    # equal ratings: 10 ties in 100, 45 wins, 45 losses
    r = initiative(3, 3, 0, 0, 6, ties="together")
    assert (r.p_first, r.p_together, r.p_opponent_first) == (
        Fraction(45, 100),
        Fraction(10, 100),
        Fraction(45, 100),
    )
    # default: equal ratings stay simultaneous
    assert initiative(3, 3, 0, 0, 6).p_together == Fraction(1, 10)
    rr = initiative(3, 3, 0, 0, 6, ties="reroll")
    assert rr.p_first == Fraction(1, 2)
    assert rr.p_together == 0


def test_plus_two_hand_worked():
    # difference +2: wins = pairs with a − b > −2: 100 − ties(8) − losses(28) = 64
    r = initiative(4, 4, 0, 0, 6, ties="together")
    assert r.p_first == Fraction(64, 100)
    assert r.p_together == Fraction(8, 100)
    assert r.p_opponent_first == Fraction(28, 100)
    d = initiative(4, 4, 0, 0, 6)  # ties go to the higher rating
    assert d.p_first == Fraction(72, 100)
    assert d.p_together == 0
    rr = initiative(4, 4, 0, 0, 6, ties="reroll")
    assert rr.p_first == Fraction(64, 92)


def test_ten_apart_always_first():
    r = initiative(10, 10, 0, 0, 10)
    assert r.p_first == 1
    assert r.p_equal_totals == 0
    assert "never be equal" in r.explain()


@pytest.mark.parametrize("ties", ["rating", "reroll", "together"])
def test_probabilities_sum_to_one(ties):
    for opp in range(0, 25, 3):
        r = initiative(5, 4, 1, 0, opp, ties=ties)
        assert r.p_first + r.p_together + r.p_opponent_first == 1


def test_matches_icepool():
    icepool = pytest.importorskip("icepool")
    for a, b in [(6, 6), (8, 6), (5, 9), (12, 3)]:
        diff = (icepool.d10 + a) - (icepool.d10 + b)
        r = initiative(a - a // 2, a // 2, 0, 0, b, ties="together")
        assert r.p_first == Fraction(diff.probability(">", 0))
        assert r.p_together == Fraction(diff.probability("==", 0))
