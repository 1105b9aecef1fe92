"""The widgets' icon without Font Awesome's font: the roll button's dice, drawn by the
bundle's icon stylesheet (``tools.build_app.icons_css``), in the static calculator and
in the live one, at a desktop's and a phone's width, light and dark.

The icon is read off a screenshot: its box is 1.25em by 1em of the button's text (the
dice's view box is 640 by 512), part of it in the button's text colour and the rest in
its background, the same in the static calculator and in the live one that replaces it;
no font file is asked for.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import pytest

from tests.browser.test_prerender import STATIC, open_held
from tests.browser.test_theme_layout import _rgba

pytestmark = pytest.mark.browser

ROLL_ICON = ".rl-roll-button i.fa-dice"
SIZES = [(1280, 900), (390, 844)]


def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels (row by row) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8, depth
            assert colour in (2, 6), colour
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                near = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + near) & 255
        rows.append(line)
        prev = line
    pixels = [
        (row[x * channels], row[x * channels + 1], row[x * channels + 2])
        for row in rows
        for x in range(width)
    ]
    return width, height, pixels


def icon_reading(page: Any, selector: str) -> dict[str, float]:
    """The icon's box against its button's font size, and the share of its pixels in the
    button's text colour (the rest in its background)."""
    icon = page.locator(selector).first
    icon.scroll_into_view_if_needed()
    box = icon.bounding_box()
    assert box is not None, selector
    font_px, color, background = icon.evaluate(
        """(i) => { const b = getComputedStyle(i.closest('button'));
                    return [parseFloat(b.fontSize), b.color, b.backgroundColor]; }"""
    )
    ink, paper = _rgba(color)[:3], _rgba(background)[:3]
    assert ink != paper
    _, _, pixels = png_pixels(icon.screenshot())

    def far(p: tuple[float, ...], q: tuple[float, ...]) -> float:
        return sum((a - b) ** 2 for a, b in zip(p, q, strict=True))

    def nearer_ink(p: tuple[float, ...]) -> bool:
        return far(p, ink) < far(p, paper)

    return {
        "width_em": box["width"] / font_px,
        "height_em": box["height"] / font_px,
        "ink": sum(map(nearer_ink, pixels)) / len(pixels),
    }


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_dice_icon_is_drawn_static_and_live_without_a_font(browser, base_url, size, theme):
    context, held, page = open_held(browser, base_url, f"calculator=dice_pool&theme={theme}", size)
    fonts: list[str] = []
    page.on("request", lambda r: r.resource_type == "font" and fonts.append(r.url))
    try:
        static = icon_reading(page, f"{STATIC} {ROLL_ICON}")
        held.release()
        page.wait_for_function(
            "() => window.ruleslab.live && !document.querySelector('.rl-prerender')",
            timeout=180_000,
        )
        live = icon_reading(page, f".rl-calc-dice_pool {ROLL_ICON}")  # (the static one is gone)
    finally:
        context.close()
    for reading in (static, live):
        assert reading["width_em"] == pytest.approx(1.25, abs=0.05), reading
        assert reading["height_em"] == pytest.approx(1.0, abs=0.05), reading
        # the dice (two dice, drawn solid) cover about half of their box
        assert 0.3 < reading["ink"] < 0.7, reading
    assert live["ink"] == pytest.approx(static["ink"], abs=0.05)
    assert fonts == []


def test_the_dice_icon_keeps_the_text_colour_in_forced_colours(browser, base_url):
    """In forced colours (Windows' high contrast) backgrounds are the system's: the icon,
    a background in the text's colour, opts out and takes the forced text colour."""
    context, _held, page = open_held(browser, base_url, "calculator=dice_pool", (1280, 900))
    try:
        page.emulate_media(forced_colors="active")
        reading = icon_reading(page, f"{STATIC} {ROLL_ICON}")
    finally:
        context.close()
    assert 0.3 < reading["ink"] < 0.7, reading
