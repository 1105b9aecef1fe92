"""Aberrant fights played for rounds in the tracker page (``app.html?calculator=tracker``),
every figure checked against what the texts give when worked by hand.

The texts (Quick reference):

- 2.0 Rules › Combat › Dazing/Stunning: "Dazed if he takes (2 * Stamina) HLs of damage in
  a single turn …, and Stunned if he takes (3 * Stamina) HLs of damage. Dazed characters
  are at +1 difficulty to all actions, Stunned ones suffer +1 difficulty to all actions
  and may not take more than a single action". How long it lasts (rules note
  RN-TRACK-2): through the next turn, then gone.
- › Stun Damage: "heals at the rate of 1 level per (10 - Stamina) turns, minimum 1, and
  goes away at the end of the scene" (the turn it was taken counts: RN-TRACK-3).
- 2.1 Rules › Health Levels: "(Willpower + [Stamina * 2] + [Mega-Stamina * 6] + Quantum)
  health levels … a -1 wound penalty for every (Stamina + Resistance)/2 + 1, (round down)
  health levels of damage".
- 2.1 Rules › Defenses: "a Defense score of (lower of Dexterity or Wits, divided by 2).
  Round defenses down. … reduced by 1 for every successful or unsuccessful attack made
  against them" (back at the turn's end: RN-TRACK-6).
- 2.1 Rules › Multiple Actions: "Every additional action past the first adds a
  cumulative +1 difficulty penalty"; 2.0 has none (RN-TRACK-4).
- 2.0 Rules › Health Levels: "-0 x 1/-1 x 2/-2 x 2/-4 x 1/Incap … 1 health level for every
  odd point of Stamina past 1 … Each point of Quantum gives a -0 HL."
- Combat alterations › Henchmen › Damage Soak: "Each point of damage dealt removes from
  play one of these henchmen" (regular henchmen: no division).

The combatants (each figure below is worked from those lines):

- Ana (party): Dex 5, Wits 4, Sta 2, Willpower 6, Quantum 3. Dazed at 4 levels in a turn,
  Stunned at 6. 2.1: Defense min(5, 4) // 2 = 2; 6 + 4 + 3 = 13 levels, −1 per
  (2 + 0) // 2 + 1 = 2 levels.
- Bo (party): Dex 3, Wits 3, Sta 8, Willpower 3, Quantum 1. Defense 1; stun heals 1 level
  per 10 − 8 = 2 turns; 3 + 16 + 1 = 20 levels, −1 per (8 + 0) // 2 + 1 = 5 levels.
- Aiko (quick foe): Dex 4, Wits 4, Sta 3 (Willpower 3, Quantum 0). Defense 2; Dazed at
  6, Stunned at 9; 2.1: 3 + 6 + 0 = 9 levels, −1 per 3 // 2 + 1 = 2 levels.
- Guards (a squad of 4 regular henchmen; leader Dex 3, Wits 2, Sta 2): Defense 1.
"""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.test_tracker import (
    PUT_PARTY_JS,
    ROWS_JS,
    STORED_JS,
    _add_foe,
    _open,
    _tap,
    _when,
)

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.character import Character  # noqa: E402
from ruleslab.party import Party, entry_json  # noqa: E402

BOARD_JS = (
    "() => JSON.stringify([(" + ROWS_JS + ")(), document.querySelector('.rl-tr-when').textContent])"
)
STATE_JS = (
    "() => JSON.stringify([(" + BOARD_JS + ")(),"
    " (document.querySelector('.rl-tr-setup') || {}).textContent || '',"
    " document.querySelector('.rl-tr-message').textContent])"
)
SEEN: list[str] = []
"""The board after each step (:data:`BOARD_JS`), to be undone one by one."""

ANA = Character(dexterity=5, wits=4, stamina=2, willpower=6, quantum=3)
BO = Character(dexterity=3, wits=3, stamina=8, willpower=3, quantum=1)


def _step(page: Any, do: Any, *, record: bool = True) -> None:
    """``do()`` (a tap), then wait until the page shows its answer (the board, whose turn,
    the setup or the message changed); the board is kept in :data:`SEEN` (``record``:
    not for an undo or a redo, which go back and forth along it)."""
    before = page.evaluate(STATE_JS)
    do()
    page.wait_for_function(f"(b) => ({STATE_JS})() !== b", arg=before, timeout=20_000)
    board = page.evaluate(BOARD_JS)
    if record and (not SEEN or SEEN[-1] != board):
        SEEN.append(board)


