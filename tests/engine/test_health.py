"""Health tracks (2.0 and 2.1), damage on the track and the state, from the text's numbers;
the Health & soak calculator (``ruleslab.calculators.health``) combining them with soak."""

from dataclasses import replace

import pytest

from ruleslab.calculators.health import CALCULATOR, health
from ruleslab.params import InputError
from ruleslab.quickref.health import (
    DYING,
    INCAP,
    NORMAL,
    fill,
    penalty_step_21,
    stun_recovery,
    stun_recovery_turns,
    track,
    track_20,
    track_21,
)

BASE = dict(
    ruleset="2.0",
    strength=2,
    mega_strength=0,
    stamina=2,
    mega_stamina=0,
    quantum=0,
    willpower=3,
    resistance=0,
    armour_levels=0,
    armour_bashing=0,
    armour_lethal=0,
    armour_aggravated=0,
    bashing=0,
    lethal=0,
    aggravated=0,
    stun=0,
)


def labels(levels):
    return [lv.label for lv in levels]


def test_20_base_track():
    # "-0 x 1/-1 x 2/-2 x 2/-4 x 1/Incap … Dying HLs equal to (Strength + Stamina)"
    levels, _ = track_20(strength=2, stamina=2)
    assert labels(levels) == ["−0", "−1", "−1", "−2", "−2", "−4", "Incap"] + ["Dying"] * 4


@pytest.mark.parametrize(
    ("stamina", "extra"),
    [
        (1, []),
        (3, ["Stamina 3"]),
        (4, ["Stamina 3"]),
        (5, ["Stamina 3", "Stamina 5"]),
        (11, ["Stamina 3", "Stamina 5", "Stamina 7", "Stamina 9", "Stamina 11"]),
    ],
)
def test_20_odd_stamina_points(stamina, extra):
    levels, _ = track_20(strength=0, stamina=stamina)
    assert sorted(lv.source for lv in levels if lv.source.startswith("Stamina ")) == sorted(extra)


def test_20_stamina_cycle_text_numbers():
    # "Sta 3 gets a -0 HL, Sta 5 gets a -1 HL, Sta 7 gets a -2 HL, Sta 9 grants a -4 HL,
    #  Sta 11 grants another -0"
    levels, _ = track_20(strength=0, stamina=11)
    got = {lv.source: lv.penalty for lv in levels if lv.source.startswith("Stamina ")}
    assert got == {"Stamina 3": 0, "Stamina 5": 1, "Stamina 7": 2, "Stamina 9": 4, "Stamina 11": 0}


def test_20_mega_stamina_quantum_armour():
    levels, steps = track_20(strength=1, stamina=1, mega_stamina=1, quantum=2, armour_levels=1)
    assert labels(levels) == (
        ["−0"] * 5 + ["−1"] * 3 + ["−2"] * 3 + ["−4"] * 2 + ["Incap"] * 2 + ["Dying"] * 2
    )
    assert levels[0].source == "armour"
    text = "\n".join(str(s) for s in steps)
    assert "rather than adding +2 to Stamina" in text
    assert "Mega-Attributes rule is accounted for separately" in text


def test_20_dying_mega_options():
    plain, _ = track_20(strength=2, stamina=3, mega_stamina=1)
    assert sum(lv.kind == DYING for lv in plain) == 5  # Str 2 + Sta 3, M-Sta not counted
    both, steps = track_20(
        strength=2, mega_strength=1, stamina=3, mega_stamina=1, mega_stamina_elsewhere=True
    )
    assert sum(lv.kind == DYING for lv in both) == 4 + 5
    assert (
        "Effective Strength for Dying levels = Strength 2 + 2 × Mega-Strength 1 = 4"
        in "\n".join(s.text for s in steps)
    )


@pytest.mark.parametrize(
    ("stamina", "resistance", "step"), [(2, 0, 2), (3, 2, 3), (3, 3, 4), (1, 0, 1), (5, 4, 5)]
)
def test_21_penalty_step(stamina, resistance, step):
    # "(Stamina + Resistance)/2 + 1, (round down)"
    assert penalty_step_21(stamina, resistance) == step


