"""Damage resolution: soak on dice, adds, ping, Dazed/Stunned — hand-worked and oracle-checked.

The rules (``ruleslab.quickref.damage``) and the Damage resolution calculator
(``ruleslab.calculators.damage``) combining them with natural soak.
"""

from fractions import Fraction
from math import comb

import pytest

from ruleslab.calculators.damage import CALCULATOR, damage_resolution
from ruleslab.declare import Chart
from ruleslab.params import InputError
from ruleslab.quickref.damage import damage_mixture, damage_taken, dazing, levels_to_reach

P, Q = Fraction(4, 10), Fraction(6, 10)


def binom(n, k):
    return comb(n, k) * P**k * Q ** (n - k)


def resolve(**given):
    """``damage_resolution`` with no Mega-Stamina, Quantum, armour or AP unless given."""
    return damage_resolution(
        **{"mega_stamina": 0, "quantum": 0, "armour_soak": 0, "armour_piercing": 0, **given}
    )


def test_soak_subtracts_dice_and_adds_apply():
    # 8 dice, 2 adds vs soak 3 natural + 2 armour: 3 dice left, +2 levels.
    r = damage_taken(dice=8, adds=2, kind="lethal", natural_soak=3, armour_soak=2)
    assert r.dice_after_soak == 3
    assert not r.pinged
    assert r.kind_dealt == "lethal"
    assert r.levels == (0, 0, binom(3, 0), binom(3, 1), binom(3, 2), binom(3, 3))
    assert sum(r.levels) == 1
    assert r.mean == 3 * P + 2
    assert r.p_at_least(2) == 1
    assert r.p_at_least(3) == 1 - Q**3
    assert r.p_at_least(0) == 1
    assert r.p_at_least(9) == 0


def test_armour_piercing_only_reduces_armour():
    r = damage_taken(
        dice=10, adds=0, kind="lethal", natural_soak=4, armour_soak=3, armour_piercing=5
    )
    assert r.soak == 4  # armour 3 − 5 → 0, natural untouched
    assert r.dice_after_soak == 6
    assert "AP has no effect on natural soak 4" in r.explain()


def test_ping_lower_kind_no_adds():
    r = damage_taken(dice=3, adds=4, kind="aggravated", natural_soak=3, armour_soak=0)
    assert r.dice_after_soak == 0
    assert r.pinged
    assert r.kind_dealt == "lethal"
    assert r.levels == (Q, P)
    assert r.mean == P
    assert r.adds_applied == 0
    assert (
        damage_taken(dice=1, adds=0, kind="bashing", natural_soak=5, armour_soak=0).kind_dealt
        == "stun"
    )
    assert (
        damage_taken(dice=1, adds=0, kind="lethal", natural_soak=5, armour_soak=0).kind_dealt
        == "bashing"
    )


def test_stun_failing_to_penetrate_deals_nothing():
    r = damage_taken(dice=2, adds=1, kind="stun", natural_soak=2, armour_soak=0)
    assert not r.pinged
    assert r.levels == (1,)
    assert r.mean == 0


def test_exactly_one_die_left():
    r = damage_taken(dice=5, adds=3, kind="bashing", natural_soak=4, armour_soak=0)
    assert r.dice_after_soak == 1
    assert r.levels == (0, 0, 0, Q, P)


def test_target_number():
    r = damage_taken(dice=2, adds=0, kind="lethal", natural_soak=0, armour_soak=0, target=9)
    assert r.levels == (Fraction(64, 100), Fraction(32, 100), Fraction(4, 100))


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("dice", {"dice": -1}),
        ("kind", {"kind": "fire"}),
        ("armour_piercing", {"armour_piercing": -2}),
        ("target", {"target": 11}),
    ],
)
def test_bad_input_names_the_field(field, kwargs):
    args = dict(dice=4, adds=0, kind="lethal", natural_soak=1, armour_soak=0) | kwargs
    with pytest.raises(InputError) as err:
        damage_taken(**args)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        # more dice than it resolves: the henchmen calculator's 1,000 incoming dice
        ({"dice": 501}, "dice", "Damage dice must be a whole number from 0 to 500."),
        ({"adds": 201}, "adds", "Damage adds must be a whole number from 0 to 200."),
        ({"kind": "fire"}, "kind", "Damage type must be one of Bashing, Lethal, Aggravated, Stun."),
        (
            {"natural_soak": 1.5},
            "natural_soak",
            "Natural soak must be a whole number from 0 to 200.",
        ),
        ({"armour_soak": True}, "armour_soak", "Armour soak must be a whole number from 0 to 200."),
        ({"target": 1}, "target", "Target number must be a whole number from 2 to 10."),
        # the first wrong input in signature order is named
        ({"dice": -1, "target": 11}, "dice", "Damage dice must be a whole number from 0 to 500."),
    ],
)
def test_bad_input_messages(kwargs, field, message):
    args = dict(dice=4, adds=0, kind="lethal", natural_soak=1, armour_soak=0) | kwargs
    with pytest.raises(InputError) as err:
        damage_taken(**args)
    assert (err.value.field, err.value.message) == (field, message)


