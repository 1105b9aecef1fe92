"""The Chimera fight calculator (key ``chimera``): fields, figures, cross-field checks, logs."""

import time
from fractions import Fraction

import pytest
from refusals import refusal

from ruleslab.calculators.chimera import CALCULATOR, chimera_fight, play_fight, play_round
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice
from ruleslab.chimera.duel import SurprisePlan
from ruleslab.chimera.fight import fight_chart

KEYS = [
    "a_tn", "a_p_hit", "a_p_critical", "a_p_wound", "a_p_vanquish",
    "b_tn", "b_p_hit", "b_p_critical", "b_p_wound", "b_p_vanquish",
    "p_a_wins", "p_b_wins", "p_neither", "expected_rounds", "p_surprise",
    "a_killer_blow", "b_killer_blow", "a_fatigue_fails", "b_fatigue_fails",
    "a_mr", "a_run", "a_creep", "b_mr", "b_run", "b_creep", "a_dead", "b_dead",
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
    bars = fight_chart(r.odds.a_on_b)
    assert bars[0][0] == "Miss"
    assert bars[1][0] == "No wound"
    assert abs(sum(p for _, p in bars) - 1) < 1e-12
    assert chimera_fight(b_defence=3).figure("p_a_wins").value < r.figure("p_a_wins").value


def test_surprise_figure():
    r = chimera_fight(surprise="A", sneak=2, surprise_tn=12)
    assert r.figure("p_surprise").value == Fraction(11, 20)
    assert r.figure("p_a_wins").value > chimera_fight().figure("p_a_wins").value


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"a_mr": -1}, "a_mr", "from 0 to 40"),
        ({"b_wound_limit": 11}, "b_wound_limit", "from 0 to 10"),
        ({"a_damage": "lots"}, "a_damage", "not a dice expression"),
        ({"a_damage": "d1"}, "a_damage", "from 2 to 100"),
        ({"b_wounds": 3}, "b_wounds", "from 0 to the Wound Limit"),
        ({"a_position": "prone"}, "a_position", "Shoot"),
        ({"critical": "sometimes"}, "critical", "one of"),
        # the actions: dropping prone, the distance, moving, readying, blasts
        ({"a_position": "drops_prone"}, "a_position", "may only move or Shoot"),
        ({"distance": 41}, "distance", "from 0 to 40"),
        ({"b_movement_die": "d7"}, "b_movement_die", "one of d4, d6, d8, d10, d12"),
        ({"a_encumbrance": -1}, "a_encumbrance", "from 0 to 40"),
        ({"b_plan": "run"}, "b_plan", "one of"),
        (
            {"a_kind": "grenade"},
            "a_kind",
            "one of fight = Fight (melee), shoot = Shoot (ranged), blast = Blast",
        ),
    ],
)
def test_bad_input(kwargs, field, words):
    err = refusal(chimera_fight, **kwargs)
    assert err.field == field
    assert words in err.message


def test_prone_shooter_is_fine():
    r = chimera_fight(a_position="prone", a_kind="shoot", b_kind="shoot")
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
    chimera_fight(a_attack=4, b_defence=0)  # uncached
    assert time.perf_counter() - start < 2.0


def test_form_values_parse_then_check():
    # The form parses every field, then calls the engine, which checks them again.
    values = {p.name: p.parse(str(p.default)) for p in chimera_fight.params}
    assert chimera_fight(**values) == chimera_fight()


SIDE_FIELDS = [
    "mr", "defence", "wound_limit", "wounds", "damage", "attack", "initiative", "kind",
    "position", "plan", "parry", "cover", "character", "morale_tn", "resist", "bound", "level",
    "cool_down", "fatigue_tn", "leader", "allies", "allies_down", "fate",
]  # fmt: skip
MOVING_FIELDS = ["encumbrance", "mr_modifier", "movement_die", "barrier", "parry_from", "blast_tn"]


