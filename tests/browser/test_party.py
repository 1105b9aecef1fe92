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
from typing import Any

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, PageWatch, field_box, type_into

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.character import Character  # noqa: E402
from ruleslab.party import Party, parse_entry, parse_party, party_json  # noqa: E402

FIGURES_JS = """(key) => Object.fromEntries([...document.querySelectorAll(
  `.rl-calc-${key} [data-figure]`)].map((e) => [e.dataset.figure, e.textContent.trim()]))"""

STORED_JS = """() => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab");
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    const db = req.result;
    const names = ["records", "set-aside"].filter((n) => db.objectStoreNames.contains(n));
    if (names.length < 2) { db.close(); resolve({ records: [], aside: [] }); return; }
    const tx = db.transaction(names, "readonly");
    const range = IDBKeyRange.bound(["party"], ["party", []]);
    const records = tx.objectStore("records").getAll(range);
    const aside = tx.objectStore("set-aside").getAll();
    const big = (k, x) => typeof x === "bigint" ? `${x}n` : x;
    const safe = (v) => { try { return JSON.parse(JSON.stringify(v, big)); }
                          catch (e) { return String(e); } };
    tx.oncomplete = () => {
      db.close();
      resolve({ records: records.result, aside: aside.result.map(safe) });
    };
  };
})"""

