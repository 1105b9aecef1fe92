"""Generate the site's notebooks and landing page from the calculator catalog.

One notebook per calculator (``content/<key>.ipynb``) plus ``content/index.ipynb``
are generated and committed, so GMs see ordinary notebooks; a test checks they
are up to date (``python tools/make_content.py --check``). The landing page
(``index.html`` at the site root) is written into a built site by
``tools/build_site.py``.

The app page (``app.html?calculator=<key>``) shows a calculator with no code
visible and no JupyterLite around it: Python runs in a Web Worker and the
widgets are drawn in the page (``app/``, bundled by :mod:`tools.build_app`).
"""

from __future__ import annotations

import argparse
import ast
import json
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ruleslab.calculators import CALCULATORS
from ruleslab.declare import Calculator
from tools import REPO

__all__ = [
    "app_page_html",
    "embed_js",
    "embed_link",
    "index_notebook",
    "landing_html",
    "notebook",
    "notebook_link",
    "tinker_code",
    "write_site_pages",
]

CONTENT = REPO / "content"


def embed_link(calc: Calculator) -> str:
    """Relative URL of the calculator's app page: a progress message while Python
    starts, then the calculator alone. This is the link to put in an iframe."""
    return f"app.html?calculator={quote(calc.key)}"


#: The app page's icon, inline (a die's face): JupyterLite's favicon.ico is 318 kB,
#: a tenth of a megabyte of an embed's cold download even gzipped.
_APP_ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Cpath d='M8 1 15 6 12 15H4L1 6z' fill='%232e7d32'/%3E%3C/svg%3E"
)


#: In a frame (an embed, ``embed.js``), the app page tells the host page its
#: content's height whenever it changes, and once that the calculator is drawn
#: or could not start, so the host can size the iframe and start the next embed
#: (``docs/app-page.md``, "In a frame"). ``embed`` in the query is echoed as
#: ``id`` so a host can match messages to iframes. Outside a frame it does nothing.
_FRAME_SCRIPT = """<script>
(function () {
  if (window.parent === window) return;
  const id = new URLSearchParams(window.location.search).get("embed") || "";
  const root = document.documentElement;
  root.classList.add("rl-framed");
  const post = function (m) { m.id = id; window.parent.postMessage(m, "*"); };
  let last = -1;
  let settle = null; // after the calculator is drawn: its widgets render a moment later
  const height = function () {
    const h = Math.ceil(root.getBoundingClientRect().height);
    if (h === last) return;
    last = h;
    post({ type: "ruleslab:height", height: h });
    if (settle) settle();
  };
  new ResizeObserver(height).observe(document.body);
  const loading = document.getElementById("loading");
  const ready = function (ok) { post({ type: "ruleslab:ready", ok: ok }); };
  const check = function () {
    const failed = !window.ruleslab.worker || loading.classList.contains("failed");
    if (loading.isConnected && !failed) return;
    watch.disconnect();
    height();
    if (failed) { ready(false); return; }
    // "ready" once the height has held for 300 ms (at most 5 s after the drawing), so
    // the host decides what to start next on the page as it will look
    let quiet = 0;
    const end = setTimeout(function () { settle = null; clearTimeout(quiet); ready(true); }, 5000);
    settle = function () {
      clearTimeout(quiet);
      quiet = setTimeout(function () { settle = null; clearTimeout(end); ready(true); }, 300);
    };
    settle();
  };
  const watch = new MutationObserver(check);
  watch.observe(document.body, { childList: true });
  watch.observe(loading, { attributes: true, attributeFilter: ["class"] });
  check();
})();
</script>"""


def app_page_html() -> str:
    """``app.html``: one calculator, drawn in the page by Python in a Web Worker.

    An inline script in the head starts the worker (``static/app/worker.mjs``,
    Pyodide) at once, before the stylesheet and the widget front end
    (``static/app/app.js``, see :mod:`tools.build_app`) have loaded; the page
    shows each start-up phase with the seconds elapsed, and the message goes
    when the calculator is drawn. The
    calculator's key comes from the query string and is only ever used after
    it was found among the known keys.

    The theme is set first of all, before anything is drawn: ``?theme=light``
    or ``?theme=dark`` (an embed matching its host page), else the system's
    setting (``prefers-color-scheme``, followed if it changes); any other value
    is the system's too. It is ``data-rl-theme`` on ``<html>``, which the page's
    colours below, the controls' (``app/theme.css``) and the calculator's
    (:mod:`ruleslab_widgets.style`) follow.
    """
    titles = json.dumps({c.key: c.title for c in CALCULATORS}, ensure_ascii=True)
    # "</" cannot appear in the JSON (keys and titles are plain), but guard anyway
    titles = titles.replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>ruleslab calculator</title>
