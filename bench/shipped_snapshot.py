"""Benchmark: what a snapshot shipped with the site would make of the first visit.

The app page restores a snapshot of the warmed interpreter once the browser keeps one
(``docs/app-page.md``, "A snapshot of the warmed interpreter"): the first visit makes
it, later visits start from it. Shipping it with the site would give the first visit
the same start, at the cost of its bytes. This measures both sides before anyone
builds it, alternating, each in a new browser profile:

1. **bare Pyodide, cold**: the peer of ``site_load.py`` (npm's Pyodide files,
   ``loadPyodide()`` and one line of Python), until the line's output is shown;
2. **app page, cold**: ``app.html?calculator=<key>`` until a changed input has
   changed a figure (``site_load.app_load``: the same init scripts and change);
3. **app page, cold, snapshot kept**: the same in a new profile whose Cache Storage
   holds this build's snapshot (taken from the first run's profile, byte for byte as
   the page kept it) and nothing else: no HTTP cache, no compiled code, no offline
   copy. What a shipped snapshot would give, but for fetching it: the snapshot is
   put in place before the visit, and its bytes are reported beside the files the
   visit fetched (gzip, as ``site_load.py`` counts them).

Prints the medians, each against bare Pyodide cold, the bytes, and the machine's
load. Run: ``.venv/bin/python bench/shipped_snapshot.py [--site build/site] [--runs 3]``
"""

from __future__ import annotations

import argparse
import base64
import gzip
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import site_load  # noqa: E402
from bench.site_figures import SizeCache, gzip_size, median, ratio  # noqa: E402

#: This build's snapshot as the page keeps it (``app/python.mjs``: one entry of the
#: ``ruleslab-snapshot`` cache, gzipped): ``[url, base64 of its bytes]``.
READ_SNAPSHOT_JS = """async () => {
  const cache = await caches.open("ruleslab-snapshot");
  const [request] = await cache.keys();
  if (!request) return null;
  const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 32768) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
  }
  return [request.url, btoa(text)];
}"""

#: Keep ``[url, base64]`` (:data:`READ_SNAPSHOT_JS`) in this profile's Cache Storage.
PUT_SNAPSHOT_JS = """async ([url, encoded]) => {
  const text = atob(encoded);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const cache = await caches.open("ruleslab-snapshot");
  const headers = { "content-type": "application/octet-stream" };
  await cache.put(url, new Response(bytes, { headers }));
  return bytes.length;
}"""

#: A file of the site the snapshot is put in place from: a script shown as text, so no
#: script of ours runs (the offline worker is not installed, nothing else is kept).
NEUTRAL_PAGE = "embed.js"


@dataclass(frozen=True)
class Snapshot:
    """The snapshot as kept: its URL (the cache's key) and its bytes (gzip)."""

    url: str
    packed: bytes

    @classmethod
    def from_page(cls, value: Any) -> Snapshot:
        """From :data:`READ_SNAPSHOT_JS`'s result."""
        if not (isinstance(value, list) and len(value) == 2):
            raise RuntimeError("the first visit kept no snapshot")
        url, encoded = value
        return cls(str(url), base64.b64decode(encoded))

    def for_page(self) -> list[str]:
        """The argument of :data:`PUT_SNAPSHOT_JS`."""
        return [self.url, base64.b64encode(self.packed).decode("ascii")]

    def sizes(self) -> tuple[int, int]:
        """(raw, gzip -9) bytes of the memory it holds."""
        raw = gzip.decompress(self.packed)
        return len(raw), gzip_size(raw, level=9)


