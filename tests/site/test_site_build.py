"""Checks over a built site (CPython; no browser).

Set ``RULESLAB_SITE`` to the folder that ``python tools/build_site.py`` wrote
(default output ``build/site``); without it these tests are skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.site.conftest import NEEDS_SITE
from tools.pyodide_dist import LOCK_FIELDS

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
URL = re.compile(r"""(?:[a-z][a-z0-9+.-]*:)?//[^\s"'<>)\\]+""", re.IGNORECASE)
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}

pytestmark = NEEDS_SITE


@pytest.fixture(scope="module")
def config(site: Path) -> dict[str, Any]:
    text = (site / "jupyter-lite.json").read_text(encoding="utf-8")
    return json.loads(text)["jupyter-config-data"]


@pytest.fixture(scope="module")
def kernel_settings(config: dict[str, Any]) -> dict[str, Any]:
    return config["litePluginSettings"][KERNEL_PLUGIN]


@pytest.fixture(scope="module")
def lock_path(site: Path, kernel_settings: dict[str, Any]) -> Path:
    url = kernel_settings["loadPyodideOptions"]["lockFileURL"]
    assert url.startswith("./"), f"lockFileURL {url!r} is not site-relative"
    return site / url


@pytest.fixture(scope="module")
def lock(lock_path: Path) -> dict[str, Any]:
    return json.loads(lock_path.read_text(encoding="utf-8"))


def config_files(site: Path) -> list[Path]:
    files = sorted(site.glob("**/jupyter-lite.json"))
    files += sorted(site.glob("static/pyodide/pyodide-lock.json"))
    files += sorted(site.glob("extensions/**/pypi/all.json"))
    files += sorted(site.glob("api/**/*.json"))
    return files


def test_lock_references_only_local_files_with_matching_sha256(
    lock: dict[str, Any], lock_path: Path
) -> None:
    assert lock["packages"], "empty lock"
    for key, spec in lock["packages"].items():
        assert LOCK_FIELDS <= spec.keys(), f"{key}: missing {LOCK_FIELDS - spec.keys()}"
        assert (spec["install_dir"], spec["package_type"]) == ("site", "package"), key
        path = lock_path.parent / spec["file_name"]
        assert path.is_file(), f"{key}: {spec['file_name']} not served"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == spec["sha256"], key
        for dep in spec["depends"]:
            assert dep in lock["packages"], f"{key} depends on {dep}, absent from the lock"


def test_kernel_settings_are_offline(site: Path, kernel_settings: dict[str, Any]) -> None:
    assert kernel_settings["disablePyPIFallback"] is True
    url = kernel_settings["pyodideUrl"]
    assert url.startswith("./"), url
    assert (site / url).is_file(), url


def test_no_off_origin_url_in_config(site: Path) -> None:
    bad: dict[str, list[str]] = {}
    for path in config_files(site):
        for url in URL.findall(path.read_text(encoding="utf-8")):
            host = urlsplit(url if "//" in url else f"//{url}").hostname
            if host not in LOCAL_HOSTS:
                bad.setdefault(str(path.relative_to(site)), []).append(url)
    assert not bad, bad


@pytest.mark.parametrize("ext", ["@jupyter-widgets/jupyterlab-manager", "anywidget"])
def test_widget_labextensions_shipped(site: Path, config: dict[str, Any], ext: str) -> None:
    names = {e["name"] for e in config["federated_extensions"]}
    assert ext in names
    pkg = json.loads((site / "extensions" / ext / "package.json").read_text(encoding="utf-8"))
    load = pkg["jupyterlab"]["_build"]["load"]
    assert (site / "extensions" / ext / load).is_file(), load


def test_project_wheel_in_lock(lock: dict[str, Any]) -> None:
    spec = lock["packages"]["ruleslab"]
    assert {"ruleslab", "ruleslab_widgets"} <= set(spec["imports"])
    assert {"ipywidgets", "anywidget"} <= set(spec["depends"])


def test_the_kernels_own_wheels_are_locked_and_no_other(site: Path, lock: dict[str, Any]) -> None:
    """micropip prefers lock entries: a locked ipykernel must be the kernel's shim, the
    one its own index (``static/pypi/all.json``) lists, at the same version."""
    index = json.loads(
        (site / "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi/all.json").read_text(
            encoding="utf-8"
        )
    )
    for name in ("ipykernel", "pyodide-kernel", "piplite"):
        versions = sorted(index[name]["releases"])
        assert lock["packages"][name]["version"] == versions[-1], (name, versions)
    assert lock["packages"]["ipykernel"]["version"] == "6.9.2"  # the shim, not ipykernel 6.x/7.x
    assert "widgetsnbextension" not in lock["packages"]
    assert "jupyterlab-widgets" not in lock["packages"]


