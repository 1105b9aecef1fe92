"""Publishing: the workflow passes actionlint, the hosts' headers file, the release files.

The workflow (``.github/workflows/pages.yml``) is checked by actionlint (the dev
extra installs it beside the interpreter). The headers file (``_headers``,
:mod:`tools.publish`) is checked on made-up URLs and, with ``RULESLAB_SITE``, on
the built site: every URL matches exactly one rule, of its class.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.site.conftest import NEEDS_SITE, REPO
from tools.lite_pages import CONFIG_ELEMENT
from tools.offline import read_manifest
from tools.publish import (
    HEADERS_FILE,
    IMMUTABLE,
    MAX_RULES,
    REVALIDATE,
    VERSION_FILE,
    cache_class,
    header_rules,
    precompressed_original,
    project_version,
    site_urls,
    write_precompressed,
    write_release,
)

WORKFLOWS = REPO / ".github" / "workflows"
ACTIONLINT = Path(sys.executable).parent / "actionlint"


def _parse_headers(text: str) -> list[tuple[str, dict[str, str]]]:
    """The rules of a ``_headers`` file: (pattern, headers) in order."""
    rules: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t":
            name, value = line.strip().split(":", 1)
            rules[-1][1][name.strip()] = value.strip()
        else:
            rules.append((line.strip(), {}))
    return rules


def _matches(pattern: str, path: str) -> bool:
    """As the hosts match: ``*`` is any text, ``/`` included (the greediest reading)."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), path) is not None


