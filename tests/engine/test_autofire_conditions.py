"""Autofire & strafing: the attacker's and the target's conditions (issue 19, RN-COND-1..5).

Every expectation is worked by hand from the text (the arithmetic in a comment) or by
brute force over the dice; none is computed by the code under test. A d10 succeeds on
7+ (P = 4/10, Q = 6/10); no pool here rerolls 10s.
"""

import itertools
from fractions import Fraction

import pytest
from dice_oracle import P, Q
from helpers_autofire import refusal

from ruleslab.calculators.autofire import CALCULATOR, autofire_and_strafing
from ruleslab.character import Character, Conditions

SHOT = dict(burst="none", accuracy=0, tags="", base_difficulty=1)
"""A single shot with no accuracy: the pool is Dex + ability, difficulty 1 (+ conditions)."""
BARE = dict(target_dexterity=1, target_wits=1)
"""A 2.1 target with Defense ⌊1 ÷ 2⌋ = 0."""


def p_hit(**kw):
    return autofire_and_strafing(**{**SHOT, **BARE, **kw}).p_hit


# --- the attacker's conditions on the attack roll ---------------------------------------


@pytest.mark.parametrize(
    ("dex", "ability", "before", "dazed"),
    [
        # 2 dice: P(≥1) = 1 − Q² = 0.64; Dazed, difficulty 2: P(≥2) = P² = 0.16
        (1, 1, 1 - Q**2, P**2),
        # 3 dice: P(≥1) = 1 − Q³ = 0.784; difficulty 2: 3P²Q + P³ = 0.288 + 0.064 = 0.352
        (2, 1, 1 - Q**3, 3 * P**2 * Q + P**3),
    ],
)
def test_a_dazed_or_stunned_attacker_is_at_plus_one(dex, ability, before, dazed):
    # "Dazed characters are at +1 difficulty to all actions, Stunned ones suffer +1"
    assert p_hit(dexterity=dex, ability=ability) == before
    assert p_hit(dexterity=dex, ability=ability, daze="dazed") == dazed
    assert p_hit(dexterity=dex, ability=ability, daze="stunned") == dazed
    r = autofire_and_strafing(**SHOT, **BARE, dexterity=dex, ability=ability, daze="dazed")
    assert r.figure("difficulty").value == 2
    assert any(s.text.startswith("Dazed: +1 difficulty to the attack roll") for s in r.steps)


@pytest.mark.parametrize(
    ("dex", "ability", "actions", "before", "after"),
    [
        # 2.1, 3 dice, 3 actions: +2, difficulty 3: P(≥3) = P³ = 0.064 (one action: 0.784)
        (2, 1, 3, 1 - Q**3, P**3),
        # 2 dice, 2 actions: +1, difficulty 2: P² = 0.16 (one action: 1 − Q² = 0.64)
        (1, 1, 2, 1 - Q**2, P**2),
    ],
)
def test_the_attackers_other_actions_add_their_penalty_under_21(
    dex, ability, actions, before, after
):
    # "Every additional action past the first adds a cumulative +1 difficulty penalty"
    assert p_hit(dexterity=dex, ability=ability) == before
    assert p_hit(dexterity=dex, ability=ability, actions=actions) == after
    # 2.0 has no such penalty (no dodge: the attack's own difficulty 1)
    kw = dict(**SHOT, dexterity=dex, ability=ability, ruleset="2.0")
    assert autofire_and_strafing(**kw, actions=actions).p_hit == before


@pytest.mark.parametrize(
    ("strength", "light_load", "heavy_load"),
    [
        # Str 3: heavy above 15 kg × 3 = 45 kg; 40 kg is moderate (no difficulty on an
        # attack, "other physical"), 60 kg heavy: "+1 difficulty to all other physical actions"
        (3, 40.0, 60.0),
        # Str 5: heavy above 75 kg; 60 kg moderate, 80 kg heavy
        (5, 60.0, 80.0),
    ],
)
def test_a_heavy_load_puts_the_attack_at_plus_one(strength, light_load, heavy_load):
    # 2 dice: 1 − Q² = 0.64 at difficulty 1; P² = 0.16 at difficulty 2
    kw = dict(dexterity=1, ability=1, strength=strength)
    assert p_hit(**kw) == 1 - Q**2
    assert p_hit(**kw, load_kg=light_load) == 1 - Q**2
    assert p_hit(**kw, load_kg=heavy_load) == P**2


def test_a_sprinting_attacker_may_not_attack():
    # "Sprinting characters may not take any actions during the turn except defensive
    # maneuvers": priced at no chance (RN-COND-2); a Python caller's record
    r = autofire_and_strafing(**SHOT, **BARE, conditions=Conditions(sprinting=True))
    assert r.p_hit == 0
    assert any("Sprinting: he may take no action" in s.text for s in r.steps)


