"""The embed memory breakdown's pure part: reading a memory-infra dump (no browser)."""

from __future__ import annotations

from bench.embed_memory import (
    ALLOCATORS,
    CONTROLS,
    _allocators,
    _per_extra,
    control_pages,
    frames_host,
)


def _dump(pid: int, sizes: dict[str, int]) -> dict:
    """A trace event of one process's memory dump, as Chrome writes it (sizes in hex)."""
    allocators = {name: {"attrs": {"size": {"value": format(n, "x")}}} for name, n in sizes.items()}
    return {"ph": "v", "pid": pid, "args": {"dumps": {"allocators": allocators}}}


def test_a_dump_is_summed_over_processes_by_allocator_name():
    events = [
        {"ph": "X", "name": "a task", "pid": 1},  # (not a dump)
        _dump(1, {"v8": 3_000_000, "v8/main/heap/new_space": 1_000_000, "cc/tile_memory": 5}),
        _dump(2, {"v8": 2_000_000, "malloc": 7, "malloc/partitions": 6, "unlisted": 99}),
    ]
    sizes = _allocators(events)
    assert sizes["v8"] == 5_000_000
    assert sizes["v8/main/heap/new_space"] == 1_000_000
    assert sizes["cc/tile_memory"] == 5
    assert sizes["malloc"] == 7  # (its parts are not added to it)
    assert "unlisted" not in sizes
    assert set(sizes) <= set(ALLOCATORS)


def test_per_extra_is_five_against_one_over_four_in_mb():
    one = _allocators([_dump(1, {"blink_gc": 2_000_000})])
    five = _allocators([_dump(1, {"blink_gc": 10_000_000})])
    assert _per_extra(one, five)["blink_gc"] == 2.0
    assert _per_extra(one, five)["v8"] == 0.0


def test_control_pages_are_each_calculators_page_with_and_without_the_bundle(tmp_path):
    site = tmp_path / "site"
    (site / "static" / "app").mkdir(parents=True)
    (site / "static" / "app" / "app.js").write_text("// the bundle", encoding="utf-8")
    (site / "calculators").mkdir()
    for key in ("lifting", "falling"):
        page = f"<!doctype html><html><body><p>{key}</p></body></html>"
        (site / "calculators" / f"{key}.html").write_text(page, encoding="utf-8")
    folder = tmp_path / "controls"
    folder.mkdir()
    pages = control_pages(site, folder, ["lifting", "falling"])
    assert pages["blank"] == ["blank.html", "blank.html"]
    assert pages["static"] == ["calculators/lifting.html", "calculators/falling.html"]
    static = (folder / pages["static"][1]).read_text(encoding="utf-8")
    assert static == "<!doctype html><html><body><p>falling</p></body></html>"
    bundle = (folder / pages["bundle"][0]).read_text(encoding="utf-8")
    assert bundle == (
        "<!doctype html><html><body><p>lifting</p>"
        '<script>window.ruleslab = { queue: [] };</script><script type="module" '
        'src="static/app/app.js"></script></body></html>'
    )
    # (the pages' base is the site's root: the bundle and stylesheets are the site's own)
    assert (folder / "static" / "app" / "app.js").read_text(encoding="utf-8") == "// the bundle"
    assert [c for c, _ in CONTROLS] == ["blank", "static", "bundle"]
    assert set(pages) == {c for c, _ in CONTROLS}


def test_a_frames_host_page_holds_one_sized_frame_per_url(tmp_path):
    name = frames_host(tmp_path, "two.html", ["http://a/x.html", "http://a/y.html"], 1264.4, 999.6)
    html = (tmp_path / name).read_text(encoding="utf-8")
    assert html.count("<iframe") == 2
    assert 'src="http://a/y.html"' in html
    assert html.count("width:1264px;height:1000px") == 2
