"""The pre-rendered calculator on the app page: figures before Python, then the live one.

Python is held back by holding the worker's requests for Pyodide (they are
answered when the test lets them go), so what the page shows before Python is
seen as a reader sees it on a slow start: the static calculator
(``ruleslab_widgets.prerender``), then the live one in its place: nothing moves,
what was typed is applied, a link's values are never shown with the defaults'
figures as current. Each of these on both addresses of a calculator: its own page
(``lifting.html``, the static calculator in the first response) and
``app.html?calculator=lifting`` (the static calculator fetched from
``calculators/<key>.html``). With scripts off, every calculator's static page is
reachable and readable.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode
from urllib.request import urlopen

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import figure_at

pytestmark = pytest.mark.browser

STATIC = ".rl-prerender"

#: The two addresses of a calculator's app page.
PAGES = ("own", "query")


def address(kind: str, query: str) -> str:
    """The app page for ``query`` (``calculator=<key>&…``): the calculator's own page
    (``<key>.html?…``, tools.make_content.calculator_page) or ``app.html?<query>``."""
    if kind == "query":
        return f"app.html?{query}"
    pairs = parse_qsl(query, keep_blank_values=True)
    key = next(v for n, v in pairs if n == "calculator")
    rest = urlencode([(n, v) for n, v in pairs if n != "calculator"])
    return f"{key}.html" + (f"?{rest}" if rest else "")


class Held:
    """The worker's Pyodide requests, held until :meth:`release`."""

    def __init__(self, context: Any) -> None:
        self.routes: list[Any] = []
        self.released = False
        context.route("**/static/pyodide/**", self._hold)

    def _hold(self, route: Any) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.routes:
            route.continue_()
        self.routes.clear()


def open_held(
    browser: Any,
    base_url: str,
    query: str,
    size: tuple[int, int] = (1100, 1400),
    kind: str = "query",
):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    held = Held(context)
    page = context.new_page()
    page.goto(base_url + address(kind, query))
    page.locator(f"{STATIC} [data-figure]").first.wait_for()
    return context, held, page


def live_figure_is(page: Any, text: str) -> None:
    """Wait until the live lifting calculator's capacity figure reads ``text``."""
    page.wait_for_function(
        """(text) => { const sel = '.rl-calc-lifting [data-figure="capacity"]';
                       const f = document.querySelector(sel);
                       return f && f.textContent === text; }""",
        arg=text,
    )


def box(locator: Any) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return found


@pytest.mark.parametrize("kind", PAGES)
def test_figures_are_shown_before_python_and_the_page_passes_axe(browser, base_url, kind):
    context, held, page = open_held(browser, base_url, "calculator=lifting", kind=kind)
    try:
        static = page.locator(f'{STATIC}[data-calculator="lifting"]')
        assert static.locator('[data-figure="capacity"]').inner_text() == "90 kg"
        assert static.locator('[data-figure="p_lift"]').inner_text() == "78.40 %"
        assert page.locator(".rl-calc-lifting").count() == 0  # not the live one
        assert static.locator(".rl-field-strength input").input_value() == "3"
        # the start-up message is a line in the page's header, not over the figures
        note = box(page.locator("#loading"))
        assert note["height"] < 60
        head = box(page.locator(".rl-page-head"))
        assert note["y"] + note["height"] <= head["y"] + head["height"]
        assert page.locator(f"{STATIC} .rl-results.rl-stale").count() == 0  # current
        assert axe_violations(page) == []
    finally:
        held.release()
        context.close()


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


@pytest.mark.parametrize("kind", PAGES)
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_the_start_up_note_covers_no_field_and_says_the_bytes(browser, base_url, size, kind):
    # issue 35: "the loading notice covers nothing a GM may want to type into" (it sat
    # over the Might field on a phone): it is on the header's "Related:" line
    context, held, page = open_held(browser, base_url, "calculator=lifting", size, kind)
    try:
        page.wait_for_function("() => document.querySelector('#loading.rl-pinned')")
        note = box(page.locator("#loading"))
        head = box(page.locator(".rl-page-head"))
        assert head["y"] <= note["y"]
        assert note["y"] + note["height"] <= head["y"] + head["height"]
        controls = page.evaluate(
            """(sel) => [...document.querySelectorAll(sel)]
                 .map((e) => e.getBoundingClientRect())
                 .filter((r) => r.width > 0 && r.height > 0)
                 .map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}))""",
            f"{STATIC} :is(input, select, button, textarea, summary)",
        )
        assert len(controls) > 10
        for control in controls:
            assert not _overlap(note, control), (note, control)
        assert not page.locator(".rl-page-head .rl-related").is_visible() or (
            page.evaluate(
                "() => getComputedStyle(document.querySelector('.rl-related')).visibility"
            )
            == "hidden"
        )
        held.release()
        page.locator(".rl-calc-lifting").wait_for()
        page.locator("#loading").wait_for(state="detached")
        related = page.locator(".rl-page-head .rl-related")
        assert (
            page.evaluate(
                "() => getComputedStyle(document.querySelector('.rl-related')).visibility"
            )
            == "visible"
        )
        assert related.is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("kind", PAGES)
