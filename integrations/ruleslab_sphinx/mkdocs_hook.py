"""A MkDocs hook: embeds pre-rendered at docs-build time, as the Sphinx directive does.

In the docs folder's ``ruleslab_hook.py`` (README, "Embedding: plain HTML, Sphinx,
MkDocs")::

    from ruleslab_sphinx.mkdocs_hook import on_page_content  # noqa: F401

and in ``mkdocs.yml``::

    hooks:
      - ruleslab_hook.py

Each empty ``<div data-ruleslab="<key>" data-<field>="…">`` of a page (the plain
HTML recipe) gets the calculator's figures at those inputs inside
(:func:`ruleslab_widgets.prerender.embed_static`), which ``embed.js`` shows until
the live calculator is ready. Without ``ruleslab[widgets]`` installed where the
docs are built, or for an unknown key, the element is left as it is (``embed.js``
then says what is wrong in the page).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from ruleslab_sphinx import OWN_NAMES

__all__ = ["on_page_content", "prerender_embeds"]

_EMBED = re.compile(r"(<div\b[^>]*\bdata-ruleslab\s*=[^>]*>)\s*(</div>)", re.IGNORECASE)


class _Attrs(HTMLParser):
    """The attributes of one start tag."""

    def __init__(self, tag: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attrs: list[tuple[str, str]] = []
        self.feed(tag)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attrs = [(k, v or "") for k, v in attrs]


def prerender_embeds(html: str) -> str:
    """``html`` with each empty embed element holding its pre-rendered results."""
    try:
        from ruleslab.calculators import KEYS
        from ruleslab_widgets.prerender import embed_static
    except ImportError:  # (ruleslab[widgets] not installed: embeds as they are)
        return html

    def fill(match: re.Match[str]) -> str:
        attrs = dict(_Attrs(match.group(1)).attrs)
        key = attrs.get("data-ruleslab", "").strip()
        if key not in KEYS:
            return match.group(0)
        inputs = [
            (name[5:], value)
            for name, value in _Attrs(match.group(1)).attrs
            if name.startswith("data-") and name[5:] not in OWN_NAMES
        ]
        return f"{match.group(1)}{embed_static(key, inputs)}{match.group(2)}"

    return _EMBED.sub(fill, html)


def on_page_content(html: str, **_kwargs: Any) -> str:
    """MkDocs' ``on_page_content`` event: the page's HTML with its embeds pre-rendered."""
    return prerender_embeds(html)
