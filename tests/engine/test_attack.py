"""The ranged attack: pool, difficulty, dodge, tags, damage and soak, worked by hand.

icepool and numpy oracles are imported with ``pytest.importorskip`` inside the tests
(these tests also run in Pyodide).
"""

from fractions import Fraction

import pytest

from ruleslab.alterations.henchmen.area_vulnerability import against_squad
from ruleslab.params import InputError
from ruleslab.quickref.attack import Maneuver, resolve_attack
from ruleslab.quickref.conditions import SCALE_NOTE
from ruleslab.quickref.damage import damage_taken
from ruleslab.quickref.defence.dodge import TargetDefence
from ruleslab.quickref.weapons import Weapon, parse_tags

P, Q = Fraction(4, 10), Fraction(6, 10)  # a die's success / failure


def gun(damage=5, adds=0, tags="", accuracy=0, kind="lethal"):
    return Weapon(
        accuracy=accuracy,
        damage_dice=damage,
        damage_adds=adds,
        damage_type=kind,
        tags=parse_tags(tags),
    )


def attack(weapon, dexterity=1, ability=0, **kw):
    return resolve_attack(weapon=weapon, dexterity=dexterity, ability=ability, **kw)


def dodged(weapon, dexterity=1, ability=0, **kw):
    """A 2.0 attack: the target dodges with ``dodge_pool`` dice."""
    return attack(weapon, dexterity, ability, ruleset="2.0", **kw)


# --- pool and difficulty -------------------------------------------------------------


def test_pool_is_attribute_ability_accuracy():
    r = attack(gun(accuracy=1), dexterity=3, ability=2)
    assert r.pool == 6
    assert r.figure("pool").text == "6 dice"
    assert "Attack pool = Dexterity 3 + ability 2 + accuracy +1 = 6 dice" in r.explain()
    assert r.p_hit == 1 - Q**6


def test_mega_dexterity_counts_two_and_says_so():
    r = attack(gun(), dexterity=3, ability=2, mega_dexterity=2)
    assert r.pool == 3 + 4 + 2
    assert "Effective Dexterity in the attack pool = Dexterity 3 + 2 × Mega-Dexterity 2 = 7" in (
        r.explain()
    )
    assert "Quick reference › Mega-Attributes" in r.explain()
    assert r.reroll_tens  # 2.1: Mega-Attributes reroll 10s
    assert not attack(gun(), dexterity=3, ability=2, mega_dexterity=2, ruleset="2.0").reroll_tens


def test_specialty_by_ruleset():
    r21 = attack(gun(), dexterity=3, ability=2, specialty=True)
    r20 = attack(gun(), dexterity=3, ability=2, specialty=True, ruleset="2.0")
    assert (r21.pool, r21.reroll_tens) == (6, False)
    assert (r20.pool, r20.reroll_tens) == (5, True)


def test_negative_accuracy_never_makes_a_negative_pool():
    r = attack(gun(accuracy=-5), dexterity=1, ability=1)
    assert r.pool == 0
    assert r.p_hit == 0
    assert r.levels == (1,)
    assert r.expected_dice is None
    assert r.figure("expected_dice").text == "—"


def test_difficulty_adds_range_and_aircraft():
    r = dodged(gun(), base_difficulty=2, range_penalty=2, aircraft_penalty=1)
    assert r.difficulty == 5
    assert "Difficulty = base 2 + range 2 + aircraft 1 = 5 successes needed" in r.explain()
    # 2.1 without a target's Defense given: Defense 0, said so
    r21 = attack(gun(), base_difficulty=2, range_penalty=2, aircraft_penalty=1)
    assert r21.difficulty == 5
    text = r21.explain()
    assert "base 2 + range 2 + aircraft 1 + target's Defense 0 = 5 successes needed" in text
    assert "No target's Defense given: Defense 0 and no defensive action" in text


def test_guided_reduces_range_penalty_by_one_not_below_zero():
    assert attack(gun(tags="Guided"), range_penalty=2).difficulty == 1 + 1
    assert attack(gun(tags="Guided"), range_penalty=1).difficulty == 1
    assert attack(gun(tags="Guided"), range_penalty=0).difficulty == 1


def test_aa_ignores_the_aircraft_penalty_only():
    r = attack(gun(tags="AA"), aircraft_penalty=2, range_penalty=1)
    assert r.difficulty == 2
    assert "AA: fired at an aircraft without the aircraft penalty" in r.explain()


# --- hit and dodge -------------------------------------------------------------------


