"""Compile the served Python sources to bytecode at build time, with Pyodide's own CPython.

Without this, Pyodide compiles every ``.py`` it imports on every page load: the
npm ``python_stdlib.zip`` holds sources only (about 2 s of a cold start), and so
do the wheels (IPython, jedi, ipywidgets, ...). This module rewrites those
archives with bytecode in them:

* the standard library zip becomes **sourceless** (``name.py`` → ``name.pyc``,
  as in Pyodide's own CDN release): zipimport looks for ``name.pyc`` where
  ``name.py`` would be. Data files are kept;
* a wheel either becomes sourceless (``.py`` replaced by ``.pyc`` in place,
  loaded by ``SourcelessFileLoader``; third-party wheels, which also lose their
  tests and front-end bundles: :data:`UNSERVED_FOLDERS`, and jedi its stubs that
  no import can reach: :func:`jedi_stub_served`) or keeps its sources and gains
  ``__pycache__/<module>.cpython-314.pyc`` beside them (what an install with
  pip would write; tracebacks show source lines). Either way its ``RECORD`` is
  rewritten from the final files and its file name is kept.

Every ``.pyc`` is an **unchecked hash-based** pyc (PEP 552): the import system
never compares it with a source file or an mtime, so unpacking a wheel (fresh
mtimes) never invalidates it. The bytecode must match the interpreter's magic
number exactly, so it is made by the pinned Pyodide itself:
``tools/compile_pyc.mjs`` loads ``node_modules/pyodide`` under Node and
compiles every source in one process (Pyodide takes ~2 s to start).

``co_filename`` (what tracebacks name) is the path the source would have inside
Pyodide: ``/lib/python314.zip/json/decoder.py`` for the standard library (what
zipimport used when it compiled the sources itself, so tracebacks read as before),
``/lib/python3.14/site-packages/IPython/core/...py`` for wheels (installed
there by ``loadPackage``/micropip). A source that does not compile (a
SyntaxError: a template or test data shipped as ``.py``) is kept as source.

Compiled outputs are cached under ``build/pyc-cache/pyodide-<version>/``, keyed
by the sha256 of the source, its ``co_filename`` and :data:`SCHEME`; a rebuild
with a warm cache does not start Node at all.

Python use::

    compiler = BytecodeCompiler()
    compile_archives([ArchiveJob(src_zip, dest_zip, Kind.STDLIB), ...], compiler)
"""

from __future__ import annotations

import base64
import csv
import enum
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools import REPO

__all__ = [
    "DEFAULT_PYC_CACHE",
    "SCHEME",
    "ArchiveJob",
    "ArchiveReport",
    "BytecodeCompiler",
    "BytecodeError",
    "Kind",
    "PyodideLayout",
    "Source",
    "compile_archives",
    "jedi_stub_served",
    "stdlib_top_level",
]

NODE_PYODIDE = REPO / "node_modules" / "pyodide"
COMPILE_SCRIPT = Path(__file__).resolve().with_name("compile_pyc.mjs")
DEFAULT_PYC_CACHE = REPO / "build" / "pyc-cache"

#: Names the way sources are compiled; part of every cache key, so changing the
#: compile step (flags, pyc kind) must change this string.
SCHEME = "unchecked-hash-pyc/optimize-0/v1"

#: zipfile's deflate level for rewritten archives (the served zips are not
#: compressed again by a static host, so the smallest is best).
COMPRESS_LEVEL = 9


class BytecodeError(RuntimeError):
    """Sources could not be compiled, or Pyodide is not what the build expects."""


class Kind(enum.Enum):
    """How an archive's sources are replaced or joined by bytecode."""

    #: Pyodide's ``python_stdlib.zip``: sourceless, ``co_filename`` under the zip's mount path.
    STDLIB = "stdlib"
    #: A wheel whose ``.py`` files are replaced by ``.pyc`` files in place.
    WHEEL_SOURCELESS = "wheel-sourceless"
    #: A wheel that keeps its sources and gains ``__pycache__/*.cpython-XY.pyc``.
    WHEEL_WITH_SOURCES = "wheel-with-sources"


