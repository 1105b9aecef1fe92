"""Fuzzing every calculator of the catalog from its declarations (issue 11).

For each calculator, hypothesis draws whole forms from the fields' own
declarations — values across each declared range and hostile ones (out of
range, huge, fractional, empty, other scripts' digits, markup, very long text,
a text field's own default repeated up to its length limit) — and checks:

* the form path (each field's ``Param.parse``, then ``Calculator.run``) and
  the Python path (``Calculator.compute`` with plain and hostile Python
  values) raise nothing but :class:`ruleslab.InputError`, and an input error
  names a field the calculator has;
* every probability a result carries is in [0, 1], every distribution sums to
  1 within 1e-12, chart bars are probabilities;
* each computation finishes within :data:`BUDGET_S` (generous: the project's
  200 ms standard is measured by ``tests/golden/generate.py`` and ``bench/``);
* what the page would show (figures, working, field messages) has no
  unescaped markup from the input.

Nothing here names a calculator: a new calculator is fuzzed without new code.
Deterministic (``derandomize``), so a failure reproduces; ``RULESLAB_FUZZ_EXAMPLES``
raises the number of examples for a longer local run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import re
import signal
import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslab import (
    BoolParam,
    ChoiceParam,
    Explained,
    InputError,
    IntParam,
    NumberParam,
    Param,
    TextParam,
)
from ruleslab.calculators import CALCULATORS
from ruleslab.declare import Calculator, ChartView
from ruleslab.dice import SuccessDistribution
from ruleslab.pmf import Dist

EXAMPLES = int(os.environ.get("RULESLAB_FUZZ_EXAMPLES", "150"))
BUDGET_S = float(os.environ.get("RULESLAB_FUZZ_BUDGET_S", "2.0"))
"""Per computation, parsing included (a freeze or a minutes-long input fails it)."""

MARKUP = '<b data-fuzz="1">x</b>'
TOLERANCE = Fraction(1, 10**12)

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Text a GM might paste into a number field; each must be refused or read as written.
HOSTILE_NUMBER_TEXT = (
    "",
    " ",
    "-",
    "1e309",
    "-1e309",
    "nan",
    "inf",
    "1e-320",
    "²",
    "①",
    "١٢",  # Arabic-Indic digits
    "1_0",
    "2,5",
    "1,5",
    "1.000",
    "1,00",
    "1,,000",
    "0x10",
    "10" * 2500,
    "9" * 5000,
    MARKUP,
    "3 dice",
    "+3",
    "−3",
)

HOSTILE_OBJECTS = (None, [], {}, [1], {"a": 1}, (), 10**100, -(10**100), float("nan"), object())


def _number_texts(p: IntParam | NumberParam) -> st.SearchStrategy[str]:
    if isinstance(p, IntParam):
        inside = st.integers(p.minimum, p.maximum)
        near = st.integers(p.minimum - 3, p.maximum + 3)
        typed = st.one_of(inside.map(str), inside.map(lambda v: f"{v:,}"), near.map(str))
    else:
        low, high = p.minimum, min(p.maximum, 1e9)
        inside_f = st.floats(low, high, allow_nan=False, allow_infinity=False)
        typed = st.one_of(
            inside_f.map(lambda v: f"{v:.2f}"),
            inside_f.map(repr),
            st.floats(allow_nan=True, allow_infinity=True).map(repr),
        )
    wild = st.one_of(st.sampled_from(HOSTILE_NUMBER_TEXT), st.text(max_size=12))
    return st.one_of(typed, typed, wild)


def _repeated(text: str, limit: int) -> st.SearchStrategy[str]:
    """A piece of ``text`` repeated up to ``limit`` characters, then junk: the shape
    that makes a backtracking parser explode."""
    if not text:
        return st.just("a" * limit)

    def build(args: tuple[int, int, str]) -> str:
        start, width, junk = args
        piece = text[start : start + width] or text
        return (piece * (limit // len(piece) + 1))[: max(0, limit - 1)] + junk

    return st.tuples(
        st.integers(0, max(0, len(text) - 1)),
        st.integers(1, 16),
        st.sampled_from(["!", "", "\n", ",", "("]),
    ).map(build)


def _texts(p: TextParam) -> st.SearchStrategy[str]:
    seeds = [t for t in (p.default, p.example) if t]
    base = st.sampled_from(seeds) if seeds else st.just("")
    limit = p.max_length
    mutated = st.tuples(base, st.text(max_size=20), st.integers(0, 200)).map(
        lambda a: a[0][: a[2]] + a[1] + a[0][a[2] :]
    )
    return st.one_of(
        base,
        mutated,
        mutated,
        base.map(lambda t: f"{t}\n{MARKUP}"),
        base.map(lambda t: f"{MARKUP}: {t}"),
        st.text(max_size=80),
        base.flatmap(lambda t: _repeated(t, limit)),
        st.just("x" * (limit + 1)),
        st.just(""),
    )


def form_value(p: Param) -> st.SearchStrategy[Any]:
    """What the form can hand over for ``p``: typed text, a ticked box, a choice."""
    if isinstance(p, BoolParam):
        return st.booleans()
    if isinstance(p, ChoiceParam):
        return st.sampled_from([v for v, _ in p.choices])
    if isinstance(p, IntParam | NumberParam):
        return _number_texts(p)
    if isinstance(p, TextParam):
        return _texts(p)
    raise TypeError(f"no fuzzing strategy for {type(p).__name__}")  # a new kind needs one


def api_value(p: Param) -> st.SearchStrategy[Any]:
    """What a Python caller might pass: right-typed values in and out of range, or junk."""
    junk = st.sampled_from(HOSTILE_OBJECTS)
    if isinstance(p, BoolParam):
        right = st.booleans()
        wrong: st.SearchStrategy[Any] = st.sampled_from(["yes", 1, 0])
    elif isinstance(p, ChoiceParam):
        right = st.sampled_from([v for v, _ in p.choices])
        wrong = st.one_of(st.text(max_size=10), st.sampled_from([["2.0"], {"v": 1}]))
    elif isinstance(p, IntParam):
        right = st.integers(p.minimum, p.maximum)
        wrong = st.one_of(st.integers(), st.floats(), st.booleans())
    elif isinstance(p, NumberParam):
        right = st.floats(p.minimum, min(p.maximum, 1e9))
        wrong = st.one_of(st.floats(), st.integers(), st.booleans())
    else:
        right = _texts(p)  # type: ignore[arg-type]
        wrong = st.one_of(st.integers(), st.binary(max_size=10))
    return st.one_of(right, right, right, wrong, junk)


def valid_value(p: Param) -> st.SearchStrategy[Any]:
    """What a GM types in range: a whole-number or number field's value as typed
    (thousands separators, a decimal comma), a choice, a tick, the text field's own
    default or example."""
    if isinstance(p, IntParam):
        inside = st.integers(p.minimum, p.maximum)
        return st.one_of(inside.map(str), inside.map(lambda v: f"{v:,}"))
    if isinstance(p, NumberParam):
        inside_f = st.floats(p.minimum, min(p.maximum, 1e9), allow_nan=False)
        return st.one_of(
            inside_f.map(lambda v: f"{v:.2f}"),
            inside_f.map(lambda v: f"{v:.2f}".replace(".", ",")),
            st.integers(int(p.minimum), int(min(p.maximum, 1e9))).map(str),
        )
    if isinstance(p, TextParam):
        return st.sampled_from([t for t in (p.default, p.example) if _parses(p, t)])
    return form_value(p)


def _parses(p: Param, text: str) -> bool:
    try:
        p.parse(text)
    except InputError:
        return False
    return True


def forms(calc: Calculator, value: Any) -> st.SearchStrategy[dict[str, Any]]:
    """A whole form: every field in range (default or drawn across its range), and in
    half the forms one to three fields drawn from ``value`` (hostile, or any Python
    value) instead — so most forms compute, and every kind of bad field is met."""
    valid = st.fixed_dictionaries(
        {p.name: st.one_of(st.just(_default_as_given(p)), valid_value(p)) for p in calc.params}
    )
    names = [p.name for p in calc.params]
    by_name = {p.name: p for p in calc.params}

    @st.composite
    def spoiled(draw: st.DrawFn) -> dict[str, Any]:
        form = dict(draw(valid))
        for name in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)):
            form[name] = draw(value(by_name[name]))
        return form

    return st.one_of(valid, spoiled())


def _default_as_given(p: Param) -> Any:
    if isinstance(p, IntParam | NumberParam):
        d = p.default
        return str(int(d)) if float(d).is_integer() else str(d)
    return p.default


# --- what every outcome must satisfy -------------------------------------------------


def _check_error(calc: Calculator, exc: InputError) -> None:
    names = {p.name for p in calc.params}
    assert exc.field in names, f"{calc.key}: error names {exc.field!r}, not a field"
    assert exc.message


def _probability(where: str, p: Any) -> None:
    assert 0 <= p <= 1, f"{where} = {p} is not a probability"


def _walk(value: Any, where: str, seen: set[int], depth: int = 0) -> None:
    """Check every probability and distribution reachable from a result's fields."""
    if depth > 6 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Dist):
        # a Dist may be part of a distribution (e.g. the wounding outcomes of a blow)
        total = value.total()
        assert total <= 1 + TOLERANCE, f"{where}: a distribution sums to {float(total)}"
        for k, p in value.items():
            _probability(f"{where}[{k}]", p)
        return
    if isinstance(value, SuccessDistribution):
        total = sum(value.pmf) + value.tail_bound
        assert abs(total - 1) <= TOLERANCE, f"{where}: sums to {float(total)}"
        for k, p in enumerate(value.pmf):
            _probability(f"{where}.pmf[{k}]", p)
        _probability(f"{where}.p_botch", value.p_botch)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name, None)
            name = f"{where}.{f.name}"
            if isinstance(item, Fraction) and (f.name.startswith("p_") or f.name == "p"):
                _probability(name, item)
            elif (
                (f.name == "pmf" or f.name.endswith("_pmf"))
                and isinstance(item, tuple)
                and item
                and all(isinstance(x, Fraction) for x in item)
            ):
                total = sum(item)
                assert abs(total - 1) <= TOLERANCE, f"{name} sums to {float(total)}"
                for k, p in enumerate(item):
                    _probability(f"{name}[{k}]", p)
            else:
                _walk(item, name, seen, depth + 1)
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value[:64]):
            _walk(item, f"{where}[{i}]", seen, depth + 1)


