"""2.0 defensive maneuvers, 2.1 Defense, 2.1 multiple actions (``ruleslab.quickref.defence``), and
the Initiative & defence calculator (``ruleslab.calculators.defence``): its figures, chart
and messages."""

from fractions import Fraction

import pytest
from dice_oracle import P, Q, at_least

from ruleslab.calculators.defence import CALCULATOR, DefenceReport, initiative_and_defence
from ruleslab.declare import Chart
from ruleslab.params import InputError
from ruleslab.quickref.defence import (
    action_penalties,
    defense,
    defense_per_attack,
    defensive_maneuvers,
    per_attack_text,
)
from ruleslab.quickref.defence.turn import multiple_actions

# --- 2.0 ------------------------------------------------------------------------------


def test_dodge_and_parry_pools():
    # "dodge (Dex + Athletics), parry (Dex + Melee/Brawl)"
    m = defensive_maneuvers(3, 0, 2, 4, 0)
    assert m.dodge.dice == 5
    assert m.parry.dice == 7
    assert m.dodge.p_success == 1 - Q**5
    assert m.powerblock is None
    assert m.figure("powerblock").text == "— (no power)"


def test_mega_dexterity_counts_two_in_the_pools():
    m = defensive_maneuvers(3, 2, 2, 0, 0)
    assert m.dodge.dice == 3 + 4 + 2
    assert not m.dodge.reroll_tens  # 2.0: no reroll from Mega-Attributes
    assert "Dexterity 3 + 2 × Mega-Dexterity 2 = 7" in m.explain()


def test_sprinting_adds_one_difficulty():
    # "are at +1 difficulty to all defensive maneuvers they take"
    m = defensive_maneuvers(3, 0, 2, 2, 6, sprinting=True)
    assert m.dodge.difficulty == 2
    assert m.dodge.p_success == at_least(5, 2)
    assert m.powerblock is not None
    assert m.powerblock.p_success == at_least(6, 2)


# --- 2.1 Defense ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dex", "wits", "score"), [(3, 5, 1), (5, 4, 2), (1, 1, 0), (5, 5, 2), (10, 7, 3)]
)
def test_defense_score_lower_halved_down(dex, wits, score):
    # "(lower of Dexterity or Wits, divided by 2). Round defenses down."
    assert defense(dex, 0, wits, 0, 2, 2, 0, 0).score == score


def test_defense_drops_per_attack():
    # "reduced by 1 for every successful or unsuccessful attack made against them"
    assert defense_per_attack(2) == (2, 1, 0)
    assert per_attack_text((2, 1, 0)) == "1st +2, 2nd +1, 3rd on +0"
    assert per_attack_text((0,)) == "+0 against every attack"
    d = defense(4, 0, 5, 0, 2, 2, 0, 0)
    assert d.figure("defense").text == "1st +2, 2nd +1, 3rd on +0"


def test_mega_in_defense_double_or_ignore():
    d = defense(3, 1, 4, 0, 2, 2, 0, 0)  # Dex 3 + 2 = 5, Wits 4 → lower 4 → 2
    assert d.score == 2
    ign = defense(3, 1, 4, 0, 2, 2, 0, 0, mega_in_defense="ignore")  # lower 3 → 1
    assert ign.score == 1


def test_active_defence_pool_and_reroll():
    # "the higher of Dex or Wits, plus the defending ability"; 2.1 Mega rerolls 10s
    d = defense(2, 1, 3, 0, 3, 1, 0, 0)  # Dex 2 + 2 = 4 > Wits 3; Athletics 3
    assert d.active.dice == 7
    assert d.active.reroll_tens
    assert d.active_attribute == "Dexterity"
    plain = defense(2, 0, 3, 0, 1, 4, 0, 0)  # Wits 3 + Melee/Brawl 4
    assert plain.active.dice == 7
    assert not plain.active.reroll_tens
    assert plain.active.p_success == 1 - Q**7


