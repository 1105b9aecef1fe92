"""tools.early_kernel: the notebook pages load the early kernel start, once, after their
configuration element (on a hand-made site)."""

from __future__ import annotations

import pytest

from tools.early_kernel import (
    PAGES,
    SCRIPT,
    EarlyKernelError,
    check_early_kernel,
    write_early_kernel,
)

PAGE = """<!doctype html><html><head>
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>
<script src="../config-utils.js"></script></head><body></body></html>
"""


def _site(tmp_path, pages=PAGES):
    for rel in pages:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(PAGE, encoding="utf-8")
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "index.html").write_text(PAGE, encoding="utf-8")
    return tmp_path


def test_the_notebook_pages_load_the_script_once_after_their_configuration(tmp_path):
    site = _site(tmp_path)
    assert check_early_kernel(site) == [
        f"{SCRIPT} missing",
        *(f"{rel} does not load {SCRIPT}" for rel in PAGES),
    ]
    write_early_kernel(site)
    write_early_kernel(site)  # a second run adds nothing
    tag = '<script src="../static/ruleslab/early-kernel.js" defer></script>'
    for rel in PAGES:
        text = (site / rel).read_text(encoding="utf-8")
        assert text.count(tag) == 1
        assert text.index("jupyter-config-data") < text.index(tag) < text.index("config-utils")
    # tree/ sends a notebook on to notebooks/: starting a kernel there would be wasted
    assert "early-kernel" not in (site / "tree" / "index.html").read_text(encoding="utf-8")
    assert "sessions.startNew" in (site / SCRIPT).read_text(encoding="utf-8")
    assert check_early_kernel(site) == []


def test_a_site_without_a_notebook_page_is_refused(tmp_path):
    site = _site(tmp_path, pages=PAGES[:1])
    with pytest.raises(EarlyKernelError, match=r"notebooks/index\.html not found"):
        write_early_kernel(site)