def _check_result(calc: Calculator, result: Explained) -> None:
    from ruleslab_widgets.render import figures_html, steps_html

    for fig in result.figures():
        if fig.key.startswith("p_") and isinstance(fig.value, Fraction | float | int):
            if not isinstance(fig.value, bool):
                _probability(f"{calc.key} figure {fig.key}", fig.value)
        if isinstance(fig.value, float):
            assert not math.isnan(fig.value), f"{calc.key} figure {fig.key} is NaN"
    _walk(result, calc.key, set())
    for view in calc.views:
        if isinstance(view, ChartView):
            chart = view.chart(result)
            for label, p in chart.bars:
                _probability(f"{calc.key} {view.title!r} bar {label}", p)
            assert sum(p for _, p in chart.bars) <= 1 + 1e-9
    for html in (figures_html(result), steps_html(result)):
        assert 'data-fuzz="1"' not in html, f"{calc.key}: markup from the input reached the page"


def _timed(calc: Calculator, started: float, given: dict[str, Any]) -> None:
    spent = time.perf_counter() - started
    assert spent < BUDGET_S, f"{calc.key} took {spent:.2f} s for {given!r:.500}"


# --- the tests -----------------------------------------------------------------------


@pytest.mark.parametrize("calc", CALCULATORS, ids=[c.key for c in CALCULATORS])
def test_the_form_path_survives_anything_typed(calc):
    from ruleslab_widgets.render import error_html

    @SETTINGS
    @given(forms(calc, form_value))
    def run(given_values: dict[str, Any]) -> None:
        started = time.perf_counter()
        parsed: dict[str, Any] = {}
        errors = []
        for p in calc.params:
            try:
                parsed[p.name] = p.parse(given_values[p.name])
            except InputError as exc:
                errors.append(exc)
        if not errors:
            try:
                result = calc.run(parsed)
            except InputError as exc:
                errors.append(exc)
            else:
                _timed(calc, started, given_values)
                _check_result(calc, result)
        _timed(calc, started, given_values)
        for exc in errors:
            _check_error(calc, exc)
            assert 'data-fuzz="1"' not in error_html(exc.message)

    run()


