"""The widgets' Python side: forms built from declarations, live updates, bad input.

These drive :class:`ruleslab_widgets.CalculatorView` exactly as the browser does
(setting a field's value) and compare what it shows with the engine.
"""

from __future__ import annotations

from html import escape

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import CALCULATORS, lifting
from ruleslab.calculators.dice_pool import dice_pool, roll_log
from ruleslab_widgets import CalculatorView, calculator
from ruleslab_widgets.render import figures_html, steps_html


def figure_text(view: CalculatorView, key: str) -> str:
    assert view.result is not None
    return view.result.figure(key).text


def test_every_calculator_builds_with_its_defaults():
    for calc in CALCULATORS:
        view = CalculatorView(calc)
        assert view.result is not None, calc.key
        assert view.last_error == ""
        assert set(view.inputs) == {p.name for p in calc.params}
        # the output trait carries every headline figure
        for fig in view.result.figures():
            assert f'data-figure="{fig.key}"' in view.output.value


def _tree(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _tree(child)


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_no_widget_marks_its_description_as_html(key):
    """The app page's bundle shows a description marked as HTML as escaped text
    (app/sanitize.js): no widget of a calculator may rely on one."""
    view = calculator(key)
    widgets = list(_tree(view))
    assert len(widgets) > 20
    marked = [w for w in widgets if getattr(w, "description_allow_html", False)]
    assert marked == []


def test_changing_an_input_updates_the_output_trait():
    view = calculator("dice_pool")
    before = view.output.value
    view.set_input("dice", "9")
    assert view.output.value != before
    expected = dice_pool(dice=9, auto_successes=0, difficulty=1, reroll_tens=False, target=7)
    assert view.result == expected
    assert view.output.value == figures_html(expected, view.headline_keys())
    assert view.working.value == steps_html(expected)


def test_checkbox_and_chart_follow_the_engine():
    view = calculator("dice_pool")
    view.set_input("dice", "5")
    view.set_input("difficulty", "3")
    view.set_input("reroll_tens", True)
    expected = dice_pool(dice=5, auto_successes=0, difficulty=3, reroll_tens=True, target=7)
    assert view.result == expected
    (chart,) = view.panels
    assert chart.bars == [(label, float(p)) for label, p in expected.chart().bars]
    assert chart.highlight_from == 3
    assert chart.highlight_from == 3
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-6


def test_lifting_view_matches_the_engine():
    view = calculator("lifting")
    view.set_input("strength", "4")
    view.set_input("might", "1")
    view.set_input("object_kg", "450")
    values, errors = view.parse()
    assert errors == {}
    expected = lifting.lifting_and_encumbrance(**values)
    assert view.result == expected
    assert figure_text(view, "capacity") == expected.figure("capacity").text


@pytest.mark.parametrize(
    ("key", "field", "text", "expect"),
    [
        ("lifting", "strength", "-1", "from 0 to"),
        ("lifting", "object_kg", "-5", "from 0 to"),
        ("lifting", "load_kg", "", "empty"),
        ("dice_pool", "dice", "200", "from 0 to 60"),
        ("dice_pool", "dice", "three", "whole number"),
        ("dice_pool", "dice", "2.5", "whole number"),
    ],
)
def test_bad_input_names_the_field_and_keeps_the_rest(key, field, text, expect):
    view = calculator(key)
    good = view.result
    good_html = view.output.value
    others = {n: wdg.value for n, wdg in view.inputs.items() if n != field}
    view.set_input(field, text)
    message = view.messages[field].value
    label = next(p.label for p in view.calc.params if p.name == field)
    assert escape(label) in message
    assert expect in message
    assert "Traceback" not in message
    # the last good result and the other inputs stay
    assert view.result == good
    assert view.output.value == good_html
    assert {n: wdg.value for n, wdg in view.inputs.items() if n != field} == others
    assert "need" in view.status.value
    # fixing the field clears the message
    view.set_input(field, str(next(p.default for p in view.calc.params if p.name == field)))
    assert view.messages[field].value == ""
    assert view.status.value == ""


def test_text_is_escaped_in_html():
    view = calculator("dice_pool")
    view.set_input("dice", "<script>alert(1)</script>")
    # the message quotes no user text, and nothing user-typed reaches HTML unescaped
    assert "<script>" not in view.messages["dice"].value
    assert "<script>" not in view.status.value
    assert "<script>" not in view.output.value


def test_unexpected_engine_error_never_shows_a_traceback(monkeypatch):
    from dataclasses import replace

    calc = next(c for c in CALCULATORS if c.key == "dice_pool")

    def broken(**kwargs):
        raise ZeroDivisionError("boom")

    broken.params = calc.params  # type: ignore[attr-defined]
    broken.unchecked = broken  # type: ignore[attr-defined]
    view = CalculatorView(replace(calc, compute=broken))
    assert view.result is None
    assert "boom" in view.last_error
    assert "Traceback" not in view.status.value
    assert "went wrong" in view.status.value


def _dice_pool_roll(find):
    """The Dice pool view, its one roll, the roll's seed box and its log."""
    view = calculator("dice_pool")
    (spec,) = view.calc.rolls
    (log,) = view.roll_logs
    return view, spec, find(view, "rl-roll-seed"), log


def test_roll_button_shows_a_seeded_log_and_replays_it(find):
    view, spec, seed_box, log = _dice_pool_roll(find)
    seed_box.value = "1234"
    view.roll(spec, seed_box, log)
    first = log.value
    assert 'data-seed="1234"' in first
    assert all(escape(line) in first for line in roll_log(view.result, 1234))
    view.roll(spec, seed_box, log)
    assert log.value == first
    seed_box.value = ""
    view.roll(spec, seed_box, log)
    assert "data-seed=" in log.value
    # bad seed and bad inputs give a message, never a traceback
    seed_box.value = "abc"
    view.roll(spec, seed_box, log)
    assert "Seed must be" in log.value
    seed_box.value = "1"
    view.set_input("dice", "-4")
    view.roll(spec, seed_box, log)
    assert "Fix the highlighted fields" in log.value


def test_each_value_is_parsed_and_checked_once_on_its_way_to_the_rule():
    from dataclasses import replace

    from ruleslab import InputError, TextParam, checked

    seen = []

    def parse_numbers(text, param):
        if not all(t.strip().isdigit() for t in text.split(",")):
            raise InputError(param.name, f"{param.label}: use numbers separated by commas.")
        seen.append(text)
        return tuple(int(t) for t in text.split(","))

    numbers = TextParam("numbers", "Numbers", default="1,2", parser=parse_numbers)
    base = next(c for c in CALCULATORS if c.key == "dice_pool")

    @checked(numbers)
    def total(numbers):
        return dice_pool(
            dice=sum(numbers), auto_successes=0, difficulty=1, reroll_tens=False, target=7
        )

    view = CalculatorView(replace(base, compute=total, views=(), rolls=(), options=()))
    assert seen == ["1,2"]  # the form parsed it; the rule got the numbers
    assert view.result == total(numbers="1,2")
    seen.clear()
    view.set_input("numbers", "3,4")
    assert seen == ["3,4"]
    assert view.result.dice == 7
    view.set_input("numbers", "3,x")
    assert "use numbers" in view.messages["numbers"].value
    assert view.result.dice == 7


def test_field_groups_lay_out_the_sides_next_to_each_other(find):
    view = calculator("compressed")
    (grid,) = [c for c in view.form.children if "rl-groups" in c._dom_classes]
    assert grid.layout.grid_template_columns.startswith("repeat(2")
    titles = [box.children[0].title for box in grid.children]
    assert titles == ["Side A", "Side B"]
    side_a = {
        name for name, widget in view.inputs.items() if find(grid.children[0], f"rl-field-{name}")
    }
    assert side_a == {p.name for p in view.calc.params if p.name.startswith("a_")}


def test_groups_must_name_declared_parameters():
    from dataclasses import replace

    from ruleslab.declare import FieldGroup

    base = next(c for c in CALCULATORS if c.key == "dice_pool")
    with pytest.raises(ValueError, match="groups"):
        replace(base, groups=(FieldGroup("X", ("nope",)),))


def test_a_busy_status_is_shown_while_computing():
    from dataclasses import replace

    base = next(c for c in CALCULATORS if c.key == "dice_pool")
    seen = []

    def slow(**kwargs):
        seen.append(view_box[0].status.value if view_box else "")
        return dice_pool(**kwargs)

    slow.params = base.params  # type: ignore[attr-defined]
    slow.unchecked = slow  # type: ignore[attr-defined]
    view_box: list = []
    view = CalculatorView(replace(base, compute=slow))
    view_box.append(view)
    view.set_input("dice", "7")
    assert "Computing" in seen[-1]
    assert "rl-status-busy" in seen[-1]
    assert view.status.value == ""  # cleared once the result is in


@pytest.mark.parametrize(
    "seed",
    [
        "\u00b2",  # superscript 2: isdigit() said yes, int() raised
        "\u2461",  # circled 2
        "9" * 5000,  # past Python's integer-string limit
        "\u0661\u0662",  # Arabic-Indic 12: was read as 12
        "4294967297",
        "-1",
        "1.5",
        "12 34 5",
    ],
)
def test_a_bad_seed_gets_the_seed_message(find, seed):
    view, spec, seed_box, log = _dice_pool_roll(find)
    seed_box.value = seed
    view.roll(spec, seed_box, log)
    assert "Seed must be a whole number from 0 to 4,294,967,296." in log.value
    assert "data-seed" not in log.value
    seed_box.value = " 4,294,967,296 "  # the largest, as the message writes it
    view.roll(spec, seed_box, log)
    assert 'data-seed="4294967296"' in log.value


def test_a_roll_log_is_marked_stale_when_the_result_changes(find):
    view, spec, seed_box, log = _dice_pool_roll(find)
    seed_box.value = "77"
    view.roll(spec, seed_box, log)
    fresh = log.value
    assert "rl-roll-stale" not in fresh
    lines = roll_log(view.result, 77)
    # a bad field keeps the last good result, which the log was rolled with: unchanged
    view.set_input("dice", "many")
    assert log.value == fresh
    view.set_input("dice", str(view.result.dice))  # the same result again: still current
    assert log.value == fresh
    # a new result: the old log says it is stale, keeps what was rolled and its seed
    view.set_input("dice", str(view.result.dice + 3))
    stale = log.value
    assert "rl-roll-stale" in stale
    assert "Rolled before the inputs changed" in stale
    assert 'data-seed="77"' in stale
    assert all(escape(line) in stale for line in lines)
    view.set_input("difficulty", "2")  # marked once, however often the inputs change
    assert log.value.count("Rolled before the inputs changed") == 1
    # rolling again shows a current log for the new pool
    view.roll(spec, seed_box, log)
    assert "rl-roll-stale" not in log.value
    assert all(escape(line) in log.value for line in roll_log(view.result, 77))


def test_a_rolling_message_is_cleared_when_the_result_changes(find):
    view, spec, seed_box, log = _dice_pool_roll(find)
    view.set_input("dice", "-4")
    view.roll(spec, seed_box, log)
    assert "Fix the highlighted fields" in log.value
    view.set_input("dice", "4")
    assert log.value == ""
