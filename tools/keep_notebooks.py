"""Keep what a GM saved in the browser across deploys (the build's side).

JupyterLite keeps every notebook a visitor saves (a new one, or a served one
opened, edited or just run) in the browser's IndexedDB, under the site's
``contentsStorageName``; a stored copy shadows the served file of the same
path. The site uses one **stable** storage name (:data:`CONTENTS_STORAGE`), so
nothing a GM saved is hidden by a redeploy, and reconciles stored copies of
served notebooks with the deploy before JupyterLite starts
(``lite/keep_notebooks.mjs``, served as :data:`SCRIPT`):

* every served notebook is **stamped** at build time with the fingerprint of
  its cells (:func:`cells_fingerprint`) in ``metadata.ruleslab.published``; a
  copy JupyterLite saves keeps that metadata, so it says which published
  version it was made from;
* the manifest (:data:`MANIFEST`) lists each served notebook's current
  fingerprint;
* every JupyterLite page (``lab/``, ``notebooks/``, ``tree/``, ...) runs the
  script before ``config-utils.js`` (:func:`hook_pages`).

What counts as an edit, and what the script does with each copy:
``docs/site-build.md`` ("Redeploys keep what a GM saved").

Usage: :func:`publish_notebooks` is called by :func:`tools.build_site.build_site`
on the built site; it is idempotent, so it can re-publish a site whose served
notebooks were replaced (the browser test derives a second deploy this way).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from tools import REPO

__all__ = [
    "CONTENTS_STORAGE",
    "COPIES_FOLDER",
    "LEGACY_CONTENTS_PREFIX",
    "MANIFEST",
    "SCRIPT",
    "STAMP_KEY",
    "WORKSPACES_STORAGE",
    "KeepNotebooksError",
    "cells_fingerprint",
    "check_published",
    "hook_pages",
    "publish_notebooks",
    "stamp_notebook",
]

SCRIPT_SOURCE = REPO / "lite" / "keep_notebooks.mjs"

#: The browser storage names (IndexedDB databases), the same for every deploy.
CONTENTS_STORAGE = "ruleslab-contents"
WORKSPACES_STORAGE = "ruleslab-workspaces"
#: Earlier builds named the contents storage ``ruleslab-contents-<12 hex>``
#: (a hash of the content); the script brings what a GM saved there over.
LEGACY_CONTENTS_PREFIX = "ruleslab-contents-"
#: The folder (in the GM's file browser) where edited copies are kept.
COPIES_FOLDER = "My copies"
#: The notebook metadata key of the stamp: ``{"published": <fingerprint>}``.
STAMP_KEY = "ruleslab"

#: Where the script and the manifest go, relative to the site root.
SCRIPT = "static/ruleslab/keep-notebooks.mjs"
MANIFEST = "static/ruleslab/published.json"

_HOOK_MARK = "ruleslab:keep-notebooks"
_CONFIG_IMPORT = re.compile(
    r"(?P<indent>[ \t]*)await import\(\s*'(?P<root>(?:\.\./|\./)*)config-utils\.js"
)


class KeepNotebooksError(RuntimeError):
    """The served notebooks could not be published (a page or notebook is not as expected)."""


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def cells_fingerprint(notebook: dict[str, Any]) -> str:
    """The sha256 (hex) of a notebook's cells: each cell's type and source, in order.

    For each cell: ``<cell_type>\\n<byte length of the source>\\n<source>`` in
    UTF-8 (a source stored as a list of lines is joined first). Outputs,
    execution counts, ids and all metadata are left out, so running a
    notebook does not change it; editing, adding, deleting, moving a cell or
    changing its type does. ``lite/keep_notebooks.mjs`` computes the same
    value in the browser (``cellsFingerprint``).
    """
    digest = hashlib.sha256()
    for cell in notebook.get("cells", []):
        source = _source(cell).encode("utf-8")
        digest.update(f"{cell.get('cell_type', '')}\n{len(source)}\n".encode())
        digest.update(source)
    return digest.hexdigest()


def stamp_notebook(notebook: dict[str, Any]) -> str:
    """Set ``metadata.ruleslab.published`` to the notebook's fingerprint; return it."""
    fingerprint = cells_fingerprint(notebook)
    metadata = notebook.setdefault("metadata", {})
    stamp = metadata.get(STAMP_KEY)
    if not isinstance(stamp, dict):
        stamp = metadata[STAMP_KEY] = {}
    stamp["published"] = fingerprint
    return fingerprint


def _replace(path: Path, data: bytes) -> None:
    """Write a new file at ``path``: never through a hard link into another copy of the site."""
    path.unlink(missing_ok=True)
    path.write_bytes(data)


