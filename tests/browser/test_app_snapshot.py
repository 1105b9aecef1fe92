"""A snapshot of the warmed interpreter (docs/app-page.md), in Chromium.

A first app page starts Python; a few seconds after its calculator is drawn it starts
the snapshot's maker (``static/app/snapshot.mjs``), which keeps the snapshot in Cache
Storage. The next page whose Python starts (a new browser session: the shared worker of
the first one is gone; or a page's own worker) restores it instead, and works as a
started one does. A damaged snapshot is dropped: Python starts as usual and a good one
is made again. The snapshot itself (what it holds, the reseeded random generator, the
wheels fetched for a module it lacks) is checked in ``tests/site/test_app_snapshot.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    engine_result,
    field_box,
    figure_at,
    open_app_page,
    type_into,
)

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")

#: the page's snapshot state once its maker has ended (or there was nothing to make)
SETTLED_JS = (
    "() => ['stored', 'restored', 'failed', 'off', 'elsewhere'].includes(window.ruleslab.snapshot)"
)
MAKER_TIMEOUT = 240_000  # ms: a second Python start, its imports and the snapshot
#: the snapshot kept for this build, read back as the worker reads it (gunzipped)
KEPT_JS = """async () => {
  const cache = await caches.open("ruleslab-snapshot");
  const keys = await cache.keys();
  if (keys.length !== 1) return { keys: keys.map((k) => k.url) };
  const hit = await cache.match(keys[0]);
  const plain = hit.body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  const magic = new Uint32Array(bytes.buffer, 0, 1)[0];
  return { keys: [keys[0].url], bytes: bytes.length, magic };
}"""
#: the kept snapshot replaced by bytes that are not gzip
DAMAGE_JS = """async () => {
  const cache = await caches.open("ruleslab-snapshot");
  const [key] = await cache.keys();
  await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
  return key.url;
}"""
#: the kept snapshot replaced by a valid gzip of other bytes, its length and digest kept:
#: "half" (the first half of the snapshot) or "flipped" (bytes inverted in its middle)
REDAMAGE_JS = """async (how) => {
  const cache = await caches.open("ruleslab-snapshot");
  const [key] = await cache.keys();
  const hit = await cache.match(key);
  const headers = {};
  hit.headers.forEach((v, k) => { headers[k] = v; });
  const plain = hit.body.pipeThrough(new DecompressionStream("gzip"));
  let bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  if (how === "half") bytes = bytes.slice(0, bytes.length >> 1);
  else for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 65536; i++) bytes[i] ^= 0xff;
  const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  await cache.put(key, new Response(await new Response(packed).arrayBuffer(), { headers }));
  return Object.keys(headers);
}"""
#: a page's own worker, not the shared one (the page's fallback: its flag in sessionStorage)
DEDICATED_JS = "try { sessionStorage.setItem('ruleslab-runtime', 'dedicated'); } catch (e) {}"


def _profile(browser: Any, folder: Path) -> Any:
    from tools.chromium import CHROMIUM, CHROMIUM_ARGS

    # (the launcher that lets the maker run: tests/browser/conftest.py, NO_SNAPSHOT_JS)
    return browser.browser_type.launch_persistent_context_making_snapshots(
        str(folder),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        viewport={"width": 1100, "height": 1400},
    )


def _works(page: Any, strength: str) -> None:
    """Lifting computes: Strength ``strength`` gives the engine's capacity."""
    from playwright.sync_api import expect

    want = engine_result("lifting", strength=strength)
    type_into(page, "lifting", "strength", strength)
    expect(figure_at(page, "lifting", "capacity")).to_have_text(
        want.figure("capacity").text, timeout=30_000
    )


def test_the_next_browser_session_restores_the_snapshot_a_first_page_made(
    browser, cacheable_deploy_server, tmp_path
):
    errors: list[str] = []
    url = cacheable_deploy_server.base + "app.html?calculator=lifting"
    context = _profile(browser, tmp_path / "profile")
    try:
        first = open_app_page(context, url, errors)
        assert first.evaluate("() => window.ruleslab.runtime.snapshot") == "none"
        _works(first, "4")  # (by hand: 30 kg × 4 = 120 kg, test_shared_runtime)
        first.wait_for_function(SETTLED_JS, timeout=MAKER_TIMEOUT)
        assert first.evaluate("() => window.ruleslab.snapshot") == "stored"
        kept = first.evaluate(KEPT_JS)
        assert len(kept["keys"]) == 1
        assert kept["keys"][0].startswith(cacheable_deploy_server.base + "static/app/snapshot-")
        assert kept["bytes"] > 30 * 2**20  # the whole memory of the warmed interpreter
        assert kept["magic"] == 1886286592  # Pyodide's snapshot header
    finally:
        context.close()
    # a new browser session: the shared worker is gone, the snapshot is not
    context = _profile(browser, tmp_path / "profile")
    try:
        again = open_app_page(context, url + "&strength=3", errors)
        runtime = again.evaluate("() => window.ruleslab.runtime")
        assert runtime["snapshot"] == "restored"
        assert runtime["mode"] == "shared"
        assert again.evaluate("() => window.ruleslab.snapshot") == "restored"  # no maker
        # the link's value applied, and the restored Python computes as a started one
        assert field_box(again, "lifting", "strength").input_value() == "3"
        _works(again, "5")
        _works(again, "2")
    finally:
        context.close()
    assert errors == [], errors