def test_a_stunned_character_takes_a_single_action():
    # "Stunned ones … may not take more than a single action": the attack (or the target's
    # active defence) is his one action, the others not allowed (issue 33: the Initiative
    # & defence calculator's behaviour): no multiple-action penalty, only Stunned's +1
    one = autofire_and_strafing(daze="stunned", actions=1)
    more = autofire_and_strafing(daze="stunned", actions=2)
    assert more.p_hit == one.p_hit
    assert "the other 1 of his 2 actions this turn are not allowed" in more.explain()
    defends = dict(target_defends="active", target_daze="stunned")
    assert (
        autofire_and_strafing(**defends, target_actions=2).p_hit
        == autofire_and_strafing(**defends, target_actions=1).p_hit
    )


# --- the target's conditions on its defence roll ----------------------------------------

ONE_ON_ONE = dict(dexterity=1, ability=0, target_dexterity=1, target_wits=1, target_ability=0)
"""1 attack die (Dex 1) against a 1-die active defence (higher of Dex or Wits 1 + 0)."""


@pytest.mark.parametrize(
    "conditions",
    [
        dict(target_actions=2),  # its active defence and one more action: +1
        dict(target_daze="dazed"),  # an active defence is an action: +1
        dict(target_sprinting=True),  # +1 to all defensive maneuvers
    ],
)
@pytest.mark.parametrize("defends", ["active", "power_block"])
def test_a_one_die_defence_at_plus_one_cancels_nothing(conditions, defends):
    # before: hit iff A − D ≥ 1: A = 1 and D = 0, P·Q = 0.24
    # after (spend): the defence's one possible success pays for the +1: P(hit) = P = 0.4
    kw = dict(**SHOT, **ONE_ON_ONE, target_defends=defends, target_power_pool=1)
    assert autofire_and_strafing(**kw).p_hit == P * Q
    r = autofire_and_strafing(**kw, **conditions)
    assert r.p_hit == P
    assert any("rules note RN-COND-5" in s.text for s in r.steps)


def test_the_active_defence_is_counted_among_the_targets_actions():
    # 3 actions, its active defence one of them: +(3 − 1) = +2 to the defence roll
    r = autofire_and_strafing(**SHOT, **ONE_ON_ONE, target_defends="active", target_actions=3)
    assert r.p_hit == P
    assert any(
        s.text.startswith("3 actions this turn, his active defence one of them: +2 difficulty")
        for s in r.steps
    )
    # without a defensive action, its other actions touch no roll here (P(A ≥ 1) = 0.4)
    assert autofire_and_strafing(**SHOT, **ONE_ON_ONE, target_actions=3).p_hit == P


def test_a_20_dodge_takes_sprinting_and_daze():
    # 2.0: 2 attack dice (Dex 1 + ability 1) against a 2-die dodge, difficulty 1.
    # before: A=1 (2PQ = 0.48) with D=0 (Q² = 0.36): 0.1728; A=2 (P² = 0.16) with D≤1
    #   (1 − P² = 0.84): 0.1344; total 0.3072
    # sprinting, +1 (spend): D' = max(0, D − 1): D=2 (0.16) → D'=1, needs A=2 (0.16): 0.0256;
    #   D≤1 (0.84) → D'=0, needs A≥1 (0.64): 0.5376; total 0.5632
    # threshold: D counts only at 2 (then 2, needs A ≥ 3: never): 0.84 × 0.64 = 0.5376
    kw = dict(**SHOT, ruleset="2.0", dexterity=1, ability=1, dodge_pool=2)
    assert autofire_and_strafing(**kw).p_hit == Fraction(3072, 10000)
    assert autofire_and_strafing(**kw, target_sprinting=True).p_hit == Fraction(5632, 10000)
    threshold = autofire_and_strafing(**kw, target_sprinting=True, defence_difficulty="threshold")
    assert threshold.p_hit == Fraction(5376, 10000)
    # "Dazed … +1 difficulty to all actions": a defensive maneuver is an action for it
    # (issue 33, RN-COND-4), so a Dazed dodge is the sprinter's +1: 0.5632; the other
    # reading (a 2.0 dodge takes no action) leaves it at 0.3072
    assert autofire_and_strafing(**kw, target_daze="dazed").p_hit == Fraction(5632, 10000)
    untouched = autofire_and_strafing(**kw, target_daze="dazed", daze_on_defence="no_action")
    assert untouched.p_hit == Fraction(3072, 10000)


