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

from ruleslab.calculators import AREAS, CALCULATORS, RELATED, Area, get
from ruleslab.declare import Calculator
from tools import REPO
from tools.publish import project_version
from tools.rules_notes import INDEX_MODULE, THEME_SCRIPT, index_module, write_notes

__all__ = [
    "app_page_html",
    "calculator_page",
    "embed_js",
    "embed_link",
    "index_notebook",
    "landing_html",
    "notebook",
    "notebook_link",
    "static_page",
    "static_page_html",
    "tinker_code",
    "write_site_pages",
]

CONTENT = REPO / "content"


def embed_link(calc: Calculator) -> str:
    """Relative URL of the calculator's app page: a progress message while Python
    starts, then the calculator alone. This is the link to put in an iframe."""
    return f"app.html?calculator={quote(calc.key)}"


def calculator_page(calc: Calculator) -> str:
    """Relative URL (from the site root) of the calculator's own app page: the app page
    with this calculator, its figures and form pre-rendered in the first response
    (:func:`app_page_html` with ``calc``). The landing page and the related links go
    there, and so does a link its "Copy link" gives (:mod:`ruleslab_widgets.share`, which
    names the page); an embed goes to :func:`embed_link`."""
    from ruleslab_widgets.share import calculator_page as page

    return page(calc.key)


#: The app page's icon, inline (a die's face): JupyterLite's favicon.ico is 318 kB,
#: a tenth of a megabyte of an embed's cold download even gzipped.
_APP_ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Cpath d='M8 1 15 6 12 15H4L1 6z' fill='%232e7d32'/%3E%3C/svg%3E"
)


#: In a frame (an embed, ``embed.js``), the app page tells the host page its
#: content's height whenever it changes, and once that the calculator is drawn
#: or could not start, so the host can size the iframe and start the next embed
#: (which Python it runs on, ``ruleslab:runtime``, is said by ``app/page.js``)
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


