"""Autofire and strafing: the text's table, ammunition and targets (``ruleslab.quickref.autofire``),
and the Autofire & strafing calculator (``ruleslab.calculators.autofire``): its form,
figures, chart and messages."""

from dataclasses import replace
from fractions import Fraction

import pytest
from dice_oracle import P, Q
from helpers_autofire import AUTOFIRE_ONLY_21, assert_refused, refusal

from ruleslab.calculators.autofire import CALCULATOR, TAGS, AutofireReport, autofire_and_strafing
from ruleslab.declare import Chart
from ruleslab.quickref.attack import resolve_attack
from ruleslab.quickref.autofire import BURSTS, autofire_maneuver, rate_of_fire, rounds_used
from ruleslab.quickref.health import WOUND_TRAITS
from ruleslab.quickref.weapons import AP, Burst, Guided, Weapon

BARE = dict(target_dexterity=1, target_wits=1)
"""A 2.1 target with Defense ⌊1 ÷ 2⌋ = 0: the attack's own difficulty alone."""

FIGURE_KEYS = [
    "ammo_used",
    "difficulty",
    "target_defence",
    "p_hit",
    "expected_dice",
    "expected_levels",
    "p_wound",
    "p_any_hit",
    "pool",
]


@pytest.mark.parametrize(
    ("key", "accuracy", "damage", "shots"),
    [("short", 2, 1, 3), ("medium", 4, 2, 10), ("long", 6, 3, 20), ("sustained", 10, 5, 50)],
)
def test_the_texts_table(key, accuracy, damage, shots):
    # "Short Bursts: +2 Accuracy or +[1] Damage, 3 shots/bursts worth of ammunition" …
    b = BURSTS[key]
    assert (b.accuracy, b.damage, b.shots) == (accuracy, damage, shots)


def test_rounds_used():
    assert rounds_used("none", 1)[0] == 1
    assert rounds_used("short", 1)[0] == 3
    assert rounds_used("sustained", 1)[0] == 50
    # a Burst(3) weapon: a single shot fires 3 rounds; a short burst is 3 bursts
    assert rounds_used("none", 3)[0] == 3
    assert rounds_used("short", 3)[0] == 9
    assert rounds_used("short", 3, "rounds")[0] == 3


def test_defaults_figures_and_hand_worked_hit():
    r = autofire_and_strafing()
    assert [f.key for f in r.figures()] == FIGURE_KEYS
    # Dex 3 + ability 2 + accuracy 1 + short burst 2 = 8 dice; 2.1: the target's Dex 2,
    # Wits 2 give Defense 1, so difficulty 1 + 1 = 2
    assert r.figure("pool").value == 8
    assert r.p_hit == 1 - Q**8 - 8 * P * Q**7
    assert r.figure("ammo_used").text == "3 of 30 rounds"
    assert r.figure("difficulty").text == "2 (target's Defense +1 included)"
    assert autofire_and_strafing(ruleset="2.0").figure("difficulty").text == "1"
    assert sum(r.levels) == 1


def test_accuracy_choice_adds_dice():
    for key, b in BURSTS.items():
        r = autofire_and_strafing(burst=key, ammunition=50)
        assert r.attack.pool == 6 + b.accuracy


def test_damage_choice_adds_damage_adds_by_default():
    kw = dict(burst="medium", burst_use="damage", dexterity=1, ability=0, accuracy=0, **BARE)
    r = autofire_and_strafing(**kw)
    # 1 die: a hit is 5 dice + [2] adds
    assert r.attack.damage_dice == ((5, 2, P),)
    assert "+[2] Damage = +2 damage adds" in r.explain()
    dice = autofire_and_strafing(**kw, burst_damage="dice")
    assert dice.attack.damage_dice == ((7, 0, P),)


def test_single_shot_has_no_bonus():
    r = autofire_and_strafing(burst="none")
    assert r.attack.pool == 6
    assert r.ammo_used == 1


def test_strafing_adds_one_difficulty_per_additional_target():
    r = autofire_and_strafing(burst="medium", targets=4, **BARE)
    assert r.figure("difficulty").value == 1 + 3
    assert "Strafing 4 targets: +1 difficulty for each of the 3 additional targets" in (r.explain())
    assert r.figure("p_any_hit").label == "Chance to hit at least one of 4 targets"


