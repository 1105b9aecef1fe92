"""Golden figures: what every calculator shows, on fixed inputs, stored to compare against.

``tests/golden/data/<key>.json`` holds, for each calculator of
:data:`ruleslab.calculators.CALCULATORS`, its default inputs and about
150 to 190 input sets generated from its declared parameters, each with the
*outcome* a GM sees: every figure (key, label, display text and, where it is a
plain number, text or yes/no, its exact value), every step of the working with
its rule, what the extra panels draw (chart bars and highlight, the health
track's boxes), the log of each "Roll it" button for a fixed seed — or, for
inputs the rules reject, the message shown next to each offending field.

What the files are for
----------------------
Issue 9 ("One calculator, one name, one place") reshapes the whole tree
(calculators as data, rule modules with rules only, one parse per value, one
distribution type) and must change **nothing** a GM sees. These files were
written from the code *before* that refactor; ``test_golden_figures.py``
recomputes every stored input set with the code of the day and fails on any
difference. The refactor must keep them byte-identical: do not regenerate
them to make that test pass. If the refactor moves what this script imports
(the catalog, ``Calculator.compute``/``params``/``views``/``rolls``), adapt
:func:`compute` and the imports here, never the data.

Regenerate only when a change is *meant* to change figures (a rules fix, a new
reading, a new parameter): check every difference ``--check`` prints, then
regenerate the calculators concerned with ``--only`` and say so, with the
reason, in the commit message. A new calculator gets its file the same way;
a removed one loses it.

Usage (from the repository root)::

    .venv/bin/python tests/golden/generate.py           # write every file
    .venv/bin/python tests/golden/generate.py --only dice_pool,chimera
    .venv/bin/python tests/golden/generate.py --check   # compare only; exit 1 on a difference

Besides the files it reports, on stderr, inputs computing in over 200 ms (the
project's standard), input errors naming a field the calculator does not have
(the form cannot show them) and exceptions that are not ``InputError`` (bugs:
exit status 2).

How inputs are made
-------------------
Deterministically from the declarations, with ``random.Random("ruleslab-golden:<key>")``
(so adding a parameter to one calculator reshuffles no other): the defaults;
then one parameter at a time away from the defaults (each whole-number or
number range's two bounds and a value inside, every other choice, the other
yes/no, every hand-written text variant of :data:`TEXT_VARIANTS`); then random
combinations (several parameters changed at once, within their ranges, bounds
included) up to :data:`CASES` generated sets per calculator. Values are given as
the form gives them: typed text for numbers and text fields, the choice's value,
a bool. They are parsed with each parameter's own ``parse`` and passed to the
calculator's ``compute``, as ``tests/browser/test_calculators.py`` does.

A case whose computation raises anything but :class:`ruleslab.InputError` is a
bug: it is reported and left out of the file, never stored as expected.

Renamed fields
--------------
A field renamed without any change to what it does (its label, range,
messages and the figures stay the same) keeps its old name in the stored files:
:data:`RENAMED` maps it, per calculator, to its current name, and
:func:`read_stored` (which ``--check`` and ``test_golden_figures.py`` both read
the files with) applies the map before comparing. The generated input sets are
the same under either name (names never enter the random draws), so the stored
cases still match the generated ones one for one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ruleslab import InputError
from ruleslab.calculators import CALCULATORS
from ruleslab.declare import Calculator
from ruleslab.params import BoolParam, ChoiceParam, IntParam, NumberParam, Param
from ruleslab_widgets.panels import update_panel

DATA = Path(__file__).resolve().parent / "data"
ROOT = DATA.parents[2]

CASES = 150
"""Generated input sets per calculator (besides the defaults), unless :data:`CASES_FOR` says."""

CASES_FOR: dict[str, int] = {}
"""Fewer (or more) generated sets for a calculator, by key, if it is slow."""

MIN_RANDOM = 60
"""Random combinations per calculator at least, however many one-at-a-time sets it has."""

ROLL_SEED = 20261130
"""The seed every "Roll it" button is pressed with."""

SLOW_MS = 200.0
"""The project's standard: a calculator computes any input in this time on CPython."""

