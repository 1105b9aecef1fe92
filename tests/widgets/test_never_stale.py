"""Never stale (issue 38, 4): whatever a GM types, in whatever order, every figure shown
is either the figure of the inputs shown now, or marked "Not current" with a message.

A property test over every calculator: random edits (good values, values a field
refuses, text of any kind, tiny and huge numbers, exponents) to the form, to the
sweep's boxes and to a second scenario. After each edit, the expected figures are
computed independently, by the engine from the values the fields hold now
(:meth:`Calculator.run`, :func:`~ruleslab.whatif.compare`,
:func:`~ruleslab.whatif.sweep_values`), never read from the view under test.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ruleslab import BoolParam, ChoiceParam, InputError, IntParam, NumberParam, Param  # noqa: E402
from ruleslab.calculators import CALCULATORS  # noqa: E402
from ruleslab.whatif import LABELS, Range, sweep_values  # noqa: E402
from ruleslab.whatif.inputs import resolve  # noqa: E402
from ruleslab_widgets import CalculatorView  # noqa: E402

HOSTILE = [
    "",
    " ",
    "abc",
    "-1",
    "1e-05",
    "0.00000000000000001",
    "99999999999999999999",
    "1" * 60,
    "NaN",
    "inf",
    "½",
    "٣",
    "3,5",
    " 2 ",
    "0x10",
    "1_000",
]


def _texts(param: Param) -> st.SearchStrategy[Any]:
    """What a GM may put into ``param``'s box: good values and anything else."""
    if isinstance(param, BoolParam):
        return st.booleans()
    if isinstance(param, ChoiceParam):
        return st.sampled_from([v for v, _ in param.choices])
    if isinstance(param, IntParam):
        good = st.integers(param.minimum, param.maximum).map(str)
        wide = st.integers(-(10**6), 10**6).map(str)
        return st.one_of(good, good, wide, st.sampled_from(HOSTILE), st.text(max_size=6))
    if isinstance(param, NumberParam):
        good = st.floats(param.minimum, param.maximum, allow_nan=False).map(repr)
        return st.one_of(good, good, st.sampled_from(HOSTILE), st.text(max_size=6))
    return st.one_of(st.just(str(param.default)), st.text(max_size=12), st.sampled_from(HOSTILE))


@st.composite
def _edits(draw: Any, calc: Any, n: int = 6) -> list[tuple[str, Any]]:
    out = []
    for _ in range(draw(st.integers(1, n))):
        param = draw(st.sampled_from(calc.params))
        out.append((param.name, draw(_texts(param))))
    return out


def _marked(view: CalculatorView) -> bool:
    """The results column is marked not current, with a message saying why."""
    return (
        "rl-stale" in view.results._dom_classes
        and view.summary.stale.startswith("Not current")
        and bool(view.status.value)
    )


def _check_form(view: CalculatorView) -> None:
    values, errors = view.parse()
    if errors or view.last_error:
        assert _marked(view), (errors, view.last_error)
        for name in errors:
            assert view.messages[name].value, name  # (the field's own message)
        return
    assert "rl-stale" not in view.results._dom_classes
    try:
        want = view.calc.run(values)
    except InputError:  # (a rule across fields: the view must say so, not show figures)
        pytest.fail("the engine refuses what the view shows as current")
    assert view.result == want


def _check_sweep(view: CalculatorView) -> None:
    panel = view.sweep_panel
    stale = "rl-sweep-stale" in panel._dom_classes
    if stale:
        assert "Not current" in panel.message.value
        return
    if panel.sweep is None:
        return
    # the line drawn is of the boxes' span and of the form's inputs now
    values, errors = view.parse()
    assert not errors
    assert not view.last_error
    span = panel.span()
    xs, _ = sweep_values(view.calc, panel.param.name, span)
    assert panel.sweep.x == xs[: len(panel.sweep.x)]
    [scenario] = panel.sweep.scenarios
    field = panel.param.name
    assert {k: v for k, v in scenario.values.items() if k != field} == {
        k: v for k, v in values.items() if k != field
    }


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.key)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_figures_are_current_or_marked_not_current(calc: Any, data: Any) -> None:
    view = CalculatorView(calc)
    panel = view.sweep_panel
    panel.heading.expanded = True
    for name, text in data.draw(_edits(calc)):
        view.set_input(name, text)
        _check_form(view)
        _check_sweep(view)
    step = data.draw(st.sampled_from(["", "1", "0.5", "0.00001", "0.00000000000000001", "-1"]))
    panel.step.value = step
    _check_sweep(view)
    name, text = data.draw(_edits(calc, 1))[0]
    view.set_input(name, text)
    _check_form(view)
    _check_sweep(view)


@pytest.mark.parametrize("calc", CALCULATORS[:6], ids=lambda c: c.key)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_scenario_column_is_current_or_marked_with_its_own_letter(
    calc: Any, data: Any
) -> None:
    view = CalculatorView(calc)
    scenarios = view.scenarios
    scenarios._receive(scenarios.bar, {"type": "open"}, [])
    for _ in range(data.draw(st.integers(1, 2))):
        scenarios._receive(scenarios.bar, {"type": "add"}, [])
        for name, text in data.draw(_edits(calc, 3)):
            view.set_input(name, text)
    scenarios._receive(scenarios.bar, {"type": "select", "index": 0}, [])
    for name, text in data.draw(_edits(calc, 3)):
        view.set_input(name, text)
    scenarios._store()
    # each column: current (the engine's figures for its inputs) or marked not current
    for i in range(len(scenarios.values)):
        letter = LABELS[i]
        if scenarios.stale(i):
            head = re.search(
                rf'<th scope="col" class="rl-sc-col rl-sc-stale" data-scenario="{letter}">'
                r"(.*?)</th>",
                view.output.value,
            )
            assert head, letter  # (its own letter, its column marked)
            assert "Not current" in head.group(1)
            continue
        try:  # (each column on its own: its inputs over the defaults)
            want = calc.run(resolve(calc, scenarios._given([i]))[0][1])
        except InputError:
            pytest.fail(f"scenario {letter} shown as current, but the engine refuses it")
        assert scenarios.results[i] == want, letter
        if i and scenarios.stale(0):  # (no Δ against A's figures that are not current)
            assert 'class="rl-sc-delta"' not in view.output.value


def test_a_sweep_of_a_tiny_step_over_a_wide_range_is_counted_not_refused():
    from ruleslab.calculators import get

    calc = get("falling")
    xs, note = sweep_values(calc, "height_m", Range(0, 100000, 0.00000000000000001))
    assert len(xs) == 101
    assert xs[:3] == (0, 1e-17, 2e-17)
    assert "cut to 101 points" in note