def test_stable_storage_published_notebooks_and_favicon(site: Path, config: dict[str, Any]) -> None:
    from tools.keep_notebooks import check_published

    # the same storage for every deploy, and every served notebook stamped and
    # every JupyterLite page running the script that keeps what a GM saved
    assert config["contentsStorageName"] == "ruleslab-contents"
    assert config["workspacesStorageName"] == "ruleslab-workspaces"
    assert check_published(site) == []
    pages = sorted(
        p.parent.name for p in site.glob("*/index.html") if "config-utils" in p.read_text()
    )
    assert {"lab", "notebooks", "tree", "repl"} <= set(pages)
    assert all("ruleslab:keep-notebooks" in (site / p / "index.html").read_text() for p in pages)
    assert (site / "favicon.ico").is_file()
    assert 'id="jupyter-config-data"' in (site / "index.html").read_text(encoding="utf-8")


def test_landing_and_app_pages_link_every_calculator(site: Path) -> None:
    pytest.importorskip("ipywidgets")
    from ruleslab.calculators import CALCULATORS
    from tools.make_content import calculator_page

    landing = (site / "index.html").read_text(encoding="utf-8")
    app = (site / "app.html").read_text(encoding="utf-8")
    assert 'id="jupyter-config-data"' in landing
    build = re.search(r'const BUILD_ = "([0-9a-f]{16})";', app)
    assert build is not None
    for calc in CALCULATORS:
        assert f'href="{calculator_page(calc)}"' in landing
        assert json.dumps(calc.key) + ": " + json.dumps(calc.title) in app
        assert (site / "files" / calc.notebook).is_file()
        # its own page: app.html with the calculator fixed, its form and figures in the
        # page itself (issue 35), naming the same build and worker
        own = (site / calculator_page(calc)).read_text(encoding="utf-8")
        assert f"const key = {json.dumps(calc.key)} || " in own
        main = own[own.index('<main id="calculator">') : own.index("</main>")]
        assert f'rl-prerender" data-calculator="{calc.key}"' in main
        assert main.count("data-figure=") >= 1
        assert build.group(0) in own
        assert f"worker.mjs?build={build.group(1)}" in own
    # app.html fixes none and fetches the static calculator
    assert 'const key = "" || query.get("calculator")' in app
    assert "rl-prerender" not in app[app.index('<main id="calculator">') :].split("</main>")[0]


def test_embed_script_and_the_app_pages_frame_messages(site: Path) -> None:
    """``embed.js`` at the root, with every calculator's title; the app page, in a
    frame, posts its height and readiness (the browser test: test_embed.py)."""
    pytest.importorskip("ipywidgets")
    from ruleslab.calculators import CALCULATORS

    script = (site / "embed.js").read_text(encoding="utf-8")
    assert "__RULESLAB_TITLES__" not in script
    titles = re.search(r"const TITLES = (\{.*?\});", script)
    assert titles is not None
    assert json.loads(titles.group(1)) == {c.key: c.title for c in CALCULATORS}
    assert URL.findall(script) == []  # it loads nothing but the app page, beside itself
    app = (site / "app.html").read_text(encoding="utf-8")
    assert '"ruleslab:height"' in app
    assert '"ruleslab:ready"' in app