LONG_FRACTION = 400
"""Exact values longer than this many characters are stored as a digest (and an approximation)."""

REGENERATE = (
    "If the change is intended (a rules change meant to change figures; never for issue 9's "
    "refactor, which must keep these files byte-identical), check every difference, then "
    "regenerate deliberately with `.venv/bin/python tests/golden/generate.py --only {keys}` "
    "and say why in the commit message."
)

# --- renamed fields -----------------------------------------------------------------

RENAMED: dict[str, dict[str, str]] = {
    # (Issue 9 renamed the Chimera fight's fields A_mr … B_resist to a_mr … b_resist; the
    # chimera file has since been regenerated under the current names, issue 10.)
}
"""Fields renamed since a golden file was written: calculator key → {stored name: current name}.

Stored names appear in a file's ``defaults``, in each case's ``inputs``, as the
field of each input error, and in the "<field> alone" case names;
:func:`with_current_names` renames all four. Generating always writes the
current names (they come from the calculator's parameters), so when a
calculator's file is deliberately regenerated, its entry here maps nothing any
more: delete it in the same change.
"""


def with_current_names(key: str, data: dict[str, Any]) -> dict[str, Any]:
    """A stored file's ``data`` with the fields :data:`RENAMED` lists under their current names.

    Everything else is kept as stored (values, messages, figures, order); a
    calculator without renamed fields gets ``data`` itself.
    """
    renamed = RENAMED.get(key)
    if not renamed:
        return data

    def rename(fields: dict[str, Any]) -> dict[str, Any]:
        return {renamed.get(name, name): value for name, value in fields.items()}

    cases = []
    for case in data.get("cases", []):
        outcome = case["outcome"]
        if "errors" in outcome:
            outcome = {**outcome, "errors": rename(outcome["errors"])}
        first, space, rest = case["name"].partition(" ")  # "A_mr alone"
        name = renamed.get(first, first) + space + rest
        cases.append({**case, "name": name, "inputs": rename(case["inputs"]), "outcome": outcome})
    return {**data, "defaults": rename(data["defaults"]), "cases": cases}


# --- hand-written text inputs -----------------------------------------------------
# Valid variants written from the rules' syntax (the parameters' help texts and the
# engine and widget tests), plus a few invalid ones to pin the messages the form shows.

_DICE = (
    "d8",
    "d6",
    "1d4",
    "2d6",
    "d6+1",
    "d10 - 1",
    "3d6+2",
    "d12-3",
    "2d10+5",
    "D20",
    "d4+20",
    "4d12",
    "d100",
)
_DICE_BAD = (
    "d1",
    "11d6",
    "d8+21",
    "two dice",
    "",
)

_TAGS = (
    "",
    "AP(2)",
    "AP(2), Burst(3), Guided",
    "Guided",
    "AA",
    "Burst(3)",
    "Burst(10)",
    "Devastating (5 [2])",
    "Devastating(2)",
    "Area(3), Scale [2]",
    "Fast-Tracking [1]",
    "ap 3; guided",
    "Armour Piercing [4], AA",
    "AP(100)",
    "Burst(3), Devastating (1 [1]), AP(1)",
)
_TAGS_BAD = (
    "AP(2), AP(3)",
    "Laser",
    "AP(0)",
    "Guided(2)",
)

