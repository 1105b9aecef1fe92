"""What if's inputs: scenarios read through the fields, a sweep's points, bounded.

Shared by :mod:`ruleslab.whatif` (the records, :func:`~ruleslab.whatif.compare`
and :func:`~ruleslab.whatif.sweep`) and :mod:`ruleslab.whatif.links` (links):
each scenario's values parsed once by its fields (:func:`resolve`), a sweep's
points counted, checked by the field and cut to the calculator's cap
(:func:`sweep_values`, :func:`max_points`; the timing model is described in
:mod:`ruleslab.whatif`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal, localcontext
from fractions import Fraction
from typing import Any

from ruleslab.declare import Calculator
from ruleslab.params import BoolParam, InputError, IntParam, NumberParam, Param

__all__ = [
    "LABELS",
    "LINK_SAFE",
    "MAX_POINTS",
    "MAX_QUERY_LENGTH",
    "MAX_SCENARIOS",
    "PAGE_PARAMETERS",
    "POINT_COST_MS",
    "SWEEP_BUDGET_MS",
    "Range",
    "ScenarioError",
    "as_text",
    "calculator_of",
    "default_sweep",
    "is_number",
    "max_points",
    "number_field",
    "parse_value",
    "resolve",
    "sweep_values",
]

MAX_SCENARIOS = 4
"""Scenarios a comparison holds at most (at least two)."""

SWEEP_BUDGET_MS = 2000
"""What the slowest calculator's whole sweep may take on CPython (issue 22)."""

MAX_POINTS = 101
"""The most points of any sweep: 0 to 100 by 1, a chart's and a table's readable length."""

POINT_COST_MS: Mapping[str, int] = {
    "dice_pool": 2,
    "lifting": 3,
    "movement": 3,
    "jumping": 2,
    "falling": 3,
    "health": 45,
    "damage": 40,
    "autofire": 50,
    "healing": 30,
    "defence": 20,
    "compressed": 25,
    "henchmen": 65,
    "warfare": 40,
    "chimera": 60,
}
"""The timing model: one point's cost per calculator, in ms (see the module's notes)."""

_DEFAULT_COST_MS = 200
"""A calculator missing from :data:`POINT_COST_MS`: the project's per-input standard."""

LABELS = "ABCD"
_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})
LINK_SAFE = ",:/@"
PAGE_PARAMETERS = frozenset({"calculator", "theme", "embed"})
MAX_QUERY_LENGTH = 200_000


class ScenarioError(InputError):
    """A bad value in a scenario: ``field`` the parameter, ``scenario`` its letter."""

    def __init__(self, scenario: str, field: str, message: str) -> None:
        super().__init__(field, f"Scenario {scenario}: {message}")
        self.scenario = scenario


def calculator_of(key_or_calc: str | Calculator) -> Calculator:
    if isinstance(key_or_calc, Calculator):
        return key_or_calc
    from ruleslab.calculators import get

    return get(key_or_calc)


def is_number(value: object) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def as_text(value: Any) -> str:
    """A Python value as a form's text: a checkbox ``yes``/``no``, 3.0 as ``3``, a float
    written plainly, never with an exponent (1e-05 as ``0.00001``: what a field and a link
    read back; Python's ``str`` would write ``1e-05``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float) and "e" in repr(value):
        return format(Decimal(repr(value)), "f")
    return str(value)


def parse_value(param: Param, value: Any) -> Any:
    """``value`` (text as typed, or a Python value) through the field's own parse;
    a checkbox also reads ``yes``/``no`` (and true/false, on/off, 1/0) as a link does."""
    if isinstance(param, BoolParam) and isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise InputError(param.name, f"{param.label} must be yes or no.")
    return param.parse(value)


def resolve(
    calc: Calculator,
    scenarios: Sequence[Mapping[str, Any]],
    labels: Sequence[str] | None = None,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each scenario's given values and every field's parsed value (A over the defaults,
    the others over A; an override given without its choice reads as entered:
    :meth:`~ruleslab.declare.Calculator.implied`), each value parsed once; refused with
    a :class:`ScenarioError` naming the scenario by its letter (``labels[i]``, else A,
    B, … in order)."""
    if isinstance(scenarios, Mapping) or not 1 <= len(scenarios) <= MAX_SCENARIOS:
        raise ValueError(f"give 1 to {MAX_SCENARIOS} scenarios, a list of mappings")
    letters = _letters(scenarios, labels)
    by_name = {p.name: p for p in calc.params}
    defaults = {p.name: p.parse(p.default) for p in calc.params}
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for i, given in enumerate(scenarios):
        label = letters[i]
        if not isinstance(given, Mapping):
            raise TypeError(f"scenario {label}: a mapping of field names to values")
        values = dict(defaults if i == 0 else out[0][1])
        for name, raw in calc.implied(given).items():
            param = by_name.get(name)
            if param is None:
                raise ScenarioError(
                    label,
                    str(name),
                    f"{str(name)[:40]!r} is not a field of {calc.key} "
                    f"(its fields: {', '.join(by_name)}).",
                )
            try:
                values[name] = parse_value(param, raw)
            except InputError as exc:
                raise ScenarioError(label, name, exc.message) from None
        out.append((dict(given), values))
    return out


