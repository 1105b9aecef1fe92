"""Encumbrance tiers and effects, at the text's boundaries."""

import pytest

from ruleslab.encumbrance import TIER_EFFECTS, encumbrance


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
