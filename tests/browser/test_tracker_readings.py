"""The readings a fight is played under, chosen in the tracker page (RN-TRACK-18): each
change a step the board follows and Undo takes back; looked at in both themes at a
phone's and a desk's width, axe clean.

Worked by hand (2.0 Rules › Combat › Dazing/Stunning, RN-TRACK-2): Aiko (Sta 3) is Dazed
at 2 × 3 = 6 levels in one turn. Under the default reading Dazed holds "through the next
turn": taken in turn 1, it ends with turn 2; under "Until the end of the turn in which he
took the damage", it ends with turn 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tracker import (
    SIZES,
    THEMES,
    _add_foe,
    _open,
    _tap,
    looked_at_width,
    sized,
)
from tests.browser.test_tracker_chimera import ANA, _add, _new_chimera
from tests.browser.test_tracker_fights import _attack, _chips, _initiative, _message, _step

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")

DAZE = "Dazed or Stunned lasts"


def _readings(page: Any) -> None:
    if not page.get_by_label(DAZE).is_visible() and page.locator(".rl-tr-readings").count():
        page.locator("summary", has_text="Readings of the rules").click()


def _two_foes(page: Any) -> None:
    _add_foe(page, "Bo", "3", "3", "3")
    _add_foe(page, "Aiko", "4", "4", "3")
    _initiative(page, {"Bo": 14, "Aiko": 12}, "Bo")


def test_a_reading_chosen_mid_fight_governs_the_next_daze_and_is_undone(
    browser: Any, base_url: str, artifacts: Any
) -> None:
    with sized(browser) as context:
        page, watch = _open(context, base_url)
        _two_foes(page)
        _readings(page)
        assert page.get_by_label(DAZE).input_value() == "next_turn"
        assert page.get_by_label("Initiative is rolled").input_value() == "scene"
        assert page.get_by_label("Each extra attack success adds").input_value() == "die"
        page.locator(".rl-tr-readings").scroll_into_view_if_needed()
        looked_at_width(page, watch, artifacts / "tracker-readings-aberrant-390.png", 390)
        _step(page, lambda: page.get_by_label(DAZE).select_option("this_turn"), record=False)
        assert _message(page).startswith(
            "Reading changed: Dazed or Stunned lasts: “Until the end of the turn in which he "
            "took the damage”"
        )
        _attack(page, "Aiko", hit=True, bashing=6)
        assert "Dazed: +1 (ends with turn 1)" in _chips(page, "Aiko")
        # undo the hit and the reading: the default again; the same hit now lasts to turn 2
        _step(page, lambda: _tap(page, "↶ Undo"), record=False)
        _tap(page, "↶ Undo")  # (the reading: only its select changes)
        _readings(page)
        page.wait_for_function(
            "(l) => document.querySelector(`select[aria-label='${l}']`).value === 'next_turn'",
            arg=DAZE,
        )
        _attack(page, "Aiko", hit=True, bashing=6)
        assert "Dazed: +1 (ends with turn 2)" in _chips(page, "Aiko")
        assert watch.errors == []


@SIZES
@THEMES
def test_the_chimera_readings_are_axe_clean_and_looked_at(
    browser: Any, base_url: str, artifacts: Any, theme: str, size: tuple[int, int]
) -> None:
    with sized(browser, size) as context:
        page, watch = _open(context, base_url, f"&theme={theme}")
        _new_chimera(page)
        _add(page, ANA)
        page.locator("summary", has_text="Readings of the rules").click()
        assert page.locator(".rl-tr-reading select").count() == 14
        assert page.locator(".rl-tr-rounds").count() == 0  # (Aberrant's rounds only)
        ties = page.get_by_label("Initiative ties")
        _step(page, lambda: ties.select_option("simultaneous"), record=False)
        assert _message(page).startswith("Reading changed: Initiative ties: “Both act at once")
        page.locator(".rl-tr-readings").scroll_into_view_if_needed()
        looked_at_width(page, watch, artifacts / f"tracker-readings-{theme}-{size[0]}.png", size[0])
