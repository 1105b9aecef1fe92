"""tools.build_app.app_lock: the app page's lock, cut from the site's by hand-made examples."""

from __future__ import annotations

import pytest

from tools.build_app import AppBuildError, app_lock


def _entry(name: str, *depends: str) -> dict[str, object]:
    return {
        "name": name,
        "file_name": f"{name}-1-py3-none-any.whl",
        "sha256": name * 2,
        "depends": list(depends),
    }


SITE_LOCK = {
    "info": {"python": "3.14.2"},
    "packages": {
        "ruleslab": _entry("ruleslab", "anywidget", "ipywidgets"),
        "anywidget": _entry("anywidget", "ipywidgets", "psygnal"),
        "ipywidgets": _entry("ipywidgets", "comm", "ipython", "traitlets"),
        "ipython": _entry("ipython", "pygments", "traitlets"),
        "pygments": _entry("pygments"),
        "comm": _entry("comm"),
        "traitlets": _entry("traitlets"),
        "psygnal": _entry("psygnal"),
        "jedi": _entry("jedi", "parso"),
        "parso": _entry("parso"),
        "micropip": _entry("micropip"),
    },
}


def test_keeps_ruleslab_and_its_needs_without_ipython():
    lock = app_lock(SITE_LOCK)
    assert lock["info"] == SITE_LOCK["info"]
    assert set(lock["packages"]) == {
        "ruleslab",
        "anywidget",
        "ipywidgets",
        "comm",
        "traitlets",
        "psygnal",
    }
    assert lock["packages"]["ipywidgets"]["depends"] == ["comm", "traitlets"]
    for name, entry in lock["packages"].items():
        site = SITE_LOCK["packages"][name]
        assert (entry["file_name"], entry["sha256"]) == (site["file_name"], site["sha256"])
    assert SITE_LOCK["packages"]["ipywidgets"]["depends"] == ["comm", "ipython", "traitlets"]


def test_a_dependency_missing_from_the_site_lock_is_named():
    broken = {"info": {}, "packages": {"ruleslab": _entry("ruleslab", "anywidget")}}
    with pytest.raises(AppBuildError, match="'anywidget'"):
        app_lock(broken)
