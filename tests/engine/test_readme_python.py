"""The README's "In Python" example runs, and prints what the rules give (worked by hand)."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

import pytest
from dice_oracle import at_least

from ruleslab.explain import fmt_prob

pytestmark = pytest.mark.skipif(
    sys.platform == "emscripten", reason="reads the README, which Pyodide's copy lacks"
)

README = Path(__file__).parents[2] / "README.md"


def test_the_readme_python_example_runs_and_applies_the_conditions():
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- python-example -->\n```python\n(.*?)```", text, re.S)
    assert match, "the README's python-example block is missing"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(match.group(1), "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    # Lifting: Str 4 + Might 1 = 5 lifts 150 kg; 160 kg needs 6, one over: difficulty
    # ⌊6 ÷ 2 − 1⌋ = 2 on 5 dice; a 70 kg load (≤ 15 kg per dot) is Moderate, which adds
    # nothing to a lift (neither movement nor endurance): P(≥ 2 of 5).
    assert lines[0] == fmt_prob(at_least(5, 2))
    # Jump: Str 4 + Athletics 3 = 7 dice, a 6 m gap needs 3 successes; Moderate: +1,
    # its first success pays for it: 4 rolled.
    assert lines[1] == fmt_prob(at_least(7, 3))
    assert lines[2] == fmt_prob(at_least(7, 4))
    # Fall of 20 m: 4 m safe ((Sta 3 − 1) × 2), then ⌊16 ÷ 2⌋ = 8 dice, lethal at
    # Sta 3 + Ath 3 = 6; the break-fall (Dex 3 + Ath 3 = 6 dice) removes a die per
    # success: lethal on 2 or fewer; Dazed, its first success pays the +1: 3 or fewer.
    assert lines[3] == fmt_prob(1 - at_least(6, 4))
    # Sprinting: "may not take any actions during the turn except defensive maneuvers"
    assert lines[4].startswith("0 %")
