"""Fixtures for the browser tests: the built site served on 127.0.0.1, Chromium.

The site is built by ``scripts/test`` (``tools/build_site.py``) and located by
the ``RULESLAB_SITE`` environment variable. Chromium is Debian's
(``/usr/bin/chromium``), driven by Playwright; no browser is downloaded.
"""

from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tools.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

KERNEL_TIMEOUT = 180_000  # ms: a cold Pyodide start on a slow CI machine

#: The open notebook's kernel is idle (run it only then, else a kernel picker appears).
KERNEL_IDLE_JS = """() => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""

#: Run code in the open notebook's kernel; resolves with its stdout (and any error).
EXECUTE_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const out = [];
  const future = kernel.requestExecute({ code });
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out.push(msg.content.text);
    if (msg.header.msg_type === 'error') out.push(msg.content.ename + ': ' + msg.content.evalue);
  };
  await future.done;
  return out.join('');
}"""


def run_notebook(page: Any, key: str) -> Any:
    """Once the open notebook's kernel is idle, Run All, and wait for calculator ``key``
    to be drawn; its root element's locator."""
    from playwright.sync_api import expect

    page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    root = page.locator(f".rl-calc-{key}").first
    expect(root).to_be_visible(timeout=KERNEL_TIMEOUT)
    return root


def field_box(scope: Any, key: str, name: str) -> Any:
    """Calculator ``key``'s input box for field ``name``; ``scope`` is a page or a frame."""
    return scope.locator(f".rl-calc-{key} .rl-field-{name} input").first


def figure_at(scope: Any, key: str, figure: str) -> Any:
    """Calculator ``key``'s figure ``figure``, as the page shows it."""
    return scope.locator(f'.rl-calc-{key} [data-figure="{figure}"]').first


def type_into(scope: Any, key: str, name: str, text: str) -> None:
    """Type ``text`` into calculator ``key``'s field ``name``, then Enter (as a GM does)."""
    box = field_box(scope, key, name)
    box.fill(text)
    box.press("Enter")


def charts_drawn_at_their_width(page: Any, key: str) -> None:
    """Wait until every chart of calculator ``key`` is drawn for the width it now has."""
    page.wait_for_function(
        """(key) => [...document.querySelectorAll(`.rl-calc-${key} .rl-chart`)].every((f) => {
            const el = f.parentElement, w = el.clientWidth;
            const want = Math.round(Math.max(280, Math.min(640, w || 560)));
            return !f.querySelector("svg") || el.dataset.drawnWidth === String(want);
        })""",
        arg=key,
    )


#: Run in every page and frame of the tests' browser contexts: the app page's snapshot
#: maker (docs/app-page.md, "A snapshot of the warmed interpreter") is not started, as
#: after one that failed (the page's own back-off: it then says ``off``). Otherwise every
#: page kept open a few seconds would start a second Python in the background (some
#: seconds of a core each, and more requests in the servers' logs), and the tests would
#: run a restored interpreter or a started one by chance. The snapshot's own tests
#: (tests/browser/test_app_snapshot.py) open their contexts with
#: ``browser.new_context_making_snapshots`` or
#: ``browser.browser_type.launch_persistent_context_making_snapshots``.
NO_SNAPSHOT_JS = (
    "try { localStorage.setItem('ruleslab:snapshot-failed', String(Date.now())); } catch (e) {}"
)


def _without_snapshots(launch: Any) -> Any:
    """``launch`` (a function making a browser context), with :data:`NO_SNAPSHOT_JS` added
    to every context it makes."""

    def launched(*args: Any, **kwargs: Any) -> Any:
        context = launch(*args, **kwargs)
        context.add_init_script(NO_SNAPSHOT_JS)
        return context

    return launched


#: An app page's calculator is drawn (its runtime has reported, the loading screen is gone).
APP_DRAWN_JS = "() => !!window.ruleslab.runtime && !document.getElementById('loading')"


def open_app_page(context: Any, url: str, errors: list[str]) -> Any:
    """A new page of ``context`` at app page ``url``, once drawn; its console errors and
    page errors are added to ``errors``."""
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.goto(url)
    page.wait_for_function(APP_DRAWN_JS, timeout=KERNEL_TIMEOUT)
    return page


