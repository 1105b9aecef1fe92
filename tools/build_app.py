"""Bundle the app page's front end (``app/``) into a built site's ``static/app/``.

``app/page.js`` (the widget manager that draws a calculator in the page, with
the ipywidgets controls, anywidget's front end and their CSS) is bundled and
minified with esbuild (an npm dev dependency: ``npm ci`` installs it);
``app/worker.mjs`` (Pyodide in a Web Worker), ``app/snapshot.mjs`` (the worker that
makes a memory snapshot of it) and ``app/python.mjs`` (how both start Python) are
copied as they are, but for the runtime's version written into ``python.mjs``
(:func:`runtime_version`); they import ``../pyodide/pyodide.mjs`` from the site at run
time, with ``static/app/pyodide.asm.mjs``: Pyodide's own, with one fix
(:func:`patched_pyodide_asm`).

The bundle has no icon font: the widgets' icons (``<i class="fa fa-NAME">``, as the
ipywidgets button draws its ``icon`` and :mod:`ruleslab_widgets.prerender` draws it too)
are the few Font Awesome icons in :data:`ICONS`, each a CSS mask of that icon's SVG
(:func:`icons_css`), instead of Font Awesome's whole stylesheet and its fonts (59 KB of
rules every page and embed parsed, 15 font files). And ``sanitize-html`` (with
``htmlparser2``, ``entities``, ``postcss``: a third of the bundle, instantiated by every
page and embed), which ``@jupyter-widgets/base-manager`` imports for the descriptions a
widget marks as HTML (none of ours does), is replaced by ``app/sanitize.js``, which
shows such a description as the text it is (escaped, never parsed).

The worker loads its packages through ``static/pyodide/app-lock.json``: the
site's lock cut down to ``ruleslab`` and what it needs on the app page, which
runs without IPython (:mod:`ruleslab_widgets.ipython_standin`): the same
files with the same sha256, IPython taken out of ipywidgets' dependencies and
IPython's own dependencies left out.

It starts Pyodide with ``static/pyodide/app_stdlib.zip`` (:func:`app_stdlib`):
the site's compiled standard library cut down to the modules the app runtime
imports, traced at build time in Pyodide (:func:`traced_stdlib`), stored
uncompressed, with the names it leaves out written into it;
:mod:`ruleslab_widgets.app_stdlib` fetches the whole library if anything else
is ever imported.

Usage: called by :func:`tools.build_site.build_site`; alone,
``python tools/build_app.py SITE_DIR``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tools import REPO
from tools.bytecode import (
    DEFAULT_PYC_CACHE,
    NODE_PYODIDE,
    ArchiveJob,
    BytecodeCompiler,
    BytecodeError,
    Kind,
    compile_archives,
)
from tools.pyodide_dist import (
    LOCK_NAME,
    content_tagged_name,
    read_lock,
    sha256_of,
    write_lock,
)

__all__ = [
    "APP_DIR",
    "APP_LOCK",
    "APP_OPTIMIZE",
    "APP_ROOT_PACKAGE",
    "APP_STDLIB_FULL",
    "APP_STDLIB_ZIP",
    "ICONS",
    "AppBuildError",
    "app_lock",
    "app_pages",
    "app_stdlib",
    "build_app",
    "first_visit_files",
    "icons_css",
    "lean_archives",
    "module_of",
    "patched_pyodide_asm",
    "runtime_version",
    "start_bytes",
    "start_files",
    "traced_stdlib",
]

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
#: The app page's standard library archive, relative to the site root.
APP_STDLIB_ZIP = "static/pyodide/app_stdlib.zip"
#: The site's standard library archive, which it is cut from (and which the app page
#: fetches whole if it ever imports a module left out).
STDLIB_ZIP = "static/pyodide/python_stdlib.zip"
#: The whole standard library compiled as the app page's is (:func:`lean_archives`): what
#: its fallback fetches (a module of one compile beside those of another can fail).
APP_STDLIB_FULL = "static/pyodide/app_stdlib_full.zip"
#: ``compile``'s ``optimize`` for the app page's own copies of the standard library and of
#: the project's wheel (:func:`lean_archives`): 2, no docstrings and no asserts. The
#: notebooks' copies (``python_stdlib.zip``, the site lock's wheel) keep both: ``help()``
#: there shows the rule a function quotes. Nothing the app page runs reads a docstring.
#: Measured (bench/first_bytes.py): the app standard library 1.616 → see docs/performance.md.
APP_OPTIMIZE = 2
#: The script that traces which modules of the standard library the app page imports
#: (:func:`traced_stdlib`), and where its results are kept, by what it ran on.
TRACE = REPO / "tools" / "app_stdlib_trace.mjs"
TRACE_CACHE = REPO / "build" / "app-stdlib-trace"

#: Pyodide's runtime script as the site ships it, and the statement of its
#: ``restoreSnapshot`` that copies a snapshot into the interpreter's memory without
#: growing it first: a snapshot larger than the memory the module starts with (30 MiB in
#: Pyodide 314.0.6) fails with "offset is out of bounds" (pyodide/pyodide#6254: the
#: ``INITIAL_MEMORY`` setting meant to size it is not read by the built module). The app
#: page's copy grows the memory first (:func:`patched_pyodide_asm`).
PYODIDE_ASM = "static/pyodide/pyodide.asm.mjs"
PYODIDE_RESTORE = "return Module.HEAP8.set(t),l}"
PYODIDE_RESTORE_FIXED = (
    "return t.length>Module.HEAP8.length&&growMemory(t.length),Module.HEAP8.set(t),l}"
)
#: The first line of ``app.js``: V8's explicit compile hint (Chrome 136 and later; a plain
#: comment elsewhere). Its functions are compiled while the script streams in, on a
#: background thread, not one by one on the page's thread the first time each runs: the
#: widget front end's first drawing of a calculator on a first visit. Measured
#: (``app.html?calculator=dice_pool``, cold, 5 alternated runs each, load 0.05 to 2): from
#: the build's message to the change posted, 0.27 s without, 0.17 s with; the slowest of
#: five embeds, two alternated pairs: 2.49 / 2.16 s without, 2.17 / 2.01 s with. The same
#: hint on Pyodide's ``pyodide.asm.mjs`` made Python start later (1.19 s against 1.12 s):
#: not used there.
COMPILE_HINT = "//# allFunctionsCalledOnLoad"
#: The files of ``app/`` copied into ``static/app`` as they are (but for the version).
COPIED = ("worker.mjs", "snapshot.mjs", "python.mjs")
RUNTIME_VERSION = '/*RULESLAB-RUNTIME-VERSION*/ "dev"'
START_BYTES = "/*RULESLAB-START-BYTES*/ 0"
BUILD = '/*RULESLAB-BUILD*/ "dev"'

ANYWIDGET = REPO / "node_modules" / "anywidget" / "dist" / "index.js"
ANYWIDGET_TIMEOUT = "AbortSignal.timeout(2e3)"
ANYWIDGET_INIT_MS = 30_000
#: The module the patched anywidget imports our widgets' modules from
#: (:func:`bundled_modules`).
BUNDLED_MODULE = "ruleslab-widget-modules"
#: The package whose widgets' modules are bundled (:func:`widget_modules`).
WIDGETS_PACKAGE = "ruleslab_widgets"
#: What the app page's bundle changes in anywidget's front end
#: (``node_modules/anywidget/dist/index.js``, :func:`patched_anywidget`): ``(what, old,
#: new)``, each ``old`` there exactly once (a new anywidget without one fails the build,
#: naming it).
#:
#: - **Its start-up limit.** It gives a widget 2 s to load its module and start, then
#:   reports "[anywidget] Failed to initialize model." and draws nothing: a phone, or a
#:   machine busy with Python starting beside it, can take longer. Raised to
#:   :data:`ANYWIDGET_INIT_MS`.
#: - **One module per source.** It imports a widget's module (``_esm``, a source text)
#:   afresh for every widget, through a new blob URL: a calculator's 14 to 50 number
#:   fields, fold headings and charts meant as many compilations of the same few modules
#:   (145 ms of the page's main thread for five embeds, Chrome's profiler). Each source is
#:   imported once per page; its widgets share the module (ours keep no per-widget state
#:   at module level but id counters, which then stay unique in the page).
#: - **Our modules bundled.** The modules of ``ruleslab_widgets``' own widgets
#:   (:func:`widget_modules`) are bundled into ``app.js`` (:func:`bundled_modules`), so
#:   the loader takes a source it knows from the bundle: compiled with the rest of
#:   ``app.js`` (and cached with it), never through a blob URL. Any other source is
#:   imported as before.
#: - **A style set once.** It sets a widget class's ``<style>`` text again for every
#:   widget of the class, each time making the page's styles be worked out anew; the same
#:   text is now left as it is.
ANYWIDGET_PATCHES: tuple[tuple[str, str, str], ...] = (
    (
        "anywidget's 2 s start-up limit",
        ANYWIDGET_TIMEOUT,
        f"AbortSignal.timeout({ANYWIDGET_INIT_MS})",
    ),
    (
        "anywidget's module loader",
        "async function loadEsm(esm) {\n",
        f'import ruleslabBundled from "{BUNDLED_MODULE}";\n'
        "const ruleslabModules = new Map(\n"
        "  ruleslabBundled.map(([source, module]) => [source, Promise.resolve(module)]),\n"
        ");\n"
        "function loadEsm(esm) {\n"
        "  if (!ruleslabModules.has(esm)) ruleslabModules.set(esm, loadEsmOnce(esm));\n"
        "  return ruleslabModules.get(esm);\n"
        "}\n"
        "async function loadEsmOnce(esm) {\n",
    ),
    (
        "anywidget's style loader",
        "  if (prev) {\n    prev.textContent = cssText;\n",
        "  if (prev) {\n    if (prev.textContent !== cssText) prev.textContent = cssText;\n",
    ),
)

#: The Font Awesome icons the widgets use (``icon=`` of a ``Button``: ``view.py``'s roll
#: button); the bundle draws these and no others (tests/tools/test_build_app.py checks
#: the widgets' sources name no other).
ICONS = ("dice",)
#: Font Awesome's SVG icons (the solid style, which ``fa`` means in Font Awesome 5).
FONTAWESOME_SVGS = REPO / "node_modules" / "@fortawesome" / "fontawesome-free" / "svgs" / "solid"
#: The module name page.js imports the icons' stylesheet by (:func:`icons_css`).
ICONS_MODULE = "ruleslab-icons"
#: The module ``sanitize-html`` is replaced by (see the module's docstring).
SANITIZE = "sanitize.js"


class AppBuildError(RuntimeError):
    """The app page's front end could not be bundled."""


