"""The site offline after the first visit: a service worker that precaches the site.

The last step of the site build (:func:`write_offline`, called by
:func:`tools.build_site.build_site`), over the finished site:

1. JupyterLite's own worker (``service-worker.js`` at the site root, which it
   registers for its drive) moves to :data:`JUPYTERLITE_WORKER`; ours takes
   its URL and imports it (``app/service-worker.js`` says how the two share
   the events);
2. every JupyterLite page gets a short inline script recording the worker for
   JupyterLite (:func:`pin_script`: without it, JupyterLite 0.8.6 unregisters
   every worker on its first visit under one it has not recorded), and the
   pages' script, which asks for the cache once the page's kernels are idle
   (:func:`page_script_tag`);
3. the pages' script (:data:`PAGE_SCRIPT`, from ``app/offline.js``) is written;
4. the manifest: every file of the site but :func:`not_precached` ones, by
   path, with its sha256 as a subresource-integrity string, in two parts: the
   app part (:func:`app_part`: what the landing page, the app pages and the
   rules notes load, cached by default) and the notebook part (the rest:
   JupyterLab, the kernel, the full standard library, the notebooks; cached
   when a notebook is first opened, or when the reader asks); its version is a
   hash of all of it, and names the browser cache (:data:`CACHE_PREFIX`);
5. the worker, from ``app/service-worker.js`` with the manifest inside, so that
   any change to any file changes the worker's bytes: that is how a browser
   learns of a new deployment. The manifest is also written to :data:`MANIFEST`
   (for tests and the curious; the worker does not read it).

How the cache and updates work: ``docs/site-build.md`` ("Offline").
"""

from __future__ import annotations

import base64
import hashlib
import json
import posixpath
import re
import shutil
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from ruleslab.calculators import CALCULATORS
from tools import REPO
from tools.build_app import APP_DIR, APP_LOCK, APP_STDLIB_ZIP
from tools.lite_pages import CONFIG_ELEMENT, insert_after_config, relative_src
from tools.make_content import STATIC_FOLDER, calculator_page
from tools.publish import precompressed_original
from tools.pyodide_dist import CORE_FILES
from tools.rules_notes import SITE_FOLDER as NOTES_FOLDER

__all__ = [
    "APP_PAGES",
    "CACHE_PREFIX",
    "JUPYTERLITE_WORKER",
    "MANIFEST",
    "PAGE_SCRIPT",
    "WORKER",
    "OfflineError",
    "OfflineManifest",
    "app_part",
    "check_offline",
    "integrity",
    "make_manifest",
    "not_precached",
    "page_script_tag",
    "pin_script",
    "read_manifest",
    "worker_url",
    "write_offline",
]

WORKER_TEMPLATE = REPO / "app" / "service-worker.js"
PAGE_TEMPLATE = REPO / "app" / "offline.js"
PIN_TEMPLATE = REPO / "app" / "offline-pin.js"

#: The worker, at the site root (its scope): the URL JupyterLite registers.
WORKER = "service-worker.js"
#: JupyterLite's own worker, imported by ours.
JUPYTERLITE_WORKER = "static/offline/jupyterlite-service-worker.js"
#: The pages' script (registration, cache progress, updates).
PAGE_SCRIPT = "static/offline/offline.js"
#: The manifest as JSON, beside the worker that embeds it.
MANIFEST = "static/offline/manifest.json"
#: Browser cache names: this prefix and the manifest's version.
CACHE_PREFIX = "ruleslab-offline-"
#: The pages (and the embed script) a reader uses without a notebook: with the rules
#: notes (:data:`tools.rules_notes.SITE_FOLDER`), the roots of :func:`app_part`.
APP_PAGES = ("index.html", "app.html", "embed.js")

