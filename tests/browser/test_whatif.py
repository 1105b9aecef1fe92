"""What if (issue 22) in the built site, with Chromium.

Scenarios: on three calculators (one with a chart, one with two sides, and
Chimera) a GM compares scenarios as in the page: "Compare scenarios", "Add
scenario (copy of this one)", changes a field in B, and sees both columns with
Δ against A (expected values from the engine on CPython, the Δ worked out here);
the charts draw both scenarios; the copied link, opened in a new page, restores
the same scenarios; at phone width and in both themes nothing is cut, and
axe-core finds nothing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT, type_into

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402

# scenarios ---------------------------------------------------------------------------


def _run(key: str, texts: dict[str, str]) -> Any:
    """The engine's result for the defaults with ``texts`` typed (CPython, independent)."""
    calc = get(key)
    values = {p.name: p.parse(p.default) for p in calc.params}
    for name, text in texts.items():
        values[name] = next(p for p in calc.params if p.name == name).parse(text)
    return calc.run(values)


def _points(a: Any, b: Any) -> str:
    """Δ of two probabilities in percentage points, as a GM would write it by hand."""
    d = Fraction(b) - Fraction(a)
    sign = "+" if d > 0 else "−" if d < 0 else "±"
    return f"{sign}{abs(float(d * 100)):.2f} pp"


def _cell(page: Any, key: str, figure: str, scenario: str) -> Any:
    return page.locator(
        f'.rl-calc-{key} .rl-output td[data-figure="{figure}"][data-scenario="{scenario}"]'
    ).first


def _open(page: Any, url: str, key: str) -> Any:
    from playwright.sync_api import expect

    page.goto(url)
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(timeout=30_000)
    return root


def _clean(page: Any) -> None:
    assert page.watch.offsite == [], f"requests left the site: {page.watch.offsite}"
    assert page.watch.errors == [], f"console errors: {page.watch.errors}"


CASES = [
    # (calculator, A's link values, B's change, a probability figure to check)
    ("dice_pool", {"dice": "3"}, ("dice", "5"), "p_success"),
    ("compressed", {}, ("a_cover", "2"), "p_a_wins"),
    ("chimera", {}, ("b_defence", "3"), "p_a_wins"),
]


@pytest.mark.parametrize(("key", "base", "change", "figure"), CASES, ids=[c[0] for c in CASES])
def test_scenarios_side_by_side_and_their_link(
    page, browser, base_url, artifacts, watch, key, base, change, figure
):
    from playwright.sync_api import expect

    query = "".join(f"&{n}={v}" for n, v in base.items())
    root = _open(page, f"{base_url}app.html?calculator={key}{query}", key)
    root.get_by_role("button", name="Compare scenarios").click()
    root.get_by_role("button", name="Add scenario (copy of this one)").click()
    tab_b = root.locator('.rl-sc-tab[data-scenario="B"]')
    expect(tab_b).to_have_attribute("aria-pressed", "true", timeout=30_000)
    name, text = change
    type_into(page, key, name, text)
    a, b = _run(key, base), _run(key, {**base, name: text})
    expect(_cell(page, key, figure, "B").locator(".rl-sc-value")).to_have_text(
        b.figure(figure).text, timeout=30_000
    )
    expect(_cell(page, key, figure, "A").locator(".rl-sc-value")).to_have_text(
        a.figure(figure).text
    )
    delta = _points(a.figure(figure).value, b.figure(figure).value)
    expect(_cell(page, key, figure, "B").locator(".rl-sc-delta")).to_have_attribute(
        "data-delta", delta
    )
    expect(tab_b).to_contain_text("B: ")  # named by what differs
    # keyboard: from B, Left reaches A, Enter selects it; the form shows A's value
    tab_b.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    tab_a = root.locator('.rl-sc-tab[data-scenario="A"]')
    expect(tab_a).to_have_attribute("aria-pressed", "true", timeout=30_000)
    box = root.locator(f".rl-field-{name} input, .rl-field-{name} select").first
    expect(box).not_to_have_value(text)
    # charts draw both scenarios, with a legend and a table of both
    for chart in root.locator(".rl-chart-grouped").all():
        assert chart.locator('.rl-sbar[data-series="1"]').count() > 0
        expect(chart.locator(".rl-chart-series-item")).to_have_count(2)
        chart.get_by_role("button", name="Show as table").click()
        expect(chart.locator("table.rl-chart-table thead th")).to_have_count(3)
    if key == "dice_pool":
        assert root.locator(".rl-chart-grouped").count() == 1
    assert axe_violations(page) == []
    page.screenshot(path=str(artifacts / f"whatif-{key}.png"), full_page=True)
    # the link, opened in a new page: the same scenarios, A selected, the same figures
    link = root.locator(".rl-share-link").first.input_value()
    assert "scenarios=2" in link
    assert f"s2.{name}={text}" in link
    context = browser.new_context(viewport={"width": 1100, "height": 2200})
    other = context.new_page()
    other.watch = watch(other, base_url)  # type: ignore[attr-defined]
    again = _open(other, link, key)
    expect(again.locator('.rl-sc-tab[data-scenario="A"]')).to_have_attribute(
        "aria-pressed", "true", timeout=30_000
    )
    expect(again.locator('.rl-sc-tab[data-scenario="B"]')).to_have_text(tab_b.inner_text())
    expect(_cell(other, key, figure, "B").locator(".rl-sc-delta")).to_have_attribute(
        "data-delta", delta
    )
    _clean(other)
    context.close()
    _clean(page)


