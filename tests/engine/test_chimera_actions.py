"""Chimera combat, issue 10 item 3: full and free actions in the duel, closing a distance
with the Movement Die, crouching, dropping prone and getting up (Combat Actions).

Expected values are worked by hand in the tests, or by the brute-force oracle written in
this file from the text: every d12 pair of an initiative roll, every d20 face of an
attack or Resistance Roll, every damage face and every Movement Die face enumerated,
each place of the fight solved exactly by recursion. It shares no code with the engine.
"""

import functools
import random
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from ruleslab.calculators.chimera import CALCULATOR, chimera_fight, play_fight, play_round
from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.dice import DamageDice, parse_dice
from ruleslab.chimera.duel import SurprisePlan, duel_odds, play

# --- the oracle ---------------------------------------------------------------------------

COVER = {"none": 0, "light": 1, "medium": 2, "heavy": 4}
POSTURE = {"standing": 0, "crouching": 1, "prone": 2}


def _before(f):
    return {"drops_prone": "standing", "gets_up": "prone"}.get(f.position, f.position)


def _after(f):
    return {"drops_prone": "prone", "gets_up": "standing"}.get(f.position, f.position)


def _adjusted(f, wounds):
    return max(0, f.mr - f.encumbrance + f.mr_modifier - wounds - (4 if f.is_bound else 0))


def _damage_faces(dmg, crit):
    count = dmg.count * (2 if crit else 1)
    return [sum(c) + dmg.bonus for c in product(range(1, dmg.sides + 1), repeat=count)]


@functools.cache
def _blow(att, dfd, posture, wa, wd):
    """{0 no wound, 1 wound, 2 vanquish: P} of ``att``'s blow; ``posture`` the defender's."""
    out = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}

    def land(dmg, p):
        sev = dmg - dfd.defence
        if sev < 1:
            out[0] += p
        elif wd + 1 > dfd.wound_limit or sev > dfd.wound_limit:
            out[2] += p
        else:
            out[1] += p

    if att.kind == "blast":
        shield = dfd.parry if dfd.parry_from == "shield" else 0
        bonus = COVER[dfd.cover] * (2 if dfd.barrier == "reinforced" else 1)
        bonus += POSTURE[posture] + shield
        for nat in range(1, 21):
            resisted = nat == 20 or nat + dfd.resist - wd + bonus >= att.blast_tn
            if resisted:
                out[0] += Fraction(1, 20)
                continue
            faces = _damage_faces(att.dice, False)
            for dmg in faces:
                land(dmg, Fraction(1, 20 * len(faces)))
        return out
    tn = _adjusted(dfd, wd) + dfd.parry + COVER[dfd.cover]
    if att.kind == "shoot":
        tn += POSTURE[posture]
    for nat in range(1, 21):
        if not (nat == 20 or nat + att.attack - wa - (4 if att.is_bound else 0) >= tn):
            out[0] += Fraction(1, 20)
            continue
        faces = _damage_faces(att.dice, nat == 20)
        for dmg in faces:
            land(dmg, Fraction(1, 20 * len(faces)))
    return out


def _turn(fs, x, state):
    """{(effect, distance after): P} of side ``x``'s turn: one full action, free actions."""
    wounds, gap, done = state[:2], state[2], state[3:]
    f, y = fs[x], 1 - x
    foe = fs[y]
    first = not done[x]
    posture = _after(f)  # his own, from the start of his turn (after any free action)
    foe_posture = _after(foe) if done[y] else _before(foe)
    out = {}

    def put(k, p):
        if p:
            out[k] = out.get(k, Fraction(0)) + p

    def strike(after):
        for e, p in _blow(f, foe, foe_posture, wounds[x], wounds[y]).items():
            put((e, after), p)

    readying = first and f.plan == "ready"
    if gap == 0 or f.kind != "fight":
        if readying:
            put((0, gap), Fraction(1))
        else:
            strike(gap)
        return out
    mr = _adjusted(f, wounds[x])
    if first and f.position == "gets_up":
        mr = max(0, mr - f.encumbrance)  # "costs your Encumbrance in MR"
    if readying:
        put((0, max(0, gap - mr) if posture == "standing" else gap), Fraction(1))
    elif posture == "standing" and gap <= mr:
        strike(0)  # walks (free), then his full action
    else:
        for face in range(1, f.movement_sides + 1):
            moved = mr + face if posture == "standing" else max(0, mr - face)
            put((0, max(0, gap - moved)), Fraction(1, f.movement_sides))
    return out


