"""Build a live calculator (form, validation, output, chart) from a declaration.

:class:`CalculatorView` is generic: it reads a :class:`~ruleslab.declare.Calculator`
and never knows which rule it shows. On every change it parses all fields with
their declared :class:`~ruleslab.Param` (each value parsed and checked once,
then handed to the calculator as is); a bad field gets its message next to
it (naming the allowed range) while the other inputs and the last good result
stay on screen. No traceback ever reaches the page: unexpected errors are shown
as a one-line message and kept in :attr:`CalculatorView.last_error`.

A roll log shows one roll of the result on screen; when a new result replaces
that one, the log is kept but marked stale (its pool is no longer the one
shown) and a message under a roll button ("Fix the highlighted fields …") is
cleared.
"""

from __future__ import annotations

import logging
import random
from html import escape as _esc
from typing import Any

import ipywidgets as w

from ruleslab import BoolParam, ChoiceParam, Explained, InputError, IntParam, Param, TextParam
from ruleslab.declare import Calculator, Roll
from ruleslab_widgets.panels import make_panel, update_panel
from ruleslab_widgets.render import (
    error_html,
    figures_html,
    roll_html,
    status_html,
    steps_html,
)

__all__ = ["CalculatorView"]

_log = logging.getLogger(__name__)

SEED = IntParam("seed", "Seed", minimum=0, maximum=2**32)
"""The roll seed box: read like any whole-number field (ASCII digits, bounded length)."""

_STYLE = """<style>
.rl-calc { font-family: system-ui, sans-serif; max-width: 1100px; }
.rl-calc h2 { margin: 0.2em 0; }
.rl-calc .rl-summary { color: #444; margin-bottom: 0.5em; }
.rl-calc .rl-error { color: #b00020; font-size: 0.9em; margin-left: 0.5em; }
.rl-calc .rl-help { color: #666; font-size: 0.85em; line-height: 1.3; margin: -2px 0 6px 0; }
.rl-calc .rl-status { padding: 0.3em 0.6em; border-radius: 4px; margin: 0.4em 0; }
.rl-calc .rl-status-warning { background: #fff4e5; color: #7a4b00; }
.rl-calc .rl-status-busy { background: #eef3fb; color: #1d3b6b; opacity: 0;
  animation: rl-show 0s linear 0.35s forwards; }
@keyframes rl-show { to { opacity: 1; } }
.rl-calc table.rl-figures { border-collapse: collapse; margin: 0.4em 0; }
.rl-calc table.rl-figures th { text-align: left; padding: 0.2em 1em 0.2em 0; font-weight: 500; }
.rl-calc table.rl-figures td { font-weight: 700; padding: 0.2em 0; }
.rl-calc .rl-step-rule { color: #666; font-style: italic; }
.rl-calc .widget-label { min-width: 14em; }
.rl-calc .rl-groups { grid-gap: 0 1.5em; max-width: 1100px; }
.rl-calc .rl-group h3 { margin: 0.6em 0 0.2em 0; }
.rl-calc .rl-groups .widget-label { min-width: 11em; }
.rl-calc .rl-roll-seed .widget-label { min-width: 0; }
.rl-calc .rl-roll-stale ol, .rl-calc .rl-roll-stale strong { opacity: 0.55; }
.rl-calc .rl-roll-note { color: #7a4b00; font-size: 0.9em; }
.rl-calc textarea { font-family: ui-monospace, monospace; font-size: 0.9em; }
</style>"""


