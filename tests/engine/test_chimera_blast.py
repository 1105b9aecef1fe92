"""Chimera combat, issue 10 item 3: Blast attacks and the cover (and shield) bonus to the
Resistance Roll against them, doubled behind thick, strong or reinforced barriers.

Expected values by hand, or by brute force in this file: every d20 face of the attacker's
roll and of the defender's Resistance Roll, and every damage face, enumerated.
"""

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from ruleslab.chimera.attack import Fighter, FightRules, attack_odds
from ruleslab.chimera.blast import blast_bonus, blow_odds, halved
from ruleslab.chimera.cover import blast_resistance_bonus
from ruleslab.chimera.dice import DamageDice, parse_dice
from ruleslab.chimera.duel import duel_odds
from ruleslab.pmf import dice

GRENADIER = Fighter(
    name="A", mr=10, defence=1, wound_limit=3, damage=parse_dice("2d6"), attack=2,
    kind="blast", blast_tn=15,
)  # fmt: skip
TARGET = Fighter(name="B", mr=12, defence=1, wound_limit=2, damage=parse_dice("d6"), attack=2)
RULES = FightRules()
COVER = {"none": 0, "light": 1, "medium": 2, "heavy": 4}
POSTURE = {"standing": 0, "crouching": 1, "prone": 2, "drops_prone": 2, "gets_up": 0}


def test_the_texts_cover_bonus_against_blasts():
    """'Add the Cover bonus (and shield bonus, at the GM's option) to your Resistance Roll
    vs. blast attacks (double the bonus for thick, strong, or reinforced barriers).'"""
    heavy = replace(TARGET, cover="heavy")
    assert blast_bonus(heavy, RULES)[0] == 4
    assert blast_bonus(replace(heavy, barrier="reinforced"), RULES)[0] == 8
    shielded = replace(heavy, barrier="reinforced", parry=2, parry_from="shield")
    assert blast_bonus(shielded, RULES)[0] == 8 + 2  # the GM lets the shield count
    assert blast_bonus(shielded, replace(RULES, blast_shield="ignored"))[0] == 8
    # a melee weapon's parry is no shield
    assert blast_bonus(replace(shielded, parry_from="weapon"), RULES)[0] == 8
    # crouching +1 and prone +2 are cover "vs. Shoot and Blast attacks"; only the barrier doubles
    assert blast_bonus(replace(heavy, position="crouching", barrier="reinforced"), RULES)[0] == 9
    assert blast_bonus(replace(heavy, position="prone"), RULES)[0] == 6
    assert (
        blast_bonus(replace(heavy, position="prone"), replace(RULES, cover_stacking="best"))[0] == 4
    )
    assert blast_resistance_bonus("light", "drops_prone", reinforced=True) == 2 + 2


def brute(att, dfd, wa, wd, rules):
    """{"miss": P, "none": P, severity: P} of a blast, every die enumerated."""
    shield = dfd.parry if dfd.parry_from == "shield" and rules.blast_shield == "counts" else 0
    barrier = COVER[dfd.cover] * (2 if dfd.barrier == "reinforced" else 1)
    bonus = barrier + POSTURE[dfd.position] + shield
    in_roll = rules.parry_cover == "tn"
    out = {}

    def put(k, p):
        out[k] = out.get(k, Fraction(0)) + p

    rolls = range(1, 21) if rules.blast_roll == "hit" else [None]
    for nat in rolls:
        p_roll = Fraction(1, 20) if nat else Fraction(1)
        crit = nat == 20
        if nat is not None:
            tn = max(0, dfd.mr - wd)
            if not (crit or nat + att.attack - wa >= tn):
                put("miss", p_roll)
                continue
        for res in range(1, 21):
            resisted = (
                res == 20 or res + dfd.resist - wd + (bonus if in_roll else 0) >= att.blast_tn
            )
            if resisted and rules.blast_resisted == "avoids":
                put("miss", p_roll / 20)
                continue
            count = att.dice.count * (2 if crit else 1)
            faces = [sum(c) for c in product(range(1, att.dice.sides + 1), repeat=count)]
            for face in faces:
                dmg = face + att.dice.bonus
                if resisted:
                    dmg //= 2
                sev = dmg - dfd.defence - (0 if in_roll else bonus)
                put(sev if sev >= 1 else "none", p_roll / 20 / len(faces))
    return out


