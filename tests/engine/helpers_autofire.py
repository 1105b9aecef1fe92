"""Helpers shared by the tests of the Autofire & strafing calculator, of the henchmen
(whose support weapon attack is the autofire attack: the Henchmen squad builder as its
form runs it, :func:`squad`) and of the weapon record.

Imported by name, like ``dice_oracle`` (see ``conftest.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ruleslab.calculators.henchmen import HenchmenSquad, henchmen_squad
from ruleslab.params import InputError

AUTOFIRE_ONLY_21 = (
    "target_dexterity",
    "target_mega_dexterity",
    "target_wits",
    "target_mega_wits",
    "attacks_before",
    "target_defends",
    "target_ability",
    "target_specialty",
    "target_power_pool",
    "mega_in_defense",
    "power_block_bonus",
)
"""The Autofire calculator's inputs used under 2.1 only, written out by hand from its
steps ("Not used under 2.0: …") and labels ("2.1: …"): its 2.1 target group, then the
two rules options. The target's Quantum is not among them: its natural soak reads it
under both rulesets (rules note RN-SOAK-4)."""


def refusal(fn: Callable[..., Any], /, *args: Any, **kw: Any) -> InputError:
    """The :class:`~ruleslab.params.InputError` ``fn(*args, **kw)`` raises; the test fails
    when it raises none."""
    with pytest.raises(InputError) as err:
        fn(*args, **kw)
    return err.value


def assert_refused(fn: Callable[..., Any], field: str, value: Any, expect: str) -> None:
    """``fn(field=value)`` is refused at ``field``, its message saying ``expect``."""
    err = refusal(fn, **{field: value})
    assert err.field == field
    assert expect in err.message


def squad(**kw: Any) -> HenchmenSquad:
    """The Henchmen squad builder with its form's defaults, but for ``kw``."""
    return henchmen_squad(**{**{p.name: p.default for p in henchmen_squad.params}, **kw})


AUTOFIRE_2D = {
    "ruleset": "2.0",
    "dodge_pool": 2,
    "dexterity": 1,
    "ability": 1,
    "accuracy": 0,
    "burst": "none",
}
"""A 2-die attack (Dex 1 + ability 1, accuracy 0, single shot) at difficulty 1 against a
2.0 dodge of 2 dice: P(hit) = 12/25·9/25 + 4/25·21/25 = 192/625 (issue 33's figures)."""
