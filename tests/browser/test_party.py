"""The party in Chromium (``ruleslab_widgets.party``): kept in IndexedDB across pages,
reloads and going offline; filling a calculator's roles gives the figures of typing the
values; exported, cleared and imported back the same; a bad file changes nothing.

One browser context runs the whole story (each app page starts Pyodide: a few starts,
not dozens). Expectations come from the engine on CPython (:mod:`ruleslab.party`) and
from typing the same values into a fresh page.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, PageWatch, field_box, type_into

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.character import Character  # noqa: E402
from ruleslab.party import Party, parse_party, party_json  # noqa: E402

FIGURES_JS = """(key) => Object.fromEntries([...document.querySelectorAll(
  `.rl-calc-${key} [data-figure]`)].map((e) => [e.dataset.figure, e.textContent.trim()]))"""

STORED_JS = """() => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab", 1);
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    const db = req.result;
    const tx = db.transaction(["party", "set-aside"], "readonly");
    const party = tx.objectStore("party").get("party");
    const aside = tx.objectStore("set-aside").getAll();
    tx.oncomplete = () => { db.close(); resolve({ party: party.result ?? null,
                                                   aside: aside.result }); };
  };
})"""

PUT_JS = """(value) => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab", 1);
  req.onsuccess = () => {
    const db = req.result;
    const tx = db.transaction("party", "readwrite");
    tx.objectStore("party").put(value, "party");
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})"""

CLEAR_JS = """() => new Promise((resolve) => {
  const req = indexedDB.deleteDatabase("ruleslab");
  req.onsuccess = () => resolve("deleted");
  req.onerror = () => resolve("error");
  req.onblocked = () => resolve("blocked");
})"""


def _stored_party(page, names: tuple[str, ...], timeout_s: float = 20) -> Party:
    """The party IndexedDB holds, once it has the characters ``names`` (the page writes
    after the widget's change is drawn: wait for it before leaving the page)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(STORED_JS)["party"]
        party = parse_party(value["text"]) if value else Party()
        if party.names == names:
            return party
        if time.monotonic() > deadline:
            pytest.fail(f"storage holds {party.names}, not {names}")
        page.wait_for_timeout(100)


def _open(page, base: str, key: str):
    """App page ``key`` with its party loaded; the party bar's locator."""
    from playwright.sync_api import expect

    page.goto(f"{base}app.html?calculator={key}")
    bar = page.locator(f".rl-calc-{key} .rl-party")
    expect(bar.locator(".rl-party-list summary")).to_be_visible(timeout=KERNEL_TIMEOUT)
    expect(bar).not_to_contain_text("Loading the party", timeout=30_000)
    return bar


def _save_as(bar, role_phrase: str, name: str) -> None:
    from playwright.sync_api import expect

    bar.get_by_role("button", name=f"Save as new character… ({role_phrase}'s values)").click()
    bar.get_by_label("New character's name").fill(name)
    bar.get_by_role("button", name="Save", exact=True).click()
    expect(bar.locator(".rl-party-status")).to_contain_text(f"Saved {name}")


def _fill(bar, role_phrase: str, name: str) -> None:
    bar.get_by_label(f"Fill {role_phrase} from", exact=True).select_option(label=name)
    bar.get_by_role("button", name=f"Fill {role_phrase} from the chosen character").click()


def _typed_figures(page, base: str, key: str, values: dict[str, str]) -> dict[str, str]:
    """The figures of a fresh page of ``key`` with ``values`` typed, field by field."""
    from playwright.sync_api import expect

    page.goto(f"{base}app.html?calculator={key}")
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(
        timeout=KERNEL_TIMEOUT
    )
    for name, text in values.items():
        type_into(page, key, name, text)
    for name, text in values.items():
        expect(field_box(page, key, name)).to_have_value(text)
    page.wait_for_timeout(1500)  # (the last recompute lands)
    return page.evaluate(FIGURES_JS, key)


def _check_filled(page, key: str, values: dict[str, str]) -> dict[str, str]:
    """The fields hold ``values``; the page's figures."""
    from playwright.sync_api import expect

    for name, text in values.items():
        expect(field_box(page, key, name)).to_have_value(text)
    page.wait_for_timeout(1500)
    return page.evaluate(FIGURES_JS, key)


def test_the_party_is_kept_fills_calculators_and_travels_by_file(
    browser, deploy_server, artifacts, tmp_path: Path
):
    from playwright.sync_api import expect

    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 1800}, accept_downloads=True)
    page = context.new_page()
    watch = PageWatch(page, base)
    other = context.new_page()  # where values are typed by hand
    try:
        # the landing page has the worker cache the site (for the offline part)
        page.goto(base)
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"

        # two characters, made in two calculators: the storage is the site's
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (0)")
        # nothing stored yet is an empty party, not an unreadable one (the page's null)
        expect(bar.locator(".rl-party-status")).not_to_contain_text("could not be read")
        type_into(page, "lifting", "strength", "5")
        type_into(page, "lifting", "might", "2")
        _save_as(bar, "the lifter", "Aiko")
        expect(bar).to_contain_text("The lifter: Aiko's values")
        _stored_party(page, ("Aiko",))
        bar = _open(page, base, "jumping")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        type_into(page, "jumping", "strength", "4")
        type_into(page, "jumping", "athletics", "5")
        type_into(page, "jumping", "mega_strength", "1")
        _save_as(bar, "the jumper", "Bo")
        _stored_party(page, ("Aiko", "Bo"))
        want = Party.of(
            {
                "Aiko": Character(strength=5, might=2),
                "Bo": Character(strength=4, athletics=5, mega_strength=1),
            }
        )

        # reload: both are there
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")

        # lifting, filled from Bo: the figures of typing his values
        _fill(bar, "the lifter", "Bo")
        expect(bar).to_contain_text("The lifter: Bo's values")
        bo_lift = {"strength": "4", "might": "0", "mega_strength": "1"}
        filled = _check_filled(page, "lifting", bo_lift)
        assert filled == _typed_figures(other, base, "lifting", bo_lift)
        # a change afterwards is marked, never written back
        type_into(page, "lifting", "might", "3")
        expect(bar).to_contain_text("The lifter: Bo's values, edited")
        page.wait_for_timeout(500)
        assert _stored_party(page, ("Aiko", "Bo"))["Bo"] == want["Bo"]
        page.screenshot(path=str(artifacts / "party-bar.png"))

        # jumping, filled from Aiko
        bar = _open(page, base, "jumping")
        _fill(bar, "the jumper", "Aiko")
        aiko_jump = {"strength": "5", "athletics": "2", "mega_strength": "0"}
        filled = _check_filled(page, "jumping", aiko_jump)
        assert filled == _typed_figures(other, base, "jumping", aiko_jump)

        # autofire: the attacker from Bo, the 2.1 target from Aiko
        bar = _open(page, base, "autofire")
        _fill(bar, "the attacker", "Bo")
        _fill(bar, "Target under 2.1", "Aiko")
        expect(bar).to_contain_text("Target under 2.1: Aiko's values")
        autofire = {
            "dexterity": "3",
            "mega_dexterity": "0",
            "ability": "2",
            "strength": "4",
            "might": "0",
            "mega_strength": "1",
            "target_dexterity": "3",
            "target_mega_dexterity": "0",
            "target_wits": "3",
            "target_mega_wits": "0",
            "target_ability": "2",
            "target_quantum": "1",
        }
        filled = _check_filled(page, "autofire", autofire)
        assert filled == _typed_figures(other, base, "autofire", autofire)

        # offline, the page reloads with the party
        context.set_offline(True)
        deploy_server.stop()
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")

        # export
        bar.locator(".rl-party-list summary").click()
        with page.expect_download() as info:
            bar.get_by_role("button", name="Export party").click()
        download = info.value
        assert download.suggested_filename == "ruleslab-party.json"
        exported = Path(download.path()).read_text(encoding="utf-8")
        party = parse_party(exported)
        assert party.names == ("Aiko", "Bo")
        assert party.characters == want.characters
        (tmp_path / "party.json").write_text(exported, encoding="utf-8")
        bar.screenshot(path=str(artifacts / "party-list.png"))

        # clear the storage: the party is gone
        assert page.evaluate(CLEAR_JS) == "deleted"
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (0)")
        # nothing stored yet is an empty party, not an unreadable one (the page's null)
        expect(bar.locator(".rl-party-status")).not_to_contain_text("could not be read")
        assert page.evaluate(STORED_JS)["party"] is None

        # bad files: each changes nothing and says why
        bar.locator(".rl-party-list summary").click()
        file_input = bar.locator("input[type=file]")
        status = bar.locator(".rl-party-status")
        bad = {
            "not-json.json": ("{ this is not json", "not JSON"),
            "strength.json": (exported.replace('"strength": 5', '"strength": 99', 1), "Strength"),
            "bidi.json": (exported.replace('"Aiko"', '"Ai\\u202eko"', 1), "U+202E"),
            "deep.json": ("[" * 100_000, "nested too deeply"),
            "newer.json": (exported.replace('"format_version": 1', '"format_version": 2'), "newer"),
            "huge.json": (" " * 1_500_000, "at most 1 MB"),
        }
        for name, (text, says) in bad.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            file_input.set_input_files(str(path))
            expect(status).to_contain_text(says)
            expect(status).to_contain_text("Nothing was changed.")
            expect(bar.locator(".rl-party-list summary")).to_have_text("Party (0)")
            assert page.evaluate(STORED_JS)["party"] is None
        # the exported file: imported whole, in one write
        file_input.set_input_files(str(tmp_path / "party.json"))
        expect(bar).to_contain_text("This file holds 2 characters: Aiko, Bo.")
        assert page.evaluate(STORED_JS)["party"] is None  # not before the GM chooses
        bar.get_by_role("button", name="Replace the party").click()
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")
        assert _stored_party(page, ("Aiko", "Bo")) == party  # the same party, ids too
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")

        # storage that cannot be read: said, and kept aside, not deleted
        page.evaluate(PUT_JS, {"version": 1, "text": '{"format": "something else"}'})
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-status")).to_contain_text("could not be read")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (0)")
        kept = page.evaluate(STORED_JS)
        assert kept["party"] is None
        assert kept["aside"] == [{"version": 1, "text": '{"format": "something else"}'}]
    finally:
        context.close()
    assert watch.offsite == []
    assert watch.errors == [], f"console errors: {watch.errors}"


