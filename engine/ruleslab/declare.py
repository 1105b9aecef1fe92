"""Declaring a calculator: a checked engine function plus what to show, as plain data.

A :class:`Calculator` names its rule function (declared with
:func:`ruleslab.checked`, so its inputs, ranges and defaults come from there),
its title and summary, the rules sections it applies, which inputs are rules
options or grouped by side, its extra panels and its "roll it" buttons. It
holds no rule logic: a chart's bars and the bar to highlight from are computed
by the result (a method returning a :class:`Chart`), the declaration only says
which method. Standard library only, like the whole engine: the widget layer
(``ruleslab_widgets``) renders any declaration without per-calculator code.

Each calculator is one module, ``ruleslab/calculators/<key>.py``, defining
``CALCULATOR``; :mod:`ruleslab.calculators` lists the keys in site order. A
small one::

    from ruleslab.calculators.dice_pool import PoolOdds, dice_pool
    from ruleslab.declare import Calculator, ChartView
    from ruleslab.sources import QR, rule

    Calculator(
        key="dice_pool",
        title="Dice pool",
        summary="Exact odds of a d10 pool …",
        compute=dice_pool,
        rules=(rule(QR, "2.0 Rules", "Specialties"),),
        views=(ChartView("Successes", "Successes", PoolOdds.chart),),
    )

(``tests/widgets/test_examples.py`` runs this example.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslab.explain import Chart, Explained, Figure
from ruleslab.params import Checked, ChoiceParam, Condition, Param
from ruleslab.sources import cite

__all__ = [
    "Calculator",
    "Chart",
    "ChartView",
    "Condition",
    "FieldGroup",
    "Headline",
    "HealthTrackView",
    "Roll",
    "View",
]


@dataclass(frozen=True)
class ChartView:
    """A bar chart panel under the figures: ``chart`` maps a result to its :class:`Chart`.

    ``chart`` is the result's own method (``PoolOdds.chart``), so which
    bars to draw and highlight is decided by the rule's code, not here.
    ``highlight`` says what the highlighted bars mean ("meets the
    difficulty"): the chart's legend, shown only while some bar is highlighted,
    so the title names only what is always drawn.
    """

    title: str
    x_label: str
    chart: Callable[[Any], Chart]
    highlight: str = ""


@dataclass(frozen=True)
class HealthTrackView:
    """A health track panel, for results with ``boxes()``, ``state`` and the
    figures ``state`` and ``wound_penalty`` (:class:`ruleslab.calculators.health.HealthReport`)."""

    title: str = "Health track"


View = ChartView | HealthTrackView
"""The kinds of extra panel a calculator can declare."""


@dataclass(frozen=True)
class Roll:
    """A "roll it" button: one seeded outcome of the current result, as lines to read out.

    ``run(result, seed)`` returns the roll's log (one readable line per die roll
    or step); the engine rolls with ``random.Random(seed)``, so the same seed and
    inputs always give the same log.
    """

    label: str
    run: Callable[[Any, int], Sequence[str]]
    help: str = "Rolls once with the current inputs; the same seed replays the same roll."


@dataclass(frozen=True)
class Headline:
    """The figures that answer the question a calculator's inputs ask, in the order a
    GM reads them: what the phone's key bar, the pre-rendered page and the top of the
    results show first.

    ``figures`` are figure keys of the result; ``when(values)`` (the inputs as
    parsed, one value per field) says whether the inputs ask this headline's
    question (``None``: always). A calculator declares its headlines in order,
    most specific first, and the first whose ``when`` holds is shown
    (:meth:`Calculator.headline`): an object to lift asks whether it can be
    lifted; no object, what the character carries. ``question`` says in words
    what the figures answer (for readers of the declaration and the tests).
    """

    figures: tuple[str, ...]
    when: Callable[[Mapping[str, Any]], bool] | None = None
    question: str = ""

    def __post_init__(self) -> None:
        if not self.figures or len(set(self.figures)) != len(self.figures):
            raise ValueError(f"a headline names its figures once each: {self.figures}")

    def asks(self, values: Mapping[str, Any]) -> bool:
        """Whether the inputs ``values`` ask this headline's question."""
        return self.when is None or bool(self.when(values))


