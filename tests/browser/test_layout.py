"""The calculator's layout at the table (issue 20), in Chromium, for every calculator.

* At 1280×900 the form and the results sit side by side: the first key figure is in
  the viewport without scrolling. At 390×844 the key-figure bar stays in view while
  the last input is focused, and a tap on it brings the full results into view.
* No label is clipped (``scrollWidth`` ≤ ``clientWidth``), no drop-down's chosen
  option is wider than its box, no two field rows overlap, at both sizes.
* "Rules options" is opened and an option changed with the keyboard alone (Tab to
  its disclosure button, Enter, Tab, a key); the focus ring is at least 3:1 against
  the page, light and dark; the ruleset chip follows.
* axe-core: no violations on each app page, light and dark (axe from npm:
  ``node_modules/axe-core``, or the file named by ``RULESLAB_AXE``).
* A bad link (``&strength=99``) shows no current-looking figures: they are marked
  "Not current: fix Strength" and drawn faded; a chip opens the option it names.
* Print: no buttons, link or steppers; every group unfolded; text areas whole;
  lifting on at most two A4 pages.

One page load per calculator: the sizes by resizing the viewport, the dark theme by
the page's own attribute (``data-rl-theme``, as ``?theme=dark`` sets it).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import CALCULATORS, get  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KEYS = [c.key for c in CALCULATORS]
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _axe_path() -> Path | None:
    for candidate in (
        os.environ.get("RULESLAB_AXE", ""),
        str(ROOT / "node_modules" / "axe-core" / "axe.min.js"),
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def _axe(page: Any) -> list[str]:
    """axe-core's violations on the page (WCAG 2 A/AA rules and best practices)."""
    path = _axe_path()
    if path is None:
        pytest.skip("axe-core not installed (npm's axe-core in node_modules, or RULESLAB_AXE)")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(path))
    found = page.evaluate(
        """async () => {
        // (the page's <h1> is the app page's header's: tools/make_content.py, tested there)
        const r = await axe.run(document, {resultTypes: ['violations'],
          rules: {'page-has-heading-one': {enabled: false}}});
        return r.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3)
          .map(n => n.target.join(' ')).join(' | '));
      }"""
    )
    return list(found)


def _open(browser: Any, base_url: str, key: str, query: str = "") -> tuple[Any, Any]:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(f"{base_url}app.html?calculator={key}&theme=light{query}")
    page.locator(f".rl-calc-{key} [data-figure]").first.wait_for(timeout=KERNEL_TIMEOUT)
    page.wait_for_timeout(300)
    return context, page


#: Labels whose text does not fit; drop-downs whose chosen option is wider than the box;
#: field rows that overlap. All over the visible calculator.
LAYOUT_FAULTS_JS = """(key) => {
  const root = document.querySelector('.rl-calc-' + key);
  const shown = (e) => e.offsetParent !== null && e.getClientRects().length > 0;
  const faults = [];
  for (const l of root.querySelectorAll('.rl-form .widget-label, .rl-form label')) {
    if (shown(l) && l.scrollWidth > l.clientWidth + 1)
      faults.push('clipped label: ' + l.textContent.trim());
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const s of root.querySelectorAll('.rl-form select')) {
    if (!shown(s) || s.selectedIndex < 0) continue;
    const cs = getComputedStyle(s);
    canvas.font = cs.font;
    const text = s.options[s.selectedIndex].text;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (canvas.measureText(text).width > room + 1) faults.push('clipped option: ' + text);
  }
  for (const i of root.querySelectorAll('.rl-form input[type=text], .rl-form select')) {
    if (shown(i) && i.getBoundingClientRect().width < 40)
      faults.push('input too narrow: ' + i.closest('.rl-field-row').textContent.trim());
  }
  const rows = [...root.querySelectorAll('.rl-form .rl-field-row')].filter(shown)
    .map((r) => [r, r.getBoundingClientRect()]);
  for (let a = 0; a < rows.length; a++) for (let b = a + 1; b < rows.length; b++) {
    const [p, q] = [rows[a][1], rows[b][1]];
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) faults.push('overlapping rows: ' + rows[a][0].textContent.trim()
      .slice(0, 30) + ' / ' + rows[b][0].textContent.trim().slice(0, 30));
  }
  return faults;
}"""


