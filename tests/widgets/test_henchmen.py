"""The Henchmen squad builder's view follows the engine; bad input names its field."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators.henchmen import CALCULATOR as CALC
from ruleslab.calculators.henchmen import henchmen_squad
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html


def test_builds_with_defaults():
    view = CalculatorView(CALC)
    assert view.result == henchmen_squad(**CALC.defaults())
    assert view.last_error == ""
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value
    assert {p.name for p in CALC.option_params} == {"rounding", "ping"}


@pytest.mark.parametrize(
    ("field", "text", "figure"),
    [
        ("charisma", "4", "limit"),
        ("mega_charisma", "1", "limit"),
        ("henchmen", "20", "extra_health_levels"),
        ("henchman_pool", "8", "dice"),
        ("situation", "-6", "damage"),
        ("heavy_weapons", "5", "support_attacks"),
        ("attack_damage", "20", "mean_removed"),
        ("area", "4", "p_leader_exposed"),
        ("training", "fanatical", "mean_removed"),
        ("leader_is_henchman", True, "p_leader_eliminated"),
    ],
)
def test_changing_an_input_follows_the_engine(field, text, figure):
    view = CalculatorView(CALC)
    before = view.result.figure(figure).text
    view.set_input(field, text)
    values, errors = view.parse()
    assert errors == {}
    expected = henchmen_squad(**values)
    assert view.result == expected
    assert view.output.value == figures_html(expected)
    assert view.result.figure(figure).text != before


def test_chart_shows_the_removed_distribution():
    view = CalculatorView(CALC)
    view.set_input("area", "2")
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in view.result.chart().bars]
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-5


@pytest.mark.parametrize(
    ("field", "text", "expect"),
    [
        ("charisma", "11", "from 0 to 10"),
        ("area", "5", "from 1 to 4"),
        ("henchmen", "many", "whole number"),
        ("heavy_weapons", "13", "at most the number of henchmen"),
        ("situation", "-101", "from -100 to 100"),
    ],
)
def test_bad_input_names_the_field(field, text, expect):
    view = CalculatorView(CALC)
    good = view.result
    view.set_input(field, text)
    message = view.messages[field].value
    label = next(p.label for p in CALC.params if p.name == field)
    assert escape(label) in message
    assert escape(expect) in message
    assert view.result == good
    view.set_input(field, str(next(p.default for p in CALC.params if p.name == field)))
    assert view.messages[field].value == ""