def test_one_die_each_by_hand():
    # hit iff A − D ≥ 1: A = 1 and D = 0
    r = dodged(gun(), dodge_pool=1)
    assert r.p_hit == P * Q


def test_guided_ignores_the_first_dodge_success():
    # with one dodge die, its only success is ignored: the dodge never matters
    r = dodged(gun(tags="Guided"), dodge_pool=1)
    assert r.p_hit == P
    # two dodge dice: only two dodge successes cancel one attack success
    r2 = dodged(gun(tags="Guided"), dodge_pool=2)
    assert r2.p_hit == P * (1 - P * P)


def test_difficulty_two_with_two_dice():
    r = attack(gun(), dexterity=2, base_difficulty=2)
    assert r.p_hit == P * P


def test_strafing_one_roll_each_target_dodges():
    # 2 attack dice, 1 dodge die per target, difficulty 1 + 1 (two targets)
    man = Maneuver(extra_difficulty=1, targets=2, label="short burst")
    r = dodged(gun(), dexterity=2, dodge_pool=1, maneuver=man)
    assert r.difficulty == 2
    assert r.p_hit == P * P * Q
    # at least one target fails to dodge: P(A = 2) · (1 − P(dodge)^2)
    assert r.p_any_hit == P * P * (1 - P * P)
    assert r.figure("p_any_hit").label == "Chance to hit at least one of 2 targets"
    assert "Strafing: one attack roll" in r.explain()


def test_any_hit_equals_hit_without_dodge():
    man = Maneuver(extra_difficulty=2, targets=3)
    r = attack(gun(), dexterity=4, maneuver=man)
    assert r.p_any_hit == r.p_hit


# --- damage ---------------------------------------------------------------------------


def test_one_die_one_damage_die_by_hand():
    r = attack(gun(damage=1), natural_soak=0)
    # hit (0.4) then 1 damage die (0.4): 1 level with 0.16
    assert r.levels == (1 - P * P, P * P)
    assert r.expected_levels == P * P
    assert r.p_wound == P * P


def test_extra_successes_add_a_die_each():
    r = attack(gun(damage=5), dexterity=2)
    # A = 1: 5 dice; A = 2: 1 extra success → 6 dice
    assert r.damage_dice == ((5, 0, 2 * P * Q), (6, 0, P * P))
    assert r.expected_dice == (5 * 2 * P * Q + 6 * P * P) / (1 - Q * Q)


def test_extra_success_options():
    add = attack(gun(damage=5), dexterity=2, extra_successes="add")
    none = attack(gun(damage=5), dexterity=2, extra_successes="none")
    assert add.damage_dice == ((5, 0, 2 * P * Q), (5, 1, P * P))
    assert none.damage_dice == ((5, 0, 1 - Q * Q),)


def test_extra_successes_count_beyond_the_difficulty_or_the_first():
    # 3 dice, difficulty 2: A = 2 is a bare hit, A = 3 one extra (default)
    beyond = attack(gun(damage=5), dexterity=3, base_difficulty=2)
    assert beyond.damage_dice == ((5, 0, 3 * P * P * Q), (6, 0, P**3))
    # "after the first": A = 2 already has one extra success
    first = attack(gun(damage=5), dexterity=3, base_difficulty=2, net_from="first")
    assert first.damage_dice == ((6, 0, 3 * P * P * Q), (7, 0, P**3))


def test_devastating_five_two_the_texts_example():
    # "Devastating (5 [2]) would deal +5 damage and an extra 2 damage adds for each extra success"
    r = attack(gun(damage=5, tags="Devastating (5 [2])"), dexterity=3)
    assert r.damage_dice == (
        (5, 0, 3 * P * Q * Q),
        (10, 2, 3 * P * P * Q),
        (15, 4, P**3),
    )
    assert "instead of +1" in r.explain()


def test_devastating_replaces_whatever_option():
    a = attack(gun(tags="Devastating(3)"), dexterity=2, extra_successes="none")
    assert a.damage_dice[-1][:2] == (8, 0)


def test_soak_via_damage_taken():
    w = gun(damage=4, adds=1)
    r = attack(w, dexterity=1, natural_soak=2, armour_soak=1)
    taken = damage_taken(dice=4, adds=1, kind="lethal", natural_soak=2, armour_soak=1)
    expect = [P * q for q in taken.levels]
    expect[0] += Q
    assert r.levels == tuple(expect)


