"""Every calculator's ``example`` (the "Tinker" cell its notebook publishes) runs and prints.

The snippets are the engine as plain Python for GMs who go beyond the form; a
notebook that fails on Run All is the first thing a tinkering GM would see.
"""

from __future__ import annotations

import contextlib
import io

import pytest

pytest.importorskip("ipywidgets")

from ruleslab_widgets import CALCULATORS


def test_every_calculator_publishes_an_example():
    assert [c.key for c in CALCULATORS if not c.example] == []


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS if c.example])
def test_the_example_runs_and_prints(key):
    calc = next(c for c in CALCULATORS if c.key == key)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(calc.example, f"<{key} example>", "exec"), {"__name__": "__example__"})
    printed = out.getvalue().strip()
    assert printed, f"{key}: the example printed nothing"
    assert "Traceback" not in printed and "Error" not in printed, printed
