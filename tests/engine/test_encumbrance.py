"""Encumbrance tiers and effects, at the text's boundaries."""

import pytest

from ruleslab.quickref.encumbrance import TIER_EFFECTS, encumbrance


@pytest.mark.parametrize(
    ("load", "tier"),
    [
        (0, "unencumbered"),
        (20, "unencumbered"),  # 5 kg per dot × 4 dots
        (20.5, "light"),
        (40, "light"),  # 10 kg per dot
        (40.5, "moderate"),
        (60, "moderate"),  # 15 kg per dot
        (60.5, "heavy"),  # RN-ENC-1 default: heavy above 15
        (80, "heavy"),  # 20 kg per dot
        (120, "heavy"),  # RN-ENC-2 default: heavy up to lift capacity
        (120.5, "over"),
    ],
)
def test_tier_boundaries_default(load, tier):
    assert encumbrance(3, 1, 0, load).tier == tier


@pytest.mark.parametrize(
    ("load", "tier"),
    [(60, "moderate"), (79.5, "moderate"), (80, "heavy"), (80.5, "over")],
)
def test_literal_reading_heavy_at_20_and_immobile_beyond(load, tier):
    r = encumbrance(3, 1, 0, load, heavy_from="at_20", beyond_heavy="immobile")
    assert r.tier == tier


def test_immobile_beyond_20():
    r = encumbrance(3, 1, 0, 81, beyond_heavy="immobile")
    assert r.tier_label == "Over-encumbered"
    assert not r.effects.can_move


def test_mega_strength_scales_thresholds():
    # M-Str 2 multiplies thresholds by 100: 5 kg/dot × 4 dots × 100 = 2 000 kg.
    assert encumbrance(3, 1, 2, 2000).tier == "unencumbered"
    assert encumbrance(3, 1, 2, 2001).tier == "light"
    assert encumbrance(3, 1, 2, 6000).tier == "moderate"
    assert encumbrance(3, 1, 2, 12_000).tier == "heavy"
    assert encumbrance(3, 1, 2, 12_001).tier == "over"


def test_effects_structured():
    light, moderate, heavy = (TIER_EFFECTS[t] for t in ("light", "moderate", "heavy"))
    assert (light.endurance_difficulty, light.movement_difficulty) == (1, 0)
    assert (light.str_movement_penalty, light.dex_movement_penalty) == (0, 1)
    assert light.walking_floor_m == 3
    assert light.can_run
    assert light.can_sprint
    assert (moderate.endurance_difficulty, moderate.movement_difficulty) == (1, 1)
    assert (moderate.str_movement_penalty, moderate.dex_movement_penalty) == (1, 1)
    assert moderate.other_physical_difficulty == 0
    assert moderate.walking_floor_m == 3
    assert (heavy.endurance_difficulty, heavy.movement_difficulty) == (2, 2)
    assert heavy.other_physical_difficulty == 1
    assert (heavy.str_movement_penalty, heavy.dex_movement_penalty) == (2, 2)
    assert not heavy.can_run
    assert not heavy.can_sprint
    assert heavy.walking_floor_m == 3
    assert TIER_EFFECTS["unencumbered"].text() == "No penalties."


def test_effects_text_reads_as_a_sentence():
    text = encumbrance(3, 1, 0, 70).effects.text()
    assert text.startswith("+2 difficulty to physical actions involving movement or endurance")
    assert "may not run or sprint" in text
    assert text.endswith(".")


def test_zero_dots_any_load_is_over():
    assert encumbrance(0, 0, 0, 0).tier == "unencumbered"
    assert encumbrance(0, 0, 0, 1).tier == "over"


# --- the text's statements, one test each (issue 10, item 5) ---------------------------------

# "Mega-Strength multiplies lifting capacity by 10/100/250/500/1000 at M-Str 1-5. Mega-Strength
# scores beyond 5 multiply lifting capacity by an additional 10 per dot."
TEXT_MULTIPLIERS = [1, 10, 100, 250, 500, 1000, 10**4, 10**5, 10**6, 10**7, 10**8]


@pytest.mark.parametrize("mega", range(11))
def test_mega_strength_multiplies_every_threshold_as_it_multiplies_lifting(mega):
    # "Each dot of Mega-Strength multiplies the character's encumbrance thresholds by the same
    # amount it multiplies the character's lifting thresholds": Str 3 + Might 1 = 4 dots, so
    # up to 5/10/15 kg per dot (20/40/60 kg) × the multiplier, then heavy up to the lift
    # capacity 30 kg per dot (120 kg) × the multiplier (RN-ENC-1, RN-ENC-2 defaults).
    m = TEXT_MULTIPLIERS[mega]
    expected = [
        (20 * m, "unencumbered"),
        (20 * m + 0.5, "light"),
        (40 * m, "light"),
        (40 * m + 0.5, "moderate"),
        (60 * m, "moderate"),
        (60 * m + 0.5, "heavy"),
        (120 * m, "heavy"),
        (120 * m + 0.5, "over"),
    ]
    assert [encumbrance(3, 1, mega, load).tier for load, _ in expected] == [
        tier for _, tier in expected
    ]


def test_text_effects_tier_by_tier():
    # Light: "+1 difficulty for all rolls involving long-term physical endurance and reduces
    # her Dexterity by 1 for the purposes of movement". Moderate: "+1 difficulty to all
    # physical actions involving movement or endurance, and subtracts 1 from Strength and
    # Dexterity". Heavy: "+2 difficulty to all physical actions involving movement or
    # endurance, -2 to strength and dexterity for movement, and +1 difficulty to all other
    # physical actions … may not run or sprint". Every encumbered tier: Walking floor 3.
    by_hand = {
        # tier: (endurance, movement, other physical, Str, Dex penalty, can run, can sprint)
        "unencumbered": (0, 0, 0, 0, 0, True, True),
        "light": (1, 0, 0, 0, 1, True, True),
        "moderate": (1, 1, 0, 1, 1, True, True),
        "heavy": (2, 2, 1, 2, 2, False, False),
    }
    for tier, row in by_hand.items():
        e = TIER_EFFECTS[tier]
        assert (
            e.endurance_difficulty,
            e.movement_difficulty,
            e.other_physical_difficulty,
            e.str_movement_penalty,
            e.dex_movement_penalty,
            e.can_run,
            e.can_sprint,
        ) == row, tier
        if tier != "unencumbered":
            assert e.walking_floor_m == 3, tier
