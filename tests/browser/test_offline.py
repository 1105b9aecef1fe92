"""The site offline after the first visit, with Chromium (``tools/offline.py``).

* One visit online (the landing page, which has the service worker keep the
  calculators' part; an app page; a notebook, which adds the notebook part),
  then the network is cut (the context
  offline *and* the server stopped): the notebook, the landing page and an app
  page reload, and an input change computes; the notebook's kernel still
  writes to and imports from JupyterLite's drive (through the worker), and the
  notebook saves. Every request was for a file the manifest lists (or the
  drive), none left the origin, and JupyterLite kept the one registration.
* A second deployment at the same address (a different build: three files
  changed, the worker renewed by the build's own step), served as a static
  host would (cacheable for an hour, so the browser's HTTP cache holds copies
  of both deployments: the worker must refuse the wrong ones), is downloaded
  whole (only the changed files from the network, the rest from the first
  cache) while the old version's pages keep running the old files; it takes
  over when the last other page closes ("Use it now"), and then every page
  runs the new files and the old cache is gone.
"""

from __future__ import annotations

import gzip
import re
import shutil
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.browser.axe_check import axe_violations
from tests.browser.conftest import (
    EXECUTE_JS,
    KERNEL_IDLE_JS,
    KERNEL_TIMEOUT,
    PageWatch,
    figure_at,
    run_notebook,
    type_into,
)
from tools.make_content import embed_link, notebook_link
from tools.offline import (
    CACHE_PREFIX,
    JUPYTERLITE_WORKER,
    WORKER,
    read_manifest,
    worker_url,
    write_offline,
)

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import CALCULATORS, get  # noqa: E402

#: What a page runs: its HTML's and app.js's deployment markers (the second deployment
#: adds them), its worker's version, the caches the browser holds.
STATE_JS = """async () => {
  const ask = (worker) => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    worker.postMessage({ ruleslab: 'offline', type: 'status' }, [channel.port2]);
  });
  const meta = document.querySelector('meta[name="rl-deploy"]');
  const controller = navigator.serviceWorker.controller;
  return {
    html: meta ? meta.content : 'A',
    appjs: window.rlDeployApp || 'A',
    worker: controller ? (await ask(controller)).version : null,
    caches: (await caches.keys()).sort(),
  };
}"""

#: Paths the worker does not answer from its cache: JupyterLite's drive and heartbeat
#: (its own listener), the worker's scripts (the browser's).
NOT_FILES = {"api/drive", "api/service-worker-heartbeat", WORKER, JUPYTERLITE_WORKER}


def _want(key: str, changes: dict[str, str], figure: str) -> str:
    """The figure's text for the defaults with ``changes``, from the engine on CPython."""
    calc = get(key)
    values = dict(calc.defaults()) | changes
    return calc.run({p.name: p.parse(values[p.name]) for p in calc.params}).figure(figure).text


def _site_path(url: str) -> str:
    path = unquote(urlsplit(url).path).lstrip("/")
    return path + "index.html" if path == "" or path.endswith("/") else path


#: The site's registration: each worker's state (for a failure's message).
WORKERS_JS = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  const state = (w) => (w ? w.state : null);
  if (!r) return null;
  return { installing: state(r.installing), waiting: state(r.waiting), active: state(r.active) };
}"""


def _wait_for(page, script: str, timeout_s: float = 120) -> None:
    """Poll an async script until it is true (``wait_for_function`` does not await)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {script}; workers: {page.evaluate(WORKERS_JS)}")
        page.wait_for_timeout(100)


#: The paths this version's cache holds (not its markers), relative to the site root.
KEPT_JS = """async ([cache, base]) => {
  if (!(await caches.has(cache))) return [];
  const keys = await (await caches.open(cache)).keys();
  return keys.map((r) => decodeURIComponent(r.url.slice(base.length)))
    .filter((path) => !path.startsWith('__ruleslab-offline-'));
}"""


def _kept(page, manifest, base: str) -> list[str]:
    """The files of ``manifest`` this browser's offline cache holds (site-relative paths)."""
    return page.evaluate(KEPT_JS, [CACHE_PREFIX + manifest.version, base])