_MANIFEST_MARK = "/*RULESLAB-OFFLINE-MANIFEST*/ null"
_CONFIG_MARK = "/*RULESLAB-OFFLINE-CONFIG*/ null"
_PIN_CONFIG_MARK = "/*RULESLAB-OFFLINE-PIN*/ null"
_PIN_MARK = "data-ruleslab-offline-pin"
#: Something only JupyterLite's worker holds: the channel its drive speaks on.
_JUPYTERLITE_SIGN = "/sw-api.v1"
#: JupyterLab's build configuration, which JupyterLite copies into the site; never fetched.
_BUILD_LEFTOVERS = frozenset(
    {"rspack.config.js", "rspack.config.watch.js", "rspack.config.analyze.js"}
)
#: Older font formats the app page's stylesheet lists after woff2, which every
#: browser that runs a service worker takes.
_LEGACY_FONTS = frozenset({".eot", ".ttf", ".woff", ".svg"})


class OfflineError(RuntimeError):
    """The site cannot be made to work offline (an unexpected JupyterLite layout)."""


@dataclass(frozen=True)
class OfflineManifest:
    """What the worker precaches: ``files`` maps each path (relative to the site root,
    ``/``-separated, not URL-encoded) to ``sha256-<base64>``; ``version`` names the cache.
    ``app`` (sorted paths, ``app_bytes`` their size) is the part cached by default
    (:func:`app_part`); the other files are the notebook part."""

    version: str
    files: dict[str, str]
    bytes: int
    jupyterlite: str = JUPYTERLITE_WORKER
    app: tuple[str, ...] = ()
    app_bytes: int = 0

    @property
    def cache_name(self) -> str:
        return CACHE_PREFIX + self.version

    @property
    def notebooks(self) -> tuple[str, ...]:
        """The notebook part: every file of the manifest outside the app part."""
        app = set(self.app)
        return tuple(rel for rel in self.files if rel not in app)

    def to_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "cache": self.cache_name,
            "bytes": self.bytes,
            "jupyterlite": self.jupyterlite,
            "app": list(self.app),
            "app_bytes": self.app_bytes,
            "files": self.files,
        }


def integrity(data: bytes) -> str:
    """The subresource-integrity string of ``data`` (what ``fetch(…, {integrity})`` checks)."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def _files(site: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(site.rglob("*")):
        if path.is_file():
            yield path.relative_to(site).as_posix(), path


def not_precached(rel: str, site: Path) -> str | None:
    """Why the site file ``rel`` is left out of the cache, or None (it is precached)."""
    if rel in (WORKER, JUPYTERLITE_WORKER):
        return "the worker and what it imports: the browser keeps them with the worker"
    if rel == MANIFEST:
        return "the manifest: the worker holds it"
    if rel == "_headers":
        return "the hosts' headers file (tools/publish.py): read by the host, never served"
    if rel in _BUILD_LEFTOVERS:
        return "JupyterLab's build configuration, which no page fetches"
    if rel.endswith(".map"):
        return "a source map: for developer tools only"
    original = precompressed_original(rel, site)
    if original is not None:
        return f"a compressed copy of {original}, which a host sends in its place"
    path = Path(rel)
    if rel.startswith("static/app/") and path.suffix in _LEGACY_FONTS:
        face = path.stem.rsplit("-", 1)[0]
        if any((site / path.parent).glob(f"{face}-*.woff2")):
            return "an older format of a font also served as woff2, which browsers take"
    return None


class _Subresources(HTMLParser):
    """The URLs a page loads as it is shown (scripts, stylesheets, icons, images,
    preloads), not those it links to."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {"script": "src", "img": "src", "link": "href", "source": "src"}
        wanted = names.get(tag)
        for name, value in attrs:
            if name == wanted and value:
                self.urls.append(value)


def _subresources(site: Path, rel: str) -> set[str]:
    """The site paths the page ``rel`` loads (:class:`_Subresources`), relative to the root."""
    parser = _Subresources()
    parser.feed((site / rel).read_text(encoding="utf-8"))
    found = set()
    for url in parser.urls:
        url = url.split("#", 1)[0].split("?", 1)[0]
        if not url or re.match(r"^[a-z][a-z0-9+.-]*:|^/", url, re.I):
            continue  # data:, another origin, or a root-relative URL (none on this site)
        found.add(posixpath.normpath(posixpath.join(posixpath.dirname(rel), url)))
    return found