@pytest.mark.parametrize("size", [(1100, 1400), (390, 844)])
def test_the_live_calculator_takes_over_without_a_jump(browser, base_url, size, kind):
    context, held, page = open_held(browser, base_url, "calculator=lifting", size, kind)
    try:
        first = box(page.locator(f'{STATIC} [data-figure="capacity"]'))
        field = box(page.locator(f"{STATIC} .rl-field-strength input"))
        held.release()
        page.locator(".rl-calc-lifting").wait_for()
        assert page.locator(STATIC).count() == 0
        after_first = box(figure_at(page, "lifting", "capacity"))
        after_field = box(page.locator(".rl-calc-lifting .rl-field-strength input"))
        for before, after in ((first, after_first), (field, after_field)):
            for side in ("x", "y", "width", "height"):
                assert abs(before[side] - after[side]) <= 2, (side, before, after)
    finally:
        context.close()


@pytest.mark.parametrize("kind", PAGES)
def test_what_was_typed_before_python_is_kept_and_applied(browser, base_url, kind):
    context, held, page = open_held(browser, base_url, "calculator=lifting", kind=kind)
    try:
        strength = page.locator(f"{STATIC} .rl-field-strength input")
        strength.fill("5")  # typed, not yet committed: Python is not there
        banner = page.locator(f"{STATIC} .rl-results-summary .rl-stale-banner")
        assert banner.inner_text() == "Computing for the values you entered…"
        assert page.locator(f"{STATIC} .rl-results.rl-stale").count() == 1
        held.release()
        live = figure_at(page, "lifting", "capacity")
        live.wait_for()
        live_figure_is(page, "150 kg")
        assert page.locator(".rl-calc-lifting .rl-field-strength input").input_value() == "5"
        # the focus moved to the live field
        assert page.evaluate(
            "() => !!document.activeElement.closest('.rl-calc-lifting .rl-field-strength')"
        )
        assert page.locator(".rl-calc-lifting .rl-results.rl-stale").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("kind", PAGES)
def test_a_link_with_inputs_never_shows_the_defaults_figures_as_current(browser, base_url, kind):
    query = "calculator=lifting&strength=5&specialty=yes&ruleset=2.0"
    context, held, page = open_held(browser, base_url, query, kind=kind)
    try:
        static = page.locator(STATIC)
        assert static.locator(".rl-field-strength input").input_value() == "5"
        assert static.locator(".rl-field-specialty input").is_checked()
        assert static.locator(".rl-field-ruleset select").input_value() == "2.0"
        assert static.locator(".rl-results.rl-stale").count() == 1  # drawn faded
        banner = static.locator(".rl-results-summary .rl-stale-banner")
        assert banner.is_visible()
        assert banner.inner_text() == "Computing for this link's values…"
        held.release()
        live_figure_is(page, "150 kg")
        assert page.locator(".rl-calc-lifting .rl-results.rl-stale").count() == 0
    finally:
        context.close()


