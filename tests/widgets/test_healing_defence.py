"""The healing and initiative & defence calculators, driven as the browser drives them."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab import healing
from ruleslab.calculators.defence import CALCULATOR as DEFENCE
from ruleslab.calculators.defence import initiative_and_defence
from ruleslab.calculators.healing import CALCULATOR as HEALING
from ruleslab_widgets import CalculatorView


def test_healing_view_matches_the_engine():
    view = CalculatorView(HEALING)
    assert view.result == healing.healing_time(**HEALING.defaults())
    before = view.result.figure("total_time").text
    view.set_input("lethal", "5")
    view.set_input("supplies", "clinic")
    values, errors = view.parse()
    assert errors == {}
    assert values["lethal"] == 5
    assert view.result == healing.healing_time(**values)
    assert view.result.figure("total_time").text != before
    assert 'data-figure="total_time"' in view.output.value


def test_defence_view_matches_the_engine_and_chart():
    view = CalculatorView(DEFENCE)
    assert view.result == initiative_and_defence(**DEFENCE.defaults())
    before = view.result.figure("action_chances").text
    view.set_input("attack_pool", "9")
    values, _ = view.parse()
    assert view.result == initiative_and_defence(**values)
    assert view.result.figure("action_chances").text != before
    (chart,) = view.panels
    assert chart.bars == [(k, p) for k, p in view.result.chart().bars]
    assert chart.highlight_from == 1
    view.set_input("ruleset", "2.0")
    view.set_input("sprinting", True)
    values, _ = view.parse()
    assert view.result == initiative_and_defence(**values)
    assert 'data-figure="dodge"' in view.output.value
    assert chart.highlight_from == 2


@pytest.mark.parametrize(
    ("calc", "field", "text"),
    [(HEALING, "lethal", "-1"), (DEFENCE, "dexterity", "12"), (DEFENCE, "actions", "0")],
)
def test_bad_input_shows_a_message_naming_the_field(calc, field, text):
    view = CalculatorView(calc)
    good = view.result
    view.set_input(field, text)
    label = next(p.label for p in calc.params if p.name == field)
    message = view.messages[field].value
    assert escape(label) in message
    assert "from" in message
    assert view.result == good
