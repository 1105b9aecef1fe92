"""A calculator's static HTML: what its live view shows, drawn without a browser or Python.

:func:`prerender` walks a :class:`~ruleslab_widgets.view.CalculatorView`'s widget
tree and writes, for each widget, the markup its front end draws in the page
(ipywidgets 8's boxes, labels and controls; our anywidget views: number fields,
fold headings, the summary, the link control, the party bar, charts and the
health track), with the same classes and the same layout styles. The page's
CSS (``static/app/app.css``, :mod:`ruleslab_widgets.style` and the anywidget
views' own) then lays it out exactly as the live view, so the live view can
take its place without a jump (``app/page.js``; ``docs/app-page.md``,
"Pre-rendered").

It holds no rule logic and computes nothing itself: the figures, steps and
panels are the view's own (the engine's result, :mod:`ruleslab_widgets.render`);
a chart's texts are :class:`~ruleslab_widgets.chart.BarChart`'s derived ones,
laid out as its front end lays them out. Every text is escaped.

The static markup differs from the live one only where it must:

* the root is ``class="rl-calc rl-prerender" data-calculator="<key>"``, never
  ``rl-calc-<key>`` (that class marks the live calculator);
* every field is a real ``<input>``/``<select>``/``<textarea>`` holding its value,
  with ``data-rl-field="<name>"`` (the name a link uses), so a page can fill it
  from a link and read what the reader typed before Python arrived;
* controls that need Python (steppers, chips, roll buttons, the party) are drawn
  as they will be, and do nothing until the live view takes over.

``pending``: the results do not follow the inputs shown (a link's values, before
Python computes them): they are drawn faded with ``PENDING`` in the summary's
"not current" banner, the style the live view uses for stale results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from html import escape
from typing import Any

import ipywidgets as w

from ruleslab_widgets.chart import BarChart, highlighted
from ruleslab_widgets.fold import FoldHeading, Summary, parts
from ruleslab_widgets.health_track import HealthTrack
from ruleslab_widgets.number import NumberField
from ruleslab_widgets.party import PartyBar
from ruleslab_widgets.scenarios import ScenarioBar
from ruleslab_widgets.share import ShareLink
from ruleslab_widgets.view import CalculatorView

__all__ = [
    "PENDING",
    "PENDING_TYPED",
    "embed_static",
    "prerender",
    "prerender_calculator",
    "static_css",
]

PENDING = "Computing for this link's values…"
"""The banner over results drawn for other inputs than the ones shown (a link's)."""

PENDING_TYPED = "Computing for the values you entered…"
"""The same, once the reader has typed into the static form (applied when Python is ready)."""

CHART_WIDTH = 480
"""The width a static chart is laid out at (px): about the results column's on a laptop;
the SVG scales to its box, as the live one does."""

FONT = 12
"""The chart's text size (px), as in the live chart."""


def _e(text: Any) -> str:
    return escape(str(text), quote=True)


def _attrs(**attrs: Any) -> str:
    """`` name="value"`` pairs (escaped); ``None``/``False`` left out, ``True`` bare.
    A trailing ``_`` is dropped (``class_``) and ``__`` made ``-`` (``aria__label``)."""
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("__", "-")
        out.append(f" {key}" if value is True else f' {key}="{_e(value)}"')
    return "".join(out)


def _classes(widget: w.DOMWidget, *base: str) -> str:
    return " ".join([*base, *widget._dom_classes])


def _style(widget: w.Widget) -> str | None:
    """A widget's layout as inline CSS (the front end sets the same properties)."""
    layout = getattr(widget, "layout", None)
    if layout is None:
        return None
    parts = []
    for name in sorted(layout.keys):
        if name.startswith("_") or name in {"keys", "comm", "log"}:
            continue
        value = getattr(layout, name)
        if value is None or value == "" or not isinstance(value, str):
            continue
        parts.append(f"{name.replace('_', '-')}: {value};")
    return " ".join(parts) or None


def _regions(widget: w.Widget) -> set[str]:
    """The region classes of every fold heading in ``widget``'s tree (the boxes they show
    or hide: :class:`~ruleslab_widgets.fold.FoldHeading`'s ``region``)."""
    if isinstance(widget, FoldHeading):
        return {widget.region}
    found: set[str] = set()
    for child in parts(widget):
        found |= _regions(child)
    return found


class _Renderer:
    """One static rendering: fresh ids, and the field names of the view's inputs."""

    def __init__(self, view: CalculatorView) -> None:
        self.view = view
        self.key = view.calc.key
        self.names = {id(widget): name for name, widget in view.inputs.items()}
        self.regions = _regions(view)
        self.count = 0
        self.handlers: list[tuple[type, Callable[[Any], str]]] = [
            (NumberField, self.number),
            (FoldHeading, self.fold),
            (Summary, self.summary),
            (ShareLink, self.share),
            (PartyBar, self.party),
            (ScenarioBar, self.scenario_bar),
            (BarChart, self.chart),
            (HealthTrack, self.health),
            (w.GridBox, self.grid),
            (w.Box, self.box),
            (w.HTML, self.html),
            (w.Checkbox, self.checkbox),
            (w.Dropdown, self.dropdown),
            (w.Textarea, self.text),
            (w.Text, self.text),
            (w.Button, self.button),
        ]

    def id(self, what: str = "") -> str:
        self.count += 1
        return f"rl-pre-{self.key}-{what or 'el'}-{self.count}"

    def field(self, widget: w.Widget) -> dict[str, Any]:
        """The attributes naming a form field (none for a widget that is not one)."""
        name = self.names.get(id(widget))
        return {"name": name, "data__rl__field": name} if name else {}

    def render(self, widget: w.Widget) -> str:
        for kind, handler in self.handlers:
            if isinstance(widget, kind):
                return handler(widget)
        raise TypeError(f"no static rendering for {type(widget).__name__}")

    def children(self, widgets: Iterable[w.Widget]) -> str:
        return "".join(self.render(child) for child in widgets)

    # -- ipywidgets ------------------------------------------------------------
    def box(self, widget: w.Box, extra: str = "") -> str:
        kind = (
            "widget-vbox"
            if isinstance(widget, w.VBox)
            else "widget-hbox"
            if isinstance(widget, w.HBox)
            else ""
        )
        base = "lm-Widget lm-Panel jupyter-widgets widget-container widget-box"
        cls = _classes(widget, base, *filter(None, [kind]))
        # a fold's region: the id its heading's button controls (FoldHeading.region)
        region = next((c for c in widget._dom_classes if c in self.regions), None)
        ident = f"rl-pre-{self.key}-{region}" if region else None
        # (a closed fold's region has no children yet, but its rows are drawn: hidden
        # with it, for the static page's fold button to show)
        inner = self.children(parts(widget))
        return f"<div{_attrs(class_=cls, id=ident, style=_style(widget))}>{inner}</div>"

    def grid(self, widget: w.GridBox) -> str:
        cls = _classes(widget, "lm-Widget lm-Panel jupyter-widgets widget-container widget-gridbox")
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>{self.children(widget.children)}</div>"
        )

    def html(self, widget: w.HTML) -> str:
        # (the value is HTML the view made: ruleslab_widgets.render escapes what it shows)
        cls = _classes(widget, "lm-Widget jupyter-widgets widget-inline-hbox widget-html")
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>"
            '<label class="widget-label" style="display: none;"></label>'
            f'<div class="widget-html-content">{widget.value}</div></div>'
        )

    def _label(self, widget: w.DOMWidget, for_: str) -> str:
        width = getattr(widget.style, "description_width", "") or None
        style = f"width: {width};" if width else None
        label = _attrs(class_="widget-label", for_=for_, style=style)
        return f"<label{label}>{_e(widget.description)}</label>"

    def checkbox(self, widget: w.Checkbox) -> str:
        cls = _classes(widget, "lm-Widget jupyter-widgets widget-inline-hbox widget-checkbox")
        box = _attrs(type="checkbox", checked=bool(widget.value), title=widget.description)
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>"
            '<label class="widget-label" style="display: none; width: initial;">\u200b</label>'
            f'<label class="widget-label-basic"><input{box}{_attrs(**self.field(widget))}>'
            f"<span{_attrs(title=widget.description)}>{_e(widget.description)}</span>"
            "</label></div>"
        )

    def dropdown(self, widget: w.Dropdown) -> str:
        cls = _classes(widget, "lm-Widget jupyter-widgets widget-inline-hbox widget-dropdown")
        ident = self.id("select")
        options = "".join(
            f"<option{_attrs(value=value, selected=value == widget.value)}>{_e(text)}</option>"
            for text, value in widget._options_full
        )
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>{self._label(widget, ident)}"
            f"<select{_attrs(id=ident, **self.field(widget))}>{options}</select></div>"
        )

    def text(self, widget: w.Text | w.Textarea) -> str:
        """A text box, or a text area (its text inside, escaped)."""
        area = isinstance(widget, w.Textarea)
        kind = "textarea" if area else "text"
        cls = _classes(widget, f"lm-Widget jupyter-widgets widget-inline-hbox widget-{kind}")
        ident = self.id(kind)
        common: dict[str, Any] = {
            "id": ident,
            "class_": "widget-input",
            "placeholder": widget.placeholder or None,
            **self.field(widget),
        }
        if isinstance(widget, w.Textarea):
            box = f"<textarea{_attrs(rows=widget.rows, **common)}>{_e(widget.value)}</textarea>"
        else:
            box = f"<input{_attrs(type='text', value=widget.value, **common)}>"
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>{self._label(widget, ident)}"
            f"{box}</div>"
        )

    def button(self, widget: w.Button) -> str:
        cls = _classes(widget, "lm-Widget jupyter-widgets jupyter-button widget-button")
        icon = f'<i class="fa fa-{_e(widget.icon)}"></i>' if widget.icon else ""
        return (
            f"<button{_attrs(class_=cls, style=_style(widget), title=widget.tooltip or None)}>"
            f"{icon}{_e(widget.description)}</button>"
        )

    # -- our anywidget views (as their front ends draw them: see each module) ----
    def number(self, widget: NumberField) -> str:
        cls = _classes(
            widget,
            "lm-Widget widget-inline-hbox jupyter-widget-inline-hbox widget-text",
            "jupyter-widget-text rl-number",
        )
        ident = self.id("number")
        name, by = widget.description, widget.step_text

        def step(text: str, direction: str, word: str, enabled: bool) -> str:
            label = f"{word} {name} by {by}"
            return (
                "<button"
                + _attrs(
                    type="button",
                    class_=f"jupyter-button rl-step rl-step-{direction}",
                    aria__label=label,
                    title=label,
                    disabled=not enabled,
                )
                + f">{text}</button>"
            )

        box = _attrs(
            type="text",
            id=ident,
            class_="widget-input rl-number-input",
            autocomplete="off",
            spellcheck="false",
            role="spinbutton",
            placeholder=widget.placeholder,
            inputmode=widget.input_mode,
            aria__valuemin=widget.minimum,
            aria__valuemax=widget.maximum,
            aria__valuetext=widget.value,
            value=widget.value,
            **self.field(widget),
        )
        return (
            f"<div{_attrs(class_=cls, style=_style(widget))}>"
            f'<label class="widget-label jupyter-widget-label rl-number-label" for="{ident}">'
            f"{_e(name)}</label>"
            f"{step('−', 'down', 'Decrease', widget.can_decrease)}<input{box}>"
            f"{step('+', 'up', 'Increase', widget.can_increase)}</div>"
        )

    def fold(self, widget: FoldHeading) -> str:
        cls = _classes(widget, "lm-Widget rl-fold-heading")
        tag = "h2" if widget.level == 2 else "h3"
        open_ = bool(widget.expanded)
        button = _attrs(
            type="button",
            class_="rl-fold-button",
            aria__expanded="true" if open_ else "false",
            aria__controls=f"rl-pre-{self.key}-{widget.region}",
        )
        return (
            f'<div{_attrs(class_=cls)}><{tag} class="rl-fold-title"><button{button}>'
            f'<span class="rl-fold-mark" aria-hidden="true">{"▾" if open_ else "▸"}</span>'
            f"<span>{_e(widget.title)}</span></button></{tag}></div>"
        )

    def summary(self, widget: Summary, stale: str | None = None) -> str:
        note = widget.stale if stale is None else stale
        cls = _classes(widget, "lm-Widget rl-summary-bar", *(["rl-summary-stale"] if note else []))
        chips = "".join(
            "<button"
            + _attrs(
                type="button",
                class_="rl-chip" + (" rl-chip-changed" if changed else ""),
                data__option=name,
                title=f"Change in Rules options: {text}",
            )
            + f">{_e(text)}</button>"
            for name, text, changed in widget.chips
        )
        figures = "".join(
            f'<span class="rl-key-figure"><span class="rl-key-label">{_e(label)}</span> '
            f"<strong>{_e(value)}</strong></span>"
            for label, value in widget.figures
        )
        actions = "".join(
            '<button type="button" class="rl-key-action"'
            + _attrs(title=f"Go to “{text}”, under the results")
            + f">{_e(text)} ↓</button>"
            for text in widget.actions
        )
        if figures and widget.scenario:
            figures = f'<span class="rl-key-scenario">{_e(widget.scenario)}</span>' + figures
        return (
            f"<div{_attrs(class_=cls)}>"
            f'<div class="rl-stale-banner" role="status"{"" if note else " hidden"}>'
            f"{_e(note)}</div>"
            f'<div class="rl-chips">{chips}</div>'
            f'<button type="button" class="rl-key-figures"{"" if figures else " hidden"}>'
            f'{figures}<span class="rl-key-more">All results ↓</span></button>'
            f'<div class="rl-key-actions"{"" if actions else " hidden"}>{actions}</div></div>'
        )

    def share(self, widget: ShareLink) -> str:
        cls = _classes(widget, "lm-Widget")
        link = widget.link()
        return (
            f'<div{_attrs(class_=cls)}><div class="rl-share">'
            '<button type="button" class="rl-share-copy jupyter-button" '
            'title="Copy a link that opens this calculator with these inputs">Copy link</button>'
            + "<input"
            + _attrs(
                type="text",
                readonly=True,
                class_="rl-share-link",
                aria__label="Link to this calculator with these inputs",
                value=link,
            )
            + '><span class="rl-share-note" role="status"></span></div></div>'
        )

    def scenario_bar(self, widget: ScenarioBar) -> str:
        # (its front end closed: ruleslab_widgets.scenarios; opened only by a click)
        cls = _classes(widget, "lm-Widget", "rl-scenarios")
        title = "Compare this calculator's inputs with up to three other versions of them"
        return (
            f"<div{_attrs(class_=cls)}>"
            f'<button type="button" class="rl-sc-open jupyter-button"{_attrs(title=title)}>'
            "Compare scenarios</button></div>"
        )

    def party(self, widget: PartyBar) -> str:
        cls = _classes(widget, "lm-Widget")
        if not widget.roles:
            return f"<div{_attrs(class_=cls, style='display: none;')}></div>"
        rows = []
        for role in widget.roles:
            ident = self.id(f"party-{role['name']}")
            phrase = role["phrase"]
            rows.append(
                '<div class="rl-party-role"><div class="rl-party-fill">'
                f"<label{_attrs(for_=ident)}>Fill {_e(phrase)} from</label>"
                f"<select{_attrs(id=ident, class_='rl-party-select')} disabled>"
                '<option value="">no characters yet</option></select>'
                '<button type="button" class="jupyter-button rl-party-button" disabled'
                f"{_attrs(aria__label=f'Fill {phrase} from the chosen character')}>Fill</button>"
                '</div><div class="rl-party-state">'
                '<button type="button" class="jupyter-button rl-party-button" disabled'
                f"{_attrs(aria__label=f'Save as new character… ({phrase}’s values)')}>"
                "Save as new character…</button></div></div>"
            )
        return (
            f'<div{_attrs(class_=cls)}><div class="rl-party" role="region" '
            f'aria-label="The party">{"".join(rows)}'
            '<details class="rl-party-list"><summary>Party (0)</summary>'
            '<p class="rl-party-note">The party is read when the calculator is ready.</p>'
            '</details><div class="rl-party-status" role="status"></div></div></div>'
        )

    def health(self, widget: HealthTrack) -> str:
        marks = {"bashing": "/", "lethal": "X", "aggravated": "*", "stun": "S"}
        parts = [f"<figcaption>{_e(widget.title)}</figcaption>"]
        current: object = object()
        row: list[str] | None = None
        rows: list[tuple[str, list[str]]] = []
        for b in widget.boxes:
            if row is None or b["label"] != current:
                current = b["label"]
                row = []
                rows.append((str(b["label"]), row))
            filled = str(b.get("filled") or "")
            title = f"{b['label']}: {filled}" if filled else f"{b['label']}: empty"
            cls = f"rl-hl-box rl-hl-{b['kind']}" + (f" rl-hl-filled-{filled}" if filled else "")
            row.append(
                "<span"
                + _attrs(
                    class_=cls,
                    data__level__index=b["index"],
                    data__kind=b["kind"],
                    data__filled=filled,
                    title=title,
                )
                + f">{_e(marks.get(filled, ''))}</span>"
            )
        for label, boxes in rows:
            parts.append(
                f'<div class="rl-hl-row"{_attrs(data__label=label)}>'
                f'<span class="rl-hl-label">{_e(label)}</span>{"".join(boxes)}</div>'
            )
        parts.append(
            f'<div class="rl-hl-state"{_attrs(data__state=widget.state_key)}>'
            f"{_e(widget.state)} · wound penalty {_e(widget.penalty)}</div>"
            '<div class="rl-hl-legend">/ bashing · X lethal · * aggravated · S stun</div>'
        )
        cls = _classes(widget, "lm-Widget")
        return f'<div{_attrs(class_=cls)}><figure class="rl-hl">{"".join(parts)}</figure></div>'

    def chart(self, widget: BarChart) -> str:
        figure = chart_html(widget, self.id("chart-table"))
        cls = _classes(widget, "lm-Widget")
        return f"<div{_attrs(class_=cls, style=_style(widget))}>{figure}</div>"