def test_whole_floats_count_as_whole_numbers():
    a = damage_taken(dice=4.0, adds=1.0, kind="lethal", natural_soak=1, armour_soak=0)
    assert a == damage_taken(dice=4, adds=1, kind="lethal", natural_soak=1, armour_soak=0)


def test_mixture_weights_each_dice_count():
    pmf = {2: Fraction(1, 2), 5: Fraction(1, 4)}
    mix = damage_mixture(pmf, adds=1, kind="lethal", natural_soak=2, armour_soak=0)
    # 2 dice vs soak 2 → ping (Q, P); 5 dice → 3 dice + 1 add.
    expected = [Fraction(0)] * 5
    expected[0] += Fraction(1, 2) * Q
    expected[1] += Fraction(1, 2) * P
    for k in range(4):
        expected[k + 1] += Fraction(1, 4) * binom(3, k)
    assert mix == tuple(expected)
    assert sum(mix) == Fraction(3, 4)


def test_against_monte_carlo_oracle():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(20240601)
    n = 200_000
    r = damage_taken(
        dice=9, adds=2, kind="lethal", natural_soak=3, armour_soak=2, armour_piercing=1
    )
    left = 9 - (3 + 1)
    rolls = rng.integers(1, 11, size=(n, left))
    levels = (rolls >= 7).sum(axis=1) + 2
    for k, p in enumerate(r.levels):
        est = float((levels == k).mean())
        # 5 standard errors of a proportion from 200 000 samples
        assert abs(est - float(p)) < 5 * (float(p) * (1 - float(p)) / n) ** 0.5 + 1e-9


def test_resolution_dazed_and_stunned_by_hand():
    # Sta 2: natural lethal soak 1, armour 0 → 5 dice, 1 add; Dazed at 4, Stunned at 6.
    r = resolve(dice=6, adds=1, kind="lethal", stamina=2)
    assert r.taken.dice_after_soak == 5
    assert (r.dazing.dazed_at, r.dazing.stunned_at) == (4, 6)
    assert r.dazing.p_dazed == sum(binom(5, k) for k in range(3, 6))
    assert r.dazing.p_stunned == binom(5, 5)
    assert r.figure("p_dazed").value == r.dazing.p_dazed
    # the chart highlights from 4 levels (Dazed), 1 add + 3 dice
    assert r.chart().highlight_from == 4
    later = resolve(dice=6, adds=1, kind="lethal", stamina=2, taken_this_turn=4)
    assert later.dazing.p_dazed == 1
    assert later.dazing.p_stunned == 1 - binom(5, 0)
    # already Dazed: every bar is highlighted
    assert later.chart().highlight_from == 0


def test_resolution_mega_stamina_counts_for_dazing_and_once_in_soak():
    r = resolve(
        dice=12, adds=0, kind="bashing", stamina=3, mega_stamina=1, quantum=1, armour_soak=2
    )
    assert r.natural_soak == 1 + 3 + 1
    assert r.taken.dice_after_soak == 12 - 7
    assert (r.dazing.dazed_at, r.dazing.stunned_at) == (10, 15)
    assert r.dazing.p_dazed == 0
    assert "Effective Stamina for Dazing/Stunning" in r.explain()


def test_resolution_stun_soaked_as_bashing_and_ping_chart():
    r = resolve(dice=3, adds=0, kind="stun", stamina=3)
    assert r.natural_soak == 3
    assert r.taken.levels == (1,)
    p = resolve(dice=3, adds=0, kind="bashing", stamina=3)
    assert p.figure("kind_dealt").text == "Stun (ping)"
    assert p.chart() == Chart((("0", 0.6), ("1", 0.4)), 6)  # Dazed at 2 × Stamina 3


