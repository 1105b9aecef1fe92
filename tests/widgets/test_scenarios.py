"""Scenarios in the calculator view (ruleslab_widgets.scenarios, issue 22).

Driven as the page drives them: the scenario bar's messages (add, select,
remove, close) and typing into the form. Expected figures and differences come
from independent runs of the calculator on values parsed here, never from the
comparison under test.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import get
from ruleslab.character import Character
from ruleslab.party import Party, entry_json
from ruleslab_widgets import CalculatorView, calculator
from ruleslab_widgets.chart import BarChart, merge_labels
from ruleslab_widgets.scenarios import delta_text


def _bar(view: CalculatorView, kind: str, index: int | None = None) -> None:
    """A click on the scenario bar, as its comm delivers it."""
    content: dict[str, Any] = {"type": kind}
    if index is not None:
        content["index"] = index
    view.scenarios._receive(view.scenarios.bar, content, [])


def _run(key: str, **texts: str) -> Any:
    """The calculator's result for the defaults with ``texts`` typed (an independent run)."""
    calc = get(key)
    values = {p.name: p.parse(p.default) for p in calc.params}
    for name, text in texts.items():
        values[name] = next(p for p in calc.params if p.name == name).parse(text)
    return calc.run(values)


def _cell(view: CalculatorView, figure: str, scenario: str) -> str:
    """The text of one cell of the comparison (value and Δ), tags removed."""
    m = re.search(
        rf'<td class="rl-figure[^"]*" data-figure="{figure}" data-scenario="{scenario}">'
        r"(.*?)</td>",
        view.output.value,
    )
    assert m, (figure, scenario)
    value = re.search(r'<span class="rl-sc-value">(.*?)</span>', m.group(1))
    delta = re.search(r'data-delta="([^"]*)"', m.group(1))
    assert value
    return value.group(1) + (f" | {delta.group(1)}" if delta else "")


def _tabs(view: CalculatorView) -> list[str]:
    return [t["text"] for t in view.scenarios.bar.tabs]


def test_add_select_remove_and_back_to_one():
    view = calculator("lifting")
    assert not view.scenarios.bar.shown
    _bar(view, "open")
    assert view.scenarios.bar.shown
    assert _tabs(view) == ["A"]
    assert "copy of this one" in view.scenarios.bar.hint
    view.set_input("strength", "4")
    _bar(view, "add")  # B: a copy of A; the form edits B
    assert view.scenarios.selected == 1
    assert view.scenarios.bar.selected == 1
    assert view.inputs["strength"].value == "4"
    view.set_input("strength", "6")
    assert _tabs(view) == ["A", "B: Strength 6 dots"]
    _bar(view, "select", 0)
    assert view.inputs["strength"].value == "4"  # the form shows A again
    _bar(view, "add")  # C: a copy of A
    view.set_input("object_kg", "200")
    assert _tabs(view) == ["A", "B: Strength 6 dots", "C: Object's weight 200 kg"]
    _bar(view, "add")
    _bar(view, "add")  # (at most four)
    assert len(view.scenarios.values) == 4
    _bar(view, "select", 1)
    assert view.inputs["strength"].value == "6"
    assert view.inputs["object_kg"].value != "200"
    _bar(view, "remove", 1)  # C and D move up: the form edits A
    assert _tabs(view) == ["A", *["B: Object's weight 200 kg", "C: Object's weight 200 kg"]]
    assert view.scenarios.selected == 0
    assert view.inputs["strength"].value == "4"
    _bar(view, "select", 1)
    _bar(view, "close")  # back to one: the scenario shown stays
    assert not view.scenarios.bar.shown
    assert not view.scenarios.comparing
    assert view.inputs["object_kg"].value == "200"
    assert view.result == _run("lifting", strength="4", object_kg="200")
    assert 'data-scenario="' not in view.output.value  # the one-scenario figures again
    assert view.share_query() == "calculator=lifting&strength=4&object_kg=200"


