"""Issue 33 (a): a target's natural soak is derived from its record the same way everywhere.

Quick reference › 2.0 Rules › Soak: "Natural Character Soak is by default (Quantum +
Stamina + Mega-Stamina) Bashing/(Quantum + Stamina/2 + Mega-Stamina) Lethal/(Quantum/2)
Aggravated"; "Stun damage is soaked as bashing damage". Autofire's target soak comes
from its record (rules note RN-SOAK-4) unless "entered", an override a step names.

Every expected figure is worked by hand in the comments: an attack die and a damage die
succeed on 7–10 (4 faces in 10, 2/5), soak comes off the damage dice.
"""

from __future__ import annotations

from fractions import Fraction

from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab.calculators.damage import damage_resolution
from ruleslab.character import Character

# A plain attack: Dex 3 + Firearms 2 + accuracy 0 = 5 dice, no burst, no extra dice for
# extra successes, the target's Defense ⌊min(Dex 0, Wits 0) ÷ 2⌋ = 0: difficulty 1, so
# P(hit) = 1 − (3/5)^5 = 1 − 243/3125 = 2882/3125.
PLAIN = {
    "accuracy": 0,
    "burst": "none",
    "extra_successes": "none",
    "target_dexterity": 0,
    "target_wits": 0,
}
P_HIT = Fraction(2882, 3125)


def _mean(levels: tuple[Fraction, ...]) -> Fraction:
    return sum((k * p for k, p in enumerate(levels)), Fraction(0))


def _soak_step(report) -> str:
    return next(s.text for s in report.steps if "RN-SOAK-4" in s.text)


def test_issue_example_stamina_4_quantum_1_soaks_3_in_damage_and_autofire():
    # 2.1, Stamina 4, Quantum 1, lethal: 1 + ⌊4/2⌋ + 0 = 3 natural soak (the issue's figure).
    person = {"target_stamina": 4, "target_quantum": 1}
    assert damage_resolution(kind="lethal", stamina=4, quantum=1).natural_soak == 3
    r = autofire_and_strafing(damage_dice=4, **PLAIN, **person)
    assert "= 3 (rules note RN-SOAK-4)" in _soak_step(r)
    # 4 damage dice − soak 3 = 1 die, 2/5 of a level on a hit: 2882/3125 × 2/5 = 5764/15625
    assert _mean(r.levels) == P_HIT * Fraction(2, 5) == Fraction(5764, 15625)
    # the old figure, against the form's own soak 2: 2 dice, 4/5 of a level on a hit
    old = autofire_and_strafing(
        damage_dice=4, natural_soak_from="entered", natural_soak=2, **PLAIN, **person
    )
    assert _mean(old.levels) == Fraction(11528, 15625)
    assert "entered" in _soak_step(old)
    assert "which gives 3" in _soak_step(old)


def test_the_same_record_gives_the_same_soak_as_damage_resolution():
    # one derivation: for each kind, Autofire's soak step reports what Damage works out
    hero = Character(stamina=5, mega_stamina=1, quantum=3)
    for kind, soak in (("bashing", 9), ("lethal", 6), ("aggravated", 1), ("stun", 9)):
        # bashing 3 + 5 + 1 = 9; lethal 3 + ⌊5/2⌋ + 1 = 6; aggravated ⌊3/2⌋ = 1; stun as bashing
        assert damage_resolution(kind=kind, target=hero).natural_soak == soak
        r = autofire_and_strafing(target=hero, damage_type=kind)
        assert f"= {soak} (rules note RN-SOAK-4)" in _soak_step(r)
        assert f"Soak {soak} (natural {soak}" in " ".join(s.text for s in r.steps)


def test_bashing_weapon_against_mega_stamina():
    # bashing: Quantum 1 + Stamina 2 + Mega-Stamina 1 = 4; 6 dice − 4 = 2 dice, 4/5 of a
    # level on a hit: 2882/3125 × 4/5 = 11528/15625
    r = autofire_and_strafing(
        damage_dice=6,
        damage_type="bashing",
        target_stamina=2,
        target_mega_stamina=1,
        target_quantum=1,
        **PLAIN,
    )
    assert _mean(r.levels) == Fraction(11528, 15625)


def test_aggravated_soak_rounds_per_the_option():
    # aggravated: Quantum 5 / 2 = 2 (down) or 3 (up); 4 dice − 2 = 2 dice (4/5 of a level
    # on a hit) or − 3 = 1 die (2/5)
    down = autofire_and_strafing(damage_dice=4, damage_type="aggravated", target_quantum=5, **PLAIN)
    up = autofire_and_strafing(
        damage_dice=4, damage_type="aggravated", target_quantum=5, soak_rounding="up", **PLAIN
    )
    assert _mean(down.levels) == P_HIT * Fraction(4, 5)
    assert _mean(up.levels) == P_HIT * Fraction(2, 5)


