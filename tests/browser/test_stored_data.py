"""Junk in the browser's storage never wedges the notebook update step, nor loses a notebook.

``lite/keep_notebooks.mjs`` runs before JupyterLite on every notebook page and brings
the GM's stored notebooks up to date with the deploy (``test_redeploy.py``). Here the
store holds what a corrupted profile, another script or an old build can leave, all at
once, written straight into IndexedDB and localStorage before the first notebook page
is opened:

* a stored copy of a served notebook whose ``metadata`` is a string (``"corrupt"``),
  one with a ``null`` cell, and a string where a file should be: each is set aside in
  the copies folder (nothing lost; the string as a text file) with a notice, and the
  served version shows at its path;
* after them (the manifest's order), an untouched copy of an older published version:
  still refreshed, so a bad copy never stops the ones after it;
* notices in localStorage that are not notices (``null``, ``{}``, a number, a notice
  naming ``..``) beside a valid one: the valid one is shown, the junk dropped;
* an earlier build's store holding a nameless entry, folders named ``..``, a path
  through ``..``, a string where a file should be and junk counters, beside a real
  notebook of the GM's: only the notebook is brought over.

A second page load moves nothing again and shows the same notices.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DeployServer
from tests.browser.test_redeploy import Watch, _lab, _listing, _read, _sources, _stored
from tools.keep_notebooks import COPIES_FOLDER, STAMP_KEY, cells_fingerprint

pytestmark = pytest.mark.browser

LEGACY = "ruleslab-contents-00000000abcd"
GM_OWN = 'print("our own notebook, from before the update")'

#: Create a database laid out as localforage lays out JupyterLite's contents, and put
#: ``files`` (path -> model) and ``counters`` into it.
SEED_JS = """async ([name, files, counters]) => {
  const req = indexedDB.open(name, 1);
  req.onupgradeneeded = () => {
    for (const store of ['files', 'counters', 'checkpoints', 'local-forage-detect-blob-support'])
      req.result.createObjectStore(store);
  };
  const db = await new Promise((ok, fail) => { req.onsuccess = () => ok(req.result);
                                                req.onerror = () => fail(req.error); });
  const tx = db.transaction(['files', 'counters'], 'readwrite');
  for (const [path, model] of files) tx.objectStore('files').put(model, path);
  for (const [key, value] of counters) tx.objectStore('counters').put(value, key);
  await new Promise((ok, fail) => { tx.oncomplete = ok; tx.onerror = () => fail(tx.error); });
  db.close();
}"""


def _model(path: str, content: Any, kind: str = "notebook") -> dict[str, Any]:
    return {
        "name": path.split("/")[-1],
        "path": path,
        "last_modified": "2026-11-30T10:00:00.000Z",
        "created": "2026-11-30T10:00:00.000Z",
        "format": "json" if kind != "file" else "text",
        "mimetype": "application/x-ipynb+json" if kind == "notebook" else "",
        "content": content,
        "size": 0,
        "writable": True,
        "type": kind,
    }


def _own_notebook() -> dict[str, Any]:
    return {
        "cells": [{"cell_type": "code", "source": GM_OWN, "metadata": {}, "outputs": []}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_junk_in_storage_neither_wedges_the_update_nor_loses_a_notebook(
    browser, site_dir: Path, deploy_server: DeployServer, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    deploy_server.site = site_dir
    names = ("autofire.ipynb", "compressed.ipynb", "warfare.ipynb")
    served = {n: _read(site_dir / "files" / n) for n in names}

    corrupt = json.loads(json.dumps(served["autofire.ipynb"]))
    corrupt["cells"][1]["source"] = "# the GM's edit\n" + "".join(corrupt["cells"][1]["source"])
    corrupt["metadata"] = "corrupt"
    null_cell = json.loads(json.dumps(_read(site_dir / "files" / "chimera.ipynb")))
    null_cell["cells"].insert(1, None)
    older = json.loads(json.dumps(served["warfare.ipynb"]))  # an older publish, untouched
    older["cells"][0]["source"] = "An older introduction."
    older["metadata"][STAMP_KEY] = {"published": cells_fingerprint(older)}
    files = [
        ("autofire.ipynb", _model("autofire.ipynb", corrupt)),
        ("chimera.ipynb", _model("chimera.ipynb", null_cell)),
        ("compressed.ipynb", "garbage"),
        ("warfare.ipynb", _model("warfare.ipynb", older)),
    ]
    legacy_files = [
        ("", _model("", None, "directory")),
        ("..", _model("..", None, "directory")),
        ("a/../b.ipynb", _model("a/../b.ipynb", _own_notebook())),
        ("str", "garbage"),
        ("nothing", None),
        ("mine.ipynb", _model("mine.ipynb", _own_notebook())),
    ]
    notices = [
        None,
        {},
        5,
        {"kind": "kept", "path": "x.ipynb", "copy": "../etc", "why": "edited"},
        {"kind": "refreshed", "path": "old.ipynb"},
    ]

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    watch = Watch(page, deploy_server.base)
    page.goto(deploy_server.base + "static/ruleslab/published.json")  # the origin, no app
    page.evaluate(SEED_JS, ["ruleslab-contents", files, []])
    page.evaluate(SEED_JS, [LEGACY, legacy_files, [["notebook", "x"], ["file", -3]]])
    page.evaluate(
        """(notices) => {
            localStorage.setItem('ruleslab:deploy-notices', JSON.stringify(notices));
            localStorage.setItem('ruleslab:migrated-stores', '{"not": "a list"}');
        }""",
        notices,
    )

    _lab(page, deploy_server.base + "lab/index.html")
    today = datetime.date.today().isoformat()
    copies = [f"{COPIES_FOLDER}/{n} (my copy, {today}).ipynb" for n in ("autofire", "chimera")]
    copies.append(f"{COPIES_FOLDER}/compressed.ipynb (unreadable, {today}).txt")

    def check() -> None:
        # the served versions at their paths, the GM's copies kept with what they held
        for name, notebook in served.items():
            assert _sources(_stored(page, name)) == _sources(notebook), name
        assert _listing(page, COPIES_FOLDER) == copies
        kept = _stored(page, copies[0])
        assert _sources(kept) == _sources(corrupt)
        assert kept["metadata"][STAMP_KEY] == {
            "invalid_metadata": "corrupt",
            "copy_of": "autofire.ipynb",
        }
        assert _stored(page, copies[2]) == '"garbage"'  # set aside as text, not deleted
        root = _listing(page)
        assert "mine.ipynb" in root
        assert _sources(_stored(page, "mine.ipynb")) == [GM_OWN]
        assert not {"", "..", "a", "str", "nothing"} & set(root)

        notice = page.locator("#ruleslab-deploy-notice")
        expect(notice).to_be_visible()
        items = notice.locator("li")
        expect(items).to_have_count(6)
        expect(notice.locator('li.rl-deploy-kept[data-path="autofire.ipynb"]')).to_contain_text(
            "the site now publishes a notebook of this name"
        )
        expect(notice.locator('li.rl-deploy-kept[data-path="chimera.ipynb"]')).to_contain_text(
            "could not be read as a notebook"
        )
        expect(
            notice.locator('li.rl-deploy-kept[data-path="compressed.ipynb"] .rl-deploy-copy')
        ).to_have_text(copies[2])
        expect(notice.locator('li.rl-deploy-refreshed[data-path="warfare.ipynb"]')).to_have_count(1)
        expect(notice.locator('li.rl-deploy-refreshed[data-path="old.ipynb"]')).to_have_count(1)
        expect(notice.locator('li.rl-deploy-migrated[data-path="mine.ipynb"]')).to_have_count(1)

    check()
    page.screenshot(path=str(artifacts / "stored-junk-notice.png"))
    _lab(page, deploy_server.base + "lab/index.html")  # again: nothing moved twice
    page.wait_for_timeout(500)
    check()
    watch.check()
    context.close()