def test_each_scenario_keeps_its_values_and_delta_is_the_difference_of_two_runs():
    view = calculator("lifting")
    view.set_input("strength", "4")
    view.set_input("object_kg", "160")
    _bar(view, "add")
    view.set_input("strength", "5")
    a = _run("lifting", strength="4", object_kg="160")
    b = _run("lifting", strength="5", object_kg="160")
    assert view.result == b  # the form's scenario
    cap_a, cap_b = a.figure("capacity").value, b.figure("capacity").value
    assert _cell(view, "capacity", "A") == a.figure("capacity").text
    assert _cell(view, "capacity", "B") == f"{b.figure('capacity').text} | +{cap_b - cap_a} kg"
    pa, pb = a.figure("p_lift").value, b.figure("p_lift").value
    points = f"{float((pb - pa) * 100):.2f}"
    assert _cell(view, "p_lift", "B") == f"{b.figure('p_lift').text} | +{points} pp"
    # a text figure: side by side, no Δ
    assert _cell(view, "tier", "A") == a.figure("tier").text
    assert _cell(view, "tier", "B") == b.figure("tier").text
    row = view.scenarios.comparison.figure("p_lift")  # exact, as the engine gives it
    assert row.deltas[1] == pb - pa
    assert isinstance(row.deltas[1], Fraction)
    # switching back and forth changes nothing
    _bar(view, "select", 0)
    assert view.result == a
    assert _cell(view, "p_lift", "B").endswith(f"+{points} pp")


def test_the_charts_draw_every_scenario_from_their_own_runs():
    view = calculator("dice_pool")
    view.set_input("dice", "3")
    _bar(view, "add")
    view.set_input("dice", "5")
    chart = view.panels[0]
    assert isinstance(chart, BarChart)
    runs = [_run("dice_pool", dice="3"), _run("dice_pool", dice="5")]
    expected = [view.calc.views[0].chart(r).bars for r in runs]
    assert [s["label"] for s in chart.series] == ["A", "B: Dice 5"]
    for series, bars in zip(chart.series, expected, strict=True):
        assert [(label, p) for label, p in series["bars"]] == [(lb, float(p)) for lb, p in bars]
    names = chart.groups["categories"]
    assert names == [str(n) for n in range(6)]  # 0–3 successes and 0–5: one axis
    rows = chart.csv.splitlines()
    assert rows[0] == "Successes,A (as shown),A (exact),B: Dice 5 (as shown),B: Dice 5 (exact)"
    assert rows[5].startswith("4,,,")  # three dice never make 4 successes
    assert "grouped bar chart of 2 scenarios (A; B: Dice 5)" in chart.summary
    _bar(view, "close")
    assert chart.series == []
    assert chart.groups == {}


def test_a_link_holds_every_scenario_and_opens_on_a():
    view = calculator("autofire")
    view.set_input("target_dexterity", "4")
    _bar(view, "add")
    view.set_input("ruleset", "2.0")
    _bar(view, "select", 0)
    _bar(view, "add")  # C: a copy of A
    view.set_input("target_dexterity", "6")
    query = view.share_query()
    pairs = query.split("&")
    assert pairs[:3] == ["calculator=autofire", "target_dexterity=4", "scenarios=3"]
    assert "s2.ruleset=2.0" in pairs
    assert "s3.target_dexterity=6" in pairs
    again = calculator("autofire")
    again.apply_query(query)
    assert again.scenarios.selected == 0
    assert _tabs(again) == _tabs(view)
    assert again.output.value == view.output.value
    assert again.share_query() == query
    for i in range(3):
        _bar(view, "select", i)
        _bar(again, "select", i)
        assert again.result == view.result
    # a link without scenarios is the one-calculator link, as before
    plain = calculator("autofire")
    plain.apply_query("calculator=autofire&target_dexterity=4")
    assert not plain.scenarios.comparing
    assert plain.share_query() == "calculator=autofire&target_dexterity=4"


def test_errors_name_the_scenario_and_the_field_and_mark_its_column():
    view = calculator("lifting")
    view.apply_query("calculator=lifting&scenarios=2&s2.strength=99")
    status = view.status.value
    assert "Scenario B: Strength must be a whole number from 0 to 20" in status
    assert 'data-scenario="B">B · Not current' not in view.output.value  # (legend kept)
    assert "Not current" in view.output.value
    assert view.scenarios.bar.tabs[1]["error"].startswith("Scenario B: Strength")
    assert view.result == _run("lifting")  # A, the form's, is computed
    _bar(view, "select", 1)  # the form shows B's value with the field's own message
    assert view.inputs["strength"].value == "99"
    assert "from 0 to 20" in view.messages["strength"].value
    assert "Scenario B: Strength must be" in view.status.value
    view.set_input("strength", "5")
    assert "Scenario B" not in view.status.value
    assert "Not current" not in view.output.value
    # a link the engine refuses is named, and A's fields are still applied
    bad = calculator("lifting")
    bad.apply_query("calculator=lifting&strength=5&scenarios=2&s3.strength=6")
    assert "s3.strength" in bad.status.value
    assert not bad.scenarios.comparing
    assert bad.inputs["strength"].value == "5"


