"""The calculators' look: one set of rules for the light and the dark theme, and any width.

Colours are CSS custom properties (``--rl-fg``, ``--rl-error``, ``--rl-bar-hi`` …)
set on ``.rl-calc``: every rule, here and in the anywidget views (charts,
health track, the link control, number fields), uses them, so a theme is
just another set of values. The dark values apply inside

* an element with ``data-rl-theme="dark"``: the app page sets it on ``<html>``
  from ``?theme=`` or the system setting (``tools/make_content.app_page_html``);
* JupyterLab with a dark theme: it marks ``<body data-jp-theme-light="false">``.

The ipywidgets controls (text boxes, drop-downs, buttons, the accordion) take
JupyterLab's own ``--jp-…`` variables: JupyterLab's theme sets them in a
notebook, ``app/theme.css`` on the app page.

Layout follows the calculator's own width (a container query on ``.rl-calc``,
so it holds in a notebook cell or an iframe as on a phone): below 640 px a
field's label sits above its box, boxes take the full width, groups shown side
by side stack, long labels wrap; tables and charts scroll inside their own
box rather than widen the page.
"""

from __future__ import annotations

__all__ = ["DARK", "LIGHT", "PRERENDER", "STYLE"]

LIGHT = {
    "fg": "#1b1b1b",
    "muted": "#474747",
    "faint": "#5c5c5c",
    "error": "#b00020",
    "link": "#0b57d0",
    "focus": "#0b57d0",
    "border": "#c4c4c4",
    "warn-bg": "#fff4e5",
    "warn-fg": "#6b4200",
    "busy-bg": "#eef3fb",
    "busy-fg": "#1d3b6b",
    "bar": "#78909c",
    "bar-hi": "#2e7d32",
    "axis": "#6e6e6e",
    "hl-border": "#555555",
    "hl-bashing": "#e3f2fd",
    "hl-lethal": "#ffcdd2",
    "hl-aggravated": "#b00020",
    "hl-aggravated-fg": "#ffffff",
    "hl-stun": "#fff9c4",
    "hl-dying": "#b00020",
    "line-0": "#1f5fa8",
    "line-1": "#b34d00",
    "line-2": "#2e7d32",
    "line-3": "#7b1fa2",
    "line-4": "#6d4c41",
    "line-5": "#00796b",
    "series-0": "#1f5fa8",
    "series-1": "#b34d00",
    "series-2": "#2e7d32",
    "series-3": "#7b1fa2",
    "hatch": "#ffffff",
}
"""The light theme's colours (``--rl-<name>``); ``line-N``: a line chart's lines (each at
least 3:1 on the page, told apart by dash and marker too), the first four those of the
bar charts' ``series-N``: scenario A is one colour in every chart, B another (issue 37)."""

DARK = {
    "fg": "#e8e8e8",
    "muted": "#c4c4c4",
    "faint": "#adadad",
    "error": "#ff8a80",
    "link": "#8ab4f8",
    "focus": "#8ab4f8",
    "border": "#4d4d4d",
    "warn-bg": "#3a2a00",
    "warn-fg": "#ffd180",
    "busy-bg": "#172640",
    "busy-fg": "#bcd4ff",
    "bar": "#8aa1ad",
    "bar-hi": "#6fcf75",
    "axis": "#9e9e9e",
    "hl-border": "#a0a0a0",
    "hl-bashing": "#1d3a5c",
    "hl-lethal": "#6e1f2a",
    "hl-aggravated": "#ff8a80",
    "hl-aggravated-fg": "#1b1b1b",
    "hl-stun": "#54490a",
    "hl-dying": "#ff8a80",
    "line-0": "#8ab4f8",
    "line-1": "#ffb470",
    "line-2": "#81c784",
    "line-3": "#d8a5e2",
    "line-4": "#bcaaa4",
    "line-5": "#4db6ac",
    "series-0": "#8ab4f8",
    "series-1": "#ffb470",
    "series-2": "#81c784",
    "series-3": "#d8a5e2",
    "hatch": "#1b1b1b",
}
"""The dark theme's colours: text at least 4.5:1 and bars at least 3:1 on the page."""

DARK_SCOPES = ('[data-rl-theme="dark"]', 'body[data-jp-theme-light="false"]')
"""Where the dark theme applies: the app page's choice, JupyterLab's dark theme."""


def _values(palette: dict[str, str]) -> str:
    return " ".join(f"--rl-{name}: {value};" for name, value in palette.items())


