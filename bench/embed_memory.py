"""Benchmark: where an extra embed's memory goes, by Chromium's own accounts.

``bench/site_load.py`` reports the browser's memory per extra embed (all of its
processes' PSS, five embeds against one, 10 s after the last is interactive).
This splits that figure, to tell what a change of ours can move from what any
frame costs:

1. **Embeds**: the same two host pages as ``site_load.py`` (the README's
   plain-HTML recipe: one embed, five), each in a new browser, waited for as
   ``site_load.py`` waits (:func:`site_load.embeds_interactive`: every embed
   interactive, with the same init scripts; then every snapshot maker ended and
   :data:`site_load.EMBED_MEMORY_QUIET_S` s of quiet); one memory dump of every
   process (Chrome's ``memory-infra`` tracing, "detailed"): the size each
   allocator reports (V8's heaps, Blink's garbage-collected heap, malloc,
   PartitionAlloc, the compositor's tiles ...), summed over the processes. Then a
   forced garbage collection of the page and its frames, and a second dump.
2. **Control frames**: host pages with one, then five, iframes as wide and as
   tall as an embed's frame was on average, of (a) a page holding one line of
   text: what a frame costs whatever it shows; (b) each embed's calculator
   pre-rendered (``calculators/<key>.html``: its drawing and stylesheet, no
   script of ours); (c) the same with the app page's bundle evaluated and no
   Python (:data:`BUNDLE_ONLY`): what a frame showing a calculator costs before
   its widgets are made. The controls are served from a third origin.

Prints, per allocator, MB per extra embed (five against one, divided by 4) for
the embeds (quiet and after the collection) and for each control, quiet
(``site_load.py`` gives the browser's PSS). Single runs: read them as a
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
    """Open ``url`` in a new browser and wait as ``site_load.py`` does before reading its
    memory: every embed interactive (``changes``; none: a page of frames without Python,
    until it is loaded) and its snapshot maker ended, then the quiet. Dump; collect the
    garbage; dump again. Also the frames' sizes."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        context = browser.new_context(viewport=site_load.EMBED_VIEWPORT)
        page = context.new_page()
        if changes:
            deadline = time.monotonic() + timeout_s
            _, pending = site_load.embeds_interactive(page, url, changes, timeout_s=timeout_s)
            if pending:
                raise RuntimeError(f"{url}: not interactive in {timeout_s:.0f} s: {pending}")
            site_load.makers_ended(page, deadline)
        else:
            page.goto(url, wait_until="load", timeout=timeout_s * 1000)
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


#: What an app page of the bundle holds before its worker is started (``app.html``'s
#: ``window.ruleslab``): ``page.js`` evaluates, and waits for a worker that never comes.
BUNDLE_ONLY = (
    "<script>window.ruleslab = { queue: [] };</script>"
    '<script type="module" src="static/app/app.js"></script>'
)


def control_pages(site: Path, folder: Path, keys: Sequence[str]) -> dict[str, list[str]]:
    """Write the control frames' pages into ``folder`` (served beside a link to
    ``site``'s ``static`` folder): a line of text; each of ``keys``' pre-rendered page
    (``calculators/<key>.html``: the calculator drawn, its stylesheet, no script of
    ours); the same with the app page's bundle evaluated (:data:`BUNDLE_ONLY`). Their
    paths in ``folder``, by control."""
    (folder / "static").symlink_to(site / "static", target_is_directory=True)
    pages = folder / "calculators"
    pages.mkdir()
    (folder / "blank.html").write_text(
        "<!doctype html><html lang=en><title>Blank</title><p>A line of text.</p></html>",
        encoding="utf-8",
    )
    found: dict[str, list[str]] = {"blank": ["blank.html"] * len(keys), "static": [], "bundle": []}
    for key in keys:
        html = (site / "calculators" / f"{key}.html").read_text(encoding="utf-8")
        if html.count("</body>") != 1:
            raise RuntimeError(f"{key}'s pre-rendered page has no single </body>")
        (pages / f"{key}.html").write_text(html, encoding="utf-8")
        (pages / f"{key}-bundle.html").write_text(
            html.replace("</body>", BUNDLE_ONLY + "</body>"), encoding="utf-8"
        )
        found["static"].append(f"calculators/{key}.html")
        found["bundle"].append(f"calculators/{key}-bundle.html")
    return found


