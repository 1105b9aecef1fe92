"""What if's links: scenarios and a sweep in a link's query, and back (issue 22).

The forms are described in :mod:`ruleslab.whatif` ("Links") and
``docs/what-if.md``. Reading is one pass over the query's pairs; anything a
link cannot hold is refused with an :class:`~ruleslab.InputError` whose
``field`` is the query parameter and whose message names the form it takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from ruleslab.declare import Calculator
from ruleslab.params import InputError
from ruleslab.whatif.inputs import (
    LINK_SAFE,
    MAX_QUERY_LENGTH,
    MAX_SCENARIOS,
    PAGE_PARAMETERS,
    Range,
    as_text,
    calculator_of,
    number_field,
    resolve,
    sweep_values,
)

__all__ = ["SweepSpec", "scenarios_from_query", "scenarios_query", "sweep_from_query"]


def scenarios_query(
    calc: str | Calculator,
    scenarios: Sequence[Mapping[str, Any]],
    sweep: SweepSpec | None = None,
) -> str:
    """The scenarios as a link's query: ``calculator=<key>``, A's fields that differ from
    the defaults (as a one-calculator link writes them), then, for two or more,
    ``scenarios=N`` and each later scenario's fields that differ from A, prefixed
    ``s2.`` … A field that does not apply in its scenario is left out; a value is
    written as given (text as typed; a checkbox ``yes``/``no``). ``sweep``: a sweep's
    field, range and figures, added as ``sweep.*`` (:meth:`SweepSpec.pairs`)."""
    c = calculator_of(calc)
    resolved = resolve(c, scenarios)
    pairs = [("calculator", c.key)]
    defaults = {p.name: p.parse(p.default) for p in c.params}
    for i, (given, values) in enumerate(resolved):
        against = defaults if i == 0 else resolved[0][1]
        prefix = f"s{i + 1}." if i else ""
        if i == 1:
            pairs.append(("scenarios", str(len(resolved))))
        texts = {**({} if i == 0 else resolved[0][0]), **given}
        for p in c.params:
            if values[p.name] == against[p.name] or not c.applies(p.name, values):
                continue
            pairs.append((prefix + p.name, as_text(texts.get(p.name, values[p.name]))))
    if sweep is not None:
        pairs += sweep.pairs(c)
    return urlencode(pairs, quote_via=quote, safe=LINK_SAFE)


def scenarios_from_query(calc: str | Calculator, query: str) -> list[dict[str, str]]:
    """The scenarios a link's query holds (:func:`scenarios_query`), each as text to give
    :func:`compare` (A over the defaults, the others over A).

    Refuses, with an :class:`~ruleslab.InputError` naming the query parameter and the
    form it takes: a field the calculator lacks, a name given twice, ``sN.`` beyond
    ``scenarios``, a ``scenarios`` that is not 2 to 4. An override given without its
    choice (``natural_soak=3``, an older link's) reads as entered
    (:meth:`~ruleslab.declare.Calculator.implied`). The values themselves are
    checked when the scenarios are computed (each field's own message). Linear in the
    query's length.
    """
    c = calculator_of(calc)
    if len(query) > MAX_QUERY_LENGTH:
        raise InputError("query", f"A link's query holds at most {MAX_QUERY_LENGTH:,} characters.")
    pairs = parse_qsl(query.removeprefix("?"), keep_blank_values=True)
    names = {p.name for p in c.params}
    count = 1
    counts = [text for name, text in pairs if name == "scenarios"]
    if len(counts) > 1:
        raise InputError("scenarios", "scenarios is given more than once.")
    if counts:
        text = counts[0].strip()
        if text not in {str(n) for n in range(2, MAX_SCENARIOS + 1)}:
            raise InputError(
                "scenarios",
                f"scenarios must be a whole number from 2 to {MAX_SCENARIOS} (got {text[:20]!r}).",
            )
        count = int(text)
    out: list[dict[str, str]] = [{} for _ in range(count)]
    for name, text in pairs:
        if name in PAGE_PARAMETERS or name == "scenarios" or name.startswith("sweep."):
            continue
        index, field_ = 0, name
        if name[:1] == "s" and "." in name:
            head, field_ = name.split(".", 1)
            if not head[1:].isdigit() or not head[1:].isascii():
                raise InputError(name[:40], f"{name[:40]!r}: a scenario's field is sN.<field>.")
            index = int(head[1:]) - 1
            if not 1 <= index < count:
                allowed = f"s2. to s{count}." if count > 1 else "none: add scenarios=N first"
                raise InputError(
                    name[:40],
                    f"{name[:40]!r} names scenario {head[1:][:6]}; this link's scenario "
                    f"prefixes: {allowed} (A's fields have none).",
                )
        if field_ not in names:
            raise InputError(
                name[:40],
                f"{name[:40]!r} is not a field of {c.key} "
                f"(its fields: {', '.join(sorted(names))}).",
            )
        if field_ in out[index]:
            raise InputError(name[:40], f"{name[:40]!r} is given more than once.")
        out[index][field_] = text
    return [c.implied(given) for given in out]


@dataclass(frozen=True)
class SweepSpec:
    """A sweep as a link holds it: the field, its :class:`Range` or explicit values, and
    the figures (``()``: the default)."""

    field: str
    span: Range | tuple[int | float, ...]
    figures: tuple[str, ...] = ()

    def pairs(self, calc: str | Calculator) -> list[tuple[str, str]]:
        """``sweep.field``, then ``sweep.range=start:stop:step`` (stop included) or
        ``sweep.values=a,b,c``, then ``sweep.figures=k1,k2`` if any; numbers written
        plainly (``.`` the decimal point). The range's ends and values are checked by the
        field first (:func:`sweep_values`)."""
        sweep_values(calc, self.field, self.span)
        out = [("sweep.field", self.field)]
        if isinstance(self.span, Range):
            step = "" if self.span.step is None else f":{as_text(self.span.step)}"
            out.append(
                ("sweep.range", f"{as_text(self.span.start)}:{as_text(self.span.stop)}{step}")
            )
        else:
            out.append(("sweep.values", ",".join(as_text(v) for v in self.span)))
        if self.figures:
            out.append(("sweep.figures", ",".join(self.figures)))
        return out


def _plain_number(text: str) -> bool:
    """``-12``, ``3.5``: an optional ``-``, ASCII digits, at most one ``.`` between digits."""
    body = text[1:] if text[:1] == "-" else text
    whole, _, fraction = body.partition(".")
    return (
        bool(whole)
        and whole.isdigit()
        and whole.isascii()
        and ("." not in body or (fraction.isdigit() and fraction.isascii()))
    )


def sweep_from_query(calc: str | Calculator, query: str) -> SweepSpec | None:
    """The sweep a link's query holds (``sweep.*``, :meth:`SweepSpec.pairs`), or ``None``.

    Refused with an :class:`~ruleslab.InputError` naming the query parameter and the
    form it takes: an unknown ``sweep.*`` name, one given twice, no ``sweep.field`` or
    not a number field, neither or both of ``sweep.range`` and ``sweep.values``, a
    number not written plainly; a value outside the field's range gets the field's own
    message. Figures are checked when the sweep is computed.
    """
    c = calculator_of(calc)
    if len(query) > MAX_QUERY_LENGTH:
        raise InputError("query", f"A link's query holds at most {MAX_QUERY_LENGTH:,} characters.")
    known = ("sweep.field", "sweep.range", "sweep.values", "sweep.figures")
    given: dict[str, str] = {}
    for name, text in parse_qsl(query.removeprefix("?"), keep_blank_values=True):
        if not name.startswith("sweep."):
            continue
        if name not in known:
            raise InputError(name[:40], f"{name[:40]!r}: a sweep's link names {', '.join(known)}.")
        if name in given:
            raise InputError(name, f"{name} is given more than once.")
        given[name] = text
    if not given:
        return None
    if "sweep.field" not in given:
        raise InputError("sweep.field", "sweep.field names the number field to sweep.")
    param = number_field(c, given["sweep.field"])
    if ("sweep.range" in given) == ("sweep.values" in given):
        raise InputError(
            "sweep.range", "Give sweep.range=start:stop[:step] or sweep.values=a,b,c (one)."
        )
    if "sweep.range" in given:
        parts = given["sweep.range"].split(":", 3)
        if not 2 <= len(parts) <= 3 or not all(_plain_number(x) for x in parts):
            raise InputError(
                "sweep.range",
                "sweep.range is start:stop or start:stop:step, numbers written plainly "
                "(e.g. 0:10:2).",
            )
        start, stop = param.parse(parts[0]), param.parse(parts[1])
        step = float(parts[2]) if len(parts) == 3 else None
        if step is not None and step.is_integer():
            step = int(step)
        span: Range | tuple[int | float, ...] = Range(start, stop, step)
    else:
        items = given["sweep.values"].split(",")
        if not all(_plain_number(x) for x in items):
            raise InputError(
                "sweep.values",
                "sweep.values is numbers written plainly, separated by commas (e.g. 0,2.5,10).",
            )
        span = tuple(param.parse(x) for x in items)
    figures = tuple(f for f in given.get("sweep.figures", "").split(",") if f)
    return SweepSpec(param.name, span, figures)