def engine_result(key: str, **inputs: str) -> Any:
    """The engine's result for calculator ``key`` at its defaults with ``inputs`` typed."""
    from ruleslab.calculators import get

    calc = get(key)
    values = dict(calc.defaults()) | inputs
    return calc.run({p.name: p.parse(values[p.name]) for p in calc.params})


@contextmanager
def served(root: Path) -> Iterator[str]:
    """The folder ``root`` served on 127.0.0.1 at a port of its own (another origin than
    the site's: a host page for embeds), while the block runs; its address."""
    from tools.build_site import make_server

    server = make_server(root, host="127.0.0.1", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_dir() -> Path:
    site = os.environ.get("RULESLAB_SITE")
    if not site:
        pytest.fail("RULESLAB_SITE is not set: build the site and run through scripts/test")
    path = Path(site)
    if not (path / "jupyter-lite.json").is_file():
        pytest.fail(f"{path} is not a built site (no jupyter-lite.json): run tools/build_site.py")
    return path


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    from tools.build_site import make_server

    server = make_server(site_dir, host="127.0.0.1", port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: scripts/bootstrap installs Debian's chromium")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        kind = browser.browser_type  # (one object: pw.chromium)
        browser.new_context_making_snapshots = browser.new_context
        kind.launch_persistent_context_making_snapshots = kind.launch_persistent_context
        browser.new_context = _without_snapshots(browser.new_context)
        kind.launch_persistent_context = _without_snapshots(kind.launch_persistent_context)
        yield browser
        browser.close()


class PageWatch:
    """Everything a page asked for off-origin, and every console error."""

    def __init__(self, page, base_url: str) -> None:
        self.base = base_url
        self.offsite: list[str] = []
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.requests: list[str] = []  # every URL the page and its workers asked for
        page.on("request", self._on_request)
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _on_request(self, request) -> None:
        url = request.url
        self.requests.append(url)
        if not url.startswith(self.base) and not url.startswith(("data:", "blob:")):
            self.offsite.append(url)

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            self.errors.append(msg.text)
        elif msg.type == "warning":
            self.warnings.append(msg.text)


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1100, "height": 2200})
    page = context.new_page()
    page.watch = PageWatch(page, base_url)  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.fixture(scope="session")
def watch() -> type[PageWatch]:
    """``watch(page, base_url)`` watches a page of a test's own browser context."""
    return PageWatch


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


class DeployServer:
    """A server of its own (own port: a service worker is per origin) for a site folder
    that can be swapped for another while it runs: a redeploy at the same address.

    ``log`` holds ``(path, precache version or "")`` for each request: the
    worker's precache fetches carry ``X-Ruleslab-Precache``. ``cache_control``: the
    development server's ``no-store``, or what a production host sends.
    """

    def __init__(self, site: Path, cache_control: str = "no-store") -> None:
        from tools.build_site import SiteRequestHandler

        self.site = Path(site)
        self.log: list[tuple[str, str]] = []
        outer = self

        class Handler(SiteRequestHandler):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(outer.site), **kwargs)

            def send_head(self):  # type: ignore[no-untyped-def]
                outer.log.append((self.path, self.headers.get("X-Ruleslab-Precache", "")))
                return super().send_head()

            def end_headers(self) -> None:
                self.send_header("Cache-Control", cache_control)
                http.server.SimpleHTTPRequestHandler.end_headers(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.running = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Stop serving: the network is gone for this origin (connections are refused)."""
        if self.running:
            self.running = False
            self.httpd.shutdown()
            self.httpd.server_close()


@pytest.fixture
def deploy_server(site_dir: Path) -> Iterator[DeployServer]:
    server = DeployServer(site_dir)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def cacheable_deploy_server(site_dir: Path) -> Iterator[DeployServer]:
    """As ``deploy_server``, but browsers may cache for an hour, as from a static host."""
    server = DeployServer(site_dir, cache_control="public, max-age=3600")
    try:
        yield server
    finally:
        server.stop()
