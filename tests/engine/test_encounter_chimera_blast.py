"""A Chimera blast in the tracker: rolled by the site (chimera_table.seeded_blast) or typed
(chimera.resolve_blast), at everyone in its area.

By hand from the Chimera combat text and its readings: a blast catches everyone in its area
with no roll to hit; each makes a Resistance Roll, d20 + his Resistance bonus + his cover
("Add the Cover bonus … to your Resistance Roll vs. blast attacks", medium +2), against the
Blast TN (12 here); a natural 20 always succeeds (RN-CHIM-1/2); success avoids it
(RN-CHIM-7). The blast's damage (Cy's d6) is rolled once, after the first Resistance Roll
that fails, and taken by each who failed (RN-TRACK-16). "When hit, a defender suffers a
wound of severity equal to the damage roll minus his Defence (ignore "wounds" of severity
zero or less)"; "If the total number of wounds, or the severity of a single wound, exceeds
the defender's Wound Limit, he's vanquished". The dice are recomputed with random.Random.
"""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.encounter import chimera as ch
from ruleslab.encounter import chimera_table as table
from ruleslab.encounter.history import record, start, undo
from ruleslab.encounter.log import EncounterError

CY = Fighter("Cy", kind="blast", damage="d6", blast_tn=12, attack=2)
ANA = Fighter("Ana", resist=2, defence=1, wound_limit=6)
BO = Fighter("Bo", resist=0, defence=1, wound_limit=3, cover="medium")
DEFAULT = FightRules()


def _fight(rules: FightRules = DEFAULT) -> ch.ChimeraEncounter:
    people = [ch.fighter("c", CY, "foes"), ch.fighter("a", ANA), ch.fighter("b", BO)]
    enc = ch.new_chimera(people, rules)
    return ch.start_round(enc, {}, {"c": 12, "a": 5, "b": 3}).encounter


@pytest.mark.parametrize("seed", range(60))
def test_the_site_rolls_each_resistance_and_one_damage_roll(seed):
    enc = _fight()
    rolled = table.seeded_blast(enc, "c", ["a", "b"], seed)
    rng = Random(seed)
    damage = None
    want = {}
    for key, mod in (("a", 2), ("b", 0 + 2)):  # Ana's Resistance +2; Bo's medium cover +2
        natural = rng.randint(1, 20)
        resisted = natural + mod >= 12 or natural == 20
        if not resisted and damage is None:
            damage = rng.randint(1, 6)
        want[key] = 0 if resisted else damage
    assert dict(rolled.taken) == want
    assert f"seed {seed}" in rolled.text
    after = ch.resolve_blast(enc, "c", dict(rolled.taken)).encounter
    for key, wl in (("a", 6), ("b", 3)):
        severity = want[key] - 1  # Defence 1
        person = ch.find(after, key)
        assert person.wounds == (1 if severity > 0 else 0)
        assert (person.status == "vanquished") is (severity > wl)
    assert ch.find(after, "c").acted
    assert ch.find(after, "c").shot  # (an Ammo Check after the fight)


def test_a_typed_blast_wounds_each_in_its_area_and_undo_restores():
    enc = _fight()
    change = ch.resolve_blast(enc, "c", {"a": 4, "b": 0})
    ana, bo = ch.find(change.encounter, "a"), ch.find(change.encounter, "b")
    assert (ana.wounds, bo.wounds) == (1, 0)  # 4 − 1 = severity 3, not over WL 6
    assert "Bo takes no damage" in " ".join(s.text for s in change.lines)
    assert undo(record(start(enc), change)).present == enc
    with pytest.raises(EncounterError, match="full action"):
        ch.resolve_blast(change.encounter, "c", {"a": 1})
    with pytest.raises(EncounterError, match="at least one"):
        ch.resolve_blast(enc, "c", {})


def test_cover_in_the_defence_reading_lowers_the_blasts_wound():
    # parry_cover "defence" (RN-CHIM-6): Bo's medium cover +2 goes to his Defence: 1 + 2 = 3
    enc = _fight(FightRules(parry_cover="defence"))
    bo = ch.find(ch.resolve_blast(enc, "c", {"b": 4}).encounter, "b")
    assert bo.wounds == 1  # 4 − 3 = severity 1
    bo = ch.find(ch.resolve_blast(enc, "c", {"b": 3}).encounter, "b")
    assert bo.wounds == 0  # 3 − 3 = 0: ignored


def test_only_a_blaster_blasts_and_a_blaster_does_not_shoot():
    enc = _fight()
    with pytest.raises(EncounterError, match="roll the blast"):
        table.seeded_attack(enc, "c", "a", 1)
    enc = ch.next_turn(enc).encounter  # Ana's turn: she fights
    with pytest.raises(EncounterError, match="does not blast"):
        table.seeded_blast(enc, "a", ["b"], 1)


def test_the_odds_of_a_blast_before_the_roll():
    enc = _fight()
    o = ch.odds(enc, "c", "a")
    # Ana resists on d20 + 2 ≥ 12: natural 10 to 20, 11/20; the blast reaches her on 9/20
    assert o.p_hit == Fraction(9, 20)
    assert o.tn is None
