"""The encounter tracker page in Chromium (``app.html?calculator=tracker``,
:mod:`ruleslab_widgets.tracker_page`): a short 2.1 fight played by taps, kept over a
reload, axe clean, and looked at in both themes at a desk's and a phone's width.

Expectations worked by hand from the texts (Quick reference › 2.0 Rules › Combat ›
Dazing/Stunning: "Dazed if he takes (2 * Stamina) HLs of damage in a single turn"):
a Stamina 2 foe hit for 4 lethal levels is Dazed; the 2.1 Defense ("lower of Dexterity
or Wits, divided by 2") is "reduced by 1 for every successful or unsuccessful attack made
against them".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT, PageWatch

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.character import Character  # noqa: E402
from ruleslab.party import Party, entry_json  # noqa: E402

TRACKER = "app.html?calculator=tracker"

ROWS_JS = """() => [...document.querySelectorAll('.rl-tr-row')].map((r) => ({
  name: r.querySelector('.rl-tr-name').textContent,
  init: r.querySelector('.rl-tr-init').textContent,
  acting: r.classList.contains('rl-tr-acting'),
  health: r.querySelector('.rl-tr-health-text').textContent,
  boxes: [...r.querySelectorAll('.rl-tr-box')].map((b) => b.dataset.filled),
  chips: [...r.querySelectorAll('.rl-chip')].map((c) => c.textContent),
}))"""

STORED_JS = """() => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab");
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains("records")) { db.close(); resolve([]); return; }
    const tx = db.transaction("records", "readonly");
    const all = tx.objectStore("records").getAll(IDBKeyRange.bound(["encounters"],
                                                                   ["encounters", []]));
    tx.oncomplete = () => { db.close(); resolve(all.result); };
  };
})"""


PUT_PARTY_JS = """([id, text]) => new Promise((resolve, reject) => {
  const req = indexedDB.open("ruleslab");
  req.onsuccess = () => {
    const db = req.result;
    const tx = db.transaction("records", "readwrite");
    tx.objectStore("records").put({format: 1, rev: 1, created: 1, deleted: false, text},
                                  ["party", id]);
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})"""


def _open(context: Any, base_url: str, query: str = "") -> tuple[Any, PageWatch]:
    page = context.new_page()
    watch = PageWatch(page, base_url)
    page.goto(base_url + TRACKER + query)
    page.wait_for_selector(".rl-tracker .rl-tr-when", timeout=KERNEL_TIMEOUT)
    # the store read: the encounter picker holds one
    page.wait_for_function(
        "() => document.querySelectorAll('.rl-tracker select[aria-label=Encounter] option')"
        ".length > 0",
        timeout=KERNEL_TIMEOUT,
    )
    return page, watch


def _tap(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def _when(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('.rl-tr-when').textContent.includes(t)",
        arg=text,
        timeout=20_000,
    )


def _add_foe(page: Any, name: str, dex: str, wits: str, sta: str) -> None:
    before = page.locator(".rl-tr-row").count()
    page.get_by_label("Foe's name").fill(name)
    page.get_by_label("Dex", exact=True).fill(dex)
    page.get_by_label("Wits", exact=True).fill(wits)
    page.get_by_label("Sta", exact=True).fill(sta)
    _tap(page, "Add foe")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.rl-tr-row').length === n", arg=before + 1
    )


def test_a_short_21_fight_played_by_taps_and_kept_over_a_reload(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page, watch = _open(context, base_url)
        # a bad field: its message, nothing added
        page.get_by_label("Foe's name").fill("Ghost")
        page.get_by_label("Dex", exact=True).fill("12")
        _tap(page, "Add foe")
        page.wait_for_selector("text=Dex: a whole number from 1 to 10.")
        assert page.locator(".rl-tr-row").count() == 0
        # a saved party character (the party's record, as the party bar stores it)
        entry = Party().add("Ana <b>x</b>", Character(dexterity=5, wits=4, stamina=3)).entries[0]
        page.evaluate(PUT_PARTY_JS, [entry.id, entry_json(entry)])
        page.close()
        page, watch = _open(context, base_url)
        page.get_by_role("button", name="Add from the party").click()
        page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 1")
        # and a quick foe; markup in a name stays text
        _add_foe(page, "Thug", "3", "3", "2")
        assert page.locator(".rl-tr-name b").count() == 0
        _tap(page, "Roll initiative")
        _when(page, "Turn 1:")
        rows = page.evaluate(ROWS_JS)
        assert {r["name"] for r in rows} == {"Ana <b>x</b>", "Thug"}
        inits = [int(r["init"]) for r in rows]
        assert inits == sorted(inits, reverse=True)  # highest first
        first = rows[0]["name"]
        other = rows[1]["name"]
        assert rows[0]["acting"]
        assert not rows[1]["acting"]
        # the 2.1 Defense before any attack: "a Defense score of (lower of Dexterity or
        # Wits, divided by 2). Round defenses down." Ana: min(5, 4) // 2; Thug: min(3, 3) // 2
        defense = {"Ana <b>x</b>": 2, "Thug": 1}
        assert f"Defense +{defense[other]} (back at the turn's end)" in rows[1]["chips"]
        before = page.evaluate(ROWS_JS)
        # an attack: 2 × Stamina lethal levels on the other one (Thug's Stamina 2, Ana's 3)
        levels = {"Ana <b>x</b>": 6, "Thug": 4}[other]
        page.get_by_label("Lethal levels").fill(str(levels))
        _tap(page, "Hit")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.rl-chip')].some((c) =>"
            " c.textContent.startsWith('Dazed'))"
        )
        rows = page.evaluate(ROWS_JS)
        hurt = next(r for r in rows if r["name"] == other)
        assert "Dazed: +1 (ends with turn 2)" in hurt["chips"]
        assert f"Defense +{defense[other] - 1} (back at the turn's end)" in hurt["chips"]
        assert hurt["health"] != "Unhurt"
        # the track: the levels taken, worst first, as boxes filled
        assert hurt["boxes"][:levels] == ["lethal"] * levels
        assert set(hurt["boxes"][levels:]) == {""}
        # next turn: one tap, the other acts
        _tap(page, "Next turn ▶")
        _when(page, f"Turn 1: {other}'s action")
        # undo twice: back to before the attack, exactly as shown then
        _tap(page, "↶ Undo")
        _when(page, f"Turn 1: {first}'s action")
        _tap(page, "↶ Undo")
        page.wait_for_function(
            "() => ![...document.querySelectorAll('.rl-chip')].some((c) =>"
            " c.textContent.startsWith('Dazed'))"
        )
        assert page.evaluate(ROWS_JS) == before
        _tap(page, "↷ Redo")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.rl-chip')].some((c) =>"
            " c.textContent.startsWith('Dazed'))"
        )
        shown = page.evaluate(ROWS_JS)
        # saved: the record store holds it once written
        page.wait_for_function(
            "async (js) => { const all = await (eval(js))();"
            ' return all.some((r) => r.text && r.text.includes(\'"daze":"dazed"\')); }',
            arg=STORED_JS,
        )
        stored = page.evaluate(STORED_JS)
        assert len(stored) == 1
        assert json.loads(stored[0]["text"])["ruleset"] == "2.1"
        page.close()
        # reload (a new page of the same browser): the encounter is there as it was
        page, watch2 = _open(context, base_url)
        page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 2")
        assert page.evaluate(ROWS_JS) == shown
        assert watch.errors == []
        assert watch2.errors == []
        assert watch.offsite == []
        assert watch2.offsite == []
    finally:
        context.close()


def test_a_corrupt_stored_encounter_is_set_aside_with_a_message(
    browser: Any, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page, _ = _open(context, base_url)
        page.evaluate(
            """() => new Promise((resolve, reject) => {
              const req = indexedDB.open("ruleslab");
              req.onsuccess = () => {
                const db = req.result;
                const tx = db.transaction("records", "readwrite");
                tx.objectStore("records").put({format: 1, rev: 1, created: 1, deleted: false,
                  text: '{"format": 1, "name": "Broken", "ruleset": "2.1", "encounter": 7}'},
                  ["encounters", "ebroken"]);
                tx.oncomplete = () => { db.close(); resolve(true); };
                tx.onerror = () => reject(tx.error);
              };
            })"""
        )
        page.close()
        page, watch = _open(context, base_url)
        page.wait_for_selector("text=could not be read and were set aside, not deleted")
        aside = page.evaluate(
            """() => new Promise((resolve) => {
              const req = indexedDB.open("ruleslab");
              req.onsuccess = () => {
                const tx = req.result.transaction("set-aside", "readonly");
                const all = tx.objectStore("set-aside").getAll();
                tx.oncomplete = () => resolve(all.result.map((v) => v.text || ""));
              };
            })"""
        )
        assert any('"name": "Broken"' in text for text in aside)
        assert watch.errors == []
    finally:
        context.close()


SIZES = pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desk"])
"""A test run at a phone's and a desk's size."""
THEMES = pytest.mark.parametrize("theme", ["light", "dark"])
"""A test run in both themes."""


@contextmanager
def sized(browser: Any, size: tuple[int, int] = (390, 844)) -> Iterator[Any]:
    """A browser context of viewport ``size``, closed after."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        yield context
    finally:
        context.close()


def looked_at_width(page: Any, watch: PageWatch, path: Any, width: int) -> None:
    """Nothing wider than ``width`` (no sideways scrolling), :func:`looked_at`, and no
    error on the page."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    looked_at(page, path)
    assert watch.errors == []


def looked_at(page: Any, path: Any) -> None:
    """Every tap target of the tracker at least 44 px high, axe clean, and a screenshot
    of the whole page at ``path`` (to be looked at)."""
    small = page.evaluate(
        """() => [...document.querySelectorAll(
          '.rl-tracker button, .rl-tracker select, .rl-tracker input:not([type=file]),'
          + ' .rl-tracker summary')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.textContent || e.getAttribute('aria-label'),
                       e.getBoundingClientRect().height])
          .filter(([, h]) => h < 44)"""
    )
    assert small == []
    assert axe_violations(page) == []
    page.screenshot(path=str(path), full_page=True)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_tracker_is_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str
) -> None:
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page, _ = _open(context, base_url, f"&theme={theme}")
            _add_foe(page, "Aiko", "4", "3", "3")
            _add_foe(page, "Razor gang", "2", "2", "3")  # both Stamina 3: 6 levels Daze
            _tap(page, "Roll initiative")
            _when(page, "Turn 1:")
            page.get_by_label("Lethal levels").fill("6")
            _tap(page, "Hit")
            page.wait_for_function(
                "() => [...document.querySelectorAll('.rl-chip')].some((c) =>"
                " c.textContent.startsWith('Dazed'))"
            )
            looked_at(page, artifacts / f"tracker-{theme}-{width}.png")
        finally:
            context.close()


def test_the_players_view_follows_the_gm_and_hides_what_he_hid(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        gm, watch = _open(context, base_url)
        _add_foe(gm, "Aiko", "4", "3", "3")
        _add_foe(gm, "Masked man", "2", "2", "3")
        gm.get_by_role("button", name="Hide: Masked man in the players' view").click()
        gm.wait_for_selector("[aria-pressed=true].rl-tr-hide")
        players = context.new_page()
        players.goto(base_url + TRACKER + "&view=players")
        players.wait_for_selector(".rl-tr-players .rl-tr-row", timeout=KERNEL_TIMEOUT)
        names = players.locator(".rl-tr-name").all_text_contents()
        assert sorted(names) == ["Aiko", "Unknown foe"]
        # the GM's next step reaches the players' screen
        _tap(gm, "Roll initiative")
        players.wait_for_function(
            "() => document.querySelector('.rl-tr-when').textContent.startsWith('Turn 1')"
        )
        # (the heading too: "Turn 1: Unknown foe's action" when it is his)
        assert "Masked man" not in players.locator(".rl-tracker").inner_text()
        assert players.locator(".rl-tr-players button").count() == 0
        assert axe_violations(players) == []
        players.screenshot(path=str(artifacts / "tracker-players-1280.png"), full_page=True)
        assert watch.errors == []
    finally:
        context.close()


def test_a_squad_typed_initiative_and_declared_actions_on_a_phone(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page, watch = _open(context, base_url)
        _add_foe(page, "Ana", "4", "3", "3")
        page.get_by_label("Squad's name").fill("Guards")
        page.get_by_label("Henchmen", exact=True).fill("5")
        page.get_by_label("Leader's Dex").fill("3")
        _tap(page, "Add squad")
        page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 2")
        page.get_by_label("Initiative: Ana").fill("12")
        page.get_by_label("Initiative: Guards").fill("x")
        _tap(page, "Enter initiative")
        page.wait_for_function(
            "() => document.querySelector('.rl-tr-message').textContent"
            " === 'Initiative: Guards: a whole number from 0 to 200.'"
        )
        page.get_by_label("Initiative: Guards").fill("4")
        _tap(page, "Enter initiative")
        _when(page, "Turn 1: Ana's action")
        page.get_by_label("Actions", exact=True).fill("2")
        _tap(page, "Declare")
        # 2.1: the 2nd action +1 difficulty; the squad's leader's Defense: min(3, 2) / 2 = 1
        setup = "This attack: action {} of 2, +{} difficulty, Guards's Defense +{}"
        page.wait_for_function(
            "(t) => document.querySelector('.rl-tr-setup').textContent === t",
            arg=setup.format(1, 0, 1),
        )
        _tap(page, "Miss")
        page.wait_for_function(
            "(t) => document.querySelector('.rl-tr-setup').textContent === t",
            arg=setup.format(2, 1, 0),
        )
        assert page.locator(".rl-chip", has_text="5 henchmen screening him").count() == 1
        page.screenshot(path=str(artifacts / "tracker-declare-390.png"), full_page=True)
        assert watch.errors == []
    finally:
        context.close()
