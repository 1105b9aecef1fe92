"""The Chimera fight calculator's view: built from its declaration, live, bad input, rolls."""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import chimera as fight
from ruleslab.calculators.chimera import CALCULATOR as CALC
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.render import figures_html


def test_builds_with_defaults_and_options_tucked_away():
    view = CalculatorView(CALC)
    assert view.result == fight.chimera_fight()
    assert view.last_error == ""
    assert {p.name for p in CALC.option_params} == set(fight.OPTIONS)
    for fig in view.result.figures():
        assert f'data-figure="{fig.key}"' in view.output.value
    a_chart, b_chart = view.panels
    for chart in (a_chart, b_chart):
        assert abs(sum(p for _, p in chart.bars) - 1) < 1e-9
        assert chart.bars[0][0] == "Miss"
    # B (WL 2, no wounds) is vanquished only by severity 3 or more
    assert a_chart.bars[a_chart.highlight_from][0] == "3"


def test_scripted_change_updates_the_duel():
    # the browser test's scripted change: b_defence → 3 changes p_a_wins
    view = CalculatorView(CALC)
    before = view.result.figure("p_a_wins").text
    view.set_input("b_defence", "3")
    values, errors = view.parse()
    assert errors == {}
    expected = fight.chimera_fight(**values)
    assert view.result == expected
    assert view.output.value == figures_html(expected)
    assert expected.figure("p_a_wins").text != before


@pytest.mark.parametrize(
    ("field", "text", "expect"),
    [
        ("a_mr", "-1", "from 0 to 40"),
        ("b_wound_limit", "99", "from 0 to 10"),
        ("a_damage", "lots", "not a dice expression"),
        ("b_wounds", "5", "from 0 to the Wound Limit"),
    ],
)
def test_bad_input_keeps_the_last_result(field, text, expect):
    view = CalculatorView(CALC)
    good = view.result
    view.set_input(field, text)
    message = view.messages[field].value
    assert expect in message
    assert "Traceback" not in message
    assert view.result == good
    default = next(p.default for p in CALC.params if p.name == field)
    view.set_input(field, str(default))
    assert view.messages[field].value == ""


def test_roll_buttons_are_seeded(find):
    view = CalculatorView(CALC)
    seed_box = find(view, "rl-roll-seed")
    seed_box.value = "99"
    for spec, log in zip(CALC.rolls, view.roll_logs, strict=True):
        view.roll(spec, seed_box, log)
        assert 'data-seed="99"' in log.value
        assert all(escape(line) in log.value for line in spec.run(view.result, 99))
