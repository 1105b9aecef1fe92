"""Benchmark: every calculator's default sweep, against the 2 s sweep budget (issue 22).

A sweep (:func:`ruleslab.whatif.sweep`) computes at most
:func:`ruleslab.whatif.max_points` points, the budget over the calculator's
declared cost of a point (:data:`ruleslab.whatif.POINT_COST_MS`). This times, in
one run:

* each calculator's default sweep (:func:`ruleslab.whatif.default_sweep`: its
  first main number field over its declared range, cut to its cap), the whole
  ``sweep`` call as a notebook makes it;
* beside it, its peer: one run of the same calculator at its defaults (through
  ``Param.parse`` and ``Calculator.run``), and the sweep's time per point;

and prints each with its ratio to :data:`ruleslab.whatif.SWEEP_BUDGET_MS`, the
machine's load average before and after, and the slowest calculator's line last.
``--calibrate`` also sweeps every number field of every calculator over its
declared range (11 points each, from the defaults) and prints the costliest
field's time per point (fastest of 3 or ``--repeat``) per calculator next to its
declared cost: the data the declared costs come from.

Usage: ``.venv/bin/python bench/sweeps.py [--repeat N] [--only KEY,...] [--calibrate]``.
The last line is ``summary: slowest_key=… sweep_ms=… points=… budget_ratio=…``.
"""

from __future__ import annotations

import argparse
import os
import time

from ruleslab import InputError, IntParam, NumberParam
from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator
from ruleslab.whatif import (
    POINT_COST_MS,
    SWEEP_BUDGET_MS,
    default_sweep,
    max_points,
    sweep,
)


def time_sweep(calc: Calculator, repeat: int) -> tuple[float, int, str]:
    """The default sweep's time (ms, fastest of ``repeat``), its points and its note."""
    field, span = default_sweep(calc)
    best = float("inf")
    points, note = 0, ""
    for _ in range(repeat):
        start = time.perf_counter()
        result = sweep(calc, field, span)
        best = min(best, (time.perf_counter() - start) * 1000)
        points, note = len(result.x), result.note
    return best, points, note


def time_single(calc: Calculator, repeat: int) -> float:
    """One run at the defaults, parsed and computed as the form does (ms, fastest)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        calc.run({p.name: p.parse(p.default) for p in calc.params})
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def calibrate(calc: Calculator, repeat: int) -> tuple[float, str]:
    """The costliest point (ms): each number field swept from the defaults over its
    declared range (11 points, up to 1,000 above its minimum), the sweep's time (fastest
    of ``repeat``) over its points; the highest over the fields, and which field."""
    base = {p.name: p.parse(p.default) for p in calc.params}
    worst, where = 0.0, ""
    for param in calc.params:
        if not isinstance(param, IntParam | NumberParam):
            continue
        high = min(param.maximum, param.minimum + 1000)
        values = [param.minimum + (high - param.minimum) * k / 10 for k in range(11)]
        if isinstance(param, IntParam):
            values = [round(v) for v in values]
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            for value in values:
                try:
                    calc.run({**base, param.name: value})
                except InputError:
                    pass
            best = min(best, (time.perf_counter() - start) * 1000 / len(values))
        if best > worst:
            worst, where = best, param.name
    return worst, where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", default="")
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args(argv)
    calcs = [get(k) for k in args.only.split(",")] if args.only else list(CALCULATORS)
    load_before = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before")
    print(f"budget: {SWEEP_BUDGET_MS} ms per sweep; repeat {args.repeat} (fastest kept)")
    print(
        f"{'calculator':<12} {'field':<14} {'points':>6} {'sweep ms':>9} {'/ budget':>9} "
        f"{'ms/point':>9} {'1 run ms':>9} {'cost ms':>8}"
    )
    slowest: tuple[float, str, int] = (-1.0, "", 0)
    for calc in calcs:
        field, _ = default_sweep(calc)
        took, points, _note = time_sweep(calc, args.repeat)
        single = time_single(calc, max(args.repeat, 3))
        print(
            f"{calc.key:<12} {field:<14} {points:>6} {took:>9.1f} "
            f"{took / SWEEP_BUDGET_MS:>9.3f} {took / points:>9.2f} {single:>9.2f} "
            f"{POINT_COST_MS.get(calc.key, 0):>8}"
        )
        slowest = max(slowest, (took, calc.key, points))
    if args.calibrate:
        print(f"{'calculator':<12} {'ms/point':>15} {'declared':>9} {'cap':>4}  where")
        for calc in calcs:
            worst, where = calibrate(calc, max(args.repeat, 3))
            print(
                f"{calc.key:<12} {worst:>15.1f} {POINT_COST_MS.get(calc.key, 0):>9} "
                f"{max_points(calc):>4}  {where}"
            )
    load_after = os.getloadavg()[0]
    print(f"load average {load_after:.2f} after")
    print(
        f"summary: slowest_key={slowest[1]} sweep_ms={slowest[0]:.1f} points={slowest[2]} "
        f"budget_ratio={slowest[0] / SWEEP_BUDGET_MS:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
