"""What the app page fetches until it is interactive, by file: raw, gzip -6, brotli 11.

A static count over a built site (no browser): the page, its bundle and stylesheet, the
workers' scripts, Pyodide's runtime and WebAssembly, the app lock, the app page's
standard library and every wheel of the lock. ``bench/site_load.py`` measures what a
browser really fetched; this is the quick figure for a change to what is shipped
(docs/site-build.md, "Only what the first calculator needs").

Usage: ``.venv/bin/python bench/first_bytes.py [build/site]``
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import brotli  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.build_app import first_visit_files  # noqa: E402


def main(argv: list[str]) -> int:
    site = Path(argv[0] if argv else ROOT / "build" / "site")
    totals = [0, 0, 0]
    print(f"{'file':66s} {'raw':>8s} {'gzip -6':>8s} {'brotli':>8s}  (MB)")
    for rel in first_visit_files(site):
        data = (site / rel).read_bytes()
        sizes = (len(data), len(gzip.compress(data, 6)), len(brotli.compress(data, quality=11)))
        totals = [t + n for t, n in zip(totals, sizes, strict=True)]
        print(f"{rel:66s} " + " ".join(f"{n / 1e6:8.3f}" for n in sizes))
    print(f"{'total':66s} " + " ".join(f"{n / 1e6:8.3f}" for n in totals))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
