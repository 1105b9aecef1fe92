"""The site benchmark's pure parts: statistics, sizes, Markdown, the summary line, the
counting server and the report (no browser; nothing here is timed)."""

from __future__ import annotations

import gzip
import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bench import site_load
from bench.site_figures import (
    SizeCache,
    gzip_size,
    load_note,
    markdown_table,
    median,
    percentile,
    ratio,
    summary_line,
)

SUMMARY = re.compile(
    r"^summary: app_cold_ratio=(\S+) app_warm_ratio=(\S+) notebook_ratio=(\S+)"
    r" app_gzip_mb=(\S+) redraw_p95_ms=(\S+)$"
)


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert percentile(values, 95) == 19.0  # the worst of 20 is left out
    assert percentile(values, 100) == 20.0
    assert percentile(values, 50) == 10.0
    assert percentile([7.0], 95) == 7.0
    assert percentile(list(reversed(values)), 95) == 19.0
    with pytest.raises(ValueError, match="no values"):
        percentile([], 95)
    with pytest.raises(ValueError, match="not in"):
        percentile([1.0], 0)


def test_median_and_ratio_skip_missing_values():
    assert median([3.0, None, 1.0, 2.0]) == 2.0
    assert median([None, None]) is None
    assert ratio(1.0, 4.0) == 0.25
    assert ratio(None, 4.0) is None
    assert ratio(1.0, None) is None
    assert ratio(1.0, 0.0) is None


def test_gzip_size_is_gzip_level_6(tmp_path):
    data = b"ruleslab " * 5000
    assert gzip_size(data) == len(gzip.compress(data, compresslevel=6, mtime=0))
    assert gzip_size(data) < len(data) / 10
    one, two = tmp_path / "a.txt", tmp_path / "b.bin"
    one.write_bytes(data)
    two.write_bytes(bytes(range(256)) * 4)
    cache = SizeCache()
    raw, gz, br = cache.total([one, two, one])  # a file sent twice counts twice
    assert raw == 2 * len(data) + 1024
    assert gz == 2 * gzip_size(data) + gzip_size(bytes(range(256)) * 4)
    assert (br is None) == (not cache.brotli)


def test_markdown_table_and_load_note():
    table = markdown_table(["a", "b"], [["1", "x|y"]])
    assert table.splitlines() == ["| a | b |", "| --- | --- |", "| 1 | x\\|y |"]
    with pytest.raises(ValueError, match="has 1 cells, not 2"):
        markdown_table(["a", "b"], [["1"]])
    assert load_note(0.2) == "otherwise idle"
    assert "NOT" in load_note(0.5)


def test_summary_line_has_the_issues_form():
    line = summary_line(
        app_cold_ratio=0.234,
        app_warm_ratio=0.18,
        notebook_ratio=0.551,
        app_gzip_mb=9.06,
        redraw_p95_ms=31.2,
    )
    assert line == (
        "summary: app_cold_ratio=0.23 app_warm_ratio=0.18 notebook_ratio=0.55 "
        "app_gzip_mb=9.1 redraw_p95_ms=31"
    )
    missing = summary_line(
        app_cold_ratio=None,
        app_warm_ratio=None,
        notebook_ratio=None,
        app_gzip_mb=None,
        redraw_p95_ms=None,
    )
    assert SUMMARY.match(missing).groups() == ("n/a",) * 5


def test_counting_server_logs_files_and_lets_browsers_cache(tmp_path):
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "sub dir" / "f.js").write_bytes(b"x" * 1234)
    server = site_load.CountingServer(tmp_path).start()
    try:
        mark = server.mark()
        with urllib.request.urlopen(server.base + "sub%20dir/f.js?v=1") as resp:
            assert resp.read() == b"x" * 1234
            assert resp.headers["Cache-Control"] == "public, max-age=3600"
            assert resp.headers["Content-Type"] == "text/javascript"
        served = server.since(mark)
        assert [(s.path, s.nbytes) for s in served] == [(tmp_path / "sub dir" / "f.js", 1234)]
        assert not served[0].precache
        # the offline worker's precache says so in a header: counted apart
        ask = urllib.request.Request(server.base + "sub%20dir/f.js")
        ask.add_header("X-Ruleslab-Precache", "0123abcd")
        with urllib.request.urlopen(ask) as resp:
            resp.read()
        assert [s.precache for s in server.since(mark)] == [False, True]
        # and so are the worker's own scripts
        (tmp_path / "service-worker.js").write_bytes(b"self.x = 1;")
        with urllib.request.urlopen(server.base + "service-worker.js?enableCache=false") as resp:
            resp.read()
        assert [s.precache for s in server.since(mark)] == [False, True, True]
        server.wait_quiet(quiet=0.05, cap=2)
    finally:
        server.stop()


def _pair(cold: float | None, warm: float | None, files: list[site_load.Served]):
    return site_load.Pair(site_load.Load(cold, "page", files), site_load.Load(warm, "page", []))


def _results(site: Path, runs: int, **measured: Any) -> site_load.Results:
    """A dice-pool run of ``runs`` pairs and 4 redraw repeats, the stock peer at ``site`` too."""
    return site_load.Results(
        calculator="dice_pool", runs=runs, repeats=4, site=site, stock=site, **measured
    )


