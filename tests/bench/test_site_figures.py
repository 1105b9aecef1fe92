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
    r"^summary: visible_ratio=(?P<visible>\S+) app_cold_ratio=(?P<app_cold>\S+)"
    r" app_warm_ratio=(?P<app_warm>\S+) second_page_ratio=(?P<second>\S+)"
    r" five_embeds_ratio=(?P<five>\S+) embed_extra_mb=(?P<extra_mb>\S+)"
    r" background_gzip_mb=(?P<background>\S+) notebook_ratio=(?P<notebook>\S+)"
    r" app_gzip_mb=(?P<gzip>\S+) redraw_p95_ms=(?P<redraw>\S+)$"
)
NONE = dict.fromkeys(
    (
        "visible_ratio",
        "app_cold_ratio",
        "app_warm_ratio",
        "second_page_ratio",
        "five_embeds_ratio",
        "embed_extra_mb",
        "background_gzip_mb",
        "notebook_ratio",
        "app_gzip_mb",
        "redraw_p95_ms",
    )
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
        **{
            **NONE,
            "visible_ratio": 0.1234,
            "app_cold_ratio": 0.234,
            "app_warm_ratio": 0.18,
            "second_page_ratio": 0.5,
            "five_embeds_ratio": 1.26,
            "embed_extra_mb": 12.34,
            "background_gzip_mb": 1.234,
            "notebook_ratio": 0.551,
            "app_gzip_mb": 9.06,
            "redraw_p95_ms": 31.2,
        }
    )
    assert line == (
        "summary: visible_ratio=0.12 app_cold_ratio=0.23 app_warm_ratio=0.18 "
        "second_page_ratio=0.50 five_embeds_ratio=1.26 embed_extra_mb=12.3 "
        "background_gzip_mb=1.23 notebook_ratio=0.55 app_gzip_mb=9.1 redraw_p95_ms=31"
    )
    assert SUMMARY.match(summary_line(**NONE)).groups() == ("n/a",) * 10
    with pytest.raises(TypeError, match="exactly"):
        summary_line(app_cold_ratio=0.2)


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


def _app(
    visible: float | None,
    interactive: float | None,
    warm: float | None,
    files: list[site_load.Served],
    background: list[site_load.Served] | None = None,
) -> site_load.Pair:
    """An app-page pair: the cold load's visible and interactive seconds (its live root a
    tenth of a second before), the warm load's interactive seconds."""

    def load(inter: float | None, vis: float | None, sent: list[site_load.Served]):
        seen = None if inter is None else inter - 0.1
        return site_load.Load(seen, "page", sent, visible=vis, interactive=inter)

    cold = load(interactive, visible, files)
    cold.background = background
    return site_load.Pair(cold, load(warm, None if warm is None else warm - 0.2, []))


def _embeds(times: dict[str, float], memory: float) -> site_load.EmbedLoad:
    return site_load.EmbedLoad(dict(times), memory_mb=memory, memory_kind="PSS")


