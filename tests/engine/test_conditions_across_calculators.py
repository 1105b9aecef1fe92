"""Issue 33: every condition applied the same in every calculator.

Each figure is worked by hand from the texts (the working in the comment);
d10s succeed on 7+ (p = 2/5, q = 3/5), so P(k of n) = C(n, k)·2^k·3^(n−k)/5^n.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ruleslab.calculators.falling import fall
from ruleslab.calculators.jumping import jump

# --- A load graded against the form's own Strength, Might and Mega-Strength -------------
# Falling at 20 m, Stamina 3 (safe (3 − 1) × 2 = 4 m; 16 m → 8 dice), lethal at Stamina 3
# + Athletics 2 = 5, break-fall Dex 3 + Athletics 2 = 5 dice: lethal unless 8 − counted
# successes < 5, i.e. 4 counted. P(≥4 of 5) = (5·16·3 + 32)/3125 = 272/3125; with +1 only
# 5 of 5 (32/3125); with +2 none. Tiers per dot of Str + Might: 5/10/15 kg (Light up to
# 10, Moderate up to 15, Heavy past it), × the Mega-Strength multiplier (×10 at 1).


@pytest.mark.parametrize(
    ("fields", "load_kg", "p_lethal"),
    [
        ({"strength": 5}, 40, Fraction(2853, 3125)),  # the issue: 25/50 kg, 40 is Light: untouched
        ({"strength": 3}, 40, Fraction(3093, 3125)),  # 15/30/45: Moderate, +1 → 1 − 32/3125
        ({"strength": 3, "might": 2}, 40, Fraction(2853, 3125)),  # Str + Might 5: Light
        ({"strength": 2}, 40, Fraction(1)),  # 10/20/30: Heavy, +2: no 4 counted of 5 dice
        ({"strength": 3, "mega_strength": 1}, 100, Fraction(2853, 3125)),  # 150 kg unencumbered
    ],
)
def test_falling_grades_the_load_against_the_forms_strength(fields, load_kg, p_lethal):
    r = fall(height_m=20, load_kg=load_kg, **fields)
    assert r.p_lethal == p_lethal


# Jumping 6 m horizontal (2 m per success: 3 successes), pool Str 3 + Athletics 2 = 5 dice.
# P(≥3 of 5) = (10·8·9 + 5·16·3 + 32)/3125 = 992/3125; ≥4: 272/3125; 5: 32/3125.


@pytest.mark.parametrize(
    ("might", "load_kg", "p_clear"),
    [
        (2, 40, Fraction(992, 3125)),  # the issue: Str + Might 5 → 25/50 kg: Light, untouched
        (0, 40, Fraction(272, 3125)),  # Str 3 alone: 15/30/45, Moderate +1
        (1, 40, Fraction(992, 3125)),  # Str + Might 4: 20/40 kg, Light
        (0, 50, Fraction(32, 3125)),  # Str 3: past 45 kg, Heavy +2
        (3, 100, Fraction(32, 3125)),  # Str + Might 6: 30/60/90 kg, 100 is Heavy (+2)
    ],
)
def test_jumping_grades_the_load_against_strength_plus_might(might, load_kg, p_clear):
    r = jump(strength=3, might=might, load_kg=load_kg, distance_m=6)
    assert r.p_clear == p_clear