@dataclass(frozen=True)
class FieldGroup:
    """A titled box of inputs (one side of a fight, the target …).

    Groups are laid out ``Calculator.columns`` to a row, so two sides of a
    fight sit next to each other (one above the other on a narrow screen).
    ``shown_when=("ruleset", "2.0")``: the whole group applies only under that
    condition, as a field's own ``shown_when`` (:class:`ruleslab.params.Param`).
    """

    title: str
    names: tuple[str, ...]
    shown_when: Condition | None = None

    @classmethod
    def prefixed(
        cls,
        title: str,
        prefix: str,
        params: Sequence[Param],
        shown_when: Condition | None = None,
    ) -> FieldGroup:
        """The group of every parameter whose name starts with ``prefix``."""
        names = tuple(p.name for p in params if p.name.startswith(prefix))
        return cls(title, names, shown_when)


@dataclass(frozen=True)
class Calculator:
    """One calculator of the site: a checked rule function and what to show of it.

    ``rules`` are the sections it applies, each written with
    :func:`ruleslab.sources.rule` (``rule(QR, "Lifting")``); ``options`` names
    parameters shown under "Rules options" (ruleset switches, readings of
    ambiguous text) rather than among the main inputs; ``example`` is Python a
    reader can run (the notebooks publish it, a test runs it).

    A field or group declared ``shown_when=(name, value)`` applies only while
    the choice field ``name`` holds ``value`` (:meth:`conditions`,
    :meth:`applies`): the form hides it otherwise, keeping its value, and a
    shared link leaves it out. A field deciding others is always shown.
    """

    key: str
    title: str
    summary: str
    compute: Checked[..., Explained]
    rules: tuple[str, ...]
    views: tuple[View, ...] = ()
    rolls: tuple[Roll, ...] = ()
    groups: tuple[FieldGroup, ...] = ()
    columns: int = 1
    options: tuple[str, ...] = ()
    example: str = ""
    headlines: tuple[Headline, ...] = ()

    def __post_init__(self) -> None:
        if not getattr(self.compute, "params", None):
            raise TypeError(
                f"{self.key}: the engine function must declare its inputs with @checked"
            )
        if not self.rules:
            raise ValueError(f"{self.key}: name the rules sections the calculator applies")
        names = {p.name for p in self.params}
        unknown = set(self.options) - names
        if unknown:
            raise ValueError(f"{self.key}: options name unknown parameters {sorted(unknown)}")
        grouped = [n for g in self.groups for n in g.names]
        unknown = set(grouped) - names
        if unknown or len(grouped) != len(set(grouped)):
            raise ValueError(f"{self.key}: groups name unknown or repeated parameters")
        if set(grouped) & set(self.options):
            raise ValueError(f"{self.key}: a parameter is both grouped and a rules option")
        self._check_conditions()
        if self.headlines and self.headlines[-1].when is not None:
            raise ValueError(f"{self.key}: the last headline is the one shown otherwise: no when")

    def headline_keys(self, values: Mapping[str, Any]) -> tuple[str, ...]:
        """The keys of the figures that answer the question ``values`` (the inputs,
        parsed) ask: the first declared :class:`Headline` whose ``when`` holds; with
        none declared, the first three figures' keys are not known here: ``()``."""
        for headline in self.headlines:
            if headline.asks(values):
                return headline.figures
        return ()

    def headline(self, values: Mapping[str, Any], result: Explained) -> tuple[Figure, ...]:
        """The figures of ``result`` that answer the question ``values`` ask, in the
        headline's order (:meth:`headline_keys`), less any the result does not have
        under these inputs (a figure of one ruleset only); with no headline declared,
        or none of its figures there, the result's first three figures."""
        by_key = {f.key: f for f in result.figures()}
        shown = tuple(by_key[key] for key in self.headline_keys(values) if key in by_key)
        return shown or result.figures()[:3]

    def _check_conditions(self) -> None:
        """Each ``shown_when`` names a choice field of this calculator, other than the
        fields it hides and always shown itself, and one of that field's values."""
        by_name = {p.name: p for p in self.params}
        deciding = set()
        for p in self.params:
            for field, value in self.conditions(p.name):
                where = f"{self.key}: {p.name} shown when {field} is {value!r}"
                control = by_name.get(field)
                if control is None:
                    raise ValueError(f"{where}: unknown field {field!r}")
                if field == p.name:
                    raise ValueError(f"{where}: a field cannot decide whether it shows itself")
                if not isinstance(control, ChoiceParam):
                    raise ValueError(f"{where}: {field} is not a choice field")
                if value not in {v for v, _ in control.choices}:
                    raise ValueError(f"{where}: {value!r} is not one of {field}'s values")
                deciding.add(field)
        for p in self.params:
            if p.implies is not None:
                field, value = p.implies
                control = by_name.get(field)
                if not isinstance(control, ChoiceParam) or value not in dict(control.choices):
                    raise ValueError(
                        f"{self.key}: {p.name} implies {field}={value!r}, not a choice of it"
                    )
        for field in deciding:
            if self.conditions(field):
                raise ValueError(f"{self.key}: {field} decides other fields: it is itself shown")

    def conditions(self, name: str) -> tuple[Condition, ...]:
        """The conditions under which field ``name`` applies: its own ``shown_when``,
        then its group's; ``()``: always."""
        param = next(p for p in self.params if p.name == name)
        found = [param.shown_when] if param.shown_when else []
        found += [g.shown_when for g in self.groups if g.shown_when and name in g.names]
        return tuple(found)

    def applies(self, name: str, values: Mapping[str, Any]) -> bool:
        """Whether field ``name`` applies when the fields hold ``values`` (the form's values,
        or a function's arguments: a choice field holds its value either way)."""
        return all(values.get(field) == value for field, value in self.conditions(name))

    def implied(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """``given`` (a link's, a scenario's or a caller's values by field name) with the
        choice each given override implies where the choice itself is not given: an
        entered natural soak reads as "entered", never as the record's (each field's
        :attr:`~ruleslab.params.Param.implies`; a checked call reads its arguments so too)."""
        out = dict(given)
        for p in self.params:
            if p.implies is not None and p.name in given:
                out.setdefault(p.implies[0], p.implies[1])
        return out

    def not_applying(self, values: Mapping[str, Any]) -> frozenset[str]:
        """The fields that do not apply when the fields hold ``values``."""
        return frozenset(p.name for p in self.params if not self.applies(p.name, values))

    @property
    def params(self) -> tuple[Param, ...]:
        """The inputs, in form order, as the function declares them (defaults included)."""
        return self.compute.params

    @property
    def citation(self) -> str:
        """The rules sections for a reader, each under its text's full title."""
        return "; ".join(cite(section) for section in self.rules)

    @property
    def notebook(self) -> str:
        """The notebook's file name: the key's."""
        return f"{self.key}.ipynb"

    @property
    def main_params(self) -> tuple[Param, ...]:
        """Inputs shown first: neither grouped nor a rules option."""
        grouped = {n for g in self.groups for n in g.names}
        return tuple(p for p in self.params if p.name not in self.options and p.name not in grouped)

    def group_params(self, group: FieldGroup) -> tuple[Param, ...]:
        by_name = {p.name: p for p in self.params}
        return tuple(by_name[n] for n in group.names)

    @property
    def option_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.name in self.options)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def run(self, parsed: Mapping[str, Any]) -> Explained:
        """Compute from values already parsed and checked by each ``Param.parse``.

        The form path: every value was parsed and checked once, field by field,
        so the function is called without checking them again. Raises
        :class:`~ruleslab.InputError` for a rule across fields.
        """
        return self.compute.unchecked(**parsed)

    def notebook_code(self) -> str:
        """The Python a notebook cell runs to show this calculator."""
        return f'from ruleslab_widgets import calculator\n\ncalculator("{self.key}")'