def _initial_text(param: Param) -> str:
    value = param.default
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class CalculatorView(w.VBox):
    """A calculator's whole UI. ``result`` is the last good engine result."""

    def __init__(self, calc: Calculator, **kwargs: Any) -> None:
        self.calc = calc
        self.result: Explained | None = None
        self.last_error: str = ""
        self.inputs: dict[str, w.ValueWidget] = {}
        self.messages: dict[str, w.HTML] = {}
        compact = calc.columns > 1
        rows = [self._row(p) for p in calc.main_params]
        option_rows = [self._row(p) for p in calc.option_params]
        group_boxes = []
        for group in calc.groups:
            box = w.VBox(
                [w.HTML(f"<h3>{_esc(group.title)}</h3>")]
                + [self._row(p, compact=compact) for p in calc.group_params(group)]
            )
            box.add_class("rl-group")
            group_boxes.append(box)
        self.status = w.HTML("")
        self.output = w.HTML("")
        self.output.add_class("rl-output")
        self.working = w.HTML("")
        self.working.add_class("rl-working-panel")
        self.panels: list[w.Widget] = [make_panel(view) for view in calc.views]
        header = w.HTML(
            f'{_STYLE}<h2>{_esc(calc.title)}</h2><div class="rl-summary">{_esc(calc.summary)}</div>'
        )
        children: list[w.Widget] = [header, w.VBox(rows)]
        if group_boxes:
            grid = w.GridBox(
                group_boxes,
                layout=w.Layout(grid_template_columns=f"repeat({calc.columns}, minmax(0, 1fr))"),
            )
            grid.add_class("rl-groups")
            children.append(grid)
        if option_rows:
            opts = w.Accordion(children=[w.VBox(option_rows)], titles=("Rules options",))
            opts.add_class("rl-options")
            children.append(opts)
        self.roll_logs: list[w.HTML] = []
        # What each log (by id) shows: a current roll (to mark stale) or a message.
        self._current_rolls: dict[int, tuple[str, int, tuple[str, ...]]] = {}
        self._roll_messages: set[int] = set()
        roll_rows = [self._roll_row(spec) for spec in calc.rolls]
        children += [self.status, self.output, *roll_rows, *self.panels, self.working]
        super().__init__(children=children, **kwargs)
        self.add_class("rl-calc")
        self.add_class(f"rl-calc-{calc.key}")
        self.recompute()

    # -- form -------------------------------------------------------------
    def _row(self, param: Param, *, compact: bool = False) -> w.Widget:
        """One input with its message; its help below it (a tooltip only when compact)."""
        label = f"{param.label} ({param.unit})" if param.unit else param.label
        widget: w.ValueWidget
        if isinstance(param, BoolParam):
            widget = w.Checkbox(value=bool(param.default), description=label, indent=False)
        elif isinstance(param, TextParam) and param.multiline:
            widget = w.Textarea(
                value=param.default,
                description=label,
                continuous_update=False,
                placeholder=param.describe_range(),
                rows=max(3, param.default.count("\n") + 2),
            )
        elif isinstance(param, ChoiceParam):
            widget = w.Dropdown(
                options=[(text, value) for value, text in param.choices],
                value=param.default,
                description=label,
            )
        else:
            widget = w.Text(
                value=_initial_text(param),
                description=label,
                continuous_update=False,
                placeholder=param.describe_range(),
            )
        widget.style.description_width = "initial"
        multiline = isinstance(widget, w.Textarea)
        if isinstance(widget, w.Checkbox):
            widget.layout.width = "auto"
        else:
            widget.layout.width = "100%" if multiline or compact else "26em"
        if compact and not multiline:
            widget.layout.max_width = "24em"
        widget.add_class(f"rl-field-{param.name}")
        if param.help:
            widget.tooltip = param.help
        widget.observe(self._on_change, names="value")
        message = w.HTML("")
        message.add_class(f"rl-message-{param.name}")
        self.inputs[param.name] = widget
        self.messages[param.name] = message
        parts: list[w.Widget] = [widget, message]
        row = w.VBox([w.HBox(parts)])
        if param.help and not compact:
            row.children = (*row.children, w.HTML(f'<div class="rl-help">{_esc(param.help)}</div>'))
        return row

    def _roll_row(self, spec: Roll) -> w.Widget:
        button = w.Button(description=spec.label, tooltip=spec.help, icon="dice")
        button.add_class("rl-roll-button")
        seed = w.Text(value="", description="Seed", placeholder="blank: a new roll")
        seed.add_class("rl-roll-seed")
        seed.style.description_width = "initial"
        seed.layout.width = "16em"
        seed.layout.flex = "0 0 16em"
        log = w.HTML("")
        log.add_class("rl-roll-log")
        self.roll_logs.append(log)
        button.on_click(lambda _b: self.roll(spec, seed, log))
        return w.VBox([w.HBox([button, seed], layout=w.Layout(align_items="center")), log])

    def roll(self, spec: Roll, seed_box: w.Text, log: w.HTML) -> None:
        """Roll once with the last good result; show the log and the seed used."""
        if self.result is None or self.last_error:
            self._roll_message(log, "Fix the highlighted fields before rolling.")
            return
        seed: int
        if seed_box.value.strip():
            try:
                seed = SEED.parse(seed_box.value)
            except InputError as exc:
                self._roll_message(log, exc.message)
                return
        else:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        try:
            lines = tuple(spec.run(self.result, seed))
        except Exception as exc:  # never a traceback on the page
            _log.exception("roll for %s failed", self.calc.key)
            self._roll_message(log, f"The roll failed: {type(exc).__name__}: {exc}")
            return
        log.value = roll_html(spec.label, seed, lines)
        self._roll_messages.discard(id(log))
        self._current_rolls[id(log)] = (spec.label, seed, lines)

    def _roll_message(self, log: w.HTML, message: str) -> None:
        log.value = status_html(message, "warning")
        self._current_rolls.pop(id(log), None)
        self._roll_messages.add(id(log))

    def _new_result(self, changed: bool) -> None:
        """Roll logs after a good recompute: messages cleared; current rolls marked
        stale if the result ``changed`` (they show another pool than the one shown)."""
        for log in self.roll_logs:
            if id(log) in self._roll_messages:
                log.value = ""
                self._roll_messages.discard(id(log))
            elif changed and id(log) in self._current_rolls:
                label, seed, lines = self._current_rolls.pop(id(log))
                log.value = roll_html(label, seed, lines, stale=True)

    def _on_change(self, _change: dict[str, Any]) -> None:
        self.recompute()

    def set_input(self, name: str, value: Any) -> None:
        """Set a field as a user would (text for number fields); recomputes."""
        self.inputs[name].value = value

    # -- compute ----------------------------------------------------------
    def parse(self) -> tuple[dict[str, Any], dict[str, str]]:
        """Every field's parsed and checked value, and a message per bad field.

        This is the one parse and check of each value on its way to the rule:
        :meth:`~ruleslab.declare.Calculator.run` hands the values on as they are.
        """
        values: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for param in self.calc.params:
            raw = self.inputs[param.name].value
            try:
                parsed = param.parse(raw)
            except InputError as exc:
                errors[param.name] = exc.message
                continue
            values[param.name] = parsed
        return values, errors

    def recompute(self) -> None:
        values, errors = self.parse()
        result: Explained | None = None
        if not errors:
            # Shown at once but made visible by CSS only if computing lasts
            # over a third of a second: feedback on slow inputs, no flicker.
            self._show_status("Computing…", "busy")
            try:
                result = self.calc.run(values)
            except InputError as exc:  # a cross-field rule the engine checks
                errors[exc.field] = exc.message
            except Exception as exc:  # never a traceback on the page
                _log.exception("calculator %s failed", self.calc.key)
                self.last_error = f"{type(exc).__name__}: {exc}"
                self._show_status(
                    "Something went wrong computing this; the last good result is shown. "
                    f"({self.last_error})",
                    "warning",
                )
                return
        for name, message in self.messages.items():
            message.value = error_html(errors.get(name, ""))
        if errors:
            self.last_error = "; ".join(errors.values())
            keep = "the last good result is shown below." if self.result else "no result yet."
            n = len(errors)
            self._show_status(
                f"{n} field{'s' if n > 1 else ''} need{'s' if n == 1 else ''} fixing: {keep}",
                "warning",
            )
            return
        assert result is not None
        changed = self.result is not None and result != self.result
        self.last_error = ""
        self.result = result
        self._new_result(changed)
        self._show_status("")
        self.output.value = figures_html(result)
        self.working.value = steps_html(result)
        for view, panel in zip(self.calc.views, self.panels, strict=True):
            update_panel(view, panel, result)

    def _show_status(self, message: str, kind: str = "info") -> None:
        self.status.value = status_html(message, kind)