_DARK_SELECTOR = ", ".join(f"{scope} .rl-calc" for scope in DARK_SCOPES)

_RULES = """
.rl-calc { font-family: system-ui, sans-serif; max-width: 1100px; color: var(--rl-fg);
  container: rl-calc / inline-size; }
.rl-calc .widget-html, .rl-calc .widget-html-content, .rl-calc .widget-label,
.rl-calc .widget-label-basic { color: var(--rl-fg); }
.rl-calc a { color: var(--rl-link); }
.rl-calc .jupyter-widget-Collapse-header { color: var(--rl-fg); }
.rl-calc h2 { margin: 0.2em 0; }
.rl-calc .rl-summary { color: var(--rl-muted); margin-bottom: 0.5em; line-height: 1.4; }
.rl-calc .rl-error { color: var(--rl-error); font-size: 0.9em; margin-left: 0.5em; }
.rl-calc .rl-help { color: var(--rl-faint); font-size: 0.85em; line-height: 1.3;
  margin: -2px 0 6px 0; }
.rl-calc .rl-status { padding: 0.3em 0.6em; border-radius: 4px; margin: 0.4em 0; }
.rl-calc .rl-status-warning { background: var(--rl-warn-bg); color: var(--rl-warn-fg); }
.rl-calc .rl-status-busy { background: var(--rl-busy-bg); color: var(--rl-busy-fg); opacity: 0;
  animation: rl-show 0s linear 0.35s forwards; }
@keyframes rl-show { to { opacity: 1; } }
.rl-calc .rl-result { max-width: 100%; overflow-x: auto; }
.rl-calc .rl-result, .rl-calc .rl-working, .rl-calc .rl-roll, .rl-calc .rl-status {
  line-height: 1.45; }
.rl-calc table.rl-figures { border-collapse: collapse; margin: 0.4em 0; }
.rl-calc table.rl-figures th { text-align: left; padding: 0.2em 1em 0.2em 0; font-weight: 500;
  vertical-align: top; }
.rl-calc table.rl-figures td { font-weight: 700; padding: 0.2em 0; overflow-wrap: break-word;
  vertical-align: top; }
.rl-calc .rl-steps li, .rl-calc .rl-roll li { overflow-wrap: anywhere; }
.rl-calc .rl-step-rule { color: var(--rl-faint); font-style: italic; }
.rl-calc [hidden] { display: none !important; }
.rl-calc .rl-row { flex-wrap: wrap; align-items: baseline; }
.rl-calc .rl-row > .widget-inline-hbox:not(.widget-checkbox) > .widget-label,
.rl-calc .rl-row > .rl-number > .rl-number-label {
  flex: 0 0 13em; width: 13em !important; min-width: 0; max-width: 13em; white-space: normal;
  overflow: visible; text-overflow: clip; height: auto; line-height: 1.25;
  overflow-wrap: anywhere; align-self: center; padding: 0.15em 0; }
.rl-calc .rl-row > .widget-inline-hbox > :is(input, select, textarea) {
  flex: 1 1 auto; min-width: 6em; width: auto; }
.rl-calc .rl-row > .rl-number > .rl-number-input { flex: 1 1 auto; min-width: 4em; width: auto; }
.rl-calc .rl-groups { grid-gap: 0 1.5em; max-width: 1100px; }
.rl-calc .rl-group { container: rl-group / inline-size; min-width: 0; }
.rl-calc .rl-fold-title { margin: 0.5em 0 0.15em 0; font-size: 1.05em; }
.rl-calc .rl-fold-button { font: inherit; font-weight: 600; color: var(--rl-fg);
  background: none; border: 0; border-radius: 3px; padding: 0.2em 0.1em; cursor: pointer;
  display: flex; gap: 0.45em; align-items: baseline; width: 100%; text-align: left; }
.rl-calc .rl-fold-mark { display: inline-block; width: 0.8em; color: var(--rl-muted); }
.rl-calc .rl-options { border-top: 1px solid var(--rl-border); margin-top: 0.6em; }
.rl-calc .rl-field-row { position: relative; overflow: visible; }
.rl-calc .rl-help-compact { display: none; position: absolute; left: 0; right: 0; top: 100%;
  z-index: 5; margin: 0; padding: 0.3em 0.5em; pointer-events: none;
  background: var(--jp-layout-color1, #ffffff); border: 1px solid var(--rl-border);
  border-radius: 4px; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.2); }
.rl-calc .rl-field-row:focus-within .rl-help-compact { display: block; }
.rl-calc .rl-body { display: flex; flex-direction: column; overflow: visible; }
.rl-calc, .rl-calc .rl-form, .rl-calc .rl-results { overflow: visible; }
.rl-calc .rl-form, .rl-calc .rl-results { min-width: 0; }
.rl-calc .rl-form { container: rl-form / inline-size; }
@container rl-form (max-width: 720px) {
  .rl-calc .rl-groups { grid-template-columns: minmax(0, 1fr) !important; } }
.rl-calc .rl-results { margin-top: 0.6em; }
.rl-calc .rl-summary-bar { display: flex; flex-direction: column; gap: 0.3em; }
.rl-calc .rl-chips { display: flex; flex-wrap: wrap; gap: 0.3em; }
.rl-calc .rl-chip { font: inherit; font-size: 0.85em; color: var(--rl-fg); background: none;
  border: 1px solid var(--rl-border); border-radius: 1em; padding: 0.1em 0.7em;
  cursor: pointer; text-align: left; max-width: 100%; overflow-wrap: anywhere; }
.rl-calc .rl-chip-changed { border-color: var(--rl-link); font-weight: 600; }
.rl-calc .rl-stale-banner { background: var(--rl-warn-bg); color: var(--rl-warn-fg);
  padding: 0.3em 0.6em; border-radius: 4px; font-weight: 600; }
.rl-calc .rl-key-figures { font: inherit; color: var(--rl-fg); background: none;
  border: 1px solid var(--rl-border); border-radius: 4px; padding: 0.3em 0.6em; cursor: pointer;
  display: flex; flex-wrap: wrap; gap: 0.15em 1em; text-align: left; width: 100%; }
.rl-calc .rl-key-figure { max-width: 100%; overflow-wrap: anywhere; }
.rl-calc .rl-key-scenario { font-weight: 600; flex-basis: 100%; }
.rl-calc .rl-key-label { color: var(--rl-muted); }
.rl-calc .rl-key-more { color: var(--rl-link); margin-left: auto; }
.rl-calc .rl-figures tr.rl-headline > th { font-weight: 600; color: var(--rl-fg); }
.rl-calc .rl-results-summary .rl-key-figures { display: none; }
.rl-calc .rl-key-actions { display: flex; flex-wrap: wrap; gap: 0.3em; }
.rl-calc .rl-key-actions[hidden] { display: none; }
.rl-calc .rl-key-action { font: inherit; font-size: 0.9em; color: var(--rl-link);
  background: none; border: 1px solid var(--rl-border); border-radius: 4px;
  padding: 0.15em 0.6em; cursor: pointer; }
.rl-calc .rl-keybar { position: sticky; top: 0; z-index: 5; padding: 0.35em 0;
  background: var(--rl-page-bg, var(--jp-layout-color0, #fff));
  border-bottom: 1px solid var(--rl-border); }
.rl-calc .rl-summary-stale .rl-key-figures,
.rl-calc .rl-results.rl-stale :is(.rl-output, .rl-working-panel, .rl-panel) {
  opacity: 0.45; filter: grayscale(1); }
.rl-calc :is(button, input, select, textarea, summary, a, [tabindex]):focus-visible {
  outline: 3px solid var(--rl-focus) !important; outline-offset: 1px; }
@container rl-calc (min-width: 760px) {
  .rl-calc .rl-body { flex-direction: row; align-items: flex-start; gap: 1.5em; }
  .rl-calc .rl-form { flex: 1 1 0; }
  .rl-calc .rl-results { flex: 0 0 44%; margin-top: 0; position: sticky; top: 0;
    max-height: 100vh; overflow-y: auto; box-sizing: border-box; padding: 0 0.2em 0.5em 0; }
  /* the column scrolls; its parts keep their height (a flex column of bounded height
     would shrink them, clipping the last ones: the roll buttons) */
  .rl-calc .rl-results > * { flex-shrink: 0; }
  .rl-calc .rl-keybar { display: none !important; }
}
.rl-calc .rl-sweep { border-top: 1px solid var(--rl-border); margin-top: 0.6em; }
.rl-calc .rl-sweep-intro, .rl-calc .rl-sweep-hint, .rl-calc .rl-sweep-figures-label {
  color: var(--rl-muted); font-size: 0.9em; line-height: 1.35; margin: 0.2em 0; }
.rl-calc .rl-sweep-figures-label { font-weight: 600; color: var(--rl-fg); }
.rl-calc .rl-sweep-field { width: 100%; max-width: 34em; }
.rl-calc .rl-sweep-field select { min-width: 0; flex: 1 1 auto; }
.rl-calc .rl-sweep-range { flex-wrap: wrap; gap: 0.2em 0.8em; align-items: center; }
.rl-calc .rl-sweep-range > .rl-number { flex: 1 1 9.5em; max-width: 13em; width: auto; }
.rl-calc .rl-sweep-range > .rl-number > .rl-number-label { flex: 0 0 auto; width: auto;
  min-width: 2.6em; margin-right: 0.4em; }
.rl-calc .rl-sweep-range > .rl-number > .rl-number-input { flex: 1 1 3em; min-width: 3em;
  width: auto; }
.rl-calc .rl-sweep-range > .widget-html { flex: 1 1 100%; }
.rl-calc .rl-sweep-figures { display: flex; flex-wrap: wrap; gap: 0 1.2em; max-height: 13em;
  overflow-y: auto; border: 1px solid var(--rl-border); border-radius: 4px;
  padding: 0.15em 0.5em; }
.rl-calc .rl-sweep-figures .widget-checkbox { max-width: 100%; }
.rl-calc .rl-sweep-charts { overflow: visible; }
.rl-calc .rl-sweep.rl-sweep-stale .rl-sweep-charts,
.rl-calc .rl-results.rl-stale .rl-sweep-charts { opacity: 0.45; filter: grayscale(1); }
.rl-calc .rl-roll-seed .widget-label { min-width: 0; }
.rl-calc .rl-roll-row { flex-wrap: wrap; }
.rl-calc .rl-roll-stale ol, .rl-calc .rl-roll-stale strong { opacity: 0.6; }
.rl-calc .rl-roll-note { color: var(--rl-warn-fg); font-size: 0.9em; }
.rl-calc textarea { font-family: ui-monospace, monospace; font-size: 0.9em; }
.rl-calc .widget-checkbox { width: auto; height: auto;
  min-height: var(--jp-widgets-inline-height); }
.rl-calc .widget-checkbox .widget-label-basic { white-space: normal; line-height: 1.35; }
.rl-calc .rl-working-panel, .rl-calc .rl-roll-log { max-width: 100%; overflow-x: auto; }
@container rl-calc (max-width: 640px) {
  .rl-calc .rl-groups { grid-template-columns: minmax(0, 1fr) !important; }
  .rl-calc .rl-roll-seed { width: 100% !important; flex: 1 1 100% !important; }
  .rl-calc table.rl-figures { width: 100%; table-layout: fixed; }
  .rl-calc table.rl-figures th { padding-right: 0.6em; width: 55%; }
}
"""