def test_every_kind_of_page_reloads_offline_after_one_visit(
    browser, site_dir, deploy_server, artifacts
):
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 1600})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    watch = PageWatch(page, base)
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    try:
        # online: the landing page registers the worker, which fills its cache
        page.goto(base)
        answer = page.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        assert answer["version"] == manifest.version
        assert answer["files"] == len(manifest.app)
        assert answer["kept"] == {"app": True, "notebooks": False}
        expect(page.locator("#offline-status")).to_contain_text("Calculators available offline")
        assert page.evaluate(STATE_JS)["caches"] == [CACHE_PREFIX + manifest.version]
        assert set(_kept(page, manifest, base)) == set(manifest.app)

        page.goto(base + embed_link(get("dice_pool")))
        expect(page.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        controller = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
        assert controller == base + worker_url(site_dir)  # JupyterLite's URL: one registration

        page.goto(base + notebook_link(get("dice_pool")))
        expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == controller
        # a notebook page adds the notebook part, once its kernel is idle
        page.wait_for_function("() => window.ruleslabOffline !== undefined")
        answer = page.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        assert answer["kept"] == {"app": True, "notebooks": True}
        assert set(_kept(page, manifest, base)) == set(manifest.files)

        # the network goes: for the browser, and the server itself
        context.set_offline(True)
        deploy_server.stop()

        # (not page.reload(): JupyterLab drops ?path= from the address once the notebook is open)
        page.goto(base + notebook_link(get("dice_pool")))
        run_notebook(page, "dice_pool")
        type_into(page, "dice_pool", "dice", "12")
        want = _want("dice_pool", {"dice": "12"}, "mean")
        expect(figure_at(page, "dice_pool", "mean")).to_have_text(want, timeout=30_000)
        # the kernel's drive (through the worker to JupyterLite's contents): write, import
        out = page.evaluate(
            EXECUTE_JS,
            "import importlib, os\n"
            "print(os.getcwd())\n"
            "with open('rl_offline_check.py', 'w') as f:\n"
            "    f.write('ANSWER = 6 * 7\\n')\n"
            "importlib.invalidate_caches()\n"
            "import rl_offline_check\n"
            "print(rl_offline_check.ANSWER)\n",
        )
        assert out == "/drive\n42\n", out
        stored = page.evaluate(
            """async () => {
                const model = await window.jupyterapp.serviceManager.contents.get(
                    'rl_offline_check.py', { content: true });
                return model.format === 'base64' ? atob(model.content) : model.content;
            }"""
        )
        assert stored == "ANSWER = 6 * 7\n"
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        saved = page.evaluate(
            "async () => (await window.jupyterapp.serviceManager.contents.get("
            "'dice_pool.ipynb', { content: true })).content.cells"
        )
        assert any(c.get("execution_count") for c in saved if c["cell_type"] == "code")
        page.screenshot(path=str(artifacts / "offline-notebook.png"))

        page.goto(base)
        expect(page.locator("li.calc")).to_have_count(len(CALCULATORS))
        expect(page.locator("#offline-status")).to_contain_text("Whole site available offline")
        page.screenshot(path=str(artifacts / "offline-landing.png"))

        page.goto(base + embed_link(get("lifting")))
        expect(page.locator(".rl-calc-lifting").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        type_into(page, "lifting", "strength", "4")
        want = _want("lifting", {"strength": "4"}, "capacity")
        expect(figure_at(page, "lifting", "capacity")).to_have_text(want, timeout=30_000)
        page.screenshot(path=str(artifacts / "offline-app-page.png"))
    finally:
        context.close()

    outside = [u for u in requests if not u.startswith((base, "blob:", "data:"))]
    assert outside == [], f"requests left the site: {outside}"
    unlisted = {
        _site_path(u) for u in requests if u.startswith(base) and _site_path(u) not in NOT_FILES
    } - set(manifest.files)
    assert unlisted == set(), f"asked for, not precached: {sorted(unlisted)}"
    assert not [t for t in console if "unregistering existing service workers" in t]
    assert watch.offsite == []
    assert watch.errors == [], f"console errors: {watch.errors}"


CHANGED = ("index.html", "app.html", "static/app/app.js")


def _second_deployment(site_dir: Path, dest: Path) -> Path:
    """The built site with a marker in three files, and the build's own offline step
    run again over it (a new manifest and worker): a different build to deploy."""
    shutil.copytree(site_dir, dest)
    for name in ("index.html", "app.html"):
        page = dest / name
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("<head>", '<head><meta name="rl-deploy" content="B">', 1))
    bundle = dest / "static" / "app" / "app.js"
    bundle.write_text(bundle.read_text(encoding="utf-8") + '\nwindow.rlDeployApp = "B";\n')
    write_offline(dest)
    return dest


def use_it_now(page, timeout_s: float = 30) -> None:
    """On the landing page, the only page of the site left open: "Use it now" until
    the second deployment (its ``rl-deploy`` marker) has taken over."""
    from playwright.sync_api import Error as PlaywrightError

    status = page.locator("#offline-status")
    marker = page.locator('meta[name="rl-deploy"]')
    deadline = time.monotonic() + timeout_s
    while marker.count() == 0:  # (a closed page may still count for a moment)
        assert time.monotonic() < deadline, "the new version did not take over"
        button = status.get_by_role("button", name="Use it now")
        try:
            if button.count() and button.is_enabled():
                button.click(timeout=2_000)
        except PlaywrightError:
            pass  # the page was reloading onto the new version
        page.wait_for_timeout(500)


def test_a_new_deployment_replaces_the_cache_whole(
    browser, site_dir, cacheable_deploy_server, tmp_path, artifacts
):
    from playwright.sync_api import expect

    server = cacheable_deploy_server  # (a static host's caching: stale copies to refuse)
    old = read_manifest(site_dir)
    site_b = _second_deployment(site_dir, tmp_path / "site-b")
    new = read_manifest(site_b)
    changed = {rel for rel in new.files if new.files[rel] != old.files.get(rel)}
    assert changed == set(CHANGED)
    assert new.version != old.version
    old_cache, new_cache = CACHE_PREFIX + old.version, CACHE_PREFIX + new.version

    base = server.base
    context = browser.new_context(viewport={"width": 1100, "height": 1600})
    try:
        first = context.new_page()
        watches = [PageWatch(first, base)]
        first.goto(base)
        assert first.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
        first.goto(base + embed_link(get("dice_pool")))
        expect(first.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        old_state = {"html": "A", "appjs": "A", "worker": old.version, "caches": [old_cache]}
        assert first.evaluate(STATE_JS) == old_state

        # the redeploy: the same address serves the second build
        server.site = site_b
        mark = len(server.log)
        second = context.new_page()
        watches.append(PageWatch(second, base))
        second.goto(base)
        # the landing page's registration finds the new worker; it installs and waits
        _wait_for(second, "async () => !!(await navigator.serviceWorker.getRegistration()).waiting")
        # downloaded whole before it waits: only the changed files came from the network
        fetched = {path.lstrip("/") for path, version in server.log[mark:] if version}
        assert fetched == set(CHANGED), server.log[mark:]
        # the parts this browser had (the calculators'), not more
        assert set(second.evaluate(KEPT_JS, [new_cache, base])) == set(new.app)
        assert all(v == new.version for _, v in server.log[mark:] if v)
        # meanwhile every page runs the old version only, reloaded or not
        both = sorted([old_cache, new_cache])
        assert second.evaluate(STATE_JS) == {**old_state, "caches": both}
        second.reload()
        assert second.evaluate(STATE_JS) == {**old_state, "caches": both}
        bundle = first.evaluate("() => fetch('static/app/app.js').then((r) => r.text())")
        assert "rlDeployApp" not in bundle
        assert first.evaluate(STATE_JS) == {**old_state, "caches": both}

        # "Use it now" is refused while another page of the site is open ...
        status = second.locator("#offline-status")
        expect(status).to_contain_text("A new version is ready", timeout=30_000)
        status.get_by_role("button", name="Use it now").click()
        expect(status).to_contain_text("Close the other pages of this site (1 open)")
        second.screenshot(path=str(artifacts / "offline-update-offer.png"))
        # ... and granted once it is the only one: the page reloads onto the new version
        first.close()
        use_it_now(second)
        new_state = {"html": "B", "appjs": "A", "worker": new.version, "caches": [new_cache]}
        assert second.evaluate(STATE_JS) == new_state  # (the landing page loads no app.js)

        third = context.new_page()
        watches.append(PageWatch(third, base))
        third.goto(base + embed_link(get("dice_pool")))
        expect(third.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        assert third.evaluate(STATE_JS) == {**new_state, "appjs": "B"}
        type_into(third, "dice_pool", "dice", "9")
        want = _want("dice_pool", {"dice": "9"}, "p_success")
        expect(figure_at(third, "dice_pool", "p_success")).to_have_text(want, timeout=30_000)
    finally:
        context.close()
    for watch in watches:
        assert watch.offsite == []
        assert watch.errors == [], f"console errors: {watch.errors}"


#: Init script: stamp the moment the calculator is in the page (epoch ms; as the
#: benchmark, bench/site_load.py, times the first calculator).
DRAWN_JS = """(() => {
  const seen = () => {
    if (window.__rlDrawn || !document.querySelector('.rl-calc-dice_pool')) return;
    window.__rlDrawn = performance.timeOrigin + performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();"""


def test_the_app_page_registers_only_after_drawing_and_never_in_an_embed(browser, page, base_url):
    """The worker's registration (and its downloads) waits for the calculator, and an
    embed stores nothing: a host page's readers must not download the whole site."""
    from playwright.sync_api import expect

    page.add_init_script(DRAWN_JS)
    page.goto(base_url + embed_link(get("dice_pool")))
    expect(page.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    page.wait_for_function("() => window.ruleslabOffline !== undefined")  # (in idle time)
    assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
    drawn, script = page.evaluate(
        """() => [window.__rlDrawn, performance.timeOrigin + performance.getEntriesByType(
            'resource').find((e) => e.name.includes('static/offline/offline.js')).startTime]"""
    )
    assert script >= drawn
    assert page.watch.errors == []

    context = browser.new_context()  # (a profile without the worker)
    try:
        host = base_url + "embed-host.html"  # (served by the test: a page with an iframe)
        iframe = f'<iframe src="{embed_link(get("lifting"))}" width="900" height="900"></iframe>'
        context.route(host, lambda route: route.fulfill(content_type="text/html", body=iframe))
        other = context.new_page()
        other.goto(host)
        frame = other.frame_locator("iframe")
        expect(frame.locator(".rl-calc-lifting").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        inner = other.frames[1]
        assert inner.evaluate("() => window.ruleslabOffline === undefined")
        assert inner.locator('script[src*="offline.js"]').count() == 0
        assert other.evaluate("() => navigator.serviceWorker.getRegistrations()") == []
    finally:
        context.close()


def test_a_notebooks_first_visit_downloads_the_site_only_once_its_kernel_is_quiet(
    browser, site_dir, deploy_server
):
    """On a JupyterLite page the worker takes over at once (the drive needs it), but it
    downloads nothing for the offline cache while the kernel starts and runs the
    notebook: only once the kernels have been idle a while (``app/offline.js``)."""
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 1600})
    try:
        page = context.new_page()
        watch = PageWatch(page, base)
        page.goto(base + notebook_link(get("dice_pool")))
        page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT)
        controller = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
        assert controller == base + worker_url(site_dir)  # the drive's worker is ours
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        expect(page.locator(".rl-calc-dice_pool").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        drawn = len(deploy_server.log)
        assert [p for p, version in deploy_server.log if version] == []
        page.wait_for_function("() => window.ruleslabOffline !== undefined")
        answer = page.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        assert answer["version"] == manifest.version
        assert answer["kept"] == {"app": True, "notebooks": True}  # the whole site
        assert page.evaluate(STATE_JS)["caches"] == [CACHE_PREFIX + manifest.version]
        precached = [i for i, (_, version) in enumerate(deploy_server.log) if version]
        assert precached
        assert min(precached) >= drawn
        assert watch.errors == [], f"console errors: {watch.errors}"
    finally:
        context.close()


#: The bytes this browser's offline cache holds for a file of the site (null: none).
CACHED_JS = """async ([cache, url]) => {
  const hit = await caches.match(url, { cacheName: cache });
  return hit ? await hit.text() : null;
}"""

#: Write other bytes into the offline cache under a file's URL (a damaged entry).
DAMAGE_JS = """async ([cache, url]) => {
  const headers = { 'Content-Type': 'text/html; charset=utf-8' };
  await (await caches.open(cache)).put(url, new Response('<p>damaged copy</p>', { headers }));
}"""


def test_the_offline_cache_is_checked_as_it_serves_and_filled_again_when_gone(
    browser, site_dir, deploy_server, artifacts
):
    """A damaged entry of the cache is never served: taken out and fetched afresh online,
    a 503 that says so offline; an encoded "/" is not a folder (404, as a static host);
    a deleted cache is filled again before the landing page
    says "Calculators available offline" (not reported complete from the worker's memory)."""
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    cache = CACHE_PREFIX + manifest.version
    base = deploy_server.base
    app = base + "app.html"
    served = (site_dir / "app.html").read_text(encoding="utf-8")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(base)
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"

        # an encoded "/" is part of a name, as on a static host: no such file (not
        # lab/index.html served at a URL where its relative links all break)
        for path in ("lab%2Findex.html", "lab%2findex.html", "static%2Fapp%2Fapp.js"):
            response = page.goto(base + path)
            assert response is not None, path
            assert response.status == 404, path

        # damaged, online: the page gets the real file, and the cache is mended
        page.evaluate(DAMAGE_JS, [cache, app])
        page.goto(app + "?calculator=lifting")
        expect(page.locator(".rl-calc-lifting").first).to_be_visible(timeout=KERNEL_TIMEOUT)
        assert page.evaluate(CACHED_JS, [cache, app]) == served

        # damaged, offline: a message, never the damaged bytes
        page.evaluate(DAMAGE_JS, [cache, app])
        context.set_offline(True)
        page.goto(app + "?calculator=lifting")
        expect(page.locator("body")).to_contain_text("is damaged in this browser's offline copy")
        assert "damaged copy" not in page.content()
        page.screenshot(path=str(artifacts / "offline-damaged.png"))
        context.set_offline(False)

        # the cache is no longer complete: the landing page has it filled again first
        page.goto(base)
        answer = page.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        cached = page.evaluate(CACHED_JS, [cache, app])
        assert cached == served, (cached or "")[:200]

        # deleted whole (as a browser evicts, or a reader clears): filled again, then said
        page.evaluate(f"() => caches.delete('{cache}')")
        page.goto(base)
        answer = page.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        expect(page.locator("#offline-status")).to_contain_text("Calculators available offline")
        held = page.evaluate(
            "async (name) => (await (await caches.open(name)).keys()).length", cache
        )
        # every file of the calculators' part, its "complete" marker, the parts asked for
        assert held == len(manifest.app) + 2
    finally:
        context.close()


#: The worker's view: parts kept, pages loading, paused, requests of the fill under way.
STATUS_JS = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data);
  navigator.serviceWorker.controller.postMessage(
    { ruleslab: 'offline', type: 'status' }, [channel.port2]);
})"""


def _precached(server, mark: int = 0) -> list[str]:
    """The site paths the worker's fill asked the server for since ``mark``."""
    return [_site_path(path) for path, version in server.log[mark:] if version]


