"""Warfare: a character Dazed by the turn's earlier attacks of opportunity defends at +1.

Quick reference › 2.0 Rules › Combat › Dazing/Stunning: "A character is Dazed if
he takes (2 * Stamina) HLs of damage in a single turn from any combination of
sources, and Stunned if he takes (3 * Stamina) HLs of damage. Dazed characters
are at +1 difficulty to all actions". The attacks of opportunity of one turn come
one after another, so once the earlier ones have dealt 2 × Stamina levels, each
later one meets his defence at +1 difficulty (rules note RN-WAR-13).

The expected values are worked by hand or by brute force over the dice faces
and the order of the attacks, written out here, not by the engine's tables.
"""

from fractions import Fraction
from itertools import product

from ruleslab.calculators.warfare import roll_turn, warfare
from ruleslab.quickref.damage import sum_with_dazing


def _successes(faces: tuple[int, ...]) -> int:
    return sum(1 for f in faces if f >= 7)


def _pool(n: int) -> dict[int, Fraction]:
    """P(k successes) of n d10 by enumerating every face."""
    out: dict[int, Fraction] = {}
    for faces in product(range(1, 11), repeat=n):
        k = _successes(faces)
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 10**n)
    return out


def test_two_coin_attacks_by_hand():
    # before Dazed: one level on a fair coin; after: one level a quarter of the time.
    before = (Fraction(1, 2), Fraction(1, 2))
    after = (Fraction(3, 4), Fraction(1, 4))
    # Dazed at 1 level: 0 then before → 0 or 1 (¼ each); 1 then after → 1 (3/8) or 2 (1/8).
    assert sum_with_dazing(before, after, 2, 1) == (
        Fraction(1, 4),
        Fraction(1, 4) + Fraction(3, 8),
        Fraction(1, 8),
    )
    # Never reached: the same as independent attacks.
    assert sum_with_dazing(before, after, 2, 5) == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert sum_with_dazing(before, after, 0, 2) == (Fraction(1),)


def test_calculator_against_brute_force_over_the_attack_order():
    # Size 3 (3 attacks; Intelligence 3 + Command 3 allow them), Skill 1: 4 attack dice;
    # Firepower 1: 4 damage dice; Wits 1 + Tactics 0: 1 defence die, rolled; the party's
    # force is Size 3, so no Size penalty. Stamina 1: Dazed at 2 levels, Stunned at 3.
    force = {
        "enemy_size": 3,
        "enemy_skill": 1,
        "enemy_firepower": 1,
        "party_size": 3,
        "wits": 1,
        "tactics": 0,
        "stamina": 1,
    }
    r = warfare(**force)
    assert (r.attacks, r.attack_dice, r.damage_dice, r.defence_dice) == (3, 4, 4, 1)
    attack, defence, damage = _pool(4), _pool(1), _pool(4)

    def p_hit(penalty: int) -> Fraction:
        # hit: attack successes − max(0, defence successes − penalty) ≥ 1
        return sum(
            (
                pa * pd
                for a, pa in attack.items()
                for d, pd in defence.items()
                if a - max(0, d - penalty) >= 1
            ),
            Fraction(0),
        )

    fresh, dazed = p_hit(0), p_hit(1)
    assert fresh < dazed == sum((p for a, p in attack.items() if a >= 1), Fraction(0))

    totals: dict[int, Fraction] = {}

    def walk(left: int, total: int, p: Fraction) -> None:
        if not left:
            totals[total] = totals.get(total, Fraction(0)) + p
            return
        hit = dazed if total >= 2 else fresh
        walk(left - 1, total, p * (1 - hit))
        for levels, pl in damage.items():
            walk(left - 1, total + levels, p * hit * pl)

    walk(3, 0, Fraction(1))
    expected = tuple(totals.get(k, Fraction(0)) for k in range(max(totals) + 1))
    assert r.damage_pmf == expected
    assert r.expected_damage == sum(k * p for k, p in totals.items())
    assert r.p_hit == fresh
    assert r.p_hit_dazed == dazed
    figures = {f.key: f.value for f in r.figures()}
    assert figures["p_dazed"] == sum(p for k, p in totals.items() if k >= 2)
    assert figures["p_stunned"] == sum(p for k, p in totals.items() if k >= 3)

    # The rules option "ignore": independent attacks, all at the fresh chance.
    ignored = warfare(**force, dazing="ignore")
    assert ignored.expected_damage == 3 * fresh * Fraction(4 * 2, 5)
    assert ignored.expected_damage < r.expected_damage
    assert "p_dazed" not in {f.key for f in ignored.figures()}


def test_mega_stamina_counts_double():
    # Stamina 1 + Mega-Stamina 1 = 3: Dazed at 6, Stunned at 9
    r = warfare(stamina=1, mega_stamina=1)
    assert (r.dazed_at, r.stunned_at) == (6, 9)
    assert any("Mega-Stamina 1" in s.text for s in r.steps)


def test_squads_are_not_dazed():
    r = warfare(target="squad")
    assert r.dazed_at is None
    assert r.p_hit_dazed is None
    assert "p_dazed" not in {f.key for f in r.figures()}


def test_roll_log_applies_the_penalty_after_the_dazing_hit():
    kwargs = dict(enemy_size=6, commander_command=5, party_size=6, stamina=1)
    r = warfare(**kwargs)
    seen = 0
    for seed in range(40):
        lines = roll_turn(r, seed)
        dazed = False
        total = 0
        for line in lines[1:-1]:
            assert ("− 1 Dazed" in line) == dazed, line
            if ": HIT" in line:
                total += int(line.rsplit("→ ", 1)[1].split()[0])
            if "Dazed (+1 difficulty" in line or "Stunned (+1 difficulty" in line:
                assert not dazed
                assert total >= 2
                dazed = True
                seen += 1
    assert seen > 10
