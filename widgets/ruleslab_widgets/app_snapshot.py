"""The app page's warmed interpreter: what goes into a memory snapshot, and what a
restored one needs.

A cold app page starts Pyodide, installs the calculator's packages and imports the
widget stack before it can build a calculator (``docs/app-page.md``, "A snapshot of
the warmed interpreter"). Once a first page is up, the page starts a short-lived
worker (``app/snapshot.mjs``) that does the same work once more in an interpreter of
its own, imports every module a calculator may need (:func:`prepare`), and stores
Pyodide's memory snapshot of it in the browser (Cache Storage, keyed by the build).
The next page restores that memory instead of starting Python, then calls
:func:`restored`.

A restored interpreter has everything :func:`prepare` imported, but not the files
they came from: Pyodide's file system is rebuilt empty except for the standard library
archive, and the calculator's packages are not installed again (that is the time the
snapshot saves). :class:`WheelFallback` covers what was not imported: the first import
of a module of those packages that is not in memory fetches their wheels
(synchronously: an import cannot wait), unpacks them into ``site-packages`` and lets
the import system find the module there.

The snapshot is taken when no page's session exists (nothing of a page is in it), and
the random generator is seeded afresh on every restore (:func:`restored`): two pages
restored from one snapshot never roll the same dice.

Nothing here imports Pyodide; it is tested on CPython (``tests/widgets/test_app_snapshot.py``).
"""

from __future__ import annotations

import importlib
import io
import os
import random
import sys
import zipfile
from collections.abc import Iterable, Sequence

from ruleslab_widgets.app_stdlib import Fetch, FetchOnMiss, as_bytes

__all__ = ["PACKAGES", "WheelFallback", "check", "import_all", "prepare", "restored"]

#: The packages whose every module :func:`prepare` imports (the app page's own); the
#: widget stack's packages are imported as far as the app page uses them.
PACKAGES: tuple[str, ...] = ("ruleslab", "ruleslab_widgets")


def import_all(package: str, skip: Iterable[str] = ()) -> list[str]:
    """Import ``package`` and every module below it (walking its folders: ``pkgutil`` is
    not in the app page's standard library), except ``skip`` and what is below them;
    the names imported, in order. An import that fails is an error: the snapshot would
    miss a module a calculator imports."""
    skipped = frozenset(skip)
    done: list[str] = []

    def walk(name: str) -> None:
        if name in skipped:
            return
        module = importlib.import_module(name)
        done.append(name)
        for folder in getattr(module, "__path__", ()):
            for entry in sorted(os.listdir(folder)):
                stem, dot, suffix = entry.partition(".")
                child = f"{name}.{stem}"
                if stem.startswith("_") or child in skipped:
                    continue
                if os.path.isdir(os.path.join(folder, entry)) and not dot:
                    if os.path.exists(os.path.join(folder, entry, "__init__.py")) or (
                        os.path.exists(os.path.join(folder, entry, "__init__.pyc"))
                    ):
                        walk(child)
                elif suffix in ("py", "pyc") and child not in done:
                    walk(child)

    walk(package)
    return done


def prepare(packages: Sequence[str] = PACKAGES) -> list[str]:
    """Make this interpreter the one a snapshot should hold: the widget stack set up for
    the app page (the IPython stand-in, comms over the page's channel), every module of
    ``packages`` imported, garbage collected. The names imported."""
    from ruleslab_widgets import ipython_standin

    ipython_standin.install()
    from ruleslab_widgets import app_page

    app_page.install()
    names: list[str] = []
    for package in packages:
        names += import_all(package)
    import gc

    gc.collect()
    return names


class WheelFallback(FetchOnMiss):
    """Last on ``sys.meta_path`` of a restored interpreter: the first import of a module
    of ``packages`` that is in neither memory nor the file system fetches ``wheels``
    (their URLs), unpacks them into ``site_packages`` and finds the module there."""

    def __init__(
        self,
        packages: Iterable[str],
        wheels: Sequence[str],
        site_packages: str,
        fetch: Fetch,
    ) -> None:
        super().__init__(packages, fetch)
        self.packages = self.names
        self.wheels = tuple(wheels)
        self.site_packages = site_packages

    def fetch_all(self, fullname: str) -> None:
        print(
            f"ruleslab: {fullname!r} was not in the snapshot: fetching the packages' wheels",
            file=sys.stderr,
        )
        for url in self.wheels:
            with zipfile.ZipFile(io.BytesIO(as_bytes(self.fetch(url)))) as wheel:
                wheel.extractall(self.site_packages)


def restored(
    wheels: Sequence[str],
    site_packages: str | None = None,
    fetch: Fetch | None = None,
    packages: Iterable[str] | None = None,
) -> WheelFallback:
    """What a restored interpreter needs before it serves a page: the random generator
    seeded afresh (from the system's entropy: every restore of one snapshot rolls its own
    dice) and a :class:`WheelFallback` for ``wheels`` (the URLs of the calculator's
    packages) last on ``sys.meta_path``. ``site_packages``: where they unpack (default:
    the ``site-packages`` folder on ``sys.path``); ``packages``: the top-level names those
    wheels hold (default: every top-level package or module in memory that was loaded
    from ``site_packages``). The finder.

    Raises ``RuntimeError`` if the interpreter is not one :func:`prepare` made (the app
    page's comms are not installed): such a snapshot must not serve a page."""
    import comm

    from ruleslab_widgets.app_page import PageComm

    if comm.create_comm is not PageComm:
        raise RuntimeError("this interpreter was not prepared for the app page")
    random.seed()
    if fetch is None:
        from ruleslab_widgets.app_stdlib import xhr_fetch

        fetch = xhr_fetch
    if site_packages is None:
        site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    if packages is None:
        packages = _site_packages_modules(site_packages)
    finder = WheelFallback(packages, wheels, site_packages, fetch)
    sys.meta_path.append(finder)
    return finder


def check(key: str = "lifting") -> str:
    """A restored interpreter trusted only once it computes: calculator ``key`` run at its
    defaults (through its fields' own parse), the text of its first figure. Whatever a
    damaged snapshot makes of this (an exception, a hang: the worker's time limit), the
    snapshot is dropped and Python started as usual."""
    from ruleslab.calculators import get

    calc = get(key)
    result = calc.run({p.name: p.parse(p.default) for p in calc.params})
    text = result.figures()[0].text
    if not isinstance(text, str) or not text:
        raise RuntimeError(f"{key} computed no figure")
    return text


def _site_packages_modules(site_packages: str) -> set[str]:
    """The top-level names of the modules in memory that were loaded from
    ``site_packages``."""
    prefix = site_packages.rstrip("/") + "/"
    names: set[str] = set()
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        if isinstance(origin, str) and origin.startswith(prefix):
            names.add(name.partition(".")[0])
    return names
