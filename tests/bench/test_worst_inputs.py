"""bench/worst_inputs.py runs and reports in its documented shape (nothing here is timed)."""

from __future__ import annotations

import re

from bench import worst_inputs
from ruleslab.calculators import get


def test_a_refused_input_is_not_timed():
    calc = get("dice_pool")
    given = {**worst_inputs._as_typed(calc), "dice": "61"}  # the form accepts 0 to 60
    assert worst_inputs.time_once(calc, given) is None
    assert worst_inputs.time_once(calc, worst_inputs._as_typed(calc)) is not None


def test_every_heavy_input_is_accepted_by_its_form():
    """A heavy corner the form refuses would time nothing."""
    for key, sets in worst_inputs.HEAVY.items():
        calc = get(key)
        for heavy in sets:
            given = {**worst_inputs._as_typed(calc), **heavy}
            assert worst_inputs.time_once(calc, given) is not None, (key, heavy)


def test_the_report_ends_with_its_summary_line(capsys):
    worst_inputs.main(["--only", "dice_pool,lifting"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"summary: worst_ms=[\d.]+ worst_key=(dice_pool|lifting) budget_ratio=[\d.]+ "
        r"yardstick_ms=[\d.]+ load=[\d.]+/[\d.]+",
        last,
    )
