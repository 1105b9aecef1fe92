"""Prepare the files the in-Pyodide engine tests run on, all local and compiled.

The runner (``run_engine_tests.mjs``) installs nothing from the network: it
takes every wheel, and the standard library zip, from one folder,
``build/pyodide-tests/wheels/``. This module fills that folder with the same
kind of files the site serves, compiled to bytecode by the pinned Pyodide
(:mod:`tools.bytecode`, as :func:`tools.pyodide_dist.build_pyodide_dist` does):

* ``python_stdlib.zip``: Pyodide's standard library, sourceless (``.pyc``);
* the project's own wheel (``ruleslab`` and ``ruleslab_widgets``), rebuilt on
  every call so the tests see the current code, its sources kept and
  ``__pycache__/*.cpython-314.pyc`` added;
* wheels of ``micropip`` (the installer used inside Pyodide), ``pytest``
  and pytest's runtime dependencies on Python 3.14, each at the version that
  Pyodide's own lock file (``node_modules/pyodide/pyodide-lock.json``) pins,
  fetched once into the shared ``build/wheel-cache/`` with
  :func:`tools.pypi_wheels.fetch_wheels`, and served sourceless.

Compiled outputs are cached (``build/pyc-cache/``), so only the project's
changed modules are compiled again on a later call (by one Node process).

Run it alone with ``python tests/pyodide/prepare.py``; it prints the folder.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from tools.bytecode import ArchiveJob, BytecodeCompiler, Kind, compile_archives
from tools.pyodide_dist import DEFAULT_WHEEL_CACHE, STDLIB_ZIP
from tools.pyodide_dist import build_project_wheel as build_wheel
from tools.pypi_wheels import fetch_wheels

REPO = Path(__file__).resolve().parents[2]

__all__ = [
    "LOCK_FILE",
    "PYODIDE_DIR",
    "STDLIB_ZIP",
    "TEST_REQUIREMENTS",
    "WHEEL_DIR",
    "build_project_wheel",
    "locked_specs",
    "prepare",
]

PYODIDE_DIR = REPO / "node_modules" / "pyodide"
LOCK_FILE = PYODIDE_DIR / "pyodide-lock.json"
WHEEL_DIR = REPO / "build" / "pyodide-tests" / "wheels"

# What pytest 9 needs at run time on Python 3.14 (its metadata's
# ``Requires-Dist`` minus the markers that are false there: colorama is for
# Windows, exceptiongroup and tomli for Python < 3.11). Pyodide's lock lists
# more ``depends`` for pytest (py, atomicwrites, attrs, more-itertools, six,
# setuptools, exceptiongroup): leftovers from old pytest versions that the run
# does not need. micropip installs the others inside Pyodide.
TEST_REQUIREMENTS = ["micropip", "pytest", "pluggy", "iniconfig", "packaging", "pygments"]


def locked_specs(names: list[str], lock_file: Path = LOCK_FILE) -> list[str]:
    """``name==version`` for each of ``names``, at the version Pyodide's lock pins."""
    packages = json.loads(lock_file.read_text(encoding="utf-8"))["packages"]
    specs = []
    for name in names:
        if name not in packages:
            raise RuntimeError(f"{name!r} is not in Pyodide's lock file {lock_file}")
        specs.append(f"{name}=={packages[name]['version']}")
    return specs


def build_project_wheel(dest: Path, repo: Path = REPO) -> Path:
    """Build the project's wheel into ``dest``, replacing any older one; return it.

    The build itself is the site's (:func:`tools.pyodide_dist.build_project_wheel`:
    a staged copy of the sources, no network when hatchling is installed); this
    only puts the result in place atomically. The wheel is not compiled here.
    """
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ruleslab-wheel-") as tmp:
        built = build_wheel(Path(tmp) / "out", project=repo)
        # Copy under a name the runner does not pick up, then rename: a runner
        # started meanwhile sees the old wheel or the new one, never half of one.
        final = dest / built.name
        partial = dest / f".{final.name}.partial"
        shutil.copy2(built, partial)
        partial.replace(final)
    for old in dest.glob("ruleslab-*.whl"):
        if old != final:
            old.unlink(missing_ok=True)
    return final


def prepare(dest: Path = WHEEL_DIR, *, wheel_cache: Path = DEFAULT_WHEEL_CACHE) -> list[Path]:
    """Fill ``dest`` with every file the runner uses; return the wheels' paths.

    The project's wheel comes first, then the test tools in the order of
    :data:`TEST_REQUIREMENTS` (micropip first: the runner installs it by hand).
    Every wheel and ``dest/python_stdlib.zip`` are written compiled (each file
    replaced atomically: a runner started meanwhile sees an old file or a new
    one). Downloaded wheels are kept in ``wheel_cache``, so only the first call
    needs PyPI; any other wheel in ``dest`` is removed.
    """
    if not LOCK_FILE.is_file():
        raise RuntimeError(f"{LOCK_FILE} is missing: run `npm ci` in {REPO}")
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ruleslab-wheel-") as tmp:
        project_src = build_project_wheel(Path(tmp))
        tools = fetch_wheels(locked_specs(TEST_REQUIREMENTS), wheel_cache)
        jobs = [
            ArchiveJob(PYODIDE_DIR / STDLIB_ZIP, dest / STDLIB_ZIP, Kind.STDLIB),
            ArchiveJob(project_src, dest / project_src.name, Kind.WHEEL_WITH_SOURCES),
            *(ArchiveJob(w, dest / w.name, Kind.WHEEL_SOURCELESS) for w in tools),
        ]
        compile_archives(jobs, BytecodeCompiler(PYODIDE_DIR))
    wheels = [job.dest for job in jobs[1:]]
    # The runner installs every wheel in the folder: drop those no longer
    # wanted (older pins, after an update of Pyodide), so no two versions of
    # one package are ever installed together.
    for stale in set(dest.glob("*.whl")) - set(wheels):
        stale.unlink(missing_ok=True)
    return wheels


def main() -> int:
    """CLI: prepare the default folder and print it with its wheels."""
    wheels = prepare()
    print(WHEEL_DIR)
    for wheel in wheels:
        print(f"  {wheel.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
