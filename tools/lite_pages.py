"""Where the build puts its own scripts into JupyterLite's built pages.

Each JupyterLite page (``lab/index.html``, ``notebooks/index.html``, …) holds a
``<script id="jupyter-config-data">`` element, which its ``config-utils.js``
reads before the app starts. Scripts the build adds go right after that
element (:func:`insert_after_config`), and refer to the site's files by a URL
relative to the page (:func:`relative_src`). Used by :mod:`tools.offline` and
:mod:`tools.early_kernel`. Tested through both (tests/tools/test_offline.py, test_early_kernel.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["CONFIG_ELEMENT", "KERNEL_PLUGIN", "insert_after_config", "relative_src"]

#: The Pyodide kernel's plugin, whose settings ``jupyter-lite.json`` holds under
#: ``litePluginSettings``.
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: A page's configuration element, whole.
CONFIG_ELEMENT = re.compile(r"<script[^>]*\bid=\"jupyter-config-data\"[^>]*>.*?</script>", re.S)


def relative_src(site: Path, page: Path, rel: str) -> str:
    """The URL of the site's file ``rel`` (relative to the site root) from ``page``."""
    return Path(os.path.relpath(Path(site) / rel, Path(page).parent)).as_posix()


def insert_after_config(text: str, html: str) -> str | None:
    """``text`` (a page) with ``html`` on a line of its own right after the configuration
    element, or ``None`` if the page has none."""
    match = CONFIG_ELEMENT.search(text)
    if match is None:
        return None
    return text[: match.end()] + "\n" + html + text[match.end() :]
