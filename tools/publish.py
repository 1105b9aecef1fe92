"""What a host needs besides the files: the version, and how long each file may be cached.

Two steps of the site build (:func:`tools.build_site.build_site`):

1. :func:`prepare_pages`, before the offline step (so the worker precaches what it
   writes): :data:`VERSION_FILE` (``version.json``), the project's version from
   ``pyproject.toml``, ``{"name": "ruleslab", "version": "0.1.0"}``, for the
   landing page and for anyone asking what is deployed (:func:`write_version`);
   and a ``<link rel="icon">`` to the site's ``favicon.ico`` in JupyterLite's pages,
   which have none, so that the browser does not ask for ``/favicon.ico`` at the
   origin's root, outside a site served under a sub-path (:func:`link_favicons`);
2. :func:`write_precompressed`, after the offline step (the files are final):
   ``NAME.gz`` (gzip -9) and ``NAME.br`` (brotli, quality 11) beside each large file
   that compresses (:data:`PRECOMPRESS_MIN`, :data:`PRECOMPRESS_SUFFIXES`), which a
   host that serves precompressed files sends in its place to a browser that accepts
   the encoding (``scripts/serve`` does: :class:`tools.build_site.SiteRequestHandler`);
   the offline worker never precaches them (:func:`tools.offline.not_precached`), and
   each has its file's cache class;
3. :func:`write_headers`, last: :data:`HEADERS_FILE` (``_headers``), the headers
   file that Netlify and Cloudflare Pages read (and never serve; GitHub Pages
   ignores it and serves the file, which does no harm). The offline worker does
   not precache it (:func:`tools.offline.not_precached`).

Every URL of the site falls into one class (:func:`cache_class`):

* ``immutable``: a file whose name holds a hash of its content (JupyterLite's
  and the extensions' webpack chunks ``<id>.<hex>.js``, the app page's fonts
  ``<name>-<HASH>.woff2`` named by esbuild, the project wheel with its
  content-derived build tag ``ruleslab-<version>-0<hex>-…whl``): a new content is a
  new name, so browsers may keep it a year without asking
  (``public, max-age=31536000, immutable``);
* ``revalidate``: everything else, pages and folder URLs, the service worker and
  what it imports, the manifests (the offline manifest, ``manifest.webmanifest``,
  the Pyodide locks, ``jupyter-lite.json``), ``embed.js``, ``app.js``,
  ``version.json``, the notebooks, the unhashed Pyodide files and wheels:
  ``no-cache`` (a browser may keep a copy but asks, with its ETag, before each use).
  The service worker answers from its own cache anyway once installed.

The rules are prefix patterns ending in one ``*`` (:func:`header_rules`): the
shortest prefixes whose URLs are all of one class, so each URL matches exactly one
rule (both hosts merge the headers of every matching rule) and the file stays
under Cloudflare's 100 rules (:data:`MAX_RULES`; past it, only the ``immutable``
rules are written: both hosts revalidate by default). The patterns are absolute
paths: ``base`` (``--base /ruleslab/``) when the site is not at the host's root.

And the release (:func:`write_release`, run by ``.github/workflows/pages.yml`` on a
tag): the built site as ``ruleslab-site-<version>.tar.gz`` (one folder,
``ruleslab-site-<version>/``, to unpack on any static host), and the project's wheel
and sdist (``python -m build``: one wheel holds the engine ``ruleslab``, the widgets
``ruleslab_widgets`` and the Sphinx extension ``ruleslab_sphinx``).

Usage::

    python tools/publish.py headers SITE [--base /]   # (re)write SITE/_headers
    python tools/publish.py release SITE [--out dist] # site archive, wheel, sdist
    python tools/publish.py --version                 # print the project's version
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tomllib
from collections.abc import Sequence
from pathlib import Path

from tools import REPO
from tools.lite_pages import insert_after_config, relative_src

__all__ = [
    "HEADERS_FILE",
    "IMMUTABLE",
    "MAX_RULES",
    "PRECOMPRESSED",
    "REVALIDATE",
    "VERSION_FILE",
    "PublishError",
    "cache_class",
    "header_rules",
    "headers_text",
    "link_favicons",
    "precompressed_original",
    "prepare_pages",
    "project_version",
    "site_urls",
    "write_headers",
    "write_precompressed",
    "write_release",
    "write_version",
]

VERSION_FILE = "version.json"
HEADERS_FILE = "_headers"
#: Cloudflare Pages reads at most 100 rules from ``_headers``.
MAX_RULES = 100

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_HEADERS = {
    "immutable": {"Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff"},
    "revalidate": {"Cache-Control": REVALIDATE, "X-Content-Type-Options": "nosniff"},
}

#: File names that hold a hash of their content.
_HASHED = (
    # webpack chunks (JupyterLite's build/, the federated extensions): <id>.<contenthash>.js
    re.compile(r"\.[0-9a-f]{7,20}\.js$"),
    # esbuild assets of the app page (tools/build_app.py: --asset-names=[name]-[hash])
    re.compile(r"^static/app/.+-[A-Z0-9]{8}\.(woff2|woff|ttf|eot|svg)$"),
    # the project wheel: a build tag from its content's sha256 (tools/pyodide_dist.py)
    re.compile(r"^static/pyodide/ruleslab-[^-/]+-0[0-9a-f]{10}-[^/]+\.whl$"),
)


#: The encodings written beside a file (its name + the suffix), best first, by the
#: ``Content-Encoding`` each is sent with.
PRECOMPRESSED = {".br": "br", ".gz": "gzip"}
#: A file is precompressed from this many bytes on ...
PRECOMPRESS_MIN = 4096
#: ... if its name ends so (what compresses: text, WebAssembly, and the archives, whose
#: members are stored for it: tools/bytecode.py) ...
PRECOMPRESS_SUFFIXES = (
    ".html", ".js", ".mjs", ".css", ".json", ".ipynb", ".svg", ".wasm", ".whl", ".zip",
    ".txt", ".map", ".webmanifest",
)  # fmt: skip
#: ... and the compressed copy is at most this fraction of it.
PRECOMPRESS_GAIN = 0.9


def precompressed_original(rel: str, site: Path) -> str | None:
    """The site file ``rel`` is a compressed copy of (:func:`write_precompressed`: ``rel``
    without its :data:`PRECOMPRESSED` suffix, when that file exists), or None."""
    for suffix in PRECOMPRESSED:
        if rel.endswith(suffix) and (Path(site) / rel[: -len(suffix)]).is_file():
            return rel[: -len(suffix)]
    return None


#: Brotli's quality for the files the app page's first visit fetches, which a phone waits
#: for (:func:`tools.build_app.first_visit_files`), and for every other file: 11 took 20 s
#: where 9 took 1 s for a 4 MB archive on this 2-core machine, for 14% more bytes.
BROTLI_FIRST_VISIT, BROTLI_OTHER = 11, 9
#: Where compressed copies are kept between builds, by their file's sha256 (most files,
#: Pyodide's and the wheels, are the same build after build).
PRECOMPRESS_CACHE = REPO / "build" / "precompress-cache"


def _compressed(data: bytes, suffix: str, quality: int, cache: Path) -> bytes:
    """``data`` brotli'd at ``quality`` (``.br``) or gzipped at level 9 with no name or
    time (``.gz``: reproducible), from ``cache`` when it holds it."""
    key = hashlib.sha256(data).hexdigest()
    kept = cache / f"{key}-{quality}{suffix}" if suffix == ".br" else cache / f"{key}{suffix}"
    if kept.is_file():
        return kept.read_bytes()
    if suffix == ".br":
        import brotli  # type: ignore[import-untyped]  # (the dev extra: scripts/bootstrap)

        packed = bytes(brotli.compress(data, quality=quality))
    else:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    cache.mkdir(parents=True, exist_ok=True)
    kept.with_name(kept.name + ".partial").write_bytes(packed)
    kept.with_name(kept.name + ".partial").replace(kept)
    return packed


def write_precompressed(site: Path, *, cache: Path = PRECOMPRESS_CACHE) -> list[Path]:
    """Write a gzip (level 9) and a brotli (:data:`BROTLI_FIRST_VISIT` for the app page's
    first visit, else :data:`BROTLI_OTHER`) copy beside every file of ``site`` of
    :data:`PRECOMPRESS_MIN` bytes or more whose name ends with one of
    :data:`PRECOMPRESS_SUFFIXES`, each only where it is at most
    :data:`PRECOMPRESS_GAIN` of the file; the copies written. ``cache``: where copies are
    kept between builds (:data:`PRECOMPRESS_CACHE`)."""
    from tools.build_app import APP_LOCK, first_visit_files

    site = Path(site)
    first = set(first_visit_files(site)) if (site / APP_LOCK).is_file() else set()
    written = []
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.stat().st_size < PRECOMPRESS_MIN:
            continue
        if not path.name.endswith(PRECOMPRESS_SUFFIXES):
            continue
        data = path.read_bytes()
        rel = path.relative_to(site).as_posix()
        quality = BROTLI_FIRST_VISIT if rel in first else BROTLI_OTHER
        for suffix in PRECOMPRESSED:
            packed = _compressed(data, suffix, quality, cache)
            if len(packed) <= PRECOMPRESS_GAIN * len(data):
                out = path.with_name(path.name + suffix)
                out.write_bytes(packed)
                written.append(out)
    return written


class PublishError(RuntimeError):
    """The headers file cannot be written as the hosts require."""


def project_version(pyproject: Path = REPO / "pyproject.toml") -> str:
    """The ``[project] version`` of ``pyproject.toml``."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return str(data["project"]["version"])


