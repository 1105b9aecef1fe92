"""tools.build_app: the app page's lock and standard library, cut from the site's, by
hand-made examples."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from ruleslab_widgets.app_stdlib import MANIFEST
from tools import REPO
from tools.build_app import (
    ANYWIDGET,
    AppBuildError,
    app_lock,
    app_stdlib,
    module_of,
    patched_anywidget,
)


def _entry(name: str, *depends: str) -> dict[str, object]:
    return {
        "name": name,
        "file_name": f"{name}-1-py3-none-any.whl",
        "sha256": name * 2,
        "depends": list(depends),
    }


SITE_LOCK = {
    "info": {"python": "3.14.2"},
    "packages": {
        "ruleslab": _entry("ruleslab", "anywidget", "ipywidgets"),
        "anywidget": _entry("anywidget", "ipywidgets", "psygnal"),
        "ipywidgets": _entry("ipywidgets", "comm", "ipython", "traitlets"),
        "ipython": _entry("ipython", "pygments", "traitlets"),
        "pygments": _entry("pygments"),
        "comm": _entry("comm"),
        "traitlets": _entry("traitlets"),
        "psygnal": _entry("psygnal"),
        "jedi": _entry("jedi", "parso"),
        "parso": _entry("parso"),
        "micropip": _entry("micropip"),
    },
}


def test_keeps_ruleslab_and_its_needs_without_ipython():
    lock = app_lock(SITE_LOCK)
    assert lock["info"] == SITE_LOCK["info"]
    assert set(lock["packages"]) == {
        "ruleslab",
        "anywidget",
        "ipywidgets",
        "comm",
        "traitlets",
        "psygnal",
    }
    assert lock["packages"]["ipywidgets"]["depends"] == ["comm", "traitlets"]
    for name, entry in lock["packages"].items():
        site = SITE_LOCK["packages"][name]
        assert (entry["file_name"], entry["sha256"]) == (site["file_name"], site["sha256"])
    assert SITE_LOCK["packages"]["ipywidgets"]["depends"] == ["comm", "ipython", "traitlets"]


def test_a_dependency_missing_from_the_site_lock_is_named():
    broken = {"info": {}, "packages": {"ruleslab": _entry("ruleslab", "anywidget")}}
    with pytest.raises(AppBuildError, match="'anywidget'"):
        app_lock(broken)


def _stdlib(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in members:
            z.writestr(name, f"bytes of {name}")
    return path


STDLIB = [
    "json/__init__.pyc",
    "json/decoder.pyc",
    "json/tool.pyc",
    "json/py.typed",
    "random.pyc",
    "xml/__init__.pyc",
    "xml/dom/minidom.pyc",
    "zz.pyc",
]


def test_module_of_names_modules_packages_and_data_files():
    assert [module_of(m) for m in STDLIB] == [
        "json",
        "json.decoder",
        "json.tool",
        "json",
        "random",
        "xml",
        "xml.dom.minidom",
        "zz",
    ]


def test_app_stdlib_keeps_the_traced_modules_stored_and_names_the_rest(tmp_path):
    full = _stdlib(tmp_path / "python_stdlib.zip", STDLIB)
    out = tmp_path / "app_stdlib.zip"
    keep = frozenset({"json", "json.decoder", "random"})
    assert app_stdlib(full, out, keep) == ["json.tool", "xml", "xml.dom.minidom", "zz"]
    with zipfile.ZipFile(out) as z:
        assert z.namelist() == [
            "json/__init__.pyc",
            "json/decoder.pyc",
            "json/py.typed",
            "random.pyc",
            MANIFEST,
        ]
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
        assert z.read("json/decoder.pyc") == b"bytes of json/decoder.pyc"
        assert json.loads(z.read(MANIFEST)) == {
            "full": "python_stdlib.zip",
            "dropped": ["json.tool", "xml", "xml.dom.minidom", "zz"],
        }


def test_app_stdlib_refuses_a_kept_name_the_library_lacks(tmp_path):
    full = _stdlib(tmp_path / "python_stdlib.zip", STDLIB)
    with pytest.raises(AppBuildError, match=r"has no json\.nosuch"):
        app_stdlib(full, tmp_path / "out.zip", keep=frozenset({"json", "json.nosuch"}))


#: The lines of anywidget's front end the bundle changes, as anywidget 0.9 writes them
#: (copied by hand from node_modules/anywidget/dist/index.js), with what each becomes.
ANYWIDGET_LINES = [
    (
        '    AbortSignal.timeout(2e3).addEventListener("abort", () => {\n',
        '    AbortSignal.timeout(30000).addEventListener("abort", () => {\n',
    ),
    (
        "async function loadEsm(esm) {\n  if (isHref(esm)) {\n",
        'import ruleslabBundled from "ruleslab-widget-modules";\n'
        "const ruleslabModules = new Map(\n"
        "  ruleslabBundled.map(([source, module]) => [source, Promise.resolve(module)]),\n"
        ");\n"
        "function loadEsm(esm) {\n"
        "  if (!ruleslabModules.has(esm)) ruleslabModules.set(esm, loadEsmOnce(esm));\n"
        "  return ruleslabModules.get(esm);\n"
        "}\n"
        "async function loadEsmOnce(esm) {\n  if (isHref(esm)) {\n",
    ),
    (
        "  if (prev) {\n    prev.textContent = cssText;\n    return;\n",
        "  if (prev) {\n    if (prev.textContent !== cssText) prev.textContent = cssText;\n"
        "    return;\n",
    ),
]


def test_anywidgets_limit_loader_and_styles_are_patched_once_each(tmp_path):
    source = tmp_path / "index.js"
    source.write_text("a();\n" + "b();\n".join(old for old, _ in ANYWIDGET_LINES) + "c();\n")
    (tmp_path / "out").mkdir()
    patched = patched_anywidget(tmp_path / "out", source)
    assert patched.read_text() == (
        "a();\n" + "b();\n".join(new for _, new in ANYWIDGET_LINES) + "c();\n"
    )


def test_the_bundles_anywidget_is_the_patched_one():
    # (the real file: every line found once, so the site's bundle has each change)
    text = ANYWIDGET.read_text(encoding="utf-8")
    for old, _ in ANYWIDGET_LINES:
        assert text.count(old) == 1, old


@pytest.mark.parametrize("missing", range(len(ANYWIDGET_LINES)))
@pytest.mark.parametrize("times", [0, 2])
def test_an_anywidget_without_one_of_those_lines_once_fails_the_build(tmp_path, missing, times):
    lines = [old for old, _ in ANYWIDGET_LINES]
    lines[missing] = lines[missing] * times
    source = tmp_path / "index.js"
    source.write_text("".join(lines))
    with pytest.raises(AppBuildError, match=f"found it {times} times"):
        patched_anywidget(tmp_path, source)


def test_pyodides_snapshot_restore_is_fixed_once(tmp_path):
    from tools.build_app import PYODIDE_RESTORE, PYODIDE_RESTORE_FIXED, patched_pyodide_asm

    npm = REPO / "node_modules" / "pyodide" / "pyodide.asm.mjs"
    text = npm.read_text(encoding="utf-8")
    patched = patched_pyodide_asm(npm, tmp_path).read_text(encoding="utf-8")
    assert patched.count(PYODIDE_RESTORE_FIXED) == 1
    assert patched.replace(PYODIDE_RESTORE_FIXED, PYODIDE_RESTORE) == text


@pytest.mark.parametrize("times", [0, 2])
def test_a_pyodide_without_that_restore_once_fails_the_build(tmp_path, times):
    from tools.build_app import PYODIDE_RESTORE, AppBuildError, patched_pyodide_asm

    source = tmp_path / "src.mjs"
    source.write_text("x;" + PYODIDE_RESTORE * times, encoding="utf-8")
    (tmp_path / "out").mkdir()
    with pytest.raises(AppBuildError, match="check the new Pyodide"):
        patched_pyodide_asm(source, tmp_path / "out")


def test_the_runtime_version_changes_with_the_lock_and_the_libraries(tmp_path):
    from tools.build_app import APP_DIR, APP_LOCK, APP_STDLIB_ZIP, runtime_version

    files = (
        APP_LOCK,
        APP_STDLIB_ZIP,
        f"{APP_DIR}/pyodide.asm.mjs",
        "static/pyodide/pyodide.asm.wasm",
    )
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(rel.encode())
    first = runtime_version(tmp_path)
    assert len(first) == 16
    assert runtime_version(tmp_path) == first
    for rel in files:
        (tmp_path / rel).write_bytes(b"changed")
        assert runtime_version(tmp_path) != first, rel
        (tmp_path / rel).write_bytes(rel.encode())


def test_the_app_build_names_the_page_its_scripts_and_the_runtime(tmp_path):
    """A page and worker of two builds that differ in any of their files never share a
    worker (issue 38, 5): the page's worker URL and the worker's own build name it."""
    from tools.build_app import (
        BUILD,
        COPIED,
        PAGE_BUILD,
        WORKER_URL,
        _worker_of_this_build,
        app_build,
    )

    page, app, sources = tmp_path / "app.html", tmp_path / "app", tmp_path / "src"
    app.mkdir()
    sources.mkdir()
    page.write_text(f"<script>\n{WORKER_URL}\n{PAGE_BUILD}\n</script>", encoding="utf-8")
    for name in ("app.js", "app.css"):
        (app / name).write_text(name, encoding="utf-8")
    for name in COPIED:
        (sources / name).write_text(f"{name} {BUILD}", encoding="utf-8")
    first = app_build("runtime", page, app, sources)
    assert len(first) == 16
    _worker_of_this_build(page, first)
    text = page.read_text(encoding="utf-8")
    assert f'const URL_ = "static/app/worker.mjs?build={first}";' in text
    assert f'const BUILD_ = "{first}";' in text
    assert app_build("runtime", page, app, sources) == first  # (its own key left out)
    _worker_of_this_build(page, "0" * 16)  # (a site built again: keyed again, once)
    assert page.read_text(encoding="utf-8").count("0" * 16) == 2
    assert app_build("another runtime", page, app, sources) != first
    for path in (app / "app.js", app / "app.css", *(sources / n for n in COPIED)):
        kept = path.read_bytes()
        path.write_bytes(kept + b" changed")
        assert app_build("runtime", page, app, sources) != first, path.name
        path.write_bytes(kept)
    page.write_text(text.replace("<script>", "<script>let x;"), encoding="utf-8")
    assert app_build("runtime", page, app, sources) != first


def test_an_icon_is_its_svg_as_a_mask_as_wide_as_its_view_box(tmp_path):
    from urllib.parse import unquote

    from tools.build_app import icons_css

    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 512"><path d="M0 0h1#"/></svg>'
    (tmp_path / "wide.svg").write_text(svg.replace("><path", "><!-- licence --><path"))
    (tmp_path / "square.svg").write_text(svg.replace("640 512", "512 512"))
    css = icons_css(("wide", "square"), tmp_path)
    rules = dict(re.findall(r"^\.fa-(\w+) \{ (.*) \}$", css, flags=re.M))
    assert set(rules) == {"wide", "square"}
    assert rules["wide"].startswith("width: 1.25em; ")
    assert rules["square"].startswith("width: 1em; ")
    url = re.search(r'--rl-icon: url\("data:image/svg\+xml,(.*)"\);', rules["wide"])
    assert url is not None
    assert '"' not in url.group(1)
    assert "#" not in url.group(1)
    assert unquote(url.group(1)) == svg.replace("><path", "><!-- licence --><path")
    assert ".fa::before" in css
    assert "mask:" in css


def test_an_icon_font_awesome_lacks_fails_the_build(tmp_path):
    from tools.build_app import icons_css

    with pytest.raises(AppBuildError, match="no Font Awesome icon 'nope'"):
        icons_css(("nope",), tmp_path)


def test_the_bundle_draws_every_icon_the_widgets_name():
    from tools.build_app import FONTAWESOME_SVGS, ICONS

    sources = (REPO / "widgets" / "ruleslab_widgets").glob("*.py")
    named = {m for p in sources for m in re.findall(r"\bicon=\"([\w-]+)\"", p.read_text())}
    assert named == {"dice"}  # (view.py's roll button)
    assert named <= set(ICONS)
    assert all((FONTAWESOME_SVGS / f"{name}.svg").is_file() for name in ICONS)


def test_the_bundle_has_no_icon_font_and_no_sanitize_html(tmp_path):
    from tools.build_app import ICONS_MODULE, _bundle, icons_css

    icons = tmp_path / "icons.css"
    icons.write_text(icons_css())
    (tmp_path / "out").mkdir()
    _bundle(REPO / "app", tmp_path / "out", patched_anywidget(tmp_path), icons)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["app.css", "app.js"]
    # V8's compile hint, which it reads on the first line only
    assert (tmp_path / "out" / "app.js").read_text().splitlines()[
        0
    ] == "//# allFunctionsCalledOnLoad"
    css = (tmp_path / "out" / "app.css").read_text()
    js = (tmp_path / "out" / "app.js").read_text()
    assert "@font-face" not in css
    assert "Font Awesome 5 " not in css  # (its font families; the icon names its licence)
    assert ".fa-dice{" in css
    assert ICONS_MODULE not in js
    # sanitize-html's option names and postcss's error class: not bundled
    assert "allowedSchemesAppliedToAttributes" not in js
    assert "CssSyntaxError" not in js
    # app/sanitize.js is, in their place (its escape, as esbuild writes it)
    assert "&#${" in js


def test_the_bundled_modules_pair_each_source_as_sent_with_its_module(tmp_path):
    import shutil
    import subprocess

    from tools.build_app import bundled_modules

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node")
    sources = {
        "pkg.a.First": 'const s = "quoted \\\\ </script>";\nexport default { s };\n',
        "pkg.b.Second": "export function render() { return `tick ${1 + 1}`; }\n",
    }
    index = bundled_modules(tmp_path, sources)
    check = tmp_path / "check.mjs"
    check.write_text(
        f"import pairs from {json.dumps(index.as_uri())};\n"
        "console.log(JSON.stringify(pairs.map(([text, m]) =>"
        " [text, m.default ? m.default.s : m.render()])));\n"
    )
    out = subprocess.run([node, str(check)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [
        [sources["pkg.a.First"], "quoted \\ </script>"],
        [sources["pkg.b.Second"], "tick 2"],
    ]


def test_every_anywidget_class_of_ours_has_its_module_bundled_once():
    import anywidget

    import ruleslab_widgets
    from tools.build_app import widget_modules

    found = widget_modules()
    assert list(found) == sorted(found)
    # every class that declares a module, found here by its source file (not by the
    # function under test's walk over the package)
    declared = set()
    for path in sorted(Path(ruleslab_widgets.__file__).parent.glob("*.py")):
        for match in re.finditer(r"^class (\w+)\(([^)]*)\):", path.read_text(), re.M):
            module = __import__(f"ruleslab_widgets.{path.stem}", fromlist=["x"])
            cls = getattr(module, match.group(1))
            if issubclass(cls, anywidget.AnyWidget) and "_esm" in cls.__dict__:
                declared.add(str(cls.__dict__["_esm"]))
    assert set(found.values()) == declared
    assert len(found) == len(declared)


def test_a_failed_build_leaves_the_sites_app_folder_as_it_was(tmp_path):
    from tools.build_app import APP_DIR, ESBUILD, build_app

    if not ESBUILD.exists():
        pytest.skip("no esbuild (npm ci)")
    site = tmp_path / "site"
    app = site / APP_DIR
    app.mkdir(parents=True)
    (app / "app.js").write_text("// the build before\n")
    sources = tmp_path / "sources"  # (no page.js: esbuild fails)
    sources.mkdir()
    with pytest.raises(AppBuildError, match="esbuild failed"):
        build_app(site, sources=sources)
    assert sorted(p.name for p in app.iterdir()) == ["app.js"]
    assert (app / "app.js").read_text() == "// the build before\n"
    assert sorted(p.name for p in app.parent.iterdir()) == ["app"]  # (no half-built folder)
