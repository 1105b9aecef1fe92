"""tools.early_kernel: the notebook pages load the early kernel start, once, after their
configuration element, with the kernel's settings; the kernel's early worker imports
the pyodide-kernel worker by its hashed name (on a hand-made site)."""

from __future__ import annotations

import html
import json
import re

import pytest

from tools.early_kernel import (
    PAGES,
    SCRIPT,
    WORKER,
    EarlyKernelError,
    check_early_kernel,
    kernel_settings,
    write_early_kernel,
)

PAGE = """<!doctype html><html><head>
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>
<script src="../config-utils.js"></script></head><body></body></html>
"""
KERNEL_WORKER = "extensions/@jupyterlite/pyodide-kernel-extension/static/comlink.worker.0123abcd.js"
OPTIONS = {"lockFileURL": "./static/pyodide/pyodide-lock.json", "packages": ["micropip", "ipython"]}
CONFIG = {
    "jupyter-config-data": {
        "litePluginSettings": {
            "@jupyterlite/pyodide-kernel-extension:kernel": {
                "pyodideUrl": "./static/pyodide/ruleslab-kernel.mjs",
                "loadPyodideOptions": OPTIONS,
            }
        }
    }
}


def _site(tmp_path, pages=PAGES, workers=(KERNEL_WORKER,)):
    for rel in pages:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(PAGE, encoding="utf-8")
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "index.html").write_text(PAGE, encoding="utf-8")
    for rel in workers:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("export {};\n", encoding="utf-8")
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(CONFIG), encoding="utf-8")
    return tmp_path


def _settings_in(text: str) -> dict:
    match = re.search(
        r'<script src="../static/ruleslab/early-kernel.js" '
        r'data-ruleslab-kernel="([^"]*)" defer></script>',
        text,
    )
    assert match, text
    return json.loads(html.unescape(match.group(1)))


def test_the_notebook_pages_load_the_script_once_after_their_configuration(tmp_path):
    site = _site(tmp_path)
    assert check_early_kernel(site) == [f"{SCRIPT} missing", f"{WORKER} missing"]
    write_early_kernel(site)
    write_early_kernel(site)  # a second run adds nothing
    for rel in PAGES:
        text = (site / rel).read_text(encoding="utf-8")
        assert text.count("static/ruleslab/early-kernel.js") == 1
        assert (
            text.index("jupyter-config-data")
            < text.index("early-kernel")
            < text.index("config-utils")
        )
        settings = _settings_in(text)
        assert settings["kernelWorker"] == KERNEL_WORKER
        assert settings["kernel"] == "python"
        assert settings["pyodideUrl"] == "./static/pyodide/ruleslab-kernel.mjs"
        assert settings["loadPyodideOptions"] == OPTIONS
        assert re.fullmatch(
            r"static/ruleslab/kernel-worker\.mjs\?v=[0-9a-f]{12}", settings["worker"]
        )
    # tree/ sends a notebook on to notebooks/: starting a kernel there would be wasted
    assert "early-kernel" not in (site / "tree" / "index.html").read_text(encoding="utf-8")
    assert "sessions.startNew" in (site / SCRIPT).read_text(encoding="utf-8")
    assert check_early_kernel(site) == []


def test_the_early_worker_imports_the_kernels_worker_by_its_name(tmp_path):
    site = _site(tmp_path)
    write_early_kernel(site)
    worker = (site / WORKER).read_text(encoding="utf-8")
    # from static/ruleslab/ to the pyodide-kernel worker, and to the kernel's Pyodide module
    assert (
        'import "../../extensions/@jupyterlite/pyodide-kernel-extension/static/'
        'comlink.worker.0123abcd.js";'
    ) in worker
    assert 'from "../pyodide/ruleslab-kernel.mjs"' in worker
    assert "__PYODIDE_KERNEL_WORKER__" not in worker


def test_a_changed_kernel_changes_the_workers_url(tmp_path):
    """The worker's URL carries a hash of its text: a deploy with a new pyodide-kernel
    worker never runs a cached early worker that imports the old one."""
    before = kernel_settings(_site(tmp_path / "a"))["worker"]
    after = kernel_settings(
        _site(tmp_path / "b", workers=(KERNEL_WORKER.replace("0123abcd", "4567ef01"),))
    )["worker"]
    assert before != after


def test_a_stale_tag_is_reported(tmp_path):
    site = _site(tmp_path)
    write_early_kernel(site)
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    plugin = config["jupyter-config-data"]["litePluginSettings"]
    plugin["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]["packages"] = []
    (site / "jupyter-lite.json").write_text(json.dumps(config), encoding="utf-8")
    assert check_early_kernel(site) == [f"{rel} does not load {SCRIPT}" for rel in PAGES]


def test_a_site_without_a_notebook_page_is_refused(tmp_path):
    site = _site(tmp_path, pages=PAGES[:1])
    with pytest.raises(EarlyKernelError, match=r"notebooks/index\.html not found"):
        write_early_kernel(site)


@pytest.mark.parametrize("workers", [(), (KERNEL_WORKER, KERNEL_WORKER.replace("0123", "9999"))])
def test_a_site_without_one_pyodide_kernel_worker_is_refused(tmp_path, workers):
    site = _site(tmp_path, workers=workers)
    with pytest.raises(EarlyKernelError, match=r"expected one .*comlink\.worker"):
        write_early_kernel(site)