def test_ap_reduces_armour_only():
    with_ap = attack(gun(damage=4, tags="AP(2)"), natural_soak=2, armour_soak=3)
    plain = attack(gun(damage=4), natural_soak=2, armour_soak=1)
    assert with_ap.levels == plain.levels
    assert "AP(2): armour soak 3 − 2 = 1 (not below 0); natural soak 2 unchanged" in (
        with_ap.explain()
    )
    # AP beyond the armour does not touch natural soak
    big = attack(gun(damage=4, tags="AP(9)"), natural_soak=2, armour_soak=3)
    assert big.levels == attack(gun(damage=4), natural_soak=2).levels


def test_a_hit_that_fails_to_penetrate_pings():
    r = attack(gun(damage=2), natural_soak=3)
    # every hit pings: 1 die of bashing
    assert r.p_ping == P
    assert r.levels == (1 - P * P, P * P)
    assert "pings for bashing" in r.explain()


def test_stun_that_fails_to_penetrate_does_nothing():
    r = attack(gun(damage=2, kind="stun"), natural_soak=3)
    assert r.levels == (1,)
    assert r.p_ping == 0


@pytest.mark.parametrize(
    ("tag", "why"),
    [
        ("Area(3)", "none against a character's health levels"),
        ("Scale [2]", "Scale [2]: " + SCALE_NOTE),
        ("Fast-Tracking [1]", "Fast-Tracking [1]: " + SCALE_NOTE),
    ],
)
def test_tags_without_numbers_are_reported_not_applied_and_say_why(tag, why):
    r = attack(gun(tags=tag), dexterity=3, natural_soak=1)
    plain = attack(gun(), dexterity=3, natural_soak=1)
    assert r.levels == plain.levels
    assert r.p_hit == plain.p_hit
    text = r.explain()
    assert why in text
    assert "reported, not applied" in text or "changes no figure" in text
    assert "Weapon Tags › " + type(r.weapon.tags[0]).heading in text


def test_levels_sum_to_one():
    r = dodged(gun(damage=6, adds=1), dexterity=4, ability=2, dodge_pool=3, natural_soak=2)
    assert sum(r.levels) == 1


def test_rerolled_tail_is_reported():
    r = attack(gun(), dexterity=3, ability=2, mega_dexterity=1)
    assert 0 < r.unresolved < Fraction(1, 10**12)
    assert sum(r.levels) == 1 - r.unresolved
    assert "left out of every figure" in r.explain()


def test_hits_beyond_damage_taken_range_are_lower_bounds():
    r = attack(
        gun(damage=60, tags="Devastating (100)"),
        dexterity=10,
        ability=10,
    )
    assert r.damage_unresolved > 0
    assert r.figure("expected_levels").text.startswith("≥ ")
    assert r.figure("p_wound").text.startswith("≥ ")
    assert sum(r.levels) == 1 - r.unresolved


# --- oracles -------------------------------------------------------------------------


def _icepool_levels(icepool, n_att, n_dodge, guided, diff, base_dice, adds, per, soak, kind):
    """Health levels lost, built independently with icepool (no rerolls)."""
    hit = icepool.d10 >= 7
    attack_hits = n_att @ hit
    dodge_hits = n_dodge @ hit if n_dodge else icepool.Die([0])

    def outcome(a, d):
        d = max(0, d - 1) if guided else d
        net = a - d
        if net < diff:
            return 0
        dice = base_dice + per * (net - diff)
        left = max(0, dice - soak)
        if left >= 1:
            return left @ hit + adds
        return 0 if kind == "stun" else hit

    return icepool.map(outcome, attack_hits, dodge_hits)


@pytest.mark.parametrize(
    ("n_att", "n_dodge", "tags", "diff", "dmg", "adds", "soak"),
    [
        (5, 3, "", 1, 4, 1, 2),
        (6, 4, "Guided", 2, 3, 0, 3),
        (4, 2, "Devastating(2)", 1, 2, 2, 4),
        (7, 0, "", 3, 6, 0, 1),
    ],
)
def test_levels_match_icepool(n_att, n_dodge, tags, diff, dmg, adds, soak):
    icepool = pytest.importorskip("icepool")
    r = dodged(
        gun(damage=dmg, adds=adds, tags=tags),
        dexterity=n_att,
        base_difficulty=diff,
        dodge_pool=n_dodge,
        natural_soak=soak,
    )
    per = 2 if "Devastating" in tags else 1
    die = _icepool_levels(icepool, n_att, n_dodge, "Guided" in tags, diff, dmg, adds, per, soak, "")
    for k, p in enumerate(r.levels):
        assert die.probability(k) == p, k
    assert sum(r.levels) == 1


