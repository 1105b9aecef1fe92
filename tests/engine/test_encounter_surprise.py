"""Surprise before a Chimera fight's first round, worked by hand from the text.

"You may surprise a foe with a Sneak roll against his Surprise TN. If successful, you
may either execute a full combat action before your foe can respond …, or you may apply
a bonus of AR +2 to whatever action you perform on the first round of the fight (at the
GM's discretion, you may apply both benefits if the Sneak roll is a Critical Success)."
Vera (Shoot +3) sneaks with a bonus of +3 against TN 12; the Bandit's TN to hit is his
MR 10.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from encounter_fights import BANDIT, VERA

from ruleslab.chimera.attack import FightRules
from ruleslab.encounter import chimera as ch
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.serial import from_dict, to_dict


def _fight(rules: FightRules = ch.DEFAULT_RULES) -> ch.ChimeraEncounter:
    return ch.new_chimera([ch.fighter("vera", VERA), ch.fighter("bandit", BANDIT, "b")], rules)


def _sneak(enc: ch.ChimeraEncounter, natural: int, benefit: str = "action"):
    return ch.surprise(enc, "vera", natural, sneak_bonus=3, surprise_tn=12, benefit=benefit)


def test_a_surprise_round_in_which_only_the_sneak_acts():
    # d20 10 + 3 = 13 ≥ 12: success; "action" (RN-CHIM-11: a round of its own).
    enc = _sneak(_fight(), 10).encounter
    assert enc.order == ("vera",)
    assert ch.odds(enc, "vera", "bandit").p_hit == Fraction(14, 20)  # natural 7+
    enc = ch.resolve_attack(enc, "vera", "bandit", hit=False).encounter
    change = ch.next_turn(enc)
    assert "The surprise round is over" in change.lines[0].text
    enc = ch.start_round(change.encounter, {}, {"vera": 1, "bandit": 9}).encounter
    assert enc.round == 1
    assert enc.order == ("bandit", "vera")


def test_a_critical_sneak_gives_both_benefits():
    # A natural 20 is a Critical Success: the surprise round, and AR +2 on that action:
    # d20 + 3 + 2 against TN 10, a natural 5 or more: 16 of 20.
    enc = _sneak(_fight(), 20).encounter
    assert enc.order == ("vera",)
    assert ch.odds(enc, "vera", "bandit").p_hit == Fraction(16, 20)
    enc = ch.resolve_attack(enc, "vera", "bandit", hit=False).encounter
    assert ch.find(enc, "vera").ar_bonus == 0  # spent on that first action
    # "one" (the GM declines): only the chosen benefit.
    enc = _sneak(_fight(FightRules(surprise_critical="one")), 20).encounter
    assert ch.find(enc, "vera").ar_bonus == 0


def test_ar_two_on_the_first_rounds_action():
    enc = _sneak(_fight(), 9, benefit="ar").encounter  # 9 + 3 = 12 ≥ 12
    assert enc.order == ()
    enc = ch.start_round(enc, {}, {"vera": 2, "bandit": 9}).encounter
    assert ch.odds(enc, "vera", "bandit").p_hit == Fraction(16, 20)
    enc = ch.next_turn(ch.next_turn(enc).encounter).encounter  # the round ends unused
    assert ch.find(enc, "vera").ar_bonus == 0


def test_acting_first_in_round_one_and_a_failed_sneak():
    enc = _sneak(_fight(FightRules(surprise_action="first")), 15).encounter
    assert enc.first == "vera"
    assert from_dict(to_dict(enc)) == enc
    enc = ch.start_round(enc, {}, {"vera": 1, "bandit": 12}).encounter
    assert enc.order == ("vera", "bandit")
    failed = _sneak(_fight(), 8)  # 8 + 3 = 11 < 12
    assert failed.encounter.order == ()
    assert "failure" in failed.lines[0].text
    with pytest.raises(EncounterError, match="before the fight's first round"):
        _sneak(enc, 15)