def _after_turn(x, state, effect, gap):
    wounds = list(state[:2])
    done = list(state[3:])
    done[x] = 1
    if effect:
        wounds[1 - x] += 1
    if effect == 2:
        return "AB"[x]
    return (*wounds, gap, *done)


@functools.cache
def _p_first(fs, wounds):
    ia = fs[0].initiative - wounds[0] - (4 if fs[0].bound else 0)
    ib = fs[1].initiative - wounds[1] - (4 if fs[1].bound else 0)
    hi = sum(1 for p, q in product(range(1, 13), repeat=2) if p + ia > q + ib)
    lo = sum(1 for p, q in product(range(1, 13), repeat=2) if p + ia < q + ib)
    return Fraction(hi, hi + lo)  # ties rolled again


def _round(fs, state):
    out = {}
    p_a = _p_first(fs, state[:2])
    for x, px in ((0, p_a), (1, 1 - p_a)):
        for (e, g), p in _turn(fs, x, state).items():
            s1 = _after_turn(x, state, e, g)
            if isinstance(s1, str):
                out[s1] = out.get(s1, Fraction(0)) + px * p
                continue
            for (e2, g2), q in _turn(fs, 1 - x, s1).items():
                s2 = _after_turn(1 - x, s1, e2, g2)
                out[s2] = out.get(s2, Fraction(0)) + px * p * q
    return out


@functools.cache
def _solve(fs, state):
    """(P(A wins), P(B wins), expected rounds) from ``state``: (A's wounds, B's wounds,
    distance, A has acted, B has acted)."""
    t = _round(fs, state)
    stay = t.pop(state, Fraction(0))
    assert stay < 1, "an endless fight: not used here"
    pa = t.get("A", Fraction(0))
    pb = t.get("B", Fraction(0))
    rounds = Fraction(1)
    for k, p in t.items():
        if isinstance(k, tuple):
            va, vb, vr = _solve(fs, k)
            pa, pb, rounds = pa + p * va, pb + p * vb, rounds + p * vr
    return pa / (1 - stay), pb / (1 - stay), rounds / (1 - stay)


def oracle(a, b, distance=0):
    return _solve((a, b), (a.wounds, b.wounds, distance, 0, 0))


def pc(name, **kw):
    base = {"mr": 10, "defence": 1, "wound_limit": 2, "damage": DamageDice(1, 6), "attack": 2}
    base.update(kw)
    return Fighter(name=name, character="pc", **base)


# --- hand-worked cases ------------------------------------------------------------------

