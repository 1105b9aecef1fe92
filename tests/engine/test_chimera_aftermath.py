"""Chimera combat, issue 10 item 3: Capture −4, the cool-down and the Fatigue roll, each
fate's aftermath, the morale triggers "leader falls" and "more than 50% casualties".

Expected values are worked by hand here or by a brute-force oracle written in this file
(every d20, d12 and damage face enumerated; the duel iterated round by round).
"""

import functools
import random
from fractions import Fraction
from itertools import product

import pytest
from refusals import refusal

from ruleslab.calculators.chimera import chimera_fight, play_fight
from ruleslab.chimera.aftermath import COOL_DOWN_MINUTES, ROUNDS_PER_TURN
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice
from ruleslab.chimera.duel import duel_odds, play
from ruleslab.chimera.morale import casualties_over_half

# --- an independent oracle: a duel of two player characters, d20, ties rolled again ------


def _faces(count, sides):
    return [sum(c) for c in product(range(1, sides + 1), repeat=count)]


@functools.cache
def _blow(att, dfd, wa, wd):
    """(P(no wound), P(wound, goes on), P(vanquish)) of ``att`` on ``dfd``, by enumeration."""
    bound_a = 4 if att.is_bound else 0
    bound_d = 4 if dfd.is_bound else 0
    tn = max(0, dfd.mr - wd - bound_d)
    none = wound = vanq = Fraction(0)
    for nat in range(1, 21):
        if not (nat + att.attack - wa - bound_a >= tn or nat == 20):
            none += Fraction(1, 20)
            continue
        count = att.dice.count * (2 if nat == 20 else 1)
        faces = _faces(count, att.dice.sides)
        for dmg in faces:
            p = Fraction(1, 20 * len(faces))
            sev = dmg + att.dice.bonus - dfd.defence
            if sev < 1:
                none += p
            elif wd + 1 > dfd.wound_limit or sev > dfd.wound_limit:
                vanq += p
            else:
                wound += p
    return none, wound, vanq


@functools.cache
def _first(a, b, w):
    """P(A acts first), ties rolled again: every pair of d12 faces."""
    ia = a.initiative - w[0] - (4 if a.is_bound else 0)
    ib = b.initiative - w[1] - (4 if b.is_bound else 0)
    higher = sum(1 for x, y in product(range(1, 13), repeat=2) if x + ia > y + ib)
    lower = sum(1 for x, y in product(range(1, 13), repeat=2) if x + ia < y + ib)
    return Fraction(higher, higher + lower)


def oracle_ends(a, b, rounds=400):
    """Float distribution of (end key, A's wounds, B's wounds), iterating rounds."""
    live = {(a.wounds, b.wounds): 1.0}
    ends = {}
    fighters = (a, b)
    for _ in range(rounds):
        nxt = {}
        for w, m in live.items():
            p_a = float(_first(a, b, w))
            for x, px in ((0, p_a), (1, 1 - p_a)):
                y = 1 - x
                n, wd, v = (float(q) for q in _blow(fighters[x], fighters[y], w[x], w[y]))
                hurt = list(w)
                hurt[y] += 1
                key = ("v" + str(x), *hurt)
                ends[key] = ends.get(key, 0.0) + m * px * v
                for p, w2 in ((n, tuple(w)), (wd, tuple(hurt))):
                    if not p:
                        continue
                    n2, wd2, v2 = (float(q) for q in _blow(fighters[y], fighters[x], w2[y], w2[x]))
                    h2 = list(w2)
                    h2[x] += 1
                    key = ("v" + str(y), *h2)
                    ends[key] = ends.get(key, 0.0) + m * px * p * v2
                    nxt[w2] = nxt.get(w2, 0.0) + m * px * p * n2
                    nxt[tuple(h2)] = nxt.get(tuple(h2), 0.0) + m * px * p * wd2
        live = {w: m for w, m in nxt.items() if m > 1e-300}
    assert sum(live.values()) < 1e-12
    return ends


def _fighter(name, **kw):
    base = {"mr": 10, "defence": 1, "wound_limit": 2, "damage": DamageDice(1, 6), "attack": 2}
    base.update(kw)
    return Fighter(name=name, character="pc", **base)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (_fighter("A"), _fighter("B", wound_limit=1, damage=DamageDice(1, 8))),
        (_fighter("A", wounds=1, initiative=2), _fighter("B", mr=8, defence=2, bound="bound")),
        (_fighter("A", wound_limit=3, damage=DamageDice(2, 4)), _fighter("B", wound_limit=0)),
    ],
)
def test_the_duels_end_wounds_match_a_brute_force_round_by_round(a, b):
    odds = duel_odds(a, b)
    expected = oracle_ends(a, b)
    got = {(e.key, e.a, e.b): float(p) for e, p in odds.ends}
    assert set(got) == {k for k, p in expected.items() if p > 0}
    for k, p in expected.items():
        assert got.get(k, 0.0) == pytest.approx(p, abs=1e-12)
    # the ends add up to the duel's own figures
    assert sum(p for _, p in odds.ends) == 1
    assert sum(p for e, p in odds.ends if e.key == "v0") == odds.p_vanquish[0]


