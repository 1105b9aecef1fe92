"""An Aberrant 2.1 fight for three turns and a 2.0 fight for two, through the encounter.

Every expectation is worked by hand from the quick reference (the working is in the
comments); the encounter's figures are never used to compute an expected value.
"""

from __future__ import annotations

import pytest
from encounter_fights import Play, fight_20, fight_21

from ruleslab.alterations.henchmen import SOAK
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.log import EncounterError
from ruleslab.quickref.conditions import DAZING, MULTIPLE_ACTIONS, STUN_DAMAGE
from ruleslab.quickref.defence import DEFENSES


def who(p: Play, key: str) -> ab.Combatant:
    return ab.find(p.enc, key)


def penalty(p: Play, key: str) -> int | None:
    return ab.health(p.enc, who(p, key)).penalty


def rules_cited(p: Play) -> set[str]:
    return {s.rule for s in p.lines}


def play_21() -> Play:
    """Ana (Dex 4, Wits 3, Sta 2, Str 2, WP 3, Res 1, Q 1) and Ben (Dex 3, Wits 4, Sta 4,
    M-Sta 2, Str 3, WP 4, Res 2, Q 2) against Kessler (Dex 3, Wits 2, Sta 2, Str 3, WP 8,
    Res 0, Q 0) and the Goons (a leader Dex 2, Wits 2, Sta 2, Str 2, WP 2, Q 0, with 3
    regular henchmen).

    By hand (2.1 Rules › Health Levels: WP + 2 Sta + 6 M-Sta + Q levels, −1 per
    ⌊(Sta + Res)/2⌋ + 1 levels of damage; Defenses: ⌊lower of Dex, Wits / 2⌋):
    - Ana: 3 + 4 + 0 + 1 = 8 levels, −1 per ⌊3/2⌋ + 1 = 2: after k levels −⌊k/2⌋;
      Defense ⌊3/2⌋ = 1; Dazed at 2 × 2 = 4 levels in one turn, Stunned at 6.
    - Ben: 4 + 8 + 12 + 2 = 26 levels, −1 per ⌊6/2⌋ + 1 = 4; Defense ⌊3/2⌋ = 1;
      stun heals 1 level per (10 − (4 + 2 × 2)) = 2 turns (Mega-Stamina counts 2).
    - Kessler: 8 + 4 = 12 levels, −1 per 2; Defense ⌊2/2⌋ = 1; Dazed at 4, Stunned at 6.
    - Goons' leader: 2 + 4 = 6 levels, −1 per 2.
    Initiative (Dex + Wits + d10): Ana 7 + 5 = 12, Ben 7 + 3 = 10, Kessler 5 + 9 = 14,
    Goons 4 + 4 = 8: the order is Kessler, Ana, Ben, Goons.
    """
    p = Play(fight_21())
    p(ab.roll_initiative, {"ana": 5, "ben": 3, "kessler": 9, "goons": 4})
    assert p.enc.order == ("kessler", "ana", "ben", "goons")
    assert [who(p, k).initiative for k in ("ana", "ben", "kessler", "goons")] == [12, 10, 14, 8]
    assert p.enc.turn == 1

    # --- turn 1 ---
    # Kessler declares 2 actions: +0 then +1 ("a cumulative +1 difficulty").
    p(ab.declare, "kessler", 2)
    assert MULTIPLE_ACTIONS in rules_cited(p)
    # 1st attack on Ana: +0 from his conditions, Ana's Defense +1 (no attack on her yet).
    setup = ab.attack_setup(p.enc, "kessler", "ana")
    assert (setup.action, setup.added_difficulty, setup.defense) == (1, 0, 1)
    p(ab.resolve_attack, "kessler", "ana", hit=True, damage=Damage(lethal=2))
    # Ana: 2 levels → −⌊2/2⌋ = −1; her Defense worn to 0 for the next attack.
    assert penalty(p, "ana") == 1
    assert ab.defense_now(p.enc, who(p, "ana")) == 0
    # 2nd attack: +1 (his second action), Defense +0.
    setup = ab.attack_setup(p.enc, "kessler", "ana")
    assert (setup.action, setup.added_difficulty, setup.defense) == (2, 1, 0)
    p(ab.resolve_attack, "kessler", "ana", hit=True, damage=Damage(bashing=2))
    # Ana: 4 levels → −2; 4 levels this turn ≥ 2 × Stamina 2: Dazed.
    assert penalty(p, "ana") == 2
    assert who(p, "ana").taken_this_turn == 4
    assert who(p, "ana").daze == "dazed"
    assert DAZING in rules_cited(p)
    # Not Ana's place in the order yet.
    with pytest.raises(EncounterError, match="It is Kessler's action, not Ana's"):
        ab.resolve_attack(p.enc, "ana", "kessler", hit=False)
    # A third attack: he declared two actions.
    with pytest.raises(EncounterError, match="no action left"):
        ab.resolve_attack(p.enc, "kessler", "ana", hit=False)

    p(ab.next_turn)  # Ana
    assert ab.current(p.enc) is who(p, "ana")
    # Ana, Dazed: +1 to her attack; Kessler's Defense +1; her wound penalty −2 dice.
    setup = ab.attack_setup(p.enc, "ana", "kessler")
    assert (setup.added_difficulty, setup.defense, setup.wound_penalty) == (1, 1, 2)
    p(ab.resolve_attack, "ana", "kessler", hit=True, damage=Damage(lethal=3))
    assert penalty(p, "kessler") == 1  # 3 levels: −⌊3/2⌋

    p(ab.next_turn)  # Ben: 2 actions, one an active defence (the last: +1); his attack +0.
    p(ab.declare, "ben", 2, active_defence=True)
    setup = ab.attack_setup(p.enc, "ben", "goons")
    assert (setup.added_difficulty, setup.defense) == (0, 1)
    p(ab.resolve_attack, "ben", "goons", hit=True, damage=Damage(lethal=2))
    # 2 points remove 2 of the 3 henchmen; the leader cannot be targeted yet: no damage.
    assert who(p, "goons").henchmen == 1
    assert who(p, "goons").damage == Damage()
    assert SOAK in rules_cited(p)
    with pytest.raises(EncounterError, match="no action left"):  # his other is the defence
        ab.resolve_attack(p.enc, "ben", "goons", hit=False)

    p(ab.next_turn)  # the Goons: 3 stun levels on Ben (boxes 1–3: −⌊3/4⌋ = −0).
    # The 1 henchman left adds +1d and +1 damage to his leader's attack (Charisma 3 +
    # Command 2) × 2 = 10 henchmen may help; his attribute + ability is not over 7d.
    setup = ab.attack_setup(p.enc, "goons", "ben")
    assert (setup.squad_dice, setup.squad_damage) == (1, 1)
    p(ab.resolve_attack, "goons", "ben", hit=True, damage=Damage(stun=3))
    assert penalty(p, "ben") == 0
    assert who(p, "ben").daze == "none"  # 3 levels < 2 × 8

    p(ab.next_turn)  # past the last: the turn ends
    assert p.enc.turn == 2
    assert p.enc.place == 0
    # Defense restored, levels this turn reset; Ana stays Dazed through turn 2; Ben's stun:
    # 1 turn of 2 gone, nothing healed yet.
    assert ab.defense_now(p.enc, who(p, "ana")) == 1
    assert who(p, "ana").taken_this_turn == 0
    assert who(p, "ana").daze == "dazed"
    assert who(p, "ben").damage.stun == 3
    assert who(p, "ben").stun_clock == 1
    assert DEFENSES in rules_cited(p)

    # --- turn 2 ---
    p(ab.resolve_attack, "kessler", "ben", hit=True, damage=Damage(lethal=2))
    # Ben: 2 lethal + 3 stun = 5 boxes → −⌊5/4⌋ = −1.
    assert penalty(p, "ben") == 1
    p(ab.next_turn)  # Ana, still Dazed, takes 2 actions: +1 (Dazed), then +1 +1.
    p(ab.declare, "ana", 2)
    setup = ab.attack_setup(p.enc, "ana", "kessler")
    assert (setup.added_difficulty, setup.defense) == (1, 1)
    p(ab.resolve_attack, "ana", "kessler", hit=True, damage=Damage(lethal=3))
    setup = ab.attack_setup(p.enc, "ana", "kessler")
    assert (setup.added_difficulty, setup.defense) == (2, 0)
    p(ab.resolve_attack, "ana", "kessler", hit=True, damage=Damage(bashing=3))
    # Kessler: 9 levels → −⌊9/2⌋ = −4; 6 this turn ≥ 3 × Stamina 2: Stunned.
    assert penalty(p, "kessler") == 4
    assert who(p, "kessler").daze == "stunned"
    p(ab.next_turn)  # Ben: 1 henchman left; 3 lethal: 1 removes him, 2 reach the leader.
    p(ab.resolve_attack, "ben", "goons", hit=True, damage=Damage(lethal=3))
    assert who(p, "goons").henchmen == 0
    assert who(p, "goons").damage == Damage(lethal=2)
    assert penalty(p, "goons") == 1  # 2 levels: −⌊2/2⌋
    p(ab.next_turn)  # the Goons miss Ana: her Defense is +1 (no attack on her this turn).
    assert ab.attack_setup(p.enc, "goons", "ana").defense == 1
    p(ab.resolve_attack, "goons", "ana", hit=False)
    p(ab.next_turn)  # the turn ends: Ana is no longer Dazed; Ben's stun heals 1 level.
    assert p.enc.turn == 3
    assert who(p, "ana").daze == "none"
    assert who(p, "kessler").daze == "stunned"  # taken in turn 2: through turn 3
    assert who(p, "ben").damage.stun == 2
    assert who(p, "ben").stun_clock == 0
    assert STUN_DAMAGE in rules_cited(p)

    # --- turn 3 ---
    # Kessler, Stunned, "may not take more than a single action".
    with pytest.raises(EncounterError, match="Stunned"):
        ab.declare(p.enc, "kessler", 2)
    setup = ab.attack_setup(p.enc, "kessler", "ana")
    assert (setup.added_difficulty, setup.defense, setup.wound_penalty) == (1, 1, 4)
    p(ab.resolve_attack, "kessler", "ana", hit=True, damage=Damage(lethal=1))
    # Ana: 3 lethal + 2 bashing = 5 levels → −2.
    assert penalty(p, "ana") == 2
    with pytest.raises(EncounterError, match="Stunned"):
        ab.resolve_attack(p.enc, "kessler", "ana", hit=False)
    p(ab.next_turn)  # Ana, no longer Dazed: +0.
    assert ab.attack_setup(p.enc, "ana", "kessler").added_difficulty == 0
    p(ab.resolve_attack, "ana", "kessler", hit=False)
    p(ab.next_turn)  # Ben hits the leader: 6 lethal → −⌊6/2⌋ = −3 (his last normal level).
    p(ab.resolve_attack, "ben", "goons", hit=True, damage=Damage(lethal=4))
    assert penalty(p, "goons") == 3
    p(ab.next_turn)
    p(ab.resolve_attack, "goons", "ben", hit=False)
    p(ab.next_turn)  # the turn ends: Kessler is no longer Stunned; Ben's stun 1 turn of 2.
    assert p.enc.turn == 4
    assert who(p, "kessler").daze == "none"
    assert who(p, "ben").damage.stun == 2
    assert who(p, "ben").stun_clock == 1

    p(ab.end_scene)  # stun "goes away at the end of the scene": Ben keeps his 2 lethal.
    assert who(p, "ben").damage == Damage(lethal=2)
    assert penalty(p, "ben") == 0
    assert STUN_DAMAGE in rules_cited(p)
    with pytest.raises(EncounterError, match="scene is over"):
        ab.next_turn(p.enc)
    return p


