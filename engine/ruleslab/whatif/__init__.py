"""What if: scenarios side by side, and a figure across a range (issue 22).

This module holds the records and :func:`compare` and :func:`sweep`; reading
scenarios and bounding a sweep's points is :mod:`ruleslab.whatif.inputs`, the
links :mod:`ruleslab.whatif.links`. Everything public is importable from here.

Two questions a GM or a rules designer brings to any calculator, answered with
the calculator's own path (each value parsed once by its field's
:class:`~ruleslab.Param`, then :meth:`~ruleslab.declare.Calculator.run`), for
any calculator and without per-calculator code:

* :func:`compare`: two to four **scenarios** of the inputs. Scenario A is the
  base (defaults plus what it names); each later scenario names only what
  differs from A. The record holds each scenario's inputs and result, each
  figure's values side by side with its difference from A (exact: ints and
  Fractions stay so), and which fields differ (for a legend).
* :func:`sweep`: one number field over a :class:`Range` or explicit values,
  each point computed as the form would, for one scenario or several; the
  chosen figures per point, :meth:`Sweep.to_csv` (exact values) and
  :meth:`Sweep.chart`. A sweep is **bounded**: at most :func:`max_points`
  points for the calculator (a timing model, below); a longer range is cut and
  the record says so (:attr:`Sweep.note`).
* Links: :func:`scenarios_query` writes the scenarios as a link's query, the
  shared link of one calculator (``calculator=lifting&strength=5``) for A, then
  ``scenarios=N`` and only what differs from A, prefixed ``s2.``, ``s3.`` …
  (``s2.strength=6``), and a sweep as ``sweep.field=…&sweep.range=0:10``
  (:class:`SweepSpec`); :func:`scenarios_from_query` and
  :func:`sweep_from_query` read them back, refusing anything else with a
  message naming the query parameter and the form it takes.

Charts are plain data (:class:`ChartData`: series of x and y values with their
labels), for a widget to draw; the engine draws nothing.

The timing model
----------------
The issue's budget: the slowest calculator's whole sweep in at most
:data:`SWEEP_BUDGET_MS` on CPython. Each calculator's cost of one point,
:data:`POINT_COST_MS`, is the slowest point measured sweeping each of its
number fields over its declared range from the defaults (``bench/sweeps.py
--calibrate``, rounded up on a loaded machine); a calculator's cap is the
budget over that cost, at most :data:`MAX_POINTS` (a chart's and a table's
readable length). ``bench/sweeps.py`` times the slowest calculator's default
sweep against the budget. Inputs far from the defaults may cost more per point
(the project's standard bounds any one input at 200 ms): ``time_limit`` bounds
any sweep by its time, at the cost of points that depend on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslab.declare import Calculator, ChartView
from ruleslab.explain import Explained, Figure
from ruleslab.params import InputError
from ruleslab.whatif.inputs import (
    LABELS,
    LINK_SAFE,
    MAX_POINTS,
    MAX_SCENARIOS,
    POINT_COST_MS,
    SWEEP_BUDGET_MS,
    Range,
    ScenarioError,
    as_text,
    calculator_of,
    default_sweep,
    is_number,
    max_points,
    number_field,
    resolve,
    sweep_values,
)
from ruleslab.whatif.links import (
    SweepSpec,
    scenarios_from_query,
    scenarios_query,
    sweep_from_query,
)

__all__ = [
    "LABELS",
    "LINK_SAFE",
    "MAX_POINTS",
    "MAX_SCENARIOS",
    "POINT_COST_MS",
    "SWEEP_BUDGET_MS",
    "ChartData",
    "Comparison",
    "FigureRow",
    "Range",
    "Scenario",
    "ScenarioError",
    "Series",
    "Sweep",
    "SweepPoint",
    "SweepSpec",
    "as_text",
    "compare",
    "default_sweep",
    "is_number",
    "max_points",
    "resolve",
    "scenarios_from_query",
    "scenarios_query",
    "sweep",
    "sweep_from_query",
    "sweep_values",
]


# -- scenarios ---------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """One scenario: its letter, the values as given (``given``, only what it names),
    every field's parsed value (``values``), its result, and the fields that differ
    from scenario A and apply in one of the two (``differs``, form order)."""

    label: str
    given: Mapping[str, Any]
    values: Mapping[str, Any]
    result: Explained
    differs: tuple[str, ...]
    legend: str
    """For a chart's legend: ``A`` or ``B: Strength 5`` (what differs from A); ``B — B:
    Defence (DF) 4`` where a field's label has its own ``X: ``."""