CASES = {
    "in the open": (GRENADIER, TARGET, 0, 0, RULES),
    "behind reinforced medium cover, prone, with a shield": (
        GRENADIER,
        replace(
            TARGET,
            cover="medium",
            barrier="reinforced",
            position="prone",
            parry=1,
            parry_from="shield",
            kind="shoot",
        ),
        0,
        1,
        RULES,
    ),
    "resisting halves the damage": (
        GRENADIER,
        replace(TARGET, resist=3),
        1,
        0,
        replace(RULES, blast_resisted="halves"),
    ),
    "the blast must land first": (
        GRENADIER,
        replace(TARGET, cover="light"),
        0,
        1,
        replace(RULES, blast_roll="hit"),
    ),
    "must land, halves, and cover folded into Defence": (
        replace(GRENADIER, damage=DamageDice(1, 8, 2)),
        replace(TARGET, cover="heavy", barrier="reinforced"),
        2,
        0,
        replace(RULES, blast_roll="hit", blast_resisted="halves", parry_cover="defence"),
    ),
}


@pytest.mark.parametrize(("att", "dfd", "wa", "wd", "rules"), CASES.values(), ids=CASES.keys())
def test_blast_odds_match_a_brute_force(att, dfd, wa, wd, rules):
    odds = blow_odds(att, dfd, wa, wd, rules)
    want = brute(att, dfd, wa, wd, rules)
    sev = odds.severity
    assert sev.p_miss == want.get("miss", 0)
    assert sev.p_no_wound == want.get("none", 0)
    assert dict(sev.pmf) == {k: p for k, p in want.items() if isinstance(k, int)}
    assert sev.p_miss + sev.p_no_wound + sev.p_wound == 1
    # vanquished: severity above WL 2, or any wound once he has 2
    assert sev.p_vanquish == sum(
        (p for k, p in want.items() if isinstance(k, int) and (k > 2 or wd + 1 > 2)), Fraction(0)
    )
    assert odds.kind == "blast"


def test_a_blast_by_hand():
    # No roll to hit; B resists d20 + 0 against TN 15: 6/20. Failing, 2d6 − 1 ≥ 1 always.
    odds = blow_odds(GRENADIER, TARGET, 0, 0, RULES)
    assert odds.tn is None
    assert odds.modifier is None
    assert odds.resist is not None
    assert odds.resist.p_success == Fraction(6, 20)
    assert odds.p_hit == Fraction(14, 20)
    assert odds.p_critical == 0
    assert odds.p_wound == Fraction(14, 20)
    # severity > 2: 2d6 ≥ 4 (33/36)
    assert odds.p_vanquish == Fraction(14, 20) * Fraction(33, 36)
    # bound: −4 to his Resistance Roll, so only a natural 19 or 20 resists: 2/20
    bound = blow_odds(GRENADIER, replace(TARGET, bound="bound"), 0, 0, RULES)
    assert bound.resist is not None
    assert bound.resist.p_success == Fraction(2, 20)
    text = "\n".join(str(s) for s in odds.steps)
    assert "no roll to hit" in text
    assert "against A's Blast TN 15: succeeds 30.00 % and avoids the blast" in text


def test_halving_rounds_down():
    d = dice(1, 7)
    assert dict(halved(d).items()) == {
        0: Fraction(1, 7),
        1: Fraction(2, 7),
        2: Fraction(2, 7),
        3: Fraction(2, 7),
    }


def test_a_fight_or_shoot_roll_is_not_for_blasts():
    with pytest.raises(
        ValueError,
        match=r"^A attacks with a blast: its odds are ruleslab\.chimera\.blast\.blow_odds",
    ):
        attack_odds(GRENADIER, TARGET, 0, 0, RULES)


def test_cover_against_blasts_goes_to_the_resistance_roll_not_the_tn():
    # Reading "hit": the blast's roll is against the adjusted MR alone (cover and parry
    # go to the Resistance Roll), unlike a Shoot attack's TN.
    guarded = replace(TARGET, cover="heavy", parry=2)
    rules = replace(RULES, blast_roll="hit")
    assert blow_odds(GRENADIER, guarded, 0, 0, rules).tn == 12
    assert attack_odds(replace(GRENADIER, kind="shoot"), guarded, 0, 0, rules).tn == 12 + 2 + 4


def test_in_the_duel_cover_makes_a_blast_resistible():
    exposed = replace(TARGET, character="pc")
    covered = replace(exposed, cover="heavy", barrier="reinforced")
    a = replace(GRENADIER, character="pc")
    assert duel_odds(a, covered).p_win[0] < duel_odds(a, exposed).p_win[0]