def test_one_field_per_trait_grouped_by_combatant():
    names = [p.name for p in CALCULATOR.params]
    assert names == [
        *(f"a_{t}" for t in SIDE_FIELDS + MOVING_FIELDS),
        *(f"b_{t}" for t in SIDE_FIELDS + MOVING_FIELDS),
        "distance", "surprise", "sneak", "surprise_tn", "surprise_benefit", "action_die",
        "critical", "critical_damage", "ties", "parry_cover", "parry_applies", "cover_stacking",
        "surprise_action", "surprise_critical", "casualties", "blast_roll", "blast_resisted",
        "blast_shield", "coup_de_grace",
    ]  # fmt: skip
    a_group, b_group, a_moving, b_moving = CALCULATOR.groups
    assert (a_group.title, b_group.title) == ("Combatant A", "Combatant B")
    assert (a_moving.title, b_moving.title) == (
        "A: moving, cover and blasts",
        "B: moving, cover and blasts",
    )
    assert a_group.names == tuple(f"a_{t}" for t in SIDE_FIELDS)
    assert b_group.names == tuple(f"b_{t}" for t in SIDE_FIELDS)
    assert a_moving.names == tuple(f"a_{t}" for t in MOVING_FIELDS)
    assert b_moving.names == tuple(f"b_{t}" for t in MOVING_FIELDS)
    assert [p.name for p in CALCULATOR.main_params] == [
        "distance",
        "surprise",
        "sneak",
        "surprise_tn",
        "surprise_benefit",
    ]
    labels = {p.name: p.label for p in CALCULATOR.params}
    assert labels["a_mr"] == "A: Base Movement Rate (MR)"
    assert labels["b_resist"] == "B: Resistance bonus"


def test_the_fields_make_two_fighters_and_the_rules():
    r = chimera_fight(
        a_mr=11, a_damage="2d6+1", a_cover="light", a_character="classed", a_resist=4,
        b_wounds=1, b_kind="shoot", b_position="crouching", b_parry=2, b_initiative=-3,
        surprise="B", sneak=5, surprise_tn=9, surprise_benefit="bonus",
        ties="simultaneous", critical="margin5", surprise_action="first",
    )  # fmt: skip
    assert r.odds.a == Fighter(
        name="A", mr=11, defence=1, wound_limit=3, damage=DamageDice(2, 6, 1), attack=3,
        cover="light", character="classed", resist=4,
    )  # fmt: skip
    assert r.odds.b == Fighter(
        name="B", mr=12, defence=1, wound_limit=2, wounds=1, damage=DamageDice(1, 6, 0),
        attack=2, initiative=-3, kind="shoot", position="crouching", parry=2,
    )  # fmt: skip
    assert r.odds.rules == FightRules(
        ties="simultaneous", critical="margin5", surprise_action="first"
    )
    assert r.odds.surprise == SurprisePlan(side=1, sneak=5, tn=9, benefit="bonus")
    assert chimera_fight().odds.surprise is None


def test_a_parsed_damage_die_is_taken_as_is():
    assert chimera_fight(a_damage=DamageDice(1, 8)) == chimera_fight()
    assert chimera_fight(b_damage=DamageDice(10, 100, -20)).odds.b.dice.sides == 100


@pytest.mark.parametrize(
    ("field", "dice", "typed"),
    [
        ("a_damage", DamageDice(40, 100), "40d100"),  # was computed for minutes
        ("a_damage", DamageDice(11, 6), "11d6"),
        ("b_damage", DamageDice(0, 6), "0d6"),
        ("b_damage", DamageDice(1, 1), "d1"),
        ("a_damage", DamageDice(1, 10**6), "d1000000"),
        ("a_damage", DamageDice(1, 6, 21), "d6+21"),
        ("b_damage", DamageDice(1, 6, -21), "d6-21"),
    ],
)
def test_a_parsed_damage_die_gets_the_fields_checks_and_message(field, dice, typed):
    (param,) = (p for p in CALCULATOR.params if p.name == field)
    typed_err = refusal(param.parse, typed)
    err = refusal(chimera_fight, **{field: dice})
    assert (err.field, err.message) == (field, typed_err.message)
    assert err.message.startswith(f"{field[0].upper()}: Weapon damage: ")


def test_a_damage_die_with_a_fractional_count_gets_the_fields_message():
    err = refusal(chimera_fight, a_damage=DamageDice(2.5, 6))
    assert err.message == "A: Weapon damage: the number of dice must be from 1 to 10."


def test_the_form_path_computes_unchecked_what_the_call_checks():
    values = {p.name: p.parse(str(p.default)) for p in CALCULATOR.params}
    assert CALCULATOR.run(values) == chimera_fight()


def test_charts_are_the_reports_own_and_highlight_what_vanquishes():
    r = chimera_fight()
    a_view, b_view, _, _ = CALCULATOR.views
    a_chart, b_chart = a_view.chart(r), b_view.chart(r)
    assert a_chart.bars == fight_chart(r.odds.a_on_b)
    assert b_chart.bars == fight_chart(r.odds.b_on_a)
    # B (WL 2, no wounds) is vanquished by severity 3 or more; A (WL 3) by 4 or more
    assert a_chart.bars[a_chart.highlight_from][0] == "3"
    assert b_chart.bars[b_chart.highlight_from][0] == "4"
    # B at his Wound Limit: any wound vanquishes him, the first severity bar on
    chart = a_view.chart(chimera_fight(b_wounds=2))
    assert chart.highlight_from == 2
    assert chart.bars[2][0] == "1"