def app_lock(lock: dict[str, Any], files: Mapping[str, Path] | None = None) -> dict[str, Any]:
    """The app page's lock: :data:`APP_ROOT_PACKAGE` and its dependencies without
    :data:`APP_WITHOUT`, entries otherwise unchanged (same files, same sha256) but for
    the packages of ``files``, served from the file it names (its name and sha256: the
    project's lean wheel, :func:`lean_archives`)."""
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
        if files and name in files:
            entry.update(file_name=files[name].name, sha256=sha256_of(files[name]))
        keep[name] = entry
        pending.extend(entry["depends"])
    return {"info": lock["info"], "packages": dict(sorted(keep.items()))}


def _patched(source: Path, out: Path, patches: Sequence[tuple[str, str, str]], whose: str) -> Path:
    """Write ``source`` to ``out`` with each ``(what, old, new)`` of ``patches`` applied:
    ``old`` made ``new``; ``out``. Each ``old`` must be there once (``what`` names it in
    the error, ``whose`` the package to check)."""
    text = source.read_text(encoding="utf-8")
    for what, old, new in patches:
        if text.count(old) != 1:
            raise AppBuildError(
                f"{source}: expected {old!r} once ({what}), found it {text.count(old)} "
                f"times: check the new {whose}"
            )
        text = text.replace(old, new)
    out.write_text(text, encoding="utf-8")
    return out