def frames_host(folder: Path, name: str, urls: Sequence[str], width: float, height: float) -> str:
    """Write host page ``name`` into ``folder``: an iframe of each of ``urls``, ``width`` ×
    ``height`` px; its file name."""
    frames = "\n".join(
        f'<iframe src="{url}" style="display:block;border:0;'
        f'width:{width:.0f}px;height:{height:.0f}px"></iframe>'
        for url in urls
    )
    (folder / name).write_text(
        f"<!doctype html><html lang=en><title>Frames</title><body>{frames}</body></html>",
        encoding="utf-8",
    )
    return name


def _per_extra(one: Counter[str], five: Counter[str]) -> dict[str, float]:
    return {name: (five[name] - one[name]) / 4 / 1e6 for name in ALLOCATORS}


#: The control frames, in the table's order, with their column's heading.
CONTROLS = (
    ("blank", "blank frame"),
    ("static", "pre-rendered calculator"),
    ("bundle", "pre-rendered + app.js"),
)


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
    controls: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="rl-embed-memory-") as tmp:
        folder = Path(tmp) / "controls"
        folder.mkdir()
        ours = site_load.CountingServer(site).start()
        try:
            with site_load.embed_host(ours.base) as (host, specs), sync_playwright() as pw:
                embed_changes = [site_load.pick_change(k, changes[k], pre) for k, pre in specs]
                one = _measure(pw, host.base + "one.html", embed_changes[:1], args.timeout)
                five = _measure(pw, host.base + "five.html", embed_changes, args.timeout)
                sizes = five["frames"] or [[1264, 1000]]
                width = sum(w for w, _ in sizes) / len(sizes)
                height = sum(h for _, h in sizes) / len(sizes)
                pages = control_pages(site, folder, [key for key, _ in specs])
                served = site_load.CountingServer(folder).start()
                try:
                    for control, _ in CONTROLS:
                        urls = [served.base + path for path in pages[control]]
                        hosts = [
                            frames_host(folder, f"{control}{n}.html", urls[:n], width, height)
                            for n in (1, 5)
                        ]
                        measured = [
                            _measure(pw, served.base + name, [], args.timeout)["quiet"]
                            for name in hosts
                        ]
                        controls[control] = _per_extra(*measured)
                finally:
                    served.stop()
        finally:
            ours.stop()

    quiet = _per_extra(one["quiet"], five["quiet"])
    collected = _per_extra(one["collected"], five["collected"])
    print(
        f"## Memory per extra embed, by allocator (`bench/embed_memory.py`, one run)\n\n"
        f"Load average before: {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}. Embed frames "
        f"{width:.0f} × {height:.0f} px on average; the control frames as large. MB per extra "
        "frame: five against one, over 4; the sizes Chrome's allocators report, summed "
        "over the processes (tiles are also counted by the GPU process's `gpu`). Controls, "
        "quiet: a blank frame; each embed's calculator pre-rendered (its page's stylesheet "
        "and drawing, no script); the same with the app page's bundle (`app.js`) evaluated, "
        "no Python: what any frame showing a calculator costs before its widgets.\n"
    )
    heads = " | ".join(head for _, head in CONTROLS)
    print(f"| allocator | embed, quiet | embed, after a collection | {heads} |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in CONTROLS) + " |")
    for name in ALLOCATORS:
        cells = " | ".join(f"{controls[control][name]:.2f}" for control, _ in CONTROLS)
        print(f"| `{name}` | {quiet[name]:.2f} | {collected[name]:.2f} | {cells} |")
    print(
        "\n"
        + json.dumps(
            {"embed_quiet": quiet, "embed_collected": collected, **controls}, sort_keys=True
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