#: Put ``value`` under ``key`` in store ``store`` of database "ruleslab" (created at
#: ``version``, with ``stores``, when it does not exist yet).
PUT_JS = """([store, key, value, version, stores]) => new Promise((resolve, reject) => {
  const req = version ? indexedDB.open("ruleslab", version) : indexedDB.open("ruleslab");
  req.onupgradeneeded = () => {
    for (const s of stores || []) if (!req.result.objectStoreNames.contains(s))
      req.result.createObjectStore(s);
  };
  req.onsuccess = () => {
    const db = req.result;
    if (!store) { db.close(); resolve(true); return; }
    let v = value;
    if (v === "BIGINT") v = { format: 1, rev: 5n, created: 1, deleted: false, text: "{}" };
    if (v === "CYCLE") {
      v = { format: 1, rev: 1, created: 1, deleted: false, text: "x" };
      v.self = v;
    }
    if (v === "ARRAY") { v = []; v.length = 2 ** 31; }
    const tx = db.transaction(store, "readwrite");
    tx.objectStore(store).put(v, key);
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
    """The party IndexedDB holds (one record per character), once it has the characters
    ``names`` (the page writes after the widget's change is drawn: wait for it)."""
    deadline = time.monotonic() + timeout_s
    while True:
        records = page.evaluate(STORED_JS)["records"]
        party = Party()
        for r in sorted(records, key=lambda r: r["created"]):
            if not r["deleted"]:
                e = parse_entry(r["text"])
                party = party.add(e.name, e.record, id=e.id)
        if party.names == names:
            return party
        if time.monotonic() > deadline:
            pytest.fail(f"storage holds {party.names}, not {names}")
        page.wait_for_timeout(100)


def _live(page) -> list[dict]:
    return [r for r in page.evaluate(STORED_JS)["records"] if not r["deleted"]]


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


def _kim_saved(page, base_url: str) -> None:
    """A party of one: Kim, saved from the lifting page with Strength 3, the store
    cleared first."""
    page.goto(f"{base_url}app.html?calculator=lifting")
    page.evaluate(CLEAR_JS)
    bar = _open(page, base_url, "lifting")
    type_into(page, "lifting", "strength", "3")
    _save_as(bar, "the lifter", "Kim")


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
        assert _live(page) == []

        # bad files: each changes nothing and says why
        bar.locator(".rl-party-list summary").click()
        file_input = bar.locator("input[type=file]")
        status = bar.locator(".rl-party-status")
        bad = {
            "not-json.json": ("{ this is not json", "not JSON"),
            "strength.json": (exported.replace('"strength": 5', '"strength": 99', 1), "Strength"),
            "bidi.json": (exported.replace('"Aiko"', '"Ai\\u202eko"', 1), "U+202E"),
            "deep.json": ("[" * 100_000, "nested too deeply"),
            "newer.json": (exported.replace('"format_version": 2', '"format_version": 3'), "newer"),
            "huge.json": (" " * 1_500_000, "at most 1 MB"),
        }
        for name, (text, says) in bad.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            file_input.set_input_files(str(path))
            expect(status).to_contain_text(says)
            expect(status).to_contain_text("Nothing was changed.")
            expect(bar.locator(".rl-party-list summary")).to_have_text("Party (0)")
            assert _live(page) == []
        # the exported file: imported whole, in one write
        file_input.set_input_files(str(tmp_path / "party.json"))
        expect(bar).to_contain_text("This file holds 2 characters: Aiko, Bo.")
        assert _live(page) == []  # not before the GM chooses
        bar.get_by_role("button", name="Replace the party").click()
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")
        assert _stored_party(page, ("Aiko", "Bo")) == party  # the same party, ids too
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")

        # a record that cannot be read: said, and kept aside, not deleted
        bad = '{"name": "Zed", "kind": "character"}'
        page.evaluate(
            PUT_JS,
            [
                "records",
                ["party", "zed"],
                {"format": 1, "rev": 1, "created": 9e12, "deleted": False, "text": bad},
            ],
        )
        bar = _open(page, base, "lifting")
        expect(bar.locator(".rl-party-status")).to_contain_text("could not be read")
        expect(bar.locator(".rl-party-status")).to_contain_text("“zed”")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")
        kept = page.evaluate(STORED_JS)
        assert [r["text"] for r in kept["aside"]] == [bad]
        assert sorted(parse_entry(r["text"]).name for r in kept["records"]) == ["Aiko", "Bo"]
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


CLICK_JS = """(name) => {
  const b = [...document.querySelectorAll(".rl-party button")].find(
    (e) => e.textContent === name || e.getAttribute("aria-label") === name);
  if (!b) return false;
  b.click();
  return true;
}"""


def _record(page, name: str) -> dict:
    """The stored record of the live character called ``name``."""
    for r in _live(page):
        if parse_entry(r["text"]).name == name:
            return r
    pytest.fail(f"no stored character {name}")


def test_two_tabs_saving_renaming_and_deleting_at_once_keep_every_change(browser, base_url):
    """Issue 38, 1: each tab wrote its whole party and the last writer won ("Cara" and
    "Dan" saved within 20 ms kept one; a delete undone by an update; a rename box's
    text replaced when the other tab changed the party)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1100, "height": 1800})
    one, two = context.new_page(), context.new_page()
    watch = PageWatch(one, base_url)
    try:
        one.goto(f"{base_url}app.html?calculator=lifting")
        one.evaluate(CLEAR_JS)
        bar1 = _open(one, base_url, "lifting")
        bar2 = _open(two, base_url, "jumping")
        type_into(one, "lifting", "strength", "5")
        type_into(two, "jumping", "strength", "3")
        for bar, phrase, name in ((bar1, "the lifter", "Cara"), (bar2, "the jumper", "Dan")):
            bar.get_by_role("button", name=f"Save as new character… ({phrase}'s values)").click()
            bar.get_by_label("New character's name").fill(name)
        # both "Save" clicks within a few milliseconds
        assert one.evaluate(CLICK_JS, "Save")
        assert two.evaluate(CLICK_JS, "Save")
        expect(bar1.locator(".rl-party-status")).to_contain_text("Saved Cara")
        expect(bar2.locator(".rl-party-status")).to_contain_text("Saved Dan")
        for bar in (bar1, bar2):  # each tab shows the other's, never reloaded
            expect(bar.locator(".rl-party-list summary")).to_have_text("Party (2)")
        party = _stored_party(one, ("Cara", "Dan"))
        assert party["Cara"].strength == 5
        assert party["Dan"].strength == 3

        # a rename box being typed in keeps its text while the other tab changes the party
        bar1.locator(".rl-party-list summary").click()
        bar1.get_by_role("button", name="Rename Dan").click()
        box = bar1.get_by_label("New name for Dan")
        box.fill("Dan the")
        type_into(two, "jumping", "strength", "2")
        _save_as(bar2, "the jumper", "Eve")
        expect(bar1.locator(".rl-party-list summary")).to_have_text("Party (3)")
        expect(box).to_have_value("Dan the")
        expect(box).to_be_focused()
        box.press("End")
        box.type(" Bold")
        box.press("Enter")
        expect(bar1.locator(".rl-party-status")).to_have_text("Renamed Dan to Dan the Bold.")
        _stored_party(one, ("Cara", "Dan the Bold", "Eve"))

        # another tab deleted Cara, and its word has not arrived yet (written straight
        # into storage, told to no one): this tab's update of Cara is refused, said
        cara = _record(one, "Cara")
        cid = cara["created"]
        _fill(bar2, "the jumper", "Cara")
        expect(bar2).to_contain_text("The jumper: Cara's values")  # (the fill landed)
        type_into(two, "jumping", "strength", "4")
        expect(bar2).to_contain_text("The jumper: Cara's values, edited")
        [key] = [r for r in _live(two) if r["created"] == cid]
        ident = parse_entry(key["text"]).id
        two.evaluate(
            PUT_JS,
            [
                "records",
                ["party", ident],
                {
                    "format": 1,
                    "rev": cara["rev"] + 1,
                    "created": cid,
                    "deleted": True,
                    "text": None,
                },
            ],
        )
        bar2.get_by_role("button", name="Update Cara").click()
        status2 = bar2.locator(".rl-party-status")
        expect(status2).to_contain_text("Not saved: Cara deleted in another tab meanwhile")
        expect(bar2.locator(".rl-party-list summary")).to_have_text("Party (2)")
        _stored_party(one, ("Dan the Bold", "Eve"))

        # and a rename made from an older revision is refused, not written over
        eve = _record(two, "Eve")
        changed = parse_entry(eve["text"])
        newer = eve["text"].replace('"name":"Eve"', '"name":"Eva"')
        two.evaluate(
            PUT_JS,
            [
                "records",
                ["party", changed.id],
                {
                    "format": 1,
                    "rev": eve["rev"] + 1,
                    "created": eve["created"],
                    "deleted": False,
                    "text": newer,
                },
            ],
        )
        bar1.get_by_role("button", name="Rename Eve").click()
        box = bar1.get_by_label("New name for Eve")
        box.fill("Evelyn")
        box.press("Enter")
        expect(bar1.locator(".rl-party-status")).to_contain_text(
            "Not saved: Eve changed in another tab meanwhile"
        )
        _stored_party(one, ("Dan the Bold", "Eva"))
        expect(bar1.locator(".rl-party-items")).to_contain_text("Eva")
    finally:
        context.close()
    assert watch.errors == [], f"console errors: {watch.errors}"


LEGACY = {
    "version": 1,
    "text": party_json(Party.of({"Kim": Character(strength=3, might=1)})),
}


@pytest.mark.parametrize(
    ("setup", "says", "count", "aside"),
    [
        # a record of an unexpected shape: named, set aside, the rest readable
        (
            (["records", ["party", "big"], "BIGINT", 2, ["records", "set-aside"]],),
            "its revision is a BigInt",
            0,
            1,
        ),
        (
            (["records", ["party", "cyc"], "CYCLE", 2, ["records", "set-aside"]],),
            'unexpected parts ("self")',
            0,
            1,
        ),
        (
            (["records", ["party", "arr"], "ARRAY", 2, ["records", "set-aside"]],),
            "an array of 2,147,483,648 items",
            0,
            1,
        ),
        # a database at another version without the record store: upgraded, the party
        # an earlier site kept there moved into records (and that value kept aside)
        ((["party", "party", LEGACY, 5, ["party"]],), "upgraded to version 6", 1, 1),
        # one without any store
        (([None, None, None, 1, []],), "upgraded to version 2", 0, 0),
    ],
    ids=["bigint", "cycle", "long-array", "version-5", "no-stores"],
)
def test_unreadable_storage_keeps_what_it_holds_and_says_what_was_found(
    browser, base_url, setup, says, count, aside
):
    """Issue 38, 2: each of these said "This browser does not let the page save the
    party (private browsing?)", showed "Party (0)", and then "Saved …" for a character
    gone after a reload."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1100, "height": 1800})
    page = context.new_page()
    try:
        page.goto(base_url)
        page.evaluate(CLEAR_JS)
        for args in setup:
            assert page.evaluate(PUT_JS, args)
        bar = _open(page, base_url, "lifting")
        status = bar.locator(".rl-party-status")
        if says:
            expect(status).to_contain_text(says)
        expect(status).not_to_contain_text("does not let the page save")
        expect(bar.locator(".rl-party-list summary")).to_have_text(f"Party ({count})")
        deadline = time.monotonic() + 10  # (set aside once Python has read it)
        while len(page.evaluate(STORED_JS)["aside"]) != aside:
            assert time.monotonic() < deadline, page.evaluate(STORED_JS)["aside"]
            page.wait_for_timeout(100)
        if aside and "upgraded" not in says:
            bar.locator(".rl-party-list summary").click()
            with page.expect_download() as info:
                bar.get_by_role("button", name="Download what was set aside (1)").click()
            text = Path(info.value.path()).read_text(encoding="utf-8")
            assert '"format": "ruleslab-set-aside"' in text
        type_into(page, "lifting", "strength", "6")
        _save_as(bar, "the lifter", "Lee")
        bar = _open(page, base_url, "lifting")  # (a reload: he is there)
        expect(bar.locator(".rl-party-list summary")).to_have_text(f"Party ({count + 1})")
        expect(bar.locator(".rl-party-status")).not_to_contain_text("could not be read")
    finally:
        context.close()


HOST_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,"></head><body><h1>A page of the same site</h1>
<div data-ruleslab="lifting" data-strength="6"{extra}></div>
<script src="{site}embed.js"></script></body></html>"""


@pytest.mark.parametrize("opted", [False, True], ids=["embed", "embed-opted-in"])
def test_an_embed_reads_and_writes_nothing_of_the_party_unless_its_page_opts_in(
    browser, base_url, opted
):
    """Issue 38, 5: a same-site page embedding a calculator showed the real party, and
    "Save as new" wrote into it (Delete within reach of clickjacking)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1100, "height": 1800})
    page = context.new_page()
    try:
        _kim_saved(page, base_url)
        host = f"{base_url}host-of-an-embed.html"
        html = HOST_HTML.format(site=base_url, extra=' data-party="yes"' if opted else "")
        context.route(host, lambda route: route.fulfill(body=html, content_type="text/html"))
        page.goto(host)
        frame = page.frame_locator("iframe").first
        fbar = frame.locator(".rl-calc-lifting .rl-party")
        expect(fbar.locator(".rl-party-list summary")).to_be_visible(timeout=KERNEL_TIMEOUT)
        expect(fbar).not_to_contain_text("Loading the party", timeout=30_000)
        if opted:
            expect(fbar.locator(".rl-party-list summary")).to_have_text("Party (1)")
            return
        expect(fbar.locator(".rl-party-list summary")).to_have_text("Party (0)")
        status = fbar.locator(".rl-party-status")
        expect(status).to_contain_text("embedded in another page")
        fbar.get_by_role("button", name="Save as new character… (the lifter's values)").click()
        fbar.get_by_label("New character's name").fill("Mallory")
        fbar.get_by_role("button", name="Save", exact=True).click()
        expect(status).to_contain_text("an embedded calculator saves nothing")
        page.wait_for_timeout(500)
        assert [parse_entry(r["text"]).name for r in _live(page)] == ["Kim"]
    finally:
        context.close()