def patched_anywidget(into: Path, source: Path = ANYWIDGET) -> Path:
    """Write anywidget's front end into folder ``into`` with :data:`ANYWIDGET_PATCHES`
    applied; its path."""
    return _patched(source, into / "anywidget.js", ANYWIDGET_PATCHES, "anywidget")


def patched_pyodide_asm(source: Path, into: Path) -> Path:
    """Write Pyodide's ``pyodide.asm.mjs`` (``source``) into folder ``into`` with
    :data:`PYODIDE_RESTORE` made :data:`PYODIDE_RESTORE_FIXED`; its path. The statement
    must be there once (another Pyodide: check whether the fix is still needed)."""
    out = into / "pyodide.asm.mjs"
    fix = ("Pyodide's snapshot restore", PYODIDE_RESTORE, PYODIDE_RESTORE_FIXED)
    return _patched(source, out, [fix], "Pyodide")


def runtime_version(site: Path, app: Path | None = None) -> str:
    """What names this build's app runtime, for its snapshot: the sha256 (16 hex digits)
    of the app page's lock (its wheels' hashes), standard library, Pyodide runtime and
    WebAssembly. A snapshot is restored only by the runtime that made it. ``app``: the
    folder holding the runtime script, if not yet in its place (``site``'s
    :data:`APP_DIR`)."""
    digest = hashlib.sha256()
    folder = Path(site) / APP_DIR if app is None else Path(app)
    files = (
        (APP_LOCK, Path(site) / APP_LOCK),
        (APP_STDLIB_ZIP, Path(site) / APP_STDLIB_ZIP),
        (f"{APP_DIR}/pyodide.asm.mjs", folder / "pyodide.asm.mjs"),
        ("static/pyodide/pyodide.asm.wasm", Path(site) / "static/pyodide/pyodide.asm.wasm"),
    )
    for rel, path in files:
        digest.update(rel.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


#: The files the app page fetches before Python starts, besides those of
#: :func:`start_files` (relative to the site root).
PAGE_FILES = (
    "app.html",
    f"{APP_DIR}/app.js",
    f"{APP_DIR}/app.css",
    f"{APP_DIR}/worker.mjs",
    f"{APP_DIR}/python.mjs",
    f"{APP_DIR}/pyodide.asm.mjs",
    "static/pyodide/pyodide.mjs",
)


def start_files(site: Path) -> list[str]:
    """The files the app page's worker fetches to start Python (relative to ``site``): the
    WebAssembly, the app lock, the cut-down standard library and every wheel of the lock."""
    lock = json.loads((Path(site) / APP_LOCK).read_text(encoding="utf-8"))
    wheels = sorted(f"static/pyodide/{entry['file_name']}" for entry in lock["packages"].values())
    return ["static/pyodide/pyodide.asm.wasm", APP_LOCK, APP_STDLIB_ZIP, *wheels]


def first_visit_files(site: Path) -> list[str]:
    """What the app page fetches until it is interactive: :data:`PAGE_FILES` and
    :func:`start_files` (relative to ``site``)."""
    return [*PAGE_FILES, *start_files(site)]


def start_bytes(site: Path) -> int:
    """The bytes of :func:`start_files`, as the files are (app/python.mjs ``START_BYTES``:
    the page's progress while Python starts)."""
    return sum((Path(site) / rel).stat().st_size for rel in start_files(site))


def icons_css(names: tuple[str, ...] = ICONS, svgs: Path = FONTAWESOME_SVGS) -> str:
    """The stylesheet drawing Font Awesome's icons ``names`` where a page has
    ``<i class="fa fa-NAME">``: each icon's SVG (``svgs/NAME.svg``) as a CSS mask filled
    with the text's colour, as wide as its view box for a height of 1em, on the text's
    baseline as Font Awesome puts it (-0.125em); in forced colours it keeps the text's
    (forced) colour, and it is printed (a background, which browsers leave out of a print
    unless told). An ``fa-`` name not in ``names`` draws nothing, as a font without
    that glyph would. The SVG keeps its comment: Font Awesome's attribution."""
    rules = [
        ".fa { display: inline-block; height: 1em; vertical-align: -0.125em;"
        " font-style: normal; line-height: 1; }",
        ".fa::before { content: ''; display: block; height: 100%;"
        " background-color: currentColor; forced-color-adjust: none;"
        " -webkit-print-color-adjust: exact; print-color-adjust: exact;"
        " -webkit-mask: var(--rl-icon) center / contain no-repeat;"
        " mask: var(--rl-icon) center / contain no-repeat; }",
    ]
    for name in names:
        path = svgs / f"{name}.svg"
        if not path.is_file():
            raise AppBuildError(f"no Font Awesome icon {name!r}: {path} not found")
        text = path.read_text(encoding="utf-8")  # (its licence comment kept: CC BY 4.0)
        box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text)
        if box is None:
            raise AppBuildError(f"{path}: no view box")
        width = float(box.group(1)) / float(box.group(2))
        data = "data:image/svg+xml," + quote(" ".join(text.split()), safe=" :/=',.-")
        rules.append(f'.fa-{name} {{ width: {width:.4g}em; --rl-icon: url("{data}"); }}')
    return "\n".join(rules) + "\n"


