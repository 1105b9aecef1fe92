"""The working's equations are true for the numbers they print (issue 11, defect 6).

Shared by the jumping, falling and lifting tests (imported by name, as ``dice_oracle``):
the pattern of a printed number and a check that every printed equation holds.
"""

import re
from collections.abc import Callable
from fractions import Fraction

NUMBER = r"-?[\d\u202f]+(?:\.\d+)?"
"""A number as the working prints it (thin spaces between thousands)."""


def number(text: str) -> Fraction:
    """The exact value of a printed number."""
    return Fraction(text.replace("\u202f", ""))


def check_all(pattern: str, text: str, holds: Callable[..., bool]) -> int:
    """``holds(*groups)`` for every match of ``pattern`` in ``text``; how many there were."""
    found = re.findall(pattern, text)
    for groups in found:
        assert holds(*groups), groups
    return len(found)