# -- charts ------------------------------------------------------------------------
def _measure(text: str) -> float:
    """A label's width at 12 px, as the live chart measures it (a canvas's width,
    × 1.08 + 2), estimated from the characters' widths in DejaVu Sans, the widest
    common default sans-serif (so the static chart picks rows whenever the live one
    may: a layout chosen too wide would be redrawn narrower, never cut)."""
    em = sum(_WIDTHS.get(c, 0.72 if c.isupper() else 0.62) for c in text)
    return math.ceil(em * FONT * 1.08) + 2


_WIDTHS = {
    **dict.fromkeys("0123456789", 0.636),
    **dict.fromkeys(" .,:;|!'", 0.318),
    **dict.fromkeys("ijl", 0.28),
    **dict.fromkeys("ft()[]", 0.39),
    **dict.fromkeys("-", 0.361),
    "%": 0.95,
    "−": 0.838,
    "m": 0.974,
    "w": 0.818,
}
"""Character widths (em) for :func:`_measure`."""


def _svg(tag: str, text: str | None = None, **attrs: Any) -> str:
    body = "" if text is None else _e(text)
    return f"<{tag}{_attrs(**attrs)}>{body}</{tag}>"


def _text(text: str, x: float, y: float, anchor: str, cls: str) -> str:
    return _svg("text", text, x=x, y=y, text__anchor=anchor, font__size=FONT, class_=cls)


