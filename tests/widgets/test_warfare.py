"""The Warfare calculator's view follows the engine; bad input names its field."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators.warfare import CALCULATOR as CALC
from ruleslab.calculators.warfare import roll_turn, warfare
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html


def test_builds_with_defaults():
    view = CalculatorView(CALC)
    assert view.result == warfare()
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value
    assert {p.name for p in CALC.option_params} == {
        "defence_reading",
        "size_penalty",
        "divide_by_3",
        "mega_intelligence",
        "morale_on_damage",
        "rounding",
    }


@pytest.mark.parametrize(
    ("field", "text", "figure"),
    [
        ("enemy_skill", "6", "p_hit"),
        ("enemy_size", "8", "attacks"),
        ("enemy_firepower", "7", "damage_dice"),
        ("party_size", "3", "defence_penalty"),
        ("commander_command", "1", "attacks"),
        ("tactics", "5", "defence_pool"),
        ("target", "squad", "expected_damage"),
        ("power_use", "boost", "power_effect"),
    ],
)
def test_changing_an_input_follows_the_engine(field, text, figure):
    view = CalculatorView(CALC)
    if field == "power_use":
        view.set_input("power", "2")
    before = view.result.figure(figure).text
    view.set_input(field, text)
    values, errors = view.parse()
    assert errors == {}
    expected = warfare(**values)
    assert view.result == expected
    assert view.output.value == figures_html(expected)
    if field != "target":
        assert view.result.figure(figure).text != before


def test_squad_shows_losses_and_charts_them():
    view = CalculatorView(CALC)
    view.set_input("target", "squad")
    view.set_input("henchmen", "8")
    assert 'data-figure="p_wiped"' in view.output.value
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in view.result.chart().bars]
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-5
    assert len(chart.bars) <= 9


def test_chart_shows_the_damage_distribution():
    view = CalculatorView(CALC)
    view.set_input("divide_by_3", "attack_damage")
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in view.result.chart().bars]
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-5


@pytest.mark.parametrize(
    ("field", "text", "expect"),
    [
        ("enemy_size", "11", "from 1 to 10"),
        ("enemy_skill", "0", "from 1 to 10"),
        ("support", "-1", "from 0 to 10"),
        ("henchmen", "0", "from 1 to 1,000"),
        ("commander_command", "three", "whole number"),
        ("spend_support", True, "at least 1"),  # Support track is 0 by default
        ("power_use", "firepower", "at least 1"),  # Power track is 0 by default
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
    assert "Traceback" not in message
    assert view.result == good


def test_roll_it_gives_the_engines_seeded_turn(find):
    view = CalculatorView(CALC)
    view.set_input("target", "squad")
    (spec,) = view.calc.rolls
    seed_box = find(view, "rl-roll-seed")
    (log,) = view.roll_logs
    seed_box.value = "99"
    view.roll(spec, seed_box, log)
    assert 'data-seed="99"' in log.value
    assert all(escape(line) in log.value for line in roll_turn(view.result, 99))
