"""The calculator's layout, built in Python (issue 20): the form beside the results, the
groups that fold, the summary kept in view, results marked stale while a field is bad.

What the page draws of it (widths, stickiness, keyboard) is checked in Chromium by
``tests/browser/test_layout.py``.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from ruleslab import InputError
from ruleslab.calculators import CALCULATORS, get
from ruleslab_widgets.fold import FoldHeading, Summary
from ruleslab_widgets.view import CalculatorView
from tests.engine.headline_cases import CASES

KEYS = [c.key for c in CALCULATORS]


@pytest.fixture
def inputs_under(find):
    """``inputs_under(widget, view)``: the names of the view's inputs at or below ``widget``."""

    def names(widget: Any, view: CalculatorView) -> set[str]:
        return {name for name in view.inputs if find(widget, f"rl-field-{name}") is not None}

    return names


@pytest.mark.parametrize("key", KEYS)
def test_the_form_sits_beside_the_results_and_every_field_is_in_the_form(
    key, find_all, inputs_under
):
    view = CalculatorView(get(key))
    (body,) = find_all(view, "rl-body")
    assert list(body.children) == [view.form, view.results]
    # the results column holds the summary, the status, the figures, the panels, the steps
    parts = list(view.results.children)
    assert parts[:3] == [view.summary, view.status, view.output]
    assert view.working in parts
    assert all(p in parts for p in view.panels)
    assert inputs_under(view.form, view) == set(view.inputs)
    assert not inputs_under(view.results, view)
    # the bar kept in view on a narrow calculator sits above the form, under the link
    assert view.children.index(view.keybar) == view.children.index(view.share) + 2
    assert view.children.index(view.link_status) == view.children.index(view.share) + 1
    assert view.children.index(view.keybar) < view.children.index(body)
    # the title the app page may hide
    assert '<h2 class="rl-title">' in view.children[0].value


def test_a_calculator_without_groups_gets_one_per_role_after_its_main_inputs(inputs_under):
    calc = get("lifting")
    view = CalculatorView(calc)
    roles = calc.compute.roles
    titles = [t for t in view.folds if t != "Rules options"]
    assert titles == [r.title for r in roles]
    for role in roles:
        (box,) = [b for g, b in view._group_boxes if g.title == role.title]
        expected = {role.flat_name(f) for f in role.fields} - set(calc.options)
        assert inputs_under(box, view) == expected
    # the inputs in no role come first, ungrouped (after the party bar that fills roles)
    assert view.form.children[0] is view.party
    first = view.form.children[1]
    assert inputs_under(first, view) == set(view.inputs) - {
        n for r in roles for n in r.flat_names
    } - set(calc.options)
    assert "object_kg" in inputs_under(first, view)


def test_declared_groups_are_kept():
    calc = get("autofire")
    view = CalculatorView(calc)
    assert [g.title for g, _box in view._group_boxes] == [g.title for g in calc.groups]


@pytest.mark.parametrize("key", KEYS)
def test_each_group_folds_with_a_disclosure_and_rules_options_start_folded(key, find_all):
    calc = get(key)
    view = CalculatorView(calc)
    for title, fold in view.folds.items():
        assert isinstance(fold, FoldHeading)
        (region,) = [c for c in find_all(view, "rl-fold-region") if fold.region in c._dom_classes]
        assert fold.expanded is (title != "Rules options")
        fold.expanded = False
        assert region.layout.display == "none"
        fold.expanded = True
        assert region.layout.display != "none"
    if calc.option_params:
        assert view.options_box is view.folds["Rules options"]
        (heading,) = find_all(view, "rl-options-heading")
        assert heading is view.options_box


def test_compact_groups_keep_every_help_line_for_focus_and_tap(find_all):
    calc = get("compressed")
    view = CalculatorView(calc)
    helps = find_all(view, "rl-help-compact")
    grouped = [p for g in calc.groups for p in calc.group_params(g) if p.help]
    assert len(helps) == len(grouped) > 0
    for p in grouped[:3]:
        assert any(escape(p.help)[:20] in h.value for h in helps)


def test_the_summary_shows_the_ruleset_then_each_changed_option_as_chips():
    view = CalculatorView(get("lifting"))
    assert view.summary.chips == [["ruleset", "Aberrant 2.1", False]]
    assert view.keybar.chips == view.summary.chips
    view.apply_query("ruleset=2.0&specialty=yes")
    names = [c[0] for c in view.summary.chips]
    assert names == ["ruleset", "specialty"]
    assert view.summary.chips[0] == ["ruleset", "Aberrant 2.0", True]
    assert view.summary.chips[1][1].endswith(": yes")
    # a calculator without a ruleset: one chip for the defaults, then the changed ones
    healing = CalculatorView(get("healing"))
    first = get("healing").option_params[0].name
    assert healing.summary.chips == [[first, "Rules options: the defaults", False]]