def _bar(x: float, y: float, w: float, h: float, bar: tuple[str, float], hi: bool) -> str:
    cls = "rl-bar rl-bar-hi" if hi else "rl-bar"
    return _svg("rect", x=x, y=y, width=w, height=h, class_=cls, data__label=bar[0], data__p=bar[1])


def _line(x1: float, y1: float, x2: float, y2: float, axis: bool) -> str:
    return _svg("line", x1=x1, y1=y1, x2=x2, y2=y2, class_="rl-axis" if axis else "rl-grid")


def _columns(bars: list[tuple[str, float]], d: dict[str, Any], width: int) -> tuple[str, float]:
    """Bars standing in columns, each value above its bar (``chart.py``'s ``columns``)."""
    ticks, values, hi = d["ticks"], d["values"], d["hi"]
    tick_w = max(_measure(t) for _, t in ticks)
    left, right, top_, plot_h, bottom = tick_w + 10, 6, FONT + 10, 190, FONT + 12
    height, plot_w = top_ + plot_h + bottom, width - left - right
    slot, top = plot_w / len(bars), ticks[-1][0]
    out = []
    for v, t in ticks:
        y = top_ + plot_h - (v / top) * plot_h
        out.append(_line(left, y, width - right, y, not v))
        out.append(_text(t, left - 6, y + FONT * 0.35, "end", "rl-tick"))
    out.append(_line(left, top_, left, top_ + plot_h, True))
    for i, (label, p) in enumerate(bars):
        h, cx = (p / top) * plot_h, left + (i + 0.5) * slot
        out.append(_bar(cx - slot * 0.35, top_ + plot_h - h, max(1, slot * 0.7), h, bars[i], hi(i)))
        out.append(_text(values[i], cx, top_ + plot_h - h - 4, "middle", "rl-value"))
        out.append(_text(label, cx, top_ + plot_h + FONT + 4, "middle", "rl-xtick"))
    return "".join(out), height