def _luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    parse = [tuple(float(x) for x in re.findall(r"[\d.]+", c)[:3]) for c in (a, b)]
    la, lb = sorted((_luminance(parse[0]), _luminance(parse[1])), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _tab_to(page: Any, selector: str, limit: int = 600) -> None:
    """Press Tab from the top of the page until ``selector`` holds the focus."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => !!document.activeElement.closest({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("key", KEYS)
def test_the_layout_at_the_table(browser, base_url, key):
    context, page = _open(browser, base_url, key)
    root = page.locator(f".rl-calc-{key}")
    figure = root.locator("[data-figure]").first
    try:
        # -- 1280×900: the first key figure in view without scrolling, beside the form
        assert page.evaluate("() => window.scrollY") == 0
        box = figure.bounding_box()
        assert box is not None
        assert box["y"] >= 0, box
        assert box["y"] + box["height"] <= WIDE["height"], box
        form = root.locator(".rl-form").bounding_box()
        results = root.locator(".rl-results").bounding_box()
        assert form
        assert results
        assert results["x"] >= form["x"] + form["width"] - 1
        assert not root.locator(".rl-keybar").is_visible()
        # the ruleset / rules chips in view
        chip = root.locator(".rl-results .rl-chip").first
        if root.locator(".rl-options").count():
            chip_box = chip.bounding_box()
            assert chip_box
            assert chip_box["y"] + chip_box["height"] <= WIDE["height"]
        assert page.evaluate(LAYOUT_FAULTS_JS, key) == []
        assert _axe(page) == [], "light, 1280"

        # -- Rules options by keyboard alone; the focus ring 3:1 in both themes
        if root.locator(".rl-options").count():
            _tab_to(page, ".rl-options-heading")
            button = root.locator(".rl-options-heading button")
            assert button.get_attribute("aria-expanded") == "false"
            for theme in ("light", "dark"):
                page.evaluate(f"() => document.documentElement.dataset.rlTheme = {theme!r}")
                ring = page.evaluate(
                    """() => { const s = getComputedStyle(document.activeElement);
                    return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor,
                      getComputedStyle(document.body).backgroundColor]; }"""
                )
                assert ring[0] != "none", ring
                assert ring[1] >= 2, ring
                assert _contrast(ring[2], ring[3]) >= 3, (theme, ring)
            page.evaluate("() => document.documentElement.dataset.rlTheme = 'light'")
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"""() => document.querySelector('.rl-calc-{key} .rl-options-heading button')
                .getAttribute('aria-expanded') === 'true'"""
            )
            page.keyboard.press("Tab")
            focused = page.evaluate(
                """() => { const e = document.activeElement;
                const f = e.closest('[class*=rl-field-]');
                return [e.tagName, e.type || '',
                  f ? [...f.classList].find(c => c.startsWith('rl-field-')) : ''];}"""
            )
            name = focused[2].removeprefix("rl-field-")
            assert root.locator(f".rl-options .rl-field-{name}").count() == 1, focused
            value_js = (
                f"() => {{ const e = document.querySelector('.rl-calc-{key} .rl-field-{name} "
                f"select, .rl-calc-{key} .rl-field-{name} input');"
                " return e.type === 'checkbox' ? String(e.checked) : e.value; }"
            )
            before = page.evaluate(value_js)
            if focused[0] == "SELECT":
                page.keyboard.press("ArrowDown")
            elif focused[1] == "checkbox":
                page.keyboard.press("Space")
            else:  # a number field: Tab from its "−" button to its box, then a step
                if focused[0] == "BUTTON":
                    page.keyboard.press("Tab")
                page.keyboard.press("ArrowUp")
            page.wait_for_function(
                f"""() => [...document.querySelectorAll('.rl-calc-{key} .rl-results .rl-chip')]
                .some(c => c.dataset.option === {name!r}
                  && c.classList.contains('rl-chip-changed'))""",
                timeout=20_000,
            )
            assert page.evaluate(value_js) != before

        # -- dark theme: axe again (colours)
        page.evaluate("() => document.documentElement.dataset.rlTheme = 'dark'")
        assert _axe(page) == [], "dark, 1280"

        # -- 390×844: the key figures stay in view while the last input is focused
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        assert page.evaluate(LAYOUT_FAULTS_JS, key) == []
        last = page.evaluate_handle(
            f"""() => [...document.querySelectorAll(
              '.rl-calc-{key} .rl-form input, .rl-calc-{key} .rl-form select, '
              + '.rl-calc-{key} .rl-form textarea')]
              .filter(e => e.offsetParent !== null).pop()"""
        )
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        last.as_element().focus()
        page.wait_for_timeout(200)
        bar = root.locator(".rl-keybar")
        bar_box = bar.bounding_box()
        assert bar_box is not None
        assert bar_box["y"] >= 0, bar_box
        assert bar_box["y"] + 20 <= PHONE["height"], bar_box
        first = page.evaluate(
            f"() => document.querySelector('.rl-calc-{key} [data-figure]').textContent"
        )
        assert first in bar.inner_text()
        focus_box = last.as_element().bounding_box()
        assert focus_box
        assert focus_box["y"] >= bar_box["y"] + bar_box["height"] - 1
        assert focus_box["y"] + focus_box["height"] <= PHONE["height"]
        # a tap on the bar brings the full results into view
        bar.locator(".rl-key-figures").click()
        page.wait_for_timeout(300)
        fig = figure.bounding_box()
        assert fig
        assert 0 <= fig["y"] < PHONE["height"]
        assert _axe(page) == [], "dark, 390"
    finally:
        context.close()


def test_a_bad_link_shows_no_current_looking_figures_and_a_chip_opens_its_option(browser, base_url):
    context, page = _open(browser, base_url, "lifting", "&strength=99&ruleset=2.0")
    root = page.locator(".rl-calc-lifting")
    try:
        banner = root.locator(".rl-results .rl-stale-banner")
        assert banner.inner_text().startswith("Not current: fix Strength")
        assert "rl-stale" in (root.locator(".rl-results").get_attribute("class") or "")
        opacity = page.evaluate(
            "() => getComputedStyle(document.querySelector('.rl-calc-lifting .rl-output')).opacity"
        )
        assert float(opacity) < 0.6
        # fixed: current again
        box = root.locator(".rl-field-strength input")
        box.fill("4")
        box.press("Enter")
        banner.wait_for(state="hidden")
        assert float(
            page.evaluate(
                "() => getComputedStyle(document.querySelector('.rl-calc-lifting .rl-output'))"
                ".opacity"
            )
        ) == pytest.approx(1)
        # the ruleset chip (changed by the link) opens Rules options and focuses the field
        chip = root.locator('.rl-results .rl-chip[data-option="ruleset"]')
        assert chip.inner_text() == "Aberrant 2.0"
        chip.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => !!document.activeElement.closest('.rl-calc-lifting .rl-field-ruleset')"
        )
        assert root.locator(".rl-options-heading button").get_attribute("aria-expanded") == ("true")
        # a choice error names the values a link takes
        page.goto(f"{base_url}app.html?calculator=lifting&ruleset=3.0")
        message = root.locator(".rl-message-ruleset")
        message.wait_for(timeout=KERNEL_TIMEOUT)
        assert "2.1 = Aberrant 2.1, 2.0 = Aberrant 2.0" in message.inner_text()
        assert root.locator(".rl-results .rl-stale-banner").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("key", ["lifting", "compressed"])
def test_print(browser, base_url, key):
    context, page = _open(browser, base_url, key)
    root = page.locator(f".rl-calc-{key}")
    try:
        # the closed folds' rows, sent once the page is idle (page.js: fillLater)
        page.wait_for_function("() => window.ruleslab.filled === true", timeout=30_000)
        assert get(key).option_params
        for param in get(key).option_params:
            assert root.locator(f".rl-options .rl-field-{param.name}").count() == 1, param.name
        page.emulate_media(media="print")
        for hidden in (".rl-share-control", ".rl-step", ".rl-chips", ".rl-keybar"):
            for i in range(root.locator(hidden).count()):
                assert not root.locator(hidden).nth(i).is_visible(), hidden
        assert root.locator(".rl-roll-button").count() == 0 or not (
            root.locator(".rl-roll-button").first.is_visible()
        )
        # every group unfolded (Rules options too), figures and steps shown
        for i in range(root.locator(".rl-fold-region").count()):
            assert root.locator(".rl-fold-region").nth(i).is_visible()
        assert root.locator("[data-figure]").first.is_visible()
        assert root.locator(".rl-steps").first.is_visible()
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.rl-calc textarea')]
            .filter(t => t.scrollHeight > t.clientHeight + 2).length"""
        )
        assert cut == 0
        if key == "lifting":
            pdf = page.pdf(format="A4")
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert 1 <= pages <= 2, pages
    finally:
        context.close()