_COMBATANTS = (
    "Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, soak 4L, initiative 5",
    "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4",
    "Police officer: Dex 3, Firearms 2 + 1 accuracy, damage 6L, soak 4L, initiative 5",
    "Brute: Str 3, Mega-Str 1, Brawl 3, damage 5B, soak 6",
    "Nova: Dex 2, Brawl 1, damage 3, auto 3, soak 0",
    "Ann: Dex 1, Brawl 1, soak 0, incap 2, dead 4\nBob: Dex 1, Brawl 1, incap 2, dead 4",
    "Blaster: Dex 2, Quantum Bolt 2, damage 4, resist 5, formula sum, initiative 6",
    "Telepath: Wits 4, Mind Shards 3, damage 3A, resist 4, formula 2x, initiative 5, auto 1",
    "Cop: Dex 3, Firearms 2, track Str 2 Sta 3",
    "Cop: Dex 3, Firearms 2, track Str 2 Sta 3 Will 5",
    "Nova: Dex 3, Brawl 2, damage 5, Quantum 10, Tactics 3, dodge 6, soak 5",
    "# the gang\n"
    "Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4\n"
    "\n"
    "Lookout: Per 3, Firearms 1, damage 4L, soak 1L, initiative 3\n"
    "Boss: Dex 3, Mega-Dex 1, Firearms 3, accuracy 2, damage 7L, soak 3L, initiative 6, bonus 2",
    "Dex 4, Martial Arts 3, damage 4B, soak 2B, init 7, incap 5, dead 9",
    "A: Strength 2, M-Str 1, Might 3\nB: mega dex 1, Athletics 2",
    "Titan: Str 5, Mega-Str 5, Brawl 5, damage 50A, soak 50, initiative 50, dodge 50, "
    "Tactics 10, auto 30, bonus 30",
    "Kid: Dex 0, soak 0",
)
_COMBATANTS_BAD = (
    "Cop: Dex three",
    "A: Dex 1\nA: Dex 2",
    "Cop: Dex 3, incap 9, dead 4",
    "",
)

_POWERS = (
    "",
    "Flight, 1, maintenance",
    "Flight, 1, maintenance\nQuantum Bolt, 2, instant\nNova: Shield, 1, conc",
    "Strength, 3, action",
    "# powers used\nForce Field, 2, concentration\nTeleport, 50, instant",
)
_POWERS_BAD = (
    "Flight, one, maintenance",
    "Flight, 1",
)

_INTENTS = (
    "Arrest the gangbanger",
    "Get away with the stash",
    "Drive the gang off",
    "  Hold   the\tbridge  ",
    "",
)

TEXT_VARIANTS: dict[str, dict[str, tuple[Sequence[str], Sequence[str]]]] = {
    "autofire": {"tags": (_TAGS, _TAGS_BAD)},
    "compressed": {
        "a_combatants": (_COMBATANTS, _COMBATANTS_BAD),
        "b_combatants": (_COMBATANTS, _COMBATANTS_BAD),
        "a_intent": (_INTENTS, ()),
        "b_intent": (_INTENTS, ()),
        "a_powers": (_POWERS, _POWERS_BAD),
        "b_powers": (_POWERS, _POWERS_BAD),
    },
    "chimera": {"a_damage": (_DICE, _DICE_BAD), "b_damage": (_DICE, _DICE_BAD)},
}
"""Text typed into each text field, by calculator key and parameter name: (valid, invalid).

Every variant is tried alone (one field away from the defaults); random
combinations use the valid ones, and an invalid one once in twenty.
"""


# --- making inputs ---------------------------------------------------------------


def _int_text(rng: random.Random, value: int) -> str:
    """A whole number as a person types it (sometimes with a thousands separator)."""
    if abs(value) >= 1000 and rng.random() < 0.5:
        return f"{value:,}"
    return str(value)


def _number_text(value: float) -> str:
    value = round(value, 2)
    return str(int(value)) if float(value).is_integer() else repr(value)


def _spread(rng: random.Random, lo: float, hi: float, default: float) -> float:
    """Somewhere in [lo, hi]: near the default, anywhere, or log-uniform on wide ranges."""
    r = rng.random()
    if r < 0.35:
        return min(hi, max(lo, default + rng.uniform(-3, 3)))
    span = hi - lo
    if span > 100 and r < 0.75:
        return lo + math.expm1(rng.uniform(0, math.log1p(span)))
    return rng.uniform(lo, hi)


