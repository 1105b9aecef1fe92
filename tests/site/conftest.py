"""Shared by the checks of a built site (``RULESLAB_SITE``) that run scripts under Node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
#: Where ``scripts/test`` says the built site is.
SITE_ENV = "RULESLAB_SITE"

#: Every module here checks a built site: skipped (with this reason) without one.
NEEDS_SITE = pytest.mark.skipif(
    not os.environ.get(SITE_ENV),
    reason=f"set {SITE_ENV} to a built site (python tools/build_site.py) to check it",
)


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site under test."""
    path = Path(os.environ[SITE_ENV])
    assert (path / "jupyter-lite.json").is_file(), f"{path} is not a built JupyterLite site"
    return path


def run_node_check(script: Path, *args: str, timeout: float = 600) -> dict[str, Any]:
    """Run ``node script *args`` from the repository; the JSON object its last line prints."""
    if shutil.which("node") is None:
        pytest.fail("node is required: install Node.js 20")
    proc = subprocess.run(
        ["node", str(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result
