"""Notebook pages start their notebook's kernel early (``lite/early-kernel.js``).

A step of the site build (:func:`write_early_kernel`, called by
:func:`tools.build_site.build_site` after the kernel's settings are final and
before the offline step):

* the page script is written to :data:`SCRIPT` and loaded by the JupyterLite
  pages that open a notebook in place (:data:`PAGES`), after their configuration
  element, with the kernel's settings in its ``data-ruleslab-kernel`` attribute
  (:func:`kernel_settings`);
* the kernel's worker that the page starts at once is written to :data:`WORKER`
  from ``lite/kernel-worker.mjs``, importing the pyodide-kernel worker by its
  hashed file name (:data:`PYODIDE_KERNEL_WORKERS`).

What the scripts do and why: their own comments, and ``docs/site-build.md``.
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
from pathlib import Path
from typing import Any

from tools import REPO
from tools.lite_pages import KERNEL_PLUGIN, insert_after_config, relative_src

__all__ = [
    "PAGES",
    "PYODIDE_KERNEL_WORKERS",
    "SCRIPT",
    "WORKER",
    "EarlyKernelError",
    "check_early_kernel",
    "kernel_settings",
    "write_early_kernel",
]

SOURCE = REPO / "lite" / "early-kernel.js"
WORKER_SOURCE = REPO / "lite" / "kernel-worker.mjs"
#: Where the page script is served, relative to the site root.
SCRIPT = "static/ruleslab/early-kernel.js"
#: Where the kernel's early worker is served, relative to the site root.
WORKER = "static/ruleslab/kernel-worker.mjs"
#: The pages that open ``?path=<notebook>`` in place (``tree/`` sends it on to ``notebooks/``).
PAGES = ("lab/index.html", "notebooks/index.html")
#: The worker JupyterLite's Pyodide kernel runs in (not cross-origin isolated), by glob.
PYODIDE_KERNEL_WORKERS = (
    "extensions/@jupyterlite/pyodide-kernel-extension/static/comlink.worker.*.js"
)
#: The placeholder in ``lite/kernel-worker.mjs`` for that worker's URL.
PLACEHOLDER = "__PYODIDE_KERNEL_WORKER__"
#: The name of the Pyodide kernel (its kernel spec's).
KERNEL_NAME = "python"


class EarlyKernelError(RuntimeError):
    """A notebook page or the kernel's worker is not where JupyterLite 0.8.6 puts it."""


def _pyodide_kernel_worker(site: Path) -> str:
    found = sorted(site.glob(PYODIDE_KERNEL_WORKERS))
    if len(found) != 1:
        raise EarlyKernelError(
            f"expected one {PYODIDE_KERNEL_WORKERS}, found {len(found)}: "
            "not a JupyterLite 0.8.6 site with its Pyodide kernel"
        )
    return found[0].relative_to(site).as_posix()


def _worker_text(site: Path) -> str:
    text = WORKER_SOURCE.read_text(encoding="utf-8")
    theirs = relative_src(site, site / WORKER, _pyodide_kernel_worker(site))
    return text.replace(PLACEHOLDER, theirs)


def kernel_settings(site: Path) -> dict[str, Any]:
    """What the page script needs, from the built site (URLs relative to its root).

    ``worker``: :data:`WORKER` with a content hash, so a deploy never runs a stale
    copy; ``kernelWorker``: the pyodide-kernel worker JupyterLite will ask for;
    ``kernel``: that kernel's name; ``pyodideUrl`` and ``loadPyodideOptions``: the
    kernel's settings in the built ``jupyter-lite.json``.
    """
    site = Path(site)
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    plugin = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    digest = hashlib.sha256(_worker_text(site).encode("utf-8")).hexdigest()[:12]
    return {
        "worker": f"{WORKER}?v={digest}",
        "kernelWorker": _pyodide_kernel_worker(site),
        "kernel": KERNEL_NAME,
        "pyodideUrl": plugin["pyodideUrl"],
        "loadPyodideOptions": plugin.get("loadPyodideOptions", {}),
    }


def tag(site: Path, page: Path, settings: dict[str, Any]) -> str:
    """The script tag for ``page``: the script's URL relative to it, and ``settings``
    (:func:`kernel_settings`)."""
    attribute = html.escape(json.dumps(settings, sort_keys=True), quote=True)
    src = relative_src(site, page, SCRIPT)
    return f'<script src="{src}" data-ruleslab-kernel="{attribute}" defer></script>'


def write_early_kernel(site: Path) -> None:
    """Write :data:`SCRIPT` and :data:`WORKER`, and load the script in each of :data:`PAGES`
    (once)."""
    site = Path(site)
    (site / SCRIPT).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, site / SCRIPT)
    (site / WORKER).write_text(_worker_text(site), encoding="utf-8")
    settings = kernel_settings(site)
    for rel in PAGES:
        page = site / rel
        if not page.is_file():
            raise EarlyKernelError(f"{rel} not found: not a JupyterLite 0.8.6 site")
        text = page.read_text(encoding="utf-8")
        script = tag(site, page, settings)
        if script in text:
            continue
        hooked = insert_after_config(text, script)
        if hooked is None:
            raise EarlyKernelError(f"{rel} has no #jupyter-config-data element")
        page.write_text(hooked, encoding="utf-8")


def check_early_kernel(site: Path) -> list[str]:
    """What is missing for the early kernel start: the scripts, a page's tag."""
    site = Path(site)
    problems = []
    for rel in (SCRIPT, WORKER):
        if not (site / rel).is_file():
            problems.append(f"{rel} missing")
    if problems:
        return problems
    settings = kernel_settings(site)
    for rel in PAGES:
        page = site / rel
        if page.is_file() and tag(site, page, settings) not in page.read_text(encoding="utf-8"):
            problems.append(f"{rel} does not load {SCRIPT}")
    return problems
