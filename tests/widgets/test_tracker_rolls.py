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


def _armed(p: Page, rounds: str = "30") -> tuple[str, str]:
    """Ana (30 rounds) at 12 and Bo (rounds not counted) at 5: their keys."""
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3", rounds=rounds)
    b = p.tap("add_foe", name="Bo", dexterity="4", wits="5", stamina="2", rounds="")
    ana, bo = (r["key"] for r in b["rows"])
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    p.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Bo"]: "5"})
    return ana, bo


def _row(b: dict, key: str) -> dict:
    return next(r for r in b["rows"] if r["key"] == key)


NO_LEVELS = {"bashing": "0", "lethal": "0", "aggravated": "0", "stun": "0"}


def test_the_rounds_each_attack_fires_are_counted_down_on_the_page():
    """Autofire: "Short Bursts … 3 shots", "Medium Bursts … 10 shots": 30 - 1 - 3 - 10 = 16
    after a single shot, a short and a medium burst; a miss fires them too."""
    p = Page()
    ana, bo = _armed(p)
    b = p.t.board
    assert (_row(b, ana)["ammo"], _row(b, bo)["ammo"], b["acting"]["ammo"]) == (30, None, 30)
    assert "30 rounds left" in _row(b, ana)["chips"]
    assert not any("rounds left" in chip for chip in _row(b, bo)["chips"])
    p.tap("declare", actions="3", active_defence=False, sprinting=False)
    b = p.tap("attack", target=bo, hit=False, fires="1", **NO_LEVELS)
    assert _row(b, ana)["ammo"] == 29
    b = p.tap("attack", target=bo, hit=False, fires="short", burst_use="accuracy", **NO_LEVELS)
    assert _row(b, ana)["ammo"] == 26
    b = p.tap("attack", target=bo, hit=True, fires="medium", burst_use="damage", **NO_LEVELS)
    assert _row(b, ana)["ammo"] == 16
    assert "16 rounds left" in _row(b, ana)["chips"]
    # the hit was fired for its Damage: the damage form takes the medium burst's +[2]
    assert b["damage"]["form"]["burst"] == "medium"
    assert b["damage"]["odds"][bo]["text"].startswith("4 dice [2] against soak 1")
    # undo gives the rounds back
    assert _row(p.tap("undo"), ana)["ammo"] == 26


def test_more_rounds_than_are_left_and_bad_fields_are_refused_by_name():
    p = Page()
    ana, bo = _armed(p, rounds="5")
    b = p.tap("attack", target=bo, hit=True, fires="medium", burst_use="accuracy", **NO_LEVELS)
    assert b["message"] == "Ana has 5 rounds left, not 10."
    assert _row(b, ana)["ammo"] == 5
    assert b["acting"]["acted"] == 0
    assert (
        p.tap("attack", target=bo, hit=True, fires="rounds", rounds="x", **NO_LEVELS)["message"]
        == "Rounds fired: a whole number from 1 to 1000."
    )
    assert (
        p.tap("attack", target=bo, hit=True, fires="short", burst_use="x", **NO_LEVELS)["message"]
        == "Burst's bonus: one of accuracy, damage."
    )
    assert p.tap("attack", target=bo, hit=True, fires="<b>", **NO_LEVELS)["message"].startswith(
        "Fires: one of No ammunition"
    )
    assert (
        p.tap("add_foe", name="Cy", dexterity="2", wits="2", stamina="2", rounds="-3")["message"]
        == "Rounds: empty (not counted) or 0 to 100000."
    )
    b = p.tap("attack", target=bo, hit=False, fires="rounds", rounds="4", **NO_LEVELS)
    assert _row(b, ana)["ammo"] == 1


def test_load_sets_the_rounds_or_stops_counting_them_and_is_undone():
    p = Page()
    ana, bo = _armed(p, rounds="")
    assert _row(p.t.board, ana)["ammo"] is None
    b = p.tap("load", key=bo, rounds="12")
    assert _row(b, bo)["ammo"] == 12
    assert b["message"] == "Bo reloads: 12 rounds"
    b = p.tap("load", key=bo, rounds="")
    assert _row(b, bo)["ammo"] is None
    assert p.tap("load", key=bo, rounds="many")["message"] == (
        "Rounds: empty (not counted) or 0 to 100000."
    )
    assert _row(p.tap("undo"), bo)["ammo"] == 12


