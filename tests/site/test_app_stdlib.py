"""The app page's cut-down standard library, run as its worker runs it (Pyodide under Node).

``tests/tools/app_stdlib_check.mjs`` starts Pyodide on the built site's
``app_stdlib.zip`` and app lock with :mod:`ruleslab_widgets.app_stdlib`'s
fallback installed, has every calculator start from a link with a bad value,
compute, roll and share, and then imports modules the app never uses.
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
from tools.build_app import APP_STDLIB, APP_STDLIB_ZIP, STDLIB_ZIP

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "tests" / "tools" / "app_stdlib_check.mjs"

pytestmark = NEEDS_SITE


@pytest.fixture(scope="module")
def report(site: Path) -> dict[str, Any]:
    return run_node_check(CHECK, str(site / "static" / "pyodide"))


def test_the_app_page_imports_nothing_its_standard_library_lacks(report):
    assert report["finder"] == "installed"
    outside = sorted(set(report["used"]) - APP_STDLIB)
    assert outside == [], f"add to tools.build_app.APP_STDLIB: {outside}"
    assert report["fetches_before"] == 0  # every calculator ran on the cut-down library


def test_a_module_left_out_is_fetched_once_and_imports(report, site):
    assert report["imports"] == {
        "xml.dom.minidom": "ok",
        "unittest.mock": "ok",
        "difflib": "ok",
        "not_a_module_at_all": "ModuleNotFoundError",  # (no fetch for a name not in it)
    }
    assert report["fetched"] == [str(site.resolve() / STDLIB_ZIP)]
    assert {"xml", "unittest", "difflib"} <= set(report["whole"])


def test_the_archive_is_the_whole_ones_members_for_the_kept_modules(site):
    with zipfile.ZipFile(site / STDLIB_ZIP) as whole, zipfile.ZipFile(site / APP_STDLIB_ZIP) as cut:
        kept = {i.filename: cut.read(i) for i in cut.infolist() if i.filename != MANIFEST}
        manifest = json.loads(cut.read(MANIFEST))
        tops = set()
        for info in whole.infolist():
            top = info.filename.split("/")[0].removesuffix(".pyc").removesuffix(".py")
            tops.add(top)
            if top in APP_STDLIB:
                assert kept.pop(info.filename) == whole.read(info)
        assert kept == {}
    assert manifest == {"full": "python_stdlib.zip", "dropped": sorted(tops - APP_STDLIB)}
    assert (site / APP_STDLIB_ZIP).stat().st_size < 0.6 * (site / STDLIB_ZIP).stat().st_size