# --- the cool-down and the Resistance Roll against Fatigue --------------------------------


def test_the_ten_minute_cool_down_worked_example():
    """'spend 1 full turn (10 minutes)': 10 minutes, 60 rounds of 10 seconds."""
    assert COOL_DOWN_MINUTES == 10
    assert ROUNDS_PER_TURN == 60  # 10 × 60 s / 10 s
    r = chimera_fight()
    assert r.figure("a_fatigue_fails").text == "cool-down spent"
    assert r.figure("a_fatigue_fails").value is None
    assert "A spends the cool-down if he wins: 1 full turn (10 minutes = 60 rounds" in r.explain()


def test_skipping_the_cool_down_an_unhurt_winner_rolls_at_his_resistance():
    # B can never wound A (Defence 20 against d6): A wins with 0 wounds every time.
    # d20 + 2 against Fatigue TN 10 fails on 1-7: 7/20.
    r = chimera_fight(a_cool_down="skipped", a_defence=20)
    assert r.figure("p_a_wins").value == 1
    assert r.figure("a_fatigue_fails").value == Fraction(7, 20)
    # Fatigue TN 15 and resist 4: fails on 1-10
    r = chimera_fight(a_cool_down="skipped", a_defence=20, a_fatigue_tn=15, a_resist=4)
    assert r.figure("a_fatigue_fails").value == Fraction(10, 20)
    assert "skips the 1 full turn (10 minutes" in r.explain()


def test_the_fatigue_roll_takes_the_wound_penalty_the_winner_ends_with():
    a = _fighter("A", wound_limit=3, damage=DamageDice(2, 4), resist=1, cool_down="skipped")
    b = _fighter("B", wound_limit=0)
    ends = oracle_ends(a, b)
    wins = {k[1]: p for k, p in ends.items() if k[0] == "v0"}
    # d20 + 1 − w against TN 10 fails on naturals 1 … 8 + w (a natural 20 succeeds)
    expected = sum(p * min(8 + w, 19) / 20 for w, p in wins.items()) / sum(wins.values())
    r = chimera_fight(
        a_mr=10, a_defence=1, a_wound_limit=3, a_damage="2d4", a_attack=2, a_resist=1,
        a_cool_down="skipped", b_mr=10, b_defence=1, b_wound_limit=0, b_damage="d6",
        b_attack=2, b_character="pc",
    )  # fmt: skip
    assert float(r.figure("a_fatigue_fails").value) == pytest.approx(expected, abs=1e-12)
    assert len(wins) > 1  # the figure really mixes several Wound Penalties


# --- Capture −4 ----------------------------------------------------------------------------


def test_capture_minus_four_to_all_rolls_and_mr_worked_example():
    """'impose a penalty of –4 to all rolls and MR while bound'."""
    r = chimera_fight(b_bound="bound")
    # TN to hit B: MR 12 − 4 = 8; A rolls d20 + 3: naturals 5-20, 16/20
    assert r.figure("a_tn").value == 8
    assert r.figure("a_p_hit").value == Fraction(16, 20)
    # B attacks at +2 − 4 = −2 against A's MR 10: naturals 12-20, 9/20
    assert r.figure("b_p_hit").value == Fraction(9, 20)
    text = r.explain()
    assert "TN to hit B = MR 12 − 4 bound (Capture) = 8" in text
    assert "Fight +2 − 4 bound (Capture)" in text
    assert "B is bound (captured): −4 to all his rolls" in text
    # initiative: 1d12 against 1d12 − 4, ties rolled again
    higher = sum(1 for x, y in product(range(1, 13), repeat=2) if x > y - 4)
    lower = sum(1 for x, y in product(range(1, 13), repeat=2) if x < y - 4)
    assert f"A higher {higher / 144 * 100:.2f} %" in text
    assert higher + lower < 144
    # his morale check at wound 1 of WL 2: d20 + 0 − 1 − 4 vs 10 fails on 1-14: 70 %
    assert "d20 -5 vs Morale TN 10 fails 70.00 %" in text


def test_capture_also_lowers_a_bound_classed_fighters_killer_blow_roll():
    # A classed, resist 2, bound: d20 + 2 − 1 − 4 against TN 12 succeeds on 15-20: 6/20
    assert chimera_fight(a_bound="bound").figure("a_killer_blow").value == Fraction(6, 20)
    # unbound: on 11-20
    assert chimera_fight().figure("a_killer_blow").value == Fraction(10, 20)


