"""The site under a sub-path, as GitHub Pages serves a project: ``/ruleslab/``.

A server of its own maps ``/ruleslab/`` to the built site (``RULESLAB_SITE``) and
answers 404 anywhere else, recording the request. In Chromium: the landing page,
an app page computing a figure (and again after an input changes), a notebook
page whose kernel starts, ``embed.js`` on a host page of another origin, and the
offline worker registering with the sub-path as its scope and filling its cache.
No request reaches the origin outside ``/ruleslab/`` (server side), and none
leaves the two origins (browser side).
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    KERNEL_IDLE_JS,
    KERNEL_TIMEOUT,
    PageWatch,
    field_box,
    figure_at,
    type_into,
)
from tools.make_content import notebook_link
from tools.offline import read_manifest, worker_url

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")
from ruleslab.calculators import get  # noqa: E402

PREFIX = "/ruleslab/"


class SubPathServer:
    """The site at ``PREFIX`` of its own origin; ``outside`` holds every other path asked."""

    def __init__(self, site: Path) -> None:
        from tools.build_site import SiteRequestHandler

        self.outside: list[str] = []
        outer = self

        class Handler(SiteRequestHandler):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(site), **kwargs)

            def send_head(self):  # type: ignore[no-untyped-def]
                path = self.path.split("?", 1)[0]
                if path == PREFIX.rstrip("/"):  # as GitHub Pages: to the folder
                    self.send_response(http.HTTPStatus.MOVED_PERMANENTLY)
                    self.send_header("Location", PREFIX)
                    self.end_headers()
                    return None
                if not path.startswith(PREFIX):
                    outer.outside.append(self.path)
                    self.send_error(http.HTTPStatus.NOT_FOUND, "Outside the site")
                    return None
                return super().send_head()

            def translate_path(self, path: str) -> str:
                return super().translate_path("/" + path[len(PREFIX) :])

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.base = self.origin + PREFIX
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class HostServer:
    """Another origin serving one host page (the embed's)."""

    def __init__(self, html: str) -> None:
        body = html.encode("utf-8")

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path.split("?", 1)[0] != "/":
                    self.send_error(http.HTTPStatus.NOT_FOUND)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def subpath(site_dir: Path) -> Iterator[SubPathServer]:
    server = SubPathServer(site_dir)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 1600})
    try:
        yield context
    finally:
        context.close()


def _no_escape(server: SubPathServer, watch: PageWatch, *also: str) -> None:
    assert server.outside == [], f"asked outside {PREFIX}: {server.outside}"
    offsite = [u for u in watch.offsite if not u.startswith(also)] if also else watch.offsite
    assert offsite == [], f"left the site: {offsite}"


def test_the_landing_page_and_its_offline_worker_under_a_sub_path(subpath, context, site_dir):
    from playwright.sync_api import expect

    page = context.new_page()
    watch = PageWatch(page, subpath.base)
    page.goto(subpath.origin + PREFIX.rstrip("/"))  # as typed: redirected to the folder
    assert page.url == subpath.base
    expect(page.locator('a[href="lifting.html"]').first).to_be_visible()
    answer = page.evaluate("() => window.ruleslabOffline.ready")
    manifest = read_manifest(site_dir)
    assert answer["type"] == "complete", answer
    assert answer["files"] == len(manifest.app)  # the calculators' part (tools/offline.py)
    registration = page.evaluate(
        """async () => {
          const r = await navigator.serviceWorker.ready;
          return { scope: r.scope, script: r.active.scriptURL };
        }"""
    )
    assert registration == {"scope": subpath.base, "script": subpath.base + worker_url(site_dir)}
    # a reload is answered by the worker, still inside the sub-path
    page.reload()
    expect(page.locator('a[href="lifting.html"]').first).to_be_visible()
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL").startswith(
        subpath.base
    )
    assert watch.errors == []
    watch.offsite.remove(subpath.origin + PREFIX.rstrip("/"))  # (typed, and redirected)
    _no_escape(subpath, watch)


def test_an_app_page_computes_under_a_sub_path(subpath, context):
    from playwright.sync_api import expect

    page = context.new_page()
    watch = PageWatch(page, subpath.base)
    page.goto(subpath.base + "app.html?calculator=lifting&strength=5&might=2&object_kg=450")
    # 30 kg × (Strength 5 + Might 2)
    expect(figure_at(page, "lifting", "capacity")).to_have_text("210 kg", timeout=KERNEL_TIMEOUT)
    type_into(page, "lifting", "strength", "6")
    expect(figure_at(page, "lifting", "capacity")).to_have_text("240 kg", timeout=30_000)
    assert field_box(page, "lifting", "strength").input_value() == "6"
    assert watch.errors == []
    _no_escape(subpath, watch)


def test_a_notebook_opens_and_its_kernel_starts_under_a_sub_path(subpath, context):
    from playwright.sync_api import expect

    page = context.new_page()
    watch = PageWatch(page, subpath.base)
    page.goto(subpath.base + notebook_link(get("dice_pool")))
    expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=KERNEL_TIMEOUT)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT)
    _no_escape(subpath, watch)


def test_embed_js_from_a_host_page_under_a_sub_path(subpath, context):
    host = HostServer(
        "<!doctype html><html><head><title>Host</title></head><body>\n"
        f'<script src="{subpath.base}embed.js" defer></script>\n'
        '<div data-ruleslab="lifting" data-strength="5" data-might="2" data-object_kg="450">'
        "</div>\n</body></html>"
    )
    try:
        from playwright.sync_api import expect

        page = context.new_page()
        watch = PageWatch(page, subpath.base)
        page.goto(host.base)
        frame = page.frame_locator("iframe").first
        expect(figure_at(frame, "lifting", "capacity")).to_have_text(
            "210 kg", timeout=KERNEL_TIMEOUT
        )
        src = page.locator("iframe").first.get_attribute("src") or ""
        assert src.startswith(subpath.base + "app.html?"), src
        _no_escape(subpath, watch, host.base)
    finally:
        host.stop()
