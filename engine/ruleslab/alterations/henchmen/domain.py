"""The henchmen rules' own domain: the checks :mod:`ruleslab.alterations.henchmen`,
:mod:`ruleslab.alterations.henchmen.support` and :mod:`ruleslab.alterations.henchmen.leader` make of
what a Python caller passes them (the forms' fields are checked by the calculators, with their
ranges).
"""

from __future__ import annotations

from collections.abc import Collection

from ruleslab.params import InputError

__all__ = ["check_count", "check_reading"]


def check_reading(field: str, value: str, readings: Collection[str]) -> None:
    """``value`` must be one of ``readings``; else an :class:`InputError` naming ``field``."""
    if value not in readings:
        raise InputError(field, f"{field} must be one of {', '.join(readings)}.")


def check_count(field: str, value: int) -> None:
    """``value`` must be a whole number ≥ 0; else an :class:`InputError` naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(field, f"{field} must be a whole number ≥ 0.")
