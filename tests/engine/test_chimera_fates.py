"""Chimera combat, issue 10 item 3: the victor's chosen fate and the coup de grâce, a free
action on an Unconscious foe (Vanquishing Foes). Expected values by hand."""

from fractions import Fraction

import pytest

from ruleslab.calculators.chimera import chimera_fight, play_fight
from ruleslab.chimera.aftermath import p_dies
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice

# B cannot wound A (Defence 20 against d6, 2d6 on a Critical Success); B's Wound Limit 0:
# A's first wound vanquishes him, so A always wins by vanquishing, B falling with 1 wound.
SURE = {"a_defence": 20, "b_wound_limit": 0, "b_character": "classed", "b_resist": 2}


@pytest.mark.parametrize(
    ("fate", "rule", "dead"),
    [
        # a classed foe Resists against TN 12 at WP 1: d20 + 2 − 1 ≥ 12 on 11+: 1/2
        ("killer_blow", "resist", Fraction(1, 2)),
        ("coup_de_grace", "resist", Fraction(1, 2)),
        ("coup_de_grace", "kills", Fraction(1)),
        ("killer_blow", "kills", Fraction(1, 2)),  # the option is the coup de grâce's only
        ("unconscious", "resist", Fraction(0)),
        ("capture", "resist", Fraction(0)),
        ("driven_off", "kills", Fraction(0)),
    ],
)
def test_how_often_the_chosen_fate_kills(fate, rule, dead):
    r = chimera_fight(**SURE, a_fate=fate, coup_de_grace=rule)
    assert r.figure("p_a_wins").value == 1
    assert r.figure("b_dead").value == dead
    assert r.figure("a_dead").value is None  # B's choice is not given
    assert r.figure("a_dead").text == "B's choice not given"


def test_an_unclassed_foe_has_no_resist():
    r = chimera_fight(**{**SURE, "b_character": "npc"}, a_fate="killer_blow")
    assert r.figure("b_dead").value == 1


def test_p_dies_weighs_the_wounds_he_fell_with():
    # fell with 1 wound (3/4) or 2 wounds (1/4): resists at 11+ (1/2) or 12+ (9/20)
    loser = Fighter(
        name="B", mr=10, defence=0, wound_limit=1, damage=DamageDice(1, 6), attack=0,
        character="classed", resist=2,
    )  # fmt: skip
    fallen = ((1, Fraction(3, 8)), (2, Fraction(1, 8)))  # scaled: they sum to 1/2
    expected = Fraction(3, 4) * Fraction(1, 2) + Fraction(1, 4) * Fraction(11, 20)
    assert p_dies(loser, "killer_blow", fallen, FightRules()) == expected
    assert p_dies(loser, "coup_de_grace", fallen, FightRules(coup_de_grace="kills")) == 1
    assert p_dies(loser, "capture", fallen, FightRules()) == 0


def test_the_coup_de_grace_is_rolled_and_said_in_the_log():
    r = chimera_fight(**SURE, a_fate="coup_de_grace")
    log = play_fight(r, 4)
    assert log[-2] == "A vanquishes B: A chooses B's fate"
    assert log[-1].startswith(
        "A knocks B Unconscious and dispatches him with a coup de grâce (a free action); "
        "B is classed and Resists: "
    )
    assert log[-1].endswith(("Unconscious, with a random permanent Flaw", "fails: he is dead"))
    text = r.explain()
    assert "a free action (it takes no time, so A may still act this round)" in text
    kills = chimera_fight(**SURE, a_fate="coup_de_grace", coup_de_grace="kills")
    assert play_fight(kills, 4)[-1] == (
        "A knocks B Unconscious and dispatches him with a coup de grâce (a free action): B is dead"
    )