def test_an_error_names_the_scenario_and_the_field(page, base_url):
    from playwright.sync_api import expect

    root = _open(
        page, f"{base_url}app.html?calculator=lifting&scenarios=2&s2.strength=99", "lifting"
    )
    expect(root.locator(".rl-status").first).to_contain_text(
        "Scenario B: Strength must be a whole number from 0 to 20", timeout=30_000
    )
    expect(root.locator('th[data-scenario="B"]')).to_contain_text("Not current")
    _clean(page)


PHONE = [
    ("dice_pool", "dice=3&scenarios=3&s2.dice=5&s3.difficulty=2"),
    ("compressed", "scenarios=4&s2.a_cover=2&s3.b_cover=2&s4.a_position=1"),
    ("chimera", "scenarios=4&s2.b_defence=3&s3.a_damage=d10&s4.a_attack=5"),
]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("key", "query"), PHONE, ids=[p[0] for p in PHONE])
def test_scenarios_fit_a_phone_in_both_themes(
    browser, base_url, artifacts, watch, key, query, theme
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.watch = watch(page, base_url)  # type: ignore[attr-defined]
    root = _open(page, f"{base_url}app.html?calculator={key}&{query}&theme={theme}", key)
    from playwright.sync_api import expect

    expect(root.locator('.rl-sc-tab[data-scenario="C"]')).to_be_visible(timeout=30_000)
    fit = page.evaluate(
        """(key) => {
          const calc = document.querySelector(`.rl-calc-${key}`);
          const cut = [];
          for (const el of calc.querySelectorAll(
              // (the columns' header row is for screen readers here: each line names its
              // scenario)
              ".rl-sc-table, .rl-sc-table tbody th, .rl-sc-table td, .rl-scenarios button, " +
              ".rl-chart-series-legend, .rl-chart-series-item")) {
            if (el.scrollWidth > el.clientWidth + 1) cut.push(el.className || el.tagName);
          }
          return { page: document.documentElement.scrollWidth, cut };
        }""",
        key,
    )
    assert fit["page"] <= 390, fit
    assert fit["cut"] == [], fit
    assert axe_violations(page) == []
    page.screenshot(path=str(artifacts / f"whatif-{key}-phone-{theme}.png"), full_page=True)
    _clean(page)
    context.close()