def _random_number(rng: random.Random, p: IntParam | NumberParam, *, whole: bool) -> float:
    """The minimum or the maximum one time in ten each, else :func:`_spread` between them,
    rounded to a whole number if ``whole``, else one time in two."""
    r = rng.random()
    if r < 0.1:
        return p.minimum
    if r < 0.2:
        return p.maximum
    value = _spread(rng, p.minimum, p.maximum, p.default)
    if whole or rng.random() < 0.5:
        return round(value)
    return value


def _random_value(rng: random.Random, key: str, p: Param) -> Any:
    """A value for ``p`` within what it declares, as the form gives it."""
    if isinstance(p, BoolParam):
        return rng.random() < 0.5
    if isinstance(p, ChoiceParam):
        return rng.choice(p.choices)[0]
    if isinstance(p, IntParam):
        return _int_text(rng, int(_random_number(rng, p, whole=True)))
    if isinstance(p, NumberParam):
        return _number_text(_random_number(rng, p, whole=False))
    valid, invalid = _variants(key, p)
    if invalid and rng.random() < 0.05:
        return rng.choice(invalid)
    return rng.choice(valid)


def _variants(key: str, p: Param) -> tuple[Sequence[str], Sequence[str]]:
    try:
        return TEXT_VARIANTS[key][p.name]
    except KeyError:
        raise SystemExit(
            f"{key}.{p.name} is a {type(p).__name__}: add the text a GM would type to "
            "TEXT_VARIANTS in tests/golden/generate.py"
        ) from None


def _sweep_values(key: str, p: Param) -> list[Any]:
    """One-at-a-time values of ``p`` away from its default."""
    if isinstance(p, BoolParam):
        return [not p.default]
    if isinstance(p, ChoiceParam):
        return [v for v, _ in p.choices if v != p.default]
    if isinstance(p, IntParam):
        inside = (p.minimum + p.maximum) // 2
        values = [p.minimum, p.maximum, inside if p.maximum - p.minimum <= 100 else p.default + 1]
        return [str(v) for v in dict.fromkeys(values) if v != p.default and v <= p.maximum]
    if isinstance(p, NumberParam):
        values = [p.minimum, p.maximum, p.default * 1.5 + 0.25]
        return [_number_text(v) for v in dict.fromkeys(values) if v != p.default]
    valid, invalid = _variants(key, p)
    return [v for v in (*valid, *invalid) if v != p.default]


def input_sets(calc: Calculator) -> list[tuple[str, dict[str, Any]]]:
    """``(name, changed inputs)`` of every case: the defaults first, then the generated sets.

    Changed inputs map parameter names to what the form gives; the others keep
    their default.
    """
    rng = random.Random(f"ruleslab-golden:{calc.key}")
    cases: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    seen: set[str] = {_identity({})}

    def add(name: str, changes: dict[str, Any]) -> bool:
        ident = _identity(changes)
        if ident in seen:
            return False
        seen.add(ident)
        cases.append((name, changes))
        return True

    for p in calc.params:
        for value in _sweep_values(calc.key, p):
            add(f"{p.name} alone", {p.name: value})
    numbers = [p for p in calc.params if isinstance(p, IntParam | NumberParam)]
    for end in ("minimum", "maximum"):
        changes = {p.name: _bound_text(p, getattr(p, end)) for p in numbers}
        add(f"every number at its {end}", {n: v for n, v in changes.items() if v != "="})
    wanted = CASES_FOR.get(calc.key, CASES)
    randoms = max(MIN_RANDOM, wanted - (len(cases) - 1))
    by_name = {p.name: p for p in calc.params}
    made = 0
    while made < randoms:
        share = rng.choice((0.15, 0.35, 0.7, 1.0))
        changes = {
            p.name: _random_value(rng, calc.key, p) for p in calc.params if rng.random() < share
        }
        changes = {n: v for n, v in changes.items() if not _is_default(by_name[n], v)}
        if changes and add(f"random {made + 1}", changes):
            made += 1
    return cases


