"""The tracker's stored encounter in Chromium: two tabs on one encounter, offline, and
after a redeploy (issue 34, "reload, offline and a redeploy keep the encounter"; item 5,
"two tabs editing one encounter never lose a step").

* Two pages of one browser on one 2.1 encounter take steps in turn (each board
  follows the other's) and at once (both steps kept, one after the other); undo in
  either walks back through both.
* Offline (the context offline and the server stopped) after one visit: the tracker
  reloads with its stored encounter, a step is taken and saved, and is there on the
  next reload.
* A redeploy (another build at the same address, as ``test_offline.py`` makes it): once
  the new version has taken over, the stored encounter is there, its undo steps too,
  and a step is saved.

Each fight: Ana (Dex 4, Wits 3, Sta 3) at initiative 12 and Bo (Dex 4, Wits 5, Sta 2)
at 5, typed; "Next turn" from the last in the order ends the turn and the next one
starts with the first ("Turn 2: Ana's action").
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.test_offline import STATE_JS, _second_deployment, _wait_for, use_it_now
from tests.browser.test_tracker import (
    ROWS_JS,
    STORED_JS,
    _add_foe,
    _open,
    _tap,
    _when,
    looked_at,
)
from tests.engine.encounter_fights import stored_lines

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")


def _fight(page: Any) -> None:
    """Ana at 12 and Bo at 5: "Turn 1: Ana's action"."""
    _add_foe(page, "Ana", "4", "3", "3")
    _add_foe(page, "Bo", "4", "5", "2")
    page.get_by_label("Initiative: Ana").fill("12")
    page.get_by_label("Initiative: Bo").fill("5")
    _tap(page, "Enter initiative")
    _when(page, "Turn 1: Ana's action")


def _stored(page: Any) -> list[dict[str, Any]]:
    """The live stored encounters' records, as read from IndexedDB."""
    return [json.loads(r["text"]) for r in page.evaluate(STORED_JS) if not r["deleted"]]


def _stored_when(
    page: Any, test: Callable[[dict[str, Any]], bool], timeout_s: float = 30
) -> dict[str, Any]:
    """The one stored encounter's record once ``test`` holds of it."""
    deadline = time.monotonic() + timeout_s
    while True:
        records = _stored(page)
        if len(records) == 1 and test(records[0]):
            return records[0]
        if time.monotonic() > deadline:
            pytest.fail(f"the stored encounter never passed the test: {records}")
        page.wait_for_timeout(200)


CLICK_JS = """([name, at]) => setTimeout(() =>
  [...document.querySelectorAll('.rl-tracker button')].find((b) => b.textContent === name)
    .click(), at - Date.now())"""


def _at_once(*taps: tuple[Any, str], apart_ms: int = 0) -> None:
    """Each ``(page, button)`` tapped at the same moment (each page's clock half a
    second from now; or ``apart_ms`` after the one before, in order): before any page
    has heard of another's step."""
    at = taps[0][0].evaluate("() => Date.now()") + 500
    for i, (page, name) in enumerate(taps):
        page.evaluate(CLICK_JS, [name, at + i * apart_ms])


#: A page that hears of no other tab's write (the record store's BroadcastChannel
#: ignores its listener), as a tab asleep in the background: it learns of another
#: tab's step only when its own write is refused as stale.
ASLEEP_JS = """(() => {
  const Real = window.BroadcastChannel;
  window.BroadcastChannel = class extends Real {
    constructor(name) {
      super(name);
      if (name === "ruleslab-records") {
        Object.defineProperty(this, "onmessage", { set() {}, get() { return null; } });
      }
    }
  };
})();"""


class _Asleep:
    """A browser context whose new page is asleep (:data:`ASLEEP_JS`)."""

    def __init__(self, context: Any) -> None:
        self.context = context

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.add_init_script(ASLEEP_JS)
        return page


def _lines(record: dict[str, Any]) -> list[str]:
    """The stored log's lines (format 2: each by its place in the record's table)."""
    return [text for text, _rule in stored_lines(record)]