@dataclass(frozen=True)
class FigureRow:
    """One figure across the scenarios: ``values[i]`` and ``texts[i]`` are scenario i's,
    ``deltas[i]`` its difference from A (exact; ``None`` for A itself, for a figure
    that is not a number in both, or one a scenario lacks)."""

    key: str
    label: str
    values: tuple[object, ...]
    texts: tuple[str, ...]
    deltas: tuple[object, ...]

    @property
    def numeric(self) -> bool:
        """Whether every scenario's value is a number (int, Fraction or float)."""
        return all(is_number(v) for v in self.values)

    @property
    def differs(self) -> bool:
        """Whether any scenario's value differs from A's."""
        return any(v != self.values[0] for v in self.values[1:])


@dataclass(frozen=True)
class Series:
    """One line (or group of bars) of a chart: ``x`` and ``y`` of equal length, ``y``
    exact (int, Fraction) where the engine is, ``None`` where there is no value."""

    label: str
    x: tuple[object, ...]
    y: tuple[object, ...]
    scenario: str
    figure: str = ""

    def y_floats(self) -> tuple[float | None, ...]:
        """``y`` as floats for drawing (``None`` stays)."""
        return tuple(None if v is None else float(v) for v in self.y)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ChartData:
    """A chart for a widget to draw: ``kind`` ``"line"`` (a sweep) or ``"bars"`` (a
    calculator's chart, one group of bars per scenario), its axes and series."""

    kind: str
    title: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]


@dataclass(frozen=True)
class Comparison:
    """The record :func:`compare` returns."""

    key: str
    scenarios: tuple[Scenario, ...]
    figures: tuple[FigureRow, ...]

    def figure(self, key: str) -> FigureRow:
        """The row of the figure ``key`` (KeyError if no scenario has it)."""
        for row in self.figures:
            if row.key == key:
                return row
        raise KeyError(key)

    def query(self) -> str:
        """The link's query for these scenarios (:func:`scenarios_query`)."""
        calc = calculator_of(self.key)
        return scenarios_query(calc, [dict(s.given) for s in self.scenarios])

    def charts(self) -> tuple[ChartData, ...]:
        """The calculator's own charts with every scenario's bars (one series each)."""
        calc = calculator_of(self.key)
        out = []
        for view in calc.views:
            if not isinstance(view, ChartView):
                continue
            series = []
            for s in self.scenarios:
                bars = view.chart(s.result).bars
                series.append(
                    Series(
                        s.legend,
                        tuple(label for label, _ in bars),
                        tuple(p for _, p in bars),
                        s.label,
                    )
                )
            out.append(ChartData("bars", view.title, view.x_label, "Probability", tuple(series)))
        return tuple(out)


