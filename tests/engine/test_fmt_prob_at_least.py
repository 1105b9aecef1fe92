"""A probability known only from below is shown as one honest bound, never two ("≥ > 99.99 %").

Expected texts worked by hand: 1/2 is 50.00 %; 1 − 10⁻⁶ is 99.9999 %, above 99.99 %;
10⁻⁷ is 0.00001 %, under 0.01 %.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ruleslab.explain import fmt_prob_at_least


@pytest.mark.parametrize(
    ("p", "unresolved", "text"),
    [
        (Fraction(1, 2), False, "50.00 %"),
        (Fraction(1, 2), True, "≥ 50.00 %"),
        (1 - Fraction(1, 10**6), False, "> 99.99 %"),
        (1 - Fraction(1, 10**6), True, "> 99.99 %"),  # was "≥ > 99.99 %"
        (Fraction(1, 10**7), False, "< 0.01 %"),
        (Fraction(1, 10**7), True, "> 0 %"),  # was "≥ < 0.01 %": all we know is "not nil"
        (Fraction(0), True, "≥ 0 %"),
        (Fraction(1), True, "100 %"),
    ],
)
def test_a_lower_bound_reads_as_one_bound(p: Fraction, unresolved: bool, text: str) -> None:
    assert fmt_prob_at_least(p, unresolved) == text
