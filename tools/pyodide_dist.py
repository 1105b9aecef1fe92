"""Assemble a local, self-contained Pyodide distribution folder.

The folder holds Pyodide's core runtime files (from the npm ``pyodide``
package in ``node_modules/pyodide``), the pure wheels the JupyterLite Pyodide
kernel and the calculators need, the project's own wheel, and a rewritten
``pyodide-lock.json`` that lists *only* the packages served from that folder,
each with the file name and sha256 of the file actually served.

Why rewrite the lock: Pyodide's own lock lists ~350 packages that live on a CDN;
a lock entry whose file is missing would make ``loadPackage`` (and micropip,
which consults the lock first) reach for a file that is not there. Pure wheels
downloaded from PyPI at the lock's versions also differ byte-for-byte from
Pyodide's builds, so every sha256 is recomputed.

Where each package's entry comes from:

* a package Pyodide's lock knows (``micropip``, ``ipython``, ``pytest``, ...):
  version, ``depends`` and ``imports`` from Pyodide's lock; the wheel from PyPI at
  that version; dependencies pulled in transitively.
* any other package (``comm``, ``ipywidgets``, ``anywidget``, ``psygnal``):
  given as ``name==version``; ``depends`` from the wheel's ``Requires-Dist``
  (markers evaluated for Pyodide), ``imports`` from the wheel's top-level modules.
* a local wheel (the project's): like the previous case.

Bytecode: unless ``compile_bytecode=False``, the standard library zip and every
wheel are compiled with Pyodide's own CPython before the lock's sha256 values
are computed (:mod:`tools.bytecode`): the stdlib zip and PyPI wheels become
sourceless (``.pyc`` in place of ``.py``), local wheels (the project's) keep
their sources and gain ``__pycache__/*.cpython-314.pyc``, so tracebacks of our
code show source lines. Wheel file names are kept.

Dependencies the JupyterLite kernel provides itself (its ``ipykernel`` shim,
``pyodide-kernel``, ``piplite``, the ``widgetsnbextension`` shim) and
``jupyterlab-widgets`` (only a carrier of the front-end extension, which the
site ships separately) are left out of ``depends``, and are never taken from
PyPI or Pyodide's lock: micropip prefers lock entries over the kernel's own
index, so a real ``ipykernel`` there would replace the shim. The kernel's own
wheels of ``piplite``, ``ipykernel`` and ``pyodide-kernel`` may be locked
(``kernel_wheels``, :func:`kernel_extension_wheels`): they are the shims, so the
kernel can preload them (:data:`KERNEL_PRELOAD`).

Python use::

    from tools.pyodide_dist import build_pyodide_dist, build_project_wheel
    wheel = build_project_wheel(Path("build/dist"))
    build_pyodide_dist(Path("build/pyodide"), extra_wheels=[wheel], extra=["pytest==9.0.2"])

CLI::

    python tools/pyodide_dist.py [--dest build/pyodide] [--extra pytest==9.0.2] [--no-project]
        [--no-compile] [--pyc-cache build/pyc-cache]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from email.parser import Parser
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name, parse_wheel_filename

from tools import REPO
from tools.bytecode import (
    DEFAULT_PYC_CACHE,
    ArchiveJob,
    ArchiveReport,
    BytecodeCompiler,
    BytecodeError,
    Kind,
    compile_archives,
    stdlib_top_level,
)
from tools.pypi_wheels import fetch_wheels

__all__ = [
    "DEFAULT_PACKAGES",
    "DEFAULT_WHEEL_EXTRAS",
    "KERNEL_PRELOAD",
    "KERNEL_PROVIDED",
    "KERNEL_WHEELS",
    "LOCK_FIELDS",
    "PyodideDistError",
    "build_project_wheel",
    "build_pyodide_dist",
    "kernel_extension_wheels",
    "read_lock",
    "verify_dist",
    "write_lock",
]

NODE_PYODIDE = REPO / "node_modules" / "pyodide"
DEFAULT_DEST = REPO / "build" / "pyodide"
DEFAULT_WHEEL_CACHE = REPO / "build" / "wheel-cache"
LOCK_NAME = "pyodide-lock.json"
STDLIB_ZIP = "python_stdlib.zip"

#: The fields every entry of a Pyodide lock has (the schema :func:`verify_dist` checks).
LOCK_FIELDS: frozenset[str] = frozenset(
    {
        "name",
        "version",
        "file_name",
        "install_dir",
        "sha256",
        "package_type",
        "imports",
        "depends",
        "unvendored_tests",
        "shared_library",
    }
)

#: Pyodide's runtime files, copied from the npm package (its package.json,
#: source maps, typings and demo consoles are left out).
CORE_FILES: tuple[str, ...] = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)

#: What the kernel loads at start (see the pyodide-kernel worker:
#: ``loadPackage(["micropip"])``, then ``piplite.install`` of ``ipykernel``,
#: ``comm``, ``pyodide-kernel``, ``jedi`` and ``ipython``; ``ipykernel``,
#: ``pyodide-kernel`` and ``piplite`` come from the kernel extension's own
#: ``pypi/all.json``), plus the widget stack the calculators use. Names without
#: a version are taken from Pyodide's lock, with their dependencies.
DEFAULT_PACKAGES: tuple[str, ...] = (
    "micropip",
    "ipython",
    "jedi",
    "comm==0.2.3",
    "ipywidgets==8.1.9",
    "anywidget==0.11.0",
    "psygnal==0.16.1",
    "typing-extensions",
)

#: The kernel's packages the notebooks' Pyodide loads at start-up, all at once
#: through the lock (the site sets them as ``loadPyodideOptions.packages``). The
#: pyodide-kernel 0.8.6 worker skips its own sequential step for each package
#: named there: ``loadPackage(["micropip"])``, ``micropip.install`` of
#: ``piplite``, and ``piplite.install`` of ``ipykernel``, ``comm``,
#: ``pyodide-kernel``, ``jedi``, ``ipython``. The last three names are the
#: kernel's own wheels (:func:`kernel_extension_wheels`), locked by the site.
KERNEL_PRELOAD: tuple[str, ...] = (
    "micropip",
    "comm",
    "jedi",
    "ipython",
    "piplite",
    "ipykernel",
    "pyodide-kernel",
)

#: The kernel's own wheels the site locks (see :data:`KERNEL_PRELOAD`), by name.
KERNEL_WHEELS: tuple[str, ...] = ("piplite", "ipykernel", "pyodide-kernel")

#: Where the pyodide-kernel extension's wheels are installed, under ``sys.prefix``.
KERNEL_EXTENSION_PYPI = Path(
    "share",
    "jupyter",
    "labextensions",
    "@jupyterlite",
    "pyodide-kernel-extension",
    "static",
    "pypi",
)

#: Extras whose requirements count as a wheel's ``depends``.
DEFAULT_WHEEL_EXTRAS: dict[str, tuple[str, ...]] = {"ruleslab": ("widgets",)}

#: Requirements that are satisfied outside the lock (see the module docstring).
KERNEL_PROVIDED: frozenset[str] = frozenset(
    {"ipykernel", "pyodide-kernel", "piplite", "widgetsnbextension", "jupyterlab-widgets"}
)


class PyodideDistError(RuntimeError):
    """The distribution cannot be assembled or is inconsistent."""


def kernel_extension_wheels(prefix: Path | None = None) -> list[Path]:
    """The installed pyodide-kernel extension's wheels of :data:`KERNEL_WHEELS`: the ones
    its kernel installs from its own index (``static/pypi/``), one each."""
    folder = Path(prefix if prefix is not None else sys.prefix) / KERNEL_EXTENSION_PYPI
    found = []
    for name in KERNEL_WHEELS:
        wheels = [
            w for w in sorted(folder.glob("*.whl")) if parse_wheel_filename(w.name)[0] == name
        ]
        if len(wheels) != 1:
            raise PyodideDistError(
                f"expected one {name} wheel in {folder}, found {len(wheels)}: "
                "install jupyterlite-pyodide-kernel (requirements)"
            )
        found.append(wheels[0])
    return found


@dataclass
class _Entry:
    """One package to serve: where its wheel comes from and its lock fields."""

    name: NormalizedName
    version: str
    wheel: Path | None = None
    imports: list[str] = field(default_factory=list)
    depends: list[NormalizedName] = field(default_factory=list)
    from_pyodide_lock: bool = False


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _pyodide_environment(info: dict[str, Any]) -> dict[str, str]:
    """PEP 508 marker environment of the Pyodide runtime described by a lock's info."""
    # (every field of packaging's Environment is a str; the TypedDict is no dict[str, str])
    env = {key: str(value) for key, value in default_environment().items()}
    python = str(info.get("python", "3.14.0"))
    env.update(
        {
            "python_version": ".".join(python.split(".")[:2]),
            "python_full_version": python,
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "sys_platform": "emscripten",
            "platform_system": "Emscripten",
            "platform_machine": "wasm32",
            "os_name": "posix",
        }
    )
    return env


