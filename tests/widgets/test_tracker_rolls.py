"""The tracker page's damage rolled by the site (ruleslab_widgets.tracker_rolls) and a
Chimera blast (ruleslab_widgets.tracker_chimera), driven by the page's messages.

By hand: Bo (a quick foe, Stamina 2, Quantum 0) soaks 0 + 2 // 2 + 0 = 1 lethal ("(Quantum
+ Stamina/2 + Mega-Stamina) Lethal"); the form's first weapon is 4 dice [0] lethal, so 3
dice are left, each a level at 7 or more: mean 3 × 4/10 = 1.2. The dice are recomputed
from the seed the log shows, with random.Random.
"""

from __future__ import annotations

import re
from random import Random

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from tests.widgets.test_tracker_chimera import ANA, BANDIT, CHIEF
from tests.widgets.test_tracker_chimera import Page as ChimeraTaps
from tests.widgets.test_tracker_page import Page, _fight


def _seed(text: str) -> int:
    m = re.search(r"seed (\d+)", text)
    assert m, text
    return int(m.group(1))


def _faces(seed: int, n: int, sides: int = 10) -> list[int]:
    rng = Random(seed)
    return [rng.randint(1, sides) for _ in range(n)]


def test_roll_damage_shows_the_odds_then_rolls_against_the_soak():
    p = Page()
    _, bo = _fight(p)
    odds = p.t.board["damage"]["odds"][bo]
    assert odds["ok"]
    assert odds["text"].startswith("4 dice [0] against soak 1: mean 1.2 lethal levels")
    assert odds["levels"].startswith("Levels: 0: ")
    p.tap("damage_form", dice="x")
    assert p.t.board["damage"]["odds"][bo]["text"] == "Damage dice: a whole number from 0 to 60."
    assert p.tap("roll_damage", target=bo, dice="x")["message"] == (
        "Damage dice: a whole number from 0 to 60."
    )
    before = next(r for r in p.t.board["rows"] if r["key"] == bo)
    form = {"dice": "4", "adds": "1", "damage_type": "lethal", "tags": "", "extra": "0"}
    b = p.tap("roll_damage", target=bo, **form)
    roll = next(line for line in b["log"] if "rolls damage (seed" in line)
    levels = sum(1 for f in _faces(_seed(roll), 3) if f >= 7) + 1  # + the add
    row = next(r for r in b["rows"] if r["key"] == bo)
    assert [x["filled"] for x in row["track"]].count("lethal") == levels
    assert p.tap("undo")["rows"][1] == before


def test_a_rolled_hit_fills_in_its_extra_successes():
    p = Page()
    _, bo = _fight(p)
    for _ in range(30):  # (until a hit: Bo's Defense 2 on top of the base 1 = 3)
        b = p.tap("roll_attack", target=bo, pool="9", difficulty="1", bashing="0",
                  lethal="0", aggravated="0", stun="0")  # fmt: skip
        seed = _seed(b["message"])
        successes = sum(1 for f in _faces(seed, 9) if f >= 7)
        if successes >= 3:
            assert b["damage"]["form"]["extra"] == str(successes - 3)
            return
        p.tap("undo")
    pytest.fail("no hit in 30 rolls of 9 dice at difficulty 3")


def _blast_fight() -> ChimeraTaps:
    p = ChimeraTaps()
    p.tap("new", ruleset="chimera")
    cy = {**CHIEF, "name": "Cy", "leader": False, "weapon": "blast", "blast_tn": "12",
          "damage": "d6"}  # fmt: skip
    for who in (ANA, cy, BANDIT):
        p.tap("add_fighter", **who)
    p.round({"Ana": ("0", "2"), "Cy": ("0", "12"), "Bandit": ("0", "5")})
    return p


def test_a_blast_typed_and_rolled_at_everyone_in_its_area():
    p = _blast_fight()
    acting = p.t.board["chimera"]["acting"]
    assert acting["blast"]
    assert acting["name"] == "Cy"
    ana = next(t for t in acting["targets"] if t["name"] == "Ana")
    # Ana resists on d20 + 0 ≥ 12 (natural 12 to 20): reached 11/20
    assert ana["text"].startswith("the blast reaches him: 55.00 %")
    bad = p.tap("blast", area=[p.key("Ana")], taken={p.key("Ana"): "x"})
    assert bad["message"] == "Damage to Ana (0 if avoided): a whole number from 0 to 200."
    assert p.tap("blast", area=[], taken={})["message"] == (
        "The blast's area: tick at least one fighter in it."
    )
    before = p.row("Ana")
    p.tap("blast", area=[p.key("Ana")], taken={p.key("Ana"): "5"})
    assert p.row("Ana")["health"] == "1 of WL 3 wounds, WP −1"  # 5 − Defence 2 = 3
    p.tap("undo")
    assert p.row("Ana") == before
    b = p.tap("blast", area=[p.key("Ana"), p.key("Bandit")], result="roll")
    rng = Random(_seed(b["message"]))
    damage, wounds = None, {}
    for name, defence in (("Ana", 2), ("Bandit", 1)):  # Resistance +0, no cover
        natural = rng.randint(1, 20)
        if natural >= 12:
            wounds[name] = 0
            continue
        damage = damage if damage is not None else rng.randint(1, 6)
        wounds[name] = 1 if damage - defence > 0 else 0
    for name, wl in (("Ana", 3), ("Bandit", 2)):
        want = f"1 of WL {wl} wounds" if wounds[name] else "Unwounded"
        assert p.row(name)["health"].startswith(want)