def test_a_21_fight_for_three_turns():
    play_21()


def play_20() -> Play:
    """Cara (Dex 3, Wits 2, Sta 3, Str 2, Q 1) against a Brute (Dex 2, Wits 2, Sta 1, Str 3).

    By hand (2.0 Rules › Health Levels): Cara: −0, −1 ×2, −2 ×2, −4 and one −0 for
    Stamina 3 and one for Quantum 1: −0 ×3, −1 ×2, −2 ×2, −4, Incap; Dazed at 6.
    The Brute: −0, −1, −1, −2, −2, −4, Incap (no odd Stamina past 1), Dazed at 2 × 1 = 2.
    Initiative: Cara 5 + 6 = 11, the Brute 4 + 7 = 11: a tie, to the higher rating
    (Cara's 5; rules note RN-TRACK-1). 2.0 has no Defense and no multiple-action
    difficulty in the text (RN-TRACK-4).
    """
    p = Play(fight_20())
    p(ab.roll_initiative, {"cara": 6, "brute": 7})
    assert p.enc.order == ("cara", "brute")
    p(ab.declare, "cara", 2)
    for _ in range(2):
        setup = ab.attack_setup(p.enc, "cara", "brute")
        assert (setup.added_difficulty, setup.defense) == (0, 0)
        kind = "lethal" if who(p, "brute").damage.total == 0 else "bashing"
        p(ab.resolve_attack, "cara", "brute", hit=True, damage=Damage(**{kind: 1}))
    # 1 lethal + 1 bashing: the 2nd box is a −1; 2 levels this turn ≥ 2 × 1: Dazed.
    assert penalty(p, "brute") == 1
    assert who(p, "brute").daze == "dazed"
    assert all("Defense" not in s.text for s in p.enc.log)
    p(ab.next_turn)  # the Brute, Dazed: +1; −1 dice of wounds; 2 stun on Cara (boxes −0).
    setup = ab.attack_setup(p.enc, "brute", "cara")
    assert (setup.added_difficulty, setup.wound_penalty) == (1, 1)
    p(ab.resolve_attack, "brute", "cara", hit=True, damage=Damage(stun=2))
    assert penalty(p, "cara") == 0
    p(ab.next_turn)  # the turn ends; stun heals 1 per (10 − 3) = 7 turns: 1 gone.
    assert who(p, "cara").stun_clock == 1
    assert who(p, "brute").daze == "dazed"

    p(ab.resolve_attack, "cara", "brute", hit=True, damage=Damage(lethal=2))
    # 3 lethal + 1 bashing: the 4th box is a −2; 2 more levels this turn: Dazed again,
    # through turn 3.
    assert penalty(p, "brute") == 2
    assert who(p, "brute").daze_until == 3
    p(ab.next_turn)
    assert ab.attack_setup(p.enc, "brute", "cara").added_difficulty == 1
    p(ab.resolve_attack, "brute", "cara", hit=False)
    p(ab.next_turn)
    assert who(p, "brute").daze == "dazed"  # renewed in turn 2: it holds through turn 3
    assert who(p, "cara").damage.stun == 2
    assert who(p, "cara").stun_clock == 2
    p(ab.end_scene)
    assert who(p, "cara").damage == Damage()
    assert who(p, "brute").daze == "none"
    return p


