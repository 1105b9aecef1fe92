"""Bundle the app page's front end (``app/``) into a built site's ``static/app/``.

``app/page.js`` (the widget manager that draws a calculator in the page, with
the ipywidgets controls, anywidget's front end and their CSS) is bundled and
minified with esbuild (an npm dev dependency: ``npm ci`` installs it);
``app/worker.mjs`` (Pyodide in a Web Worker) is copied as it is: it imports
``../pyodide/pyodide.mjs`` from the site at run time.

The worker loads its packages through ``static/pyodide/app-lock.json``: the
site's lock cut down to ``ruleslab`` and what it needs on the app page, which
runs without IPython (:mod:`ruleslab_widgets.ipython_standin`): the same
files with the same sha256, IPython taken out of ipywidgets' dependencies and
IPython's own dependencies left out.

Usage: called by :func:`tools.build_site.build_site`; alone,
``python tools/build_app.py SITE_DIR``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tools.pyodide_dist import LOCK_NAME, read_lock, write_lock

__all__ = ["APP_DIR", "APP_LOCK", "APP_ROOT_PACKAGE", "AppBuildError", "app_lock", "build_app"]

REPO = Path(__file__).resolve().parents[1]
APP_SOURCES = REPO / "app"
ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"
#: Where the app's files go, relative to the site root.
APP_DIR = "static/app"
#: The app page's lock, relative to the site root (beside the site's lock: file
#: names in a lock are relative to the Pyodide folder).
APP_LOCK = "static/pyodide/app-lock.json"
#: The package the worker loads; the lock brings its dependencies.
APP_ROOT_PACKAGE = "ruleslab"
#: Dependencies the app page runs without (replaced by the IPython stand-in).
APP_WITHOUT = frozenset({"ipython"})

_FONT_LOADERS = [f"--loader:.{ext}=file" for ext in ("woff2", "woff", "ttf", "eot", "svg")]


class AppBuildError(RuntimeError):
    """The app page's front end could not be bundled."""


def app_lock(lock: dict[str, Any]) -> dict[str, Any]:
    """The app page's lock: :data:`APP_ROOT_PACKAGE` and its dependencies without
    :data:`APP_WITHOUT`, entries otherwise unchanged (same files, same sha256)."""
    packages = lock["packages"]
    keep: dict[str, dict[str, Any]] = {}
    pending = [APP_ROOT_PACKAGE]
    while pending:
        name = pending.pop()
        if name in keep:
            continue
        if name not in packages:
            raise AppBuildError(f"the app page needs {name!r}, which the site's lock lacks")
        entry = dict(packages[name])
        entry["depends"] = [d for d in entry["depends"] if d not in APP_WITHOUT]
        keep[name] = entry
        pending.extend(entry["depends"])
    return {"info": lock["info"], "packages": dict(sorted(keep.items()))}


def build_app(site: Path, *, sources: Path = APP_SOURCES) -> Path:
    """Write ``app.js``, ``app.css``, their fonts and ``worker.mjs`` into ``site/static/app``,
    and the app page's lock beside the site's."""
    if not ESBUILD.exists():
        raise AppBuildError(f"{ESBUILD} not found: run `npm ci`")
    out = Path(site) / APP_DIR
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    cmd = [
        str(ESBUILD),
        str(sources / "page.js"),
        "--bundle",
        "--minify",
        "--format=esm",
        "--target=es2020",
        f"--outfile={out / 'app.js'}",
        "--asset-names=[name]-[hash]",
        "--legal-comments=none",
        "--log-level=warning",
        *_FONT_LOADERS,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise AppBuildError(f"esbuild failed:\n{proc.stdout}{proc.stderr}")
    shutil.copy2(sources / "worker.mjs", out / "worker.mjs")
    dist = Path(site) / "static" / "pyodide"
    if not (dist / LOCK_NAME).is_file():
        raise AppBuildError(f"{dist / LOCK_NAME} not found: build the Pyodide distribution first")
    write_lock(Path(site) / APP_LOCK, app_lock(read_lock(dist)))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/build_app.py SITE_DIR")
    print(build_app(Path(sys.argv[1])))
