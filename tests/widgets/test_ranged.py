"""The Autofire & strafing calculator's view follows the engine; bad input names its field."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators.autofire import CALCULATOR as CALC
from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html


def test_builds_with_defaults():
    view = CalculatorView(CALC)
    assert view.result == autofire_and_strafing()
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value
    assert {p.name for p in CALC.option_params} == {
        "ruleset",
        "extra_successes",
        "net_from",
        "burst_damage",
        "burst_weapon_ammo",
    }


@pytest.mark.parametrize(
    ("field", "text", "figure"),
    [
        ("targets", "3", "p_hit"),
        ("burst", "medium", "ammo_used"),
        ("tags", "Devastating(3)", "expected_dice"),
        ("dodge_pool", "4", "p_hit"),
    ],
)
def test_changing_an_input_follows_the_engine(field, text, figure):
    view = CalculatorView(CALC)
    before = view.result.figure(figure).text
    view.set_input(field, text)
    values, errors = view.parse()
    assert errors == {}
    expected = autofire_and_strafing(**values)
    assert view.result == expected
    assert view.output.value == figures_html(expected)
    assert view.result.figure(figure).text != before


def test_chart_shows_the_levels_distribution():
    view = CalculatorView(CALC)
    view.set_input("natural_soak", "1")
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in view.result.chart().bars]
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-5


@pytest.mark.parametrize(
    ("field", "text", "expect"),
    [
        ("tags", "AP(2), Laser", "is not a weapon tag"),
        ("tags", "AP", "needs a number"),
        ("targets", "0", "from 1 to 50"),
        ("targets", "4", "at most 3"),  # short burst: 3 rounds
        ("ammunition", "2", "uses 3 rounds"),
        ("dexterity", "three", "whole number"),
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


def test_typed_tag_text_is_never_shown_unescaped():
    view = CalculatorView(CALC)
    view.set_input("tags", "<script>alert(1)</script>")
    assert "<script>" not in view.messages["tags"].value
    assert "&lt;script&gt;" in view.messages["tags"].value
    assert "<script>" not in view.status.value
    assert "<script>" not in view.output.value
    assert "<script>" not in view.working.value
    # a valid tag text is shown in its parsed, standard form only
    view.set_input("tags", "ap ( 2 ) ;guided")
    assert "tags AP(2), Guided" in view.working.value
    assert "ap ( 2 )" not in view.output.value + view.working.value
