"""The rounds a fight fires, counted by the tracker page: a weapon loaded, a burst fired for
its Damage and one for its Accuracy, the count going down hit or miss, a burst refused
beyond what is left, undone; the forms looked at in both themes at a phone's and a
desk's width, axe clean.

Worked by hand from the Quick reference (Ranged Attack Maneuvers › Autofire): "Short
Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition. Medium Bursts: +4
Accuracy or +[2] Damage, 10 shots … Sustained Bursts: +10 Accuracy or +[5] Damage, 50
shots". Ana (a party character, Dex 5, Wits 4) loads 30 rounds: a short burst leaves 27,
a medium one 17. Aiko (a quick foe, Dex 4, Wits 4, Sta 3, 12 rounds): 2.0 Rules › Soak,
"(Quantum + Stamina/2 + Mega-Stamina) Lethal" = 3 // 2 = 1; the damage form's first weapon
4 dice [0] lethal, + the short burst's [1] ("+[1]" one damage add, RN-RANGED-1): "4 dice
[1] against soak 1". A medium burst for its Accuracy rolls the typed pool 6 + 4 = 10
dice (Ana unhurt: no wound penalty). RN-TRACK-17.
"""

from __future__ import annotations

import re
from random import Random
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.test_tracker import SIZES, THEMES, _add_foe, _tap, looked_at_width, sized
from tests.browser.test_tracker_fights import (
    ANA,
    _chips,
    _initiative,
    _message,
    _party,
    _setup,
    _step,
)

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")


def _load(page: Any, who: str, rounds: str) -> None:
    """``who``'s weapon loaded with ``rounds`` from the "Rounds" section."""
    if not page.get_by_label("Whose weapon").is_visible():
        page.locator("summary", has_text="Rounds: load a weapon").click()
    page.get_by_label("Whose weapon").select_option(
        label=next(
            o
            for o in page.get_by_label("Whose weapon").locator("option").all_text_contents()
            if o.startswith(who + ":")
        )
    )
    page.get_by_label("Rounds in it").fill(rounds)
    _step(page, lambda: _tap(page, "Load"), record=False)


def _fires(page: Any, fires: str, bonus: str = "") -> None:
    page.get_by_label("Fires", exact=True).select_option(fires)
    if bonus:
        page.get_by_label("Burst's bonus").select_option(bonus)


def _armed(page: Any) -> None:
    """Ana loaded with 30 rounds; Aiko added with 12, Bo with his not counted; Ana's
    action, two declared."""
    _load(page, "Ana", "30")
    assert "30 rounds left" in _chips(page, "Ana")
    page.get_by_label("Foe's name").fill("Aiko")
    page.get_by_label("Rounds", exact=True).fill("12")
    _add_foe(page, "Aiko", "4", "4", "3")
    assert "12 rounds left" in _chips(page, "Aiko")
    page.get_by_label("Rounds", exact=True).fill("")
    _add_foe(page, "Bo", "2", "2", "2")
    _initiative(page, {"Ana": 14, "Aiko": 12, "Bo": 10}, "Ana")
    page.get_by_label("Actions", exact=True).fill("2")
    _step(page, lambda: _tap(page, "Declare"), record=False)
    _setup(page, "Aiko")


