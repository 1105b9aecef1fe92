"""A closed fold's rows reach the page when it is opened (``ruleslab_widgets.fold``:
``FoldRegion``; ``app_page.Session`` sends a widget once something shown names it),
with Chromium.

With the page never idle (``requestIdleCallback`` never calls back, so the rest of the
calculator is not asked for: ``page.js``, ``fillLater``), the "Rules options" rows are
not on the page; opening the fold brings them, and a changed option reaches Python
(its chip says so). Left idle, the page asks for them and draws them hidden.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402

NEVER_IDLE = "window.requestIdleCallback = function () { return 0; };"


def test_the_options_rows_come_when_the_fold_is_opened(browser, base_url, watch):
    from playwright.sync_api import expect

    calc = get("lifting")
    option = next(p for p in calc.option_params if p.name == "heavy_from")
    value, label = next((v, t) for v, t in option.choices if v != option.default)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(NEVER_IDLE)
    page = context.new_page()
    page.watch = watch(page, base_url)
    page.goto(f"{base_url}app.html?calculator=lifting")
    root = page.locator(".rl-calc-lifting:not(.rl-prerender)").first
    expect(root.locator("[data-figure]").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    page.wait_for_timeout(500)
    for param in calc.option_params:  # (not sent: nothing shown names them)
        assert root.locator(f".rl-field-{param.name}").count() == 0, param.name
    assert page.evaluate("() => window.ruleslab.filled") is None
    fold = root.locator(".rl-options-heading .rl-fold-button").first
    fold.click()
    expect(fold).to_have_attribute("aria-expanded", "true")
    for param in calc.option_params:
        expect(root.locator(f".rl-field-{param.name}").first).to_be_visible()
    root.locator(f".rl-field-{option.name} select").first.select_option(label=label)
    chip = root.locator(f'.rl-results-summary .rl-chip[data-option="{option.name}"]').first
    expect(chip).to_have_text(f"{option.label}: {label}", timeout=30_000)
    expect(chip).to_have_class("rl-chip rl-chip-changed")
    assert value != option.default
    assert page.watch.errors == []
    context.close()


def test_left_idle_the_page_draws_the_rows_hidden(browser, base_url, watch):
    calc = get("lifting")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.watch = watch(page, base_url)
    page.goto(f"{base_url}app.html?calculator=lifting")
    page.wait_for_function("() => window.ruleslab.filled === true", timeout=KERNEL_TIMEOUT)
    root = page.locator(".rl-calc-lifting:not(.rl-prerender)").first
    fold = root.locator(".rl-options-heading .rl-fold-button").first
    assert fold.get_attribute("aria-expanded") == "false"
    for param in calc.option_params:
        field = root.locator(f".rl-field-{param.name}")
        assert field.count() == 1, param.name
        assert not field.first.is_visible(), param.name
    assert page.watch.errors == []
    context.close()
