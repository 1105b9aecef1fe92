"""The site's calculators: one module per calculator, named by its key, in site order.

``ruleslab/calculators/<key>.py`` defines ``CALCULATOR``, a
:class:`~ruleslab.declare.Calculator` whose ``key`` is the module's name, and
the checked function it computes with. This package only puts the keys in
order. The site's notebooks, landing page and app page are generated from it
(``tools/make_content.py``); ``ruleslab_widgets`` renders any of them.

:func:`get` imports only the module of the calculator asked for, so the app
page, which shows one calculator, does not import the others' modules;
``CALCULATORS`` imports them all on first use.

How the site finds its way around them is declared here once as well:
:data:`AREAS` groups the keys by game and by area (the landing page's sections)
and :data:`RELATED` names, for each key, the calculators a GM is likely to open
next (the links on its app page).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ruleslab.declare import Calculator

    CALCULATORS: tuple[Calculator, ...]

__all__ = ["AREAS", "CALCULATORS", "KEYS", "RELATED", "Area", "area_of", "get"]

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


class Area(NamedTuple):
    """One section of the landing page: a game's calculators on one subject."""

    game: str
    title: str
    keys: tuple[str, ...]


#: The landing page's sections, in order: by game, then by area. Every key is in
#: exactly one (``tests/engine/test_catalog.py``).
AREAS: tuple[Area, ...] = (
    Area("Aberrant", "Dice", ("dice_pool",)),
    Area("Aberrant", "Moving", ("lifting", "movement", "jumping", "falling")),
    Area("Aberrant", "Fighting", ("autofire", "defence", "compressed")),
    Area("Aberrant", "Health", ("damage", "health", "healing")),
    Area("Aberrant", "Groups and war", ("henchmen", "warfare")),
    Area("Chimera", "Fighting", ("chimera",)),
)

#: For each key, the calculators to open next, most likely first (falling → damage
#: → health …); only calculators of the same game.
RELATED: dict[str, tuple[str, ...]] = {
    "dice_pool": ("defence", "autofire", "lifting"),
    "lifting": ("movement", "jumping", "dice_pool"),
    "movement": ("lifting", "jumping", "falling"),
    "jumping": ("movement", "falling", "lifting"),
    "falling": ("damage", "health", "jumping"),
    "health": ("damage", "healing", "falling"),
    "damage": ("health", "healing", "autofire"),
    "autofire": ("damage", "defence", "henchmen"),
    "healing": ("health", "damage"),
    "defence": ("autofire", "damage", "compressed"),
    "compressed": ("defence", "henchmen", "warfare"),
    "henchmen": ("compressed", "warfare", "autofire"),
    "warfare": ("henchmen", "compressed"),
    "chimera": (),
}


def area_of(key: str) -> Area:
    """The landing page's section holding ``key`` (KeyError if none)."""
    for area in AREAS:
        if key in area.keys:
            return area
    raise KeyError(f"calculator {key!r} is in no area")


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
