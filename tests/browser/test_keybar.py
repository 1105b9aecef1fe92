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
from ruleslab.whatif_inputs import parse_value  # noqa: E402

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
