"""The reader's screen and theme, in Chromium: light and dark, phone and tablet widths.

* Every calculator in both themes (``?theme=light|dark``), each at a phone's
  width (390 px) and a tablet's (768 px): no horizontal scrolling
  (``scrollWidth`` ≤ the viewport) and no control or text cut off at the right
  edge; its colours are the theme's, with readable contrast (text 4.5:1, chart
  bars 3:1, computed here from the browser's own colours by the WCAG formula);
  a screenshot of each, ``test-artifacts/<key>-<theme>-<width>.png``. One
  browser context per theme (the system setting the opposite one, so the link's
  theme is seen to win), reused across calculators; each page is measured at
  both widths by resizing its viewport, so each calculator starts Python once
  per theme.
* Without ``?theme=`` the page follows the system setting (Playwright's
  ``color_scheme``), live; an unknown theme is the system's, without an error.
* Number fields: Up/Down and the −/+ buttons step the value and the figures
  (checked against the engine on CPython), and stop at the field's bounds; on a
  phone (touch, mobile viewport) a tap steps too.
* Autofire & strafing: the 2.0 target's inputs show only under 2.0, the 2.1
  target's only under 2.1, and switching back finds what was typed.
* The landing page follows the system setting; a notebook follows JupyterLab's
  dark theme.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import KERNEL_IDLE_JS, KERNEL_TIMEOUT, charts_drawn_at_their_width
from tools.make_content import embed_link, notebook_link

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import CALCULATORS, get  # noqa: E402

THEMES = ("light", "dark")
WIDTHS = (390, 768)
OTHER = {"light": "dark", "dark": "light"}


# --- colours ---------------------------------------------------------------------------

_RGB = re.compile(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)")


def _rgba(css: str) -> tuple[float, float, float, float]:
    m = _RGB.fullmatch(css.strip())
    assert m, f"not a computed colour: {css!r}"
    r, g, b, a = m.groups()
    return float(r), float(g), float(b), 1.0 if a is None else float(a)


def _over(top: str, under: tuple[float, float, float]) -> tuple[float, float, float]:
    """``top`` (maybe translucent) painted over the opaque colour ``under``."""
    r, g, b, a = _rgba(top)
    return tuple(a * c + (1 - a) * u for c, u in zip((r, g, b), under, strict=True))  # type: ignore[return-value]


def _luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance."""

    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_COLOURS = """(key) => {
  const root = document.querySelector(`.rl-calc-${key}`);
  const style = (el, prop) => el ? getComputedStyle(el)[prop] : null;
  const q = (sel) => root.querySelector(sel);
  return {
    theme: document.documentElement.dataset.rlTheme || null,
    page: style(document.body, "backgroundColor"),
    text: style(root, "color"),
    label: style(q(".widget-label"), "color"),
    summary: style(q(".rl-summary"), "color"),
    help: style(q(".rl-help"), "color"),
    figure: style(q("[data-figure]"), "color"),
    inputText: style(q("input"), "color"),
    inputBack: style(q("input"), "backgroundColor"),
    bar: style(q(".rl-bar:not(.rl-bar-hi)"), "fill"),
    barHi: style(q(".rl-bar-hi"), "fill"),
    chartText: style(q(".rl-chart svg text"), "fill"),
    error: style(q(".rl-error"), "color"),
    options: style(q(".rl-options-heading .rl-fold-button"), "color"),
    optionsBack: style(q(".rl-options-heading .rl-fold-button"), "backgroundColor"),
    chip: style(q(".rl-chip"), "color"),
  };
}"""


def _check_colours(colours: dict, theme: str, where: str) -> None:
    """The page is the theme's, and what is on it is readable on it."""
    assert colours["theme"] == theme, where
    page = _over(colours["page"], (255, 255, 255))
    if theme == "dark":
        assert _luminance(page) < 0.05, (where, colours["page"])
    else:
        assert _luminance(page) > 0.9, (where, colours["page"])
    for name in ("text", "label", "summary", "help", "figure", "chartText", "error", "chip"):
        if colours[name] is None:  # (a calculator without help, chart or error now)
            continue
        ratio = _contrast(_over(colours[name], page), page)
        assert ratio >= 4.5, (where, name, colours[name], colours["page"], round(ratio, 2))
    for text, background in (("inputText", "inputBack"), ("options", "optionsBack")):
        if colours[text] is None:
            continue
        back = _over(colours[background], page)
        ratio = _contrast(_over(colours[text], back), back)
        assert ratio >= 4.5, (where, text, colours[text], colours[background], round(ratio, 2))
    for name in ("bar", "barHi"):  # graphics: 3:1 against the page (WCAG 1.4.11)
        if colours[name] is not None:
            ratio = _contrast(_over(colours[name], page), page)
            assert ratio >= 3, (where, name, colours[name], round(ratio, 2))
    if colours["bar"] and colours["barHi"]:
        assert colours["bar"] != colours["barHi"], where