def test_bursts_fired_from_the_tracker_count_the_rounds_down_and_add_their_bonus(
    browser: Any, base_url: str
) -> None:
    with sized(browser) as context:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA))
        _armed(page)
        assert page.locator(".rl-tr-ammo").text_content() == "Ana: 30 rounds left."
        for kind in ("Bashing", "Lethal", "Aggravated", "Stun"):
            page.get_by_label(f"{kind} levels").fill("0")
        # a short burst for its Damage, a hit: 27 left, the damage form takes its +[1]
        _fires(page, "short", "damage")
        _step(page, lambda: _tap(page, "Hit"), record=False)
        assert "27 rounds left" in _chips(page, "Ana")
        assert page.locator(".rl-tr-ammo").text_content() == "Ana: 27 rounds left."
        assert page.get_by_label("Burst's Damage").input_value() == "short"
        page.wait_for_function(
            "() => (document.querySelector('.rl-tr-dodds') || {}).textContent"
            "?.startsWith('Before the roll: 4 dice [1] against soak 1')",
            timeout=20_000,
        )
        # a medium burst for its Accuracy, rolled by the site: 6 + 4 dice; 17 left
        _fires(page, "medium", "accuracy")
        # the Autofire calculator's link carries the burst, the rounds left, the weapon
        href = str(page.locator(".rl-tr-odds").get_attribute("href"))
        query = parse_qs(urlsplit(href).query)
        assert {k: query[k] for k in ("burst", "burst_use", "ammunition", "damage_dice")} == {
            "burst": ["medium"],
            "burst_use": ["accuracy"],
            "ammunition": ["27"],
            "damage_dice": ["4"],
        }
        page.get_by_label("Attack pool").fill("6")
        page.get_by_label("Base difficulty").fill("1")
        _step(page, lambda: _tap(page, "Roll it"), record=False)
        said = _message(page)
        assert "pool 6 + 4 (medium burst's Accuracy) = 10 dice" in said
        seed = int(re.search(r"seed (\d+)", said).group(1))  # type: ignore[union-attr]
        rng = Random(seed)
        faces = [rng.randint(1, 10) for _ in range(10)]
        assert ", ".join(map(str, faces)) in said
        assert "17 rounds left" in _chips(page, "Ana")
        # undone: the rounds back; a sustained burst (50) is refused with 27 left
        _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        assert "27 rounds left" in _chips(page, "Ana")
        _fires(page, "sustained", "damage")
        _step(page, lambda: _tap(page, "Miss"), record=False)
        assert _message(page) == "Ana has 27 rounds left, not 50."
        assert "27 rounds left" in _chips(page, "Ana")
        # rounds typed (a Burst(3) weapon's single shot), then a reload
        _fires(page, "rounds")
        page.get_by_label("Rounds fired").fill("3")
        _step(page, lambda: _tap(page, "Miss"), record=False)
        assert "24 rounds left" in _chips(page, "Ana")
        _load(page, "Ana", "30")
        assert _message(page) == "Ana reloads: 30 rounds"
        assert "30 rounds left" in _chips(page, "Ana")
        assert watch.errors == []


def test_a_strafe_holds_one_result_against_each_targets_difficulty(
    browser: Any, base_url: str
) -> None:
    """Strafing: "+1 difficulty for every additional target, but applyies the results
    against all targets": Aiko (Defense min(4, 4) // 2 = 2) needs 1 + 1 + 2 = 4 successes,
    Bo (Dex 2, Wits 2: Defense 1) 1 + 1 + 1 = 3; the table's 3 successes miss Aiko and hit
    Bo with 0 extra; the short burst fires 3 rounds, once."""
    with sized(browser) as context:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA))
        _armed(page)
        _fires(page, "1")
        assert page.get_by_label("Strafe also at: Bo").count() == 0  # (a single shot)
        _fires(page, "short", "damage")
        page.get_by_label("Strafe also at: Bo").check()
        assert page.get_by_role("button", name="Hit", exact=True).count() == 0
        page.get_by_label("Base difficulty").fill("1")
        page.get_by_label("Successes rolled").fill("3")
        _step(page, lambda: _tap(page, "Strafe"), record=False)
        assert "27 rounds left" in _chips(page, "Ana")
        log = page.evaluate(
            "() => [...document.querySelectorAll('.rl-tr-log li')].map((l) => l.textContent)"
        )
        assert any(x.startswith("Aiko: ") and "= 4: a miss" in x for x in log)
        assert any(x.startswith("Bo: ") and "= 3: a hit, 0 extra" in x for x in log)
        assert "Defense +1 (back at the turn's end)" in _chips(page, "Aiko")
        assert page.get_by_label("Extra successes").input_value() == "0"
        assert page.get_by_label("Burst's Damage").input_value() == "short"
        assert watch.errors == []


@SIZES
@THEMES
def test_the_rounds_forms_are_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str, size: tuple[int, int]
) -> None:
    with sized(browser, size) as context:
        page, watch = _party(context, base_url, "2.1", ("Ana", ANA), query=f"&theme={theme}")
        _armed(page)
        _fires(page, "long", "damage")
        page.get_by_label("Strafe also at: Bo").check()
        page.locator(".rl-tr-ammo").scroll_into_view_if_needed()
        looked_at_width(page, watch, artifacts / f"tracker-rounds-{theme}-{size[0]}.png", size[0])