_SCENARIOS = """
.rl-calc .rl-output { container: rl-out / inline-size; }
.rl-calc table.rl-sc-table { width: 100%; table-layout: auto; }
.rl-calc table.rl-sc-table caption { caption-side: bottom; text-align: left; font-size: 0.85em;
  color: var(--rl-muted); padding-top: 0.2em; }
.rl-calc table.rl-sc-table thead th { font-weight: 600; text-align: left; vertical-align: bottom;
  padding: 0.2em 0.6em 0.2em 0; overflow-wrap: break-word; }
.rl-calc table.rl-sc-table td { padding: 0.2em 0.6em 0.2em 0; overflow-wrap: break-word; }
.rl-calc .rl-sc-delta { display: block; font-weight: 500; color: var(--rl-muted);
  font-size: 0.9em; font-variant-numeric: tabular-nums; }
.rl-calc .rl-sc-stale, .rl-calc .rl-sc-stale-mark { color: var(--rl-warn-fg); }
.rl-calc td.rl-sc-stale .rl-sc-value { opacity: 0.55; }
.rl-calc .rl-sc-name { display: none; }
.rl-calc .rl-sc-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }
@container rl-out (max-width: 440px) {
  .rl-calc table.rl-sc-table, .rl-calc table.rl-sc-table :is(tbody, tr, th, td) {
    display: block; width: auto; }
  .rl-calc table.rl-sc-table caption { display: block; }
  .rl-calc table.rl-sc-table thead { position: absolute; width: 1px; height: 1px;
    overflow: hidden; clip-path: inset(50%); }
  .rl-calc table.rl-sc-table tr { border-top: 1px solid var(--rl-border); padding: 0.25em 0; }
  .rl-calc table.rl-sc-table tbody th { width: auto; padding: 0.1em 0; font-weight: 600; }
  .rl-calc table.rl-sc-table td { display: flex; flex-wrap: wrap; gap: 0 0.5em;
    align-items: baseline; padding: 0.1em 0 0.1em 0.8em; }
  .rl-calc .rl-sc-name { display: inline; font-weight: 500; color: var(--rl-muted); }
  .rl-calc .rl-sc-name::after { content: ":"; }
  .rl-calc .rl-sc-delta { display: inline; }
}
"""
"""Scenarios side by side (:mod:`ruleslab_widgets.scenarios`): one column per scenario, Δ
under each value; in a narrow results column, stacked per figure (each scenario a line
named by what differs)."""

