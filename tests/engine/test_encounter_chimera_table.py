"""The site's dice and the tracker's marks in a Chimera fight (ruleslab.encounter.chimera_table).

By hand from the Chimera combat text: "Attacks are made with a Fight or Shoot roll against
a Target Number equal to your foe's adjusted Movement Rate … the attacker rolls the
weapon's damage die (2 dice if the attack is a Critical Success)"; the action die is a
d20 and a natural 20 a Critical Success (the default readings, RN-CHIM-1/2).
"""

from __future__ import annotations

from random import Random

import pytest

from ruleslab.chimera.attack import Fighter
from ruleslab.encounter import chimera as ch
from ruleslab.encounter import chimera_table as table
from ruleslab.encounter.board import board
from ruleslab.encounter.log import EncounterError


def _fight() -> ch.ChimeraEncounter:
    ana = ch.fighter("a", Fighter("Ana", mr=10, attack=3, damage="d8", kind="shoot"))
    bo = ch.fighter("b", Fighter("Bo", mr=8, defence=1, wound_limit=2), "foes")
    enc = ch.new_chimera([ana, bo])
    return ch.start_round(enc, {"a": 0, "b": 0}, {"a": 9, "b": 3}).encounter


@pytest.mark.parametrize("seed", range(40))
def test_a_seeded_attack_rolls_the_d20_against_his_mr_and_the_weapon_on_a_hit(seed):
    rolled = table.seeded_attack(_fight(), "a", "b", seed)
    rng = Random(seed)
    natural = rng.randint(1, 20)
    hit = natural + 3 >= 8 or natural == 20  # TN = Bo's MR 8, Ana's Shoot +3
    assert rolled.hit is hit
    if not hit:
        assert rolled.damage_roll == 0
    elif natural == 20:  # two d8 on a Critical Success
        assert rolled.damage_roll == rng.randint(1, 8) + rng.randint(1, 8)
    else:
        assert rolled.damage_roll == rng.randint(1, 8)
    assert rolled.text.startswith(f"Ana Shoots (rolled by the site): {natural} +3 = ")


def test_the_seeded_die_is_the_action_die():
    assert {table.seeded_die(_fight(), s) for s in range(400)} == set(range(1, 21))


def test_a_fighter_joining_a_round_under_way_rolls_at_the_next():
    enc = table.join(_fight(), ch.fighter("c", Fighter("Cy"), "foes")).encounter
    assert enc.order == ("a", "b")
    enc = ch.next_turn(ch.next_turn(enc).encounter).encounter  # (the round is over)
    enc = ch.start_round(enc, {}, {"a": 1, "b": 2, "c": 12}).encounter
    assert enc.order == ("c", "b", "a")
    with pytest.raises(EncounterError, match="share the key"):
        table.join(enc, ch.fighter("c", Fighter("Again")))


def test_marks_and_no_one_acting_once_the_fight_is_over():
    enc = table.mark_leader(_fight(), "b", True).encounter
    assert ch.find(enc, "b").leader
    enc = table.mark_hidden(enc, "b", True).encounter
    assert [r.name for r in board(enc, player_view=True)] == ["Ana", "Unknown foe"]
    assert [r.acting for r in board(enc)] == [True, False]
    over = ch.end_fight(enc, {}).encounter
    assert [r.acting for r in board(over)] == [False, False]
