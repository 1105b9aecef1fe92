"""The phone's key bar answers the question asked (issue 37), in Chromium at 390×844.

For every calculator, for each input set of :data:`tests.engine.headline_cases.CASES`
(at least two asking different questions where the calculator's inputs can), opened
from a link: the key bar holds the headline's figures, in order, each whole (wrapped,
never cut: no ellipsis, nothing wider than its box), in the light and the dark theme;
the bar fits the screen's width and sits in view (the pre-rendered page's bar, drawn
before Python runs, is ``tests/widgets/test_prerender.py``'s). Screenshots of
each (``test-artifacts/keybar-<key>-<n>-<theme>.png``) are kept to look at.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS, KERNEL_TIMEOUT
from tests.engine.headline_cases import CASES

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from urllib.parse import parse_qsl  # noqa: E402

from ruleslab.calculators import CALCULATORS, get  # noqa: E402
from ruleslab.whatif.inputs import parse_value  # noqa: E402

KEYS = [c.key for c in CALCULATORS]
PHONE = {"width": 390, "height": 844}

#: The key bar's figures as drawn: label, value, and whether any is cut.
BAR_JS = """(key) => {
  const bar = document.querySelector('.rl-calc-' + key + ' .rl-keybar');
  const box = bar.getBoundingClientRect();
  const figures = [...bar.querySelectorAll('.rl-key-figure')].map((f) => {
    const cs = getComputedStyle(f);
    const cut = f.scrollWidth > f.clientWidth + 1 || cs.textOverflow === 'ellipsis'
      && cs.overflow !== 'visible' && cs.whiteSpace === 'nowrap';
    const r = f.getBoundingClientRect();
    return [f.querySelector('.rl-key-label').textContent, f.querySelector('strong').textContent,
            cut, r.left >= box.left - 1 && r.right <= box.right + 1];
  });
  const scenario = bar.querySelector('.rl-key-scenario');
  return {figures, top: box.top, bottom: box.bottom, width: box.width,
          shown: bar.offsetParent !== null, scenario: scenario ? scenario.textContent : '',
          page: document.documentElement.scrollWidth};
}"""


def _expected(key: str, link: str, figures: tuple[str, ...]) -> list[list[Any]]:
    calc = get(key)
    typed = {p.name: p.default for p in calc.params} | dict(parse_qsl(link))
    result = calc.run({p.name: parse_value(p, typed[p.name]) for p in calc.params})
    by_key = {f.key: f for f in result.figures()}
    return [[by_key[k].label, by_key[k].text] for k in figures]


def _check_bar(page: Any, key: str, expected: list[list[Any]], where: str) -> None:
    bar = page.evaluate(BAR_JS, key)
    assert bar["shown"], where
    assert [f[:2] for f in bar["figures"]] == expected, where
    assert not [f for f in bar["figures"] if f[2] or not f[3]], (where, bar["figures"])
    assert bar["page"] <= PHONE["width"], (where, "the page scrolls sideways")
    assert bar["top"] >= 0, (where, bar)
    assert bar["bottom"] <= PHONE["height"], (where, bar)


@pytest.mark.parametrize("key", KEYS)
def test_the_key_bar_holds_the_headline_whole(browser, base_url, key):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        for n, (link, figures) in enumerate(CASES[key]):
            page.goto(f"{base_url}app.html?calculator={key}&theme=light&{link}")
            page.wait_for_function(
                "() => !!window.ruleslab && !!window.ruleslab.runtime"
                " && !document.getElementById('loading')",
                timeout=KERNEL_TIMEOUT,
            )
            page.locator(
                f".rl-calc-{key}:not(.rl-prerender) .rl-keybar .rl-key-figure"
            ).first.wait_for(timeout=KERNEL_TIMEOUT)
            expected = _expected(key, link, figures)
            page.wait_for_function(
                """([key, first]) => { const f = document.querySelector(
                  '.rl-calc-' + key + ' .rl-keybar .rl-key-figure strong');
                  return f && f.textContent === first; }""",
                arg=[key, expected[0][1]],
                timeout=KERNEL_TIMEOUT,
            )
            for theme in ("light", "dark"):
                page.evaluate(f"() => document.documentElement.dataset.rlTheme = {theme!r}")
                page.evaluate("() => window.scrollTo(0, 0)")
                page.wait_for_timeout(150)
                _check_bar(page, key, expected, f"{key} {link} {theme}")
                page.screenshot(path=str(ARTIFACTS / f"keybar-{key}-{n}-{theme}.png"))
    finally:
        context.close()


def _open_phone(browser, base_url: str, key: str, query: str = "") -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base_url}app.html?calculator={key}&theme=light{query}")
    page.locator(f".rl-calc-{key}:not(.rl-prerender) .rl-keybar .rl-key-figure").first.wait_for(
        timeout=KERNEL_TIMEOUT
    )
    page.wait_for_timeout(300)
    return context, page


def test_on_a_phone_the_steps_are_folded_and_the_rolls_are_a_tap_away(browser, base_url):
    context, page = _open_phone(browser, base_url, "chimera")
    root = page.locator(".rl-calc-chimera:not(.rl-prerender)")
    try:
        working = root.locator("details.rl-working")
        assert working.evaluate("d => d.open") is False  # folded under the figures
        action = root.locator(".rl-keybar .rl-key-action", has_text="Play a round")
        assert action.is_visible()
        action.click()
        page.wait_for_timeout(400)
        focused = page.evaluate(
            "() => [document.activeElement.className, document.activeElement.textContent]"
        )
        assert "rl-roll-button" in focused[0]
        assert "Play a round" in focused[1]
        box = page.evaluate("() => document.activeElement.getBoundingClientRect().toJSON()")
        assert 0 <= box["y"]
        assert box["y"] + box["height"] <= PHONE["height"], box
        # the GM opens the steps: a new result keeps them open
        working.locator("summary").click()
        assert working.evaluate("d => d.open") is True
        box = root.locator(".rl-field-a_mr input").first
        box.fill("11")
        box.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('.rl-calc-chimera:not(.rl-prerender) "
            "details.rl-working:not([data-rl-folded])') === null"
        )
        assert root.locator("details.rl-working").evaluate("d => d.open") is True
        page.screenshot(path=str(ARTIFACTS / "keybar-chimera-phone-actions.png"))
    finally:
        context.close()


def test_on_a_phone_an_empty_chart_is_not_drawn_and_the_scenario_is_named(browser, base_url):
    context, page = _open_phone(browser, base_url, "autofire")
    root = page.locator(".rl-calc-autofire:not(.rl-prerender)")
    try:
        shown = page.evaluate(
            """() => [...document.querySelectorAll(
              '.rl-calc-autofire:not(.rl-prerender) .rl-panel')]
              .filter((p) => p.offsetParent !== null).map((p) => p.textContent)"""
        )
        assert shown
        assert not [t for t in shown if "Nothing to chart" in t or "Henchmen removed" in t]
        # comparing: the bar says whose figures it shows
        root.locator(".rl-sc-open").click()
        root.locator(".rl-sc-add").click()
        box = root.locator(".rl-field-dexterity input").first
        box.fill("5")
        box.press("Enter")
        tag = root.locator(".rl-keybar .rl-key-scenario")
        tag.wait_for(timeout=20_000)
        page.wait_for_function(
            "() => document.querySelector('.rl-calc-autofire:not(.rl-prerender) "
            ".rl-keybar .rl-key-scenario').textContent.includes('Dexterity 5')"
        )
        assert tag.inner_text().startswith("Scenario B: ")
        page.screenshot(path=str(ARTIFACTS / "keybar-autofire-phone-scenario-b.png"))
    finally:
        context.close()