def _rows(bars: list[tuple[str, float]], d: dict[str, Any], width: int) -> tuple[str, float]:
    """Bars lying in rows, the name on the left, the value past the bar (``rows``)."""
    ticks, values, hi = d["ticks"], d["values"], d["hi"]
    row_h = FONT + 9
    left = min(max(_measure(label) for label, _ in bars) + 8, width * 0.45)
    value_w = max(_measure(v) for v in values) + 6
    tick_w = max(_measure(t) for _, t in ticks)
    right, top_, bottom = max(value_w, tick_w / 2 + 2), FONT + 10, 4
    plot_w, height = width - left - right, top_ + len(bars) * row_h + bottom
    top = ticks[-1][0]
    gap = plot_w / max(1, len(ticks) - 1)
    every = 1 if gap >= tick_w + 6 else 2
    out = []
    for k, (v, t) in enumerate(ticks):
        x = left + (v / top) * plot_w
        out.append(_line(x, top_ - 2, x, height - bottom, not v))
        if k % every == 0:
            out.append(_text(t, x, top_ - 6, "middle", "rl-tick"))
    for i, (label, p) in enumerate(bars):
        y, bar_w = top_ + i * row_h, (p / top) * plot_w
        mid = y + row_h / 2 + FONT * 0.35
        out.append(_text(label, left - 6, mid, "end", "rl-xtick"))
        out.append(_bar(left, y + 3, bar_w, row_h - 6, bars[i], hi(i)))
        out.append(_text(values[i], left + bar_w + 4, mid, "start", "rl-value"))
    return "".join(out), height