def test_one_character_travels_by_link_and_names_are_text(browser, base_url, artifacts):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    watch = PageWatch(page, base_url)
    try:
        bar = _open(page, base_url, "lifting")
        type_into(page, "lifting", "strength", "7")
        hostile = '<img src=x onerror="window.pwned=1">'
        _save_as(bar, "the lifter", hostile)
        expect(bar.locator(".rl-party-who")).to_have_text(f"The lifter: {hostile}'s values")
        assert page.evaluate("() => window.pwned") is None
        assert page.locator(".rl-party img").count() == 0
        bar.locator(".rl-party-list summary").click()
        bar.get_by_role("button", name=f"Share {hostile} by link").click()
        link = bar.locator(".rl-party-link").input_value()
        assert link.startswith(f"{base_url}app.html?calculator=lifting#character=")
        # the link, opened in a browser with another party
        page.evaluate(CLEAR_JS)
        page.goto("about:blank")
        page.goto(link)
        bar = page.locator(".rl-calc-lifting .rl-party")
        offer = bar.get_by_role("button", name=f"Add {hostile} to the party")
        expect(offer).to_be_visible(timeout=KERNEL_TIMEOUT)
        offer.click()
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        assert "#" not in page.url  # (a reload does not offer him again)
        assert _stored_party(page, (hostile,))[hostile] == Character(strength=7)
        # a damaged link says so and adds nothing (pasted over the page: only its # changes)
        page.goto(f"{base_url}app.html?calculator=lifting#character=eyJub3QiOiJ1cyJ9")
        bar = page.locator(".rl-calc-lifting .rl-party")
        expect(bar.locator(".rl-party-status")).to_contain_text(
            "is not a ruleslab character", timeout=KERNEL_TIMEOUT
        )
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        page.screenshot(path=str(artifacts / "party-phone.png"))
    finally:
        context.close()
    assert watch.errors == [], f"console errors: {watch.errors}"


