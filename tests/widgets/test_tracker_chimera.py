"""The tracker page's Chimera fights (ruleslab_widgets.tracker_chimera), driven by the
messages the page sends. Expectations are worked by hand from the Chimera combat text
(/work/shared/rules/chimera-combat.txt):

- initiative: "rolls 1d12 … adjust the roll by the chosen action's Initiative Modifier",
  less the Wound Penalty ("–1 to all rolls" per wound); highest first;
- a wound: "severity equal to the damage roll minus his Defence"; vanquished when the
  wounds or one wound's severity exceed the Wound Limit;
- morale: "When a combatant's Wound Penalty is half his WL, his leader falls, or his
  allies suffer more than 50% casualties"; a Resistance Roll (d20 + Resistance − WP)
  against his Morale TN; player characters never check;
- Killer Blow: a classed foe Resists against TN 12; success: Unconscious with a Flaw.
The page itself: tests/browser/test_tracker_chimera.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.chimera.attack import Fighter
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.share import shared_encounter
from ruleslab.party import Party, entry_json
from tests.widgets.test_tracker_page import Page as TrackerTaps

ANA = {"name": "Ana", "side": "party", "mr": "10", "defence": "2", "wound_limit": "3",
       "attack": "3", "damage": "d8", "weapon": "shoot", "morale_tn": "10", "resist": "0",
       "character": "pc"}  # fmt: skip
CHIEF = {**ANA, "name": "Chief", "side": "foes", "mr": "8", "defence": "1",
         "wound_limit": "2", "attack": "2", "damage": "d6", "weapon": "fight", "character": "npc",
         "leader": True}  # fmt: skip
BANDIT = {**CHIEF, "name": "Bandit", "leader": False}


class Page(TrackerTaps):
    """The tracker driven as in test_tracker_page, and its rows by name."""

    def row(self, name: str) -> dict[str, Any]:
        return next(r for r in self.t.board["rows"] if r["name"] == name)

    def key(self, name: str) -> str:
        return str(self.row(name)["key"])

    def round(self, each: dict[str, tuple[str, str]]) -> dict[str, Any]:
        """The round started with each one's (IM, d12) typed, by name."""
        ims = {self.key(n): im for n, (im, _) in each.items()}
        return self.tap(
            "start_round", ims=ims, faces={self.key(n): d for n, (_, d) in each.items()}
        )


def _fight() -> Page:
    p = Page()
    b = p.tap("new", ruleset="chimera")
    assert b["message"] == "A new Chimera encounter: add its combatants."
    assert b["chimera"]["phase"] == "setup"
    for who in (ANA, CHIEF, BANDIT):
        p.tap("add_fighter", **who)
    return p


def test_every_field_is_checked_with_its_name_and_values():
    p = _fight()
    bad = {
        "mr": ("x", "MR: a whole number from 1 to 40."),
        "defence": ("-1", "Defence: a whole number from 0 to 20."),
        "wound_limit": ("0", "Wound Limit: a whole number from 1 to 20."),
        "attack": ("+30", "Attack bonus: a whole number from -10 to 20."),
        "side": ("enemies", "Side: one of party, foes."),
        "weapon": ("blast!", "Attack: one of fight, shoot, blast."),
        "character": ("god", "Character: one of npc, classed, pc."),
        "name": ("  ", "Fighter's name: 1 to 60 characters."),
        "damage": ("zz", "Weapon damage: 'zz' is not a dice expression like d8, 2d6 or d6+1."),
    }
    for field, (value, message) in bad.items():
        assert p.tap("add_fighter", **{**BANDIT, field: value})["message"] == message
    assert len(p.t.board["rows"]) == 3  # (none of them joined)
    ims = {p.key("Ana"): "0", p.key("Chief"): "x", p.key("Bandit"): "0"}
    faces = {p.key("Ana"): "9", p.key("Chief"): "5", p.key("Bandit"): "7"}
    b = p.tap("start_round", ims=ims, faces=faces)
    assert b["message"] == "IM: Chief: a whole number from -10 to 10."
    b = p.tap("start_round", ims={**ims, p.key("Chief"): "1"}, faces={**faces, p.key("Ana"): "13"})
    assert b["message"] == "d12: Ana: a whole number from 1 to 12."
    # an Aberrant step in a Chimera fight: refused, not a traceback
    assert p.tap("declare", actions="2")["message"] == (
        "This is a Chimera fight: that step is Aberrant's."
    )
    # a name is kept as text (the page sets it with textContent)
    p.tap("add_fighter", **{**BANDIT, "name": "<b>Bob</b>"})
    assert p.row("<b>Bob</b>")["side"] == "foes"