def widget_modules(package: str = WIDGETS_PACKAGE) -> dict[str, str]:
    """The module source (``_esm``, as a widget sends it: ``str()`` of the class's) of
    every anywidget class defined in ``package``'s modules, by the class's qualified name
    (sorted; a source shared by two classes is listed once, under the first)."""
    from anywidget import AnyWidget

    from ruleslab_widgets.app_snapshot import import_all

    found: dict[str, str] = {}
    for name in import_all(package):
        module = sys.modules[name]
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, AnyWidget)
                and value.__module__ == module.__name__
                and "_esm" in value.__dict__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = str(value.__dict__["_esm"])
    unique: dict[str, str] = {}
    for name in sorted(found):
        if found[name] not in unique.values():
            unique[name] = found[name]
    return unique


def bundled_modules(into: Path, sources: dict[str, str] | None = None) -> Path:
    """Write ``sources`` (name to module source; :func:`widget_modules` by default) into
    folder ``into``, each as a module file, with the module the bundle imports them by
    (:data:`BUNDLED_MODULE`): a list of ``[source, module]`` pairs, the source as the
    widget sends it, the module as esbuild bundles it. Its path."""
    sources = widget_modules() if sources is None else sources
    folder = into / "widget-modules"
    folder.mkdir(parents=True, exist_ok=True)
    lines, pairs = [], []
    for number, (name, source) in enumerate(sources.items()):
        file = folder / f"{name}.mjs"
        file.write_text(source, encoding="utf-8")
        lines.append(f"import * as m{number} from {json.dumps('./' + file.name)};")
        pairs.append(f"  [{json.dumps(source)}, m{number}],")
    index = folder / "index.js"
    index.write_text("\n".join([*lines, "export default [", *pairs, "];", ""]), encoding="utf-8")
    return index