def write_version(site: Path) -> dict[str, str]:
    """Write :data:`VERSION_FILE` into ``site``; returns what it holds."""
    info = {"name": "ruleslab", "version": project_version()}
    (Path(site) / VERSION_FILE).write_text(json.dumps(info) + "\n", encoding="utf-8")
    return info


def link_favicons(site: Path) -> list[Path]:
    """Give each JupyterLite page of ``site`` without an icon a ``<link rel="icon">`` to the
    site's ``favicon.ico`` (relative, after its configuration element); the pages changed."""
    site = Path(site)
    changed = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if re.search(r"""<link[^>]*\brel=["']?(shortcut )?icon\b""", text):
            continue
        link = f'<link rel="icon" href="{relative_src(site, page, "favicon.ico")}">'
        linked = insert_after_config(text, link)
        if linked is not None:
            page.write_text(linked, encoding="utf-8")
            changed.append(page)
    return changed


def prepare_pages(site: Path) -> None:
    """The build's step before the offline one: :func:`write_version`, :func:`link_favicons`."""
    write_version(site)
    link_favicons(site)


def cache_class(url_path: str) -> str:
    """``immutable`` or ``revalidate`` for a site URL path (relative to the site root,
    ``lab/`` for a folder's index page, ``""`` for the root); a compressed copy
    (``NAME.br``, ``NAME.gz``) has its file's."""
    for suffix in PRECOMPRESSED:
        url_path = url_path.removesuffix(suffix)
    if any(pattern.search(url_path) for pattern in _HASHED):
        return "immutable"
    return "revalidate"


