"""The defender's conditions in the Initiative & defence calculator (issue 19): sprinting,
an active defence among his actions, Dazed/Stunned, encumbrance; hand-worked from the text.

Every chance below is P(at least k successes on n d10, each succeeding on 7+ with 4/10),
summed by the binomial formula (:func:`at_least`), never by the code under test.
Defaults: Dex 3, Wits 3, Athletics 2, Melee/Brawl 2 (active defence and dodge: 5 dice),
attack pool 6 at difficulty 1, 3 actions, stepwise penalties (1st +0, 2nd +1, 3rd +2).
"""

from fractions import Fraction

import pytest
from dice_oracle import at_least

from ruleslab.calculators.defence import initiative_and_defence as calc
from ruleslab.character import Character, Conditions


def actions(r):
    return r.multiple.difficulties, r.multiple.chances, r.multiple.p_all


# --- sprinting: no actions but defensive maneuvers, +1 to those (RN-COND-2) -------------


@pytest.mark.parametrize(("n", "pool"), [(3, 6), (1, 4)])
def test_sprinting_allows_no_actions(n, pool):
    before = calc(actions=n, attack_pool=pool)
    # before: k-th action at difficulty 1 + (k − 1)
    chances = tuple(at_least(pool, k) for k in range(1, n + 1))
    assert actions(before)[:2] == (tuple(range(1, n + 1)), chances)
    after = calc(actions=n, attack_pool=pool, sprinting=True)
    # after: "may not take any actions during the turn except defensive maneuvers"
    assert actions(after) == ((), (Fraction(0),) * n, Fraction(0))
    assert "not allowed (sprinting" in after.figure("action_chances").text
    assert after.figure("p_all_actions").text.startswith("0 %")


@pytest.mark.parametrize(("dex", "athletics"), [(3, 2), (2, 4)])
def test_sprinting_adds_one_to_the_defence_rolls(dex, athletics):
    pool = dex + athletics  # Dex ≥ Wits 2 and Athletics ≥ Melee/Brawl 2
    args = dict(dexterity=dex, wits=2, athletics=athletics, power_pool=4)
    before, after = calc(**args), calc(**args, sprinting=True)
    assert before.defense.active.p_success == at_least(pool, 1)
    assert after.defense.active.p_success == at_least(pool, 2)
    assert after.defense.power_roll.p_success == at_least(4, 2)
    d20 = calc(ruleset="2.0", **args, sprinting=True)
    assert (d20.maneuvers.dodge.difficulty, d20.maneuvers.powerblock.difficulty) == (2, 2)
    # with an active defence, the sprinter's only action: no multiple-action penalty
    assert calc(**args, sprinting=True, active_defence=True).defense.active.difficulty == 2


# --- an active defence takes an action (RN-COND-3, RN-DEF-9) ----------------------------


@pytest.mark.parametrize(
    ("n", "reading", "position", "declared", "defence"),
    [
        # 2 declared + defence = 3 actions; stepwise 0, 1, 2; the defence last: +2
        (2, "stepwise", "last", (1, 2), 3),
        # … the defence first: +0, the declared actions +1, +2
        (2, "stepwise", "first", (2, 3), 1),
        # "all": every one of the 3 at +2 (without the defence: 2 actions, both +1)
        (2, "all", "last", (3, 3), 3),
        # 1 declared + defence = 2 actions: 0, +1
        (1, "stepwise", "last", (1,), 2),
        (1, "stepwise", "first", (2,), 1),
        # compounding, 3 + defence = 4 actions: 0, 1, 3, 6; the defence last: +6
        (3, "compounding", "last", (1, 2, 4), 7),
    ],
)
def test_an_active_defence_is_one_more_action(n, reading, position, declared, defence):
    args = dict(multiple_reading=reading, defence_position=position)
    before = calc(actions=n, **args)
    assert before.defense.active.difficulty == 1
    # n declared actions and the defence: n + 1 actions, the defence among them
    after = calc(actions=n + 1, **args, active_defence=True)
    assert after.multiple.difficulties == declared
    assert after.multiple.chances == tuple(at_least(6, d) for d in declared)
    assert after.defense.active.difficulty == defence
    assert after.defense.active.p_success == at_least(5, defence)


def test_all_reading_before_the_defence():
    assert calc(actions=2, multiple_reading="all").multiple.difficulties == (2, 2)


# --- Dazed / Stunned: +1 to all actions; Stunned a single action (RN-COND-4) ------------


@pytest.mark.parametrize(("n", "expected"), [(3, (2, 3, 4)), (1, (2,))])
def test_dazed_adds_one_to_every_action_and_the_active_defence(n, expected):
    assert calc(actions=n).multiple.difficulties == tuple(range(1, n + 1))
    r = calc(actions=n, daze="dazed")
    assert r.multiple.difficulties == expected
    p_all = Fraction(1)
    for d in expected:
        p_all *= at_least(6, d)
    assert r.multiple.p_all == p_all
    assert r.defense.active.difficulty == 2  # an action: +1