def _letters(scenarios: Sequence[Any], labels: Sequence[str] | None) -> Sequence[str]:
    """The scenarios' letters: ``labels`` (one each, distinct, A first: a comparison of A
    and C keeps C's letter), else A, B, … in order."""
    if labels is None:
        return LABELS[: len(scenarios)]
    if (
        len(labels) != len(scenarios)
        or len(set(labels)) != len(labels)
        or not set(labels) <= set(LABELS)
        or labels[0] != LABELS[0]
    ):
        raise ValueError(f"labels: one distinct letter of {''.join(LABELS)} each, A first")
    return labels


@dataclass(frozen=True)
class Range:
    """``start`` to ``stop`` **inclusive** by ``step`` (the field's own step if ``None``),
    as a GM says "Defense 0 to 10". A Python ``range`` is also taken (stop exclusive)."""

    start: float
    stop: float
    step: float | None = None


def max_points(calc: str | Calculator) -> int:
    """The most points one sweep of this calculator computes (per scenario)."""
    key = calculator_of(calc).key
    cost = POINT_COST_MS.get(key, _DEFAULT_COST_MS)
    return max(2, min(MAX_POINTS, SWEEP_BUDGET_MS // cost))


def number_field(calc: Calculator, name: str) -> IntParam | NumberParam:
    by_name = {p.name: p for p in calc.params}
    param = by_name.get(name)
    if param is None:
        raise InputError(name[:40], f"{name[:40]!r} is not a field of {calc.key}.")
    if not isinstance(param, IntParam | NumberParam):
        numeric = [p.name for p in calc.params if isinstance(p, IntParam | NumberParam)]
        raise InputError(
            name,
            f"{param.label} is not a number field: a sweep takes one of {', '.join(numeric)}.",
        )
    return param


def _dec(x: object) -> Decimal:
    return Decimal(str(x))


def sweep_values(
    calc: str | Calculator,
    field: str,
    values_or_range: Range | range | Iterable[Any],
    scenarios: int = 1,
) -> tuple[tuple[int | float, ...], str]:
    """The points a sweep of ``field`` computes and its note ("" or "cut to N points: …").

    The range's ends (or each value) are parsed by the field: one outside its declared
    range is refused with the field's own message. A range is counted, never listed,
    before it is cut, so even 0 to 10¹² costs nothing. ``scenarios``: how many
    scenarios the sweep runs (the cap is per sweep, shared between them).
    """
    c = calculator_of(calc)
    param = number_field(c, field)
    cap = max(2, max_points(c) // max(1, scenarios))
    why = (
        f"{c.title} computes at most {cap} points per sweep"
        + (f" of {scenarios} scenarios" if scenarios > 1 else "")
        + f" (within {SWEEP_BUDGET_MS / 1000:g} s)"
    )
    if isinstance(values_or_range, range):
        r = values_or_range
        if not r:
            raise InputError(field, f"The range of {param.label} is empty.")
        values_or_range = Range(r.start, r[-1], abs(r.step))
        if r.step < 0:
            values_or_range = Range(r[-1], r.start, -r.step)
    if isinstance(values_or_range, Range):
        start = param.parse(values_or_range.start)
        stop = param.parse(values_or_range.stop)
        step = param.step if values_or_range.step is None else values_or_range.step
        if isinstance(step, bool) or not is_number(step) or not step > 0:
            raise InputError(field, f"The step of {param.label} must be a number above 0.")
        if isinstance(param, IntParam) and _dec(step) != _dec(step).to_integral_value():
            raise InputError(field, f"The step of {param.label} must be a whole number.")
        if stop < start:
            raise InputError(field, f"The range of {param.label} ends ({stop}) before it starts.")
        d_start, d_step = _dec(start), _dec(step)
        with localcontext() as ctx:  # (a tiny step over a wide range: exact, not an error)
            ctx.prec = 80
            count = int((_dec(stop) - d_start) // d_step) + 1
        n = min(count, cap)
        points: list[int | float] = []
        for k in range(n):
            v = d_start + k * d_step
            points.append(int(v) if isinstance(param, IntParam) else float(v))
        note = ""
        if count > cap:
            span = _dec(stop) - d_start
            if isinstance(param, IntParam):
                hint = str((span / (cap - 1)).to_integral_value(ROUND_CEILING))
            else:  # rounded up to hundredths
                hint = as_text(float((span / (cap - 1)).quantize(Decimal("0.01"), ROUND_CEILING)))
            note = (
                f"cut to {n} points: {why}; the range now ends at {as_text(points[-1])} "
                f"instead of {as_text(stop)} (a step of {hint} covers it all)."
            )
        return tuple(points), note
    if isinstance(values_or_range, str | bytes | Mapping):
        raise InputError(field, f"Give {param.label}'s values as a list, or a Range.")
    parsed = [param.parse(v) for v in values_or_range]
    parsed = list(dict.fromkeys(parsed))  # each once, in the order given
    if not parsed:
        raise InputError(field, f"Give {param.label} at least one value.")
    note = ""
    if len(parsed) > cap:
        note = f"cut to {cap} points: {why}; the first {cap} of {len(parsed)} values are kept."
        parsed = parsed[:cap]
    return tuple(parsed), note


def default_sweep(calc: str | Calculator) -> tuple[str, Range]:
    """A calculator's default sweep: its first number field among the main inputs (else
    any), over the field's whole declared range by its step (cut when swept)."""
    c = calculator_of(calc)
    main = [p for p in c.main_params if isinstance(p, IntParam | NumberParam)]
    every = [p for p in c.params if isinstance(p, IntParam | NumberParam)]
    if not every:
        raise ValueError(f"{c.key} has no number field to sweep")
    p = (main or every)[0]
    return p.name, Range(p.minimum, p.maximum, p.step)