def _bound_text(p: Param, value: float) -> str:
    """A range's end as typed ("=" when it is the default, so left out)."""
    if value == p.default:
        return "="
    return str(value) if isinstance(p, IntParam) else _number_text(value)


def _is_default(p: Param, value: Any) -> bool:
    """Whether ``value`` is only the default written again (``"6"`` for 6)."""
    if value == p.default:
        return True
    if isinstance(p, IntParam | NumberParam):
        try:
            return p.parse(value) == p.default
        except InputError:
            return False
    return False


def _identity(changes: dict[str, Any]) -> str:
    return json.dumps(changes, sort_keys=True, ensure_ascii=False)


# --- outcomes --------------------------------------------------------------------

_OMIT = object()


def plain(value: Any) -> Any:
    """``value`` as JSON if it is a plain value (numbers exact), else ``_OMIT``.

    Fractions become ``{"fraction": "n/d"}`` (a digest and an approximation past
    :data:`LONG_FRACTION` characters); tuples and lists of plain values become
    lists; dicts with text keys become dicts; floats stay JSON numbers (written
    with ``repr``, so nothing is lost) except NaN and infinities. Anything else
    (a result's own objects) is not stored: its display text is.
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, Fraction):
        text = f"{value.numerator}/{value.denominator}"
        if len(text) <= LONG_FRACTION:
            return {"fraction": text}
        digest = hashlib.sha256(text.encode()).hexdigest()[:32]
        return {"fraction_sha256": digest, "approx": repr(float(value))}
    if isinstance(value, tuple | list):
        items = [plain(v) for v in value]
        return _OMIT if any(i is _OMIT for i in items) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        out = {k: plain(v) for k, v in value.items()}
        return _OMIT if any(v is _OMIT for v in out.values()) else out
    return _OMIT


class _Panel:
    """Stands in for a view's widget: records what ``update_panel`` sets on it."""

    def __init__(self) -> None:
        object.__setattr__(self, "shown", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self.shown[name] = value


class Timed:
    """The outcome of one input set and how long parsing and computing took (ms)."""

    def __init__(self, outcome: dict[str, Any], ms: float) -> None:
        self.outcome = outcome
        self.ms = ms


def parse_inputs(
    calc: Calculator, given: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, InputError]]:
    """Every field of ``given`` (as the form gives it) parsed with its parameter's own
    ``parse``: ``(values, refused)``, ``refused`` the :class:`InputError` of each field
    whose text is refused, by parameter name."""
    parsed: dict[str, Any] = {}
    refused: dict[str, InputError] = {}
    for p in calc.params:
        try:
            parsed[p.name] = p.parse(given[p.name])
        except InputError as exc:
            refused[p.name] = exc
    return parsed, refused


