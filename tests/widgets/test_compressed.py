"""The Compressed combat calculator's view follows the engine; bad input names its field."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators.compressed import CALCULATOR as CALC
from ruleslab.calculators.compressed import combat_roll_log, compressed_combat
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html, steps_html


def test_builds_with_the_texts_example():
    view = CalculatorView(CALC)
    assert view.result == compressed_combat()
    assert view.last_error == ""
    assert view.result.figure("pool_a").text == "11 dice"
    assert view.result.figure("pool_b").text == "5 dice"
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value
    assert {p.name for p in CALC.option_params} == {
        "strange_mode",
        "forcefield_bonus",
        "ablative_applies",
        "initiative_tie",
        "damage_split",
        "henchmen_count_as",
    }
    assert view.inputs["a_combatants"].__class__.__name__ == "Textarea"
    assert view.inputs["a_intent"].__class__.__name__ == "Text"


@pytest.mark.parametrize(
    ("field", "text", "figure"),
    [
        ("a_position", "3", "p_a_wins"),
        ("b_cover", "2", "pool_a"),
        ("a_forcefield", "2", "damage_to_a"),
        ("b_incap", "3", "p_b_down"),
        ("a_intent", "Scare them off", "winner"),
        ("a_powers", "Flight, 1, maintenance", "quantum_a"),
        ("b_combatants", "Brute: Str 3, Mega-Str 1, Brawl 3, damage 5B, soak 6", "timeframe"),
        ("a_henchmen", "4", "pool_a"),
    ],
)
def test_changing_an_input_follows_the_engine(field, text, figure):
    view = CalculatorView(CALC)
    before = view.result.figure(figure).text
    view.set_input(field, text)
    values, errors = view.parse()
    assert errors == {}
    expected = compressed_combat(**values)
    assert view.result == expected
    assert view.output.value == figures_html(expected)
    assert view.working.value == steps_html(expected)
    assert view.result.figure(figure).text != before


def test_charts_follow_the_result():
    view = CalculatorView(CALC)
    view.set_input("b_cover", "1")
    margin, hurt_a, hurt_b = view.panels
    r = view.result
    assert margin.bars == [(label, float(p)) for label, p in r.margin_chart().bars]
    assert margin.highlight_from == r.margin_chart().highlight_from
    assert [label for label, _ in margin.bars][margin.highlight_from] == "0"  # A takes ties
    assert hurt_b.bars == [(label, float(p)) for label, p in r.damage_chart_b().bars]
    assert hurt_b.highlight_from == 7
    assert abs(sum(p for _, p in hurt_a.bars) - 1) < 1e-5


def test_intent_is_shown_escaped():
    view = CalculatorView(CALC)
    view.set_input("a_intent", "<script>alert(1)</script> & win")
    assert "<script>" not in view.output.value
    assert escape("“<script>alert(1)</script> & win”") in view.output.value


@pytest.mark.parametrize(
    ("field", "text", "expect"),
    [
        ("a_cover", "4", "from 0 to 3"),
        ("b_position", "9", "from 0 to 5"),
        ("a_combatants", "Cop: Dex 3\nRobber: Dex three", "line 2"),
        ("a_combatants", "Cop: Dex 12", "from 0 to 10"),
        ("b_powers", "Flight, 1, sometimes", "the type must be one of"),
        ("a_intent", "x" * 121, "at most 120 characters"),
        ("a_incap", "20", "must not be more than levels to Dead"),
    ],
)
def test_bad_input_names_the_field_and_keeps_the_result(field, text, expect):
    view = CalculatorView(CALC)
    good = view.result
    view.set_input(field, text)
    message = view.messages[field].value
    label = next(p.label for p in CALC.params if p.name == field)
    assert escape(label) in message
    assert escape(expect) in message
    assert "Traceback" not in message
    assert view.result == good


def test_roll_button_reads_out_a_seeded_fight(find):
    view = CalculatorView(CALC)
    (spec,) = view.calc.rolls
    seed_box = find(view, "rl-roll-seed")
    (log,) = view.roll_logs
    seed_box.value = "42"
    view.roll(spec, seed_box, log)
    lines = combat_roll_log(view.result, 42)
    assert 'data-seed="42"' in log.value
    assert all(escape(line) in log.value for line in lines)
    assert any("WINS" in line or "TIE" in line for line in lines)
    first = log.value
    view.roll(spec, seed_box, log)
    assert log.value == first
    view.set_input("a_cover", "-1")
    view.roll(spec, seed_box, log)
    assert "Fix the highlighted fields" in log.value
