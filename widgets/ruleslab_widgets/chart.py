"""A dependency-free bar chart drawn in the browser (an anywidget view).

The Python side holds only data (bars, titles, which bars to highlight); the
front end draws an SVG. No plotting library is needed, so nothing beyond
anywidget has to be served to Pyodide.

The SVG is drawn at the width it is given (280 to 640 px, redrawn when that
changes), so its labels keep their size on a phone; narrower than 280 px it
scrolls inside its own box. Its colours are the theme's (``--rl-bar``,
``--rl-bar-hi``, ``--rl-axis``, ``--rl-fg``: :mod:`ruleslab_widgets.style`).
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["BarChart"]

_ESM = r"""
const NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function pct(p) {
  if (p === 0) return "0 %";
  if (p < 0.0001) return "< 0.01 %";
  return (p * 100).toFixed(2) + " %";
}
function width(el) {
  const w = el.clientWidth;  // 0 while hidden: draw at the desktop width
  return Math.round(Math.max(280, Math.min(640, w || 560)));
}
function draw(model, el) {
  const bars = model.get("bars") || [];
  const hi = model.get("highlight_from");
  el.replaceChildren();
  const root = document.createElement("figure");
  root.className = "rl-chart";
  const cap = document.createElement("figcaption");
  cap.textContent = model.get("title");
  root.appendChild(cap);
  if (bars.length === 0) {  // e.g. henchmen removed when the target is a character
    const none = document.createElement("p");
    none.className = "rl-chart-empty";
    none.textContent = "Nothing to chart for these inputs.";
    root.appendChild(none);
    el.appendChild(root);
    return;
  }
  const W = width(el), H = 220, L = 48, B = 36, T = 10, R = 8;
  el.dataset.drawnWidth = String(W);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
                         "aria-label": model.get("title") });
  const maxP = Math.max(1e-12, ...bars.map((b) => b[1]));
  const plotW = W - L - R, plotH = H - T - B;
  const bw = bars.length ? plotW / bars.length : plotW;
  // y axis: 0 and max, as percentages
  s.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: T + plotH, class: "rl-axis" }));
  s.appendChild(svg("line", { x1: L, y1: T + plotH, x2: W - R, y2: T + plotH, class: "rl-axis" }));
  const tick = { "text-anchor": "end", "font-size": 10 };
  s.appendChild(svg("text", { x: L - 4, y: T + 8, ...tick }, pct(maxP)));
  s.appendChild(svg("text", { x: L - 4, y: T + plotH, ...tick }, "0"));
  // a label every so many bars: about one per 25 px (20 at the desktop width)
  const every = Math.max(1, Math.ceil(bars.length / Math.max(4, Math.floor(plotW / 25))));
  bars.forEach(([label, p], i) => {
    const h = (p / maxP) * plotH;
    const x = L + i * bw;
    const highlighted = hi !== null && hi !== undefined && i >= hi;
    const r = svg("rect", {
      x: x + bw * 0.1, y: T + plotH - h, width: Math.max(1, bw * 0.8), height: h,
      class: highlighted ? "rl-bar rl-bar-hi" : "rl-bar",
      "data-label": label, "data-p": p,
    });
    r.appendChild(svg("title", {}, `${model.get("x_label")} ${label}: ${pct(p)}`));
    s.appendChild(r);
    if (i % every === 0) {
      s.appendChild(svg("text", { x: x + bw / 2, y: T + plotH + 14, "text-anchor": "middle",
                                  "font-size": 10 }, label));
    }
  });
  s.appendChild(svg("text", { x: L + plotW / 2, y: H - 4, "text-anchor": "middle",
                              "font-size": 11 }, model.get("x_label")));
  root.appendChild(s);
  el.appendChild(root);
}
function render({ model, el }) {
  const redraw = () => draw(model, el);
  for (const name of ["bars", "title", "x_label", "highlight_from"]) {
    model.on(`change:${name}`, redraw);
  }
  redraw();
  // redraw at a new width (a phone turned, a notebook panel resized, shown again)
  const resized = new ResizeObserver(() => {
    if (String(width(el)) !== el.dataset.drawnWidth) redraw();
  });
  resized.observe(el);
  return () => {
    resized.disconnect();
    for (const name of ["bars", "title", "x_label", "highlight_from"]) {
      model.off(`change:${name}`, redraw);
    }
  };
}
export default { render };
"""

_CSS = """
.rl-chart { margin: 0.5em 0; max-width: 640px; overflow-x: auto; }
.rl-chart figcaption { font-weight: 600; margin-bottom: 0.25em; }
.rl-chart .rl-chart-empty { color: var(--rl-faint, #5c5c5c); font-style: italic; margin: 0.2em 0; }
.rl-chart svg { display: block; }
.rl-chart svg text { fill: var(--rl-fg, #1b1b1b); }
.rl-chart .rl-axis { stroke: var(--rl-axis, #6e6e6e); }
.rl-chart .rl-bar { fill: var(--rl-bar, #78909c); }
.rl-chart .rl-bar-hi { fill: var(--rl-bar-hi, #2e7d32); }
.rl-chart .rl-bar:hover { opacity: 0.75; }
"""


class BarChart(anywidget.AnyWidget):
    """Bars of ``(label, probability)``; bars from ``highlight_from`` on are highlighted."""

    _esm = _ESM
    _css = _CSS
    title = traitlets.Unicode("").tag(sync=True)
    x_label = traitlets.Unicode("").tag(sync=True)
    bars = traitlets.List(traitlets.Tuple(traitlets.Unicode(), traitlets.Float())).tag(sync=True)
    highlight_from = traitlets.Int(None, allow_none=True).tag(sync=True)