HOLD_JS = """([value]) => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab", 1);
  req.onupgradeneeded = () => req.result.createObjectStore("party");
  req.onsuccess = () => {
    const db = req.result;  // held open, deaf to versionchange (an old tab of the site)
    const tx = db.transaction("party", "readwrite");
    tx.objectStore("party").put(value, "party");
    tx.oncomplete = () => { window.heldDb = db; resolve(db.version); };
    tx.onerror = () => reject(tx.error);
  };
})"""


def test_storage_another_tab_keeps_from_being_upgraded_is_shown_read_only_and_said(
    browser, base_url
):
    """Issue 38, 2: a database at another version, or one lacking a store, gave "This
    browser does not let the page save the party" and "Party (0)"."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1100, "height": 1800})
    old_tab, page = context.new_page(), context.new_page()
    try:
        old_tab.goto(base_url)
        old_tab.evaluate(CLEAR_JS)
        assert old_tab.evaluate(HOLD_JS, [LEGACY]) == 1
        bar = _open(page, base_url, "lifting")
        status = bar.locator(".rl-party-status")
        expect(status).to_contain_text("could not be upgraded", timeout=30_000)
        expect(status).to_contain_text("another tab of the site holds it open")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")  # (Kim)
        expect(status).not_to_contain_text("does not let the page save")
        type_into(page, "lifting", "strength", "6")
        bar.get_by_role("button", name="Save as new character… (the lifter's values)").click()
        bar.get_by_label("New character's name").fill("Lee")
        bar.get_by_role("button", name="Save", exact=True).click()
        expect(status).to_contain_text("Not saved")
        # the old tab closed: the next page upgrades, and moves Kim into records
        old_tab.close()
        bar = _open(page, base_url, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        _stored_party(page, ("Kim",))
    finally:
        context.close()


FOREIGN_HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Another origin's page</title><link rel="icon" href="data:,"></head><body>
<h1>A page of another origin</h1>
<div id="embed" data-ruleslab="lifting" data-strength="6" data-party="yes"{extra}></div>
<script src="{site}embed.js"></script></body></html>"""