# --- the page fits its width -----------------------------------------------------------

_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  // controls and text cut off at the right edge (a box that scrolls itself is fine)
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === "auto" || o === "scroll") && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll(
      "#calculator input, #calculator select, #calculator textarea, #calculator button, " +
      "#calculator label, #calculator h2, #calculator h3, #calculator td, #calculator th, " +
      "#calculator li, #calculator figure")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5 && !scrolls(el)) {
      out.push(`${el.tagName}.${el.className} ends at ${Math.round(r.right)}`);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, cut: out.slice(0, 5) };
}"""


def _open(page, base_url: str, key: str, query: str = ""):
    from playwright.sync_api import expect

    page.goto(base_url + embed_link(get(key)) + query)
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(timeout=30_000)
    return root


@pytest.fixture(scope="module")
def themed(browser, base_url, watch):
    """One context per theme, its system setting the other theme (the link's must win)."""
    contexts, pages = [], {}
    for theme in THEMES:
        context = browser.new_context(
            viewport={"width": WIDTHS[0], "height": 900}, color_scheme=OTHER[theme]
        )
        contexts.append(context)
        page = context.new_page()
        page.watch = watch(page, base_url)  # type: ignore[attr-defined]
        pages[theme] = page
    yield pages
    for context in contexts:
        context.close()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_every_calculator_fits_a_phone_and_a_tablet_in_both_themes(
    themed, base_url, artifacts, key, theme
):
    page = themed[theme]
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    _open(page, base_url, key, f"&theme={theme}")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        charts_drawn_at_their_width(page, key)
        fit = page.evaluate(_OVERFLOW)
        assert fit["width"] == width
        assert fit["scrollWidth"] <= width, (key, theme, width, fit)
        assert fit["cut"] == [], (key, theme, width, fit["cut"])
        _check_colours(page.evaluate(_COLOURS, key), theme, f"{key} {theme} {width}")
        page.screenshot(path=str(artifacts / f"{key}-{theme}-{width}.png"), full_page=True)
    assert page.watch.offsite == [], page.watch.offsite
    assert page.watch.errors == [], page.watch.errors


@pytest.mark.parametrize("theme", THEMES)
def test_an_error_message_is_readable_in_both_themes(themed, base_url, theme):
    page = themed[theme]
    root = _open(page, base_url, "lifting", f"&theme={theme}")
    box = root.locator(".rl-field-strength input").first
    box.fill("-2")
    box.press("Enter")
    message = root.locator(".rl-message-strength .rl-error").first
    message.wait_for(timeout=30_000)
    colours = page.evaluate(_COLOURS, "lifting")
    assert colours["error"] is not None
    _check_colours(colours, theme, f"lifting error {theme}")


def test_the_theme_follows_the_system_unless_the_link_names_one(browser, base_url, watch):
    """``color_scheme`` is the system setting, followed live; ``?theme=light|dark``
    overrides it (see also the test above: each theme opened under the other
    setting); any other value is ignored, without an error."""
    seen = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        try:
            page = context.new_page()
            page.watch = watch(page, base_url)  # type: ignore[attr-defined]
            _open(page, base_url, "dice_pool")
            colours = page.evaluate(_COLOURS, "dice_pool")
            _check_colours(colours, scheme, f"system {scheme}")
            seen[scheme] = colours
            _open(page, base_url, "dice_pool", "&theme=purple")
            _check_colours(page.evaluate(_COLOURS, "dice_pool"), scheme, "theme=purple")
            # with no theme named, a change of the system setting is followed at once
            page.emulate_media(color_scheme=OTHER[scheme])
            page.wait_for_function(
                "(t) => document.documentElement.dataset.rlTheme === t", arg=OTHER[scheme]
            )
            _check_colours(page.evaluate(_COLOURS, "dice_pool"), OTHER[scheme], "changed")
            # …but not when the link names one (the page alone: no need to start Python)
            page.emulate_media(color_scheme=scheme)
            page.goto(base_url + f"app.html?calculator=nope&theme={scheme}")
            page.emulate_media(color_scheme=OTHER[scheme])
            page.wait_for_timeout(500)  # (a change event, had it been listened to, is prompt)
            assert page.evaluate("document.documentElement.dataset.rlTheme") == scheme
            assert page.watch.errors == []
            assert page.watch.offsite == []
        finally:
            context.close()
    for name in ("page", "text", "bar", "barHi", "inputBack"):
        assert seen["light"][name] != seen["dark"][name], name


def test_the_page_without_a_calculator_is_themed_too(browser, base_url):
    context = browser.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(base_url + "app.html?calculator=nope&theme=light")
        assert page.evaluate("document.documentElement.dataset.rlTheme") == "light"
        page.goto(base_url + "app.html?calculator=nope")
        assert page.evaluate("document.documentElement.dataset.rlTheme") == "dark"
        page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert _luminance(_over(page_bg, (255, 255, 255))) < 0.05
    finally:
        context.close()


def test_the_landing_page_follows_the_system_setting(browser, base_url, artifacts):
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 900})
        try:
            page = context.new_page()
            page.goto(base_url)
            colours = page.evaluate(
                """() => ({
                    page: getComputedStyle(document.body).backgroundColor,
                    text: getComputedStyle(document.body).color,
                    link: getComputedStyle(document.querySelector("a.app")).color,
                    scrollWidth: document.documentElement.scrollWidth,
                })"""
            )
            page_rgb = _over(colours["page"], (255, 255, 255))
            assert (_luminance(page_rgb) < 0.05) is (scheme == "dark"), colours
            for name in ("text", "link"):
                assert _contrast(_over(colours[name], page_rgb), page_rgb) >= 4.5, (name, colours)
            assert colours["scrollWidth"] <= 390
            page.screenshot(path=str(artifacts / f"landing-{scheme}-390.png"), full_page=True)
        finally:
            context.close()


