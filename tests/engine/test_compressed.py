"""The Compressed combat calculator: the text's police officer and gangbanger, hand-worked
odds, bad input, charts and the roll. The line parser's own tests are in
``test_compressed_combatants.py``."""

import time
from dataclasses import replace
from fractions import Fraction

import pytest
from dice_oracle import at_least
from refusals import refusal

from ruleslab.alterations.compressed.combatants import Combatant, parse_combatants
from ruleslab.alterations.compressed.quantum_costs import PowerUse
from ruleslab.alterations.henchmen import henchmen_bonus
from ruleslab.calculators.compressed import PARAMS, combat_roll_log, compressed_combat
from ruleslab.dice import compare, pool_distribution
from ruleslab.params import InputError

OFFICER = "Police officer: Dex 3, Firearms 2 + 1 accuracy, damage 6L, soak 4L, initiative 5"
GANGBANGER = "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4"
COMBATANTS = next(p for p in PARAMS if p.name == "a_combatants")
POWERS = next(p for p in PARAMS if p.name == "a_powers")

FIGURE_KEYS = [
    "pool_a",
    "pool_b",
    "p_a_wins",
    "p_b_wins",
    "p_tie",
    "winner",
    "damage_to_a",
    "damage_to_b",
    "p_a_down",
    "p_a_killed",
    "p_b_down",
    "p_b_killed",
    "timeframe",
    "quantum_a",
    "quantum_b",
]


def fight(a=OFFICER, b=GANGBANGER, **kw):
    return compressed_combat(a_combatants=a, b_combatants=b, **kw)


def parse(text):
    return parse_combatants(text, COMBATANTS)


# --- the text's example -------------------------------------------------------------


def test_text_example_officer_11d_gangbanger_5d():
    # "a total of 12d and subtracts 4d …  a total of 9d and subtracts 1d"
    r = fight()
    (officer,), (gang,) = r.side_a.pools, r.side_b.pools
    assert (officer.base, officer.against, officer.dice) == (12, 1, 11)
    assert (gang.base, gang.against, gang.dice) == (9, 4, 5)
    text = r.explain()
    assert "Dex 3 + Firearms 2 + accuracy 1 + damage 6 = 12" in text
    assert "Dex 2 + Firearms 2 + damage 5 = 9" in text
    assert r.figure("pool_a").text == "11 dice"
    assert r.figure("pool_b").text == "5 dice"
    assert [f.key for f in r.figures()] == FIGURE_KEYS


def test_text_example_odds_match_compare_and_ties_go_to_the_officer():
    r = fight()
    c = compare(pool_distribution(11), pool_distribution(5))
    assert (r.p_a_wins, r.p_tie, r.p_b_wins) == (c.p_a_wins, c.p_tie, c.p_b_wins)
    assert r.tie_to == "A"  # initiative 5 > 4
    assert r.p_a_takes == c.p_a_wins + c.p_tie
    assert r.p_b_takes == c.p_b_wins
    assert r.p_a_takes + r.p_b_takes == 1
    assert r.favoured == "A"
    assert "“Arrest the gangbanger”" in r.figure("winner").text


def test_damage_is_the_other_sides_successes():
    r = fight()
    assert r.damage_to_b == pool_distribution(11).pmf
    assert r.damage_to_a == pool_distribution(5).pmf
    assert r.expected_damage_to_b == Fraction(22, 5)
    assert r.expected_damage_to_a == 2
    # 5 dice can never reach 7 levels: the officer is never taken out
    assert r.p_a_down == 0
    assert r.p_a_killed == 0
    assert r.p_b_down == pool_distribution(11).at_least(7)
    assert r.p_b_killed == pool_distribution(11).at_least(11)


def test_timeframe_is_the_highest_attribute_plus_ability():
    assert fight().timeframe == 5  # Dex 3 + Firearms 2 (accuracy is not in it)
    r = fight(b="Brute: Str 2, Mega-Str 2, Brawl 3, damage 4B, soak 3")
    assert r.timeframe == 2 + 4 + 3
    assert "Mega-Strength 2 counts 2 per dot" in r.explain()
    assert "Effective Strength in the pool = Strength 2 + 2 × Mega-Strength 2 = 6" in r.explain()
    assert r.side_b.pools[0].base == 6 + 3 + 4


# --- soak, automatic successes, several opponents --------------------------------------


def test_automatic_successes_are_removed_first_by_soak():
    r = fight(a="Nova: Dex 2, Brawl 1, damage 3, auto 3, soak 0", b="Tank: Str 1, soak 5")
    (p,) = r.side_a.pools
    assert (p.auto_removed, p.auto, p.dice) == (3, 0, 6 - 2)
    r = fight(a="Nova: Dex 2, Brawl 1, damage 3, auto 3", b="Mook: Str 1, soak 2")
    (p,) = r.side_a.pools
    assert (p.auto_removed, p.auto, p.dice) == (2, 1, 6)
    assert r.figure("pool_a").text == "6 dice + 1 auto"


