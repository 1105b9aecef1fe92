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
    worst_inputs.main(["--only", "dice_pool,lifting", "--sets", "40", "--repeat", "1"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"summary: worst_cpu_ms=[\d.]+ worst_key=(dice_pool|lifting) budget_ratio=[\d.]+ "
        r"seed=\d+ yardstick_ms=[\d.]+ load=[\d.]+/[\d.]+",
        last,
    )


def test_the_slow_sets_found_before_are_seeds_the_form_accepts():
    """Issue 23's Chimera and Henchmen links are among the seeds, read as the form reads them."""
    assert set(worst_inputs.SEEDS) >= {"chimera", "henchmen"}
    for key, queries in worst_inputs.SEEDS.items():
        calc = get(key)
        for query in queries:
            given = worst_inputs.from_query(calc, query)
            parsed = {p.name: p.parse(given[p.name]) for p in calc.params}
            assert parsed  # every field parses (a refused seed would time nothing)
            assert worst_inputs.link_query(calc, given) == f"calculator={key}&{query}"


def test_the_search_draws_the_sets_asked_for_and_keeps_the_slowest(monkeypatch):
    from tests.golden import generate as golden

    calls = []
    monkeypatch.setattr(
        worst_inputs, "time_once", lambda calc, given: calls.append(given) or float(len(calls))
    )
    tried, refused, slowest = worst_inputs.search(get("chimera"), 300, 0, golden, 4)
    assert (tried, refused) == (300, 0)  # nothing refused: 300 drawn
    assert len(calls) == 300
    assert [ms for ms, _ in slowest] == [300.0, 299.0, 298.0, 297.0]
    heavy = {"10d100+20", "10d100-20", "10d100"}
    assert any(given["a_damage"] in heavy for given in calls)  # the heavy dice are drawn
    again = []
    monkeypatch.setattr(
        worst_inputs, "time_once", lambda calc, given: again.append(given) or float(len(again))
    )
    worst_inputs.search(get("chimera"), 300, 0, golden, 4)
    assert again == calls  # seeded: the same sets every run