def test_strafing_applies_one_roll_to_all_targets():
    # no dodge: every target is hit exactly when the one roll meets the difficulty
    r = autofire_and_strafing(burst="short", targets=3)
    assert r.attack.p_any_hit == r.p_hit == r.attack.p_hit
    dodged = autofire_and_strafing(burst="short", targets=3, dodge_pool=2, ruleset="2.0")
    assert dodged.attack.p_any_hit > dodged.p_hit


def test_more_targets_than_rounds_is_an_error():
    # "A single attack may not target more enemies than it uses rounds of ammunition"
    err = refusal(autofire_and_strafing, burst="short", targets=4)
    assert err.field == "targets"
    assert "Targets (strafing)" in err.message
    assert "at most 3" in err.message
    assert refusal(autofire_and_strafing, burst="none", targets=2).field == "targets"
    assert autofire_and_strafing(burst="short", targets=3, **BARE).figure("difficulty").value == 3


def test_burst_weapon_single_shot_may_strafe():
    r = autofire_and_strafing(burst="none", tags="Burst(3)", targets=3, **BARE)
    assert r.ammo_used == 3
    assert r.attack.pool == 6  # no burst bonus
    assert r.figure("difficulty").value == 3
    assert refusal(autofire_and_strafing, burst="none", tags="Burst(3)", targets=4).field == (
        "targets"
    )


def test_burst_weapon_autofire_uses_bursts():
    r = autofire_and_strafing(burst="short", tags="Burst(3)")
    assert r.ammo_used == 9
    assert (
        autofire_and_strafing(burst="short", tags="Burst(3)", burst_weapon_ammo="rounds").ammo_used
        == 3
    )


def test_not_enough_ammunition_is_an_error():
    err = refusal(autofire_and_strafing, burst="long", ammunition=19)
    assert err.field == "ammunition"
    assert "Ammunition available" in err.message
    assert "uses 20 rounds" in err.message
    assert autofire_and_strafing(burst="long", ammunition=20).ammo_used == 20
    assert refusal(autofire_and_strafing, burst="none", ammunition=0).field == "ammunition"


def test_bad_tag_text_names_the_field():
    err = refusal(autofire_and_strafing, tags="AP(2), Laser")
    assert err.field == "tags"
    assert err.message.startswith("Weapon tags")


@pytest.mark.parametrize(
    ("field", "value", "expect"),
    [
        ("dexterity", 11, "from 0 to 10"),
        ("dodge_pool", -1, "from 0 to 60"),
        ("base_difficulty", 0, "from 1 to 30"),
        ("targets", 0, "from 1 to 50"),
        ("dexterity", -1, "from 0 to 10"),
        ("burst", "huge", "one of"),
        ("burst_use", "both", "one of"),
        ("natural_soak", 61, "from 0 to 60"),
        ("ammunition", 10_001, "from 0 to 10,000"),
    ],
)
def test_bad_values_name_their_field(field, value, expect):
    assert_refused(autofire_and_strafing, field, value, expect)


def test_tags_are_read_by_the_fields_parser_into_their_standard_text():
    # the form reads the text (every message naming the field); the weapon holds the
    # tags written back, and the attack the parsed tags
    tags = TAGS.parse("ap ( 2 ) ;guided")
    assert tags == "AP(2), Guided"
    values = {**CALCULATOR.defaults(), "tags": tags, "burst": "none"}
    r = CALCULATOR.run(values)
    assert r.attack.weapon.tags == (AP(2), Guided())
    assert "tags AP(2), Guided" in r.explain()


def test_tags_field_takes_parsed_tags_and_checks_them():
    assert TAGS.check((AP(2), Guided())) == "AP(2), Guided"
    assert autofire_and_strafing(tags=(Burst(3),)).ammo_used == 9
    err = refusal(TAGS.check, (AP(2), AP(3)))
    assert err.field == "tags"
    assert err.message == "Weapon tags: AP(X) is given twice."
    for bad in (5, ("AP(2)",)):
        assert refusal(TAGS.check, bad).message == (
            "Weapon tags must be text such as “AP(2), Burst(3), Guided”."
        )


