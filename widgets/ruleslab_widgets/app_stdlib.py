"""The app page's standard library: the part it uses, and the rest on demand.

The app page's worker starts Pyodide with ``static/pyodide/app_stdlib.zip``
(``stdLibURL``) instead of the whole ``python_stdlib.zip``: the build
(``tools/build_app.py``) keeps only the modules the app runtime imports (traced
at build time in Pyodide: a package may be kept with some of its modules only),
and writes the names it left out into the archive itself (:data:`MANIFEST`). A
module of the standard library that is not in it must still import:
:func:`install` puts a finder last on ``sys.meta_path`` which, the first time
something imports a module that was left out, fetches the whole library the
archive names (``app_stdlib_full.zip``, compiled as the app's own is: a module compiled
with docstrings beside those compiled without can fail, as ``email.policy`` does over
``email._policybase``; a synchronous request: an import cannot wait), puts it
on ``sys.path`` and lets the import system find the module there. Every later
import of a left-out module is then an ordinary one. The fetch says so on
stderr (the console), since it means the build's trace
(``tools.build_app.traced_stdlib``) misses a module the app uses.

Nothing here runs outside the app page: the notebook's kernel has the whole
standard library.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import json
import sys
import zipimport
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any

__all__ = [
    "FULL_PATH",
    "MANIFEST",
    "FetchOnMiss",
    "StdlibFallback",
    "as_bytes",
    "install",
    "xhr_fetch",
]

#: The member of the app's standard library archive that lists what was left out.
MANIFEST = "ruleslab-app-stdlib.json"
#: Where the whole standard library goes once fetched (beside the app's, which
#: Pyodide puts at ``/lib/python314.zip``).
FULL_PATH = "/lib/python-stdlib-full.zip"

Fetch = Callable[[str], Any]


def xhr_fetch(url: str) -> bytes:
    """``url``'s bytes by a synchronous request (allowed in a Web Worker)."""
    import js  # Pyodide's

    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", url, False)
    xhr.responseType = "arraybuffer"
    xhr.send()
    if xhr.status != 200:
        raise ImportError(f"{url}: HTTP {xhr.status}")
    return bytes(js.Uint8Array.new(xhr.response).to_py())


class FetchOnMiss(importlib.abc.MetaPathFinder):
    """Last on ``sys.meta_path``: the first import of a module under one of ``names`` (its
    top-level name) that no other finder found makes :meth:`fetch_all` fetch what holds
    them, once, and the import system then looks again. Says so on stderr (the console):
    it means something the app page was built to have in hand was not."""

    def __init__(self, names: Iterable[str], fetch: Fetch) -> None:
        self.names = frozenset(names)
        self.fetch = fetch
        self.fetched = False

    def fetch_all(self, fullname: str) -> None:
        """Fetch and put in place what holds the modules of :attr:`names`."""
        raise NotImplementedError

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if self.fetched or fullname.partition(".")[0] not in self.names:
            return None  # (once fetched, what was missing is where imports look)
        self.fetched = True
        self.fetch_all(fullname)
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(fullname, path, target)


def as_bytes(data: Any) -> bytes:
    """What a fetch gave (bytes, or a Pyodide proxy of a typed array) as bytes."""
    return bytes(data.to_py() if hasattr(data, "to_py") else data)


class StdlibFallback(FetchOnMiss):
    """Finds the left-out modules in the whole standard library, fetched once.

    ``dropped`` names modules (dotted names: ``email.mime.text``, ``difflib``), not only
    top-level ones: the app's archive may hold a package and some of its modules
    (``email``, ``email.message``) and leave the others out. Such a module is looked for
    in the package's folders, which hold only the app archive's folder: each time one is
    asked for, the package's folder in the whole archive is added to the ``__path__`` of
    every parent already imported (once fetched, the whole archive is also last on
    ``sys.path``, where a left-out top-level module is found by the import system
    itself)."""

    def __init__(self, url: str, dropped: Sequence[str], fetch: Fetch = xhr_fetch) -> None:
        super().__init__(dropped, fetch)
        self.url = url
        self.dropped = self.names

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.dropped:
            return None
        if not self.fetched:
            self.fetched = True
            self.fetch_all(fullname)
            importlib.invalidate_caches()
        parts = fullname.split(".")
        for depth in range(1, len(parts)):
            parent = sys.modules.get(".".join(parts[:depth]))
            folders = getattr(parent, "__path__", None)
            whole = "/".join([FULL_PATH, *parts[:depth]])
            if isinstance(folders, list) and whole not in folders:
                folders.append(whole)
        return importlib.machinery.PathFinder.find_spec(fullname, path, target)

    def fetch_all(self, fullname: str) -> None:
        print(
            f"ruleslab: {fullname!r} is not in the app page's standard library: "
            f"fetching {self.url}",
            file=sys.stderr,
        )
        data = self.fetch(self.url)
        with open(FULL_PATH, "wb") as out:
            out.write(as_bytes(data))
        sys.path.append(FULL_PATH)


def install(folder: str, fetch: Fetch = xhr_fetch) -> StdlibFallback | None:
    """Put the fallback last on ``sys.meta_path``, for the modules the running standard
    library archive says it left out, fetched from the whole library the archive names
    (its manifest's ``full``: compiled as the app's is, ``tools.build_app.lean_archives``)
    in ``folder`` (a URL or path, the Pyodide folder). Returns the finder, or ``None``
    when the running archive is the whole library."""
    archive = next((p for p in sys.path if p.endswith(".zip")), None)
    if archive is None:
        return None
    try:
        manifest = zipimport.zipimporter(archive).get_data(MANIFEST)
    except OSError:
        return None  # the whole standard library: nothing left out
    named = json.loads(manifest)
    url = folder.rstrip("/") + "/" + named["full"]
    finder = StdlibFallback(url, named["dropped"], fetch)
    sys.meta_path.append(finder)
    return finder