def test_a_damaged_snapshot_is_dropped_and_made_again(browser, cacheable_deploy_server, tmp_path):
    """Bytes that are not gzip; and (issue 38, 3) a valid gzip of half the snapshot, which
    made every page show "Starting … N s" for ever, and flipped bytes, which gave "memory
    access out of bounds": each refused before any restore (its length and digest kept
    with it), dropped, Python started from scratch at once, and a good one made again."""
    import time

    errors: list[str] = []
    url = cacheable_deploy_server.base + "app.html?calculator=lifting"
    context = _profile(browser, tmp_path / "profile")
    context.add_init_script(DEDICATED_JS)  # (each page its own worker: a fresh Python)
    try:
        page = open_app_page(context, url, errors)
        page.wait_for_function(SETTLED_JS, timeout=MAKER_TIMEOUT)
        assert page.evaluate("() => window.ruleslab.snapshot") == "stored"
        for how in ("not-gzip", "half", "flipped"):
            if how == "not-gzip":
                page.evaluate(DAMAGE_JS)
            else:
                assert "x-ruleslab-snapshot-sha256" in page.evaluate(REDAMAGE_JS, how)
            page.close()
            started = time.monotonic()
            page = open_app_page(context, url, errors)
            took = time.monotonic() - started
            runtime = page.evaluate("() => window.ruleslab.runtime")
            assert runtime["mode"] == "dedicated"
            assert runtime["snapshot"] == "none", how  # (not restored: started, and working)
            assert took < 90, (how, took)  # (a start from scratch, never a hang)
            _works(page, "4")
            page.wait_for_function(SETTLED_JS, timeout=MAKER_TIMEOUT)
            assert page.evaluate("() => window.ruleslab.snapshot") == "stored"
            assert page.evaluate(KEPT_JS)["bytes"] > 30 * 2**20  # a good one again
        page.close()
        third = open_app_page(context, url, errors)
        assert third.evaluate("() => window.ruleslab.runtime")["snapshot"] == "restored"
        _works(third, "6")
    finally:
        context.close()
    assert errors == [], errors


def test_a_maker_that_failed_is_not_tried_again_for_a_day(browser, cacheable_deploy_server):
    errors: list[str] = []
    url = cacheable_deploy_server.base + "app.html?calculator=lifting"
    context = browser.new_context_making_snapshots(service_workers="block")  # (route sees all)
    # the maker cannot be loaded, as from a host missing the file
    context.route("**/static/app/snapshot.mjs", lambda route: route.fulfill(status=404))
    try:
        first = open_app_page(context, url, errors)
        first.wait_for_function(SETTLED_JS, timeout=MAKER_TIMEOUT)
        assert first.evaluate("() => window.ruleslab.snapshot") == "failed"
        failed_at = first.evaluate("() => Number(localStorage.getItem('ruleslab:snapshot-failed'))")
        assert failed_at > 0
        second = open_app_page(context, url, errors)
        assert second.evaluate("() => window.ruleslab.snapshot") == "off"  # (not tried)
        _works(second, "4")
        # a day later it is tried again
        second.evaluate(
            "() => localStorage.setItem('ruleslab:snapshot-failed', String(Date.now() - 86400001))"
        )
        third = open_app_page(context, url, errors)
        third.wait_for_function(SETTLED_JS, timeout=MAKER_TIMEOUT)
        assert third.evaluate("() => window.ruleslab.snapshot") == "failed"
    finally:
        context.close()
    assert errors == [], errors


def test_an_embed_makes_no_snapshot(browser, cacheable_deploy_server):
    errors: list[str] = []
    context = browser.new_context_making_snapshots()
    asked: list[str] = []
    # (the page's own requests: the offline cache's fill, which fetches every file of the
    # app part, says so in a header)
    context.on(
        "request",
        lambda r: (
            "snapshot.mjs" in r.url
            and "x-ruleslab-precache" not in r.headers
            and asked.append(r.url)
        ),
    )
    try:
        page = open_app_page(
            context, cacheable_deploy_server.base + "app.html?calculator=lifting&embed=1", errors
        )
        assert page.evaluate("() => window.ruleslab.snapshot") == "off"
        _works(page, "4")
        page.wait_for_timeout(4000)  # (past the moment a page would start its maker)
        assert page.evaluate("() => window.ruleslab.snapshot") == "off"
        assert asked == []
    finally:
        context.close()
    assert errors == [], errors
