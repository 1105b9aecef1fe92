"""What if: scenarios side by side, and a figure across a range (issue 22).

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
(the project's standard bounds any one input at 200 ms).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from ruleslab.declare import Calculator, ChartView
from ruleslab.explain import Explained, Figure
from ruleslab.params import BoolParam, InputError, IntParam, NumberParam, Param

__all__ = [
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
    "compare",
    "default_sweep",
    "max_points",
    "scenarios_from_query",
    "scenarios_query",
    "sweep",
    "sweep_from_query",
    "sweep_values",
]

MAX_SCENARIOS = 4
"""Scenarios a comparison holds at most (at least two)."""

SWEEP_BUDGET_MS = 2000
"""What the slowest calculator's whole sweep may take on CPython (issue 22)."""

MAX_POINTS = 101
"""The most points of any sweep: 0 to 100 by 1, a chart's and a table's readable length."""

POINT_COST_MS: Mapping[str, int] = {
    "dice_pool": 2,
    "lifting": 3,
    "movement": 3,
    "jumping": 2,
    "falling": 3,
    "health": 45,
    "damage": 40,
    "autofire": 50,
    "healing": 30,
    "defence": 20,
    "compressed": 25,
    "henchmen": 65,
    "warfare": 40,
    "chimera": 60,
}
"""The timing model: one point's cost per calculator, in ms (see the module's notes)."""

_DEFAULT_COST_MS = 200
"""A calculator missing from :data:`POINT_COST_MS`: the project's per-input standard."""

_LABELS = "ABCD"
_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})
_LINK_SAFE = ",:/@"
_PAGE_PARAMETERS = frozenset({"calculator", "theme", "embed"})
_MAX_QUERY_LENGTH = 200_000


class ScenarioError(InputError):
    """A bad value in a scenario: ``field`` the parameter, ``scenario`` its letter."""

    def __init__(self, scenario: str, field: str, message: str) -> None:
        super().__init__(field, f"Scenario {scenario}: {message}")
        self.scenario = scenario


def _calculator(key_or_calc: str | Calculator) -> Calculator:
    if isinstance(key_or_calc, Calculator):
        return key_or_calc
    from ruleslab.calculators import get

    return get(key_or_calc)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def _text(value: Any) -> str:
    """A Python value as a form's text: a checkbox ``yes``/``no``, 3.0 as ``3``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _parse(param: Param, value: Any) -> Any:
    """``value`` (text as typed, or a Python value) through the field's own parse;
    a checkbox also reads ``yes``/``no`` (and true/false, on/off, 1/0) as a link does."""
    if isinstance(param, BoolParam) and isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise InputError(param.name, f"{param.label} must be yes or no.")
    return param.parse(value)


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
    """For a chart's legend: ``A`` or ``B: Strength 5`` (what differs from A)."""


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
        return all(_is_number(v) for v in self.values)

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
        calc = _calculator(self.key)
        return scenarios_query(calc, [dict(s.given) for s in self.scenarios])

    def charts(self) -> tuple[ChartData, ...]:
        """The calculator's own charts with every scenario's bars (one series each)."""
        calc = _calculator(self.key)
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


