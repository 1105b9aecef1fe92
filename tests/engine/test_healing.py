"""2.1 Healing: the table's own times, treatment, supplies, and the whole track
(``ruleslab.quickref.healing``); the Healing time calculator's checked inputs
(``ruleslab.calculators.healing``)."""

from fractions import Fraction

import pytest

from ruleslab.calculators.healing import CALCULATOR
from ruleslab.calculators.healing import healing_time as checked_healing_time
from ruleslab.params import InputError
from ruleslab.quickref.healing import HOURS, fmt_hours, healing_time, level_rows

TRACK = dict(health_levels=12, levels_per_penalty=3, incap_levels=3)


def one(kind, row_level, **kw):
    """Hours to heal a single level of ``kind`` placed at track position ``row_level``."""
    lethal = row_level if kind == "lethal" else 0
    bashing = row_level if kind == "bashing" else 0
    r = healing_time(lethal=lethal, bashing=bashing, **{**TRACK, **kw})
    return r.levels[-1].hours


def test_table_in_hours():
    # "-0 HLs: 1 hour (bashing)/12 hours (lethal)" … "Dying: 5 months (lethal)"
    assert HOURS["bashing"] == (1, 2, 4, 8, 12, 24, None)
    assert HOURS["lethal"] == (12, 24, 72, 168, 336, 720, 3600)


@pytest.mark.parametrize(
    ("position", "bash", "lethal"),
    # 1 level per penalty, "after" reading: level d has penalty d (−4+ from level 4)
    [(1, 2, 24), (2, 4, 72), (3, 8, 168), (4, 12, 336), (9, 12, 336)],
)
def test_each_row_rate(position, bash, lethal):
    track = dict(health_levels=10, levels_per_penalty=1, incap_levels=2)
    b = healing_time(lethal=0, bashing=position, **track)
    lt = healing_time(lethal=position, bashing=0, **track)
    assert b.levels[-1].hours == bash
    assert lt.levels[-1].hours == lethal


def test_minus_zero_row_and_incap_and_dying():
    track = dict(health_levels=2, levels_per_penalty=3, incap_levels=1)
    r = healing_time(lethal=4, bashing=0, **track)
    assert [lv.hours for lv in r.levels] == [12, 12, 720, 3600]
    assert r.total_hours == 12 + 12 + 720 + 3600
    b = healing_time(lethal=0, bashing=3, **track)
    assert [lv.hours for lv in b.levels] == [1, 1, 24]


def test_level_rows_readings():
    # 3 levels per penalty: "after" → 0,0,1,1,1,2 ; "rows" → 0,0,0,1,1,1
    assert [p for p, _ in level_rows(6, 12, 3, 3)] == [0, 0, 1, 1, 1, 2]
    assert [p for p, _ in level_rows(6, 12, 3, 3, "rows")] == [0, 0, 0, 1, 1, 1]
    rows = level_rows(17, 12, 1, 3)
    assert rows[11] == (12, 4)  # −12 heals on the −4+ row
    assert rows[12][1] == 5
    assert rows[15][1] == 6


def test_hand_worked_default_example():
    # 2 lethal at −0 (12 h each) + 3 bashing at −1 (2 h each) = 30 h, one at a time
    r = healing_time(lethal=2, bashing=3, **TRACK)
    assert r.total_hours == 30
    assert r.figure("total_time").text == "1 day 6 h"
    assert r.figure("levels").value == 5
    assert "3 × bashing −1: 2 h" in r.figure("per_level").text


def test_all_at_once_takes_the_slowest():
    r = healing_time(lethal=2, bashing=3, order="all_at_once", **TRACK)
    assert r.total_hours == 12


ONE_LETHAL = dict(lethal=1, bashing=0, **TRACK)


@pytest.mark.parametrize(
    ("medicine", "intelligence", "factor", "hours"),
    [
        (1, 5, 1, 12),
        (2, 1, 1, 12),
        (2, 2, Fraction(1, 2), 6),
        (4, 2, Fraction(1, 2), 6),
        (4, 3, Fraction(1, 4), 3),
    ],
)
def test_treatment_thresholds(medicine, intelligence, factor, hours):
    # "Medicine 2+ and at least Int 2 halves … Medicine 4+ and Int 3+ quarters"; one
    # lethal level at −0 takes 12 h untreated.
    r = healing_time(**ONE_LETHAL, healer_medicine=medicine, healer_intelligence=intelligence)
    assert r.factor == factor
    assert r.total_hours == hours


def test_mega_intelligence_counts_two_for_treatment():
    r = healing_time(
        lethal=1,
        bashing=0,
        healer_medicine=4,
        healer_intelligence=1,
        healer_mega_intelligence=1,
        **TRACK,
    )
    assert r.factor == Fraction(1, 4)
    assert "Intelligence 1 + 2 × Mega-Intelligence 1 = 3" in r.explain()


@pytest.mark.parametrize(
    ("supplies", "hours"),
    # a −3 level (1 per penalty, position 3), lethal: −3 → 1 week; −1 → −2: 3 days; …
    [("none", 168), ("basic", 72), ("clinic", 24), ("hospital", 12)],
)
def test_supplies_reduce_the_penalty(supplies, hours):
    track = dict(health_levels=10, levels_per_penalty=1, incap_levels=2)
    r = healing_time(lethal=3, bashing=0, supplies=supplies, **track)
    assert r.levels[-1].hours == hours


