"""The readings a fight is played under, changed by the GM as a step
(ruleslab.encounter.readings), each applied to the steps that follow.

By hand (rules notes RN-TRACK-1, RN-TRACK-2, RN-CHIM-9): under "this_turn", Dazed from
levels taken in turn 1 is gone when turn 1 ends; under "each_turn", the order is cleared
at the turn's end; Chimera's "simultaneous" ties (Tomas 6 + 1 and Bandit two 7 tie at 7)
act at once instead of rolling again.
"""

from __future__ import annotations

import pytest
from encounter_fights import fight_20, fight_21, fight_chimera
from test_encounter_chimera import ROUND_1_FACES, ROUND_1_IMS

from ruleslab.encounter import aberrant as ab
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.attack_inputs import attack_inputs
from ruleslab.encounter.damage_roll import damage_setup, weapon_of
from ruleslab.encounter.history import record, redo, start, undo
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.readings import (
    ABERRANT_READINGS,
    chimera_readings,
    readings_of,
    set_reading,
)
from ruleslab.encounter.serial import from_dict, to_dict


def test_the_daze_reading_changed_mid_fight_governs_what_follows():
    enc = ab.roll_initiative(fight_20(), {"cara": 6, "brute": 7}).encounter
    assert readings_of(enc) == {
        "daze_lasts": "next_turn",
        "initiative": "scene",
        "extra_successes": "die",
        "burst_damage": "adds",
    }
    change = set_reading(enc, "daze_lasts", "this_turn")
    assert change.lines[0].text == (
        "Reading changed: Dazed or Stunned lasts: “Until the end of the turn in which he took "
        "the damage”, no longer “Through the next turn (his next actions), then gone” (the "
        "GM's choice; rules notes RN-TRACK-2)"
    )
    enc = ab.apply_damage(change.encounter, "brute", ab.Damage(bashing=2)).encounter
    assert ab.find(enc, "brute").daze == "dazed"
    assert ab.find(ab.end_turn(enc).encounter, "brute").daze == "none"


def test_initiative_each_turn_chosen_mid_fight_clears_the_order_at_the_turns_end():
    enc = ab.set_initiative(fight_21(), {"ana": 3, "ben": 9, "kessler": 5, "goons": 1}).encounter
    kept = ab.end_turn(enc).encounter
    assert kept.order == ("ben", "kessler", "ana", "goons")
    enc = set_reading(enc, "initiative", "each_turn").encounter
    assert readings_of(enc)["initiative"] == "each_turn"
    assert ab.end_turn(enc).encounter.order == ()


def test_a_chimera_reading_changed_before_the_round():
    enc = fight_chimera()
    with pytest.raises(EncounterError, match="tie at 7"):
        ch.start_round(enc, ROUND_1_IMS, ROUND_1_FACES)
    enc = set_reading(enc, "ties", "simultaneous").encounter
    assert enc.rules.ties == "simultaneous"
    change = ch.start_round(enc, ROUND_1_IMS, ROUND_1_FACES)
    assert any("act at once" in s.text for s in change.lines)


def test_a_reading_is_undone_like_any_step():
    enc = fight_chimera()
    h = record(start(enc), set_reading(enc, "blast_resisted", "halves"))
    assert h.present.rules.blast_resisted == "halves"
    assert undo(h).present.rules.blast_resisted == "avoids"
    assert redo(undo(h)).present.rules.blast_resisted == "halves"


def test_bad_readings_are_refused_by_their_label():
    with pytest.raises(EncounterError) as e:
        set_reading(fight_20(), "daze_lasts", "forever")
    assert e.value.field == "daze_lasts"
    assert e.value.message.startswith("Dazed or Stunned lasts: one of Through the next turn")
    with pytest.raises(EncounterError, match="already"):
        set_reading(fight_20(), "daze_lasts", "next_turn")
    with pytest.raises(EncounterError) as e:
        set_reading(fight_20(), "ties", "simultaneous")  # (a Chimera reading)
    assert e.value.field == "reading"
    over = ab.end_scene(fight_20()).encounter
    with pytest.raises(EncounterError, match="scene is over"):
        set_reading(over, "daze_lasts", "this_turn")


def test_every_reading_offered_has_its_default_among_its_choices():
    assert {r.name for r in ABERRANT_READINGS} == set(readings_of(fight_20()))
    chim = readings_of(fight_chimera())
    assert [r.name for r in chimera_readings()] == list(chim)
    for r in (*ABERRANT_READINGS, *chimera_readings()):
        assert len(r.choices) >= 2
    for r in chimera_readings():
        assert chim[r.name] in dict(r.choices)


def test_each_chimera_readings_note_is_the_one_its_calculator_option_cites():
    from ruleslab.calculators.chimera import RULES_OPTIONS

    cited = {p.name: p.help for p in RULES_OPTIONS}
    for r in chimera_readings():
        assert r.note in cited[r.name], r.name
        assert r.label == next(p.label for p in RULES_OPTIONS if p.name == r.name)


@pytest.mark.parametrize(
    ("extra", "burst_damage", "dice", "adds"),
    [("die", "adds", 6 + 0, 1 + 2), ("add", "adds", 4, 1 + 2 + 2), ("none", "adds", 4, 1 + 2),
     ("die", "dice", 6 + 2, 1), ("add", "dice", 4 + 2, 1 + 2)],
)  # fmt: skip
def test_the_damage_readings_reach_roll_damage(extra, burst_damage, dice, adds):
    """A 4 [1] weapon, 2 extra successes, a medium burst fired for its "+[2] Damage":
    RN-RANGED-3 (each extra success a die, an add or nothing) and RN-RANGED-1 (the burst's
    [2] as adds or as dice)."""
    enc = ab.set_initiative(fight_21(), {"ana": 3, "ben": 9, "kessler": 5, "goons": 1}).encounter
    enc = set_reading(enc, "extra_successes", extra).encounter if extra != "die" else enc
    if burst_damage != "adds":
        enc = set_reading(enc, "burst_damage", burst_damage).encounter
    gun = weapon_of(damage_dice=4, damage_adds=1, damage_type="lethal")
    setup = damage_setup(enc, "ben", "kessler", gun, extra=2, burst="medium")
    assert (setup.dice, setup.adds) == (dice, adds)
    inputs = attack_inputs(enc, "ben", "kessler")
    assert (inputs["extra_successes"], inputs["burst_damage"]) == (extra, burst_damage)


def test_the_damage_readings_are_kept_and_old_records_read_the_defaults():
    enc = set_reading(fight_21(), "extra_successes", "add").encounter
    assert from_dict(to_dict(enc)).extra_successes == "add"
    old = {
        k: v for k, v in to_dict(fight_21()).items() if k not in ("extra_successes", "burst_damage")
    }
    back = from_dict(old)
    assert (back.extra_successes, back.burst_damage) == ("die", "adds")
    with pytest.raises(EncounterError, match="extra_successes"):
        from_dict({**to_dict(fight_21()), "extra_successes": "lots"})