def test_report_ends_with_the_summary_line(tmp_path, monkeypatch):
    monkeypatch.setattr(site_load, "_chromium_version", lambda: "Chromium 1.2.3")
    monkeypatch.setattr(site_load, "_loadavg", lambda: (0.1, 0.2, 0.3))
    blob = tmp_path / "pyodide.asm.wasm"
    blob.write_bytes(bytes(range(256)) * 40)
    sent = [site_load.Served(blob, blob.stat().st_size)]
    results = _results(
        tmp_path,
        3,
        pairs={
            "stock": [_pair(10.0, 8.0, sent), _pair(12.0, 9.0, sent), _pair(11.0, 8.5, sent)],
            "app": [_pair(2.0, 1.5, sent), _pair(2.5, None, sent), _pair(None, 1.7, sent)],
            "notebook": [_pair(6.0, 5.0, sent)] * 3,
        },
        redraws=[
            site_load.Redraw("dice_pool", "dice", ("9", "6"), "p_success", [10.0, 12.0, 30.0]),
            site_load.Redraw("lifting", error="timed out"),
        ],
        loads=((0.1, 0.2, 0.3),) * 3,
        skipped=set(),
    )
    text = site_load.report(results)
    lines = text.splitlines()
    assert "offline support" not in text  # (none was sent, and the site has no manifest)
    assert "otherwise idle" in text
    assert "Chromium 1.2.3" in text
    assert "failed" in text
    assert "lifting" in text
    groups = SUMMARY.match(lines[-1]).groups()
    # app cold: median(2.0, 2.5) / median(10, 12, 11); warm: median(1.5, 1.7) / 8.5
    assert groups[0] == f"{2.25 / 11:.2f}"
    assert groups[1] == f"{1.6 / 8.5:.2f}"
    assert groups[2] == f"{6 / 11:.2f}"
    assert float(groups[3]) == pytest.approx(round(gzip_size(blob.read_bytes()) / 1e6, 1))
    assert groups[4] == "30"  # nearest-rank p95 of three values is the largest


def test_stock_problems_finds_changed_runtime_files_and_compiled_wheels(tmp_path):
    import zipfile

    from bench.site_figures import PYODIDE_RUNTIME, stock_problems

    npm, site = tmp_path / "npm", tmp_path / "site"
    npm.mkdir()
    site.mkdir()
    for name in PYODIDE_RUNTIME:
        (npm / name).write_bytes(name.encode())
        (site / name).write_bytes(name.encode())
    with zipfile.ZipFile(site / "a-1.0-py3-none-any.whl", "w") as whl:
        whl.writestr("a/__init__.py", "x = 1\n")
    assert stock_problems(site, npm) == []

    (site / "python_stdlib.zip").write_bytes(b"compiled")
    (site / "pyodide.js").unlink()
    with zipfile.ZipFile(site / "b-1.0-py3-none-any.whl", "w") as whl:
        whl.writestr("b/__init__.pyc", b"\0")
    problems = stock_problems(site, npm)
    assert any("python_stdlib.zip differs" in p for p in problems)
    assert any("pyodide.js is not served" in p for p in problems)
    assert any(p.startswith("b-1.0-py3-none-any.whl holds 1 .pyc") for p in problems)
    assert len(problems) == 3


def test_the_precache_is_counted_apart_from_the_page(tmp_path, monkeypatch):
    monkeypatch.setattr(site_load, "_chromium_version", lambda: "Chromium 1.2.3")
    monkeypatch.setattr(site_load, "_loadavg", lambda: (0.1, 0.2, 0.3))
    page, extra = tmp_path / "app.js", tmp_path / "lab.js"
    page.write_bytes(random.Random(1).randbytes(400_000))  # (incompressible: gzip ≈ raw)
    extra.write_bytes(random.Random(2).randbytes(300_000))
    (tmp_path / "static" / "offline").mkdir(parents=True)
    manifest = {"files": {"app.js": "sha256-x", "lab.js": "sha256-y"}}
    (tmp_path / "static" / "offline" / "manifest.json").write_text(json.dumps(manifest))
    sent = [site_load.Served(page, 400_000), site_load.Served(extra, 300_000, precache=True)]
    results = _results(
        tmp_path,
        1,
        pairs={"stock": [_pair(10.0, 8.0, [])], "app": [_pair(2.0, 1.5, sent)], "notebook": []},
        redraws=[],
        loads=((0.1, 0.2, 0.3),) * 3,
        skipped={"redraw", "notebook"},
    )
    text = site_load.report(results)
    page_gz, extra_gz = gzip_size(page.read_bytes()), gzip_size(extra.read_bytes())
    # the page's own bytes: the app page's file only
    assert float(SUMMARY.match(text.splitlines()[-1]).groups()[3]) == pytest.approx(
        round(page_gz / 1e6, 1)
    )
    precache = next(line for line in text.splitlines() if "offline support" in line)
    assert f"| 1 | 0.3 MB | {extra_gz / 1e6:.1f} MB |" in precache
    whole = next(line for line in text.splitlines() if "whole offline cache" in line)
    assert f"| 2 | 0.7 MB | {(page_gz + extra_gz) / 1e6:.1f} MB |" in whole