def _app_page_answer(page, base: str, key: str = "lifting") -> dict:
    """Open ``key``'s app page; once its calculator is drawn, the answer to the offline
    script app.html then adds (in idle time)."""
    from playwright.sync_api import expect

    page.goto(base + embed_link(get(key)))
    expect(page.locator(f".rl-calc-{key}").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    page.wait_for_function("() => window.ruleslabOffline !== undefined")
    return page.evaluate("() => window.ruleslabOffline.ready")


def _gzip_bytes(site_dir: Path, paths: list[str]) -> int:
    """What ``paths`` weigh sent gzipped (``gzip -6`` of each file, as bench/site_load.py)."""
    return sum(len(gzip.compress((site_dir / rel).read_bytes(), 6)) for rel in paths)


def test_a_first_app_page_keeps_only_the_calculators_reusing_what_it_downloaded(
    browser, site_dir, cacheable_deploy_server, artifacts, tmp_path
):
    """After one app page (cold, a host that lets browsers cache) the cache holds the
    calculators' part, no JupyterLab file, and the fill took what the page had already
    downloaded from the browser's HTTP cache: at most 2 MB gzip more from the server.
    Offline, every calculator's app page computes; a notebook page says it is not
    available offline yet.

    A profile on disk, as a reader's browser has (and bench/site_load.py uses): a new
    context's in-memory HTTP cache keeps no entry over 1/8 of its 50 MB, so the 9.6 MB
    ``pyodide.asm.wasm`` would be fetched again."""
    from playwright.sync_api import expect

    from tools.chromium import CHROMIUM, CHROMIUM_ARGS

    manifest = read_manifest(site_dir)
    server = cacheable_deploy_server
    base = server.base
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        viewport={"width": 1100, "height": 1200},
    )
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.pages[0] if context.pages else context.new_page()
    watch = PageWatch(page, base)
    try:
        answer = _app_page_answer(page, base)
        assert answer["type"] == "complete", answer
        assert answer["kept"] == {"app": True, "notebooks": False}
        kept = set(_kept(page, manifest, base))
        assert kept == set(manifest.app)
        assert not [p for p in kept if p.startswith(("lab/", "build/", "extensions/"))]
        background = _precached(server)
        assert background, "nothing fetched for the cache: the page downloaded every file?"
        assert set(background) <= set(manifest.app)
        gz = _gzip_bytes(site_dir, background)
        (artifacts / "offline-background-bytes.txt").write_text(
            f"after a first app page (lifting), cold: {len(background)} files fetched in the "
            f"background, {gz / 1e6:.3f} MB gzip -6 "
            f"(the calculators' part: {len(manifest.app)} files, "
            f"{manifest.app_bytes / 1e6:.1f} MB raw)\n" + "\n".join(sorted(background)) + "\n"
        )
        assert gz <= 2_000_000, gz

        context.set_offline(True)
        server.stop()
        for key, changes, figure in (
            ("dice_pool", {"dice": "9"}, "mean"),
            ("lifting", {"strength": "4"}, "capacity"),
        ):
            page.goto(base + embed_link(get(key)))
            expect(page.locator(f".rl-calc-{key}").first).to_be_visible(timeout=KERNEL_TIMEOUT)
            ((name, text),) = changes.items()
            type_into(page, key, name, text)
            want = _want(key, changes, figure)
            expect(figure_at(page, key, figure)).to_have_text(want, timeout=30_000)
        page.goto(base)
        expect(page.locator("#offline-status")).to_contain_text("Calculators available offline")
        expect(page.locator("#offline-status").get_by_role("button")).to_have_text(
            re.compile(r"Make the whole site available offline \(\d+ MB\)")
        )
        assert axe_violations(page) == []
        page.goto(base + notebook_link(get("dice_pool")))
        heading = page.get_by_role("heading", name="This notebook is not available offline yet")
        expect(heading).to_be_visible()
        expect(page.locator("body")).to_contain_text("network cannot be reached")
        page.screenshot(path=str(artifacts / "offline-notebook-not-kept.png"))
        assert axe_violations(page) == []
        page.get_by_role("link", name="The calculators").click()
        expect(page.locator("li.calc")).to_have_count(len(CALCULATORS))
    finally:
        context.close()
    asked = {_site_path(u) for u in requests if u.startswith(base)} - NOT_FILES
    stray = asked - set(manifest.app) - {"lab/index.html"}
    assert stray == set(), f"the calculators' pages asked for files outside their part: {stray}"
    assert watch.offsite == []