def app_page_html(calc: Calculator | None = None) -> str:
    """``app.html``: one calculator, drawn in the page by Python in a Web Worker; with
    ``calc``, that calculator's own page (:func:`calculator_page`).

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

    ``app.html`` takes its calculator from the query (``?calculator=<key>``) and fetches
    its pre-rendered form and figures (``calculators/<key>.html``) in parallel with
    Python; a static host sends one file for every query, so that is a request more,
    after the page's own, before anything is drawn. A calculator's own page is the
    same page with its calculator fixed and its pre-rendered form and figures in the
    first response, at their final layout: what a GM on a slow link sees first.
    """
    from ruleslab_widgets import sheet_page, tracker_page
    from ruleslab_widgets.prerender import prerender_calculator

    pages = {c.key: c.title for c in CALCULATORS} | {
        tracker_page.KEY: tracker_page.TITLE,
        sheet_page.KEY: sheet_page.TITLE,
    }
    titles = json.dumps(pages, ensure_ascii=True)
    related = json.dumps(RELATED, ensure_ascii=True)
    # "</" cannot appear in the JSON (keys and titles are plain), but guard anyway
    titles = titles.replace("</", "<\\/")
    related = related.replace("</", "<\\/")
    fixed = json.dumps(calc.key if calc else "")
    title = f"{escape(calc.title)} — ruleslab" if calc else "ruleslab calculator"
    heading = escape(calc.title) if calc else "ruleslab calculator"
    # a calculator's own page: drawn as it is pre-rendered from the first byte on (the
    # start-up message a note, not a cover: app.html's script sets this once it has it)
    root_class = ' class="rl-static"' if calc else ""
    static = prerender_calculator(calc.key) if calc else ""
    others = [get(k) for k in RELATED[calc.key]] if calc else []
    related_items = "".join(
        f'<li><a href="{escape(calculator_page(o))}">{escape(o.title)}</a></li>' for o in others
    )
    related_hidden = "" if others else " hidden"
    return f"""<!doctype html>
<html lang="en"{root_class}><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{title}</title>
<script>
// Start Python first: before any stylesheet (a script after one waits for it)
// and before the page is parsed. The worker's messages wait in R.queue (widget
// messages, for app.js) and R.statuses (progress, for the script below).
(function () {{
  const TITLES = {titles};
  const RELATED = {related};
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
  // in an embed (a frame, or embed= in the query) the page header is not shown
  if (window.parent !== window || query.has("embed")) {{
    document.documentElement.classList.add("rl-embed");
  }}
  // a calculator's own page (KEY.html) is that calculator's, whatever its query says
  const key = {fixed} || query.get("calculator") || "";
  const R = window.ruleslab = {{ key: key, titles: TITLES, related: RELATED, queue: [],
    statuses: [], onmessage: null, status: null, theme: fixed ? asked : "" }};
  if (!Object.prototype.hasOwnProperty.call(TITLES, key)) return;
  // Python: one shared worker for every page of the site in this browser session
  // (docs/app-page.md, "One Python for the whole site"), else this page's own worker.
  // R.worker is what app.js posts to; the worker behind it may change (a fallback).
  const status = function (m) {{ if (R.status) R.status(m); else R.statuses.push(m); }};
  const URL_ = "static/app/worker.mjs";
  // this page's build (tools/build_app.py writes it, and keys URL_ by it): the worker
  // refuses a page of another build ({{type: "build"}}), never mixing the two
  const BUILD_ = "dev";
  const BUILD_RETRY = "ruleslab-build-retry"; // sessionStorage: reloaded once for it
  const FLAG = "ruleslab-runtime"; // sessionStorage: "dedicated" after a shared one failed
  const LIVE_MS = 15000, START_MS = 60000; // an unanswered ping: the shared worker is gone
  let dedicated = typeof SharedWorker !== "function";
  try {{ dedicated = dedicated || sessionStorage.getItem(FLAG) === "dedicated"; }} catch (e) {{}}
  let port = null, heard = false, shown = false, pending = 0, beat = 0, over = false;
  R.worker = {{ postMessage: function (m) {{ if (port) port.postMessage(m); }} }};
  R.runtime = null;
  R.link = null;
  const start = {{ type: "start", key: key, query: window.location.search, lock: null,
    build: BUILD_ }};
  // the page's inputs as its link says them now (share.py's query), else its address
  const restart = function (toDedicated) {{
    if (over) return;
    over = true;
    clearInterval(beat);
    try {{ if (toDedicated) sessionStorage.setItem(FLAG, "dedicated"); }} catch (e) {{}}
    const q = new URLSearchParams(R.link !== null ? R.link : window.location.search);
    q.set("calculator", key);
    ["theme", "embed"].forEach(function (n) {{ if (query.has(n)) q.set(n, query.get(n)); }});
    window.location.replace(window.location.pathname + "?" + q.toString());
  }};
  // the snapshot of the warmed interpreter (docs/app-page.md, "A snapshot of the warmed
  // interpreter"): once this page's calculator is live and Python was started rather
  // than restored, a worker of its own makes one for the next page (one page at a time:
  // a Web Lock), a few seconds later, unless the reader asked to save data.
  // R.snapshot: "restored", "waiting", "making", "stored", "elsewhere", "off", "failed".
  R.snapshot = "";
  const SNAPSHOT_URL = "static/app/snapshot.mjs", SNAPSHOT_AFTER_MS = 3000;
  const SNAPSHOT_FAILED = "ruleslab:snapshot-failed"; // localStorage: when a maker last failed
  const snapshotLater = function () {{
    if (R.snapshot) return;
    if (R.runtime && R.runtime.snapshot === "restored") {{ R.snapshot = "restored"; return; }}
    const saving = navigator.connection && navigator.connection.saveData;
    // nor in an embed: a page embedding a calculator gets no second Python and no
    // storage from it (as it gets no offline cache)
    const embedded = document.documentElement.classList.contains("rl-embed");
    // a maker that failed (no room left, storage refused) is not tried again for a day
    // (storage read last: a frame's first read of it is a round trip to the browser)
    const recently = function () {{
      let failed = 0;
      try {{ failed = Number(localStorage.getItem(SNAPSHOT_FAILED)) || 0; }} catch (e) {{}}
      return Date.now() - failed < 24 * 3600 * 1000;
    }};
    if (!navigator.locks || typeof Worker !== "function" || saving || embedded || recently()) {{
      R.snapshot = "off";
      return;
    }}
    R.snapshot = "waiting";
    const make = function () {{
      R.snapshot = "making";
      return new Promise(function (done) {{
        const maker = new Worker(SNAPSHOT_URL, {{ type: "module" }});
        const end = function (state, why) {{
          R.snapshot = state;
          try {{
            if (state === "failed") localStorage.setItem(SNAPSHOT_FAILED, String(Date.now()));
            else localStorage.removeItem(SNAPSHOT_FAILED);
          }} catch (e) {{}}
          // (not a fault of this page, which works as it is: said quietly)
          if (why) console.info("ruleslab: no snapshot made:", why);
          maker.terminate();
          done();
        }};
        maker.onmessage = function (e) {{
          const m = e.data || {{}};
          end(m.type === "stored" || m.type === "kept" ? "stored" : "failed", m.text);
        }};
        maker.onerror = function (e) {{ end("failed", e.message || "the worker failed"); }};
      }});
    }};
    setTimeout(function () {{
      navigator.locks.request("ruleslab-snapshot", {{ ifAvailable: true }}, function (lock) {{
        if (!lock) {{ R.snapshot = "elsewhere"; return null; }}
        // not while a page of the site is loading: granted once no page holds it shared
        return navigator.locks.request(LOADING, {{ mode: "exclusive" }}, function () {{}})
          .then(make);
      }}).catch(function (err) {{ R.snapshot = "failed"; console.warn("ruleslab:", err); }});
    }}, SNAPSHOT_AFTER_MS);
  }};
  // this page is loading until its calculator is shown or has failed (at most a minute):
  // a shared hold on LOADING meanwhile, which the snapshot's maker waits out
  const LOADING = "ruleslab-loading";
  let loaded = function () {{}};
  if (navigator.locks) {{
    const until = new Promise(function (done) {{ loaded = done; }});
    navigator.locks.request(LOADING, {{ mode: "shared" }}, function () {{ return until; }})
      .catch(function () {{}});
    setTimeout(loaded, 60000);
  }}
  const receive = function (e) {{
    const m = e.data;
    heard = true;
    pending = 0;
    // a calculator's build comes at once: its widgets' messages, then its display
    if (m && m.type === "batch") m.messages.forEach(route);
    else route(m);
  }};
  const route = function (m) {{
    if (m.type === "pong") {{ if (R.runtime) R.runtime.sessions = m.sessions; return; }}
    if (m.type === "lost") {{ restart(false); return; }}
    if (m.type === "build") {{ otherBuild(m); return; }}
    if (m.type === "fault") {{
      console.error("ruleslab: a widget message failed:", m.text);
      return;
    }}
    if (m.type === "progress" && m.runtime) {{
      R.runtime = m.runtime;
      try {{ sessionStorage.removeItem(BUILD_RETRY); }} catch (e) {{}}
    }}
    if (m.type === "display") {{ shown = true; loaded(); snapshotLater(); }}
    if (m.type === "error") loaded();
    if ((m.type === "comm_open" || m.type === "comm_msg") && m.data && m.data.state &&
        typeof m.data.state.query === "string") R.link = m.data.state.query;
    if (m.type === "progress" || m.type === "error") status(m);
    else if (R.onmessage) R.onmessage(m);
    else R.queue.push(m);
  }};
  // the worker runs another build than this page (a page or embed of a redeployed site
  // meeting the Python an open tab of the old one started, or an old worker script
  // served for the new one): reloaded once (the address then gives one build), else said
  const otherBuild = function (m) {{
    if (over) return;
    let retried = null;
    try {{ retried = sessionStorage.getItem(BUILD_RETRY); }} catch (e) {{}}
    if (retried !== BUILD_) {{
      try {{ sessionStorage.setItem(BUILD_RETRY, BUILD_); }} catch (e) {{}}
      restart(false);
      return;
    }}
    over = true;
    clearInterval(beat);
    try {{ port.close(); }} catch (e) {{}}
    port = null;
    loaded();
    status({{ type: "error", build: true, text: "This page is of another version of the " +
      "site (build " + String(BUILD_).slice(0, 8) + ") than the Python already running " +
      "for the site in this browser (build " + String(m.worker || "?").slice(0, 8) +
      "), and the two are never mixed. Close the site's other tabs and windows (they " +
      "run the other version)" }});
  }};
  const alone = function () {{
    R.mode = "dedicated";
    let w;
    try {{
      w = new Worker(URL_, {{ type: "module" }});
    }} catch (err) {{
      // (a sandboxed frame without allow-same-origin, a browser without module workers:
      // said at once, never "Starting …" for ever)
      const why = (err && err.message) || String(err);
      port = null;
      status({{ type: "error", text: "This page cannot start Python: the browser refuses it " +
        "a worker (" + why + "). In a sandboxed frame, the frame needs allow-same-origin; " +
        "else open the calculator in a tab of its own" }});
      return;
    }}
    w.onmessage = receive;
    w.onerror = function (e) {{
      const why = e.message || "the worker failed";
      status({{ type: "error", text: "Python could not start (" + why + ")" }});
    }};
    port = w;
    w.postMessage(start);
  }};
  // the shared worker failed or stopped answering: this page's own worker from here on
  // (in place if Python had said nothing yet, else reloaded with the page's inputs)
  const fallBack = function () {{
    if (over || port === null) return;
    if (heard) {{ restart(true); return; }}
    clearInterval(beat);
    try {{ port.close(); }} catch (e) {{}}
    alone();
  }};
  const together = function () {{
    const shared = new SharedWorker(URL_, {{ type: "module", name: "ruleslab" }});
    R.mode = "shared";
    shared.onerror = fallBack;
    port = shared.port;
    port.onmessage = receive;
    port.start();
    const go = function () {{ port.postMessage(start); }};
    // a lock held while this page lives: the worker drops the page's calculator when
    // it is released (the page closed, navigated, crashed), without waiting for a timer
    if (navigator.locks) {{
      start.lock = "ruleslab-page-" + Math.random().toString(36).slice(2);
      navigator.locks.request(start.lock, function () {{
        go();
        return new Promise(function () {{}});
      }});
    }} else go();
    beat = setInterval(function () {{
      const now = Date.now();
      if (pending && now - pending > (shown ? LIVE_MS : START_MS)) fallBack();
      else if (!pending) {{ pending = now; port.postMessage({{ type: "ping" }}); }}
    }}, 2000);
    window.addEventListener("pagehide", function () {{
      if (!over) port.postMessage({{ type: "close" }});
    }});
    // back from the back-forward cache: its calculator was closed when the page was hidden
    window.addEventListener("pageshow", function (e) {{ if (e.persisted) restart(false); }});
  }};
  if (dedicated) alone();
  else {{
    try {{ together(); }} catch (err) {{ port = null; alone(); }}
  }}
}})();
</script>
{_prerender_head(inline=calc is not None)}
<link rel="icon" href="{_APP_ICON}">
<link rel="modulepreload" href="static/pyodide/pyodide.mjs">
<link rel="stylesheet" href="static/app/app.css">
<style>
:root {{ color-scheme: light; --rl-page-bg: #fff; --rl-page-fg: #1b1b1b;
  --rl-page-muted: #474747; --rl-page-error: #b00020; --rl-page-link: #0b57d0;
  --rl-page-line: #d6d6d6; }}
:root[data-rl-theme="dark"] {{ color-scheme: dark; --rl-page-bg: #161616;
  --rl-page-fg: #e8e8e8; --rl-page-muted: #b8b8b8; --rl-page-error: #ff8a80;
  --rl-page-link: #8ab4f8; --rl-page-line: #3a3a3a; }}
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
/* the page header: back to the list, the calculator's title, its related calculators */
.rl-page-head {{ padding: 6px 12px 6px; border-bottom: 1px solid var(--rl-page-line); }}
.rl-page-head a {{ color: var(--rl-page-link); }}
.rl-crumbs {{ display: flex; flex-wrap: wrap; gap: .2em 1.4em; font-size: .95em; }}
.rl-page-head h1 {{ font-size: 1.5em; line-height: 1.2; margin: .15em 0 .1em; }}
.rl-related {{ font-size: .92em; color: var(--rl-page-muted); }}
.rl-related ul {{ display: inline; list-style: none; margin: 0; padding: 0; }}
.rl-related li {{ display: inline; }}
.rl-related li + li::before {{ content: " · "; }}
.rl-embed .rl-page-head, .rl-framed .rl-page-head {{ display: none; }}
/* the header's h1 is the calculator's title: the view's own is seen only in an embed
   (elsewhere it stays for screen readers, so the view's h3s still follow an h2) */
:root:not(.rl-embed):not(.rl-framed) #calculator .rl-title {{ position: absolute;
  width: 1px; height: 1px; margin: 0; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }}
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
<header class="rl-page-head">
<nav class="rl-crumbs" aria-label="Site"><a href="index.html">← All calculators</a>
<a href="rules-notes/index.html">Rules notes</a>
<a href="app.html?calculator=tracker">Encounter tracker</a>
<a href="app.html?calculator=sheet">Character sheets</a></nav>
<h1 id="page-title">{heading}</h1>
<nav class="rl-related" id="related" aria-label="Related calculators"{related_hidden}>Related:
<ul>{related_items}</ul></nav>
</header>
<main id="calculator">{static}</main>
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
  // the header: the title, the related calculators, and a chosen theme kept on its links
  const keep = function (href) {{ return R.theme ? href + (href.indexOf("?") < 0 ? "?" : "&") +
    "theme=" + R.theme : href; }};
  document.querySelectorAll(".rl-page-head a").forEach(function (a) {{
    a.setAttribute("href", keep(a.getAttribute("href")));
  }});
  if (!R.worker) {{
    document.getElementById("page-title").textContent = "No such calculator";
    document.getElementById("title").textContent = "No such calculator";
    phase.textContent = "Use ?calculator= with one of: " + Object.keys(R.titles).join(", ") + ".";
    stop();
    return;
  }}
  const title = R.titles[R.key];
  document.title = title + " — ruleslab";
  document.getElementById("page-title").textContent = title;
  const related = document.getElementById("related");
  // (a calculator's own page has them already: written by tools/make_content.py)
  if (!related.querySelector("li")) (R.related[R.key] || []).forEach(function (other) {{
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = keep(encodeURIComponent(other) + ".html"); // (its own page: tools/make_content.py)
    a.textContent = R.titles[other];
    li.appendChild(a);
    related.querySelector("ul").appendChild(li);
  }});
  related.hidden = !related.querySelector("li");
  document.getElementById("title").textContent = "Starting " + title + "…";
  const t0 = Date.now();
  const timer = setInterval(function () {{
    const s = Math.round((Date.now() - t0) / 1000);
    document.getElementById("elapsed").textContent = s + " s";
    if (s > 45) document.getElementById("slow").hidden = false;
  }}, 250);
  const bar = document.querySelector("#loading progress");
  const mb = function (n) {{ return (n / 1e6).toFixed(1); }};
  R.status = function (m) {{
    if (loading.classList.contains("failed")) return;  // (what failed stays said)
    if (m.type === "progress" && PHASES[m.phase]) phase.textContent = PHASES[m.phase];
    if (m.type === "progress" && m.phase === "python" && m.total > 0) {{
      // the bytes as they come (the worker counts them), not a moving bar and a clock
      const loaded = Math.min(m.loaded, m.total);
      document.getElementById("title").textContent =
        "Starting Python: " + mb(loaded) + " of " + mb(m.total) + " MB";
      bar.max = m.total;
      bar.value = loaded;
      document.getElementById("elapsed").hidden = true;
    }}
    if (m.type === "progress" && m.phase === "calculator") {{
      document.getElementById("title").textContent = "Starting " + title + "…";
      bar.removeAttribute("value");
    }}
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
{_prerender_body()}
{_FRAME_SCRIPT}
<script type="module" src="static/app/app.js" onerror="window.ruleslab.status({{type: 'error',
  text: 'The script of this page (static/app/app.js) could not be loaded: offline with a damaged ' +
  'copy, or the site is being updated. Reload once you are online'}})"></script>
</body></html>
"""