@dataclass(frozen=True)
class PyodideLayout:
    """Where Pyodide keeps things, derived from the npm package (checked when Node runs)."""

    version: str  #: Pyodide's version, e.g. ``314.0.6``
    python: str  #: its CPython's version, e.g. ``3.14.2``

    @classmethod
    def from_node_pyodide(cls, node_pyodide: Path = NODE_PYODIDE) -> PyodideLayout:
        """Read the version from ``package.json`` and CPython's from ``pyodide-lock.json``."""
        try:
            package = json.loads((node_pyodide / "package.json").read_text(encoding="utf-8"))
            lock = json.loads((node_pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
        except OSError as err:
            raise BytecodeError(
                f"{node_pyodide} is not an npm pyodide package (npm ci): {err}"
            ) from err
        return cls(version=str(package["version"]), python=str(lock["info"]["python"]))

    @property
    def _major_minor(self) -> tuple[str, str]:
        major, minor = self.python.split(".")[:2]
        return major, minor

    @property
    def cache_tag(self) -> str:
        """``sys.implementation.cache_tag``, e.g. ``cpython-314``."""
        return "cpython-" + "".join(self._major_minor)

    @property
    def stdlib_zip(self) -> str:
        """Where the standard library zip is mounted, e.g. ``/lib/python314.zip``."""
        return "/lib/python" + "".join(self._major_minor) + ".zip"

    @property
    def site_packages(self) -> str:
        """Where wheels are installed, e.g. ``/lib/python3.14/site-packages``."""
        return "/lib/python" + ".".join(self._major_minor) + "/site-packages"


@dataclass(frozen=True)
class Source:
    """One source to compile: its bytes and the ``co_filename`` its code gets."""

    data: bytes
    filename: str
    #: ``compile``'s ``optimize``: 0 (docstrings and asserts kept), or 2 (both left out:
    #: the app page's archives, :class:`ArchiveJob`).
    optimize: int = 0

    def cache_key(self) -> str:
        """sha256 over :data:`SCHEME`, the filename, the optimization level if not 0, and
        the source's own sha256."""
        digest = hashlib.sha256(SCHEME.encode() + b"\0" + self.filename.encode() + b"\0")
        if self.optimize:
            digest.update(f"optimize={self.optimize}\0".encode())
        digest.update(hashlib.sha256(self.data).digest())
        return digest.hexdigest()


def _default_log(message: str) -> None:
    print(message, flush=True)


class BytecodeCompiler:
    """Compiles sources with the pinned Pyodide under Node, through a file cache.

    ``compile`` takes a batch of sources and returns, for each, the pyc bytes, or
    ``None`` when the source does not compile (its SyntaxError is logged).
    Cache misses of one batch are compiled by a single Node process.
    """

    def __init__(
        self,
        node_pyodide: Path = NODE_PYODIDE,
        cache_dir: Path = DEFAULT_PYC_CACHE,
        *,
        node: str | None = None,
        log: Callable[[str], None] = _default_log,
    ) -> None:
        self.node_pyodide = Path(node_pyodide).resolve()
        self.layout = PyodideLayout.from_node_pyodide(self.node_pyodide)
        self.cache = Path(cache_dir) / f"pyodide-{self.layout.version}"
        self.node = node
        self.log = log
        #: Counters of the last :meth:`compile` call: cache hits, compiled, failed.
        self.stats: dict[str, int] = {}

    # -- cache ---------------------------------------------------------------------------

    def _path(self, key: str, suffix: str) -> Path:
        return self.cache / key[:2] / f"{key}{suffix}"

    def _magic(self) -> bytes | None:
        info = self.cache / "info.json"
        if not info.is_file():
            return None
        return bytes.fromhex(json.loads(info.read_text(encoding="utf-8"))["magic"])

    def _lookup(self, key: str, magic: bytes | None) -> tuple[bool, bytes | None]:
        """(found, pyc or None for a cached failure)."""
        pyc = self._path(key, ".pyc")
        if magic is not None and pyc.is_file():
            data = pyc.read_bytes()
            if data[:4] == magic:
                return True, data
        if self._path(key, ".fail").is_file():
            return True, None
        return False, None

    def _store(self, key: str, data: bytes | None, error: str = "") -> None:
        path = self._path(key, ".pyc" if data is not None else ".fail")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data if data is not None else error.encode())
        tmp.replace(path)  # atomic: a parallel build sees the old entry or the new one

    # -- compiling -----------------------------------------------------------------------

    def compile(self, sources: Sequence[Source]) -> list[bytes | None]:
        """Pyc bytes for each source (``None``: it does not compile), in order."""
        magic = self._magic()
        keys = [s.cache_key() for s in sources]
        out: list[bytes | None] = [None] * len(sources)
        missing: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            found, data = self._lookup(key, magic)
            if found:
                out[i] = data
            else:
                missing.setdefault(key, []).append(i)
        uncached = sum(len(indexes) for indexes in missing.values())
        self.stats = {"sources": len(sources), "cached": len(sources) - uncached}
        if missing:
            results = self._run_node({key: sources[idx[0]] for key, idx in missing.items()})
            for key, (data, _) in results.items():
                for i in missing[key]:
                    out[i] = data
        self.stats["compiled"] = sum(1 for data in out if data is not None)
        self.stats["failed"] = len(sources) - self.stats["compiled"]
        return out

    def _node_exe(self) -> str:
        node = self.node or shutil.which("node")
        if node is None:
            raise BytecodeError("`node` is not on PATH: Node.js 20 compiles the bytecode")
        return node

    def _run_node(self, todo: dict[str, Source]) -> dict[str, tuple[bytes | None, str]]:
        """Compile ``todo`` (cache key → source) in one Node process; store and return results."""
        self.log(f"compiling {len(todo)} Python sources with Pyodide {self.layout.version} ...")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="ruleslab-pyc-") as tmp:
            root = Path(tmp)
            (root / "src").mkdir()
            jobs = []
            for key, source in todo.items():
                (root / "src" / f"{key}.py").write_bytes(source.data)
                jobs.append(
                    {
                        "src": f"src/{key}.py",
                        "out": f"out/{key}.pyc",
                        "filename": source.filename,
                        "optimize": source.optimize,
                    }
                )
            manifest = {
                "indexURL": str(self.node_pyodide),
                "root": str(root),
                "jobs": jobs,
                "result": "result.json",
            }
            (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
            proc = subprocess.run(
                [self._node_exe(), str(COMPILE_SCRIPT), str(root / "manifest.json")],
                stdout=subprocess.PIPE,
                stderr=None,  # progress goes straight to the terminal
                text=True,
            )
            result_path = root / "result.json"
            if proc.returncode != 0 or not result_path.is_file():
                raise BytecodeError(
                    f"{COMPILE_SCRIPT.name} failed (exit {proc.returncode}):\n{proc.stdout}"
                )
            result = json.loads(result_path.read_text(encoding="utf-8"))
            self._check(result)
            magic = bytes.fromhex(result["magic"])
            failed = {Path(f["src"]).stem: f["error"] for f in result["failed"]}
            results: dict[str, tuple[bytes | None, str]] = {}
            for key in todo:
                if key in failed:
                    results[key] = (None, failed[key])
                    self._store(key, None, failed[key])
                    continue
                data = (root / "out" / f"{key}.pyc").read_bytes()
                if data[:4] != magic:
                    raise BytecodeError(f"{todo[key].filename}: pyc with a foreign magic number")
                results[key] = (data, "")
                self._store(key, data)
        self.cache.mkdir(parents=True, exist_ok=True)
        info = {k: result[k] for k in ("pyodide", "python", "magic", "cache_tag")}
        tmp_info = self.cache / f".info.json.{os.getpid()}.tmp"
        tmp_info.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
        tmp_info.replace(self.cache / "info.json")  # atomic, like every cache entry
        for failure in result["failed"]:
            name = todo[Path(failure["src"]).stem].filename
            self.log(f"  kept as source (does not compile): {name}: {failure['error']}")
        self.log(
            f"compiled {result['compiled']} sources in {time.perf_counter() - started:.1f} s "
            f"(Pyodide start {result['load_ms'] / 1000:.1f} s, compiling "
            f"{result['compile_ms'] / 1000:.1f} s); {len(result['failed'])} kept as source"
        )
        return results

    def _check(self, result: dict[str, Any]) -> None:
        """The Pyodide that ran must be the one whose layout the filenames assumed."""
        layout = self.layout
        problems = []
        if result["pyodide"] != layout.version:
            problems.append(f"Pyodide {result['pyodide']} ran, {layout.version} expected")
        if result["python"] != layout.python:
            problems.append(f"CPython {result['python']} ran, {layout.python} expected")
        if result["cache_tag"] != layout.cache_tag:
            problems.append(f"cache tag {result['cache_tag']}, {layout.cache_tag} expected")
        for where in (layout.stdlib_zip, layout.site_packages):
            if where not in result["sys_path"]:
                problems.append(f"{where} not in Pyodide's sys.path {result['sys_path']}")
        if problems:
            raise BytecodeError("unexpected Pyodide layout:\n  " + "\n  ".join(problems))


# -- archives ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchiveJob:
    """Rewrite the zip ``src`` (a stdlib zip or a wheel) into ``dest`` as ``kind`` says."""

    src: Path
    dest: Path
    kind: Kind
    #: Top-level module names that can be imported where the archive is served (the
    #: standard library's and every served wheel's). With it, jedi's stubs that jedi
    #: never reads there are left out (:func:`jedi_stub_served`); None keeps them all.
    importable: frozenset[str] | None = None
    #: :attr:`Source.optimize` for every source of the archive.
    optimize: int = 0


@dataclass(frozen=True)
class ArchiveReport:
    """What one archive became."""

    name: str
    kind: Kind
    compiled: int
    kept_as_source: int
    size_before: int
    size_after: int


def _compilable(name: str, kind: Kind) -> bool:
    """Whether a zip member is a module source to compile."""
    if not name.endswith(".py"):
        return False
    if kind is Kind.STDLIB:
        return True
    first = name.split("/", 1)[0]
    return not first.endswith((".dist-info", ".data"))


#: Folders of a third-party wheel that nothing imports in the browser, left out of
#: the served (sourceless) wheel: its tests, and front-end bundles that the site
#: serves as JupyterLite extensions anyway (anywidget ships its lab and notebook
#: extensions twice: in the package and in ``.data``). ``<name>.data/`` itself
#: holds files for a Jupyter server's prefix, which Pyodide does not install.
UNSERVED_FOLDERS = frozenset({"tests", "labextension", "nbextension"})


#: Where jedi keeps the stub files it bundles (typeshed's and django-stubs).
JEDI_STUBS = "jedi/third_party/"


def jedi_stub_served(name: str, importable: frozenset[str]) -> bool:
    """Whether jedi can read the member ``name`` of its wheel in a kernel importing ``importable``.

    jedi ships 1,788 stub files, 60% of the files of the packages a notebook's
    kernel preloads, and Pyodide unpacks a wheel file by file while the kernel
    starts (jedi was 0.25 s of those packages' 0.45 s in Pyodide under Node).
    Left out, from ``jedi/inference/gradual/typeshed.py`` (jedi 0.19):

    * typeshed's Python 2 folders (``stdlib/2``, ``third_party/2``):
      ``_get_typeshed_directories`` lists only ``2and3``, ``3`` and ``3.N``;
    * typeshed's ``third_party`` stubs of a module that cannot be imported:
      "if path_info is not None and (not path_info.is_third_party or
      python_value_set)", i.e. a third-party stub is used only for a module that
      imports (here the standard library's backports ``contextvars`` and
      ``dataclasses``, and the served ``six``, ``decorator``, ``typing_extensions``);
    * ``django-stubs``, read only "if import_names[0] == 'django' and
      python_value_set", for the same reason.

    Every other member (jedi's code, typeshed's ``stdlib`` stubs for Python 3,
    the licence) is kept. Completion on a module whose stub is gone falls back
    to what jedi finds on the live object, as for any module without stubs.
    """
    if not name.startswith(JEDI_STUBS):
        return True
    parts = name[len(JEDI_STUBS) :].split("/")
    if parts[0] == "django-stubs":
        return "django" in importable
    if parts[0] != "typeshed" or len(parts) < 4:
        return True  # the typeshed folder's own files (its licence)
    base, version, top = parts[1], parts[2], parts[3]
    if version == "2":
        return False
    if base == "third_party":
        return top.removesuffix(".pyi") in importable
    return True


def stdlib_top_level(stdlib_zip: Path) -> frozenset[str]:
    """Top-level module and package names in a standard library zip (sources or bytecode)."""
    names: set[str] = set()
    with zipfile.ZipFile(stdlib_zip) as zf:
        for member in zf.namelist():
            first, slash, _ = member.partition("/")
            if slash:
                names.add(first)
            elif first.endswith((".py", ".pyc")):
                names.add(first.rpartition(".")[0])
    return frozenset(names)


def _served(name: str, job: ArchiveJob) -> bool:
    """Whether a member of a sourceless (third-party) wheel is worth serving."""
    if job.kind is not Kind.WHEEL_SOURCELESS:
        return True
    parts = name.split("/")
    if parts[0].endswith(".data"):
        return False
    if job.importable is not None and not jedi_stub_served(name, job.importable):
        return False
    return not UNSERVED_FOLDERS.intersection(parts[1:-1])


def _filename(name: str, kind: Kind, layout: PyodideLayout) -> str:
    """``co_filename`` of a member: where Pyodide would find that source."""
    base = layout.stdlib_zip if kind is Kind.STDLIB else layout.site_packages
    return f"{base}/{name}"


def _pycache_name(name: str, cache_tag: str) -> str:
    """``pkg/mod.py`` → ``pkg/__pycache__/mod.cpython-314.pyc`` (importlib's cache_from_source)."""
    folder, _, file = name.rpartition("/")
    cached = f"__pycache__/{file[: -len('.py')]}.{cache_tag}.pyc"
    return f"{folder}/{cached}" if folder else cached


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def _member(template: zipfile.ZipInfo, name: str, kind: Kind) -> zipfile.ZipInfo:
    """A new member named ``name`` with ``template``'s date and permissions: deflated in the
    standard library's archive, **stored** in a wheel. A wheel's members stored
    uncompressed let the host's compression (gzip, brotli: on the fly, or the files
    ``tools/publish.py`` writes beside it) work across the whole archive, where deflating
    member by member left it nothing to find (docs/site-build.md, "Only what the first
    calculator needs": the figures)."""
    info = zipfile.ZipInfo(name, date_time=template.date_time)
    info.external_attr = template.external_attr or (0o644 << 16)
    info.compress_type = zipfile.ZIP_DEFLATED if kind is Kind.STDLIB else zipfile.ZIP_STORED
    return info


def _rewrite(
    job: ArchiveJob,
    members: list[tuple[zipfile.ZipInfo, bytes]],
    pycs: dict[str, bytes | None],
    cache_tag: str,
) -> tuple[int, int]:
    """Write ``job.dest`` from the source members and their pycs; (compiled, kept)."""
    out: list[tuple[zipfile.ZipInfo, bytes]] = []
    compiled = kept = 0
    record_name = None
    for info, data in members:
        if info.is_dir() or not _served(info.filename, job):
            continue
        pyc = pycs.get(info.filename)
        if info.filename in pycs and pyc is None:
            kept += 1
        if job.kind is not Kind.STDLIB and info.filename.endswith(".dist-info/RECORD"):
            if info.filename.count("/") == 1:
                record_name = info.filename
                continue  # rewritten last, from the final members
        if pyc is None:
            out.append((_member(info, info.filename, job.kind), data))
            continue
        compiled += 1
        if job.kind is Kind.WHEEL_WITH_SOURCES:
            out.append((_member(info, info.filename, job.kind), data))
            out.append((_member(info, _pycache_name(info.filename, cache_tag), job.kind), pyc))
        else:
            out.append((_member(info, info.filename + "c", job.kind), pyc))
    if job.kind is not Kind.STDLIB:
        if record_name is None:
            raise BytecodeError(f"{job.src.name}: no .dist-info/RECORD")
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        for info, data in out:
            writer.writerow([info.filename, _record_hash(data), str(len(data))])
        writer.writerow([record_name, "", ""])
        template = next(i for i, _ in members if i.filename == record_name)
        out.append((_member(template, record_name, job.kind), buffer.getvalue().encode("utf-8")))
    job.dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = job.dest.with_name(f".{job.dest.name}.partial")
    with zipfile.ZipFile(tmp, "w", compresslevel=COMPRESS_LEVEL) as zf:
        for info, data in out:
            zf.writestr(info, data)
    tmp.replace(job.dest)
    return compiled, kept


def compile_archives(
    jobs: Sequence[ArchiveJob], compiler: BytecodeCompiler | None = None
) -> list[ArchiveReport]:
    """Rewrite every archive of ``jobs``; all their sources go through one compile batch.

    ``dest`` may equal ``src`` (the archive is read fully before it is written).
    """
    compiler = compiler or BytecodeCompiler()
    layout = compiler.layout
    started = time.perf_counter()
    read: list[tuple[ArchiveJob, list[tuple[zipfile.ZipInfo, bytes]], int]] = []
    sources: list[Source] = []
    owners: list[tuple[int, str]] = []
    for number, job in enumerate(jobs):
        with zipfile.ZipFile(job.src) as zf:
            members = [(info, zf.read(info)) for info in zf.infolist()]
        read.append((job, members, job.src.stat().st_size))
        for info, data in members:
            if (
                not info.is_dir()
                and _compilable(info.filename, job.kind)
                and _served(info.filename, job)
            ):
                sources.append(
                    Source(data, _filename(info.filename, job.kind, layout), job.optimize)
                )
                owners.append((number, info.filename))
    pycs = compiler.compile(sources)
    by_job: list[dict[str, bytes | None]] = [{} for _ in jobs]
    for (number, name), pyc in zip(owners, pycs, strict=True):
        by_job[number][name] = pyc
    reports = []
    for (job, members, size_before), job_pycs in zip(read, by_job, strict=True):
        compiled, kept = _rewrite(job, members, job_pycs, layout.cache_tag)
        reports.append(
            ArchiveReport(
                job.dest.name, job.kind, compiled, kept, size_before, job.dest.stat().st_size
            )
        )
    stats = compiler.stats
    compiler.log(
        f"bytecode: {len(jobs)} archives, {stats['sources']} sources "
        f"({stats['cached']} from the cache), {time.perf_counter() - started:.1f} s"
    )
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: ``python tools/bytecode.py KIND SRC DEST`` (KIND: stdlib, wheel-sourceless, ...)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=[k.value for k in Kind])
    parser.add_argument("src", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--cache", type=Path, default=DEFAULT_PYC_CACHE)
    args = parser.parse_args(argv)
    try:
        (report,) = compile_archives(
            [ArchiveJob(args.src, args.dest, Kind(args.kind))],
            BytecodeCompiler(cache_dir=args.cache),
        )
    except BytecodeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(
        f"{report.name}: {report.compiled} compiled, {report.kept_as_source} kept as source, "
        f"{report.size_before:,} -> {report.size_after:,} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
