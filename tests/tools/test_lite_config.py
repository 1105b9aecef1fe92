"""tools.build_site._write_lite_config: storage names and the kernel's preloaded packages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.build_site import KERNEL_PLUGIN, SiteBuildError, _write_lite_config
from tools.pyodide_dist import KERNEL_PRELOAD


def _lite_dir(tmp_path: Path, locked: list[str]) -> Path:
    config = {
        "jupyter-config-data": {
            "litePluginSettings": {
                KERNEL_PLUGIN: {"loadPyodideOptions": {"lockFileURL": "./static/pyodide/x.json"}}
            }
        }
    }
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(config), encoding="utf-8")
    lock = tmp_path / "static" / "pyodide" / "pyodide-lock.json"
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"packages": {name: {} for name in locked}}), encoding="utf-8")
    return tmp_path


def _data(lite_dir: Path) -> dict:
    return json.loads((lite_dir / "jupyter-lite.json").read_text("utf-8"))["jupyter-config-data"]


def test_preload_becomes_the_kernels_packages(tmp_path: Path) -> None:
    locked = ["micropip", "comm", "jedi", "ipython", "parso", "piplite", "ipykernel"]
    lite = _lite_dir(tmp_path, [*locked, "pyodide-kernel"])
    _write_lite_config(lite, preload=KERNEL_PRELOAD)
    data = _data(lite)
    options = data["litePluginSettings"][KERNEL_PLUGIN]["loadPyodideOptions"]
    assert options == {
        "lockFileURL": "./static/pyodide/x.json",
        "packages": list(KERNEL_PRELOAD),
    }
    # the same names for every deploy: what a GM saved stays in view (tools.keep_notebooks)
    assert data["contentsStorageName"] == "ruleslab-contents"
    assert data["workspacesStorageName"] == "ruleslab-workspaces"


def test_no_preload_keeps_the_kernels_default(tmp_path: Path) -> None:
    lite = _lite_dir(tmp_path, [])
    _write_lite_config(lite)
    options = _data(lite)["litePluginSettings"][KERNEL_PLUGIN]["loadPyodideOptions"]
    assert "packages" not in options


def test_a_preloaded_package_must_be_locked(tmp_path: Path) -> None:
    lite = _lite_dir(tmp_path, ["micropip"])
    with pytest.raises(SiteBuildError, match="jedi"):
        _write_lite_config(lite, preload=["micropip", "jedi"])
