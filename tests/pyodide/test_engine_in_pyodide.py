"""The engine's tests, run inside Pyodide under Node, as part of the normal pytest run.

``ruleslab`` must run unchanged in CPython and in Pyodide. These tests build the
project's wheel, gather the test tools' wheels and compile them and the standard
library to bytecode as the site does (``prepare.py``), then run
``tests/engine`` inside Pyodide on those files with ``run_engine_tests.mjs``
and check that it passed. They also check the runner itself: a failing test, or no test at all,
must make it exit non-zero, or a green result here would mean nothing.

Node and the npm ``pyodide`` package are required, not optional: without them
these tests fail and say how to install them (``npm ci``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _load_prepare():
    """``prepare.py`` beside this file, imported under a name no other test folder uses."""
    path = Path(__file__).resolve().parent / "prepare.py"
    spec = importlib.util.spec_from_file_location("ruleslab_pyodide_prepare", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_prepare = _load_prepare()
PYODIDE_DIR, REPO, WHEEL_DIR, prepare = (
    _prepare.PYODIDE_DIR,
    _prepare.REPO,
    _prepare.WHEEL_DIR,
    _prepare.prepare,
)

RUNNER = REPO / "tests" / "pyodide" / "run_engine_tests.mjs"
ENGINE_TESTS = REPO / "tests" / "engine"
TIMEOUT = 180  # seconds for one runner process; a normal run takes about 10

# pytest's closing line, e.g. "72 passed, 45 skipped in 2.13s" (with -q).
SUMMARY = re.compile(r"^(?:=+ )?(?P<counts>(?:\d+ \w+(?:, )?)+) in [\d.]+s")


def _node() -> str:
    """The ``node`` executable; fail (never skip) when Node or Pyodide is missing."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("`node` is not on PATH: install Node.js 20, then run `npm ci` in the repo")
    if not (PYODIDE_DIR / "pyodide.mjs").is_file():
        pytest.fail(f"{PYODIDE_DIR} is missing: run `npm ci` in {REPO}")
    return node


@pytest.fixture(scope="module")
def wheels() -> list[Path]:
    """The wheels the runner installs, built and fetched once for this module."""
    _node()
    return prepare(WHEEL_DIR)


def _start(node: str, *args: str) -> subprocess.Popen[str]:
    """Start the runner with ``args``; its stdout and stderr go to one pipe."""
    env = {**os.environ, "RULESLAB_PYODIDE_WHEELS": str(WHEEL_DIR)}
    return subprocess.Popen(
        [node, str(RUNNER), *args],
        cwd=REPO,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for a runner process; its exit code and its whole output."""
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"the Pyodide runner took over {TIMEOUT} s:\n{out}")
    return proc.returncode, out


def _counts(output: str) -> dict[str, int]:
    """The counts of pytest's last summary line in ``output``: {"passed": 3, ...}."""
    lines = [m for line in output.splitlines() if (m := SUMMARY.match(line.strip()))]
    if not lines:
        return {}
    pairs = (part.split(" ", 1) for part in lines[-1]["counts"].split(", "))
    return {word: int(n) for n, word in pairs}


def test_engine_tests_pass_in_pyodide(wheels: list[Path]) -> None:
    """Every engine test passes (or is skipped) inside Pyodide, and some ran."""
    assert any(ENGINE_TESTS.glob("test_*.py")), f"no test files in {ENGINE_TESTS}"
    code, out = _finish(_start(_node()))
    assert code == 0, f"engine tests failed in Pyodide (exit code {code}):\n{out}"
    counts = _counts(out)
    assert counts.get("passed", 0) > 0, f"no engine test passed in Pyodide:\n{out}"
    assert not {"failed", "error", "errors"} & counts.keys(), out


def test_runner_exit_code_follows_the_tests(wheels: list[Path], tmp_path: Path) -> None:
    """The runner fails for a failing test or for no test, and passes otherwise.

    The three runs go in parallel to keep this check short.
    """
    cases = {
        "passing": "def test_ok():\n    assert 1 + 1 == 2\n",
        "failing": "def test_ok():\n    pass\n\ndef test_bad():\n    assert 1 + 1 == 3\n",
        "empty": None,
    }
    procs = {}
    for name, source in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        if source is not None:
            (folder / f"test_{name}.py").write_text(source, encoding="utf-8")
        procs[name] = _start(_node(), str(folder))
    results = {name: _finish(proc) for name, proc in procs.items()}

    code, out = results["passing"]
    assert code == 0, f"a passing test did not pass in Pyodide (exit code {code}):\n{out}"
    assert _counts(out) == {"passed": 1}, out

    code, out = results["failing"]
    assert code == 1, f"a failing test did not make the runner exit 1 (got {code}):\n{out}"
    assert _counts(out) == {"failed": 1, "passed": 1}, out
    assert "assert (1 + 1) == 3" in out, out

    code, out = results["empty"]
    assert code == 5, f"no tests collected did not make the runner exit 5 (got {code}):\n{out}"