# -- Pre-rendered calculators (docs/app-page.md, "Pre-rendered") ----------------------
# Each calculator has a static page, calculators/<key>.html, written by the site build
# at its defaults (ruleslab_widgets.prerender): readable, printable and indexable with
# scripts off. app.html fetches it at once, in parallel with Python, and shows its
# calculator as soon as both are there; app.js (app/page.js) puts the live calculator
# in its place, keeping what the reader typed. This block is all of it in app.html.


STATIC_FOLDER = "calculators"
"""The static pages' folder, relative to the site root (offline: kept with the app pages)."""


def static_page(calc: Calculator) -> str:
    """Relative URL (from the site root) of the calculator's static page."""
    return f"{STATIC_FOLDER}/{quote(calc.key)}.html"


def _prerender_head(*, inline: bool = False) -> str:
    """app.html's script that fetches the static page and draws its calculator: a
    link's values filled in the fields that match (as the form reads them:
    ``ruleslab_widgets.view``'s words for a checkbox), its results marked "not
    current" until Python has computed them; typing before Python marks them too.
    ``inline``: a calculator's own page, whose static calculator is in the page
    itself (``#calculator``): filled in place, nothing fetched."""
    from ruleslab_widgets.view import _FALSE, _TRUE, PAGE_PARAMETERS

    words = json.dumps(
        {"yes": sorted(_TRUE), "no": sorted(_FALSE), "page": sorted(PAGE_PARAMETERS)}
    )
    return (
        """<script>
(function () {
  const R = window.ruleslab;
  // (the tracker and the sheet: no static page)
  if (!R || !R.worker || R.key === "tracker" || R.key === "sheet") return;
  const WORDS = """
        + words
        + """;
  const INLINE = """
        + json.dumps(inline)
        + """;
  let html = null, placed = false;
  const pending = function (root, text) {
    const results = root.querySelector(".rl-results");
    if (results) results.classList.add("rl-stale");
    root.querySelectorAll(".rl-summary-bar").forEach(function (bar) {
      bar.classList.add("rl-summary-stale");
      const banner = bar.querySelector(".rl-stale-banner");
      banner.textContent = text;
      banner.hidden = false;
    });
  };
  const fill = function (root) {
    let named = false;
    new URLSearchParams(window.location.search).forEach(function (value, name) {
      if (WORDS.page.indexOf(name) >= 0) return;
      named = true;
      const field = root.querySelector('[data-rl-field="' + CSS.escape(name) + '"]');
      if (!field) return;
      if (field.type === "checkbox") {
        const word = value.trim().toLowerCase();
        if (WORDS.yes.indexOf(word) >= 0) field.checked = true;
        else if (WORDS.no.indexOf(word) >= 0) field.checked = false;
      } else if (field.tagName === "SELECT") {
        const ok = Array.prototype.some.call(field.options, function (o) {
          return o.value === value; });
        if (ok) field.value = value;
      } else field.value = value;
    });
    if (named) pending(root, root.dataset.pending);
    root.querySelectorAll(".rl-share-link").forEach(function (box) {
      // as the live one shows it: absolute; a link's own address for a link's values
      box.value = named ? window.location.href : new URL(box.value, window.location.href).href;
    });
    // what is shown now: what the reader changes from here on is applied by app.js
    root.querySelectorAll("[data-rl-field]").forEach(function (f) {
      f.dataset.rlShown = f.type === "checkbox" ? String(f.checked) : f.value;
    });
    const typed = function (e) {
      if (e.target.dataset && e.target.dataset.rlField) pending(root, root.dataset.pendingTyped);
    };
    root.addEventListener("input", typed);
    root.addEventListener("change", typed);
  };
  R.placeStatic = function () {
    const main = document.getElementById("calculator");
    if (placed || !main || R.live) return;
    let root = null;
    if (INLINE) root = main.querySelector(":scope > .rl-prerender");
    else if (html) {
      root = new DOMParser().parseFromString(html, "text/html").querySelector(".rl-prerender");
      html = null;
      if (root) root = main.appendChild(document.adoptNode(root));
    }
    if (!root) return;
    placed = true;
    fill(root);
    document.documentElement.classList.add("rl-static");
    pinNote();
  };
  // the start-up note sits on the header's "Related:" line (links, hidden while it is
  // there), not over a field a GM may type into; where there is no such line in view (an
  // embed) it stays a note in a corner
  const pinNote = function () {
    const note = document.getElementById("loading");
    const line = document.querySelector(".rl-page-head .rl-related");
    if (!note || !line || !line.getClientRects().length) return;
    const r = line.getBoundingClientRect();
    note.classList.add("rl-pinned");
    note.style.top = r.top + window.scrollY + "px";
    note.style.left = r.left + window.scrollX + "px";
    note.style.width = r.width + "px";
    note.style.height = r.height + "px";
  };
  window.addEventListener("resize", function () {
    if (document.documentElement.classList.contains("rl-static")) pinNote();
  });
  if (INLINE) return;
  fetch("""
        + json.dumps(STATIC_FOLDER + "/")
        + """ + encodeURIComponent(R.key) + ".html")
    .then(function (r) { return r.ok ? r.text() : null; })
    .then(function (text) { html = text; R.placeStatic(); })
    .catch(function () {});
})();
</script>
<style>
/* with the static calculator shown, the start-up message is a note in a corner */
:root.rl-static #loading { position: fixed; inset: auto 12px 12px auto;
  max-width: min(30em, calc(100vw - 48px)); padding: .3em .8em;
  border: 1px solid var(--rl-page-line); border-radius: 6px;
  box-shadow: 0 2px 8px rgba(0, 0, 0, .25); font-size: .9em; }
:root.rl-static #loading:not(.failed) :is(#phase, #slow, .muted) { display: none; }
:root.rl-static #loading p { margin: .2em 0; }
:root.rl-static #loading.rl-pinned:not(.failed) { position: absolute; inset: auto;
  max-width: none; padding: 0; border: 0; box-shadow: none; border-radius: 0;
  justify-content: flex-start; overflow: hidden; z-index: 10; }
:root.rl-static #loading.rl-pinned:not(.failed) > div { display: flex; flex-wrap: wrap;
  align-items: center; gap: 0 .8em; text-align: start; }
:root.rl-static #loading.rl-pinned:not(.failed) p { margin: 0; }
:root.rl-static #loading.rl-pinned:not(.failed) progress { width: 6em; }
:root:has(#loading.rl-pinned:not(.failed)) .rl-page-head .rl-related { visibility: hidden; }
.rl-noscript { padding: 8px 12px; }
</style>
<noscript><style>#loading { display: none !important; }</style></noscript>"""
    )