def test_a_20_fight_for_two_turns():
    play_20()


def test_the_daze_may_end_with_its_own_turn():
    # Reading "this_turn" (RN-TRACK-2): Dazed in turn 1 is gone when turn 1 ends.
    enc = ab.new_encounter("2.0", fight_20().combatants, daze_lasts="this_turn")
    enc = ab.roll_initiative(enc, {"cara": 6, "brute": 7}).encounter
    enc = ab.apply_damage(enc, "brute", Damage(bashing=2)).encounter
    assert ab.find(enc, "brute").daze == "dazed"
    enc = ab.end_turn(enc).encounter
    assert ab.find(enc, "brute").daze == "none"


def test_initiative_each_turn_clears_the_order():
    enc = ab.new_encounter("2.1", fight_21().combatants, initiative_each_turn=True)
    enc = ab.set_initiative(enc, {"ana": 3, "ben": 9, "kessler": 5, "goons": 1}).encounter
    assert enc.order == ("ben", "kessler", "ana", "goons")
    enc = ab.end_turn(enc).encounter
    assert enc.order == ()
    assert ab.find(enc, "ana").initiative is None
    with pytest.raises(EncounterError, match="initiative first"):
        ab.next_turn(enc)


def test_an_incapacitated_combatant_cannot_act():
    # Ana's 8 levels filled, then 1 more: the first of her 2 Incapacitated levels.
    enc = fight_21()
    enc = ab.set_initiative(enc, {"ana": 3, "ben": 9, "kessler": 5, "goons": 1}).encounter
    enc = ab.apply_damage(enc, "ana", Damage(lethal=9)).encounter
    assert ab.health(enc, ab.find(enc, "ana")).state == "incapacitated"
    with pytest.raises(EncounterError, match="Incapacitated"):
        ab.attack_setup(enc, "ana", "kessler")