#: ``import … from "../pyodide/<file>"`` (or ``import("../pyodide/<file>")``) in the app's
#: modules: Pyodide's entry module.
_PYODIDE_IMPORT = re.compile(r"""(?:from\s*|import\s*\(\s*)["']\.\./pyodide/([\w.-]+)["']""")


def app_part(site: Path, files: Collection[str]) -> set[str]:
    """The files of ``files`` (the manifest's) that the landing page, the app pages and
    the rules notes need, derived from what the build wrote (:mod:`tools.build_app`):

    * the pages :data:`APP_PAGES` and each calculator's own app page
      (:func:`tools.make_content.calculator_page`), the rules notes (``rules-notes/``),
      each calculator's static page (:data:`tools.make_content.STATIC_FOLDER`: the app page draws it
      first), the pages' script :data:`PAGE_SCRIPT`, and whatever those pages load
      (their scripts, stylesheets, icons: :func:`_subresources`);
    * the app page's front end, ``static/app/`` (:data:`tools.build_app.APP_DIR`);
    * of the Pyodide distribution, what the app page's worker loads: the module its
      scripts import from ``../pyodide/`` and the runtime that module loads beside it
      (``pyodide.asm.*`` of :data:`tools.pyodide_dist.CORE_FILES`, but for one the app
      page has its own copy of in ``static/app/``), the app page's
      lock (:data:`~tools.build_app.APP_LOCK`) and every package it names, and its cut
      standard library (:data:`~tools.build_app.APP_STDLIB_ZIP`), not the full one.

    Raises :class:`OfflineError` if the app page's files are not where the build puts them.
    """
    site = Path(site)
    listed = set(files)
    pages = {*APP_PAGES, *(calculator_page(c) for c in CALCULATORS)}
    part = {rel for rel in pages if rel in listed} | {PAGE_SCRIPT}
    folders = (f"{NOTES_FOLDER}/", f"{APP_DIR}/", f"{STATIC_FOLDER}/")
    part |= {rel for rel in listed if rel.startswith(folders)}
    for page in [rel for rel in part if rel.endswith(".html")]:
        part |= _subresources(site, page) & listed
    pyodide = posixpath.dirname(APP_LOCK)
    entries: set[str] = set()
    for module in (site / APP_DIR).glob("*.*js"):
        entries |= set(_PYODIDE_IMPORT.findall(module.read_text(encoding="utf-8")))
    if not entries:
        raise OfflineError(f"no module of {APP_DIR} imports Pyodide from ../pyodide/")
    # (the runtime script the app page loads is its own fixed copy in APP_DIR, if there is
    # one: tools.build_app.patched_pyodide_asm)
    runtime = entries | {
        name
        for name in CORE_FILES
        if name.startswith("pyodide.asm.") and not (site / APP_DIR / name).is_file()
    }
    lock = json.loads((site / APP_LOCK).read_text(encoding="utf-8"))
    packages = {entry["file_name"] for entry in lock["packages"].values()}
    part |= {f"{pyodide}/{name}" for name in runtime | packages}
    part |= {APP_LOCK, APP_STDLIB_ZIP}
    unlisted = sorted(part - listed)
    if unlisted:
        raise OfflineError(f"the app page needs files the site lacks: {', '.join(unlisted)}")
    return part


