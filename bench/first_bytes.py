"""What the app page fetches until it is interactive, by file: raw, gzip -6, brotli 11.

A static count over a built site (no browser): the page, its bundle and stylesheet, the
workers' scripts, Pyodide's runtime and WebAssembly, the app lock, the app page's
standard library and every wheel of the lock. ``bench/site_load.py`` measures what a
browser really fetched; this is the quick figure for a change to what is shipped
(docs/site-build.md, "Only what the first calculator needs").

With ``--floor``, also the floor no page on Pyodide can go under: its WebAssembly,
runtime script and module, and the part of the app page's standard library that Pyodide
itself imports to start (traced under Node: ``bench/pyodide_start_modules.mjs``), with
what the app page adds on top of it.

Usage: ``.venv/bin/python bench/first_bytes.py [--floor] [build/site]``
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.build_app import APP_DIR, APP_STDLIB_ZIP, first_visit_files, module_of  # noqa: E402

START_TRACE = ROOT / "bench" / "pyodide_start_modules.mjs"
#: Pyodide's own files every page fetches (the app page's runtime script is its copy).
PYODIDE_FILES = (
    "static/pyodide/pyodide.asm.wasm",
    f"{APP_DIR}/pyodide.asm.mjs",
    "static/pyodide/pyodide.mjs",
)


def sizes(data: bytes) -> tuple[int, int, int]:
    """Raw, gzip -6 and brotli 11 byte counts of ``data``."""
    return len(data), len(gzip.compress(data, 6)), len(brotli.compress(data, quality=11))


def _line(name: str, counts: tuple[int, ...] | list[int]) -> None:
    print(f"{name:66s} " + " ".join(f"{n / 1e6:8.3f}" for n in counts))


def start_stdlib(site: Path) -> bytes:
    """The members of the app page's standard library holding the modules Pyodide imports
    to start, as one stored zip (how the host compresses them)."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node not found: the floor is traced in Pyodide under Node")
    proc = subprocess.run(
        [node, str(START_TRACE), str(site / "static" / "pyodide")],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    modules = set(json.loads(proc.stdout.strip().splitlines()[-1])["modules"])
    out = io.BytesIO()
    with zipfile.ZipFile(site / APP_STDLIB_ZIP) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.infolist():
            if module_of(member.filename) in modules:
                dst.writestr(member, src.read(member), compress_type=zipfile.ZIP_STORED)
    return out.getvalue()


def main(argv: list[str]) -> int:
    floor = "--floor" in argv
    args = [a for a in argv if a != "--floor"]
    site = Path(args[0] if args else ROOT / "build" / "site")
    totals = [0, 0, 0]
    print(f"{'file':66s} {'raw':>8s} {'gzip -6':>8s} {'brotli':>8s}  (MB)")
    for rel in first_visit_files(site):
        counts = sizes((site / rel).read_bytes())
        totals = [t + n for t, n in zip(totals, counts, strict=True)]
        _line(rel, counts)
    _line("total", totals)
    if floor:
        base = [0, 0, 0]
        for data in [*((site / rel).read_bytes() for rel in PYODIDE_FILES), start_stdlib(site)]:
            base = [t + n for t, n in zip(base, sizes(data), strict=True)]
        _line("floor: Pyodide's files + the stdlib modules its own start imports", base)
        _line(
            "the app page on top of that floor", [t - b for t, b in zip(totals, base, strict=True)]
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
