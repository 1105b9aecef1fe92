"""Embeds sized to their frame (issue 37), in Chromium, on a host page of another origin.

* A Lifting embed 900 px wide in a 1280×900 window is in two columns (the calculator's
  own width decides, by a container query, not the window's), its headline (can the
  300 kg car be lifted, and the chance) first in the results column and in view at
  the top of the frame, and the frame no taller than its content.
* An embed's unknown attribute (``data-firearms`` on Autofire: the field is
  ``ability``) is reported at the top of the calculator, above the form, naming the
  attribute and the accepted ones (``data-ability`` …).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, served

pytestmark = pytest.mark.browser

WINDOW = {"width": 1280, "height": 900}
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Embed in a frame</title>
<link rel="icon" href="data:,"></head>
<body style="margin: 8px">
<main><h1>A rules page</h1>
<div style="width: 900px">{element}</div></main>
<script src="{site}embed.js" defer></script>
</body></html>
"""
LIFTING = (
    '<div id="embed" data-ruleslab="lifting" data-strength="4" data-might="1" '
    'data-object_kg="300"></div>'
)
AUTOFIRE = '<div id="embed" data-ruleslab="autofire" data-firearms="3" data-dexterity="4"></div>'


@pytest.fixture(scope="module")
def host(tmp_path_factory, base_url) -> Iterator[str]:
    """The host pages, served on another origin than the calculator site."""
    root: Path = tmp_path_factory.mktemp("embed-frame")
    (root / "lifting.html").write_text(PAGE.format(element=LIFTING, site=base_url), "utf-8")
    (root / "autofire.html").write_text(PAGE.format(element=AUTOFIRE, site=base_url), "utf-8")
    with served(root) as url:
        yield url


def _open(browser, url: str):
    from playwright.sync_api import expect

    context = browser.new_context(viewport=WINDOW)
    page = context.new_page()
    page.goto(url)
    embed = page.locator("#embed")
    expect(embed).to_have_attribute("data-ruleslab-state", "ready", timeout=KERNEL_TIMEOUT)
    return context, page, embed


def test_a_900px_embed_is_in_two_columns_with_its_headline_in_view(
    browser, host, artifacts
) -> None:
    context, page, embed = _open(browser, host + "lifting.html")
    try:
        frame = embed.frame_locator("iframe")
        calc = frame.locator(".rl-calc-lifting:not(.rl-prerender)").first
        calc.locator('[data-figure="roll_needed"]').wait_for(timeout=KERNEL_TIMEOUT)
        page.wait_for_timeout(500)
        width = embed.locator("iframe").bounding_box()
        assert width is not None
        assert abs(width["width"] - 900) <= 1, width
        form = calc.locator(".rl-form").bounding_box()
        results = calc.locator(".rl-results").bounding_box()
        assert form is not None
        assert results is not None
        assert results["x"] >= form["x"] + form["width"] - 1, (form, results)  # side by side
        assert abs(results["y"] - form["y"]) < 40, (form, results)
        assert not calc.locator(".rl-keybar").is_visible()  # (the phone's bar)
        # the headline first in the results, in the window at once
        keys = calc.locator(".rl-results [data-figure]").evaluate_all(
            "cells => cells.slice(0, 3).map(c => c.dataset.figure)"
        )
        assert keys == ["roll_needed", "p_lift", "capacity"]
        for key, text in (("roll_needed", "Cannot lift"), ("p_lift", "0 %")):
            cell = calc.locator(f'.rl-results [data-figure="{key}"]')
            assert cell.inner_text() == text
            box = cell.bounding_box()  # (in the host page's viewport)
            assert box is not None
            assert 0 <= box["y"]
            assert box["y"] + box["height"] <= WINDOW["height"], box
        # the frame as tall as its content, and far shorter than one column would be
        frame_height = embed.locator("iframe").bounding_box()["height"]
        content = (
            embed.locator("iframe")
            .element_handle()
            .content_frame()
            .evaluate("() => document.documentElement.scrollHeight")
        )
        assert abs(frame_height - content) <= 2, (frame_height, content)
        assert frame_height < form["height"] + 400, (frame_height, form)
        page.screenshot(path=str(artifacts / "embed-900-lifting.png"), full_page=True)
    finally:
        context.close()


def test_an_unknown_attribute_is_reported_at_the_top_with_the_accepted_names(
    browser, host, artifacts
) -> None:
    context, page, embed = _open(browser, host + "autofire.html")
    try:
        calc = embed.frame_locator("iframe").locator(".rl-calc-autofire:not(.rl-prerender)").first
        note = calc.locator(".rl-link-status .rl-status")
        note.wait_for(timeout=KERNEL_TIMEOUT)
        text = note.inner_text()
        assert "attributes name “data-firearms”, which is not a field" in text
        assert "Did you mean data-ability (Attack ability (Firearms …))?" in text
        assert "data-dexterity, data-mega_dexterity, data-ability" in text
        box = note.bounding_box()
        form = calc.locator(".rl-form").bounding_box()
        assert box is not None
        assert form is not None
        assert box["y"] + box["height"] <= form["y"], (box, form)  # above the form
        assert 0 <= box["y"] < WINDOW["height"], box  # in view when the page opens
        # the rest of the attributes applied
        assert calc.locator(".rl-field-dexterity input").first.input_value() == "4"
        page.screenshot(path=str(artifacts / "embed-900-unknown-attribute.png"))
    finally:
        context.close()
