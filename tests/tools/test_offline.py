"""tools.offline on a small hand-made site: the manifest, the worker, the pins, the checks.

The browser side (the worker serving the cache, updates) is tested in
``tests/browser/test_offline.py``; here, what the build writes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from tools.offline import (
    CACHE_PREFIX,
    JUPYTERLITE_WORKER,
    MANIFEST,
    PAGE_SCRIPT,
    WORKER,
    OfflineError,
    app_part,
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

APP_LOCK_JSON = json.dumps(
    {
        "info": {},
        "packages": {
            "ruleslab": {"file_name": "ruleslab-0.1.0-py3-none-any.whl", "depends": ["comm"]},
            "comm": {"file_name": "comm-0.2.3-py3-none-any.whl", "depends": []},
        },
    }
)
NOTES_PAGE = (
    '<html><head><link rel="icon" href="../favicon.ico">'
    '<link rel="stylesheet" href="style-of-notes.css?v=1"></head>'
    '<body><a href="../lab/index.html">a notebook (a link, not loaded)</a>'
    '<img src="data:image/png;base64,AAAA"></body></html>'
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
    # the app page's side (tools/build_app.py writes it): its worker imports Pyodide
    "static/app/worker.mjs": (b'import { loadPyodide } from "../pyodide/pyodide.mjs";\n', True),
    "static/pyodide/pyodide.mjs": (b"export function loadPyodide() {}", True),
    "static/pyodide/pyodide.js": (b"var loadPyodide;", True),
    "static/pyodide/pyodide.asm.mjs": (b"asm", True),
    "static/pyodide/pyodide.asm.wasm": (b"\0asm", True),
    "static/pyodide/app-lock.json": (APP_LOCK_JSON.encode(), True),
    "static/pyodide/pyodide-lock.json": (b"{}", True),
    "static/pyodide/app_stdlib.zip": (b"PK app", True),
    "static/pyodide/python_stdlib.zip": (b"PK all", True),
    "static/pyodide/ruleslab-0.1.0-py3-none-any.whl": (b"PK rl", True),
    "static/pyodide/comm-0.2.3-py3-none-any.whl": (b"PK comm", True),
    "static/pyodide/ipython-9.0-py3-none-any.whl": (b"PK ipython", True),
    "embed.js": (b"embed", True),
    "favicon.ico": (b"ico", True),
    "rules-notes/index.html": (NOTES_PAGE.encode(), True),
    "rules-notes/style-of-notes.css": (b"p {}", True),
    "rules-notes/lifting.html": (b"<p>lifting</p>", True),
}

#: What the app part of the fake site must hold (by hand: the pages, the rules notes and
#: what they load, static/app, the pages' script; of Pyodide the module worker.mjs imports,
#: its runtime, the app lock, the two wheels it names, the cut standard library).
APP_PART = {
    "index.html",
    "app.html",
    "embed.js",
    "favicon.ico",
    "rules-notes/index.html",
    "rules-notes/style-of-notes.css",
    "rules-notes/lifting.html",
    "static/app/app.js",
    "static/app/worker.mjs",
    "static/app/fa-solid-900-AAAA.woff2",
    "static/app/other-font-1-FFFF.ttf",
    "static/offline/offline.js",
    "static/pyodide/pyodide.mjs",
    "static/pyodide/pyodide.asm.mjs",
    "static/pyodide/pyodide.asm.wasm",
    "static/pyodide/app-lock.json",
    "static/pyodide/app_stdlib.zip",
    "static/pyodide/ruleslab-0.1.0-py3-none-any.whl",
    "static/pyodide/comm-0.2.3-py3-none-any.whl",
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


def test_the_app_part_is_what_the_app_pages_load_and_no_more(tmp_path):
    site = _site(tmp_path)
    manifest = write_offline(site)
    assert set(manifest.app) == APP_PART
    assert list(manifest.app) == sorted(APP_PART)
    assert manifest.app_bytes == sum((site / rel).stat().st_size for rel in APP_PART)
    notebooks = set(manifest.notebooks)
    assert notebooks == set(manifest.files) - APP_PART
    # JupyterLab, the full standard library, the kernel's packages: the notebook part
    for rel in (
        "lab/index.html",
        "build/lab/bundle.js",
        "files/dice pool.ipynb",
        "jupyter-lite.json",
        "static/pyodide/python_stdlib.zip",
        "static/pyodide/pyodide-lock.json",
        "static/pyodide/ipython-9.0-py3-none-any.whl",
        "static/pyodide/pyodide.js",
    ):
        assert rel in notebooks, rel
    assert _embedded(site)["app"] == sorted(APP_PART)
    assert _embedded(site)["app_bytes"] == manifest.app_bytes


def test_the_app_part_follows_the_app_lock(tmp_path):
    site = _site(tmp_path)
    first = write_offline(site)
    lock = json.loads(APP_LOCK_JSON)
    lock["packages"]["ipython"] = {"file_name": "ipython-9.0-py3-none-any.whl", "depends": []}
    (site / "static/pyodide/app-lock.json").write_text(json.dumps(lock))
    assert check_offline(site) != []  # (the manifest is stale)
    second = write_offline(site)
    assert set(second.app) == APP_PART | {"static/pyodide/ipython-9.0-py3-none-any.whl"}
    assert second.version != first.version
    assert check_offline(site) == []


def test_an_app_part_that_cannot_be_derived_is_an_error(tmp_path):
    site = _site(tmp_path)
    files = {rel for rel, (_, kept) in FILES.items() if kept}
    (site / "static/app/worker.mjs").write_text("// no Pyodide import\n")
    with pytest.raises(OfflineError, match="imports Pyodide"):
        app_part(site, files)
    # (a dynamic import is found too)
    (site / "static/app/worker.mjs").write_text('await import("../pyodide/pyodide.mjs");\n')
    with pytest.raises(OfflineError, match=re.escape("static/pyodide/comm-0.2.3-py3-none-any.whl")):
        app_part(site, files - {"static/pyodide/comm-0.2.3-py3-none-any.whl"})


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