def test_several_opponents_the_highest_soak_applies_and_successes_add():
    r = fight(b=f"{GANGBANGER}\nEnforcer: Dex 2, Brawl 3, damage 4B, soak 3, initiative 2")
    (officer,) = r.side_a.pools
    assert officer.against == 3
    assert officer.dice == 9
    gang, enforcer = r.side_b.pools
    assert (gang.dice, enforcer.dice) == (5, 9 - 4)
    assert r.side_b.successes == pool_distribution(10).pmf
    assert "the highest soak applies, Enforcer's 3" in r.explain()


def test_even_split_and_side_down_needs_everyone_down():
    two = "Ann: Dex 1, Brawl 1, soak 0, incap 2, dead 4\nBob: Dex 1, Brawl 1, incap 2, dead 4"
    r = fight(a="Hero: Dex 0, auto 3, soak 0", b=two)
    # B takes exactly 3: Ann 2, Bob 1 → Bob still standing
    assert r.damage_to_b == (0, 0, 0, 1)
    assert r.p_b_down == 0
    assert r.p_b_killed == 0
    r = fight(a="Hero: Dex 0, auto 3, soak 0", b=two, damage_split="focus")
    # focus: Ann 2 (Incapacitated), then Bob 1
    assert r.p_b_down == 0
    r = fight(a="Hero: Dex 0, auto 4, soak 0", b=two)
    assert r.p_b_down == 1
    assert r.p_b_killed == 0
    r = fight(a="Hero: Dex 0, auto 4, soak 0", b=two, damage_split="focus")
    assert r.p_b_down == 1  # 2 + 2


def test_down_and_death_figures_say_what_they_count():
    # issue 11, defect 6: "incapacitated or killed 0 %" beside "a death 100 %" read as a
    # contradiction. B takes exactly 3, split 2 + 1: Ann dead (dead 2), Bob standing.
    two = "Ann: Dex 1, soak 0, incap 2, dead 2\nBob: Dex 1, incap 5, dead 9"
    r = fight(a="Hero: Dex 0, auto 3, soak 0", b=two)
    down, killed = r.figure("p_b_down"), r.figure("p_b_killed")
    assert (down.label, down.text) == ("Side B taken out (all 2 incapacitated or killed)", "0 %")
    assert (killed.label, killed.text) == ("Side B: at least one of 2 killed", "100 %")
    assert r.figure("p_a_down").label == "Side A incapacitated or killed"
    assert r.figure("p_a_killed").label == "Side A killed"
    assert (
        "Side A incapacitated or killed 0 %, Side A killed 0 %; Side B taken out (all 2 "
        "incapacitated or killed) 0 %, Side B: at least one of 2 killed 100 %"
    ) in r.explain()


# --- modifiers ------------------------------------------------------------------------


def test_tactics_and_dodge_modifiers():
    r = fight(a=OFFICER + ", Tactics 3", b=GANGBANGER + ", Tactics 3")
    assert r.side_a.pools[0].modifiers == 0  # equal Tactics: not higher
    r = fight(a=OFFICER + ", Tactics 3", b=GANGBANGER + ", Tactics 2")
    assert r.side_a.pools[0].modifiers == 1
    assert r.side_a.pools[0].dice == 12
    # the gangbanger's attack pool is Dex 2 + Firearms 2 = 4
    assert fight(a=OFFICER + ", dodge 4").side_a.pools[0].modifiers == 0
    assert fight(a=OFFICER + ", dodge 5").side_a.pools[0].modifiers == 1
    assert "dodge pool 5 > attack pool 4 +1d" in fight(a=OFFICER + ", dodge 5").explain()


def test_position_support_tangential_add_dice():
    r = fight(a_position=2, a_support=3, a_tangential=2)
    assert r.side_a.pools[0].modifiers == 7
    assert r.side_a.pools[0].dice == 12 + 7 - 1


def test_modifiers_never_more_than_double_the_base_pool():
    weak = "Kid: Dex 1, Brawl 1, damage 1, soak 0"
    r = fight(a=weak, a_position=5, a_support=5)
    (p,) = r.side_a.pools
    assert p.base == 3
    assert p.modifiers == 3
    assert p.dice == 6 - 1  # doubled, then the gangbanger's soak 1
    assert "capped at +3d" in r.explain()
    # exactly double is allowed
    assert fight(a=weak, a_position=3).side_a.pools[0].modifiers == 3


def test_cover_subtracts_dice_from_the_opponents_pool():
    r = fight(b_cover=3)
    assert r.side_a.pools[0].dice == 11 - 3
    assert r.side_a.pools[0].cover_removed == 3
    r = fight(a="Kid: Dex 1, soak 0", b_cover=3)
    assert r.side_a.pools[0].dice == 0  # floored at 0