#: Init script: the reader's browser saves data (``navigator.connection.saveData``).
SAVE_DATA_JS = """(() => {
  const info = window.NetworkInformation && NetworkInformation.prototype;
  if (info) Object.defineProperty(info, 'saveData', { get: () => true, configurable: true });
  else Object.defineProperty(navigator, 'connection', { value: { saveData: true } });
})();"""


def test_save_data_downloads_nothing_in_the_background_until_the_reader_asks(
    browser, site_dir, deploy_server, artifacts
):
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 1200})
    context.add_init_script(SAVE_DATA_JS)
    page = context.new_page()
    watch = PageWatch(page, base)
    try:
        page.goto(base)
        status = page.locator("#offline-status")
        expect(status).to_contain_text("Saving data: nothing is downloaded in the background")
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "saving-data"
        answer = _app_page_answer(page, base)
        assert answer["type"] == "saving-data", answer
        assert answer["kept"] == {"app": False, "notebooks": False}
        assert _precached(deploy_server) == []
        assert _kept(page, manifest, base) == []

        # the reader asks: the calculators' part, then the whole site
        for theme in ("dark", "light"):
            page.goto(f"{base}index.html?theme={theme}")
            button = status.get_by_role(
                "button", name=re.compile(r"^Make the calculators available offline")
            )
            expect(button).to_be_visible()
            assert axe_violations(page) == [], theme
        page.screenshot(path=str(artifacts / "offline-save-data.png"))
        button.click()
        expect(status).to_contain_text("Calculators available offline", timeout=120_000)
        expect(status).to_contain_text("Saving data: nothing else is downloaded")
        assert set(_kept(page, manifest, base)) == set(manifest.app)
        status.get_by_role("button", name=re.compile("Make the whole site")).click()
        expect(status).to_contain_text("Whole site available offline", timeout=180_000)
        assert set(_kept(page, manifest, base)) == set(manifest.files)
        assert watch.errors == [], watch.errors
    finally:
        context.close()