def _into_view(page: Any, locator: Any) -> None:
    """Scroll ``locator`` into view for a screenshot, again if the party bar was drawn
    anew meanwhile (a redraw replaces its nodes: "Element is not attached to the DOM")."""
    from playwright.sync_api import Error

    for _ in range(10):
        try:
            locator.scroll_into_view_if_needed(timeout=10_000)
            return
        except Error as err:
            if "not attached" not in str(err):
                raise
            page.wait_for_timeout(200)
    locator.scroll_into_view_if_needed(timeout=10_000)


def test_an_opted_in_embed_in_a_page_of_another_origin_asks_before_each_change(
    browser, base_url, tmp_path, artifacts
):
    """Issue 38, 8: an embed with data-party="yes" in a page of another origin could
    write the GM's party (Delete, "Save as new"). Each change is now asked of the reader
    in the frame, naming the page it is shown in; refused, nothing is written."""
    from playwright.sync_api import expect

    from tests.browser.axe_check import axe_violations
    from tests.browser.conftest import served

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, site_tab = context.new_page(), context.new_page()
    try:
        _kim_saved(page, base_url)
        site_tab.goto(base_url)  # (reads the site's storage)
        (tmp_path / "index.html").write_text(FOREIGN_HOST.format(site=base_url, extra=""))
        dark = FOREIGN_HOST.format(site=base_url, extra=' data-theme="dark"')
        (tmp_path / "dark.html").write_text(dark)
        with served(tmp_path) as host:
            origin, own = host.rstrip("/"), base_url.rstrip("/")
            page.goto(host)
            fbar = page.frame_locator("#embed iframe").locator(".rl-calc-lifting .rl-party")
            summary = fbar.locator(".rl-party-list summary")
            expect(summary).to_have_text("Party (1)", timeout=KERNEL_TIMEOUT)  # (Kim)
            status = fbar.locator(".rl-party-status")
            ask = fbar.locator(".rl-party-ask")

            def save_lee() -> None:
                fbar.get_by_role(
                    "button", name="Save as new character… (the lifter's values)"
                ).click()
                fbar.get_by_label("New character's name").fill("Lee")
                fbar.get_by_role("button", name="Save", exact=True).click()
                expect(ask).to_contain_text(
                    "Allow this calculator to save Lee as a new character of your party?"
                )

            save_lee()
            expect(ask).to_contain_text(f"It is shown inside a page of {origin}, not a page")
            expect(status).to_have_text("Not saved yet: allow or refuse the change above.")
            expect(ask).to_contain_text(f"of this site ({own}), which keeps your party.")
            refuse = ask.get_by_role("button", name="Do not change my party")
            expect(refuse).to_be_focused()
            expect(ask.get_by_role("button", name="Allow this change")).to_be_enabled()
            frame = page.locator("#embed iframe").element_handle().content_frame()
            # (a frame's document: its page's heading is the host's)
            assert (
                axe_violations(frame, {"rules": {"page-has-heading-one": {"enabled": False}}}) == []
            )
            _into_view(page, fbar)
            page.screenshot(path=str(artifacts / "party-ask-foreign-light-1280.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            _into_view(page, ask)
            page.screenshot(path=str(artifacts / "party-ask-foreign-light-390.png"))
            page.set_viewport_size({"width": 1280, "height": 900})
            assert [parse_entry(r["text"]).name for r in _live(site_tab)] == ["Kim"]
            refuse.click()
            expect(ask).to_have_count(0)
            expect(status).to_contain_text(
                f"Not saved: you did not allow the page this calculator is shown in ({origin}) "
                "to save Lee as a new character of your party."
            )
            expect(summary).to_have_text("Party (1)")
            assert [parse_entry(r["text"]).name for r in _live(site_tab)] == ["Kim"]
            # a delete, allowed: written
            summary.click()
            fbar.get_by_role("button", name="Delete Kim").click()
            fbar.get_by_role("button", name="Delete", exact=True).click()
            expect(ask).to_contain_text("Allow this calculator to delete Kim from your party?")
            page.wait_for_timeout(300)
            assert [parse_entry(r["text"]).name for r in _live(site_tab)] == ["Kim"]
            ask.get_by_role("button", name="Allow this change").click()
            expect(status).to_contain_text("Deleted Kim from the party.")
            expect(summary).to_have_text("Party (0)")
            assert _live(site_tab) == []
            # the same question, dark
            page.goto(host + "dark.html")
            _into_view(page, fbar)
            expect(summary).to_have_text("Party (0)", timeout=KERNEL_TIMEOUT)
            save_lee()
            page.screenshot(path=str(artifacts / "party-ask-foreign-dark-1280.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            _into_view(page, ask)
            page.screenshot(path=str(artifacts / "party-ask-foreign-dark-390.png"))
            ask.get_by_role("button", name="Allow this change").click()
            expect(status).to_contain_text("Saved Lee")
            assert [parse_entry(r["text"]).name for r in _live(site_tab)] == ["Lee"]
            # the tracker in a hand-made iframe of that page: keeps nothing of the GM's
            tracker = '<iframe title="Tracker" src="{}app.html?calculator=tracker"></iframe>'
            (tmp_path / "tracker.html").write_text(
                FOREIGN_HOST.format(site=base_url, extra="").replace(
                    "<h1>", tracker.format(base_url) + "<h1>"
                )
            )
            page.goto(host + "tracker.html")
            message = page.frame_locator('iframe[title="Tracker"]').locator(".rl-tr-message")
            expect(message).to_contain_text(
                "This tracker is shown inside another page", timeout=KERNEL_TIMEOUT
            )
        # a page of the site itself is not asked
        bar = _open(page, base_url, "lifting")
        expect(bar.locator(".rl-party-list summary")).to_have_text("Party (1)")
        type_into(page, "lifting", "strength", "4")
        _save_as(bar, "the lifter", "Mo")
        assert bar.locator(".rl-party-ask").count() == 0
    finally:
        context.close()