# --- ablative soak --------------------------------------------------------------------


def test_forcefield_subtracts_successes_from_the_enemy_roll():
    r = fight(a_forcefield=2)
    assert r.side_a.ablative == 2
    assert r.damage_to_a[0] == sum(pool_distribution(5).pmf[:3])
    assert r.victory_b == r.damage_to_a  # default: for victory too
    assert fight(a_forcefield=2, a_forcefield_proper=True).side_a.ablative == 3
    per_dot = fight(a_forcefield=2, a_forcefield_proper=True, forcefield_bonus="per_dot")
    assert per_dot.side_a.ablative == 4
    assert fight(a_forcefield=2, a_extras=2).side_a.ablative == 4
    assert fight(a_extras=2).side_a.ablative == 0  # extras need a forcefield


def test_ablative_for_damage_only_keeps_victory_on_rolled_successes():
    r = fight(a_forcefield=3, ablative_applies="damage")
    plain = fight()
    assert r.p_a_wins == plain.p_a_wins
    assert r.damage_to_a != plain.damage_to_a


# --- strange interactions ---------------------------------------------------------------


def test_double_attack_minus_resistance_pool():
    r = fight(a="Telepath: Man 3, Domination 2, resist 4, formula 2x, initiative 6")
    (p,) = r.side_a.pools
    assert (p.base, p.against, p.against_kind, p.dice) == (10, 4, "resistance", 6)


def test_attack_plus_damage_minus_resistance_three_readings():
    line = "Blaster: Dex 2, Quantum Bolt 2, damage 4, resist 5, formula sum, initiative 6"
    (p,) = fight(a=line).side_a.pools
    assert (p.base, p.dice) == (8, 3)
    (p,) = fight(a=line, strange_mode="expected").side_a.pools
    assert (p.against, p.dice) == (2, 6)  # ⌊5 × 2/5⌋ = 2
    r = fight(a=line, strange_mode="roll")
    (p,) = r.side_a.pools
    assert (p.dice, p.resist_dice) == (8, 5)
    # net successes = max(0, X − R), X ~ 8 dice, R ~ 5 dice
    x, y = pool_distribution(8).pmf, pool_distribution(5).pmf
    expect = [Fraction(0)] * 9
    for i, px in enumerate(x):
        for j, py in enumerate(y):
            expect[max(0, i - j)] += px * py
    assert r.side_a.successes == tuple(expect)
    assert sum(r.side_a.successes) == 1


def test_rolled_resistance_one_die_each_by_hand():
    r = fight(a="X: Dex 1, damage 0, resist 1, formula sum, soak 0", strange_mode="roll")
    # P(net 1) = P(hit) P(resist miss) = 2/5 × 3/5
    assert r.side_a.successes == (Fraction(19, 25), Fraction(6, 25))


# --- resolution: ties, both down --------------------------------------------------------


def test_equal_initiative_tie_stands_or_splits():
    a = "A: Dex 2, Brawl 1, damage 2, soak 1, initiative 4"
    r = fight(a=a)
    assert r.tie_to == "neither"
    assert r.p_a_takes == r.p_a_wins
    assert r.p_a_takes + r.p_b_takes + r.p_tie == 1
    assert "to neither" in r.figure("p_tie").text
    c = fight(a=a, initiative_tie="coin")
    assert c.p_a_takes == c.p_a_wins + c.p_tie / 2
    assert c.p_a_takes + c.p_b_takes == 1


def test_both_down_higher_initiative_survives_lower_is_killed():
    a = "Fast: Str 0, auto 3, soak 0, incap 1, dead 5, initiative 6"
    b = "Slow: Str 0, auto 3, soak 0, incap 1, dead 5, initiative 2"
    r = fight(a=a, b=b)
    assert r.damage_to_a == (0, 0, 0, 1)
    assert r.damage_to_b == (0, 0, 0, 1)
    assert (r.p_a_down, r.p_a_killed) == (0, 0)
    assert (r.p_b_down, r.p_b_killed) == (1, 1)
    log = combat_roll_log(r, 7)
    assert any("Side A has the higher initiative and survives" in line for line in log)
    assert (
        "Side A takes 3 levels of damage: Fast 3 levels rolled, survives on the last −4 level "
        "(0 levels)"
    ) in log
    assert "Side B takes 3 levels of damage: Slow 3 levels, killed" in log
    # equal initiative: the damage stands as rolled
    r = fight(a=a, b=b.replace("initiative 2", "initiative 6"))
    assert (r.p_a_down, r.p_a_killed, r.p_b_down, r.p_b_killed) == (1, 0, 1, 0)