def test_healing_time_after_the_fight():
    # Ben ends with 2 lethal on 26 levels, −1 per 4: both at −0 (⌊1/4⌋, ⌊2/4⌋):
    # 12 hours each (2.1 Rules › Healing), one at a time: 24 hours.
    p = play_21()
    assert ab.time_to_heal(p.enc, "ben").total_hours == 24


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda e: ab.set_initiative(e, {"ana": 3}), "missing"),
        (
            lambda e: ab.roll_initiative(e, {"ana": 11, "ben": 1, "kessler": 1, "goons": 1}),
            "1 to 10",
        ),
        (lambda e: ab.declare(e, "ana", 11), "1 to 10"),
        (lambda e: ab.find(e, "zed"), "No combatant"),
    ],
)
def test_refused_steps_name_the_field(call, message):
    with pytest.raises(EncounterError, match=message):
        call(fight_21())


def test_damage_and_combatants_are_checked():
    with pytest.raises(EncounterError, match="lethal"):
        Damage(lethal=-1)
    with pytest.raises(EncounterError, match="share the key"):
        ab.new_encounter("2.1", [ab.quick_foe("a", "A"), ab.quick_foe("a", "B")])
    with pytest.raises(EncounterError, match="rules version"):
        ab.new_encounter("3.0", [ab.quick_foe("a", "A")])


