"""A Chimera fight in the tracker page (``app.html?calculator=tracker``,
:mod:`ruleslab_widgets.tracker_chimera`), played in Chromium by taps for two rounds, kept
over a reload, axe clean, and looked at in both themes at a desk's and a phone's width.

Expectations worked by hand from the Chimera combat text (/work/shared/rules/):

- "rolls 1d12 for Initiative (adjust the roll by the chosen action's Initiative Modifier
  (IM)). The highest result goes first"; "each wound suffered imposes a cumulative Wound
  Penalty (WP) of –1 to all rolls": round 1, Ana 9 + 0 = 9, the Chief 5 + 1 = 6, the
  Bandit 7 + 0 = 7; round 2 (Ana and the Bandit wounded once) Ana 6 − 1 = 5, the Chief
  4, the Bandit 8 − 1 = 7.
- "The base Target Number to hit a defender is his adjusted Movement Rate": Ana (Shoot
  +3) at the Bandit (MR 8) needs a d20 of 5 or more: 16 in 20, 80 %.
- "a wound of severity equal to the damage roll minus his Defence": 3 − 1 = 2 on the
  Bandit (WL 2: not exceeded), 5 − 2 = 3 on Ana (WL 3: not exceeded), 8 − 1 = 7 on the
  Chief (over WL 2: vanquished, "the attacker chooses his fate").
- morale "When a combatant's Wound Penalty is half his WL, his leader falls, or his allies
  suffer more than 50% casualties": the Bandit's WP 1 is half his WL 2 (d20 12 − 1 = 11
  vs TN 10: he stays); his leader the Chief falls, his one ally down (d20 5 − 1 = 4: he
  surrenders). "Player characters do not need to check morale": Ana, never.
- "Failure to spend this cool-down period mandates an immediate Resistance Roll against
  Fatigue. Anyone who engaged in ranged combat must also make an Ammo Check".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT
from tests.browser.test_tracker import ROWS_JS, STORED_JS, _open, _tap, _when, looked_at

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")

ANA = {"Fighter's name": "Ana", "Side": "party", "MR": "10", "Defence": "2",
       "Wound Limit": "3", "Attack bonus": "3", "Weapon damage": "d8", "Attack": "shoot",
       "Morale TN": "10", "Resistance bonus": "0", "Character": "pc"}  # fmt: skip
CHIEF = {**ANA, "Fighter's name": "Chief", "Side": "foes", "MR": "8", "Defence": "1",
         "Wound Limit": "2", "Attack bonus": "2", "Weapon damage": "d6", "Attack": "fight",
         "Character": "npc"}  # fmt: skip
BANDIT = {**CHIEF, "Fighter's name": "Bandit"}
SELECTS = ("Side", "Attack", "Character")


def _rows(page: Any) -> list[tuple[str, str]]:
    return [(r["name"], r["init"]) for r in page.evaluate(ROWS_JS)]


def _row(page: Any, name: str) -> dict[str, Any]:
    return next(r for r in page.evaluate(ROWS_JS) if r["name"] == name)


def _wait_text(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('.rl-tracker').innerText.includes(t)",
        arg=text,
        timeout=20_000,
    )


def _new_chimera(page: Any) -> None:
    page.get_by_label("Rules for a new encounter").select_option("chimera")
    page.get_by_role("button", name="New encounter").click()
    _wait_text(page, "A new Chimera encounter: add its combatants.")


def _fill(page: Any, fighter: dict[str, str]) -> None:
    for label, value in fighter.items():
        box = page.get_by_label(label, exact=True)
        if label in SELECTS:
            box.select_option(value)
        else:
            box.fill(value)


def _add(page: Any, fighter: dict[str, str], *, leader: bool = False) -> None:
    before = page.locator(".rl-tr-row").count()
    _fill(page, fighter)
    page.get_by_label("Leads his side").set_checked(leader)
    _tap(page, "Add fighter")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.rl-tr-row').length === n", arg=before + 1
    )


def _round(page: Any, each: dict[str, tuple[str, str]]) -> None:
    for name, (im, d12) in each.items():
        page.get_by_label(f"IM: {name}", exact=True).fill(im)
        page.get_by_label(f"d12: {name}", exact=True).fill(d12)
    _tap(page, "Start the round with these d12s")


def _attack(page: Any, target: str, result: str, damage: str = "") -> None:
    page.get_by_label("Target", exact=True).select_option(label=target)
    if damage:
        page.get_by_label(re.compile(r"^Damage roll")).fill(damage)
    _tap(page, result)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A browser context at a phone's size (390 × 844), closed after the test."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context
    context.close()


def test_a_chimera_fight_two_rounds_by_taps_undone_and_kept_over_a_reload(
    phone: Any, base_url: str, artifacts: Any
) -> None:
    context = phone
    page, watch = _open(context, base_url)
    _new_chimera(page)
    # a bad field: its message naming it and its values, no one added
    _fill(page, {**ANA, "MR": "99"})
    _tap(page, "Add fighter")
    _wait_text(page, "MR: a whole number from 1 to 40.")
    assert page.locator(".rl-tr-row").count() == 0
    _add(page, ANA)
    _add(page, CHIEF, leader=True)
    _add(page, BANDIT)
    assert "Leads his side" in _row(page, "Chief")["chips"]
    # round 1, the table's d12s typed: Ana 9, Bandit 7, Chief 5 + 1 = 6
    _round(page, {"Ana": ("0", "9"), "Chief": ("+1", "5"), "Bandit": ("0", "7")})
    _when(page, "Round 1: Ana's turn")
    assert _rows(page) == [("Ana", "9"), ("Bandit", "7"), ("Chief", "6")]
    # the odds before the roll: TN 8 (his MR), +3, 80 %
    page.get_by_label("Target", exact=True).select_option(label="Bandit")
    setup = page.locator(".rl-tr-setup").first.text_content()
    assert setup.startswith("Before the roll: TN 8, roll +3: hit 80")
    _attack(page, "Bandit", "Hit", "3")
    _wait_text(page, "Bandit must check morale")
    assert _row(page, "Bandit")["health"] == "1 of WL 2 wounds, WP −1"
    _wait_text(
        page,
        "Because his Wound Penalty 1 is half his Wound Limit 2. Roll: d20 -1 vs Morale TN 10.",
    )
    page.get_by_label("Morale d20: Bandit", exact=True).fill("12")
    _tap(page, "Check with this roll")
    _wait_text(page, "d20 12 -1 = 11 vs Morale TN 10: stays in the fight")
    assert page.locator(".rl-ch-due").count() == 0
    _tap(page, "Next turn ▶")
    _when(page, "Round 1: Bandit's turn")
    _attack(page, "Ana", "Miss")
    _tap(page, "Next turn ▶")
    _when(page, "Round 1: Chief's turn")
    _attack(page, "Ana", "Hit", "5")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.rl-tr-health-text')].some((h) =>"
        " h.textContent === '1 of WL 3 wounds, WP −1')"
    )
    assert page.locator(".rl-ch-due").count() == 0  # (a PC: no morale check)
    _tap(page, "Next turn ▶")
    _when(page, "Round 2: choose the actions, roll initiative")
    # round 2: the wounds carried: Ana 6 − 1 = 5, Chief 4, Bandit 8 − 1 = 7
    _round(page, {"Ana": ("0", "6"), "Chief": ("0", "4"), "Bandit": ("0", "8")})
    _when(page, "Round 2: Bandit's turn")
    assert _rows(page) == [("Bandit", "7"), ("Ana", "5"), ("Chief", "4")]
    _attack(page, "Ana", "Miss")
    _tap(page, "Next turn ▶")
    _when(page, "Round 2: Ana's turn")
    before = page.evaluate(ROWS_JS)
    _attack(page, "Chief", "Hit", "8")
    _wait_text(page, "Ana chooses Chief's fate")
    assert "Vanquished: the victor chooses his fate" in _row(page, "Chief")["chips"]
    _wait_text(page, "Because his leader has fallen and 1 of his 1 allies down: more than")
    looked_at(page, artifacts / "tracker-chimera-fate-390.png")
    # undo: the rows exactly as before the blow; redo it
    _tap(page, "↶ Undo")
    page.wait_for_function("() => !document.querySelector('.rl-ch-due')")
    assert page.evaluate(ROWS_JS) == before
    _tap(page, "↷ Redo")
    _wait_text(page, "Ana chooses Chief's fate")
    page.get_by_label("Morale d20: Bandit", exact=True).fill("5")
    _tap(page, "Check with this roll")
    _wait_text(page, "d20 5 -1 = 4 vs Morale TN 10: fails: he surrenders or retreats")
    assert _row(page, "Bandit")["chips"][0] == ("Failed his morale check: surrendered or retreated")
    page.get_by_label("Fate of Chief", exact=True).select_option("capture")
    _tap(page, "Choose this fate")
    page.wait_for_function("() => !document.querySelector('.rl-ch-due')")
    assert _row(page, "Chief")["chips"][0] == "Captured: bound, −4 to all rolls and MR"
    shown = page.evaluate(ROWS_JS)
    page.wait_for_function(
        "async (js) => { const all = await (eval(js))();"
        " return all.some((r) => r.text && r.text.includes('\"captured\"')); }",
        arg=STORED_JS,
    )
    stored = [r["text"] for r in page.evaluate(STORED_JS) if '"captured"' in r["text"]]
    assert [json.loads(text)["ruleset"] for text in stored] == ["chimera"]
    page.close()
    # reload: the fight as it was
    page, watch2 = _open(context, base_url)
    page.wait_for_function("() => document.querySelectorAll('.rl-tr-row').length === 3")
    assert page.evaluate(ROWS_JS) == shown
    _when(page, "Round 2: Ana's turn")
    # the end of the fight: Ana skips the cool-down (Fatigue) and she shot (Ammo)
    page.get_by_text("End the round or the fight").click()
    page.get_by_label("Ana spends the cool-down").set_checked(False)
    _tap(page, "End the fight")
    _when(page, "The fight is over")
    after = page.locator(".rl-ch-after li").all_text_contents()
    assert len(after) == 2
    assert after[0].startswith("Ana skips the 1 full turn (10 minutes")
    assert "an immediate Resistance Roll against Fatigue" in after[0]
    assert after[1] == "Ana engaged in ranged combat: an Ammo Check now"
    looked_at(page, artifacts / "tracker-chimera-over-390.png")
    assert watch.errors == []
    assert watch2.errors == []


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desk"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_chimera_tracker_is_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str, size: tuple[int, int]
) -> None:
    width = size[0]
    context = browser.new_context(viewport={"width": width, "height": size[1]})
    try:
        page, watch = _open(context, base_url, f"&theme={theme}")
        _new_chimera(page)
        _add(page, ANA)
        _add(page, CHIEF, leader=True)
        _add(page, BANDIT)
        # before the round: the actions' IMs and the d12s asked for
        looked_at(page, artifacts / f"tracker-chimera-{theme}-{width}-round.png")
        _round(page, {"Ana": ("0", "9"), "Chief": ("+1", "5"), "Bandit": ("0", "7")})
        _when(page, "Round 1: Ana's turn")
        _attack(page, "Bandit", "Hit", "3")
        _wait_text(page, "Bandit must check morale")
        _tap(page, "Next turn ▶")
        _when(page, "Round 1: Bandit's turn")
        # his turn: the odds of his attack, and the morale check he owes
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        looked_at(page, artifacts / f"tracker-chimera-{theme}-{width}.png")
        # the players' view follows, without the hidden foe's name
        page.get_by_role("button", name="Hide: Bandit in the players' view").click()
        page.wait_for_selector("[aria-pressed=true].rl-tr-hide")
        players = context.new_page()
        players.goto(base_url + "app.html?calculator=tracker&view=players")
        players.wait_for_selector(".rl-tr-players .rl-tr-row", timeout=KERNEL_TIMEOUT)
        names = players.locator(".rl-tr-name").all_text_contents()
        assert names == ["Ana", "Unknown foe", "Chief"]
        assert axe_violations(players) == []
        assert watch.errors == []
    finally:
        context.close()
