"""The contract every calculator's form keeps, checked over the whole catalog.

The widget layer has no per-calculator code, so one test, parametrized over
:data:`ruleslab.calculators.CALCULATORS`, proves every form: typed as a GM
types them, stored input sets (``tests/golden/data/<key>.json``, written from
the code before the widgets were made generic) must show the stored figures,
working, chart bars, health track and roll logs — or the stored message next
to each offending field, the last good result kept. The expected outcomes are
the stored ones, never recomputed here.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from html import escape
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab import BoolParam, ChoiceParam, IntParam, NumberParam, TextParam
from ruleslab.calculators import CALCULATORS, get
from ruleslab_widgets import CalculatorView
from ruleslab_widgets.notes import linkify

GENERATE = Path(__file__).parents[1] / "golden" / "generate.py"
SAMPLES = 10
"""Stored input sets tried per calculator, spread evenly over its file (defaults first).
Also tried: every stored set the rules refuse, and every set changing only one
choice or yes/no input (a rules version, a reading of the text)."""

KEYS = [c.key for c in CALCULATORS]


def _load_golden() -> ModuleType:
    """``tests/golden/generate.py``, which reads the stored files (fields under current names)."""
    name = "ruleslab_golden_generate"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GENERATE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _stored(key: str) -> dict[str, Any]:
    data: dict[str, Any] = _load_golden().read_stored(key)
    return data


def _samples() -> list[tuple[str, int]]:
    out = []
    for key in KEYS:
        switches = {p.name for p in get(key).params if isinstance(p, BoolParam | ChoiceParam)}
        cases = _stored(key)["cases"]
        n = len(cases)
        spread = {i * n // SAMPLES for i in range(SAMPLES)}
        refused = {i for i, case in enumerate(cases) if "errors" in case["outcome"]}
        switched = {
            i
            for i, case in enumerate(cases)
            if len(case["inputs"]) == 1 and set(case["inputs"]) <= switches
        }
        out += [(key, i) for i in sorted(spread | refused | switched)]
    return out


def _plain(value: Any) -> Any:
    """A panel trait as the golden files store it (tuples as lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("key", "index"), _samples())
def test_the_form_shows_the_stored_outcome(key, index, find_all):
    stored = _stored(key)
    case = stored["cases"][index]
    view = CalculatorView(get(key))
    for name, value in case["inputs"].items():
        view.set_input(name, value)
    outcome = case["outcome"]
    if "errors" in outcome:
        shown = {n: m for n, m in outcome["errors"].items() if n in view.messages}
        for name, message in shown.items():
            assert escape(message) in view.messages[name].value, (case["name"], name)
        assert "fixing" in view.status.value
        assert view.last_error
        return
    assert view.last_error == "", case["name"]
    assert all(m.value == "" for m in view.messages.values())
    for fig in outcome["figures"]:
        assert f'data-figure="{fig["key"]}"' in view.output.value
        # escaped, a rules note cited linked to it
        assert linkify(fig["text"]) in view.output.value, (case["name"], fig["key"])
    for text, rule in outcome["steps"]:
        assert linkify(text) in view.working.value, (case["name"], text)
        assert linkify(rule) in view.working.value
    panels = outcome.get("views", [])
    assert len(view.panels) == len(panels)
    for panel, traits in zip(view.panels, panels, strict=True):
        for name, value in traits.items():
            assert _plain(getattr(panel, name)) == value, (case["name"], name)
    rolls = outcome.get("rolls", {})
    buttons = find_all(view, "rl-roll-button")
    seeds = find_all(view, "rl-roll-seed")
    assert [b.description for b in buttons] == list(rolls)
    rows = zip(buttons, seeds, view.roll_logs, rolls.values(), strict=True)
    for button, seed, log, lines in rows:
        seed.value = str(stored["roll_seed"])
        button.click()
        assert f'data-seed="{stored["roll_seed"]}"' in log.value
        for line in lines:
            assert escape(line) in log.value, (case["name"], line)


@pytest.mark.parametrize("key", KEYS)
def test_every_input_has_its_field_message_and_help(key, find, find_all):
    calc = get(key)
    view = CalculatorView(calc)
    assert set(view.inputs) == {p.name for p in calc.params}
    for p in calc.params:
        assert find(view, f"rl-field-{p.name}") is view.inputs[p.name]
        assert find(view, f"rl-message-{p.name}") is view.messages[p.name]
        assert p.help, f"{key}.{p.name} has no help text"
    if calc.option_params:
        (options,) = find_all(view, "rl-options")
        for p in calc.option_params:
            assert find(options, f"rl-field-{p.name}") is not None


@pytest.mark.parametrize("key", KEYS)
def test_a_bad_number_names_its_field_and_range_and_keeps_the_result(key):
    calc = get(key)
    view = CalculatorView(calc)
    numbers = [p for p in calc.params if isinstance(p, IntParam | NumberParam)]
    for p in numbers:
        good, output = view.result, view.output.value
        view.set_input(p.name, "twelve")
        message = view.messages[p.name].value
        assert escape(p.label) in message, p.name
        assert escape(p.describe_range()) in message, p.name
        assert "1 field needs fixing" in view.status.value
        assert view.result is good
        assert view.output.value == output
        view.set_input(p.name, str(p.default))
        assert view.messages[p.name].value == ""
        assert view.last_error == ""
        assert view.result == good
    for p in calc.params:
        if isinstance(p, BoolParam | ChoiceParam):
            assert view.inputs[p.name].value == p.default


HOSTILE = '<img src=x onerror="alert(1)"> & <script>alert(2)</script>'


@pytest.mark.parametrize(
    "key", [c.key for c in CALCULATORS if any(isinstance(p, TextParam) for p in c.params)]
)
def test_typed_text_never_reaches_the_page_unescaped(key):
    """Whatever a text field holds — shown back in a figure or quoted in a message."""
    calc = get(key)
    view = CalculatorView(calc)
    for p in calc.params:
        if not isinstance(p, TextParam):
            continue
        for text in (HOSTILE, f"{p.default}\n{HOSTILE}", f"{HOSTILE}: Dex 3"):
            view.set_input(p.name, text)
            shown = [view.output.value, view.working.value, view.status.value]
            shown += [m.value for m in view.messages.values()]
            for html in shown:
                assert "<img" not in html, (p.name, text)
                assert "<script>" not in html, (p.name, text)
        view.set_input(p.name, p.default)
        assert view.last_error == ""
