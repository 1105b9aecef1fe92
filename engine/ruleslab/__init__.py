"""ruleslab — exact rules engine for Aberrant 2.0/2.1 and Chimera.

Standard library only: it runs unchanged in CPython and in Pyodide. Every rule
is a function of plain inputs returning a frozen result with its figures and
the steps (each naming its rule) that produced them.
"""

from ruleslab.explain import Explained, Figure, Step
from ruleslab.params import (
    BoolParam,
    ChoiceParam,
    InputError,
    IntParam,
    NumberParam,
    Param,
    TextParam,
    checked,
)

__version__ = "0.1.0"

__all__ = [
    "BoolParam",
    "ChoiceParam",
    "Explained",
    "Figure",
    "InputError",
    "IntParam",
    "NumberParam",
    "Param",
    "Step",
    "TextParam",
    "checked",
]