_STACKED = """
  .rl-calc .rl-row > .widget-inline-hbox,
  .rl-calc .rl-row > .rl-number { flex-wrap: wrap; width: 100% !important;
    max-width: 100% !important; height: auto; }
  .rl-calc .rl-row > .widget-inline-hbox:not(.widget-checkbox) > .widget-label,
  .rl-calc .rl-row > .rl-number > .rl-number-label {
    flex: 1 1 100%; min-width: 0; width: 100% !important; max-width: 100%; text-align: left;
    white-space: normal; line-height: 1.3; margin: 0.35em 0 0.15em 0; }
  .rl-calc .rl-row .widget-checkbox .widget-label-basic { width: auto; margin: 0; }
  .rl-calc .rl-row > .widget-inline-hbox > select,
  .rl-calc .rl-row > .widget-inline-hbox > textarea,
  .rl-calc .rl-row > .widget-inline-hbox:not(.rl-number) > input { width: 100%; min-width: 0; }
  .rl-calc .rl-row > .rl-number > .rl-number-input { flex: 1 1 0; width: auto; min-width: 0; }
  .rl-calc .rl-row .rl-step { width: 2.75em; height: 2.25rem; }
  .rl-calc .rl-row .rl-number-input, .rl-calc .rl-row > .widget-inline-hbox > select,
  .rl-calc .rl-row > .widget-text:not(.rl-number) > input { height: 2.25rem; }
  .rl-calc .rl-error { margin-left: 0; }
"""
"""A field's label above its box, the box the full width: in a narrow calculator, and in
a narrow group (two sides of a fight side by side on a tablet)."""

