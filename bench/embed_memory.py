"""Benchmark: where an extra embed's memory goes, by Chromium's own accounts.

``bench/site_load.py`` reports the browser's memory per extra embed (all of its
processes' PSS, five embeds against one, 10 s after the last is interactive).
This splits that figure, to tell what a change of ours can move from what any
frame costs:

1. **Embeds**: the same two host pages as ``site_load.py`` (the README's
   plain-HTML recipe: one embed, five), each in a new browser, timed to every
   embed interactive with the same init script; then
   :data:`site_load.EMBED_MEMORY_QUIET_S` s of quiet, and one memory dump of
   every process (Chrome's ``memory-infra`` tracing, "detailed"): the size each
   allocator reports (V8's heaps, Blink's garbage-collected heap, malloc,
   PartitionAlloc, the compositor's tiles ...), summed over the processes. Then a
   forced garbage collection of the page and its frames, and a second dump.
2. **Blank frames** (the control): a host page with one, then five, iframes of
   a page holding one line of text, as wide and as tall as an embed's frame was
   on average: what a frame costs whatever it shows.

Prints, per allocator, MB per extra embed (five against one, divided by 4) for
the embeds (quiet and after the collection) and for blank frames (``site_load.py``
gives the browser's PSS). Single runs: read them as a
breakdown, not as a figure; the machine's load is printed with them.

Run: ``.venv/bin/python bench/embed_memory.py [--site build/site]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import site_load  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

#: Allocators reported (``name`` or ``name/sub``), in this order; the others are left out
#: (a part, as ``v8/main/heap/new_space``, is also in its whole's figure).
ALLOCATORS = (
    "cc/tile_memory",
    "v8",
    "v8/main/heap/new_space",
    "v8/main/heap/old_space",
    "blink_gc",
    "malloc",
    "partition_alloc",
    "gpu",
)


def _allocators(events: list[dict[str, Any]]) -> Counter[str]:
    """Bytes per allocator (``ALLOCATORS``), summed over the processes of one dump."""
    sizes: Counter[str] = Counter()
    for event in events:
        if event.get("ph") != "v":
            continue
        dumps = event.get("args", {}).get("dumps", {}).get("allocators", {})
        for name in ALLOCATORS:
            size = dumps.get(name, {}).get("attrs", {}).get("size")
            if size:
                sizes[name] += int(size["value"], 16)
    return sizes


def _dump(browser: Any) -> Counter[str]:
    """One detailed memory-infra dump of every process of ``browser``."""
    session = browser.new_browser_cdp_session()
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    session.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    session.on("Tracing.tracingComplete", lambda p: done.append(True))
    config = {
        "includedCategories": ["disabled-by-default-memory-infra"],
        "memoryDumpConfig": {"triggers": []},
    }
    session.send("Tracing.start", {"traceConfig": config, "transferMode": "ReportEvents"})
    session.send("Tracing.requestMemoryDump", {"deterministic": False, "levelOfDetail": "detailed"})
    session.send("Tracing.end")
    deadline = time.monotonic() + 30
    while not done and time.monotonic() < deadline:
        time.sleep(0.1)
    session.detach()
    return _allocators(events)


def _measure(pw: Any, url: str, changes: Sequence[Any], timeout_s: float) -> dict[str, Any]:
    """Open ``url`` in a new browser; wait for every change made (``changes``: none for
    a blank page), then the quiet; dump; collect; dump. Also the frames' sizes."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        context = browser.new_context(viewport=site_load.EMBED_VIEWPORT)
        page = context.new_page()
        if changes:
            page.add_init_script(site_load.change_script(changes, timeout_s))
        page.goto(url)
        deadline = time.monotonic() + timeout_s
        while changes and time.monotonic() < deadline:
            made = site_load._changes_made(page)
            if sum(1 for _, state in made.values() if state["done"]) >= len(changes):
                break
            page.evaluate(site_load.SCROLL_WAITING_JS)
            page.wait_for_timeout(200)
        else:
            if changes:
                raise RuntimeError(f"{url}: not every embed interactive in {timeout_s:.0f} s")
        page.wait_for_timeout(site_load.EMBED_MEMORY_QUIET_S * 1000)
        frames = page.evaluate(
            "() => [...document.querySelectorAll('iframe')].map((f) => "
            "[f.getBoundingClientRect().width, f.getBoundingClientRect().height])"
        )
        quiet = _dump(browser)
        site_load.collect_garbage(context, page)
        page.wait_for_timeout(1000)
        collected = _dump(browser)
        return {"quiet": quiet, "collected": collected, "frames": frames}
    finally:
        browser.close()


