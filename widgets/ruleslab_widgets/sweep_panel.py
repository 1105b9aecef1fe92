"""The calculator's "Across a range" panel: one input swept over a range, figures as lines.

A folded disclosure group (:class:`~ruleslab_widgets.fold.FoldHeading`) in the
results column of :class:`~ruleslab_widgets.view.CalculatorView`. Opened, it
shows:

* "Input to vary": the calculator's whole-number and number fields, by the
  labels the form shows (the unit beside it; a group's title before a label two
  groups share);
* From, To and Step: number fields of the chosen input (steppers within its
  declared range). They start at the field's declared range cut to the
  calculator's :func:`~ruleslab.whatif.max_points`, with the current value
  inside it, and the field's own step. Each is read by the field's own
  :class:`~ruleslab.Param` ("From: Height of the fall must be a number from 0
  to 100,000 m.");
* the figures to plot: one checkbox per number figure (the first one checked);
* one line chart per kind of figure (chances on a 0–100 % axis, other numbers on
  their own), drawn by :class:`~ruleslab_widgets.chart.LineChart` from the
  engine's :meth:`~ruleslab.whatif.Sweep.chart`, with the values as the
  calculator shows them in its table and the engine's exact
  :meth:`~ruleslab.whatif.Sweep.to_csv` as its download.

Every point is computed by :func:`ruleslab.whatif.sweep` (exact, the form's own
path: no rule here), from the form's current inputs, with the page's time limit
(:data:`TIME_LIMIT`): a sweep never holds the page longer than that, and the
record's note says when a range was cut. While the panel is open the line
follows the form (every good recompute redraws it); closed, it computes nothing.
While a field of the form holds a bad value, the line shown is kept, faded, with
a message.

Scenarios: :attr:`SweepPanel.scenarios_source` (default ``None``: the current
inputs only) may return the scenarios as :func:`ruleslab.whatif.sweep` takes
them (A's values, then what each later one changes; none: the current inputs;
the view gives :meth:`~ruleslab_widgets.scenarios.Scenarios.swept`): the panel then draws one
line per scenario and figure (call :meth:`SweepPanel.refresh` when they change).

Links: while the panel is open, the "Copy link" control carries the sweep in
the engine's form (``sweep.field=height_m&sweep.range=0:60&sweep.figures=p_lethal``,
:class:`~ruleslab.whatif.SweepSpec`); :meth:`SweepPanel.apply_link` reads such a
link back (the view's :meth:`~ruleslab_widgets.view.CalculatorView.apply_query`
hands it over) and opens the panel on the same line.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

import ipywidgets as w

from ruleslab import InputError, IntParam, NumberParam
from ruleslab.whatif import (
    LINK_SAFE,
    SWEEP_BUDGET_MS,
    Range,
    Sweep,
    SweepSpec,
    as_text,
    default_sweep,
    is_number,
    max_points,
    sweep,
    sweep_from_query,
    sweep_values,
)
from ruleslab_widgets.chart import LineChart, chart_widget
from ruleslab_widgets.fold import FoldHeading, FoldRegion
from ruleslab_widgets.groups import form_groups
from ruleslab_widgets.number import NumberField
from ruleslab_widgets.render import status_html
from ruleslab_widgets.shared_styles import own_layout

__all__ = ["TIME_LIMIT", "TITLE", "SweepPanel", "default_range", "field_choices"]

_log = logging.getLogger(__name__)

TITLE = "Across a range"
"""The panel's heading."""

TIME_LIMIT = SWEEP_BUDGET_MS / 1000
"""Seconds a sweep may take before it starts no further point (the engine's budget)."""

Scenarios = Callable[[], Sequence[Mapping[str, Any]]]
NumberP = IntParam | NumberParam


