"""The kernel's wheel unpacker (``lite/wheel-unpack.mjs``) makes the tree Pyodide makes.

``tests/tools/wheel_unpack_check.mjs`` unpacks each wheel twice under Node, with
the built site's Pyodide: by ``unpackWheel`` and by Pyodide's own
``unpack_buffer``, and compares the two trees (paths, bytes, permissions). Every
wheel the site serves (the lock's and the kernel's own) goes the fast way and
gives the same tree; hand-made wheels that it must leave to Pyodide (a ``.data``
folder, a shared library, a member outside the target, two ``.dist-info``
folders, a wrong CRC, a ``.dist-info`` named after another project) are left,
with nothing written. Needs ``RULESLAB_SITE`` (a built site), Node and
``node_modules/pyodide``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.site.conftest import NEEDS_SITE, run_node_check

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "tests" / "tools" / "wheel_unpack_check.mjs"
KERNEL_PYPI = "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"

pytestmark = NEEDS_SITE


def _run(site: Path, wheels: list[Path]) -> dict[str, Any]:
    return run_node_check(CHECK, str(site / "static" / "pyodide"), *map(str, wheels), timeout=300)


def _wheel(
    folder: Path, name: str, members: dict[str, bytes], *, stored: tuple[str, ...] = ()
) -> Path:
    """A wheel ``name``-1.0 with ``members`` (deflated, except those in ``stored``) and
    its ``.dist-info`` (unless a member already names one)."""
    path = folder / f"{name}-1.0-py3-none-any.whl"
    files = dict(members)
    if not any(".dist-info/" in member for member in files):
        files[f"{name}-1.0.dist-info/METADATA"] = f"Name: {name}\nVersion: 1.0\n".encode()
        files[f"{name}-1.0.dist-info/RECORD"] = b""
    with zipfile.ZipFile(path, "w") as zf:
        for member, data in files.items():
            kind = zipfile.ZIP_STORED if member in stored else zipfile.ZIP_DEFLATED
            zf.writestr(member, data, compress_type=kind)
    return path


def test_every_served_wheel_unpacks_the_fast_way_to_pyodides_tree(site: Path) -> None:
    wheels = sorted((site / "static" / "pyodide").glob("*.whl"))
    wheels += sorted((site / KERNEL_PYPI).glob("*.whl"))
    assert len(wheels) > 20
    report = _run(site, wheels)
    for entry in report["wheels"]:
        assert entry["taken"] is True, entry
        assert entry["pyodide"] == "unpacked", entry
        assert entry["differences"] == [], entry
    jedi = next(e for e in report["wheels"] if e["wheel"].startswith("jedi-"))
    assert jedi["entries"] > 600  # (files and folders: the comparison saw them all)
    # through the installed unpack_buffer, as loadPackage calls it: no shared libraries
    assert report["installed"] == {"dynlibs": 0, "wrapped": True, "differences": []}


def test_stored_members_folders_and_utf8_names_unpack_alike(site: Path, tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path,
        "plain",
        {
            "plain/__init__.py": b"X = 1\n" * 50,
            "plain/data/": b"",
            "plain/data/table.txt": b"stored as is\n",
            "plain/d\u00e9j\u00e0.txt": "d\u00e9j\u00e0 vu\n".encode(),
            "plain/empty.txt": b"",
        },
        stored=("plain/data/table.txt",),
    )
    (entry,) = _run(site, [wheel])["wheels"]
    assert entry["taken"] is True
    assert entry["differences"] == []


@pytest.mark.parametrize(
    ("name", "members", "pyodide"),
    [
        ("withdata", {"withdata-1.0.data/purelib/extra.py": b"X = 1\n"}, "unpacked"),
        ("native", {"native/_speedups.cpython-314-wasm32-emscripten.so": b"\0asm"}, "unpacked"),
        ("escape", {"../escaped.py": b"X = 1\n", "escape/__init__.py": b""}, "unpacked"),
        (
            "twice",
            {
                "twice-1.0.dist-info/METADATA": b"Name: twice\n",
                "twice-2.0.dist-info/METADATA": b"Name: twice\n",
            },
            "unpacked",  # (Pyodide writes its metadata into one of them)
        ),
        ("misnamed", {"other-1.0.dist-info/METADATA": b"Name: other\n"}, "error"),
    ],
)
def test_wheels_it_does_not_handle_are_left_to_pyodide(
    site: Path, tmp_path: Path, name: str, members: dict[str, bytes], pyodide: str
) -> None:
    (entry,) = _run(site, [_wheel(tmp_path, name, members)])["wheels"]
    assert entry["taken"] is False
    assert entry["nothing_written"] is True
    assert entry["pyodide"].startswith(pyodide), entry


def test_a_member_with_a_wrong_crc_is_left_to_pyodide(site: Path, tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path, "broken", {"broken/__init__.py": b"X = 1\n"}, stored=("broken/__init__.py",)
    )
    data = bytearray(wheel.read_bytes())
    at = data.index(b"X = 1\n")
    data[at] = ord("Y")  # the stored bytes no longer match their CRC-32
    wheel.write_bytes(bytes(data))
    (entry,) = _run(site, [wheel])["wheels"]
    assert entry["taken"] is False
    assert entry["nothing_written"] is True
    assert entry["pyodide"].startswith("error"), entry  # zipfile: Bad CRC-32