def _differs(calc: Calculator, a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields whose values differ between ``a`` and ``b`` and apply in one of them."""
    return tuple(
        p.name
        for p in calc.params
        if a[p.name] != b[p.name] and (calc.applies(p.name, a) or calc.applies(p.name, b))
    )


def _legend(calc: Calculator, label: str, values: Mapping[str, Any], names: Sequence[str]) -> str:
    if not names:
        return label
    by_name = {p.name: p for p in calc.params}
    parts = []
    for name in names[:3]:
        p = by_name[name]
        unit = f" {p.unit}" if p.unit else ""
        shown = p.shown(values[name]).replace("\n", " ")
        shown = shown if len(shown) <= 40 else shown[:39] + "…"  # (a text field's value)
        parts.append(f"{p.label} {shown}{unit}")
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    # a field's label may carry its own "X: " (Chimera's "B: Defence (DF)"): then a dash
    # after the scenario's letter, not a second colon ("B — B: Defence (DF) 4")
    joint = " — " if any(": " in by_name[n].label for n in names[:3]) else ": "
    return f"{label}{joint}{', '.join(parts)}{more}"


def _run(calc: Calculator, label: str, values: Mapping[str, Any]) -> Explained:
    try:
        return calc.run(values)
    except InputError as exc:  # a rule across fields
        raise ScenarioError(label, exc.field, exc.message) from None


def _delta(a: object, b: object) -> object:
    if is_number(a) and is_number(b):
        return b - a  # type: ignore[operator]
    return None


def compare(
    key_or_calc: str | Calculator,
    scenarios: Sequence[Mapping[str, Any]],
    labels: Sequence[str] | None = None,
) -> Comparison:
    """Two to four scenarios of one calculator, side by side.

    ``scenarios[0]`` is A, the base: field values (text as typed or Python values)
    over the defaults; each later one gives only what differs from A. Every value is
    parsed once by its field; a bad one raises :class:`ScenarioError` naming the
    scenario and the field. ``labels``: each scenario's letter when some are left out
    (A and C compared: C stays C, in its legend and its errors); else A, B, … in order.
    """
    calc = calculator_of(key_or_calc)
    if isinstance(scenarios, Mapping) or not 2 <= len(scenarios) <= MAX_SCENARIOS:
        raise ValueError(f"compare takes 2 to {MAX_SCENARIOS} scenarios (a list of mappings)")
    resolved = resolve(calc, scenarios, labels)
    letters = labels if labels is not None else LABELS
    base = resolved[0][1]
    built = []
    for i, (given, values) in enumerate(resolved):
        label = letters[i]
        differs = _differs(calc, base, values) if i else ()
        built.append(
            Scenario(
                label,
                given,
                values,
                _run(calc, label, values),
                differs,
                _legend(calc, label, values, differs),
            )
        )
    rows: list[FigureRow] = []
    per: list[dict[str, Figure]] = [{f.key: f for f in s.result.figures()} for s in built]
    keys = list(dict.fromkeys(k for figs in per for k in figs))
    for key in keys:
        found = [figs.get(key) for figs in per]
        label = next(f.label for f in found if f is not None)
        values_ = tuple(None if f is None else f.value for f in found)
        rows.append(
            FigureRow(
                key,
                label,
                values_,
                tuple("—" if f is None else f.text for f in found),
                (None, *(_delta(values_[0], v) for v in values_[1:])),
            )
        )
    return Comparison(calc.key, tuple(built), tuple(rows))


# -- sweeps ------------------------------------------------------------------


_Run = tuple[int | float, dict[str, Any], Explained | None, str, dict[str, Figure]]
"""One point computed: x, the inputs, the result (or ``None``), the error, the figures."""


@dataclass(frozen=True)
class SweepPoint:
    """One point of one scenario: the field's value, the result (``None`` with the
    form's ``error`` message when the inputs break a rule across fields) and the
    chosen figures' values (``None`` where a figure is absent or not a number)."""

    scenario: str
    x: int | float
    values: Mapping[str, Any]
    result: Explained | None
    error: str
    figures: Mapping[str, object]
    texts: Mapping[str, str]


@dataclass(frozen=True)
class Sweep:
    """The record :func:`sweep` returns: ``points`` per scenario, in x order; ``x`` the
    field's values; each of ``scenarios`` with its result at the first point that
    computes (the swept field replaces the scenario's own value)."""

    key: str
    field: str
    field_label: str
    unit: str
    figures: tuple[str, ...]
    figure_labels: tuple[str, ...]
    scenarios: tuple[Scenario, ...]
    x: tuple[int | float, ...]
    points: tuple[tuple[SweepPoint, ...], ...]
    note: str = ""
    """"" or why the range was cut: "cut to N points: …"."""
    spec: SweepSpec | None = None
    """What was asked (the range before any cut), for the link."""

    def query(self) -> str:
        """The link's query: the scenarios and ``sweep.*`` (:func:`scenarios_query`)."""
        return scenarios_query(self.key, [dict(s.given) for s in self.scenarios], self.spec)

    @property
    def cut(self) -> bool:
        """Whether the range was cut (:attr:`note` says why)."""
        return bool(self.note)

    def values(self, figure: str, scenario: int = 0) -> tuple[object, ...]:
        """The figure's value at each x for one scenario (0 is A)."""
        return tuple(p.figures[figure] for p in self.points[scenario])

    def to_csv(self) -> str:
        """A table, one row per x and scenario: the field's value, the scenario, each
        figure's exact value (``1/3`` for a Fraction) and the error if any."""
        import csv  # (here: the app page's cut-down standard library has no csv)
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([self.field, "scenario", *self.figures, "error"])
        for row in zip(*self.points, strict=True):
            for p in row:
                writer.writerow(
                    [
                        as_text(p.x),
                        p.scenario,
                        *("" if p.figures[f] is None else str(p.figures[f]) for f in self.figures),
                        p.error,
                    ]
                )
        return out.getvalue()

    def chart(self, figures: Sequence[str] | None = None) -> ChartData:
        """A line chart: one series per scenario and figure, x the field's values."""
        chosen = tuple(figures) if figures is not None else self.figures
        unknown = [f for f in chosen if f not in self.figures]
        if unknown:
            raise KeyError(f"not swept: {unknown}; this sweep's figures: {list(self.figures)}")
        labels = dict(zip(self.figures, self.figure_labels, strict=True))
        series = []
        for s, pts in zip(self.scenarios, self.points, strict=True):
            for f in chosen:
                name = labels[f] if len(self.scenarios) == 1 else f"{labels[f]} ({s.legend})"
                series.append(Series(name, self.x, tuple(p.figures[f] for p in pts), s.label, f))
        unit = f" ({self.unit})" if self.unit else ""
        y_label = labels[chosen[0]] if len(chosen) == 1 else "Value"
        title = f"{', '.join(labels[f] for f in chosen)} by {self.field_label}"
        return ChartData("line", title, self.field_label + unit, y_label, tuple(series))


def sweep(
    key_or_calc: str | Calculator,
    field: str,
    values_or_range: Range | range | Iterable[Any],
    base: Mapping[str, Any] | None = None,
    figures: Sequence[str] | None = None,
    *,
    scenarios: Sequence[Mapping[str, Any]] | None = None,
    time_limit: float | None = None,
) -> Sweep:
    """One number field over a range (or explicit values), each point computed as the
    form would, for ``base`` (one scenario: field values over the defaults) or for
    ``scenarios`` (as :func:`compare` takes them: A, then what differs from A).

    ``figures``: the figure keys to keep (default: every figure that is a number at some
    point, in the result's order; ``None`` at a point where it is not one). The number
    of points is bounded (:func:`sweep_values`; the record's ``note`` says when and why
    a range was cut).

    ``time_limit`` (seconds; ``None``: none): no further point is started once the
    sweep has taken longer, and the note says so. The cap bounds a sweep from inputs
    near the defaults; a page passes ``SWEEP_BUDGET_MS / 1000`` to bound any sweep (a
    heavy base, e.g. Chimera's Wound Limits at 10, costs several times more per
    point). Without it, the same inputs always give the same points.
    """
    calc = calculator_of(key_or_calc)
    if isinstance(figures, str):  # one figure's key
        figures = (figures,)
    if base is not None and scenarios is not None:
        raise ValueError("give base or scenarios, not both")
    given = list(scenarios) if scenarios is not None else [base or {}]
    resolved = resolve(calc, given)
    param = number_field(calc, field)
    if not isinstance(values_or_range, Range | range):
        values_or_range = list(values_or_range)  # (read once: it may be an iterator)
    xs, note = sweep_values(calc, field, values_or_range, scenarios=len(resolved))
    xs_requested: tuple[int | float, ...] = xs
    if isinstance(values_or_range, range) and values_or_range:
        r = values_or_range
        values_or_range = Range(min(r[0], r[-1]), max(r[0], r[-1]), abs(r.step))
    elif isinstance(values_or_range, list):
        xs_requested = tuple(dict.fromkeys(param.parse(v) for v in values_or_range))
    base_values = resolved[0][1]
    scens: list[Scenario] = []
    runs: list[list[_Run]] = [[] for _ in resolved]
    started = time.perf_counter()
    for n, x in enumerate(xs):
        if n and time_limit is not None and time.perf_counter() - started > time_limit:
            note = (
                f"cut to {n} point{'s' if n > 1 else ''}: the sweep took over {time_limit:g} s "
                f"(its time limit) before {param.label} {as_text(x)}; the range now ends at "
                f"{as_text(xs[n - 1])}." + (f" (Before that, {note})" if note else "")
            )
            xs = xs[:n]
            break
        for i, (_, values) in enumerate(resolved):
            point = {**values, **calc.implied({field: x})}  # (an override swept: entered)
            try:
                result: Explained | None = calc.run(point)
                error = ""
            except InputError as exc:  # a rule across fields: the form's message
                result, error = None, exc.message
            figs = {} if result is None else {f.key: f for f in result.figures()}
            runs[i].append((x, point, result, error, figs))
    for i, (g, values) in enumerate(resolved):
        label = LABELS[i]
        differs = tuple(n for n in _differs(calc, base_values, values) if n != field) if i else ()
        first = next((r[2] for r in runs[i] if r[2] is not None), None)
        scens.append(
            Scenario(
                label,
                g,
                values,
                first if first is not None else _run(calc, label, values),
                differs,
                _legend(calc, label, values, differs),
            )
        )
    numeric_keys: list[str] = []
    labels: dict[str, str] = {}
    order: dict[str, int] = {}
    for row in runs:
        for *_, figs in row:
            for i, f in enumerate(figs.values()):
                labels.setdefault(f.key, f.label)
                order.setdefault(f.key, i)
                if is_number(f.value) and f.key not in numeric_keys:
                    numeric_keys.append(f.key)
    numeric_keys.sort(key=lambda k: order[k])
    if figures is None:
        chosen = tuple(numeric_keys)
    else:
        chosen = tuple(figures)
        unknown = [f for f in chosen if f not in numeric_keys]
        if unknown:
            raise KeyError(
                f"{calc.key} has no number figure {unknown}; its number figures: "
                f"{', '.join(numeric_keys)}"
            )
    points: list[tuple[SweepPoint, ...]] = []
    for s, row in zip(scens, runs, strict=True):
        pts = []
        for x, point, result, error, figs in row:
            pts.append(
                SweepPoint(
                    s.label,
                    x,
                    point,
                    result,
                    error,
                    {
                        k: figs[k].value if k in figs and is_number(figs[k].value) else None
                        for k in chosen
                    },
                    {k: figs[k].text if k in figs else "—" for k in chosen},
                )
            )
        points.append(tuple(pts))
    return Sweep(
        calc.key,
        field,
        param.label,
        param.unit,
        chosen,
        tuple(labels.get(k, k) for k in chosen),
        tuple(scens),
        xs,
        tuple(points),
        note,
        SweepSpec(
            field,
            values_or_range if isinstance(values_or_range, Range) else xs_requested,
            tuple(figures) if figures is not None else (),
        ),
    )
