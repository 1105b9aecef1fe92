"""A redeploy keeps what a GM saved in the browser, and still delivers updated notebooks.

Two deploys of the site are served, one after the other, at the **same origin**
(IndexedDB, where JupyterLite keeps what a GM saves, is per origin), to one
browser profile:

* deploy A is the built site (``RULESLAB_SITE``);
* deploy B is a copy of it in which two served notebooks changed, re-published
  with the build's own :func:`tools.keep_notebooks.publish_notebooks` (the
  stamps, the listing and the manifest, as ``build_site`` writes them).

Under A the GM runs ``dice_pool.ipynb`` (JupyterLite saves it with outputs, cells
untouched), edits ``lifting.ipynb`` (changed in B) and ``jumping.ipynb`` (not
changed in B), and makes a notebook of their own. Under B: their own notebook
and both edits are there with their content (the lifting edit moved to
``My copies/``, the jumping edit in place), ``dice_pool.ipynb`` and
``lifting.ipynb`` show B's cells, and a notice says what happened.

A second test starts from a deploy of the earlier kind (contents storage named
``ruleslab-contents-<hash>``, nothing stamped, no script) and checks that what
the GM saved there is brought over.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT, DeployServer, run_notebook
from tools.keep_notebooks import COPIES_FOLDER, STAMP_KEY, cells_fingerprint, publish_notebooks
from tools.offline import write_offline

pytestmark = pytest.mark.browser

B_LINE = "Published again in deploy B: this line is new."
GM_LIFTING = "# house rule: Mega-Strength counts double at our table\n"
GM_JUMPING = "# our jumping house rule\n"
GM_HEALING = "# Medicine 4 at our table: the kit counts as a hospital\n"
GM_OWN = 'print("the fight at the docks, round 3")'
LEGACY_NAME = "ruleslab-contents-0123456789ab"


def _copy_site(site: Path, dest: Path) -> Path:
    """A copy of a built site, hard-linked (the build's writes replace files, never
    write through a link)."""
    shutil.copytree(site, dest, copy_function=os.link)
    return dest


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path: Path, notebook: dict[str, Any]) -> None:
    path.unlink()
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _deploy_b(site: Path, dest: Path) -> Path:
    """Deploy A with ``dice_pool`` and ``lifting`` changed (a sentence added to their
    introduction), published by the build's own functions: the stamps, then the
    offline manifest and worker (a new deployment, as the build's last step makes
    it). A full copy: the offline step writes its files in place."""
    shutil.copytree(site, dest)
    for name in ("dice_pool.ipynb", "lifting.ipynb"):
        notebook = _read(dest / "files" / name)
        intro = notebook["cells"][0]
        intro["source"] = "".join(intro["source"]) + "\n\n" + B_LINE
        _write(dest / "files" / name, notebook)
    published = publish_notebooks(dest)
    before = _read(site / "static" / "ruleslab" / "published.json")["notebooks"]
    assert {k for k in published if published[k] != before[k]} == {
        "dice_pool.ipynb",
        "lifting.ipynb",
    }
    write_offline(dest)
    return dest


def _legacy_deploy(site: Path, dest: Path) -> Path:
    """A deploy as the earlier builds made it: contents storage named after a hash of
    the content, notebooks not stamped, no script before JupyterLite (nor the early
    kernel start, whose script lives beside it in static/ruleslab)."""
    _copy_site(site, dest)
    config_path = dest / "jupyter-lite.json"
    config = _read(config_path)
    config["jupyter-config-data"]["contentsStorageName"] = LEGACY_NAME
    config["jupyter-config-data"]["workspacesStorageName"] = "ruleslab-workspaces-0123456789ab"
    config_path.unlink()
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    for page in dest.glob("**/index.html"):
        text = page.read_text(encoding="utf-8")
        marks = ("ruleslab:keep-notebooks", "static/ruleslab/early-kernel.js")
        if any(mark in text for mark in marks):
            lines = [ln for ln in text.splitlines(True) if not any(m in ln for m in marks)]
            page.unlink()
            page.write_text("".join(lines), encoding="utf-8")
    for path in (dest / "files").glob("*.ipynb"):
        notebook = _read(path)
        del notebook["metadata"][STAMP_KEY]
        _write(path, notebook)
    shutil.rmtree(dest / "static" / "ruleslab")
    return dest


class Watch:
    """Requests that left the origin, and console errors."""

    def __init__(self, page, base: str) -> None:
        self.offsite: list[str] = []
        self.errors: list[str] = []
        page.on(
            "request",
            lambda r: (
                None if r.url.startswith((base, "data:", "blob:")) else self.offsite.append(r.url)
            ),
        )
        page.on(
            "console",
            lambda m: self.errors.append(f"{m.text} {m.location}") if m.type == "error" else None,
        )
        page.on(
            "response",
            lambda r: self.errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def check(self) -> None:
        assert self.offsite == [], f"requests left the site: {self.offsite}"
        assert self.errors == [], f"console errors: {self.errors}"


def _lab(page, url: str) -> None:
    """Open a JupyterLab page and wait until its first document is ready."""
    page.goto(url)
    page.wait_for_function(
        "() => !!window.jupyterapp && !!window.jupyterapp.serviceManager"
        " && window.jupyterapp.serviceManager.isReady",
        timeout=KERNEL_TIMEOUT,
    )
    page.evaluate("() => window.jupyterapp.restored")


def _open_and_edit(page, path: str, cell: int, prefix: str) -> None:
    """Open a notebook in JupyterLab, put ``prefix`` before a cell's source, save."""
    page.evaluate(
        """async ([path, cell, prefix]) => {
            const app = window.jupyterapp;
            const panel = await app.commands.execute('docmanager:open', {path});
            await panel.context.ready;
            const model = panel.content.model.cells.get(cell).sharedModel;
            model.setSource(prefix + model.getSource());
            await app.commands.execute('docmanager:save');
        }""",
        [path, cell, prefix],
    )


