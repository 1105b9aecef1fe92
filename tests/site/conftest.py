"""Shared by the checks of a built site (``RULESLAB_SITE``) that run scripts under Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


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