def test_any_hit_matches_icepool():
    icepool = pytest.importorskip("icepool")
    man = Maneuver(extra_difficulty=2, targets=3)
    r = dodged(gun(), dexterity=5, dodge_pool=2, maneuver=man)
    hit = icepool.d10 >= 7
    attack_hits, dodge_hits = 5 @ hit, 2 @ hit
    any_hit = icepool.map(
        lambda a, d1, d2, d3: any(a - d >= 3 for d in (d1, d2, d3)),
        attack_hits,
        dodge_hits,
        dodge_hits,
        dodge_hits,
    )
    assert any_hit.probability(True) == r.p_any_hit


def test_rerolls_match_numpy_monte_carlo():
    np = pytest.importorskip("numpy")
    # Mega-Dexterity 1 (2.1): 3 + 2 + 1 = 6 dice rerolling 10s, vs a 3-die active defence
    # (Defense 0); Guided; difficulty 2; 4 [1] lethal, soak 2
    r = attack(
        gun(damage=4, adds=1, tags="Guided"),
        dexterity=3,
        mega_dexterity=1,
        ability=1,
        base_difficulty=2,
        target=TargetDefence(ruleset="2.1", roll="active defence", dice=3),
        natural_soak=2,
    )
    assert r.pool == 6
    assert r.reroll_tens
    rng = np.random.default_rng(20240601)
    n = 200_000

    def exploding(dice):
        total = np.zeros(n, dtype=np.int64)
        live = np.full(n, dice)
        while live.any():
            faces = rng.integers(1, 11, size=(n, live.max()))
            mask = np.arange(live.max()) < live[:, None]
            total += ((faces >= 7) & mask).sum(axis=1)
            live = ((faces == 10) & mask).sum(axis=1)
        return total

    a = exploding(6)
    d = (rng.integers(1, 11, size=(n, 3)) >= 7).sum(axis=1)
    net = a - np.maximum(0, d - 1)
    hit = net >= 2
    dice = 4 + np.maximum(0, net - 2)
    left = np.maximum(0, dice - 2)
    damage = rng.integers(1, 11, size=(n, 70)) >= 7
    rolled = (damage & (np.arange(70) < left[:, None])).sum(axis=1) + 1
    levels = np.where(hit, rolled, 0)
    # 4 standard errors
    p_hit = hit.mean()
    assert abs(p_hit - float(r.p_hit)) < 4 * (float(r.p_hit) * (1 - float(r.p_hit)) / n) ** 0.5
    mean = levels.mean()
    se = levels.std() / n**0.5
    assert abs(mean - float(r.expected_levels)) < 4 * se
    for k in range(4):
        p = float(r.levels[k])
        assert abs((levels == k).mean() - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-4


# --- the target's 2.1 Defense (issue 10) --------------------------------------------------


def test_21_defense_is_added_to_the_difficulty_and_the_roll_cancels():
    # Defense 2 and a 1-die active defence: 3 attack dice hit iff A − D ≥ 1 + 2
    target = TargetDefence(ruleset="2.1", defense=2, roll="active defence", dice=1)
    r = attack(gun(), dexterity=3, target=target)
    assert r.difficulty == 3
    assert r.p_hit == P**3 * Q
    assert r.figure("difficulty").text == "3 (target's Defense +2 included)"
    assert r.figure("target_defence").text == "Defense +2, active defence 1 die"
    assert "Hit when attack successes − active defence successes ≥ 3" in r.explain()


def test_21_extra_successes_count_beyond_the_defense_too():
    # Defense 1, no roll: 3 dice, difficulty 2; A = 3 is one extra success (6 dice)
    r = attack(gun(damage=5), dexterity=3, target=TargetDefence(ruleset="2.1", defense=1))
    assert r.damage_dice == ((5, 0, 3 * P * P * Q), (6, 0, P**3))


def test_guided_does_not_ignore_a_power_blocks_success():
    block = TargetDefence(ruleset="2.1", roll="power block", dice=1, guided_ignores_first=False)
    r = attack(gun(tags="Guided"), target=block)
    assert r.p_hit == P * Q
    assert "a power block is not a dodge" in r.explain()


def test_a_dodge_pool_does_not_mix_with_a_21_target():
    with pytest.raises(ValueError, match=r"2\.1 has no dodge pool"):
        attack(gun(), dodge_pool=2)
    with pytest.raises(ValueError, match="not beside it"):
        attack(gun(), dodge_pool=2, target=TargetDefence(ruleset="2.1"))
    with pytest.raises(ValueError, match=r"a 2\.0 target against a 2\.1 attack"):
        attack(gun(), target=TargetDefence(ruleset="2.0"))


# --- against a squad of henchmen (Area Vulnerability) --------------------------------


def _squad_oracle(dice, damage, soak, henchmen, multiplier, divisor, up=False):
    """P(k henchmen removed), by brute force over every face of the attack's ``dice``
    d10s and of the damage dice: difficulty 1, +1 damage die per success after the
    first, lethal damage, soak ``soak`` (a failed penetration pings 1 bashing die);
    removed = min(henchmen, points × multiplier ÷ divisor, rounded down or up)."""
    import itertools

    out = [Fraction(0)] * (henchmen + 1)
    for faces in itertools.product(range(1, 11), repeat=dice):
        succ = sum(f >= 7 for f in faces)
        if succ < 1:
            out[0] += Fraction(1, 10**dice)
            continue
        left = damage + (succ - 1) - soak
        rolled = max(left, 1)  # at least the ping die
        for dmg in itertools.product(range(1, 11), repeat=rolled):
            points = sum(f >= 7 for f in dmg)
            scaled = points * multiplier
            lost = -(-scaled // divisor) if up else scaled // divisor
            out[min(henchmen, lost)] += Fraction(1, 10 ** (dice + rolled))
    return out


@pytest.mark.parametrize(
    ("tags", "multiplier", "training", "divisor", "rounding"),
    [
        ("Area(2)", 2, "regular", 1, "down"),
        ("Area(5)", 3, "trained", 2, "down"),
        ("Area(9)", 4, "fanatical", 3, "up"),
        ("", 4, "trained", 2, "down"),  # no Area tag: × 1 whatever the multiplier
    ],
)
def test_area_against_a_squad_matches_brute_force(tags, multiplier, training, divisor, rounding):
    # 2 attack dice, 2 damage dice, soak 1, a squad of 5
    r = attack(gun(damage=2, tags=tags), dexterity=2, natural_soak=1)
    squad = against_squad(
        r, henchmen=5, training=training, area_multiplier=multiplier, rounding=rounding
    )
    applied = multiplier if tags else 1
    assert squad.area == applied
    expect = _squad_oracle(2, 2, 1, 5, applied, divisor, up=rounding == "up")
    assert list(squad.removed) == expect
    assert squad.mean_removed == sum(k * p for k, p in enumerate(expect))
    assert squad.p_any == 1 - expect[0]
    assert squad.p_cleared == expect[5]


def test_area_against_a_squad_by_hand():
    # 1 attack die, 1 damage die, no soak: hit P = 4/10 → 1 damage die + 0 extra;
    # the die scores with P 4/10: 1 point × 2 (Area) = 2 henchmen. So P(2 removed) = 16/100.
    r = attack(gun(damage=1, tags="Area(1)"), dexterity=1, natural_soak=0)
    squad = against_squad(r, henchmen=3)
    assert squad.removed == (1 - P * P, 0, P * P, 0)
    assert squad.mean_removed == 2 * P * P
    # × 4 against a squad of 3: the one point removes all three (capped)
    four = against_squad(r, henchmen=3, area_multiplier=4)
    assert four.removed == (1 - P * P, 0, 0, P * P)
    assert four.p_cleared == P * P
    text = four.explain()
    assert "Area(1) against a squad: all post-soak damage is quadrupled, × 4" in text
    assert "Area Vulnerability" in text
    assert "Area attack: post-soak damage 1 × 4 = 4" in text  # squad_losses' own step
    assert "Henchmen removed = min(3, 4) = 3; 0 remain" in text


def test_squad_without_area_tag_says_the_multiplier_is_not_used():
    r = attack(gun(damage=1), dexterity=1, natural_soak=0)
    squad = against_squad(r, henchmen=3, area_multiplier=3)
    assert squad.area == 1
    assert "No Area tag: the area vulnerability does not apply" in squad.explain()


@pytest.mark.parametrize("bad", [1, 5, True])
def test_area_multiplier_is_two_to_four(bad):
    r = attack(gun(damage=1, tags="Area(1)"), dexterity=1)
    with pytest.raises(InputError) as err:
        against_squad(r, henchmen=3, area_multiplier=bad)
    assert err.value.field == "area_multiplier"


def test_scale_and_fast_tracking_are_said_once_in_one_step():
    # RN-COND-6: both tags on one weapon give one step, the one sentence of
    # ruleslab.quickref.conditions
    r = attack(gun(tags="Scale [2], Fast-Tracking [1]"), dexterity=3, natural_soak=1)
    said = [s.text for s in r.steps if SCALE_NOTE in s.text]
    assert said == ["Scale [2], Fast-Tracking [1]: " + SCALE_NOTE]
    assert sum("reported, not applied" in s.text for s in r.steps) == 1