def test_21_track_by_hand():
    # W 3 + Sta 2 × 2 + M-Sta 0 + Q 0 = 7 levels; step ⌊2/2⌋+1 = 2; Incap 2; Dying (2+2)×2 = 8.
    levels, _ = track_21(strength=2, stamina=2, willpower=3, resistance=0)
    assert [lv.penalty for lv in levels if lv.kind == NORMAL] == [0, 1, 1, 2, 2, 3, 3]
    assert sum(lv.kind == INCAP for lv in levels) == 2
    assert sum(lv.kind == DYING for lv in levels) == 8


def test_21_mega_stamina_quantum():
    args = dict(strength=1, stamina=2, mega_stamina=1, quantum=2, willpower=4, resistance=1)
    levels, steps = track_21(**args)
    assert sum(lv.kind == NORMAL for lv in levels) == 4 + 4 + 6 + 2
    assert sum(lv.kind == INCAP for lv in levels) == 2  # Stamina, M-Sta not counted (default)
    assert "accounted for separately by its × 6" in "\n".join(s.text for s in steps)
    more, _ = track_21(**args, mega_stamina_elsewhere=True)
    assert sum(lv.kind == INCAP for lv in more) == 4
    assert sum(lv.kind == DYING for lv in more) == (1 + 4) * 2


def test_track_by_ruleset():
    args = dict(strength=2, stamina=2, willpower=3, resistance=0)
    assert track("2.0", **args) == track_20(strength=2, stamina=2)
    levels, steps = track("2.1", **args)
    assert levels == track_21(**args)[0]
    assert steps[0].text == "2.1: Willpower and Resistance count; 2.0 ignores them"
    assert steps[1:] == track_21(**args)[1]


def test_fill_order_and_penalty():
    levels, _ = track_20(strength=2, stamina=2)
    f = fill(levels, bashing=1, lethal=2, aggravated=1)
    assert f.filled[:5] == ("aggravated", "lethal", "lethal", "bashing", None)
    assert f.state == "hurt"
    assert f.penalty == 2  # 4th box is a −2
    assert fill(levels).state == "unhurt"
    assert fill(levels).penalty == 0


def test_fill_incap_dying_dead():
    levels, _ = track_20(strength=2, stamina=2)  # 6 normal, 1 Incap, 4 Dying
    assert fill(levels, lethal=7).state == "incapacitated"
    assert fill(levels, lethal=7).penalty is None
    assert fill(levels, lethal=8).state == "dying"
    assert fill(levels, lethal=11).state == "dead"
    assert fill(levels, lethal=11, death_at="beyond").state == "dying"
    beyond = fill(levels, lethal=12, death_at="beyond")
    assert beyond.state == "dead"
    assert beyond.overflow == 1


def test_stun_never_fills_dying_and_knocks_out():
    levels, _ = track_20(strength=2, stamina=2)
    f = fill(levels, lethal=2, stun=10)
    assert f.filled[:7] == ("lethal", "lethal", "stun", "stun", "stun", "stun", "stun")
    assert f.filled[7:] == (None,) * 4
    assert f.stun_lost == 5
    assert f.state == "unconscious"
    assert fill(levels, stun=3).state == "hurt"
    # stun finds no room once other damage reached the Incap level
    g = fill(levels, bashing=8, stun=2)
    assert g.stun_lost == 2
    assert g.state == "dying"


def test_health_report_figures_20():
    r = health(**BASE | {"stamina": 3, "quantum": 1, "lethal": 4, "armour_lethal": 2})
    assert r.figure("total_levels").text == "14 (8 + 1 Incap + 5 Dying)"
    assert r.figure("wound_penalty").text == "−1"
    assert r.figure("state").text == "Hurt"
    # soak: B 1 + 3 = 4, L 1 + 1 + 2 armour = 4, A 0
    assert r.figure("soak").value == (4, 4, 0)
    assert r.figure("stun_recovery").text == "1 level per 7 turns"
    assert len(r.boxes()) == 14
    assert r.boxes()[0] == {"index": 0, "label": "−0", "kind": "normal", "filled": "lethal"}


