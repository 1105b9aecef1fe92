"""The rules notes (``docs/rules-notes/*.md``) as pages of the site.

Every note file becomes ``rules-notes/<name>.html`` in the built site
(``README.md`` becomes ``rules-notes/index.html``, the notes' index), each
``## RN-…`` heading with that id as its ``id`` (so ``falling.html#RN-FALL-1``
opens at the note), in the app page's light and dark themes (``?theme=`` or
the system's setting), readable on a phone, with links back to the calculators.

The notes use a small part of Markdown, and this module renders exactly that
part, escaping everything else as text: ``#`` headings, paragraphs, ``-`` and
``1.`` lists (a ``*`` or ``+`` at the start of a line is text: the notes quote
formulas such as "(Stamina - 1) * 2"), block quotes, fenced code, ``**bold**``,
``*emphasis*``, ```code``` and ``[links](other.md)``. A citation of a note
(``RN-FALL-4``) in a note's text links to that note.

The widgets link citations too (:mod:`ruleslab_widgets.notes`); they learn which
ids exist, and on which page, from ``ruleslab_widgets/_notes_index.py``, which
:func:`index_module` generates from the notes (``tools/make_content.py`` writes
it and ``--check`` fails when it is stale).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ruleslab.calculators import KEYS, get
from tools import REPO

__all__ = [
    "INDEX_MODULE",
    "NOTES_DIR",
    "SITE_FOLDER",
    "THEME_SCRIPT",
    "Heading",
    "NotePage",
    "index_module",
    "inline_html",
    "note_ids",
    "note_pages",
    "page_html",
    "render_markdown",
    "write_notes",
]

NOTES_DIR = REPO / "docs" / "rules-notes"
#: The notes' folder in the built site.
SITE_FOLDER = "rules-notes"
#: The widgets' table of note ids (generated, committed).
INDEX_MODULE = REPO / "widgets" / "ruleslab_widgets" / "_notes_index.py"

#: A note's id as the notes, code and help texts cite it.
CITATION = re.compile(r"\bRN-[A-Z]+-[0-9]+\b")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^- +(.*)$")
_NUMBERED = re.compile(r"^[0-9]{1,3}\. +(.*)$")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=[\w\"'(`&])(.+?)(?<=[\w\"').`;])\*(?![\w*])")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Heading:
    """A heading of a note page: its level, id and text (plain)."""

    level: int
    id: str
    text: str


@dataclass(frozen=True)
class NotePage:
    """One note file as a page: ``source`` (``falling.md``), ``name`` (``falling.html``)."""

    source: Path
    name: str

    @property
    def text(self) -> str:
        return self.source.read_text(encoding="utf-8")


def _page_name(source: str) -> str:
    """The site page of a note file (``README.md`` is the notes' index)."""
    stem = source[: -len(".md")] if source.endswith(".md") else source
    return "index.html" if stem == "README" else f"{stem}.html"


def note_pages(notes_dir: Path = NOTES_DIR) -> list[NotePage]:
    """Every note file, the index (``README.md``) first, then by name."""
    files = sorted(notes_dir.glob("*.md"), key=lambda p: (p.name != "README.md", p.name))
    return [NotePage(path, _page_name(path.name)) for path in files]


def _heading_id(text: str, taken: set[str]) -> str:
    """A heading's id: its note id (``RN-FALL-1: …``), else a slug of its text."""
    match = CITATION.match(text)
    base = match.group(0) if match else (_SLUG.sub("-", text.lower()).strip("-") or "section")
    found, n = base, 2
    while found in taken:
        found, n = f"{base}-{n}", n + 1
    taken.add(found)
    return found


def note_ids(notes_dir: Path = NOTES_DIR) -> dict[str, str]:
    """Every note id (a heading's ``RN-…``) and the page holding it, e.g.
    ``{"RN-FALL-1": "falling.html", …}``. An id given twice is an error."""
    ids: dict[str, str] = {}
    for page in note_pages(notes_dir):
        for line in page.text.splitlines():
            heading = _HEADING.match(line)
            if not heading:
                continue
            match = CITATION.match(heading.group(2))
            if match:
                if match.group(0) in ids:
                    raise ValueError(f"{match.group(0)} is a heading in two notes")
                ids[match.group(0)] = page.name
    return ids


def _link_target(url: str) -> str | None:
    """A link's target on the site: another note's page, an anchor, or a web address;
    None for anything else (shown as text: it is not part of the site)."""
    if url.startswith(("https://", "http://", "#")):
        return url
    path, _, anchor = url.partition("#")
    if re.fullmatch(r"[A-Za-z0-9_-]+\.md", path):
        return _page_name(path) + (f"#{anchor}" if anchor else "")
    return None


def _emphasis(html: str) -> str:
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    return _EM.sub(r"<em>\1</em>", html)


def _cite(html: str, ids: dict[str, str], page: str) -> str:
    def link(match: re.Match[str]) -> str:
        note = match.group(0)
        target = ids.get(note)
        if target is None:
            return note
        href = f"#{note}" if target == page else f"{target}#{note}"
        return f'<a class="rl-note" href="{escape(href)}">{note}</a>'

    return CITATION.sub(link, html)


def _prose(text: str, ids: dict[str, str], page: str, *, cite: bool) -> str:
    """Text outside code spans: escaped, then links, emphasis and citations."""
    out, last = [], 0
    for match in _LINK.finditer(text):
        out.append(_plain(text[last : match.start()], ids, page, cite=cite))
        label = _emphasis(escape(match.group(1), quote=False))
        target = _link_target(match.group(2))
        out.append(label if target is None else f'<a href="{escape(target)}">{label}</a>')
        last = match.end()
    out.append(_plain(text[last:], ids, page, cite=cite))
    return "".join(out)


def _plain(text: str, ids: dict[str, str], page: str, *, cite: bool) -> str:
    html = _emphasis(escape(text, quote=False))
    return _cite(html, ids, page) if cite else html


def inline_html(text: str, ids: dict[str, str], page: str = "", *, cite: bool = True) -> str:
    """One block's text as HTML: code spans, links, emphasis, and (``cite``) every
    citation of a note in ``ids`` linked to it; all else escaped."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick is text
        parts[-2:] = [parts[-2] + "`" + parts[-1]]
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{escape(part, quote=False)}</code>")
        else:
            out.append(_prose(part, ids, page, cite=cite))
    return "".join(out)


def render_markdown(
    text: str, ids: dict[str, str] | None = None, page: str = ""
) -> tuple[str, list[Heading]]:
    """The notes' Markdown as HTML (see the module's docstring for what is read),
    and its headings. Citations of ids in ``ids`` link to their notes (``page``
    is the page being rendered: a note on it is linked by its anchor alone)."""
    ids = ids or {}
    lines = text.splitlines()
    blocks: list[str] = []
    headings: list[Heading] = []
    taken: set[str] = set()
    para: list[str] = []
    items: list[list[str]] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if para:
            blocks.append(f"<p>{inline_html(' '.join(para), ids, page)}</p>")
            para.clear()
        if items:
            lis = "".join(f"<li>{inline_html(' '.join(i), ids, page)}</li>" for i in items)
            blocks.append(f"<{list_tag}>{lis}</{list_tag}>")
            items.clear()
            list_tag = ""

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        i += 1
        if not stripped:
            flush()
            continue
        if stripped.startswith("```"):
            flush()
            code = []
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            blocks.append(f"<pre><code>{escape(chr(10).join(code), quote=False)}</code></pre>")
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level, words = len(heading.group(1)), heading.group(2)
            hid = _heading_id(words, taken)
            plain = re.sub(r"[`*]", "", words)
            headings.append(Heading(level, hid, plain))
            inner = inline_html(words, ids, page, cite=False)
            blocks.append(f'<h{level} id="{escape(hid)}">{inner}</h{level}>')
            continue
        if stripped.startswith(">"):
            flush()
            quoted = [stripped[1:].lstrip()]
            while i < len(lines) and lines[i].strip().startswith(">"):
                quoted.append(lines[i].strip()[1:].lstrip())
                i += 1
            inner, _ = render_markdown("\n".join(quoted), ids, page)
            blocks.append(f"<blockquote>{inner}</blockquote>")
            continue
        item = _BULLET.match(line) or _NUMBERED.match(line)
        if item:
            tag = "ul" if _BULLET.match(line) else "ol"
            if para or (items and tag != list_tag):
                flush()
            list_tag = tag
            items.append([item.group(1)])
            continue
        if items:  # an item's continuation (indented or not)
            items[-1].append(stripped)
        else:
            para.append(stripped)
    flush()
    return "\n".join(blocks), headings


#: The theme, before anything is drawn, as on the app page: ``?theme=light|dark``,
#: else the system's setting (followed if it changes). A chosen theme is kept on the
#: links to the site's own pages (not into JupyterLite's ``lab/``).
THEME_SCRIPT = """<script>
(function () {
  const asked = new URLSearchParams(window.location.search).get("theme");
  const fixed = asked === "light" || asked === "dark";
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const theme = function () {
    document.documentElement.dataset.rlTheme =
      fixed ? asked : (system && system.matches ? "dark" : "light");
  };
  theme();
  if (!fixed && system) system.addEventListener("change", theme);
  if (fixed) {
    document.addEventListener("click", function (e) {
      const a = e.target.closest && e.target.closest("a[href]");
      if (!a || a.origin !== window.location.origin || a.pathname.indexOf("/lab/") >= 0) return;
      const url = new URL(a.href);
      if (!url.searchParams.has("theme")) { url.searchParams.set("theme", asked); a.href = url; }
    }, true);
  }
})();
</script>"""

_STYLE = """<style>
:root { color-scheme: light; --bg: #fff; --fg: #1b1b1b; --muted: #474747; --link: #0b57d0;
  --line: #d0d0d0; --code: #f1f1f1; --mark: #fff4c2; }
:root[data-rl-theme="dark"] { color-scheme: dark; --bg: #161616; --fg: #e8e8e8;
  --muted: #b8b8b8; --link: #8ab4f8; --line: #3a3a3a; --code: #2a2a2a; --mark: #3b3420; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 1rem/1.55 system-ui, sans-serif; background: var(--bg);
  color: var(--fg); }
a { color: var(--link); }
.rl-nav { border-bottom: 1px solid var(--line); padding: .6em 1em; display: flex;
  flex-wrap: wrap; gap: .3em 1.2em; }
main { max-width: 46em; margin: 0 auto; padding: .5em 1em 3em; overflow-wrap: break-word; }
h1 { font-size: 1.6em; line-height: 1.25; margin: .6em 0 .4em; }
h2 { font-size: 1.2em; line-height: 1.3; margin: 1.6em 0 .4em; padding-top: .4em;
  border-top: 1px solid var(--line); scroll-margin-top: .5em; }
h2:target { background: var(--mark); outline: .3em solid var(--mark); }
code { background: var(--code); padding: 0 .2em; border-radius: 3px;
  overflow-wrap: anywhere; font-size: .95em; }
pre { background: var(--code); padding: .6em; overflow-x: auto; }
pre code { padding: 0; }
blockquote { margin: 0 0 0 .5em; padding-left: 1em; border-left: 3px solid var(--line);
  color: var(--muted); }
li { margin: .2em 0; }
details.rl-toc { margin: .5em 0 1em; }
details.rl-toc summary { cursor: pointer; }
details.rl-toc ul { padding-left: 1.2em; }
</style>"""


def page_html(
    body: str, headings: list[Heading], *, index: bool = False, calculator: str = ""
) -> str:
    """A whole note page: the theme script, the header's links (the list of
    calculators, the notes' index, and the app page of the ``calculator`` the notes
    are about, by its key, if any), the note and its contents (a folded list of the
    page's notes)."""
    title = next((h.text for h in headings if h.level == 1), "Rules notes")
    notes = [h for h in headings if h.level == 2]
    toc = ""
    if notes and not index:
        links = "".join(f'<li><a href="#{escape(h.id)}">{escape(h.text)}</a></li>' for h in notes)
        toc = (
            f'<details class="rl-toc"><summary>On this page: {len(notes)} '
            f"{'note' if len(notes) == 1 else 'notes'}</summary><ul>{links}</ul></details>"
        )
    if toc and body.startswith("<h1"):
        end = body.index("</h1>") + len("</h1>")
        body = body[:end] + "\n" + toc + body[end:]
    notes_link = "" if index else '<a href="index.html">All rules notes</a>'
    if calculator:
        title = escape(get(calculator).title)
        href = f"../app.html?calculator={escape(calculator)}"
        notes_link += f'\n<a href="{href}">Open the {title} calculator</a>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{escape(title)} — ruleslab</title>
{THEME_SCRIPT}
<link rel="icon" href="../favicon.ico">
{_STYLE}
</head>
<body>
<nav class="rl-nav" aria-label="Site"><a href="../index.html">← All calculators</a>
{notes_link}</nav>
<main>
{body}
</main>
</body></html>
"""


def write_notes(site: Path, notes_dir: Path = NOTES_DIR) -> list[Path]:
    """Write every note page into ``site/rules-notes/``; returns the files written."""
    ids = note_ids(notes_dir)
    folder = site / SITE_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for page in note_pages(notes_dir):
        body, headings = render_markdown(page.text, ids, page.name)
        path = folder / page.name
        key = page.source.stem
        html = page_html(
            body,
            headings,
            index=page.name == "index.html",
            calculator=key if key in KEYS else "",
        )
        path.write_text(html, encoding="utf-8")
        written.append(path)
    return written


def index_module(notes_dir: Path = NOTES_DIR) -> str:
    """The source of ``ruleslab_widgets/_notes_index.py``: every note id and its page."""
    ids = note_ids(notes_dir)
    rows = "".join(f'    "{key}": "{page}",\n' for key, page in sorted(ids.items()))
    return (
        '"""Every rules note\'s id and its page under ``rules-notes/`` in the site.\n\n'
        "Generated from ``docs/rules-notes/`` by ``tools/make_content.py`` (see\n"
        ":mod:`tools.rules_notes`); do not edit: ``make_content.py --check`` fails\n"
        'when it is stale.\n"""\n\n'
        "from __future__ import annotations\n\n"
        "PAGES: dict[str, str] = {\n"
        f"{rows}"
        "}\n"
    )
