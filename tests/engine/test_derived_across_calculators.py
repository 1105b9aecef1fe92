"""Issue 33 (a): a person's derived figures are the same in every calculator.

"Soak, health track, Defense and initiative must be derived from the record the same way
everywhere (an override stays possible, marked as such)." Soak: test_soak_from_record.py.
Here the others, one saved character in every calculator (and the encounter tracker)
that reads them, each figure worked by hand from the text.
"""

from __future__ import annotations

from ruleslab.calculators import get
from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab.calculators.defence import initiative_and_defence
from ruleslab.calculators.health import health
from ruleslab.character import Character
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.state import defense_now, track_of

HERO = Character(dexterity=5, wits=4, stamina=4, resistance=2, willpower=5, quantum=2)


def test_defense_from_the_record_everywhere():
    # 2.1: "Defense score of (lower of Dexterity or Wits, divided by 2)": ⌊min(5, 4)/2⌋ = 2
    assert initiative_and_defence(defender=HERO).figure("defense").value[0] == 2
    assert autofire_and_strafing(target=HERO).attack.target.defense == 2
    support = get("henchmen").compute(target=HERO)
    assert "Defense = ⌊lower of Dex 5 or Wits 4 (Wits 4) ÷ 2⌋ = 2" in [
        s.text for s in support.steps
    ]
    enc = ab.new_encounter("2.1", [ab.combatant("h", "Hero", HERO), ab.quick_foe("f", "F")])
    assert defense_now(enc, ab.find(enc, "h")) == 2


def test_initiative_from_the_record_everywhere():
    # "Initiative is (Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10)": rating 9
    assert initiative_and_defence(defender=HERO).figure("initiative").value == 9
    enc = ab.new_encounter("2.1", [ab.combatant("h", "Hero", HERO), ab.quick_foe("f", "F")])
    enc = ab.roll_initiative(enc, {"h": 1, "f": 1}).encounter
    assert ab.find(enc, "h").initiative == 9 + 1


def test_the_health_track_from_the_record_everywhere():
    # 2.1: Willpower 5 + 2 × Stamina 4 + 0 + Quantum 2 = 15 levels, then Stamina 4 Incap,
    # then (Strength 3 + Stamina 4) × 2 = 14 Dying: 33 boxes
    track = health(character=HERO)
    enc = ab.new_encounter("2.1", [ab.combatant("h", "Hero", HERO), ab.quick_foe("f", "F")])
    assert len(track_of(enc, ab.find(enc, "h"))) == 15 + 4 + 14
    assert len(track.boxes()) == 15 + 4 + 14
