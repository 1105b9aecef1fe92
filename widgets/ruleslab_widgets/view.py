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

Links: :meth:`CalculatorView.share_query` writes the inputs that differ from
their defaults as a URL query (``calculator=lifting&strength=5&object_kg=450``),
exactly as typed; :meth:`CalculatorView.apply_query` reads one back through
the form's own path (:meth:`CalculatorView.set_input`), so a bad value in a
link gets that field's usual message. A value a choice or a checkbox cannot
hold, a field the calculator does not have, or a field given twice is named
in the status line; the field keeps its default. The "Copy link" control
(:class:`~ruleslab_widgets.share.ShareLink`) shows the link and copies it.

Fields that do not apply (declared ``shown_when``, e.g. the 2.1 target's inputs
under 2.0: :meth:`ruleslab.declare.Calculator.applies`) are hidden, their
values kept for when they apply again, and a link leaves them out; a field
that holds a bad value stays shown with its message until it is fixed, so the
GM is never told to fix a field they cannot see.

Scenarios (issue 22): "Compare scenarios" holds up to four versions of the
inputs side by side (:class:`~ruleslab_widgets.scenarios.Scenarios`, most of
the code): the form edits the selected one, :meth:`CalculatorView._run` computes
them all with :func:`ruleslab.whatif.compare`, :meth:`CalculatorView._show_scenarios`
draws the columns and the charts, and a link carries them all.

Number fields are :class:`~ruleslab_widgets.number.NumberField`: text as
typed, with "−"/"+" buttons and the Up/Down keys stepping through the
declaration. The look (light and dark, any width): :mod:`ruleslab_widgets.style`.
"""

from __future__ import annotations

import difflib
import logging
import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html import escape as _esc
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

import ipywidgets as w

from ruleslab import (
    BoolParam,
    ChoiceParam,
    Explained,
    Figure,
    InputError,
    IntParam,
    NumberParam,
    Param,
    TextParam,
)
from ruleslab.declare import Calculator, FieldGroup, Roll
from ruleslab_widgets.fold import FoldHeading, FoldRegion, Summary
from ruleslab_widgets.groups import form_groups
from ruleslab_widgets.notes import linkify
from ruleslab_widgets.number import NumberField
from ruleslab_widgets.panels import make_panel, update_panel
from ruleslab_widgets.party import PartyBar
from ruleslab_widgets.render import (
    error_html,
    figures_html,
    roll_html,
    status_html,
    steps_html,
)
from ruleslab_widgets.scenarios import Scenarios
from ruleslab_widgets.share import ShareLink, calculator_page
from ruleslab_widgets.shared_styles import set_shown, shared_defaults
from ruleslab_widgets.style import STYLE
from ruleslab_widgets.sweep_panel import SweepPanel

__all__ = ["PAGE_PARAMETERS", "CalculatorView"]

_log = logging.getLogger(__name__)

SEED = IntParam("seed", "Seed", minimum=0, maximum=2**32)
"""The roll seed box: read like any whole-number field (ASCII digits, bounded length)."""

PAGE_PARAMETERS = frozenset({"calculator", "theme", "embed", "party"})
"""Query names the app page itself reads (which calculator, its look, the id of the
embed it is in: ``embed.js``, whether that embed may use the GM's party): never a field."""

_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})
_LINK_SAFE = ",:/@"
"""Characters a link keeps as they are (besides letters, digits and ``-._~``)."""


