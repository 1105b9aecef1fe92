"""The documentation site (``docs/`` of the built site: tools/docs_site.py), in Chromium.

Its embedding page holds live calculators, pre-rendered when the docs were built by
the project's own MkDocs hook: their figures show before Python starts, then the live
calculator takes over and follows a changed input (figures worked out by hand). The
landing page links the documentation; the pages are searchable, in light and dark,
and fit a phone. Screenshots of every checked page land in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, PageWatch

pytestmark = pytest.mark.browser

BUSY_MS = 60_000  # a page's answer on a loaded 2-core machine (a recompute, a navigation)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def docs(site_dir: Path) -> Path:
    folder = site_dir / "docs"
    if not (folder / "index.html").is_file():
        pytest.fail(f"{folder} holds no documentation: build the site with tools/build_site.py")
    return folder


def _open(browser, base_url: str, path: str, viewport: dict, scheme: str = "light"):
    """A new context's page at ``path`` of the site, watched (off-origin requests, errors)."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    watch = PageWatch(page, base_url)
    page.goto(base_url + path)
    return context, page, watch


def test_the_embedding_page_has_live_calculators(browser, base_url, docs, artifacts) -> None:
    from playwright.sync_api import expect

    context, page, watch = _open(browser, base_url, "docs/embedding.html", DESKTOP)
    try:
        embeds = page.locator(".md-content [data-ruleslab]")
        expect(embeds).to_have_count(2)
        lifting, dice = embeds.nth(0), embeds.nth(1)
        # pre-rendered when the docs were built: in the page before any Python
        # (30 kg × (Strength 5 + Might 2); the dice pool's mean 8 × 0.4 successes)
        html = (docs / "embedding.html").read_text(encoding="utf-8")
        assert html.count('class="ruleslab-static') == 2
        expect(dice.locator('.ruleslab-static [data-figure="mean"]')).to_have_text("3.2 successes")

        # in view, the lifting calculator starts: its preset inputs, its figures
        expect(lifting).to_have_attribute("data-ruleslab-state", "ready", timeout=KERNEL_TIMEOUT)
        src = lifting.locator("iframe").get_attribute("src")
        assert src.startswith(base_url + "app.html?calculator=lifting&"), src
        calc = lifting.frame_locator("iframe").locator(".rl-calc-lifting").first
        expect(calc.locator('[data-figure="capacity"]').first).to_have_text(
            "210 kg", timeout=BUSY_MS
        )

        # ... and it is live: a changed Strength changes the figure (30 kg × (7 + 2))
        box = calc.locator(".rl-field-strength input").first
        box.fill("7")
        box.press("Enter")
        expect(calc.locator('[data-figure="capacity"]').first).to_have_text(
            "270 kg", timeout=BUSY_MS
        )
        lifting.screenshot(path=str(artifacts / "docs-embedding-lifting-live.png"))
        assert watch.offsite == [], watch.offsite
        assert watch.errors == [], watch.errors
    finally:
        context.close()


def test_the_landing_page_links_the_documentation(browser, base_url, docs) -> None:
    from playwright.sync_api import expect

    context, page, _watch = _open(browser, base_url, "index.html", DESKTOP)
    try:
        page.get_by_role("link", name="Documentation", exact=False).first.click()
        expect(page).to_have_url(base_url + "docs/index.html", timeout=BUSY_MS)
        expect(page.locator(".md-content h1").first).to_have_text(
            re.compile(r"^ruleslab"), timeout=BUSY_MS
        )
    finally:
        context.close()


def test_the_docs_are_searchable(browser, base_url, docs) -> None:
    from playwright.sync_api import expect

    # (without the files tools/docs_site.py drops: other languages' stemmers, source maps)
    assert not (docs / "assets" / "javascripts" / "lunr").exists()
    assert list(docs.rglob("*.map")) == []
    context, page, watch = _open(browser, base_url, "docs/index.html", DESKTOP)
    try:
        page.locator("label.md-search__icon, .md-search__input").first.click()
        box = page.locator(".md-search__input")
        meta = page.locator(".md-search-result__meta")
        # Material's worker builds the index first ("Initializing search"), then says
        # "Type to start searching": a query typed before that finds nothing
        expect(meta).to_have_text("Type to start searching", timeout=KERNEL_TIMEOUT)
        box.press_sequentially("falling")  # (Material searches on key presses, not input)
        # the falling note's first entry, at its note id
        note = page.locator(
            '.md-search-result__link[href*="rules-notes/falling.html"][href$="#RN-FALL-1"]'
        )
        expect(note.first).to_be_attached(timeout=60_000)
        first = page.locator(".md-search-result__link").first.get_attribute("href") or ""
        assert "rules-notes/falling.html" in first, first
        assert watch.offsite == [], watch.offsite
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize(
    "name", ["index", "getting-started", "embedding", "api", "performance", "rules-notes/falling"]
)
def test_pages_fit_the_width_in_both_themes(
    browser, base_url, docs, artifacts, name, viewport, scheme
) -> None:
    context, page, watch = _open(browser, base_url, f"docs/{name}.html", viewport, scheme)
    try:
        page.wait_for_load_state("load")
        # Material follows the system's setting: the scheme it chose, on the body
        chosen = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
        assert chosen == ("slate" if scheme == "dark" else "default")
        sideways = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert sideways <= 0, f"{name} scrolls sideways by {sideways} px"
        shot = f"docs-{name.replace('/', '-')}-{scheme}-{viewport['width']}.png"
        page.screenshot(path=str(artifacts / shot))
        assert watch.offsite == [], watch.offsite
    finally:
        context.close()
