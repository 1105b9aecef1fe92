"""ruleslab_sphinx — ruleslab calculators in Sphinx pages, pre-set and sized to fit.

In ``conf.py``::

    extensions = ["ruleslab_sphinx"]
    ruleslab_url = "https://YOUR-HOST/ruleslab/"  # where the calculator site is served

In a page::

    .. ruleslab:: lifting
       :inputs: strength=5 might=2 object_kg=450
       :theme: dark
       :start: click
       :height: auto

The directive writes ``<div data-ruleslab="lifting" data-strength="5" …>`` (with a
link to the calculator inside, for readers without JavaScript) and adds the
site's ``embed.js`` once to each page that has one; ``embed.js`` turns the
element into an iframe of the calculator's app page that keeps the height of
its content (README, "Embedding a calculator").

Options (all optional):

``:inputs:``
    The calculator's inputs by field name, as in a shared link: ``name=value``
    pairs separated by spaces, new lines or ``&``; values are written as in a
    link (``%20`` for a space, ``%0A`` for a new line), so the query of a link
    made with the calculator's **Copy link** can be pasted as it is.
``:theme:``
    ``light`` or ``dark`` (passed to the app page); by default it follows the
    reader's system setting.
``:start:``
    ``visible`` (the default: Python starts when the calculator scrolls into
    view) or ``click`` (a start button).
``:height:``
    ``auto`` (the default: the calculator's own height, following it as it
    grows) or a fixed height in pixels (100 to 10000), scrolled inside.

The key and the input names are checked against the installed ``ruleslab``
catalog: an unknown one is a build warning (the embed itself also says so in
the page). Builders other than HTML get a paragraph with a link to the
calculator instead.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qsl, urlencode

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata
    from sphinx.writers.html5 import HTML5Translator

__all__ = [
    "OWN_NAMES",
    "RuleslabDirective",
    "RuleslabEmbed",
    "embed_markup",
    "parse_inputs",
    "setup",
]

__version__ = "0.1.0"

_log = logging.getLogger(__name__)

#: Names that belong to the app page or to the embed, never to a calculator's
#: fields (``ruleslab_widgets.view.PAGE_PARAMETERS`` and ``embed.js``'s own
#: ``data-`` attributes): each has its option or is set by the embed.
OWN_NAMES = frozenset({"calculator", "theme", "embed", "start", "height", "party", "ruleslab"})

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
_MIN_HEIGHT, _MAX_HEIGHT = 100, 10_000


class RuleslabEmbed(nodes.General, nodes.Element):
    """One embedded calculator: ``key``, ``inputs`` (name, value pairs), ``theme``,
    ``start``, ``height`` and ``url`` (the calculator site's address)."""


def parse_inputs(text: str) -> list[tuple[str, str]]:
    """``:inputs:`` as (name, value) pairs, values decoded as a link's query is.

    >>> parse_inputs("strength=5 might=2&text=two%20words")
    [('strength', '5'), ('might', '2'), ('text', 'two words')]

    Raises ValueError naming the pair that is not ``name=value``, a name that is
    not a field name, or a name that has its own option.
    """
    pairs: list[tuple[str, str]] = []
    for token in re.split(r"[\s&]+", text.strip()):
        if not token:
            continue
        if "=" not in token:
            raise ValueError(
                f"“{token}” is not name=value: :inputs: takes pairs such as "
                "strength=5 might=2 (values written as in a link, %20 for a space)"
            )
        ((name, value),) = parse_qsl(token, keep_blank_values=True)
        if not _NAME.match(name):
            raise ValueError(
                f"“{name}” is not a field name: lower-case letters, digits and _ "
                "(the names a calculator's Copy link shows)"
            )
        if name in OWN_NAMES:
            raise ValueError(
                f"“{name}” is not an input"
                + (f": use the :{name}: option" if name in {"theme", "start", "height"} else "")
            )
        pairs.append((name, value))
    return pairs


def _height(text: str | None) -> str:
    value = (text or "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    number = value.removesuffix("px")
    if (
        not number.isascii()
        or not number.isdigit()
        or not (_MIN_HEIGHT <= int(number) <= _MAX_HEIGHT)
    ):
        raise ValueError(
            f"“{text}”: :height: takes auto (the calculator's own height) or a height "
            f"in pixels from {_MIN_HEIGHT} to {_MAX_HEIGHT}"
        )
    return str(int(number))


def _theme(text: str | None) -> str:
    return directives.choice(text or "", ("light", "dark"))


def _start(text: str | None) -> str:
    return directives.choice(text or "", ("visible", "click"))


def _site_url(url: str) -> str:
    url = url.strip()
    return url if url.endswith("/") else url + "/"


def _title(key: str) -> str:
    """The calculator's title from the installed catalog, or its key if unknown."""
    from ruleslab.calculators import KEYS, get

    return get(key).title if key in KEYS else key


def _check(key: str, inputs: list[tuple[str, str]], location: str) -> None:
    """Warn about a key or input names the installed catalog does not have."""
    from ruleslab.calculators import KEYS, get

    if key not in KEYS:
        _log.warning(
            "ruleslab: no calculator %r; known: %s", key, ", ".join(KEYS), location=location
        )
        return
    fields = [p.name for p in get(key).params]
    unknown = [name for name, _ in inputs if name not in fields]
    if unknown:
        _log.warning(
            "ruleslab: %s has no input %s (its fields: %s)",
            key,
            ", ".join(repr(n) for n in unknown),
            ", ".join(fields),
            location=location,
        )


def embed_markup(
    url: str,
    key: str,
    inputs: list[tuple[str, str]],
    *,
    theme: str = "",
    start: str = "",
    height: str = "auto",
    title: str = "",
    static: str = "",
) -> str:
    """The element ``embed.js`` turns into a calculator, with a plain link inside and,
    if given, the calculator's pre-rendered results (``static``), which ``embed.js``
    shows until the live calculator is ready."""
    attrs = [("data-ruleslab", key)]
    attrs += [(f"data-{name}", value) for name, value in inputs]
    attrs += [
        (f"data-{name}", value) for name, value in (("theme", theme), ("start", start)) if value
    ]
    if height != "auto":
        attrs.append(("data-height", height))
    shown = " ".join(f'{name}="{escape(value)}"' for name, value in attrs)
    link = url + "app.html?" + urlencode([("calculator", key), *inputs])
    name = title or key
    return (
        f'<div class="ruleslab-embed" {shown}><p><a href="{escape(link)}">'
        f"{escape(name)} (a ruleslab calculator)</a></p>{static}</div>\n"
    )


class RuleslabDirective(SphinxDirective):
    """``.. ruleslab:: <key>`` with ``:inputs:``, ``:theme:``, ``:start:``, ``:height:``."""

    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = False
    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "inputs": directives.unchanged,
        "theme": _theme,
        "start": _start,
        "height": _height,
    }

    def run(self) -> list[nodes.Node]:
        url = str(self.config.ruleslab_url or "")
        if not url.strip():
            raise self.error(
                "ruleslab: set ruleslab_url in conf.py to the calculator site's address, "
                'e.g. ruleslab_url = "https://YOUR-HOST/ruleslab/"'
            )
        key = self.arguments[0].strip()
        try:
            inputs = parse_inputs(self.options.get("inputs", ""))
        except ValueError as exc:
            raise self.error(f"ruleslab {key}: {exc}") from None
        _check(key, inputs, self.get_location())
        node = RuleslabEmbed(
            key=key,
            inputs=inputs,
            theme=self.options.get("theme", ""),
            start=self.options.get("start", ""),
            height=self.options.get("height", "auto"),
            url=_site_url(url),
        )
        self.set_source_info(node)
        return [node]


def _visit_html(translator: HTML5Translator, node: RuleslabEmbed) -> None:
    translator.body.append(
        embed_markup(
            node["url"],
            node["key"],
            node["inputs"],
            theme=node["theme"],
            start=node["start"],
            height=node["height"],
            title=_title(node["key"]),
            static=_static(node["key"], node["inputs"]),
        )
    )
    raise nodes.SkipNode


def _static(key: str, inputs: list[tuple[str, str]]) -> str:
    """The embed's results at its inputs, worked out now (docs-build time): shown by
    ``embed.js`` until the calculator is ready, and to readers without JavaScript.
    Empty without ``ruleslab[widgets]`` installed, or for an unknown key."""
    from ruleslab.calculators import KEYS

    if key not in KEYS:
        return ""
    try:
        from ruleslab_widgets.prerender import embed_static
    except ImportError:
        return ""
    return embed_static(key, inputs)


def _depart(translator: Any, node: RuleslabEmbed) -> None:
    """Never called: the visit skips the node."""


def _not_html(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Other builders (LaTeX, text, man…): a paragraph linking to the calculator."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(RuleslabEmbed)):
        link = node["url"] + "app.html?" + urlencode([("calculator", node["key"]), *node["inputs"]])
        para = nodes.paragraph()
        para += nodes.Text(f"{_title(node['key'])} (a ruleslab calculator): ")
        para += nodes.reference(link, link, refuri=link)
        node.replace_self(para)


def _add_script(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """``embed.js`` once on each page with an embed, deferred (it reads the page)."""
    if doctree is None:
        return
    embed = next(iter(doctree.findall(RuleslabEmbed)), None)
    if embed is not None:
        app.add_js_file(embed["url"] + "embed.js", loading_method="defer")


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directive, its node and ``ruleslab_url``."""
    app.add_config_value("ruleslab_url", "", "env", types=frozenset({str}))
    app.add_node(RuleslabEmbed, html=(_visit_html, _depart))
    app.add_directive("ruleslab", RuleslabDirective)
    app.connect("doctree-resolved", _not_html)
    app.connect("html-page-context", _add_script)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
