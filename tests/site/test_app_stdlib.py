"""The app page's cut-down standard library, run as its worker runs it (Pyodide under Node).

``tests/tools/app_stdlib_check.mjs`` starts Pyodide on the built site's
``app_stdlib.zip`` and app lock with :mod:`ruleslab_widgets.app_stdlib`'s
fallback installed, has every calculator start from a link with a bad value,
compute, roll and share (what the build traced), and then imports modules the
app never uses, some of them in a package the archive holds in part.
Needs ``RULESLAB_SITE`` (a built site), Node and ``node_modules/pyodide``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from ruleslab_widgets.app_stdlib import MANIFEST
from tests.site.conftest import NEEDS_SITE, run_node_check
from tools.build_app import APP_STDLIB_FULL, APP_STDLIB_ZIP, module_of, traced_stdlib

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "tests" / "tools" / "app_stdlib_check.mjs"

pytestmark = NEEDS_SITE


@pytest.fixture(scope="module")
def report(site: Path) -> dict[str, Any]:
    return run_node_check(CHECK, str(site / "static" / "pyodide"))


def _kept(site: Path) -> set[str]:
    with zipfile.ZipFile(site / APP_STDLIB_ZIP) as cut:
        return {module_of(n) for n in cut.namelist() if n.endswith(".pyc")}


def test_the_app_page_imports_nothing_its_standard_library_lacks(report, site):
    assert report["finder"] == "installed"
    assert sorted(set(report["used"]) - _kept(site)) == []
    assert report["fetches_before"] == 0  # every calculator ran on the cut-down library


def test_the_archive_holds_what_the_trace_found_and_no_more(site):
    assert _kept(site) == traced_stdlib(site)
    # (submodules, not whole packages: what the app never imports of a package it uses)
    kept = _kept(site)
    assert "email.message" in kept
    assert "email.mime.text" not in kept
    assert "encodings.utf_8" in kept
    assert "encodings.cp1252" not in kept


def test_a_module_left_out_is_fetched_once_and_imports(report, site):
    assert report["imports"] == {
        "xml.dom.minidom": "ok",
        "unittest.mock": "ok",
        "shlex": "ok",
        "email.mime.text": "ok",  # (its package was loaded from the cut-down archive)
        "json.tool": "ok",
        "not_a_module_at_all": "ModuleNotFoundError",  # (no fetch for a name not in it)
        "email.not_a_module_at_all": "ModuleNotFoundError",
    }
    assert report["fetched"] == [str(site.resolve() / APP_STDLIB_FULL)]
    assert {"xml.dom.minidom", "unittest.mock", "shlex", "email.mime.text"} <= set(report["whole"])


def test_the_archive_is_the_whole_ones_members_for_the_kept_modules(site):
    with (
        zipfile.ZipFile(site / APP_STDLIB_FULL) as whole,
        zipfile.ZipFile(site / APP_STDLIB_ZIP) as cut,
    ):
        infos = [i for i in cut.infolist() if i.filename != MANIFEST]
        assert {i.compress_type for i in cut.infolist()} == {zipfile.ZIP_STORED}
        kept = {i.filename: cut.read(i) for i in infos}
        manifest = json.loads(cut.read(MANIFEST))
        modules = {module_of(i.filename) for i in infos}
        dropped = set()
        for info in whole.infolist():
            name = module_of(info.filename)
            if name in modules:
                assert kept.pop(info.filename) == whole.read(info)
            elif info.filename.endswith(".pyc"):
                dropped.add(name)
        assert kept == {}
    assert manifest == {"full": "app_stdlib_full.zip", "dropped": sorted(dropped)}