def test_report_ends_with_the_summary_line(tmp_path, monkeypatch):
    monkeypatch.setattr(site_load, "_chromium_version", lambda: "Chromium 1.2.3")
    monkeypatch.setattr(site_load, "_loadavg", lambda: (3.1, 2.2, 1.3))
    blob = tmp_path / "pyodide.asm.wasm"
    blob.write_bytes(bytes(range(256)) * 40)
    later = tmp_path / "lab.js"
    later.write_bytes(random.Random(3).randbytes(50_000))
    sent = [site_load.Served(blob, blob.stat().st_size)]
    behind = [site_load.Served(later, 50_000, precache=True)] * 2
    one = _embeds({"lifting": 4.0}, 500.0)
    five = _embeds(
        {"lifting": 4.2, "dice_pool": 4.6, "jumping": 5.0, "falling": 5.2, "movement": 4.8},
        560.0,
    )
    results = _results(
        tmp_path,
        3,
        pairs={
            "bare": [_pair(10.0, 8.0, sent), _pair(12.0, 9.0, sent), _pair(11.0, 8.5, sent)],
            "stock": [_pair(20.0, 15.0, sent)] * 3,
            "app": [
                _app(1.0, 2.0, 1.5, sent, behind),
                _app(1.2, 2.5, None, sent, behind),
                _app(None, None, 1.7, sent),
            ],
            "notebook": [_pair(6.0, 5.0, sent)] * 3,
        },
        redraws=[
            site_load.Redraw("dice_pool", "dice", ("9", "6"), "p_success", [10.0, 12.0, 30.0]),
            site_load.Redraw("lifting", error="timed out"),
        ],
        loads=((3.1, 2.2, 1.3),) * 3,
        skipped=set(),
        second=[
            site_load.Pair(
                site_load.Load(1.9, interactive=2.0), site_load.Load(3.3, interactive=3.4)
            )
        ],
        second_calculator="lifting",
        embeds=[site_load.EmbedRun((one, one), (five, five))],
        embed_keys=["lifting", "dice_pool", "jumping", "falling", "movement"],
    )
    text = site_load.report(results)
    lines = text.splitlines()
    assert "offline support" not in text  # (none was sent with the page, and no manifest)
    assert "### Background bytes after a first app page" in text
    assert "NOT otherwise idle: 1-min load 3.10" in text
    assert "3.10 / 2.20 / 1.30 before" in text
    assert "Chromium 1.2.3" in text
    assert "failed" in text
    assert "lifting" in text
    got = SUMMARY.match(lines[-1]).groupdict()
    # against bare Pyodide: cold median(10, 12, 11) = 11, warm median(8, 9, 8.5) = 8.5
    assert got["visible"] == f"{1.1 / 11:.2f}"  # median(1.0, 1.2)
    assert got["app_cold"] == f"{2.25 / 11:.2f}"  # median(2.0, 2.5)
    assert got["app_warm"] == f"{1.6 / 8.5:.2f}"  # median(1.5, 1.7)
    assert got["second"] == f"{3.4 / 8.5:.2f}"
    assert got["five"] == "1.30"  # the slowest, 5.2 s, against 4.0 s
    assert got["extra_mb"] == "15.0"  # (560 - 500) MB over 4 more embeds
    assert got["background"] == f"{2 * gzip_size(later.read_bytes()) / 1e6:.2f}"
    assert got["notebook"] == f"{6 / 20:.2f}"  # against stock JupyterLite
    assert float(got["gzip"]) == pytest.approx(round(gzip_size(blob.read_bytes()) / 1e6, 1))
    assert got["redraw"] == "30"  # nearest-rank p95 of three values is the largest
    goals = {
        line.split(" | ")[0].lstrip("| "): line.rstrip(" |").rsplit(" | ", 1)[1]
        for line in lines
        if line.startswith("| ") and ("≤" in line)
    }
    assert goals == {
        "first figure visible, cold / bare Pyodide cold": "PASS",  # 0.10 ≤ 0.15
        "app page interactive, cold / bare Pyodide cold": "PASS",
        "app page interactive, warm / bare Pyodide warm": "PASS",
        "second app page interactive / bare Pyodide warm": "PASS",
        "slowest of five embeds / a single embed, cold": "PASS",  # 1.30 ≤ 1.3: met
        "browser memory per extra embed": "PASS",
        "background bytes after a first app page, gzip": "PASS",
        "notebook cold / stock JupyterLite cold": "PASS",
        "cold app-page download, gzip": "PASS",
        "input → redrawn figure, p95, worst calculator": "PASS",
    }


