"""Dependency-free charts drawn in the browser (anywidget views): bars, and lines.

:class:`BarChart` (below) draws a calculator's declared chart; :class:`LineChart`
draws an engine :class:`~ruleslab.whatif.ChartData` of kind ``"line"`` (a sweep:
"Across a range", :mod:`ruleslab_widgets.sweep_panel`), chosen by
:func:`chart_widget`. Both share the front end's helpers, the "Show as table"
and "Download CSV" tools and the quality bar: text at 12 px at the width drawn,
no two labels meeting, ``role="img"`` with a summary, the theme's colours.

The Python side holds the data (bars, titles, which bars to highlight and what
the highlight means) and derives everything the reader sees as text: each
bar's value label (formatted as the figures are, by
:func:`ruleslab.explain.fmt_prob`), the probability axis's ticks at round
values (:func:`nice_ticks`), a one-sentence summary for screen readers, and
the chart's data as CSV (:func:`chart_csv`). The front end only lays them out
in an SVG, so what it prints is tested here, on CPython.

The SVG is drawn at the width it is given (280 to 640 px, redrawn when that
changes; ``data-drawn-width`` on the view's element says which) and scales to
its box (``viewBox``, ``width: 100%``), so its text is 12 px on a phone as on
a laptop. When every bar has room for its value label and its name side by
side, the bars stand in columns, the value printed above each one; otherwise
(many bars, long names, a narrow screen) they lie in rows, the name on the
left and the value past the bar's end, so no two labels can meet. Room for
the longest value label is kept beyond the longest bar, so a 100 % bar's label
is never cut.

Under the chart: a legend for the highlighted bars (only when some are), a
"Show as table" button (``aria-expanded``) that shows the same data as a table
with caption and headers, and "Download CSV". The SVG is ``role="img"`` with
the summary as its ``aria-label``. Colours are the theme's (``--rl-bar``,
``--rl-bar-hi``, ``--rl-axis``, ``--rl-fg``, ``--rl-muted``:
:mod:`ruleslab_widgets.style`). All text is set with ``textContent``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Sequence
from typing import Any

import traitlets

from ruleslab.explain import fmt_prob
from ruleslab.whatif import ChartData
from ruleslab_widgets.module_widget import ModuleWidget

__all__ = [
    "BarChart",
    "LineChart",
    "chart_csv",
    "chart_widget",
    "csv_filename",
    "grouped",
    "grouped_csv",
    "grouped_summary",
    "highlighted",
    "line_csv",
    "line_summary",
    "line_traits",
    "merge_labels",
    "nice_ticks",
    "number_ticks",
    "summary",
    "x_ticks",
]


def nice_ticks(top: float, most: int = 4) -> tuple[tuple[float, str], ...]:
    """Ticks of the probability axis: ``(value, label)`` from 0 up, at most ``most``
    steps of a round size (1, 2 or 5 × a power of ten), the last at or above
    ``top`` (the largest bar), so every bar ends inside the axis.

    >>> [label for _, label in nice_ticks(0.3125)]
    ['0 %', '10 %', '20 %', '30 %', '40 %']
    >>> [label for _, label in nice_ticks(1.0)]
    ['0 %', '50 %', '100 %']
    """
    top = min(max(top, 1e-9), 1.0)
    power = 10.0 ** math.floor(math.log10(top / most))
    step = next(m * power for m in (1, 2, 5, 10) if m * power * most >= top * (1 - 1e-12))
    count = max(1, math.ceil(top / step - 1e-9))
    decimals = max(0, -math.floor(math.log10(step * 100) + 1e-9))
    ticks = []
    for k in range(count + 1):
        value = round(k * step, 15)
        text = f"{value * 100:.{decimals}f}" if k else "0"
        if "." in text:  # 0.000010 → 0.00001
            text = text.rstrip("0").rstrip(".")
        ticks.append((value, f"{text} %"))
    return tuple(ticks)


def highlighted(bars: Sequence[tuple[str, float]], highlight_from: int | None) -> bool:
    """Whether any bar is drawn highlighted (``highlight_from`` names an existing bar)."""
    return highlight_from is not None and 0 <= highlight_from < len(bars)


def summary(
    title: str,
    x_label: str,
    bars: Sequence[tuple[str, float]],
    highlight_from: int | None,
    highlight_label: str,
) -> str:
    """The chart in one sentence, for a screen reader (the SVG's ``aria-label``)."""
    if not bars:
        return f"{title}: nothing to chart for these inputs."
    best = max(range(len(bars)), key=lambda i: bars[i][1])
    text = (
        f"{title}: bar chart of {len(bars)} bars, {x_label} {bars[0][0]} to {bars[-1][0]};"
        f" most likely {bars[best][0]} ({fmt_prob(bars[best][1])})."
    )
    if highlighted(bars, highlight_from):
        assert highlight_from is not None
        text += f" Highlighted from {bars[highlight_from][0]}: {highlight_label or 'marked'}."
    return text + " Every value is in the table (Show as table)."


def chart_csv(
    x_label: str,
    bars: Sequence[tuple[str, float]],
    highlight_from: int | None,
    highlight_label: str,
) -> str:
    """The chart's data as CSV: one row per bar, its label, its probability as the
    chart prints it, and the exact probability (the full float, ``repr``); when bars
    are highlighted, a column saying which (``yes`` or empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = [x_label or "Value", "Probability (as shown)", "Probability (exact)"]
    marked = highlighted(bars, highlight_from)
    if marked:
        header.append(f"Highlighted: {highlight_label}" if highlight_label else "Highlighted")
    writer.writerow(header)
    for i, (label, p) in enumerate(bars):
        row = [label, fmt_prob(p), repr(float(p))]
        if marked:
            assert highlight_from is not None
            row.append("yes" if i >= highlight_from else "")
        writer.writerow(row)
    return out.getvalue()


def merge_labels(lists: Sequence[Sequence[str]]) -> list[str]:
    """The bars' names of several series in one order: each list's order kept, a name
    one series lacks put after the name before it in the series that has it
    (``["1", "2"]`` and ``["0", "1", "2", "3"]`` give ``["0", "1", "2", "3"]``)."""
    out: list[str] = []
    for labels in lists:
        for i, label in enumerate(labels):
            if label in out:
                continue
            out.insert(out.index(labels[i - 1]) + 1 if i else 0, label)
    return out


Group = dict[str, Any]
"""One series of bars for :class:`BarChart` (``series``): ``{"label", "bars"}``."""


def grouped(series: Sequence[Group]) -> dict[str, Any]:
    """Several series as the front end draws them: the bars' names in one order
    (:func:`merge_labels`) and, per series, its legend, each name's probability
    (``None`` where the series has no such bar) and its text (as the figures print)."""
    bars = [[(str(label), float(p)) for label, p in s["bars"]] for s in series]
    names = merge_labels([[label for label, _ in b] for b in bars])
    out = []
    for s, b in zip(series, bars, strict=True):
        by_name = dict(b)
        values = [by_name.get(n) for n in names]
        texts = ["—" if v is None else fmt_prob(v) for v in values]
        out.append({"label": str(s["label"]), "values": values, "texts": texts})
    return {"categories": names, "series": out}


def grouped_summary(title: str, x_label: str, data: dict[str, Any]) -> str:
    """Grouped bars in one sentence, for a screen reader (the SVG's ``aria-label``)."""
    names, series = data["categories"], data["series"]
    if not names:
        return f"{title}: nothing to chart for these inputs."
    legends = "; ".join(s["label"] for s in series)
    return (
        f"{title}: grouped bar chart of {len(series)} scenarios ({legends}), "
        f"{x_label} {names[0]} to {names[-1]}. Every value is in the table (Show as table)."
    )


def grouped_csv(x_label: str, data: dict[str, Any]) -> str:
    """Grouped bars as CSV: one row per bar name, per series its probability as the
    chart prints it and exact (the full float), empty where the series has no bar."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = [x_label or "Value"]
    for s in data["series"]:
        header += [f"{s['label']} (as shown)", f"{s['label']} (exact)"]
    writer.writerow(header)
    for i, name in enumerate(data["categories"]):
        row = [name]
        for s in data["series"]:
            p = s["values"][i]
            row += ["", ""] if p is None else [s["texts"][i], repr(float(p))]
        writer.writerow(row)
    return out.getvalue()


def csv_filename(title: str) -> str:
    """A download's file name from the chart's title: lower-case words joined by ``-``."""
    slug = re.sub(r"[^a-z0-9]+", "-", re.sub(r"['’]", "", title.lower())).strip("-")[:80].strip("-")
    return f"{slug or 'chart'}.csv"


_JS_HELPERS = r"""
const NS = "http://www.w3.org/2000/svg";
const FONT = 12;  // px, every label in the SVG (drawn 1:1: the SVG is as wide as its viewBox)
let serial = 0;
function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function html(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
function width(el, seen) {
  // ``seen``: the width a ResizeObserver reported; 0 while hidden, or off the page (not
  // read there: that would have the browser lay the page out): the desktop width
  const w = seen !== undefined ? seen : el.isConnected ? el.clientWidth : 0;
  return Math.round(Math.max(280, Math.min(640, w || 560)));
}
let context = null;  // one canvas measures the text of every chart on the page
let family = "";  // the page's font, read from the first chart on the page
function measurer(el) {
  if (!context) context = document.createElement("canvas").getContext("2d");
  if (!family && el.isConnected) family = getComputedStyle(el).fontFamily;
  context.font = `${FONT}px ${family || "system-ui, sans-serif"}`;
  // a little more than measured: the SVG's own text rendering may differ slightly
  return (t) => Math.ceil(context.measureText(String(t)).width * 1.08) + 2;
}
function drawing(el, draw) {
  // Draw with ``draw(seen)`` now, and again once the chart is laid out on the page. A
  // view is drawn before it is put on the page, where reading its width or font would
  // have the browser lay the page out (once per chart, while the form was still being
  // added): it is drawn there at the desktop width, in the font last read, and drawn again
  // at its ResizeObserver's first report; then again at a new width (a phone turned, a
  // notebook panel resized, shown again). Returns {changed, stop}: ``changed()`` draws a
  // change of the model; ``stop()`` ends it.
  let offPage = false; // drawn (or changed) while off the page: drawn again once on it
  const drawNow = (seen) => {
    offPage = !el.isConnected;
    draw(seen);
  };
  const observer = new ResizeObserver((entries) => {
    if (!el.isConnected) {
      offPage = true; // (taken off the page: drawn again when it is back)
      return;
    }
    const seen = entries[entries.length - 1].contentRect.width;
    if (offPage || String(width(el, seen)) !== el.dataset.drawnWidth) drawNow(seen);
  });
  drawNow();
  observer.observe(el);
  return {
    changed() {
      drawNow();
    },
    stop() {
      observer.disconnect();
    },
  };
}
function download(model) {
  // a BOM so that spreadsheets read the file as UTF-8 (the labels use "−", "≤")
  const blob = new Blob(["\ufeff" + model.get("csv")], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = model.get("filename") || "chart.csv";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
function tools(model, el, root, makeTable, saveAs) {
  // "Show as table" (aria-expanded; open or not kept across redraws) and "Download CSV"
  const bar = html("div", "rl-chart-tools");
  const id = el.dataset.tableId || (el.dataset.tableId = `rl-chart-table-${++serial}`);
  const open = el.dataset.tableOpen === "true";
  const toggle = html("button", "rl-chart-toggle jupyter-button");
  toggle.textContent = open ? "Hide table" : "Show as table";
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", String(open));
  toggle.setAttribute("aria-controls", id);
  const csvButton = html("button", "rl-chart-csv jupyter-button", "Download CSV");
  csvButton.type = "button";
  csvButton.title = `${saveAs} ${model.get("filename")}`;
  csvButton.addEventListener("click", () => download(model));
  bar.append(toggle, csvButton);
  root.appendChild(bar);
  const t = makeTable(id);
  t.hidden = !open;
  toggle.addEventListener("click", () => {
    const now = toggle.getAttribute("aria-expanded") !== "true";
    el.dataset.tableOpen = String(now);
    toggle.setAttribute("aria-expanded", String(now));
    toggle.textContent = now ? "Hide table" : "Show as table";
    t.hidden = !now;
  });
  root.appendChild(t);
}
"""
"""What both charts' front ends share: SVG and HTML elements, the width drawn at, text
measured, a CSV download (``model`` holds ``csv`` and ``filename``)."""

_ESM = (
    _JS_HELPERS
    + r"""
function leftAxis(s, ticks, L, right, T, plotH) {
  // the probability axis on the left: a grid line and a label per tick, up to ``right``
  const top = ticks[ticks.length - 1][0];
  for (const [v, t] of ticks) {
    const y = T + plotH - (v / top) * plotH;
    const line = { x1: L, y1: y, x2: right, y2: y, class: v ? "rl-grid" : "rl-axis" };
    s.appendChild(svg("line", line));
    s.appendChild(svg("text", { x: L - 6, y: y + FONT * 0.35, "text-anchor": "end",
                                "font-size": FONT, class: "rl-tick" }, t));
  }
  s.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: T + plotH, class: "rl-axis" }));
}
function topAxis(s, ticks, L, plotW, T, bottom, tickW) {
  // the probability axis along the top; every other label when they would touch
  const top = ticks[ticks.length - 1][0];
  const every = plotW / Math.max(1, ticks.length - 1) >= tickW + 6 ? 1 : 2;
  ticks.forEach(([v, t], k) => {
    const x = L + (v / top) * plotW;
    const line = { x1: x, y1: T - 2, x2: x, y2: bottom, class: v ? "rl-grid" : "rl-axis" };
    s.appendChild(svg("line", line));
    if (k % every === 0) {
      s.appendChild(svg("text", { x, y: T - 6, "text-anchor": "middle", "font-size": FONT,
                                  class: "rl-tick" }, t));
    }
  });
}
function columns(s, d, W, measure) {
  // bars standing in columns, each value printed above its bar
  const { bars, values, ticks, hi } = d;
  const tickW = Math.max(...ticks.map(([, t]) => measure(t)));
  const L = tickW + 10, R = 6, T = FONT + 10, plotH = 190, B = FONT + 12;
  const H = T + plotH + B, plotW = W - L - R, slot = plotW / bars.length;
  const top = ticks[ticks.length - 1][0];
  leftAxis(s, ticks, L, W - R, T, plotH);
  bars.forEach(([label, p], i) => {
    const h = (p / top) * plotH, cx = L + (i + 0.5) * slot;
    const bar = svg("rect", { x: cx - slot * 0.35, y: T + plotH - h, width: Math.max(1, slot * 0.7),
                              height: h, class: hi(i) ? "rl-bar rl-bar-hi" : "rl-bar",
                              "data-label": label, "data-p": p });
    s.appendChild(bar);
    s.appendChild(svg("text", { x: cx, y: T + plotH - h - 4, "text-anchor": "middle",
                                "font-size": FONT, class: "rl-value" }, values[i]));
    s.appendChild(svg("text", { x: cx, y: T + plotH + FONT + 4, "text-anchor": "middle",
                                "font-size": FONT, class: "rl-xtick" }, label));
  });
  return H;
}
function rows(s, d, W, measure) {
  // bars lying in rows: the name on the left, the value just past the bar's end
  const { bars, values, ticks, hi } = d;
  const rowH = FONT + 9;
  const L = Math.min(Math.max(...bars.map(([l]) => measure(l))) + 8, W * 0.45);
  const valueW = Math.max(...values.map(measure)) + 6;
  const tickW = Math.max(...ticks.map(([, t]) => measure(t)));
  const R = Math.max(valueW, tickW / 2 + 2), T = FONT + 10, B = 4;
  const plotW = W - L - R, H = T + bars.length * rowH + B;
  const top = ticks[ticks.length - 1][0];
  topAxis(s, ticks, L, plotW, T, H - B, tickW);
  bars.forEach(([label, p], i) => {
    const y = T + i * rowH, w = (p / top) * plotW, mid = y + rowH / 2 + FONT * 0.35;
    s.appendChild(svg("text", { x: L - 6, y: mid, "text-anchor": "end", "font-size": FONT,
                                class: "rl-xtick" }, label));
    s.appendChild(svg("rect", { x: L, y: y + 3, width: w, height: rowH - 6,
                                class: hi(i) ? "rl-bar rl-bar-hi" : "rl-bar",
                                "data-label": label, "data-p": p }));
    s.appendChild(svg("text", { x: L + w + 4, y: mid, "text-anchor": "start", "font-size": FONT,
                                class: "rl-value" }, values[i]));
  });
  return H;
}
function table(model, d, id) {
  const t = html("table", "rl-chart-table");
  t.id = id;
  t.appendChild(html("caption", "", model.get("title")));
  const head = html("tr");
  const cols = [model.get("x_label") || "Value", "Probability"];
  if (d.marked) cols.push(model.get("highlight_label") || "Highlighted");
  for (const c of cols) {
    const th = html("th", "", c);
    th.scope = "col";
    head.appendChild(th);
  }
  t.appendChild(html("thead")).appendChild(head);
  const body = t.appendChild(html("tbody"));
  d.bars.forEach(([label, ], i) => {
    const tr = body.appendChild(html("tr"));
    const th = tr.appendChild(html("th", "", label));
    th.scope = "row";
    tr.appendChild(html("td", "", d.values[i]));
    if (d.marked) tr.appendChild(html("td", "", d.hi(i) ? "yes" : ""));
  });
  return t;
}
const SERIES = 4;  // fills: a colour AND a pattern each (solid, stripes, dots, cross-hatch)
function patterns(s, id) {
  const defs = svg("defs");
  for (let k = 0; k < SERIES; k++) {
    const attrs = { id: `${id}-${k}`, patternUnits: "userSpaceOnUse", width: 6, height: 6 };
    if (k === 1) attrs.patternTransform = "rotate(45)";
    const p = svg("pattern", attrs);
    p.appendChild(svg("rect", { width: 6, height: 6, class: `rl-series-${k}` }));
    if (k === 1) p.appendChild(svg("line", { x1: 1, y1: 0, x2: 1, y2: 6, class: "rl-hatch" }));
    if (k === 2) p.appendChild(svg("circle", { cx: 3, cy: 3, r: 1.4, class: "rl-dot" }));
    if (k === 3) p.appendChild(svg("path", { d: "M0,0 L6,6 M6,0 L0,6", class: "rl-hatch" }));
    defs.appendChild(p);
  }
  s.appendChild(defs);
}
function seriesBar(d, k, attrs) {
  return svg("rect", { ...attrs, fill: `url(#${d.pat}-${k % SERIES})`,
                       class: `rl-sbar rl-sbar-${k % SERIES}`, "data-series": k });
}
function groupedColumns(s, d, W, measure) {
  // each bar name a group of bars standing side by side, one per series (values in the table)
  const { cats, series, ticks } = d;
  const tickW = Math.max(...ticks.map(([, t]) => measure(t)));
  const L = tickW + 10, R = 6, T = 10, plotH = 190, B = FONT + 12;
  const H = T + plotH + B, plotW = W - L - R, slot = plotW / cats.length;
  const top = ticks[ticks.length - 1][0], bw = (slot * 0.84) / series.length;
  leftAxis(s, ticks, L, W - R, T, plotH);
  cats.forEach((label, i) => {
    const x0 = L + i * slot + slot * 0.08;
    series.forEach((sr, k) => {
      const p = sr.values[i];
      if (p === null || p === undefined) return;
      const h = (p / top) * plotH;
      s.appendChild(seriesBar(d, k, { x: x0 + k * bw, y: T + plotH - h, width: Math.max(1, bw - 1),
                                      height: h, "data-label": label, "data-p": p }));
    });
    s.appendChild(svg("text", { x: L + (i + 0.5) * slot, y: T + plotH + FONT + 4,
                                "text-anchor": "middle", "font-size": FONT, class: "rl-xtick" },
                      label));
  });
  return H;
}
function groupedRows(s, d, W, measure) {
  // each bar name a block of rows, one bar per series, its value just past its end
  const { cats, series, ticks } = d;
  const rowH = FONT + 4, gap = 6, n = series.length;
  const L = Math.min(Math.max(...cats.map((l) => measure(l))) + 8, W * 0.45);
  const valueW = Math.max(...series.flatMap((sr) => sr.texts.map(measure))) + 6;
  const tickW = Math.max(...ticks.map(([, t]) => measure(t)));
  const R = Math.max(valueW, tickW / 2 + 2), T = FONT + 10, B = 4;
  const plotW = W - L - R, H = T + cats.length * (n * rowH + gap) + B;
  const top = ticks[ticks.length - 1][0];
  topAxis(s, ticks, L, plotW, T, H - B, tickW);
  cats.forEach((label, i) => {
    const y0 = T + i * (n * rowH + gap);
    s.appendChild(svg("text", { x: L - 6, y: y0 + (n * rowH) / 2 + FONT * 0.35,
                                "text-anchor": "end", "font-size": FONT, class: "rl-xtick" },
                      label));
    series.forEach((sr, k) => {
      const p = sr.values[i], y = y0 + k * rowH;
      const w = p === null || p === undefined ? 0 : (p / top) * plotW;
      if (w > 0 || p === 0) {
        s.appendChild(seriesBar(d, k, { x: L, y: y + 2, width: w, height: rowH - 4,
                                        "data-label": label, "data-p": p }));
      }
      s.appendChild(svg("text", { x: L + w + 4, y: y + rowH / 2 + FONT * 0.35,
                                  "text-anchor": "start", "font-size": FONT, class: "rl-value" },
                        sr.texts[i]));
    });
  });
  return H;
}
function seriesLegend(d) {
  // which fill is which scenario (named by what differs from A)
  const legend = html("ul", "rl-chart-series-legend");
  d.series.forEach((sr, k) => {
    const item = html("li", "rl-chart-series-item");
    const swatch = svg("svg", { width: 16, height: 16, "aria-hidden": "true",
                                class: "rl-chart-series-swatch" });
    swatch.appendChild(seriesBar(d, k, { x: 0.5, y: 0.5, width: 15, height: 15 }));
    item.append(swatch, html("span", "", sr.label));
    legend.appendChild(item);
  });
  return legend;
}
function groupedTable(model, d, id) {
  const t = html("table", "rl-chart-table");
  t.id = id;
  t.appendChild(html("caption", "", model.get("title")));
  const head = html("tr");
  for (const c of [model.get("x_label") || "Value", ...d.series.map((sr) => sr.label)]) {
    const th = html("th", "", c);
    th.scope = "col";
    head.appendChild(th);
  }
  t.appendChild(html("thead")).appendChild(head);
  const body = t.appendChild(html("tbody"));
  d.cats.forEach((label, i) => {
    const tr = body.appendChild(html("tr"));
    const th = tr.appendChild(html("th", "", label));
    th.scope = "row";
    for (const sr of d.series) tr.appendChild(html("td", "", sr.texts[i]));
  });
  return t;
}
function drawGrouped(model, el, groups, seen) {
  const ticks = model.get("ticks") || [];
  const cats = groups.categories || [];
  el.replaceChildren();
  const root = html("figure", "rl-chart rl-chart-grouped");
  root.appendChild(html("figcaption", "", model.get("title")));
  if (!cats.length || ticks.length < 2) {
    root.appendChild(html("p", "rl-chart-empty", "Nothing to chart for these inputs."));
    el.appendChild(root);
    return;
  }
  const W = width(el, seen), measure = measurer(el);
  el.dataset.drawnWidth = String(W);
  const id = el.dataset.tableId || (el.dataset.tableId = `rl-chart-table-${++serial}`);
  const d = { cats, series: groups.series, ticks, pat: `${id}-pattern` };
  const tickW = Math.max(...ticks.map(([, t]) => measure(t)));
  const slot = (W - tickW - 16) / cats.length;
  const need = Math.max(...cats.map((l) => measure(l))) + 8;
  const layout = slot >= need && (slot * 0.84) / d.series.length >= 5 ? "columns" : "rows";
  const s = svg("svg", { role: "img", "aria-label": model.get("summary"),
                         "data-layout": layout, "font-size": FONT });
  patterns(s, d.pat);
  const H = (layout === "columns" ? groupedColumns : groupedRows)(s, d, W, measure);
  s.setAttribute("viewBox", `0 0 ${W} ${H}`);
  s.setAttribute("width", W);
  s.setAttribute("height", H);
  const axis = html("div", `rl-chart-axis rl-chart-axis-${layout}`, model.get("x_label"));
  if (layout === "rows") root.appendChild(axis);
  root.appendChild(s);
  if (layout === "columns") root.appendChild(axis);
  root.appendChild(seriesLegend(d));
  tools(model, el, root, (tid) => groupedTable(model, d, tid), "Save the chart's data as");
  el.appendChild(root);
}
function draw(model, el, seen) {
  const groups = model.get("groups") || {};
  if ((groups.series || []).length >= 2) return drawGrouped(model, el, groups, seen);
  const bars = model.get("bars") || [];
  const from = model.get("highlight_from");
  const marked = from !== null && from !== undefined && from >= 0 && from < bars.length;
  const values = model.get("value_labels") || [];
  const ticks = model.get("ticks") || [];
  // the bars come first and the texts derived from them just after (one message each):
  // until they agree, keep what is drawn
  const top = ticks.length ? ticks[ticks.length - 1][0] : 0;
  const agree = values.length === bars.length
    && (bars.length === 0 || (ticks.length >= 2 && bars.every(([, p]) => p <= top * (1 + 1e-9))));
  if (!agree && el.firstChild) return;
  el.replaceChildren();
  const root = html("figure", "rl-chart");
  root.appendChild(html("figcaption", "", model.get("title")));
  if (bars.length === 0 || !agree) {
    // e.g. henchmen removed when the target is a character
    root.appendChild(html("p", "rl-chart-empty", "Nothing to chart for these inputs."));
    el.appendChild(root);
    return;
  }
  const W = width(el, seen), measure = measurer(el);
  el.dataset.drawnWidth = String(W);
  const d = { bars, values, ticks, marked, hi: (i) => marked && i >= from };
  const slot = (W - Math.max(...ticks.map(([, t]) => measure(t))) - 16) / bars.length;
  const need = Math.max(...values.map(measure), ...bars.map(([l]) => measure(l))) + 8;
  const layout = slot >= need ? "columns" : "rows";
  const s = svg("svg", { role: "img", "aria-label": model.get("summary"),
                         "data-layout": layout, "font-size": FONT });
  const H = (layout === "columns" ? columns : rows)(s, d, W, measure);
  s.setAttribute("viewBox", `0 0 ${W} ${H}`);
  s.setAttribute("width", W);
  s.setAttribute("height", H);
  // the bars' names: a heading over the rows' names, or the axis title under the columns
  const axis = html("div", `rl-chart-axis rl-chart-axis-${layout}`, model.get("x_label"));
  if (layout === "rows") root.appendChild(axis);
  root.appendChild(s);
  if (layout === "columns") root.appendChild(axis);
  if (marked) {
    const legend = html("div", "rl-chart-legend");
    legend.appendChild(html("span", "rl-chart-swatch"));
    legend.appendChild(document.createTextNode(model.get("highlight_label") || "Highlighted"));
    root.appendChild(legend);
  }
  tools(model, el, root, (id) => table(model, d, id), "Save the chart's data as");
  el.appendChild(root);
}
const NAMES = ["bars", "title", "x_label", "highlight_from", "highlight_label", "value_labels",
               "ticks", "summary", "csv", "filename", "groups"];
function render({ model, el }) {
  const drawn = drawing(el, (seen) => draw(model, el, seen));
  const redraw = () => drawn.changed();
  for (const name of NAMES) model.on(`change:${name}`, redraw);
  return () => {
    drawn.stop();
    for (const name of NAMES) model.off(`change:${name}`, redraw);
  };
}
export default { render };
"""
)

_CSS = """
.rl-chart { margin: 0.5em 0; max-width: 640px; overflow-x: auto; }
.rl-chart figcaption { font-weight: 600; margin-bottom: 0.25em; }
.rl-chart .rl-chart-empty { color: var(--rl-faint, #5c5c5c); font-style: italic; margin: 0.2em 0; }
.rl-chart svg { display: block; width: 100%; height: auto; min-width: 280px; }
.rl-chart svg text { fill: var(--rl-fg, #1b1b1b); }
.rl-chart svg .rl-tick { fill: var(--rl-muted, #474747); }
.rl-chart .rl-axis { stroke: var(--rl-axis, #6e6e6e); }
.rl-chart .rl-grid { stroke: var(--rl-axis, #6e6e6e); stroke-opacity: 0.3; }
.rl-chart .rl-bar { fill: var(--rl-bar, #78909c); }
.rl-chart .rl-bar-hi { fill: var(--rl-bar-hi, #2e7d32); }
.rl-chart .rl-chart-axis { color: var(--rl-muted, #474747); font-size: 0.9em; margin: 0.15em 0; }
.rl-chart .rl-chart-axis-columns { text-align: center; }
.rl-chart .rl-chart-axis-rows { font-weight: 600; }
.rl-chart .rl-chart-legend { color: var(--rl-fg, #1b1b1b); font-size: 0.9em; margin: 0.2em 0;
  display: flex; align-items: center; gap: 0.4em; }
.rl-chart .rl-chart-swatch { display: inline-block; width: 1em; height: 1em; flex: none;
  background: var(--rl-bar-hi, #2e7d32); }
.rl-chart .rl-chart-tools { display: flex; flex-wrap: wrap; gap: 0.5em; margin: 0.3em 0; }
.rl-chart .rl-chart-tools button { width: auto; }
.rl-chart .rl-chart-tools button:focus-visible { outline: 2px solid var(--rl-fg, #1b1b1b);
  outline-offset: 2px; }
@media print { .rl-chart .rl-chart-tools { display: none; } }
.rl-chart .rl-sbar { stroke: var(--rl-fg, #1b1b1b); stroke-width: 1; }
.rl-chart .rl-series-0 { fill: var(--rl-series-0, #1f5fa8); }
.rl-chart .rl-series-1 { fill: var(--rl-series-1, #b34d00); }
.rl-chart .rl-series-2 { fill: var(--rl-series-2, #2e7d32); }
.rl-chart .rl-series-3 { fill: var(--rl-series-3, #7b1fa2); }
.rl-chart .rl-hatch { stroke: var(--rl-hatch, #ffffff); stroke-width: 2; }
.rl-chart .rl-dot { fill: var(--rl-hatch, #ffffff); }
.rl-chart .rl-chart-series-legend { list-style: none; padding: 0; margin: 0.3em 0;
  display: flex; flex-wrap: wrap; gap: 0.2em 1em; font-size: 0.9em; }
.rl-chart .rl-chart-series-item { display: flex; align-items: center; gap: 0.4em;
  min-width: 0; overflow-wrap: anywhere; }
.rl-chart svg.rl-chart-series-swatch { flex: none; display: inline-block; width: 16px;
  height: 16px; min-width: 0; }
.rl-chart table.rl-chart-table { border-collapse: collapse; margin: 0.3em 0; }
.rl-chart table.rl-chart-table caption { text-align: left; font-weight: 600; padding: 0.2em 0; }
.rl-chart table.rl-chart-table th, .rl-chart table.rl-chart-table td {
  border: 1px solid var(--rl-border, #c8c8c8); padding: 0.15em 0.6em; text-align: left; }
.rl-chart table.rl-chart-table td { font-variant-numeric: tabular-nums; }
"""


class BarChart(ModuleWidget):
    """Bars of ``(label, probability)``; bars from ``highlight_from`` on are highlighted,
    and the legend says what that means (``highlight_label``).

    ``value_labels``, ``ticks``, ``summary``, ``csv`` and ``filename`` are derived
    (whenever the data or titles change) and only read by the front end.
    """

    _esm = _ESM
    _css = _CSS
    title = traitlets.Unicode("").tag(sync=True)
    x_label = traitlets.Unicode("").tag(sync=True)
    bars = traitlets.List(traitlets.Tuple(traitlets.Unicode(), traitlets.Float())).tag(sync=True)
    highlight_from = traitlets.Int(None, allow_none=True).tag(sync=True)
    highlight_label = traitlets.Unicode("").tag(sync=True)
    value_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    ticks = traitlets.List(traitlets.Tuple(traitlets.Float(), traitlets.Unicode())).tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    csv = traitlets.Unicode("").tag(sync=True)
    filename = traitlets.Unicode("chart.csv").tag(sync=True)
    series = traitlets.List(traitlets.Dict()).tag(sync=True)
    """Scenarios drawn together: ``[{"label", "bars": [[name, p], …]}]``; two or more are
    drawn as grouped bars (``bars`` and the highlight then unused), ``[]`` one series."""
    groups = traitlets.Dict().tag(sync=True)
    """Derived from ``series`` (:func:`grouped`), read by the front end."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._derive()

    @traitlets.observe("title", "x_label", "bars", "highlight_from", "highlight_label", "series")
    def _changed(self, _change: Any) -> None:
        self._derive()

    def _derive(self) -> None:
        """Work out the texts the front end prints from the data and titles."""
        bars = [(str(label), float(p)) for label, p in self.bars]
        if len(self.series) >= 2:
            self._derive_groups()
            return
        with self.hold_sync():
            self.groups = {}
            self.value_labels = [fmt_prob(p) for _, p in bars]
            self.ticks = list(nice_ticks(max((p for _, p in bars), default=0.0)))
            self.summary = summary(
                self.title, self.x_label, bars, self.highlight_from, self.highlight_label
            )
            self.csv = chart_csv(self.x_label, bars, self.highlight_from, self.highlight_label)
            self.filename = csv_filename(self.title)

    def _derive_groups(self) -> None:
        """The texts for several series drawn together (grouped bars)."""
        data = grouped(self.series)
        top = max((p for s in data["series"] for p in s["values"] if p is not None), default=0.0)
        with self.hold_sync():
            self.ticks = list(nice_ticks(top))
            self.summary = grouped_summary(self.title, self.x_label, data)
            self.csv = grouped_csv(self.x_label, data)
            self.filename = csv_filename(self.title)
            self.groups = data


# -- line charts (a sweep: a figure across a range) ---------------------------


def number_ticks(lo: float, hi: float, most: int = 5) -> tuple[tuple[float, str], ...]:
    """Ticks of a number axis covering ``lo`` to ``hi``: ``(value, label)`` at round
    values (1, 2 or 5 × a power of ten apart), at most about ``most`` steps, the first
    at or below ``lo`` and the last at or above ``hi``.

    >>> [label for _, label in number_ticks(0, 17)]
    ['0', '5', '10', '15', '20']
    >>> [label for _, label in number_ticks(0, 1.5)]
    ['0', '0.5', '1.0', '1.5']
    """
    if not hi > lo:
        lo, hi = (lo - 1, hi + 1) if lo else (0.0, 1.0)
    span = hi - lo
    power = 10.0 ** math.floor(math.log10(span / most))
    step = next(m * power for m in (1, 2, 5, 10) if m * power * most >= span * (1 - 1e-12))
    first = math.floor(lo / step + 1e-9)
    last = math.ceil(hi / step - 1e-9)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    ticks = []
    for k in range(first, last + 1):
        value = round(k * step, 12)
        text = f"{value:,.{decimals}f}".replace(",", "\u202f").replace("-", "\u2212")
        ticks.append((value + 0.0, "0" if value == 0 else text))
    return tuple(ticks)


def x_ticks(x: Sequence[float], texts: Sequence[str]) -> tuple[tuple[float, str], ...]:
    """Ticks of a line chart's x axis: each point's own value when there are at most 12
    (``texts``: as the field shows them), else round values inside the range (the front
    end keeps every other one while labels would touch)."""
    if len(x) <= 12:
        return tuple(zip((float(v) for v in x), texts, strict=True))
    lo, hi = float(min(x)), float(max(x))
    return tuple((v, t) for v, t in number_ticks(lo, hi, most=10) if lo <= v <= hi)


def _as_float(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def line_summary(data: ChartData, texts: Sequence[Sequence[str]]) -> str:
    """A line chart in a few sentences, for a screen reader (the SVG's ``aria-label``):
    the x range, then each line's first and last value and its highest."""
    if not data.series or not data.series[0].x:
        return f"{data.title}: nothing to chart for these inputs."
    x = [_x_text(v) for v in data.series[0].x]
    n = len(data.series)
    head = (
        f"{data.title}: line chart of {n} line{'s' if n > 1 else ''} over {data.x_label}, "
        f"{x[0]} to {x[-1]} ({len(x)} point{'s' if len(x) > 1 else ''})."
    )
    parts = []
    for s, shown in list(zip(data.series, texts, strict=True))[:4]:
        ys = s.y_floats()
        known = [i for i, y in enumerate(ys) if y is not None]
        if not known:
            parts.append(f"{s.label}: no value.")
            continue
        top = max(known, key=lambda i: ys[i])  # type: ignore[arg-type,return-value]
        first, last = known[0], known[-1]
        parts.append(
            f"{s.label}: {shown[first]} at {x[first]}, {shown[last]} at {x[last]}; "
            f"highest {shown[top]} at {x[top]}."
        )
    more = f" And {n - 4} more lines." if n > 4 else ""
    return " ".join([head, *parts]) + more + " Every value is in the table (Show as table)."


def line_csv(data: ChartData) -> str:
    """A line chart's data as CSV: one row per x, one column per line (exact values,
    a Fraction as ``109/200``); used when no sweep's own CSV is given."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([data.x_label, *(s.label for s in data.series)])
    for i, x in enumerate(data.series[0].x if data.series else ()):
        writer.writerow([x, *("" if s.y[i] is None else str(s.y[i]) for s in data.series)])
    return out.getvalue()


_LINE_ESM = (
    _JS_HELPERS
    + r"""
const DASHES = ["", "7 4", "2 3", "9 3 2 3"];
const COLOURS = 6;
function look(i) {
  // colour and dash both differ for the first four lines; a marker shape per line
  return { colour: `rl-line-${i % COLOURS}`, dash: DASHES[i % DASHES.length], shape: i % 4 };
}
function marker(x, y, r, shape, cls) {
  if (shape === 1) {
    return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: cls });
  }
  if (shape === 2) {
    const p = `${x},${y - r * 1.2} ${x + r * 1.1},${y + r * 0.8} ${x - r * 1.1},${y + r * 0.8}`;
    return svg("polygon", { points: p, class: cls });
  }
  if (shape === 3) {
    const p = `${x},${y - r * 1.3} ${x + r * 1.1},${y} ${x},${y + r * 1.3} ${x - r * 1.1},${y}`;
    return svg("polygon", { points: p, class: cls });
  }
  return svg("circle", { cx: x, cy: y, r, class: cls });
}
function sample(i) {
  // a legend's sample: the line's colour, dash and marker
  const { colour, dash, shape } = look(i);
  const s = svg("svg", { width: 34, height: 14, viewBox: "0 0 34 14", "aria-hidden": "true",
                         class: `rl-line-sample ${colour}` });
  s.appendChild(svg("line", { x1: 1, y1: 7, x2: 33, y2: 7, class: "rl-line-path",
                              "stroke-dasharray": dash }));
  s.appendChild(marker(17, 7, 3.5, shape, "rl-line-marker"));
  return s;
}
function table(model, id) {
  const t = html("table", "rl-chart-table rl-line-table");
  t.id = id;
  t.appendChild(html("caption", "", model.get("title")));
  const head = html("tr");
  for (const c of [model.get("x_label"), ...model.get("series").map((s) => s.label)]) {
    const th = html("th", "", c);
    th.scope = "col";
    head.appendChild(th);
  }
  t.appendChild(html("thead")).appendChild(head);
  const body = t.appendChild(html("tbody"));
  model.get("x_texts").forEach((x, i) => {
    const tr = body.appendChild(html("tr"));
    const th = tr.appendChild(html("th", "", x));
    th.scope = "row";
    for (const s of model.get("series")) tr.appendChild(html("td", "", s.texts[i]));
  });
  return t;
}
function draw(model, el, seen) {
  const series = model.get("series") || [];
  const x = model.get("x") || [];
  const xTexts = model.get("x_texts") || [];
  const yTicks = model.get("y_ticks") || [];
  const agree = x.length === xTexts.length && yTicks.length >= 2
    && series.every((s) => s.y.length === x.length && s.texts.length === x.length);
  if (!agree && el.firstChild) return;
  el.replaceChildren();
  const root = html("figure", "rl-chart rl-line-chart");
  root.appendChild(html("figcaption", "", model.get("title")));
  if (!series.length || !x.length || !agree) {
    root.appendChild(html("p", "rl-chart-empty", "Nothing to chart for these inputs."));
    el.appendChild(root);
    return;
  }
  const W = width(el, seen), measure = measurer(el);
  el.dataset.drawnWidth = String(W);
  root.appendChild(html("div", "rl-chart-axis rl-line-y-label", model.get("y_label")));
  const tickW = Math.max(...yTicks.map(([, t]) => measure(t)));
  const x0 = x[0], x1 = x[x.length - 1];
  const lastTickW = measure(xTexts[xTexts.length - 1] || "");
  const L = tickW + 10, R = Math.max(10, lastTickW / 2 + 2), T = 10, plotH = 200;
  const B = FONT + 14, H = T + plotH + B, plotW = W - L - R;
  const lo = yTicks[0][0], hi = yTicks[yTicks.length - 1][0];
  const X = (v) => L + (x1 === x0 ? plotW / 2 : ((v - x0) / (x1 - x0)) * plotW);
  const Y = (v) => T + plotH - ((v - lo) / (hi - lo)) * plotH;
  const s = svg("svg", { role: "img", "aria-label": model.get("summary"), "font-size": FONT,
                         viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  for (const [v, t] of yTicks) {
    const y = Y(v);
    s.appendChild(svg("line", { x1: L, y1: y, x2: W - R, y2: y,
                                class: v === lo ? "rl-axis" : "rl-grid" }));
    s.appendChild(svg("text", { x: L - 6, y: y + FONT * 0.35, "text-anchor": "end",
                                "font-size": FONT, class: "rl-tick" }, t));
  }
  s.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: T + plotH, class: "rl-axis" }));
  // x ticks: every other one dropped while two labels would touch
  let ticks = model.get("x_ticks") || [];
  const fits = (list) => list.every(([v, t], k) => k === 0
    || X(v) - measure(t) / 2 >= X(list[k - 1][0]) + measure(list[k - 1][1]) / 2 + 6);
  while (ticks.length > 2 && !fits(ticks)) ticks = ticks.filter((_, k) => k % 2 === 0);
  for (const [v, t] of ticks) {
    const px = X(v);
    s.appendChild(svg("line", { x1: px, y1: T + plotH, x2: px, y2: T + plotH + 4,
                                class: "rl-axis" }));
    s.appendChild(svg("text", { x: px, y: T + plotH + FONT + 5, "text-anchor": "middle",
                                "font-size": FONT, class: "rl-xtick" }, t));
  }
  const slot = plotW / Math.max(1, x.length - 1);
  const r = Math.max(1.6, Math.min(3.5, slot / 3));
  const groups = series.map((line, i) => {
    const { colour, dash, shape } = look(i);
    const g = svg("g", { class: `rl-line ${colour}`, "data-series": i });
    let d = "";
    let pen = false;
    line.y.forEach((v, k) => {
      if (v === null || v === undefined) { pen = false; return; }
      d += `${pen ? "L" : "M"}${X(x[k]).toFixed(2)},${Y(v).toFixed(2)}`;
      pen = true;
    });
    g.appendChild(svg("path", { d, class: "rl-line-path", "stroke-dasharray": dash }));
    line.y.forEach((v, k) => {
      if (v === null || v === undefined) return;
      const m = marker(X(x[k]), Y(v), r, shape, "rl-line-marker");
      m.setAttribute("data-x", xTexts[k]);
      m.setAttribute("data-text", line.texts[k]);
      g.appendChild(m);
    });
    s.appendChild(g);
    return g;
  });
  // value labels: one line whose every label has room beside its neighbours
  if (series.length === 1) {
    const texts = series[0].texts;
    const need = Math.max(...texts.map(measure)) + 4;
    if (need * 1.5 <= slot || x.length === 1) {
      series[0].y.forEach((v, k) => {
        if (v === null || v === undefined) return;
        const y = Y(v), above = y - 7 >= T + FONT;
        // the ends' labels lean inwards: never over the y axis's ticks or past the edge
        const anchor = x.length === 1 ? "middle" : k === 0 ? "start" : k === x.length - 1
          ? "end" : "middle";
        s.appendChild(svg("text", { x: X(x[k]), y: above ? y - 7 : y + FONT + 5,
                                    "text-anchor": anchor, "font-size": FONT,
                                    class: "rl-value" }, texts[k]));
      });
    }
  }
  // the readout: a guide at one point and every line's value there (pointer or slider)
  const guide = svg("line", { x1: 0, y1: T, x2: 0, y2: T + plotH, class: "rl-line-guide",
                              visibility: "hidden" });
  s.appendChild(guide);
  const readout = html("div", "rl-line-readout");
  readout.setAttribute("aria-live", "polite");
  const slider = html("input", "rl-line-slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(x.length - 1);
  slider.step = "1";
  slider.setAttribute("aria-label", `Read the values at one ${model.get("x_label")}`);
  const show = (k) => {
    k = Math.max(0, Math.min(x.length - 1, k));
    el.dataset.readAt = String(k);
    slider.value = String(k);
    slider.setAttribute("aria-valuetext", `${model.get("x_label")} ${xTexts[k]}`);
    guide.setAttribute("x1", X(x[k]));
    guide.setAttribute("x2", X(x[k]));
    guide.setAttribute("visibility", "visible");
    groups.forEach((g) => g.querySelectorAll(".rl-line-marker").forEach((m) =>
      m.classList.toggle("rl-line-marker-on", m.getAttribute("data-x") === xTexts[k])));
    readout.replaceChildren();
    readout.appendChild(html("strong", "", `${model.get("x_label")} ${xTexts[k]}`));
    series.forEach((line, i) => {
      const item = html("span", "rl-line-readout-item");
      item.append(sample(i), ` ${line.label}: `);
      item.appendChild(html("strong", "", line.texts[k]));
      readout.appendChild(item);
    });
  };
  const hover = svg("rect", { x: L, y: T, width: plotW, height: plotH, class: "rl-line-hover" });
  hover.addEventListener("pointermove", (e) => {
    const box = s.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * W;
    let best = 0;
    x.forEach((v, k) => { if (Math.abs(X(v) - px) < Math.abs(X(x[best]) - px)) best = k; });
    show(best);
  });
  s.appendChild(hover);
  slider.addEventListener("input", () => show(Number(slider.value)));
  root.appendChild(s);
  root.appendChild(html("div", "rl-chart-axis rl-chart-axis-columns", model.get("x_label")));
  const legend = html("ul", "rl-line-legend");
  series.forEach((line, i) => {
    const li = html("li", "rl-line-legend-item");
    li.append(sample(i), html("span", "", line.label));
    legend.appendChild(li);
  });
  root.appendChild(legend);
  const read = html("label", "rl-line-read");
  read.append(html("span", "", "Read a point"), slider);
  root.append(read, readout);
  // the point read: the GM's last one, else the one Python names (the form's value)
  const at = el.dataset.readAt === undefined ? model.get("read_at") : Number(el.dataset.readAt);
  show(Number.isInteger(at) && at >= 0 && at < x.length ? at : 0);
  tools(model, el, root, (id) => table(model, id), "Save the exact values (fractions) as");
  el.appendChild(root);
}
const NAMES = ["title", "x_label", "y_label", "x", "x_texts", "x_ticks", "y_ticks", "series",
               "summary", "csv", "filename"];
function render({ model, el }) {
  const drawn = drawing(el, (seen) => draw(model, el, seen));
  let queued = false;
  const redraw = () => {
    // one drawing per batch of changes (the traits of one update arrive together)
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; drawn.changed(); });
  };
  for (const name of NAMES) model.on(`change:${name}`, redraw);
  const reread = () => { delete el.dataset.readAt; redraw(); };
  model.on("change:read_at", reread);
  return () => {
    drawn.stop();
    model.off("change:read_at", reread);
    for (const name of NAMES) model.off(`change:${name}`, redraw);
  };
}
export default { render };
"""
)

_LINE_CSS = """
.rl-line-chart .rl-line-path { fill: none; stroke: currentColor; stroke-width: 2.25;
  stroke-linejoin: round; }
.rl-line-chart .rl-line-marker { fill: currentColor; stroke: var(--rl-page-bg, #fff);
  stroke-width: 0.75; }
.rl-line-chart .rl-line-marker-on { stroke: var(--rl-fg, #1b1b1b); stroke-width: 2; }
.rl-line-chart .rl-line-guide { stroke: var(--rl-muted, #474747); stroke-dasharray: 3 3; }
.rl-line-chart .rl-line-hover { fill: transparent; cursor: crosshair; touch-action: pan-y; }
.rl-line-0 { color: var(--rl-line-0, #1f5fa8); }
.rl-line-1 { color: var(--rl-line-1, #b34d00); }
.rl-line-2 { color: var(--rl-line-2, #2e7d32); }
.rl-line-3 { color: var(--rl-line-3, #7b1fa2); }
.rl-line-4 { color: var(--rl-line-4, #6d4c41); }
.rl-line-5 { color: var(--rl-line-5, #00796b); }
.rl-line-chart .rl-line-y-label { font-weight: 600; }
.rl-line-chart .rl-line-legend { list-style: none; padding: 0; margin: 0.3em 0;
  display: flex; flex-wrap: wrap; gap: 0.2em 1.2em; }
.rl-line-chart .rl-line-legend-item { display: flex; align-items: center; gap: 0.4em;
  overflow-wrap: anywhere; }
.rl-chart svg.rl-line-sample { display: inline-block; flex: none; width: 34px; height: 14px;
  min-width: 0; }
.rl-line-chart .rl-line-read { display: flex; align-items: center; gap: 0.6em; margin: 0.3em 0;
  color: var(--rl-muted, #474747); font-size: 0.9em; }
.rl-line-chart .rl-line-slider { flex: 1 1 auto; min-width: 6em; max-width: 24em;
  accent-color: var(--rl-link, #0b57d0); }
.rl-line-chart .rl-line-readout { display: flex; flex-wrap: wrap; gap: 0.15em 1em;
  align-items: center; min-height: 1.4em; font-size: 0.95em; }
.rl-line-chart .rl-line-readout-item { display: inline-flex; align-items: center; gap: 0.3em;
  overflow-wrap: anywhere; }
"""


class LineChart(ModuleWidget):
    """Lines over one x axis (a sweep), drawn from an engine :class:`~ruleslab.whatif.ChartData`
    of kind ``"line"`` by :meth:`show`: the lines (colour, dash and marker each), the axes'
    ticks, a legend, a readout of every line at one point (pointer, or the "Read a point"
    slider), value labels when they have room, "Show as table" and "Download CSV".

    Every text the front end prints is worked out here: ``x_texts`` (the field's values),
    each line's ``texts`` (the figure as the calculator shows it), the ticks, the
    ``summary`` (the SVG's ``aria-label``) and the ``csv``.
    """

    _esm = _LINE_ESM
    _css = _CSS + _LINE_CSS
    title = traitlets.Unicode("").tag(sync=True)
    x_label = traitlets.Unicode("").tag(sync=True)
    y_label = traitlets.Unicode("").tag(sync=True)
    x = traitlets.List(traitlets.Float()).tag(sync=True)
    x_texts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    x_ticks = traitlets.List(traitlets.Tuple(traitlets.Float(), traitlets.Unicode())).tag(sync=True)
    y_ticks = traitlets.List(traitlets.Tuple(traitlets.Float(), traitlets.Unicode())).tag(sync=True)
    series = traitlets.List(traitlets.Dict()).tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    csv = traitlets.Unicode("").tag(sync=True)
    filename = traitlets.Unicode("sweep.csv").tag(sync=True)
    percent = traitlets.Bool(False).tag(sync=True)
    read_at = traitlets.Int(0).tag(sync=True)
    """The point the readout shows first (an index of ``x``)."""

    def show(
        self,
        data: ChartData,
        texts: Sequence[Sequence[str]] | None = None,
        csv_text: str | None = None,
        *,
        percent: bool = False,
        read_at: int = 0,
    ) -> None:
        """Draw ``data`` (kind ``"line"``): the traits :func:`line_traits` works out,
        sent in one message."""
        traits = line_traits(data, texts, csv_text, percent=percent, read_at=read_at)
        with self.hold_sync():
            for name, value in traits.items():
                setattr(self, name, value)


def line_traits(
    data: ChartData,
    texts: Sequence[Sequence[str]] | None = None,
    csv_text: str | None = None,
    *,
    percent: bool = False,
    read_at: int = 0,
) -> dict[str, Any]:
    """A :class:`LineChart`'s traits for ``data`` (kind ``"line"``). ``texts``: each
    line's value at each point as the calculator shows it (default: a percentage when
    ``percent``, else the number); ``csv_text``: the download (default
    :func:`line_csv`); ``percent``: a y axis of chances (0 to 100 %); ``read_at``: the
    point the readout shows first."""
    if data.kind != "line":
        raise ValueError(f"a LineChart draws a line chart, not {data.kind!r}")
    x = tuple(float(v) for v in data.series[0].x) if data.series else ()  # type: ignore[arg-type]
    x_texts = [_x_text(v) for v in (data.series[0].x if data.series else ())]
    ys = [s.y_floats() for s in data.series]
    if texts is None:
        texts = [
            ["—" if y is None else fmt_prob(y) if percent else _plain_number(y) for y in line]
            for line in ys
        ]
    known = [y for line in ys for y in line if y is not None]
    if percent:
        y_ticks = nice_ticks(max(known, default=0.0))
    else:
        y_ticks = number_ticks(min(0.0, *known) if known else 0.0, max([0.0, *known]))
    return {
        "title": data.title,
        "x_label": data.x_label,
        "y_label": data.y_label,
        "percent": percent,
        "x": list(x),
        "x_texts": x_texts,
        "x_ticks": list(x_ticks(x, x_texts)),
        "y_ticks": list(y_ticks),
        "series": [
            {"label": s.label, "y": list(line), "texts": [str(t) for t in shown]}
            for s, line, shown in zip(data.series, ys, texts, strict=True)
        ],
        "summary": line_summary(data, texts),
        "csv": line_csv(data) if csv_text is None else csv_text,
        "filename": csv_filename(data.title),
        "read_at": read_at,
    }


def _x_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plain_number(value: float) -> str:
    return _x_text(round(value, 4))


def chart_widget(data: ChartData, widget: Any = None, **options: Any) -> Any:
    """The widget drawing an engine chart, by its ``kind``: ``"line"`` a :class:`LineChart`
    (``widget`` reused when it is one; ``options`` as :meth:`LineChart.show` takes them)."""
    if data.kind == "line":
        if isinstance(widget, LineChart):
            widget.show(data, **options)
            return widget
        # a new chart opens with all its state: no message waits on a model still loading
        return LineChart(**line_traits(data, **options))
    raise ValueError(f"no widget draws a chart of kind {data.kind!r} yet")
