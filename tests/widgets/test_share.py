"""Shared links: ``CalculatorView.share_query`` writes the inputs, ``apply_query`` reads them.

A link restores every input as the GM left it (text exactly as typed, unicode
and newlines included), fields not in the link keep their defaults, and a bad
or unknown value gets the message the form gives for it, never an exception.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab import BoolParam, ChoiceParam, IntParam, NumberParam, Param, TextParam
from ruleslab.calculators import CALCULATORS, get
from ruleslab.calculators.lifting import lifting_and_encumbrance
from ruleslab_widgets import CalculatorView, share
from ruleslab_widgets.view import PAGE_PARAMETERS

TEXT = "Ōni “the ✶” 🐉 — 5 % + = & # ? / ; 'q' <b>bold</b>\n\tsecond line\r\nthird"
"""Text a link must carry unchanged: unicode, every URL delimiter, markup, newlines."""


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _other_value(param: Param) -> Any:
    """A raw form value different from the default (what a GM would have changed)."""
    if isinstance(param, BoolParam):
        return not param.default
    if isinstance(param, ChoiceParam):
        return next(v for v, _ in param.choices if v != param.default)
    if isinstance(param, IntParam | NumberParam):
        end = param.maximum if param.default == param.minimum else param.minimum
        return _number_text(end)
    assert isinstance(param, TextParam)
    return f"{param.default}\n{TEXT}" if param.multiline else f"{param.default}{TEXT}"


def _raw(view: CalculatorView) -> dict[str, Any]:
    return {name: widget.value for name, widget in view.inputs.items()}


def _shown(view: CalculatorView) -> dict[str, Any]:
    """What a GM sees: inputs, each field's message, the status, and the figures and
    steps when they are the inputs' (with a field to fix, the last good result is
    shown, which depends on the order the fields were typed in)."""
    seen = {
        "raw": _raw(view),
        "messages": {name: m.value for name, m in view.messages.items()},
        "status": view.status.value,
        "link_status": view.link_status.value,
    }
    if not view.last_error:
        seen |= {"output": view.output.value, "working": view.working.value}
    return seen


def _build(key: str, values: dict[str, Any]) -> CalculatorView:
    view = CalculatorView(get(key))
    for name, value in values.items():
        view.set_input(name, value)
    return view


def test_a_link_names_only_the_changed_fields_readably():
    view = _build("lifting", {"strength": "5", "might": "2", "object_kg": "450"})
    assert view.share_query() == "calculator=lifting&strength=5&might=2&object_kg=450"
    assert view.share.query == view.share_query()  # the control shows the current link
    assert CalculatorView(get("lifting")).share_query() == "calculator=lifting"


def test_the_link_opens_the_calculators_own_page_without_naming_it_again():
    # issue 35: a shared link opens lifting.html, whose form and figures come with its
    # first response; the page is the calculator's, so the query does not name it
    view = _build("lifting", {"strength": "5", "might": "2"})
    assert view.share.page == "lifting.html"
    assert view.share.link() == "lifting.html?strength=5&might=2"
    assert CalculatorView(get("lifting")).share.link() == "lifting.html"
    # what the link carries reads back the same on that page (the page's key is fixed)
    back = CalculatorView(get("lifting"))
    back.apply_query(view.share.link().partition("?")[2])
    assert back.share_query() == view.share_query()
    # scenarios and a sweep keep everything but the calculator's name
    view.share.sweep = "sweep.field=strength&sweep.range=1..5"
    assert view.share.link() == (
        "lifting.html?strength=5&might=2&sweep.field=strength&sweep.range=1..5"
    )
    # the control on app.html's terms (a page given as app.html) keeps the key
    assert share.ShareLink(query="calculator=lifting&strength=5").link() == (
        "app.html?calculator=lifting&strength=5"
    )


def test_the_readme_link_opens_with_its_figures():
    view = CalculatorView(get("lifting"))
    view.apply_query("?calculator=lifting&strength=5&might=2&object_kg=450")
    assert view.result is not None
    # by hand: 30 kg × (Strength 5 + Might 2) = 210 kg
    assert view.result.figure("capacity").text == "210 kg"
    # the fields not in the link keep their defaults (the checked function's)
    assert view.result == lifting_and_encumbrance(strength=5, might=2, object_kg=450)
    assert view.status.value == ""


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_every_field_changed_round_trips(key):
    calc = get(key)
    values = {p.name: _other_value(p) for p in calc.params}
    first = _build(key, values)
    query = first.share_query()
    # a field that does not apply with these values (the other ruleset's) is hidden and
    # left out of the link, unless it holds a bad value (then shown, for the GM to fix)
    hidden = {n for n in calc.not_applying(values) if not first.messages[n].value}
    assert first.hidden_fields() == hidden
    shown = {n: v for n, v in values.items() if n not in hidden}
    assert {name for name, _ in parse_qsl(query)} == {"calculator", *shown}
    again = CalculatorView(calc)
    again.apply_query(query)
    assert _raw(again) == _raw(_build(key, shown))
    assert {n: _raw(again)[n] for n in shown} == shown
    assert _shown(again) == _shown(_build(key, shown))
    if not first.last_error:
        # hiding changes no figure (the steps may name the hidden fields' values)
        assert again.result is not None
        assert first.result is not None
        assert again.result.figures() == first.result.figures()
        if not hidden:
            assert again.result == first.result
    assert again.share_query() == query


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_hostile_text_round_trips_and_gets_the_forms_messages(key):
    calc = get(key)
    typed = {p.name: TEXT for p in calc.params if not isinstance(p, BoolParam | ChoiceParam)}
    first = _build(key, typed)
    again = CalculatorView(calc)
    again.apply_query(first.share_query())
    assert _raw(again) == _raw(first)
    assert _shown(again) == _shown(first)
    for name in typed:
        shown = again.messages[name].value
        assert "<b>" not in shown  # escaped
    assert "<b>" not in again.status.value


def test_unicode_combatant_lines_round_trip_with_their_figures():
    calc = get("compressed")
    lines = (
        "Ōni the Ogre 🐉: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5\n"
        "Ćeska “Ace” Nováková: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"
    )
    first = _build("compressed", {"a_combatants": lines})
    assert first.last_error == ""  # the lines are read: the figures are theirs
    query = first.share_query()
    assert "%0A" in query  # the newline is encoded, not lost
    assert "%F0%9F%90%89" in query  # 🐉 as UTF-8
    again = CalculatorView(calc)
    again.apply_query(query)
    assert again.inputs["a_combatants"].value == lines
    assert _shown(again) == _shown(first)
    assert again.result == first.result


def test_a_bad_number_gets_the_fields_usual_message():
    view = CalculatorView(get("lifting"))
    view.apply_query("calculator=lifting&strength=-2&might=lots")
    typed = _build("lifting", {"strength": "-2", "might": "lots"})
    assert view.messages["strength"].value == typed.messages["strength"].value
    assert "Strength must be a whole number from 0 to" in view.messages["strength"].value
    assert "Might" in view.messages["might"].value
    assert _raw(view)["strength"] == "-2"  # kept as typed, for the GM to fix
    assert "2 fields need fixing" in view.status.value


def test_a_choice_or_checkbox_the_widget_cannot_hold_keeps_its_default_with_its_message():
    view = CalculatorView(get("lifting"))
    closed = CalculatorView(get("lifting"))
    closed.apply_query("strength=4")
    assert closed.options_box is not None
    assert closed.options_box.expanded is False  # (nothing to show: stays closed)
    view.apply_query("calculator=lifting&ruleset=<i>2.5</i>&specialty=maybe&strength=4")
    assert view.inputs["ruleset"].value == "2.1"
    assert view.inputs["specialty"].value is False
    assert "Rules version must be one of" in view.messages["ruleset"].value
    assert "must be yes or no" in view.messages["specialty"].value
    assert "could not be used" in view.link_status.value
    assert "<i>" not in view.link_status.value + view.messages["ruleset"].value
    # the rest of the link applies and the calculator computes with the defaults
    assert view.result == lifting_and_encumbrance(strength=4)
    # the rules option is shown, not left in the closed "Rules options"
    assert view.options_box is not None
    assert view.options_box.expanded is True
    # another change keeps them said; fixing the fields clears them
    view.set_input("strength", "5")
    assert "could not be used" in view.link_status.value
    assert "must be yes or no" in view.messages["specialty"].value
    view.set_input("specialty", True)
    assert view.messages["specialty"].value == ""
    view.set_input("ruleset", "2.0")
    assert view.messages["ruleset"].value == ""
    assert view.status.value == ""
    assert view.link_status.value == ""


def test_checkbox_words():
    for word, value in [("yes", True), ("TRUE", True), ("on", True), ("1", True), ("no", False)]:
        view = CalculatorView(get("lifting"))
        view.apply_query(f"specialty={word}")
        assert view.inputs["specialty"].value is value, word
        assert view.messages["specialty"].value == ""


def test_unknown_and_repeated_names_are_named_at_the_top():
    view = CalculatorView(get("lifting"))
    view.apply_query(
        "calculator=lifting&theme=dark&strenght=5&%3Cscript%3E=1&strength=3&strength=6"
    )
    status = view.link_status.value
    assert view.status.value == ""  # (said once, at the top: not in the results column)
    assert "This link names “strenght”" in status
    assert "Did you mean strength (Strength)?" in status
    assert "&lt;script&gt;" in status
    assert "<script>" not in status
    assert "not fields of this calculator" in status
    assert "(Its fields: strength, might, mega_strength, stamina," in status
    assert "load_kg, daze, levels_lost, object_kg," in status
    assert "Strength more than once: the last is used" in status
    assert "theme" not in status.split("(Its fields")[0]  # a page parameter, not a field
    assert view.inputs["strength"].value == "6"
    assert view.result == lifting_and_encumbrance(strength=6)
    assert PAGE_PARAMETERS >= {"calculator", "theme", "embed"}


def test_an_embeds_unknown_attribute_is_named_as_an_attribute_with_the_accepted_ones():
    # app/embed.js makes its element's data-* attributes the link's names, adding embed=
    view = CalculatorView(get("autofire"))
    view.apply_query("calculator=autofire&embed=ruleslab-1&firearms=3&dexterity=4")
    status = view.link_status.value
    assert "attributes name “data-firearms”, which is not a field" in status
    assert "Did you mean data-ability (Attack ability (Firearms …))?" in status
    assert "(Its attributes: data-dexterity, data-mega_dexterity, data-ability," in status
    assert "ruleslab-1" not in status  # the id of the embed.js iframe the page is in
    assert view.inputs["dexterity"].value == "4"


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?",
        "&&&==&",
        "=5",
        "strength",
        "strength=%ZZ%",
        "strength=%FF%FE",  # not UTF-8
        "strength=%00",
        "a_combatants=" + "x" * 200_000,
        "&".join(f"f{i}={i}" for i in range(5_000)),
        "might=" + "9" * 10_000,
    ],
)
def test_garbage_links_never_raise(query):
    for key in ("lifting", "compressed"):
        view = CalculatorView(get(key))
        view.apply_query(query)
        assert "Traceback" not in view.status.value + view.link_status.value
        assert view.share_query().startswith(f"calculator={key}")


def test_many_unknown_names_are_summed_up():
    view = CalculatorView(get("lifting"))
    view.apply_query("&".join(f"x{i}=1" for i in range(50)))
    assert "and 47 more" in view.link_status.value
    assert len(view.link_status.value) < 1000


def test_a_link_recomputes_once():
    view = CalculatorView(get("lifting"))
    runs = []
    real = view.calc

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def run(self, parsed: Any) -> Any:
            runs.append(parsed)
            return real.run(parsed)

    view.calc = Counting()  # type: ignore[assignment]
    try:
        view.apply_query("strength=5&might=2&object_kg=450&load_kg=40")
    finally:
        view.calc = real
    assert len(runs) == 1


def test_the_control_writes_no_markup():
    """Escape everything shown: the front end sets text, never HTML."""
    assert "innerHTML" not in share._ESM
    assert "insertAdjacentHTML" not in share._ESM
    assert "textContent" in share._ESM


def _sweep_steps(param: IntParam | NumberParam) -> list[int | float]:
    """Steps a GM may type into the sweep's Step box: the field's own, and for a decimal
    field tiny ones (Python writes 0.00001 as 1e-05) and one of many decimals."""
    if isinstance(param, IntParam):
        return [param.step, max(1, (param.maximum - param.minimum) // 3)]
    return [param.step, 0.00001, 0.00000000000000001, 0.0000015, 1 / 3]


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.key)
def test_every_sweep_link_the_site_writes_is_one_it_reads_back(calc):
    """Issue 38, 4: a Step under 0.0001 was written into the link as ``1e-05``, which
    the site then refused."""
    from urllib.parse import quote, urlencode

    from ruleslab.whatif import Range, SweepSpec, sweep_from_query

    for param in calc.params:
        if not isinstance(param, IntParam | NumberParam):
            continue
        for step in _sweep_steps(param):
            start = param.minimum
            stop = min(param.maximum, param.minimum + 3 * step)
            spec = SweepSpec(param.name, Range(start, stop, step), ())
            query = urlencode(spec.pairs(calc), quote_via=quote)
            assert "e-" not in query.lower(), query
            back = sweep_from_query(calc, query)
            assert back is not None
            assert back.field == param.name
            assert isinstance(back.span, Range)
            assert float(back.span.start) == float(start)
            assert float(back.span.stop) == float(stop)
            assert float(back.span.step) == float(step)  # type: ignore[arg-type]


def test_a_tiny_step_typed_in_the_panel_makes_a_link_that_opens_the_same_sweep():
    view = CalculatorView(get("falling"))
    panel = view.sweep_panel
    panel.heading.expanded = True
    panel.field.value = "height_m"
    panel.start.value, panel.stop.value, panel.step.value = "0", "0.00003", "0.00001"
    link = view.share.sweep
    assert "0.00001" in link
    other = CalculatorView(get("falling"))
    other.apply_query(f"calculator=falling&{link}")
    assert other.sweep_panel.step.value == "0.00001"
    assert "rl-sweep-stale" not in other.sweep_panel._dom_classes
    assert "sweep" not in other.status.value.lower()
    assert other.sweep_panel.sweep is not None
    assert other.sweep_panel.sweep.x == panel.sweep.x == (0, 0.00001, 0.00002, 0.00003)


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.key)
def test_every_scenarios_link_the_site_writes_is_one_it_reads_back(calc):
    """Each field type in scenario B (a value other than A's): the link the view writes
    opens the same scenarios."""
    from ruleslab.whatif.inputs import parse_value

    view = CalculatorView(calc)
    shown = [p for p in calc.params if p.name not in view.hidden_fields()]
    one_of_each = {type(p): p for p in reversed(shown)}  # (the first field of each type)
    for param in one_of_each.values():
        view = CalculatorView(calc)
        view.scenarios._receive(view.scenarios.bar, {"type": "open"}, [])
        view.scenarios._receive(view.scenarios.bar, {"type": "add"}, [])
        view.set_input(param.name, _other_value(param))
        if param.name in view.hidden_fields():
            continue  # (it does not apply: left out of the link by design)
        query = view.share_query()
        other = CalculatorView(calc)
        other.apply_query(query)
        assert other.scenarios.comparing, (param.name, query)
        assert len(other.scenarios.values) == 2
        view.scenarios._store()
        other.scenarios._store()
        got, want = other.scenarios.values[1][param.name], view.scenarios.values[1][param.name]
        if isinstance(param, TextParam):  # (as typed, even text the field refuses)
            assert got == want
        else:
            assert parse_value(param, got) == parse_value(param, want), (param.name, got, want)
            assert "could not be used" not in other.status.value, (param.name, other.status.value)


def test_an_old_link_entering_the_soak_shows_it_as_the_override():
    # issue 33 (a): before the soak came from the target's record, a link set
    # natural_soak=N alone; it still means N, shown as the override (never the record's)
    view = CalculatorView(get("autofire"))
    view.apply_query("?calculator=autofire&natural_soak=5&target_stamina=4")
    assert view.inputs["natural_soak_from"].value == "entered"
    assert "natural_soak" not in view.hidden_fields()
    working = " ".join(s.text for s in view.result.steps)
    assert "Natural soak 5 entered" in working
    assert "which gives 3" in working
    # and the link it shares again says so
    assert "natural_soak_from=entered" in view.share_query()
    # a link giving neither: the record's soak (Quantum 1 + Stamina 4/2 = 3)
    plain = CalculatorView(get("autofire"))
    plain.apply_query("?calculator=autofire&target_stamina=4")
    assert plain.inputs["natural_soak_from"].value == "record"
    assert "Soak 3 (natural 3" in " ".join(s.text for s in plain.result.steps)