def test_big_henchmen_add_two_dice_each():
    # 3 henchmen of attribute + ability 8 (over 7d): +2d each = +6d, +1 damage each = +3.
    enc = ab.new_encounter(
        "2.1",
        [
            ab.squad("s", "Squad", ab.quick_foe("x", "X").character, 3, henchman_pool=8),
            ab.quick_foe("t", "T"),
        ],
    )
    enc = ab.set_initiative(enc, {"s": 5, "t": 1}).encounter
    setup = ab.attack_setup(enc, "s", "t")
    assert (setup.squad_dice, setup.squad_damage) == (6, 3)


def test_a_combatant_joins_before_initiative_and_is_marked_hidden():
    enc = ab.new_encounter("2.1", [ab.quick_foe("a", "Ana")])
    enc = ab.join(enc, ab.quick_foe("b", "Bo", dexterity=3)).encounter
    assert [c.key for c in enc.combatants] == ["a", "b"]
    assert enc.log[-1].text == "Bo joins the fight (foes)"
    with pytest.raises(EncounterError, match="share the key"):
        ab.join(enc, ab.quick_foe("b", "Bo again"))
    enc = ab.mark_hidden(enc, "b", True).encounter
    assert ab.find(enc, "b").hidden
    assert not ab.mark_hidden(enc, "b", False).encounter.combatants[1].hidden
    started = ab.set_initiative(enc, {"a": 5, "b": 7}).encounter
    with pytest.raises(EncounterError, match="only before initiative"):
        ab.join(started, ab.quick_foe("c", "Cy"))
