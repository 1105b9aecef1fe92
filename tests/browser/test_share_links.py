"""Shared links in the built site, with Chromium: a link restores a scenario.

* ``app.html?calculator=lifting&strength=5&might=2&object_kg=450`` opens with
  those inputs and their figures (computed here by hand and on CPython);
* a bad value in a link gets its field's usual message, an unknown name a
  status message naming it, and the page still draws the calculator;
* "Copy link" puts a link on the clipboard (and shows it) that reopens the same
  inputs and figures, unicode combatant lines with newlines included;
* in a notebook, the link points at the calculator's own app page at the site's
  root (``lifting.html?strength=5``: its form and figures in the first response).

Same fixtures and patterns as ``test_calculators.py``: no request may leave the
site and no console error may appear.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, figure_at, run_notebook
from tools.make_content import notebook_link

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402
from ruleslab.calculators.lifting import lifting_and_encumbrance  # noqa: E402

LINES = (
    "Ōni the Ogre 🐉: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5\n"
    "Ćeska “Ace” Nováková: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"
)


def _field(scope, key: str, name: str):
    return scope.locator(
        f".rl-calc-{key} .rl-field-{name} input, "
        f".rl-calc-{key} .rl-field-{name} textarea, "
        f".rl-calc-{key} .rl-field-{name} select"
    ).first


def _figures(page, key: str) -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(
            f".rl-calc-{key} .rl-output [data-figure]",
            "els => els.map((e) => [e.dataset.figure, e.textContent])",
        )
    )


def _open(page, url: str, key: str):
    from playwright.sync_api import expect

    page.goto(url)
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    return root


def _clean(page) -> None:
    assert page.watch.offsite == [], f"requests left the site: {page.watch.offsite}"
    assert page.watch.errors == [], f"console errors: {page.watch.errors}"


def test_a_link_opens_with_its_inputs_and_figures(page, base_url, artifacts):
    from playwright.sync_api import expect

    _open(
        page, base_url + "app.html?calculator=lifting&strength=5&might=2&object_kg=450", "lifting"
    )
    assert _field(page, "lifting", "strength").input_value() == "5"
    assert _field(page, "lifting", "might").input_value() == "2"
    assert _field(page, "lifting", "object_kg").input_value() == "450"
    load = next(p for p in get("lifting").params if p.name == "load_kg").default
    assert float(_field(page, "lifting", "load_kg").input_value()) == load  # not in the link
    # by hand: 30 kg × (Strength 5 + Might 2) = 210 kg
    expect(figure_at(page, "lifting", "capacity")).to_have_text("210 kg")
    want = lifting_and_encumbrance(strength=5, might=2, object_kg=450)
    expect(figure_at(page, "lifting", "p_lift")).to_have_text(want.figure("p_lift").text)
    link = page.locator(".rl-calc-lifting .rl-share-link").first
    # its own page (its form and figures in the first response: issue 35), which is
    # the lifting calculator's without naming it
    expect(link).to_have_value(base_url + "lifting.html?strength=5&might=2&object_kg=450")
    page.screenshot(path=str(artifacts / "share-lifting-link.png"))
    _clean(page)


def test_bad_and_unknown_values_in_a_link_are_shown_not_raised(page, base_url, artifacts):
    from playwright.sync_api import expect

    url = (
        base_url + "app.html?calculator=lifting&strength=-2&might=3&ruleset=%3Cb%3E2.5"
        "&strenght=5&%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E=1"
    )
    root = _open(page, url, "lifting")
    strength = root.locator(".rl-message-strength").first
    expect(strength).to_contain_text("Strength must be a whole number from 0 to")
    assert _field(page, "lifting", "strength").input_value() == "-2"  # kept, to fix
    expect(root.locator(".rl-message-ruleset").first).to_contain_text("must be one of")
    status = root.locator(".rl-status").first
    expect(status).to_contain_text("“strenght”")
    expect(status).to_contain_text("<img src=x onerror=alert(1)>")  # as text
    assert page.locator("img").count() == 0
    assert page.locator(".rl-calc-lifting b").count() == 0
    assert page.locator("text=Traceback").count() == 0
    # the GM fixes the field: the calculator computes
    box = _field(page, "lifting", "strength")
    box.fill("5")
    box.press("Enter")
    # by hand: 30 kg × (5 + 3) = 240 kg
    expect(figure_at(page, "lifting", "capacity")).to_have_text("240 kg", timeout=30_000)
    expect(strength).to_have_text("")
    # the link's bad rules option is still said, and shown: its section was opened
    expect(root.locator(".rl-message-ruleset").first).to_be_visible()
    expect(status).to_contain_text("could not be used")
    page.screenshot(path=str(artifacts / "share-bad-link.png"))
    _clean(page)


def test_copy_link_reopens_the_same_scenario(page, base_url, artifacts):
    """Typed inputs (a unicode text area, a checkbox, a rules option), "Copy link",
    then the copied link in a fresh page: the same inputs and the same figures."""
    from playwright.sync_api import expect

    context = page.context
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url[:-1])
    key = "compressed"
    root = _open(page, base_url + f"app.html?calculator={key}", key)
    area = _field(page, key, "a_combatants")
    area.fill(LINES)
    area.press("Tab")  # a text area commits when it loses focus
    calc = get(key)
    values = {p.name: p.parse(p.default) for p in calc.params}
    values["a_combatants"] = next(p for p in calc.params if p.name == "a_combatants").parse(LINES)
    expect(figure_at(page, key, "pool_a")).to_have_text(
        calc.run(values).figure("pool_a").text, timeout=30_000
    )
    root.locator(".rl-field-a_forcefield_proper input[type=checkbox]").first.check()
    root.locator(".rl-options").get_by_text("Rules options").first.click()
    tie = next(p for p in calc.params if p.name == "initiative_tie")
    root.locator(".rl-field-initiative_tie select").first.select_option(
        label=dict(tie.choices)["coin"]
    )
    values["a_forcefield_proper"] = True
    values["initiative_tie"] = "coin"
    want = calc.run(values)
    expect(figure_at(page, key, "p_tie")).to_have_text(want.figure("p_tie").text, timeout=30_000)
    shown = _figures(page, key)
    assert shown == {f.key: f.text for f in want.figures()}

    page.locator(f".rl-calc-{key} .rl-share-copy").first.click()
    expect(page.locator(f".rl-calc-{key} .rl-share-note").first).to_have_text("Link copied.")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.locator(f".rl-calc-{key} .rl-share-link").first.input_value()
    assert copied.startswith(base_url + "compressed.html?")
    assert "calculator=" not in copied
    assert "a_forcefield_proper=yes" in copied
    assert "initiative_tie=coin" in copied
    _clean(page)

    again = context.new_page()
    again.watch = type(page.watch)(again, base_url)
    _open(again, copied, key)
    expect(figure_at(again, key, "p_tie")).to_have_text(want.figure("p_tie").text)
    assert _field(again, key, "a_combatants").input_value() == LINES
    assert _field(again, key, "a_forcefield_proper").is_checked()
    assert _field(again, key, "initiative_tie").input_value() == dict(tie.choices)["coin"]
    assert _figures(again, key) == shown
    again.screenshot(path=str(artifacts / "share-reopened.png"))
    _clean(again)


def test_the_notebooks_link_points_at_the_app_page(page, base_url, artifacts):
    """In JupyterLite the calculator's link goes to its own app page at the site's root."""
    from playwright.sync_api import expect

    calc = get("lifting")
    page.goto(base_url + notebook_link(calc))
    root = run_notebook(page, "lifting")
    box = _field(page, "lifting", "strength")
    box.fill("5")
    box.press("Enter")
    link = root.locator(".rl-share-link").first
    expect(link).to_have_value(base_url + "lifting.html?strength=5", timeout=30_000)
    # the Tinker cell shows its result as HTML: figures and steps
    expect(page.locator(".rl-explained [data-figure='capacity']").first).to_be_visible(
        timeout=30_000
    )
    page.screenshot(path=str(artifacts / "share-notebook.png"), full_page=True)
    _clean(page)
