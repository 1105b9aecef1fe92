"""Helpers shared by the tests that hold a calculator's whole outcome to the one the
unoptimised engine gave (issue 23): ``test_chimera_exact_speed`` and
``test_henchmen_exact_speed``.

Imported by name, like ``dice_oracle`` (see ``conftest.py``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from types import ModuleType
from urllib.parse import parse_qsl

import pytest

from ruleslab.calculators import get


def golden() -> ModuleType:
    """The golden sets' parser and runner (tests/golden/generate.py): not part of the test
    tree copied into Pyodide, so the tests that use it run on CPython only."""
    if sys.platform == "emscripten":
        pytest.skip("tests.golden is not in the in-Pyodide test tree")
    from tests.golden import generate

    return generate


def form_inputs(key: str, query: str) -> dict[str, object]:
    """What the form of ``key``'s calculator sends for a link with ``query``: every field's
    default as the form writes it (a whole number as its digits), then the query's fields."""
    given: dict[str, object] = {}
    for p in get(key).params:
        d = p.default
        is_int = isinstance(d, int) and not isinstance(d, bool)
        given[p.name] = str(int(d)) if is_int or (isinstance(d, float) and d.is_integer()) else d
    return {**given, **dict(parse_qsl(query))}


def assert_outcome_is(key: str, query: str, digest: str, texts: dict[str, str]) -> None:
    """The whole outcome of ``key``'s calculator on the link ``query`` (every figure with its
    exact value, every step, every panel, every "Roll it" log, as
    ``tests/golden/generate.compute`` shows it) has the SHA-256 ``digest``, and the figures
    named in ``texts`` show those texts."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the exact values may have thousands of digits
    try:
        outcome = golden().compute(get(key), form_inputs(key, query)).outcome
        text = json.dumps(outcome, sort_keys=True, ensure_ascii=False)
    finally:
        sys.set_int_max_str_digits(limit)
    shown = {f["key"]: f["text"] for f in outcome["figures"]}
    assert {k: shown[k] for k in texts} == texts
    assert hashlib.sha256(text.encode()).hexdigest() == digest
