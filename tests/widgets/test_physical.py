"""The movement, jumping and falling calculators' views follow the engine."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import falling, get, jumping, movement
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html

BY_KEY = {key: get(key) for key in ("movement", "jumping", "falling")}


def test_keys():
    assert list(BY_KEY) == ["movement", "jumping", "falling"]


@pytest.mark.parametrize("key", ["movement", "jumping", "falling"])
def test_builds_with_defaults(key):
    view = CalculatorView(BY_KEY[key])
    assert view.result is not None
    assert view.last_error == ""
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value


def test_movement_view_matches_the_engine():
    view = CalculatorView(BY_KEY["movement"])
    before = view.result.figure("walking").value
    view.set_input("dexterity", "5")
    values, errors = view.parse()
    assert errors == {}
    expected = movement.movement(**values)
    assert view.result == expected
    assert view.result.figure("walking").value != before
    assert view.output.value == figures_html(expected)
    view.set_input("load_kg", "50")  # Str 3: heavy
    assert view.result.figure("running").text == "Not allowed (heavy)"


def test_jumping_view_and_chart_match_the_engine():
    view = CalculatorView(BY_KEY["jumping"])
    before = view.result.figure("p_clear").value
    view.set_input("distance_m", "8")
    values, errors = view.parse()
    assert errors == {}
    expected = jumping.jump(**values)
    assert view.result == expected
    assert view.result.figure("p_clear").value != before
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in expected.chart().bars]
    assert chart.highlight_from == expected.chart().highlight_from
    view.set_input("mega_strength", "1")
    values, _ = view.parse()
    assert view.result == jumping.jump(**values)
    assert chart.bars[0][0] == "20"  # 5 automatic successes × 2 m × (1 + 1)


def test_falling_view_and_chart_match_the_engine():
    view = CalculatorView(BY_KEY["falling"])
    before = view.result.figure("damage_dice").value
    view.set_input("height_m", "30")
    values, errors = view.parse()
    assert errors == {}
    expected = falling.fall(**values)
    assert view.result == expected
    assert view.result.figure("damage_dice").value != before
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in expected.chart().bars]
    view.set_input("break_fall", False)
    values, _ = view.parse()
    assert view.result == falling.fall(**values)


@pytest.mark.parametrize(
    ("key", "field", "text", "expect"),
    [
        ("movement", "dexterity", "11", "from 0 to 10"),
        ("jumping", "distance_m", "-2", "from 0 to"),
        ("falling", "stamina", "0", "from 1 to 10"),
    ],
)
def test_bad_input_names_the_field(key, field, text, expect):
    view = CalculatorView(BY_KEY[key])
    good = view.result
    view.set_input(field, text)
    message = view.messages[field].value
    label = next(p.label for p in view.calc.params if p.name == field)
    assert escape(label) in message
    assert expect in message
    assert view.result == good
