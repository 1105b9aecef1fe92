"""Notebook pages start their notebook's kernel early (``lite/early-kernel.js``).

A step of the site build (:func:`write_early_kernel`, called by
:func:`tools.build_site.build_site` before the offline step): the script is
written to :data:`SCRIPT` and loaded by the JupyterLite pages that open a
notebook in place (:data:`PAGES`), after their configuration element. What it
does and why: the script's own comment, and ``docs/site-build.md``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.lite_pages import insert_after_config, relative_src

__all__ = ["PAGES", "SCRIPT", "EarlyKernelError", "check_early_kernel", "write_early_kernel"]

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "lite" / "early-kernel.js"
#: Where the script is served, relative to the site root.
SCRIPT = "static/ruleslab/early-kernel.js"
#: The pages that open ``?path=<notebook>`` in place (``tree/`` sends it on to ``notebooks/``).
PAGES = ("lab/index.html", "notebooks/index.html")


class EarlyKernelError(RuntimeError):
    """A notebook page is not where JupyterLite 0.8.6 puts it."""


def tag(site: Path, page: Path) -> str:
    """The script tag for ``page``: the script's URL relative to it."""
    return f'<script src="{relative_src(site, page, SCRIPT)}" defer></script>'


def write_early_kernel(site: Path) -> None:
    """Write :data:`SCRIPT` and load it in each of :data:`PAGES` (once)."""
    site = Path(site)
    (site / SCRIPT).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, site / SCRIPT)
    for rel in PAGES:
        page = site / rel
        if not page.is_file():
            raise EarlyKernelError(f"{rel} not found: not a JupyterLite 0.8.6 site")
        text = page.read_text(encoding="utf-8")
        script = tag(site, page)
        if script in text:
            continue
        hooked = insert_after_config(text, script)
        if hooked is None:
            raise EarlyKernelError(f"{rel} has no #jupyter-config-data element")
        page.write_text(hooked, encoding="utf-8")


def check_early_kernel(site: Path) -> list[str]:
    """What is missing for the early kernel start: the script, a page's tag."""
    site = Path(site)
    problems = []
    if not (site / SCRIPT).is_file():
        problems.append(f"{SCRIPT} missing")
    for rel in PAGES:
        page = site / rel
        if page.is_file() and tag(site, page) not in page.read_text(encoding="utf-8"):
            problems.append(f"{rel} does not load {SCRIPT}")
    return problems