def _bundle(
    sources: Path, out: Path, anywidget: Path, icons: Path, modules: Path | None = None
) -> None:
    """esbuild: ``page.js`` and all it imports into ``out/app.js`` and ``app.css``, with
    the module ``anywidget`` taken from ``anywidget`` (:func:`patched_anywidget`), the
    icons' stylesheet from ``icons`` (:func:`icons_css`), our widgets' modules from
    ``modules`` (:func:`bundled_modules`; by default written beside ``anywidget``) and
    ``sanitize-html`` replaced by :data:`SANITIZE`."""
    if modules is None:
        modules = bundled_modules(anywidget.parent)
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
        f"--banner:js={COMPILE_HINT}",
        "--log-level=warning",
        f"--alias:anywidget={anywidget}",
        f"--alias:{ICONS_MODULE}={icons}",
        f"--alias:{BUNDLED_MODULE}={modules}",
        f"--alias:sanitize-html={sources / SANITIZE}",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise AppBuildError(f"esbuild failed:\n{proc.stdout}{proc.stderr}")


def lean_archives(
    project_wheel: Path,
    into: Path,
    *,
    node_pyodide: Path = NODE_PYODIDE,
    pyc_cache: Path = DEFAULT_PYC_CACHE,
) -> tuple[Path, Path]:
    """The app page's own archives, compiled with :data:`APP_OPTIMIZE` into folder
    ``into``: the whole standard library (npm Pyodide's sources; :func:`app_stdlib` then
    cuts it) and ``project_wheel`` (the project's, with sources), sourceless. Returns
    their paths (the wheel under :func:`~tools.pyodide_dist.content_tagged_name` of its
    bytes)."""
    stdlib = Path(into) / Path(STDLIB_ZIP).name
    staged = Path(into) / "stage" / Path(project_wheel).name
    jobs = [
        ArchiveJob(
            Path(node_pyodide) / "python_stdlib.zip", stdlib, Kind.STDLIB, None, APP_OPTIMIZE
        ),
        ArchiveJob(Path(project_wheel), staged, Kind.WHEEL_SOURCELESS, None, APP_OPTIMIZE),
    ]
    try:
        compile_archives(jobs, BytecodeCompiler(node_pyodide, pyc_cache))
    except BytecodeError as err:
        raise AppBuildError(f"compiling the app page's bytecode failed: {err}") from err
    wheel = staged.replace(Path(into) / content_tagged_name(staged))
    return stdlib, wheel