_PRINT = """
@media print {
  .rl-calc { max-width: none; }
  .rl-calc :is(.rl-share-control, .rl-keybar, .rl-roll-row, .rl-step, .rl-chips,
    .rl-fold-mark, .rl-key-figures, .rl-help, .rl-status-busy) { display: none !important; }
  .rl-calc .rl-fold-region { display: flex !important; }
  .rl-calc .rl-body { display: block; }
  .rl-calc .rl-results { position: static; max-height: none; overflow: visible; }
  .rl-calc .rl-fold-title { margin: 0.3em 0 0 0; }
  .rl-calc .rl-row { break-inside: avoid; }
  .rl-calc :is(input, select, textarea) { border-color: transparent !important;
    background: none !important; appearance: none; color: var(--rl-fg) !important; }
  .rl-calc textarea { field-sizing: content; height: auto !important; overflow: visible;
    resize: none; }
  .rl-calc .rl-working::details-content { content-visibility: visible; display: block; }
  .rl-calc .rl-working-panel, .rl-calc .rl-result { overflow: visible; }
}
"""
"""On paper: the inputs as values (every group unfolded, text areas whole), the figures, the
charts and the steps; no buttons, steppers, link or seed boxes."""

_LAYOUT = (
    f"@container rl-calc (max-width: 640px) {{{_STACKED}}}\n"
    f"@container rl-group (max-width: 440px) {{{_STACKED}}}\n"
    f"@container rl-form (max-width: 440px) {{{_STACKED}}}\n"
    f"{_PRINT.strip()}"
)

STYLE = (
    "<style>\n"
    f".rl-calc {{ {_values(LIGHT)} }}\n"
    f"{_DARK_SELECTOR} {{ {_values(DARK)} }}\n"
    f"{_RULES.strip()}\n"
    f"{_SCENARIOS.strip()}\n"
    f"{_LAYOUT}\n"
    "</style>"
)
"""The ``<style>`` the calculator's header carries (see the module's doc)."""

PRERENDER = """
.rl-calc.rl-prerender :is(.rl-step, .rl-chip, .rl-key-figures, .rl-key-action, .rl-share-copy,
  .widget-button,
  .rl-chart-tools button, .rl-fold-button) { cursor: progress; }
"""
"""The static calculator's own rules (:mod:`ruleslab_widgets.prerender`): its controls that
need Python say so under the pointer until the live view takes over; everything else is
the live view's CSS, so the two are laid out alike."""