def test_goals_say_miss_above_the_target_and_na_unmeasured(tmp_path, monkeypatch):
    monkeypatch.setattr(site_load, "_chromium_version", lambda: "Chromium 1.2.3")
    monkeypatch.setattr(site_load, "_loadavg", lambda: (0.1, 0.2, 0.3))
    results = _results(
        tmp_path,
        1,
        pairs={
            "bare": [_pair(2.0, 1.0, [])],
            "stock": [],
            "app": [_app(0.4, 1.3, 0.7, [])],  # 0.20×, 0.65×, 0.70×
            "notebook": [],
        },
        redraws=[],
        loads=((0.1, 0.2, 0.3),) * 3,
        skipped={"redraw", "notebook", "stock", "background", "second", "embeds"},
    )
    text = site_load.report(results)
    rows = {
        line.split(" | ")[0].lstrip("| "): line.rstrip(" |").rsplit(" | ", 1)[1]
        for line in text.splitlines()
        if line.startswith("| ") and "≤" in line
    }
    assert rows["first figure visible, cold / bare Pyodide cold"] == "**MISS**"
    assert rows["app page interactive, cold / bare Pyodide cold"] == "**MISS**"
    assert rows["app page interactive, warm / bare Pyodide warm"] == "**MISS**"
    assert rows["second app page interactive / bare Pyodide warm"] == "n/a"
    assert rows["notebook cold / stock JupyterLite cold"] == "n/a"
    got = SUMMARY.match(text.splitlines()[-1]).groupdict()
    assert (got["visible"], got["app_cold"], got["app_warm"]) == ("0.20", "0.65", "0.70")
    assert got["second"] == got["five"] == got["background"] == got["notebook"] == "n/a"
    assert "stock REPL" not in text


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
        pairs={
            "bare": [_pair(10.0, 8.0, [])],
            "stock": [_pair(10.0, 8.0, [])],
            "app": [_app(1.0, 2.0, 1.5, sent)],
            "notebook": [],
        },
        redraws=[],
        loads=((0.1, 0.2, 0.3),) * 3,
        skipped={"redraw", "notebook"},
    )
    text = site_load.report(results)
    page_gz, extra_gz = gzip_size(page.read_bytes()), gzip_size(extra.read_bytes())
    # the page's own bytes: the app page's file only
    assert float(SUMMARY.match(text.splitlines()[-1])["gzip"]) == pytest.approx(
        round(page_gz / 1e6, 1)
    )
    precache = next(line for line in text.splitlines() if "offline support" in line)
    assert f"| 1 | 0.3 MB | {extra_gz / 1e6:.1f} MB |" in precache
    whole = next(line for line in text.splitlines() if "whole offline cache" in line)
    assert f"| 2 | 0.7 MB | {(page_gz + extra_gz) / 1e6:.1f} MB |" in whole


def test_pick_change_finds_the_figure_a_scripted_change_alters():
    # lifting: capacity is 30 kg × (Strength + Might); the embed recipe's 5 + 2 = 210 kg,
    # Strength 4 makes 180 kg
    lifting = site_load.pick_change(
        "lifting",
        [("strength", "4", "capacity")],
        {"strength": "5", "might": "2", "object_kg": "450"},
    )
    assert (lifting.field, lifting.text, lifting.before) == ("strength", "4", "5")
    assert (lifting.figure, lifting.shown_before, lifting.expected) == (
        "capacity",
        "210 kg",
        "180 kg",
    )
    # dice pool at 8 dice, difficulty 2 (each die succeeds on 7-10: p = 0.4); 9 dice:
    # P(at least 2 successes) = 1 - 0.6^9 - 9 × 0.4 × 0.6^8
    pool = site_load.pick_change(
        "dice_pool",
        [("difficulty", "2", "p_success"), ("dice", "9", "p_success")],  # the first changes nothing
        {"dice": "8", "difficulty": "2"},
    )
    assert (pool.field, pool.figure) == ("dice", "p_success")
    assert pool.expected == f"{100 * (1 - 0.6**9 - 9 * 0.4 * 0.6**8):.2f} %"
    assert pool.args(1000.0) == ["dice_pool", "dice", "p_success", "9", pool.expected, 1000.0]
    with pytest.raises(ValueError, match="no scripted change alters"):
        site_load.pick_change("dice_pool", [("difficulty", "2", "p_success")], {"difficulty": "2"})
    with pytest.raises(ValueError, match="has no input strenght"):
        site_load.pick_change("lifting", [("strength", "4", "capacity")], {"strenght": "5"})