def _resolve(
    calc: Calculator, scenarios: Sequence[Mapping[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each scenario's given values and every field's parsed value (A over the defaults,
    the others over A), each value parsed once; refused with a :class:`ScenarioError`."""
    if isinstance(scenarios, Mapping) or not 1 <= len(scenarios) <= MAX_SCENARIOS:
        raise ValueError(f"give 1 to {MAX_SCENARIOS} scenarios, a list of mappings")
    by_name = {p.name: p for p in calc.params}
    defaults = {p.name: p.parse(p.default) for p in calc.params}
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for i, given in enumerate(scenarios):
        label = _LABELS[i]
        if not isinstance(given, Mapping):
            raise TypeError(f"scenario {label}: a mapping of field names to values")
        values = dict(defaults if i == 0 else out[0][1])
        for name, raw in given.items():
            param = by_name.get(name)
            if param is None:
                raise ScenarioError(
                    label,
                    str(name),
                    f"{str(name)[:40]!r} is not a field of {calc.key} "
                    f"(its fields: {', '.join(by_name)}).",
                )
            try:
                values[name] = _parse(param, raw)
            except InputError as exc:
                raise ScenarioError(label, name, exc.message) from None
        out.append((dict(given), values))
    return out


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
        parts.append(f"{p.label} {p.shown(values[name])}{unit}")
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return f"{label}: {', '.join(parts)}{more}"


def _run(calc: Calculator, label: str, values: Mapping[str, Any]) -> Explained:
    try:
        return calc.run(values)
    except InputError as exc:  # a rule across fields
        raise ScenarioError(label, exc.field, exc.message) from None


def _delta(a: object, b: object) -> object:
    if _is_number(a) and _is_number(b):
        return b - a  # type: ignore[operator]
    return None


def compare(key_or_calc: str | Calculator, scenarios: Sequence[Mapping[str, Any]]) -> Comparison:
    """Two to four scenarios of one calculator, side by side.

    ``scenarios[0]`` is A, the base: field values (text as typed or Python values)
    over the defaults; each later one gives only what differs from A. Every value is
    parsed once by its field; a bad one raises :class:`ScenarioError` naming the
    scenario and the field.
    """
    calc = _calculator(key_or_calc)
    if isinstance(scenarios, Mapping) or not 2 <= len(scenarios) <= MAX_SCENARIOS:
        raise ValueError(f"compare takes 2 to {MAX_SCENARIOS} scenarios (a list of mappings)")
    resolved = _resolve(calc, scenarios)
    base = resolved[0][1]
    built = []
    for i, (given, values) in enumerate(resolved):
        label = _LABELS[i]
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


# -- links -------------------------------------------------------------------


def scenarios_query(
    calc: str | Calculator,
    scenarios: Sequence[Mapping[str, Any]],
    sweep: SweepSpec | None = None,
) -> str:
    """The scenarios as a link's query: ``calculator=<key>``, A's fields that differ from
    the defaults (as a one-calculator link writes them), then, for two or more,
    ``scenarios=N`` and each later scenario's fields that differ from A, prefixed
    ``s2.`` … A field that does not apply in its scenario is left out; a value is
    written as given (text as typed; a checkbox ``yes``/``no``). ``sweep``: a sweep's
    field, range and figures, added as ``sweep.*`` (:meth:`SweepSpec.pairs`)."""
    c = _calculator(calc)
    resolved = _resolve(c, scenarios)
    pairs = [("calculator", c.key)]
    defaults = {p.name: p.parse(p.default) for p in c.params}
    for i, (given, values) in enumerate(resolved):
        against = defaults if i == 0 else resolved[0][1]
        prefix = f"s{i + 1}." if i else ""
        if i == 1:
            pairs.append(("scenarios", str(len(resolved))))
        texts = {**({} if i == 0 else resolved[0][0]), **given}
        for p in c.params:
            if values[p.name] == against[p.name] or not c.applies(p.name, values):
                continue
            pairs.append((prefix + p.name, _text(texts.get(p.name, values[p.name]))))
    if sweep is not None:
        pairs += sweep.pairs(c)
    return urlencode(pairs, quote_via=quote, safe=_LINK_SAFE)


def scenarios_from_query(calc: str | Calculator, query: str) -> list[dict[str, str]]:
    """The scenarios a link's query holds (:func:`scenarios_query`), each as text to give
    :func:`compare` (A over the defaults, the others over A).

    Refuses, with an :class:`~ruleslab.InputError` naming the query parameter and the
    form it takes: a field the calculator lacks, a name given twice, ``sN.`` beyond
    ``scenarios``, a ``scenarios`` that is not 2 to 4. The values themselves are
    checked when the scenarios are computed (each field's own message). Linear in the
    query's length.
    """
    c = _calculator(calc)
    if len(query) > _MAX_QUERY_LENGTH:
        raise InputError("query", f"A link's query holds at most {_MAX_QUERY_LENGTH:,} characters.")
    pairs = parse_qsl(query.removeprefix("?"), keep_blank_values=True)
    names = {p.name for p in c.params}
    count = 1
    counts = [text for name, text in pairs if name == "scenarios"]
    if len(counts) > 1:
        raise InputError("scenarios", "scenarios is given more than once.")
    if counts:
        text = counts[0].strip()
        if text not in {str(n) for n in range(2, MAX_SCENARIOS + 1)}:
            raise InputError(
                "scenarios",
                f"scenarios must be a whole number from 2 to {MAX_SCENARIOS} (got {text[:20]!r}).",
            )
        count = int(text)
    out: list[dict[str, str]] = [{} for _ in range(count)]
    for name, text in pairs:
        if name in _PAGE_PARAMETERS or name == "scenarios" or name.startswith("sweep."):
            continue
        index, field_ = 0, name
        if name[:1] == "s" and "." in name:
            head, field_ = name.split(".", 1)
            if not head[1:].isdigit() or not head[1:].isascii():
                raise InputError(name[:40], f"{name[:40]!r}: a scenario's field is sN.<field>.")
            index = int(head[1:]) - 1
            if not 1 <= index < count:
                allowed = f"s2. to s{count}." if count > 1 else "none: add scenarios=N first"
                raise InputError(
                    name[:40],
                    f"{name[:40]!r} names scenario {head[1:][:6]}; this link's scenario "
                    f"prefixes: {allowed} (A's fields have none).",
                )
        if field_ not in names:
            raise InputError(
                name[:40],
                f"{name[:40]!r} is not a field of {c.key} "
                f"(its fields: {', '.join(sorted(names))}).",
            )
        if field_ in out[index]:
            raise InputError(name[:40], f"{name[:40]!r} is given more than once.")
        out[index][field_] = text
    return out


# -- sweeps ------------------------------------------------------------------


@dataclass(frozen=True)
class Range:
    """``start`` to ``stop`` **inclusive** by ``step`` (the field's own step if ``None``),
    as a GM says "Defense 0 to 10". A Python ``range`` is also taken (stop exclusive)."""

    start: float
    stop: float
    step: float | None = None


@dataclass(frozen=True)
class SweepSpec:
    """A sweep as a link holds it: the field, its :class:`Range` or explicit values, and
    the figures (``()``: the default)."""

    field: str
    span: Range | tuple[int | float, ...]
    figures: tuple[str, ...] = ()

    def pairs(self, calc: str | Calculator) -> list[tuple[str, str]]:
        """``sweep.field``, then ``sweep.range=start:stop:step`` (stop included) or
        ``sweep.values=a,b,c``, then ``sweep.figures=k1,k2`` if any; numbers written
        plainly (``.`` the decimal point). The range's ends and values are checked by the
        field first (:func:`sweep_values`)."""
        sweep_values(calc, self.field, self.span)
        out = [("sweep.field", self.field)]
        if isinstance(self.span, Range):
            step = "" if self.span.step is None else f":{_text(self.span.step)}"
            out.append(("sweep.range", f"{_text(self.span.start)}:{_text(self.span.stop)}{step}"))
        else:
            out.append(("sweep.values", ",".join(_text(v) for v in self.span)))
        if self.figures:
            out.append(("sweep.figures", ",".join(self.figures)))
        return out


def _plain_number(text: str) -> bool:
    """``-12``, ``3.5``: an optional ``-``, ASCII digits, at most one ``.`` between digits."""
    body = text[1:] if text[:1] == "-" else text
    whole, _, fraction = body.partition(".")
    return (
        bool(whole)
        and whole.isdigit()
        and whole.isascii()
        and ("." not in body or (fraction.isdigit() and fraction.isascii()))
    )


def sweep_from_query(calc: str | Calculator, query: str) -> SweepSpec | None:
    """The sweep a link's query holds (``sweep.*``, :meth:`SweepSpec.pairs`), or ``None``.

    Refused with an :class:`~ruleslab.InputError` naming the query parameter and the
    form it takes: an unknown ``sweep.*`` name, one given twice, no ``sweep.field`` or
    not a number field, neither or both of ``sweep.range`` and ``sweep.values``, a
    number not written plainly; a value outside the field's range gets the field's own
    message. Figures are checked when the sweep is computed.
    """
    c = _calculator(calc)
    if len(query) > _MAX_QUERY_LENGTH:
        raise InputError("query", f"A link's query holds at most {_MAX_QUERY_LENGTH:,} characters.")
    known = ("sweep.field", "sweep.range", "sweep.values", "sweep.figures")
    given: dict[str, str] = {}
    for name, text in parse_qsl(query.removeprefix("?"), keep_blank_values=True):
        if not name.startswith("sweep."):
            continue
        if name not in known:
            raise InputError(name[:40], f"{name[:40]!r}: a sweep's link names {', '.join(known)}.")
        if name in given:
            raise InputError(name, f"{name} is given more than once.")
        given[name] = text
    if not given:
        return None
    if "sweep.field" not in given:
        raise InputError("sweep.field", "sweep.field names the number field to sweep.")
    param = _number_param(c, given["sweep.field"])
    if ("sweep.range" in given) == ("sweep.values" in given):
        raise InputError(
            "sweep.range", "Give sweep.range=start:stop[:step] or sweep.values=a,b,c (one)."
        )
    if "sweep.range" in given:
        parts = given["sweep.range"].split(":", 3)
        if not 2 <= len(parts) <= 3 or not all(_plain_number(x) for x in parts):
            raise InputError(
                "sweep.range",
                "sweep.range is start:stop or start:stop:step, numbers written plainly "
                "(e.g. 0:10:2).",
            )
        start, stop = param.parse(parts[0]), param.parse(parts[1])
        step = float(parts[2]) if len(parts) == 3 else None
        if step is not None and step.is_integer():
            step = int(step)
        span: Range | tuple[int | float, ...] = Range(start, stop, step)
    else:
        items = given["sweep.values"].split(",")
        if not all(_plain_number(x) for x in items):
            raise InputError(
                "sweep.values",
                "sweep.values is numbers written plainly, separated by commas (e.g. 0,2.5,10).",
            )
        span = tuple(param.parse(x) for x in items)
    figures = tuple(f for f in given.get("sweep.figures", "").split(",") if f)
    return SweepSpec(param.name, span, figures)


def max_points(calc: str | Calculator) -> int:
    """The most points one sweep of this calculator computes (per scenario)."""
    key = _calculator(calc).key
    cost = POINT_COST_MS.get(key, _DEFAULT_COST_MS)
    return max(2, min(MAX_POINTS, SWEEP_BUDGET_MS // cost))


def _number_param(calc: Calculator, name: str) -> IntParam | NumberParam:
    by_name = {p.name: p for p in calc.params}
    param = by_name.get(name)
    if param is None:
        raise InputError(name[:40], f"{name[:40]!r} is not a field of {calc.key}.")
    if not isinstance(param, IntParam | NumberParam):
        numeric = [p.name for p in calc.params if isinstance(p, IntParam | NumberParam)]
        raise InputError(
            name,
            f"{param.label} is not a number field: a sweep takes one of {', '.join(numeric)}.",
        )
    return param


def _dec(x: object) -> Decimal:
    return Decimal(str(x))


def sweep_values(
    calc: str | Calculator,
    field: str,
    values_or_range: Range | range | Iterable[Any],
    scenarios: int = 1,
) -> tuple[tuple[int | float, ...], str]:
    """The points a sweep of ``field`` computes and its note ("" or "cut to N points: …").

    The range's ends (or each value) are parsed by the field: one outside its declared
    range is refused with the field's own message. A range is counted, never listed,
    before it is cut, so even 0 to 10¹² costs nothing. ``scenarios``: how many
    scenarios the sweep runs (the cap is per sweep, shared between them).
    """
    c = _calculator(calc)
    param = _number_param(c, field)
    cap = max(2, max_points(c) // max(1, scenarios))
    why = (
        f"{c.title} computes at most {cap} points per sweep"
        + (f" of {scenarios} scenarios" if scenarios > 1 else "")
        + f" (within {SWEEP_BUDGET_MS / 1000:g} s)"
    )
    if isinstance(values_or_range, range):
        r = values_or_range
        if not r:
            raise InputError(field, f"The range of {param.label} is empty.")
        values_or_range = Range(r.start, r[-1], abs(r.step))
        if r.step < 0:
            values_or_range = Range(r[-1], r.start, -r.step)
    if isinstance(values_or_range, Range):
        start = param.parse(values_or_range.start)
        stop = param.parse(values_or_range.stop)
        step = param.step if values_or_range.step is None else values_or_range.step
        if isinstance(step, bool) or not _is_number(step) or not step > 0:
            raise InputError(field, f"The step of {param.label} must be a number above 0.")
        if isinstance(param, IntParam) and _dec(step) != _dec(step).to_integral_value():
            raise InputError(field, f"The step of {param.label} must be a whole number.")
        if stop < start:
            raise InputError(field, f"The range of {param.label} ends ({stop}) before it starts.")
        d_start, d_step = _dec(start), _dec(step)
        count = int((_dec(stop) - d_start) // d_step) + 1
        n = min(count, cap)
        points: list[int | float] = []
        for k in range(n):
            v = d_start + k * d_step
            points.append(int(v) if isinstance(param, IntParam) else float(v))
        note = ""
        if count > cap:
            span = _dec(stop) - d_start
            if isinstance(param, IntParam):
                hint = str((span / (cap - 1)).to_integral_value(ROUND_CEILING))
            else:  # rounded up to hundredths
                hint = _text(float((span / (cap - 1)).quantize(Decimal("0.01"), ROUND_CEILING)))
            note = (
                f"cut to {n} points: {why}; the range now ends at {_text(points[-1])} "
                f"instead of {_text(stop)} (a step of {hint} covers it all)."
            )
        return tuple(points), note
    if isinstance(values_or_range, str | bytes | Mapping):
        raise InputError(field, f"Give {param.label}'s values as a list, or a Range.")
    parsed = [param.parse(v) for v in values_or_range]
    parsed = list(dict.fromkeys(parsed))  # each once, in the order given
    if not parsed:
        raise InputError(field, f"Give {param.label} at least one value.")
    note = ""
    if len(parsed) > cap:
        note = f"cut to {cap} points: {why}; the first {cap} of {len(parsed)} values are kept."
        parsed = parsed[:cap]
    return tuple(parsed), note


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
                        _text(p.x),
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


def default_sweep(calc: str | Calculator) -> tuple[str, Range]:
    """A calculator's default sweep: its first number field among the main inputs (else
    any), over the field's whole declared range by its step (cut when swept)."""
    c = _calculator(calc)
    main = [p for p in c.main_params if isinstance(p, IntParam | NumberParam)]
    every = [p for p in c.params if isinstance(p, IntParam | NumberParam)]
    if not every:
        raise ValueError(f"{c.key} has no number field to sweep")
    p = (main or every)[0]
    return p.name, Range(p.minimum, p.maximum, p.step)


def sweep(
    key_or_calc: str | Calculator,
    field: str,
    values_or_range: Range | range | Iterable[Any],
    base: Mapping[str, Any] | None = None,
    figures: Sequence[str] | None = None,
    *,
    scenarios: Sequence[Mapping[str, Any]] | None = None,
) -> Sweep:
    """One number field over a range (or explicit values), each point computed as the
    form would, for ``base`` (one scenario: field values over the defaults) or for
    ``scenarios`` (as :func:`compare` takes them: A, then what differs from A).

    ``figures``: the figure keys to keep (default: every figure that is a number at some
    point, in the result's order; ``None`` at a point where it is not one). The number
    of points is bounded (:func:`sweep_values`; the record's ``note`` says when and why
    a range was cut).
    """
    calc = _calculator(key_or_calc)
    if base is not None and scenarios is not None:
        raise ValueError("give base or scenarios, not both")
    given = list(scenarios) if scenarios is not None else [base or {}]
    resolved = _resolve(calc, given)
    param = _number_param(calc, field)
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
    runs: list[list[_Run]] = []
    for i, (g, values) in enumerate(resolved):
        label = _LABELS[i]
        differs = tuple(n for n in _differs(calc, base_values, values) if n != field) if i else ()
        row = []
        first: Explained | None = None
        for x in xs:
            point = {**values, field: x}
            try:
                result: Explained | None = calc.run(point)
                error = ""
            except InputError as exc:  # a rule across fields: the form's message
                result, error = None, exc.message
            first = first or result
            figs = {} if result is None else {f.key: f for f in result.figures()}
            row.append((x, point, result, error, figs))
        runs.append(row)
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
                if _is_number(f.value) and f.key not in numeric_keys:
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
                        k: figs[k].value if k in figs and _is_number(figs[k].value) else None
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