def compute(calc: Calculator, given: dict[str, Any], roll_seed: int = ROLL_SEED) -> Timed:
    """What the calculator shows for ``given`` (every field, as the form gives it).

    Each field is parsed with its parameter's own ``parse`` (every bad field
    gets its message, as in the form); then the calculator computes, and an
    :class:`InputError` it raises (a rule across fields) is the outcome too.
    The "Roll it" logs are for ``roll_seed``.

    Raises whatever the calculator raises other than :class:`InputError` (a bug).
    """
    start = time.perf_counter()
    parsed, refused = parse_inputs(calc, given)
    if refused:
        errors = {name: exc.message for name, exc in refused.items()}
        return Timed({"errors": errors}, 1000 * (time.perf_counter() - start))
    try:
        result = calc.run(parsed)
    except InputError as exc:
        return Timed({"errors": {exc.field: exc.message}}, 1000 * (time.perf_counter() - start))
    ms = 1000 * (time.perf_counter() - start)
    figures = []
    for f in result.figures():
        fig = {"key": f.key, "label": f.label, "text": f.text}
        value = plain(f.value)
        if value is not _OMIT:
            fig["value"] = value
        figures.append(fig)
    outcome: dict[str, Any] = {
        "figures": figures,
        "steps": [[s.text, s.rule] for s in result.steps],
    }
    if calc.views:
        panels = []
        for view in calc.views:
            panel = _Panel()
            update_panel(view, panel, result)
            shown = plain(panel.shown)
            if shown is _OMIT:
                raise TypeError(f"{calc.key}: a view shows something not plain: {panel.shown!r}")
            panels.append(shown)
        outcome["views"] = panels
    if calc.rolls:
        outcome["rolls"] = {spec.label: list(spec.run(result, roll_seed)) for spec in calc.rolls}
    return Timed(outcome, ms)


# --- files -----------------------------------------------------------------------


def path_for(key: str) -> Path:
    return DATA / f"{key}.json"


def read_stored(key: str) -> dict[str, Any]:
    """The stored golden file of ``key``, with renamed fields under their current names."""
    return with_current_names(key, json.loads(path_for(key).read_text(encoding="utf-8")))


def shown_path(key: str) -> str:
    """The golden file's path from the repository root, for messages."""
    return path_for(key).relative_to(ROOT).as_posix()


INLINE = 100
"""A list or object whose one-line JSON is at most this long is written on one line."""


def dumps(data: Any) -> str:
    """The files' text: sorted keys, indent 1, UTF-8 characters, a final newline.

    Small lists and objects (a step, a chart bar, a figure's value) stay on one
    line, so a file reads as one line per figure, step or bar.
    """
    return _format(data, 0) + "\n"