def make_manifest(site: Path, *, salt: bytes = b"") -> OfflineManifest:
    """The manifest of ``site`` as it is now. ``salt`` (the worker's template and
    JupyterLite's worker) joins the version: a new worker logic gets a new cache."""
    files: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for rel, path in _files(site):
        if not_precached(rel, site) is None:
            data = path.read_bytes()
            files[rel] = integrity(data)
            sizes[rel] = len(data)
    app = tuple(sorted(app_part(site, files)))
    digest = hashlib.sha256(salt)
    for rel, sri in files.items():
        digest.update(f"{rel}\0{sri}\n".encode())
    digest.update(("\0".join(app)).encode())
    return OfflineManifest(
        version=digest.hexdigest()[:16],
        files=files,
        bytes=sum(sizes.values()),
        app=app,
        app_bytes=sum(sizes[rel] for rel in app),
    )


def _root_config(site: Path) -> dict[str, object]:
    path = site / "jupyter-lite.json"
    data = json.loads(path.read_text(encoding="utf-8")).get("jupyter-config-data", {})
    if not isinstance(data, dict):
        raise OfflineError(f"{path} has no jupyter-config-data object")
    return data


def worker_url(site: Path) -> str:
    """The worker's URL relative to the site root, exactly as JupyterLite registers it
    (its ``enableServiceWorkerCache`` setting in the query): one registration for all."""
    enabled = bool(_root_config(site).get("enableServiceWorkerCache"))
    return f"{WORKER}?enableCache={'true' if enabled else 'false'}"


def pin_script(site: Path) -> str:
    """The inline script for JupyterLite's pages.

    JupyterLite 0.8.6, on a page a worker already controls, looks up
    ``localStorage["<worker URL>-version"]``; unless it holds JupyterLite's
    ``appVersion``, it unregisters *every* worker of the origin and registers
    its own again. Under ours, that would drop an update waiting for the old
    version's pages to close, and the new registration would take over pages
    still running the old files. Recording the worker first keeps the one
    registration for good (ours handles new deployments itself).
    """
    app_version = _root_config(site).get("appVersion")
    if not isinstance(app_version, str) or not app_version:
        raise OfflineError("jupyter-lite.json has no appVersion")
    pin = {"worker": worker_url(site), "appVersion": app_version}
    return f"<script {_PIN_MARK}>\n{_template(PIN_TEMPLATE, _PIN_CONFIG_MARK, pin)}</script>"


def _jupyterlite_pages(site: Path) -> Iterator[Path]:
    """JupyterLite's app pages: those that load its ``config-utils.js`` (its service
    worker manager runs there); not the landing page, not the app page."""
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        if "config-utils.js" in text and CONFIG_ELEMENT.search(text):
            yield path


def page_script_tag(site: Path, page: Path) -> str:
    """The tag that loads :data:`PAGE_SCRIPT` on a JupyterLite ``page`` of ``site``:
    it asks the worker to fill its cache only once the page's kernels have been idle
    for a while (``data-ruleslab-wait="kernels"``, ``app/offline.js``)."""
    src = relative_src(site, page, PAGE_SCRIPT)
    return f'<script src="{src}" data-ruleslab-wait="kernels" defer></script>'


def _pin_pages(site: Path) -> list[Path]:
    """Put :func:`pin_script` and the pages' script (:func:`page_script_tag`) into every
    JupyterLite page that lacks them; all those pages."""
    pin = pin_script(site)
    pages = list(_jupyterlite_pages(site))
    for path in pages:
        text = path.read_text(encoding="utf-8")
        if _PIN_MARK in text:
            continue
        hooked = insert_after_config(text, f"{pin}\n{page_script_tag(site, path)}")
        assert hooked is not None  # (_jupyterlite_pages found the element)
        path.write_text(hooked, encoding="utf-8")
    return pages


def _template(path: Path, mark: str, value: object) -> str:
    text = path.read_text(encoding="utf-8")
    if text.count(mark) != 1:
        raise OfflineError(f"{path} must hold {mark!r} exactly once")
    # "</" never appears in the JSON of paths and hashes, but guard a future inline use
    return text.replace(mark, json.dumps(value, ensure_ascii=True).replace("</", "<\\/"))