def test_power_block_adds_half_quantum():
    # "adding an additional (Quantum/2) to their Defense, as well as using the power's dice pool"
    d = defense(4, 0, 4, 0, 2, 2, 5, 6)
    assert d.power_block_score == 2 + 2
    assert d.power_block_per_attack == (4, 3, 2, 1, 0)
    assert d.power_roll is not None
    assert d.power_roll.dice == 6
    none = defense(4, 0, 4, 0, 2, 2, 5, 0)
    assert none.power_block_per_attack is None
    assert none.figure("power_block").text == "— (no power)"


# --- 2.1 multiple actions -------------------------------------------------------------


def test_action_penalty_readings():
    assert action_penalties(4) == (0, 1, 2, 3)
    assert action_penalties(4, "all") == (3, 3, 3, 3)
    assert action_penalties(4, "compounding") == (0, 1, 3, 6)
    assert action_penalties(1, "all") == (0,)


def test_multiple_actions_hand_worked():
    m = multiple_actions(6, 1, 3)
    assert m.difficulties == (1, 2, 3)
    assert m.chances == (at_least(6, 1), at_least(6, 2), at_least(6, 3))
    assert m.p_all == at_least(6, 1) * at_least(6, 2) * at_least(6, 3)
    assert m.figure("action_difficulties").text == "1st 1, 2nd 2, 3rd 3"


def test_multiple_actions_beyond_the_pool_is_zero():
    m = multiple_actions(2, 2, 2)
    assert m.chances[1] == 0
    assert m.p_all == 0


def test_rerolled_action_is_exact_beyond_the_dice():
    m = multiple_actions(1, 1, 3, attack_rerolls=True)
    # one die rerolling 10s: P(≥k) = 1/10^(k−1) · 4/10 for k ≥ 1
    assert m.chances == (Fraction(4, 10), Fraction(4, 100), Fraction(4, 1000))


def test_multiple_actions_match_icepool():
    icepool = pytest.importorskip("icepool")
    pool = 7 @ (icepool.d10 >= 7)
    m = multiple_actions(7, 2, 4, multiple_reading="compounding")
    for roll in m.rolls:
        assert roll.p_success == Fraction(pool.probability(">=", roll.difficulty))


def test_active_defence_rerolls_match_monte_carlo():
    np = pytest.importorskip("numpy")
    d = defense(3, 1, 2, 0, 2, 0, 0, 0)  # 7 dice, 10s reroll
    rng = np.random.default_rng(20240611)
    n = 200_000
    totals = np.zeros(n, dtype=int)
    live = np.full(n, d.active.dice)
    while live.any():
        faces = rng.integers(1, 11, size=(n, int(live.max())))
        mask = np.arange(faces.shape[1]) < live[:, None]
        totals += ((faces >= 7) & mask).sum(axis=1)
        live = ((faces == 10) & mask).sum(axis=1)
    for k in range(6):
        exact = float(d.active.distribution.probability(k))
        assert abs((totals == k).mean() - exact) < 0.005  # > 4.5 standard errors


# --- the calculator -------------------------------------------------------------------

ARGS = dict(
    dexterity=3,
    mega_dexterity=0,
    wits=4,
    mega_wits=0,
    opponent_rating=6,
    athletics=2,
    melee_brawl=3,
    power_pool=5,
    quantum=3,
    sprinting=False,
    attack_pool=6,
    attack_difficulty=1,
    actions=3,
)


def test_report_21_figures():
    r = initiative_and_defence(ruleset="2.1", **ARGS)
    keys = [f.key for f in r.figures()]
    assert keys == [
        "initiative",
        "p_first",
        "p_together",
        "p_opponent_first",
        "defense",
        "active_defence",
        "power_block",
        "power_block_roll",
        "action_difficulties",
        "action_chances",
        "p_all_actions",
    ]
    assert r.chart().bars[0][0] == "0"
    assert r.defence_roll is r.defense.active