def _boxes(page: Any, root: str) -> list[dict[str, float]]:
    """Where a figure, a field and the header's related line are."""
    return [
        box(page.locator(sel).first)
        for sel in (
            f'{root} [data-figure="capacity"]',
            f"{root} .rl-field-strength input",
            ".rl-page-head .rl-related",
        )
    ]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_a_calculators_own_page_has_its_calculator_in_its_first_response(
    browser, base_url, artifacts, size, theme
):
    # issue 35: a GM on a slow link sees the calculator with the page's first response,
    # at its final layout. The HTML as sent holds the form and the figures (90 kg: 30 kg
    # × (Strength 3 + Might 0), Quick reference › Lifting)
    with urlopen(f"{base_url}lifting.html") as response:
        sent = response.read().decode("utf-8")
    main = sent[sent.index('<main id="calculator">') : sent.index("</main>")]
    assert 'data-figure="capacity">90 kg<' in main
    assert 'data-figure="p_lift">78.40 %<' in main
    assert 'data-rl-field="strength"' in main
    viewport = {"width": size[0], "height": size[1]}
    address = f"{base_url}lifting.html?theme={theme}"
    # the HTML alone (scripts off): where everything is, as first drawn
    bare = browser.new_context(java_script_enabled=False, viewport=viewport)
    try:
        page = bare.new_page()
        page.goto(address)
        first = _boxes(page, STATIC)
    finally:
        bare.close()
    context = browser.new_context(viewport=viewport)
    held = Held(context)
    asked: list[str] = []
    context.on("request", lambda r: asked.append(r.url))
    try:
        page = context.new_page()
        page.goto(address)
        page.locator(f"{STATIC} [data-figure]").first.wait_for()
        page.wait_for_function("() => document.querySelector('#loading.rl-pinned')")
        before = _boxes(page, STATIC)
        page.screenshot(path=str(artifacts / f"own-page-before-python-{size[0]}-{theme}.png"))
        assert axe_violations(page) == []
        # nothing fetched for the static calculator: it came with the page (later, the
        # offline copy fetches every static page: tools/offline.py)
        assert [u for u in asked if "/calculators/" in u] == []
        held.release()
        live_figure_is(page, "90 kg")
        page.locator("#loading").wait_for(state="detached")
        after = _boxes(page, ".rl-calc-lifting")
        page.screenshot(path=str(artifacts / f"own-page-live-{size[0]}-{theme}.png"))
        for one, two, three in zip(first, before, after, strict=True):
            for side in ("x", "y", "width", "height"):
                assert abs(one[side] - two[side]) <= 2, (side, one, two)
                assert abs(two[side] - three[side]) <= 2, (side, two, three)
    finally:
        context.close()


def test_with_scripts_off_every_calculator_can_be_read(browser, base_url):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1100, "height": 900}
    )
    try:
        page = context.new_page()
        page.goto(f"{base_url}app.html?calculator=dice_pool")
        links = page.locator("noscript a, .rl-noscript a")
        assert links.count() >= 14
        page.get_by_role("link", name="Dice pool").first.click()
        page.wait_for_url("**/calculators/dice_pool.html")
        assert page.locator('[data-figure="p_success"]').inner_text() == "95.33 %"
        assert page.locator(".rl-chart svg rect.rl-bar").count() == 7
        assert page.get_by_role("link", name="Open the live calculator").is_visible()
        # the landing page links each calculator's static page too
        page.goto(f"{base_url}index.html")
        assert page.locator('a.static[href="calculators/lifting.html"]').count() == 1
    finally:
        context.close()


def test_the_static_page_passes_axe_and_prints(browser, base_url):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{base_url}calculators/dice_pool.html?theme=dark")
        assert page.evaluate("document.documentElement.dataset.rlTheme") == "dark"
        assert axe_violations(page) == []
        page.emulate_media(media="print")
        assert page.locator('[data-figure="p_success"]').is_visible()
        assert not page.locator(".rl-share-control").is_visible()
    finally:
        context.close()


#: Init script: every text the loading note's title shows, in order.
TITLES_JS = """(() => {
  window.__rlTitles = [];
  new MutationObserver(() => {
    const t = document.getElementById("title");
    const text = t && t.textContent;
    const seen = window.__rlTitles;
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();"""


def test_while_python_starts_the_page_says_how_many_bytes_have_come(browser, base_url, site_dir):
    import re

    from tools.build_app import start_bytes

    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    context.add_init_script(TITLES_JS)
    page = context.new_page()
    try:
        page.goto(f"{base_url}app.html?calculator=lifting")
        figure_at(page, "lifting", "capacity").wait_for()
        titles = page.evaluate("() => window.__rlTitles")
        counts = [
            (float(m.group(1)), float(m.group(2)))
            for m in (
                re.fullmatch(r"Starting Python: (\d+\.\d) of (\d+\.\d) MB", t) for t in titles
            )
            if m
        ]
        assert counts, titles
        total = round(start_bytes(site_dir) / 1e6, 1)
        assert {t for _, t in counts} == {total}
        loaded = [n for n, _ in counts]
        assert loaded == sorted(loaded)  # (only ever more)
        assert loaded[-1] <= total
        assert loaded[-1] >= 0.9 * total  # (everything Python needed came through the count)
    finally:
        context.close()