def _format(value: Any, depth: int) -> str:
    line = json.dumps(value, sort_keys=True, ensure_ascii=False)
    if not isinstance(value, list | dict) or not value or len(line) <= INLINE:
        return line
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, list):
        items = [inner + _format(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [
        f"{inner}{json.dumps(k, ensure_ascii=False)}: {_format(value[k], depth + 1)}"
        for k in sorted(value)
    ]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


class Report:
    """What a run found besides the files.

    ``bugs``: cases raising anything but InputError (left out of the files);
    ``slow``: cases computing in over :data:`SLOW_MS`; ``unshown``: input errors
    naming a field the calculator does not have (the form cannot show them next
    to a field); ``slowest``: the slowest case's milliseconds per calculator.
    """

    def __init__(self) -> None:
        self.bugs: list[str] = []
        self.slow: list[str] = []
        self.unshown: list[str] = []
        self.slowest: dict[str, float] = {}


def build(calc: Calculator, report: Report) -> dict[str, Any]:
    """The golden data of ``calc``."""
    defaults = calc.defaults()
    cases = []
    for name, changes in input_sets(calc):
        given = {**defaults, **changes}
        try:
            timed = compute(calc, given)
        except Exception as exc:
            report.bugs.append(
                f"{calc.key} [{name}] {type(exc).__name__}: {exc} — inputs {describe(changes)}"
            )
            continue
        if timed.ms > SLOW_MS:
            report.slow.append(
                f"{calc.key} [{name}] {timed.ms:.0f} ms — inputs {describe(changes)}"
            )
        report.slowest[calc.key] = max(report.slowest.get(calc.key, 0.0), timed.ms)
        for field, message in timed.outcome.get("errors", {}).items():
            if field not in defaults:
                report.unshown.append(
                    f"{calc.key} [{name}] field {field!r} (not a field of this calculator): "
                    f"{message} — inputs {describe(changes)}"
                )
        cases.append({"name": name, "inputs": changes, "outcome": timed.outcome})
    return {
        "calculator": calc.key,
        "about": (
            "Golden figures of this calculator: its outcome on the default inputs and on "
            "generated inputs (each case's inputs are the changes from `defaults`). Made by "
            "tests/golden/generate.py, checked by tests/golden/test_golden_figures.py; "
            "see generate.py's docstring before regenerating."
        ),
        "roll_seed": ROLL_SEED,
        "defaults": plain(defaults),
        "cases": cases,
    }


def describe(changes: dict[str, Any]) -> str:
    """A case's inputs for a message: the changed fields, or "the defaults"."""
    if not changes:
        return "the defaults"
    return ", ".join(f"{n}={v!r}" for n, v in changes.items())


# --- differences -----------------------------------------------------------------


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_difference(label: str, old: Sequence[Any], new: Sequence[Any]) -> list[str]:
    """The first item of two lists that differs, or how their lengths differ."""
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if dumps(a) != dumps(b):
            return [f"{label} {i + 1}: {_short(a)} → {_short(b)}"]
    if len(old) > len(new):
        return [f"{label}s: {len(old)} → {len(new)}; first gone: {_short(old[len(new)])}"]
    if len(new) > len(old):
        return [f"{label}s: {len(old)} → {len(new)}; first new: {_short(new[len(old)])}"]
    return []


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two outcomes, one readable line each (empty when identical)."""
    if dumps(old) == dumps(new):
        return []
    if "errors" in old or "errors" in new:
        if "errors" in old and "errors" in new:
            return [f"input error: {_short(old['errors'])} → {_short(new['errors'])}"]
        if "errors" in old:
            return [f"was the input error {_short(old['errors'])}, now computes figures"]
        return [f"was figures, now the input error {_short(new['errors'])}"]
    lines: list[str] = []
    old_figs = {f["key"]: f for f in old["figures"]}
    new_figs = {f["key"]: f for f in new["figures"]}
    for key in old_figs.keys() - new_figs.keys():
        lines.append(f"figure {key}: gone (was {_short(old_figs[key]['text'])})")
    for key in new_figs.keys() - old_figs.keys():
        lines.append(f"figure {key}: new ({_short(new_figs[key]['text'])})")
    for key, a in old_figs.items():
        b = new_figs.get(key)
        if b is None or dumps(a) == dumps(b):
            continue
        for part in ("label", "text", "value"):
            if dumps(a.get(part)) != dumps(b.get(part)):
                lines.append(f"figure {key} {part}: {_short(a.get(part))} → {_short(b.get(part))}")
    if not lines and [f["key"] for f in old["figures"]] != [f["key"] for f in new["figures"]]:
        lines.append(
            f"figure order: {[f['key'] for f in old['figures']]} → "
            f"{[f['key'] for f in new['figures']]}"
        )
    lines += _first_difference("step", old["steps"], new["steps"])
    old_views, new_views = old.get("views", []), new.get("views", [])
    for i, (a, b) in enumerate(zip(old_views, new_views, strict=False)):
        for part in sorted(set(a) | set(b)):
            if dumps(a.get(part)) != dumps(b.get(part)):
                if isinstance(a.get(part), list) and isinstance(b.get(part), list):
                    lines += _first_difference(f"panel {i + 1} {part}, item", a[part], b[part])
                else:
                    lines.append(
                        f"panel {i + 1} {part}: {_short(a.get(part))} → {_short(b.get(part))}"
                    )
    if len(old_views) != len(new_views):
        lines.append(f"panels: {len(old_views)} → {len(new_views)}")
    old_rolls, new_rolls = old.get("rolls", {}), new.get("rolls", {})
    for label in sorted(set(old_rolls) | set(new_rolls)):
        if label not in new_rolls:
            lines.append(f"roll {label!r}: gone")
        elif label not in old_rolls:
            lines.append(f"roll {label!r}: new")
        else:
            lines += _first_difference(
                f"roll {label!r} (seed {ROLL_SEED}) line", old_rolls[label], new_rolls[label]
            )
    return lines or ["the stored and the new outcome differ (compare them in full)"]


def compare_files(key: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Differences between a stored file and a freshly generated one, for ``--check``."""
    lines: list[str] = []
    if dumps(old.get("defaults")) != dumps(new["defaults"]):
        lines.append(f"{key}: defaults {_short(old.get('defaults'))} → {_short(new['defaults'])}")
    old_cases = {_identity(c["inputs"]): c for c in old.get("cases", [])}
    new_cases = {_identity(c["inputs"]): c for c in new["cases"]}
    for ident, case in new_cases.items():
        before = old_cases.get(ident)
        if before is None:
            lines.append(f"{key} [{case['name']}] new input set: {describe(case['inputs'])}")
            continue
        for line in differences(before["outcome"], case["outcome"]):
            lines.append(f"{key} [{case['name']}] {describe(case['inputs'])}: {line}")
    for ident, case in old_cases.items():
        if ident not in new_cases:
            lines.append(
                f"{key} [{case['name']}] input set no longer made: {describe(case['inputs'])}"
            )
    if not lines and dumps(old) != dumps(new):
        lines.append(f"{key}: the file's text differs (case order or metadata)")
    return lines


# --- command line ----------------------------------------------------------------


def _select(only: str | None) -> list[Calculator]:
    if not only:
        return list(CALCULATORS)
    by_key = {c.key: c for c in CALCULATORS}
    keys = [k.strip() for k in only.split(",") if k.strip()]
    unknown = [k for k in keys if k not in by_key]
    if unknown:
        raise SystemExit(f"unknown calculator(s) {', '.join(unknown)}; known: {', '.join(by_key)}")
    return [by_key[k] for k in keys]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", metavar="KEY[,KEY]", help="only these calculators")
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print the differences from the stored files and exit 1 if any",
    )
    args = parser.parse_args(None if argv is None else list(argv))
    calcs = _select(args.only)
    report = Report()
    differ: list[str] = []
    if not args.check:
        DATA.mkdir(parents=True, exist_ok=True)
    for calc in calcs:
        start = time.perf_counter()
        data = build(calc, report)
        seconds = time.perf_counter() - start
        path = path_for(calc.key)
        text = dumps(data)
        errors = sum("errors" in c["outcome"] for c in data["cases"])
        summary = (
            f"{calc.key}: {len(data['cases']) - 1} generated input sets + defaults "
            f"({errors} input errors), {len(text.encode()) / 1024:.0f} KiB, {seconds:.1f} s, "
            f"slowest {report.slowest.get(calc.key, 0):.0f} ms"
        )
        if args.check:
            if not path.exists():
                differ.append(f"{calc.key}: no stored file {shown_path(calc.key)}")
                continue
            stored = read_stored(calc.key)
            same = dumps(stored) == text
            if not same:
                differ += compare_files(calc.key, stored, data)
            print(summary + (": same" if same else ": DIFFERS"))
        else:
            path.write_text(text, encoding="utf-8")
            print(summary)
    if not args.only:
        keys = {c.key for c in CALCULATORS}
        for path in sorted(DATA.glob("*.json")):
            if path.stem not in keys:
                differ.append(
                    f"{path.stem}: stored file for a calculator the catalog lacks: {path}"
                )
    for line in report.slow:
        print(f"SLOW (over {SLOW_MS:.0f} ms): {line}", file=sys.stderr)
    for line in report.unshown:
        print(f"UNSHOWN ERROR: {line}", file=sys.stderr)
    for line in report.bugs:
        print(f"BUG (not an InputError; left out of the file): {line}", file=sys.stderr)
    if differ:
        print("\n".join(differ))
        keys = ",".join(sorted({c.key for c in calcs}))
        print(REGENERATE.format(keys=keys))
        return 1
    return 2 if report.bugs else 0


if __name__ == "__main__":
    sys.exit(main())