def test_report_20_figures():
    r = initiative_and_defence(ruleset="2.0", **ARGS)
    keys = [f.key for f in r.figures()]
    assert keys[-3:] == ["dodge", "parry", "powerblock"]
    assert r.defence_roll is r.maneuvers.dodge
    assert abs(sum(p for _, p in r.chart().bars) - 1) < 1e-6


def test_chart_is_the_defence_roll_highlighted_from_its_difficulty():
    # 2.0 dodge: Dex 1 + Athletics 0 = 1 die: 0 successes 0.6, 1 success 0.4
    args = {**ARGS, "dexterity": 1, "athletics": 0}
    chart = initiative_and_defence(ruleset="2.0", **args).chart()
    assert isinstance(chart, Chart)
    assert chart.bars == (("0", 0.6), ("1", 0.4))
    assert chart.highlight_from == 1
    # sprinting: +1 difficulty, so the bars that succeed start at 2
    sprint = initiative_and_defence(ruleset="2.0", **{**args, "sprinting": True})
    assert sprint.chart().highlight_from == 2
    # 2.1: the active defence roll, Dex 1 or Wits 4 → Wits 4 + Melee/Brawl 3 = 7 dice
    active = initiative_and_defence(ruleset="2.1", **args).chart()
    assert len(active.bars) == 8
    assert active.highlight_from == 1
    assert CALCULATOR.views[0].chart is DefenceReport.chart


def test_report_bad_input():
    with pytest.raises(InputError) as err:
        initiative_and_defence(ruleset="2.1", **{**ARGS, "actions": 0})
    assert err.value.field == "actions"
    assert "Actions this turn must be a whole number from 1 to 10" in err.value.message
    with pytest.raises(InputError) as err:
        initiative_and_defence(ruleset="3.0", **ARGS)
    assert err.value.field == "ruleset"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("dexterity", 11, "Dexterity must be a whole number from 0 to 10 dots."),
        (
            "opponent_rating",
            41,
            "Opponent's initiative rating must be a whole number from 0 to 40.",
        ),
        ("power_pool", -1, "Power's dice pool must be a whole number from 0 to 40 dice."),
        ("ties", "coin", "Initiative ties must be one of "),
    ],
)
def test_bad_values_name_their_field(field, value, message):
    with pytest.raises(InputError) as err:
        initiative_and_defence(**{field: value})
    assert err.value.field == field
    assert err.value.message.startswith(message)


def test_defaults_are_the_signatures():
    assert CALCULATOR.defaults() == {
        "ruleset": "2.1",
        "dexterity": 3,
        "mega_dexterity": 0,
        "wits": 3,
        "mega_wits": 0,
        "opponent_rating": 6,
        "athletics": 2,
        "melee_brawl": 2,
        "power_pool": 0,
        "quantum": 1,
        "sprinting": False,
        "specialty": False,
        "attack_pool": 6,
        "attack_difficulty": 1,
        "actions": 3,
        "attack_rerolls": False,
        "ties": "rating",
        "multiple_reading": "stepwise",
        "mega_in_defense": "double",
        # issue 19: the defender's Str, Might, Mega-Strength (his load's tier), his
        # conditions and where an active defence sits among his actions
        "strength": 3,
        "might": 0,
        "mega_strength": 0,
        "active_defence": False,
        "daze": "none",
        "load_kg": 0.0,
        "defence_position": "last",
        # issue 33: the readings of Dazed on a 2.0 maneuver and of a defence's difficulty
        "daze_on_defence": "action",
        "defence_difficulty": "spend",
        "extra_actions_power": False,
        # issue 33: his levels lost and the health track their wound penalty is read off
        # (the Character record's defaults), and whether it is on initiative (RN-COND-7)
        "stamina": 3,
        "mega_stamina": 0,
        "willpower": 3,
        "resistance": 0,
        "levels_lost": 0,
        "wound_on_initiative": "pools",
    }


# --- specialty (issue 10) -------------------------------------------------------------