def _undo_all_and_redo(page: Any) -> None:
    """Undo back to the first board of :data:`SEEN`, each undo showing the board before
    that step exactly; then redo forward to the last, each redo its board again."""
    boards = list(SEEN)
    wait = f"(b) => ({BOARD_JS})() === b"
    for board in reversed(boards[:-1]):
        _tap(page, "↶ Undo")
        page.wait_for_function(wait, arg=board, timeout=20_000)
    for board in boards[1:]:
        _tap(page, "↷ Redo")
        page.wait_for_function(wait, arg=board, timeout=20_000)


def _rows(page: Any) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in page.evaluate(ROWS_JS)}


def _chips(page: Any, name: str) -> list[str]:
    return list(_rows(page)[name]["chips"])


def _setup(page: Any, target: str) -> str:
    page.get_by_label("Target", exact=True).select_option(label=target)
    page.wait_for_function(
        "(t) => { const s = document.querySelector('.rl-tr-attack select');"
        " return s && s.options[s.selectedIndex].textContent === t; }",
        arg=target,
    )
    return str(page.locator(".rl-tr-setup").text_content())


def _attack(page: Any, target: str, *, hit: bool, setup: str = "", **levels: int) -> None:
    """The acting one's attack on ``target`` (its setup before the roll ``setup``, when
    given), hit for ``levels`` (after soak) or missed."""
    shown = _setup(page, target)
    if setup:
        assert shown == setup
    for kind in ("bashing", "lethal", "aggravated", "stun"):
        page.get_by_label(f"{kind.capitalize()} levels").fill(str(levels.get(kind, 0)))
    _step(page, lambda: _tap(page, "Hit" if hit else "Miss"))


def _check(page: Any, name: str, *chips: str, health: str = "") -> None:
    """``name``'s row shows each of ``chips`` (and his ``health``, when given)."""
    row = _rows(page)[name]
    for chip in chips:
        assert chip in row["chips"]
    if health:
        assert row["health"] == health


def _declare(page: Any, actions: int) -> None:
    page.get_by_label("Actions", exact=True).fill(str(actions))
    _step(page, lambda: _tap(page, "Declare"))


def _next(page: Any, when: str) -> None:
    _step(page, lambda: _tap(page, "Next turn ▶"))
    _when(page, when)


def _message(page: Any) -> str:
    return str(page.locator(".rl-tr-message").text_content())


def _party(
    context: Any, base_url: str, ruleset: str, *people: tuple[str, Character], query: str = ""
) -> Any:
    """The page opened on a new encounter under ``ruleset``, ``people`` put in the party
    store (as the party bar stores them) and added from it."""
    page, _ = _open(context, base_url)
    party = Party()
    for name, char in people:
        party = party.add(name, char)
    for entry in party.entries:
        page.evaluate(PUT_PARTY_JS, [entry.id, entry_json(entry)])
    page.close()
    page, watch = _open(context, base_url, query)
    if ruleset != "2.1":
        _new(page, ruleset)
    for name, _ in people:
        before = page.locator(".rl-tr-row").count()
        page.get_by_label("From the party").select_option(label=name)
        _tap(page, "Add from the party")
        page.wait_for_function(
            "(n) => document.querySelectorAll('.rl-tr-row').length === n", arg=before + 1
        )
    return page, watch


def _squad(page: Any) -> None:
    page.get_by_label("Squad's name").fill("Guards")
    page.get_by_label("Henchmen", exact=True).fill("4")
    page.get_by_label("Leader's Dex").fill("3")
    page.get_by_label("Leader's Wits").fill("2")
    page.get_by_label("Leader's Sta").fill("2")
    before = page.locator(".rl-tr-row").count()
    _tap(page, "Add squad")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.rl-tr-row').length === n", arg=before + 1
    )


def _initiative(page: Any, totals: dict[str, int], first: str) -> None:
    for name, total in totals.items():
        page.get_by_label(f"Initiative: {name}", exact=True).fill(str(total))
    _tap(page, "Enter initiative")
    _when(page, f"Turn 1: {first}'s action")


def _new(page: Any, ruleset: str) -> None:
    page.get_by_label("Rules for a new encounter").select_option(ruleset)
    _tap(page, "New encounter")
    page.wait_for_selector(f"text=A new Aberrant {ruleset} encounter")


