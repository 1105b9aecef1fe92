"""Fields that do not apply are hidden, not ignored; number fields step.

Over the whole catalog: every field declared ``shown_when`` is hidden exactly
when its condition fails, keeps its value while hidden, comes back unchanged,
and is left out of a shared link; a hidden field holding a bad value is shown
with its message. Every number field is a stepper whose "+"/"−" and arrow keys
go through the form's own path (the figures are the engine's for the stepped
text), never past the field's range.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab import ChoiceParam, IntParam, NumberParam
from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.number import NumberField

CONDITIONAL = [c.key for c in CALCULATORS if any(c.conditions(p.name) for p in c.params)]


def _shown_on_page(view: CalculatorView, name: str) -> bool:
    """What the page shows: the field's row, and its group's box, not ``display: none``."""
    if view._rows[name].layout.display == "none":
        return False
    return all(
        box.layout.display != "none" for group, box in view._group_boxes if name in group.names
    )


def _deciding(calc: Calculator) -> dict[str, ChoiceParam]:
    names = {field for p in calc.params for field, _ in calc.conditions(p.name)}
    return {p.name: p for p in calc.params if p.name in names and isinstance(p, ChoiceParam)}


def _changed_text(view: CalculatorView, name: str) -> Any:
    """A value other than the field's default that the field accepts (so a link carries
    it): the one it holds if it already differs (a field conditioned by two controls,
    such as the ruleset and Stunned, is typed under the first), else another."""
    widget = view.inputs[name]
    param = next(p for p in view.calc.params if p.name == name)
    if isinstance(param, ChoiceParam):
        if widget.value != param.default:
            return widget.value
        return next(v for v, _ in param.choices if v != widget.value)
    if isinstance(param, IntParam | NumberParam):
        if param.parse(widget.value) != param.default:
            return widget.value
        return str(int(param.maximum)) if widget.value != str(int(param.maximum)) else "0"
    return not param.default


@pytest.mark.parametrize("key", CONDITIONAL)
def test_fields_that_do_not_apply_are_hidden_and_keep_their_values(key):
    calc = get(key)
    view = CalculatorView(calc)
    for field, control in _deciding(calc).items():
        start = view.inputs[field].value
        conditioned = [p.name for p in calc.params if calc.conditions(p.name)]
        # change every conditioned field while it is shown, under each value of the control
        typed: dict[str, Any] = {}
        for value, _label in control.choices:
            view.set_input(field, value)
            for name in conditioned:
                applies = all(view.inputs[f].value == v for f, v in calc.conditions(name))
                assert _shown_on_page(view, name) is applies, (key, field, value, name)
                if applies and name not in typed:
                    typed[name] = _changed_text(view, name)
                    view.set_input(name, typed[name])
            assert view.last_error == "", (key, view.last_error)
            # a link carries only what is shown
            query = view.share_query()
            for name in conditioned:
                carried = f"&{name}=" in query
                shown = _shown_on_page(view, name)
                assert carried is (shown and name in typed), (key, value, name, query)
        # every field typed while shown still holds what was typed, hidden or not
        for name, text in typed.items():
            assert view.inputs[name].value == text, (key, name)
        view.set_input(field, start)
        for name in conditioned:
            applies = all(view.inputs[f].value == v for f, v in calc.conditions(name))
            assert _shown_on_page(view, name) is applies


def test_autofire_shows_one_rulesets_target_at_a_time():
    view = CalculatorView(get("autofire"))
    assert view.inputs["ruleset"].value == "2.1"
    assert not _shown_on_page(view, "dodge_pool")
    assert _shown_on_page(view, "target_dexterity")
    assert _shown_on_page(view, "mega_in_defense")  # a 2.1 reading among the rules options
    titles = {g.title: box.layout.display == "none" for g, box in view._group_boxes}
    assert titles == {
        "The attacker": False,
        "The weapon": False,
        "The attack": False,
        "The target": False,
        "Target: a squad of henchmen": False,
        "Target under 2.0": True,
        "Target under 2.1": False,
        "The attacker's load and conditions": False,
        "The target's conditions": False,
    }
    view.set_input("target_dexterity", "4")
    view.set_input("ruleset", "2.0")
    assert _shown_on_page(view, "dodge_pool")
    assert not _shown_on_page(view, "target_dexterity")
    assert not _shown_on_page(view, "mega_in_defense")
    assert view.share_query() == "calculator=autofire&ruleset=2.0"
    view.set_input("ruleset", "2.1")
    assert view.inputs["target_dexterity"].value == "4"
    assert view.share_query() == "calculator=autofire&target_dexterity=4"


def test_a_hidden_field_with_a_bad_value_is_shown_with_its_message():
    view = CalculatorView(get("autofire"))
    view.set_input("target_wits", "eleven")
    assert "fixing" in view.status.value
    view.set_input("ruleset", "2.0")
    # still bad, so still shown (the GM is told to fix it and can see it) …
    assert _shown_on_page(view, "target_wits")
    assert "Wits" in view.messages["target_wits"].value
    assert "target_wits=eleven" in view.share_query()
    # … until fixed: then hidden, as it does not apply under 2.0
    view.set_input("target_wits", "3")
    assert not _shown_on_page(view, "target_wits")
    assert view.last_error == ""


def test_a_link_naming_a_hidden_field_keeps_its_value_hidden():
    view = CalculatorView(get("health"))
    view.apply_query("calculator=health&ruleset=2.0&willpower=7")
    assert view.inputs["willpower"].value == "7"
    assert not _shown_on_page(view, "willpower")
    assert view.status.value == ""
    assert view.share_query() == "calculator=health&ruleset=2.0"
    view.set_input("ruleset", "2.1")
    assert _shown_on_page(view, "willpower")
    assert view.share_query() == "calculator=health&willpower=7"


# --- steppers -------------------------------------------------------------------------


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_every_number_field_steps_through_the_form(key):
    calc = get(key)
    view = CalculatorView(calc)
    numbers = [p for p in calc.params if isinstance(p, IntParam | NumberParam)]
    for p in numbers:
        assert isinstance(view.inputs[p.name], NumberField), p.name
    stepped = 0
    for p in numbers:
        field = view.inputs[p.name]
        before = field.value
        direction = 1 if p.parse(before) < p.maximum else -1
        field.step(direction)
        # by hand: the default one step (1, or the declared step) towards the other bound
        want = p.parse(before) + direction * p.step
        assert p.parse(field.value) == want, (p.name, field.value)
        if view.last_error:  # a rule across fields refused it: its message is shown
            assert view.messages[p.name].value or "fixing" in view.status.value
        else:
            values = {q.name: q.parse(view.inputs[q.name].value) for q in calc.params}
            assert view.result == calc.compute(**values)
            stepped += 1
        view.set_input(p.name, before)
        assert view.last_error == ""
    assert stepped >= min(1, len(numbers))


def test_a_stepper_stops_at_the_bounds_and_keeps_text_it_cannot_read():
    view = CalculatorView(get("lifting"))
    strength = view.inputs["strength"]
    assert isinstance(strength, NumberField)
    strength.value = "19"
    assert strength.can_increase
    strength.step(1)
    assert strength.value == "20"
    assert not strength.can_increase  # the "+" button is disabled at the maximum
    assert strength.can_decrease
    strength.step(1)
    assert strength.value == "20"
    assert view.result is not None
    assert view.result.figure("capacity").text == "600 kg"  # by hand: 30 kg × (20 + Might 0)
    strength.value = "0"
    assert not strength.can_decrease
    strength.step(-1)
    assert strength.value == "0"
    strength.value = "lots"
    strength.step(1)
    assert strength.value == "lots"
    assert "Strength" in view.messages["strength"].value
    assert not strength.can_increase
    assert not strength.can_decrease


def test_a_step_from_text_typed_but_not_yet_sent_starts_from_that_text():
    """The page sends what the box holds when the GM typed and pressed Up at once."""
    view = CalculatorView(get("lifting"))
    weight = view.inputs["object_kg"]
    weight._on_message(weight, {"step": 1, "text": "1,000.5"}, [])
    assert weight.value == "1001.5"
    assert view.result is not None
    assert (
        view.result.figure("p_lift").text
        == view.calc.compute(object_kg=1001.5).figure("p_lift").text
    )
    weight._on_message(weight, {"step": -1, "text": "heavy"}, [])
    assert weight.value == "heavy"  # kept as typed: the field's message says what it takes
    assert "weight must be a number from 0" in view.messages["object_kg"].value
    weight._on_message(weight, {"step": 5, "text": None}, [])  # not a step: ignored
    weight._on_message(weight, "junk", [])
    assert weight.value == "heavy"


def test_a_stepper_button_has_an_accessible_label():
    view = CalculatorView(get("lifting"))
    field = view.inputs["object_kg"]
    assert field.description == "Object's weight (kg)"
    assert field.step_text == "1"
    assert field.minimum == "0"
    assert field.maximum == "1000000000000"  # (ARIA: a plain number)
    assert field.input_mode == "decimal"
    assert view.inputs["strength"].input_mode == "numeric"
    # the page's labels are made from these: "Decrease Object's weight (kg) by 1"
    assert "Decrease ${name} by ${by}" in NumberField._esm


def test_a_number_field_says_how_it_reads_commas_and_refuses_an_ambiguous_one():
    """Issue 37: "1,000" kg could be a thousand or one: refused beside the field with both
    readings; the field's help says the rule; "3,5" and "1e3" are read."""
    from ruleslab.calculators import get as get_calc
    from ruleslab_widgets.view import CalculatorView

    view = CalculatorView(get_calc("lifting"))
    help_line = view._rows["object_kg"].children[-1].value
    assert "1,250 could be either, so type 1250 or 1.25" in help_line
    assert "1e3 is 1000" in help_line
    view.set_input("object_kg", "1,000")
    message = view.messages["object_kg"].value
    assert "could be 1000 (a thousands comma) or 1 (a decimal comma)" in message
    assert view.keybar.stale == "Not current: fix Object's weight."
    view.set_input("object_kg", "3,5")
    assert view.messages["object_kg"].value == ""
    assert view.result_values["object_kg"] == 3.5
    view.set_input("object_kg", "1e3")
    assert view.result_values["object_kg"] == 1000.0
    assert "object_kg=1e3" in view.share_query()  # (as typed: it reads back the same)