# one die rerolling 10s: 0 successes 6/10; k ≥ 1 successes 3/10 · (1/10)^(k−1) + 6/10 · (1/10)^k
ONE_REROLLING = [Fraction(6, 10)] + [
    Fraction(3, 10) * Fraction(1, 10) ** (k - 1) + Fraction(6, 10) * Fraction(1, 10) ** k
    for k in range(1, 12)
]


def rerolling(n, k):
    """P(exactly k successes) of n dice rerolling 10s, by convolving one die by hand."""
    dist = [Fraction(1)]
    for _ in range(n):
        dist = [
            sum(dist[i] * ONE_REROLLING[j - i] for i in range(len(dist)) if 0 <= j - i < 12)
            for j in range(len(dist) + 11)
        ]
    return dist[k]


def test_specialty_20_rerolls_every_defence_roll():
    # 2.0 Specialties: "reroll 10s if applicable". Sprinting: 2 successes needed.
    # Dex 1 + Athletics 1 = 2 dice: P(≥ 2) = 1 − P(0) − P(1) with rerolls = 26/125 (not 4/25)
    args = {**ARGS, "dexterity": 1, "athletics": 1, "melee_brawl": 0, "power_pool": 2}
    args["sprinting"] = True
    r = initiative_and_defence(ruleset="2.0", specialty=True, **args)
    dodge, parry, block = r.maneuvers.dodge, r.maneuvers.parry, r.maneuvers.powerblock
    assert 1 - rerolling(2, 0) - rerolling(2, 1) == Fraction(26, 125)
    assert dodge.p_success == Fraction(26, 125)
    assert dodge.reroll_tens
    assert parry.reroll_tens  # 1 die: P(≥ 2) = P(10) · P(success) = 1/10 · 4/10
    assert parry.p_success == Fraction(4, 100)
    assert block.reroll_tens
    assert block.p_success == Fraction(26, 125)
    text = r.explain()
    assert "Specialty (2.0): the dodge, parry and powerblock rolls reroll 10s" in text
    assert "Quick reference › 2.0 Rules › Specialties" in text
    plain = initiative_and_defence(ruleset="2.0", **args)
    assert plain.maneuvers.dodge.p_success == P * P
    assert not plain.maneuvers.dodge.reroll_tens


def test_specialty_21_adds_a_die_to_active_defence_and_power_block():
    # 2.1 Specialties: "add +1 to their dice pool if applicable"
    # Wits 4 + Melee/Brawl 3 = 7 dice, + 1 = 8; power pool 5 + 1 = 6
    r = initiative_and_defence(ruleset="2.1", specialty=True, **ARGS)
    assert r.defense.active.dice == 8
    assert r.defense.active.p_success == 1 - Q**8
    assert not r.defense.active.reroll_tens
    assert r.defense.power_roll.dice == 6
    assert r.defense.power_roll.p_success == 1 - Q**6
    text = r.explain()
    assert "+ specialty 1 = 8 dice" in text
    assert "Specialty (2.1): +1 die to the active defence roll" in text
    assert "Specialty (2.1): +1 die to the power block roll" in text
    assert "Quick reference › 2.1 Rules › Specialties" in text
    # the chart is the active defence roll with its 8 dice
    assert len(r.chart().bars) == 9
    plain = initiative_and_defence(ruleset="2.1", **ARGS)
    assert plain.defense.active.dice == 7
    assert plain.defense.power_roll.dice == 5


def test_specialty_is_a_form_input():
    (param,) = [p for p in CALCULATOR.params if p.name == "specialty"]
    assert param.label == "Specialty applies"
    assert "2.1: +1 die" in param.help
    assert "2.0" in param.help
    assert "reroll 10s" in param.help
    with pytest.raises(InputError) as err:
        initiative_and_defence(specialty="yes")
    assert err.value.field == "specialty"


def test_20_says_which_inputs_it_does_not_use():
    text = initiative_and_defence(ruleset="2.0").explain()
    assert "not used under 2.0" in text
    assert "Quantum" in text