def site_urls(site: Path) -> dict[str, str]:
    """Every URL path of ``site`` (relative to its root: each file, and each folder with
    an ``index.html``, as ``lab/``) with its :func:`cache_class`."""
    urls: dict[str, str] = {}
    for path in sorted(Path(site).rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(site).as_posix()
        if rel == HEADERS_FILE:
            continue
        urls[rel] = cache_class(rel)
        if path.name == "index.html":
            folder = rel[: -len("index.html")]
            urls[folder] = cache_class(folder)
    return urls


def header_rules(urls: dict[str, str]) -> list[tuple[str, str]]:
    """``(pattern, class)`` rules, relative to the site root, covering ``urls`` (path to
    class) so that each URL matches exactly one rule and no rule matches a URL of another
    class: ``prefix*`` for the shortest prefixes whose URLs share a class; a URL that is
    itself such a prefix gets a rule of its own, without ``*``."""
    rules: list[tuple[str, str]] = []

    def split(prefix: str, paths: list[str]) -> None:
        classes = {urls[p] for p in paths}
        if len(classes) == 1:
            rules.append((prefix + "*", classes.pop()))
            return
        rest = []
        for path in paths:
            if path == prefix:
                rules.append((path, urls[path]))
            else:
                rest.append(path)
        groups: dict[str, list[str]] = {}
        for path in rest:
            groups.setdefault(path[len(prefix)], []).append(path)
        for char in sorted(groups):
            split(prefix + char, groups[char])

    if urls:
        split("", sorted(urls))
    return rules


def _normal_base(base: str) -> str:
    return "/" + base.strip("/") + "/" if base.strip("/") else "/"


def headers_text(site: Path, base: str = "/") -> str:
    """The ``_headers`` file for ``site`` served at ``base``."""
    base = _normal_base(base)
    urls = site_urls(site)
    rules = header_rules(urls)
    if len(rules) > MAX_RULES:
        # the hosts' own default (Netlify's and Cloudflare's) is to revalidate: keep
        # only the immutable rules, which match nothing else
        rules = [rule for rule in rules if rule[1] == "immutable"]
    if len(rules) > MAX_RULES:
        raise PublishError(f"{len(rules)} header rules: more than Cloudflare's {MAX_RULES}")
    lines = [
        "# Written by tools/publish.py (docs/site-build.md, 'Publishing'): Netlify and",
        "# Cloudflare Pages read this file. Names holding a hash of their content are",
        "# cached for a year; everything else (pages, the service worker, manifests)",
        "# is revalidated before each use. Each URL matches exactly one rule.",
    ]
    for pattern, cls in rules:
        lines.append("")
        lines.append(base + pattern)
        lines += [f"  {name}: {value}" for name, value in _HEADERS[cls].items()]
    return "\n".join(lines) + "\n"


def write_headers(site: Path, base: str = "/") -> Path:
    """Write :data:`HEADERS_FILE` into ``site`` (after every other file is written)."""
    path = Path(site) / HEADERS_FILE
    path.write_text(headers_text(site, base), encoding="utf-8")
    return path


def write_release(site: Path, out: Path, *, wheel: bool = True) -> list[Path]:
    """Write the release's files into ``out``: the site archive and (with ``wheel``) the
    project's wheel and sdist; returns their paths. ``site`` must be a built site (its
    :data:`VERSION_FILE` names the version, which must be the project's)."""
    site, out = Path(site), Path(out)
    version = project_version()
    stamped = site / VERSION_FILE
    if not stamped.is_file() or json.loads(stamped.read_text("utf-8"))["version"] != version:
        raise PublishError(f"{site} is not a site built from version {version}: build it again")
    out.mkdir(parents=True, exist_ok=True)
    name = f"ruleslab-site-{version}"
    archive = out / f"{name}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(site, arcname=name, filter=_reproducible)
    written = [archive]
    if wheel:
        before = set(out.iterdir())
        cmd = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise PublishError(f"python -m build failed:\n{proc.stdout[-3000:]}{proc.stderr}")
        written += sorted(set(out.iterdir()) - before)
    return written


def _reproducible(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Archive members without the builder's user, group or times."""
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mtime = 0
    return info


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="store_true", help="print the project's version")
    steps = parser.add_subparsers(dest="step")
    headers = steps.add_parser("headers", help="(re)write a built site's _headers")
    headers.add_argument("site", type=Path)
    headers.add_argument("--base", default="/", help="the URL path the site is served at")
    release = steps.add_parser("release", help="the site archive, the wheel and the sdist")
    release.add_argument("site", type=Path)
    release.add_argument("--out", type=Path, default=REPO / "dist")
    args = parser.parse_args(argv)
    if args.version:
        print(project_version())
    elif args.step == "headers":
        print(write_headers(args.site, args.base))
    elif args.step == "release":
        for path in write_release(args.site, args.out):
            print(path)
    else:
        parser.error("give --version, or a step: headers, release")
    return 0


if __name__ == "__main__":
    sys.exit(main())