def report(
    times: dict[str, list[float | None]],
    fetched_gzip: dict[str, float],
    snapshot: tuple[int, int, int],
    load: tuple[float, float, float],
) -> str:
    """The printed report: ``times`` (seconds per run, by ``bare``, ``cold``, ``kept``),
    ``fetched_gzip`` (MB gzip of the files the page fetched in the last run, by
    ``cold``, ``kept``), ``snapshot`` (raw, as kept, gzip -9 bytes) and the load before."""
    bare = median(times["bare"])
    names = {
        "bare": "bare Pyodide, cold",
        "cold": "app page interactive, cold",
        "kept": "app page interactive, cold, snapshot kept",
    }
    lines = [
        "## A shipped snapshot (`bench/shipped_snapshot.py`)",
        "",
        f"Load average before: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}. "
        f"{len(times['bare'])} alternated run(s), each in a new profile.",
        "",
        "| page | median | each run | / bare Pyodide cold | fetched, gzip |",
        "| --- | --- | --- | --- | --- |",
    ]
    for key, name in names.items():
        m = median(times[key])
        r = ratio(m, bare)
        each = ", ".join("failed" if v is None else f"{v:.2f}" for v in times[key])
        lines.append(
            f"| {name} | {'n/a' if m is None else f'{m:.2f} s'} | {each} | "
            f"{'' if r is None else f'{r:.2f}×'} | "
            f"{f'{fetched_gzip[key]:.2f} MB' if key in fetched_gzip else ''} |"
        )
    raw, kept, best = snapshot
    with_snapshot = fetched_gzip.get("kept", 0.0) + best / 1e6
    lines += [
        "",
        f"The snapshot: {raw / 1e6:.1f} MB of memory; {kept / 1e6:.2f} MB as the page "
        f"keeps it (the browser's gzip), {best / 1e6:.2f} MB gzip -9. A first visit with "
        f"it shipped would fetch about {with_snapshot:.2f} MB gzip (the files the kept "
        "run fetched, and the snapshot at gzip -9); its time above leaves out fetching "
        "the snapshot itself.",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="site under test")
    ap.add_argument("--runs", type=int, default=3, help="alternated runs (default 3)")
    ap.add_argument("--calculator", default="dice_pool", help="the app page's calculator")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a page may take")
    args = ap.parse_args(argv)
    site = args.site.resolve()
    if not (site / "app.html").is_file():
        ap.error(f"{site} is not a built site (tools/build_site.py)")
    if args.runs < 1:
        ap.error("--runs: at least 1")
    from playwright.sync_api import sync_playwright

    from ruleslab.calculators import get
    from tools.make_content import embed_link

    key = args.calculator
    change = site_load.pick_change(key, site_load._changes()[key])
    load = os.getloadavg()
    sizes = SizeCache()
    times: dict[str, list[float | None]] = {"bare": [], "cold": [], "kept": []}
    fetched: dict[str, float] = {}
    snapshot: Snapshot | None = None
    ours = site_load.CountingServer(site).start()
    npm = ROOT / "node_modules" / "pyodide"
    try:
        with site_load.bare_root(npm) as bare_folder, sync_playwright() as pw:
            bare = site_load.CountingServer(bare_folder).start()
            url = ours.base + embed_link(get(key))
            try:
                for run in range(args.runs):
                    site_load._note(f"run {run + 1}/{args.runs} ...")
                    with site_load.profile_context(pw) as context:
                        peer = site_load.one_load(
                            context,
                            bare,
                            bare.base + "index.html",
                            site_load.BARE_SELECTOR,
                            timeout_s=args.timeout,
                        )
                        times["bare"].append(peer.seconds)
                    with site_load.profile_context(pw) as context:
                        cold = site_load.app_load(
                            context, ours, url, change, timeout_s=args.timeout
                        )
                        times["cold"].append(cold.interactive)
                        fetched["cold"] = _fetched_mb(cold, sizes)
                        if snapshot is None:
                            page = context.new_page()
                            page.goto(ours.base + NEUTRAL_PAGE)
                            snapshot = Snapshot.from_page(page.evaluate(READ_SNAPSHOT_JS))
                            page.close()
                    with site_load.profile_context(pw) as context:
                        page = context.new_page()
                        page.goto(ours.base + NEUTRAL_PAGE)
                        page.evaluate(PUT_SNAPSHOT_JS, snapshot.for_page())
                        page.close()
                        kept = site_load.app_load(
                            context, ours, url, change, timeout_s=args.timeout
                        )
                        if kept.snapshot != "restored":
                            raise RuntimeError(
                                f"the kept snapshot was not restored: {kept.snapshot}"
                            )
                        times["kept"].append(kept.interactive)
                        fetched["kept"] = _fetched_mb(kept, sizes)
            finally:
                bare.stop()
    finally:
        ours.stop()
    assert snapshot is not None
    raw, best = snapshot.sizes()
    print(report(times, fetched, (raw, len(snapshot.packed), best), load))
    return 0


def _fetched_mb(load: site_load.Load, sizes: SizeCache) -> float:
    """MB gzip of the files ``load``'s page fetched (not the offline worker's)."""
    return sizes.total(f.path for f in load.files if not f.precache)[1] / 1e6


if __name__ == "__main__":
    raise SystemExit(main())
