"""Each condition a character can be in changes a figure in the site (issue 19).

For each partial rule of the audit (encumbrance, sprinting, an active defence as an
action, Dazed and Stunned, stun at the end of the scene, henchmen and the powers both
parties have) the app page is opened by a link twice, without and with the condition,
and the figure the rule changes is read from the page. Expected figures are worked by
hand from the text (see each case's comment); the engine tests work the same rules on
more inputs (tests/engine/test_conditions.py and each calculator's tests).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

# (calculator, link query shared by both, the condition's query, figure, text without,
# text with). Hand-worked:
# lifting: Str 9 + Might 5 = 14 lifts 420 kg; 450 kg needs 15, one over: a roll at
#   difficulty ⌊15 ÷ 2 − 1⌋ = 6. A 280 kg load is 20 kg per dot: Heavy, "+1 difficulty
#   to all other physical actions" → 7; Dazed, "+1 difficulty to all actions" → 8.
CASES = {
    "lifting: heavy load and Dazed": (
        "lifting",
        "strength=9&might=5&object_kg=450&load_kg=0",
        "load_kg=280&daze=dazed",
        "difficulty",
        "6",
        "8",
    ),
}


def _open(page, key: str, query: str):
    from playwright.sync_api import expect

    page.goto(f"{page.base}app.html?calculator={key}&{query}")
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    return root


@pytest.mark.parametrize("case", list(CASES))
def test_a_condition_changes_the_figure_its_rule_changes(page, base_url, case):
    from playwright.sync_api import expect

    key, shared, condition, figure, without, with_ = CASES[case]
    page.base = base_url
    for query, want in ((shared, without), (f"{shared}&{condition}", with_)):
        root = _open(page, key, query)
        expect(root.locator(f'[data-figure="{figure}"]').first).to_have_text(want, timeout=30_000)
    assert page.watch.errors == []