def test_both_down_probabilities_by_independence():
    a = "A: Dex 2, Brawl 2, damage 2, soak 0, incap 2, dead 3, initiative 3"
    b = "B: Dex 2, Brawl 2, damage 2, soak 0, incap 2, dead 3, initiative 1"
    r = fight(a=a, b=b)
    d = pool_distribution(6)
    down, killed = d.at_least(2), d.at_least(3)
    assert r.p_a_down == down - down * down
    assert r.p_a_killed == killed - killed * down
    assert r.p_b_down == down
    assert r.p_b_killed == killed + down * (down - killed)


# --- health thresholds ------------------------------------------------------------------


def test_thresholds_from_a_20_track():
    # Str 2, Sta 3: 7 normal levels, Incap (the 8th), 5 Dying → dead at 13
    r = fight(a="Cop: Dex 3, Firearms 2, track Str 2 Sta 3", ruleset="2.0")
    assert (r.side_a.pools[0].incap, r.side_a.pools[0].dead) == (8, 13)


def test_side_thresholds_and_line_overrides():
    r = fight(b_incap=3, b_dead=6)
    assert (r.side_b.pools[0].incap, r.side_b.pools[0].dead) == (3, 6)
    assert r.p_b_down == pool_distribution(11).at_least(3)
    r = fight(b=GANGBANGER + ", incap 4", b_incap=5, b_dead=6)
    assert (r.side_b.pools[0].incap, r.side_b.pools[0].dead) == (4, 6)


# --- quantum --------------------------------------------------------------------------


def test_quantum_costs_and_shortfall():
    r = fight(
        a="Nova: Dex 3, Brawl 2, damage 5, Quantum 10",
        a_powers="Flight, 1, maintenance\nQuantum Bolt, 2, instant\nNova: Shield, 1, conc",
    )
    (s,) = r.side_a.quantum
    assert s.spent == 2 + 20 + 2
    assert (s.pool, s.remaining, s.shortfall) == (10, 0, 14)
    assert r.figure("quantum_a").text == "Nova 24 of 10: ends at 0"
    assert "ends the combat with 0 Quantum and suffers no other penalty" in r.explain()
    r = fight(a_powers="Strength, 3, action")
    assert r.figure("quantum_a").text == "Police officer 15"
    assert "no shortfall check" in r.explain()
    assert fight().figure("quantum_a").text == "none"


@pytest.mark.parametrize(
    ("kwargs", "field", "expect"),
    [
        ({"a_cover": 4}, "a_cover", "from 0 to 3"),
        ({"b_position": 6}, "b_position", "from 0 to 5"),
        ({"a_incap": 9, "a_dead": 4}, "a_incap", "must not be more than"),
        ({"a_intent": "x" * 121}, "a_intent", "at most 120 characters"),
        ({"a_powers": "Flight, 1, permanent"}, "a_powers", "line 1: the type must be one of"),
        ({"a_powers": "Flight, one, action"}, "a_powers", "from 0 to 50"),
        ({"a_powers": "Flight 1 action"}, "a_powers", "three parts"),
        ({"b_powers": "Zed: Flight, 1, action"}, "b_powers", "no combatant named “Zed”"),
        ({"strange_mode": "guess"}, "strange_mode", "must be one of"),
    ],
)
def test_bad_fields(kwargs, field, expect):
    err = refusal(compressed_combat, **kwargs)
    assert err.field == field
    assert expect in err.message


def test_intent_is_kept_short_and_tidy():
    r = compressed_combat(a_intent="  Drive   them\toff  ", b_intent="")
    assert r.side_a.intent == "Drive them off"
    assert r.side_b.intent == "(no intent stated)"


# --- charts and the roll ------------------------------------------------------------------


def test_margin_chart_sums_to_one_and_highlights_side_a_wins():
    chart = fight().margin_chart()
    assert abs(sum(p for _, p in chart.bars) - 1) < 1e-5
    labels = [label for label, _ in chart.bars]
    assert labels[chart.highlight_from] == "0"  # A takes ties on initiative
    r = fight(a="A: Dex 2, Firearms 2, damage 5, soak 1, initiative 4")
    chart = r.margin_chart()
    labels = [label for label, _ in chart.bars]
    assert labels[chart.highlight_from] == "+1"
    assert r.damage_chart_b().highlight_from == 7  # the gangbanger's 7 levels to incap
    assert abs(sum(p for _, p in r.damage_chart_a().bars) - 1) < 1e-5


def test_damage_chart_highlight_may_lie_past_the_bars():
    # 5 dice never reach the officer's 7 levels to Incapacitated: nothing is highlighted
    r = fight()
    chart = r.damage_chart_a()
    assert [label for label, _ in chart.bars] == ["0", "1", "2", "3", "4", "5"]
    assert chart.highlight_from == 7


