"""Attacks played to the end with the site's dice in the tracker page: an Aberrant hit and
its damage ("Roll it", then "Roll damage"), and a Chimera blast ("Roll the blast for me"),
each checked against the dice recomputed here from ``random.Random(seed)`` (the seed the
page logs) and the texts' arithmetic worked by hand; each undone; the forms looked at in
both themes at a desk's and a phone's width, axe clean.

Aberrant (Quick reference): Aiko, a quick foe with Dex 4, Wits 4, Sta 3 (Quantum 0).
2.1 Rules › Defenses: his Defense min(4, 4) // 2 = 2, added to the base difficulty 1: 3
successes to hit. 2.0 Rules › Soak: "(Quantum + Stamina/2 + Mega-Stamina) Lethal" = 0 +
3 // 2 + 0 = 1. "Characters subtract soak from damage dice, not damage adds. Damage adds
apply if the attack deals at least one die of damage after soak." Each net success beyond
the difficulty is one more damage die (RN-RANGED-3, RN-RANGED-4); each damage die at 7 or
more one level (RN-DMG-1). A rifle of 5 dice [1] lethal with e extra successes: 5 + e
dice − soak 1 = 4 + e dice, + 1 add. Dazed at 2 × Sta 3 = 6 levels in the turn, Stunned
at 9.

Chimera (Chimera combat › Combat and RN-CHIM-7, RN-TRACK-16): Cy blasts (d6, Blast TN
12) at Ana (Resistance +0, Defence 2, WL 3) and the Bandit (Resistance +0, Defence 1, WL
2): each resists on d20 + 0 ≥ 12 (a natural 20 always succeeds), in that order; the
blast's d6 is rolled once, after the first Resistance Roll that fails; "a wound of
severity equal to the damage roll minus his Defence (ignore "wounds" of severity zero or
less)", vanquished when it "exceeds the defender's Wound Limit".
"""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest

from tests.browser.test_tracker import ROWS_JS, _add_foe, _open, _tap, _when, looked_at
from tests.browser.test_tracker_chimera import ANA as CH_ANA
from tests.browser.test_tracker_chimera import BANDIT, _add, _new_chimera, _round, _wait_text
from tests.browser.test_tracker_fights import (
    ANA,
    BOARD_JS,
    _initiative,
    _message,
    _party,
    _rows,
    _setup,
    _step,
)

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")

CY = {**BANDIT, "Fighter's name": "Cy", "Attack": "blast", "Blast TN": "12",
      "Weapon damage": "d6"}  # fmt: skip
LOG_JS = "() => [...document.querySelectorAll('.rl-tr-log li')].map((l) => l.textContent)"


def _seed(text: str) -> int:
    m = re.search(r"seed (\d+)", text)
    assert m, text
    return int(m.group(1))


def _faces(rng: Random, n: int, sides: int = 10) -> list[int]:
    return [rng.randint(1, sides) for _ in range(n)]


def _aberrant(page: Any) -> None:
    """Ana (party) and Aiko (a quick foe) at initiative 14 and 12: Ana's action."""
    _add_foe(page, "Aiko", "4", "4", "3")
    _initiative(page, {"Ana": 14, "Aiko": 12}, "Ana")


def _weapon(page: Any) -> None:
    page.get_by_label("Damage dice", exact=True).fill("5")
    page.get_by_label("Damage adds", exact=True).fill("1")
    page.get_by_label("Damage type", exact=True).select_option("lethal")
    page.get_by_label("Damage adds", exact=True).press("Tab")  # (the change: odds again)
    page.wait_for_function(
        "() => (document.querySelector('.rl-tr-dodds') || {}).textContent"
        "?.startsWith('Before the roll: ' + (5 + Number(document.querySelector("
        "'input[aria-label=\"Extra successes\"]').value)) + ' dice [1]')",
        timeout=20_000,
    )