def test_a_squad_carries_its_rounds_and_a_rolled_area_damage_multiplies_its_losses():
    """Henchmen › Damage Soak: a regular squad loses a henchman a point, and "All post-soak
    damage is doubled for area attacks": 5 dice [0] bashing against a natural soak of 0
    typed deal the dice at 7+, and twice that many henchmen fall."""
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3")
    b = p.tap("add_squad", name="Goons", henchmen="30", training="regular", pool="4",
              dexterity="2", wits="2", stamina="2", rounds="60")  # fmt: skip
    _, sq = (r["key"] for r in b["rows"])
    assert _row(b, sq)["ammo"] == 60
    assert _row(b, sq)["squad"] is True
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    p.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Goons"]: "5"})
    p.tap("damage_form", dice="5", adds="0", damage_type="bashing", natural="0", area="2")
    b = p.tap("roll_damage", target=sq)
    roll = next(line for line in b["log"] if "rolls damage (seed" in line)
    levels = sum(1 for f in _faces(_seed(roll), 5) if f >= 7)
    assert f"{30 - 2 * levels} henchmen screening him" in _row(b, sq)["chips"]
    assert p.tap("damage_form", area="5")["damage"]["odds"][sq]["ok"]  # (the odds: no area)
    assert p.tap("roll_damage", target=sq)["message"] == (
        "Area multiplier: a whole number from 1 to 4."
    )


def test_a_strafe_from_the_page_holds_one_result_against_each_target():
    """Strafing: +1 difficulty for the second target; Bo's Defense 2 (Dex 4, Wits 5), Cy's 1
    (Dex 2, Wits 2): 3 successes miss Bo (needs 1 + 1 + 2 = 4) and hit Cy (needs 3)."""
    p = Page()
    p.tap("add_foe", name="Ana", dexterity="4", wits="3", stamina="3", rounds="30")
    p.tap("add_foe", name="Bo", dexterity="4", wits="5", stamina="2")
    b = p.tap("add_foe", name="Cy", dexterity="2", wits="2", stamina="2")
    ana, bo, cy = (r["key"] for r in b["rows"])
    ids = {f["label"]: f["id"] for f in b["initiative_fields"]}
    p.tap("enter_initiative", totals={ids["Ana"]: "12", ids["Bo"]: "5", ids["Cy"]: "4"})
    fire = {"fires": "short", "burst_use": "damage", "difficulty": "1"}
    b = p.tap("strafe", target=bo, also=[cy], successes="3", **fire)
    log = b["log"]
    assert any(line.startswith("Bo: ") and "= 4: a miss —" in line for line in log)
    assert any(line.startswith("Cy: ") and "= 3: a hit, 0 extra —" in line for line in log)
    assert _row(b, ana)["ammo"] == 27
    assert b["damage"]["form"]["extra"] == "0"
    assert b["damage"]["form"]["burst"] == "short"
    p.tap("undo")
    assert p.tap("strafe", target=bo, also=[cy], successes="x", **fire)["message"] == (
        "Successes: a whole number from 0 to 60."
    )
    assert p.tap("strafe", target=bo, also="cy", successes="3", **fire)["message"] == (
        "Strafe also at: tick the other targets."
    )
    b = p.tap("strafe", target=bo, also=[cy], successes="3", fires="1", difficulty="1")
    assert b["message"].startswith("A strafe is an autofire or burst attack")
    # rolled by the site: one roll of 6 + 2 (the short burst's Accuracy) dice
    b = p.tap("roll_strafe", target=bo, also=[cy], pool="6", **{**fire, "burst_use": "accuracy"})
    roll = next(line for line in b["log"] if "rolls the strafe (seed" in line)
    successes = sum(1 for f in _faces(_seed(roll), 8) if f >= 7)
    assert "= 8 dice: " in roll
    cy_line = next(line for line in b["log"] if line.startswith("Cy: "))
    assert ("a hit" in cy_line) is (successes >= 3)
