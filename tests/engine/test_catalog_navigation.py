"""The catalog's navigation tables: areas and related calculators, declared once."""

from __future__ import annotations

from ruleslab.calculators import AREAS, KEYS, RELATED, area_of


def test_every_calculator_is_in_exactly_one_area() -> None:
    keys = [key for area in AREAS for key in area.keys]
    assert sorted(keys) == sorted(KEYS)
    assert len(keys) == len(set(keys))
    assert {area.game for area in AREAS} == {"Aberrant", "Chimera"}
    assert area_of("chimera").game == "Chimera"
    assert area_of("falling").title == "Moving"


def test_related_calculators_exist_in_the_same_game_and_not_themselves() -> None:
    assert set(RELATED) == set(KEYS)
    for key, related in RELATED.items():
        assert key not in related
        assert len(related) == len(set(related))
        for other in related:
            assert other in KEYS
            assert area_of(other).game == area_of(key).game
    assert RELATED["falling"][:2] == ("damage", "health")