# --- number fields step -----------------------------------------------------------------


def _expected(key: str, values: dict) -> object:
    calc = get(key)
    return calc.run({p.name: p.parse(values[p.name]) for p in calc.params})


def test_arrow_keys_and_stepper_buttons_change_a_field_and_the_figures(page, base_url, artifacts):
    from playwright.sync_api import expect

    key = "lifting"
    calc = get(key)
    root = _open(page, base_url, key)
    field = root.locator(".rl-field-strength")
    box = field.locator("input").first
    capacity = root.locator('[data-figure="capacity"]').first
    values = dict(calc.defaults())

    def shows(strength: int) -> None:
        values["strength"] = str(strength)
        expect(box).to_have_value(str(strength), timeout=30_000)
        want = _expected(key, values).figure("capacity").text
        expect(capacity).to_have_text(want, timeout=30_000)

    start = int(calc.defaults()["strength"])
    box.press("ArrowUp")
    shows(start + 1)
    box.press("ArrowDown")
    box.press("ArrowDown")
    shows(start - 1)
    up = field.get_by_role("button", name="Increase Strength (dots) by 1")
    down = field.get_by_role("button", name="Decrease Strength (dots) by 1")
    up.click()
    shows(start)
    down.click()
    shows(start - 1)
    # typed and stepped at once: the step starts from the typed text
    box.fill("19")
    box.press("ArrowUp")
    shows(20)
    box.press("ArrowUp")  # at the maximum (Strength 0–20): nothing changes
    page.wait_for_timeout(300)
    shows(20)
    expect(up).to_be_disabled()
    expect(down).to_be_enabled()
    box.fill("1")
    box.press("Enter")
    shows(1)
    down.click()
    shows(0)
    expect(down).to_be_disabled()
    box.press("ArrowDown")  # at the minimum
    page.wait_for_timeout(300)
    shows(0)
    # a decimal field: the declared step (1 kg) on the typed value, exactly
    weight = root.locator(".rl-field-object_kg input").first
    weight.fill("2.5")
    weight.press("ArrowUp")
    expect(weight).to_have_value("3.5", timeout=30_000)
    values["object_kg"] = "3.5"
    want = _expected(key, values).figure("p_lift").text
    expect(root.locator('[data-figure="p_lift"]').first).to_have_text(want, timeout=30_000)
    assert root.locator(".rl-field-strength input").get_attribute("role") == "spinbutton"
    field.screenshot(path=str(artifacts / "lifting-stepper.png"))
    assert page.watch.offsite == []
    assert page.watch.errors == []


def test_a_stepper_button_can_be_tapped_on_a_phone(browser, base_url, artifacts):
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    try:
        page = context.new_page()
        key = "dice_pool"
        root = _open(page, base_url, key)
        values = dict(get(key).defaults())
        field = root.locator(".rl-field-dice")
        field.get_by_role("button", name=re.compile(r"^Increase Dice")).tap()
        values["dice"] = str(int(values["dice"]) + 1)
        expect(field.locator("input")).to_have_value(values["dice"], timeout=30_000)
        want = _expected(key, values).figure("p_success").text
        expect(root.locator('[data-figure="p_success"]').first).to_have_text(want)
        assert page.evaluate(_OVERFLOW)["scrollWidth"] <= 390
        page.screenshot(path=str(artifacts / "dice_pool-phone-touch.png"), full_page=True)
    finally:
        context.close()


