"""tools.bytecode: archives rewritten with Pyodide-compiled bytecode, RECORD kept true.

One Node run compiles a small synthetic wheel and stdlib zip; a second
compiler pointed at a Node that does not exist then proves that a warm cache
needs no Node at all. Expected values come from the wheel and pyc formats
(PEP 427's RECORD, PEP 552's header) and from CPython's own ``importlib``.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import shutil
import struct
import sys
import zipfile
from pathlib import Path

import pytest

from tools.bytecode import (
    ArchiveJob,
    BytecodeCompiler,
    Kind,
    PyodideLayout,
    Source,
    _pycache_name,
    compile_archives,
    jedi_stub_served,
    stdlib_top_level,
)
from tools.pyodide_dist import NODE_PYODIDE

WHEEL_FILES = {
    "demo/__init__.py": b"from .core import answer\n",
    "demo/core.py": b'"""Core."""\n\ndef answer():\n    return 42\n',
    "demo/broken.py": b"def nope(:\n",  # a SyntaxError: must stay a source
    "demo/data.txt": b"not python\n",
    # not served in a third-party (sourceless) wheel: tests, front-end bundles, .data
    "demo/tests/test_core.py": b"def test_answer():\n    assert True\n",
    "demo/labextension/static/main.js": b"export default {};\n",
    "demo/nbextension/index.js": b"define([], () => ({}));\n",
    "demo-1.0.data/data/share/jupyter/labextensions/demo/package.json": b"{}\n",
    "demo-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
    "demo-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}


def _make_wheel(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        record = io.StringIO()
        for name, data in WHEEL_FILES.items():
            zf.writestr(name, data)
            record.write(f"{name},,\n")
        zf.writestr(
            "demo-1.0.dist-info/RECORD", record.getvalue() + "demo-1.0.dist-info/RECORD,,\n"
        )
    return path


def _make_stdlib(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("json/__init__.py", b"X = 1\n")
        zf.writestr("json/data.typed", b"")
        zf.writestr("top.py", b"import json\n")
    return path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _assert_unchecked_hash_pyc(data: bytes) -> None:
    """PEP 552: magic (…\\r\\n), flags 0b01 (hash-based, not checked), 8-byte hash."""
    assert data[2:4] == b"\r\n"
    assert struct.unpack("<I", data[4:8])[0] == 0b01
    assert len(data) > 16


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    if shutil.which("node") is None or not (NODE_PYODIDE / "pyodide.mjs").is_file():
        pytest.fail("node and node_modules/pyodide are required: install Node.js 20, run `npm ci`")
    tmp = tmp_path_factory.mktemp("bytecode")
    wheel = _make_wheel(tmp / "demo-1.0-py3-none-any.whl")
    stdlib = _make_stdlib(tmp / "python_stdlib.zip")
    jobs = [
        ArchiveJob(wheel, tmp / "sourceless" / wheel.name, Kind.WHEEL_SOURCELESS),
        ArchiveJob(wheel, tmp / "with-sources" / wheel.name, Kind.WHEEL_WITH_SOURCES),
        ArchiveJob(stdlib, tmp / "stdlib" / stdlib.name, Kind.STDLIB),
    ]
    logs: list[str] = []
    compiler = BytecodeCompiler(cache_dir=tmp / "cache", log=logs.append)
    reports = compile_archives(jobs, compiler)
    return {"tmp": tmp, "jobs": jobs, "reports": reports, "logs": logs, "stats": compiler.stats}


def test_sourceless_wheel(compiled) -> None:
    job = compiled["jobs"][0]
    members = _members(job.dest)
    assert "demo/core.pyc" in members
    assert "demo/core.py" not in members
    assert "demo/__init__.pyc" in members
    assert "demo/__init__.py" not in members
    assert members["demo/broken.py"] == WHEEL_FILES["demo/broken.py"]  # kept as source
    assert members["demo/data.txt"] == WHEEL_FILES["demo/data.txt"]
    _assert_unchecked_hash_pyc(members["demo/core.pyc"])
    for unserved in ("demo/tests/", "demo/labextension/", "demo/nbextension/", "demo-1.0.data/"):
        assert not [n for n in members if n.startswith(unserved)], unserved
    report = compiled["reports"][0]
    assert (report.compiled, report.kept_as_source) == (2, 1)
    assert any("demo/broken.py" in line and "SyntaxError" in line for line in compiled["logs"])


def test_wheel_with_sources_gets_pycache(compiled) -> None:
    members = _members(compiled["jobs"][1].dest)
    expected = importlib.util.cache_from_source("demo/core.py").replace(
        sys.implementation.cache_tag, "cpython-314"
    )
    assert expected == "demo/__pycache__/core.cpython-314.pyc"
    assert members["demo/core.py"] == WHEEL_FILES["demo/core.py"]
    _assert_unchecked_hash_pyc(members[expected])
    assert "demo/__pycache__/__init__.cpython-314.pyc" in members
    assert not any(n.startswith("demo/__pycache__/broken") for n in members)


@pytest.mark.parametrize("index", [0, 1])
def test_record_lists_every_file_with_its_hash(compiled, index: int) -> None:
    members = _members(compiled["jobs"][index].dest)
    rows = list(csv.reader(io.StringIO(members["demo-1.0.dist-info/RECORD"].decode())))
    listed = {row[0]: row for row in rows}
    assert len(listed) == len(rows) == len(members)
    assert listed["demo-1.0.dist-info/RECORD"][1:] == ["", ""]
    for name, data in members.items():
        if name.endswith("RECORD"):
            continue
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert listed[name][1:] == [f"sha256={digest}", str(len(data))], name


def test_stdlib_zip_is_sourceless(compiled) -> None:
    members = _members(compiled["jobs"][2].dest)
    assert set(members) == {"json/__init__.pyc", "json/data.typed", "top.pyc"}
    _assert_unchecked_hash_pyc(members["top.pyc"])


def test_the_code_names_where_pyodide_finds_the_source(compiled) -> None:
    """co_filename is stored as a marshalled string inside the pyc."""
    stdlib = _members(compiled["jobs"][2].dest)["json/__init__.pyc"]
    wheel = _members(compiled["jobs"][0].dest)["demo/core.pyc"]
    assert b"/lib/python314.zip/json/__init__.py" in stdlib
    assert b"/lib/python3.14/site-packages/demo/core.py" in wheel


def test_a_warm_cache_needs_no_node(compiled) -> None:
    tmp: Path = compiled["tmp"]
    jobs = [
        ArchiveJob(job.src, tmp / "again" / job.kind.value / job.src.name, job.kind)
        for job in compiled["jobs"]
    ]
    offline = BytecodeCompiler(
        cache_dir=tmp / "cache", node=str(tmp / "no-node"), log=lambda m: None
    )
    compile_archives(jobs, offline)
    assert offline.stats["cached"] == offline.stats["sources"]
    for old, new in zip(compiled["jobs"], jobs, strict=True):
        assert new.dest.read_bytes() == old.dest.read_bytes()


def test_cache_keys_follow_source_and_filename() -> None:
    a = Source(b"x = 1\n", "/lib/a.py")
    assert a.cache_key() == Source(b"x = 1\n", "/lib/a.py").cache_key()
    assert a.cache_key() != Source(b"x = 2\n", "/lib/a.py").cache_key()
    assert a.cache_key() != Source(b"x = 1\n", "/lib/b.py").cache_key()


def test_layout_of_the_pinned_pyodide() -> None:
    layout = PyodideLayout.from_node_pyodide(NODE_PYODIDE)
    assert layout.python.startswith("3.14.")
    assert layout.cache_tag == "cpython-314"
    assert layout.stdlib_zip == "/lib/python314.zip"
    assert layout.site_packages == "/lib/python3.14/site-packages"
    assert _pycache_name("top.py", "cpython-314") == "__pycache__/top.cpython-314.pyc"


IMPORTABLE = frozenset({"json", "dataclasses", "six", "typing_extensions"})


@pytest.mark.parametrize(
    ("member", "served"),
    [
        ("jedi/__init__.py", True),
        ("jedi/inference/gradual/typeshed.py", True),
        ("jedi/third_party/typeshed/LICENSE", True),
        ("jedi/third_party/typeshed/stdlib/3/builtins.pyi", True),
        ("jedi/third_party/typeshed/stdlib/2and3/math.pyi", True),
        ("jedi/third_party/typeshed/stdlib/3/json/__init__.pyi", True),
        ("jedi/third_party/typeshed/stdlib/3.9/graphlib.pyi", True),
        # Python 2's folders: jedi on Python 3 never lists them
        ("jedi/third_party/typeshed/stdlib/2/string.pyi", False),
        ("jedi/third_party/typeshed/third_party/2/six/__init__.pyi", False),
        # third-party stubs: only for a module that imports
        ("jedi/third_party/typeshed/third_party/3/six/moves/__init__.pyi", True),
        ("jedi/third_party/typeshed/third_party/3/dataclasses.pyi", True),
        ("jedi/third_party/typeshed/third_party/2and3/typing_extensions.pyi", True),
        ("jedi/third_party/typeshed/third_party/2and3/requests/api.pyi", False),
        ("jedi/third_party/typeshed/third_party/2and3/toml.pyi", False),
        # django-stubs: only with a django to import
        ("jedi/third_party/django-stubs/django-stubs/__init__.pyi", False),
        ("jedi/third_party/django-stubs/LICENSE.txt", False),
    ],
)
def test_jedi_keeps_the_stubs_it_can_read(member: str, served: bool) -> None:
    assert jedi_stub_served(member, IMPORTABLE) is served


def test_jedi_keeps_django_stubs_when_django_imports() -> None:
    member = "jedi/third_party/django-stubs/django-stubs/__init__.pyi"
    assert jedi_stub_served(member, IMPORTABLE | {"django"})


def test_stdlib_top_level_names_modules_and_packages(tmp_path: Path) -> None:
    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w") as zf:
        zf.writestr("json/__init__.pyc", b"")
        zf.writestr("json/decoder.pyc", b"")
        zf.writestr("dataclasses.pyc", b"")
        zf.writestr("contextvars.py", b"")
        zf.writestr("LICENSE.txt", b"")
    assert stdlib_top_level(stdlib) == {"json", "dataclasses", "contextvars"}
