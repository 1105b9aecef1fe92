"""Benchmark: how soon a page embedding fifty calculators answers its own button.

A frame of the site in a page of the same site runs on the page's own thread: every
embed loading at once left the host page deaf to clicks for seconds (issue 38, 9).
``embed.js`` now loads at most ``AT_ONCE`` frames at a time on the shared Python.

The peer, measured in the same run: the same site with ``embed.js``'s ``AT_ONCE`` set
to 1000 (every embed in view loads at once, as before). For each, in alternation: a
new browser, a host page of another port (the same site) with fifty ``dice_pool``
embeds, all in view (fixed heights, a grid of five columns); while they load, the
host's button is clicked every 100 ms, and each click is timed from the click to the
page's answer (its count, read back). Prints, per variant and run, the median, the
90th percentile and the slowest answer, the time until all fifty are drawn, and the
ratios (ours / the peer) of the medians over the runs; the machine's load with them.

The browser test (``tests/browser/test_shared_runtime.py``, fifty embeds) holds the
bound; the figures go in docs/performance.md.

Run: ``.venv/bin/python bench/host_clicks.py [--site build/site] [--runs 3]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.build_site import make_server  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

EMBEDS = 50
AT_ONCE = "const AT_ONCE = 3;"
NO_SNAPSHOT_JS = (
    "try { localStorage.setItem('ruleslab:snapshot-failed', String(Date.now())); } catch (e) {}"
)
HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fifty</title>
<style>.grid {{ display: grid; grid-template-columns: repeat(5, 1fr); gap: 4px; }}</style>
</head><body><button id="probe" type="button">Count</button> <output id="count">0</output>
<div class="grid">{embeds}</div>
<script>document.getElementById("probe").addEventListener("click", function () {{
  const out = document.getElementById("count");
  out.textContent = String(Number(out.textContent) + 1); }});</script>
<script src="{site}embed.js"></script></body></html>"""


def _serve(root: Path) -> tuple[Any, str]:
    server = make_server(root, host="127.0.0.1", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _peer(site: Path, dest: Path) -> Path:
    """``site`` with every embed in view loading at once (``AT_ONCE`` 1000)."""
    shutil.copytree(site, dest)
    for suffix in (".br", ".gz"):
        (dest / f"embed.js{suffix}").unlink(missing_ok=True)
    script = dest / "embed.js"
    text = script.read_text(encoding="utf-8")
    if text.count(AT_ONCE) != 1:
        raise SystemExit(f"{site / 'embed.js'}: expected {AT_ONCE!r} once")
    script.write_text(text.replace(AT_ONCE, "const AT_ONCE = 1000;"), encoding="utf-8")
    return dest


def one_run(pw: Any, host: str) -> dict[str, float]:
    """One cold browser on the host page: the click answers' figures (s)."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 1500})
        context.add_init_script(NO_SNAPSHOT_JS)
        page = context.new_page()
        start = time.monotonic()
        page.goto(host)
        answers: list[float] = []
        ready = 0
        while ready < EMBEDS and time.monotonic() - start < 600:
            t = time.monotonic()
            page.mouse.click(20, 15)
            ready = page.evaluate(
                "() => document.querySelectorAll('[data-ruleslab-state=ready]').length"
            )
            answers.append(time.monotonic() - t)
            page.wait_for_timeout(100)
        answers.sort()
        return {
            "median": answers[len(answers) // 2],
            "p90": answers[len(answers) * 9 // 10],
            "slowest": answers[-1],
            "drawn": time.monotonic() - start,
            "ready": ready,
        }
    finally:
        browser.close()


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    embeds = "\n".join(
        f'<div data-ruleslab="dice_pool" data-dice="{3 + i % 8}" data-height="120"></div>'
        for i in range(EMBEDS)
    )
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        peer_site = _peer(args.site, Path(tmp) / "peer")
        servers, hosts = [], {}
        for name, site in (("ours", args.site), ("peer", peer_site)):
            server, base = _serve(site)
            folder = Path(tmp) / f"host-{name}"
            folder.mkdir()
            (folder / "index.html").write_text(HOST.format(site=base, embeds=embeds), "utf-8")
            host_server, hosts[name] = _serve(folder)
            servers += [server, host_server]
        results: dict[str, list[dict[str, float]]] = {"ours": [], "peer": []}
        with sync_playwright() as pw:
            for run in range(args.runs):
                for name in ("ours", "peer") if run % 2 == 0 else ("peer", "ours"):
                    figures = one_run(pw, hosts[name])
                    results[name].append(figures)
                    shown = " ".join(f"{k}={v:.2f}" for k, v in figures.items())
                    print(f"run {run + 1} {name}: {shown}", flush=True)
        for server in servers:
            server.shutdown()
    load.append(os.getloadavg()[0])
    med = {n: statistics.median(r["median"] for r in rs) for n, rs in results.items()}
    p90 = {n: statistics.median(r["p90"] for r in rs) for n, rs in results.items()}
    print(
        f"summary: median_ours={med['ours']:.2f} median_peer={med['peer']:.2f} "
        f"median_ratio={med['ours'] / med['peer']:.2f} p90_ours={p90['ours']:.2f} "
        f"p90_peer={p90['peer']:.2f} p90_ratio={p90['ours'] / p90['peer']:.2f} "
        f"load={load[0]:.2f}/{load[1]:.2f}"
    )


if __name__ == "__main__":
    main()