def test_roll_log_is_seeded_and_reads_out_the_fight():
    r = fight()
    log = combat_roll_log(r, 1234)
    assert log == combat_roll_log(r, 1234)
    assert log[0].startswith("Side A, Police officer: 11 d10: ")
    assert log[1].startswith("Side B, Gangbanger: 5 d10: ")
    assert any("WINS" in line or "TIE" in line for line in log)
    assert log[-1].startswith("Side B takes ")
    winners = {combat_roll_log(r, s)[2].split(" WINS")[0] for s in range(40)}
    assert "Side A (Police officer)" in winners


def test_roll_log_frequencies_follow_the_odds():
    r = fight()
    n = 2000
    wins = sum("Side A (Police officer) WINS" in combat_roll_log(r, s)[2] for s in range(n))
    p = float(r.p_a_takes)
    sd = (p * (1 - p) / n) ** 0.5
    assert abs(wins / n - p) < 5 * sd


# --- oracle: a seeded numpy Monte Carlo ----------------------------------------------------


def test_against_numpy_monte_carlo():
    np = pytest.importorskip("numpy")
    # officer + ablative 2 + cover, gangbanger pair with a rolled-resistance attacker
    r = fight(
        a=OFFICER + ", incap 5, dead 8",
        b=GANGBANGER + "\nPsion: Wits 2, Mind Shards 2, damage 3, resist 3, formula sum, "
        "initiative 5",
        a_forcefield=1,
        a_forcefield_proper=True,
        b_cover=1,
        strange_mode="roll",
    )
    (officer,) = r.side_a.pools
    gang, psion = r.side_b.pools
    rng = np.random.default_rng(20240607)
    n = 400_000
    xa = rng.binomial(officer.dice, 0.4, n) + officer.auto
    xb = rng.binomial(gang.dice, 0.4, n) + np.maximum(
        0, rng.binomial(psion.dice, 0.4, n) - rng.binomial(psion.resist_dice, 0.4, n)
    )
    va, vb = xa - 0, np.maximum(0, xb - r.side_a.ablative)
    tol = 4 * (0.25 / n) ** 0.5  # 4 standard deviations at worst (p = 1/2)
    assert abs(np.mean(va > vb) - float(r.p_a_wins)) < tol
    assert abs(np.mean(va == vb) - float(r.p_tie)) < tol
    assert abs(np.mean(va < vb) - float(r.p_b_wins)) < tol
    for k, p in enumerate(r.damage_to_a):
        assert abs(np.mean(vb == k) - float(p)) < tol
    for k, p in enumerate(r.damage_to_b):
        assert abs(np.mean(va == k) - float(p)) < tol
    # Side B (initiative 5) ties Side A's 5: equal → damage stands as rolled
    assert r.tie_to == "neither"
    assert abs(np.mean(vb >= 5) - float(r.p_a_down)) < tol


def test_against_icepool():
    icepool = pytest.importorskip("icepool")
    r = fight(b_cover=2, a_forcefield=1)
    hit = icepool.Die({0: 6, 1: 4})
    a = r.side_a.pools[0].dice @ hit
    b = r.side_b.pools[0].dice @ hit
    b_after = (b - 1).clip(0, None) if hasattr(b, "clip") else b.map(lambda x: max(0, x - 1))
    margin = a - b_after
    assert Fraction(margin.probability(">", 0)) == r.p_a_wins
    assert Fraction(margin.probability("==", 0)) == r.p_tie


# --- henchmen -------------------------------------------------------------------------


def test_henchmen_add_dice_damage_and_health_levels():
    # limit (Cha 2 + Command 1) × 2 = 6: 6 counted (+6d, +6 damage), 3 extra health levels
    bonus = henchmen_bonus(charisma=2, command=1, henchmen=9, henchman_pool=4)
    assert (bonus.limit, bonus.dice, bonus.damage, bonus.extra_health_levels) == (6, 6, 6, 3)
    r = fight(a_henchmen=9, a_leader_charisma=2, a_leader_command=1, a_henchman_pool=4)
    (p,) = r.side_a.pools
    assert p.base == 12 + 6 + 6
    assert p.dice == 24 - 1
    assert (p.incap, p.dead) == (7 + 3, 11 + 3)
    assert r.side_a.henchmen == bonus
    assert "Side A: Henchmen limit = (Charisma 2 + Command 1) × 2 = 6" in r.explain()
    assert "+3 extra health levels from henchmen past the limit" in r.explain()


def test_henchmen_as_modifiers_are_capped_and_situation_changes_the_limit():
    m = fight(
        a="Boss: Cha 1, Command 1, damage 1",
        a_henchmen=9,
        a_leader_charisma=2,
        a_leader_command=1,
        a_henchman_pool=8,  # over 7: +2d each
        henchmen_count_as="modifier",
    )
    (p,) = m.side_a.pools
    assert p.base == 3
    assert p.modifiers == 3
    tight = fight(a_henchmen=9, a_leader_charisma=2, a_leader_command=1, a_henchmen_situation=-2)
    (p,) = tight.side_a.pools
    assert p.base == 12 + 4 + 4
    assert (p.incap, p.dead) == (7 + 5, 11 + 5)