#: Init script for a page that starts loading and never becomes idle: its calculator's
#: Python never starts (a stand-in Worker), so the page never says it is drawn.
NEVER_DRAWN_JS = """delete window.SharedWorker; // (else the shared runtime draws the page)
window.Worker = class {
  postMessage() {}
  terminate() {}
  addEventListener() {}
};"""
"""An app page whose Python never answers: it stays "loading" (no shared worker, and a
dedicated worker that does nothing)."""


def test_the_fill_pauses_while_another_page_of_the_site_loads(
    browser, site_dir, deploy_server, artifacts
):
    """The whole site asked for on the landing page (its button); while a second page
    of the site is loading (it came through the worker, and has not said it is idle) no
    request of the fill is made; once it is idle the fill goes on to the end."""
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    base = deploy_server.base
    handler = deploy_server.httpd.RequestHandlerClass

    class Slow(handler):  # type: ignore[misc,valid-type]
        """The fill's requests take a little while (a real network): it lasts seconds."""

        def send_head(self):  # type: ignore[no-untyped-def]
            if self.headers.get("X-Ruleslab-Precache"):
                time.sleep(0.1)
            return super().send_head()

    deploy_server.httpd.RequestHandlerClass = Slow
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    landing = context.new_page()
    try:
        landing.goto(base)
        answer = landing.evaluate("() => window.ruleslabOffline.ready")
        assert answer["type"] == "complete", answer
        status = landing.locator("#offline-status")
        start = len(deploy_server.log)
        status.get_by_role("button", name=re.compile("Make the whole site")).click()
        notebook_part = set(manifest.notebooks)
        deadline = time.monotonic() + 60
        while not set(_precached(deploy_server, start)) & notebook_part:
            assert time.monotonic() < deadline, "the whole-site fill did not start"
            landing.wait_for_timeout(50)

        loading = context.new_page()
        loading.add_init_script(NEVER_DRAWN_JS)
        loading.goto(base + embed_link(get("lifting")))
        expect(loading.locator("#loading")).to_be_visible()
        _wait_for(
            landing,
            f"async () => {{ const s = await ({STATUS_JS})(); return s.paused && !s.inflight; }}",
            60,
        )
        expect(status).to_contain_text("paused while another page of this site loads")
        landing.screenshot(path=str(artifacts / "offline-paused.png"))
        mark = len(deploy_server.log)
        landing.wait_for_timeout(3000)  # (a window in which the fill would fetch dozens)
        assert _precached(deploy_server, mark) == []
        assert landing.evaluate(STATUS_JS)["kept"]["notebooks"] is False

        # the page says it is drawn (as app.html's offline script does): the fill goes on
        loading.evaluate(
            "() => navigator.serviceWorker.controller.postMessage("
            "{ ruleslab: 'offline', type: 'idle' })"
        )
        expect(status).to_contain_text("Whole site available offline", timeout=180_000)
        assert _precached(deploy_server, mark)
        assert set(_kept(landing, manifest, base)) == set(manifest.files)
    finally:
        context.close()


