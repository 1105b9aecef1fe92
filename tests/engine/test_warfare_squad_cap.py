"""A squad's turn losses when no attack's losses are rounded (regular: × 3; fanatical:
× 3 ÷ 3): the levels' sum is capped at ⌈squad ÷ (3 ÷ divisor)⌉ as it is built
(:func:`ruleslab.alterations.warfare.squad_turn_losses`). Checked against brute force: every
combination of each attack's health levels enumerated, the losses min(each × sum, squad)
counted directly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from ruleslab.alterations.warfare import Squad, squad_turn_losses

PER_ATTACK = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8))
"""P(0, 1, 2, 3 health levels) from one attack."""


def brute(per: tuple[Fraction, ...], attacks: int, size: int, each: int) -> list[Fraction]:
    out = [Fraction(0)] * (size + 1)
    for levels in itertools.product(range(len(per)), repeat=attacks):
        p = Fraction(1)
        for k in levels:
            p *= per[k]
        out[min(each * sum(levels), size)] += p
    return out


@pytest.mark.parametrize(("training", "each"), [("regular", 3), ("fanatical", 1)])
@pytest.mark.parametrize("attacks", [1, 2, 3, 5])
@pytest.mark.parametrize("henchmen", [1, 2, 4, 7, 20])
def test_capped_losses_are_the_brute_forced_ones(training, each, attacks, henchmen):
    squad = Squad(henchmen=henchmen, training=training)
    got = squad_turn_losses(PER_ATTACK, attacks, squad)
    assert list(got.losses) == brute(PER_ATTACK, attacks, henchmen, each)