def test_parsed_lists_are_accepted_again():
    # the form parses each field, then calls the engine, whose declaration checks again
    assert compressed_combat(a_combatants=parse(OFFICER), b_combatants=parse(GANGBANGER)) == fight()
    powers = next(p for p in PARAMS if p.name == "a_powers").parse("Flight, 1, maintenance")
    assert compressed_combat(a_powers=powers) == compressed_combat(a_powers="Flight, 1, maint")
    with pytest.raises(InputError, match="at least one combatant"):
        compressed_combat(a_combatants=())


# --- records passed from Python get the form's checks (issue 11, defect 3) -----------------

LINES = [
    OFFICER,
    GANGBANGER,
    "Brute: Str 3, Mega-Str 1, Brawl 3, damage 5B, soak 6",
    "Nova: Dex 2, Brawl 1, damage 3, auto 3, soak 0, Quantum 0",
    "Ann: Dex 1, Brawl 1, soak 0, incap 2, dead 4\nBob: Dex 1, Brawl 1, incap 2, dead 4",
    "Blaster: Dex 2, Quantum Bolt 2, damage 4, resist 5, formula sum, initiative 6",
    "Telepath: Wits 4, Mind Shards 3, damage 3A, resist 4, formula 2x, initiative 5, auto 1",
    "Cop: Dex 3, Firearms 2, track Sta 3 armour 2 MSta 1 Q 4 MStr 1 Str 2",
    "Cop: Dex 3, Firearms 2, track Sta 3",
    "Cop: Dex 3, Firearms 2, track Sta 3 Str 1 Will 4 Res 2",
    "Nova: Dex 3, Brawl 2, damage 5, Quantum 10, Tactics 3, dodge 6, soak 5, bonus 2",
    "# the gang\nGangbanger: Dex 2, Firearms 2\n\nLookout: Per 3, Firearms 1, damage 4L\n"
    "Boss: Dex 3, Mega-Dex 1, Firearms 3, accuracy 2, damage 7L, soak 3L, initiative 6",
    "Dex 4, Martial Arts 3, damage 4B, soak 2B, init 7, incap 5, dead 9",
    "A: Strength 2, M-Str 1, Might 3\nB: mega dex 1, Athletics 2\nC: attribute 2, ability 1",
    "Kid: mega 2",
    "Kid: Dex 0, soak 0",
]


@pytest.mark.parametrize("text", LINES)
def test_parsed_combatants_pass_the_check_unchanged(text):
    records = parse(text)
    assert COMBATANTS.check(records) == records
    assert COMBATANTS.check(list(records)) == records


def cop(**kw):
    fields = {"name": "Cop", "line": 1, "attribute": "Dexterity", "attribute_dots": 3}
    return Combatant(**(fields | {"ability": "Firearms", "ability_dots": 2} | kw))


@pytest.mark.parametrize(
    ("records", "expect"),
    [
        ((cop(attribute_dots=10**6),), "line 1: attribute must be a whole number from 0 to 10"),
        ((cop(damage=-1),), "line 1: damage must be a whole number from 0 to 50"),
        ((cop(soak=10**5000),), "line 1: soak must be a whole number from 0 to 50"),
        ((cop(initiative=2.5),), "line 1: initiative must be a whole number from 0 to 50"),
        ((cop(accuracy=True),), "line 1: accuracy must be a whole number from 0 to 10"),
        ((cop(attribute_dots="3"),), "line 1: attribute must be a whole number from 0 to 10"),
        ((cop(mega=11),), "line 1: Mega-Attribute must be a whole number from 0 to 10"),
        ((cop(quantum=101),), "line 1: Quantum must be a whole number from 0 to 100"),
        ((cop(incap=9, dead=4),), "line 1: incap must not be more than dead"),
        ((cop(incap=0),), "line 1: incap must be a whole number from 1 to 200"),
        ((cop(track=(("strength", 2), ("stamina", 99))),), "track sta must be from 1 to 20"),
        ((cop(track=(("stamina", 3), ("strength", 2)), dead=4),), "either a track or incap"),
        (
            (cop(track=(("luck", 3),)),),
            "“track” takes Str, Sta, MSta, MStr, Quantum, armour, Will and Res",
        ),
        ((cop(track=(("stamina", 3), ("willpower", 0))),), "track will must be from 1 to 10"),
        ((cop(formula="sum"),), "line 1: “formula” needs the enemy's resistance pool"),
        ((cop(resist=3, formula="triple"),), "the formula is “formula 2x” or “formula sum”"),
        ((cop(name="x" * 41),), "line 1: the name is longer than 40 characters"),
        ((cop(name="x" * 10**6),), "Side A combatants is too long: at most 2,000 characters"),
        ((cop(attribute_dots=0, ability_dots=0),), None),  # the form takes "Cop: Dex 0"
        (tuple(cop(name=f"C{i}") for i in range(9)), "at most 8 combatants"),
        (tuple(cop(name=f"C{i}") for i in range(1000)), "is too long: at most 2,000 characters"),
        ((cop(), cop(line=2)), "line 2: the name “Cop” is used twice"),
        ((), "list at least one combatant"),
    ],
)
def test_combatant_records_get_the_forms_checks(records, expect):
    start = time.process_time()
    if expect is None:
        assert compressed_combat(a_combatants=records).side_a.combatants == records
        return
    err = refusal(compressed_combat, a_combatants=records)
    assert time.process_time() - start < 1  # a guard against a hang, not a benchmark
    assert err.field == "a_combatants"
    assert err.message.startswith("Side A combatants")
    assert expect in err.message