def _wheel_metadata(wheel: Path) -> tuple[list[str], list[str]]:
    """``Requires-Dist`` lines and top-level importable names of a wheel."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_name = next(
            (n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")), None
        )
        if meta_name is None:
            raise PyodideDistError(f"{wheel.name}: no .dist-info/METADATA")
        meta = Parser().parsestr(zf.read(meta_name).decode("utf-8"))
    requires = meta.get_all("Requires-Dist") or []
    tops: set[str] = set()
    for n in names:
        first, _, rest = n.partition("/")
        if first.endswith((".dist-info", ".data")):
            continue
        if rest and rest == "__init__.py":
            tops.add(first)
        elif not rest and first.endswith(".py"):
            tops.add(first[:-3])
    return requires, sorted(tops)


def _wheel_depends(
    requires: Iterable[str], env: dict[str, str], extras: Iterable[str] = ()
) -> list[NormalizedName]:
    """Canonical names of the requirements that apply in Pyodide, with the given extras."""
    out: list[NormalizedName] = []
    for line in requires:
        req = Requirement(line)
        if req.marker is not None and not any(
            req.marker.evaluate({**env, "extra": x}) for x in ("", *extras)
        ):
            continue
        name = canonicalize_name(req.name)
        if name not in KERNEL_PROVIDED and name not in out:
            out.append(name)
    return out


def _parse_spec(spec: str) -> tuple[NormalizedName, str | None]:
    name, sep, version = spec.partition("==")
    if not name.strip() or (sep and not version.strip()) or any(c in name for c in "<>=!~;@ "):
        raise PyodideDistError(f"unsupported requirement {spec!r}: use 'name' or 'name==version'")
    return canonicalize_name(name.strip()), (version.strip() or None)


def _resolve(
    specs: Sequence[str],
    local_wheels: Sequence[Path],
    kernel_wheels: Sequence[Path],
    pyodide_packages: dict[str, dict[str, Any]],
    env: dict[str, str],
    wheel_cache: Path,
    wheel_extras: Mapping[str, Sequence[str]],
    depends_from_wheel: Collection[str],
) -> dict[NormalizedName, _Entry]:
    """Work out every package to serve, fetching wheels as needed."""
    entries: dict[NormalizedName, _Entry] = {}
    pending: list[tuple[NormalizedName, str | None, str]] = []

    extras_by_name = {canonicalize_name(k): tuple(v) for k, v in wheel_extras.items()}
    from_wheel = {canonicalize_name(n) for n in depends_from_wheel}

    def fetch_one(name: str, version: str, why: str) -> Path:
        try:
            (wheel,) = fetch_wheels([f"{name}=={version}"], wheel_cache)
        except RuntimeError as err:
            raise PyodideDistError(
                f"{name}=={version} ({why}): {err}\nIf {name} is a stale dependency in "
                "Pyodide's lock, pass the package that needs it in depends_from_wheel "
                "(CLI: --depends-from-wheel NAME)."
            ) from err
        return wheel

    def add_local(wheel: Path, why: str) -> None:
        if not wheel.is_file():
            raise PyodideDistError(f"wheel not found: {wheel} ({why})")
        name, version, _, tags = parse_wheel_filename(wheel.name)
        if not any(t.abi == "none" and t.platform == "any" for t in tags):
            raise PyodideDistError(f"{wheel.name} is not a pure (none-any) wheel ({why})")
        requires, imports = _wheel_metadata(wheel)
        depends = _wheel_depends(requires, env, extras_by_name.get(name, ()))
        entries[name] = _Entry(name, str(version), wheel, imports, list(depends))
        pending.extend((d, None, f"dependency of {name}") for d in depends)

    for local_wheel in local_wheels:
        add_local(Path(local_wheel), "local wheel")
    for kernel_wheel in kernel_wheels:
        name = parse_wheel_filename(Path(kernel_wheel).name)[0]
        if name not in KERNEL_WHEELS:
            raise PyodideDistError(f"{Path(kernel_wheel).name} is not one of {KERNEL_WHEELS}")
        add_local(Path(kernel_wheel), "the kernel's own wheel")
    pending[:0] = [(*_parse_spec(s), "requested") for s in specs]

    while pending:
        name, version, why = pending.pop(0)
        if name in entries:
            have = entries[name].version
            if version is not None and version != have:
                raise PyodideDistError(f"{name}: {version} requested ({why}) but {have} chosen")
            continue
        if name in KERNEL_PROVIDED:
            raise PyodideDistError(
                f"{name} ({why}) is provided by the JupyterLite kernel and must not be locked"
            )
        locked = pyodide_packages.get(name)
        if locked is not None:
            if version is not None and version != locked["version"]:
                raise PyodideDistError(
                    f"{name}=={version} ({why}): Pyodide's lock pins {locked['version']}; "
                    "request it without a version or with the locked one"
                )
            if locked.get("package_type", "package") != "package" or not str(
                locked["file_name"]
            ).endswith("-none-any.whl"):
                raise PyodideDistError(
                    f"{name} ({why}) is not a pure wheel in Pyodide's lock "
                    f"({locked['file_name']}); it cannot be served from PyPI wheels"
                )
            wheel: Path | None = None
            if name in from_wheel:
                wheel = fetch_one(name, locked["version"], why)
                requires, _ = _wheel_metadata(wheel)
                depends = _wheel_depends(requires, env, extras_by_name.get(name, ()))
            else:
                depends = [canonicalize_name(d) for d in locked.get("depends", [])]
            entries[name] = _Entry(
                name,
                locked["version"],
                wheel=wheel,
                imports=list(locked.get("imports", [])),
                depends=depends,
                from_pyodide_lock=True,
            )
            pending.extend((d, None, f"dependency of {name}") for d in depends)
            continue
        if version is None:
            raise PyodideDistError(
                f"{name} ({why}) is not in Pyodide's lock: give it as '{name}==<version>' "
                "(a pure wheel on PyPI) or pass its wheel as an extra wheel"
            )
        add_local(fetch_one(name, version, why), why)

    # Wheels for lock-sourced entries (cached after the first build).
    for entry in entries.values():
        if entry.wheel is None:
            entry.wheel = fetch_one(entry.name, entry.version, "from Pyodide's lock")
    return entries


def build_pyodide_dist(
    dest: Path = DEFAULT_DEST,
    *,
    extra_wheels: Sequence[Path] = (),
    kernel_wheels: Sequence[Path] = (),
    packages: Sequence[str] = DEFAULT_PACKAGES,
    extra: Sequence[str] = (),
    wheel_extras: Mapping[str, Sequence[str]] | None = None,
    depends_from_wheel: Collection[str] = (),
    node_pyodide: Path = NODE_PYODIDE,
    wheel_cache: Path = DEFAULT_WHEEL_CACHE,
    compile_bytecode: bool = True,
    pyc_cache: Path = DEFAULT_PYC_CACHE,
) -> Path:
    """Assemble a Pyodide distribution in ``dest`` (emptied first) and return ``dest``.

    ``packages`` and ``extra`` are requirement specs (``name`` for a package in
    Pyodide's lock, ``name==version`` for a pure wheel on PyPI or to pin the
    locked version); ``extra`` is for callers adding to the defaults, e.g.
    ``["pytest==9.0.2"]``. ``extra_wheels`` are local pure wheels (the
    project's). ``kernel_wheels`` are the JupyterLite kernel's own wheels of
    :data:`KERNEL_WHEELS` (:func:`kernel_extension_wheels`), served like the PyPI
    ones. Dependencies are followed and must all resolve, or
    :class:`PyodideDistError` is raised. The written lock is checked with
    :func:`verify_dist` before returning.

    ``wheel_extras`` maps a package to the extras whose requirements count as
    its ``depends`` (default: ``ruleslab`` with ``widgets``, since the wheel also
    carries ``ruleslab_widgets``). ``depends_from_wheel`` names packages from
    Pyodide's lock whose ``depends`` should be read from the served wheel's
    metadata instead of Pyodide's lock (Pyodide's ``pytest`` entry, for one,
    still lists ``atomicwrites``/``py``, which have no wheel on PyPI).

    ``compile_bytecode`` (default) serves the standard library and the wheels
    compiled to bytecode by the pinned Pyodide (see the module docstring; the
    outputs are cached in ``pyc_cache``); ``False`` serves them as npm and PyPI
    ship them.
    """
    if wheel_extras is None:
        wheel_extras = DEFAULT_WHEEL_EXTRAS
    dest = Path(dest)
    source_lock = node_pyodide / LOCK_NAME
    missing = [f for f in (*CORE_FILES, LOCK_NAME) if not (node_pyodide / f).is_file()]
    if missing:
        raise PyodideDistError(
            f"Pyodide core files missing in {node_pyodide}: {', '.join(missing)} (run `npm ci`)"
        )
    original = json.loads(source_lock.read_text(encoding="utf-8"))
    env = _pyodide_environment(original["info"])
    entries = _resolve(
        [*packages, *extra],
        list(extra_wheels),
        list(kernel_wheels),
        original["packages"],
        env,
        wheel_cache,
        wheel_extras,
        depends_from_wheel,
    )

    for entry in entries.values():
        unknown = [d for d in entry.depends if d not in entries]
        if unknown:
            raise PyodideDistError(f"{entry.name} depends on unserved {unknown}")

    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in CORE_FILES:
        if not (compile_bytecode and name == STDLIB_ZIP):
            shutil.copy2(node_pyodide / name, dest / name)

    local = {Path(w).resolve() for w in extra_wheels}
    served_files = _serve_archives(
        dest, entries, local, node_pyodide, compile_bytecode=compile_bytecode, pyc_cache=pyc_cache
    )
    lock_packages: dict[str, dict[str, Any]] = {}
    for name in sorted(entries):
        entry = entries[name]
        served = served_files[name]
        lock_packages[name] = {
            "name": name,
            "version": entry.version,
            "file_name": served.name,
            "install_dir": "site",
            "sha256": sha256_of(served),
            "package_type": "package",
            "imports": entry.imports,
            "depends": sorted(entry.depends),
            "unvendored_tests": False,
            "shared_library": False,
        }
    write_lock(dest / LOCK_NAME, {"info": original["info"], "packages": lock_packages})
    verify_dist(dest)
    return dest


def _serve_archives(
    dest: Path,
    entries: Mapping[NormalizedName, _Entry],
    local: Collection[Path],
    node_pyodide: Path,
    *,
    compile_bytecode: bool,
    pyc_cache: Path,
) -> dict[NormalizedName, Path]:
    """Put the stdlib zip and every wheel in ``dest``, compiled or not; name → served wheel.

    Local wheels are served under :func:`content_tagged_name` of their *final*
    bytes (after compiling), so the build tag follows what is served.
    """
    served: dict[NormalizedName, Path] = {}
    stage = dest / ".stage"
    jobs: list[ArchiveJob] = []
    if compile_bytecode:
        jobs.append(ArchiveJob(node_pyodide / STDLIB_ZIP, dest / STDLIB_ZIP, Kind.STDLIB))
    staged: dict[NormalizedName, Path] = {}
    importable = stdlib_top_level(node_pyodide / STDLIB_ZIP) | {
        module for entry in entries.values() for module in entry.imports
    }
    for name, entry in entries.items():
        assert entry.wheel is not None
        # each module once, as bytecode: the project's wheel too (docs/site-build.md,
        # "Only what the first calculator needs")
        kind = Kind.WHEEL_SOURCELESS
        if entry.wheel.resolve() in local:
            staged[name] = stage / entry.wheel.name
        else:
            served[name] = dest / entry.wheel.name
        target = staged.get(name, served.get(name))
        assert target is not None
        if compile_bytecode:
            jobs.append(ArchiveJob(entry.wheel, target, kind, importable))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry.wheel, target)
    if jobs:
        try:
            reports = compile_archives(jobs, BytecodeCompiler(node_pyodide, pyc_cache))
        except BytecodeError as err:
            raise PyodideDistError(f"compiling the bytecode failed: {err}") from err
        _print_reports(reports)
    for name, path in staged.items():
        served[name] = path.replace(dest / content_tagged_name(path))
    if stage.exists():
        shutil.rmtree(stage)
    return served


def _print_reports(reports: Sequence[ArchiveReport]) -> None:
    """One line per compiled archive: sources compiled, size before and after."""
    for r in reports:
        kept = f", {r.kept_as_source} kept as source" if r.kept_as_source else ""
        print(
            f"  {r.name}: {r.compiled} compiled ({r.kind.value}{kept}), "
            f"{r.size_before / 1e6:.2f} -> {r.size_after / 1e6:.2f} MB"
        )
    before = sum(r.size_before for r in reports) / 1e6
    after = sum(r.size_after for r in reports) / 1e6
    print(f"  total: {before:.2f} -> {after:.2f} MB", flush=True)


def read_lock(folder: Path) -> dict[str, Any]:
    """The lock (:data:`LOCK_NAME`) of a distribution folder, as written by :func:`write_lock`."""
    lock: dict[str, Any] = json.loads((Path(folder) / LOCK_NAME).read_text(encoding="utf-8"))
    return lock


def write_lock(path: Path, lock: dict[str, Any]) -> None:
    """Write a lock file the way every lock of the site is written (sorted, one space indent)."""
    Path(path).write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def content_tagged_name(wheel: Path) -> str:
    """The wheel's file name with a build tag made from its content's sha256.

    Local wheels (the project's) keep their version across deploys while their
    bytes change; a browser or proxy holding the old file under the same URL
    would then fail the lock's sha256 check. A content-derived build tag
    ("0" + 10 hex digits: build tags must start with a digit) gives every build
    its own URL. The wheel's metadata is unchanged; installers read the name and
    version from the file name and ignore the build tag's value.
    """
    build = parse_wheel_filename(wheel.name)[2]
    if build:
        return wheel.name
    digest = sha256_of(wheel)[:10]
    stem = wheel.name[: -len(".whl")]
    dist, ver, rest = stem.split("-", 2)
    return f"{dist}-{ver}-0{digest}-{rest}.whl"


def verify_dist(dest: Path) -> dict[str, Any]:
    """Check a distribution folder; return its lock. Raises :class:`PyodideDistError`.

    Every lock entry must name a file present in ``dest`` with the recorded
    sha256, have the full schema, and depend only on other entries.
    """
    lock_path = Path(dest) / LOCK_NAME
    if not lock_path.is_file():
        raise PyodideDistError(f"{lock_path} not found")
    lock = read_lock(dest)
    pkgs: dict[str, dict[str, Any]] = lock["packages"]
    problems: list[str] = []
    for key, spec in pkgs.items():
        if lacking := LOCK_FIELDS - spec.keys():
            problems.append(f"{key}: missing fields {sorted(lacking)}")
            continue
        path = Path(dest) / spec["file_name"]
        if "/" in spec["file_name"] or not path.is_file():
            problems.append(f"{key}: {spec['file_name']} not in {dest}")
        elif sha256_of(path) != spec["sha256"]:
            problems.append(f"{key}: sha256 mismatch for {spec['file_name']}")
        wname, wver, _, _ = parse_wheel_filename(spec["file_name"])
        if wname != canonicalize_name(key) or str(wver) != spec["version"]:
            problems.append(f"{key}: file {spec['file_name']} is not {key} {spec['version']}")
        for dep in spec["depends"]:
            if dep not in pkgs:
                problems.append(f"{key}: depends on {dep}, which is not in the lock")
    try:  # the schema's own model, where installed (pyodide-lock is a dev dependency)
        from pyodide_lock.spec import PackageSpec
    except ImportError:  # pragma: no cover
        pass
    else:
        for key, spec in pkgs.items():
            try:
                PackageSpec(**spec)
            except Exception as err:
                problems.append(f"{key}: invalid lock entry: {err}")
    if problems:
        raise PyodideDistError("inconsistent Pyodide distribution:\n  " + "\n  ".join(problems))
    return lock


#: The project's modules used only at build time, left out of the site's wheel (file names):
#: the pre-render (``tools/make_content.py`` draws every calculator's static page with it).
BUILD_TIME_MODULES: tuple[str, ...] = ("prerender.py",)
#: ``pyproject.toml``'s line naming the README as the package's long description.
README_LINE = re.compile(r"^readme\s*=.*\n", re.MULTILINE)


def site_pyproject(text: str) -> str:
    """``pyproject.toml``'s text for the site's wheel: without its ``readme`` (the wheel's
    metadata then carries no long description: the README, some 80 kB, was fetched by
    every first visit). A text without exactly one such line is an error."""
    if len(README_LINE.findall(text)) != 1:
        raise PyodideDistError("pyproject.toml: expected one `readme = ...` line")
    return README_LINE.sub("", text)


def build_project_wheel(outdir: Path, *, project: Path = REPO) -> Path:
    """Build the project's wheel into an emptied ``outdir`` and return its path.

    The build runs on a staged copy of ``pyproject.toml`` (without its README:
    :func:`site_pyproject`) and the package folders (``engine/``, ``widgets/``, without
    :data:`BUILD_TIME_MODULES`), so stray files in the work tree never reach the wheel.
    Without build isolation when hatchling is importable (no network needed), with it
    otherwise.
    """
    if outdir.exists():
        shutil.rmtree(outdir)
    outdir.mkdir(parents=True)
    stage = outdir / "_stage"
    stage.mkdir()
    pyproject = (project / "pyproject.toml").read_text(encoding="utf-8")
    (stage / "pyproject.toml").write_text(site_pyproject(pyproject), encoding="utf-8")
    for folder in ("engine", "widgets"):
        if (project / folder).is_dir():
            shutil.copytree(
                project / folder,
                stage / folder,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", *BUILD_TIME_MODULES),
            )
    cmd = [sys.executable, "-m", "build", "--wheel", "--outdir", str(outdir), str(stage)]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(4, "--no-isolation")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    shutil.rmtree(stage)
    wheels = sorted(outdir.glob("*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        raise PyodideDistError(f"building the project wheel failed:\n{proc.stdout}{proc.stderr}")
    return wheels[0]


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="output folder")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="SPEC",
        help="extra requirement, 'name' or 'name==version' (repeatable)",
    )
    parser.add_argument(
        "--wheel",
        action="append",
        default=[],
        type=Path,
        metavar="PATH",
        help="extra local pure wheel (repeatable)",
    )
    parser.add_argument(
        "--no-project", action="store_true", help="do not build and include the project wheel"
    )
    parser.add_argument(
        "--depends-from-wheel",
        action="append",
        default=[],
        metavar="NAME",
        help="take NAME's depends from its wheel, not Pyodide's lock (repeatable)",
    )
    parser.add_argument("--wheel-cache", type=Path, default=DEFAULT_WHEEL_CACHE)
    parser.add_argument("--pyc-cache", type=Path, default=DEFAULT_PYC_CACHE)
    parser.add_argument(
        "--no-compile", action="store_true", help="serve the stdlib and wheels as shipped"
    )
    args = parser.parse_args(argv)
    wheels: list[Path] = list(args.wheel)
    try:
        if not args.no_project:
            wheels.insert(0, build_project_wheel(REPO / "build" / "dist"))
        dest = build_pyodide_dist(
            args.dest,
            extra_wheels=wheels,
            extra=args.extra,
            depends_from_wheel=args.depends_from_wheel,
            wheel_cache=args.wheel_cache,
            compile_bytecode=not args.no_compile,
            pyc_cache=args.pyc_cache,
        )
    except PyodideDistError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    lock = read_lock(dest)
    print(f"{dest}: {len(lock['packages'])} packages: {', '.join(sorted(lock['packages']))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
