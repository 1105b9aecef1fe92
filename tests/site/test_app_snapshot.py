"""The app page's memory snapshot, made and restored as the site does it (Pyodide under Node).

``tests/tools/snapshot_check.mjs`` prepares an interpreter as ``app/snapshot.mjs`` does,
snapshots it, restores it with npm's runtime script and with the site's fixed copy
(``static/app/pyodide.asm.mjs``), and has a restored interpreter serve every calculator
and import a module the snapshot lacks. Needs ``RULESLAB_SITE`` (a built site), Node and
``node_modules/pyodide``. The browser's side (Cache Storage, the page starting the maker,
the worker restoring) is in ``tests/browser/test_app_snapshot.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleslab.calculators import CALCULATORS
from tests.site.conftest import NEEDS_SITE, run_node_check

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "tests" / "tools" / "snapshot_check.mjs"

pytestmark = NEEDS_SITE


@pytest.fixture(scope="module")
def report(site: Path) -> dict[str, Any]:
    return run_node_check(CHECK, str(site))


def test_every_module_of_the_app_packages_is_in_the_snapshot(report):
    prepared = set(report["prepared"])
    assert {"ruleslab", "ruleslab_widgets.app_page", "ruleslab_widgets.view"} <= prepared
    assert {f"ruleslab.calculators.{c.key}" for c in CALCULATORS} <= prepared


def test_the_sites_runtime_restores_the_snapshot_and_npms_only_if_its_memory_never_grew(report):
    # Pyodide 314.0.6 starts with 30 MiB of memory and copies a snapshot into it without
    # growing it (pyodide/pyodide#6254): a snapshot of a memory that grew past that (the
    # app page's was 36 MiB with docstrings; 30 MiB since its archives are compiled
    # without them, tools.build_app.lean_archives) fails with npm's runtime script. The
    # site's fixed copy restores it either way.
    grew = report["snapshot_bytes"] - 30 * 2**20 >= 2**16  # (a WebAssembly page or more)
    assert ("out of bounds" in report["unfixed"]) == grew, report["unfixed"]
    assert report["unfixed"] == "restored" or grew
    assert len(report["draws"]) == 4  # (all four restored by the fixed copy)


def test_two_restores_roll_differently_because_restored_reseeds(report):
    seeded_a, seeded_b, plain_c, plain_d = report["draws"]
    assert plain_c == plain_d  # one snapshot, one generator state: the same "random" draw
    assert seeded_a != seeded_b  # restored() seeds it afresh each time
    assert plain_c not in (seeded_a, seeded_b)


def test_a_restored_interpreter_serves_every_calculator_without_fetching(report):
    assert set(report["sessions"]) == {c.key for c in CALCULATORS}
    for key, messages in report["sessions"].items():
        assert isinstance(messages, int), (key, messages)  # (else: the error it raised)
        assert messages > 50, key
    assert report["fetched_by_pages"] == []  # every module they use was in the snapshot


def test_a_module_the_snapshot_lacks_fetches_the_wheels_once_and_imports(report):
    assert report["imports"] == {
        "psygnal.containers": "ok",
        "not_a_module_at_all": "ModuleNotFoundError",  # (nothing fetched for it)
    }
    assert report["fetched"] == report["wheels"]
    assert len(report["wheels"]) == 7