@pytest.mark.parametrize(
    ("record", "typed"),
    [
        (cop(attribute_dots=11), "Cop: Dex 11, Firearms 2"),
        (cop(dodge=51), "Cop: Dex 3, Firearms 2, dodge 51"),
        (cop(track=(("strength", 21), ("stamina", 2))), "Cop: Dex 3, track Str 21 Sta 2"),
        (cop(incap=7, dead=3), "Cop: Dex 3, incap 7, dead 3"),
    ],
)
def test_a_record_gets_the_message_its_typed_line_gets(record, typed):
    typed_err = refusal(compressed_combat, b_combatants=typed)
    record_err = refusal(compressed_combat, b_combatants=(record,))
    assert record_err.field == typed_err.field == "b_combatants"
    assert record_err.message == typed_err.message


def test_record_messages_keep_the_line_numbers_of_the_text():
    first, second = parse("# the gang\nA: Dex 1, Brawl 1\n\nB: Dex 2, Brawl 2")
    assert (first.line, second.line) == (2, 4)
    with pytest.raises(InputError, match="line 4: attribute must be a whole number"):
        compressed_combat(a_combatants=(first, replace(second, attribute_dots=11)))


@pytest.mark.parametrize(
    "record",
    [
        cop(ability="Dodge"),  # would read back as a dodge pool
        cop(attribute="Luck"),  # not an attribute
        cop(name="A: B"),
        cop(name="Dex"),
        cop(ability="firearms"),
        cop(damage_type="X", damage=3),
        cop(name=5),
    ],
)
def test_a_record_no_line_can_give_is_refused(record):
    err = refusal(compressed_combat, a_combatants=(record,))
    assert err.field == "a_combatants"
    assert err.message.startswith("Side A combatants")


def use(**kw):
    return PowerUse(**({"who": "", "power": "Flight", "cost": 1, "kind": "maintenance"} | kw))


@pytest.mark.parametrize(
    ("records", "expect"),
    [
        ((use(kind="bogus", line=1),), "line 1: the type must be one of maintenance"),
        ((use(cost=10**6, line=3),), "line 3: the cost must be a whole number from 0 to 50"),
        ((use(cost=-1, line=1),), "the cost must be a whole number from 0 to 50"),
        ((use(cost=2.0, line=1),), "the cost must be a whole number from 0 to 50"),
        ((use(power="", line=1),), "line 1: write “Power, cost, type”"),
        (tuple(use(line=i) for i in range(1, 22)), "at most 20 powers"),
        ((use(kind="maint", line=1),), "line 1: kind “maint” is not what a line"),
        ((use(who="Zed", line=2),), "line 2: no combatant named “Zed”"),
    ],
)
def test_power_records_get_the_forms_checks(records, expect):
    err = refusal(compressed_combat, a_powers=records)
    assert err.field == "a_powers"
    assert err.message.startswith("Side A Quantum powers used")
    assert expect in err.message


def test_parsed_powers_pass_the_check_unchanged():
    text = "# powers\nFlight, 1, maintenance\n\nPolice officer: Bolt, 2, inst\nShield, 0, conc"
    records = POWERS.parse(text)
    assert [u.line for u in records] == [2, 4, 5]
    assert POWERS.check(records) == records
    assert compressed_combat(a_powers=records) == compressed_combat(a_powers=text)


# --- the 2.1 health track (issue 10) ----------------------------------------------------


WEAK_COP = "Cop: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5"


