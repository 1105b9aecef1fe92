"""ruleslab_widgets — the calculators: ipywidgets forms and anywidget views over the engine.

Thin by design: no rule logic lives here. A calculator is declared in
:mod:`ruleslab_widgets.catalog` (engine function + presentation) and shown with::

    from ruleslab_widgets import calculator
    calculator("lifting")
"""

from __future__ import annotations

from ruleslab_widgets.catalog import CALCULATORS, get
from ruleslab_widgets.declare import Calculator, ChartSpec, ResultView
from ruleslab_widgets.view import CalculatorView

__all__ = [
    "CALCULATORS",
    "Calculator",
    "CalculatorView",
    "ChartSpec",
    "ResultView",
    "calculator",
]


def calculator(key: str) -> CalculatorView:
    """A live calculator widget for the catalog entry ``key`` (e.g. "lifting", "dice_pool")."""
    return CalculatorView(get(key))
