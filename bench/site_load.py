"""Benchmark: how long a GM waits for a calculator, and how many bytes the site sends.

Serves the built site on 127.0.0.1, opens a calculator's app link in Debian's
Chromium and measures, for a cold load (new browser profile, empty cache) and a
warm load (same profile, reloaded):

* time until the page's UI is up (JupyterLite's REPL shell is in the DOM),
* time until the first calculator is drawn (kernel started, widget rendered),
* bytes the server sent (every request: the page's, and the kernel worker's
  Pyodide and wheels, which a page-level network log does not see).

The server here lets the browser cache for an hour, as a static host would
(the development server in ``tools/build_site.py`` forbids caching instead), so
the warm load shows what a returning visitor downloads.

Usage: ``.venv/bin/python bench/site_load.py [--site build/site] [--runs 3]``.
The output is a Markdown table; paste it into README.md's "Performance" section.
No timed assertions live in the tests: this script is where the figures come from.
"""

from __future__ import annotations

import argparse
import http.server
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "engine"), str(ROOT / "widgets")]

from tools.build_site import SiteRequestHandler  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.make_content import app_link  # noqa: E402


class CountingHandler(SiteRequestHandler):
    """The site's handler, counting the bytes of every file sent, cacheable for an hour."""

    sent = 0

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "public, max-age=3600")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def copyfile(self, source, outputfile) -> None:  # type: ignore[override]
        data = source.read()
        CountingHandler.sent += len(data)
        outputfile.write(data)


def one_load(context, url: str, key: str) -> tuple[float, float, int]:
    page = context.new_page()
    before = CountingHandler.sent
    t0 = time.perf_counter()
    page.goto(url)
    page.locator(".jp-CodeConsole, .jp-ConsolePanel").first.wait_for(timeout=120_000)
    t_ui = time.perf_counter() - t0
    page.locator(f".rl-calc-{key}").first.wait_for(timeout=300_000)
    t_calc = time.perf_counter() - t0
    page.wait_for_timeout(500)  # let trailing requests finish for the byte count
    page.close()
    return t_ui, t_calc, CountingHandler.sent - before


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calculator", default="dice_pool")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    from ruleslab_widgets.catalog import get

    handler = partial(CountingHandler, directory=str(args.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    url = base + app_link(get(args.calculator))
    # The peer, in the same run: the same REPL app showing one line of HTML, with
    # no ipywidgets, anywidget or ruleslab imported: what any JupyterLite app costs.
    peer_code = (
        "from IPython.display import HTML, display\n"
        "display(HTML('<div class=\"rl-calc-peer\">ready</div>'))"
    )
    peer_url = (
        base
        + "repl/index.html?"
        + urlencode(
            {
                "kernel": "python",
                "showBanner": "0",
                "hideCodeInput": "1",
                "execute": "1",
                "code": peer_code,
            },
            quote_via=quote,
        )
    )

    runs: dict[str, list[tuple[float, float, int]]] = {
        "cold": [],
        "warm": [],
        "peer cold": [],
        "peer warm": [],
    }
    with sync_playwright() as pw:
        for _ in range(args.runs):
            for prefix, target, key in (("", url, args.calculator), ("peer ", peer_url, "peer")):
                with tempfile.TemporaryDirectory() as profile:
                    context = pw.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS
                    )
                    runs[prefix + "cold"].append(one_load(context, target, key))
                    runs[prefix + "warm"].append(one_load(context, target, key))
                    context.close()
    server.shutdown()

    site_bytes = sum(p.stat().st_size for p in args.site.rglob("*") if p.is_file())

    def row(name: str, runs: list[tuple[float, float, int]]) -> str:
        ui = statistics.median(r[0] for r in runs)
        calc = statistics.median(r[1] for r in runs)
        mb = statistics.median(r[2] for r in runs) / 1e6
        return f"| {name} | {ui:.1f} s | {calc:.1f} s | {mb:.1f} MB |"

    print(
        f"Calculator: {args.calculator}; median of {args.runs} runs; site on disk "
        f"{site_bytes / 1e6:.1f} MB\n"
    )
    print("| load | UI up | calculator drawn | bytes sent by the server |")
    print("| --- | --- | --- | --- |")
    print(row("cold (empty cache)", runs["cold"]))
    print(row("warm (same profile)", runs["warm"]))
    print(row("peer: bare REPL, one HTML line, cold", runs["peer cold"]))
    print(row("peer: bare REPL, one HTML line, warm", runs["peer warm"]))
    ratio = statistics.median(r[1] for r in runs["cold"]) / statistics.median(
        r[1] for r in runs["peer cold"]
    )
    print(f"\nCold time to the calculator / to the bare REPL's output: {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
