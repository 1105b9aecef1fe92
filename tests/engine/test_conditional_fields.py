"""Fields that apply under one ruleset only: declared (``shown_when``), checked, honest.

A field declared ``shown_when=("ruleset", "2.1")`` is hidden by the form under
2.0. That is only right if the rule function does not use it there, so for
every such field of every calculator this test varies it over its range with
the ruleset that hides it and checks that no figure and no chart moves. And
every field whose label says it belongs to one ruleset ("2.0: …", "… (2.1)")
must be declared so.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from helpers_autofire import AUTOFIRE_ONLY_21

from ruleslab import BoolParam, ChoiceParam, IntParam, NumberParam, Param, TextParam
from ruleslab.calculators import CALCULATORS
from ruleslab.declare import Calculator, ChartView, FieldGroup
from ruleslab.params import checked
from ruleslab.ruleset import RULESETS

_RULESET_LABEL = re.compile(r"^(2\.[01]):|\((2\.[01])\)")


def _ruleset_of_label(param: Param) -> str | None:
    """The ruleset a label says the field belongs to ("2.1: target's Wits", "Willpower (2.1)")."""
    m = _RULESET_LABEL.search(param.label)
    return (m.group(1) or m.group(2)) if m else None


def _conditioned(calc: Calculator) -> list[tuple[Param, tuple[tuple[str, str], ...]]]:
    return [(p, calc.conditions(p.name)) for p in calc.params if calc.conditions(p.name)]


def _others(param: Param) -> list[Any]:
    """Values of ``param`` other than its default, as a Python caller passes them."""
    if isinstance(param, BoolParam):
        return [not param.default]
    if isinstance(param, ChoiceParam):
        return [v for v, _ in param.choices if v != param.default]
    if isinstance(param, IntParam | NumberParam):
        return [v for v in (param.minimum, param.maximum) if v != param.default]
    assert isinstance(param, TextParam)
    return []


def _shown(calc: Calculator, result: Any) -> tuple[Any, ...]:
    """What a GM reads besides the steps: the figures' texts and every chart's bars."""
    charts = tuple(v.chart(result) for v in calc.views if isinstance(v, ChartView))
    return tuple(f.text for f in result.figures()), charts


def test_every_label_naming_a_ruleset_is_declared_to_show_under_it():
    found = 0
    for calc in CALCULATORS:
        for p in calc.params:
            version = _ruleset_of_label(p)
            if version is None or p.name == "ruleset":
                continue
            found += 1
            assert calc.conditions(p.name) == (("ruleset", version),), (calc.key, p.name)
    assert found >= 15  # autofire's and henchmen's targets, health's Willpower/Resistance


@pytest.mark.parametrize(
    "key", [c.key for c in CALCULATORS if any(c.conditions(p.name) for p in c.params)]
)
def test_a_hidden_field_changes_no_figure(key):
    calc = next(c for c in CALCULATORS if c.key == key)
    for param, conditions in _conditioned(calc):
        for field, value in conditions:
            control = next(p for p in calc.params if p.name == field)
            assert isinstance(control, ChoiceParam)
            for other, _label in control.choices:
                if other == value:
                    continue
                base = calc.defaults() | {field: other}
                seen = _shown(calc, calc.compute(**base))
                for changed in _others(param):
                    again = calc.compute(**(base | {param.name: changed}))
                    assert _shown(calc, again) == seen, (key, param.name, changed)


def test_the_ruleset_specific_fields_are_declared():
    """The calculators where 2.0 and 2.1 take different inputs, by hand from their steps
    ("Not used under 2.0: …") and labels."""
    expected = {
        "autofire": {
            "2.0": {"dodge_pool", "dodge_reroll_tens", "daze_on_defence"},
            "2.1": set(AUTOFIRE_ONLY_21),
        },
        "henchmen": {
            "2.0": {"target_dodge", "daze_on_defence"},
            "2.1": {"target_dexterity", "target_wits", "attacks_before"},
        },
        "defence": {
            "2.0": {"daze_on_defence"},  # issue 33: RN-COND-4's other reading
            "2.1": {
                "quantum",
                "attack_pool",
                "attack_difficulty",
                "actions",
                "active_defence",
                "defence_position",
                "attack_rerolls",
                "multiple_reading",
                "mega_in_defense",
            },
        },
        "health": {"2.1": {"willpower", "resistance"}},
    }
    declared: dict[str, dict[str, set[str]]] = {}
    by_target: dict[str, set[str]] = {}
    for calc in CALCULATORS:
        for p, conditions in _conditioned(calc):
            for field, value in conditions:
                if (calc.key, field) == ("warfare", "target"):  # not a ruleset: the target
                    by_target.setdefault(value, set()).add(p.name)
                    continue
                if p.name.endswith("extra_actions_power"):  # issue 33: only when Stunned
                    assert (field.removeprefix("target_"), value) == ("daze", "stunned")
                    continue
                if p.implies is not None:  # an override (RN-SOAK-4): shown when entered
                    assert (field, value) == p.implies == (f"{p.name}_from", "entered")
                    assert (calc.key, p.name) in {
                        ("autofire", "natural_soak"),
                        ("henchmen", "target_natural_soak"),
                    }
                    continue
                assert field == "ruleset", (calc.key, p.name)
                assert value in RULESETS, (calc.key, p.name)
                declared.setdefault(calc.key, {}).setdefault(value, set()).add(p.name)
    assert declared == expected
    # Warfare: a character's Stamina (Dazing) and a squad's henchmen
    assert by_target == {
        "character": {"stamina", "mega_stamina", "dazing"},
        "squad": {"henchmen"},
    }


# --- the declaration's own checks ------------------------------------------------------

MODE = ChoiceParam("mode", "Mode", choices=(("a", "A"), ("b", "B")))
X = IntParam("x", "X", shown_when=("mode", "a"))
Y = IntParam("y", "Y")
Z = IntParam("z", "Z", shown_when=("x", "1"))
W = IntParam("w", "W", shown_when=("mode", "c"))


def _calc(*params: Param, **kw: Any) -> Calculator:
    @checked(MODE, *params)
    def fn(mode: str = "a", x: int = 0, y: int = 0, z: int = 0, w: int = 0) -> Any:
        raise AssertionError("not called")

    return Calculator(key="t", title="T", summary="", compute=fn, rules=("r",), **kw)


def test_conditions_apply_by_the_choice_fields_value():
    calc = _calc(X, Y, groups=(FieldGroup("Only b", ("y",), shown_when=("mode", "b")),))
    assert calc.conditions("x") == (("mode", "a"),)
    assert calc.conditions("y") == (("mode", "b"),)
    assert calc.conditions("mode") == ()
    assert calc.applies("x", {"mode": "a"})
    assert not calc.applies("x", {"mode": "b"})
    assert calc.not_applying({"mode": "a"}) == {"y"}
    assert calc.not_applying({"mode": "b"}) == {"x"}


@pytest.mark.parametrize(
    ("params", "kw", "message"),
    [
        ((Z, X), {}, "not a choice field"),  # a number field cannot decide
        ((W,), {}, "not one of"),
        ((IntParam("x", "X", shown_when=("nope", "a")),), {}, "unknown"),
        ((Y,), {"groups": (FieldGroup("G", ("y",), shown_when=("mode", "c")),)}, "not one of"),
        ((Y,), {"groups": (FieldGroup("G", ("mode",), shown_when=("mode", "a")),)}, "itself"),
    ],
)
def test_a_condition_must_name_a_choice_field_and_one_of_its_values(params, kw, message):
    with pytest.raises(ValueError, match=message):
        _calc(*params, **kw)


def test_a_field_deciding_others_cannot_itself_be_conditional():
    mode2 = ChoiceParam("z", "Z", choices=(("1", "1"),), shown_when=("mode", "a"))

    @checked(MODE, mode2, IntParam("x", "X", shown_when=("z", "1")))
    def fn(mode: str = "a", z: str = "1", x: int = 0) -> Any:
        raise AssertionError("not called")

    with pytest.raises(ValueError, match="itself shown"):
        Calculator(key="t", title="T", summary="", compute=fn, rules=("r",))