@pytest.mark.parametrize(
    ("key", "link", "figures"),
    [(key, link, figures) for key, cases in CASES.items() for link, figures in cases],
)
def test_the_summary_shows_the_headline_the_inputs_ask_for(key, link, figures):
    view = CalculatorView(get(key))
    view.apply_query(link)
    assert view.result is not None
    assert not view.last_error
    by_key = {f.key: f for f in view.result.figures()}
    expected = [[by_key[k].label, by_key[k].text] for k in figures]
    assert view.summary.figures == view.keybar.figures == expected
    assert view.summary.stale == ""
    assert view.keybar.scenario == ""
    # the results table: the headline first, in order, marked; then the other figures
    keys = re.findall(r'data-figure="([^"]+)"', view.output.value)
    assert tuple(keys[: len(figures)]) == figures
    assert sorted(keys) == sorted(by_key)
    assert view.output.value.count('class="rl-headline"') == len(figures)


def test_while_comparing_the_key_bar_names_the_scenario_it_shows():
    view = CalculatorView(get("jumping"))
    view.scenarios.add()  # B, the form edits it
    view.set_input("strength", "5")
    assert view.keybar.scenario == "Scenario B: Strength 5 dots"
    b = view.keybar.figures
    view.scenarios.select(0)
    assert view.keybar.scenario == "Scenario A"
    assert view.keybar.figures != b
    view.scenarios.close()
    assert view.keybar.scenario == ""


def test_a_bad_field_marks_the_results_stale_until_it_is_fixed():
    view = CalculatorView(get("lifting"))
    good = view.output.value
    assert "rl-stale" not in view.results._dom_classes
    view.set_input("strength", "99")
    assert "rl-stale" in view.results._dom_classes
    assert view.summary.stale == "Not current: fix Strength."
    assert view.keybar.stale == view.summary.stale
    assert view.output.value == good  # kept, drawn faded under the banner
    view.set_input("strength", "4")
    assert "rl-stale" not in view.results._dom_classes
    assert view.summary.stale == ""


def test_a_bad_link_never_shows_current_looking_figures():
    view = CalculatorView(get("lifting"))
    view.apply_query("calculator=lifting&strength=99")
    assert "rl-stale" in view.results._dom_classes
    assert view.summary.stale.startswith("Not current: fix Strength")
    # a choice a link cannot set: the field keeps its default, and the result is not the link's
    other = CalculatorView(get("lifting"))
    other.apply_query("ruleset=3.0")
    assert "rl-stale" in other.results._dom_classes
    assert "Rules version" in other.summary.stale


def test_a_choice_error_names_the_values_a_link_takes_beside_their_labels():
    view = CalculatorView(get("lifting"))
    view.set_input("ruleset", "2.0")
    calc = get("lifting")
    ruleset = next(p for p in calc.params if p.name == "ruleset")
    listed = ", ".join(f"{v} = {label}" for v, label in ruleset.choices)
    with pytest.raises(InputError) as err:
        ruleset.check("3.0")
    assert err.value.message == f"{ruleset.label} must be one of {listed}."
    assert "2.1 = Aberrant 2.1" in listed
    view.apply_query("ruleset=3.0")
    assert "2.1 = Aberrant 2.1, 2.0 = Aberrant 2.0" in view.messages["ruleset"].value


def test_summary_and_fold_hold_text_only():
    # (the page sets their text with textContent: no HTML from Python)
    assert "innerHTML" not in Summary._esm
    assert "innerHTML" not in FoldHeading._esm


def test_a_chart_with_nothing_to_chart_is_not_drawn():
    view = CalculatorView(get("autofire"))  # a character targeted: no henchmen removed
    titles = [v.title for v in view.calc.views]
    removed = view.panels[titles.index("Henchmen removed per squad")]
    assert removed.bars == []
    assert removed.layout.display == "none"
    assert all(p.layout.display != "none" for p in view.panels if p is not removed)
    view.apply_query("target_kind=squad")
    assert removed.bars
    assert removed.layout.display != "none"


def test_the_key_bar_holds_a_button_per_roll():
    assert CalculatorView(get("chimera")).keybar.actions == ["Play a round", "Play the fight"]
    assert CalculatorView(get("dice_pool")).keybar.actions == ["Roll it"]
    assert CalculatorView(get("lifting")).keybar.actions == []
    assert CalculatorView(get("lifting")).summary.actions == []


def test_a_scenario_has_one_colour_in_bar_and_line_charts():
    from ruleslab_widgets.style import DARK, LIGHT

    for theme in (LIGHT, DARK):
        for i in range(4):
            assert theme[f"line-{i}"] == theme[f"series-{i}"]
        lines = [theme[f"line-{i}"] for i in range(6)]
        assert len(set(lines)) == 6