def test_a_21_fight_for_three_turns(browser: Any, base_url: str, artifacts: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA), ("Bo", BO))
        _add_foe(page, "Aiko", "4", "4", "3")
        _squad(page)
        _initiative(page, {"Ana": 14, "Aiko": 12, "Bo": 9, "Guards": 5}, "Ana")
        SEEN[:] = [page.evaluate(BOARD_JS)]
        rows = page.evaluate(ROWS_JS)
        assert [r["name"] for r in rows] == ["Ana", "Aiko", "Bo", "Guards"]
        for name, defense in {"Ana": 2, "Aiko": 2, "Bo": 1, "Guards": 1}.items():
            assert f"Defense +{defense} (back at the turn's end)" in _chips(page, name)
        assert "4 henchmen screening him" in _chips(page, "Guards")

        # --- turn 1 ---
        # Ana declares two actions: the second at +1 (Multiple Actions)
        _declare(page, 2)
        first = "This attack: action 1 of 2, +0 difficulty, Aiko's Defense +2"
        assert _setup(page, "Aiko") == first
        _attack(page, "Aiko", hit=True, lethal=6)  # 6 = 2 × Stamina 3: Dazed
        aiko = _chips(page, "Aiko")
        assert "Dazed: +1 (ends with turn 2)" in aiko
        assert "Defense +1 (back at the turn's end)" in aiko  # worn down by the hit
        assert _rows(page)["Aiko"]["health"] == "Hurt, −3"  # 6 levels, −1 per 2
        assert _rows(page)["Aiko"]["boxes"][:7] == ["lethal"] * 6 + [""]
        second = "This attack: action 2 of 2, +1 difficulty, Aiko's Defense +1"
        assert _setup(page, "Aiko") == second
        _attack(page, "Aiko", hit=False)
        assert "Defense +0 (back at the turn's end)" in _chips(page, "Aiko")  # a miss too
        assert "2 of 2 actions taken" in _chips(page, "Ana")
        assert _setup(page, "Bo").startswith("Ana has no action left this turn")

        _next(page, "Turn 1: Aiko's action")
        # Aiko: Dazed +1, wounds −3 dice; Ana's Defense untouched so far: +2
        setup = "This attack: action 1 of 1, +1 difficulty, Ana's Defense +2, −3 dice (wounds)"
        _attack(page, "Ana", hit=True, setup=setup, bashing=4)  # 4 = 2 × Stamina 2: Dazed
        _check(page, "Ana", "Dazed: +1 (ends with turn 2)", health="Hurt, −2")  # −1 per 2

        _next(page, "Turn 1: Bo's action")
        _attack(page, "Guards", hit=True, lethal=2)  # 2 points: 2 henchmen out of play
        guards = _chips(page, "Guards")
        assert "2 henchmen screening him" in guards
        assert "Defense +0 (back at the turn's end)" in guards
        assert _rows(page)["Guards"]["health"] == "Unhurt"  # the leader is screened

        _next(page, "Turn 1: Guards's action")
        _attack(page, "Bo", hit=True, stun=5)
        # stun: 1 level heals per (10 − 8) = 2 turns, this one counting
        assert "5 stun: 1 heals in 2 turns, all at the scene's end" in _chips(page, "Bo")
        assert "Defense +0 (back at the turn's end)" in _chips(page, "Bo")

        # the turn's end, and undo of it: the very same board again
        before_end = page.evaluate(ROWS_JS)
        _next(page, "Turn 2: Ana's action")
        for name, defense in {"Ana": 2, "Aiko": 2, "Bo": 1, "Guards": 1}.items():
            assert f"Defense +{defense} (back at the turn's end)" in _chips(page, name)
        assert "Dazed: +1 (ends with turn 2)" in _chips(page, "Aiko")  # through turn 2
        assert "5 stun: 1 heals in 1 turn, all at the scene's end" in _chips(page, "Bo")
        after_end = page.evaluate(ROWS_JS)
        _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        _when(page, "Turn 1: Guards's action")
        assert page.evaluate(ROWS_JS) == before_end
        _step(page, lambda: _tap(page, "↷ Redo"), record=False)
        _when(page, "Turn 2: Ana's action")
        assert page.evaluate(ROWS_JS) == after_end

        # --- turn 2 ---
        # Ana, Dazed: +1 on every action, the second +1 more; 4 levels: −2 dice
        _declare(page, 2)
        assert (
            _setup(page, "Aiko")
            == "This attack: action 1 of 2, +1 difficulty, Aiko's Defense +2, −2 dice (wounds)"
        )
        _attack(page, "Aiko", hit=True, lethal=2)  # 2 this turn (< 6): no new Daze
        assert "Dazed: +1 (ends with turn 2)" in _chips(page, "Aiko")
        assert _rows(page)["Aiko"]["health"] == "Hurt, −4"  # 8 levels
        assert (
            _setup(page, "Guards")
            == "This attack: action 2 of 2, +2 difficulty, Guards's Defense +1, −2 dice (wounds)"
        )
        # undo of an attack restores the exact board
        before_hit = page.evaluate(ROWS_JS)
        _attack(page, "Guards", hit=True, lethal=2)  # the last 2 henchmen
        assert not any("henchmen" in c for c in _chips(page, "Guards"))
        after_hit = page.evaluate(ROWS_JS)
        _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        assert page.evaluate(ROWS_JS) == before_hit
        _step(page, lambda: _tap(page, "↷ Redo"), record=False)
        assert page.evaluate(ROWS_JS) == after_hit

        _next(page, "Turn 2: Aiko's action")
        setup = "This attack: action 1 of 1, +1 difficulty, Ana's Defense +2, −4 dice (wounds)"
        _attack(page, "Ana", hit=True, setup=setup, bashing=6)  # 3 × Stamina 2: Stunned
        stunned = "Stunned: +1, a single action (ends with turn 3)"
        _check(page, "Ana", stunned, health="Hurt, −5")  # 10 levels, −1 per 2

        _next(page, "Turn 2: Bo's action")
        # Bo, 5 stun levels: −1 per 5 levels; three actions, each past the first +1;
        # the Guards' Defense already worn to +0 by Ana's attack this turn
        _declare(page, 3)
        assert (
            _setup(page, "Guards")
            == "This attack: action 1 of 3, +0 difficulty, Guards's Defense +0, −1 dice (wounds)"
        )
        _attack(page, "Guards", hit=False)
        assert (
            _setup(page, "Guards")
            == "This attack: action 2 of 3, +1 difficulty, Guards's Defense +0, −1 dice (wounds)"
        )
        _attack(page, "Guards", hit=True, lethal=2)  # no henchmen left: the leader's track
        assert _rows(page)["Guards"]["health"] == "Hurt, −1"  # 2 levels, −1 per 2
        assert (
            _setup(page, "Aiko")
            == "This attack: action 3 of 3, +2 difficulty, Aiko's Defense +1, −1 dice (wounds)"
        )
        _attack(page, "Aiko", hit=False)
        assert "Defense +0 (back at the turn's end)" in _chips(page, "Aiko")

        _next(page, "Turn 2: Guards's action")
        _attack(page, "Bo", hit=False)
        _next(page, "Turn 3: Ana's action")
        # Aiko's Daze (turn 1) has held through turn 2 and is gone; Ana's Stun holds
        assert not any(c.startswith("Dazed") for c in _chips(page, "Aiko"))
        assert not any(c.startswith("Dazed") for c in _chips(page, "Ana"))
        assert "Stunned: +1, a single action (ends with turn 3)" in _chips(page, "Ana")
        # Bo's stun: 2 turns' ends with it, 1 level healed, the count starts again
        assert "4 stun: 1 heals in 2 turns, all at the scene's end" in _chips(page, "Bo")

        # --- turn 3 ---
        # Stunned: a single action; declaring two is refused with the rule's words
        assert page.locator(".rl-tr-declare .rl-tr-note").text_content() == (
            "Stunned: a single action this turn."
        )
        _declare(page, 2)
        assert "Ana is Stunned" in _message(page)
        assert "may not take more than a single action" in _message(page)
        assert "1 of 2 actions taken" not in " ".join(_chips(page, "Ana"))
        assert (
            _setup(page, "Aiko")
            == "This attack: action 1 of 1, +1 difficulty, Aiko's Defense +2, −5 dice (wounds)"
        )
        page.screenshot(path=str(artifacts / "tracker-fight-21-390.png"), full_page=True)
        _attack(page, "Aiko", hit=False)
        assert _setup(page, "Aiko").startswith(
            "Ana has no action left this turn (Stunned: a single action; 1 taken)"
        )
        # no action left: the next turn is offered where the thumb is
        _step(page, lambda: _tap(page, "Done: next turn ▶"))
        _when(page, "Turn 3: Aiko's action")
        # 7 lethal on the Guards' leader (2 so far): 9 levels, past his 3 + 4 + 1 = 8:
        # his first Incapacitated level (2.1 Health Levels: "Past that … (Stamina)
        # Incapacitated levels"); he cannot act
        _attack(page, "Guards", hit=True, lethal=7)
        _check(page, "Guards", health="Incapacitated")
        _next(page, "Turn 3: Bo's action")
        # Bo sprints: "Sprinting characters may not take any actions during the turn
        # except defensive maneuvers" (Movement)
        page.get_by_label("Sprinting").check()
        _declare(page, 1)
        _check(page, "Bo", "Sprinting: defensive maneuvers only, this turn")
        assert _setup(page, "Aiko").startswith(
            "Bo has no action left this turn (sprinting: no actions but defensive maneuvers"
        )
        _next(page, "Turn 3: Guards's action")
        assert "Incapacitated, he cannot act" in _message(page)
        assert _setup(page, "Ana") == "Guards is Incapacitated: he cannot act."
        _next(page, "Turn 4: Ana's action")
        assert not any(c.startswith("Stunned") for c in _chips(page, "Ana"))
        assert "4 stun: 1 heals in 1 turn, all at the scene's end" in _chips(page, "Bo")

        # undo of every step since initiative, each board seen again exactly; then redo
        _undo_all_and_redo(page)

        # reload: the fight as it was (once the store holds turn 4)
        kept = page.evaluate(ROWS_JS)
        page.wait_for_function(
            "async (js) => { const all = await (eval(js))(); return all.some((r) => {"
            " const e = r.text && JSON.parse(r.text).encounter; return e && e.turn === 4; }); }",
            arg=STORED_JS,
        )
        page.close()
        page, watch2 = _open(context, base_url)
        _when(page, "Turn 4: Ana's action")
        assert page.evaluate(ROWS_JS) == kept

        # the scene's end: the stun goes, the lethal and bashing stay
        _step(page, lambda: _tap(page, "End the scene"))
        _when(page, "The scene is over")
        assert not any("stun" in c for c in _chips(page, "Bo"))
        assert _rows(page)["Bo"]["health"] == "Unhurt"
        assert _rows(page)["Ana"]["health"] == "Hurt, −5"
        # healing (a power, the GM's ruling): 2 of Ana's 10 bashing levels off: 8, −4
        page.locator(".rl-tr-heal > summary").click()
        page.get_by_label("Who heals").select_option(label="Ana")
        page.get_by_label("Bashing healed").fill("2")
        _step(page, lambda: _tap(page, "Heal"))
        _check(page, "Ana", health="Hurt, −4")
        assert _rows(page)["Ana"]["boxes"][:9] == ["bashing"] * 8 + [""]
        for seen in (watch, watch2):
            assert seen.errors == []
            assert seen.offsite == []
    finally:
        context.close()