RECIPE = """<script src="https://YOUR-HOST/ruleslab/embed.js" defer></script>

<div data-ruleslab="lifting" data-strength="5"></div>

<div data-ruleslab="dice_pool" data-dice="8" data-theme="dark" data-start="click"></div>
"""


def test_embed_pages_put_five_calculators_from_the_recipe_on_a_page():
    one, five = site_load.embed_pages(RECIPE, "http://127.0.0.1:9/", "https://YOUR-HOST/ruleslab/")
    for page in (one, five):
        assert '<script src="http://127.0.0.1:9/embed.js" defer></script>' in page
        assert "YOUR-HOST" not in page
        assert "data-start" not in page  # every embed starts when in view
    assert site_load.embed_specs(one) == [("lifting", {"strength": "5"})]
    assert site_load.embed_specs(five) == [
        ("lifting", {"strength": "5"}),
        ("dice_pool", {"dice": "8"}),  # data-theme is an option, not an input
        ("falling", {}),  # then calculators at their defaults
        ("movement", {}),
        ("jumping", {}),
    ]
    # the recipe's own calculators are not added twice
    _, again = site_load.embed_pages(RECIPE.replace("dice_pool", "falling"), "x/", "y/")
    assert [k for k, _ in site_load.embed_specs(again)] == [
        "lifting",
        "falling",
        "movement",
        "jumping",
        "health",
    ]


def test_browser_memory_sums_pss_of_the_process_tree():
    rollup = "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:  2048 kB\nPss:   1024 kB\n"
    assert site_load.rollup_kb(rollup) == {"Rss": 2048, "Pss": 1024}
    # 1 the browser; 2, 3 its children; 4 a grandchild; 5 someone else's
    parents = {1: 0, 2: 1, 3: 1, 4: 3, 5: 0}
    assert site_load.descendants([1], parents) == {1, 2, 3, 4}
    assert site_load.descendants([3], parents) == {3, 4}
    both = [{"Rss": 2000, "Pss": 1000}, {"Rss": 3000, "Pss": 500}]
    assert site_load.memory_mb(both) == (1500 * 1024 / 1e6, "PSS")
    # one process without PSS: RSS for all, so the sum is of one kind
    assert site_load.memory_mb([{"Rss": 2000, "Pss": 1000}, {"Rss": 3000}]) == (
        5000 * 1024 / 1e6,
        "RSS",
    )
    assert site_load.memory_mb([]) == (0.0, "RSS")


def test_private_memory_is_pss_but_for_file_backed_pages():
    rollup = "Rss: 900 kB\nPss: 600 kB\nPss_Anon: 300 kB\nPss_File: 200 kB\nPss_Shmem: 100 kB\n"
    one = site_load.rollup_kb(rollup)
    assert one["Pss"] - one["Pss_File"] == 400
    other = {"Pss": 50, "Pss_Anon": 20, "Pss_File": 25, "Pss_Shmem": 5}
    assert site_load.private_mb([one, other]) == (400 + 25) * 1024 / 1e6
    # a kernel without the split: no figure rather than a wrong one
    assert site_load.private_mb([one, {"Pss": 50}]) is None
    assert site_load.private_mb([]) is None


def test_the_bare_peer_serves_npm_pyodide_byte_for_byte(tmp_path):
    npm = tmp_path / "npm"
    npm.mkdir()
    (npm / "pyodide.js").write_bytes(b"globalThis.loadPyodide = 1;")
    with site_load.bare_root(npm) as root:
        server = site_load.CountingServer(root).start()
        try:
            with urllib.request.urlopen(server.base + "pyodide/pyodide.js") as resp:
                assert resp.read() == b"globalThis.loadPyodide = 1;"
            with urllib.request.urlopen(server.base + "index.html") as resp:
                page = resp.read().decode()
        finally:
            server.stop()
    assert '<script src="pyodide/pyodide.js"></script>' in page
    assert "loadPyodide()" in page
    assert site_load.BARE_SELECTOR.lstrip(".") in page