def test_a_party_character_fills_the_selected_scenarios_role():
    view = calculator("lifting")
    party = Party.of({"Bo": Character(strength=6, stamina=5)})
    view.party.send = lambda content, buffers=None: None  # type: ignore[method-assign]
    records = [
        {"id": e.id, "rev": 1, "created": 1.0, "deleted": False, "text": entry_json(e)}
        for e in party
    ]
    view.party._receive(view.party, {"type": "loaded", "mode": "ready", "records": records}, [])
    _bar(view, "add")
    assert view.party.target == " (scenario B)"
    role = view.party.roles[0]["name"]
    bo = view.party.party.entry(name="Bo")
    view.party._receive(view.party, {"type": "fill", "role": role, "id": bo.id}, [])
    assert view.inputs["strength"].value == "6"
    assert "(scenario B): Bo's values" in view.party.message
    _bar(view, "select", 0)
    assert view.inputs["strength"].value != "6"  # A is untouched
    assert view.party.filled == {}
    assert view.party.target == " (scenario A)"
    assert _tabs(view)[1].startswith("B: Strength 6 dots")


def test_delta_is_written_in_the_figures_own_format():
    assert delta_text(90, 60, "90 kg") == "+60 kg"
    assert delta_text(Fraction(5, 2), Fraction(-1, 2), "2.5 levels") == "−0.5 levels"
    assert delta_text(Fraction(1, 2), Fraction(1, 8), "50.00 %") == "+12.50 pp"
    assert delta_text(Fraction(1, 2), Fraction(1, 10**6), "50.00 %") == "+< 0.01 pp"
    assert delta_text(Fraction(1, 2), 0, "50.00 %") == "±0 pp"
    assert delta_text(5, 2, "5d") == "+2d"
    assert delta_text(12, -3, "12") == "−3"
    assert delta_text(2, Fraction(-4, 5), "2 health levels") == "−0.8 health levels"
    assert delta_text(15, 2, "15 dice (5 + henchmen 10)") == "+2 dice"
    assert delta_text(3, 2, "3 of 30 rounds") == "+2"
    assert delta_text(Fraction(5, 4), 1, "1 day 6 h") == ""  # not the number written plainly
    assert delta_text("Light", None, "Light") == ""


def test_series_names_are_merged_in_one_order():
    assert merge_labels([["1", "2"], ["0", "1", "2", "3"]]) == ["0", "1", "2", "3"]
    assert merge_labels([["0", "1"], ["1", "2"], ["3"]]) == ["3", "0", "1", "2"]


def _head(view: CalculatorView) -> list[str]:
    """The comparison's column heads, tags removed."""
    return [
        re.sub(r"<[^>]+>", "", h)
        for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', view.output.value)
    ]


def test_each_scenarios_column_carries_its_own_letter_and_state_when_one_is_refused():
    """Issue 38, 4: with three scenarios and B refused, C's figures appeared under B's
    letter ("A | B (not current) | B: Strength 9 dots"); with two and B refused, A was
    marked "Not current" though it was fine."""
    view = calculator("lifting")
    _bar(view, "open")
    _bar(view, "add")
    view.set_input("strength", "6")
    _bar(view, "select", 0)
    _bar(view, "add")
    view.set_input("strength", "9")
    assert _tabs(view) == ["A", "B: Strength 6 dots", "C: Strength 9 dots"]
    # B refused (a value its field does not take, as a link could bring)
    view.scenarios.values[1]["strength"] = "99"
    view.recompute()
    head = _head(view)
    assert head[0] == "A"
    assert head[1].startswith("B")
    assert "Not current" in head[1]
    assert head[2] == "C: Strength 9 dots"
    nine = _run("lifting", strength="9").figure("capacity").text
    assert _cell(view, "capacity", "C").split(" | ")[0] == nine
    assert "Scenario B" in view.status.value
    # two scenarios, B refused: A is current, B is not
    view = calculator("lifting")
    _bar(view, "open")
    _bar(view, "add")
    view.set_input("strength", "6")
    _bar(view, "select", 0)
    view.scenarios.values[1]["strength"] = "99"
    view.recompute()
    head = _head(view)
    assert head[0] == "A"
    assert "Not current" in head[1]
    assert not view.scenarios.stale(0)
    a = _run("lifting").figure("capacity").text
    assert _cell(view, "capacity", "A") == a