def test_two_rounds_decision_by_decision_with_wounds_carried():
    p = _fight()
    ana, chief, bandit = p.key("Ana"), p.key("Chief"), p.key("Bandit")
    assert "Leads his side" in p.row("Chief")["chips"]
    # round 1: 9 + 0 = 9, 5 + 1 = 6, 7 + 0 = 7 -> Ana, Bandit, Chief
    b = p.round({"Ana": ("0", "9"), "Chief": ("+1", "5"), "Bandit": ("0", "7")})
    assert [(r["name"], r["initiative"]) for r in b["rows"]] == [
        ("Ana", 9),
        ("Bandit", 7),
        ("Chief", 6),
    ]
    assert b["when"] == "Round 1: Ana's turn"
    # Ana shoots the Bandit: TN = his MR 8, her roll +3: a d20 of 5 or more, 16 in 20
    odds = next(t for t in b["chimera"]["acting"]["targets"] if t["key"] == bandit)
    assert odds["text"].startswith("TN 8, roll +3: hit 80")
    # damage 3 − Defence 1 = a wound of severity 2 (not over WL 2): WP 1 = half WL 2
    b = p.tap("attack", target=bandit, result="hit", damage="3")
    assert p.row("Bandit")["health"] == "1 of WL 2 wounds, WP −1"
    assert b["chimera"]["morale"][0]["name"] == "Bandit"
    assert b["chimera"]["morale"][0]["text"] == "d20 -1 vs Morale TN 10"
    # his morale: d20 12 − 1 = 11 ≥ 10: he stays
    b = p.tap("morale", key=bandit, natural="12")
    assert b["chimera"]["morale"] == []
    p.tap("next")
    assert p.t.board["when"] == "Round 1: Bandit's turn"
    p.tap("attack", target=ana, result="miss")
    p.tap("next")
    # Chief: damage 5 − Defence 2 = 3, not over WL 3: Ana 1 wound; a PC checks no morale
    b = p.tap("attack", target=ana, result="hit", damage="5")
    assert p.row("Ana")["health"] == "1 of WL 3 wounds, WP −1"
    assert b["chimera"]["morale"] == []
    b = p.tap("next")  # (the last turn: the round is over)
    assert b["chimera"]["phase"] == "initiative"
    assert b["when"] == "Round 2: choose the actions, roll initiative"
    # round 2: Ana 6 − WP 1 = 5, Chief 4, Bandit 8 − WP 1 = 7 -> Bandit, Ana, Chief
    b = p.round({"Ana": ("0", "6"), "Chief": ("0", "4"), "Bandit": ("0", "8")})
    assert [(r["name"], r["initiative"]) for r in b["rows"]] == [
        ("Bandit", 7),
        ("Ana", 5),
        ("Chief", 4),
    ]
    p.tap("attack", target=ana, result="miss")
    p.tap("next")
    before = p.t.board["rows"]
    # Ana: damage 8 − 1 = severity 7 > WL 2: the Chief is vanquished; the leader fell
    # and the Bandit's one ally is down (more than 50 %): his morale check
    b = p.tap("attack", target=chief, result="hit", damage="8")
    assert "Vanquished: the victor chooses his fate" in p.row("Chief")["chips"]
    assert b["chimera"]["vanquished"] == [
        {"key": chief, "name": "Chief", "by": "Ana", "classed": False}
    ]
    why = b["chimera"]["morale"][0]["why"]
    assert "his leader has fallen" in why
    assert "more than 50 % casualties" in why
    # undo restores the same rows; redo the step again
    assert p.tap("undo")["rows"] == before
    assert p.tap("redo")["chimera"]["vanquished"][0]["name"] == "Chief"
    # the Bandit: d20 5 − 1 = 4 < 10: he surrenders
    p.tap("morale", key=bandit, natural="5")
    assert p.row("Bandit")["chips"][0] == "Failed his morale check: surrendered or retreated"
    assert p.tap("fate", key=chief, fate="nonsense")["message"] == (
        "Fate of Chief: one of capture, driven_off, killer_blow, unconscious."
    )
    p.tap("fate", key=chief, fate="capture")
    assert p.row("Chief")["chips"][0] == "Captured: bound, −4 to all rolls and MR"
    # the fight over: Ana skipped the cool-down (a Fatigue roll), and she shot (an Ammo Check)
    b = p.tap("end_fight", cool_down={ana: False})
    assert b["chimera"]["phase"] == "over"
    after = b["chimera"]["after"]
    assert len(after) == 2
    assert after[0].startswith("Ana skips the 1 full turn (10 minutes")
    assert "Resistance Roll against Fatigue" in after[0]
    assert after[1] == "Ana engaged in ranged combat: an Ammo Check now"


