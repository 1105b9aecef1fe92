"""bench/site_load.py's scripted change, made in the page (``CHANGE_JS``), with Chromium.

The benchmark's "interactive" time is the moment a changed input has changed a figure.
The change is made by an init script in the calculator's own page as soon as the live
input box is drawn; the stamp is the moment the figure reads the value the engine gives
on CPython. In another calculator's page, the script does nothing.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from bench.site_load import CHANGE_STATE_JS, _changes, change_script, pick_change  # noqa: E402
from ruleslab.calculators import get  # noqa: E402


def test_the_change_is_made_in_its_calculators_page_and_stamped(browser, base_url, watch):
    change = pick_change("dice_pool", _changes()["dice_pool"], {})
    # the figure's text after the change, from the engine on its own
    result = get("dice_pool").compute(**{change.field: int(change.text)})
    expected = result.figure(change.figure).text
    assert change.expected == expected != change.shown_before
    context = browser.new_context()
    context.add_init_script(change_script([change], KERNEL_TIMEOUT / 1000))
    page = context.new_page()
    page.watch = watch(page, base_url)
    page.goto(f"{base_url}app.html?calculator=dice_pool")
    page.wait_for_function(
        "() => window.__rlChange && window.__rlChange.done", timeout=KERNEL_TIMEOUT
    )
    state = page.evaluate(CHANGE_STATE_JS)
    assert state["error"] == ""
    assert state["key"] == "dice_pool"
    assert state["tries"] >= 1
    origin = page.evaluate("() => performance.timeOrigin")
    assert 0 < state["at"] - origin < KERNEL_TIMEOUT
    shown = page.locator(f'.rl-calc-dice_pool [data-figure="{change.figure}"]').first
    assert shown.text_content() == expected
    field = page.locator(f".rl-calc-dice_pool .rl-field-{change.field} input").first
    assert field.input_value() == change.text
    # another calculator's page: nothing typed, no state
    other = context.new_page()
    other.goto(f"{base_url}app.html?calculator=lifting")
    other.locator(".rl-calc-lifting [data-figure]").first.wait_for(timeout=KERNEL_TIMEOUT)
    assert other.evaluate(CHANGE_STATE_JS) is None
    assert page.watch.errors == []
    context.close()
