"""The shipped-snapshot benchmark's pure part: the snapshot's round trip and the report."""

from __future__ import annotations

import base64
import gzip

import pytest

from bench.shipped_snapshot import Snapshot, median, ratio, report


def test_the_snapshot_goes_back_to_the_page_byte_for_byte():
    packed = gzip.compress(b"\0" * 1000 + b"python heap" * 10)
    read = ["http://127.0.0.1:1/static/app/snapshot-abc.bin", base64.b64encode(packed).decode()]
    snapshot = Snapshot.from_page(read)
    assert snapshot.packed == packed
    assert snapshot.for_page() == read
    raw, best = snapshot.sizes()
    assert raw == 1000 + 110
    assert best == len(gzip.compress(b"\0" * 1000 + b"python heap" * 10, compresslevel=9))


def test_a_page_that_kept_no_snapshot_is_an_error():
    with pytest.raises(RuntimeError, match="no snapshot"):
        Snapshot.from_page(None)


def test_medians_and_ratios_leave_failed_loads_out():
    assert median([3.0, None, 1.0, 2.0]) == 2.0
    assert median([None]) is None
    assert ratio(1.0, 4.0) == 0.25
    assert ratio(None, 4.0) is None
    assert ratio(1.0, 0.0) is None


def test_the_report_gives_each_page_against_bare_pyodide_and_the_bytes():
    text = report(
        {"bare": [3.0, 2.0, 4.0], "cold": [2.5, 2.7, 2.6], "kept": [1.0, None, 1.2]},
        {"cold": 8.33, "kept": 6.35},
        (40_000_000, 8_000_000, 7_900_000),
        (0.5, 0.25, 0.125),
    )
    # medians: bare 3.0, cold 2.6, kept 1.1 (the failed run left out)
    assert "| bare Pyodide, cold | 3.00 s | 3.00, 2.00, 4.00 | 1.00× |  |" in text
    assert "| app page interactive, cold | 2.60 s | 2.50, 2.70, 2.60 | 0.87× | 8.33 MB |" in text
    assert "| 1.10 s | 1.00, failed, 1.20 | 0.37× | 6.35 MB |" in text
    assert "40.0 MB of memory; 8.00 MB as the page keeps it" in text
    assert "about 14.25 MB gzip" in text  # 6.35 + 7.90
    assert "0.50 / 0.25 / 0.12" in text
