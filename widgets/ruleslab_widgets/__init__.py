"""ruleslab_widgets — the calculators: ipywidgets forms and anywidget views over the engine.

Thin by design: no rule logic lives here. A calculator is declared in
:mod:`ruleslab.calculators` (a checked engine function and what to show, as
data) and shown with::

    from ruleslab_widgets import calculator
    calculator("lifting")

The names below are imported on first use (PEP 562), not with the package:
the app page must install :mod:`ruleslab_widgets.ipython_standin` before
anything imports ipywidgets, and importing a submodule runs this file first.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleslab_widgets.view import CalculatorView

__all__ = ["CalculatorView", "calculator"]

_LAZY = {"CalculatorView": "ruleslab_widgets.view"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ruleslab_widgets' has no attribute {name!r}")


def calculator(key: str) -> CalculatorView:
    """A live calculator widget for the catalog entry ``key`` (e.g. "lifting", "dice_pool")."""
    from ruleslab.calculators import get
    from ruleslab_widgets.view import CalculatorView

    return CalculatorView(get(key))
