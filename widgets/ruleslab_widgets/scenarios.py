"""Scenarios in the calculator (issue 22): two to four versions of the inputs, side by side.

A GM asks "is cover worth the action?" or "2.0 or 2.1 for this fight?": the
calculator holds up to four scenarios (A–D) of its inputs. "Compare scenarios"
opens the bar (:class:`ScenarioBar`); "Add scenario (copy of this one)" copies
the scenario the form shows; the buttons "A", "B: Strength 5" … choose which
one the form edits (``aria-pressed``; Left/Right/Home/End move between them);
"Remove scenario B" and "Back to one scenario" undo it.

The form is the selected scenario: switching loads that scenario's values into
the fields through the form's own path (:meth:`CalculatorView.set_input`, or
the link's path for a value a checkbox or a choice cannot hold), so each field
shows its usual message. The computing is :func:`ruleslab.whatif.compare`
(each value parsed once by its field, then the calculator's run): no rule
logic here. :class:`Scenarios` keeps each scenario's values as the form holds
them (text as typed), its last good result, and its error.

What the page shows while comparing (:func:`comparison_html`): one column per
scenario (stacked per figure on a narrow calculator), each numeric figure's
difference from A (Δ, exact from :class:`~ruleslab.whatif.FigureRow`, written
in the figure's own format: :func:`delta_text`), texts side by side for the
others; a scenario that cannot be computed keeps its last values, marked "Not
current", and the status names the scenario and the field ("Scenario B:
…"). No calculator declares which direction of a figure is better for whom,
so a Δ is never judged: it is only marked. The charts draw every scenario
together (:class:`~ruleslab_widgets.chart.BarChart`'s ``series``).

Links: scenario A is the one-calculator link, then ``scenarios=N`` and each
later scenario's fields that differ from A (``s2.strength=5``): the engine's
format (:func:`ruleslab.whatif.scenarios_query`). Opening one restores every
scenario, A selected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import escape
from typing import Any, cast

import ipywidgets as w
import traitlets

from ruleslab import InputError
from ruleslab.declare import ChartView
from ruleslab.explain import Explained, fmt_num
from ruleslab.whatif import (
    LABELS,
    MAX_SCENARIOS,
    Comparison,
    ScenarioError,
    Series,
    as_text,
    compare,
    is_number,
    scenarios_from_query,
    scenarios_query,
)
from ruleslab.whatif_inputs import resolve
from ruleslab_widgets.module_widget import ModuleWidget
from ruleslab_widgets.notes import linkify

__all__ = ["ScenarioBar", "Scenarios", "comparison_html", "delta_text"]

Number = int | float | Fraction
_PERCENT = re.compile(r"^[<>≤≥]?\s*\d+(\.\d+)? %")
_UNIT = re.compile(r"^( ?[A-Za-z/]+(?: [A-Za-z/]+)*)(?:$| \(|,)")


def delta_text(value: object, delta: object, text: str) -> str:
    """A difference from A written in the figure's own format (its ``text`` for
    ``value``): a percentage's Δ in percentage points (``+1.25 pp``), a number with a
    unit as that number (``+30 kg``, ``−0.5 levels``); ``""`` when the figure's text
    is not its value written plainly (``1 day 6 h``, ``11 to 16 (mean 13.5)``): its
    texts are shown side by side only. Exact zero is ``±0``."""
    if not (is_number(value) and is_number(delta)):
        return ""
    v, d = Fraction(cast(Number, value)), Fraction(cast(Number, delta))
    sign = "+" if d > 0 else "−" if d < 0 else "±"
    if _PERCENT.match(text) and 0 <= v <= 1:
        points = abs(d) * 100
        if points == 0:
            return "±0 pp"
        shown = f"{float(points):.2f}"
        return f"{sign}{'< 0.01' if shown == '0.00' else shown} pp"
    plain = fmt_num(cast(Number, value))
    if not text.startswith(plain) or text[len(plain) : len(plain) + 1] not in {"", " ", "d"}:
        return ""
    unit = _UNIT.match(text[len(plain) :])
    magnitude = fmt_num(abs(d))
    if magnitude == "0" and d:
        magnitude = "< 0.01"
    return f"{sign}{magnitude}{unit.group(1) if unit else ''}"


def comparison_html(
    comparison: Comparison | None,
    columns: Sequence[tuple[str, str, Explained | None, bool]],
    fresh: Sequence[int],
) -> str:
    """The figures of every scenario side by side.

    ``columns``: per scenario its letter, legend, last good result (``None``: never
    computed) and whether it is stale (marked "Not current", drawn faded);
    ``fresh``: the scenarios ``comparison`` holds, in its order (A first). A fresh
    scenario's numeric figure carries its Δ against A; a stale one shows its last
    values without Δ. Everything shown is escaped (labels through
    :func:`~ruleslab_widgets.notes.linkify`).
    """
    rows = comparison.figures if comparison is not None else ()
    index = {col: i for i, col in enumerate(fresh)}
    keys: list[tuple[str, str]] = [(r.key, r.label) for r in rows]
    seen = {k for k, _ in keys}
    for _letter, _legend, result, _stale in columns:  # figures only a stale column has
        for f in result.figures() if result is not None else ():
            if f.key not in seen:
                seen.add(f.key)
                keys.append((f.key, f.label))
    by_key = {r.key: r for r in rows}
    head = "".join(
        f'<th scope="col" class="rl-sc-col{" rl-sc-stale" if stale else ""}" '
        f'data-scenario="{letter}">{escape(legend)}'
        + ('<span class="rl-sc-stale-mark"> · Not current</span>' if stale else "")
        + "</th>"
        for letter, legend, _result, stale in columns
    )
    body = []
    for key, label in keys:
        cells = []
        row = by_key.get(key)
        for col, (letter, legend, result, stale) in enumerate(columns):
            figs = {f.key: f for f in result.figures()} if result is not None else {}
            text, delta = (figs[key].text if key in figs else "—"), ""
            if not stale and row is not None and col in index:
                i = index[col]
                text = row.texts[i]
                if i and row.deltas[i] != 0:  # (a Δ of zero is left out: "same as A")
                    delta = delta_text(row.values[0], row.deltas[i], row.texts[0])
            mark = (
                f' <span class="rl-sc-delta" data-delta="{escape(delta)}">'
                f'<span class="rl-sc-hidden">Δ against A: </span>{escape(delta)}</span>'
                if delta
                else ""
            )
            name = f'<span class="rl-sc-name" aria-hidden="true">{escape(legend)}</span>'
            cells.append(
                f'<td class="rl-figure{" rl-sc-stale" if stale else ""}" '
                f'data-figure="{escape(key)}" data-scenario="{letter}">'
                f'{name}<span class="rl-sc-value">{linkify(text)}</span>{mark}</td>'
            )
        body.append(f'<tr><th scope="row">{linkify(label)}</th>{"".join(cells)}</tr>')
    return (
        '<div class="rl-result rl-sc-result"><table class="rl-figures rl-sc-table">'
        '<caption class="rl-sc-caption">Scenarios side by side; Δ: difference from A '
        "(pp: percentage points)</caption>"
        f'<thead><tr><td class="rl-sc-corner"></td>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


_ESM = r"""
function node(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function render({ model, el }) {
  el.classList.add("rl-scenarios");
  const send = (content) => model.send(content);
  let focusAfter = null;
  const draw = () => {
    const open = model.get("shown");
    const tabs = model.get("tabs");
    const selected = model.get("selected");
    const parts = [];
    if (!open) {
      const start = node("button", { type: "button", class: "rl-sc-open jupyter-button" },
                         "Compare scenarios");
      start.title = "Compare this calculator's inputs with up to three other versions of them";
      start.addEventListener("click", () => { focusAfter = ".rl-sc-add"; send({ type: "open" }); });
      parts.push(start);
    } else {
      const group = node("div", { role: "group", class: "rl-sc-tabs",
                                  "aria-label": "Scenarios: choose which one the form edits" });
      const buttons = tabs.map((t, i) => {
        const b = node("button", { type: "button", class: "rl-sc-tab jupyter-button"
                                     + (t.error ? " rl-sc-tab-error" : ""),
                                   "aria-pressed": String(i === selected),
                                   "data-scenario": t.letter }, t.text);
        if (t.error) b.title = t.error;
        b.tabIndex = i === selected ? 0 : -1;
        b.addEventListener("click", () => {
          focusAfter = `.rl-sc-tab[data-scenario="${t.letter}"]`;
          send({ type: "select", index: i });
        });
        b.addEventListener("keydown", (ev) => {
          const n = tabs.length;
          const to = { ArrowRight: (i + 1) % n, ArrowDown: (i + 1) % n, ArrowLeft: (i + n - 1) % n,
                       ArrowUp: (i + n - 1) % n, Home: 0, End: n - 1 }[ev.key];
          if (to === undefined) return;
          ev.preventDefault();
          buttons[to].focus();
        });
        return b;
      });
      group.append(...buttons);
      parts.push(group);
      const tools = node("div", { class: "rl-sc-tools" });
      if (tabs.length < model.get("most")) {
        const add = node("button", { type: "button", class: "rl-sc-add jupyter-button" },
                         "Add scenario (copy of this one)");
        add.addEventListener("click", () => {
          focusAfter = `.rl-sc-tab[data-scenario="${"ABCD"[tabs.length]}"]`;
          send({ type: "add" });
        });
        tools.append(add);
      }
      if (tabs.length > 1) {
        const letter = tabs[selected] ? tabs[selected].letter : "";
        const remove = node("button", { type: "button", class: "rl-sc-remove jupyter-button" },
                            `Remove scenario ${letter}`);
        remove.addEventListener("click", () => { focusAfter = ".rl-sc-tab[aria-pressed=true]";
                                                  send({ type: "remove", index: selected }); });
        tools.append(remove);
      }
      const close = node("button", { type: "button", class: "rl-sc-close jupyter-button" },
                         tabs.length > 1 ? `Back to one scenario (keep ${tabs[selected].letter})`
                                         : "Close scenarios");
      close.addEventListener("click", () => {
        focusAfter = ".rl-sc-open";
        send({ type: "close" });
      });
      tools.append(close);
      parts.push(tools);
      const hint = node("p", { class: "rl-sc-hint" }, model.get("hint"));
      hint.hidden = !model.get("hint");
      parts.push(hint);
    }
    el.replaceChildren(...parts);
    if (focusAfter) {
      const target = el.querySelector(focusAfter);
      if (target) { target.focus(); focusAfter = null; }
    }
  };
  const names = ["shown", "tabs", "selected", "hint", "most"];
  for (const name of names) model.on(`change:${name}`, draw);
  draw();
  return () => { for (const name of names) model.off(`change:${name}`, draw); };
}
export default { render };
"""

_CSS = """
.rl-scenarios { display: flex; flex-direction: column; align-items: flex-start; gap: 0.35em;
  margin: 0.3em 0 0.5em 0; }
.rl-scenarios .rl-sc-tabs, .rl-scenarios .rl-sc-tools { display: flex; flex-wrap: wrap;
  gap: 0.35em; }
.rl-scenarios button { width: auto; max-width: 100%; height: auto; min-height: 2.1em;
  white-space: normal; text-align: left; line-height: 1.25; padding: 0.2em 0.7em; }
.rl-scenarios .rl-sc-tab[aria-pressed="true"] { font-weight: 700;
  outline: 2px solid var(--rl-link, #0b57d0); outline-offset: -2px; }
.rl-scenarios .rl-sc-tab-error { border-left: 4px solid var(--rl-error, #b00020); }
.rl-scenarios .rl-sc-hint { margin: 0; color: var(--rl-muted, #474747); font-size: 0.9em; }
"""


class ScenarioBar(ModuleWidget):
    """The scenario controls: "Compare scenarios", then one button per scenario
    (``tabs``: ``{"letter", "text", "error"}``; ``selected`` the one the form edits),
    "Add scenario (copy of this one)", "Remove scenario X", "Back to one scenario".
    Clicks arrive as messages (``{"type": "open" | "add" | "select" | "remove" |
    "close", "index"}``) for :class:`Scenarios`."""

    _esm = _ESM
    _css = _CSS
    shown = traitlets.Bool(False).tag(sync=True)
    """Whether the bar is open (else only "Compare scenarios")."""
    tabs = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.Int(0).tag(sync=True)
    hint = traitlets.Unicode("").tag(sync=True)
    most = traitlets.Int(MAX_SCENARIOS).tag(sync=True)


class Scenarios:
    """The scenarios of one :class:`~ruleslab_widgets.view.CalculatorView` (``view``).

    ``values[i]``: scenario i's fields as the form holds them (text as typed, a
    checkbox's bool, a choice's value); ``selected``: the one the form shows.
    ``results[i]``: its last good result; ``errors[i]``: why it is not current
    (``"Scenario B: …"``); ``comparison``: the last :func:`compare` of the scenarios
    in ``fresh`` (A first), or ``None``.
    """

    def __init__(self, view: Any) -> None:
        self.view = view
        self.bar = ScenarioBar()
        self.bar.add_class("rl-scenario-bar")
        self.bar.on_msg(self._receive)
        self.values: list[dict[str, Any]] = []
        self.selected = 0
        self.results: list[Explained | None] = []
        self.legends: list[str] = []
        self.errors: dict[int, str] = {}
        self.comparison: Comparison | None = None
        self.fresh: list[int] = []
        self.link_error = ""

    # -- state ------------------------------------------------------------
    @property
    def active(self) -> bool:
        """Whether the scenario bar is open (one scenario or more)."""
        return bool(self.values)

    @property
    def comparing(self) -> bool:
        """Whether two or more scenarios are shown side by side."""
        return len(self.values) >= 2

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        index = content.get("index")
        i = index if isinstance(index, int) and not isinstance(index, bool) else -1
        if kind == "open":
            self.open()
        elif kind == "add":
            self.add()
        elif kind == "select" and 0 <= i < len(self.values):
            self.select(i)
        elif kind == "remove" and 0 <= i < len(self.values):
            self.remove(i)
        elif kind == "close":
            self.close()

    def _form(self) -> dict[str, Any]:
        return {name: widget.value for name, widget in self.view.inputs.items()}

    def _store(self) -> None:
        """The form's values are the selected scenario's."""
        if self.values:
            self.values[self.selected] = self._form()

    def open(self) -> None:
        """Show the scenario bar, the form's values as scenario A."""
        if not self.values:
            self.values = [self._form()]
            self.results = [self.view.result]
            self.legends = ["A"]
            self.selected = 0
        self._show_bar()

    def add(self) -> None:
        """A new scenario, a copy of the selected one; the form now edits it."""
        self.open()
        if len(self.values) >= MAX_SCENARIOS:
            return
        self._store()
        self.values.append(dict(self.values[self.selected]))
        self.results.append(self.results[self.selected])
        self.legends.append(LABELS[len(self.values) - 1])
        self._switch(len(self.values) - 1)

    def select(self, index: int) -> None:
        """Let the form edit scenario ``index`` (0 is A): its values in the fields."""
        if not 0 <= index < len(self.values):
            raise IndexError(f"no scenario {index}: {len(self.values)} scenarios")
        self._store()
        self._switch(index)

    def remove(self, index: int) -> None:
        """Remove scenario ``index``; the later ones move up a letter (B becomes A if A
        is removed). The form edits the one before it (or A)."""
        if not 0 <= index < len(self.values) or len(self.values) < 2:
            return
        self._store()
        del self.values[index]
        del self.results[index]
        del self.legends[index]
        self._switch(max(0, index - 1) if index <= self.selected else self.selected)

    def close(self) -> None:
        """Back to one scenario: the one the form shows stays, the others go."""
        self.values, self.results, self.legends = [], [], []
        self.errors, self.comparison, self.fresh = {}, None, []
        self.selected = 0
        self.view.party.scenario_changed("")
        self.view.recompute()
        self._show_bar()

    def _switch(self, index: int) -> None:
        self.selected = index
        self._load(self.values[index])
        self.view.party.scenario_changed(LABELS[index] if self.comparing else "")
        self.view.recompute()
        self._show_bar()

    def _load(self, values: Mapping[str, Any]) -> None:
        """Put a scenario's values in the form, each through the form's own path."""
        view = self.view
        view._link_errors = {}
        view._link_notes = []
        view._applying = True
        try:
            for name, raw in values.items():
                widget = view.inputs[name]
                if raw == widget.value:
                    continue
                if isinstance(raw, str) and isinstance(widget, w.Checkbox | w.Dropdown):
                    view._set_from_link(name, raw)  # (a link's text the widget may not hold)
                else:
                    view.set_input(name, raw)
        finally:
            view._applying = False

    # -- computing ----------------------------------------------------------
    def _given(self, order: Sequence[int]) -> list[dict[str, Any]]:
        """The scenarios ``order`` names as :func:`compare` takes them: the first over
        the form's first values, the others only what differs from it."""
        initial = self.view._initial
        first = self.values[order[0]]
        out = [{n: v for n, v in first.items() if v != initial[n]}]
        for i in order[1:]:
            out.append({n: v for n, v in self.values[i].items() if v != first[n]})
        return out

    def swept(self) -> list[dict[str, Any]]:
        """The scenarios a sweep draws a line for (``SweepPanel``'s source): while they are
        compared, every one computed with A (as :func:`compare` took them); else none,
        and the sweep follows the form's own inputs."""
        if not self.comparing or not self.fresh or self.fresh[0] != 0:
            return []
        return self._given(self.fresh)

    def compute(self, values: Mapping[str, Any]) -> Explained:
        """The selected scenario's result (the form parsed it into ``values``), every
        scenario computed together by :func:`compare`. A scenario that cannot be
        computed is left out (its error kept, naming the scenario and the field); the
        selected one's raises the field's :class:`~ruleslab.InputError`, as the form's
        run would."""
        self._store()
        order = list(range(len(self.values)))
        self.errors = {}
        fields: dict[int, tuple[str, str]] = {}
        comparison: Comparison | None = None
        while len(order) >= 2:
            try:
                letters = [LABELS[i] for i in order]  # (A and C compared: C keeps its letter)
                comparison = compare(self.view.calc, self._given(order), letters)
                break
            except ScenarioError as exc:
                bad = LABELS.index(exc.scenario)
                message = exc.message.removeprefix(f"Scenario {exc.scenario}: ")
                fields[bad] = (exc.field, message)
                self.errors[bad] = f"Scenario {LABELS[bad]}: {message}"
                order.remove(bad)
                if bad == 0:  # A is the base: nothing to compare against
                    break
        if comparison is not None and order[0] == 0:
            self.comparison, self.fresh = comparison, order
            for i, s in zip(order, comparison.scenarios, strict=True):
                self.results[i] = s.result
                self.legends[i] = s.legend
        elif order == [0]:  # (every other scenario refused: A alone is still current)
            self.comparison, self.fresh = None, []
            try:
                [(_given, parsed)] = resolve(self.view.calc, self._given([0]))
                self.results[0] = self.view.calc.run(parsed)
                self.fresh = [0]
            except InputError as exc:
                self.errors[0] = f"Scenario A: {exc.message}"
        else:
            self.comparison, self.fresh = None, []
        if self.selected in fields:
            field, message = fields[self.selected]
            raise InputError(field, message)
        if self.selected in self.fresh and self.comparison is not None:
            return self.comparison.scenarios[self.fresh.index(self.selected)].result
        if self.selected in self.fresh:  # (A alone)
            return self.results[self.selected]  # type: ignore[return-value]
        result: Explained = self.view.calc.run(values)  # (A alone, or A not computed)
        self.results[self.selected] = result
        return result

    # -- showing ------------------------------------------------------------
    def stale(self, index: int) -> bool:
        """Whether scenario ``index``'s column does not follow its inputs."""
        if index == self.selected and (self.view.stale_fields() or self.view.last_error):
            return True
        return index not in self.fresh

    def show(self) -> None:
        """The comparison in the results column and the charts (after a recompute)."""
        if not self.comparing:
            return
        columns = [
            (LABELS[i], self.legends[i], self.results[i], self.stale(i))
            for i in range(len(self.values))
        ]
        self.view.output.value = comparison_html(self.comparison, columns, self.fresh)
        charts = iter(self.comparison.charts() if self.comparison is not None else ())
        for view, panel in zip(self.view.calc.views, self.view.panels, strict=True):
            chart = next(charts, None) if isinstance(view, ChartView) else None
            if chart is not None:
                panel.series = [{"label": s.label, "bars": _bars(s)} for s in chart.series]
            elif isinstance(view, ChartView):
                panel.series = []
        self._show_bar()

    def clear_charts(self) -> None:
        """The charts back to one series (one scenario)."""
        for panel in self.view.panels:
            if hasattr(panel, "series") and panel.series:
                panel.series = []

    def error_of(self, index: int) -> str:
        """Why scenario ``index`` is not current (``"Scenario B: …"``), or ``""``: its
        error when last computed; for the one the form shows, its fields' messages."""
        if not self.comparing:
            return ""
        if index == self.selected and self.view.stale_fields() and self.view.last_error:
            return f"Scenario {LABELS[index]}: {self.view.last_error}"
        return self.errors.get(index, "")

    def status_notes(self) -> list[str]:
        """What the status line says about the scenarios: each one not computed."""
        notes = [self.error_of(i) for i in range(len(self.values)) if self.error_of(i)]
        if 0 in self.errors and self.comparing:
            notes.append("A is the base of the comparison: fix it to compare.")
        return notes

    def _show_bar(self) -> None:
        tabs = []
        for i in range(len(self.values)):
            error = self.error_of(i)
            tabs.append(
                {
                    "letter": LABELS[i],
                    "text": self.legends[i] + (" (not current)" if error else ""),
                    "error": error,
                }
            )
        hint = ""
        if len(self.values) == 1:
            hint = (
                "Add a scenario: it starts as a copy of this one; change what differs, and "
                "the results show both side by side."
            )
        elif self.comparing:
            hint = f"The form shows scenario {LABELS[self.selected]}."
        with self.bar.hold_sync():
            self.bar.shown = self.active
            self.bar.tabs = tabs
            self.bar.selected = self.selected
            self.bar.hint = hint

    # -- links --------------------------------------------------------------
    def query(self) -> str | None:
        """The link's query while comparing (the engine's format), or ``None``."""
        if not self.comparing:
            return None
        self._store()
        given = self._given(range(len(self.values)))
        try:
            return scenarios_query(self.view.calc, given)
        except InputError:  # a bad value: written as typed, every field that differs
            pairs = [f"calculator={self.view.calc.key}"]
            for i, scenario in enumerate(given):
                if i == 1:
                    pairs.append(f"scenarios={len(given)}")
                prefix = f"s{i + 1}." if i else ""
                pairs += [f"{prefix}{n}={_quote(as_text(v))}" for n, v in scenario.items()]
            return "&".join(pairs)

    def take_link_error(self) -> list[str]:
        """The note on a link's scenarios that could not be read (once), as a list."""
        notes = [self.link_error] if self.link_error else []
        self.link_error = ""
        return notes

    def apply(self, query: str) -> bool:
        """Restore the scenarios a link holds (``scenarios=N``); ``False`` if it holds
        none. A is applied as a one-calculator link (each field's message for a bad
        value); the others over A, checked when computed. A link the engine refuses
        (an unknown ``sN.`` field …) is named in the status line, A's fields applied."""
        if "scenarios=" not in query:
            return False
        try:
            given = scenarios_from_query(self.view.calc, query)
        except InputError as exc:
            self.link_error = f"This link's scenarios were not read ({exc.field}): {exc.message}"
            return False
        self.link_error = ""
        self.values, self.results, self.legends = [], [], []
        self.view.apply_query(list(given[0].items()))
        a = self._form()
        self.values = [a] + [{**a, **g} for g in given[1:]]
        self.results = [None] * len(self.values)
        self.legends = list(LABELS[: len(self.values)])
        self.selected = 0
        self.view.party.scenario_changed("A")
        self.view.recompute()
        self._show_bar()
        return True


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe=",:/@")


def _bars(series: Series) -> list[list[object]]:
    """One series' bars for the chart widget: ``[name, probability]`` each."""
    return [[str(x), y] for x, y in zip(series.x, series.y_floats(), strict=True)]