def _new_notebook(page, source: str) -> str:
    """Make a notebook in JupyterLab as a GM does (its kernel named in its metadata),
    with ``source`` in its first cell, and save it; its path."""
    return page.evaluate(
        """async (source) => {
            const app = window.jupyterapp;
            const panel = await app.commands.execute(
                'notebook:create-new', {cwd: '', kernelName: 'python'});
            await panel.context.ready;
            // as a GM's notebook is saved: with its kernel named in its metadata
            await panel.sessionContext.ready;
            while (!(panel.content.model.getMetadata('kernelspec') || {}).name) {
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
            panel.content.model.cells.get(0).sharedModel.setSource(source);
            await panel.context.save();
            return panel.context.path;
        }""",
        source,
    )


def _stored(page, path: str) -> Any:
    """A file's contents as JupyterLite serves it to the app (stored copy or server file)."""
    return page.evaluate(
        """async (path) => {
            const m = await window.jupyterapp.serviceManager.contents.get(path, {content: true});
            return m.content;
        }""",
        path,
    )


def _sources(notebook: dict[str, Any]) -> list[str]:
    return [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in notebook["cells"]
    ]


def _listing(page, path: str = "") -> list[str]:
    return page.evaluate(
        """async (path) => {
            const m = await window.jupyterapp.serviceManager.contents.get(path, {content: true});
            return m.content.map((f) => f.path).sort();
        }""",
        path,
    )