def _prerender_body() -> str:
    """app.html's part after ``#calculator``: the static calculator is drawn as soon as
    the page reaches it (if it has arrived); with scripts off, links to every
    calculator's static page."""
    links = "".join(
        f'<li><a href="{escape(static_page(c))}">{escape(c.title)}</a></li>' for c in CALCULATORS
    )
    return (
        "<script>window.ruleslab && window.ruleslab.placeStatic "
        "&& window.ruleslab.placeStatic();</script>\n"
        '<noscript><div class="rl-noscript"><p>This calculator runs in your browser and needs '
        "JavaScript. Without it, each calculator's figures at its default inputs (printable) "
        f"are here:</p><ul>{links}</ul></div></noscript>"
    )


def static_page_html(calc: Calculator) -> str:
    """``calculators/<key>.html``: the calculator at its defaults, as static HTML
    (:func:`ruleslab_widgets.prerender.prerender_calculator`), in the app page's
    look (its stylesheet; the theme from ``?theme=`` or the system's setting, light
    with scripts off), under a header linking to the live calculator; what needs the
    live calculator (its link, roll buttons, chart tools, the party) is not shown."""
    from ruleslab_widgets.prerender import prerender_calculator

    live = escape(calculator_page(calc))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<base href="../">
<title>{escape(calc.title)} — ruleslab (at its defaults)</title>
<meta name="description" content="{escape(calc.summary)}">
{THEME_SCRIPT}
<link rel="icon" href="{_APP_ICON}">
<link rel="stylesheet" href="static/app/app.css">
<style>
:root {{ color-scheme: light; --rl-page-bg: #fff; --rl-page-fg: #1b1b1b;
  --rl-page-muted: #474747; --rl-page-link: #0b57d0; --rl-page-line: #d6d6d6; }}
:root[data-rl-theme="dark"] {{ color-scheme: dark; --rl-page-bg: #161616;
  --rl-page-fg: #e8e8e8; --rl-page-muted: #b8b8b8; --rl-page-link: #8ab4f8;
  --rl-page-line: #3a3a3a; }}
html, body {{ margin: 0; font-family: system-ui, sans-serif; background: var(--rl-page-bg);
  color: var(--rl-page-fg); }}
#calculator {{ padding: 8px 12px; }}
.rl-page-head {{ padding: 6px 12px 6px; border-bottom: 1px solid var(--rl-page-line); }}
.rl-page-head a {{ color: var(--rl-page-link); }}
.rl-crumbs {{ display: flex; flex-wrap: wrap; gap: .2em 1.4em; font-size: .95em; }}
.rl-page-head h1 {{ font-size: 1.5em; line-height: 1.2; margin: .15em 0 .1em; }}
.rl-static-note {{ color: var(--rl-page-muted); margin: .2em 0; }}
#calculator .rl-title {{ position: absolute; width: 1px; height: 1px; margin: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }}
/* what needs the live calculator (the link to it is in the header) */
#calculator :is(.rl-share-control, .rl-roll-row, .rl-chart-tools, .rl-party, .rl-scenario-bar,
  .rl-sweep) {{ display: none; }}
@media print {{ .rl-crumbs, .rl-static-note a {{ display: none; }} }}
</style></head>
<body>
<header class="rl-page-head">
<nav class="rl-crumbs" aria-label="Site"><a href="index.html">← All calculators</a>
<a href="rules-notes/index.html">Rules notes</a>
<a href="app.html?calculator=tracker">Encounter tracker</a></nav>
<h1>{escape(calc.title)}</h1>
<p class="rl-static-note">The figures for the default inputs, worked out when the site was
built. <a href="{live}">Open the live calculator</a> to change the inputs.</p>
</header>
<main id="calculator">
{prerender_calculator(calc.key)}
</main>
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


def _search_text(calc: Calculator, area: Area) -> str:
    """What the landing page's search box matches a calculator on (lower case)."""
    words = (calc.key.replace("_", " "), calc.title, calc.summary, area.game, area.title)
    return " ".join(words).lower()


def _calc_item(calc: Calculator, area: Area) -> str:
    return (
        f'<li class="calc" data-key="{escape(calc.key)}" '
        f'data-search="{escape(_search_text(calc, area))}">'
        f'<h4><a class="app" href="{escape(calculator_page(calc))}">{escape(calc.title)}</a></h4>'
        f'<p class="summary">{escape(calc.summary)}</p>'
        f'<p class="more"><a class="nb" href="{escape(notebook_link(calc))}">Open as a notebook'
        f'<span class="visually-hidden">: {escape(calc.title)}</span></a> · '
        f'<a class="static" href="{escape(static_page(calc))}">Printable page'
        f'<span class="visually-hidden">: {escape(calc.title)} at its defaults</span></a></p></li>'
    )


#: How many characters the landing page's search box holds (a title, a few words).
SEARCH_MAX = 100

#: The landing page's search: every word typed must occur in a calculator's
#: ``data-search`` (title, summary, key, game and area); sections with no match
#: are hidden, and "no results" says so. Plain script: no Python needed. The box holds
#: :data:`SEARCH_MAX` characters (``maxlength``; a value set otherwise, such as one the
#: browser restores, is cut to it): a paste of megabytes is cut, and said, never
#: searched (the words are distinct ones, each looked for once in each calculator's
#: text: linear in what the box holds).
_SEARCH_SCRIPT = """<script>
(function () {
  const MAX = __SEARCH_MAX__;
  const box = document.getElementById("search");
  const none = document.getElementById("no-results");
  const count = document.getElementById("search-count");
  const cut = document.getElementById("search-cut");
  const items = Array.from(document.querySelectorAll("li.calc"));
  const said = function (pasted) {
    cut.hidden = !pasted;
    cut.textContent = pasted ? "The search box holds " + MAX + " characters: of the " +
      pasted.toLocaleString("en") + " pasted, the first " + MAX + " are searched." : "";
  };
  const filter = function () {
    if (box.value.length > MAX) {
      said(box.value.length);
      box.value = box.value.slice(0, MAX);
    }
    const words = Array.from(new Set(box.value.toLowerCase().split(/\\s+/).filter(Boolean)));
    let shown = 0;
    items.forEach(function (li) {
      const text = li.dataset.search;
      const hit = words.every(function (w) { return text.indexOf(w) >= 0; });
      li.hidden = !hit;
      if (hit) shown += 1;
    });
    document.querySelectorAll("section.area, section.game").forEach(function (s) {
      s.hidden = !s.querySelector("li.calc:not([hidden])");
    });
    none.hidden = shown > 0;
    none.textContent = shown ? "" : "No calculator matches \\u201c" + box.value.trim() +
      "\\u201d. Try another word, or clear the box to see them all.";
    count.textContent = words.length ? shown + (shown === 1 ? " calculator" : " calculators") +
      " shown" : "";
  };
  box.addEventListener("paste", function (e) {
    const text = e.clipboardData ? e.clipboardData.getData("text") : "";
    const room = MAX - box.value.length + (box.selectionEnd - box.selectionStart);
    said(text.length > room ? text.length : 0);
  });
  box.addEventListener("input", function (e) {
    if (e.inputType !== "insertFromPaste") said(0);
    filter();
  });
  box.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { box.value = ""; said(0); filter(); }
  });
  filter(); // a value the browser kept (back button)
})();
</script>""".replace("__SEARCH_MAX__", str(SEARCH_MAX))


def landing_html() -> str:
    """The site's home page: the calculators grouped by game and by area
    (:data:`ruleslab.calculators.AREAS`), each as an app and as a notebook, a search
    box that filters them as one types, and the link to the rules notes."""
    by_key = {c.key: c for c in CALCULATORS}
    games: dict[str, list[Area]] = {}
    for area in AREAS:
        games.setdefault(area.game, []).append(area)
    sections = []
    for game, areas in games.items():
        slug = game.lower()
        parts = [
            f'<section class="game" aria-labelledby="game-{slug}">'
            f'<h2 id="game-{slug}">{escape(game)}</h2>'
        ]
        for area in areas:
            items = "".join(_calc_item(by_key[key], area) for key in area.keys)
            parts.append(
                f'<section class="area"><h3>{escape(area.title)}</h3><ul>{items}</ul></section>'
            )
        parts.append("</section>")
        sections.append("".join(parts))
    groups = "\n".join(sections)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>ruleslab — Aberrant and Chimera calculators</title>
{THEME_SCRIPT}
<link rel="icon" href="favicon.ico">
<script src="static/offline/offline.js" defer></script>
<!-- every JupyterLite app reads this element from the root index.html -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>
:root {{ color-scheme: light; --bg: #fff; --fg: #1b1b1b; --muted: #474747; --link: #0b57d0;
  --line: #d6d6d6; --code: #f1f1f1; --card: #f7f7f7; }}
:root[data-rl-theme="dark"] {{ color-scheme: dark; --bg: #161616; --fg: #e8e8e8;
  --muted: #b8b8b8; --link: #8ab4f8; --line: #3a3a3a; --code: #2a2a2a; --card: #1f1f1f; }}
body {{ font: 1rem/1.45 system-ui, sans-serif; margin: 0; background: var(--bg);
  color: var(--fg); }}
main {{ max-width: 1100px; margin: 0 auto; padding: 1em 1em 3em; }}
a {{ color: var(--link); }}
h1 {{ margin: .2em 0 .3em; font-size: 1.8em; }}
.lead {{ margin: 0 0 .6em; max-width: 52em; }}
.tools {{ display: flex; flex-wrap: wrap; gap: .6em 1.5em; align-items: center;
  margin: .8em 0; }}
.search label {{ font-weight: 600; margin-right: .4em; }}
.search input {{ font: inherit; padding: .35em .5em; width: 18em; max-width: 70vw;
  border: 1px solid var(--muted); border-radius: 4px; background: var(--bg); color: var(--fg); }}
#no-results {{ font-weight: 600; }}
.search-cut {{ margin: .2em 0; color: var(--muted); }}
#offline-status {{ margin: .4em 0; color: var(--muted); }}
#offline-status button {{ font: inherit; margin: .2em 0 0; padding: .25em .7em;
  border: 1px solid var(--muted); border-radius: 4px; background: var(--card); color: var(--fg);
  cursor: pointer; }}
#offline-status button:disabled {{ cursor: default; opacity: .7; }}
.visually-hidden {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }}
h2 {{ font-size: 1.4em; margin: 1em 0 .2em; padding-bottom: .15em;
  border-bottom: 2px solid var(--line); }}
h3 {{ font-size: 1em; margin: .8em 0 .3em; color: var(--muted); text-transform: uppercase;
  letter-spacing: .04em; }}
ul {{ list-style: none; padding: 0; margin: 0; display: grid; gap: .5em;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); }}
li.calc {{ background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  padding: .5em .75em; }}
li.calc h4 {{ margin: 0 0 .2em; font-size: 1.1em; }}
li.calc p {{ margin: .2em 0; }}
.summary {{ font-size: .92em; }}
.more {{ font-size: .9em; }}
code {{ background: var(--code); padding: 0 .2em; overflow-wrap: anywhere; }}
.notes {{ font-weight: 600; }}
footer {{ border-top: 1px solid var(--line); margin-top: 2em; padding-top: .5em;
  font-size: .92em; }}
</style></head>
<body>
<main>
<h1>ruleslab</h1>
<p class="lead">Live, exact calculators for the Aberrant 2.0/2.1 and Chimera rules. Everything
runs in your browser, Python included, and nothing is sent anywhere.</p>
<p id="offline-status" role="status" hidden></p>
<div class="tools">
<div class="search" role="search"><label for="search">Find a calculator</label><input
 type="search" id="search" autocomplete="off" placeholder="e.g. fall, soak, burst"
 maxlength="{SEARCH_MAX}" aria-describedby="search-count search-cut"></div>
<a class="notes" href="rules-notes/index.html">Rules notes: how unclear rules are read</a>
<a class="notes" href="app.html?calculator=tracker">Encounter tracker: run a fight, turn by turn</a>
<a class="notes" href="app.html?calculator=sheet">Character sheets: see and edit a character</a>
<a class="notes" href="docs/index.html">Documentation: for GMs, rules authors, developers</a>
</div>
<p id="search-count" class="visually-hidden" aria-live="polite"></p>
<p id="search-cut" class="search-cut" role="status" hidden></p>
<p id="no-results" role="status" hidden></p>
{groups}
<footer>
<p>A calculator opens in about 2 seconds on a first visit and about 1 second after that; a
notebook takes about 4 seconds (3 after the first visit; a busy or slow machine can take
twice as long).</p>
<p>All notebooks: <a href="lab/index.html?path=index.ipynb">the index notebook</a>.
To embed a calculator, pre-set and as tall as its content, in your own page: include
<code>&lt;script src="…/embed.js" defer&gt;&lt;/script&gt;</code> once (… is this site's
address) and write <code>&lt;div data-ruleslab="lifting" data-strength="5"&gt;&lt;/div&gt;</code>
where it goes; Sphinx and MkDocs recipes, live: <a href="docs/embedding.html">embedding a
calculator</a>.</p>
<p class="version">ruleslab {escape(project_version())}</p>
</footer>
</main>
{_SEARCH_SCRIPT}
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
    """Write ``index.html`` (the landing page), ``app.html``, each calculator's own app
    page (:func:`calculator_page`) and static page (:func:`static_page_html`),
    ``embed.js`` and the rules notes' pages (:func:`tools.rules_notes.write_notes`) into
    a built site. A calculator's page never replaces a file JupyterLite put there."""
    (site / "index.html").write_text(landing_html(), encoding="utf-8")
    (site / "app.html").write_text(app_page_html(), encoding="utf-8")
    for calc in CALCULATORS:
        page = site / calculator_page(calc)
        if page.exists() and "const BUILD_ = " not in page.read_text(encoding="utf-8"):
            raise FileExistsError(f"{page}: the site has such a file; rename the calculator")
        page.write_text(app_page_html(calc), encoding="utf-8")
    (site / "calculators").mkdir(exist_ok=True)
    for calc in CALCULATORS:
        (site / static_page(calc)).write_text(static_page_html(calc), encoding="utf-8")
    (site / "embed.js").write_text(embed_js(), encoding="utf-8")
    write_notes(site)


def write_content(dest: Path = CONTENT) -> list[Path]:
    """Write the notebooks into ``dest`` and the widgets' table of rules notes
    (:data:`tools.rules_notes.INDEX_MODULE`); returns the files written."""
    dest.mkdir(parents=True, exist_ok=True)
    INDEX_MODULE.write_text(index_module(), encoding="utf-8")
    written = [INDEX_MODULE]
    for name, nb in [("index.ipynb", index_notebook())] + [
        (c.notebook, notebook(c)) for c in CALCULATORS
    ]:
        path = dest / name
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def check_content(dest: Path = CONTENT) -> list[str]:
    """Names of notebooks that differ from what the catalog generates, and the
    widgets' table of rules notes if it differs from the notes."""
    stale = []
    if not INDEX_MODULE.exists() or INDEX_MODULE.read_text(encoding="utf-8") != index_module():
        stale.append(str(INDEX_MODULE.relative_to(REPO)))
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