@pytest.mark.parametrize("calc", CALCULATORS, ids=[c.key for c in CALCULATORS])
def test_the_python_path_checks_like_the_form(calc):
    @SETTINGS
    @given(forms(calc, api_value))
    def run(given_values: dict[str, Any]) -> None:
        values = {
            name: (p.default if isinstance(v, str) and _is_typed_default(p, v) else v)
            for (name, v), p in zip(given_values.items(), calc.params, strict=True)
        }
        started = time.perf_counter()
        try:
            result = calc.compute(**values)
        except InputError as exc:
            _check_error(calc, exc)
        else:
            _check_result(calc, result)
        _timed(calc, started, values)

    run()


def _is_typed_default(p: Param, v: str) -> bool:
    """The default as the form types it ("6" for 6): a Python caller passes the value."""
    return isinstance(p, IntParam | NumberParam) and v == _default_as_given(p)


# --- backtracking traps for every text field ------------------------------------------

TRAP_PIECES = ("a 1 ", "1 a ", "a ", "1 ", "a, ", "(1) ", "[1] ", "a+1 ", "1a ", "- ")
"""Repeated after a keyword of the field's own language: the shape of input that makes a
parser with nested quantifiers backtrack exponentially."""


class _OvertimeError(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (SIGALRM: the regex engine checks signals)."""

    def ring(signum: int, frame: Any) -> None:
        raise _OvertimeError

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _keywords(p: TextParam) -> list[str]:
    words = re.findall(r"[A-Za-z][A-Za-z-]*", " ".join((p.default, p.example, p.help)))
    return sorted(set(words))


TEXT_FIELDS = [(calc, p) for calc in CALCULATORS for p in calc.params if isinstance(p, TextParam)]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
@pytest.mark.parametrize(
    ("calc", "p"), TEXT_FIELDS, ids=[f"{c.key}.{p.name}" for c, p in TEXT_FIELDS]
)
def test_no_text_field_backtracks(calc, p):
    """Each keyword of the field's language (from its default, example and help), then
    a short piece repeated to the field's length limit, then a character that fails:
    parsing must finish within the budget (a backtracking parser takes minutes)."""
    slow = []
    for keyword in _keywords(p):
        for piece in TRAP_PIECES:
            head = f"X: {keyword} "
            body = piece * ((p.max_length - len(head)) // len(piece))
            text = (head + body)[: p.max_length - 1] + "!"
            started = time.perf_counter()
            try:
                with _deadline(BUDGET_S):
                    p.parse(text)
            except InputError:
                pass
            except _OvertimeError:
                slow.append(f"{head}{piece!r}×…")
                continue
            spent = time.perf_counter() - started
            if spent > BUDGET_S:
                slow.append(f"{head}{piece!r}×… {spent:.2f} s")
    assert slow == [], f"{calc.key}.{p.name} takes over {BUDGET_S} s on {slow[:5]}"
