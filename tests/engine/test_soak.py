"""Natural soak (the 2.0 formula), armour, rounding (the form's bad input: test_health.py)."""

import pytest

from ruleslab.quickref.soak import (
    armour_after_ap,
    natural_soak_against,
    natural_soak_values,
    soak,
    soak_kind,
)


def test_formula_by_hand():
    # (Q + Sta + MSta) B / (Q + Sta/2 + MSta) L / (Q/2) A with Q 3, Sta 5, MSta 1.
    assert natural_soak_values(3, 5, 1) == (9, 6, 1)
    assert natural_soak_values(3, 5, 1, "up") == (9, 7, 2)


def test_soak_result_with_armour():
    r = soak(
        quantum=2, stamina=3, mega_stamina=0, armour_bashing=4, armour_lethal=3, armour_aggravated=1
    )
    assert (r.bashing, r.lethal, r.aggravated) == (9, 6, 2)
    assert r.figure("soak").text == "9 B / 6 L / 2 A"
    assert r.total("stun") == r.bashing
    assert r.natural("lethal") == 3
    assert "Stamina 3/2 (rounded down: 1)" in r.explain()


def test_mega_stamina_counts_once_and_says_so():
    r = soak(quantum=0, stamina=2, mega_stamina=2)
    assert (r.bashing, r.lethal, r.aggravated) == (4, 3, 0)
    assert "does not count as 2 Stamina dots" in r.explain()


def test_helpers():
    assert soak_kind("stun") == "bashing"
    assert soak_kind("lethal") == "lethal"
    assert armour_after_ap(3, 5) == 0
    assert armour_after_ap(5, 2) == 3


@pytest.mark.parametrize(
    ("kind", "rounding", "expected"),
    # Q 3, Sta 5, MSta 1: B 3 + 5 + 1; L 3 + 5/2 + 1; A 3/2.
    [
        ("bashing", "down", 9),
        ("stun", "down", 9),
        ("lethal", "down", 6),
        ("lethal", "up", 7),
        ("aggravated", "down", 1),
        ("aggravated", "up", 2),
    ],
)
def test_natural_soak_against_one_kind(kind, rounding, expected):
    assert natural_soak_against(kind, 3, 5, 1, rounding) == expected
