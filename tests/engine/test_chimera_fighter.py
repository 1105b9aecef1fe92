"""The Chimera combatant as one record (issue 19): ``Fighter`` declares its fields once;
the calculator's sides A and B are two roles of it (fields ``a_…`` and ``b_…``)."""

from dataclasses import replace

import pytest
from refusals import refusal

from ruleslab.calculators.chimera import CALCULATOR, A, B, chimera_fight
from ruleslab.chimera import DamageDice, Fighter, fight_odds
from ruleslab.records import fields_of


def test_each_side_is_a_role_of_the_one_record():
    # 29 fields a side, named prefix + field, all declared by the record
    assert len(A.fields) == len(B.fields) == 29
    assert set(A.fields) == set(fields_of(Fighter))
    names = [p.name for p in CALCULATOR.params]
    assert names[:29] == [f"a_{f}" for f in A.fields]
    assert names[29:58] == [f"b_{f}" for f in B.fields]
    by_name = {p.name: p for p in CALCULATOR.params}
    assert by_name["a_mr"].label == "A: Base Movement Rate (MR)"
    assert by_name["b_mr"].help.startswith("B's base MR.")
    assert (by_name["a_mr"].default, by_name["b_mr"].default) == (10, 12)
    assert (by_name["a_damage"].default, by_name["b_damage"].default) == ("d8", "d6")


def test_a_record_and_the_flat_fields_give_the_same_fight():
    a = Fighter(
        name="A", mr=12, damage="2d6", character="pc", resist=2, bound="bound",
        movement_die="d12", cool_down="skipped", leader="fallen",
    )  # fmt: skip
    b = Fighter(name="B", mr=9, wound_limit=2, damage="d6+1", attack=2, cover="light")
    flat = chimera_fight(
        a_mr=12, a_damage="2d6", a_bound="bound", a_movement_die="d12", a_cool_down="skipped",
        a_leader="fallen", b_mr=9, b_wound_limit=2, b_damage="d6+1", b_attack=2, b_cover="light",
    )  # fmt: skip
    assert chimera_fight(a=a, b=b) == flat
    assert (flat.odds.a, flat.odds.b) == (a, b)
    # both: a flat field changes that one field of the record
    both = chimera_fight(a=a, b=b, a_mr=14)
    assert both.odds.a == replace(a, mr=14)
    assert both.odds.b == b


def test_a_record_passed_in_plays_its_side_whatever_its_name():
    ogre = Fighter(name="Ogre", mr=8, defence=2, wound_limit=4, damage="2d6", attack=1)
    r = chimera_fight(b=ogre)
    assert r.odds.b == replace(ogre, name="B")  # the side's name: B (the form's fields b_…)
    assert r.odds.a == chimera_fight().odds.a


@pytest.mark.parametrize("a_mr", [0, 5, 10, 17, 40])
def test_changing_a_mr_never_moves_b(a_mr):
    r = chimera_fight(a_mr=a_mr)
    assert r.odds.b == chimera_fight().odds.b
    # By hand: nothing adjusts either MR (no encumbrance, wounds, bound or cover), so the
    # TN to hit B is B's MR 12 whatever A's, and the TN to hit A is A's MR.
    assert r.odds.a_on_b.tn == 12
    assert r.odds.b_on_a.tn == a_mr
    assert r.odds.a.mr == a_mr


def test_changing_b_mr_never_moves_a():
    assert chimera_fight(b_mr=3).odds.a == chimera_fight().odds.a
    assert chimera_fight(b_mr=3).odds.a_on_b.tn == 3


def test_the_form_values_are_the_records_values():
    # The record holds what the form (and a link) holds: a_bound=bound, a_movement_die=d12,
    # a_cool_down=skipped, a_leader=fallen; the rules read the properties.
    f = chimera_fight(
        a_bound="bound", a_movement_die="d12", a_cool_down="skipped", a_leader="fallen"
    ).odds.a
    assert (f.bound, f.movement_die, f.cool_down, f.leader) == ("bound", "d12", "skipped", "fallen")
    assert (f.is_bound, f.movement_sides, f.spends_cool_down, f.leader_fell) == (
        True, 12, False, True,
    )  # fmt: skip
    d = chimera_fight().odds.a
    assert (d.is_bound, d.movement_sides, d.spends_cool_down, d.leader_fell) == (
        False, 6, True, False,
    )  # fmt: skip


def test_bound_takes_4_off_the_mr():
    # Capture: "impose a penalty of –4 to all rolls and MR while bound": MR 10 − 4 = 6,
    # so B's TN to hit A falls from 10 to 6.
    assert Fighter(name="A", bound="bound").adjusted_mr(0) == 6
    assert chimera_fight(a_bound="bound").odds.b_on_a.tn == 6
    assert chimera_fight().odds.b_on_a.tn == 10


def test_damage_is_held_as_its_plain_text_and_read_as_dice():
    assert Fighter(name="X", damage=" 1d8 ").damage == "d8"
    two = Fighter(name="X", damage=DamageDice(2, 6, 1))
    assert (two.damage, two.dice) == ("2d6+1", DamageDice(2, 6, 1))
    assert two == Fighter(name="X", damage="2d6+1")


def test_the_form_path_gives_what_a_python_call_gives():
    values = {p.name: p.parse(str(p.default)) for p in CALCULATOR.params}
    values |= {"a_mr": 13, "b_bound": "bound", "b_movement_die": "d4", "a_damage": "d10"}
    assert CALCULATOR.run(values) == chimera_fight(**values)


def test_more_allies_down_than_allies():
    # a record may hold it (two fields of one record); the fight refuses it, the form at
    # the field
    odd = Fighter(name="B", allies=1, allies_down=2)
    with pytest.raises(ValueError, match=r"^B's allies_down \(2\) must be at most his allies"):
        fight_odds(Fighter(name="A"), odd)
    err = refusal(chimera_fight, b=odd)
    assert err.field == "b_allies_down"


def test_a_link_keeps_the_forms_text():
    pytest.importorskip("ipywidgets")
    from ruleslab_widgets.view import CalculatorView

    query = "a_bound=bound&a_cool_down=skipped&a_leader=fallen&a_movement_die=d12&b_damage=2d6"
    view = CalculatorView(CALCULATOR)
    view.apply_query(query)
    assert view.share_query() == f"calculator=chimera&{query}"
    assert view.result is not None
    f = view.result.odds.a  # type: ignore[attr-defined]
    assert (f.is_bound, f.movement_sides, f.spends_cool_down, f.leader_fell) == (
        True, 12, False, True,
    )  # fmt: skip
