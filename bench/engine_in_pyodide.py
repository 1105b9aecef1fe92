"""Benchmark: each calculator's engine work in Pyodide against CPython, in one run.

Every calculator recomputes on each input change, in the browser's Pyodide.
This times each calculator's engine function with its declared defaults (the
figures a GM sees when a calculator opens), first call and best of five, on
CPython here and inside Pyodide under Node (the same runner and wheels as the
in-Pyodide engine tests), and prints the ratio. Caches are cleared between
calls so every call does the full work.

Usage: ``.venv/bin/python bench/engine_in_pyodide.py`` (needs ``npm ci``).
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import textwrap
from pathlib import Path

from ruleslab.calculators import CALCULATORS
from tests.pyodide.prepare import prepare  # the in-Pyodide test layer's wheel folder

ROOT = Path(__file__).resolve().parents[1]

# The timing code, run unchanged on both interpreters.
TIMER = textwrap.dedent(
    """
    import functools, gc, importlib, json, sys, time

    def _clear_caches():
        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith("ruleslab"):
                for obj in list(vars(mod).values()):
                    if isinstance(obj, functools._lru_cache_wrapper):
                        obj.cache_clear()

    def time_all(targets):
        out = {}
        for key, module, name in targets:
            fn = getattr(importlib.import_module(module), name)
            kwargs = {p.name: p.default for p in fn.params}
            times = []
            for _ in range(6):
                _clear_caches()
                gc.collect()
                t0 = time.perf_counter()
                fn(**kwargs)
                times.append(time.perf_counter() - t0)
            out[key] = (times[0], min(times[1:]))
        return out
    """
)


def targets() -> list[tuple[str, str, str]]:
    return [(c.key, c.compute.__module__, c.compute.__name__) for c in CALCULATORS]


def in_cpython() -> dict[str, tuple[float, float]]:
    scope: dict = {}
    exec(TIMER, scope)
    return scope["time_all"](targets())


def in_pyodide() -> dict[str, tuple[float, float]]:
    prepare()
    with tempfile.TemporaryDirectory() as tmp:
        test = Path(tmp) / "test_timing.py"
        test.write_text(
            TIMER
            + textwrap.dedent(
                f"""
                def test_timing():
                    print("TIMINGS " + json.dumps(time_all({targets()!r})))
                """
            ),
            encoding="utf-8",
        )
        proc = subprocess.run(
            [
                "node",
                str(ROOT / "tests" / "pyodide" / "run_engine_tests.mjs"),
                str(test),
                "--",
                "-s",
                "-q",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
    match = re.search(r"^TIMINGS (.*)$", proc.stdout, re.MULTILINE)
    if proc.returncode != 0 or match is None:
        raise SystemExit(f"the Pyodide run failed:\n{proc.stdout}\n{proc.stderr}")
    return {k: tuple(v) for k, v in json.loads(match.group(1)).items()}


def main() -> int:
    cpy = in_cpython()
    pyo = in_pyodide()
    print("Default inputs of each calculator; ms; first call / best of 5 later calls.\n")
    print("| calculator | CPython 3.11 | Pyodide (Node 20) | ratio (best) |")
    print("| --- | --- | --- | --- |")
    for key, _, _ in targets():
        c, p = cpy[key], pyo[key]
        print(
            f"| {key} | {c[0] * 1e3:.1f} / {c[1] * 1e3:.1f} | {p[0] * 1e3:.1f} / {p[1] * 1e3:.1f}"
            f" | {p[1] / c[1]:.1f}× |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
