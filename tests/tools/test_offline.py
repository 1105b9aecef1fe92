"""tools.offline on a small hand-made site: the manifest, the worker, the pins, the checks.

The browser side (the worker serving the cache, updates) is tested in
``tests/browser/test_offline.py``; here, what the build writes.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from tools.offline import (
    CACHE_PREFIX,
    JUPYTERLITE_WORKER,
    MANIFEST,
    PAGE_SCRIPT,
    WORKER,
    OfflineError,
    check_offline,
    not_precached,
    read_manifest,
    write_offline,
)

THEIR_WORKER = '"use strict";const CACHE="precache",broadcast=new BroadcastChannel("/sw-api.v1");\n'
LAB_PAGE = (
    "<html><head>\n"
    '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">\n'
    "{}\n</script>\n"
    "<script>import('../config-utils.js?_=1')</script>\n"
    "</head><body></body></html>\n"
)
LANDING = (
    '<html><head><script id="jupyter-config-data" type="application/json" '
    'data-jupyter-lite-root=".">{}</script></head><body>calculators</body></html>\n'
)

#: The files of the fake site (path: bytes) and whether each is precached.
FILES: dict[str, tuple[bytes, bool]] = {
    "index.html": (LANDING.encode(), True),
    "app.html": (b"<html>app</html>", True),
    "lab/index.html": (LAB_PAGE.encode(), True),  # (pinned: checked apart)
    "build/lab/bundle.js": (b"console.log(1)", True),
    "build/icon.svg": (b"<svg/>", True),  # an image, not a font
    "build/bundle.js.map": (b"{}", False),
    "files/dice pool.ipynb": (b'{"cells": []}', True),
    "extensions/@scope/pkg/static/remoteEntry.1.js": (b"x", True),
    "static/app/app.js": (b"app", True),
    "static/app/fa-solid-900-AAAA.woff2": (b"w2", True),
    "static/app/fa-solid-900-BBBB.ttf": (b"ttf", False),
    "static/app/fa-solid-900-CCCC.svg": (b"svg", False),
    "static/app/fa-solid-900-DDDD.eot": (b"eot", False),
    "static/app/fa-solid-900-EEEE.woff": (b"woff", False),
    "static/app/other-font-1-FFFF.ttf": (b"no woff2 of this face", True),
    "rspack.config.js": (b"module.exports = {}", False),
}


def _site(tmp_path: Path, *, cache_setting: bool = False) -> Path:
    site = tmp_path / "site"
    for rel, (data, _) in FILES.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
    config = {"jupyter-config-data": {"appVersion": "0.8.6"}}
    config["jupyter-config-data"]["enableServiceWorkerCache"] = cache_setting  # type: ignore[index]
    (site / "jupyter-lite.json").write_text(json.dumps(config))
    (site / WORKER).write_text(THEIR_WORKER)
    return site


def _sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def _embedded(site: Path) -> dict:
    text = (site / WORKER).read_text()
    start = text.index("const OFFLINE = ") + len("const OFFLINE = ")
    return json.JSONDecoder().raw_decode(text[start:])[0]


def test_the_manifest_lists_every_file_a_page_may_fetch_with_its_hash(tmp_path):
    site = _site(tmp_path)
    manifest = write_offline(site)
    expected = {rel for rel, (_, kept) in FILES.items() if kept}
    expected |= {"jupyter-lite.json", PAGE_SCRIPT}
    assert set(manifest.files) == expected
    for rel in expected - {"lab/index.html"}:  # (the lab page was pinned since)
        assert manifest.files[rel] == _sri((site / rel).read_bytes())
    assert manifest.files["files/dice pool.ipynb"] == _sri(b'{"cells": []}')
    assert manifest.bytes == sum((site / rel).stat().st_size for rel in expected)
    assert manifest.cache_name == CACHE_PREFIX + manifest.version
    assert len(manifest.version) == 16
    # the worker holds the same manifest; the file beside it says the same
    assert _embedded(site) == manifest.to_json()
    assert read_manifest(site) == manifest
    assert check_offline(site) == []


def test_why_a_file_is_left_out():
    site = Path("/nonexistent")
    assert "worker" in (not_precached(WORKER, site) or "")
    assert "worker" in (not_precached(JUPYTERLITE_WORKER, site) or "")
    assert "manifest" in (not_precached(MANIFEST, site) or "")
    assert "source map" in (not_precached("build/x.js.map", site) or "")
    assert not_precached("build/x.js", site) is None


def test_jupyterlites_worker_is_kept_and_imported(tmp_path):
    site = _site(tmp_path)
    write_offline(site)
    assert (site / JUPYTERLITE_WORKER).read_text() == THEIR_WORKER
    worker = (site / WORKER).read_text()
    assert "importScripts(new URL(OFFLINE.jupyterlite, SCOPE).href)" in worker
    assert _embedded(site)["jupyterlite"] == JUPYTERLITE_WORKER
    assert "RULESLAB-OFFLINE-MANIFEST" not in worker


@pytest.mark.parametrize(("setting", "query"), [(False, "false"), (True, "true")])
def test_jupyterlite_pages_record_the_worker_once(tmp_path, setting, query):
    site = _site(tmp_path, cache_setting=setting)
    write_offline(site)
    write_offline(site)  # a second run over the same site: no second pin
    lab = (site / "lab/index.html").read_text()
    assert lab.count("data-ruleslab-offline-pin") == 1
    # after the config element, before JupyterLite's code runs
    assert (
        lab.index("jupyter-config-data")
        < lab.index("ruleslab-offline-pin")
        < lab.index("config-utils.js")
    )
    assert f'"worker": "service-worker.js?enableCache={query}"' in lab
    assert '"appVersion": "0.8.6"' in lab
    assert "ruleslab-offline-pin" not in (site / "index.html").read_text()  # not JupyterLite's
    # the pages' script, relative to the page, told to wait for the kernels
    tag = '<script src="../static/offline/offline.js" data-ruleslab-wait="kernels" defer>'
    assert lab.count(tag) == 1
    assert "offline.js" not in (site / "index.html").read_text()
    page = (site / PAGE_SCRIPT).read_text()
    assert f'{{"worker": "service-worker.js?enableCache={query}"}}' in page


def test_any_change_gives_a_new_version_and_worker_and_only_a_change(tmp_path):
    site = _site(tmp_path)
    first = write_offline(site)
    worker = (site / WORKER).read_text()
    # an edit the manifest does not cover changes nothing
    (site / "rspack.config.js").write_text("changed")
    assert write_offline(site) == first
    assert (site / WORKER).read_text() == worker
    # one byte of one served file: a new version, cache and worker
    (site / "static/app/app.js").write_bytes(b"apq")
    second = write_offline(site)
    assert second.version != first.version
    assert second.files["static/app/app.js"] == _sri(b"apq")
    assert {r for r in second.files if second.files[r] != first.files[r]} == {"static/app/app.js"}
    assert (site / WORKER).read_text() != worker
    # and back: the same version again (the manifest is a function of the files)
    (site / "static/app/app.js").write_bytes(b"app")
    assert write_offline(site) == first


def test_check_offline_names_what_is_out_of_step(tmp_path):
    site = _site(tmp_path)
    assert check_offline(site) == [f"{MANIFEST} missing: the site does not work offline"]
    write_offline(site)
    (site / "static/app/app.js").write_bytes(b"edited after the build")
    (site / "static/app/new.js").write_bytes(b"added after the build")
    lab = site / "lab/index.html"
    lab.write_text(LAB_PAGE)  # the pin lost
    problems = check_offline(site)
    assert "static/app/app.js: changed after the manifest was made" in problems
    assert "static/app/new.js: in the site, not in the manifest" in problems
    assert "lab/index.html: no worker pin for JupyterLite" in problems
    write_offline(site)
    assert check_offline(site) == []


def test_a_worker_that_is_not_jupyterlites_is_refused(tmp_path):
    site = _site(tmp_path)
    (site / WORKER).write_text("self.addEventListener('fetch', () => {});")
    with pytest.raises(OfflineError, match="is not JupyterLite's service worker"):
        write_offline(site)
