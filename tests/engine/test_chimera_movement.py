"""Chimera combat, issue 10 item 3: the Movement Die, walking, running, creeping, crouching,
prone, getting up (Combat Actions). Distances are enumerated face by face in the tests."""

from collections import Counter
from fractions import Fraction

import pytest

from ruleslab.chimera.movement import MOVEMENT_DICE, adjusted_mr, move_dist, movement


def test_adjusted_mr_by_hand():
    """'adjusted MR means the base MR modified by Encumbrance, terrain, Wound or Fatigue
    Penalty, and the effects of slow or haste powers'; Capture: '–4 to all rolls and MR'."""
    assert adjusted_mr(12) == 12
    assert adjusted_mr(12, encumbrance=2, modifier=-1, wounds=1) == 8
    assert adjusted_mr(12, encumbrance=2, modifier=-1, wounds=1, bound="bound") == 4
    assert adjusted_mr(12, modifier=3) == 15  # haste
    assert adjusted_mr(3, encumbrance=2, wounds=2) == 0  # never below 0


@pytest.mark.parametrize("sides", MOVEMENT_DICE)
@pytest.mark.parametrize("mr", [0, 1, 3, 6, 10, 15])
def test_run_and_creep_face_by_face(mr, sides):
    """'running or creeping (i.e., MR ± your Movement Die)'; walking 'no more than your MR
    (i.e., MR without applying your Movement Die)'."""
    run = Counter(mr + face for face in range(1, sides + 1))
    creep = Counter(max(0, mr - face) for face in range(1, sides + 1))
    assert dict(move_dist("run", mr, sides).items()) == {
        d: Fraction(n, sides) for d, n in run.items()
    }
    assert dict(move_dist("creep", mr, sides).items()) == {
        d: Fraction(n, sides) for d, n in creep.items()
    }
    assert dict(move_dist("walk", mr, sides).items()) == {mr: 1}


def test_the_texts_moves_worked():
    # MR 10 with a d6: walks 10 (free), runs 11 to 16, creeps 4 to 9, each 1/6
    m = movement("A", 10, 6)
    assert m.mr == 10
    assert dict(m.walk.items()) == {10: 1}
    assert dict(m.run.items()) == {d: Fraction(1, 6) for d in range(11, 17)}
    assert dict(m.creep.items()) == {d: Fraction(1, 6) for d in range(4, 10)}
    # "Getting up is a free action, but costs your Encumbrance in MR": base 13, Encumbrance 3
    # gives MR 10; the round he gets up he has 10 − 3 = 7 left to walk (or to run, + the die)
    up = movement("A", 13, 6, encumbrance=3, position="prone")
    assert (up.mr, up.after_getting_up) == (10, 7)
    text = "\n".join(str(s) for s in up.steps)
    assert (
        "getting up is free but costs his Encumbrance 3 in MR: that round he walks up to 7" in text
    )
    assert "A's adjusted MR = base MR 13 − Encumbrance 3 = 10" in text
    # a wounded, bound combatant: MR 10 − WP 2 − 4 = 4; creeping 4 − d6 stops on 4, 5, 6
    slow = movement("B", 10, 6, wounds=2, bound="bound")
    assert slow.mr == 4
    assert slow.creep.p(0) == Fraction(3, 6)


def test_the_chart_shows_one_move_and_what_closes_the_distance():
    m = movement("A", 10, 4)
    run = m.chart("run", closes=13)
    assert [label for label, _ in run.bars] == ["11", "12", "13", "14"]
    assert run.highlight_from == 2  # 13 and 14 cover a distance of 13
    assert sum(p for _, p in run.bars) == pytest.approx(1)
    creep = m.chart("creep")
    assert [label for label, _ in creep.bars] == ["6", "7", "8", "9"]
    assert creep.highlight_from is None  # no distance to close
    assert m.chart("creep", closes=20).highlight_from is None  # out of reach


def test_an_unknown_movement_die_or_move_says_so():
    with pytest.raises(
        ValueError, match="A's Movement Die must be one of d4, d6, d8, d10, d12, not 7"
    ):
        movement("A", 10, 7)
    with pytest.raises(ValueError, match="unknown move 'sprint'"):
        move_dist("sprint", 10, 6)
