"""The Chimera fight's round rules in the built site, with Chromium (issue 10, item 3).

A GM reaches each new rule from the page: a Blast attack against a shielded foe behind a
reinforced barrier (a link sets it up), crouching chosen from its drop-down, the
distance and the Movement Die typed and chosen, a coup de grâce chosen as the fate, and
"Play the fight" rolling the approach. Figures by hand where they are short, else the
engine's on CPython. Same fixtures and patterns as ``test_calculators.py``.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402

KEY = "chimera"


def _figure(page, figure: str):
    return page.locator(f'.rl-calc-{KEY} [data-figure="{figure}"]').first


def _choose(root, name: str, value: str) -> None:
    param = next(p for p in get(KEY).params if p.name == name)
    root.locator(f".rl-field-{name} select").first.select_option(label=dict(param.choices)[value])


def _type(root, name: str, text: str) -> None:
    box = root.locator(f".rl-field-{name} input").first
    box.fill(text)
    box.press("Enter")


def _engine(values: dict[str, str]):
    calc = get(KEY)
    given = {p.name: p.default for p in calc.params} | values
    return calc.run({p.name: p.parse(given[p.name]) for p in calc.params})


def test_blast_cover_movement_and_the_coup_de_grace_from_the_page(page, base_url, artifacts):
    from playwright.sync_api import expect

    link = {
        "a_kind": "blast",
        "b_cover": "heavy",
        "b_barrier": "reinforced",
        "b_parry": "2",
        "b_parry_from": "shield",
    }
    query = "&".join(f"{k}={v}" for k, v in link.items())
    page.goto(base_url + f"app.html?calculator={KEY}&{query}")
    root = page.locator(f".rl-calc-{KEY}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    # by hand: no roll to hit; B resists d20 + heavy cover 4 × 2 + shield 2 = +10 against
    # A's Blast TN 12: fails only on a natural 1, 1/20
    expect(_figure(page, "a_tn")).to_have_text("no roll (a blast: B resists against TN 12)")
    expect(_figure(page, "a_p_hit")).to_have_text("5.00 %")
    # crouching adds 1: d20 + 11 ≥ 12 always
    _choose(root, "b_position", "crouching")
    expect(_figure(page, "a_p_hit")).to_have_text("0 %", timeout=30_000)

    # A Fights now, B Shoots from 30 away; A (MR 10) runs with a d12 Movement Die: 11 to 22
    values = {**link, "b_position": "crouching", "b_kind": "shoot", "a_movement_die": "d12"}
    values["a_kind"] = "fight"
    _choose(root, "a_kind", "fight")
    _choose(root, "b_kind", "shoot")
    _choose(root, "a_movement_die", "d12")
    expect(_figure(page, "a_run")).to_have_text("11 to 22 (mean 16.5)", timeout=30_000)
    values["distance"] = "30"
    _type(root, "distance", "30")
    want = _engine(values)
    expect(_figure(page, "p_a_wins")).to_have_text(want.figure("p_a_wins").text, timeout=30_000)
    chart = root.locator(".rl-chart").nth(2)  # A's move in a round
    expect(chart.locator(".rl-bar")).to_have_count(12)

    # the coup de grâce, a free action: how often B ends the fight dead
    values |= {"a_fate": "coup_de_grace", "b_character": "classed"}
    _choose(root, "a_fate", "coup_de_grace")
    _choose(root, "b_character", "classed")
    want = _engine(values)
    expect(_figure(page, "b_dead")).to_have_text(want.figure("b_dead").text, timeout=30_000)

    # "Play the fight" rolls the approach as the engine does
    seed = root.locator(".rl-roll-seed input").nth(1)
    seed.fill("7")
    seed.press("Tab")
    roll = root.locator(".rl-roll-button").nth(1)
    # at the foot of the results column, which scrolls on its own beside the form
    roll.evaluate("(b) => b.scrollIntoView({ block: 'center' })")
    roll.click()
    log = root.locator('.rl-roll[data-seed="7"] li')
    roll = next(r for r in get(KEY).rolls if r.label == "Play the fight")
    expected = list(roll.run(want, 7))
    expect(log).to_have_count(len(expected), timeout=30_000)
    assert [log.nth(i).inner_text() for i in range(log.count())] == expected
    assert any(line.startswith("A runs MR ") for line in expected)
    root.screenshot(path=str(artifacts / "chimera-rounds.png"))
    assert page.watch.offsite == [], f"requests left the site: {page.watch.offsite}"
    assert page.watch.errors == [], f"console errors: {page.watch.errors}"