def test_levels_to_reach_and_dazing_rule():
    assert [levels_to_reach(6, t) for t in (0, 2, 6, 9)] == [6, 4, 0, 0]
    # 2 dice, no soak: P(0) = Q², P(1) = 2PQ, P(2) = P²; Sta 1, 1 taken: Dazed at 2, Stunned at 3.
    taken = damage_taken(dice=2, adds=0, kind="lethal", natural_soak=0, armour_soak=0)
    d = dazing(taken, stamina=1, taken_this_turn=1)
    assert (d.dazed_at, d.stunned_at, d.to_daze, d.to_stun) == (2, 3, 1, 2)
    assert d.p_dazed == 1 - Q**2
    assert d.p_stunned == P**2
    assert "P(Dazed) = P(1 already taken + levels ≥ 2)" in d.explain()
    m = dazing(taken, stamina=1, mega_stamina=1)  # effective Stamina 1 + 2 = 3
    assert (m.stamina, m.dazed_at, m.stunned_at) == (3, 6, 9)
    assert "Effective Stamina for Dazing/Stunning" in m.explain()


def test_calculator_defaults_are_the_signature_s():
    assert CALCULATOR.defaults() == {
        "dice": 6,
        "adds": 0,
        "kind": "lethal",
        "stamina": 2,
        "mega_stamina": 0,
        "quantum": 0,
        "armour_soak": 0,
        "armour_piercing": 0,
        "taken_this_turn": 0,
        "soak_rounding": "down",
    }
    # Sta 2: lethal soak 1, 5 dice left; Dazed at 4 levels of 5 dice.
    r = damage_resolution()
    assert r.taken.dice_after_soak == 5
    assert r.chart().highlight_from == 4
    assert r.dazing.p_dazed == sum(binom(5, k) for k in range(4, 6))


def test_against_icepool_oracle():
    icepool = pytest.importorskip("icepool")
    r = damage_taken(
        dice=11, adds=3, kind="aggravated", natural_soak=2, armour_soak=4, armour_piercing=2
    )
    left = 11 - (2 + 2)
    die = icepool.d10.map(lambda x: 1 if x >= 7 else 0)
    oracle = left @ die + 3
    for k, p in enumerate(r.levels):
        assert Fraction(oracle.probability(k)) == p


# --- the target as a record (issue 19) ---------------------------------------------------


def test_a_target_record_and_flat_fields_give_the_same_resolution():
    from ruleslab.character import Character

    kw = dict(dice=9, adds=1, kind="bashing", armour_soak=2, taken_this_turn=3)
    target = Character(stamina=4, mega_stamina=1, quantum=2)
    by_record = damage_resolution(target=target, **kw)
    by_fields = damage_resolution(stamina=4, mega_stamina=1, quantum=2, **kw)
    assert by_record == by_fields
    # a flat field changes that one field of the record passed
    assert damage_resolution(target=target, stamina=1, **kw) == damage_resolution(
        stamina=1, mega_stamina=1, quantum=2, **kw
    )


def test_a_target_record_by_hand():
    # Character(stamina=3, quantum=1): Mega-Stamina 0 (the record's default).
    # Lethal soak = Quantum 1 + ⌊Stamina 3 / 2⌋ = 2: 8 dice − 2 = 6 dice, each a level on
    # 7–10 (4/10). Dazed at 2 × 3 = 6 levels: every one of the 6 dice, (4/10)^6.
    from ruleslab.character import Character

    r = damage_resolution(dice=8, kind="lethal", target=Character(stamina=3, quantum=1))
    assert r.natural_soak == 2
    assert r.taken.dice_after_soak == 6
    assert r.dazing.p_dazed == Fraction(4, 10) ** 6
    assert r.dazing.p_stunned == 0  # 9 levels from 6 dice: impossible
    # A record's unread fields are the record's defaults (Character() has Quantum 1,
    # Stamina 3), not the form's (Stamina 2, Quantum 0).
    assert damage_resolution(target=Character()) == damage_resolution(stamina=3, quantum=1)


def test_the_target_s_fields_keep_their_names_labels_and_ranges():
    by_name = {p.name: p for p in CALCULATOR.params}
    assert [by_name[n].label for n in ("stamina", "mega_stamina", "quantum")] == [
        "Target's Stamina",
        "Target's Mega-Stamina",
        "Target's Quantum",
    ]
    assert [(by_name[n].minimum, by_name[n].maximum) for n in ("stamina", "mega_stamina")] == [
        (1, 20),
        (0, 10),
    ]
    assert by_name["mega_stamina"].help.endswith("(RN-DMG-6).")