def test_two_tabs_on_one_encounter_keep_every_step_in_turn_and_at_once(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        a, watch_a = _open(context, base_url)
        _fight(a)
        b, watch_b = _open(context, base_url)  # (opens the encounter open last here)
        _when(b, "Turn 1: Ana's action")
        assert b.evaluate(ROWS_JS) == a.evaluate(ROWS_JS)
        # in turn: each board follows the other's step
        _tap(a, "Next turn ▶")
        _when(b, "Turn 1: Bo's action")
        _tap(b, "Next turn ▶")
        _when(a, "Turn 2: Ana's action")
        # at once: both tap before either has heard of the other's
        a.get_by_label("Actions", exact=True).fill("2")
        b.get_by_label("Actions", exact=True).fill("3")
        _at_once((a, "Declare"), (b, "Declare"))
        record = _stored_when(
            a, lambda r: sum(1 for t in _lines(r) if t.startswith("Ana declares")) == 2
        )
        declared = [t for t in _lines(record) if t.startswith("Ana declares")]
        assert sorted(t.split(" (")[0].split(":")[0] for t in declared) == [
            "Ana declares 2 actions",
            "Ana declares 3 actions",
        ]
        last = declared[-1].split(" (")[0].split(":")[0]
        acts = last.split()[2]
        for page in (a, b):  # both boards show the stored encounter: the later declaration
            page.wait_for_function(
                "(n) => document.querySelector('.rl-tr-setup').textContent"
                ".startsWith('This attack: action 1 of ' + n + ',')",
                arg=acts,
                timeout=20_000,
            )
        # (one of them was refused as stale, applied its step again, and said so)
        said = [p.locator(".rl-tr-message").text_content() or "" for p in (a, b)]
        assert any("was changed in another tab too" in t for t in said), said
        for p, name in ((a, "a"), (b, "b")):
            p.screenshot(path=str(artifacts / f"tracker-two-tabs-{name}.png"), full_page=True)
        # and again: Next turn in both at once: two steps, turn 2 → Bo → turn 3
        _at_once((a, "Next turn ▶"), (b, "Next turn ▶"))
        record = _stored_when(
            a, lambda r: r["encounter"]["turn"] == 3 and r["encounter"]["place"] == 0
        )
        ends = [t for t in _lines(record) if t.endswith(" ends")]
        assert ends == ["Turn 1 ends", "Turn 2 ends"]
        _when(a, "Turn 3: Ana's action")
        _when(b, "Turn 3: Ana's action")
        # every step of both tabs, in the stored log, in the order they were stored
        steps = [
            t.split(":")[0]
            for t in _lines(record)
            if t.startswith(("Bo's action", "Ana declares")) or t.endswith(" ends")
        ]
        assert steps == [
            "Bo's action (initiative 5)",
            "Turn 1 ends",
            declared[0].split(":")[0],
            declared[1].split(":")[0],
            "Bo's action (initiative 5)",
            "Turn 2 ends",
        ]
        # undo in b: back through the last step, whichever tab took it; a follows
        _tap(b, "↶ Undo")
        _when(b, "Turn 2: Bo's action")
        _when(a, "Turn 2: Bo's action")
        _stored_when(a, lambda r: r["encounter"]["turn"] == 2 and r["encounter"]["place"] == 1)
        _tap(a, "↶ Undo")
        _when(b, "Turn 2: Ana's action")
        assert watch_a.errors == []
        assert watch_b.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_step_the_other_tab_made_impossible_is_kept_as_a_copy_on_a_phone(
    browser: Any, base_url: str, artifacts: Any, theme: str
) -> None:
    """One tab ends the scene while the other (asleep in the background: it hears of no
    other tab's write) declares Ana's actions: the declaration no longer applies to what
    is stored ("The scene is over"), so that tab's version is saved beside it as "…
    (from another tab)", and the page says so."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        a, watch_a = _open(context, base_url, f"&theme={theme}")
        _fight(a)
        b, watch_b = _open(_Asleep(context), base_url, f"&theme={theme}")
        _when(b, "Turn 1: Ana's action")
        _tap(a, "End the scene")
        _when(a, "The scene is over")
        b.get_by_label("Actions", exact=True).fill("2")
        _tap(b, "Declare")  # (from the encounter as b read it: refused as stale)
        names = ["Encounter 1 (Aberrant 2.1)", "Encounter 1 (Aberrant 2.1) (from another tab)"]
        deadline = time.monotonic() + 30
        while sorted(r["name"] for r in _stored(a)) != names:
            assert time.monotonic() < deadline, _stored(a)
            a.wait_for_timeout(200)
        stored = {r["name"]: r for r in _stored(a)}
        assert stored[names[0]]["encounter"]["scene_over"] is True
        assert _lines(stored[names[1]])[-1].startswith("Ana declares 2 actions")
        message = b.locator(".rl-tr-message")
        assert "your change no longer applies to it (The scene is over" in (
            message.text_content() or ""
        )
        assert f"yours as “{names[1]}”" in (message.text_content() or "")
        options = b.locator(".rl-tracker select[aria-label=Encounter] option")
        assert sorted(options.all_text_contents()) == names
        looked_at(b, artifacts / f"tracker-two-tabs-copy-{theme}-390.png")
        assert watch_a.errors == []
        assert watch_b.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_an_undo_while_the_other_tab_stepped_on_another_combatant_keeps_both_on_a_phone(
    browser: Any, base_url: str, artifacts: Any, theme: str
) -> None:
    """Tab b (asleep: it hears of no other tab's write) has Ana hit Bo for 1 lethal;
    tab a, having read it, hides Cy from the players' view; then b takes back its hit.
    b's write is refused as stale: its undo touched Ana and Bo, a's step Cy only, so
    the one stored encounter keeps both (Bo unhurt, Cy hidden), no copy, and b says so;
    a's board follows."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        a, watch_a = _open(context, base_url, f"&theme={theme}")
        _add_foe(a, "Ana", "4", "3", "3")
        _add_foe(a, "Bo", "4", "5", "2")
        _add_foe(a, "Cy", "4", "2", "3")
        for name, total in (("Ana", "12"), ("Bo", "5"), ("Cy", "8")):
            a.get_by_label(f"Initiative: {name}").fill(total)
        _tap(a, "Enter initiative")
        _when(a, "Turn 1: Ana's action")
        b, watch_b = _open(_Asleep(context), base_url, f"&theme={theme}")
        _when(b, "Turn 1: Ana's action")
        b.get_by_label("Target").select_option(label="Bo")
        b.get_by_label("Lethal levels").fill("1")
        _tap(b, "Hit")

        def person(record: dict[str, Any], name: str) -> dict[str, Any]:
            return next(c for c in record["encounter"]["combatants"] if c["name"] == name)

        _stored_when(a, lambda r: person(r, "Bo")["damage"]["lethal"] == 1)
        a.wait_for_function(  # (a heard b's write and read it)
            "() => [...document.querySelectorAll('.rl-tr-row')].some((r) =>"
            " r.querySelector('.rl-tr-name').textContent === 'Bo' &&"
            " r.querySelector('.rl-tr-health-text').textContent !== 'Unhurt')"
        )
        a.get_by_role("button", name="Hide: Cy in the players' view").click()
        _stored_when(a, lambda r: person(r, "Cy")["hidden"] is True)
        _tap(b, "↶ Undo")  # (from the encounter as b read it: refused as stale, then joined)
        record = _stored_when(
            a,
            lambda r: person(r, "Bo")["damage"]["lethal"] == 0 and person(r, "Cy")["hidden"],
        )
        assert [r["name"] for r in _stored(a)] == ["Encounter 1 (Aberrant 2.1)"]
        # (stored in the record store's layout 2, which an earlier build keeps unread)
        assert {r["format"] for r in a.evaluate(STORED_JS)} == {2}
        assert not any(t.startswith("Bo takes") for t in _lines(record))
        message = b.locator(".rl-tr-message")
        message.wait_for()
        assert "your undo and that tab's changes touched different combatants" in (
            message.text_content() or ""
        )
        for page in (a, b):
            page.wait_for_selector("[aria-pressed=true].rl-tr-hide")
            bo = next(r for r in page.evaluate(ROWS_JS) if r["name"] == "Bo")
            assert bo["health"] == "Unhurt"
        looked_at(b, artifacts / f"tracker-two-tabs-undo-joined-{theme}-390.png")
        b.set_viewport_size({"width": 1280, "height": 900})
        looked_at(b, artifacts / f"tracker-two-tabs-undo-joined-{theme}-1280.png")
        assert watch_a.errors == []
        assert watch_b.errors == []
    finally:
        context.close()


def test_the_tracker_offline_reloads_its_encounter_and_saves_a_step(
    browser: Any, deploy_server: Any, artifacts: Any
) -> None:
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(base)  # (the landing page has the worker keep the calculators' part)
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
        page.close()
        page, watch = _open(context, base)
        _fight(page)
        _tap(page, "Next turn ▶")
        _when(page, "Turn 1: Bo's action")
        _stored_when(page, lambda r: r["encounter"]["place"] == 1)
        shown = page.evaluate(ROWS_JS)
        page.close()

        context.set_offline(True)
        deploy_server.stop()
        page, watch2 = _open(context, base)
        _when(page, "Turn 1: Bo's action")
        assert page.evaluate(ROWS_JS) == shown
        _tap(page, "Next turn ▶")  # (Bo was last: turn 1 ends)
        _when(page, "Turn 2: Ana's action")
        record = _stored_when(page, lambda r: r["encounter"]["turn"] == 2)
        assert "Turn 1 ends" in _lines(record)
        page.screenshot(path=str(artifacts / "tracker-offline-390.png"), full_page=True)
        page.close()
        page, watch3 = _open(context, base)  # offline again: the step is there, undo too
        _when(page, "Turn 2: Ana's action")
        _tap(page, "↶ Undo")
        _when(page, "Turn 1: Bo's action")
        assert page.evaluate(ROWS_JS) == shown
        for w in (watch, watch2, watch3):
            assert w.errors == []
            assert w.offsite == []
    finally:
        context.close()


def test_after_a_redeploy_the_stored_encounter_is_there_with_its_undo(
    browser: Any, site_dir: Any, deploy_server: Any, tmp_path: Any, artifacts: Any
) -> None:
    base = deploy_server.base
    site_b = _second_deployment(site_dir, tmp_path / "site-b")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        first = context.new_page()
        first.goto(base)
        assert first.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
        first.close()
        page, watch = _open(context, base)
        _fight(page)
        before = page.evaluate(ROWS_JS)
        _tap(page, "Next turn ▶")
        _when(page, "Turn 1: Bo's action")
        _stored_when(page, lambda r: r["encounter"]["place"] == 1)
        shown = page.evaluate(ROWS_JS)
        assert page.evaluate(STATE_JS)["html"] == "A"

        # the redeploy: the same address serves build B; it takes over once this is the
        # only page of the site ("Use it now")
        deploy_server.site = site_b
        landing = context.new_page()
        landing.goto(base)
        _wait_for(
            landing, "async () => !!(await navigator.serviceWorker.getRegistration()).waiting"
        )
        page.close()
        use_it_now(landing, 60)
        landing.close()

        page, watch2 = _open(context, base)
        assert page.evaluate(STATE_JS)["html"] == "B"
        assert page.evaluate(STATE_JS)["appjs"] == "B"
        _when(page, "Turn 1: Bo's action")
        assert page.evaluate(ROWS_JS) == shown
        _tap(page, "↶ Undo")  # (the undo steps stored under A, read under B)
        _when(page, "Turn 1: Ana's action")
        assert page.evaluate(ROWS_JS) == before
        _tap(page, "↷ Redo")
        _when(page, "Turn 1: Bo's action")
        _tap(page, "Next turn ▶")
        _when(page, "Turn 2: Ana's action")
        _stored_when(page, lambda r: r["encounter"]["turn"] == 2)
        page.screenshot(path=str(artifacts / "tracker-redeploy-1280.png"), full_page=True)
        for w in (watch, watch2):
            assert w.errors == []
            assert w.offsite == []
    finally:
        context.close()