def test_app_page_runtime_files(site: Path, lock: dict[str, Any]) -> None:
    """The app page's bundle, styles and worker are served, and the worker's packages are locked."""
    app = (site / "app.html").read_text(encoding="utf-8")
    assert 'src="static/app/app.js"' in app
    assert 'href="static/app/app.css"' in app
    # one worker for every calculator (a SharedWorker, else the page's own): one URL,
    # naming this build (a page of another build never attaches to this one's Python),
    # and the worker of the same build, which refuses a page naming another
    worker = (site / "static" / "app" / "worker.mjs").read_text(encoding="utf-8")
    built = re.search(r'const BUILD = "([0-9a-f]{16})"', worker)
    assert built, "worker.mjs names no build"
    assert f'URL_ = "static/app/worker.mjs?build={built.group(1)}"' in app
    assert f'const BUILD_ = "{built.group(1)}"' in app
    assert "build: BUILD_" in app
    assert "new SharedWorker(URL_" in app
    python = (site / "static" / "app" / "python.mjs").read_text(encoding="utf-8")
    assert 'from "../pyodide/pyodide.mjs"' in python
    assert 'import("./pyodide.asm.mjs")' in python  # (the site's fixed copy)
    assert 'INDEX_URL + "app-lock.json"' in python
    assert 'from "./python.mjs"' in worker
    assert 'packages: ["ruleslab"]' in worker
    assert 'pyimport("ruleslab_widgets.ipython_standin").install()' in worker
    # the snapshot's key names this build's runtime (tools.build_app.runtime_version)
    from tools.build_app import runtime_version

    assert f'export const VERSION = "{runtime_version(site)}";' in python
    # the app page's lock: ruleslab and what it needs without IPython, entries as in the site's
    app_lock = json.loads((site / "static" / "pyodide" / "app-lock.json").read_text("utf-8"))
    assert app_lock["info"] == lock["info"]
    names = set(app_lock["packages"])
    assert {"ruleslab", "ipywidgets", "anywidget", "comm", "traitlets"} <= names
    assert not names & {"ipython", "pygments", "prompt-toolkit", "jedi", "micropip"}
    for name, entry in app_lock["packages"].items():
        site_entry = lock["packages"][name]
        # (the project's wheel is the app page's own lean copy: see the test below)
        assert (entry["file_name"] == site_entry["file_name"]) == (name != "ruleslab"), name
        path = site / "static" / "pyodide" / entry["file_name"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= names, name
        assert set(entry["depends"]) <= set(site_entry["depends"]), name
    bundle = (site / "static" / "app" / "app.js").read_text(encoding="utf-8")
    # the widget classes are bundled, not fetched: no module loader, no CDN
    assert "unpkg.com" not in bundle
    assert "cdn.jsdelivr.net" not in bundle
    # anywidget's start-up limit is 30 s in the bundle, not its 2 s (tools.build_app)
    assert "AbortSignal.timeout(2e3)" not in bundle
    assert "AbortSignal.timeout(3e4)" in bundle


def test_the_app_pages_own_archives_are_compiled_without_docstrings(
    site: Path, lock: dict[str, Any]
) -> None:
    """tools.build_app.lean_archives: the app page's standard library and project wheel
    are compiled with optimize=2 (no docstrings), the notebooks' copies keep theirs; the
    same modules either way."""
    dist = site / "static" / "pyodide"
    app_lock = json.loads((dist / "app-lock.json").read_text("utf-8"))
    site_wheel = zipfile.ZipFile(dist / lock["packages"]["ruleslab"]["file_name"])
    app_wheel = zipfile.ZipFile(dist / app_lock["packages"]["ruleslab"]["file_name"])
    assert sorted(site_wheel.namelist()) == sorted(app_wheel.namelist())
    # the first line of engine/ruleslab/quickref/lifting.py's docstring
    doc = b"Lifting: capacity, the Mega-Strength multiplier and the lift roll."
    assert doc in site_wheel.read("ruleslab/quickref/lifting.pyc")
    assert doc not in app_wheel.read("ruleslab/quickref/lifting.pyc")
    # typing's module docstring ("The typing module: Support for gradual typing ...")
    doc = b"Support for gradual typing"
    assert doc in zipfile.ZipFile(dist / "python_stdlib.zip").read("typing.pyc")
    assert doc not in zipfile.ZipFile(dist / "app_stdlib.zip").read("typing.pyc")


def test_project_wheel_is_served_under_a_content_tag(lock: dict[str, Any]) -> None:
    from packaging.utils import parse_wheel_filename

    build = parse_wheel_filename(lock["packages"]["ruleslab"]["file_name"])[2]
    assert build, "the project wheel's served name must change with its content"


def test_the_site_works_offline(site: Path, lock: dict[str, Any]) -> None:
    """tools/offline.py: the worker at the root holds a manifest of every file each kind
    of page loads, with the files' own hashes (``check_offline``)."""
    from tools.offline import WORKER, check_offline, read_manifest
    from tools.publish import precompressed_original

    assert check_offline(site) == []
    manifest = read_manifest(site)
    files = set(manifest.files)
    pages = {
        "index.html",  # the landing page
        "app.html",  # the app page: its front end, worker, lock, Python
        "static/app/app.js",
        "static/app/app.css",
        "static/app/worker.mjs",
        "static/pyodide/app-lock.json",
        "static/pyodide/app_stdlib.zip",
        "static/pyodide/pyodide.mjs",
        "static/pyodide/pyodide.asm.mjs",
        "static/pyodide/pyodide.asm.wasm",
        "static/pyodide/python_stdlib.zip",
        "static/offline/offline.js",
        "lab/index.html",  # a notebook: JupyterLite, its settings, contents and kernel
        "config-utils.js",
        "bootstrap.js",
        "jupyter-lite.json",
        "lab/jupyter-lite.json",
        "api/contents/all.json",
        "static/pyodide/pyodide-lock.json",
    }
    assert pages <= files
    assert {f"static/pyodide/{e['file_name']}" for e in lock["packages"].values()} <= files
    for folder in ("build", "files", "extensions/@jupyterlite/pyodide-kernel-extension"):
        served = {p.relative_to(site).as_posix() for p in (site / folder).rglob("*") if p.is_file()}
        # (less the compressed copies a host sends in their files' place: tools/publish.py)
        served = {p for p in served if precompressed_original(p, site) is None}
        assert served, folder
        assert served <= files, sorted(served - files)[:5]
    assert "dice_pool.ipynb" in {Path(f).name for f in files if f.startswith("files/")}
    assert f'"version": "{manifest.version}"' in (site / WORKER).read_text(encoding="utf-8")
