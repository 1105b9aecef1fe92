"""The bar chart's data behind what it prints: value labels, axis ticks, summary, CSV.

The front end (``chart.py``'s ES module) only lays these texts out; here they
are checked against values worked out by hand and, for every calculator's
charts at its defaults, against the engine's own bars.
"""

from __future__ import annotations

import csv
import io
import math

import pytest

pytest.importorskip("anywidget")

from ruleslab.calculators import CALCULATORS
from ruleslab.declare import ChartView
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.chart import BarChart, chart_csv, csv_filename, nice_ticks


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _round_step(step: float) -> bool:
    """1, 2 or 5 times a power of ten."""
    mantissa = step / 10 ** math.floor(math.log10(step) + 1e-9)
    return any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1, 2, 5))


@pytest.mark.parametrize(
    "top",
    [1.0, 0.999, 0.97, 0.5, 0.4, 0.3125, 0.25, 0.2, 0.123, 0.1, 0.05, 0.031, 0.0031, 1e-4, 1e-7],
)
def test_ticks_are_round_and_cover_the_largest_bar(top):
    ticks = nice_ticks(top)
    values = [v for v, _ in ticks]
    assert values[0] == 0
    assert values[-1] >= top  # every bar ends inside the axis
    assert values[-1] <= 1.0  # never an axis beyond certainty
    assert 3 <= len(ticks) <= 5  # at most 4 steps, at least 2
    step = values[1]
    assert _round_step(step), (top, step)
    assert values[-2] < top  # the axis stops at the first round value covering the bar
    for k, v in enumerate(values):
        assert math.isclose(v, k * step, rel_tol=1e-9, abs_tol=1e-15)
    # each label is its value as a percentage, written exactly
    for v, label in ticks:
        assert label.endswith(" %")
        assert math.isclose(float(label[:-2]), v * 100, rel_tol=1e-9)


def test_ticks_by_hand():
    assert nice_ticks(0.3125) == (
        (0.0, "0 %"),
        (0.1, "10 %"),
        (0.2, "20 %"),
        (0.3, "30 %"),
        (0.4, "40 %"),
    )
    assert nice_ticks(1.0) == ((0.0, "0 %"), (0.5, "50 %"), (1.0, "100 %"))
    assert [t for _, t in nice_ticks(0.0031)] == ["0 %", "0.1 %", "0.2 %", "0.3 %", "0.4 %"]
    assert [t for _, t in nice_ticks(0.12)] == ["0 %", "5 %", "10 %", "15 %"]


def test_value_labels_read_like_the_figures():
    bars = [("0", 0.0), ("1", 0.3125), ("2", 1e-6), ("3", 0.99999)]
    chart = BarChart(title="T", x_label="Successes", bars=bars)
    assert chart.value_labels == ["0 %", "31.25 %", "< 0.01 %", "> 99.99 %"]
    full = BarChart(title="T", x_label="k", bars=[("0", 1.0)])
    assert full.value_labels == ["100 %"]
    assert full.ticks[-1] == (1.0, "100 %")  # a 100 % bar ends on the last tick


def test_derived_texts_follow_the_data():
    chart = BarChart(title="Health levels lost", x_label="Health levels")
    assert chart.value_labels == []
    chart.bars = [("0", 0.25), ("1", 0.75)]
    assert chart.value_labels == ["25.00 %", "75.00 %"]
    assert [t for _, t in chart.ticks] == ["0 %", "20 %", "40 %", "60 %", "80 %"]
    assert "Highlighted" not in chart.csv.splitlines()[0]
    chart.highlight_label = "Dazes the target"
    chart.highlight_from = 1
    assert chart.csv.splitlines()[0].endswith("Highlighted: Dazes the target")
    assert "Highlighted from 1: Dazes the target." in chart.summary


def test_csv_rows_are_the_bars_with_shown_and_exact_values():
    bars = [("Miss", 0.1), ("No wound", 0.2), ("1", 1 / 3), ("2", 1 / 3 - 0.1 - 1e-9)]
    chart = BarChart(
        title="A's blow on B: wound severity",
        x_label="Severity",
        bars=bars,
        highlight_from=2,
        highlight_label="vanquishes B",
    )
    rows = _rows(chart.csv)
    assert rows[0] == [
        "Severity",
        "Probability (as shown)",
        "Probability (exact)",
        "Highlighted: vanquishes B",
    ]
    assert len(rows) == 1 + len(bars)
    for (label, p), shown, row in zip(bars, chart.value_labels, rows[1:], strict=True):
        assert row[0] == label
        assert row[1] == shown
        assert float(row[2]) == p  # the full float, not a rounded one
    assert rows[3][2] == "0.3333333333333333"
    assert [r[3] for r in rows[1:]] == ["", "", "yes", "yes"]
    assert chart.filename == "as-blow-on-b-wound-severity.csv"


def test_csv_escapes_labels():
    tricky = ['Hit, then "wound"', "two\nlines", "−5", "=1+1"]
    text = chart_csv("Level, of damage", [(t, 0.25) for t in tricky], None, "")
    rows = _rows(text)
    assert rows[0][0] == "Level, of damage"
    assert [r[0] for r in rows[1:]] == tricky  # read back exactly
    assert '"Hit, then ""wound"""' in text
    assert len(rows[0]) == 3  # nothing highlighted: no highlight column


def test_a_highlight_beyond_the_bars_marks_nothing():
    chart = BarChart(
        title="T", x_label="k", bars=[("0", 0.5), ("1", 0.5)], highlight_from=2, highlight_label="x"
    )
    assert len(_rows(chart.csv)[0]) == 3
    assert "Highlighted" not in chart.summary


def test_file_names():
    assert csv_filename("Success margin, side A − side B") == "success-margin-side-a-side-b.csv"
    assert csv_filename("—") == "chart.csv"
    assert csv_filename("x" * 200) == "x" * 80 + ".csv"


def test_summary_names_the_bars_and_the_most_likely():
    chart = BarChart(
        title="Distribution of successes",
        x_label="Successes",
        bars=[("0", 0.2), ("1", 0.5), ("2", 0.3)],
    )
    assert chart.summary == (
        "Distribution of successes: bar chart of 3 bars, Successes 0 to 2; most likely 1 "
        "(50.00 %). Every value is in the table (Show as table)."
    )


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.key)
def test_every_calculators_charts(calc):
    """Each chart at the calculator's defaults: a label per bar, ticks covering the
    largest bar, a CSV row per bar; the title names only what is drawn, and a chart
    that highlights bars says what the highlight means."""
    view = CalculatorView(calc)
    charts = [
        (v, w) for v, w in zip(calc.views, view.panels, strict=True) if isinstance(v, ChartView)
    ]
    for v, widget in charts:
        assert isinstance(widget, BarChart)
        assert "highlight" not in v.title.lower(), v.title
        assert widget.highlight_label == v.highlight
        bars = [(label, float(p)) for label, p in v.chart(view.result).bars]
        assert widget.bars == bars
        assert len(widget.value_labels) == len(bars)
        rows = _rows(widget.csv)
        assert [r[0] for r in rows[1:]] == [label for label, _ in bars]
        if bars:
            assert widget.ticks[-1][0] >= max(p for _, p in bars)
        if v.chart(view.result).highlight_from is not None:
            assert v.highlight, f"{calc.key}: {v.title} highlights bars without saying why"
