"""Citations of the rules notes (``RN-FALL-1``) as links to the notes' pages.

The site has every note as a page (``rules-notes/<page>.html#<id>``, built by
``tools/rules_notes.py``); :func:`linkify` escapes a text and turns each
citation of a note that exists into a link to it, opening in a new tab (a
calculator in an embed or a notebook stays where it is). A citation of an id
that has no note stays text.

The link is relative to the document showing the calculator: the app page
(``app.html``, also in an embed's iframe) sits at the site's root, a notebook
(``lab/index.html``) one folder down. :data:`BASE`, when set, is used as is;
otherwise :func:`base` tells the two apart by where Python runs: the app page's
worker is ``static/app/worker.mjs``, anything else in a browser is a
JupyterLite kernel (``../rules-notes/``), and outside a browser (tests, a local
Jupyter) the root's ``rules-notes/``.
"""

from __future__ import annotations

import re
import sys
from html import escape

from ruleslab_widgets._notes_index import PAGES

__all__ = ["APP_WORKER", "BASE", "CITATION", "base", "linkify", "note_url"]

#: A citation of a note, as the notes and the engine write them.
CITATION = re.compile(r"\bRN-[A-Z]+-[0-9]+\b")
#: Where the notes are, relative to the page showing the calculator; None: :func:`base`.
BASE: str | None = None
#: The app page's worker (relative to the site root): Python there runs for ``app.html``.
APP_WORKER = "/static/app/worker.mjs"


def _worker_path() -> str | None:
    """The path of the script Python runs in, in a browser; None elsewhere."""
    if sys.platform != "emscripten":
        return None
    try:
        import js  # Pyodide's view of the JS globals

        return str(js.location.pathname)
    except Exception:  # no location (not a worker or a window)
        return None


def base(worker_path: str | None = None) -> str:
    """The notes' folder relative to the page showing the calculator (ends in ``/``).

    ``worker_path`` is the path of the script Python runs in (read from the
    browser when not given)."""
    if BASE is not None:
        return BASE
    path = _worker_path() if worker_path is None else worker_path
    if path is None or path.endswith(APP_WORKER):
        return "rules-notes/"
    return "../rules-notes/"


def note_url(note: str, *, root: str | None = None) -> str | None:
    """The URL of the note ``note`` (``RN-FALL-1``), or None if no note has that id."""
    page = PAGES.get(note)
    if page is None:
        return None
    return f"{base() if root is None else root}{page}#{note}"


def linkify(text: str) -> str:
    """``text`` as HTML: escaped, each citation of an existing note a link to it
    (``<a class="rl-note" target="_blank" rel="noopener">``)."""
    folder = base()

    def link(match: re.Match[str]) -> str:
        url = note_url(match.group(0), root=folder)
        if url is None:
            return match.group(0)
        return (
            f'<a class="rl-note" href="{escape(url)}" target="_blank" rel="noopener"'
            f' title="Rules note {match.group(0)} (opens in a new tab)"'
            f' style="white-space: nowrap">{match.group(0)}</a>'  # never "RN-" / "FALL-1"
        )

    # ids hold only capitals, digits and hyphens: escaping never touches them
    return CITATION.sub(link, escape(text))
