"""Build the self-contained JupyterLite site (and optionally serve it).

Every build is clean: the output folder and a build-time copy of the lite
directory (``<out>.lite`` beside the output, e.g. ``build/site.lite``, holding
JupyterLite's ``.jupyterlite.doit.db`` state and cache) are deleted first. An
incremental ``jupyter lite build`` was seen to drop the ``pyodideUrl`` setting.

Steps:

1. build the project wheel (``ruleslab`` + ``ruleslab_widgets``);
2. assemble the local Pyodide distribution (:mod:`tools.pyodide_dist`) into
   ``build/lite/static/pyodide``; the kernel's build addon copies that folder
   into the site and points ``pyodideUrl`` at it;
3. give the site its stable browser storage names (see ``docs/site-build.md``);
4. ``jupyter lite build`` with the notebooks from ``--contents``;
5. stamp the served notebooks and hook the script that keeps what a GM saved
   across deploys (:mod:`tools.keep_notebooks`);
6. add ``favicon.ico`` and the landing page, and build the documentation into
   ``docs/`` (:mod:`tools.docs_site`: MkDocs, strictly);
7. make the site work offline after the first visit (:mod:`tools.offline`: a
   service worker precaching every file), then check that no configuration
   URL leaves the site's origin and that the widget extensions are present.

Usage::

    python tools/build_site.py [--out build/site] [--contents content] [--serve [--port 8000]]
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

from tools import REPO
from tools.build_app import APP_DIR, APP_STDLIB_ZIP, AppBuildError, build_app
from tools.docs_site import DocsBuildError, build_docs
from tools.early_kernel import EarlyKernelError, check_early_kernel, write_early_kernel
from tools.keep_notebooks import (
    CONTENTS_STORAGE,
    WORKSPACES_STORAGE,
    KeepNotebooksError,
    check_published,
    publish_notebooks,
)
from tools.lite_pages import KERNEL_PLUGIN
from tools.offline import MANIFEST as OFFLINE_MANIFEST
from tools.offline import OfflineError, check_offline, write_offline
from tools.publish import PRECOMPRESSED, prepare_pages, write_headers, write_precompressed
from tools.pyodide_dist import (
    DEFAULT_WHEEL_CACHE,
    KERNEL_PRELOAD,
    PyodideDistError,
    build_project_wheel,
    build_pyodide_dist,
    kernel_extension_wheels,
    read_lock,
)

__all__ = [
    "DOCS_FOLDER",
    "REQUIRED_EXTENSIONS",
    "SiteBuildError",
    "build_site",
    "check_site",
    "make_server",
    "off_origin_urls",
    "serve",
]

LITE_CONFIG = REPO / "lite_config"
#: The documentation's folder in the site (:mod:`tools.docs_site`), linked from the landing page.
DOCS_FOLDER = "docs"
DEFAULT_OUT = REPO / "build" / "site"
DEFAULT_CONTENTS = REPO / "content"
#: The notebook kernel's Pyodide module (relative to the site root), from
#: ``lite/kernel-pyodide.mjs``: Pyodide's own, with the current directory last on sys.path.
KERNEL_MODULE = "static/pyodide/ruleslab-kernel.mjs"
KERNEL_MODULE_SOURCE = REPO / "lite" / "kernel-pyodide.mjs"
#: ``lite/wheel-unpack.mjs``, which the kernel's Pyodide module imports from beside it.
WHEEL_UNPACK = "static/pyodide/ruleslab-wheel-unpack.mjs"
WHEEL_UNPACK_SOURCE = REPO / "lite" / "wheel-unpack.mjs"

#: Federated extensions the site must ship (folders under ``extensions/``).
REQUIRED_EXTENSIONS: tuple[str, ...] = (
    "@jupyter-widgets/jupyterlab-manager",
    "anywidget",
    "@jupyterlite/pyodide-kernel-extension",
)

_URL = re.compile(r"""(?:https?:)?//[^\s"'<>)\\]+""", re.IGNORECASE)
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class SiteBuildError(RuntimeError):
    """The site could not be built, or the built site fails a check."""


