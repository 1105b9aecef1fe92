"""The site's calculators, in the order the site lists them.

Each rule area declares its calculators in ``ruleslab_widgets/calculators/<area>.py``
(an engine function, a summary, the rules section, optional views, which
parameters are rules options); this module only puts them in order. The site's
notebooks, landing page and app links are generated from this list
(``tools/make_content.py``).
"""

from __future__ import annotations

from ruleslab_widgets.calculators import (
    chimera,
    compressed,
    defence,
    dice,
    healing,
    health,
    henchmen,
    lifting,
    physical,
    ranged,
    warfare,
)
from ruleslab_widgets.declare import Calculator

__all__ = ["CALCULATORS", "get"]

#: Rule-area modules in site order.
_AREAS = (
    dice,
    lifting,
    physical,
    health,
    ranged,
    healing,
    defence,
    compressed,
    henchmen,
    warfare,
    chimera,
)

CALCULATORS: tuple[Calculator, ...] = tuple(c for area in _AREAS for c in area.CALCULATORS)

_BY_KEY = {c.key: c for c in CALCULATORS}


def get(key: str) -> Calculator:
    """The calculator declared under ``key`` (KeyError lists the known keys)."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no calculator {key!r}; known: {', '.join(_BY_KEY)}") from None
