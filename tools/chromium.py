"""How the project starts Chromium (Debian's ``/usr/bin/chromium``) for tests and benchmarks.

Playwright cannot download browsers here, so it drives the system Chromium.
The flags keep Chromium from reaching for Google's services (this machine has
no network beyond the package registries) and make it run as root, headless.
"""

from __future__ import annotations

import os

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

CHROMIUM = os.environ.get("RULESLAB_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
