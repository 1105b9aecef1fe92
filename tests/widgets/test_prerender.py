"""The static calculator (``ruleslab_widgets.prerender``): what the live view shows, as HTML.

Expected figures are worked out here by hand (the dice's binomial sums), never
by the code under test; the rest checks the markup the page relies on: the
root's classes, one real field per input holding its value and naming its link
field, labels tied to their fields, everything escaped, well-formed HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from math import comb

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")


from ruleslab.calculators import CALCULATORS
from ruleslab_widgets import app_page, calculator
from ruleslab_widgets.prerender import PENDING, prerender, prerender_calculator
from tests.widgets.test_app_page import channel  # noqa: F401 (the same fixture)

VOID = {"input", "br", "img", "meta", "link", "hr", "col", "area", "base", "source", "wbr"}


class Page(HTMLParser):
    """The elements of a fragment (tag, attributes, text inside), checking nesting."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], list[str]]] = []
        self.open: list[tuple[str, list[str]]] = []
        self.feed(text)
        self.close()
        assert not self.open, f"unclosed: {[t for t, _ in self.open]}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        texts: list[str] = []
        self.elements.append((tag, {k: v or "" for k, v in attrs}, texts))
        if tag not in VOID:
            self.open.append((tag, texts))

    def handle_endtag(self, tag: str) -> None:
        assert self.open, f"</{tag}> closes nothing"
        assert self.open[-1][0] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        for _, texts in self.open:
            texts.append(data)

    def find(self, **attrs: str) -> list[tuple[str, dict[str, str], str]]:
        return [
            (tag, a, "".join(t))
            for tag, a, t in self.elements
            if all(a.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]

    def figures(self) -> dict[str, str]:
        return {a["data-figure"]: text for _, a, text in self.elements_with("data-figure")}

    def elements_with(self, name: str) -> list[tuple[str, dict[str, str], str]]:
        return [(tag, a, "".join(t)) for tag, a, t in self.elements if name in a]


def pct(p: float) -> str:
    return f"{p * 100:.2f} %"


def at_least(k: int, n: int, p: float) -> float:
    """P(at least k successes on n dice, each succeeding with probability p)."""
    return sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))


def test_lifting_at_its_defaults_shows_the_figures_worked_by_hand() -> None:
    page = Page(prerender_calculator("lifting"))
    figures = page.figures()
    # Str 3 + Might 0, 30 kg per dot; 100 kg needs Str + Might 4: one success on 3 dice
    assert figures["capacity"] == "90 kg"
    assert figures["roll_needed"] == "Yes"
    assert figures["p_lift"] == pct(at_least(1, 3, 0.4)) == "78.40 %"
    # load 20 kg: over 5 kg × 3, up to 10 kg × 3
    assert figures["tier"] == "Light"


def test_a_links_values_are_filled_and_computed() -> None:
    page = Page(prerender_calculator("lifting", "strength=5&might=1&object_kg=200"))
    fields = {a["data-rl-field"]: a for _, a, _ in page.elements_with("data-rl-field")}
    assert fields["strength"]["value"] == "5"
    assert fields["object_kg"]["value"] == "200"
    figures = page.figures()
    assert figures["capacity"] == "180 kg"  # 30 kg × (5 + 1)
    assert figures["roll_needed"] == "Yes"  # 200 kg needs Str + Might ⌈200 / 30⌉ = 7
    # difficulty ⌊7 ÷ 2 − 1⌋ = 2: two successes on Str + Might = 6 dice
    assert figures["difficulty"] == "2"
    assert figures["p_lift"] == pct(at_least(2, 6, 0.4)) == "76.67 %"