def test_a_party_file_written_by_python_imports_in_the_page(browser, base_url, tmp_path):
    """A notebook user's file (``party_json``) is what the page reads; another page of
    the site open at the same time shows the new party at once (BroadcastChannel)."""
    from playwright.sync_api import expect

    from ruleslab.chimera.fighter import Fighter

    party = Party.of({"Rex": Fighter("Rex", mr=12, damage="2d6+1", kind="shoot")})
    (tmp_path / "rex.json").write_text(party_json(party), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    elsewhere = context.new_page()
    try:
        other_bar = _open(elsewhere, base_url, "chimera")
        bar = _open(page, base_url, "chimera")
        bar.locator(".rl-party-list summary").click()
        bar.locator("input[type=file]").set_input_files(str(tmp_path / "rex.json"))
        bar.get_by_role("button", name="Add to the party").click()
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        _fill(bar, "Combatant B", "Rex")
        expect(field_box(page, "chimera", "b_mr")).to_have_value("12")
        expect(field_box(page, "chimera", "b_damage")).to_have_value("2d6+1")
        # the other page, never reloaded nor focused, has him too
        expect(other_bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        other_select = other_bar.get_by_label("Fill Combatant A from", exact=True)
        expect(other_select).to_contain_text("Rex")
        # nothing filled there: nothing shown as chosen, and nothing to fill from yet
        expect(other_select).to_have_value("")
        assert other_select.evaluate("s => s.options[s.selectedIndex].text") == (
            "choose a character"
        )
        fill = other_bar.get_by_role("button", name="Fill Combatant A from the chosen character")
        expect(fill).to_be_disabled()
        other_select.select_option(label="Rex")
        expect(fill).to_be_enabled()
    finally:
        context.close()
