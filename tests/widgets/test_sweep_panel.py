"""The "Across a range" panel (ruleslab_widgets.sweep_panel) and its line chart.

Each value the panel plots is checked against the calculator run on its own at
that point: a fresh form with the swept field typed in, as a GM would, read
back from its result (never from the sweep under test).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.explain import fmt_prob
from ruleslab.whatif import max_points
from ruleslab_widgets import calculator
from ruleslab_widgets.chart import LineChart, number_ticks, x_ticks
from ruleslab_widgets.sweep_panel import TITLE, default_range, field_choices


def _point(key: str, inputs: dict[str, str], figure: str) -> tuple[object, str]:
    """One point computed on its own: a new form, its fields typed in, one figure read."""
    view = calculator(key)
    for name, text in inputs.items():
        view.set_input(name, text)
    assert view.result is not None
    assert not view.last_error
    f = view.result.figure(figure)
    return f.value, f.text


def _open(key: str, field: str, start: str, stop: str, step: str, figures: list[str], **form: str):
    view = calculator(key)
    for name, text in form.items():
        view.set_input(name, text)
    panel = view.sweep_panel
    panel.heading.expanded = True
    panel.field.value = field
    panel.start.value, panel.stop.value, panel.step.value = start, stop, step
    for k, box in panel.figure_boxes.items():
        box.value = k in figures
    return view, panel


def _line(chart: LineChart, label_part: str) -> dict[str, Any]:
    return next(s for s in chart.series if label_part in s["label"])


def test_the_panel_is_a_closed_fold_in_the_results_that_computes_nothing_until_opened(find):
    view = calculator("falling")
    panel = view.sweep_panel
    assert panel in view.results.children
    assert panel.heading.title == TITLE
    assert panel.heading.expanded is False
    assert panel.region.layout.display == "none"
    view.set_input("stamina", "4")
    assert panel.sweep is None
    assert panel.charts == []
    assert view.share.sweep == ""
    panel.heading.expanded = True
    assert panel.region.layout.display == ""
    assert panel.sweep is not None
    assert len(panel.charts) == 1
    # defaults: the engine's default field, its declared range cut to the cap, the first
    # number figure of the result
    assert panel.field.value == "height_m"
    assert (panel.start.value, panel.stop.value, panel.step.value) == ("0", "100", "1")
    assert panel.chosen() == ["safe_distance"]


@pytest.mark.parametrize(
    ("key", "field", "span", "figures", "form"),
    [
        ("falling", "height_m", ("0", "30", "5"), ["p_lethal", "damage_dice"], {"stamina": "4"}),
        ("dice_pool", "difficulty", ("1", "8", "1"), ["p_success", "mean"], {"dice": "8"}),
        ("chimera", "b_defence", ("0", "6", "2"), ["a_p_wound"], {}),
    ],
)
def test_each_plotted_value_is_the_calculator_run_at_that_point(key, field, span, figures, form):
    _view, panel = _open(key, field, *span, figures, **form)
    start, stop, step = (float(x) for x in span)
    xs = []
    x = start
    while x <= stop:
        xs.append(x)
        x += step
    s = panel.sweep
    assert s is not None
    assert set(s.figures) == set(figures)
    assert not s.note
    for f in figures:
        expected = [_point(key, {**form, field: f"{x:g}"}, f) for x in xs]
        assert list(s.values(f)) == [v for v, _ in expected]  # exact: Fractions stay
        label = s.figure_labels[s.figures.index(f)]
        chart = next(c for c in panel.charts if any(line["label"] == label for line in c.series))
        line = _line(chart, label)
        assert line["y"] == pytest.approx([float(v) for v, _ in expected])  # type: ignore[arg-type]
        assert line["texts"] == [t for _, t in expected]  # the table: as the form shows them
        assert chart.x == xs
        # the download: the engine's exact CSV
        rows = [r.split(",") for r in chart.csv.strip().split("\n")]
        col = rows[0].index(f)
        assert [Fraction(r[col]) for r in rows[1:]] == [Fraction(v) for v, _ in expected]


def test_chances_and_other_numbers_are_drawn_on_two_charts():
    _view, panel = _open("falling", "height_m", "0", "20", "1", ["p_lethal", "damage_dice"])
    chance, number = panel.charts
    assert chance.percent
    assert chance.y_ticks[-1][1].endswith("%")
    assert [line["label"] for line in chance.series] == ["Chance the damage is lethal"]
    assert not number.percent
    assert [line["label"] for line in number.series] == ["Damage dice"]
    assert number.y_label == "Damage dice"
    assert number.x_label == "Height of the fall (m)"


def test_a_long_range_is_cut_and_the_note_says_so():
    _view, panel = _open("falling", "height_m", "0", "100000", "1", ["p_lethal"])
    assert panel.sweep is not None
    assert len(panel.sweep.x) == max_points("falling") == 101
    text = panel.message.value
    assert "cut to 101 points" in text
    assert "instead of 100000" in text
    assert "a step of 1000 covers it all" in text
    assert len(panel.charts[0].x) == 101


@pytest.mark.parametrize(
    ("box", "text", "message"),
    [
        ("start", "-5", "From: Height of the fall must be a number from 0 to 100,000 m."),
        ("stop", "lots", "To: Height of the fall must be a number from 0 to 100,000 m."),
        ("stop", "", "To: Height of the fall is empty: enter a number from 0 to 100,000."),
        ("step", "0", "The step of Height of the fall must be a number above 0."),
        (
            "step",
            "-2",
            "Step: The step of Height of the fall must be a number from 0 to 100,000 m.",
        ),
    ],
)
def test_a_bad_range_gets_a_message_naming_the_field_and_its_range(box, text, message):
    _view, panel = _open("falling", "height_m", "0", "30", "5", ["p_lethal"])
    before = panel.charts[0].x
    getattr(panel, box).value = text
    assert message in panel.message.value
    assert panel.charts[0].x == before  # the last good line stays
    assert panel.spec() is None or box == "step"


def test_a_range_ending_before_it_starts_and_a_whole_number_step():
    _view, panel = _open("dice_pool", "dice", "10", "4", "1", ["p_success"])
    assert "The range of Dice ends (4) before it starts." in panel.message.value
    panel.stop.value = "20"
    panel.step.value = "1.5"
    assert "Step: The step of Dice must be a whole number from 1 to 60." in panel.message.value


def test_a_bad_form_field_keeps_the_line_faded_with_a_message():
    view, panel = _open("falling", "height_m", "0", "10", "1", ["p_lethal"])
    view.set_input("stamina", "99")
    assert "fix the highlighted fields" in panel.message.value
    assert "rl-sweep-stale" in panel._dom_classes
    view.set_input("stamina", "3")
    assert "rl-sweep-stale" not in panel._dom_classes
    assert panel.message.value == ""


def test_the_line_follows_the_form():
    view, panel = _open("dice_pool", "dice", "0", "10", "1", ["p_success"])
    first = list(panel.sweep.values("p_success"))
    view.set_input("difficulty", "3")
    assert list(panel.sweep.values("p_success")) != first
    expected = [
        _point("dice_pool", {"difficulty": "3", "dice": str(n)}, "p_success")[0] for n in range(11)
    ]
    assert list(panel.sweep.values("p_success")) == expected


def test_default_range_holds_the_current_value_within_the_cap():
    view = calculator("chimera")
    b_allies = next(p for p in view.calc.params if p.name == "b_allies")
    r = default_range(b_allies, 0, max_points("chimera"))
    assert (r.start, r.stop, r.step) == (0, 32, 1)
    r = default_range(b_allies, 500, 33)
    assert r.start <= 500 <= r.stop
    assert (r.stop - r.start) == 32
    r = default_range(b_allies, 1000, 33)
    assert (r.start, r.stop) == (968, 1000)
    b_defence = next(p for p in view.calc.params if p.name == "b_defence")
    assert default_range(b_defence, 1, 33) == type(r)(0, 20, 1)


def test_the_fields_offered_are_the_number_fields_as_the_form_shows_them():
    choices = dict((name, text) for text, name in field_choices(calculator("falling")))
    assert choices["height_m"] == "Height of the fall (m)"
    assert choices["stamina"] == "Stamina (dots)"
    assert "ruleset" not in choices
    assert "lethal_means" not in choices
    chimera = dict((name, text) for text, name in field_choices(calculator("chimera")))
    assert chimera["b_defence"] == "B: Defence (DF)"


def test_a_link_carries_the_sweep_and_opens_the_same_line():
    view, panel = _open("falling", "height_m", "0", "40", "2", ["p_lethal"], stamina="4")
    query = view.share.link_query()
    assert query == (
        "calculator=falling&stamina=4&sweep.field=height_m&sweep.range=0:40:2"
        "&sweep.figures=p_lethal"
    )
    again = calculator("falling")
    again.apply_query(query)
    assert again.status.value == ""  # sweep.* are not "unknown fields"
    other = again.sweep_panel
    assert other.heading.expanded
    assert other.field.value == "height_m"
    assert (other.start.value, other.stop.value, other.step.value) == ("0", "40", "2")
    assert other.chosen() == ["p_lethal"]
    assert other.charts[0].series == panel.charts[0].series
    assert again.share.link_query() == query


def test_the_default_figure_and_step_are_left_out_of_the_link_and_closing_drops_the_sweep():
    view = calculator("falling")
    view.sweep_panel.heading.expanded = True
    assert view.share.link_query() == "calculator=falling&sweep.field=height_m&sweep.range=0:100"
    view.sweep_panel.heading.expanded = False
    assert view.share.link_query() == "calculator=falling"
    assert view.share_query() == "calculator=falling"  # the inputs' link: as before


def test_a_link_of_explicit_values_sweeps_them():
    view = calculator("dice_pool")
    view.apply_query("calculator=dice_pool&sweep.field=dice&sweep.values=2,4,9")
    panel = view.sweep_panel
    assert panel.sweep is not None
    assert panel.sweep.x == (2, 4, 9)
    assert "This link sweeps Dice at 2, 4, 9" in panel.message.value
    assert view.share.link_query().endswith("sweep.field=dice&sweep.values=2,4,9")
    panel.step.value = "2"  # the boxes take over
    assert panel.sweep.x == (2, 4, 6, 8)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("sweep.field=ruleset&sweep.range=0:3", "Rules version is not a number field"),
        ("sweep.field=height_m&sweep.range=0:1e3", "(sweep.range)"),
        ("sweep.field=height_m&sweep.range=-5:10", "Height of the fall must be"),
        ("sweep.field=height_m&sweep.rnage=0:3", "(sweep.rnage)"),
        ("sweep.range=0:3", "(sweep.field)"),
    ],
)
def test_a_link_whose_sweep_is_wrong_opens_the_panel_and_says_why(query, said):
    view = calculator("falling")
    view.apply_query(f"calculator=falling&stamina=4&{query}")
    panel = view.sweep_panel
    assert panel.heading.expanded
    assert "This link&#x27;s sweep could not be used" in panel.message.value
    assert said in panel.message.value
    assert view.inputs["stamina"].value == "4"
    assert view.status.value == ""


def test_a_link_naming_an_unknown_figure_draws_the_others():
    view = calculator("falling")
    view.apply_query(
        "calculator=falling&sweep.field=height_m&sweep.range=0:5&sweep.figures=p_lethal,nope"
    )
    panel = view.sweep_panel
    assert panel.chosen() == ["p_lethal"]
    assert "sweep.figures names nope" in panel.message.value


def test_scenarios_draw_one_line_each():
    view = calculator("falling")
    panel = view.sweep_panel
    panel.scenarios_source = lambda: [{"stamina": "3"}, {"stamina": "6"}]
    _, panel = view, panel
    panel.heading.expanded = True
    for k, box in panel.figure_boxes.items():
        box.value = k == "p_lethal"
    panel.start.value, panel.stop.value, panel.step.value = "0", "20", "4"
    (chart,) = panel.charts
    assert [s["label"] for s in chart.series] == [
        "Chance the damage is lethal (A)",
        "Chance the damage is lethal (B: Stamina 6 dots)",
    ]
    for line, stamina in zip(chart.series, ("3", "6"), strict=True):
        expected = [
            _point("falling", {"stamina": stamina, "height_m": str(x)}, "p_lethal")
            for x in range(0, 21, 4)
        ]
        assert line["texts"] == [t for _, t in expected]


def test_line_chart_texts():
    assert [t for _, t in number_ticks(0, 17)] == ["0", "5", "10", "15", "20"]
    assert [t for _, t in number_ticks(-3, 4)] == ["−4", "−2", "0", "2", "4"]
    assert [t for _, t in number_ticks(0, 0)] == ["0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    assert [t for _, t in x_ticks([0, 1, 2], ["0", "1", "2"])] == ["0", "1", "2"]
    many = x_ticks([float(x) for x in range(0, 101)], [str(x) for x in range(0, 101)])
    assert [t for _, t in many] == [str(x) for x in range(0, 101, 10)]
    _view, panel = _open("falling", "height_m", "0", "10", "5", ["p_lethal"])
    chart = panel.charts[0]
    assert chart.x_texts == ["0", "5", "10"]
    assert chart.series[0]["texts"] == [
        fmt_prob(Fraction(v)) for v in panel.sweep.values("p_lethal")
    ]
    assert chart.summary.startswith(
        "Chance the damage is lethal by Height of the fall: line chart of 1 line over "
        "Height of the fall (m), 0 to 10 (3 points). Chance the damage is lethal: 0 % at 0,"
    )
    assert chart.filename == "chance-the-damage-is-lethal-by-height-of-the-fall.csv"


def test_the_readout_starts_at_the_forms_value():
    view, panel = _open("falling", "height_m", "0", "30", "5", ["p_lethal"], height_m="14")
    assert panel.charts[0].read_at == 3  # 15 m is the point nearest 14 m
    view.set_input("height_m", "30")
    assert panel.charts[0].read_at == 6


def _two_lines(view: Any) -> list[Any]:
    (chart,) = view.sweep_panel.charts
    return chart.series


def test_scenarios_compared_in_the_view_get_a_line_each():
    view = calculator("falling")
    view.set_input("stamina", "3")
    view.scenarios.open()
    view.scenarios.add()  # B: a copy of A, which the form now edits
    view.set_input("stamina", "6")
    panel = view.sweep_panel
    panel.heading.expanded = True
    for k, box in panel.figure_boxes.items():
        box.value = k == "p_lethal"
    panel.start.value, panel.stop.value, panel.step.value = "0", "20", "4"
    lines = _two_lines(view)
    assert [s["label"] for s in lines] == [
        "Chance the damage is lethal (A)",
        "Chance the damage is lethal (B: Stamina 6 dots)",
    ]
    for line, stamina in zip(lines, ("3", "6"), strict=True):
        expected = [
            _point("falling", {"stamina": stamina, "height_m": str(x)}, "p_lethal")
            for x in range(0, 21, 4)
        ]
        assert line["texts"] == [t for _, t in expected]


def test_a_link_with_scenarios_and_a_sweep_opens_both():
    view = calculator("falling")
    view.apply_query(
        "calculator=falling&stamina=3&scenarios=2&s2.stamina=6"
        "&sweep.field=height_m&sweep.range=0:20:4&sweep.figures=p_lethal"
    )
    assert view.scenarios.comparing
    assert view.sweep_panel.heading.expanded
    lines = _two_lines(view)
    assert len(lines) == 2
    expected_b = [
        _point("falling", {"stamina": "6", "height_m": str(x)}, "p_lethal")[1]
        for x in range(0, 21, 4)
    ]
    assert lines[1]["texts"] == expected_b


def test_an_error_of_any_type_marks_the_line_not_current_with_the_fields_message():
    """Issue 38, 4: a Step of 0.00000000000000001 raised decimal.InvalidOperation out of
    the refresh: no message, and the line of Strength 1 stayed drawn, not faded."""
    view, panel = _open("falling", "height_m", "0", "30", "5", ["p_lethal"])
    assert "rl-sweep-stale" not in panel._dom_classes
    panel.stop.value = "100000"
    panel.step.value = "0.00000000000000001"
    said = panel.message.value
    assert "rl-sweep-stale" not in panel._dom_classes or "Not current" in said
    # whatever the sweep made of it, a step the boxes refuse fades the line and says why
    panel.step.value = "-1"
    assert "rl-sweep-stale" in panel._dom_classes
    assert "Not current: Step: The step of Height of the fall" in panel.message.value
    # an error of another type than the input's (raised by the engine): the same
    import ruleslab_widgets.sweep_panel as sp

    real = sp.sweep_values

    def broken(*args: Any, **kwargs: Any) -> Any:
        from decimal import InvalidOperation

        raise InvalidOperation("[<class 'decimal.DivisionImpossible'>]")

    sp.sweep_values = broken  # type: ignore[assignment]
    try:
        panel.step.value = "5"
        assert "rl-sweep-stale" in panel._dom_classes
        assert "Not current: this sweep could not be computed (InvalidOperation" in (
            panel.message.value
        )
    finally:
        sp.sweep_values = real  # type: ignore[assignment]
    panel.stop.value = "30"
    view.set_input("stamina", "4")
    assert "rl-sweep-stale" not in panel._dom_classes
    expected = [
        _point("falling", {"stamina": "4", "height_m": str(h)}, "p_lethal")[0]
        for h in range(0, 31, 5)
    ]
    assert list(panel.sweep.values("p_lethal")) == expected
