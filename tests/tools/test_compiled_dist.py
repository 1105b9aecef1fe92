"""The compiled Pyodide distribution is really used as bytecode, in Pyodide itself.

Builds the site's distribution (:func:`tools.pyodide_dist.build_pyodide_dist`,
bytecode compiled, from the warm caches after a site build) into a temporary
folder, loads it in Pyodide under Node the way the site does (its own stdlib
zip, packages through its lock) and imports the stack the calculators use, with
CPython's two source-compiling hooks wrapped (``check_compiled_dist.mjs``).
Node and ``node_modules/pyodide`` are required: without them this fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import traceback
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tools.pyodide_dist import (
    NODE_PYODIDE,
    REPO,
    build_project_wheel,
    build_pyodide_dist,
    verify_dist,
)

CHECK = Path(__file__).with_name("check_compiled_dist.mjs")
THIRD_PARTY = [
    "ipywidgets",
    "anywidget",
    "psygnal",
    "comm",
    "traitlets",
    "IPython",
    "jedi",
    "parso",
    "pygments",
    "prompt_toolkit",
    "micropip",
]
STDLIB = ["email.message", "asyncio", "decimal", "csv", "json"]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compiled distribution with the project's wheel, as the site serves it."""
    if shutil.which("node") is None or not (NODE_PYODIDE / "pyodide.mjs").is_file():
        pytest.fail("node and node_modules/pyodide are required: install Node.js 20, run `npm ci`")
    tmp = tmp_path_factory.mktemp("compiled")
    wheel = build_project_wheel(tmp / "wheel")
    return build_pyodide_dist(tmp / "pyodide", extra_wheels=[wheel])


@pytest.fixture(scope="module")
def report(dist: Path) -> dict[str, Any]:
    """What ``check_compiled_dist.mjs`` saw inside Pyodide."""
    proc = subprocess.run(
        ["node", str(CHECK), str(dist)], capture_output=True, text=True, timeout=300, cwd=REPO
    )
    assert proc.returncode == 0, f"the check failed in Pyodide:\n{proc.stderr[-4000:]}"
    return json.loads(proc.stdout)


def test_the_served_files_are_compiled_and_the_lock_is_true(dist: Path) -> None:
    lock = verify_dist(dist)  # every sha256 is the served file's
    with zipfile.ZipFile(dist / "python_stdlib.zip") as zf:
        names = zf.namelist()
    assert not [n for n in names if n.endswith(".py")], "the stdlib zip still has sources"
    assert "json/__init__.pyc" in names
    assert "json/decoder.pyc" in names
    for key, spec in lock["packages"].items():
        with zipfile.ZipFile(dist / spec["file_name"]) as zf:
            members = zf.namelist()
        sources = [n for n in members if n.endswith(".py") and ".dist-info/" not in n]
        pycs = [n for n in members if n.endswith(".pyc")]
        assert pycs, f"{key}: no bytecode"
        # each module once, as bytecode: the project's wheel too, without its README or
        # its build-time modules
        assert sources == [], f"{key}: sources left in a sourceless wheel: {sources[:3]}"
        if key == "ruleslab":
            assert "ruleslab/dice.pyc" in pycs
            assert not [n for n in members if "__pycache__" in n or "prerender" in n]
            with zipfile.ZipFile(dist / spec["file_name"]) as zf:
                metadata = zf.read("ruleslab-0.1.0.dist-info/METADATA").decode()
            assert "Description-Content-Type" not in metadata
            assert len(metadata) < 2000


def test_no_module_source_is_compiled_in_pyodide(report: dict[str, Any]) -> None:
    assert report["python"].startswith("3.14.")
    assert report["compiled_sources"] == []


def test_modules_come_from_bytecode(report: dict[str, Any]) -> None:
    modules = report["modules"]
    for name in STDLIB:
        spec = modules[name]
        assert spec["loader"] == "zipimporter", (name, spec)
        assert spec["origin"].startswith("/lib/python314.zip/"), (name, spec)
        assert spec["origin"].endswith(".pyc"), (name, spec)
    # every stdlib module imported from the zip (not the frozen ones) was a .pyc
    assert report["zip_modules"], "nothing was imported from the stdlib zip"
    assert all(path.endswith(".pyc") for path in report["zip_modules"].values())
    for name in THIRD_PARTY:
        spec = modules[name]
        assert spec["loader"] == "SourcelessFileLoader", (name, spec)
        assert spec["origin"].endswith(".pyc"), (name, spec)
    for name in ("ruleslab", "ruleslab.dice", "ruleslab_widgets"):
        spec = modules[name]
        assert spec["loader"] == "SourcelessFileLoader", (name, spec)
        assert spec["origin"].endswith(".pyc"), (name, spec)


def test_a_traceback_in_our_code_names_its_file_and_line(report: dict[str, Any]) -> None:
    """The innermost frame of ``pool_distribution(-1)``, as CPython reports it here: the
    same file and line (the source line is not shown: the wheel holds bytecode only)."""
    import ruleslab.dice

    with pytest.raises(ValueError, match="at least 0") as info:
        ruleslab.dice.pool_distribution(-1)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert Path(frame.filename).name == "dice.py"
    where = (
        f'File "/lib/python3.14/site-packages/ruleslab/dice.py", line {frame.lineno}, '
        f"in {frame.name}"
    )
    lines = [line.strip() for line in report["traceback"].splitlines()]
    assert where in lines, report["traceback"]


def test_jedi_serves_only_the_stubs_it_can_read(dist: Path) -> None:
    """Python 2 stubs, django-stubs and third-party stubs of modules nothing serves are gone."""
    lock = verify_dist(dist)
    with zipfile.ZipFile(dist / lock["packages"]["jedi"]["file_name"]) as zf:
        members = zf.namelist()
    stubs = "jedi/third_party/typeshed/"
    assert f"{stubs}stdlib/3/builtins.pyi" in members
    assert f"{stubs}stdlib/3.9/graphlib.pyi" in members
    assert f"{stubs}LICENSE" in members
    assert not [m for m in members if m.startswith((f"{stubs}stdlib/2/", f"{stubs}third_party/2/"))]
    assert not [m for m in members if m.startswith("jedi/third_party/django-stubs/")]
    third_party = {
        m.split("/")[5].removesuffix(".pyi")
        for m in members
        if m.startswith(f"{stubs}third_party/") and not m.endswith("/")
    }
    # typeshed's third-party stubs (jedi 0.19.2) for what imports in the kernel: the
    # standard library's contextvars and dataclasses, and the served six, decorator and
    # typing_extensions
    assert third_party == {"contextvars", "dataclasses", "six", "decorator", "typing_extensions"}
    assert len(members) < 700  # of 1,880 in jedi's own wheel


def test_jedi_completes_from_the_stubs_it_kept(report: dict[str, Any]) -> None:
    assert report["jedi"] == {
        "str": ["upper"],
        "json": ["dump", "dumps"],
        "graphlib": ["TopologicalSorter"],
        "dataclasses": ["asdict", "astuple"],
        "six": ["moves"],
        "live": ["pool_distribution"],
    }
