"""Pure helpers for ``bench/site_load.py``: statistics, compressed sizes, Markdown, summary.

Nothing here starts a browser or a server, so ``tests/bench`` can check it quickly.
Sizes are in MB of 10^6 bytes, times in seconds or milliseconds as named.
"""

from __future__ import annotations

import gzip
import math
import statistics
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = [
    "GZIP_LEVEL",
    "IDLE_LOAD",
    "PYODIDE_RUNTIME",
    "SUMMARY_FIELDS",
    "SizeCache",
    "brotli_available",
    "brotli_size",
    "fmt_mb",
    "fmt_ms",
    "fmt_ratio",
    "fmt_s",
    "gzip_size",
    "load_note",
    "markdown_table",
    "median",
    "percentile",
    "ratio",
    "stock_problems",
    "summary_line",
]

#: ``gzip -6``: the level nginx's and most static hosts' on-the-fly gzip is near.
GZIP_LEVEL = 6
#: One-minute load average under which the machine counts as otherwise idle.
IDLE_LOAD = 0.5
#: Pyodide's runtime files, which a stock site serves exactly as npm ships them.
PYODIDE_RUNTIME = (
    "pyodide.asm.wasm",
    "pyodide.asm.mjs",
    "pyodide.mjs",
    "pyodide.js",
    "python_stdlib.zip",
)


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank ``pct`` percentile: the smallest value with ``pct``% of values at or below.

    For 20 values the 95th percentile is the 19th smallest (the worst one is left out).
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 < pct <= 100:
        raise ValueError(f"percentile {pct} is not in (0, 100]")
    ordered = sorted(values)
    rank = math.ceil(pct / 100 * len(ordered))
    return ordered[max(rank, 1) - 1]


def median(values: Iterable[float | None]) -> float | None:
    """Median of the values that are not ``None`` (failed runs); ``None`` if there are none."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``, or ``None`` when either is missing or the denominator is 0."""
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def gzip_size(data: bytes, level: int = GZIP_LEVEL) -> int:
    """Bytes of ``data`` gzip-compressed at ``level`` (header included, fixed mtime)."""
    return len(gzip.compress(data, compresslevel=level, mtime=0))


def brotli_available() -> bool:
    """Whether the ``brotli`` module is importable (it is not a dependency of the project)."""
    try:
        import brotli  # noqa: F401
    except ImportError:
        return False
    return True


def brotli_size(data: bytes) -> int | None:
    """Bytes of ``data`` brotli-compressed at quality 11 (as precompressed files are), or
    ``None`` when the ``brotli`` module is not installed."""
    try:
        import brotli
    except ImportError:
        return None
    return len(brotli.compress(data, quality=11))


class SizeCache:
    """Raw, gzip and brotli sizes of files, each computed once per path."""

    def __init__(self) -> None:
        self._sizes: dict[Path, tuple[int, int, int | None]] = {}
        self.brotli = brotli_available()

    def sizes(self, path: Path) -> tuple[int, int, int | None]:
        """``(raw, gzip, brotli or None)`` bytes of the file at ``path``."""
        if path not in self._sizes:
            data = path.read_bytes()
            self._sizes[path] = (len(data), gzip_size(data), brotli_size(data))
        return self._sizes[path]

    def total(self, paths: Iterable[Path]) -> tuple[int, int, int | None]:
        """Summed ``(raw, gzip, brotli)`` over ``paths``, one term per entry (a file sent
        twice counts twice); brotli is ``None`` if unavailable."""
        raw = gz = br = 0
        have_brotli = True
        for path in paths:
            r, g, b = self.sizes(path)
            raw, gz = raw + r, gz + g
            if b is None:
                have_brotli = False
            else:
                br += b
        return raw, gz, (br if have_brotli and self.brotli else None)


def fmt_s(seconds: float | None) -> str:
    """``2.41 s``, or ``failed``."""
    return "failed" if seconds is None else f"{seconds:.2f} s"


def fmt_ms(ms: float | None) -> str:
    """``12 ms`` (one decimal below 10 ms), or ``n/a``."""
    if ms is None:
        return "n/a"
    return f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"


def fmt_ratio(value: float | None) -> str:
    """``0.23×``, or ``n/a``."""
    return "n/a" if value is None else f"{value:.2f}×"


def fmt_mb(nbytes: float | None) -> str:
    """``9.1 MB`` (10^6 bytes), or ``n/a``."""
    return "n/a" if nbytes is None else f"{nbytes / 1e6:.1f} MB"


def load_note(load1: float) -> str:
    """How to describe the machine from its one-minute load average before the run."""
    if load1 < IDLE_LOAD:
        return "otherwise idle"
    return f"NOT otherwise idle: 1-min load {load1:.2f} ≥ {IDLE_LOAD}"


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A GitHub Markdown table (no trailing newline); ``|`` in cells is escaped."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    body = [line(headers), line(["---"] * len(headers))]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"row {row!r} has {len(row)} cells, not {len(headers)}")
        body.append(line(row))
    return "\n".join(body)


#: The summary line's figures, in order, each with its format.
SUMMARY_FIELDS = (
    ("visible_ratio", ".2f"),
    ("app_cold_ratio", ".2f"),
    ("app_warm_ratio", ".2f"),
    ("second_page_ratio", ".2f"),
    ("five_embeds_ratio", ".2f"),
    ("embed_extra_mb", ".1f"),
    ("background_gzip_mb", ".2f"),
    ("notebook_ratio", ".2f"),
    ("app_gzip_mb", ".1f"),
    ("redraw_p95_ms", ".0f"),
)


def summary_line(**figures: float | None) -> str:
    """The benchmark's last line, for scripts comparing runs: every figure of
    :data:`SUMMARY_FIELDS` by name (each one required), a missing one ``n/a``."""
    names = [name for name, _ in SUMMARY_FIELDS]
    if sorted(figures) != sorted(names):
        raise TypeError(f"summary_line takes exactly {', '.join(names)}; got {sorted(figures)}")

    def num(value: float | None, fmt: str) -> str:
        return "n/a" if value is None else format(value, fmt)

    parts = [f"{name}={num(figures[name], fmt)}" for name, fmt in SUMMARY_FIELDS]
    return "summary: " + " ".join(parts)


def stock_problems(pyodide_dir: Path, npm_pyodide: Path) -> list[str]:
    """Why the Pyodide files in ``pyodide_dir`` are not stock (empty if they are).

    Stock means Pyodide's runtime files byte for byte as in the npm package
    ``npm_pyodide`` and no wheel holding bytecode (PyPI's wheels ship sources only).
    """
    problems = []
    for name in PYODIDE_RUNTIME:
        ours, npm = pyodide_dir / name, npm_pyodide / name
        if not npm.is_file():
            problems.append(f"{npm} is missing: cannot compare {name}")
        elif not ours.is_file():
            problems.append(f"{name} is not served from {pyodide_dir}")
        elif ours.read_bytes() != npm.read_bytes():
            problems.append(f"{name} differs from npm's")
    for wheel in sorted(pyodide_dir.glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            pyc = sum(n.endswith(".pyc") for n in archive.namelist())
        if pyc:
            problems.append(f"{wheel.name} holds {pyc} .pyc files")
    return problems
