"""``ruleslab_widgets.app_snapshot`` on CPython: what a snapshot holds, what a restore adds.

The snapshot itself (Pyodide's memory) is made and restored in
``tests/site/test_app_snapshot.py`` and ``tests/browser/test_app_snapshot.py``.
"""

from __future__ import annotations

import importlib
import io
import random
import sys
import zipfile
from pathlib import Path

import pytest

from ruleslab_widgets import app_snapshot
from ruleslab_widgets.app_snapshot import WheelFallback, import_all


def _package(root: Path, name: str, modules: dict[str, str]) -> None:
    for rel, text in modules.items():
        path = root / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def clean_modules():
    before = set(sys.modules)
    path = list(sys.path)
    meta = list(sys.meta_path)
    yield
    for name in set(sys.modules) - before:
        del sys.modules[name]
    sys.path[:] = path
    sys.meta_path[:] = meta
    importlib.invalidate_caches()


def test_import_all_walks_every_module_and_subpackage_but_private_and_skipped(
    tmp_path, clean_modules
):
    _package(
        tmp_path,
        "rl_walk",
        {
            "__init__.py": "",
            "a.py": "",
            "_private.py": "raise RuntimeError('a private module is not walked')",
            "sub/__init__.py": "",
            "sub/b.py": "",
            "notes/readme.txt": "",  # (a folder without __init__: not a package)
            "skipped/__init__.py": "raise RuntimeError('skipped')",
        },
    )
    sys.path.insert(0, str(tmp_path))
    names = import_all("rl_walk", skip={"rl_walk.skipped"})
    assert names == ["rl_walk", "rl_walk.a", "rl_walk.sub", "rl_walk.sub.b"]
    assert "rl_walk.sub.b" in sys.modules


def test_import_all_fails_loudly_on_a_module_that_cannot_import(tmp_path, clean_modules):
    _package(tmp_path, "rl_broken", {"__init__.py": "", "bad.py": "import not_a_module_at_all"})
    sys.path.insert(0, str(tmp_path))
    with pytest.raises(ModuleNotFoundError):
        import_all("rl_broken")


def test_the_app_packages_all_import_on_cpython():
    names = import_all("ruleslab_widgets")
    assert {"ruleslab_widgets.app_page", "ruleslab_widgets.view"} <= set(names)
    assert len(import_all("ruleslab")) > 60


def _wheel(modules: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as wheel:
        for name, text in modules.items():
            wheel.writestr(name, text)
    return out.getvalue()


def test_wheel_fallback_unpacks_every_wheel_on_the_first_miss_only(tmp_path, clean_modules):
    site = tmp_path / "site-packages"
    _package(site, "rl_pkg", {"__init__.py": "", "kept.py": "X = 1"})
    sys.path.insert(0, str(site))
    import rl_pkg.kept  # noqa: F401  (in memory, as the snapshot's modules are)

    wheels = {
        "w1.whl": _wheel({"rl_pkg/__init__.py": "", "rl_pkg/late.py": "Y = 2"}),
        "w2.whl": _wheel({"rl_other/__init__.py": "Z = 3"}),
    }
    fetched: list[str] = []

    def fetch(url: str) -> bytes:
        fetched.append(url)
        return wheels[url]

    # the files are gone, as after a restore: only what was imported is there
    for path in (site / "rl_pkg").iterdir():
        path.unlink()
    importlib.invalidate_caches()
    finder = WheelFallback({"rl_pkg", "rl_other"}, list(wheels), str(site), fetch)
    sys.meta_path.append(finder)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rl_elsewhere")  # not theirs: nothing fetched
    assert fetched == []
    assert importlib.import_module("rl_pkg.late").Y == 2
    assert fetched == ["w1.whl", "w2.whl"]
    assert importlib.import_module("rl_other").Z == 3
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rl_pkg.never")  # fetched once: a true miss stays one
    assert fetched == ["w1.whl", "w2.whl"]


def test_restored_reseeds_random_and_appends_the_fallback(tmp_path, monkeypatch):
    from ruleslab_widgets.app_page import PageComm

    monkeypatch.setattr("comm.create_comm", PageComm)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    finder = app_snapshot.restored(["w.whl"], str(tmp_path), fetch=lambda url: b"")
    assert random.random() != expected
    assert sys.meta_path[-1] is finder
    assert finder.wheels == ("w.whl",)


def test_restored_refuses_an_interpreter_not_prepared_for_the_page(tmp_path, monkeypatch):
    monkeypatch.setattr("comm.create_comm", lambda *a, **k: None)
    meta = list(sys.meta_path)
    with pytest.raises(RuntimeError, match="not prepared"):
        app_snapshot.restored(["w.whl"], str(tmp_path), fetch=lambda url: b"")
    assert sys.meta_path == meta
