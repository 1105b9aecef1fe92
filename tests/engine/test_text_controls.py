"""Free text refuses invisible controls that make it show other than it is read.

U+202E (RIGHT-TO-LEFT OVERRIDE) in a combatant's name would show "Alice" as
"ecilA" and, worse, reorder the digits after it on screen while the engine reads
them in order. Every text field of every calculator refuses such characters with a
message naming the field, the line and the character; tab and line breaks are text.
"""

from __future__ import annotations

import pytest

from ruleslab import InputError, TextParam
from ruleslab.calculators import CALCULATORS

TEXT_FIELDS = [
    (calc.key, param)
    for calc in CALCULATORS
    for param in calc.params
    if isinstance(param, TextParam)
]


def test_there_are_text_fields_to_check() -> None:
    assert {key for key, _ in TEXT_FIELDS} >= {"compressed", "chimera"}


@pytest.mark.parametrize(
    ("key", "param"), TEXT_FIELDS, ids=[f"{k}.{p.name}" for k, p in TEXT_FIELDS]
)
@pytest.mark.parametrize("char", ["\u202e", "\u202a", "\u2066", "\u2069", "\x00", "\x1b", "\x7f"])
def test_every_text_field_refuses_hidden_controls(key: str, param: TextParam, char: str) -> None:
    default = str(param.default)
    lines = default.split("\n")
    lines[-1] = lines[-1] + char
    with pytest.raises(InputError) as caught:
        param.parse("\n".join(lines))
    assert caught.value.field == param.name
    message = caught.value.message
    assert message.startswith(f"{param.label}, line {len(lines)}: an invisible control character")
    assert f"U+{ord(char):04X}" in message


@pytest.mark.parametrize(
    ("key", "param"), TEXT_FIELDS, ids=[f"{k}.{p.name}" for k, p in TEXT_FIELDS]
)
def test_line_breaks_and_ordinary_unicode_stay_text(key: str, param: TextParam) -> None:
    default = str(param.default)
    assert param.parse(default) == param.parse(default.replace("\n", "\r\n"))
