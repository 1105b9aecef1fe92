"""Bundle the app page's front end (``app/``) into a built site's ``static/app/``.

``app/page.js`` (the widget manager that draws a calculator in the page, with
the ipywidgets controls, anywidget's front end and their CSS) is bundled and
minified with esbuild (an npm dev dependency: ``npm ci`` installs it);
``app/worker.mjs`` (Pyodide in a Web Worker) is copied as it is: it imports
``../pyodide/pyodide.mjs`` from the site at run time.

Usage: called by :func:`tools.build_site.build_site`; alone,
``python tools/build_app.py SITE_DIR``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["APP_DIR", "AppBuildError", "build_app"]

REPO = Path(__file__).resolve().parents[1]
APP_SOURCES = REPO / "app"
ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"
#: Where the app's files go, relative to the site root.
APP_DIR = "static/app"

_FONT_LOADERS = [f"--loader:.{ext}=file" for ext in ("woff2", "woff", "ttf", "eot", "svg")]


class AppBuildError(RuntimeError):
    """The app page's front end could not be bundled."""


def build_app(site: Path, *, sources: Path = APP_SOURCES) -> Path:
    """Write ``app.js``, ``app.css``, their fonts and ``worker.mjs`` into ``site/static/app``."""
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
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/build_app.py SITE_DIR")
    print(build_app(Path(sys.argv[1])))
