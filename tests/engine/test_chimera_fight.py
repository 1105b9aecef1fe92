"""A Chimera fight as rules (:func:`ruleslab.chimera.fight.fight_odds`): two records in."""

from dataclasses import replace
from fractions import Fraction

import pytest

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import parse_dice
from ruleslab.chimera.duel import SurprisePlan
from ruleslab.chimera.fight import fight_chart, fight_odds, play_log, vanquish_bar

# As in test_chimera_duel: Wound Limit 0, Defence 0, d4+10 damage, so every hit
# vanquishes. A hits B on 11+ (1/2), B hits A on 16+ (1/4); no criticals.
A0 = Fighter(name="A", mr=16, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
B0 = Fighter(name="B", mr=11, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
NO_CRIT = FightRules(critical="none")


def test_one_hit_fight_by_hand():
    f = fight_odds(A0, B0, NO_CRIT)
    assert (f.a_on_b.tn, f.a_on_b.p_hit, f.a_on_b.p_vanquish) == (
        11,
        Fraction(1, 2),
        Fraction(1, 2),
    )
    assert (f.b_on_a.tn, f.b_on_a.p_hit, f.b_on_a.p_vanquish) == (
        16,
        Fraction(1, 4),
        Fraction(1, 4),
    )
    # per round A wins 1/2·1/2 + 1/2·3/4·1/2 = 7/16, B 1/2·1/2·1/4 + 1/2·1/4 = 3/16
    assert f.duel.p_win == (Fraction(7, 10), Fraction(3, 10))
    assert f.duel.expected_rounds == Fraction(8, 5)
    assert f.killer_blow == (None, None)  # both unclassed NPCs
    assert f.surprise is None
    assert f.surprise_odds is None
    assert f.figure("p_a_wins").text == "70.00 %"
    assert f.figure("expected_rounds").text == "1.6 rounds"


def test_names_come_from_the_records():
    f = fight_odds(replace(A0, name="Ann"), replace(B0, name="Bob"), NO_CRIT)
    assert f.figure("a_tn").label == "TN for Ann to hit Bob"
    assert f.figure("p_b_wins").label == "Bob wins the duel"
    assert any(
        s.text.startswith("Duel, solved exactly over 1 (Ann wounds, Bob wounds)") for s in f.steps
    )
    assert play_log(f, 3, 100)[-1] in (
        "Ann vanquishes Bob: Ann chooses Bob's fate",
        "Bob vanquishes Ann: Bob chooses Ann's fate",
    )


def test_a_sure_surprise_round():
    # Sneak +20 vs TN 1 never fails; B at MR 0 is hit by anything (no criticals): A wins in
    # the surprise round.
    plan = SurprisePlan(side=0, sneak=20, tn=1, benefit="action")
    f = fight_odds(A0, replace(B0, mr=0), NO_CRIT, plan)
    assert f.surprise_odds is not None
    assert f.surprise_odds.p_fail == 0
    assert f.duel.p_win == (1, 0)
    assert f.duel.expected_rounds == 1
    assert f.figure("p_surprise").value == 1
    log = play_log(f, 1, 1)
    assert log[-1] == "A vanquishes B: A chooses B's fate"


def test_chart_bars_and_the_vanquishing_bar():
    a = Fighter(name="A", mr=10, defence=0, wound_limit=3, damage=parse_dice("d4"), attack=0)
    b = replace(a, name="B", defence=1, wound_limit=2)
    f = fight_odds(a, b, NO_CRIT)
    # A hits B on 10+ of a d20 (11/20); d4 − 1: severities 1, 2, 3 (1/4 each), 0 (1/4)
    bars = fight_chart(f.a_on_b)
    assert [label for label, _ in bars] == ["Miss", "No wound", "1", "2", "3"]
    assert bars[0][1] == pytest.approx(9 / 20)
    assert bars[1][1] == pytest.approx(11 / 80)
    assert vanquish_bar(f.a_on_b, b.wound_limit, b.wounds) == 4  # severity 3 > WL 2
    assert vanquish_bar(f.a_on_b, b.wound_limit, 2) == 2  # the third wound: any severity
    assert vanquish_bar(f.a_on_b, 5, 0) is None


def test_a_fighter_with_an_unknown_choice_says_so():
    with pytest.raises(ValueError, match="A's cover must be one of none, light, medium, heavy"):
        replace(A0, cover="Medium")
    with pytest.raises(ValueError, match="B's kind must be one of fight, shoot"):
        replace(B0, kind="melee")