def _blank_host(folder: Path, site_url: str, count: int, width: float, height: float) -> str:
    """A host page with ``count`` iframes of the site's blank page, each ``width`` ×
    ``height`` px; its file name."""
    frames = "\n".join(
        f'<iframe src="{site_url}_blank.html?{i}" style="display:block;border:0;'
        f'width:{width:.0f}px;height:{height:.0f}px"></iframe>'
        for i in range(count)
    )
    name = f"blank{count}.html"
    (folder / name).write_text(
        f"<!doctype html><html lang=en><title>Blank frames</title><body>{frames}</body></html>",
        encoding="utf-8",
    )
    return name


def _per_extra(one: Counter[str], five: Counter[str]) -> dict[str, float]:
    return {name: (five[name] - one[name]) / 4 / 1e6 for name in ALLOCATORS}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="site under test")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a page may take")
    args = ap.parse_args(argv)
    site = args.site.resolve()
    if not (site / "app.html").is_file():
        ap.error(f"{site} is not a built site (tools/build_site.py)")
    from playwright.sync_api import sync_playwright

    changes = site_load._changes()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rl-embed-memory-") as tmp:
        blank = Path(tmp) / "site"
        blank.mkdir()
        (blank / "_blank.html").write_text(
            "<!doctype html><html lang=en><title>Blank</title><p>A line of text.</p></html>",
            encoding="utf-8",
        )
        ours = site_load.CountingServer(site).start()
        blanks = site_load.CountingServer(blank).start()
        try:
            with site_load.embed_host(ours.base) as (host, specs), sync_playwright() as pw:
                embed_changes = [site_load.pick_change(k, changes[k], pre) for k, pre in specs]
                one = _measure(pw, host.base + "one.html", embed_changes[:1], args.timeout)
                five = _measure(pw, host.base + "five.html", embed_changes, args.timeout)
                sizes = five["frames"] or [[1264, 1000]]
                width = sum(w for w, _ in sizes) / len(sizes)
                height = sum(h for _, h in sizes) / len(sizes)
                hosts = Path(tmp) / "hosts"
                hosts.mkdir()
                names = [_blank_host(hosts, blanks.base, n, width, height) for n in (1, 5)]
                blank_host = site_load.CountingServer(hosts).start()
                try:
                    blank_one, blank_five = (
                        _measure(pw, blank_host.base + name, [], args.timeout) for name in names
                    )
                finally:
                    blank_host.stop()
        finally:
            ours.stop()
            blanks.stop()

    quiet = _per_extra(one["quiet"], five["quiet"])
    collected = _per_extra(one["collected"], five["collected"])
    control = _per_extra(blank_one["quiet"], blank_five["quiet"])
    print(
        f"## Memory per extra embed, by allocator (`bench/embed_memory.py`, one run)\n\n"
        f"Load average before: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}. Embed frames "
        f"{width:.0f} × {height:.0f} px on average; the blank frames as large. MB per extra "
        "frame: five against one, over 4; the sizes Chrome's allocators report, summed "
        "over the processes (tiles are also counted by the GPU process's `gpu`).\n"
    )
    print("| allocator | embed, quiet | embed, after a collection | blank frame |")
    print("| --- | --- | --- | --- |")
    for name in ALLOCATORS:
        print(f"| `{name}` | {quiet[name]:.2f} | {collected[name]:.2f} | {control[name]:.2f} |")
    print(
        "\n"
        + json.dumps(
            {"embed_quiet": quiet, "embed_collected": collected, "blank_frame": control},
            sort_keys=True,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