# Wound Limit 0, Defence 0, d4+10 damage: every hit vanquishes. A hits on 11+ (1/2),
# B on 16+ (1/4); no criticals. The plain duel: A wins 7/10 in 8/5 rounds (test_chimera_duel).
A0 = Fighter(name="A", mr=16, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
B0 = Fighter(name="B", mr=11, defence=0, wound_limit=0, damage=parse_dice("d4+10"), attack=0)
NO_CRIT = FightRules(critical="none")


def test_readying_an_item_is_his_full_action_of_the_first_round():
    # Round 1: A readies (no attack); B attacks whoever goes first: B wins 1/4 at once, else
    # the plain duel follows: A wins 3/4 · 7/10, in 1 + 3/4 · 8/5 rounds.
    d = duel_odds(replace(A0, plan="ready"), B0, NO_CRIT)
    assert d.p_win == (
        Fraction(3, 4) * Fraction(7, 10),
        Fraction(1, 4) + Fraction(3, 4) * Fraction(3, 10),
    )
    assert d.expected_rounds == 1 + Fraction(3, 4) * Fraction(8, 5)


def test_a_surprise_action_may_be_the_readying():
    # A's surprise action readies his item (he cannot attack in it), then the plain duel.
    plan = SurprisePlan(side=0, sneak=20, tn=1, benefit="action")
    d = duel_odds(replace(A0, plan="ready"), B0, NO_CRIT, plan)
    plain = duel_odds(A0, B0, NO_CRIT)
    assert d.p_win == plain.p_win
    assert d.expected_rounds == 1 + plain.expected_rounds


def test_dropping_prone_is_free_and_counts_from_his_first_turn():
    # Both Shoot. B drops prone on his first turn: +2 vs Shoot from then on, so A hits
    # on 13+ (2/5) instead of 11+ (1/2) — but in round 1 only if B acted first.
    a, b = replace(A0, kind="shoot"), replace(B0, kind="shoot", position="drops_prone")
    p, p_prone, q = Fraction(1, 2), Fraction(2, 5), Fraction(1, 4)
    # round 1: A first: A hits at p, else B shoots at q; B first: B shoots at q, else A at p_prone
    r1_a = Fraction(1, 2) * p + Fraction(1, 2) * (1 - q) * p_prone
    r1_b = Fraction(1, 2) * (1 - p) * q + Fraction(1, 2) * q
    # later rounds: B prone
    ra = Fraction(1, 2) * p_prone + Fraction(1, 2) * (1 - q) * p_prone
    rb = Fraction(1, 2) * (1 - p_prone) * q + Fraction(1, 2) * q
    later_a = ra / (ra + rb)
    d = duel_odds(a, b, NO_CRIT)
    assert d.p_win[0] == r1_a + (1 - r1_a - r1_b) * later_a
    assert d.expected_rounds == 1 + (1 - r1_a - r1_b) / (ra + rb)


def test_a_prone_combatant_gets_up_to_fight_and_it_costs_his_encumbrance_in_mr():
    # A (base MR 14, Encumbrance 2: adjusted MR 12) lies prone 11 away from B. Getting up
    # costs 2 of this round's MR: he walks at most 10, so he must run: 10 + d4 ≥ 11 always.
    # Standing (not prone) he would walk 11 ≤ 12 and attack at once.
    a = replace(A0, mr=14, encumbrance=2, position="gets_up", movement_die="d4")
    b = replace(B0, kind="shoot")
    d = duel_odds(a, b, NO_CRIT, distance=11)
    # B shoots A: TN 12 (MR 14 − 2) + 2 prone before A's first turn = 14: 7/20 if B goes
    # first; after A is up, TN 12: B hits on 12+ with +0: 9/20. A hits B (TN 11) on 11+: 1/2.
    q_prone, q_up, p = Fraction(7, 20), Fraction(9, 20), Fraction(1, 2)
    r1_b = Fraction(1, 2) * q_prone + Fraction(1, 2) * q_up  # A runs in round 1
    ra = Fraction(1, 2) * p + Fraction(1, 2) * (1 - q_up) * p
    rb = Fraction(1, 2) * (1 - p) * q_up + Fraction(1, 2) * q_up
    assert d.p_win[0] == (1 - r1_b) * ra / (ra + rb)
    # standing, he walks 11 ≤ 12 (free) and attacks in round 1: the duel at no distance
    standing = duel_odds(replace(a, position="standing"), b, NO_CRIT, distance=11)
    at_hand = duel_odds(replace(a, position="standing"), b, NO_CRIT)
    assert (standing.p_win, standing.expected_rounds) == (at_hand.p_win, at_hand.expected_rounds)
    assert standing.p_win[0] > d.p_win[0]


def test_shooters_ignore_the_distance_and_a_fighter_closes_it_by_running():
    # Two shooters: the distance changes nothing.
    a, b = replace(A0, kind="shoot"), replace(B0, kind="shoot")
    assert duel_odds(a, b, NO_CRIT, distance=30) == duel_odds(a, b, NO_CRIT)
    # A (MR 16, d6) against a shooter 20 away: runs 17–22 in round 1 (B shoots at 1/4),
    # always within reach after it; the plain duel from round 2.
    d = duel_odds(A0, replace(B0, kind="shoot"), NO_CRIT, distance=20)
    plain = duel_odds(A0, replace(B0, kind="shoot"), NO_CRIT)
    assert d.p_win[0] == Fraction(3, 4) * plain.p_win[0]
    assert d.expected_rounds == 1 + Fraction(3, 4) * plain.expected_rounds


def test_walking_up_to_mr_is_free_so_he_still_attacks():
    # 16 away, MR 16: A walks (free) and attacks in round 1: the plain duel.
    d = duel_odds(A0, replace(B0, kind="shoot"), NO_CRIT, distance=16)
    plain = duel_odds(A0, replace(B0, kind="shoot"), NO_CRIT)
    assert (d.p_win, d.expected_rounds, d.ends) == (plain.p_win, plain.expected_rounds, plain.ends)
    # one further, he must run in round 1 instead of attacking
    assert duel_odds(A0, replace(B0, kind="shoot"), NO_CRIT, distance=17).p_win[0] < d.p_win[0]


def test_a_fighter_who_can_never_reach_is_an_endless_fight():
    # Crouched, MR 1 creeps 1 − d4 = 0 every round; B's shots cannot wound Defence 20.
    a = replace(A0, mr=1, position="crouching", movement_die="d4", defence=20)
    d = duel_odds(a, replace(B0, kind="shoot"), NO_CRIT, distance=5)
    assert d.p_endless == 1
    assert d.expected_rounds is None


# --- the brute-force oracle against the engine ----------------------------------------------

CASES = {
    "a fighter closes on a shooter whose wounds slow him": (
        pc("A", mr=12, movement_die="d6", wound_limit=3),
        pc("B", kind="shoot", attack=6, mr=9),
        25,
    ),
    "a crouching fighter creeps under fire": (
        pc("A", mr=12, position="crouching", movement_die="d4", wound_limit=3),
        pc("B", kind="shoot", attack=4),
        9,
    ),
    "both fighters run at each other": (
        pc("A", mr=9, movement_die="d8"),
        pc("B", mr=11, movement_die="d4", attack=3, initiative=2),
        30,
    ),
    "one readies, the other drops prone and shoots": (
        pc("A", kind="shoot", plan="ready", wound_limit=3),
        pc("B", kind="shoot", position="drops_prone", cover="light"),
        0,
    ),
    "a prone fighter gets up, encumbered, and readies while walking": (
        pc("A", mr=13, encumbrance=3, position="gets_up", plan="ready", movement_die="d10"),
        pc("B", kind="shoot", cover="medium", mr_modifier=-2),
        14,
    ),
    "a blaster against a fighter behind a reinforced barrier": (
        pc("A", kind="blast", blast_tn=14, damage=DamageDice(2, 6)),
        pc("B", mr=8, cover="light", barrier="reinforced", parry=2, parry_from="shield"),
        20,
    ),
}


@pytest.mark.parametrize(("a", "b", "distance"), CASES.values(), ids=CASES.keys())
def test_the_duel_matches_a_brute_force_oracle(a, b, distance):
    d = duel_odds(a, b, distance=distance)
    pa, pb, rounds = oracle(a, b, distance)
    assert d.p_win == (pa, pb)
    assert d.expected_rounds == rounds
    assert d.p_draw == d.p_endless == 0


def _simulate(a, b, rules, n, seed, distance):
    rng = random.Random(seed)
    wins = {"v0": 0, "v1": 0}
    rounds = 0
    for _ in range(n):
        played = play(a, b, rules, rng, max_rounds=1000, distance=distance)
        wins[played.end] += 1
        rounds += played.rounds
    return wins, rounds / n


@pytest.mark.parametrize(
    "case",
    [
        "a fighter closes on a shooter whose wounds slow him",
        "a prone fighter gets up, encumbered, and readies while walking",
    ],
)
def test_played_fights_roll_what_the_odds_compute(case):
    a, b, distance = CASES[case]
    exact = duel_odds(a, b, distance=distance)
    n = 6000
    wins, mean_rounds = _simulate(a, b, FightRules(), n, 20261201, distance)
    tol = 4 * (0.25 / n) ** 0.5
    assert abs(wins["v0"] / n - float(exact.p_win[0])) < tol
    assert abs(mean_rounds - float(exact.expected_rounds)) < 0.1


def test_the_play_log_says_each_full_and_free_action():
    # A (base MR 13, Encumbrance 3: MR 10) cannot be wounded by B (Defence 20 against d6)
    a = pc("A", mr=13, encumbrance=3, position="gets_up", plan="ready", movement_die="d10")
    a = replace(a, defence=20)
    b = pc("B", kind="shoot", position="drops_prone")
    lines = []
    play(a, b, FightRules(), random.Random(3), max_rounds=3, say=lines.append, distance=40)
    text = "\n".join(lines)
    assert "A and B start 40 apart" in text
    assert "A gets up (a free action; it costs his Encumbrance 3 in MR this round)" in text
    assert "A readies an item (his full action) and walks 7 towards B (free): distance 33" in text
    assert "B drops prone (a free action)" in text
    assert "A runs MR 10 + d10 (" in text


# --- the calculator: its fields, figures, messages and logs --------------------------------


def test_the_calculators_movement_figures_by_hand():
    r = chimera_fight()
    # A: MR 10, d6: walks 10 (free), runs 11 to 16, creeps 4 to 9; B: MR 12
    assert r.figure("a_mr").value == 10
    assert r.figure("a_run").text == "11 to 16 (mean 13.5)"
    assert r.figure("a_run").value == Fraction(27, 2)
    assert r.figure("a_creep").text == "4 to 9 (mean 6.5)"
    assert r.figure("b_mr").value == 12
    # Encumbrance 2 and a −1 (terrain) off base MR 10: adjusted 7, the TN for B to hit A
    r = chimera_fight(a_encumbrance=2, a_mr_modifier=-1, a_movement_die="d4")
    assert r.figure("a_mr").value == 7
    assert r.figure("b_tn").value == 7
    assert r.figure("a_run").text == "8 to 11 (mean 9.5)"
    assert r.figure("a_creep").text == "3 to 6 (mean 4.5)"
    # a d12 on MR 3 creeps 0 on 3 faces of 12 or more: 0 to 2
    r = chimera_fight(a_mr=3, a_movement_die="d12")
    assert r.figure("a_creep").text == "0 to 2 (mean 0.25)"  # (2 + 1) / 12
    chart = CALCULATOR.views[2].chart(r)  # standing: he runs 4 to 15
    assert [label for label, _ in chart.bars] == [str(d) for d in range(4, 16)]
    assert chart.highlight_from is None  # no distance between them
    crouched = chimera_fight(a_mr=3, a_movement_die="d12", a_position="crouching", distance=2)
    chart = CALCULATOR.views[2].chart(crouched)  # crouched: he creeps 0 to 2
    assert [label for label, _ in chart.bars] == ["0", "1", "2"]
    assert [p for _, p in chart.bars] == [10 / 12, 1 / 12, 1 / 12]
    assert chart.highlight_from == 2  # creeping 2 reaches B


def test_the_distance_reaches_the_duel_and_the_log():
    near = chimera_fight(b_kind="shoot")
    far = chimera_fight(b_kind="shoot", distance=30)
    # A (MR 10, d6) runs at most 16 a round: two rounds under B's fire before he can Fight
    assert far.figure("p_a_wins").value < near.figure("p_a_wins").value
    a, b = far.odds.a, far.odds.b
    assert far.odds.duel == duel_odds(a, b, far.odds.rules, distance=30)
    assert "A and B start 30 apart (in MR units). A Fights, so must reach the foe" in far.explain()
    log = play_fight(far, 11)
    assert log[0] == "A and B start 30 apart (in MR units)"
    assert any(line.startswith("A runs MR ") and "+ d6 (" in line for line in log)
    # two shooters: the distance changes nothing, and says so
    both = chimera_fight(a_kind="shoot", b_kind="shoot", distance=30)
    assert both.figure("p_a_wins") == chimera_fight(a_kind="shoot", b_kind="shoot").figure(
        "p_a_wins"
    )
    assert "both attack at range (Shoot or Blast): the distance changes nothing" in both.explain()


def test_a_first_turn_spent_readying_shows_in_the_working_and_the_odds():
    r = chimera_fight(a_plan="ready")
    assert r.figure("p_a_wins").value < chimera_fight().figure("p_a_wins").value
    assert "A readies an item on his first turn: that is his full action" in r.explain()
    log = play_round(r, 5)
    assert "A readies an item: his full action (no attack this round)" in log


def test_dropping_prone_shows_the_tn_before_and_after_his_first_turn():
    r = chimera_fight(a_kind="shoot", b_kind="shoot", b_position="drops_prone")
    assert r.figure("a_tn").value == 14  # from his first turn: MR 12 + prone 2
    assert "Until B's first turn he is standing: A's blow has TN 12" in r.explain()


def test_a_prone_fighter_who_gets_up_may_fight():
    # B Shoots but cannot wound A (Defence 20 against d6, 2d6 on a Critical Success)
    r = chimera_fight(
        a_position="gets_up", a_encumbrance=2, a_defence=20, b_kind="shoot", distance=9
    )
    # base MR 10 − Encumbrance 2 = 8; getting up costs 2 more: he walks at most 6 < 9 and runs
    assert r.figure("a_mr").value == 8
    log = play_round(r, 2)
    assert "A gets up (a free action; it costs his Encumbrance 2 in MR this round)" in log
    assert any(line.startswith("A runs MR 6 + d6 (") for line in log)


def test_a_running_target_is_hit_on_his_adjusted_mr():
    """'Use this value even when the target is running or creeping': while A runs at B
    (and cannot be wounded: Defence 20), B's every shot is against A's MR 10."""
    r = chimera_fight(a_defence=20, b_kind="shoot", distance=40)
    log = play_fight(r, 3)
    shots = [line for line in log if line.startswith("B Shoots")]
    assert any(line.startswith("A runs MR 10 + d6") for line in log)
    assert shots
    assert all(" vs TN 10: " in line for line in shots)


def test_prone_he_moves_by_creeping():
    """'While prone, you may move at your creeping MR or Shoot': his move chart is creeping."""
    r = chimera_fight(a_position="prone", a_kind="shoot")
    chart = CALCULATOR.views[2].chart(r)
    assert [label for label, _ in chart.bars] == ["4", "5", "6", "7", "8", "9"]  # 10 − d6
    assert "Prone, A moves only by creeping (4 to 9 (mean 6.5))" in r.explain()