def _brute_force(attack_dice, defence_dice, difficulty, added, reading):
    """P(hit) over every face of every die: hit iff attack successes − counted ≥ difficulty."""
    hits = 0
    for faces in itertools.product(range(1, 11), repeat=attack_dice + defence_dice):
        a = sum(f >= 7 for f in faces[:attack_dice])
        d = sum(f >= 7 for f in faces[attack_dice:])
        if reading == "spend":
            counted = max(0, d - added)
        else:
            counted = d if d >= 1 + added else 0
        hits += a - counted >= difficulty
    return Fraction(hits, 10 ** (attack_dice + defence_dice))


@pytest.mark.parametrize("reading", ["spend", "threshold"])
@pytest.mark.parametrize(
    ("conditions", "added"),
    [
        ({}, 0),
        (dict(target_actions=2), 1),
        (dict(target_actions=2, target_daze="dazed"), 2),
        (dict(target_actions=2, target_daze="dazed", target_sprinting=True), 3),
    ],
)
def test_active_defence_with_added_difficulty_matches_brute_force(conditions, added, reading):
    # 3 attack dice (Dex 2 + Firearms 1) against Defense 0 and a 2-die active defence
    # (higher of Dex 1 or Wits 1 + Athletics 1), difficulty 1; 10⁵ faces enumerated
    kw = dict(**SHOT, dexterity=2, ability=1, target_dexterity=1, target_wits=1)
    r = autofire_and_strafing(
        **kw, target_ability=1, target_defends="active", defence_difficulty=reading, **conditions
    )
    assert r.figure("target_defence").text == "Defense +0, active defence 2 dice"
    assert r.p_hit == _brute_force(3, 2, 1, added, reading)


# --- records and the form -----------------------------------------------------------------


def test_records_and_flat_fields_give_the_same_result():
    by_record = autofire_and_strafing(
        attacker=Character(dexterity=4, mega_dexterity=1, firearms=3, strength=2, might=1),
        conditions=Conditions(load_kg=70.0, daze="dazed", actions=2),
        target=Character(dexterity=3, mega_dexterity=0, wits=4, mega_wits=1, athletics=3),
        target_conditions=Conditions(sprinting=True, actions=2),
        target_defends="active",
    )
    flat = autofire_and_strafing(
        dexterity=4,
        mega_dexterity=1,
        ability=3,
        strength=2,
        might=1,
        load_kg=70.0,
        daze="dazed",
        actions=2,
        target_dexterity=3,
        target_wits=4,
        target_mega_wits=1,
        target_ability=3,
        target_quantum=1,
        target_stamina=3,  # a Character's default Stamina (the form's target has 2)
        target_sprinting=True,
        target_actions=2,
        target_defends="active",
    )
    assert [(f.key, f.value) for f in by_record.figures()] == [
        (f.key, f.value) for f in flat.figures()
    ]
    assert by_record.steps == flat.steps
    # Str 2 + Might 1 = 3 dots: 70 kg > 45 heavy (+1), Dazed +1, 2 actions +1: difficulty
    # 1 + 3 + the target's Defense ⌊min(3, 4 + 2) ÷ 2⌋ = 1 → 5
    assert flat.figure("difficulty").value == 5


def test_an_active_defence_in_the_record_must_be_the_defensive_action():
    err = refusal(autofire_and_strafing, target_conditions=Conditions(active_defence=True))
    assert err.field == "target_defends"
    r = autofire_and_strafing(
        target_conditions=Conditions(active_defence=True), target_defends="active"
    )
    assert r.p_hit == autofire_and_strafing(target_defends="active").p_hit


def test_old_field_names_and_defaults_are_kept():
    defaults = {p.name: p.default for p in CALCULATOR.params}
    assert {n: defaults[n] for n in ("dexterity", "mega_dexterity", "ability")} == {
        "dexterity": 3,
        "mega_dexterity": 0,
        "ability": 2,
    }
    assert {
        n: defaults[n]
        for n in (
            "target_dexterity",
            "target_mega_dexterity",
            "target_wits",
            "target_mega_wits",
            "target_ability",
            "target_quantum",
        )
    } == {
        "target_dexterity": 2,
        "target_mega_dexterity": 0,
        "target_wits": 2,
        "target_mega_wits": 0,
        "target_ability": 2,
        "target_quantum": 1,
    }
    labels = {p.name: p.label for p in CALCULATOR.params}
    assert labels["target_ability"] == "2.1: target's defending ability"
    assert labels["ability"] == "Attack ability (Firearms …)"
    assert defaults["defence_difficulty"] == "spend"
    assert "defence_difficulty" in CALCULATOR.options
