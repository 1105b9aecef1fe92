"""Declaring a calculator: an engine function plus how to present it.

A :class:`Calculator` is pure data. Its inputs come from the engine function's
declared parameters (``fn.params``, see :func:`ruleslab.checked`), so adding a
calculator costs a few lines::

    from ruleslab import dice
    from ruleslab_widgets.declare import Calculator, ChartSpec

    Calculator(
        key="dice_pool",
        title="Dice pool",
        summary="Exact odds of a d10 pool …",
        compute=dice.dice_pool,
        rules="Aberrant 2.0/2.1 quick reference › the d10 pool",
        views=(ChartSpec(title="Successes", x_label="Successes", bars=lambda r: r.chart()),),
    )

(``tests/widgets/test_examples.py`` runs this example.)

The widget layer (:mod:`ruleslab_widgets.view`) builds the form, validation
messages and output panel from this declaration alone. ``views`` are extra
panels under the figures (charts, health tracks): any object with ``make()``
returning a widget and ``update(widget, result)`` (the :class:`ResultView`
protocol); :class:`ChartSpec` is the bar chart one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import ipywidgets

from ruleslab import Explained, Param

__all__ = ["Calculator", "ChartSpec", "FieldGroup", "ResultView", "RollSpec"]


class ResultView(Protocol):
    """An extra panel of a calculator, redrawn from each new result."""

    def make(self) -> ipywidgets.Widget:
        """Create the panel's widget (called once per calculator view)."""
        ...

    def update(self, widget: Any, result: Any) -> None:
        """Show ``result`` in the widget made by :meth:`make`."""
        ...


@dataclass(frozen=True)
class ChartSpec:
    """How to draw a result as a bar chart (an anywidget view).

    ``bars`` maps a result to ``((label, probability), ...)``; ``highlight_from``
    optionally maps it to the index of the first bar to highlight (e.g. the
    bars that meet the difficulty).
    """

    title: str
    x_label: str
    bars: Callable[[Any], tuple[tuple[str, float], ...]]
    highlight_from: Callable[[Any], int | None] = lambda result: None

    def make(self) -> ipywidgets.Widget:
        from ruleslab_widgets.chart import BarChart

        return BarChart(title=self.title, x_label=self.x_label)

    def update(self, widget: Any, result: Any) -> None:
        widget.bars = [(str(label), float(p)) for label, p in self.bars(result)]
        widget.highlight_from = self.highlight_from(result)


@dataclass(frozen=True)
class RollSpec:
    """A "roll it" button: one seeded outcome of the current result, as lines to read out.

    ``run(result, seed)`` returns the roll's log (one readable line per die roll
    or step); the engine rolls with ``random.Random(seed)``, so the same seed and
    inputs always give the same log. The view shows the seed used; typing it
    back replays the roll.
    """

    label: str
    run: Callable[[Any, int], Sequence[str]]
    help: str = "Rolls once with the current inputs; the same seed replays the same roll."


@dataclass(frozen=True)
class FieldGroup:
    """A titled box of inputs (one side of a fight, the target …).

    Groups are laid out ``Calculator.columns`` to a row, so two sides of a
    fight sit next to each other.
    """

    title: str
    names: tuple[str, ...]

    @classmethod
    def prefixed(cls, title: str, prefix: str, params: Sequence[Param]) -> FieldGroup:
        """The group of every parameter whose name starts with ``prefix``."""
        return cls(title, tuple(p.name for p in params if p.name.startswith(prefix)))


@dataclass(frozen=True)
class Calculator:
    """One calculator of the site: an engine function and its presentation.

    ``options`` names parameters shown under "Rules options" (ruleset switches,
    readings of ambiguous text) rather than among the main inputs.
    ``notebook`` is the file name the site serves it as; ``rules`` is the
    rules-text section a GM can read for context.
    """

    key: str
    title: str
    summary: str
    compute: Callable[..., Explained]
    rules: str
    views: tuple[ResultView, ...] = ()
    rolls: tuple[RollSpec, ...] = ()
    groups: tuple[FieldGroup, ...] = ()
    columns: int = 1
    options: tuple[str, ...] = ()
    example: str = ""
    params: tuple[Param, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.params:
            declared = getattr(self.compute, "params", None)
            if not declared:
                raise TypeError(
                    f"{self.key}: the engine function must declare its inputs with @checked"
                )
            object.__setattr__(self, "params", tuple(declared))
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

    def notebook_code(self) -> str:
        """The Python a notebook cell runs to show this calculator."""
        return f'from ruleslab_widgets import calculator\n\ncalculator("{self.key}")'