def test_a_21_track_sets_the_thresholds_and_is_applied():
    # 2.1, Str 0, Sta 1, Will 1: 1 + 1 × 2 = 3 levels, 1 Incap, (0 + 1) × 2 = 2 Dying:
    # Incapacitated at 4 levels of damage, dead at 6.
    r = fight(a=WEAK_COP + ", track Str 0 Sta 1 Will 1", ruleset="2.1")
    (cop,), (gang,) = r.side_a.pools, r.side_b.pools
    assert (cop.incap, cop.dead) == (4, 6)
    assert (cop.dice, gang.dice) == (11, 5)  # 12 − soak 1; 9 − soak 4
    # A is down on 4+ of the gangbanger's 5 dice, unless B is down too (7+ of the cop's
    # 11 dice), when the cop's higher initiative (5 > 4) keeps the cop standing.
    assert r.p_a_down == at_least(5, 4) * (1 - at_least(11, 7))
    assert r.p_a_killed == 0  # 6 levels from 5 dice: impossible
    text = r.explain()
    assert "2.1 track" in text
    assert "Incapacitated at 4 levels of damage, dead at 6" in text
    assert any(s.rule.endswith("2.1 Rules › Health Levels") for s in r.steps)


def test_the_same_track_under_20_ignores_willpower():
    # 2.0, Str 0, Sta 1: 6 normal levels, Incap (the 7th), Dying = 0 + 1 → dead at 8
    r = fight(a=WEAK_COP + ", track Str 0 Sta 1 Will 1", ruleset="2.0")
    (cop,) = r.side_a.pools
    assert (cop.incap, cop.dead) == (7, 8)
    assert r.p_a_down == 0  # 7 levels from the gangbanger's 5 dice: impossible
    assert "2.0 track" in r.explain()
    assert "Willpower" in r.explain()  # said not to count under 2.0


def test_a_21_track_without_willpower_names_the_line():
    err = refusal(fight, a=WEAK_COP + ", track Str 2 Sta 3", ruleset="2.1")
    assert err.field == "a_combatants"
    assert "line 1" in err.message
    assert "Willpower" in err.message
    assert "Rules version" in err.message


def test_the_rules_version_defaults_to_21():
    # RN-RULESET-1: every calculator where 2.0 and 2.1 differ defaults to 2.1
    default = fight(a=WEAK_COP + ", track Str 2 Sta 3 Will 5")
    assert (default.side_a.pools[0].incap, default.side_a.pools[0].dead) == (12, 24)


# --- the squad's soak (issue 10) --------------------------------------------------------

BOSS = "Boss: Dex 3, Brawl 2, damage 4, soak 5, initiative 6"
LIEUTENANT = "Lt: Dex 2, Brawl 2, damage 3, soak 3, initiative 2"
SQUAD = {"b_henchmen": 3, "b_henchman_soak": 1, "b_leader_charisma": 2}


def test_a_squad_is_attacked_through_its_henchmens_soak():
    # "When targeting a squad with henchmen in it, the squad's soak is assumed to be the
    # representative soak of the most numerous henchman type."
    r = fight(b=BOSS, **SQUAD)
    (officer,), (boss,) = r.side_a.pools, r.side_b.pools
    assert (officer.against, officer.dice) == (1, 12 - 1)  # not the Boss's soak 5
    assert boss.base == 3 + 2 + 4 + 3 + 3  # 3 henchmen within the limit (2 + 0) × 2 = 4
    assert boss.dice == 15 - 4
    text = r.explain()
    assert "representative soak of the most numerous henchman type" in text
    assert any(s.rule.endswith("Henchmen › Damage Soak") for s in r.steps)
    # victory from the pools worked out here: 11 dice against 11 dice, by hand
    exactly = [at_least(11, k) - at_least(11, k + 1) for k in range(12)]
    assert r.p_a_wins == sum(
        (exactly[i] * exactly[j] for i in range(12) for j in range(i)), Fraction(0)
    )


def test_the_squads_soak_joins_the_highest_soak_of_several_opponents():
    # the squad (soak 1) and the lieutenant (soak 3): the highest, 3, applies
    r = fight(b=BOSS + "\n" + LIEUTENANT, **SQUAD)
    assert r.side_a.pools[0].dice == 12 - 3
    # a squad with soak 6 is the highest
    r = fight(b=BOSS + "\n" + LIEUTENANT, **{**SQUAD, "b_henchman_soak": 6})
    assert r.side_a.pools[0].dice == 12 - 6


def test_without_henchmen_the_leaders_soak_stands():
    r = fight(b=BOSS, b_henchman_soak=1)
    assert r.side_a.pools[0].dice == 12 - 5
    assert "representative soak" not in r.explain()


def test_a_sides_own_squad_soak_protects_it_not_its_attack():
    # side A's henchmen (soak 0) replace the officer's soak 4 against the gangbanger
    r = fight(a_henchmen=2, a_henchman_soak=0)
    (officer,), (gang,) = r.side_a.pools, r.side_b.pools
    assert gang.dice == 9 - 0
    assert officer.dice == 12 + 2 + 2 - 1
