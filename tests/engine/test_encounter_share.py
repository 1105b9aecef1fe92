"""An encounter shared by link: its state comes back, its log is left out, and a damaged
or oversized link is refused with a message."""

from __future__ import annotations

import base64
import zlib
from dataclasses import replace

import pytest
from test_encounter_aberrant import play_21
from test_encounter_chimera import play_chimera

from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.share import MAX_LINK, parse_shared_encounter, shared_encounter


@pytest.mark.parametrize("play", [play_21, play_chimera])
def test_a_link_carries_the_state_without_the_log(play):
    p = play()
    for enc in p.states[:: max(1, len(p.states) // 6)]:
        link = shared_encounter(enc)
        assert len(link) < MAX_LINK
        assert parse_shared_encounter(link) == replace(enc, log=())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "must be text"),
        ("x" * (MAX_LINK + 1), "too long"),
        ("abc$%", "not base64url"),
        (_b64(b"not zlib at all"), "damaged"),
        (_b64(zlib.compress(b"[1, 2")), "damaged"),
        (_b64(zlib.compress(b" " * 2_000_000)), "unpacks to too much"),
        (_b64(zlib.compress(b"{}")[:-3]), "damaged"),
        (_b64(zlib.compress(b'{"format": "ruleslab-party"}')), "not a ruleslab encounter"),
    ],
)
def test_a_damaged_link_is_refused(value, message):
    with pytest.raises(EncounterError, match=message):
        parse_shared_encounter(value)


def test_a_link_nested_too_deeply_is_refused_before_it_is_read():
    """``json.loads`` of ``"[" * 100_000`` overflows Pyodide's stack (a fatal error, not a
    RecursionError): the nesting is measured first (MAX_DEPTH 16)."""
    deep = base64.urlsafe_b64encode(zlib.compress(b"[" * 100_000)).decode().rstrip("=")
    with pytest.raises(EncounterError, match="nested too deeply"):
        parse_shared_encounter(deep)