def test_a_20_fight_for_two_turns(browser: Any, base_url: str) -> None:
    """2.0: no Defense score (the target dodges with an action), no multiple-action
    difficulty; Dazed and Stunned as in 2.1. The 2.0 tracks: Aiko (Sta 3, Quantum 0)
    -0 -0 -1 -1 -2 -2 -4; Ana (Sta 2, Quantum 3) -0 ×4, -1 -1 -2 -2 -4."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page, watch = _party(context, base_url, "2.0", ("Ana", ANA))
        _add_foe(page, "Aiko", "4", "4", "3")
        _squad(page)
        _initiative(page, {"Ana": 14, "Aiko": 12, "Guards": 5}, "Ana")
        SEEN[:] = [page.evaluate(BOARD_JS)]
        for name in ("Ana", "Aiko", "Guards"):
            assert not any(c.startswith("Defense") for c in _chips(page, name))

        # --- turn 1 ---
        _declare(page, 2)
        assert _setup(page, "Aiko") == "This attack: action 1 of 2, +0 difficulty"
        assert "no multiple-action penalty" in _message(page)
        assert page.get_by_text("2.0 has no Defense score: the target dodges").count() == 1
        _attack(page, "Aiko", hit=True, lethal=6)  # 2 × Stamina 3: Dazed
        assert "Dazed: +1 (ends with turn 2)" in _chips(page, "Aiko")
        assert _rows(page)["Aiko"]["health"] == "Hurt, −2"  # the 6th box: −2
        assert _setup(page, "Aiko") == "This attack: action 2 of 2, +0 difficulty"
        _attack(page, "Guards", hit=True, lethal=1)
        assert "3 henchmen screening him" in _chips(page, "Guards")

        _next(page, "Turn 1: Aiko's action")
        # Aiko dodges (Defensive Maneuvers: "Characters can dodge (Dex + Athletics)") as
        # one of his two declared actions: counted, no penalty under 2.0
        page.get_by_label("Active defence").check()
        _declare(page, 2)
        assert "declares 2 actions, an active defence among them" in _message(page)
        assert "no multiple-action penalty" in _message(page)
        assert _setup(page, "Ana") == "This attack: action 1 of 2, +1 difficulty, −2 dice (wounds)"
        _attack(page, "Ana", hit=True, bashing=6)  # 3 × Stamina 2: Stunned
        assert "Stunned: +1, a single action (ends with turn 2)" in _chips(page, "Ana")
        assert _rows(page)["Ana"]["health"] == "Hurt, −1"  # the 6th of -0×4 -1 -1
        _next(page, "Turn 1: Guards's action")
        _attack(page, "Ana", hit=False)
        _next(page, "Turn 2: Ana's action")

        # --- turn 2 ---
        assert "Dazed: +1 (ends with turn 2)" in _chips(page, "Aiko")
        _declare(page, 2)
        assert "Ana is Stunned" in _message(page)
        assert (
            _setup(page, "Guards") == "This attack: action 1 of 1, +1 difficulty, −1 dice (wounds)"
        )
        _attack(page, "Guards", hit=True, lethal=3)  # the last 3 henchmen
        assert not any("henchmen" in c for c in _chips(page, "Guards"))
        assert _setup(page, "Aiko").startswith("Ana has no action left this turn")
        _next(page, "Turn 2: Aiko's action")
        # "Roll it": the site rolls Aiko's attack, seeded: pool 5 − 2 (wounds) = 3 dice
        # against base 1 + 1 (Dazed) = 2; 1 lethal level (after soak) if it hits
        _setup(page, "Ana")
        page.get_by_label("Attack pool").fill("5")
        page.get_by_label("Base difficulty").fill("1")
        page.get_by_label("Lethal levels").fill("1")
        for kind in ("Bashing", "Aggravated", "Stun"):
            page.get_by_label(f"{kind} levels").fill("0")
        _step(page, lambda: _tap(page, "Roll it"))
        said = _message(page)
        seed = int(re.search(r"\(seed (\d+)\)", said).group(1))  # type: ignore[union-attr]
        rng = Random(seed)
        faces = [rng.randint(1, 10) for _ in range(3)]
        hit = sum(f >= 7 for f in faces) >= 2
        assert "pool 5 − 2 (wounds) = 3 dice against difficulty base 1 +1" in said
        assert f"= 2: {', '.join(map(str, faces))};" in said
        # Ana's 2.0 track: 6 bashing so far; a 7th level is her first −2 box
        _check(page, "Ana", health="Hurt, −2" if hit else "Hurt, −1")
        _next(page, "Turn 2: Guards's action")
        _next(page, "Turn 3: Ana's action")
        assert not any(c.startswith(("Dazed", "Stunned")) for c in _chips(page, "Aiko"))
        assert not any(c.startswith(("Dazed", "Stunned")) for c in _chips(page, "Ana"))
        assert axe_violations(page) == []
        # undo of every step since initiative: each board seen again, exactly, in turn
        assert len(SEEN) == 1 + 14  # the 14 steps taken since initiative (a refusal none)
        _undo_all_and_redo(page)
        assert watch.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_fight_mid_round_is_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str
) -> None:
    for width, height in ((390, 844), (1280, 900)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            people = ("Ana", ANA), ("Bo", BO)
            page, watch = _party(context, base_url, "2.1", *people, query=f"&theme={theme}")
            _add_foe(page, "Aiko", "4", "4", "3")
            _squad(page)
            _initiative(page, {"Ana": 14, "Aiko": 12, "Bo": 9, "Guards": 5}, "Ana")
            _declare(page, 2)
            _attack(page, "Aiko", hit=True, lethal=6)
            _attack(page, "Guards", hit=True, lethal=1)
            _next(page, "Turn 1: Aiko's action")
            _attack(page, "Bo", hit=True, stun=3)
            assert axe_violations(page) == []
            page.screenshot(
                path=str(artifacts / f"tracker-fight-{theme}-{width}.png"), full_page=True
            )
            assert watch.errors == []
        finally:
            context.close()