def test_the_workflow_passes_actionlint() -> None:
    if not ACTIONLINT.is_file():
        pytest.fail(f"{ACTIONLINT} missing: scripts/bootstrap installs the dev extra")
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert files, "no workflow"
    proc = subprocess.run(
        [str(ACTIONLINT), "-no-color", *map(str, files)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_workflow_uses_only_githubs_own_actions_and_the_readme_commands() -> None:
    text = (WORKFLOWS / "pages.yml").read_text(encoding="utf-8")
    uses = re.findall(r"uses:\s*(\S+)", text)
    assert uses, "no action"
    assert all(u.startswith("actions/") for u in uses), uses
    for needed in ("actions/deploy-pages@", "actions/upload-pages-artifact@"):
        assert needed in text
    assert ".venv/bin/python tools/build_site.py --out build/site" in text
    assert "tools/publish.py release build/site" in text
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    publishing = readme.split("## Publishing", 1)[1].split("\n## ", 1)[0]
    assert "tools/build_site.py --out build/site" in publishing
    assert "tools/publish.py release build/site" in publishing


@pytest.mark.parametrize(
    ("path", "cls"),
    [
        ("build/1031.b91a70b.js", "immutable"),
        ("build/jlab_core.a86436d.js", "immutable"),
        ("extensions/anywidget/static/remoteEntry.698dcaf7.js", "immutable"),
        ("static/app/fa-solid-900-MIABT3M5.woff2", "immutable"),
        ("static/pyodide/ruleslab-0.1.0-0822fd03c4e-py3-none-any.whl", "immutable"),
        ("", "revalidate"),
        ("index.html", "revalidate"),
        ("app.html", "revalidate"),
        ("lab/", "revalidate"),
        ("lab/index.html", "revalidate"),
        ("embed.js", "revalidate"),
        ("service-worker.js", "revalidate"),
        ("static/offline/jupyterlite-service-worker.js", "revalidate"),
        ("static/offline/manifest.json", "revalidate"),
        ("manifest.webmanifest", "revalidate"),
        ("jupyter-lite.json", "revalidate"),
        ("static/pyodide/pyodide-lock.json", "revalidate"),
        ("static/pyodide/pyodide.asm.wasm", "revalidate"),
        ("static/pyodide/ipywidgets-8.1.9-py3-none-any.whl", "revalidate"),
        ("static/app/app.js", "revalidate"),
        ("build/fa-solid-900.woff2", "revalidate"),
        ("files/dice_pool.ipynb", "revalidate"),
        (VERSION_FILE, "revalidate"),
        # a compressed copy has its file's class
        ("static/pyodide/ruleslab-0.1.0-0822fd03c4e-py3-none-any.whl.br", "immutable"),
        ("static/pyodide/pyodide.asm.wasm.gz", "revalidate"),
    ],
)
def test_only_names_holding_a_content_hash_are_immutable(path: str, cls: str) -> None:
    assert cache_class(path) == cls


def test_each_url_matches_exactly_one_rule_of_its_class() -> None:
    urls = {
        p: cache_class(p)
        for p in [
            "",
            "index.html",
            "lab/",
            "lab/index.html",
            "build/1.a8fa7b2.js",
            "build/1031.b91a70b.js",
            "build/15.css",
            "build/fa-solid-900.woff2",
            "build/jlab_core.a86436d.js",
            "static/app/app.js",
            "static/app/fa-solid-900-MIABT3M5.woff2",
            "static/pyodide/ruleslab-0.1.0-0822fd03c4e-py3-none-any.whl",
            "static/pyodide/ruleslab-kernel.mjs",
        ]
    }
    rules = header_rules(urls)
    for url, cls in urls.items():
        matched = [c for pattern, c in rules if _matches(pattern, url)]
        assert matched == [cls], (url, rules)


@NEEDS_SITE
def test_the_built_sites_headers_file(site: Path) -> None:
    rules = _parse_headers((site / HEADERS_FILE).read_text(encoding="utf-8"))
    assert 0 < len(rules) <= MAX_RULES
    urls = site_urls(site)
    assert {"", "index.html", "app.html"} <= set(urls)
    wanted = {"immutable": IMMUTABLE, "revalidate": REVALIDATE}
    for url, cls in urls.items():
        matched = [h for pattern, h in rules if _matches(pattern, "/" + url)]
        if not matched and cls == "revalidate" and len(rules) < len(header_rules(urls)):
            continue  # (only the immutable rules were written: the hosts revalidate the rest)
        assert len(matched) == 1, (url, matched)
        assert matched[0]["Cache-Control"] == wanted[cls], url
    immutable = [u for u, c in urls.items() if c == "immutable"]
    assert any(u.startswith("build/") for u in immutable)
    assert any(u.startswith("static/pyodide/ruleslab-") for u in immutable)  # (the wheel)
    # the app page's bundle has no hashed asset since its icons need no font
    assert urls["static/app/app.js"] == urls["static/app/app.css"] == "revalidate"
    for must in ("service-worker.js", "static/offline/manifest.json", "app.html", "lab/"):
        assert urls[must] == "revalidate"
    # the hosts never serve the file: the offline worker must not ask for it
    assert HEADERS_FILE not in read_manifest(site).files


@NEEDS_SITE
def test_the_built_site_says_its_version(site: Path) -> None:
    info = json.loads((site / VERSION_FILE).read_text(encoding="utf-8"))
    assert info == {"name": "ruleslab", "version": project_version()}
    assert VERSION_FILE in read_manifest(site).files  # shown offline too


def test_the_release_holds_the_site_and_one_wheel_with_the_three_packages(
    tmp_path: Path,
) -> None:
    version = project_version()
    site = tmp_path / "site"
    (site / "lab").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html>", encoding="utf-8")
    (site / "lab" / "index.html").write_text("<!doctype html>", encoding="utf-8")
    (site / VERSION_FILE).write_text(json.dumps({"version": version}), encoding="utf-8")
    out = tmp_path / "dist"
    written = write_release(site, out)
    names = sorted(p.name for p in written)
    assert names == sorted(
        [
            f"ruleslab-site-{version}.tar.gz",
            f"ruleslab-{version}.tar.gz",
            f"ruleslab-{version}-py3-none-any.whl",
        ]
    )
    with tarfile.open(out / f"ruleslab-site-{version}.tar.gz") as tar:
        members = set(tar.getnames())
    assert f"ruleslab-site-{version}/lab/index.html" in members
    with zipfile.ZipFile(out / f"ruleslab-{version}-py3-none-any.whl") as whl:
        tops = {name.split("/", 1)[0] for name in whl.namelist()}
    assert {"ruleslab", "ruleslab_widgets", "ruleslab_sphinx"} <= tops
    assert not {"tools", "tests", "app"} & tops


def test_a_release_refuses_a_site_of_another_version(tmp_path: Path) -> None:
    from tools.publish import PublishError

    (tmp_path / VERSION_FILE).write_text(json.dumps({"version": "0.0.0-old"}), encoding="utf-8")
    with pytest.raises(PublishError, match="build it again"):
        write_release(tmp_path, tmp_path / "dist", wheel=False)


@NEEDS_SITE
def test_every_jupyterlite_page_links_the_sites_icon(site: Path) -> None:
    """Without a ``<link rel="icon">`` the browser asks for ``/favicon.ico`` at the
    origin's root: outside a site served under a sub-path."""
    # (the element itself: the documentation's pages only write about it, escaped)
    pages = [p for p in site.rglob("*.html") if CONFIG_ELEMENT.search(p.read_text("utf-8"))]
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        depth = len(page.relative_to(site).parts) - 1
        assert f'<link rel="icon" href="{"../" * depth}favicon.ico">' in text, page


def test_the_landing_page_shows_the_version_being_published() -> None:
    """The footer names the version (written at build time: shown offline, without JS)."""
    import tomllib

    from tools.make_content import landing_html

    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    assert f'<p class="version">ruleslab {version}</p>' in landing_html()


def test_large_files_get_compressed_copies_beside_them(tmp_path: Path) -> None:
    import gzip

    import brotli  # type: ignore[import-untyped]

    text = ("the same line, again and again\n" * 400).encode()
    (tmp_path / "big.js").write_bytes(text)
    (tmp_path / "small.js").write_bytes(b"tiny")
    (tmp_path / "noise.whl").write_bytes(os.urandom(9000))
    (tmp_path / "picture.png").write_bytes(text)
    cache = tmp_path.parent / f"{tmp_path.name}-cache"
    written = write_precompressed(tmp_path, cache=cache)
    assert sorted(p.name for p in written) == ["big.js.br", "big.js.gz"]
    assert gzip.decompress((tmp_path / "big.js.gz").read_bytes()) == text
    assert brotli.decompress((tmp_path / "big.js.br").read_bytes()) == text
    copies = {p: p.read_bytes() for p in written}
    for p in written:
        p.unlink()
    assert write_precompressed(tmp_path, cache=cache) == written  # (from the cache)
    assert {p: p.read_bytes() for p in written} == copies
    assert precompressed_original("big.js.gz", tmp_path) == "big.js"
    assert precompressed_original("nothing.js.gz", tmp_path) is None  # (no such file)
    assert precompressed_original("big.js", tmp_path) is None


def test_the_built_sites_large_files_have_compressed_copies_the_worker_leaves_out(
    site: Path,
) -> None:
    import gzip

    wasm = site / "static/pyodide/pyodide.asm.wasm"
    assert gzip.decompress((site / "static/pyodide/pyodide.asm.wasm.gz").read_bytes()) == (
        wasm.read_bytes()
    )
    assert (site / "static/pyodide/app_stdlib.zip.br").is_file()
    files = read_manifest(site).files
    assert "static/pyodide/pyodide.asm.wasm" in files
    assert not [name for name in files if precompressed_original(name, site)]


def test_the_development_server_sends_a_compressed_copy_to_who_accepts_it(site: Path) -> None:
    import threading
    import urllib.request

    from tools.build_site import make_server

    server = make_server(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/static/pyodide/app_stdlib.zip"
        for accept, encoding, suffix in (
            ("gzip, deflate, br", "br", ".br"),
            ("gzip", "gzip", ".gz"),
            ("identity", None, ""),
        ):
            request = urllib.request.Request(url, headers={"Accept-Encoding": accept})
            with urllib.request.urlopen(request) as response:
                assert response.headers.get("Content-Encoding") == encoding
                assert response.headers["Content-Type"] == "application/zip"
                body = response.read()
            assert body == (site / ("static/pyodide/app_stdlib.zip" + suffix)).read_bytes()
    finally:
        server.shutdown()
        server.server_close()
