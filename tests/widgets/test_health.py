"""The health and damage calculators' views follow the engine; the track view fills."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import damage, get, health
from ruleslab_widgets.health_track import HealthTrack
from ruleslab_widgets.view import CalculatorView

BY_KEY = {key: get(key) for key in ("health", "damage")}


def test_health_view_follows_engine_and_track_fills():
    view = CalculatorView(BY_KEY["health"])
    (track,) = view.panels
    assert isinstance(track, HealthTrack)
    assert all(b["filled"] == "" for b in track.boxes)
    view.set_input("lethal", "3")
    view.set_input("bashing", "1")
    values, errors = view.parse()
    assert errors == {}
    expected = health.health(**values)
    assert view.result == expected
    assert [b["filled"] for b in track.boxes[:5]] == ["lethal"] * 3 + ["bashing", ""]
    assert track.state == "Hurt"
    assert track.penalty == expected.figure("wound_penalty").text
    assert 'data-figure="wound_penalty"' in view.output.value


def test_health_ruleset_switch_changes_the_track():
    view = CalculatorView(BY_KEY["health"])
    before = view.result.figure("total_levels").value
    view.set_input("ruleset", "2.0")
    values, _ = view.parse()
    assert view.result == health.health(**values)
    assert view.result.figure("total_levels").value != before
    assert len(view.panels[0].boxes) == view.result.total_levels


def test_health_bad_input_names_the_field():
    view = CalculatorView(BY_KEY["health"])
    good = view.result
    view.set_input("stamina", "0")
    assert "Stamina must be a whole number from 1 to 20" in view.messages["stamina"].value
    assert view.result == good


def test_damage_view_follows_engine_and_chart():
    view = CalculatorView(BY_KEY["damage"])
    view.set_input("dice", "9")
    view.set_input("armour_piercing", "1")
    values, errors = view.parse()
    assert errors == {}
    expected = damage.damage_resolution(**values)
    assert view.result == expected
    (chart,) = view.panels
    assert chart.bars == [(k, float(p)) for k, p in expected.chart().bars]


def test_damage_bad_input_names_the_field():
    view = CalculatorView(BY_KEY["damage"])
    view.set_input("dice", "lots")
    assert "Damage dice must be a whole number" in view.messages["dice"].value
