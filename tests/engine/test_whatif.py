"""What if (issue 22): scenarios side by side and a figure across a range.

Each record is checked against the calculator run independently, point by point or
scenario by scenario, through the form's own path (``Param.parse``, then
``Calculator.run``). Nothing here is timed: ``bench/sweeps.py`` times the sweeps.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest

from ruleslab import InputError, IntParam, NumberParam, Range, compare, sweep
from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator
from ruleslab.whatif import (
    MAX_POINTS,
    MAX_SCENARIOS,
    POINT_COST_MS,
    SWEEP_BUDGET_MS,
    ScenarioError,
    SweepSpec,
    default_sweep,
    max_points,
    scenarios_from_query,
    scenarios_query,
    sweep_from_query,
    sweep_values,
)


def run_form(calc: Calculator, typed: dict[str, Any]) -> Any:
    """The calculator run as the form runs it: defaults, then ``typed``, each parsed."""
    values = {p.name: p.parse(p.default) for p in calc.params}
    for p in calc.params:
        if p.name in typed:
            values[p.name] = p.parse(typed[p.name])
    return calc.run(values)


def number_figures(result: Any) -> dict[str, object]:
    return {
        f.key: f.value
        for f in result.figures()
        if isinstance(f.value, int | Fraction | float) and not isinstance(f.value, bool)
    }


# -- sweeps equal the calculator run point by point ---------------------------

SWEEPS = [
    ("dice_pool", {"dice": "6"}, "difficulty", Range(1, 8)),
    ("lifting", {"strength": "3"}, "object_kg", Range(0, 600, 50)),
    ("falling", {}, "height_m", [0, "12", 20.5, "60"]),
    ("compressed", {"b_position": "2"}, "a_cover", Range(0, 3)),
    ("compressed", {}, "b_henchmen", range(0, 4)),
    ("chimera", {"b_defence": "3"}, "a_attack", Range(0, 4, 2)),
]


@pytest.mark.parametrize(("key", "base", "field", "span"), SWEEPS)
def test_a_sweep_equals_the_calculator_run_point_by_point(key, base, field, span):
    calc = get(key)
    result = sweep(key, field, span, base=base)
    assert not result.note
    assert len(result.x) == len(result.points[0]) >= 3
    for point in result.points[0]:
        alone = run_form(calc, {**base, field: point.x})
        assert point.error == ""
        expected = number_figures(alone)
        assert set(expected) <= set(result.figures)
        assert dict(point.figures) == {k: expected.get(k) for k in result.figures}
        assert {k: point.texts[k] for k in expected} == {k: alone.figure(k).text for k in expected}


def test_a_sweep_keeps_the_figures_asked_for_exactly():
    calc = get("dice_pool")
    result = sweep(calc, "dice", Range(0, 4), figures=["p_success", "mean"])
    assert result.figures == ("p_success", "mean")
    assert sweep(calc, "dice", Range(0, 1), figures="mean").figures == ("mean",)
    assert result.x == (0, 1, 2, 3, 4)
    for x, value in zip(result.x, result.values("p_success"), strict=True):
        assert isinstance(value, Fraction)
        assert value == run_form(calc, {"dice": x}).figure("p_success").value
    csv = result.to_csv().splitlines()
    assert csv[0] == "dice,scenario,p_success,mean,error"
    assert csv[2].split(",")[:3] == ["1", "A", str(result.values("p_success")[1])]
    assert "/" in csv[2]  # a Fraction written exactly, never rounded


def test_a_sweep_across_scenarios_runs_each_scenario_at_each_point():
    calc = get("dice_pool")
    scenarios = [{"dice": "5"}, {"target": "8"}, {"auto_successes": "1"}]
    result = sweep("dice_pool", "difficulty", Range(1, 4), scenarios=scenarios)
    assert [s.label for s in result.scenarios] == ["A", "B", "C"]
    assert result.scenarios[1].differs == ("target",)
    for i, extra in enumerate([{}, {"target": "8"}, {"auto_successes": "1"}]):
        for point in result.points[i]:
            alone = run_form(calc, {"dice": "5", **extra, "difficulty": point.x})
            assert point.figures["p_success"] == alone.figure("p_success").value
    chart = result.chart(["p_success"])
    assert chart.kind == "line"
    assert len(chart.series) == 3
    assert [s.scenario for s in chart.series] == ["A", "B", "C"]
    assert chart.series[1].x == (1, 2, 3, 4)
    assert "Target number" in chart.series[1].label or "8" in chart.series[1].label
    assert chart.series[0].y_floats()[0] == float(chart.series[0].y[0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="base or scenarios"):
        sweep("dice_pool", "dice", Range(0, 2), base={}, scenarios=scenarios)


def test_a_point_breaking_a_rule_across_fields_gets_the_forms_message():
    calc = get("chimera")
    result = sweep(calc, "a_allies_down", Range(0, 2), base={"a_allies": "1"})
    errors = [p.error for p in result.points[0]]
    with pytest.raises(InputError) as caught:
        run_form(calc, {"a_allies": "1", "a_allies_down": "2"})
    assert errors == ["", "", caught.value.message]
    assert all(v is None for v in result.points[0][2].figures.values())
    assert result.points[0][2].result is None


# -- scenario deltas ------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "a", "b"),
    [
        ("lifting", {"strength": "4", "object_kg": "450"}, {"might": "2"}),
        ("compressed", {}, {"a_cover": "2", "b_henchmen": "3"}),
        ("chimera", {"a_attack": "2"}, {"b_defence": "4"}),
        ("defence", {}, {"dexterity": 5}),
    ],
)
def test_scenario_deltas_equal_the_difference_of_the_two_runs(key, a, b):
    calc = get(key)
    result = compare(key, [a, b])
    run_a, run_b = run_form(calc, a), run_form(calc, {**a, **b})
    numbers_a, numbers_b = number_figures(run_a), number_figures(run_b)
    assert result.scenarios[1].differs == tuple(p.name for p in calc.params if p.name in b)
    for row in result.figures:
        assert row.values == (run_a.figure(row.key).value, run_b.figure(row.key).value)
        assert row.deltas[0] is None
        if row.key in numbers_a and row.key in numbers_b:
            delta = numbers_b[row.key] - numbers_a[row.key]  # type: ignore[operator]
            assert row.deltas[1] == delta
            assert type(row.deltas[1]) is type(delta)
        else:
            assert row.deltas[1] is None
    assert any(row.differs for row in result.figures)


def test_compare_holds_up_to_four_scenarios_each_over_a():
    result = compare("dice_pool", [{"dice": "4"}, {"dice": "6"}, {"target": "9"}, {}])
    assert [s.values["dice"] for s in result.scenarios] == [4, 6, 4, 4]
    assert next(s.legend for s in result.scenarios) == "A"
    assert result.scenarios[3].differs == ()
    assert result.figure("p_success").deltas[3] == 0
    charts = result.charts()
    assert charts
    assert all(len(c.series) == 4 for c in charts)
    with pytest.raises(ValueError, match="2 to 4"):
        compare("dice_pool", [{}])
    with pytest.raises(ValueError, match="2 to 4"):
        compare("dice_pool", [{}] * (MAX_SCENARIOS + 1))


# -- bad input ------------------------------------------------------------------


def test_a_bad_value_names_the_scenario_and_the_field():
    with pytest.raises(ScenarioError) as caught:
        compare("lifting", [{}, {"strength": "lots"}])
    assert caught.value.field == "strength"
    assert caught.value.scenario == "B"
    assert str(caught.value).startswith("Scenario B: Strength must be a whole number from 0 to")
    with pytest.raises(ScenarioError, match=r"Scenario A: 'streng' is not a field of lifting"):
        compare("lifting", [{"streng": 3}, {}])
    bools = [p.name for p in get("jumping").params if type(p).__name__ == "BoolParam"]
    with pytest.raises(ScenarioError, match=r"Scenario C: .* must be yes or no"):
        compare("jumping", [{}, {}, {bools[0]: "maybe"}])


def test_a_range_outside_the_field_is_refused_with_the_fields_own_message():
    field = next(p for p in get("lifting").params if p.name == "strength")
    with pytest.raises(InputError) as own:
        field.parse(99)
    with pytest.raises(InputError) as caught:
        sweep("lifting", "strength", Range(0, 99))
    assert caught.value.message == own.value.message
    with pytest.raises(InputError, match="Strength must be"):
        sweep("lifting", "strength", [1, "-3"])
    with pytest.raises(InputError, match="not a number field"):
        sweep("lifting", "ruleset", Range(0, 1))
    with pytest.raises(InputError, match="whole number"):
        sweep("lifting", "strength", Range(0, 4, 0.5))
    with pytest.raises(InputError, match="above 0"):
        sweep("lifting", "strength", Range(0, 4, 0))
    with pytest.raises(InputError, match="before it starts"):
        sweep("lifting", "strength", Range(4, 1))
    with pytest.raises(KeyError, match="no number figure"):
        sweep("lifting", "strength", Range(0, 2), figures=["tier"])


def test_a_cut_range_says_so_and_how_to_cover_it_all():
    cap = max_points("chimera")
    result = sweep("chimera", "a_allies", Range(0, 1000), figures=["p_a_wins"])
    assert len(result.x) == cap < 1001
    assert result.cut
    assert result.note.startswith(f"cut to {cap} points: Chimera")
    assert f"ends at {cap - 1} instead of 1000" in result.note
    values, note = sweep_values("lifting", "load_kg", Range(0, 1e12))
    assert len(values) == MAX_POINTS
    assert "cut to 101 points" in note
    values, note = sweep_values("dice_pool", "dice", list(range(60)), scenarios=2)
    assert len(values) == MAX_POINTS // 2
    assert "the first 50 of 60 values" in note


def test_a_time_limit_stops_starting_points_and_says_so():
    scenarios = [{}, {"target": "8"}]
    result = sweep("dice_pool", "dice", Range(0, 10), scenarios=scenarios, time_limit=0)
    assert result.x == (0,)
    assert [len(points) for points in result.points] == [1, 1]
    assert result.note.startswith("cut to 1 point: the sweep took over 0 s (its time limit)")
    assert sweep("dice_pool", "dice", Range(0, 10), time_limit=60).note == ""


# -- the bound ------------------------------------------------------------------


def test_every_calculator_has_a_cost_and_its_cap_keeps_the_sweep_in_budget():
    assert set(POINT_COST_MS) == {c.key for c in CALCULATORS}
    for calc in CALCULATORS:
        cap = max_points(calc)
        assert cap * POINT_COST_MS[calc.key] <= SWEEP_BUDGET_MS
        assert 11 <= cap <= MAX_POINTS  # at least 0 to 10


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.key)
def test_the_bound_holds_on_the_widest_range_of_every_number_field(calc):
    cap = max_points(calc)
    for param in calc.params:
        if not isinstance(param, IntParam | NumberParam):
            continue
        for scenarios in range(1, MAX_SCENARIOS + 1):
            values, note = sweep_values(
                calc, param.name, Range(param.minimum, param.maximum, param.step), scenarios
            )
            assert len(values) * scenarios <= cap, (param.name, scenarios)
            assert values[0] == param.minimum
            assert all(param.parse(v) == v for v in values)
            assert list(values) == sorted(set(values))
            expected = int((param.maximum - param.minimum) // param.step) + 1
            assert bool(note) == (expected > len(values))


def test_the_default_sweep_of_every_calculator_is_a_declared_number_field():
    for calc in CALCULATORS:
        name, span = default_sweep(calc)
        param = next(p for p in calc.params if p.name == name)
        assert isinstance(param, IntParam | NumberParam)
        assert (span.start, span.stop) == (param.minimum, param.maximum)


# -- links ------------------------------------------------------------------------

HOSTILE = [
    '<script>alert("x")</script> <b onmouseover="x">&amp;</b>',
    "Ünïcødé — 東京 🐉 ﷽ e\u0301",
    "a&b=c?d#e%20f+g;s2.a_intent=x &scenarios=9",
    "s3.b_intent=y, =&&==  trailing ",
]


def test_a_query_round_trip_keeps_the_scenarios_with_hostile_text():
    calc = get("compressed")
    scenarios = [
        {"a_intent": HOSTILE[0], "a_cover": "1"},
        {"a_intent": HOSTILE[1]},
        {"b_intent": HOSTILE[2], "a_cover": 2},
        {"b_intent": HOSTILE[3], "a_intent": HOSTILE[0]},  # same as A: left out
    ]
    query = scenarios_query(calc, scenarios)
    assert query.startswith("calculator=compressed&")
    assert "scenarios=4" in query
    assert "s4.a_intent" not in query
    assert "<" not in query
    back = scenarios_from_query(calc, query)
    assert back[0] == {"a_intent": HOSTILE[0], "a_cover": "1"}
    assert back[1] == {"a_intent": HOSTILE[1]}
    assert back[2] == {"b_intent": HOSTILE[2], "a_cover": "2"}
    assert back[3] == {"b_intent": HOSTILE[3]}
    original, again = compare(calc, scenarios), compare(calc, back)
    assert [s.values for s in original.scenarios] == [s.values for s in again.scenarios]
    assert original.query() == again.query() == query
    # the page's own parameters and a one-calculator link read as scenario A
    one = scenarios_from_query("lifting", "?calculator=lifting&theme=dark&strength=5")
    assert one == [{"strength": "5"}]


def test_the_query_of_one_scenario_is_a_one_calculator_link():
    query = scenarios_query("lifting", [{"strength": 5, "object_kg": 450.0}])
    assert query == "calculator=lifting&strength=5&object_kg=450"
    assert dict(parse_qsl(query)) == {"calculator": "lifting", "strength": "5", "object_kg": "450"}


@pytest.mark.parametrize(
    ("query", "name", "message"),
    [
        ("s2.strength=5", "s2.strength", r"scenario 2; this link's scenario prefixes: none"),
        ("scenarios=2&s3.strength=5", "s3.strength", r"prefixes: s2\. to s2\."),
        ("scenarios=5", "scenarios", "a whole number from 2 to 4"),
        ("scenarios=two", "scenarios", "a whole number from 2 to 4"),
        ("scenarios=2&scenarios=3", "scenarios", "more than once"),
        ("scenarios=2&s2.mass=3", "s2.mass", "not a field of lifting"),
        ("strength=3&strength=4", "strength", "more than once"),
        ("scenarios=2&sx.strength=4", "sx.strength", r"sN\.<field>"),
        ("scenarios=2&s٢.strength=4", "s٢.strength", r"sN\.<field>"),
    ],
)
def test_a_bad_query_names_the_parameter_and_the_form_it_takes(query, name, message):
    with pytest.raises(InputError, match=message) as caught:
        scenarios_from_query("lifting", query)
    assert caught.value.field == name


def test_a_long_query_is_read_in_one_pass_or_refused_by_its_length():
    query = "scenarios=2&" + "&".join(f"s2.x{i}=1" for i in range(10_000))
    with pytest.raises(InputError, match="not a field"):
        scenarios_from_query("lifting", query)
    with pytest.raises(InputError, match="at most"):
        scenarios_from_query("lifting", "strength=" + "1" * 300_000)


def test_a_sweeps_link_holds_its_scenarios_range_and_figures():
    scenarios = [{"a_intent": HOSTILE[2]}, {"b_position": "2"}]
    first = sweep("compressed", "a_cover", Range(0, 3), figures=["p_a_wins"], scenarios=scenarios)
    query = first.query()
    assert query.endswith("&sweep.field=a_cover&sweep.range=0:3&sweep.figures=p_a_wins")
    spec = sweep_from_query("compressed", query)
    assert spec == SweepSpec("a_cover", Range(0, 3), ("p_a_wins",))
    again = sweep(
        "compressed",
        spec.field,
        spec.span,
        figures=spec.figures,
        scenarios=scenarios_from_query("compressed", query),
    )
    assert again.x == first.x
    assert [again.values("p_a_wins", i) for i in (0, 1)] == [
        first.values("p_a_wins", i) for i in (0, 1)
    ]
    listed = sweep("falling", "height_m", [0, "12", 20.5, 12])
    assert listed.query() == "calculator=falling&sweep.field=height_m&sweep.values=0,12,20.5"
    assert sweep_from_query("falling", listed.query()) == SweepSpec("height_m", (0.0, 12.0, 20.5))
    assert sweep_from_query("falling", "calculator=falling&height_m=3") is None
    cut = sweep("chimera", "a_allies", range(0, 1001, 1), figures=["p_a_wins"])
    assert "sweep.range=0:1000:1" in cut.query()  # what was asked: cut again when read


@pytest.mark.parametrize(
    ("query", "name", "message"),
    [
        ("sweep.range=0:3", "sweep.field", "names the number field"),
        ("sweep.field=ruleset&sweep.range=0:3", "ruleset", "not a number field"),
        ("sweep.field=strength&sweep.range=0:3&sweep.values=1", "sweep.range", "one"),
        ("sweep.field=strength", "sweep.range", "start:stop"),
        ("sweep.field=strength&sweep.range=0", "sweep.range", "start:stop"),
        ("sweep.field=strength&sweep.range=0:1e3", "sweep.range", "written plainly"),
        ("sweep.field=strength&sweep.range=0:99", "strength", "Strength must be"),
        ("sweep.field=strength&sweep.values=1,2,٣", "sweep.values", "written plainly"),
        ("sweep.field=strength&sweep.values=1,,2", "sweep.values", "written plainly"),
        ("sweep.field=strength&sweep.field=might&sweep.range=0:1", "sweep.field", "more than"),
        ("sweep.step=2", "sweep.step", "a sweep's link names"),
    ],
)
def test_a_bad_sweep_in_a_link_names_the_parameter_and_the_form_it_takes(query, name, message):
    with pytest.raises(InputError, match=message) as caught:
        sweep_from_query("lifting", query)
    assert caught.value.field == name


# -- the documentation ------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "emscripten", reason="reads the documentation")
def test_the_documented_what_if_example_runs():
    text = (Path(__file__).parents[2] / "docs" / "python.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- python-example: what-if -->\n```python\n(.*?)```", text, re.S)
    assert match, "docs/python.md's what-if example is missing"
    exec(compile(match.group(1), "docs/python.md", "exec"), {})


def test_a_legend_never_doubles_the_colon_of_a_fighters_label():
    # Chimera labels each fighter's fields "A: …" / "B: …": the scenario's letter is
    # then followed by a dash, so "B: B: Defence (DF) 4" reads "B — B: Defence (DF) 4"
    result = compare("chimera", [{}, {"b_defence": "4"}, {"a_defence": "4", "b_mr": "3"}])
    assert [s.legend for s in result.scenarios] == [
        "A",
        "B — B: Defence (DF) 4",
        "C — A: Defence (DF) 4, B: Base Movement Rate (MR) 3",
    ]
    # a plain label keeps the colon
    plain = compare("lifting", [{}, {"strength": "5"}])
    assert [s.legend for s in plain.scenarios] == ["A", "B: Strength 5 dots"]
