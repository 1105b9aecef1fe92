"""The Weapon record: declared once, autofire's weapon and the henchmen's heavy weapon."""

from __future__ import annotations

from helpers_autofire import refusal

from ruleslab.calculators.autofire import autofire_and_strafing
from ruleslab.calculators.henchmen import henchmen_squad
from ruleslab.quickref.weapon import Weapon
from ruleslab.quickref.weapons import AP, Guided
from ruleslab.records import fields_of

RIFLE = Weapon(
    accuracy=2,
    damage_dice=6,
    damage_adds=1,
    damage_type="bashing",
    tags="ap 2; guided",
    burst="medium",
    burst_use="damage",
    ammunition=40,
)
FLAT = {f: getattr(RIFLE, f) for f in fields_of(Weapon)}
"""RIFLE's fields by name."""
HENCHMEN_READS = ("accuracy", "damage_dice", "damage_adds", "damage_type", "burst", "ammunition")
HENCHMEN_READS += ("burst_use",)


def _shown(report):
    return [(f.key, f.label, f.text) for f in report.figures()], report.explain()


def test_the_record_checks_each_field_and_holds_tags_as_their_text():
    assert RIFLE.tags == "AP(2), Guided"
    assert Weapon(tags=(AP(2), Guided())).tags == "AP(2), Guided"
    assert Weapon().tags == ""
    assert RIFLE.stats("Rifle").tags == (AP(2), Guided())
    assert RIFLE.stats().damage_text == "6 [1] bashing"
    for field, value in (("accuracy", 11), ("tags", "laser"), ("burst", "huge"), ("rate", -1)):
        assert refusal(Weapon, **{field: value}).field == field


def test_autofire_takes_the_record_or_its_fields_and_keeps_their_names():
    by_record = autofire_and_strafing(weapon=RIFLE, targets=2)
    assert _shown(by_record) == _shown(autofire_and_strafing(**FLAT, targets=2))
    assert by_record.ammo_used == 10  # one medium burst strafes both targets
    # a flat field changes that field of the record
    assert _shown(autofire_and_strafing(weapon=RIFLE, accuracy=0)) == _shown(
        autofire_and_strafing(**{**FLAT, "accuracy": 0})
    )
    names = {p.name: p.label for p in autofire_and_strafing.params}
    assert {f: names[f] for f in fields_of(Weapon)} == {
        "accuracy": "Weapon accuracy",
        "damage_dice": "Weapon damage dice",
        "damage_adds": "Weapon damage adds",
        "damage_type": "Damage type",
        "tags": "Weapon tags",
        "burst": "Autofire",
        "burst_use": "Burst bonus goes to",
        "ammunition": "Ammunition available",
        "rate": "Weapon Rate (0: not checked)",
    }


def test_henchmen_take_the_record_or_its_support_fields_and_keep_their_names():
    flat = {f"support_{f}": FLAT[f] for f in HENCHMEN_READS}
    plain = Weapon(**{f: FLAT[f] for f in HENCHMEN_READS})  # the form's: no tags
    assert _shown(henchmen_squad(support_weapon=plain)) == _shown(henchmen_squad(**flat))
    names = {p.name: p.label for p in henchmen_squad.params}
    heavy = {f: "Heavy weapon's " + f.replace("_", " ") for f in HENCHMEN_READS}
    heavy |= {"burst": "Largest burst the heavy weapon fires", "burst_use": "Burst bonus goes to"}
    assert {f: names[f"support_{f}"] for f in HENCHMEN_READS} == heavy
    assert "support_tags" not in names
    assert "support_rate" not in names
    defaults = henchmen_squad()
    assert _shown(defaults) == _shown(
        henchmen_squad(support_weapon=Weapon(accuracy=0, damage_dice=8, burst="long"))
    )


def test_one_weapon_in_both_calculators():
    fired = autofire_and_strafing(weapon=RIFLE, armour_soak=3)
    support = henchmen_squad(support_weapon=RIFLE, target_armour_soak=3).support
    assert fired.attack.weapon.tags == (AP(2), Guided())
    assert support.attack is not None
    assert support.attack.weapon.tags == (AP(2), Guided())  # a Python caller's tags are read
    assert support.burst == "medium"  # the largest its 40 rounds cover
    # AP(2) against 3 armour soak: as no tags against 1
    untagged = henchmen_squad(support_weapon=Weapon(**{**FLAT, "tags": ""}), target_armour_soak=1)
    assert untagged.support.attack is not None
    assert support.attack.levels == untagged.support.attack.levels