def test_killer_blow_resisted_by_a_classed_foe_and_the_site_rolls():
    p = Page()
    p.tap("new", ruleset="chimera")
    p.tap("add_fighter", **ANA)
    p.tap("add_fighter", **{**CHIEF, "character": "classed", "resist": "2", "leader": False})
    ana, chief = p.key("Ana"), p.key("Chief")
    b = p.tap("start_round", ims={}, faces="roll")
    assert {r["initiative"] is not None for r in b["rows"]} == {True}
    if b["chimera"]["acting"]["key"] != ana:
        p.tap("attack", target=ana, result="miss")
        p.tap("next")
    p.tap("attack", target=chief, result="hit", damage="9")
    assert p.t.board["chimera"]["vanquished"][0]["classed"]
    # he Resists the Killer Blow: d20 11 + 2 − WP 1 = 12 vs TN 12: Unconscious, a Flaw
    b = p.tap("fate", key=chief, fate="killer_blow", natural="11")
    chips = p.row("Chief")["chips"]
    assert chips[0] == "Unconscious"
    assert "A random permanent Flaw" in chips
    assert b["log"][0].startswith("Chief Resists the Killer Blow: d20 11 +1 = 12 vs TN 12")
    # a coup de grâce (a free action of the acting Ana): he Resists it, d20 5 + 1 = 6 < 12
    b = p.tap("coup", key=chief, natural="")
    assert b["message"] == (
        "Chief is classed: he Resists the coup de grâce; give his d20 (1 to 20)."
    )
    p.tap("coup", key=chief, natural="5")
    assert p.row("Chief")["chips"][0] == "Dead (Killer Blow)"
    p.tap("undo")
    # the site's dice: a rolled attack gives a hit or a miss, and says the roll
    p.tap("undo")
    p.tap("undo")
    b = p.tap("attack", target=chief, result="roll")
    assert "(rolled by the site)" in b["message"]