def _write_lite_config(
    lite_dir: Path, preload: Sequence[str] = (), *, kernel_module: bool = False
) -> None:
    """Set the build-time ``jupyter-lite.json``: storage names, packages to preload and
    the kernel's Pyodide module.

    With ``kernel_module``, :data:`KERNEL_MODULE` and the module it imports,
    :data:`WHEEL_UNPACK`, are put beside ``pyodide.mjs`` (:func:`_use_kernel_module`
    points the built site's kernel at it).

    The storage names are the same for every deploy
    (:data:`~tools.keep_notebooks.CONTENTS_STORAGE`), so what a GM saved stays
    in view; :mod:`tools.keep_notebooks` brings updated served notebooks in.

    ``preload`` (e.g. :data:`~tools.pyodide_dist.KERNEL_PRELOAD`) becomes the
    kernel's ``loadPyodideOptions.packages``: Pyodide loads them through the
    lock while it starts, and the kernel skips its own sequential install of
    each. Every name must be in the distribution's lock, or
    :class:`SiteBuildError` is raised.
    """
    path = lite_dir / "jupyter-lite.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    data = config.setdefault("jupyter-config-data", {})
    data["contentsStorageName"] = CONTENTS_STORAGE
    data["workspacesStorageName"] = WORKSPACES_STORAGE
    if kernel_module:
        # beside pyodide.mjs: the kernel takes the folder of pyodideUrl as Pyodide's indexURL
        # (pyodideUrl itself is set after `jupyter lite build`, whose kernel addon rewrites it)
        shutil.copyfile(KERNEL_MODULE_SOURCE, lite_dir / KERNEL_MODULE)
        shutil.copyfile(WHEEL_UNPACK_SOURCE, lite_dir / WHEEL_UNPACK)
    if preload:
        lock = read_lock(lite_dir / "static" / "pyodide")
        missing = [name for name in preload if name not in lock["packages"]]
        if missing:
            raise SiteBuildError(f"packages to preload are not in the lock: {missing}")
        settings = data.setdefault("litePluginSettings", {}).setdefault(KERNEL_PLUGIN, {})
        settings.setdefault("loadPyodideOptions", {})["packages"] = list(preload)
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def _use_kernel_module(site: Path) -> None:
    """Point the built site's kernel at :data:`KERNEL_MODULE` (``lite/kernel-pyodide.mjs``:
    Pyodide's own module, with the current directory, the notebook's drive, last on
    ``sys.path``) instead of ``pyodide.mjs`` itself."""
    path = site / "jupyter-lite.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    settings["pyodideUrl"] = f"./{KERNEL_MODULE}"
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def _jupyter() -> str:
    """The ``jupyter`` executable of the running interpreter's environment."""
    exe = Path(sys.executable).parent / "jupyter"
    if not exe.exists():
        raise SiteBuildError(f"{exe} not found: install jupyterlite-core in this environment")
    return str(exe)