def test_an_aberrant_hit_and_its_damage_rolled_by_the_site_then_undone(
    browser: Any, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA))
        _aberrant(page)
        _setup(page, "Aiko")
        page.get_by_label("Attack pool").fill("9")
        page.get_by_label("Base difficulty").fill("1")
        for kind in ("Bashing", "Lethal", "Aggravated", "Stun"):
            page.get_by_label(f"{kind} levels").fill("0")
        # "Roll it" until it hits (9 dice, 3 successes needed), each miss undone
        for _ in range(12):
            _step(page, lambda: _tap(page, "Roll it"), record=False)
            said = _message(page)
            faces = _faces(Random(_seed(said)), 9)
            successes = sum(f >= 7 for f in faces)
            assert "= 9 dice against difficulty base 1 +2 (Aiko's Defense) = 3: " in said
            assert ", ".join(map(str, faces)) in said
            if successes >= 3:
                break
            _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        else:
            pytest.fail("no hit in 12 rolls of 9 dice at difficulty 3")
        extra = successes - 3
        # the hit's extra successes fill the damage form; the odds before the roll
        page.wait_for_function(
            "(e) => document.querySelector('input[aria-label=\"Extra successes\"]').value === e",
            arg=str(extra),
        )
        _weapon(page)
        odds = str(page.locator(".rl-tr-dodds").text_content())
        left = 4 + extra
        assert odds.startswith(f"Before the roll: {5 + extra} dice [1] against soak 1: mean ")
        mean = float(re.search(r"mean ([\d.]+)", odds).group(1))  # type: ignore[union-attr]
        assert mean == pytest.approx(left * 0.4 + 1, abs=0.01)
        before = page.evaluate(BOARD_JS)
        _step(page, lambda: _tap(page, "Roll damage"), record=False)
        roll = next(x for x in page.evaluate(LOG_JS) if "rolls damage (seed" in x)
        faces = _faces(Random(_seed(roll)), left)
        levels = sum(f >= 7 for f in faces) + 1
        assert f"{left} dice left after soak 1: {', '.join(map(str, faces))}" in roll
        aiko = _rows(page)["Aiko"]
        assert aiko["boxes"].count("lethal") == levels
        assert any(c.startswith("Dazed") for c in aiko["chips"]) is (6 <= levels < 9)
        assert any(c.startswith("Stunned") for c in aiko["chips"]) is (levels >= 9)
        # undo: the board before the damage, exactly; redo: the damage again
        after = page.evaluate(BOARD_JS)
        _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        assert page.evaluate(BOARD_JS) == before
        _step(page, lambda: _tap(page, "↷ Redo"), record=False)
        assert page.evaluate(BOARD_JS) == after
        # a bad field: its message, naming it and the values it takes
        page.get_by_label("Damage dice", exact=True).fill("x")
        _step(page, lambda: _tap(page, "Roll damage"), record=False)
        assert _message(page) == "Damage dice: a whole number from 0 to 60."
        assert watch.errors == []
    finally:
        context.close()


def _blast_fight(page: Any) -> None:
    _new_chimera(page)
    _add(page, CH_ANA)
    _add(page, CY)
    _add(page, BANDIT)
    _round(page, {"Ana": ("0", "2"), "Cy": ("0", "12"), "Bandit": ("0", "5")})
    _when(page, "Round 1: Cy's turn")


def test_a_chimera_blast_rolled_by_the_site_at_everyone_in_its_area_then_undone(
    browser: Any, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page, watch = _open(context, base_url)
        _blast_fight(page)
        # Ana resists on a natural 12 to 20: 9 in 20; the blast reaches her 11 in 20
        line = page.locator(".rl-ch-area", has_text="In the area: Ana")
        assert "Before the roll: the blast reaches him: 55.00 %" in str(line.text_content())
        assert page.get_by_label("In the area: Ana").is_checked()  # (his foes, ticked)
        page.get_by_label("In the area: Bandit").check()
        before = page.evaluate(ROWS_JS)
        _tap(page, "Roll the blast for me")
        _wait_text(page, "(rolled by the site, seed ")
        said = str(page.locator(".rl-tr-message").text_content())
        rng = Random(_seed(said))
        damage = None
        want = {}
        for name, defence, wl in (("Ana", 2, 3), ("Bandit", 1, 2)):
            natural = rng.randint(1, 20)
            if natural >= 12:  # (a natural 20 among them)
                want[name] = "Unwounded"
                continue
            damage = damage if damage is not None else rng.randint(1, 6)
            severity = damage - defence
            want[name] = "Unwounded" if severity <= 0 else f"1 of WL {wl} wounds"
            if severity > wl:
                want[name] = "vanquished"
        rows = {r["name"]: r for r in page.evaluate(ROWS_JS)}
        for name, health in want.items():
            if health == "vanquished":
                assert any("anquished" in c for c in rows[name]["chips"] + [rows[name]["health"]])
            else:
                assert rows[name]["health"].startswith(health)
        # undo: both as they were
        _tap(page, "↶ Undo")
        page.wait_for_function(
            f"(b) => JSON.stringify(({ROWS_JS})()) === JSON.stringify(b)", arg=before
        )
        assert watch.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desk"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_damage_and_blast_forms_are_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str, size: tuple[int, int]
) -> None:
    width = size[0]
    context = browser.new_context(viewport={"width": width, "height": size[1]})
    try:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA), query=f"&theme={theme}")
        _aberrant(page)
        _setup(page, "Aiko")
        _weapon(page)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.locator(".rl-tr-damage").scroll_into_view_if_needed()
        looked_at(page, artifacts / f"tracker-damage-{theme}-{width}.png")
        _blast_fight(page)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        looked_at(page, artifacts / f"tracker-blast-{theme}-{width}.png")
        assert watch.errors == []
    finally:
        context.close()