def test_tags_field_messages_start_with_its_label():
    assert refusal(TAGS.parse, "x" * 201).message == (
        "Weapon tags is too long (at most 200 characters)."
    )
    assert TAGS.describe_range() == "e.g. AP(2), Burst(3), Guided"


def test_chart_is_the_levels_highlighted_from_one():
    # one die, 1 damage die, no soak: 0 levels with 1 − 0.4·0.4, 1 level with 0.16
    r = autofire_and_strafing(
        dexterity=1,
        ability=0,
        accuracy=0,
        damage_dice=1,
        burst="none",
        natural_soak_from="entered",
        natural_soak=0,
        **BARE,
    )
    chart = r.chart()
    assert isinstance(chart, Chart)
    assert chart.bars == (("0", 1 - 0.16), ("1", 0.16))
    assert chart.highlight_from == 1
    assert CALCULATOR.views[0].chart is AutofireReport.chart


def test_calculator_equals_the_attack_with_its_maneuver():
    weapon = Weapon(accuracy=1, damage_dice=6, damage_adds=1, tags=(AP(1), Guided()))
    man, used = autofire_maneuver(burst="medium", burst_use="accuracy", targets=2, ammunition=30)
    direct = resolve_attack(
        weapon=weapon,
        dexterity=3,
        ability=2,
        ruleset="2.0",
        dodge_pool=2,
        range_penalty=2,
        natural_soak=2,
        armour_soak=2,
        maneuver=man,
    )
    r = autofire_and_strafing(
        damage_dice=6,
        damage_adds=1,
        tags="AP(1), Guided",
        burst="medium",
        targets=2,
        dodge_pool=2,
        range_penalty=2,
        natural_soak_from="entered",
        natural_soak=2,
        armour_soak=2,
        ruleset="2.0",
    )
    assert used == 10
    # the calculator adds one step naming the 2.1 inputs it does not use; all else equal
    unused = [s for s in r.attack.steps if s.text.startswith("Not used under 2.0")]
    assert len(unused) == 1
    assert tuple(s for s in r.attack.steps if s not in unused) == direct.steps
    assert replace(r.attack.target, steps=direct.target.steps) == direct.target
    assert replace(r.attack, steps=direct.steps, target=direct.target) == direct
    assert r.figure("difficulty").value == 1 + 1 + 1  # base, strafing, range 2 − 1 (Guided)


def test_steps_name_the_texts_headings():
    r = autofire_and_strafing(burst="short", targets=2, tags="Guided", range_penalty=1)
    text = r.explain()
    for heading in (
        "Quick reference › Ranged Attack Maneuvers › Autofire",
        "Quick reference › Ranged Attack Maneuvers › Strafing",
        "Quick reference › Weapon Tags › Guided",
        "Quick reference › 2.0 Rules › Combat › Soak",
    ):
        assert heading in text