def build_app(
    site: Path, *, sources: Path = APP_SOURCES, project_wheel: Path | None = None
) -> Path:
    """Write ``app.js``, ``app.css``, the workers' scripts (:data:`COPIED`) and
    Pyodide's fixed runtime script into ``site/static/app``,
    and the app page's lock and standard library beside the site's (with
    ``project_wheel``, the project's wheel with its sources, both compiled lean:
    :func:`lean_archives`). The folder is written beside its place
    and put there only once whole: a build that fails leaves the site's ``static/app``
    as it was."""
    if not ESBUILD.exists():
        raise AppBuildError(f"{ESBUILD} not found: run `npm ci`")
    final = Path(site) / APP_DIR
    out = final.with_name(final.name + ".building")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    try:
        _build_into(Path(site), out, sources, project_wheel)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    if final.exists():
        shutil.rmtree(final)
    out.rename(final)
    return final


def _build_into(site: Path, out: Path, sources: Path, project_wheel: Path | None) -> None:
    """:func:`build_app`'s work, into the folder ``out``."""
    with tempfile.TemporaryDirectory() as tmp:
        icons = Path(tmp) / "icons.css"
        icons.write_text(icons_css(), encoding="utf-8")
        _bundle(sources, out, patched_anywidget(Path(tmp)), icons)
    dist = Path(site) / "static" / "pyodide"
    if not (dist / LOCK_NAME).is_file():
        raise AppBuildError(f"{dist / LOCK_NAME} not found: build the Pyodide distribution first")
    with tempfile.TemporaryDirectory() as tmp:
        stdlib, files = Path(site) / STDLIB_ZIP, dict[str, Path]()
        if project_wheel is not None:
            lean, wheel = lean_archives(project_wheel, Path(tmp))
            stdlib = Path(shutil.copy2(lean, Path(site) / APP_STDLIB_FULL))
            files[APP_ROOT_PACKAGE] = Path(shutil.copy2(wheel, dist / wheel.name))
        write_lock(Path(site) / APP_LOCK, app_lock(read_lock(dist), files))
        keep = traced_stdlib(site)
        app_stdlib(stdlib, Path(site) / APP_STDLIB_ZIP, keep)
    patched_pyodide_asm(Path(site) / PYODIDE_ASM, out)
    version = runtime_version(site, out)
    build = app_build(version, Path(site) / "app.html", out, sources)
    for page in app_pages(site):
        _worker_of_this_build(page, build)
    marks = {
        "python.mjs": ((RUNTIME_VERSION, version), (START_BYTES, start_bytes(site))),
        "worker.mjs": ((BUILD, build),),
    }
    for name in COPIED:
        text = (sources / name).read_text(encoding="utf-8")
        for mark, value in marks.get(name, ()):
            if text.count(mark) != 1:
                raise AppBuildError(f"{sources / name}: expected {mark} once")
            text = text.replace(mark, json.dumps(value))
        (out / name).write_text(text, encoding="utf-8")