#: The offline cache's entry for a file replaced by its own bytes with another status
#: or Content-Type (the integrity check alone passes it).
RESTATUS_JS = """async ([cache, url, status, type]) => {
  const c = await caches.open(cache);
  const hit = await c.match(url);
  const bytes = await hit.arrayBuffer();
  await c.put(url, new Response(bytes, { status, headers: { 'Content-Type': type } }));
  const back = await c.match(url);
  return [back.status, back.headers.get('Content-Type')];
}"""
#: The status and Content-Type the offline cache holds for a file.
KEPT_STATUS_JS = """async ([cache, url]) => {
  const hit = await caches.match(url, { cacheName: cache });
  return hit ? [hit.status, hit.headers.get('Content-Type')] : null;
}"""


@pytest.mark.parametrize(
    ("path", "status", "ctype"),
    [
        ("static/app/app.js", 404, "text/javascript"),
        ("static/app/app.js", 200, "text/plain"),
        ("app.html", 404, "text/html; charset=utf-8"),
    ],
    ids=["app.js-404", "app.js-text-plain", "app.html-404"],
)
def test_a_cache_entry_with_the_right_bytes_but_a_wrong_status_or_type_is_fetched_again(
    browser, site_dir, deploy_server, path, status, ctype
):
    """Issue 38, 3: an entry with the right bytes but a 404 status or a wrong
    Content-Type passed the integrity check and was served forever ("Starting…"
    forever, online too)."""
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    cache = CACHE_PREFIX + manifest.version
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(base)
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
        assert page.evaluate(RESTATUS_JS, [cache, base + path, status, ctype]) == [status, ctype]
        page.goto(base + "app.html?calculator=lifting")
        expect(page.locator(".rl-calc-lifting [data-figure]").first).to_be_visible(
            timeout=KERNEL_TIMEOUT
        )
        type_into(page, "lifting", "strength", "4")
        expect(page.locator('.rl-calc-lifting [data-figure="capacity"]').first).to_have_text(
            "120 kg"
        )
        kept = page.evaluate(KEPT_STATUS_JS, [cache, base + path])
        if path.endswith(".html"):  # (code comes from the HTTP cache first, if it has it)
            assert kept is not None
            assert kept[0] == 200  # (taken out, fetched afresh, kept again)
        # offline: never the wrong entry (the real file, or a message saying it is damaged)
        page.evaluate(RESTATUS_JS, [cache, base + path, status, ctype])
        context.set_offline(True)
        response = page.goto(base + path)
        assert response is not None
        assert response.status in (200, 503)
        if response.status == 200 and status == 200:  # (never the text/plain copy)
            assert ctype not in (response.headers.get("content-type") or "")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("damaged", "said"),
    [
        ("static/app/app.js", "static/app/app.js) could not be loaded"),
        ("static/pyodide/pyodide.asm.wasm", "pyodide.asm.wasm) is damaged in this browser"),
    ],
    ids=["app.js", "wasm"],
)
def test_offline_with_a_damaged_app_script_the_page_says_so_within_seconds(
    browser, site_dir, deploy_server, damaged, said
):
    """Issue 38, 3: offline with a damaged app.js or WebAssembly the page counted
    "Starting … N s" for ever instead of saying what is wrong."""
    from playwright.sync_api import expect

    manifest = read_manifest(site_dir)
    cache = CACHE_PREFIX + manifest.version
    base = deploy_server.base
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(base)
        assert page.evaluate("() => window.ruleslabOffline.ready")["type"] == "complete"
        page.evaluate(DAMAGE_JS, [cache, base + damaged])
        cdp = context.new_cdp_session(page)
        cdp.send("Network.clearBrowserCache")  # (no good copy in the HTTP cache either)
        context.set_offline(True)
        started = time.monotonic()
        page.goto(base + "app.html?calculator=lifting")
        expect(page.locator("body")).to_contain_text(said, timeout=15_000)
        page.wait_for_timeout(2000)  # (a later word from Python does not cover it)
        expect(page.locator("body")).to_contain_text(said)
        assert time.monotonic() - started < 15
    finally:
        context.close()
