"""The health track drawn in the browser: an anywidget view, filled by :mod:`.panels`.

The Python side holds only data: one dict per box (``index``, ``label``,
``kind``, ``filled``), the state and the wound penalty. The front end draws rows
of boxes, one row per penalty label ("−0", "−1", …, "Incap", "Dying"). Every
box is a ``span.rl-hl-box`` with ``data-level-index``, ``data-kind``
(normal/incap/dying) and ``data-filled`` ("" or bashing/lethal/aggravated/stun),
marked "/" bashing, "X" lethal, "*" aggravated, "S" stun. All text is set with
``textContent``.
"""

from __future__ import annotations

import traitlets

from ruleslab_widgets.module_widget import ModuleWidget

__all__ = ["HealthTrack"]

_ESM = r"""
const MARK = { bashing: "/", lethal: "X", aggravated: "*", stun: "S" };
function draw(model, el) {
  const boxes = model.get("boxes") || [];
  el.replaceChildren();
  const root = document.createElement("figure");
  root.className = "rl-hl";
  const cap = document.createElement("figcaption");
  cap.textContent = model.get("title");
  root.appendChild(cap);
  let row = null, current = null;
  for (const b of boxes) {
    if (b.label !== current || row === null) {
      current = b.label;
      row = document.createElement("div");
      row.className = "rl-hl-row";
      row.setAttribute("data-label", String(b.label));
      const lab = document.createElement("span");
      lab.className = "rl-hl-label";
      lab.textContent = String(b.label);
      row.appendChild(lab);
      root.appendChild(row);
    }
    const box = document.createElement("span");
    const filled = String(b.filled || "");
    box.className = "rl-hl-box rl-hl-" + String(b.kind) + (filled ? " rl-hl-filled-" + filled : "");
    box.setAttribute("data-level-index", String(b.index));
    box.setAttribute("data-kind", String(b.kind));
    box.setAttribute("data-filled", filled);
    box.title = filled ? `${b.label}: ${filled}` : `${b.label}: empty`;
    box.textContent = MARK[filled] || "";
    row.appendChild(box);
  }
  const state = document.createElement("div");
  state.className = "rl-hl-state";
  state.setAttribute("data-state", String(model.get("state_key")));
  state.textContent = `${model.get("state")} · wound penalty ${model.get("penalty")}`;
  root.appendChild(state);
  const legend = document.createElement("div");
  legend.className = "rl-hl-legend";
  legend.textContent = "/ bashing · X lethal · * aggravated · S stun";
  root.appendChild(legend);
  el.appendChild(root);
}
function render({ model, el }) {
  const names = ["boxes", "title", "state", "state_key", "penalty"];
  const redraw = () => draw(model, el);
  for (const n of names) model.on(`change:${n}`, redraw);
  redraw();
  return () => { for (const n of names) model.off(`change:${n}`, redraw); };
}
export default { render };
"""

_CSS = """
.rl-hl { margin: 0.5em 0; font-family: system-ui, sans-serif; }
.rl-hl figcaption { font-weight: 600; margin-bottom: 0.25em; }
.rl-hl-row { display: flex; flex-wrap: wrap; align-items: center; gap: 3px; margin: 2px 0; }
.rl-hl-label { display: inline-block; min-width: 3.5em; font-size: 0.85em;
  color: var(--rl-muted, #474747); }
.rl-hl-box { display: inline-flex; width: 1.4em; height: 1.4em;
  border: 1px solid var(--rl-hl-border, #555); color: var(--rl-fg, #1b1b1b);
  align-items: center; justify-content: center; font-weight: 700; font-size: 0.85em; }
.rl-hl-incap { border-style: dashed; }
.rl-hl-dying { border-color: var(--rl-hl-dying, #b00020); }
.rl-hl-filled-bashing { background: var(--rl-hl-bashing, #e3f2fd); }
.rl-hl-filled-lethal { background: var(--rl-hl-lethal, #ffcdd2); }
.rl-hl-filled-aggravated { background: var(--rl-hl-aggravated, #b00020);
  color: var(--rl-hl-aggravated-fg, #fff); }
.rl-hl-filled-stun { background: var(--rl-hl-stun, #fff9c4); }
.rl-hl-state { margin-top: 0.3em; font-weight: 600; }
.rl-hl-legend { color: var(--rl-faint, #5c5c5c); font-size: 0.8em; }
"""


class HealthTrack(ModuleWidget):
    """Boxes of a health track (dicts: index, label, kind, filled), the state and penalty."""

    _esm = _ESM
    _css = _CSS
    title = traitlets.Unicode("").tag(sync=True)
    boxes = traitlets.List(traitlets.Dict()).tag(sync=True)
    state = traitlets.Unicode("").tag(sync=True)
    state_key = traitlets.Unicode("").tag(sync=True)
    penalty = traitlets.Unicode("").tag(sync=True)