def test_levels_match_numpy_monte_carlo():
    np = pytest.importorskip("numpy")
    # medium burst for damage: 1 + 0 + 0 = 1 … use Dex 2 + ability 1 = 3 dice, +[2] adds;
    # 5 lethal dice, soak 3, dodge 1 die, 2 targets (difficulty 2)
    r = autofire_and_strafing(
        dexterity=2,
        ability=1,
        accuracy=0,
        damage_dice=5,
        burst="medium",
        burst_use="damage",
        targets=2,
        dodge_pool=1,
        natural_soak_from="entered",
        natural_soak=3,
        ruleset="2.0",
    )
    rng = np.random.default_rng(7)
    n = 200_000
    a = (rng.integers(1, 11, size=(n, 3)) >= 7).sum(axis=1)
    d = (rng.integers(1, 11, size=n) >= 7).astype(int)
    net = a - d
    hit = net >= 2
    dice = 5 + np.maximum(0, net - 2)
    left = np.maximum(0, dice - 3)
    rolled = ((rng.integers(1, 11, size=(n, 6)) >= 7) & (np.arange(6) < left[:, None])).sum(1)
    levels = np.where(hit, rolled + 2, 0)  # left ≥ 2 always here: adds apply
    for k in range(6):
        p = float(r.levels[k]) if k < len(r.levels) else 0.0
        assert abs((levels == k).mean() - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-4


# --- 2.1 Defense against the attack (issue 10) ------------------------------------------

# one die rerolling 10s: 0 successes 6/10; k ≥ 1: 3/10 · (1/10)^(k−1) + 6/10 · (1/10)^k
ONE_REROLLING = [Fraction(6, 10)] + [
    Fraction(3, 10) * Fraction(1, 10) ** (k - 1) + Fraction(6, 10) * Fraction(1, 10) ** k
    for k in range(1, 12)
]

SINGLE = dict(burst="none", ability=0, accuracy=0)  # the attack pool is Dexterity alone

# Dex 4 single shot of a 2 [1] weapon at a 2.1 target of Dex 3, Wits 2 (Defense 1) actively
# defending with Dex 3 + ability 1 = 4 dice; soak 1
AT_AN_ACTIVE_DEFENDER = dict(
    dexterity=4,
    damage_dice=2,
    damage_adds=1,
    natural_soak_from="entered",
    natural_soak=1,
    target_dexterity=3,
    target_wits=2,
    target_ability=1,
    target_defends="active",
    **SINGLE,
)

# 3 attack dice at a 2.1 target of Dex 2, Wits 2 (Defense 1) power blocking with 1 die
AT_A_POWER_BLOCK = dict(
    dexterity=3,
    target_dexterity=2,
    target_wits=2,
    target_defends="power_block",
    target_power_pool=1,
    **SINGLE,
)


def test_21_adds_the_targets_defense_and_ignores_the_dodge():
    # 2.1 Defenses: "Defense score of (lower of Dexterity or Wits, divided by 2). Round
    # defenses down. Their Defense score adds to the difficulty of attacks against them"
    # 3 attack dice; target Dex 4, Wits 5 → Defense 2 → difficulty 1 + 2 = 3; the dodge
    # pool is a 2.0 input: not subtracted under 2.1
    r = autofire_and_strafing(
        ruleset="2.1", dexterity=3, target_dexterity=4, target_wits=5, dodge_pool=3, **SINGLE
    )
    assert r.figure("difficulty").value == 3
    assert r.p_hit == P**3
    assert r.figure("difficulty").text == "3 (target's Defense +2 included)"
    assert r.figure("target_defence").text == "Defense +2"


def test_21_defense_drops_by_one_per_earlier_attack_never_below_zero():
    # "… is reduced by 1 for every successful or unsuccessful attack made against them"
    def hit(before):
        return autofire_and_strafing(
            dexterity=3, target_dexterity=4, target_wits=5, attacks_before=before, **SINGLE
        )

    assert hit(1).figure("difficulty").value == 2
    assert hit(1).p_hit == 3 * P * P * Q + P**3
    assert hit(2).p_hit == 1 - Q**3
    assert hit(7).p_hit == 1 - Q**3  # Defense 0, never a bonus
    assert hit(7).figure("difficulty").value == 1
    text = hit(1).explain()
    assert "Attacks already made against the target this turn: 1" in text
    assert "Quick reference › 2.1 Rules › Defenses" in text
    # this attack is one attack against each target: the next one faces Defense 0
    assert "the next attack against it faces Defense 0" in text


def test_20_keeps_the_dodge_and_ignores_the_21_inputs():
    # 1 attack die against a 1-die dodge: P · Q, whatever the target's Dexterity and Wits
    r = autofire_and_strafing(
        ruleset="2.0",
        dexterity=1,
        dodge_pool=1,
        target_dexterity=10,
        target_wits=10,
        target_defends="active",
        **SINGLE,
    )
    assert r.figure("difficulty").value == 1
    assert r.p_hit == P * Q
    assert r.figure("target_defence").text == "dodge 1 die"
    text = r.explain()
    assert "Not used under 2.0" in text
    assert "“2.1: target's Dexterity” 10" in text
    assert "Quick reference › 2.0 Rules › Combat › Defensive Maneuvers" in text
    under_21 = autofire_and_strafing(dodge_pool=4).explain()
    assert "Not used under 2.1" in under_21
    assert "“2.0: target's dodge pool” 4" in under_21


def _levels_oracle(icepool, n_att, n_def, defense, base_diff, dmg, adds, soak, ignore_first):
    """Health levels one target loses, built with icepool: attack successes A against the
    target's defence roll D (each success cancels one; Guided ignores the first), hit when
    A − D ≥ base difficulty + Defense, +1 damage die per net success beyond that."""
    hit = icepool.d10 >= 7
    attack = n_att @ hit
    roll = n_def @ hit if n_def else icepool.Die([0])
    need = base_diff + defense

    def outcome(a, d):
        d = max(0, d - 1) if ignore_first else d
        if a - d < need:
            return 0
        left = dmg + (a - d - need) - soak
        return left @ hit + adds if left >= 1 else hit  # lethal pings 1 bashing die

    return icepool.map(outcome, attack, roll)


def test_21_active_defence_cancels_successes_like_a_dodge_matches_icepool():
    icepool = pytest.importorskip("icepool")
    # target Dex 3, Wits 2 → Defense 1; active defence = higher (Dex 3) + ability 1 = 4 dice
    r = autofire_and_strafing(**AT_AN_ACTIVE_DEFENDER)
    assert r.figure("difficulty").value == 2
    assert r.figure("target_defence").text == "Defense +1, active defence 4 dice"
    die = _levels_oracle(icepool, 4, 4, 1, 1, 2, 1, 1, False)
    assert r.levels == tuple(die.probability(k) for k in range(len(r.levels)))
    assert sum(r.levels) == 1
    assert "Active defence (an action) = higher of Dex 3 or Wits 2 (Dexterity)" in r.explain()


def test_21_strafing_each_target_has_its_defense_and_defends_on_its_own():
    icepool = pytest.importorskip("icepool")
    # short burst for accuracy: 3 + 2 = 5 dice; 2 targets: difficulty 1 + 1 + Defense 1 = 3;
    # each target actively defends with Dex 3 + ability 1 = 4 dice, on its own
    r = autofire_and_strafing(
        burst="short",
        targets=2,
        dexterity=3,
        ability=0,
        accuracy=0,
        target_dexterity=3,
        target_wits=2,
        target_ability=1,
        target_defends="active",
    )
    assert r.figure("difficulty").value == 3
    hit = icepool.d10 >= 7
    a, d = 5 @ hit, 4 @ hit
    assert r.p_hit == icepool.map(lambda x, y: x - y >= 3, a, d).probability(True)
    any_hit = icepool.map(lambda x, y, z: x - y >= 3 or x - z >= 3, a, d, d)
    assert r.attack.p_any_hit == any_hit.probability(True)
    text = r.explain()
    assert "each of the 2 targets has its own Defense (+1" in text
    assert "and rolls its own active defence" in text
    assert "Difficulty against each target = base 1 + strafing 1 + target's Defense 1 = 3" in text


def test_21_power_block_adds_half_quantum_and_rolls_the_power():
    # Dex 2, Wits 2 → Defense 1; power block + ⌊Quantum 3 ÷ 2⌋ = +1 → 2; the power's 1 die
    # cancels attack successes; 3 attack dice: hit iff A − D ≥ 1 + 2 → A = 3 and D = 0
    r = autofire_and_strafing(target_quantum=3, **AT_A_POWER_BLOCK)
    assert r.figure("difficulty").value == 3
    assert r.p_hit == P**3 * Q
    assert r.figure("target_defence").text == "Defense +2 (power block), power block 1 die"
    # Guided ignores a dodge's first success, not a power's: the same odds
    guided = autofire_and_strafing(target_quantum=3, tags="Guided", **AT_A_POWER_BLOCK)
    assert guided.p_hit == P**3 * Q


def test_21_power_block_after_earlier_attacks_both_readings():
    # Defense 1 + ⌊Quantum 4 ÷ 2⌋ 2 = 3; 2 earlier attacks.
    # default: the whole power-blocking Defense drops by 1 per attack → 1;
    # "fresh": the Quantum bonus is added to what is left of Defense → 0 + 2 = 2
    args = dict(AT_A_POWER_BLOCK, target_quantum=4, attacks_before=2)
    assert autofire_and_strafing(**args).figure("difficulty").value == 1 + 1
    fresh = autofire_and_strafing(power_block_bonus="fresh", **args)
    assert fresh.figure("difficulty").value == 1 + 2


def test_21_guided_ignores_the_first_active_defence_success():
    # active defence Dex 2 + ability 0 = 2 dice; Guided: D' = max(0, D − 1);
    # Defense 1: hit iff A − D' ≥ 2 with 3 attack dice
    r = autofire_and_strafing(
        dexterity=3,
        target_dexterity=2,
        target_wits=2,
        target_ability=0,
        target_defends="active",
        tags="Guided",
        **SINGLE,
    )
    at_least_2, at_least_3 = 3 * P * P * Q + P**3, P**3
    assert r.p_hit == at_least_2 * (1 - P * P) + at_least_3 * P * P
    assert "Guided: the first active defence success is ignored" in r.explain()


def test_21_target_mega_dexterity_counts_double_and_rerolls_the_active_defence():
    # target Dex 0 + Mega-Dex 1 → 2, Wits 1 → Defense ⌊1 ÷ 2⌋ = 0; active defence:
    # Dexterity 2 + ability 0 = 2 dice rerolling 10s (2.1 Mega-Attributes)
    r = autofire_and_strafing(
        dexterity=2,
        target_dexterity=0,
        target_mega_dexterity=1,
        target_wits=1,
        target_ability=0,
        target_defends="active",
        **SINGLE,
    )
    d0 = ONE_REROLLING[0] ** 2
    d1 = 2 * ONE_REROLLING[0] * ONE_REROLLING[1]
    assert (d0, d1) == (Fraction(9, 25), Fraction(54, 125))
    # hit iff A − D ≥ 1: A = 1 with D = 0, or A = 2 with D ≤ 1
    assert r.p_hit == 2 * P * Q * d0 + P * P * (d0 + d1)
    assert "the active defence roll rerolls 10s" in r.explain()
    # Defense with Mega-Dexterity counted ×2: Dex 1 + Mega 1 = 3, Wits 4 → 1; ignored → 0
    args = dict(dexterity=3, target_dexterity=1, target_mega_dexterity=1, target_wits=4)
    assert autofire_and_strafing(**args, **SINGLE).figure("difficulty").value == 2
    ignored = autofire_and_strafing(mega_in_defense="ignore", **args, **SINGLE)
    assert ignored.figure("difficulty").value == 1


def test_21_target_specialty_adds_a_die_to_its_defence_roll():
    # target Dex 2, Wits 1 → Defense 0; active defence = Dex 2 + ability 0 + specialty 1
    # = 3 dice; 2 attack dice: hit iff A − D ≥ 1 → A = 1, D = 0 or A = 2, D ≤ 1
    r = autofire_and_strafing(
        dexterity=2,
        target_dexterity=2,
        target_wits=1,
        target_ability=0,
        target_defends="active",
        target_specialty=True,
        **SINGLE,
    )
    assert r.figure("difficulty").value == 1
    assert r.p_hit == 2 * P * Q * Q**3 + P * P * (Q**3 + 3 * P * Q * Q)
    assert r.figure("target_defence").text == "Defense +0, active defence 3 dice"


def test_21_power_block_needs_a_power():
    err = refusal(autofire_and_strafing, target_defends="power_block", target_power_pool=0)
    assert err.field == "target_power_pool"
    assert err.message.startswith("2.1: target's power pool")
    # under 2.0 the 2.1 inputs are not used, so nothing to refuse
    assert autofire_and_strafing(
        ruleset="2.0", target_defends="power_block", target_power_pool=0
    ).p_hit


def test_ruleset_only_inputs_are_labelled_and_grouped():
    labels = {p.name: p.label for p in CALCULATOR.params}
    for name in ("dodge_pool", "dodge_reroll_tens"):
        assert labels[name].startswith("2.0: "), name
    for name in AUTOFIRE_ONLY_21:
        assert labels[name].startswith("2.1: "), name
    grouped = {g.title: g.names for g in CALCULATOR.groups}
    assert grouped == {
        "The attacker": ("dexterity", "mega_dexterity", "ability", "specialty"),
        "The weapon": (
            "accuracy",
            "damage_dice",
            "damage_adds",
            "damage_type",
            "tags",
            "burst",
            "burst_use",
            "ammunition",
            "rate",
        ),
        "The attack": ("targets", "base_difficulty", "range_penalty", "aircraft_penalty"),
        "The target": (
            "target_kind",
            "target_quantum",
            "target_stamina",
            "target_mega_stamina",
            "natural_soak_from",
            "natural_soak",
            "armour_soak",
        ),
        "Target: a squad of henchmen": ("squad_henchmen", "squad_training", "area_multiplier"),
        "Target under 2.0": ("dodge_pool", "dodge_reroll_tens"),
        "Target under 2.1": AUTOFIRE_ONLY_21[:-2],
        "The attacker's load and conditions": (
            "might",
            *WOUND_TRAITS,  # his health track, for the wound penalty (RN-COND-7)
            "load_kg",
            "daze",
            "extra_actions_power",
            "actions",
            "levels_lost",
        ),
        "The target's conditions": (
            "target_strength",
            "target_might",
            "target_mega_strength",
            "target_willpower",
            "target_resistance",
            "target_load_kg",
            "target_sprinting",
            "target_daze",
            "target_extra_actions_power",
            "target_actions",
            "target_levels_lost",
        ),
    }
    assert {"mega_in_defense", "power_block_bonus"} <= set(CALCULATOR.options)


# --- Burst(X): "a slash in their Rate stat" (RN-RANGED-17) ---------------------------


@pytest.mark.parametrize(
    ("rate", "x", "reading", "written", "effective", "largest"),
    [
        (1, 1, "unadjusted", "1", 1, None),
        (2, 1, "unadjusted", "2", 2, None),
        (3, 1, "unadjusted", "3", 3, "short"),
        (19, 1, "unadjusted", "19", 19, "medium"),
        (20, 1, "rounds", "20", 20, "long"),  # no slash: both readings agree
        (50, 1, "unadjusted", "50", 50, "sustained"),
        # Burst(3), Rate 3/9: the unadjusted 3 → a short burst of 3 bursts at most
        (3, 3, "unadjusted", "3/9", 3, "short"),
        (3, 3, "rounds", "3/9", 9, "short"),  # 9 < 10: still no medium burst
        (4, 3, "unadjusted", "4/12", 4, "short"),
        (4, 3, "rounds", "4/12", 12, "medium"),  # the readings part here
        (2, 5, "unadjusted", "2/10", 2, None),
        (2, 5, "rounds", "2/10", 10, "medium"),
    ],
)
def test_rate_of_fire_follows_the_unadjusted_rof(rate, x, reading, written, effective, largest):
    r = rate_of_fire(rate, x, reading)
    assert (r.written, r.effective) == (written, effective)
    assert (r.largest.key if r.largest else None) == largest
    assert "RN-RANGED-17" in r.step.text


def test_a_burst_beyond_the_rate_is_refused_at_the_autofire_field():
    err = refusal(autofire_and_strafing, rate=9, burst="medium")
    assert err.field == "burst"
    assert err.message.startswith("Autofire: a medium burst fires 10 shots/bursts")
    assert "at most a short burst" in err.message
    # Burst(3) Rate 3/9: the bursts, not the 9 rounds, count
    err = refusal(autofire_and_strafing, rate=3, tags="Burst(3)", burst="medium", ammunition=100)
    assert "effective rate of fire 3 (Rate 3/9)" in err.message
    assert "single shots only" in refusal(autofire_and_strafing, rate=2, burst="short").message


def test_a_burst_within_the_rate_is_resolved_as_before():
    plain = autofire_and_strafing(burst="medium")
    capped = autofire_and_strafing(burst="medium", rate=10)
    assert capped.levels == plain.levels
    assert capped.p_hit == plain.p_hit
    assert capped.figure("largest_burst").text == (
        "Medium Burst (10 shots/bursts); Rate 10, effective rate 10"
    )
    # Burst(3), Rate 4/12 under the "rounds" reading: a medium burst of 10 bursts = 30 rounds
    r = autofire_and_strafing(
        rate=4, tags="Burst(3)", burst="medium", rate_reading="rounds", ammunition=30
    )
    assert r.ammo_used == 30
    assert "its effective rate of fire follows the 12 rounds after the slash" in r.explain()
    # a single shot needs Rate 1 only
    assert autofire_and_strafing(rate=1, burst="none").figure("largest_burst").value == "none"


def test_rate_zero_is_not_checked_and_keeps_every_figure():
    for kw in (dict(), dict(burst="sustained", ammunition=60), dict(tags="Burst(3)")):
        before = autofire_and_strafing(**kw)
        assert [f.key for f in before.figures()] == FIGURE_KEYS
        assert "Rate" not in before.explain()


# --- Area(X) against a squad of henchmen (RN-RANGED-18) ------------------------------


def test_area_weapon_against_a_squad_matches_icepool():
    icepool = pytest.importorskip("icepool")
    # the same shot of a lethal Area(4) weapon; a fanatical squad of 6, × 3, rounded up
    kw = dict(
        AT_AN_ACTIVE_DEFENDER,
        tags="Area(4)",
        target_kind="squad",
        squad_henchmen=6,
        squad_training="fanatical",
        area_multiplier=3,
        losses_rounding="up",
    )
    r = autofire_and_strafing(**kw)
    levels = _levels_oracle(icepool, 4, 4, 1, 1, 2, 1, 1, False)
    removed = levels.map(lambda pts: min(6, -(-pts * 3 // 3)))
    assert r.squad.removed == tuple(removed.probability(k) for k in range(7))
    assert r.figure("squad_removed").value == removed.mean()
    assert r.figure("squad_p_cleared").value == removed.probability(6)
    assert r.squad_chart().bars[0] == ("0", float(removed.probability(0)))
    # the character figures are those of the same attack at a character
    plain = autofire_and_strafing(**{**kw, "target_kind": "character"})
    assert r.levels == plain.levels
    assert plain.squad is None
    assert plain.squad_chart() == Chart(())


def test_area_against_a_squad_by_hand():
    # one die to hit (P 4/10), one damage die (P 4/10), no soak: a hit of 1 point × 2 (the
    # default "doubled") removes 2 regular henchmen with P 16/100
    kw = dict(
        damage_dice=1,
        natural_soak_from="entered",
        natural_soak=0,
        dexterity=1,
        tags="Area(2)",
        target_kind="squad",
        squad_henchmen=4,
        **SINGLE,
        **BARE,
    )
    r = autofire_and_strafing(**kw)
    assert r.squad.removed == (1 - P * P, 0, P * P, 0, 0)
    assert r.figure("squad_removed").text == "0.32 henchmen"
    assert r.figure("squad_p_any").value == P * P
    assert r.figure("squad_p_cleared").value == 0
    text = r.explain()
    assert "Area(2) against a squad: all post-soak damage is doubled (“generally”), × 2" in text
    assert "Combat alterations › Mass Combat › Henchmen › Area Vulnerability" in text
    # well-trained: 1 point × 2 ÷ 2 = 1 henchman
    trained = autofire_and_strafing(**kw, squad_training="trained")
    assert trained.squad.removed == (1 - P * P, P * P, 0, 0, 0)


def test_strafed_squads_are_reported_per_squad():
    r = autofire_and_strafing(burst="medium", targets=3, tags="Area(3)", target_kind="squad")
    assert r.figure("squad_removed").label == "Expected henchmen removed (per squad)"
    assert "Henchmen removed each = min(5" in r.explain()


def test_squad_and_rate_inputs_are_on_the_form_with_todays_defaults():
    names = [p.name for p in CALCULATOR.params]
    for name in ("rate", "target_kind", "squad_henchmen", "squad_training", "area_multiplier"):
        assert name in names
    assert {"rate_reading", "losses_rounding"} <= set(CALCULATOR.options)
    groups = {g.title: g.names for g in CALCULATOR.groups}
    assert groups["Target: a squad of henchmen"] == (
        "squad_henchmen",
        "squad_training",
        "area_multiplier",
    )
    defaults = {p.name: p.default for p in CALCULATOR.params}
    assert defaults["rate"] == 0
    assert defaults["target_kind"] == "character"
    assert defaults["area_multiplier"] == 2  # "Generally, all post-soak damage is doubled"