def write_offline(site: Path) -> OfflineManifest:
    """Make the built ``site`` work offline after the first visit (module docstring);
    returns the manifest. On a site made offline before and edited since, renews
    the manifest and the worker. Raises :class:`OfflineError` if JupyterLite's
    worker is not where JupyterLite 0.8.6 puts it."""
    site = Path(site)
    theirs, moved = site / WORKER, site / JUPYTERLITE_WORKER
    current = theirs.read_text(encoding="utf-8") if theirs.is_file() else ""
    if _JUPYTERLITE_SIGN in current and CACHE_PREFIX not in current:
        moved.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(theirs, moved)
    elif not (moved.is_file() and CACHE_PREFIX in current):
        # (else: a site made offline before, edited since: the manifest and worker are renewed)
        raise OfflineError(f"{theirs} is not JupyterLite's service worker")
    if not _pin_pages(site):
        raise OfflineError("no JupyterLite page (one loading config-utils.js) to pin the worker in")
    page = _template(PAGE_TEMPLATE, _CONFIG_MARK, {"worker": worker_url(site)})
    (site / PAGE_SCRIPT).write_text(page, encoding="utf-8")

    salt = WORKER_TEMPLATE.read_bytes() + moved.read_bytes()
    manifest = make_manifest(site, salt=salt)
    (site / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=1) + "\n", encoding="utf-8")
    worker = _template(WORKER_TEMPLATE, _MANIFEST_MARK, manifest.to_json())
    (site / WORKER).write_text(worker, encoding="utf-8")
    return manifest


def read_manifest(site: Path) -> OfflineManifest:
    """The manifest a built site's worker holds (from :data:`MANIFEST`)."""
    data = json.loads((Path(site) / MANIFEST).read_text(encoding="utf-8"))
    return OfflineManifest(
        version=data["version"],
        files=dict(data["files"]),
        bytes=int(data["bytes"]),
        jupyterlite=data["jupyterlite"],
        app=tuple(data["app"]),
        app_bytes=int(data["app_bytes"]),
    )


def check_offline(site: Path) -> list[str]:
    """Problems with a built site's offline support (empty if it is sound)."""
    site = Path(site)
    if not (site / MANIFEST).is_file():
        return [f"{MANIFEST} missing: the site does not work offline"]
    problems: list[str] = []
    manifest = read_manifest(site)
    worker = (site / WORKER).read_text(encoding="utf-8") if (site / WORKER).is_file() else ""
    embedded = json.dumps(manifest.to_json(), ensure_ascii=True).replace("</", "<\\/")
    if embedded not in worker:
        problems.append(f"{WORKER} does not hold the manifest {MANIFEST} describes")
    if not (site / JUPYTERLITE_WORKER).is_file():
        problems.append(f"{JUPYTERLITE_WORKER} (imported by the worker) missing")
    salt = WORKER_TEMPLATE.read_bytes() + (site / JUPYTERLITE_WORKER).read_bytes()
    fresh = make_manifest(site, salt=salt)
    for rel in sorted(set(manifest.files) | set(fresh.files)):
        if rel not in fresh.files:
            problems.append(f"{rel}: in the manifest, not in the site")
        elif rel not in manifest.files:
            problems.append(f"{rel}: in the site, not in the manifest")
        elif manifest.files[rel] != fresh.files[rel]:
            problems.append(f"{rel}: changed after the manifest was made")
    if not problems and fresh.app != manifest.app:
        problems.append("the manifest's app part is not what the app pages load")
    if not problems and fresh.version != manifest.version:
        problems.append("the manifest's version is not the hash of its files")
    for path in _jupyterlite_pages(site):
        text = path.read_text(encoding="utf-8")
        if _PIN_MARK not in text:
            problems.append(f"{path.relative_to(site)}: no worker pin for JupyterLite")
        if page_script_tag(site, path) not in text:
            problems.append(f"{path.relative_to(site)}: does not load {PAGE_SCRIPT}")
    if not (site / PAGE_SCRIPT).is_file():
        problems.append(f"{PAGE_SCRIPT} missing")
    return problems