def chart_html(chart: BarChart, table_id: str, width: int = CHART_WIDTH) -> str:
    """A chart as its front end draws it (``chart.py``'s ``draw``): an SVG of the same
    layout (columns or rows), its legend, its tools, and its data as a table (hidden
    behind "Show as table", as live)."""
    bars = [(str(label), float(p)) for label, p in chart.bars]
    parts = [f"<figcaption>{_e(chart.title)}</figcaption>"]
    if not bars:
        parts.append('<p class="rl-chart-empty">Nothing to chart for these inputs.</p>')
        return f'<figure class="rl-chart">{"".join(parts)}</figure>'
    start = chart.highlight_from
    marked = highlighted(bars, start)

    def hi(i: int) -> bool:
        return marked and start is not None and i >= start

    values, ticks = list(chart.value_labels), [tuple(t) for t in chart.ticks]
    d = {"ticks": ticks, "values": values, "hi": hi}
    slot = (width - max(_measure(t) for _, t in ticks) - 16) / len(bars)
    need = max(*(_measure(v) for v in values), *(_measure(label) for label, _ in bars)) + 8
    layout = "columns" if slot >= need else "rows"
    body, height = (_columns if layout == "columns" else _rows)(bars, d, width)
    svg = (
        "<svg"
        + _attrs(
            role="img",
            aria__label=chart.summary,
            data__layout=layout,
            font__size=FONT,
            viewBox=f"0 0 {width} {height:g}",
            width=width,
            height=f"{height:g}",
        )
        + f">{body}</svg>"
    )
    axis = f'<div class="rl-chart-axis rl-chart-axis-{layout}">{_e(chart.x_label)}</div>'
    parts += [axis, svg] if layout == "rows" else [svg, axis]
    if marked:
        parts.append(
            '<div class="rl-chart-legend"><span class="rl-chart-swatch"></span>'
            f"{_e(chart.highlight_label or 'Highlighted')}</div>"
        )
    parts.append(
        '<div class="rl-chart-tools">'
        '<button class="rl-chart-toggle jupyter-button" type="button" aria-expanded="false"'
        f"{_attrs(aria__controls=table_id)}>Show as table</button>"
        '<button class="rl-chart-csv jupyter-button" type="button"'
        f"{_attrs(title=f'Save the chart’s data as {chart.filename}')}>Download CSV</button></div>"
    )
    cols = [chart.x_label or "Value", "Probability"]
    if marked:
        cols.append(chart.highlight_label or "Highlighted")
    head = "".join(f'<th scope="col">{_e(c)}</th>' for c in cols)
    rows = "".join(
        f'<tr><th scope="row">{_e(label)}</th><td>{_e(values[i])}</td>'
        + (f"<td>{'yes' if hi(i) else ''}</td>" if marked else "")
        + "</tr>"
        for i, (label, _p) in enumerate(bars)
    )
    parts.append(
        f'<table class="rl-chart-table"{_attrs(id=table_id)} hidden>'
        f"<caption>{_e(chart.title)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    return f'<figure class="rl-chart">{"".join(parts)}</figure>'


# -- the whole view ------------------------------------------------------------------
def static_css() -> str:
    """The anywidget views' own CSS (the live page gets it from each view as it is
    drawn; a static page must carry it) and the static page's few rules
    (:data:`ruleslab_widgets.style.PRERENDER`)."""
    from ruleslab_widgets.style import PRERENDER

    views = (NumberField, BarChart, ShareLink, PartyBar, ScenarioBar, HealthTrack)
    css = "\n".join(str(view._css).strip() for view in views)
    return f"<style>\n{css}\n{PRERENDER.strip()}\n</style>"


def prerender(view: CalculatorView, *, pending: bool = False) -> str:
    """The static HTML of ``view`` as it is now (see the module's doc).

    ``pending``: the results are for other inputs than the ones shown (drawn faded,
    :data:`PENDING` in the banner), until the live view computes them.
    """
    r = _Renderer(view)
    header, share, link_status, keybar, *between, body = view.children  # (between: scenarios)
    form, results = body.children
    stale = PENDING if pending else None
    results_html = "".join(
        r.summary(child, stale) if isinstance(child, Summary) else r.render(child)
        for child in results.children
    )
    results_cls = _classes(
        results,
        "lm-Widget lm-Panel jupyter-widgets widget-container widget-box widget-vbox",
        *(["rl-stale"] if pending and "rl-stale" not in results._dom_classes else []),
    )
    body_cls = _classes(body, "lm-Widget lm-Panel jupyter-widgets widget-container widget-box")
    root_classes = [c for c in view._dom_classes if c != f"rl-calc-{view.calc.key}"]
    root_cls = " ".join(
        [
            "lm-Widget lm-Panel jupyter-widgets widget-container widget-box widget-vbox",
            *root_classes,
            "rl-prerender",
        ]
    )
    inner = (
        r.render(header)
        + static_css()
        + r.render(share)
        + r.render(link_status)
        + r.summary(keybar, stale)
        + r.children(between)
        + f'<div class="{_e(body_cls)}">{r.render(form)}'
        f'<div class="{_e(results_cls)}">{results_html}</div></div>'
    )
    return (
        "<div"
        + _attrs(
            class_=root_cls,
            data__calculator=view.calc.key,
            data__pending=PENDING,
            data__pending__typed=PENDING_TYPED,
            style=_style(view),
        )
        + ">"
        f"{inner}</div>"
    )


def prerender_calculator(key: str, query: str = "") -> str:
    """Calculator ``key``'s static HTML at its defaults, or at the inputs a link's
    ``query`` names (set through the form's own path, :meth:`CalculatorView.apply_query`)."""
    from ruleslab_widgets import calculator

    view = calculator(key)
    if query:
        view.apply_query(query)
    return prerender(view)


def embed_static(key: str, inputs: Iterable[tuple[str, str]] = ()) -> str:
    """An embed's pre-rendered results (the Sphinx directive and the MkDocs hook write it
    into the embed's element at docs-build time; ``embed.js`` shows it until the live
    calculator in its iframe is ready): the calculator's title, the inputs set, its
    figures, panels and steps at those inputs, in the calculator's look (its CSS only:
    the host page has not the app page's stylesheet, so no form is drawn)."""
    from ruleslab_widgets import calculator
    from ruleslab_widgets.style import STYLE

    pairs = list(inputs)
    view = calculator(key)
    if pairs:
        view.apply_query(pairs)
    r = _Renderer(view)
    labels = {p.name: p.label for p in view.calc.params}
    shown = " · ".join(
        f"{_e(labels[name])}: {_e(value)}" for name, value in pairs if name in labels
    )
    parts = [r.render(view.status), r.render(view.output), *map(r.render, view.panels)]
    parts.append(r.render(view.working))
    css = "\n".join(str(v._css).strip() for v in (BarChart, HealthTrack))
    return (
        f'<div class="ruleslab-static">{STYLE}<style>\n{css}\n</style>'
        + "<div"
        + _attrs(class_="rl-calc rl-prerender rl-embed-static", data__calculator=key)
        + f'><h2 class="rl-title">{_e(view.calc.title)}</h2>'
        + (f'<div class="rl-summary">{shown}</div>' if shown else "")
        + f'<div class="rl-results">{"".join(parts)}</div></div></div>'
    )
