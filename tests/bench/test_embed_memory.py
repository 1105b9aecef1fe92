"""The embed memory breakdown's pure part: reading a memory-infra dump (no browser)."""

from __future__ import annotations

from bench.embed_memory import ALLOCATORS, _allocators, _per_extra


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
