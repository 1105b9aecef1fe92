"""A Chimera fight as rules (:func:`ruleslab.chimera.fight.fight_odds`): two records in."""

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from ruleslab.calculators.chimera import CALCULATOR, OPTIONS
from ruleslab.chimera.action import critical_text, is_critical
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice, parse_dice
from ruleslab.chimera.duel import SurprisePlan
from ruleslab.chimera.fight import fight_chart, fight_odds, play_log, vanquish_bar
from ruleslab.params import InputError

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
    # (the record's field declarations: the form's label and choices)
    with pytest.raises(
        InputError, match=r"^Cover must be one of none = None, light = Light: ¼ covered"
    ) as err:
        replace(A0, cover="Medium")
    assert err.value.field == "cover"
    with pytest.raises(
        InputError, match=r"^Attacks with must be one of fight = Fight \(melee\)"
    ) as err:
        replace(B0, kind="melee")
    assert err.value.field == "kind"


# --- a Python caller's bad values: a ValueError naming the value and what is allowed ----
# (issue 11: a KeyError deep in the duel, or a reading silently taken for another)


def exactly(message: str) -> str:
    """A ``pytest.raises`` match for exactly ``message``."""
    return f"^{re.escape(message)}$"


def test_more_wounds_than_the_wound_limit_says_so():
    # Before: KeyError (1, 0) from the duel's table of states.
    with pytest.raises(
        ValueError,
        match=exactly(
            "A's wounds (1) must be at most his Wound Limit (0): more would already have "
            "vanquished him"
        ),
    ):
        fight_odds(replace(A0, wounds=1), B0, NO_CRIT)
    with pytest.raises(
        ValueError, match="^" + re.escape("B's wounds (4) must be at most his Wound Limit (3):")
    ):
        fight_odds(A0, replace(B0, wound_limit=3, wounds=4), NO_CRIT)
    assert fight_odds(A0, replace(B0, wound_limit=3, wounds=3), NO_CRIT).duel.states == 1


OPTION_PARAMS = [p for p in CALCULATOR.params if p.name in OPTIONS]


@pytest.mark.parametrize("param", OPTION_PARAMS, ids=lambda p: p.name)
def test_fight_rules_take_the_readings_the_form_offers_and_no_other(param):
    # Before: an unknown action die or critical reading was a KeyError deep in the odds; an
    # unknown ties, parry, cover or surprise reading was silently read as another one.
    values = [v for v, _ in param.choices]
    for value in values:
        assert getattr(FightRules(**{param.name: value}), param.name) == value
    for bad in ("bogus", values[0].upper(), None):
        message = f"FightRules.{param.name} must be one of {', '.join(values)}, not {bad!r}"
        with pytest.raises(ValueError, match=exactly(message)):
            FightRules(**{param.name: bad})


def test_every_critical_reading_is_one_the_action_roll_knows():
    (critical,) = (p for p in OPTION_PARAMS if p.name == "critical")
    for value, _ in critical.choices:
        rules = FightRules(critical=value)
        assert critical_text(rules.critical)
        assert is_critical(20, 20, 10, 20, rules.critical) in (True, False)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"wounds": 1.5}, "Wounds so far must be a whole number from 0 to 10."),
        ({"wound_limit": True}, "Wound Limit (WL) must be a whole number from 0 to 10."),
        ({"mr": "10"}, "Base Movement Rate (MR) must be a whole number from 0 to 40."),
        ({"mr": 41}, "Base Movement Rate (MR) must be a whole number from 0 to 40."),
        ({"wounds": -1}, "Wounds so far must be a whole number from 0 to 10."),
        ({"wound_limit": -2}, "Wound Limit (WL) must be a whole number from 0 to 10."),
        (
            {"damage": "d8x"},
            "Weapon damage: 'd8x' is not a dice expression like d8, 2d6 or d6+1.",
        ),
        # dice built directly, past the limits the typed text has (was: a long computation)
        (
            {"damage": DamageDice(40, 100)},
            "Weapon damage: the number of dice must be from 1 to 10.",
        ),
        ({"damage": DamageDice(1, 1000)}, "Weapon damage: a die must have from 2 to 100 sides."),
    ],
)
def test_a_fighter_with_a_bad_number_says_so(changes, message):
    # Before: a TypeError or AttributeError deep in the odds, or (negative wounds) a duel
    # solved over states that cannot exist.
    fighter = replace(A0, wound_limit=3)
    with pytest.raises(ValueError, match=exactly(message)):
        replace(fighter, **changes)