#: The app page's worker URL as tools/make_content.py writes it (one for every calculator).
WORKER_URL = 'const URL_ = "static/app/worker.mjs";'
#: The app page's build as tools/make_content.py writes it.
PAGE_BUILD = 'const BUILD_ = "dev";'
_KEYED_URL = re.compile(r'const URL_ = "static/app/worker\.mjs(\?build=[0-9a-f]*)?";')
_KEYED_BUILD = re.compile(r'const BUILD_ = "(dev|[0-9a-f]*)";')


def app_pages(site: Path) -> list[Path]:
    """The pages at ``site``'s root that start the app's worker: ``app.html`` and each
    calculator's own page written from the same template (``tools.make_content``'s
    ``calculator_page``), which differ from it only in their calculator, fixed and
    pre-rendered (so :func:`app_build` names them all by ``app.html``)."""
    root = Path(site)
    others = (p for p in root.glob("*.html") if p.name != "app.html")
    return [
        root / "app.html",
        *sorted(p for p in others if _KEYED_URL.search(p.read_text("utf-8"))),
    ]


def app_build(version: str, page: Path, app: Path, sources: Path) -> str:
    """What names this build of the app page, for its worker (16 hex digits): the
    sha256 of the runtime's ``version`` (:func:`runtime_version`), the page ``page``
    (as tools/make_content.py wrote it), its bundle and styles in ``app`` and the
    worker's scripts in ``sources``. Two builds that differ in any of these never share
    a worker: the page's worker URL names it, and the worker refuses a page naming
    another (``app/worker.mjs``: the page says so rather than mixing the two)."""
    digest = hashlib.sha256(version.encode() + b"\0")
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    text = _KEYED_BUILD.sub(PAGE_BUILD, _KEYED_URL.sub(WORKER_URL, text))
    digest.update(b"app.html\0" + text.encode())
    for rel, path in (
        *((name, app / name) for name in ("app.js", "app.css")),
        *((name, sources / name) for name in COPIED),
    ):
        digest.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    return digest.hexdigest()[:16]


def _worker_of_this_build(page: Path, build: str) -> None:
    """Name this build (:func:`app_build`) in the app page's worker URL
    (``worker.mjs?build=<build>``) and in what the page tells its worker (``BUILD_``): a
    SharedWorker is one per URL, so a page or embed of a new build never attaches to a
    shared Python another build's page started (it starts its own, of its own build);
    and a worker script of another build served under this URL refuses the page."""
    if not page.is_file():
        return
    text = page.read_text(encoding="utf-8")
    for pattern, what in ((_KEYED_URL, WORKER_URL), (_KEYED_BUILD, PAGE_BUILD)):
        if len(pattern.findall(text)) != 1:
            raise AppBuildError(f"{page}: expected {what} once")
    text = _KEYED_URL.sub(f'const URL_ = "static/app/worker.mjs?build={build}";', text)
    text = _KEYED_BUILD.sub(f'const BUILD_ = "{build}";', text)
    page.write_text(text, encoding="utf-8")