def test_health_report_21_and_incap_penalty_text():
    r = health(**BASE | {"ruleset": "2.1", "lethal": 8})
    # 7 normal + 2 Incap + 8 Dying
    assert r.total_levels == 17
    assert r.state == "incapacitated"
    assert r.figure("wound_penalty").text == "— (Incapacitated)"


def test_stun_recovery_minimum_one():
    assert stun_recovery_turns(2) == 8
    assert stun_recovery_turns(10) == 1
    assert stun_recovery_turns(14) == 1
    r = health(**BASE | {"stamina": 4, "mega_stamina": 3})
    assert r.stun_turns == 1  # effective Stamina 4 + 6 = 10
    assert "Effective Stamina for stun healing" in r.explain()
    turns, steps = stun_recovery(3, 1)  # effective Stamina 3 + 2 = 5: 10 − 5
    assert turns == 5
    assert "Stun heals 1 level per (10 − Stamina 5) turns, minimum 1: 5" in steps[-1].text


def test_defaults_are_the_signature_s():
    # The form's first figures: Str 2, Sta 2, Willpower 3 under 2.1, no damage.
    assert CALCULATOR.defaults() == BASE | {
        "ruleset": "2.1",
        "scene_ended": False,
        "mega_stamina_elsewhere": False,
        "death_at": "last_dying",
        "soak_rounding": "down",
    }
    r = health()
    assert r.total_levels == 7 + 2 + 8  # W 3 + Sta 2 × 2; Incap 2; Dying (2 + 2) × 2
    assert r.state == "unhurt"


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("stamina", 0, "Stamina must be a whole number from 1 to 20"),
        ("lethal", -1, "Lethal damage taken must be a whole number from 0 to 500"),
        ("ruleset", "3.0", "Rules version must be one of"),
        ("quantum", 11, "Quantum must be a whole number from 0 to 10"),
        ("armour_aggravated", 51, "Armour soak vs aggravated must be a whole number from 0 to 50"),
        ("soak_rounding", "half", "Rounding of Stamina/2 and Quantum/2 in soak must be one of"),
    ],
)
def test_bad_input(field, value, words):
    with pytest.raises(InputError) as err:
        health(**BASE | {field: value})
    assert err.value.field == field
    assert words in err.value.message


# --- the character as a record, and the end of the scene (issue 19) --------------------
# 2.0 track of the defaults (Str 2, Sta 2, Quantum 0), by hand from "Characters start with
# -0 x 1/-1 x 2/-2 x 2/-4 x 1/Incap health levels, with Dying HLs equal to (Strength +
# Stamina)": boxes 0–5 are −0 −1 −1 −2 −2 −4, box 6 Incap, boxes 7–10 Dying (2 + 2 = 4).


def test_a_character_record_and_flat_fields_give_the_same_report():
    from ruleslab.character import Character, Conditions

    fields = dict(
        strength=4, mega_strength=1, stamina=5, mega_stamina=1, quantum=2, willpower=6, resistance=2
    )
    hero = Character(**fields)
    by_record = health(character=hero, conditions=Conditions(scene_ended=True), lethal=3, stun=4)
    by_fields = health(**fields, scene_ended=True, lethal=3, stun=4)
    assert by_record == by_fields
    # a flat field changes that one field of the record passed
    assert health(character=replace(hero, stamina=1), stamina=5) == health(character=hero)


def test_a_record_s_unread_defaults_are_the_record_s_not_the_form_s():
    # The form starts at Str 2, Sta 2, Quantum 0; Character() at Str 3, Sta 3, Quantum 1.
    from ruleslab.character import Character

    assert health(character=Character()) == health(strength=3, stamina=3, quantum=1)
    assert health() == health(strength=2, stamina=2, quantum=0)


