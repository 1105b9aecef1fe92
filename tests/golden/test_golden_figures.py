"""Every calculator still shows exactly what its golden file recorded.

``tests/golden/data/<key>.json`` (written by ``tests/golden/generate.py``, whose
docstring says how and when) stores, for each calculator of the catalog, its
default inputs and about 150 generated input sets with the outcome a GM
saw when the file was written: every figure (label, text, exact value), every
step and its rule, the panels (chart bars, health track), the "Roll it" logs
for a fixed seed, or the input error shown next to a field. This test
recomputes every stored input set with today's code and fails on any
difference, naming the calculator, the input set and what differs.

It is issue 9's before/after proof: that refactor must pass it with the files
untouched. Regenerate a file only for a change meant to change figures, after
checking each difference (``generate.py --check``), and say so in the commit.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from ruleslab.calculators import CALCULATORS, get

MIN_GENERATED = 50
"""Generated input sets each file must hold besides the defaults."""

SHOWN = 10
"""Input sets detailed in a failure message (the rest are counted)."""

ADDED_FIELDS: dict[str, frozenset[str]] = {
    "warfare": frozenset({"defence_difficulty"}),  # RN-COND-5: the spend/threshold option
    # issue 33: RN-COND-4's and RN-COND-5's readings as options wherever a defence is rolled
    "defence": frozenset({"daze_on_defence", "defence_difficulty"})
    # issue 33: his health track, read only for the wound penalty of his levels lost, a
    # condition, and whether it is on initiative too (RN-COND-7)
    | frozenset({"stamina", "mega_stamina", "willpower", "resistance", "wound_on_initiative"}),
    # issue 33: the Strength, Might and Mega-Strength a carried load is graded against
    "falling": frozenset({"strength", "might", "mega_strength"})
    # issue 33: the rest of his health track, read only for the wound penalty of his
    # levels lost, a condition (RN-COND-7); likewise for the jumper and the lifter
    | frozenset({"quantum", "willpower", "resistance"}),
    "jumping": frozenset(
        {"might", "stamina", "mega_stamina", "quantum", "willpower", "resistance"}
    ),
    "lifting": frozenset({"stamina", "mega_stamina", "quantum", "willpower", "resistance"}),
    "autofire": frozenset(
        {"target_strength", "target_might", "target_mega_strength", "daze_on_defence"}
        # issue 33: the target's natural soak derived from its record, as in Damage
        # resolution (RN-SOAK-4); the stored sets that entered a soak (or whose weapon's
        # type the record soaks differently) say "entered" in their inputs
        | {"natural_soak_from", "target_stamina", "target_mega_stamina", "soak_rounding"}
        # issue 33: the attacker's and the target's health tracks, read only for the wound
        # penalty of their levels lost, a condition (RN-COND-7)
        | {"stamina", "mega_stamina", "quantum", "willpower", "resistance"}
        | {"target_willpower", "target_resistance"}
    ),
    # issue 33: the support attack's target soaks per its record, as in Autofire (RN-SOAK-4);
    # the stored sets that entered a soak (or whose weapon's type the record soaks
    # differently) say "entered" in their inputs
    "henchmen": frozenset({"daze_on_defence", "defence_difficulty"})
    | frozenset(
        {
            "target_natural_soak_from",
            "target_quantum",
            "target_stamina",
            "target_mega_stamina",
            "soak_rounding",
        }
    ),
    # issue 33: whether a side's henchmen share its leader's Quantum power (RN-COMP-21)
    "compressed": frozenset({"a_henchmen_share_power", "b_henchmen_share_power"}),
}
"""Fields added after a golden file was written that are not a character's conditions,
per calculator, each with the reason in a comment: like the conditions, they are left
at their defaults in every stored input set, which must still show what it showed."""


def _added(key: str) -> frozenset[str]:
    """Fields the stored input sets leave at their defaults: every field of a role of
    conditions (issue 19: "Every calculator's figures at its default inputs and on the
    stored golden inputs are unchanged where no condition is set") and ADDED_FIELDS."""
    from ruleslab.character import Conditions

    calc = get(key)
    roles = getattr(calc.compute, "roles", ())
    conditions = {n for r in roles if r.record is Conditions for n in r.flat_names}
    return frozenset(conditions) | ADDED_FIELDS.get(key, frozenset())


def _load_generate() -> ModuleType:
    """``tests/golden/generate.py`` as a module (it is also a script, so not a package module)."""
    path = Path(__file__).with_name("generate.py")
    spec = importlib.util.spec_from_file_location("ruleslab_golden_generate", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


golden = _load_generate()
KEYS = [c.key for c in CALCULATORS]


def _regenerate(key: str) -> str:
    return golden.REGENERATE.format(keys=key)


def _stored(key: str) -> dict[str, Any]:
    path = golden.path_for(key)
    if not path.exists():
        pytest.fail(
            f"calculator {key!r} has no golden file {golden.shown_path(key)}. A new calculator "
            "gets one: check its figures, then run "
            f"`.venv/bin/python tests/golden/generate.py --only {key}`."
        )
    return golden.read_stored(key)  # renamed fields under their current names


def test_one_golden_file_per_calculator():
    stored = {p.stem for p in golden.DATA.glob("*.json")}
    missing = sorted(set(KEYS) - stored)
    extra = sorted(stored - set(KEYS))
    assert (missing, extra) == ([], []), (
        f"golden files and the catalog disagree: calculators without a file {missing} (run "
        f"`.venv/bin/python tests/golden/generate.py --only {','.join(missing) or 'KEY'}` after "
        f"checking their figures); files of calculators the catalog no longer has {extra} "
        f"(delete tests/golden/data/<key>.json in the change that removes the calculator)"
    )


@pytest.mark.parametrize("key", KEYS)
def test_golden_file_covers_defaults_and_generated_inputs(key):
    data = _stored(key)
    cases = data["cases"]
    assert data["calculator"] == key
    assert cases, f"{key}: the golden file has no input sets"
    assert (cases[0]["name"], cases[0]["inputs"]) == ("defaults", {}), (
        f"{key}: the golden file's first input set must be the defaults"
    )
    generated = len(cases) - 1
    assert generated >= MIN_GENERATED, (
        f"{key}: only {generated} generated input sets stored (at least {MIN_GENERATED})"
    )


@pytest.mark.parametrize("key", KEYS)
def test_default_inputs_unchanged(key):
    """The defaults are what a GM sees first: a changed default changes the figures shown."""
    stored = _stored(key)["defaults"]
    now = golden.plain(get(key).defaults())
    added = _added(key)
    now = {n: v for n, v in now.items() if n not in added or n in stored}
    renamed = sorted(set(stored) ^ set(now))
    assert not renamed, (
        f"{key}: the calculator's fields differ from the golden file's: only stored "
        f"{sorted(set(stored) - set(now))}, only now {sorted(set(now) - set(stored))}. "
        "A renamed field must keep its name in the form (the app page and embeds use it); "
        + _regenerate(key)
    )
    changed = [
        f"{name}: {stored[name]!r} → {now[name]!r}"
        for name in stored
        if golden.dumps(stored[name]) != golden.dumps(now[name])
    ]
    assert not changed, f"{key}: default inputs changed: {'; '.join(changed)}. " + _regenerate(key)


@pytest.mark.parametrize("key", KEYS)
def test_figures_unchanged(key):
    calc = get(key)
    data = _stored(key)
    path = golden.shown_path(key)
    names = {p.name for p in calc.params} - (_added(key) - set(data["defaults"]))
    if set(data["defaults"]) != names:
        pytest.fail(f"{key}: the calculator's fields changed; see test_default_inputs_unchanged")
    new_defaults = golden.plain({n: v for n, v in calc.defaults().items() if n not in names})
    failures: list[str] = []
    for case in data["cases"]:
        given = {**new_defaults, **data["defaults"], **case["inputs"]}
        try:
            outcome = golden.compute(calc, given, data["roll_seed"]).outcome
        except Exception as exc:
            lines = [f"raises {type(exc).__name__}: {exc} (a bug: only InputError is expected)"]
        else:
            lines = golden.differences(case["outcome"], outcome)
        if lines:
            failures.append(
                f"input set {case['name']!r}: {golden.describe(case['inputs'])}"
                + (" (every other field at the stored default)" if case["inputs"] else "")
                + "".join(f"\n    {line}" for line in lines)
            )
    if failures:
        shown = failures[:SHOWN]
        more = len(failures) - len(shown)
        pytest.fail(
            f"calculator {key!r} shows something else than its golden file {path} in "
            f"{len(failures)} of {len(data['cases'])} stored input sets:\n\n"
            + "\n\n".join(shown)
            + (f"\n\n… and {more} more input sets." if more else "")
            + f"\n\n{_regenerate(key)}",
            pytrace=False,
        )