# --- fields that do not apply are hidden -------------------------------------------------


def test_autofire_shows_the_target_inputs_of_the_chosen_ruleset(page, base_url, artifacts):
    from playwright.sync_api import expect

    key = "autofire"
    root = _open(page, base_url, key)
    only_20 = root.locator(".rl-field-dodge_pool")
    only_21 = root.locator(".rl-field-target_dexterity")
    expect(only_21).to_be_visible()
    expect(only_20).to_be_hidden()
    expect(root.get_by_text("Target under 2.0", exact=True)).to_be_hidden()
    expect(root.get_by_text("Target under 2.1", exact=True)).to_be_visible()
    box = only_21.locator("input").first
    box.fill("4")
    box.press("Enter")
    values = dict(get(key).defaults()) | {"target_dexterity": "4"}
    p_hit = root.locator('[data-figure="p_hit"]').first
    expect(p_hit).to_have_text(_expected(key, values).figure("p_hit").text, timeout=30_000)

    root.locator(".rl-options").get_by_text("Rules options").first.click()
    expect(root.locator(".rl-field-mega_in_defense")).to_be_visible()  # a 2.1 reading
    root.locator(".rl-field-ruleset select").first.select_option(label="Aberrant 2.0")
    expect(only_20).to_be_visible(timeout=30_000)
    expect(only_21).to_be_hidden()
    expect(root.locator(".rl-field-mega_in_defense")).to_be_hidden()
    expect(root.get_by_text("Target under 2.1", exact=True)).to_be_hidden()
    link = root.locator(".rl-share-link").first
    expect(link).to_have_value(re.compile(r"ruleset=2\.0$"))  # the hidden value left out
    dodge = only_20.locator("input").first
    dodge.fill("3")
    dodge.press("Enter")
    values |= {"ruleset": "2.0", "dodge_pool": "3"}
    expect(p_hit).to_have_text(_expected(key, values).figure("p_hit").text, timeout=30_000)
    root.screenshot(path=str(artifacts / "autofire-ruleset-2.0.png"))

    root.locator(".rl-field-ruleset select").first.select_option(label="Aberrant 2.1")
    expect(only_21).to_be_visible(timeout=30_000)
    expect(only_20).to_be_hidden()
    expect(box).to_have_value("4")  # what was typed is still there
    values["ruleset"] = "2.1"
    expect(p_hit).to_have_text(_expected(key, values).figure("p_hit").text, timeout=30_000)
    # (the link opens the calculator's own page, its figures in the first response)
    expect(link).to_have_value(re.compile(r"/autofire\.html\?target_dexterity=4$"))
    assert page.watch.offsite == []
    assert page.watch.errors == []


# --- in a notebook: JupyterLab's theme ---------------------------------------------------


def test_a_notebook_follows_jupyterlabs_dark_theme(page, base_url, artifacts):
    from playwright.sync_api import expect

    key = "dice_pool"
    page.goto(base_url + notebook_link(get(key)))
    page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT)
    page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme',"
        " { theme: 'JupyterLab Dark' })"
    )
    page.wait_for_function(
        "() => document.body.dataset.jpThemeLight === 'false'", timeout=KERNEL_TIMEOUT
    )
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(root.locator(".rl-bar").first).to_be_attached(timeout=30_000)
    colours = page.evaluate(
        """(key) => {
            const root = document.querySelector(`.rl-calc-${key}`);
            const cell = root.closest(".jp-OutputArea-output") || document.body;
            const back = (el) => {
              for (; el; el = el.parentElement) {
                const c = getComputedStyle(el).backgroundColor;
                if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
              }
              return "rgb(255, 255, 255)";
            };
            return { page: back(cell), text: getComputedStyle(root).color,
                     bar: getComputedStyle(root.querySelector(".rl-bar")).fill };
        }""",
        key,
    )
    page_rgb = _over(colours["page"], (255, 255, 255))
    assert _luminance(page_rgb) < 0.05, colours
    assert _contrast(_over(colours["text"], page_rgb), page_rgb) >= 4.5, colours
    assert _contrast(_over(colours["bar"], page_rgb), page_rgb) >= 3, colours
    # the stepper works in a notebook too (its message goes to the kernel and back)
    box = root.locator(".rl-field-dice input").first
    box.press("ArrowUp")
    values = dict(get(key).defaults())
    values["dice"] = str(int(values["dice"]) + 1)
    expect(box).to_have_value(values["dice"], timeout=30_000)
    want = _expected(key, values).figure("mean").text
    expect(root.locator('[data-figure="mean"]').first).to_have_text(want, timeout=30_000)
    root.screenshot(path=str(artifacts / "dice_pool-notebook-dark.png"))
    assert page.watch.offsite == []
    assert page.watch.errors == []
