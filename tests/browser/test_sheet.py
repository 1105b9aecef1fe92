"""The character sheet in Chromium (issue 34, item 3): a character saved from a calculator,
his sheet opened from the party bar and from the tracker, entered told apart from defaults,
a field edited (a bad value: the field's message; a good one saved), a save undone, kept
over a reload; a fill that would overwrite what the GM typed asks first. Screenshots at
1280×900 and 390×844, light and dark; axe clean.

Expected values are worked by hand: Kim saved from Lifting with Strength 4 typed has one
field entered (Strength: 4 is not Character's default 3) of the 22 a Character holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT, PageWatch, field_box, type_into
from tests.browser.test_party import CLEAR_JS, STORED_JS, _fill, _open, _save_as
from tests.browser.test_tracker import PUT_PARTY_JS

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.character import Character  # noqa: E402
from ruleslab.party import Entry, Party, entry_json, parse_entry  # noqa: E402

SHEET = "app.html?calculator=sheet"

#: Each field of the sheet: its name (the input's id), its tag's words, its value.
FIELDS_JS = """() => Object.fromEntries([...document.querySelectorAll('.rl-sh-field')].map(
  (f) => { const input = f.querySelector('.rl-sh-input');
           return [input.id.replace('rl-sh-', ''), {
             tag: f.querySelector('.rl-sh-tag').textContent,
             value: input.type === 'checkbox' ? input.checked : input.value,
             invalid: input.getAttribute('aria-invalid'),
             error: (f.querySelector('.rl-sh-error') || {}).textContent || '' }]; }))"""


def _stored(page: Any, name: str) -> Entry:
    """The character called ``name`` as the record store holds him."""
    for r in page.evaluate(STORED_JS)["records"]:
        if not r["deleted"]:
            entry = parse_entry(r["text"])
            if entry.name == name:
                return entry
    raise AssertionError(f"{name} is not stored")


def _wait_stored(page: Any, name: str, check: Any) -> Entry:
    deadline = 200
    while True:
        entry = _stored(page, name)
        if check(entry):
            return entry
        deadline -= 1
        assert deadline, f"{name} stored as {entry}"
        page.wait_for_timeout(100)


def _sheet_drawn(page: Any, name: str) -> None:
    page.wait_for_function(
        "(n) => { const h = document.querySelector('.rl-sheet .rl-sh-name');"
        " return h && h.textContent === n; }",
        arg=name,
        timeout=KERNEL_TIMEOUT,
    )


def _status(page: Any, text: str) -> None:
    try:
        page.wait_for_function(
            "(t) => (document.querySelector('.rl-sh-status') || {}).textContent === t",
            arg=text,
            timeout=20_000,
        )
    except Exception:
        said = page.evaluate("() => document.querySelector('.rl-sh-status').textContent")
        raise AssertionError(f"the sheet says {said!r}, not {text!r}") from None


def _put(page: Any, *entries: Entry) -> None:
    for entry in entries:
        page.evaluate(PUT_PARTY_JS, [entry.id, entry_json(entry)])


def test_a_saved_character_is_seen_and_edited_on_his_sheet(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        watch = PageWatch(page, base_url)
        page.goto(f"{base_url}app.html?calculator=lifting")
        page.evaluate(CLEAR_JS)
        bar = _open(page, base_url, "lifting")
        type_into(page, "lifting", "strength", "4")
        _save_as(bar, "the lifter", "Kim")
        # his sheet, from the party bar's list
        bar.locator(".rl-party-list summary").click()
        bar.get_by_role("link", name="Kim's sheet").click()
        _sheet_drawn(page, "Kim")
        fields = page.evaluate(FIELDS_JS)
        assert len(fields) == 22
        assert fields["strength"]["tag"] == "entered"
        assert fields["strength"]["value"] == "4"
        assert {n for n, f in fields.items() if f["tag"] == "entered"} == {"strength"}
        assert fields["dexterity"] == {
            "tag": "default",
            "value": "3",
            "invalid": "false",
            "error": "",
        }
        page.get_by_text("1 of 22 fields entered").wait_for()
        # the tag is part of the field's name for a screen reader
        assert page.get_by_label("Strength (dots) entered", exact=True).count() == 1
        assert page.get_by_label("Dexterity (dots) default", exact=True).count() == 1
        # a bad value: the field's own message, and nothing saved
        stamina = page.locator("#rl-sh-stamina")
        stamina.fill("0")
        stamina.press("Tab")
        page.wait_for_selector("#rl-sh-stamina-error")
        assert page.evaluate(FIELDS_JS)["stamina"]["error"] == (
            "Stamina must be a whole number from 1 to 20 dots."
        )
        assert page.evaluate(FIELDS_JS)["stamina"]["invalid"] == "true"
        assert page.evaluate(FIELDS_JS)["stamina"]["tag"] == "edited, not saved"
        page.get_by_role("button", name="Save 1 change").click()
        _status(page, "Not saved: fix Stamina (see the message under each).")
        assert _stored(page, "Kim").record == Character(strength=4)
        # a good one is saved, and entered
        stamina.fill("5")
        stamina.press("Enter")
        _status(page, "Saved Stamina of Kim.")
        kim = _wait_stored(page, "Kim", lambda e: e.record.stamina == 5)
        assert kim.record == Character(strength=4, stamina=5)
        assert kim.entered == {"strength", "stamina"}
        page.wait_for_function(
            "() => document.querySelector('#rl-sh-stamina').closest('.rl-sh-field')"
            ".querySelector('.rl-sh-tag').textContent === 'entered'"
        )
        # undone: the character as he was
        page.get_by_role("button", name="Undo: change Stamina of Kim").click()
        _status(page, "Undone: change Stamina of Kim.")
        kim = _wait_stored(page, "Kim", lambda e: e.record.stamina == 3)
        assert (kim.record, kim.entered) == (Character(strength=4), {"strength"})
        assert page.evaluate(FIELDS_JS)["stamina"]["tag"] == "default"
        # a default entered at its value, and a rename; then a reload keeps both
        page.locator("#rl-sh-willpower").fill("3")
        page.locator("#rl-sh-dexterity").fill("2")
        page.get_by_role("button", name="Save 2 changes").click()
        _status(page, "Saved Dexterity of Kim.")
        page.get_by_role("button", name="Rename Kim").click()
        page.get_by_label("New name for Kim").fill("Kimiko")
        page.get_by_role("button", name="Rename", exact=True).click()
        _status(page, "Renamed Kim to Kimiko.")
        page.reload()
        _sheet_drawn(page, "Kimiko")
        fields = page.evaluate(FIELDS_JS)
        entered = {n for n, f in fields.items() if f["tag"] == "entered"}
        assert entered == {"strength", "dexterity", "willpower"}
        assert (fields["dexterity"]["value"], fields["willpower"]["value"]) == ("2", "3")
        # "Use the default": no longer entered
        page.get_by_role("button", name="Use the default for Willpower (3)").click()
        _status(page, "Set Willpower of Kimiko to the default (3).")
        kim = _wait_stored(page, "Kimiko", lambda e: "willpower" not in e.entered)
        assert kim.entered == {"strength", "dexterity"}
        assert watch.errors == []
    finally:
        context.close()


def test_the_tracker_links_a_party_combatant_to_his_sheet(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(base_url + SHEET)
        page.evaluate(CLEAR_JS)
        ana = Party().add("Ana", Character(dexterity=5)).entries[0]
        page.goto(base_url + "app.html?calculator=tracker")
        page.wait_for_selector(".rl-tracker .rl-tr-when", timeout=KERNEL_TIMEOUT)
        _put(page, ana)
        page.reload()
        page.get_by_role("button", name="Add from the party").click(timeout=KERNEL_TIMEOUT)
        page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 1")
        page.get_by_label("Foe's name").fill("Thug")
        page.get_by_role("button", name="Add foe", exact=True).click()
        page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 2")
        # the party's combatant links to his sheet; the quick foe has none
        assert page.locator(".rl-tr-sheet").count() == 1
        link = page.get_by_role("link", name="Ana's sheet")
        assert link.bounding_box()["height"] >= 44
        assert axe_violations(page) == []
        page.locator(".rl-tr-order").screenshot(path=str(artifacts / "sheet-tracker-row-390.png"))
        link.click()
        _sheet_drawn(page, "Ana")
        assert page.evaluate(FIELDS_JS)["dexterity"]["tag"] == "entered"
    finally:
        context.close()


@pytest.mark.parametrize(("theme", "width", "height"), [("light", 390, 844), ("dark", 1280, 900)])
def test_a_fill_that_would_overwrite_a_typed_value_asks_first(
    browser: Any, base_url: str, artifacts: Any, theme: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        watch = PageWatch(page, base_url)
        page.goto(f"{base_url}app.html?calculator=lifting&theme={theme}")
        page.evaluate(CLEAR_JS)
        # Kim: Strength 4 entered, Might 0 a default
        kim = Party().add("Kim", Character(strength=4)).entries[0]
        page.wait_for_selector(".rl-calc-lifting .rl-party", timeout=KERNEL_TIMEOUT)
        _put(page, kim)
        page.goto(f"{base_url}app.html?calculator=lifting&theme={theme}")
        bar = page.locator(".rl-calc-lifting .rl-party")
        bar.locator(".rl-party-list summary").wait_for(timeout=KERNEL_TIMEOUT)
        page.wait_for_function(
            "() => !document.querySelector('.rl-calc-lifting .rl-party').textContent"
            ".includes('Loading the party')"
        )
        type_into(page, "lifting", "strength", "5")
        type_into(page, "lifting", "might", "1")
        page.wait_for_timeout(500)

        def fill() -> None:
            bar.get_by_label("Fill the lifter from", exact=True).select_option(label="Kim")
            bar.get_by_role("button", name="Fill the lifter from the chosen character").click()

        fill()
        question = bar.locator(".rl-party-question")
        question.wait_for()
        assert question.locator("li").all_text_contents() == ["Strength: you typed 5, Kim has 4"]
        assert "Kept what you typed in Might (Kim has the default there)." in (
            bar.locator(".rl-party-status").text_content()
        )
        assert field_box(page, "lifting", "might").input_value() == "1"
        assert axe_violations(page) == []
        heights = [b.bounding_box()["height"] for b in question.locator("button").all()]
        assert len(heights) == 2
        assert min(heights) >= 44
        bar.screenshot(path=str(artifacts / f"sheet-fill-question-{theme}-{width}.png"))
        # "Keep mine": his 5 stays; the role says it is edited
        bar.get_by_role("button", name="Keep mine").click()
        question.wait_for(state="detached")
        assert field_box(page, "lifting", "strength").input_value() == "5"
        bar.get_by_text("The lifter: Kim's values, edited").wait_for()
        # asked again; "Use Kim's": Kim's 4, Might still the one typed
        fill()
        question.wait_for()
        bar.get_by_role("button", name="Use Kim's").click()
        question.wait_for(state="detached")
        page.wait_for_function(
            "() => document.querySelector('.rl-calc-lifting .rl-field-strength input')"
            ".value === '4'"
        )
        assert field_box(page, "lifting", "might").input_value() == "1"
        bar.get_by_text("The lifter: Kim's values, Strength included.").wait_for()
        assert watch.errors == []
    finally:
        context.close()


def _looked_at(page: Any, path: Any) -> None:
    """Every tap target of the sheet at least 44 px high, axe clean, the page shot."""
    small = page.evaluate(
        """() => [...document.querySelectorAll(
          '.rl-sheet button, .rl-sheet select, .rl-sheet input, .rl-sheet a')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.textContent || e.getAttribute('aria-label') || e.id,
                       e.getBoundingClientRect().height])
          .filter(([, h]) => h < 44)"""
    )
    assert small == []
    assert axe_violations(page) == []
    page.screenshot(path=str(path), full_page=True)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_sheet_is_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str
) -> None:
    party = Party().add("Kim", Character(strength=4, firearms=3), entered={"stamina"})
    party = party.add("Rex", __import__("ruleslab").chimera.fighter.Fighter("Rex", mr=12))
    kim, rex = party.entries
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(f"{base_url}{SHEET}&theme={theme}")
            page.evaluate(CLEAR_JS)
            page.wait_for_selector(".rl-sheet", timeout=KERNEL_TIMEOUT)
            _put(page, kim, rex)
            page.goto(f"{base_url}{SHEET}&id={kim.id}&theme={theme}")
            _sheet_drawn(page, "Kim")
            page.locator("#rl-sh-stamina").fill("0")
            page.locator("#rl-sh-stamina").press("Tab")
            page.wait_for_selector("#rl-sh-stamina-error")
            _looked_at(page, artifacts / f"sheet-{theme}-{width}.png")
            page.goto(f"{base_url}{SHEET}&id={rex.id}&theme={theme}")
            _sheet_drawn(page, "Rex")
            _looked_at(page, artifacts / f"sheet-fighter-{theme}-{width}.png")
            page.goto(f"{base_url}{SHEET}&theme={theme}")
            page.get_by_role("link", name="Kim").wait_for(timeout=KERNEL_TIMEOUT)
            _looked_at(page, artifacts / f"sheet-list-{theme}-{width}.png")
        finally:
            context.close()


def test_a_save_is_undone_after_a_reload_and_the_party_bar_sees_it(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    """Kim (Strength 4 entered) saved with Strength 6 on his sheet; the page reloaded, its
    Undo writes him back with 4, which a calculator's party bar then fills."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        watch = PageWatch(page, base_url)
        page.goto(base_url + SHEET)
        page.evaluate(CLEAR_JS)
        page.wait_for_selector(".rl-sheet", timeout=KERNEL_TIMEOUT)
        kim = Party().add("Kim", Character(strength=4)).entries[0]
        _put(page, kim)
        page.goto(f"{base_url}{SHEET}&id={kim.id}")
        _sheet_drawn(page, "Kim")
        page.locator("#rl-sh-strength").fill("6")
        page.get_by_role("button", name="Save 1 change").click()
        _status(page, "Saved Strength of Kim.")
        assert _wait_stored(page, "Kim", lambda e: e.record.strength == 6).record == (
            Character(strength=6)
        )
        page.reload()
        _sheet_drawn(page, "Kim")
        undo = page.get_by_role("button", name="Undo: change Strength of Kim")
        undo.wait_for(timeout=20_000)
        assert undo.is_enabled()
        assert page.evaluate(FIELDS_JS)["strength"]["value"] == "6"
        _looked_at(page, artifacts / "sheet-undo-after-reload-1280.png")
        page.set_viewport_size({"width": 390, "height": 844})
        _looked_at(page, artifacts / "sheet-undo-after-reload-390.png")
        undo.click()
        _status(page, "Undone: change Strength of Kim.")
        back = _wait_stored(page, "Kim", lambda e: e.record.strength == 4)
        assert (back.record, back.entered) == (Character(strength=4), {"strength"})
        page.wait_for_function(
            "() => document.querySelector('#rl-sh-strength').value === '4'", timeout=20_000
        )
        # reloaded again: nothing left to undo
        page.reload()
        _sheet_drawn(page, "Kim")
        page.wait_for_function(
            "() => { const b = document.querySelector('.rl-sh-undo');"
            " return b && b.disabled && b.textContent === 'Undo'; }",
            timeout=20_000,
        )
        # the party bar of a calculator fills the lifter with the Strength undone to
        bar = _open(page, base_url, "lifting")
        _fill(bar, "the lifter", "Kim")
        page.wait_for_function(
            "() => document.querySelector('.rl-calc-lifting .rl-field-strength input')"
            ".value === '4'",
            timeout=20_000,
        )
        assert watch.errors == []
    finally:
        context.close()
