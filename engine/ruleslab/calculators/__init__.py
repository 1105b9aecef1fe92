"""The site's calculators: one module per calculator, named by its key, in site order.

``ruleslab/calculators/<key>.py`` defines ``CALCULATOR``, a
:class:`~ruleslab.declare.Calculator` whose ``key`` is the module's name, and
the checked function it computes with. This package only puts the keys in
order. The site's notebooks, landing page and app page are generated from it
(``tools/make_content.py``); ``ruleslab_widgets`` renders any of them.

:func:`get` imports only the module of the calculator asked for, so the app
page, which shows one calculator, does not import the others' modules;
``CALCULATORS`` imports them all on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleslab.declare import Calculator

    CALCULATORS: tuple[Calculator, ...]

__all__ = ["CALCULATORS", "KEYS", "get"]

#: Every calculator's key, in site order; ``calculators/<key>.py`` declares it.
KEYS: tuple[str, ...] = (
    "dice_pool",
    "lifting",
    "movement",
    "jumping",
    "falling",
    "health",
    "damage",
    "autofire",
    "healing",
    "defence",
    "compressed",
    "henchmen",
    "warfare",
    "chimera",
)


def get(key: str) -> Calculator:
    """The calculator declared under ``key`` (KeyError lists the known keys)."""
    if key not in KEYS:
        raise KeyError(f"no calculator {key!r}; known: {', '.join(KEYS)}")
    calc: Calculator = import_module(f"ruleslab.calculators.{key}").CALCULATOR
    return calc


def __getattr__(name: str) -> Any:
    if name == "CALCULATORS":
        calculators = tuple(get(key) for key in KEYS)
        globals()[name] = calculators
        return calculators
    raise AttributeError(f"module 'ruleslab.calculators' has no attribute {name!r}")