def test_stored_shared_and_party_fighters():
    party = Party().add("Kira", Fighter("Kira", mr=12, defence=2, wound_limit=4))
    entry = party.entries[0]
    p = Page(party=[{"id": entry.id, "text": entry_json(entry)}])
    p.tap("new", ruleset="chimera")
    assert [f["name"] for f in p.t.board["chimera"]["fighters"]] == ["Kira"]
    assert p.t.board["party"] == []  # (the Aberrant party: no fighter there)
    p.tap("add_party", id=entry.id, side="party")
    p.tap("add_fighter", **BANDIT)
    assert [r["name"] for r in p.t.board["rows"]] == ["Kira", "Bandit"]
    writes = [m for m in p.sent if m.get("type") == "write"]
    op = writes[-1]["ops"][0]
    assert json.loads(op["text"])["ruleset"] == "chimera"
    # another page reads it back: the same rows, undo kept
    q = Page([{"id": op["id"], "rev": 3, "created": 1.0, "text": op["text"]}])
    assert q.t.board["rows"] == p.t.board["rows"]
    assert q.t.board["can_undo"]
    # a link holding a Chimera fight opens as one
    enc = ch.new_chimera([ch.fighter("a", Fighter("Ana")), ch.fighter("b", Fighter("Bo"), "foes")])
    b = q.tap("shared", text=shared_encounter(enc))
    assert b["name"] == "Shared encounter (Chimera)"
    assert [r["name"] for r in b["rows"]] == ["Ana", "Bo"]
    # the players' view leaves out what the GM hides
    b = q.tap("hide", key="b")
    assert [r["name"] for r in b["players"]["rows"]] == ["Ana", "Unknown foe"]
    # export and import
    q.tap("export")
    text = next(m for m in q.sent if m.get("type") == "download")["text"]
    b = q.tap("import", text=text)
    assert b["chimera"] is not None
    assert [r["name"] for r in b["rows"]] == ["Ana", "Bo"]


def test_the_encounter_open_last_is_opened_again():
    p = Page()
    p.tap("new", ruleset="chimera")
    p.tap("add_fighter", **ANA)
    texts = {}
    for m in p.sent:
        if m.get("type") == "write":
            for op in m["ops"]:
                texts[op["id"]] = op["text"]
    assert len(texts) == 2  # (the empty 2.1 one opened first, and the Chimera fight)
    chimera = p.t.current
    records = [{"id": k, "rev": 1, "created": 1.0, "text": v} for k, v in texts.items()]
    q = Page(records, current=chimera)  # (a reload: the one open last is opened)
    assert q.t.board["current"] == chimera
    assert [r["name"] for r in q.t.board["rows"]] == ["Ana"]


def test_a_surprise_round_before_round_1():
    p = _fight()
    ana = p.key("Ana")
    bad = p.tap("surprise", key=ana, bonus="2", tn="99", benefit="action", natural="12")
    assert bad["message"] == "Surprise TN: a whole number from 1 to 40."
    # Ana's Sneak: d20 12 + 2 = 14 vs Surprise TN 10: a success; a full action before
    # her foes respond (a surprise round in which only she acts, RN-CHIM-11)
    b = p.tap("surprise", key=ana, bonus="2", tn="10", benefit="action", natural="12")
    assert b["when"] == "The surprise round: Ana's turn"
    p.tap("attack", target=p.key("Bandit"), result="miss")
    b = p.tap("next")
    assert b["when"] == "Round 1: choose the actions, roll initiative"


def test_the_fights_readings_are_chosen_on_the_page():
    """RN-CHIM-7: "The text does not say what a successful Resistance Roll does": avoids
    by default; the GM may choose "halves" for his table, and undo it."""
    p = _fight()
    readings = {r["name"]: r for r in p.t.board["readings"]}
    assert len(readings) == 14
    assert readings["blast_resisted"]["label"] == "Resisting a blast"
    assert readings["blast_resisted"]["value"] == "avoids"
    b = p.tap("reading", name="blast_resisted", value="halves")
    assert b["message"] == (
        "Reading changed: Resisting a blast: “Halves its damage (rounded down)”, no longer "
        "“Avoids it: no damage” (the GM's choice; rules notes RN-CHIM-7)"
    )
    assert {r["name"]: r["value"] for r in b["readings"]}["blast_resisted"] == "halves"
    assert {r["name"]: r["value"] for r in p.tap("undo")["readings"]}["blast_resisted"] == (
        "avoids"
    )
