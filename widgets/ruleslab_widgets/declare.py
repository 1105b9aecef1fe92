"""Declaring a calculator: an engine function plus how to present it.

A :class:`Calculator` is pure data. Its inputs come from the engine function's
declared parameters (``fn.params``, see :func:`ruleslab.checked`), so adding a
calculator costs a few lines::

    Calculator(
        key="dice_pool",
        title="Dice pool",
        summary="Exact odds of a d10 pool …",
        compute=ruleslab.dice.dice_pool,
        chart=ChartSpec(title="Successes", bars=lambda r: r.chart(), highlight_from=…),
    )

The widget layer (:mod:`ruleslab_widgets.view`) builds the form, validation
messages, output panel and chart from this declaration alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ruleslab import Explained, Param

__all__ = ["Calculator", "ChartSpec"]


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
    y_label: str = "Probability"


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
    chart: ChartSpec | None = None
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

    @property
    def notebook(self) -> str:
        return f"{self.key.replace('_', '-')}.ipynb"

    @property
    def main_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.name not in self.options)

    @property
    def option_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.name in self.options)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def app_code(self) -> str:
        """The Python a REPL app link runs to show this calculator alone."""
        return f'from ruleslab_widgets import calculator\ncalculator("{self.key}")'
