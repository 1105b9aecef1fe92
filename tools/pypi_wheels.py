"""Download pure-Python wheels from PyPI for Pyodide, with a local cache.

Pyodide (the browser's CPython) can only install pure wheels
(``py3-none-any``). Both the site build and the in-Pyodide test runner need some
such wheels served from local files; this module is the one place that fetches
them, with ``pip download`` (so PyPI is reached by its normal client, and the
machine's pip configuration applies).

Usage::

    from tools.pypi_wheels import fetch_wheels
    paths = fetch_wheels(["traitlets==5.14.3", "comm==0.2.3"], Path("build/wheels"))
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name, parse_wheel_filename

__all__ = ["fetch_wheels", "find_wheel"]

# Pyodide 314.x runs CPython 3.14; ask pip for wheels an interpreter of that
# version on any platform could install, i.e. pure wheels only.
PYODIDE_PYTHON = "3.14"


def find_wheel(dest: Path, name: str, version: str | None = None) -> Path | None:
    """A wheel for ``name`` (and ``version``, if given) already in ``dest``, or None."""
    want = canonicalize_name(name)
    for path in sorted(dest.glob("*.whl")):
        wname, wversion, _, _ = parse_wheel_filename(path.name)
        if wname == want and (version is None or str(wversion) == version):
            return path
    return None


def fetch_wheels(specs: list[str], dest: Path, *, python: str = PYODIDE_PYTHON) -> list[Path]:
    """Download ``name==version`` pure wheels (no dependencies) into ``dest``.

    Wheels already present are reused, so repeated builds work offline once
    the cache is warm. Returns the wheel paths in the order of ``specs``.
    Raises ``RuntimeError`` naming the requirement if pip cannot get it.
    """
    dest.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for spec in specs:
        name, _, version = spec.partition("==")
        found = find_wheel(dest, name, version or None)
        if found is None:
            cmd = [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--platform",
                "any",
                "--python-version",
                python,
                "--implementation",
                "py",
                "--abi",
                "none",
                "--dest",
                str(dest),
                spec,
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            found = find_wheel(dest, name, version or None)
            if proc.returncode != 0 or found is None:
                raise RuntimeError(
                    f"could not download a pure wheel for {spec!r}:\n{proc.stdout}{proc.stderr}"
                )
        out.append(found)
    return out