def test_dazed_puts_the_20_maneuvers_at_plus_one():
    # issue 33 (RN-COND-4): a defensive maneuver is an action for "all actions"
    r = calc(ruleset="2.0", daze="dazed", power_pool=3)
    assert (r.maneuvers.dodge.difficulty, r.maneuvers.parry.difficulty) == (2, 2)
    assert r.maneuvers.powerblock.difficulty == 2
    assert "a defensive maneuver and so an action" in r.explain()


def test_the_other_reading_leaves_the_20_maneuvers_alone():
    # daze_on_defence "no_action": a 2.0 dodge or parry takes no action (action=False)
    r = calc(ruleset="2.0", daze="dazed", power_pool=3, daze_on_defence="no_action")
    assert (r.maneuvers.dodge.difficulty, r.maneuvers.parry.difficulty) == (1, 1)
    assert r.maneuvers.powerblock.difficulty == 1
    assert "takes no action" in r.explain()


@pytest.mark.parametrize(("n", "pool"), [(3, 6), (2, 4)])
def test_stunned_takes_a_single_action(n, pool):
    before = calc(actions=n, attack_pool=pool)
    assert len(before.multiple.difficulties) == n
    r = calc(actions=n, attack_pool=pool, daze="stunned")
    # one action, at 1 + 0 + 1 (Stunned: +1); the others not allowed
    assert r.multiple.difficulties == (2,)
    assert r.multiple.chances == (at_least(pool, 2),) + (Fraction(0),) * (n - 1)
    assert r.multiple.p_all == 0
    assert "not allowed (Stunned" in r.figure("action_difficulties").text


def test_stunned_with_an_active_defence_takes_only_the_defence():
    r = calc(actions=3, daze="stunned", active_defence=True)  # 2 declared + the defence
    assert r.multiple.difficulties == ()
    assert r.multiple.chances == (0, 0)
    # the defence, his one action: +1 Stunned, no multiple-action penalty
    assert r.defense.active.difficulty == 2
    one = calc(actions=1, daze="stunned")
    assert one.multiple.p_all == at_least(6, 2)  # his single action is allowed


# --- encumbrance: dodge moves, parry is "other physical", a power block is not ----------
# Str 3 + Might 0 = 3 dots: up to 15 kg per dot (45 kg) moderate, 20 kg per dot (60 kg)
# heavy. Moderate: +1 to movement; Heavy: +2 to movement, +1 to other physical actions.


@pytest.mark.parametrize(
    ("load", "dodge", "parry"), [(0, 1, 1), (30, 1, 1), (45, 2, 1), (60, 3, 2)]
)
def test_the_load_on_the_20_maneuvers(load, dodge, parry):
    r = calc(ruleset="2.0", load_kg=load, power_pool=4)
    m = r.maneuvers
    assert (m.dodge.difficulty, m.parry.difficulty, m.powerblock.difficulty) == (dodge, parry, 1)
    assert m.dodge.p_success == at_least(5, dodge)
    assert m.parry.p_success == at_least(5, parry)


@pytest.mark.parametrize(
    ("melee", "load", "active"),
    [
        (2, 0, 1),
        (2, 45, 2),  # Athletics 2 ≥ Melee/Brawl 2: a dodge, movement, Moderate +1
        (2, 60, 3),  # Heavy +2
        (3, 45, 1),  # Melee/Brawl 3: a parry, other physical, Moderate nothing
        (3, 60, 2),  # Heavy +1
    ],
)
def test_the_load_on_the_21_active_defence(melee, load, active):
    r = calc(melee_brawl=melee, load_kg=load, power_pool=4)
    assert r.defense.active.difficulty == active
    assert r.defense.active.p_success == at_least(3 + max(2, melee), active)
    assert r.defense.power_roll.difficulty == 1  # a power block is not physical


def test_more_strength_lightens_the_load():
    # Str 4 + Might 2 = 6 dots: 60 kg is 10 kg per dot, Light: nothing on a dodge
    r = calc(ruleset="2.0", load_kg=60, strength=4, might=2)
    assert r.maneuvers.dodge.difficulty == 1


# --- records and flat fields --------------------------------------------------------------


def test_a_character_record_and_flat_fields_give_the_same_report():
    traits = {"dexterity": 4, "mega_dexterity": 1, "wits": 3, "athletics": 3, "quantum": 4}
    hero = Character(**traits)
    turn = Conditions(actions=2, active_defence=True, daze="dazed", load_kg=50)
    by_record = calc(defender=hero, conditions=turn, power_pool=6)
    by_fields = calc(
        **traits, actions=2, active_defence=True, daze="dazed", load_kg=50, power_pool=6
    )
    assert by_record == by_fields
    mixed = calc(defender=Character(dexterity=1), **traits, conditions=turn, power_pool=6)
    assert mixed == by_record


def test_no_condition_no_change():
    # the same report as the rules without conditions (2.1 defaults: 3 actions 1, 2, 3)
    r = calc()
    assert r.multiple.difficulties == (1, 2, 3)
    assert r.multiple.p_all == at_least(6, 1) * at_least(6, 2) * at_least(6, 3)
    assert r.defense.active.p_success == at_least(5, 1)
