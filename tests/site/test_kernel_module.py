"""The notebook kernel's Pyodide module (``lite/kernel-pyodide.mjs``), run under Node.

``tests/tools/kernel_module_check.mjs`` imports the built site's
``static/pyodide/ruleslab-kernel.mjs`` beside Pyodide's own files and:

* starts an interpreter early (``bootEarly``, as ``kernel-worker.mjs`` does when
  its page loads), then asks as the kernel does (``loadPyodide`` with the same
  options and its own ``stdout``): the kernel gets that interpreter, prints
  through its own handler, and a second call gets a new one; asked with other
  options, the kernel gets a new interpreter and a warning says why;
* checks the notebook's drive (the current directory) on ``sys.path``: last,
  searched only once the kernel has started, a file written later still found,
  never hiding the standard library.

Needs ``RULESLAB_SITE`` (a built site), Node and ``node_modules/pyodide``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.site.conftest import NEEDS_SITE, run_node_check

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "tests" / "tools" / "kernel_module_check.mjs"

pytestmark = NEEDS_SITE


def _check(site: Path, mode: str) -> dict[str, Any]:
    return run_node_check(CHECK, str(site / "static" / "pyodide"), mode, timeout=300)


def test_the_kernel_takes_over_the_interpreter_started_with_the_page(site: Path) -> None:
    report = _check(site, "same")
    assert report["same"] is True
    assert report["stdout"] == ["from the kernel"]
    assert "micropip" in report["loaded"]
    assert report["again_new"] is True  # the early start is handed over once
    assert report["infos"] == [
        "ruleslab: the kernel took over the interpreter started with the page"
    ]
    assert report["warnings"] == []


def test_a_kernel_with_other_options_gets_its_own_interpreter(site: Path) -> None:
    report = _check(site, "other")
    assert report["same"] is False
    assert report["stdout"] == ["from the kernel"]
    assert "comm" in report["loaded"]
    assert report["infos"] == []
    assert [w for w in report["warnings"] if "options differ" in w] != []


def test_the_drive_is_searched_last_and_once_the_kernel_has_started(site: Path) -> None:
    seen = json.loads(_check(site, "drive")["result"])
    assert seen == {
        "path_last": "",
        "empty_entries": 1,
        "before_start": "not found",  # the kernel's own start never looks there
        "after_start": 1,
        "written_later": 2,
        "stdlib_first": True,
    }