def _listing_entries(site: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Served paths → (their ``all.json``, their entry), over every folder's listing."""
    entries: dict[str, tuple[Path, dict[str, Any]]] = {}
    for listing in sorted((site / "api" / "contents").rglob("all.json")):
        for entry in json.loads(listing.read_text(encoding="utf-8")).get("content", []):
            entries[entry["path"]] = (listing, entry)
    return entries


def _stamp_served(site: Path) -> dict[str, str]:
    """Stamp every served notebook (``files/**/*.ipynb``); fix its listed size."""
    files = site / "files"
    published: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for path in sorted(files.rglob("*.ipynb")):
        rel = path.relative_to(files).as_posix()
        if ".ipynb_checkpoints" in rel.split("/"):
            continue
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise KeepNotebooksError(f"files/{rel} is not a notebook: {err}") from err
        published[rel] = stamp_notebook(notebook)
        data = (json.dumps(notebook, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
        _replace(path, data)
        sizes[rel] = len(data)
    changed: dict[Path, dict[str, Any]] = {}
    for rel, (listing, _entry) in _listing_entries(site).items():
        if rel in sizes:
            changed.setdefault(listing, json.loads(listing.read_text(encoding="utf-8")))
    for listing, index in changed.items():
        for entry in index["content"]:
            if entry["path"] in sizes:
                entry["size"] = sizes[entry["path"]]
        _replace(listing, (json.dumps(index, indent=2, sort_keys=True) + "\n").encode())
    unlisted = sorted(set(published) - set(_listing_entries(site)))
    if unlisted:
        raise KeepNotebooksError(f"served notebooks missing from api/contents: {unlisted}")
    return published


def _empty_listing(folder: str) -> dict[str, Any]:
    """A folder's listing (``all.json``) as ``jupyter lite build`` writes one, with no files."""
    epoch = "1970-01-01T00:00:00Z"
    return {
        "content": [],
        "created": epoch,
        "format": "json",
        "hash": None,
        "hash_algorithm": None,
        "last_modified": epoch,
        "mimetype": None,
        "name": folder,
        "path": folder,
        "size": None,
        "type": "directory",
        "writable": True,
    }


def hook_pages(site: Path, script_url_suffix: str) -> list[Path]:
    """Make every JupyterLite page run the script before ``config-utils.js``.

    Each app's ``index.html`` imports ``config-utils.js`` (which starts the
    app) from an inline script; the hook awaits the script's ``main`` first
    (which gives up after a few seconds rather than hold the app back). A
    failure to load or run the script is a console warning and the app starts
    as before. Pages already hooked are left as they are.
    """
    hooked: list[Path] = []
    for page in sorted(site.glob("**/index.html")):
        text = page.read_text(encoding="utf-8")
        if _HOOK_MARK in text:
            hooked.append(page)
            continue
        match = _CONFIG_IMPORT.search(text)
        if match is None:
            continue
        indent, root = match.group("indent"), match.group("root")
        line = (
            f"{indent}/* {_HOOK_MARK} */ await import('{root}{SCRIPT}{script_url_suffix}')"
            f".then((m) => m.main('{root}')).catch((err) => console.warn("
            f"'ruleslab: stored notebooks were not checked against this deploy', err));\n"
        )
        _replace(page, (text[: match.start()] + line + text[match.start() :]).encode("utf-8"))
        hooked.append(page)
    return hooked


def publish_notebooks(site: Path) -> dict[str, str]:
    """Stamp the served notebooks of a built site, write the manifest and the
    script, and hook the JupyterLite pages; return path → fingerprint.

    The site's ``jupyter-lite.json`` must name :data:`CONTENTS_STORAGE` (the
    build sets it). Raises :class:`KeepNotebooksError` when the site is not as
    expected (no page to hook, a notebook that is not JSON, a notebook not in
    the contents listing).
    """
    site = Path(site)
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    storage = config.get("jupyter-config-data", {}).get("contentsStorageName")
    if storage != CONTENTS_STORAGE:
        raise KeepNotebooksError(
            f"jupyter-lite.json names the contents storage {storage!r}, not {CONTENTS_STORAGE!r}"
        )
    published = _stamp_served(site)
    manifest = {
        "contentsStorageName": CONTENTS_STORAGE,
        "legacyContentsPrefix": LEGACY_CONTENTS_PREFIX,
        "copiesFolder": COPIES_FOLDER,
        "stampKey": STAMP_KEY,
        "notebooks": published,
    }
    # JupyterLite asks the server for the listing of every folder it shows
    # (api/contents/<folder>/all.json): the copies folder's is empty, not a 404
    copies = site / "api" / "contents" / COPIES_FOLDER / "all.json"
    copies.parent.mkdir(parents=True, exist_ok=True)
    _replace(copies, (json.dumps(_empty_listing(COPIES_FOLDER), indent=2) + "\n").encode())
    (site / MANIFEST).parent.mkdir(parents=True, exist_ok=True)
    _replace(site / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    script = SCRIPT_SOURCE.read_bytes()
    _replace(site / SCRIPT, script)
    version = hashlib.sha256(script).hexdigest()[:10]
    if not hook_pages(site, f"?_={version}"):
        raise KeepNotebooksError("no JupyterLite page imports config-utils.js: nothing to hook")
    return published


def check_published(site: Path) -> list[str]:
    """Problems with a site's published notebooks (empty if sound)."""
    problems: list[str] = []
    manifest_path = site / MANIFEST
    if not manifest_path.is_file() or not (site / SCRIPT).is_file():
        return [f"{MANIFEST} or {SCRIPT} missing"]
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    notebooks: dict[str, str] = manifest.get("notebooks", {})
    for rel, fingerprint in notebooks.items():
        notebook = json.loads((site / "files" / rel).read_text(encoding="utf-8"))
        stamp = notebook.get("metadata", {}).get(STAMP_KEY, {}).get("published")
        if stamp != fingerprint or cells_fingerprint(notebook) != fingerprint:
            problems.append(f"files/{rel} is not stamped with its fingerprint")
    for page in sorted(site.glob("**/index.html")):
        text = page.read_text(encoding="utf-8")
        if _CONFIG_IMPORT.search(text) and _HOOK_MARK not in text:
            problems.append(f"{page.relative_to(site)} does not run {SCRIPT}")
    return problems