def _short(name: str, limit: int = 40) -> str:
    """A name from a link, for a message: at most ``limit`` characters."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _initial_text(param: Param) -> str:
    value = param.default
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _help_text(param: Param) -> str:
    """A field's help: its declared help, then, for a number with decimals, how the
    field reads commas, points and exponents (:meth:`ruleslab.NumberParam.notation`)."""
    if isinstance(param, NumberParam):
        return " ".join(filter(None, [param.help, param.notation()]))
    return param.help


def _help_html(param: Param) -> str:
    """A field's help text as HTML (escaped): the one place it is rendered, so that
    references in it can be turned into links in one place: a rules note cited
    (``RN-FALL-1``) links to it (:func:`~ruleslab_widgets.notes.linkify`)."""
    return linkify(_help_text(param))


class CalculatorView(w.VBox):
    """A calculator's whole UI. ``result`` is the last good engine result."""

    def __init__(self, calc: Calculator, **kwargs: Any) -> None:
        # (the widgets made here share their default layout and styles:
        # ruleslab_widgets.shared_styles)
        with shared_defaults():
            self._build(calc, **kwargs)

    def _build(self, calc: Calculator, **kwargs: Any) -> None:
        self.calc = calc
        self.result: Explained | None = None
        # the parsed inputs ``result`` was computed from (they choose its headline)
        self.result_values: dict[str, Any] = {}
        self.last_error: str = ""
        self.inputs: dict[str, w.DOMWidget] = {}
        self.messages: dict[str, w.HTML] = {}
        # links: values as first shown (the defaults), what a link could not set
        self._initial: dict[str, Any] = {}
        self._names: dict[int, str] = {}
        self._link_errors: dict[str, str] = {}
        self._link_notes: list[str] = []
        self._applying = False
        self._rows: dict[str, w.Widget] = {}
        self._group_boxes: list[tuple[FieldGroup, w.Widget]] = []
        self.folds: dict[str, FoldHeading] = {}
        compact = calc.columns > 1
        groups = form_groups(calc)
        grouped = {n for g in groups for n in g.names}
        rows = [self._row(p) for p in calc.params if p.name not in grouped | set(calc.options)]
        form: list[w.Widget] = [w.VBox(rows)]
        group_boxes = [
            self._group_box(group, compact=compact and bool(calc.groups)) for group in groups
        ]
        if group_boxes and compact and calc.groups:
            grid = w.GridBox(
                group_boxes,
                layout=w.Layout(grid_template_columns=f"repeat({calc.columns}, minmax(0, 1fr))"),
            )
            grid.add_class("rl-groups")
            form.append(grid)
        else:
            form += group_boxes
        self.options_box: FoldHeading | None = None
        if calc.option_params:
            opts = self._fold_box(
                "Rules options", [self._row(p) for p in calc.option_params], expanded=False
            )
            opts.add_class("rl-options")
            opts.children[0].add_class("rl-options-heading")
            form.append(opts)
            self.options_box = self.folds["Rules options"]
        self.status = w.HTML("")
        # what a link (or an embed's attributes) could not set: at the top, above the form
        self.link_status = w.HTML("")
        self.link_status.add_class("rl-link-status")
        self.output = w.HTML("")
        self.output.add_class("rl-output")
        self.working = w.HTML("")
        self.working.add_class("rl-working-panel")
        self.panels: list[w.Widget] = [make_panel(view) for view in calc.views]
        for panel in self.panels:
            panel.add_class("rl-panel")
        header = w.HTML(
            f'{STYLE}<h2 class="rl-title">{_esc(calc.title)}</h2>'
            f'<div class="rl-summary">{_esc(calc.summary)}</div>'
        )
        self.share = ShareLink(page=calculator_page(calc.key))
        self.share.add_class("rl-share-control")
        # the party: fill a role from a saved character (ruleslab_widgets.party)
        self.party = PartyBar(self)
        # scenarios side by side (ruleslab_widgets.scenarios): the form edits one of them
        self.scenarios = Scenarios(self)
        # the result's line in view: in the results column (wide) and, on a narrow
        # calculator, a bar that sticks to the top while the form scrolls
        self.summary = Summary()
        self.summary.add_class("rl-results-summary")
        self.keybar = Summary(actions=[spec.label for spec in calc.rolls])
        self.keybar.add_class("rl-keybar")
        self.roll_logs: list[w.HTML] = []
        # What each log (by id) shows: a current roll (to mark stale) or a message.
        self._current_rolls: dict[int, tuple[str, int, tuple[str, ...]]] = {}
        self._roll_messages: set[int] = set()
        roll_rows = [self._roll_row(spec) for spec in calc.rolls]
        party = [self.party] if self.party.roles else []  # (above the form it fills)
        self.form = w.VBox([*party, *form])
        self.form.add_class("rl-form")
        # "Across a range" (ruleslab_widgets.sweep_panel): a line per scenario compared
        self.sweep_panel = SweepPanel(self, scenarios=self.scenarios.swept)
        self.results = w.VBox(
            [
                self.summary,
                self.status,
                self.output,
                *self.panels,
                self.sweep_panel,
                self.working,
                *roll_rows,
            ]
        )
        self.results.add_class("rl-results")
        body = w.Box([self.form, self.results])
        body.add_class("rl-body")
        children: list[w.Widget] = [
            header,
            self.share,
            self.link_status,
            self.keybar,
            self.scenarios.bar,
            body,
        ]
        super().__init__(children=children, **kwargs)
        self.add_class("rl-calc")
        self.add_class(f"rl-calc-{calc.key}")
        self.recompute()

    def _fold_box(self, title: str, rows: list[w.Widget], *, expanded: bool = True) -> w.VBox:
        """A heading with a disclosure button (:class:`FoldHeading`) over ``rows``."""
        region_class = f"rl-fold-region-{len(self.folds)}"
        heading = FoldHeading(title=title, expanded=expanded, region=region_class)
        region = FoldRegion(rows, open_=expanded)
        region.add_class(region_class)
        heading.observe(lambda change: region.show(bool(change["new"])), names="expanded")
        self.folds[title] = heading
        return w.VBox([heading, region])

    def _group_box(self, group: FieldGroup, *, compact: bool) -> w.Widget:
        box = self._fold_box(
            group.title, [self._row(p, compact=compact) for p in self.calc.group_params(group)]
        )
        box.add_class("rl-group")
        self._group_boxes.append((group, box))
        return box

    # -- form -------------------------------------------------------------
    def _row(self, param: Param, *, compact: bool = False) -> w.Widget:
        """One input with its message; its help below it (when ``compact``, shown while the
        field has the focus, a tap on it included; on hover, its tooltip)."""
        label = f"{param.label} ({param.unit})" if param.unit else param.label
        # made with their own layout and style (not the view's shared defaults:
        # ruleslab_widgets.shared_styles): every box as wide, labels of one width, so
        # steppers align row to row; a checkbox as wide as its label
        checkbox = isinstance(param, BoolParam)
        multiline = isinstance(param, TextParam) and param.multiline
        layout = w.Layout(
            width="auto" if checkbox else "100%",
            max_width=None if checkbox or multiline else "34em",
        )
        initial = {"description_width": "initial"}
        widget: w.DOMWidget
        if checkbox:
            widget = w.Checkbox(
                value=bool(param.default),
                description=label,
                indent=False,
                layout=layout,
                style=initial,
            )
        elif multiline:
            widget = w.Textarea(
                value=param.default,
                description=label,
                continuous_update=False,
                placeholder=param.describe_range(),
                rows=max(3, param.default.count("\n") + 2),
                layout=layout,
                style=initial,
            )
        elif isinstance(param, ChoiceParam):
            widget = w.Dropdown(
                options=[(text, value) for value, text in param.choices],
                value=param.default,
                description=label,
                layout=layout,
                style=initial,
            )
        elif isinstance(param, IntParam | NumberParam):
            widget = NumberField(
                param,
                value=_initial_text(param),
                description=label,
                placeholder=param.describe_range(),
                layout=layout,
            )
        else:
            widget = w.Text(
                value=_initial_text(param),
                description=label,
                continuous_update=False,
                placeholder=param.describe_range(),
                layout=layout,
                style=initial,
            )
        widget.add_class(f"rl-field-{param.name}")
        help_text = _help_text(param)
        if help_text:
            widget.tooltip = help_text  # (hover; the help line below: focus and tap)
        widget.observe(self._on_change, names="value")
        message = w.HTML("")
        message.add_class(f"rl-message-{param.name}")
        self.inputs[param.name] = widget
        self.messages[param.name] = message
        self._initial[param.name] = widget.value
        self._names[id(widget)] = param.name
        line = w.HBox([widget, message])
        line.add_class("rl-row")
        row = w.VBox([line])
        row.add_class("rl-field-row")
        if help_text:
            help_line = w.HTML(f'<div class="rl-help">{_help_html(param)}</div>')
            if compact:  # shown while the field has the focus (no shift under a pointer)
                help_line.add_class("rl-help-compact")
            row.children = (*row.children, help_line)
        self._rows[param.name] = row
        return row

    def _roll_row(self, spec: Roll) -> w.Widget:
        button = w.Button(description=spec.label, tooltip=spec.help, icon="dice")
        button.add_class("rl-roll-button")
        seed = w.Text(
            value="",
            description="Seed",
            placeholder="blank: a new roll",
            layout=w.Layout(width="16em", flex="0 0 16em"),
            style={"description_width": "initial"},
        )
        seed.add_class("rl-roll-seed")
        log = w.HTML("")
        log.add_class("rl-roll-log")
        self.roll_logs.append(log)
        button.on_click(lambda _b: self.roll(spec, seed, log))
        line = w.HBox([button, seed], layout=w.Layout(align_items="center"))
        line.add_class("rl-roll-row")
        return w.VBox([line, log])

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

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._applying:  # a link's values: one recompute once all are set
            return
        # the GM takes over: what the link could not set is no longer news
        self._link_notes.clear()
        self._link_errors.pop(self._names.get(id(change["owner"]), ""), None)
        self.party.field_changed(self._names.get(id(change["owner"]), ""))  # marks "edited"
        self.recompute()

    def set_input(self, name: str, value: Any) -> None:
        """Set a field as a user would (text for number fields); recomputes."""
        self.inputs[name].value = value

    # -- fields that apply ---------------------------------------------------
    def hidden_fields(self) -> frozenset[str]:
        """The fields hidden now: those that do not apply under the other fields'
        values (declared ``shown_when``), unless they hold a bad value (then shown,
        with its message, for the GM to fix)."""
        raw = {name: widget.value for name, widget in self.inputs.items()}
        return frozenset(
            name
            for name in self.calc.not_applying(raw)
            if not self.messages[name].value and name not in self._link_errors
        )

    def _show_fields(self) -> None:
        """Hide the fields (and whole groups) that do not apply; show the others."""
        hidden = self.hidden_fields()
        for name, row in self._rows.items():
            set_shown(row, name not in hidden)
        for group, box in self._group_boxes:
            set_shown(box, not set(group.names) <= hidden)

    # -- links --------------------------------------------------------------
    def share_query(self) -> str:
        """The link's query: ``calculator=<key>``, then each field shown whose value
        differs from its default, as typed (a checkbox as ``yes``/``no``), URL-encoded.
        A hidden field (:meth:`hidden_fields`) is left out: it does not apply.
        While scenarios are compared, the engine's link of them all (A as above, then
        ``scenarios=N&s2.<field>=…``: :meth:`Scenarios.query`)."""
        scenarios = self.scenarios.query()
        if scenarios is not None:
            return scenarios
        pairs = [("calculator", self.calc.key)]
        hidden = self.hidden_fields()
        for param in self.calc.params:
            raw = self.inputs[param.name].value
            if raw == self._initial[param.name] or param.name in hidden:
                continue
            text = ("yes" if raw else "no") if isinstance(raw, bool) else str(raw)
            pairs.append((param.name, text))
        # an override written without its choice reads as entered: a shown bad value
        # under "record" says "record" too (Calculator.implied)
        written = dict(pairs)
        for name, value in self.calc.implied(written).items():
            if name not in written and self.inputs[name].value != value:
                pairs.append((name, str(self.inputs[name].value)))
        return urlencode(pairs, quote_via=quote, safe=_LINK_SAFE)

    def apply_query(self, query: str | Iterable[tuple[str, str]]) -> None:
        """Set the fields a link names (``query``: a URL query, with or without its
        ``?``, or its decoded pairs), each as the form would, then recompute once.

        A number or text field takes the link's text as typed (a bad one gets the
        field's usual message); a choice or checkbox takes a value it can hold, or
        keeps its default and shows the field's message. Unknown and repeated names
        are reported in the status line. :data:`PAGE_PARAMETERS` are skipped; ``sweep.*``
        go to the sweep panel (:meth:`~ruleslab_widgets.sweep_panel.SweepPanel.apply_link`).
        A link with ``scenarios=N`` restores every scenario (:meth:`Scenarios.apply`);
        decoded pairs (a party character's values) set the scenario the form shows.
        """
        if isinstance(query, str):
            pairs = parse_qsl(query.removeprefix("?"), keep_blank_values=True)
        else:
            pairs = list(query)
        sweep_pairs = [(n, t) for n, t in pairs if n.startswith("sweep.")]  # the sweep panel's
        if isinstance(query, str) and self.scenarios.apply(query):
            if sweep_pairs:
                self.sweep_panel.apply_link(urlencode(sweep_pairs, quote_via=quote))
            return
        values: dict[str, str] = {}
        unknown: dict[str, None] = {}  # ordered sets: a link of many names stays linear
        repeated: dict[str, None] = {}
        for name, text in pairs:
            if name in PAGE_PARAMETERS or name.startswith("sweep."):
                continue
            if name not in self.inputs:
                unknown[name] = None
                continue
            if name in values:
                repeated[name] = None
            values[name] = text
        notes: list[str] = self.scenarios.take_link_error()
        if unknown:
            # an embed's inputs are its data-* attributes (app/embed.js adds ``embed=``)
            embedded = any(name == "embed" for name, _text in pairs)
            prefix = "data-" if embedded else ""
            shown = ", ".join(f"“{prefix}{_short(n)}”" for n in list(unknown)[:3])
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            fields = ", ".join(prefix + p.name for p in self.calc.params)
            what = "This embed's attributes name" if embedded else "This link names"
            guesses = [self._guess(n) for n in list(unknown)[:3]]
            meant = ", ".join(
                f"{prefix}{p.name} ({p.label})" for p in dict.fromkeys(filter(None, guesses))
            )
            notes.append(
                f"{what} {shown}{more}, which "
                f"{'is not a field' if len(unknown) == 1 else 'are not fields'} "
                f"of this calculator: ignored."
                + (f" Did you mean {meant}?" if meant else "")
                + f" ({'Its attributes' if embedded else 'Its fields'}: {fields}.)"
            )
        self._link_errors = {}
        self._applying = True
        try:  # (an override without its choice, an older link's soak: entered)
            for name, text in self.calc.implied(values).items():
                self._set_from_link(name, text)
        finally:
            self._applying = False
        for name in repeated:
            notes.append(f"This link gives {self._label(name)} more than once: the last is used.")
        self._link_notes = notes
        self.recompute()
        # a rules option the link got wrong is shown, not left in a closed section
        options = {p.name for p in self.calc.option_params}
        flagged = set(self._link_errors) | set(self.parse()[1])
        if self.options_box is not None and flagged & options:
            self.options_box.expanded = True
        if sweep_pairs:
            self.sweep_panel.apply_link(urlencode(sweep_pairs, quote_via=quote))

    def _guess(self, name: str) -> Param | None:
        """The field a link's unknown ``name`` most likely meant: one whose label names it
        ("firearms": "Attack ability (Firearms …)") or whose name is spelt close to it."""
        word = _short(name).lower().replace("_", " ").strip()
        if len(word) >= 3:
            for param in self.calc.params:
                if word in param.label.lower() or word in param.name.replace("_", " "):
                    return param
        close = difflib.get_close_matches(_short(name), [p.name for p in self.calc.params], 1)
        return next((p for p in self.calc.params if close and p.name == close[0]), None)

    def _label(self, name: str) -> str:
        return next(p.label for p in self.calc.params if p.name == name)

    def _set_from_link(self, name: str, text: str) -> None:
        """One field from a link's text (see :meth:`apply_query`)."""
        param = next(p for p in self.calc.params if p.name == name)
        widget = self.inputs[name]
        if isinstance(widget, w.Checkbox):
            word = text.strip().lower()
            if word in _TRUE or word in _FALSE:
                self.set_input(name, word in _TRUE)
                return
        elif isinstance(widget, w.Dropdown):
            if text in {value for value, _label in getattr(param, "choices", ())}:
                self.set_input(name, text)
                return
        else:  # text as typed: the form reads it and gives any message
            self.set_input(name, text)
            return
        try:  # the field's own message for this text
            param.parse(text)
        except InputError as exc:
            self._link_errors[name] = exc.message
        else:  # (a value the form's parser takes but its widget cannot hold)
            self._link_errors[name] = f"{param.label}: {text!r} is not one of its values."

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
            except Exception as exc:  # (any other error: the field's, said, never stale)
                _log.exception("field %s of %s could not be read", param.name, self.calc.key)
                errors[param.name] = f"{param.label} could not be read ({type(exc).__name__})."
                continue
            values[param.name] = parsed
        return values, errors

    @contextmanager
    def _sharing(self) -> Iterator[None]:
        """Whatever :meth:`recompute` shows, the link follows the inputs."""
        try:
            yield
        finally:
            self.share.query = self.share_query()

    def recompute(self) -> None:
        with self._sharing():
            try:
                self._recompute()
            finally:
                self._show_fields()
                self._show_summary()
                self.sweep_panel.follow()
                self._show_scenarios()
                self._show_panels()

    def _run(self, values: dict[str, Any]) -> Explained:
        """The form's parsed values computed: by the calculator, or, while scenarios are
        compared, with the other scenarios (:meth:`Scenarios.compute`)."""
        if self.scenarios.comparing:
            return self.scenarios.compute(values)
        return self.calc.run(values)

    def _show_scenarios(self) -> None:
        """The scenarios side by side in the results column and the charts, or, with one
        scenario, its figures and single-series charts."""
        if self.scenarios.comparing:
            self.scenarios.show()
            return
        self.scenarios.clear_charts()
        if self.result is not None and "rl-sc-result" in self.output.value:
            self.output.value = figures_html(self.result, self.headline_keys())

    def _show_panels(self) -> None:
        """A chart with nothing to chart for these inputs (henchmen removed when the
        target is a character) is not drawn: it would only say so and take room."""
        for panel in self.panels:
            if hasattr(panel, "bars"):
                series = getattr(panel, "series", [])
                set_shown(panel, bool(panel.bars) or any(s.get("bars") for s in series))

    # -- the result's line in view -------------------------------------------
    def stale_fields(self) -> list[str]:
        """The labels of the fields the result shown does not follow: each holding a
        bad value, or a value from a link the field could not take."""
        return [
            self._label(name)
            for name in self.inputs
            if self.messages[name].value or name in self._link_errors
        ]

    def option_chips(self) -> list[list[Any]]:
        """``[name, text, changed]``: the ruleset, then each other rules option whose
        value is not its default, as the form shows it ("Rules options: the defaults"
        when there is neither, the chip opening the first option)."""
        chips: list[list[Any]] = []
        for param in self.calc.option_params:
            raw = self.inputs[param.name].value
            changed = raw != self._initial[param.name]
            if param.name != "ruleset" and not changed:
                continue
            if isinstance(param, ChoiceParam):
                shown = dict(param.choices).get(str(raw), str(raw))
                text = shown if param.name == "ruleset" else f"{param.label}: {shown}"
            elif isinstance(raw, bool):
                text = f"{param.label}: {'yes' if raw else 'no'}"
            else:
                text = f"{param.label}: {_short(str(raw))}"
            chips.append([param.name, text, changed])
        if not chips and self.calc.option_params:
            chips.append([self.calc.option_params[0].name, "Rules options: the defaults", False])
        return chips

    def _show_summary(self) -> None:
        """The chips, the first key figures and the stale mark, in both summaries; the
        results column marked ``rl-stale`` (drawn faded) while it does not follow the
        inputs."""
        stale = self.stale_fields()
        note = ""
        if stale:
            more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
            note = f"Not current: fix {', '.join(stale[:3])}{more}."
        elif self.last_error:
            note = "Not current: this could not be computed (see the message)."
        if note:
            self.results.add_class("rl-stale")
        else:
            self.results.remove_class("rl-stale")
        figures = [[f.label, f.text] for f in self.headline()]
        scenario = ""
        if self.scenarios.comparing and figures:
            scenario = f"Scenario {self.scenarios.legends[self.scenarios.selected]}"
        chips = self.option_chips()
        for summary in (self.summary, self.keybar):
            summary.stale = note
            summary.figures = figures
            summary.chips = chips
            summary.scenario = scenario

    def headline(self) -> tuple[Figure, ...]:
        """The figures of the result shown that answer the question its inputs ask (the
        calculator's declared headline: :meth:`~ruleslab.declare.Calculator.headline`)."""
        if self.result is None:
            return ()
        return self.calc.headline(self.result_values, self.result)

    def headline_keys(self) -> tuple[str, ...]:
        """The keys of :meth:`headline`'s figures."""
        return tuple(f.key for f in self.headline())

    def _recompute(self) -> None:
        values, errors = self.parse()
        result: Explained | None = None
        if not errors:
            # Shown at once but made visible by CSS only if computing lasts
            # over a third of a second: feedback on slow inputs, no flicker.
            self._show_status("Computing…", "busy")
            try:
                result = self._run(values)
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
            message.value = error_html(errors.get(name) or self._link_errors.get(name, ""))
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
        self.result_values = values
        self._new_result(changed)
        self._show_status("")
        self.output.value = figures_html(result, self.headline_keys())
        self.working.value = steps_html(result)
        for view, panel in zip(self.calc.views, self.panels, strict=True):
            update_panel(view, panel, result)

    def _show_status(self, message: str, kind: str = "info") -> None:
        # what a link could not set stays said, at the top (link_status): its unknown and
        # repeated names until the GM changes a field, a value a field could not hold
        # until that field changes
        if kind != "busy":
            link = self._link_notes + [
                f"This link's value for {self._label(name)} could not be used "
                "(see its message): its default is shown."
                for name in self._link_errors
            ]
            self.link_status.value = status_html(" ".join(link), "warning")
        notes = self.scenarios.status_notes()
        if kind != "busy" and notes:
            message = " ".join(filter(None, [message, *notes]))
            kind = "warning"
        self.status.value = status_html(message, kind)
