"""The offline cache's two parts on the built site (``tools/offline.py``, ``app_part``).

The app part is what a GM who only opens calculators needs: checked here against
the app page's own lock and the files each page loads, listed independently of
the code under test; everything of JupyterLab, the kernel and the notebooks is in
the notebook part, cached only once a notebook is opened (or on request).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.site.conftest import NEEDS_SITE

pytestmark = NEEDS_SITE


def test_the_app_part_holds_what_the_app_pages_load(site: Path) -> None:
    from tools.offline import read_manifest

    manifest = read_manifest(site)
    app = set(manifest.app)
    lock = json.loads((site / "static/pyodide/app-lock.json").read_text(encoding="utf-8"))
    wheels = {f"static/pyodide/{e['file_name']}" for e in lock["packages"].values()}
    assert {"ruleslab", "ipywidgets", "anywidget"} <= set(lock["packages"])
    pages = {"index.html", "app.html", "embed.js", "favicon.ico", "rules-notes/index.html"}
    # (the runtime script is the app's own fixed copy: tools.build_app.patched_pyodide_asm)
    pyodide = {
        "static/pyodide/pyodide.mjs",
        "static/pyodide/pyodide.asm.wasm",
        "static/pyodide/app-lock.json",
        "static/pyodide/app_stdlib.zip",
    }
    front = {
        "static/app/app.js",
        "static/app/app.css",
        "static/app/worker.mjs",
        "static/app/python.mjs",
        "static/app/snapshot.mjs",
        "static/app/pyodide.asm.mjs",
    }
    assert pages | pyodide | front | wheels | {"static/offline/offline.js"} <= app
    notes = {p.relative_to(site).as_posix() for p in (site / "rules-notes").rglob("*.html")}
    assert notes <= app
    # each calculator's static page: the app page draws it before Python (make_content)
    static = {p.relative_to(site).as_posix() for p in (site / "calculators").glob("*.html")}
    assert len(static) >= 14
    assert static <= app
    # of Pyodide's folder nothing else: not the full library, not the kernel's packages
    assert {rel for rel in app if rel.startswith("static/pyodide/")} == pyodide | wheels


def test_the_notebook_environment_is_the_other_part(site: Path) -> None:
    from tools.offline import read_manifest

    manifest = read_manifest(site)
    app, notebooks = set(manifest.app), set(manifest.notebooks)
    assert app | notebooks == set(manifest.files)
    assert not app & notebooks
    for folder in ("lab", "build", "extensions", "files", "notebooks", "api"):
        assert not {rel for rel in app if rel.startswith(folder + "/")}, folder
        assert any(rel.startswith(folder + "/") for rel in notebooks), folder
    for rel in (
        "static/pyodide/python_stdlib.zip",
        "static/pyodide/pyodide-lock.json",
        "jupyter-lite.json",
        "config-utils.js",
    ):
        assert rel in notebooks, rel
    ipython = [rel for rel in notebooks if rel.startswith("static/pyodide/ipython-")]
    assert ipython
    sizes = {rel: (site / rel).stat().st_size for rel in manifest.files}
    assert manifest.app_bytes == sum(sizes[rel] for rel in app)
    # the app part is a small share of the site (JupyterLab is most of it)
    assert manifest.app_bytes < manifest.bytes / 2
