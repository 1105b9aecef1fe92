"""Hypothesis for the property tests of the dice and the number steppers.

Hypothesis is a test extra (not in every environment, e.g. Pyodide's): a property
test that calls :func:`hypothesis_or_skip` is skipped where it is missing.
"""

from __future__ import annotations

from types import ModuleType

import pytest


def hypothesis_or_skip() -> tuple[ModuleType, ModuleType]:
    """``(hypothesis, hypothesis.strategies)``, or skip the calling test without them."""
    hyp = pytest.importorskip("hypothesis")
    st = pytest.importorskip("hypothesis.strategies")
    return hyp, st
