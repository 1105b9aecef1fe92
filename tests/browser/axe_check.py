"""axe-core in the browser tests: the accessibility rules a page breaks.

axe-core comes from npm (``node_modules/axe-core``, or the file named by
``RULESLAB_AXE``) and is injected into the page under test: nothing is fetched
from elsewhere. Without it the test is skipped, saying why.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def axe_source() -> Path:
    """axe-core's script (skips the test when it is not installed)."""
    path = Path(os.environ.get("RULESLAB_AXE") or ROOT / "node_modules/axe-core/axe.min.js")
    if not path.is_file():
        pytest.skip(f"axe-core not installed ({path}): npm install axe-core")
    return path


def axe_violations(page: Any, options: dict[str, Any] | None = None) -> list[str]:
    """Every axe-core violation on ``page`` as "rule: target …" lines (empty: none)."""
    page.add_script_tag(path=str(axe_source()))
    found = page.evaluate(
        """async (options) => {
          const result = await axe.run(document, options || {});
          return result.violations.map((v) => v.id + " (" + v.impact + "): " +
            v.nodes.map((n) => n.target.join(" ")).join(", "));
        }""",
        options,
    )
    return list(found)