def module_of(member: str) -> str:
    """The dotted name of the module a member of the standard library archive is
    (``email/mime/text.pyc`` → ``email.mime.text``, ``json/__init__.pyc`` → ``json``), or,
    for a data file, of the package whose folder holds it (``pyodide/py.typed`` →
    ``pyodide``; one at the top: its own name)."""
    folder, _, file = member.rpartition("/")
    for suffix in (".pyc", ".py"):
        if file.endswith(suffix):
            stem = file[: -len(suffix)]
            parts = [*folder.split("/"), stem] if folder else [stem]
            if stem == "__init__":
                parts = parts[:-1]
            return ".".join(parts)
    return folder.replace("/", ".") if folder else file


def traced_stdlib(site: Path, *, cache: Path = TRACE_CACHE) -> frozenset[str]:
    """The modules of the standard library the app page imports (dotted names, packages
    included), traced in Pyodide under Node on ``site``'s whole compiled standard
    library and app lock (:data:`TRACE`: every calculator started, computed, rolled and
    shared, and what the snapshot maker imports). Kept in ``cache`` under the sha256 of
    the archive, the lock (its wheels' hashes) and the script: a rebuild with the same
    files starts no Node."""
    dist = Path(site) / "static" / "pyodide"
    digest = hashlib.sha256()
    for path in (dist / Path(STDLIB_ZIP).name, Path(site) / APP_LOCK, TRACE):
        digest.update(path.read_bytes())
    kept = Path(cache) / f"{digest.hexdigest()[:24]}.json"
    if kept.is_file():
        return frozenset(json.loads(kept.read_text(encoding="utf-8"))["modules"])
    node = shutil.which("node")
    if node is None:
        raise AppBuildError("node not found: the app page's standard library is traced in Pyodide")
    proc = subprocess.run(
        [node, str(TRACE), str(dist)], capture_output=True, text=True, timeout=600, cwd=REPO
    )
    if proc.returncode != 0:
        raise AppBuildError(f"tracing the app page's imports failed:\n{proc.stderr[-4000:]}")
    modules = json.loads(proc.stdout.strip().splitlines()[-1])["modules"]
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps({"modules": modules}), encoding="utf-8")
    return frozenset(modules)


def app_stdlib(full: Path, out: Path, keep: frozenset[str]) -> list[str]:
    """Write ``out``: the members of the standard library archive ``full`` that are the
    modules ``keep`` (dotted names, :func:`traced_stdlib`; a data file goes with its
    package), same contents, same order, **stored** (the host's compression then works
    across the whole archive), and a member :data:`ruleslab_widgets.app_stdlib.MANIFEST`
    naming the modules left out and the archive holding them (``full``'s name, in the
    same folder on the site). Returns those names. A
    name of ``keep`` the archive does not have is an error (a stale trace)."""
    from ruleslab_widgets.app_stdlib import MANIFEST

    with zipfile.ZipFile(full) as src:
        members = src.infolist()
        modules = {module_of(m.filename) for m in members}
        missing = sorted(keep - modules)
        if missing:
            raise AppBuildError(f"{full} has no {', '.join(missing)} (the app page's trace)")
        dropped = sorted(
            module_of(m.filename)
            for m in members
            if m.filename.endswith((".pyc", ".py")) and module_of(m.filename) not in keep
        )
        with zipfile.ZipFile(out, "w") as dst:
            for member in members:
                if module_of(member.filename) in keep:
                    dst.writestr(member, src.read(member), compress_type=zipfile.ZIP_STORED)
            info = zipfile.ZipInfo(MANIFEST, date_time=members[0].date_time)
            manifest = {"full": Path(full).name, "dropped": dropped}
            dst.writestr(info, json.dumps(manifest, indent=0), compress_type=zipfile.ZIP_STORED)
    return dropped


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/build_app.py SITE_DIR")
    print(build_app(Path(sys.argv[1])))