def test_dice_pool_figures_and_chart_worked_by_hand() -> None:
    page = Page(prerender_calculator("dice_pool"))
    figures = page.figures()
    # 6 dice, a die succeeds on 7-10; a botch: no success and at least one 1
    assert figures["p_success"] == pct(1 - 0.6**6) == "95.33 %"
    assert figures["p_failure"] == pct(0.6**6)
    assert figures["p_botch"] == pct(0.6**6 - 0.5**6) == "3.10 %"
    bars = page.elements_with("data-p")
    assert [a["data-label"] for _, a, _ in bars] == [str(k) for k in range(7)]
    for k, (_, a, _) in enumerate(bars):
        assert float(a["data-p"]) == pytest.approx(comb(6, k) * 0.4**k * 0.6 ** (6 - k))
    values = [text for tag, a, text in page.elements if a.get("class") == "rl-value"]
    assert pct(comb(6, 2) * 0.4**2 * 0.6**4) in ["".join(v) for v in values]
    # the chart's table (behind "Show as table", as live), with its caption
    assert page.find(class_="rl-chart-table")[0][2].startswith("Distribution of successes")


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_every_calculator_is_the_live_views_state(key: str) -> None:
    view = calculator(key)
    text = prerender(view)
    page = Page(text)
    root = page.elements[0][1]
    classes = root["class"].split()
    assert {"rl-calc", "rl-prerender"} <= set(classes)
    assert f"rl-calc-{key}" not in classes
    assert root["data-calculator"] == key
    assert view.result is not None
    assert page.figures() == {f.key: f.text for f in view.result.figures()}
    # one real field per input, holding its value, named as in a link
    fields = {a["data-rl-field"]: (tag, a, t) for tag, a, t in page.elements_with("data-rl-field")}
    assert set(fields) == set(view.inputs)
    for name, (tag, a, inner) in fields.items():
        value = view.inputs[name].value
        if a.get("type") == "checkbox":
            assert ("checked" in a) == bool(value)
        elif tag == "select":
            chosen = [o for o in page.elements if o[0] == "option" and "selected" in o[1]]
            assert any(o[1]["value"] == value for o in chosen)
        elif tag == "textarea":
            assert inner == value
        else:
            assert a["value"] == value
    # ids unique, every label's field there
    ids = [a["id"] for _, a, _ in page.elements_with("id")]
    assert len(ids) == len(set(ids))
    for _, a, _ in page.elements_with("for"):
        assert a["for"] in ids
    for _, a, _ in page.elements_with("aria-controls"):
        assert a["aria-controls"] in ids
    # the same summary of key figures as live: the headline, whole, in both summaries
    key_figures = [t for tag, a, t in page.elements if a.get("class") == "rl-key-figure"]
    headline = [[f.label, " ", f.text] for f in view.headline()]
    assert key_figures == 2 * headline


def test_everything_is_escaped() -> None:
    evil = '"><script>alert(1)</script>'
    query = f"a_intent={evil}&a_powers={evil}%0Asecond line"
    text = prerender_calculator("compressed", query)
    assert "<script>" not in text
    page = Page(text)
    assert page.find(data_rl_field="a_intent")[0][1]["value"] == evil  # (unescaped by the parser)
    assert page.find(data_rl_field="a_powers")[0][2] == f"{evil}\nsecond line"
    text = prerender_calculator("lifting", "strength=<b>x</b>")
    assert "<b>x</b>" not in text
    assert Page(text).find(data_rl_field="strength")[0][1]["value"] == "<b>x</b>"


def test_pending_results_are_marked_not_current() -> None:
    page = Page(prerender(calculator("lifting"), pending=True))
    assert "rl-stale" in page.find(class_=page_class(page, "rl-results"))[0][1]["class"]
    banners = ["".join(t) for _, a, t in page.elements if a.get("class") == "rl-stale-banner"]
    assert banners == [PENDING, PENDING]
    at_defaults = Page(prerender(calculator("lifting")))
    hidden = [a for _, a, _ in at_defaults.elements if a.get("class") == "rl-stale-banner"]
    assert all("hidden" in a for a in hidden)


def page_class(page: Page, name: str) -> str:
    """The full class attribute of the element carrying class ``name``."""
    return next(a["class"] for _, a, _ in page.elements if name in a.get("class", "").split())


@pytest.mark.usefixtures("channel")
def test_values_typed_before_python_are_applied_through_the_form() -> None:
    view = app_page.start("lifting", "?calculator=lifting&object_kg=200")
    app_page.receive({"type": "apply", "model_id": view.model_id, "query": "strength=5"})
    assert view.inputs["strength"].value == "5"
    assert view.inputs["object_kg"].value == "200"  # the link's value stays
    assert view.result is not None
    assert view.result.figure("capacity").text == "150 kg"
    # a bad value gets the field's message, as typed into the form
    app_page.receive({"type": "apply", "model_id": view.model_id, "query": "strength=99"})
    assert "20" in view.messages["strength"].value
    # a message for no calculator of this page changes nothing
    app_page.receive({"type": "apply", "model_id": "nope", "query": "strength=1"})
    assert view.inputs["strength"].value == "99"


def test_root_and_fields_in_the_markup() -> None:
    text = prerender_calculator("lifting")
    assert re.search(
        r'<div class="[^"]*\brl-calc rl-prerender"[^>]*data-calculator="lifting"', text
    )


def _anywidgets(widget: object) -> list[object]:
    import anywidget

    found = [widget] if isinstance(widget, anywidget.AnyWidget) else []
    for child in getattr(widget, "children", ()):
        found += _anywidgets(child)
    return found


@pytest.mark.parametrize("key", ["lifting", "chimera"])
def test_the_static_page_carries_the_css_of_every_view_it_draws(key):
    """The live page gets an anywidget view's CSS as the view is drawn; the static one
    must carry it, or the two are laid out differently (the scenario bar was missed)."""
    from ruleslab_widgets.prerender import static_css

    css = static_css()
    view = calculator(key)
    views = [v for v in _anywidgets(view) if getattr(v, "_css", "")]
    drawn = {type(v).__name__: str(v._css).strip() for v in views}
    assert {"NumberField", "ShareLink", "ScenarioBar"} <= set(drawn)
    for name, text in drawn.items():
        assert text in css, name
