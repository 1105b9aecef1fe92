"""Each condition a character can be in changes a figure in the site (issue 19).

For each partial rule of the audit (encumbrance, sprinting, an active defence as an
action, Dazed and Stunned, stun at the end of the scene, henchmen and the powers both
parties have) the app page is opened by a link twice, without and with the condition,
and the figure the rule changes is read from the page. Expected figures are worked by
hand from the text (see each case's comment); the engine tests work the same rules on
more inputs (tests/engine/test_conditions.py and each calculator's tests).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from ruleslab.explain import fmt_prob
from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser


def _binom(n: int, k: int) -> Fraction:
    """P(exactly k successes on n d10, each a success on 7+ with probability 0.4)."""
    return comb(n, k) * Fraction(2, 5) ** k * Fraction(3, 5) ** (n - k)


# (calculator, link query shared by both, the condition's query, figure, text without,
# text with). Each worked by hand from the text:
# lifting: Str 9 + Might 5 = 14 lifts 420 kg; 450 kg needs 15, one over: a roll at
#   difficulty ⌊15 ÷ 2 − 1⌋ = 6. A 280 kg load is 20 kg per dot: Heavy, "+1 difficulty
#   to all other physical actions" → 7; Dazed, "+1 difficulty to all actions" → 8.
# jumping: Str 3 + Athletics 2 = 5 dice; a 6 m gap needs 3 successes (2 m each):
#   P(≥ 3 of 5 at 0.4) = 0.31744. 40 kg is over 10 kg per dot of Str 3: Moderate, "+1
#   difficulty to all physical actions involving movement": its first success pays for
#   it, so 4 are rolled: P(≥ 4 of 5) = 0.08704.
# falling: 15 m falls 4 m safe, then 1d per 2 m: 5 dice, lethal at Sta 3 + Ath 2 = 5;
#   the break-fall (Dex 3 + Ath 2 = 5 dice) removes a die per success: lethal when it
#   rolls 0, 0.6⁵ = 0.07776; Dazed, its first success pays the +1: lethal on 0 or 1
#   success, 0.6⁵ + 5 × 0.4 × 0.6⁴ = 0.33696.
# defence (defaults: 3 actions): sprinting "may not take any actions … except
#   defensive maneuvers": the chance all three succeed becomes 0.
# health (2.1: Willpower 3 + Sta 2 × 2 = 7 levels, a −1 every ⌊(2 + 0) ÷ 2⌋ + 1 = 2
#   levels): 4 stun levels are −2; "goes away at the end of the scene": −0.
# henchmen (defaults: 10 henchmen counted, +1d each): the leader's power roll of 4 dice
#   gets their 10 dice only for "Quantum powers that both parties have":
#   1 − 0.6⁴ = 0.8704 without, 1 − 0.6¹⁴ with.
CASES = {
    "lifting: heavy load and Dazed": (
        "lifting",
        "strength=9&might=5&object_kg=450&load_kg=0",
        "load_kg=280&daze=dazed",
        "difficulty",
        "6",
        "8",
    ),
    "jumping: a moderate load": (
        "jumping",
        "strength=3&athletics=2&distance_m=6",
        "load_kg=40",
        "p_clear",
        fmt_prob(Fraction(31744, 100000)),
        fmt_prob(Fraction(8704, 100000)),
    ),
    "falling: Dazed": (
        "falling",
        "height_m=15&stamina=3&dexterity=3&athletics=2",
        "daze=dazed",
        "p_lethal",
        fmt_prob(Fraction(3, 5) ** 5),
        fmt_prob(Fraction(3, 5) ** 5 + 5 * Fraction(2, 5) * Fraction(3, 5) ** 4),
    ),
    "defence: sprinting": (
        "defence",
        "actions=3",
        "sprinting=yes",
        "p_all_actions",
        fmt_prob(
            (1 - Fraction(3, 5) ** 6)
            * sum(_binom(6, k) for k in range(2, 7))
            * sum(_binom(6, k) for k in range(3, 7))
        ),
        "0 % (1st, 2nd, 3rd not allowed (sprinting: no actions but defensive maneuvers))",
    ),
    "health: the scene has ended": (
        "health",
        "stun=4",
        "scene_ended=yes",
        "wound_penalty",
        "−2",
        "−0",
    ),
    "henchmen: the power both parties have": (
        "henchmen",
        "leader_power_pool=4",
        "henchmen_have_power=yes",
        "p_power",
        fmt_prob(1 - Fraction(3, 5) ** 4),
        fmt_prob(1 - Fraction(3, 5) ** 14),
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