def field_choices(view: Any) -> list[tuple[str, str]]:
    """``(text, name)`` for each whole-number or number field, in form order: the label
    as the form shows it (with its unit); a group's title before a label that two
    fields share (the form tells them apart by their group)."""
    calc = view.calc
    titles = {n: g.title for g in form_groups(calc) for n in g.names}
    numeric = [p for p in calc.params if isinstance(p, IntParam | NumberParam)]
    counts: dict[str, int] = {}
    for p in numeric:
        counts[p.label] = counts.get(p.label, 0) + 1
    out = []
    for p in numeric:
        text = f"{p.label} ({p.unit})" if p.unit else p.label
        if counts[p.label] > 1 and p.name in titles:
            text = f"{titles[p.name]}: {text}"
        elif counts[p.label] > 1 and p.name in calc.options:
            text = f"Rules options: {text}"
        out.append((text, p.name))
    return out


def default_range(param: NumberP, current: float, cap: int) -> Range:
    """The field's declared range by its step, cut to ``cap`` points around ``current``
    (the current value inside it)."""
    step = param.step
    count = int((param.maximum - param.minimum) // step) + 1
    if count <= cap:
        return Range(param.minimum, param.maximum, step)
    span = (cap - 1) * step
    start = max(param.minimum, current - ((cap - 1) // 2) * step)
    start = min(start, param.maximum - span)
    start = param.minimum + ((start - param.minimum) // step) * step  # on the field's steps
    if isinstance(param, IntParam):
        start, span = int(start), int(span)
    return Range(start, start + span, step)


def _step_param(param: NumberP) -> NumberP:
    """The Step box's field: above 0 (the engine refuses 0), at most the whole range."""
    label = f"The step of {param.label}"
    if isinstance(param, IntParam):
        whole = max(1, param.maximum - param.minimum)
        return IntParam("step", label, minimum=1, maximum=whole, step=1, unit=param.unit)
    top = max(param.step, param.maximum - param.minimum)
    return NumberParam("step", label, minimum=0, maximum=top, step=param.step, unit=param.unit)


def _is_chance(sweep_: Sweep, key: str) -> bool:
    """Whether a figure is a chance at every point it has a value (shown as a percentage)."""
    seen = False
    for row in sweep_.points:
        for p in row:
            value = p.figures[key]
            if value is None:
                continue
            if not (0 <= value <= 1 and "%" in p.texts[key]):  # type: ignore[operator]
                return False
            seen = True
    return seen


class SweepPanel(w.VBox):  # type: ignore[misc]  # (ipywidgets: untyped)
    """ "Across a range" for one calculator view (see the module's doc)."""

    def __init__(self, view: Any, scenarios: Scenarios | None = None) -> None:
        self.view = view
        self.calc = view.calc
        self.scenarios_source: Scenarios | None = scenarios
        self.sweep: Sweep | None = None
        self.charts: list[LineChart] = []
        self.link_note = ""
        self._values: tuple[int | float, ...] | None = None  # a link's explicit values
        self._quiet = False
        choices = field_choices(view)
        self.heading = FoldHeading(title=TITLE, expanded=False, region="rl-sweep-region")
        self.field = w.Dropdown(
            options=choices, description="Input to vary", style={"description_width": "initial"}
        )
        self.field.add_class("rl-sweep-field")
        self.range_box = w.HBox([])
        self.range_box.add_class("rl-sweep-range")
        self._boxes_for: str | None = None  # the field From, To and Step are made for
        self.hint = w.HTML("")
        self.start: NumberField
        self.stop: NumberField
        self.step: NumberField
        self.figures_label = w.HTML('<div class="rl-sweep-figures-label">Figures to plot</div>')
        self.figures_box = w.Box([])
        self.figures_box.add_class("rl-sweep-figures")
        self.figure_boxes: dict[str, w.Checkbox] = {}
        self.message = w.HTML("")
        self.message.add_class("rl-sweep-message")
        self.charts_box = w.VBox([])
        self.charts_box.add_class("rl-sweep-charts")
        intro = w.HTML(
            '<div class="rl-sweep-intro">One input over a range, every point computed '
            "exactly from the inputs above: the chosen figures as lines.</div>"
        )
        # (closed: its widgets are sent to a page when it is first opened)
        self.region = FoldRegion(
            [
                intro,
                self.field,
                self.range_box,
                self.figures_label,
                self.figures_box,
                self.message,
                self.charts_box,
            ],
            open_=False,
        )
        self.region.add_class("rl-sweep-region")
        super().__init__([self.heading, self.region])
        self.add_class("rl-sweep")
        if not choices:  # (no number field: nothing to sweep)
            own_layout(self).display = "none"
            return
        self.field.value = default_sweep(self.calc)[0]
        self.heading.observe(self._on_open, names="expanded")
        self.field.observe(self._on_field, names="value")

    # -- the controls -----------------------------------------------------------
    @property
    def param(self) -> NumberP:
        """The field swept."""
        p = next(p for p in self.calc.params if p.name == self.field.value)
        assert isinstance(p, IntParam | NumberParam)
        return p

    def _cap(self) -> int:
        return max(2, max_points(self.calc) // max(1, len(self._scenarios() or [{}])))

    def _current(self, param: NumberP) -> float:
        try:
            return float(param.parse(self.view.inputs[param.name].value))
        except InputError:
            return float(param.default)

    def _range_fields(self, span: Range | None = None) -> None:
        """From, To and Step for the chosen field, at ``span`` (else its default range):
        the boxes' texts set, or new boxes made when the field is another (the first
        ones when the panel first opens, so a page that never opens it makes none)."""
        param = self.param
        span = span or default_range(param, self._current(param), self._cap())
        texts = {
            "start": as_text(span.start),
            "stop": as_text(span.stop),
            "step": as_text(param.step if span.step is None else span.step),
        }
        if self._boxes_for == param.name:
            for attr, text in texts.items():
                getattr(self, attr).value = text
            return
        boxes = []
        for attr, label in (("start", "From"), ("stop", "To"), ("step", "Step")):
            p = _step_param(param) if attr == "step" else param
            old = getattr(self, attr, None)
            if old is not None:
                old.unobserve(self._on_control, names="value")
                old.close()
            box = NumberField(  # (its class given at once: no message to a loading model)
                p,
                value=texts[attr],
                description=label,
                placeholder=p.describe_range(),
                _dom_classes=(f"rl-sweep-{attr}",),
            )
            box.observe(self._on_control, names="value")
            setattr(self, attr, box)
            boxes.append(box)
        self._boxes_for = param.name
        unit = f" ({param.unit})" if param.unit else ""
        self.hint.value = (
            f'<div class="rl-sweep-hint">{escape(param.label)}{escape(unit)}: '
            f"{escape(param.describe_range())}; at most {self._cap()} points.</div>"
        )
        self.range_box.children = [*boxes, self.hint]

    def number_figures(self) -> list[tuple[str, str]]:
        """``(key, label)`` of each figure that is a number in the result shown."""
        result = self.view.result
        if result is None:
            return []
        return [(f.key, f.label) for f in result.figures() if is_number(f.value)]

    def chosen(self) -> list[str]:
        """The figures checked, in the result's order."""
        return [key for key, box in self.figure_boxes.items() if box.value]

    def _figure_list(self, checked: Sequence[str] | None = None) -> None:
        """A checkbox per number figure; ``checked`` (default: as they are, else the
        first figure) ticked. Called when the result's number figures change."""
        figures = self.number_figures()
        keep = list(checked) if checked is not None else self.chosen()
        known = {k for k, _ in figures}
        if not any(k in known for k in keep) and figures:
            keep = [figures[0][0]]
        if [k for k, _ in figures] == list(self.figure_boxes) and checked is None:
            return
        for box in self.figure_boxes.values():
            box.unobserve(self._on_control, names="value")
            box.close()
        self.figure_boxes = {}
        for key, label in figures:
            box = w.Checkbox(
                value=key in keep, description=label, indent=False, layout=w.Layout(width="auto")
            )
            box.add_class(f"rl-sweep-figure-{key}")
            box.observe(self._on_control, names="value")
            self.figure_boxes[key] = box
        self.figures_box.children = list(self.figure_boxes.values())

    # -- events -------------------------------------------------------------------
    def _on_open(self, change: dict[str, Any]) -> None:
        self.region.show(bool(change["new"]))
        if not self._quiet and change["new"]:
            self.follow()  # (the figures offered, then the line)
        elif not self._quiet:
            self.refresh()

    def _on_field(self, _change: dict[str, Any]) -> None:
        if self._quiet:
            return
        self._values = None
        self._range_fields()
        self.refresh()

    def _on_control(self, _change: dict[str, Any]) -> None:
        if self._quiet:
            return
        self._values = None  # the boxes now say what is swept
        self.link_note = ""
        self.refresh()

    def follow(self) -> None:
        """The form has recomputed: the figures offered follow its result, and an open
        panel redraws its line (a closed one only remembers to, building nothing)."""
        if not self.heading.expanded:
            self.refresh()
            return
        if self._boxes_for is None:
            self._quiet = True
            try:
                self._range_fields()
            finally:
                self._quiet = False
        if not self.figure_boxes or set(self.figure_boxes) != {k for k, _ in self.number_figures()}:
            self._quiet = True
            try:
                self._figure_list()
            finally:
                self._quiet = False
        self.refresh()

    # -- computing ---------------------------------------------------------------
    def _scenarios(self) -> list[Mapping[str, Any]] | None:
        """The scenarios to sweep (``None`` while the form shows a stale result)."""
        given = self.scenarios_source() if self.scenarios_source is not None else ()
        if given:  # (none given: the form's own inputs)
            return list(given)
        if self.view.stale_fields() or self.view.result is None:
            return None
        return [{name: box.value for name, box in self.view.inputs.items()}]

    def span(self) -> Range | tuple[int | float, ...]:
        """What the boxes (or a link's explicit values) ask to sweep; raises
        :class:`~ruleslab.InputError` with the message to show."""
        if self._values is not None:
            return self._values
        param = self.param
        read: dict[str, float] = {}
        for attr, label in (("start", "From"), ("stop", "To")):
            try:
                read[attr] = param.parse(getattr(self, attr).value)
            except InputError as exc:
                raise InputError(param.name, f"{label}: {exc.message}") from None
        text = self.step.value
        step: float | None = None
        if text.strip():
            try:
                step = _step_param(param).parse(text)
            except InputError as exc:
                raise InputError(param.name, f"Step: {exc.message}") from None
        return Range(read["start"], read["stop"], step)

    def spec(self) -> SweepSpec | None:
        """The sweep as a link holds it (``None`` if the boxes hold a bad value)."""
        try:
            span = self.span()
        except InputError:
            return None
        if isinstance(span, Range) and span.step == self.param.step:
            span = Range(span.start, span.stop)
        figures = self.chosen()
        default = self.number_figures()[:1]
        same = [k for k, _ in default] == figures
        return SweepSpec(self.param.name, span, () if same else tuple(figures))

    def _publish(self) -> None:
        """The link carries the sweep while the panel is open."""
        spec = self.spec() if self.heading.expanded else None
        text = ""
        if spec is not None:
            try:
                text = urlencode(spec.pairs(self.calc), quote_via=quote, safe=LINK_SAFE)
            except InputError:
                text = ""
        if self.view.share.sweep != text:
            self.view.share.sweep = text

    def _say(self, message: str, kind: str = "info") -> None:
        notes = [(self.link_note, "warning"), (message, kind)]
        self.message.value = "".join(status_html(n, k) for n, k in notes if n)

    def refresh(self) -> None:
        """Sweep again if the panel is open (else later, when it opens), and update the link."""
        if not self.heading.expanded:
            self._publish()
            return
        try:
            self._refresh()
        finally:
            self._publish()

    def _not_current(self, message: str) -> None:
        """The line drawn is not of the inputs now: faded, marked, and ``message`` said
        (every error between the boxes and the line, whatever its type)."""
        self.add_class("rl-sweep-stale")
        self._say(f"Not current: {message}", "warning")

    def _refresh(self) -> None:
        scenarios = self._scenarios()
        if scenarios is None:
            self._not_current(
                "the line follows the inputs above; fix the highlighted fields to draw it again."
            )
            return
        figures = self.chosen()
        if not figures:
            self._not_current("choose at least one figure to plot.")
            return
        param = self.param
        try:
            span = self.span()
            xs, _ = sweep_values(self.calc, param.name, span, scenarios=len(scenarios))
            self._say(f"Computing {len(xs) * len(scenarios)} points…", "busy")
            result = sweep(
                self.calc,
                param.name,
                span,
                figures=figures,
                scenarios=scenarios,
                time_limit=TIME_LIMIT,
            )
        except InputError as exc:  # (a box's or a scenario's bad value)
            self._not_current(exc.message)
            return
        except KeyError as exc:  # a figure that is a number at no point
            self._not_current(f"{exc.args[0]}")
            return
        except Exception as exc:  # never a traceback on the page, never a stale line
            _log.exception("sweep of %s failed", self.calc.key)
            self._not_current(f"this sweep could not be computed ({type(exc).__name__}: {exc}).")
            return
        self.sweep = result
        self.remove_class("rl-sweep-stale")
        self._draw(result)
        notes = [result.note] if result.note else []
        refused = [p for row in result.points for p in row if p.result is None]
        if refused:
            notes.append(
                f"No value at {len(refused)} point{'s' if len(refused) > 1 else ''} "
                f"({param.label} {as_text(refused[0].x)}: {refused[0].error})"
            )
        self._say(" ".join(notes), "warning" if notes else "info")

    def _draw(self, result: Sweep) -> None:
        """One line chart per kind of figure: chances, then other numbers."""
        chances = [f for f in result.figures if _is_chance(result, f)]
        others = [f for f in result.figures if f not in chances]
        groups = [g for g in (chances, others) if g]
        charts: list[LineChart] = []
        here = self._current(self.param)  # the readout starts at the form's value
        at = min(range(len(result.x)), key=lambda k: abs(result.x[k] - here), default=0)
        for i, group in enumerate(groups):
            labels = dict(zip(result.figures, result.figure_labels, strict=True))
            data = result.chart(group)
            percent = group is chances
            if len(group) > 1:
                data = dataclasses.replace(data, y_label="Chance" if percent else "Value")
            texts = [
                [p.texts[f] if p.result is not None else "—" for p in row]
                for row in result.points
                for f in group
            ]
            part = dataclasses.replace(
                result, figures=tuple(group), figure_labels=tuple(labels[f] for f in group)
            )
            old = self.charts[i] if i < len(self.charts) else None
            chart = chart_widget(
                data, old, texts=texts, csv_text=part.to_csv(), percent=percent, read_at=at
            )
            charts.append(chart)
        for extra in self.charts[len(charts) :]:
            extra.close()
        self.charts = charts
        self.charts_box.children = charts

    # -- links --------------------------------------------------------------------
    def apply_link(self, query: str) -> None:
        """Open the panel on the sweep a link's query names (``sweep.*``), if any; a
        sweep the link gets wrong is said in the panel (opened), naming the parameter."""
        self.link_note = ""
        try:
            spec = sweep_from_query(self.calc, query)
        except InputError as exc:
            where = f" ({exc.field})" if exc.field.startswith("sweep.") else ""
            self.link_note = f"This link's sweep could not be used{where}: {exc.message}"
            self._open()
            return
        if spec is None:
            return
        figures = list(spec.figures)
        known = {k for k, _ in self.number_figures()}
        unknown = [f for f in figures if f not in known]
        if unknown:
            shown = ", ".join(f[:40] for f in unknown[:3])
            self.link_note = (
                f"This link's sweep.figures names {shown}, not a number figure of this "
                f"calculator here (its number figures: {', '.join(sorted(known))})."
            )
            figures = [f for f in figures if f in known]
        self._quiet = True
        try:
            self.field.value = spec.field
            if isinstance(spec.span, Range):
                self._values = None
                self._range_fields(spec.span)
            else:
                values = spec.span
                self._range_fields(Range(min(values), max(values)))
                self._values = values
                self.link_note = self.link_note or (
                    f"This link sweeps {self.param.label} at "
                    f"{', '.join(as_text(v) for v in values[:12])}"
                    f"{' …' if len(values) > 12 else ''}: change From, To or Step to sweep a "
                    "range instead."
                )
            self._figure_list(figures or None)
        finally:
            self._quiet = False
        self._open()

    def _open(self) -> None:
        if self.heading.expanded:
            self.refresh()
        else:
            self.heading.expanded = True  # (refreshes)