def test_the_defaults_keep_the_old_soak_of_2():
    # the form's default target: Quantum 1, Stamina 2: lethal 1 + 1 + 0 = 2, the old field's 2
    r = autofire_and_strafing()
    e = autofire_and_strafing(natural_soak_from="entered")
    assert r.levels == e.levels
    assert "= 2 (rules note RN-SOAK-4)" in _soak_step(r)


def test_under_2_0_the_quantum_is_read_for_soak():
    # under 2.0 the target's Quantum is no longer "not used": it is in its soak
    r = autofire_and_strafing(ruleset="2.0", dodge_pool=0)
    unused = next(s.text for s in r.steps if s.text.startswith("Not used under 2.0"))
    assert "Target's Quantum" not in unused
    e = autofire_and_strafing(ruleset="2.0", natural_soak_from="entered")
    unused = next(s.text for s in e.steps if s.text.startswith("Not used under 2.0"))
    assert "Target's Quantum" in unused


# --- an entered soak without its choice reads as the override (never the record) -------
# Stamina 4, Quantum 1: the record soaks 3 lethal; an entered 2 leaves 4 − 2 = 2 dice
# (4/5 of a level on a hit: 11528/15625), the record's 3 leaves 1 die (5764/15625).
PERSON = {"target_stamina": 4, "target_quantum": 1, "damage_dice": 4, **PLAIN}
ENTERED_2 = Fraction(11528, 15625)
RECORD_3 = Fraction(5764, 15625)


def test_a_python_call_giving_natural_soak_only_is_the_override():
    r = autofire_and_strafing(natural_soak=2, **PERSON)
    assert _mean(r.levels) == ENTERED_2
    assert "entered" in _soak_step(r)
    assert "overriding the target's record" in _soak_step(r)
    # the choice given explicitly wins
    kept = autofire_and_strafing(natural_soak_from="record", natural_soak=2, **PERSON)
    assert _mean(kept.levels) == RECORD_3
    # neither given: the record
    assert _mean(autofire_and_strafing(**PERSON).levels) == RECORD_3


def test_an_old_link_giving_natural_soak_only_is_the_override():
    from ruleslab.whatif import compare, scenarios_from_query

    query = (
        "calculator=autofire&natural_soak=2&damage_dice=4&target_stamina=4&accuracy=0"
        "&burst=none&extra_successes=none&target_dexterity=0&target_wits=0"
        "&scenarios=2&s2.natural_soak_from=record"
    )
    given = scenarios_from_query("autofire", query)
    assert given[0]["natural_soak_from"] == "entered"
    assert given[1]["natural_soak_from"] == "record"  # said explicitly: kept
    a, b = compare("autofire", given).scenarios
    assert _mean(a.result.levels) == ENTERED_2
    assert _mean(b.result.levels) == RECORD_3


def test_a_scenario_or_a_sweep_of_natural_soak_is_the_override():
    from ruleslab.whatif import compare, sweep

    a, b = compare("autofire", [PERSON, {"natural_soak": 2}]).scenarios
    assert _mean(a.result.levels) == RECORD_3
    assert _mean(b.result.levels) == ENTERED_2
    # sweeping the entered soak from the record's default moves the figure: soak 0..4
    # against 4 dice leaves 4, 3, 2, 1 dice, 2/5 of a level each on a hit; soak 4 leaves
    # none: "1 die of ping damage of one lower type", 2/5 of a (bashing) level
    s = sweep("autofire", "natural_soak", [0, 1, 2, 3, 4], base=PERSON)
    means = [_mean(point.result.levels) for point in s.points[0]]
    assert means == [P_HIT * Fraction(2 * k, 5) for k in (4, 3, 2, 1, 1)]


def test_the_form_reading_an_old_link_shows_the_override():
    from ruleslab.calculators import get

    calc = get("autofire")
    implied = calc.implied({"natural_soak": "3"})
    assert implied == {"natural_soak": "3", "natural_soak_from": "entered"}
    assert calc.implied({}) == {}


def test_henchmen_support_target_soaks_per_its_record_too():
    from ruleslab.calculators import get

    compute = get("henchmen").compute
    # the same saved character (Stamina 4, Quantum 1): lethal 1 + ⌊4/2⌋ + 0 = 3, as Damage
    hero = Character(stamina=4, quantum=1, dexterity=2, wits=2)
    r = compute(target=hero)
    assert "= 3 (rules note RN-SOAK-4)" in _soak_step(r)
    assert "Soak 3 (natural 3" in " ".join(s.text for s in r.steps)
    # a call (an old link) giving the soak alone: the override, marked
    entered = compute(target=hero, target_natural_soak=1)
    assert "Natural soak 1 entered" in _soak_step(entered)
    assert "which gives 3" in _soak_step(entered)
    assert get("henchmen").implied({"target_natural_soak": "1"})["target_natural_soak_from"] == (
        "entered"
    )