<script>
// Start Python first: before any stylesheet (a script after one waits for it)
// and before the page is parsed. The worker's messages wait in R.queue (widget
// messages, for app.js) and R.statuses (progress, for the script below).
(function () {{
  const TITLES = {titles};
  const query = new URLSearchParams(window.location.search);
  // the theme: ?theme=light|dark, else the system's (followed live); nothing else counts
  const asked = query.get("theme");
  const fixed = asked === "light" || asked === "dark";
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const theme = function () {{
    document.documentElement.dataset.rlTheme =
      fixed ? asked : (system && system.matches ? "dark" : "light");
  }};
  theme();
  if (!fixed && system) system.addEventListener("change", theme);
  const key = query.get("calculator") || "";
  const R = window.ruleslab = {{ key: key, titles: TITLES, queue: [], statuses: [],
    onmessage: null, status: null }};
  if (!Object.prototype.hasOwnProperty.call(TITLES, key)) return;
  R.worker = new Worker("static/app/worker.mjs?calculator=" + encodeURIComponent(key),
                        {{ type: "module" }});
  // a shared link's inputs: Python sets them (bad values get the fields' messages)
  R.worker.postMessage({{ type: "query", query: window.location.search }});
  const status = function (m) {{ if (R.status) R.status(m); else R.statuses.push(m); }};
  R.worker.onmessage = function (e) {{
    const m = e.data;
    if (m.type === "progress" || m.type === "error") status(m);
    else if (R.onmessage) R.onmessage(m);
    else R.queue.push(m);
  }};
  R.worker.onerror = function (e) {{
    const why = e.message || "the worker failed";
    status({{ type: "error", text: "Python could not start (" + why + ")" }});
  }};
}})();
</script>
<link rel="icon" href="{_APP_ICON}">
<link rel="modulepreload" href="static/pyodide/pyodide.mjs">
<link rel="stylesheet" href="static/app/app.css">
<style>
:root {{ color-scheme: light; --rl-page-bg: #fff; --rl-page-fg: #1b1b1b;
  --rl-page-muted: #474747; --rl-page-error: #b00020; }}
:root[data-rl-theme="dark"] {{ color-scheme: dark; --rl-page-bg: #161616;
  --rl-page-fg: #e8e8e8; --rl-page-muted: #b8b8b8; --rl-page-error: #ff8a80; }}
html, body {{ margin: 0; font-family: system-ui, sans-serif; background: var(--rl-page-bg);
  color: var(--rl-page-fg); }}
#calculator {{ padding: 8px 12px; }}
#loading {{ position: fixed; inset: 0; display: flex; align-items: center;
  justify-content: center; background: var(--rl-page-bg); text-align: center; padding: 1em;
  z-index: 10; }}
#loading progress {{ width: 16em; max-width: 80vw; }}
#loading .muted {{ color: var(--rl-page-muted); font-size: .9em; }}
#loading.failed {{ color: var(--rl-page-error); }}
.rl-framed #loading {{ position: static; }} /* in a frame its height is the content's */
</style></head>
<body>
<div id="loading" role="status" aria-live="polite"><div>
<p><strong id="title">Starting the calculator…</strong></p>
<p id="phase">Starting Python in your browser (a few seconds on a first visit).
Nothing you enter leaves this page.</p>
<progress></progress> <span id="elapsed">0 s</span>
<p class="muted" id="slow" hidden>Still starting: a slow machine or connection can take a
minute. Keep this page open.</p>
</div></div>
<main id="calculator"></main>
<noscript>This calculator runs in your browser and needs JavaScript.</noscript>
<script>
(function () {{
  const R = window.ruleslab;
  const PHASES = {{
    python: "Starting Python in your browser (a few seconds on a first visit).",
    calculator: "Python is running: building the calculator…",
  }};
  const loading = document.getElementById("loading");
  const phase = document.getElementById("phase");
  const stop = function () {{
    document.querySelector("#loading progress").hidden = true;
    document.getElementById("elapsed").hidden = true;
  }};
  if (!R.worker) {{
    document.getElementById("title").textContent = "No such calculator";
    phase.textContent = "Use ?calculator= with one of: " + Object.keys(R.titles).join(", ") + ".";
    stop();
    return;
  }}
  const title = R.titles[R.key];
  document.title = title + " — ruleslab";
  document.getElementById("title").textContent = "Starting " + title + "…";
  const t0 = Date.now();
  const timer = setInterval(function () {{
    const s = Math.round((Date.now() - t0) / 1000);
    document.getElementById("elapsed").textContent = s + " s";
    if (s > 45) document.getElementById("slow").hidden = false;
  }}, 250);
  R.status = function (m) {{
    if (m.type === "progress" && PHASES[m.phase]) phase.textContent = PHASES[m.phase];
    if (m.type === "error") {{
      clearInterval(timer);
      stop();
      loading.classList.add("failed");
      document.getElementById("title").textContent = "The calculator could not start";
      phase.textContent = m.text + " — reloading the page may help.";
    }}
  }};
  R.shown = function () {{
    clearInterval(timer);
    loading.remove();
    // offline use (tools/offline.py): once the calculator is drawn and the page idle,
    // and never in an embed
    if (window.top !== window.self) return;
    (window.requestIdleCallback || setTimeout)(function () {{
      const offline = document.createElement("script");
      offline.src = "static/offline/offline.js";
      document.head.appendChild(offline);
    }}, {{ timeout: 2000 }});
  }};
  R.statuses.splice(0).forEach(R.status);
}})();
</script>
{_FRAME_SCRIPT}
<script type="module" src="static/app/app.js"></script>
</body></html>
"""


def notebook_link(calc: Calculator) -> str:
    """Relative URL (from the site root) of the calculator's notebook."""
    return f"lab/index.html?path={quote(calc.notebook)}"


def _cell(kind: str, source: str, cell_id: str) -> dict[str, Any]:
    """A notebook cell; ids are fixed (nbformat 4.5 needs them, and tools that
    find none write random ones into the file, which would make it stale)."""
    cell: dict[str, Any] = {
        "cell_type": kind,
        "id": cell_id,
        "metadata": {},
        "source": source.splitlines(keepends=True),
    }
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(cells: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "display_name": "Python (Pyodide)",
                "language": "python",
                "name": "python",
            },
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def notebook(calc: Calculator) -> dict[str, Any]:
    """The calculator's notebook: intro, the live calculator, and an engine example."""
    cells = [
        _cell(
            "markdown",
            f"# {calc.title}\n\n{calc.summary}\n\n"
            f"*Rules:* {calc.citation}.\n\n"
            "Run the notebook (**Run › Run All Cells**), then change any input: the result, "
            "its exact odds and the rule behind every step update at once.",
            "intro",
        ),
        _cell("code", calc.notebook_code(), "calculator"),
    ]
    if calc.example:
        cells += [
            _cell(
                "markdown",
                "## Tinker\n\nThe same rules as plain Python functions, for GMs who want to "
                "explore beyond the form:",
                "tinker",
            ),
            _cell("code", tinker_code(calc), "example"),
        ]
    return _notebook(cells)


def _calls(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def tinker_code(calc: Calculator) -> str:
    """The "Tinker" cell: the calculator's ``example``, ending on its result.

    A notebook shows a cell's last expression; an engine result shows itself as
    HTML (``Explained._repr_html_``: figures and steps). So unless the example
    already ends on an expression other than a ``print``, the cell gets one more
    line: the variable the example last assigned a call of the calculator's
    function to, or else the example's first such call itself.
    """
    example = calc.example.rstrip("\n")
    tree = ast.parse(example)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr) and not _calls(last.value, "print"):
        return example
    name = calc.compute.__name__
    shown: str | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                if _calls(node.value, name):
                    shown = target.id
                elif shown == target.id:
                    shown = None  # the name now holds something else
    if shown is None:
        call = next((n for n in ast.walk(tree) if _calls(n, name)), None)
        if call is None:
            return example
        shown = ast.get_source_segment(example, call)
    return f"{example}\n\n# the result as a notebook shows it: its figures, then its steps\n{shown}"


def index_notebook() -> dict[str, Any]:
    lines = [
        "# ruleslab calculators\n",
        "Live, exact calculators for the Aberrant 2.0/2.1 rules. Open one, run it "
        "(**Run › Run All Cells**) and change the inputs.\n",
    ]
    lines += [f"- [{c.title}]({c.notebook}) — {c.summary}" for c in CALCULATORS]
    lines.append(
        "\nEvery calculator also has a code-free *app* view for embedding in a web page: "
        "see the links on the site's home page."
    )
    return _notebook([_cell("markdown", "\n".join(lines), "index")])


def landing_html() -> str:
    """The site's home page: every calculator, as an app and as a notebook."""
    items = "\n".join(
        f'<li class="calc" data-key="{escape(c.key)}"><h2>{escape(c.title)}</h2>'
        f"<p>{escape(c.summary)}</p>"
        f'<p><a class="app" href="{escape(embed_link(c))}">Open the calculator</a> · '
        f'<a class="nb" href="{escape(notebook_link(c))}">Open as a notebook</a></p></li>'
        for c in CALCULATORS
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ruleslab — Aberrant calculators</title>
<link rel="icon" href="favicon.ico">
<script src="static/offline/offline.js" defer></script>
<!-- every JupyterLite app reads this element from the root index.html -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<meta name="color-scheme" content="light dark">
<style>
body {{ font-family: system-ui, sans-serif; max-width: 760px; margin: 2em auto; padding: 0 1em;
  background: #fff; color: #1b1b1b; }}
a, a:visited {{ color: #0b57d0; }}
ul {{ list-style: none; padding: 0; }} li.calc {{ border-top: 1px solid #ddd; padding: .5em 0; }}
h2 {{ margin: .3em 0; font-size: 1.2em; }} code {{ background: #f4f4f4; padding: 0 .2em;
  overflow-wrap: anywhere; }}
@media (prefers-color-scheme: dark) {{
  body {{ background: #161616; color: #e8e8e8; }} a, a:visited {{ color: #8ab4f8; }}
  li.calc {{ border-top-color: #3a3a3a; }} code {{ background: #2a2a2a; }}
}}
</style></head>
<body>
<h1>ruleslab</h1>
<p>Live, exact calculators for the Aberrant 2.0/2.1 rules. Everything runs in your browser,
Python included, and nothing is sent anywhere. A calculator opens in about 2 seconds on a
first visit and about 1 second after that; a notebook takes about 4 seconds (3 after the
first visit; a busy or slow machine can take twice as long).</p>
<p id="offline-status" role="status" hidden></p>
<ul>
{items}
</ul>
<p>All notebooks: <a href="lab/index.html?path=index.ipynb">the index notebook</a>.
To embed a calculator, pre-set and as tall as its content, in your own page: include
<code>&lt;script src="…/embed.js" defer&gt;&lt;/script&gt;</code> once (… is this site's
address) and write <code>&lt;div data-ruleslab="lifting" data-strength="5"&gt;&lt;/div&gt;</code>
where it goes; Sphinx and MkDocs recipes are in the project's README.</p>
</body></html>
"""


#: The embed script's source; :func:`embed_js` writes the catalog's titles into it.
EMBED_SOURCE = REPO / "app" / "embed.js"


def embed_js() -> str:
    """``embed.js`` (from ``app/embed.js``): turns ``<div data-ruleslab="<key>">``
    elements of any page into app-page iframes that fit their content.

    The calculators' titles are written into the script (shown before an embed
    starts; an unknown key gets a message listing the keys), so it needs no
    request of its own: a cross-origin fetch would need CORS from the host.
    """
    titles = json.dumps({c.key: c.title for c in CALCULATORS}, ensure_ascii=True)
    source = EMBED_SOURCE.read_text(encoding="utf-8")
    slot = "const TITLES = __RULESLAB_TITLES__;"
    if source.count(slot) != 1:
        raise ValueError(f"{EMBED_SOURCE} must contain {slot!r} once")
    return source.replace(slot, f"const TITLES = {titles};")


def write_site_pages(site: Path) -> None:
    """Write ``index.html`` (the landing page), ``app.html`` and ``embed.js`` into a
    built site."""
    (site / "index.html").write_text(landing_html(), encoding="utf-8")
    (site / "app.html").write_text(app_page_html(), encoding="utf-8")
    (site / "embed.js").write_text(embed_js(), encoding="utf-8")


def write_content(dest: Path = CONTENT) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name, nb in [("index.ipynb", index_notebook())] + [
        (c.notebook, notebook(c)) for c in CALCULATORS
    ]:
        path = dest / name
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def check_content(dest: Path = CONTENT) -> list[str]:
    """Names of notebooks that differ from what the catalog generates."""
    stale = []
    expected = {"index.ipynb": index_notebook()} | {c.notebook: notebook(c) for c in CALCULATORS}
    for name, nb in expected.items():
        path = dest / name
        text = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return stale


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if content/ is out of date")
    args = ap.parse_args()
    if args.check:
        stale = check_content()
        if stale:
            print(f"out of date: {', '.join(stale)}; run python tools/make_content.py")
            return 1
        return 0
    for path in write_content():
        print(path.relative_to(REPO))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