def test_supplies_on_a_deep_penalty_and_incap():
    track = dict(health_levels=10, levels_per_penalty=1, incap_levels=2)
    # −6 with basic supplies → −5: still the −4+ row; Incapacitated unchanged
    r = healing_time(lethal=11, bashing=0, supplies="basic", **track)
    assert r.levels[5].hours == 336
    assert r.levels[10].hours == 720
    assert "Incapacitated and Dying levels are unchanged" in r.explain()


def test_treatment_and_supplies_stack():
    r = healing_time(
        lethal=2, bashing=3, supplies="clinic", healer_medicine=4, healer_intelligence=3, **TRACK
    )
    # lethal −0 12 h/4 = 3 h ×2; bashing −1 → −0 rate 1 h/4 = 15 min ×3
    assert r.total_hours == 6 + Fraction(3, 4)
    assert r.figure("total_time").text == "6 h 45 min"


def test_bashing_on_dying_levels_option():
    track = dict(health_levels=1, levels_per_penalty=1, incap_levels=0)
    lethal_rate = healing_time(lethal=0, bashing=2, **track)
    incap_rate = healing_time(lethal=0, bashing=2, dying_bashing="incap_rate", **track)
    assert lethal_rate.levels[1].hours == 3600
    assert incap_rate.levels[1].hours == 24


def test_no_damage():
    r = healing_time(lethal=0, bashing=0, **TRACK)
    assert r.total_hours == 0
    assert r.figure("total_time").text == "0 h"
    assert r.figure("per_level").text == "—"


def test_fmt_hours():
    assert fmt_hours(Fraction(1, 4)) == "15 min"
    assert fmt_hours(24) == "1 day"
    assert fmt_hours(Fraction(901, 2)) == "18 days 18 h 30 min"


@pytest.mark.parametrize(
    ("field", "value", "expect"),
    [
        ("lethal", -1, "from 0 to 100"),
        ("levels_per_penalty", 0, "from 1 to 20"),
        ("healer_medicine", 11, "from 0 to 10"),
    ],
)
def test_bad_input_names_the_field(field, value, expect):
    kw = dict(lethal=1, bashing=1, **TRACK)
    kw[field] = value
    with pytest.raises(InputError) as err:
        checked_healing_time(**kw)
    assert err.value.field == field
    assert expect in err.value.message


def test_bad_choice():
    with pytest.raises(InputError) as err:
        checked_healing_time(lethal=1, bashing=0, supplies="spa", **TRACK)
    assert err.value.field == "supplies"


def test_the_calculator_is_the_rule_checked():
    assert CALCULATOR.compute is checked_healing_time
    assert checked_healing_time(lethal=2, bashing=3, **TRACK) == healing_time(2, 3, **TRACK)
    assert checked_healing_time.unchecked(lethal=2, bashing=3, **TRACK) == healing_time(
        2, 3, **TRACK
    )
    # the form's defaults: 2 lethal and 3 bashing on a 12-level track, untreated
    assert CALCULATOR.defaults() == {
        "lethal": 2,
        "bashing": 3,
        "health_levels": 12,
        "levels_per_penalty": 3,
        "incap_levels": 3,
        "healer_medicine": 0,
        "healer_intelligence": 2,
        "healer_mega_intelligence": 0,
        "supplies": "none",
        "order": "one_at_a_time",
        "penalty_from": "after",
        "dying_bashing": "lethal_rate",
    }


# --- the healer as a record (issue 19) ---------------------------------------------------


def test_a_healer_record_and_flat_fields_give_the_same_time():
    from ruleslab.character import Character

    doctor = Character(medicine=4, intelligence=2, mega_intelligence=1)
    fields = dict(healer_medicine=4, healer_intelligence=2, healer_mega_intelligence=1)
    by_record = checked_healing_time(lethal=2, bashing=3, healer=doctor, **TRACK)
    by_fields = checked_healing_time(lethal=2, bashing=3, **fields, **TRACK)
    assert by_record == by_fields
    # a flat field changes that one field of the record passed
    assert checked_healing_time(
        lethal=2, bashing=3, healer=doctor, healer_medicine=1, **TRACK
    ) == checked_healing_time(lethal=2, bashing=3, **fields | {"healer_medicine": 1}, **TRACK)


def test_a_healer_record_by_hand():
    # Medicine 4 and Intelligence 1 + 2 × Mega-Intelligence 1 = 3: "treatment by someone
    # with Medicine 4+ and Int 3+ quarters them". 2 lethal levels on a 12-level track with
    # −1 per 3 levels: levels 1 and 2 are at −⌊1/3⌋ = −⌊2/3⌋ = −0: 12 hours each, × 1/4
    # = 3 h each, 6 h in all.
    from ruleslab.character import Character

    healer = Character(medicine=4, intelligence=1, mega_intelligence=1)
    r = checked_healing_time(lethal=2, bashing=0, healer=healer, **TRACK)
    assert r.factor == Fraction(1, 4)
    assert r.total_hours == 6
    # Character()'s own Intelligence is 3 (the form's is 2): Medicine 2 halves: 12 h.
    assert (
        checked_healing_time(lethal=2, bashing=0, healer=Character(medicine=2), **TRACK).total_hours
        == 12
    )


def test_the_healer_s_fields_keep_their_names_and_labels():
    assert [(p.name, p.label) for p in CALCULATOR.params if p.name.startswith("healer_")] == [
        ("healer_medicine", "Healer's Medicine"),
        ("healer_intelligence", "Healer's Intelligence"),
        ("healer_mega_intelligence", "Healer's Mega-Intelligence"),
    ]