def test_scene_end_clears_stun_from_a_hurt_character():
    # 1 bashing + 3 stun on the 2.0 track: B S S S fill boxes 0–3, the worst a −2 level.
    # After the scene: only B in box 0, a −0 level: −0, still hurt.
    before = health(**BASE | {"bashing": 1, "stun": 3})
    assert before.filled[:5] == ("bashing", "stun", "stun", "stun", None)
    assert (before.state, before.penalty) == ("hurt", 2)
    after = health(**BASE | {"bashing": 1, "stun": 3, "scene_ended": True})
    assert after.filled == ("bashing",) + (None,) * 10
    assert (after.state, after.penalty) == ("hurt", 0)
    assert after.figure("wound_penalty").text == "\u22120"
    texts = [s.text for s in after.steps]
    assert "The scene has ended: its 3 stun levels go away (rules note RN-COND-4)" in texts
    assert not any("scene has ended" in s.text for s in before.steps)
    # the track, soak and stun healing rate are the character's, not the damage's
    assert (after.total_levels, after.soak, after.stun_turns) == (
        before.total_levels,
        before.soak,
        before.stun_turns,
    )


def test_scene_end_wakes_a_character_knocked_out_by_stun():
    # 2 lethal + 5 stun: L L S S S S S fill boxes 0–6; box 6 is Incap, filled with stun:
    # "Filling a character's health levels with Stun damage knocks them unconscious."
    # After the scene: L L in boxes 0–1, the worst a −1 level: hurt at −1.
    before = health(**BASE | {"lethal": 2, "stun": 5})
    assert (before.state, before.penalty) == ("unconscious", None)
    after = health(**BASE | {"lethal": 2, "stun": 5, "scene_ended": True})
    assert after.filled == ("lethal", "lethal") + (None,) * 9
    assert (after.state, after.penalty) == ("hurt", 1)
    assert after.figure("state").text == "Hurt"


def test_scene_end_on_the_21_track_and_lost_stun():
    # 2.1, Willpower 3, Sta 2, Res 0: 3 + 2 × 2 = 7 levels, −1 per ⌊(2 + 0)/2⌋ + 1 = 2
    # levels of damage; then 2 Incap and (2 + 2) × 2 = 8 Dying: 17 boxes, 9 before Dying.
    v21 = BASE | {"ruleset": "2.1"}
    # 4 stun: the 4th level of damage is at −⌊4/2⌋ = −2. After the scene: unhurt, −0.
    before = health(**v21 | {"stun": 4})
    assert (before.state, before.penalty) == ("hurt", 2)
    after = health(**v21 | {"stun": 4, "scene_ended": True})
    assert after.filled == (None,) * 17
    assert (after.state, after.penalty) == ("unhurt", 0)
    # 20 stun: 9 placed (never a Dying level), 11 lost; unconscious. After: nothing left.
    before = health(**v21 | {"stun": 20})
    assert (before.state, before.stun_lost) == ("unconscious", 11)
    after = health(**v21 | {"stun": 20, "scene_ended": True})
    assert (after.state, after.stun_lost, after.penalty) == ("unhurt", 0, 0)
    assert "its 20 stun levels go away" in after.explain()


def test_scene_end_without_stun_changes_nothing():
    # Lethal and bashing damage stay: only stun "goes away at the end of the scene".
    for dmg in ({"lethal": 3, "bashing": 2}, {"aggravated": 8}, {}):
        assert health(**BASE | dmg | {"scene_ended": True}) == health(**BASE | dmg)


def test_the_form_keeps_its_fields_labels_and_ranges():
    by_name = {p.name: p for p in CALCULATOR.params}
    assert by_name["willpower"].label == "Willpower (2.1)"
    assert by_name["willpower"].shown_when == ("ruleset", "2.1")
    assert by_name["resistance"].shown_when == ("ruleset", "2.1")
    assert by_name["strength"].shown_when is None
    assert by_name["mega_stamina"].help.startswith("2.0: each dot gives")
    # Character's ranges: Stamina 1–20 and Strength 0–20, as here before
    assert (by_name["stamina"].minimum, by_name["stamina"].maximum) == (1, 20)
    assert (by_name["strength"].minimum, by_name["strength"].maximum) == (0, 20)
    with pytest.raises(InputError) as err:
        health(**BASE | {"strength": 21})
    assert err.value.field == "strength"
