"""The board (the fight at a glance, the players' view) and the Python/notebook tracker."""

from __future__ import annotations

import pytest
from encounter_fights import ANA, BEN, fight_chimera

from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.board import HIDDEN_NAME, board, board_html, board_text
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.tracker import Tracker


def _fight() -> ab.Encounter:
    enc = ab.new_encounter(
        "2.1",
        [
            ab.combatant("ana", "Ana", ANA),
            ab.combatant("ben", "Ben", BEN),
            ab.quick_foe("spy", "The <b>Spy</b>", hidden=True),
        ],
    )
    return ab.set_initiative(enc, {"ana": 12, "ben": 10, "spy": 14}).encounter


def test_the_board_says_when_each_condition_ends():
    enc = _fight()
    # The spy (Sta 2) puts 4 levels on Ana (Dazed at 2 × 2) and 3 stun on Ben, whose stun
    # heals 1 level per (10 − (4 + 2 × 2)) = 2 turns.
    enc = ab.resolve_attack(enc, "spy", "ana", hit=True, damage=Damage(lethal=4)).encounter
    enc = ab.apply_damage(enc, "ben", Damage(stun=3)).encounter
    rows = {r.key: r for r in board(enc)}
    assert [r.key for r in board(enc)] == ["spy", "ana", "ben"]
    assert rows["spy"].acting
    # Ana: 4 levels, −⌊4/2⌋ = −2; her Defense worn to 0 by one attack.
    assert rows["ana"].health == "Hurt, −2"
    assert "Dazed: +1 (ends with turn 2)" in rows["ana"].chips
    assert "Defense +0 (back at the turn's end)" in rows["ana"].chips
    assert "3 stun: 1 heals in 2 turns, all at the scene's end" in rows["ben"].chips
    enc = ab.end_turn(enc).encounter
    ben = next(r for r in board(enc) if r.key == "ben")
    assert "3 stun: 1 heals in 1 turn, all at the scene's end" in ben.chips


def test_the_players_view_hides_what_the_gm_hides_and_html_is_escaped():
    enc = _fight()
    players = board(enc, player_view=True)
    assert players[0].name == HIDDEN_NAME
    assert players[0].health == "—"
    assert players[0].chips == ()
    assert "Spy" not in board_text(enc, player_view=True)
    html = board_html(enc)
    assert "<b>Spy</b>" not in html
    assert "The &lt;b&gt;Spy&lt;/b&gt;" in html


def test_the_chimera_board():
    enc = ch.start_round(
        fight_chimera(), {}, {"vera": 12, "tomas": 1, "chief": 2, "bandit": 3, "bandit2": 4}
    ).encounter
    enc = ch.resolve_attack(enc, "vera", "bandit2", hit=True, damage_roll=2).encounter
    rows = {r.key: r for r in board(enc)}
    assert rows["bandit2"].health == "1 of WL 2 wounds, WP −1"
    assert any(c.startswith("Morale check due") for c in rows["bandit2"].chips)
    assert "Full action taken (this round)" in rows["vera"].chips
    assert "Round 1" in board_text(enc)


def test_the_tracker_steps_undoes_redoes_and_saves():
    t = Tracker(_fight())
    lines = t.do(ab.resolve_attack, "spy", "ana", hit=True, damage=Damage(bashing=2))
    assert any("takes 2 bashing" in s.text for s in lines)
    after = t.encounter
    with pytest.raises(EncounterError):
        t.do(ab.declare, "ana", 11)
    assert t.encounter is after  # a refused step changes nothing
    t.undo()
    assert ab.find(t.encounter, "ana").damage == Damage()
    t.redo()
    assert t.encounter is after
    copy = Tracker.load(t.save())
    assert copy.encounter == after
    assert "takes 2 bashing" in copy.log()
    assert "Ana" in str(t)
    assert "<table" in t._repr_html_()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("[" * 100_000, "nested too deeply"),  # (json.loads would overflow Pyodide's stack)
        ("[" * 16 + "]" * 16, "not an encounter|not a ruleslab encounter|must be"),
        ('{"format": "ruleslab-party"}', "not a ruleslab encounter"),
        (None, "JSON text"),
    ],
)
def test_the_tracker_refuses_unreadable_saved_text(text, message):
    with pytest.raises(EncounterError, match=message):
        Tracker.load(text)
