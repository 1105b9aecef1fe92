"""An encounter shared by link: its state (not its log) as one short text, and back.

:func:`shared_encounter` writes :func:`~ruleslab.encounter.serial.to_dict`'s form without
the log, compressed (zlib) and base64url-encoded, for a link's ``?encounter=`` value;
:func:`parse_shared_encounter` reads it back with every check of
:func:`~ruleslab.encounter.serial.from_dict`, and refuses a damaged link, one too long, or
one that would unpack to more than :data:`MAX_UNPACKED` bytes, with a message — never
reads it as something else.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import replace
from typing import Any

from ruleslab.encounter.chimera import ChimeraEncounter
from ruleslab.encounter.log import EncounterError
from ruleslab.encounter.serial import from_dict, read_json, to_dict
from ruleslab.encounter.state import Encounter

__all__ = ["MAX_LINK", "MAX_UNPACKED", "parse_shared_encounter", "shared_encounter"]

MAX_LINK = 16_000
"""The longest link value read (characters)."""
MAX_UNPACKED = 1_000_000
"""The most bytes a link may unpack to."""

_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
WHAT = "This link's encounter"


def shared_encounter(enc: Encounter | ChimeraEncounter) -> str:
    """``enc`` without its log, as a link's value."""
    data = to_dict(replace(enc, log=()))
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def parse_shared_encounter(value: Any) -> Encounter | ChimeraEncounter:
    """The encounter a link carries (:func:`shared_encounter`), every field checked."""
    if not isinstance(value, str):
        raise EncounterError("encounter", f"{WHAT} must be text.")
    if len(value) > MAX_LINK:
        raise EncounterError("encounter", f"{WHAT} is too long: at most {MAX_LINK:,} characters.")
    value = value.rstrip("=")
    if not set(value) <= _B64:
        raise EncounterError("encounter", f"{WHAT} is damaged (not base64url text).")
    try:
        packed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        unpack = zlib.decompressobj()
        raw = unpack.decompress(packed, MAX_UNPACKED)
        if unpack.unconsumed_tail:
            raise EncounterError("encounter", f"{WHAT} unpacks to too much to be one.")
        if not unpack.eof:
            raise ValueError("cut short")
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, ValueError) as e:
        raise EncounterError("encounter", f"{WHAT} is damaged ({e}).") from None
    return from_dict(read_json(text, "encounter", WHAT, "is damaged"))