def off_origin_urls(text: str) -> list[str]:
    """Absolute or protocol-relative URLs in ``text`` whose host is not local."""
    found = []
    for match in _URL.finditer(text):
        url = match.group(0)
        host = url.split("//", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
        if not host.startswith("[") and ":" in host:
            host = host.split(":", 1)[0]
        if host and host not in _LOCAL_HOSTS:
            found.append(url)
    return found


def _config_files(site: Path) -> list[Path]:
    """The site's configuration JSON files (jupyter-lite.json of each app, the lock, indexes)."""
    files = sorted(site.glob("**/jupyter-lite.json"))
    files += sorted(site.glob("static/pyodide/pyodide-lock.json"))
    files += sorted(site.glob("static/pyodide/app-lock.json"))
    files += sorted((site / "extensions").glob("*/static/pypi/all.json"))
    files += sorted((site / "extensions").glob("@*/*/static/pypi/all.json"))
    return files


def _settings(config: dict[str, Any]) -> dict[str, Any]:
    data = config.get("jupyter-config-data", {})
    settings: dict[str, Any] = data.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    return settings


def check_site(site: Path) -> list[str]:
    """Problems with a built site (empty if it is sound)."""
    problems: list[str] = []
    root_config = site / "jupyter-lite.json"
    if not root_config.is_file():
        return [f"{root_config} missing"]
    for path in _config_files(site):
        bad = off_origin_urls(path.read_text(encoding="utf-8"))
        if bad:
            problems.append(f"{path.relative_to(site)}: off-origin URLs {sorted(set(bad))}")
    config = json.loads(root_config.read_text(encoding="utf-8"))
    settings = _settings(config)
    if settings.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    pyodide_url = settings.get("pyodideUrl", "")
    modules = ("./static/pyodide/pyodide.mjs", f"./{KERNEL_MODULE}")  # (stock, ours)
    if pyodide_url not in modules or not (site / pyodide_url).is_file():
        problems.append(f"pyodideUrl {pyodide_url!r} is not one of the local {modules}")
    if pyodide_url == f"./{KERNEL_MODULE}" and not (site / WHEEL_UNPACK).is_file():
        problems.append(f"{WHEEL_UNPACK} missing: the kernel's Pyodide module imports it")
    lock_url = settings.get("loadPyodideOptions", {}).get("lockFileURL", "")
    if not (site / lock_url).is_file():
        problems.append(f"lockFileURL {lock_url!r} is not a file in the site")
    names = {e.get("name") for e in config["jupyter-config-data"].get("federated_extensions", [])}
    for ext in REQUIRED_EXTENSIONS:
        if ext not in names or not (site / "extensions" / ext / "package.json").is_file():
            problems.append(f"federated extension {ext} missing")
    index = site / "index.html"
    if not index.is_file() or 'id="jupyter-config-data"' not in index.read_text("utf-8"):
        problems.append("index.html lacks the #jupyter-config-data element the apps read")
    if not (site / "favicon.ico").is_file():
        problems.append("favicon.ico missing")
    if (site / "app.html").is_file():
        for name in ("app.js", "app.css", "worker.mjs"):
            if not (site / APP_DIR / name).is_file():
                problems.append(f"the app page's {APP_DIR}/{name} is missing")
        if not (site / APP_STDLIB_ZIP).is_file():
            problems.append(f"the app page's standard library {APP_STDLIB_ZIP} is missing")
    if (site / OFFLINE_MANIFEST).is_file():
        problems += check_offline(site)
    return problems


def _write_favicon(site: Path) -> None:
    """Put a favicon at the site root (browsers ask for /favicon.ico)."""
    for candidate in (site / "lab" / "favicon.ico", site / "favicon.ico"):
        if candidate.is_file():
            if candidate != site / "favicon.ico":
                shutil.copy2(candidate, site / "favicon.ico")
            return
    raise SiteBuildError("no favicon.ico in the JupyterLite app to copy to the site root")


def _write_landing(site: Path, project_wheel: Path) -> None:
    """Write the landing page and the app page (:mod:`tools.make_content`), and
    bundle the app page's front end (:mod:`tools.build_app`, its lean archives from
    ``project_wheel``)."""
    from tools.make_content import write_site_pages  # imports the calculator catalog

    write_site_pages(site)
    build_app(site, project_wheel=project_wheel)


def build_site(
    out: Path = DEFAULT_OUT,
    *,
    contents: Path = DEFAULT_CONTENTS,
    lite_config: Path = LITE_CONFIG,
    lite_dir: Path | None = None,
    landing: bool = True,
    wheel_cache: Path = DEFAULT_WHEEL_CACHE,
    stock: bool = False,
    docs: bool = True,
) -> Path:
    """Build the site into ``out`` (deleted first) and return ``out``.

    ``stock=True`` builds the benchmark's peer: stock JupyterLite with the same
    JupyterLite and pyodide-kernel versions, served from its own origin like
    ours, but with none of our changes to how it loads: Pyodide's files as npm
    ships them and the wheels as downloaded from PyPI (no bytecode compiled at
    build time), the kernel's default start-up (no packages preloaded; ours
    preloads :data:`~tools.pyodide_dist.KERNEL_PRELOAD`),
    JupyterLite's own ``index.html`` (no landing or app pages; ``landing`` is
    ignored), no stamping or reconciling of stored notebooks
    (:mod:`tools.keep_notebooks`) and its own service worker (no offline cache,
    :mod:`tools.offline`), no documentation. ``docs=False`` leaves the documentation
    (``docs/``, :mod:`tools.docs_site`) out of our site too. The project wheel and the
    notebooks are still served, so a
    calculator notebook runs on the stock site too.

    Raises :class:`SiteBuildError` (or :class:`~tools.pyodide_dist.PyodideDistError`,
    :class:`~tools.build_app.AppBuildError`,
    :class:`~tools.keep_notebooks.KeepNotebooksError`,
    :class:`~tools.early_kernel.EarlyKernelError`, :class:`~tools.offline.OfflineError`,
    :class:`~tools.docs_site.DocsBuildError`)
    with a readable message when a step fails or the result fails :func:`check_site`.
    """
    out, contents = Path(out).resolve(), Path(contents).resolve()
    # the work folder sits beside the output, so builds into different folders never collide
    lite_dir = Path(lite_dir) if lite_dir is not None else out.parent / f"{out.name}.lite"
    if not contents.is_dir():
        raise SiteBuildError(f"contents folder {contents} not found")
    for stale in (out, lite_dir):
        if stale.exists():
            shutil.rmtree(stale)
    shutil.copytree(lite_config, lite_dir)
    for state in lite_dir.glob(".jupyterlite.doit.db*"):
        state.unlink()

    print("building the project wheel ...", flush=True)
    wheel = build_project_wheel(out.parent / f"{out.name}.dist")
    print("assembling the Pyodide distribution ...", flush=True)
    build_pyodide_dist(
        lite_dir / "static" / "pyodide",
        extra_wheels=[wheel],
        kernel_wheels=() if stock else kernel_extension_wheels(),
        wheel_cache=wheel_cache,
        compile_bytecode=not stock,
    )
    _write_lite_config(lite_dir, preload=() if stock else KERNEL_PRELOAD, kernel_module=not stock)

    print("jupyter lite build ...", flush=True)
    cmd = [
        _jupyter(),
        "lite",
        "build",
        "--lite-dir",
        str(lite_dir.resolve()),
        "--contents",
        str(contents),
        "--output-dir",
        str(out),
    ]
    proc = subprocess.run(cmd, cwd=lite_dir, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SiteBuildError(f"jupyter lite build failed:\n{proc.stdout[-4000:]}{proc.stderr}")

    _write_favicon(out)
    if not stock:
        _use_kernel_module(out)
        publish_notebooks(out)
        write_early_kernel(out)
    if landing and not stock:
        _write_landing(out, wheel)
        if docs:
            print("building the documentation (mkdocs --strict) ...", flush=True)
            build_docs(out / DOCS_FOLDER)
    if not stock:
        prepare_pages(out)  # (tools/publish.py) version.json, icons: before the offline step
        write_offline(out)  # last: its manifest holds every file as served (stamped notebooks)
        write_precompressed(out)  # (tools/publish.py) NAME.br, NAME.gz of the final files
        write_headers(out)  # (tools/publish.py) the hosts' headers file, over every file
    problems = check_site(out)
    if not stock:
        problems += check_published(out) + check_early_kernel(out)
    if problems:
        raise SiteBuildError("the built site failed its checks:\n  " + "\n  ".join(problems))
    return out


class SiteRequestHandler(http.server.SimpleHTTPRequestHandler):
    """Static file handler with the MIME types a JupyterLite/Pyodide site needs."""

    extensions_map = {  # noqa: RUF012 - the stdlib's own class attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".ipynb": "application/json",
        ".ico": "image/x-icon",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
    }

    def send_head(self):  # type: ignore[no-untyped-def]
        """As a static host: an encoded ``/`` or ``\\`` (``lab%2Findex.html``) is part of a
        name, never a folder separator, so no file has that name: 404. A file with a
        compressed copy beside it (``NAME.br``, ``NAME.gz``: ``tools/publish.py``) is sent
        as that copy, with its ``Content-Encoding``, to a browser that accepts it (brotli
        first), as a host serving precompressed files does, unless the file is newer than
        the copy (changed after the build: the copy is stale)."""
        if re.search(r"%(2f|5c)", self.path.split("?", 1)[0], re.IGNORECASE):
            self.send_error(http.HTTPStatus.NOT_FOUND, "No such file")
            return None
        path = self.translate_path(self.path)
        accepted = {
            part.split(";")[0].strip().lower()
            for part in self.headers.get("Accept-Encoding", "").split(",")
        }
        if os.path.isfile(path) and "range" not in self.headers:
            for suffix, encoding in PRECOMPRESSED.items():
                packed = path + suffix
                # (a copy older than its file is stale: the file was changed after the build)
                if encoding in accepted and os.path.isfile(packed):
                    if os.path.getmtime(packed) >= os.path.getmtime(path):
                        return self._send_encoded(path, packed, encoding)
        return super().send_head()

    def _send_encoded(self, path: str, packed: str, encoding: str) -> BinaryIO:
        """Headers for ``path`` sent as its compressed copy ``packed``; that file, open."""
        f = open(packed, "rb")  # (the caller copies it and closes it)
        stat = os.fstat(f.fileno())
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return f

    def end_headers(self) -> None:
        """Forbid caching, so a rebuilt site is always what the browser gets."""
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: log only errors."""
        if len(args) > 1 and str(args[1]).startswith(("4", "5")):
            super().log_message(format, *args)


def make_server(
    site_dir: Path, host: str = "127.0.0.1", port: int = 8000
) -> http.server.ThreadingHTTPServer:
    """A (not yet running) static server for ``site_dir``; ``port=0`` picks a free port."""
    handler = partial(SiteRequestHandler, directory=str(site_dir))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(site_dir: Path, port: int = 8000, host: str = "127.0.0.1") -> None:
    """Serve ``site_dir`` on http://host:port/ until interrupted."""
    with make_server(site_dir, host, port) as httpd:
        print(f"serving {site_dir} on http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="site output folder")
    parser.add_argument("--contents", type=Path, default=DEFAULT_CONTENTS, help="notebooks")
    parser.add_argument("--no-landing", action="store_true", help="keep JupyterLite's index.html")
    parser.add_argument(
        "--stock",
        action="store_true",
        help="the benchmark's peer: npm Pyodide and PyPI wheels as shipped, the kernel's "
        "default loading, JupyterLite's own index.html",
    )
    parser.add_argument(
        "--no-docs", action="store_true", help="leave the documentation (docs/) out"
    )
    parser.add_argument("--serve", action="store_true", help="serve the site after building")
    parser.add_argument("--serve-only", action="store_true", help="serve an existing build")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if not args.serve_only:
        try:
            site = build_site(
                args.out,
                contents=args.contents,
                landing=not args.no_landing,
                stock=args.stock,
                docs=not args.no_docs,
            )
        except (
            SiteBuildError,
            PyodideDistError,
            AppBuildError,
            KeepNotebooksError,
            EarlyKernelError,
            OfflineError,
            DocsBuildError,
        ) as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        print(f"built {site}")
    if args.serve or args.serve_only:
        serve(args.out, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
