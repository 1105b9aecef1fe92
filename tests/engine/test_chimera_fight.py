"""The "Chimera fight" calculator: figures, steps, cross-field checks, seeded logs."""

import time
from fractions import Fraction

import pytest

from ruleslab.chimera.fight import chimera_fight, fight_chart, play_fight, play_round
from ruleslab.params import InputError

KEYS = [
    "a_tn", "a_p_hit", "a_p_critical", "a_p_wound", "a_p_vanquish",
    "b_tn", "b_p_hit", "b_p_critical", "b_p_wound", "b_p_vanquish",
    "p_a_wins", "p_b_wins", "p_neither", "expected_rounds", "p_surprise",
    "a_killer_blow", "b_killer_blow",
]  # fmt: skip


def test_defaults_and_stable_keys():
    r = chimera_fight()
    assert [f.key for f in r.figures()] == KEYS
    assert r.figure("a_tn").value == 12
    assert r.figure("a_p_hit").value == Fraction(3, 5)
    assert r.figure("a_p_vanquish").value == Fraction(501, 1280)
    assert r.figure("p_a_wins").value + r.figure("p_b_wins").value == 1
    assert r.figure("p_surprise").text == "—"
    assert r.figure("b_killer_blow").text == "not classed"
    assert r.figure("a_killer_blow").value == Fraction(1, 2)
    text = r.explain()
    assert "Chimera combat › Combat › Attack Target Numbers" in text
    assert "RN-CHIM-1" in text
    assert "Vanquishing Foes" in text


def test_chart_sums_to_one_and_changes_with_defence():
    r = chimera_fight()
    bars = fight_chart(r.a_on_b)
    assert bars[0][0] == "Miss"
    assert bars[1][0] == "No wound"
    assert abs(sum(p for _, p in bars) - 1) < 1e-12
    assert chimera_fight(B_defence=3).figure("p_a_wins").value < r.figure("p_a_wins").value


def test_surprise_figure():
    r = chimera_fight(surprise="A", sneak=2, surprise_tn=12)
    assert r.figure("p_surprise").value == Fraction(11, 20)
    assert r.figure("p_a_wins").value > chimera_fight().figure("p_a_wins").value


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"A_mr": -1}, "A_mr", "from 0 to 40"),
        ({"B_wound_limit": 11}, "B_wound_limit", "from 0 to 10"),
        ({"A_damage": "lots"}, "A_damage", "not a dice expression"),
        ({"A_damage": "d1"}, "A_damage", "from 2 to 100"),
        ({"B_wounds": 3}, "B_wounds", "from 0 to the Wound Limit"),
        ({"A_position": "prone"}, "A_position", "Shoot"),
        ({"critical": "sometimes"}, "critical", "one of"),
    ],
)
def test_bad_input(kwargs, field, words):
    with pytest.raises(InputError) as err:
        chimera_fight(**kwargs)
    assert err.value.field == field
    assert words in err.value.message


def test_prone_shooter_is_fine():
    r = chimera_fight(A_position="prone", A_kind="shoot", B_kind="shoot")
    assert r.figure("b_tn").value == 12  # A's MR 10 + prone 2 against B's Shoot


def test_roll_logs_are_seeded():
    r = chimera_fight(surprise="B")
    one = play_round(r, 7)
    assert one == play_round(r, 7)
    assert "— Round 1 —" in one
    assert any("Sneak" in line for line in one)
    fight = play_fight(r, 7)
    assert any(w in fight[-1] for w in ("vanquishes", "morale", "Both fall"))


def test_default_duel_is_fast():
    start = time.perf_counter()
    chimera_fight(A_attack=4, B_defence=0)  # uncached
    assert time.perf_counter() - start < 2.0


def test_form_values_parse_then_check():
    # The form parses every field, then calls the engine, which checks them again.
    values = {p.name: p.parse(str(p.default)) for p in chimera_fight.params}
    assert chimera_fight(**values) == chimera_fight()