def test_a_bound_fighter_in_play_rolls_with_the_penalty():
    r = chimera_fight(b_bound="bound")
    log = "\n".join(play_fight(r, 3))
    assert "B 1d12" not in log
    assert "-4 =" in log or "-5 =" in log or "-6 =" in log


# --- each fate's aftermath -----------------------------------------------------------------


def test_the_fates_after_a_one_wound_vanquish():
    # B's Wound Limit 0: any wound vanquishes him, with exactly 1 wound.
    r = chimera_fight(b_wound_limit=0, b_character="classed", b_resist=3, a_level=3)
    text = r.explain()
    assert "B then has 1 wound (the last one included" in text
    # Capture: rolls at −4 − 1 = −5; MR 12 − 1 − 4 = 7
    assert "every roll at −4 − WP (from -5 to -5" in text
    assert "= 7 while bound" in text
    # Driven Off: A's level 3 → 3 turns of 10 minutes
    assert "will not return before 3 turns (A's level; 30 minutes)" in text
    # Killer Blow: d20 + 3 − 1 against 12 → naturals 10-20: 55 %
    assert "Resists against TN 12 at the WP he fell with: 55.00 %" in text
    # Unconscious: 1d6 turns of 10 minutes: 10 to 60, mean 35; wounds unchanged
    assert "out for 1d6 turns (10 to 60 minutes, 35 on average)" in text
    assert "wounds (1, as he fell) and Wound Penalty are unchanged" in text
    assert "coup de grâce as a free action" in text


def test_an_unclassed_foe_is_simply_killed_by_a_killer_blow():
    assert "Killer Blow: B is killed (not classed: no Resist)" in chimera_fight().explain()


# --- morale: his leader falls, more than 50 % casualties -----------------------------------


@pytest.mark.parametrize(
    ("allies", "down", "reading", "expected"),
    [
        (4, 2, "allies", False),  # exactly half is not more than half
        (4, 3, "allies", True),
        (3, 2, "allies", True),
        (0, 0, "allies", False),
        (3, 2, "side", False),  # 2 of a side of 4
        (2, 2, "side", True),  # 2 of a side of 3
    ],
)
def test_more_than_half_casualties(allies, down, reading, expected):
    assert casualties_over_half(allies, down, reading) is expected


def test_a_fallen_leader_makes_the_npc_check_before_the_first_round():
    plain = chimera_fight()
    r = chimera_fight(b_leader="fallen")
    # B: d20 + 0 against Morale TN 10 fails on 1-9
    fail = Fraction(9, 20)
    assert r.odds.duel.p_break == (0, fail)
    p_a = plain.figure("p_a_wins").value
    assert r.figure("p_a_wins").value == fail + (1 - fail) * p_a
    assert "B checks morale before the first round (his leader has fallen)" in r.explain()
    # a player character never checks
    assert chimera_fight(a_leader="fallen").figure("p_a_wins").value == p_a


def test_casualties_trigger_and_both_sides_breaking():
    r = chimera_fight(a_character="npc", a_allies=5, a_allies_down=3, b_allies=2, b_allies_down=2)
    fa = Fraction(7, 20)  # A: d20 + 2 against Morale TN 10 fails on 1-7
    fb = Fraction(9, 20)
    assert r.odds.duel.p_both_break == fa * fb
    assert r.figure("p_neither").value == fa * fb
    assert "3 of 5 allies down: more than 50 % of his allies" in r.explain()
    # the 'side' reading: 2 of B's side of 3 is still more than half; 3 of A's 6 is not
    side = chimera_fight(
        a_character="npc", a_allies=5, a_allies_down=3, b_allies=2, b_allies_down=2,
        casualties="side",
    )  # fmt: skip
    assert side.odds.duel.p_break == (0, fb)


def test_play_breaks_before_the_fight():
    a = _fighter("A")
    b = Fighter(
        name="B", mr=10, defence=1, wound_limit=2, damage=DamageDice(1, 6), attack=2,
        leader="fallen", morale_tn=40,
    )  # fmt: skip
    lines = []
    played = play(a, b, FightRules(), random.Random(1), say=lines.append)
    # TN 40 is met only by a natural 20 (it always succeeds): seed 1 rolls below it
    assert (played.end, played.rounds) == ("m0", 0)
    assert lines[0].startswith("B checks morale before the fight (his leader has fallen)")


def test_more_allies_down_than_allies_is_refused_at_the_field():
    err = refusal(chimera_fight, b_allies=2, b_allies_down=3)
    assert err.field == "b_allies_down"
    assert "from 0 to his allies on the side (2)" in err.message