def test_a_redeploy_keeps_the_gms_notebooks_and_updates_the_untouched(
    browser, site_dir: Path, deploy_server: DeployServer, tmp_path: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    deploy_b = _deploy_b(site_dir, tmp_path / "b")
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    watch = Watch(page, deploy_server.base)

    # deploy A: the GM runs dice_pool (untouched), edits two notebooks, makes one
    _lab(page, deploy_server.base + "lab/index.html?path=dice_pool.ipynb")
    run_notebook(page, "dice_pool")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    run = _stored(page, "dice_pool.ipynb")
    served_a = _read(site_dir / "files" / "dice_pool.ipynb")
    # a real "opened and run" copy: outputs saved, the cells as published
    assert any(c.get("outputs") for c in run["cells"] if c["cell_type"] == "code")
    assert cells_fingerprint(run) == cells_fingerprint(served_a)
    assert run["metadata"][STAMP_KEY]["published"] == cells_fingerprint(served_a)

    _open_and_edit(page, "lifting.ipynb", 1, GM_LIFTING)
    _open_and_edit(page, "jumping.ipynb", 1, GM_JUMPING)
    own = _new_notebook(page, GM_OWN)
    assert _sources(_stored(page, "lifting.ipynb"))[1].startswith(GM_LIFTING)
    lifting_a = _sources(_stored(page, "lifting.ipynb"))
    watch.check()

    # deploy B at the same origin. The offline worker (docs/site-build.md, "Offline
    # after the first visit") keeps serving deploy A until B's worker has fetched B
    # whole and the GM takes it: "Use it now" on the landing page, the only page open.
    deploy_server.site = deploy_b
    page.goto(deploy_server.base)
    status = page.locator("#offline-status")
    expect(status).to_contain_text("A new version is ready", timeout=120_000)
    with page.expect_navigation(timeout=60_000):  # granted: the page reloads onto B
        status.get_by_role("button", name="Use it now").click()
    page.wait_for_function(
        "async () => { const r = await navigator.serviceWorker.getRegistration();"
        " return !!r && !r.waiting && !r.installing; }",
        timeout=60_000,
    )
    _lab(page, deploy_server.base + "lab/index.html")
    served_b = {n: _read(deploy_b / "files" / n) for n in ("dice_pool.ipynb", "lifting.ipynb")}

    # the untouched notebook shows the new version (and its outputs are gone)
    dice = _stored(page, "dice_pool.ipynb")
    assert _sources(dice)[0].endswith(B_LINE)
    assert _sources(dice) == _sources(served_b["dice_pool.ipynb"])
    assert not any(c.get("outputs") for c in dice["cells"] if c["cell_type"] == "code")
    notice = page.locator("#ruleslab-deploy-notice")
    expect(notice).to_be_visible()
    item = notice.locator('li.rl-deploy-refreshed[data-path="dice_pool.ipynb"]')
    expect(item).to_contain_text("newer version is published")
    expect(item).to_contain_text("no edits to its cells")

    # the edited notebook whose published version changed: the new version at its
    # path, the GM's copy in the copies folder, with its content
    assert _sources(_stored(page, "lifting.ipynb")) == _sources(served_b["lifting.ipynb"])
    copy = f"{COPIES_FOLDER}/lifting (my copy, {datetime.date.today().isoformat()}).ipynb"
    assert copy in _listing(page, COPIES_FOLDER)
    kept = _stored(page, copy)
    assert _sources(kept) == lifting_a
    assert kept["metadata"][STAMP_KEY]["copy_of"] == "lifting.ipynb"
    item = notice.locator('li.rl-deploy-kept[data-path="lifting.ipynb"]')
    expect(item).to_contain_text("you had edited your copy")
    expect(item.locator(".rl-deploy-copy")).to_have_text(copy)

    # the edit of a notebook B did not change stays in place; the GM's own is there
    assert _sources(_stored(page, "jumping.ipynb"))[1].startswith(GM_JUMPING)
    assert _sources(_stored(page, own)) == [GM_OWN]
    assert COPIES_FOLDER in _listing(page)
    assert own in _listing(page)
    assert notice.locator("li").count() == 2  # nothing said about jumping or the GM's own

    # the file browser shows the copies folder; "Open my copy" opens the GM's edit
    expect(page.locator(".jp-DirListing-item", has_text=COPIES_FOLDER).first).to_be_visible()
    page.screenshot(path=str(artifacts / "redeploy-notice.png"))
    item.get_by_role("button", name="Open my copy").click()
    page.wait_for_function(
        "(path) => { const w = window.jupyterapp.shell.currentWidget;"
        " return !!w && !!w.context && w.context.path === path; }",
        arg=copy,
    )
    panel = page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
    expect(page.locator(f"[id='{panel}'] .jp-Cell").nth(1)).to_contain_text(
        "house rule: Mega-Strength counts double", timeout=30_000
    )
    page.screenshot(path=str(artifacts / "redeploy-my-copy.png"))

    # the notice stays until dismissed, then is gone for good
    _lab(page, deploy_server.base + "lab/index.html")
    expect(notice.locator("li")).to_have_count(2)
    notice.get_by_role("button", name="Dismiss").click()
    expect(notice).to_have_count(0)
    _lab(page, deploy_server.base + "lab/index.html")
    page.wait_for_timeout(500)
    expect(notice).to_have_count(0)
    assert _listing(page, COPIES_FOLDER) == [copy]  # judged again: nothing moved twice
    watch.check()
    context.close()


def test_what_a_gm_saved_under_the_earlier_storage_names_is_brought_over(
    browser, site_dir: Path, deploy_server: DeployServer, tmp_path: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    legacy = _legacy_deploy(site_dir, tmp_path / "legacy")
    deploy_server.site = legacy
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    watch = Watch(page, deploy_server.base)

    _lab(page, deploy_server.base + "lab/index.html?path=lifting.ipynb")
    page.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " return !!w && !!w.context && w.context.isReady; }"
    )
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")  # untouched
    _open_and_edit(page, "healing.ipynb", 1, GM_HEALING)
    _open_and_edit(page, "falling.ipynb", 0, "")  # saved, not edited
    _new_notebook(page, GM_OWN)
    names = page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)")
    assert LEGACY_NAME in names
    assert "ruleslab-contents" not in names
    watch.check()

    deploy_server.site = site_dir  # this build
    _lab(page, deploy_server.base + "lab/index.html")
    notice = page.locator("#ruleslab-deploy-notice")
    expect(notice).to_be_visible()
    assert _sources(_stored(page, "Untitled.ipynb")) == [GM_OWN]
    expect(notice.locator('li.rl-deploy-migrated[data-path="Untitled.ipynb"]')).to_contain_text(
        "brought over"
    )
    copy = f"{COPIES_FOLDER}/healing (saved before the update).ipynb"
    assert _listing(page, COPIES_FOLDER) == [copy]
    assert _sources(_stored(page, copy))[1].startswith(GM_HEALING)
    item = notice.locator('li.rl-deploy-kept[data-path="healing.ipynb"]')
    expect(item).to_contain_text("differs from the version published now")
    # the copies whose cells are the published ones are not carried over
    assert notice.locator("li").count() == 2
    served = _read(site_dir / "files" / "healing.ipynb")
    assert _sources(_stored(page, "healing.ipynb")) == _sources(served)
    expect(page.locator(".jp-DirListing-item", has_text=COPIES_FOLDER).first).to_be_visible()
    page.screenshot(path=str(artifacts / "redeploy-migrated.png"))

    # a new notebook gets a new name: JupyterLite names it from counters kept in
    # the store, and the brought-over Untitled.ipynb must not be overwritten
    new = page.evaluate(
        """async () => (await window.jupyterapp.serviceManager.contents.newUntitled(
            {path: '', type: 'notebook'})).path"""
    )
    assert new != "Untitled.ipynb"
    assert _sources(_stored(page, "Untitled.ipynb")) == [GM_OWN]

    # once: a reload brings nothing over again; the old store is left as it was
    notice.get_by_role("button", name="Dismiss").click()
    _lab(page, deploy_server.base + "lab/index.html")
    page.wait_for_timeout(500)
    expect(notice).to_have_count(0)
    assert _listing(page, COPIES_FOLDER) == [copy]
    names = page.evaluate("async () => (await indexedDB.databases()).map((d) => d.name)")
    assert LEGACY_NAME in names
    watch.check()
    context.close()
