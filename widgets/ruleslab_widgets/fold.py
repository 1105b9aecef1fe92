"""Front-end pieces of the calculator's layout (anywidget views, no HTML from Python).

* :class:`FoldHeading`: a group's heading holding a real disclosure button
  (``<h3><button aria-expanded>``, WAI-ARIA's disclosure pattern): Enter, Space
  or a click toggles ``expanded``; the region it shows or hides (a widget
  marked with the class ``region``) is shown or hidden at once in the page and
  by Python (:class:`~ruleslab_widgets.view.CalculatorView` keeps its layout),
  so state and display cannot drift apart.
* :class:`FoldRegion`: the box a :class:`FoldHeading` shows or hides. Its ``rows``
  are its children while it is open; while it is closed it has none and is hidden,
  so a page is sent the widgets of a closed region only when it is first opened
  (:class:`~ruleslab_widgets.app_page.Session` sends a widget once something shown
  names it): a calculator's "Rules options" are a third to a half of its widgets.
  Python keeps every row either way (the form reads and sets them all), and the
  pre-rendered page draws them (:mod:`ruleslab_widgets.prerender`).
* :class:`Summary`: the line of the result that stays in view: the ruleset
  and every rules option not at its default as chips (a chip opens "Rules
  options" and focuses that option), the headline's figures, whole, named by
  scenario while comparing (on a narrow calculator, where it sticks to the top
  of the screen; a tap jumps to the full results; a button per roll goes to it;
  there the steps start folded), and, while a field is invalid, "Not current:
  fix …".

All text goes through ``textContent`` and attributes, never HTML.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as w
import traitlets

from ruleslab_widgets.module_widget import ModuleWidget
from ruleslab_widgets.shared_styles import set_shown

__all__ = ["FoldHeading", "FoldRegion", "Summary", "fill_regions", "parts"]

_FOLD_ESM = r"""
let counter = 0;
function render({ model, el }) {
  el.classList.add("rl-fold-heading");
  const heading = document.createElement(model.get("level") === 2 ? "h2" : "h3");
  heading.className = "rl-fold-title";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rl-fold-button";
  const mark = document.createElement("span");
  mark.className = "rl-fold-mark";
  mark.setAttribute("aria-hidden", "true");
  const text = document.createElement("span");
  button.append(mark, text);
  heading.append(button);
  el.replaceChildren(heading);
  const regionId = `rl-fold-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  const region = () => {
    const group = el.parentElement;
    return group ? group.querySelector(`:scope > .${model.get("region")}`) : null;
  };
  const show = () => {
    const open = model.get("expanded");
    text.textContent = model.get("title");
    mark.textContent = open ? "\u25be" : "\u25b8";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    const r = region();
    if (r) {
      if (!r.id) r.id = regionId;
      button.setAttribute("aria-controls", r.id);
      r.style.display = open ? "" : "none";
    }
  };
  button.addEventListener("click", () => {
    model.set("expanded", !model.get("expanded"));
    model.save_changes();
    show();
  });
  model.on("change:expanded", show);
  model.on("change:title", show);
  show();
  requestAnimationFrame(show);  // the region is drawn after the heading
  return () => { model.off("change:expanded", show); model.off("change:title", show); };
}
export default { render };
"""

_SUMMARY_ESM = r"""
function render({ model, el }) {
  el.classList.add("rl-summary-bar");
  const stale = document.createElement("div");
  stale.className = "rl-stale-banner";
  stale.setAttribute("role", "status");
  const chips = document.createElement("div");
  chips.className = "rl-chips";
  const figures = document.createElement("button");
  figures.type = "button";
  figures.className = "rl-key-figures";
  const actions = document.createElement("div");
  actions.className = "rl-key-actions";
  el.replaceChildren(stale, chips, figures, actions);
  const calc = () => el.closest(".rl-calc");
  const openOption = (name) => {
    const root = calc();
    if (!root) return;
    const fold = root.querySelector(".rl-options-heading .rl-fold-button");
    if (fold && fold.getAttribute("aria-expanded") !== "true") fold.click();
    let tries = 0;
    const focus = () => {
      const field = root.querySelector(
        `.rl-field-${name} select, .rl-field-${name} input, .rl-field-${name} textarea`);
      if (field && field.offsetParent !== null) {
        field.scrollIntoView({ block: "center" });
        field.focus();
      } else if (++tries < 60) {
        setTimeout(focus, 50);
      }
    };
    focus();
  };
  figures.addEventListener("click", () => {
    const root = calc();
    const results = root && root.querySelector(".rl-results");
    if (!results) return;
    results.scrollIntoView({ block: "start" });
    const first = results.querySelector(".rl-output");
    if (first) { first.tabIndex = -1; first.focus({ preventScroll: true }); }
  });
  const show = () => {
    const note = model.get("stale");
    stale.textContent = note;
    stale.hidden = !note;
    el.classList.toggle("rl-summary-stale", !!note);
    const items = model.get("chips").map(([name, text, changed]) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rl-chip" + (changed ? " rl-chip-changed" : "");
      b.dataset.option = name;
      b.textContent = text;
      b.title = `Change in Rules options: ${text}`;
      b.addEventListener("click", () => openOption(name));
      return b;
    });
    chips.replaceChildren(...items);
    const parts = model.get("figures").map(([label, value]) => {
      const span = document.createElement("span");
      span.className = "rl-key-figure";
      const l = document.createElement("span");
      l.className = "rl-key-label";
      l.textContent = label;
      const v = document.createElement("strong");
      v.textContent = value;
      span.append(l, " ", v);
      return span;
    });
    const more = document.createElement("span");
    more.className = "rl-key-more";
    more.textContent = "All results \u2193";
    const scenario = model.get("scenario");
    if (scenario) {
      const tag = document.createElement("span");
      tag.className = "rl-key-scenario";
      tag.textContent = scenario;
      parts.unshift(tag);
    }
    figures.replaceChildren(...parts, more);
    figures.hidden = model.get("figures").length === 0;
    // the calculator's roll buttons ("Roll it", "Play a round"), far down on a phone:
    // each of these takes the GM there and focuses it
    const buttons = model.get("actions").map((text, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rl-key-action";
      b.textContent = text + " \u2193";
      b.title = `Go to \u201c${text}\u201d, under the results`;
      b.addEventListener("click", () => {
        const root = calc();
        const target = root && root.querySelectorAll(".rl-roll-button")[i];
        if (!target) return;
        target.scrollIntoView({ block: "center" });
        target.focus({ preventScroll: true });
      });
      return b;
    });
    actions.replaceChildren(...buttons);
    actions.hidden = buttons.length === 0;
  };
  const names = ["stale", "chips", "figures", "scenario", "actions"];
  for (const n of names) model.on(`change:${n}`, show);
  show();
  // On a phone (the key bar is shown) the steps start folded under the figures, and
  // each new result's steps follow the GM's last choice: a tap on "How this was worked
  // out" opens them, and they stay open.
  let stepsOpen = null;
  const fold = () => {
    const root = calc();
    if (!root || !el.classList.contains("rl-keybar")) return;
    for (const d of root.querySelectorAll("details.rl-working")) {
      if (d.dataset.rlFolded) continue;
      d.dataset.rlFolded = "1";
      const open = stepsOpen !== null ? stepsOpen : el.offsetParent === null;
      if (d.open !== open) d.open = open;
      const summary = d.querySelector("summary");
      if (summary) summary.addEventListener("click", () => { stepsOpen = !d.open; });
    }
  };
  const watch = new MutationObserver(fold);
  let tries = 0;
  const begin = () => {
    const root = calc();
    if (!root) {
      if (++tries < 120) requestAnimationFrame(begin);  // (drawn into the page later)
      return;
    }
    watch.observe(root, { childList: true, subtree: true });
    fold();
  };
  begin();
  return () => {
    for (const n of names) model.off(`change:${n}`, show);
    watch.disconnect();
  };
}
export default { render };
"""


class FoldHeading(ModuleWidget):
    """A group's heading with a disclosure button for the widget of class ``region``
    beside it (its sibling in the group's box)."""

    _esm = _FOLD_ESM
    title = traitlets.Unicode("").tag(sync=True)
    expanded = traitlets.Bool(True).tag(sync=True)
    region = traitlets.Unicode("").tag(sync=True)
    level = traitlets.Int(3).tag(sync=True)


class Summary(ModuleWidget):
    """The result's line that stays in view (see the module's doc).

    ``chips``: ``[name, text, changed]`` per rules option shown (the ruleset, then
    each option not at its default); ``figures``: ``[label, text]`` of the headline
    (the figures that answer the question the inputs ask); ``actions``: the labels of
    the calculator's roll buttons, each a button here that goes to it; ``scenario``: while
    scenarios are compared, whose they are ("Scenario B: Strength 5"); ``stale``:
    "Not current: fix …" while a field is invalid, else "".
    """

    _esm = _SUMMARY_ESM
    chips = traitlets.List(traitlets.List()).tag(sync=True)
    figures = traitlets.List(traitlets.List()).tag(sync=True)
    stale = traitlets.Unicode("").tag(sync=True)
    scenario = traitlets.Unicode("").tag(sync=True)
    actions = traitlets.List(traitlets.Unicode()).tag(sync=True)


class FoldRegion(w.VBox):  # type: ignore[misc]  # (ipywidgets: untyped)
    """The box a :class:`FoldHeading` shows or hides: ``rows`` while open, nothing
    (and ``display: none``) while closed (see the module's doc)."""

    def __init__(self, rows: Sequence[w.Widget], *, open_: bool = True) -> None:
        self.rows: tuple[w.Widget, ...] = tuple(rows)
        self._rows_given = open_  # (its rows its children: once opened, they stay)
        super().__init__(self.rows if open_ else ())
        self.add_class("rl-fold-region")
        set_shown(self, open_)

    def fill(self) -> bool:
        """Make the rows the children (the region stays as shown or hidden as it is): a
        page that has drawn the rest asks for them (``app_page``: ``fill``), so that
        they are there to print and to open at once. Whether they were not yet."""
        if self._rows_given:
            return False
        self._rows_given = True
        self.children = self.rows
        return True

    def show(self, open_: bool) -> None:
        """Show the rows (``open_``) or hide them, sending nothing if already so. The
        rows are made the children first, so a page draws them as the region appears."""
        if open_:
            self.fill()
        set_shown(self, open_)


def parts(widget: w.Widget) -> tuple[w.Widget, ...]:
    """The widgets right below ``widget`` in a calculator: its children, or a fold
    region's rows (a closed one has no children yet)."""
    if isinstance(widget, FoldRegion):
        return widget.rows
    return tuple(getattr(widget, "children", ()))


def fill_regions(widget: w.Widget) -> int:
    """:meth:`FoldRegion.fill` every fold region at or below ``widget`` (a closed
    region's rows included); how many were filled."""
    filled = isinstance(widget, FoldRegion) and widget.fill()
    return int(filled) + sum(fill_regions(part) for part in parts(widget))
