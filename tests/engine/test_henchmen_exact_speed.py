"""Henchmen's first computation, sped up, gives the figures it gave (issue 23).

The support attack of a large squad resolves one damage roll per damage-dice count
(about 300 of them), each a pool of up to a few hundred dice: the pool's table was
made with a binomial coefficient and two powers per entry and then reduced; it is
now made entry from entry, in lowest terms at once (:func:`ruleslab.dice._rolled`).
The digests below are of the whole outcome (every figure with its exact value, every
step and panel) as ``tests/golden/generate.compute`` shows it, computed by the
unoptimised engine (commit 1e61f5a). Nothing here is timed.
"""

from __future__ import annotations

import math

import pytest
from helpers_outcome import assert_outcome_is

from ruleslab.dice import _rolled
from ruleslab.pmf import Dist

BEFORE = {
    "mega_charisma=10&henchmen=999&henchman_pool=20&situation=99&incoming=levels"
    "&support_damage_dice=59": (
        # the unoptimised engine's digest was ca207636…819d3, with "≥ > 99.99 %" as the
        # chance of at least 1 level (figure and two steps); with those three texts put
        # back, today's outcome has that very digest: nothing else changed. Issue 33 added
        # one step, the target's natural soak from its record (RN-SOAK-4): without it, the
        # outcome has the digest b4c25d52…28b0f30 this held before
        "cd5a3247260215e4bd41dfe6372871cf4f9fcf2fb41180e6cdbbe08d9ce5795f",
        {
            "support_pool": "309 dice",
            "support_expected_levels": "≥ 131.04 levels",
            "support_p_wound": "> 99.99 %",
        },
    ),
    "mega_charisma=3&henchmen=40&henchman_pool=7&support_damage_dice=12&training=fanatical"
    "&heavy_weapons=5": (
        # issue 33's soak step (RN-SOAK-4) left out, the digest this held: 46e8f06f…69094d1
        "1d87dff0f1cb5a637209dff389d00112e894d68aab5d3c1ab87ff786b14da482",
        {"support_pool": "33 dice", "support_expected_levels": "17.28 levels"},
    ),
}
"""Link queries (issue 23's slow set first), the SHA-256 of their whole outcome and a few
figures' texts, from the unoptimised engine."""


@pytest.mark.parametrize("query", list(BEFORE))
def test_the_outcome_is_the_unoptimised_engines(query):
    assert_outcome_is("henchmen", query, *BEFORE[query])


@pytest.mark.parametrize("target", range(2, 11))
def test_a_pools_table_is_the_binomial_one(target):
    """C(n,k)·s^k·f^(n−k) over 10^n, as the table was made before, for every target."""
    s, f = 11 - target, target - 1
    for n in (*range(1, 40), 97, 300):
        ways = tuple(math.comb(n, k) * s**k * f ** (n - k) for k in range(n + 1))
        table, tail = _rolled.__wrapped__(n, target, False)
        expected = Dist(0, ways, 10**n)
        assert (table.weights, table.den) == (expected.weights, expected.den)
        assert tail == 0
