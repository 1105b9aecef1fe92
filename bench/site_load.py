"""Benchmark: how long a GM waits for a calculator, what it downloads, how fast it redraws.

Issue 21's figures (and issue 8's), in one run, side by side with two peers:

* **bare Pyodide**: npm's Pyodide files as shipped (``node_modules/pyodide``, byte
  for byte) and ``bench/bare_pyodide.html``, a page running ``loadPyodide()`` and
  one line of Python that writes an element; the app ratios are against it;
* **stock JupyterLite** (the same JupyterLite and pyodide-kernel versions, no
  changes of ours: ``tools.build_site.build_site(out, stock=True)``) showing one
  line of HTML in its REPL; the notebook ratio is against it.

Every site is served from 127.0.0.1 by a counting static server that lets the
browser cache for an hour, as a static host would (the development server in
``tools/build_site.py`` forbids caching instead). **Cold**: a new Chromium
profile; **warm**: the same profile, page reopened. Medians of ``--runs``.

1. **Peers**: time to the bare page's element, and to the stock REPL's element.
2. **App page**, the calculator's own (``<key>.html``, its figures in the first
   response; ``--page query``: ``app.html?calculator=<key>``, which fetches them after
   it), cold and warm: **first figure
   visible** (the first ``[data-figure]`` element with text, in the layout, static
   or live: stamped by an init script at the first animation frame that shows it),
   **live calculator** (its root ``.rl-calc-<key>`` in the DOM; a pre-rendered
   static root is ``.rl-calc.rl-prerender`` and never has that class) and
   **interactive**: as soon as the live input box is drawn, an init script in the
   calculator's page changes one input of the browser tests' ``CHANGES`` table
   (its ``input`` and ``change`` events, dispatched again each second until they
   take) and stamps the moment the figure shows the engine's new text; all seconds
   from navigation start.
3. **Background bytes**: after the cold app page became interactive, every file
   the server sent afterwards (the offline fill, whose requests carry
   ``X-Ruleslab-Precache``, and anything else) until 10 s of quiet (at most 90 s),
   summed as ``gzip -6`` of each file.
4. **Second page**: in a new profile, the app page of ``--calculator``; as soon as
   it is interactive (no waiting) the app page of ``--second-calculator`` opens in
   a new tab (the first stays open), timed to interactive from its own navigation.
5. **Embeds**: the README's plain-HTML recipe (``embed.js`` and its ``<div
   data-ruleslab>`` elements; click-to-start removed, two more calculators added:
   five) on a page served from a second origin, in a window tall enough to show
   them all (any still waiting off-screen is scrolled to), against the same page
   with its first embed only. Each embed is timed to interactive (as the app page,
   in its frame, from the host page's navigation start; its preset inputs
   considered), cold and warm; the slowest of five against the single one. Once
   all are interactive, the **browser's memory**: the sum of PSS (RSS if PSS is
   unreadable) of the browser's processes (``/proc/<pid>/smaps_rollup``), five
   against one: MB per extra embed. Read once the embeds' snapshot maker has ended
   (one embed makes the interpreter's snapshot for the next page: background work,
   as for the app page), three times: 2 s after that, then 10 s after (the figure:
   the browser's start-up transients, a spare process, garbage of the start, are
   gone by then; at 2 s one embed could read more than five), then after a forced
   garbage collection of the page's JavaScript (DevTools protocol,
   ``HeapProfiler.collectGarbage``: what the embeds hold).
6. **Notebook view**: ``lab/index.html?path=<notebook>``; kernel idle, Run All,
   time to the first ``.rl-calc-<key>`` drawn.
7. **Bytes** of the cold app-page load: every file the server sent (the workers'
   requests too) until it was quiet for a second after the calculator appeared,
   offline support apart; raw, ``gzip -6`` and brotli (if installed); the ten
   heaviest files.
8. **Redraw**: on each calculator's app page at default inputs, one input of
   ``CHANGES`` alternates between its typed value and its default
   ``--redraw-repeats`` times; time from just before the ``change`` event to the
   figure's new text (a MutationObserver, in the page's own clock); p95.

Times are taken with the pages' clocks: navigation start is the top document's
``performance.timeOrigin``; stamps made in frames are epoch milliseconds
(``timeOrigin + now()``), so a cross-origin embed's stamp compares with its host.

Usage::

    .venv/bin/python bench/site_load.py [--site build/site] [--runs 3]
        [--stock-site PATH] [--calculator dice_pool] [--second-calculator lifting]
        [--calculators dice_pool,lifting] [--redraw-repeats 20]
        [--skip-stock] [--skip-notebook] [--skip-redraw] [--skip-loads]
        [--skip-background] [--skip-second] [--skip-embeds]
    .venv/bin/python bench/site_load.py --link slow4g|fast4g [--runs 2]
        [--link-encoding auto|gzip]   # the first visit on a phone's network only
        [--page calculator|query|both]  # both: KEY.html and app.html?calculator=KEY
        [--first-figure-only]  # with --link: many runs of the first figure alone

``--link`` measures only the first visit on a phone's network (bench/slow_link.py:
one throttling server class for the site and bare stock Pyodide, compressing as a host
does, one shared bandwidth, one round trip per request), with the CPU as it is and 4×
slower.

Without ``--stock-site`` the stock peer is built into a temporary folder under
``build/`` and removed afterwards; with it, an existing build there is reused
(or one is built there and kept). Either way the run stops, before measuring,
if the peer's Pyodide files are not npm's byte for byte or a wheel holds
bytecode. The output is Markdown the README can quote, each figure against its
goal (PASS/MISS), the machine's load average stated, ending with one
``summary:`` line. No timed assertions live in the tests: this script is where
the figures come from.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, unquote, urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]

from bench.site_figures import (  # noqa: E402
    SizeCache,
    fmt_mb,
    fmt_ms,
    fmt_ratio,
    fmt_s,
    load_note,
    markdown_table,
    median,
    percentile,
    ratio,
    stock_problems,
    summary_line,
)
from bench.slow_link import LINKS, figure_report, link_report, run_link  # noqa: E402
from tests.browser.conftest import KERNEL_IDLE_JS  # noqa: E402  (the same check as the tests)
from tools.build_site import SiteRequestHandler  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.offline import JUPYTERLITE_WORKER, PAGE_SCRIPT, WORKER  # noqa: E402

#: Issue 21's goals: ratios to bare Pyodide (cold to cold, warm and second page to warm).
GOAL_VISIBLE, GOAL_APP_COLD, GOAL_APP_WARM, GOAL_SECOND = 0.15, 0.6, 0.6, 0.6
#: The slowest of five embeds against a single one; MB of browser memory per extra embed.
GOAL_EMBEDS, GOAL_EMBED_MB = 1.3, 15.0
#: MB (gzip) fetched in the background after a first app page.
GOAL_BACKGROUND_MB = 2.0
#: Kept from issue 8: notebook cold against stock JupyterLite cold, cold app-page MB (gzip),
#: worst redraw p95 (ms).
GOAL_NOTEBOOK, GOAL_GZIP_MB, GOAL_REDRAW_MS = 0.6, 10.0, 50.0

#: The bare Pyodide peer's page (served beside npm's ``pyodide/`` folder) and its element.
BARE_PAGE = ROOT / "bench" / "bare_pyodide.html"
BARE_SELECTOR = ".rl-bare-peer"
#: Background bytes: counted until the server is quiet this long, at most ``BACKGROUND_CAP``.
BACKGROUND_QUIET, BACKGROUND_CAP = 10.0, 90.0
#: The embed page: the README recipe's elements (click-to-start removed), then the first of
#: these calculators (at their defaults) that the recipe has not, up to five embeds.
EXTRA_EMBEDS = ("falling", "movement", "jumping", "health", "damage")
#: Seconds after the last embed was interactive: the first memory reading, and the
#: figure's (the quiet browser's).
EMBED_MEMORY_EARLY_S, EMBED_MEMORY_QUIET_S = 2, 10
#: The embed pages' window: wide as a desktop, tall enough to hold five drawn calculators.
EMBED_VIEWPORT = {"width": 1280, "height": 9000}
#: ``data-`` attributes of an embed that are not inputs (README: embed recipe).
EMBED_OPTIONS = frozenset({"ruleslab", "theme", "start", "height"})

#: The stock peer's code: one line of HTML, no ipywidgets, anywidget or ruleslab.
PEER_CODE = (
    "from IPython.display import HTML, display\n"
    "display(HTML('<div class=\"rl-calc-peer\">ready</div>'))"
)

#: Init script (every document and frame of a page): stamp, in epoch ms, the
#: first moment an element matching ``__SELECTOR__`` is in the DOM, and pass the
#: earliest stamp up to the top window.
WATCH_JS = """(() => {
  const SELECTOR = __SELECTOR__;
  const mark = () => {
    if (window.__rlSeen !== undefined) return true;
    if (!document.querySelector(SELECTOR)) return false;
    const at = performance.timeOrigin + performance.now();
    window.__rlSeen = at;
    let top = null;
    try { top = window.top; } catch (e) { top = null; }
    if (top && top !== window) {
      try {
        if (top.__rlSeen === undefined || at < top.__rlSeen) {
          top.__rlSeen = at;
          top.__rlSeenIn = "frame";
        }
      } catch (e) { /* a cross-origin parent: not ours */ }
    } else {
      window.__rlSeenIn = "page";
    }
    return true;
  };
  const observer = new MutationObserver(() => { if (mark()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})();"""

#: Init script (every document and frame): stamp, in epoch ms, the first moment an
#: element ``[data-figure]`` with text is in the layout (static or live), checked at each
#: animation frame (the moment before the browser paints), not at each DOM change: the
#: check reads styles and layout, and a calculator's build makes thousands of changes, so
#: checking on each made the page under test work out its layout again and again (105 ms
#: of the five embeds' shared thread in a profile, in frames whose own figures are
#: hidden until live); the earliest stamp is passed up to the top window when it is of
#: the same origin.
VISIBLE_JS = """(() => {
  const shown = () => {
    for (const el of document.querySelectorAll("[data-figure]")) {
      if (!el.textContent.trim() || el.getClientRects().length === 0) continue;
      if (getComputedStyle(el).visibility === "hidden") continue;
      return true;
    }
    return false;
  };
  const mark = () => {
    if (window.__rlVisible !== undefined) return true;
    if (!document.documentElement || !shown()) return false;
    const at = performance.timeOrigin + performance.now();
    window.__rlVisible = at;
    let top = null;
    try { top = window.top; } catch (e) { top = null; }
    if (top && top !== window) {
      try {
        if (top.__rlVisible === undefined || at < top.__rlVisible) top.__rlVisible = at;
      } catch (e) { /* a cross-origin parent: it reads this frame's own stamp */ }
    }
    return true;
  };
  const frame = () => { if (!mark()) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();"""

#: Init script (every document and frame) for the changes ``__CHANGES__`` (a list of
#: :meth:`Change.args`): in the page of one of their calculators (``calculator=`` of its
#: address: an app page or an embed's frame), make that change as soon as the live input
#: box is drawn, without waiting for the benchmark to look (it used to poll the frames
#: every 50 to 100 ms, each look a round trip to the page's busy thread, which the bare
#: peer, stamped in its page, never paid). ``window.__rlChange`` says how it went: ``at``
#: (epoch ms) is the moment the figure showed the expected text. The box is the live
#: calculator's (``.rl-calc-<key>``: never a pre-rendered copy), looked for at each
#: animation frame and every 50 ms (no layout is read on the build's DOM changes); the
#: events are dispatched again each second until the figure changes (a view may not
#: listen yet), which can only make the stamp later.
CHANGE_JS = r"""(() => {
  const changes = __CHANGES__;
  // app.html?calculator=<key>, or a calculator's own page, <key>.html
  const own = /\/([A-Za-z0-9_]+)\.html$/.exec(location.pathname);
  const here = new URLSearchParams(location.search).get("calculator") || (own && own[1]);
  const mine = changes.find((change) => change[0] === here);
  if (!mine || window.__rlChange) return;
  const [key, field, figure, text, expected, timeoutMs] = mine;
  const state = { key, done: false, at: null, error: "", tries: 0 };
  window.__rlChange = state;
  const root = () => document.querySelector(`.rl-calc-${key}`);
  const box = () => {
    const r = root();
    return r && r.querySelector(`.rl-field-${field} input, .rl-field-${field} textarea`);
  };
  const shown = () => {
    const r = root();
    const el = r && r.querySelector(`[data-figure="${figure}"]`);
    return el ? el.textContent : null;
  };
  const t0 = performance.now();
  let last = -Infinity;
  let timer = 0;
  let observer = null;
  const finish = (error) => {
    state.done = true;
    state.error = error;
    if (observer) observer.disconnect();
    clearInterval(timer);
  };
  const tick = () => {
    if (state.done) return;
    const now = performance.now();
    if (state.tries > 0 && shown() === expected) {
      state.at = performance.timeOrigin + now;
      finish("");
      return;
    }
    if (now - t0 > timeoutMs) {
      finish(`${figure} shows ${shown()}, not ${expected}, after ${state.tries} change(s)`);
      return;
    }
    if (now - last < 1000) return;
    const b = box();
    if (!b || b.getClientRects().length === 0) return;
    last = now;
    state.tries += 1;
    b.value = text;
    b.dispatchEvent(new Event("input", { bubbles: true }));
    b.dispatchEvent(new Event("change", { bubbles: true }));
    if (!observer) {
      // from now on, the figure is checked on each change of the page
      observer = new MutationObserver(tick);
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }
  };
  const frame = () => { tick(); if (!state.done) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  timer = setInterval(tick, 50);
})();"""


def change_script(changes: Sequence[Change], timeout_s: float) -> str:
    """:data:`CHANGE_JS` for ``changes`` (one per calculator), each given ``timeout_s``
    from its document's start."""
    args = [change.args(timeout_s * 1000) for change in changes]
    return CHANGE_JS.replace("__CHANGES__", json.dumps(args))


#: The state of the change started by :data:`CHANGE_JS` in a frame (``null``: none).
CHANGE_STATE_JS = "() => window.__rlChange ? Object.assign({}, window.__rlChange) : null"

#: One input change, timed in the page: set the box's text, dispatch the events
#: ipywidgets' text view listens to, resolve with the ms until the figure's text
#: is the expected one.
REDRAW_JS = """async ([key, field, figure, text, expected, timeoutMs]) => {
  const root = document.querySelector(`.rl-calc-${key}`);
  const box = root.querySelector(`.rl-field-${field} input, .rl-field-${field} textarea`);
  const shown = () => {
    const el = root.querySelector(`[data-figure="${figure}"]`);
    return el ? el.textContent : null;
  };
  return await new Promise((resolve, reject) => {
    let t0 = 0;
    let timer = 0;
    const observer = new MutationObserver(() => {
      if (shown() === expected) {
        const ms = performance.now() - t0;
        observer.disconnect();
        clearTimeout(timer);
        resolve(ms);
      }
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`${figure} still shows ${shown()}, not ${expected}`));
    }, timeoutMs);
    t0 = performance.now();
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });
}"""


# -- the counting server --------------------------------------------------------------


#: Offline support's own files (tools/offline.py), fetched once the calculator is drawn.
OFFLINE_FILES = frozenset({WORKER, JUPYTERLITE_WORKER, PAGE_SCRIPT})


@dataclass
class Served:
    """One response body the server sent; ``precache``: for offline support (the
    worker's scripts, or the worker filling its cache), not for the page itself."""

    path: Path
    nbytes: int
    precache: bool = False


class CountingServer:
    """A static server for one site that logs every file it sends; cacheable for an hour."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.log: list[Served] = []
        self.last_activity = time.monotonic()
        self._lock = threading.Lock()
        handler = partial(_CountingHandler, self, directory=str(site))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> CountingServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def record(self, served: Served) -> None:
        with self._lock:
            self.log.append(served)
        self.touch()

    def mark(self) -> int:
        """A position in the log; :meth:`since` returns what was sent after it."""
        with self._lock:
            return len(self.log)

    def since(self, mark: int) -> list[Served]:
        with self._lock:
            return list(self.log[mark:])

    def wait_quiet(self, quiet: float = 1.0, cap: float = 10.0) -> None:
        """Return once no request has come for ``quiet`` seconds (at most ``cap`` seconds)."""
        deadline = time.monotonic() + cap
        while time.monotonic() < deadline:
            idle = time.monotonic() - self.last_activity
            if idle >= quiet:
                return
            time.sleep(min(quiet - idle, 0.2))


class _CountingHandler(SiteRequestHandler):
    """The site's handler (its MIME types), logging each body sent; ``max-age=3600``."""

    def __init__(self, server_log: CountingServer, *args: Any, **kwargs: Any) -> None:
        self.counter = server_log
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "public, max-age=3600")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def send_head(self):  # type: ignore[no-untyped-def]
        self.counter.touch()
        return super().send_head()

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:  # type: ignore[override]
        data = source.read()
        path = Path(self.translate_path(unquote(urlsplit(self.path).path)))
        # logged before the body goes out: a client that has read it finds it logged
        rel = unquote(urlsplit(self.path).path).lstrip("/")
        precache = bool(self.headers.get("X-Ruleslab-Precache")) or rel in OFFLINE_FILES
        self.counter.record(Served(path, len(data), precache))
        outputfile.write(data)


# -- one page load --------------------------------------------------------------------


@dataclass
class Load:
    """One page load: seconds from navigation start to the watched element (``None`` if
    it failed), where it appeared, and the files the server sent meanwhile."""

    seconds: float | None
    where: str = ""
    files: list[Served] = field(default_factory=list)
    error: str = ""
    kernel_idle: float | None = None  # notebook view only: navigation → kernel idle
    # app pages only: navigation → first figure visible, → a changed input changed a figure
    visible: float | None = None
    interactive: float | None = None
    #: files sent after the page became interactive, until quiet (``None``: not counted)
    background: list[Served] | None = None
    #: app pages only: how Python started ("restored" from the snapshot a page before made,
    #: "none": started; the worker's report) and, for a page that made one, its maker's end
    snapshot: str = ""
    made: str = ""


@dataclass
class Pair:
    cold: Load
    warm: Load


def _seen_seconds(page: Any, timeout_ms: float) -> tuple[float, str]:
    """Wait for the init script's stamp; seconds from the top document's navigation start."""
    page.wait_for_function("() => window.__rlSeen !== undefined", timeout=timeout_ms, polling=50)
    seen, origin, where = page.evaluate(
        "() => [window.__rlSeen, performance.timeOrigin, window.__rlSeenIn]"
    )
    return (seen - origin) / 1000, where or "?"


def one_load(
    context: Any,
    server: CountingServer,
    url: str,
    selector: str,
    *,
    timeout_s: float,
    notebook: bool = False,
) -> Load:
    """Open ``url`` in a new page of ``context`` and time the first ``selector`` drawn.

    With ``notebook``, the page is a JupyterLab notebook: Run All once its kernel is idle.
    The page is closed once the server has been quiet for a second.
    """
    from playwright.sync_api import Error as PlaywrightError

    page = context.new_page()
    page.add_init_script(WATCH_JS.replace("__SELECTOR__", json.dumps(selector)))
    start = server.mark()
    load = Load(None)
    try:
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        if notebook:
            page.wait_for_function(KERNEL_IDLE_JS, timeout=timeout_s * 1000, polling=50)
            load.kernel_idle = page.evaluate("() => performance.now()") / 1000
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        load.seconds, load.where = _seen_seconds(page, timeout_s * 1000)
    except PlaywrightError as exc:
        load.error = str(exc).splitlines()[0]
        print(f"  ! {url[:80]}: {load.error}", file=sys.stderr, flush=True)
    server.wait_quiet()
    load.files = server.since(start)
    page.close()
    return load


@contextmanager
def browser_profile(pw: Any, viewport: dict[str, int] | None = None) -> Iterator[tuple[Any, Path]]:
    """A Chromium context on a new temporary profile, and the profile's folder (which
    names the browser's processes: :func:`browser_rollups`)."""
    with tempfile.TemporaryDirectory(prefix="rl-bench-profile-") as tmp:
        extra: dict[str, Any] = {} if viewport is None else {"viewport": viewport}
        context = pw.chromium.launch_persistent_context(
            tmp, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, **extra
        )
        try:
            yield context, Path(tmp)
        finally:
            context.close()


@contextmanager
def profile_context(pw: Any) -> Iterator[Any]:
    """A Chromium context on a new (temporary) profile."""
    with browser_profile(pw) as (context, _):
        yield context


def cold_and_warm(pw: Any, target: Target, *, timeout_s: float) -> Pair:
    """The target's page loaded in a new profile (cold), then reopened in the same profile
    (warm). An app page is timed to interactive, its cold load's background bytes counted."""
    with profile_context(pw) as context:

        def load(cold: bool) -> Load:
            if target.change is not None:
                return app_load(
                    context,
                    target.server,
                    target.url,
                    target.change,
                    timeout_s=timeout_s,
                    background=cold and target.background,
                )
            return one_load(
                context,
                target.server,
                target.url,
                target.selector,
                timeout_s=timeout_s,
                notebook=target.notebook,
            )

        cold = load(True)
        warm = load(False)
    return Pair(cold, warm)


# -- a changed input: app pages and embeds ---------------------------------------------


@dataclass(frozen=True)
class Change:
    """One scripted input change of calculator ``key``: ``field`` typed ``text`` (it held
    ``before``) turns ``figure`` from ``shown_before`` into ``expected`` (the engine's
    texts, on CPython)."""

    key: str
    field: str
    text: str
    before: str
    figure: str
    expected: str
    shown_before: str

    def args(self, timeout_ms: float) -> list[Any]:
        """:data:`CHANGE_JS`'s arguments."""
        return [self.key, self.field, self.figure, self.text, self.expected, timeout_ms]


def _figures(key: str, values: Mapping[str, Any]) -> dict[str, str]:
    """``key``'s figures (figure key → shown text) for the inputs ``values``."""
    from ruleslab.calculators import get

    calc = get(key)
    parsed = {p.name: p.parse(values[p.name]) for p in calc.params}
    return {f.key: f.text for f in calc.run(parsed).figures()}


def pick_change(
    key: str,
    changes: Sequence[tuple[str, str, str]],
    preset: Mapping[str, str] | None = None,
) -> Change:
    """The first of ``changes`` (``CHANGES[key]`` of tests/browser: field, text, figure)
    that alters a figure of ``key`` at its defaults overlaid with ``preset`` (an embed's
    inputs): the figure named there if it changes, else the first figure that does.

    Raises ``ValueError`` for a preset naming no input, or when no change alters a figure.
    """
    from ruleslab.calculators import get

    calc = get(key)
    preset = dict(preset or {})
    unknown = sorted(set(preset) - {p.name for p in calc.params})
    if unknown:
        raise ValueError(f"{key} has no input {', '.join(unknown)}")
    base = {**calc.defaults(), **preset}
    shown = _figures(key, base)
    for field_name, text, figure in changes:
        new = _figures(key, {**base, field_name: text})
        changing = [f for f in (figure, *new) if f in new and new[f] != shown.get(f)]
        if changing:
            fig = changing[0]
            before = str(base[field_name])
            return Change(key, field_name, text, before, fig, new[fig], shown.get(fig, ""))
    raise ValueError(f"no scripted change alters a figure of {key} at {preset or 'defaults'}")


def _changes_made(page: Any) -> dict[str, tuple[Any, dict[str, Any]]]:
    """The frame (of ``page`` and its frames) where each calculator's change
    (:data:`CHANGE_JS`) has started, with its state, by calculator."""
    from playwright.sync_api import Error as PlaywrightError

    found: dict[str, tuple[Any, dict[str, Any]]] = {}
    for frame in page.frames:
        try:
            state = frame.evaluate(CHANGE_STATE_JS)
        except PlaywrightError:
            continue  # a frame navigating away, or gone
        if state is not None:
            found.setdefault(state["key"], (frame, state))
    return found


def until_interactive(page: Any, change: Change, *, timeout_s: float) -> Load:
    """Wait until ``change`` (started in the page by :data:`CHANGE_JS`, which
    :func:`open_app` puts in it) has changed its figure in ``page`` (or a frame of it), and
    time it: seconds from navigation start to the live root, to the first figure visible
    and to the changed figure."""
    from playwright.sync_api import Error as PlaywrightError

    load = Load(None)
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            made = _changes_made(page).get(change.key)
            if made is not None and made[1]["done"]:
                frame, state = made
                break
            if time.monotonic() > deadline:
                if made is None:
                    what = f"no page of {change.key} (its change never started)"
                elif not made[1]["tries"]:
                    what = f"no live .rl-calc-{change.key} input box drawn"
                else:
                    what = f"{change.figure} never read {change.expected!r}"
                raise RuntimeError(f"{what} within {timeout_s:.0f} s")
            page.wait_for_timeout(50)
        if state["error"]:
            raise RuntimeError(state["error"])
        origin = page.evaluate("() => performance.timeOrigin")
        load.interactive = (state["at"] - origin) / 1000
        # the stamps: in the top window, or (a frame of another origin) in the frame's own
        stamps = "() => [window.__rlSeen, window.__rlSeenIn, window.__rlVisible]"
        seen, where, visible = page.evaluate(stamps)
        if seen is None or visible is None:
            in_frame = frame.evaluate(stamps)
            seen, where = (seen, where) if seen is not None else (in_frame[0], "frame")
            visible = visible if visible is not None else in_frame[2]
        load.seconds = None if seen is None else (seen - origin) / 1000
        load.where = where or "?"
        load.visible = None if visible is None else (visible - origin) / 1000
    except (PlaywrightError, RuntimeError) as exc:
        load.error = str(exc).splitlines()[0]
        print(f"  ! {page.url[:80]}: {load.error}", file=sys.stderr, flush=True)
    return load


def open_app(
    context: Any,
    url: str,
    change: Change,
    *,
    timeout_s: float,
    before: Callable[[Any], None] | None = None,
) -> Any:
    """A new page of ``context`` navigating to ``url``, the init scripts in place (and
    ``before(page)`` called just before it navigates: bench/slow_link.py slows its CPU)."""
    from playwright.sync_api import Error as PlaywrightError

    page = context.new_page()
    page.add_init_script(WATCH_JS.replace("__SELECTOR__", json.dumps(f".rl-calc-{change.key}")))
    page.add_init_script(VISIBLE_JS)
    page.add_init_script(change_script([change], timeout_s))
    if before is not None:
        before(page)
    try:
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    except PlaywrightError as exc:  # said here; the wait for the calculator then fails
        _note(f"  ! {url[:80]}: {str(exc).splitlines()[0]}")
    return page


def app_load(
    context: Any,
    server: CountingServer,
    url: str,
    change: Change,
    *,
    timeout_s: float,
    background: bool = False,
) -> Load:
    """An app page timed to interactive (:func:`until_interactive`); its files until the
    server is quiet for a second and, with ``background``, every file sent after it became
    interactive until :data:`BACKGROUND_QUIET` s of quiet (at most :data:`BACKGROUND_CAP`)."""
    start = server.mark()
    page = open_app(context, url, change, timeout_s=timeout_s)
    load = until_interactive(page, change, timeout_s=timeout_s)
    after = server.mark()
    server.wait_quiet()
    load.files = server.since(start)
    if background and load.interactive is not None:
        _note(f"  background: until {BACKGROUND_QUIET:.0f} s of quiet ...")
        server.wait_quiet(BACKGROUND_QUIET, BACKGROUND_CAP)
        load.background = server.since(after)
    if load.interactive is not None:
        load.snapshot, load.made = _snapshot_states(page, timeout_s)
    page.close()
    return load


#: The app page's snapshot maker has ended (or had nothing to do): ``window.ruleslab.snapshot``
SNAPSHOT_SETTLED_JS = (
    "() => !['', 'waiting', 'making'].includes((window.ruleslab || {}).snapshot || '')"
)


def _snapshot_states(page: Any, timeout_s: float) -> tuple[str, str]:
    """How the app page's Python started (``runtime.snapshot``) and, once its snapshot's
    maker has ended (waited for: it is the page's background work, as the offline fill
    is, and a page closed earlier would leave the next without a snapshot), how it ended
    (``window.ruleslab.snapshot``)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        started = page.evaluate("() => (window.ruleslab.runtime || {}).snapshot || '?'")
        page.wait_for_function(SNAPSHOT_SETTLED_JS, timeout=timeout_s * 1000, polling=250)
        return str(started), str(page.evaluate("() => window.ruleslab.snapshot"))
    except PlaywrightError as exc:
        _note(f"  ! snapshot: {str(exc).splitlines()[0]}")
        return "?", "?"


def second_page(
    pw: Any,
    server: CountingServer,
    first: tuple[str, Change],
    second: tuple[str, Change],
    *,
    timeout_s: float,
) -> Pair:
    """In a new profile: the first app page to interactive, then at once the second one in
    a new tab (the first still open), timed to interactive. ``Pair(first, second)``."""
    with profile_context(pw) as context:
        start = server.mark()
        page = open_app(context, first[0], first[1], timeout_s=timeout_s)
        one = until_interactive(page, first[1], timeout_s=timeout_s)
        other = open_app(context, second[0], second[1], timeout_s=timeout_s)
        two = until_interactive(other, second[1], timeout_s=timeout_s)
        server.wait_quiet()
        one.files = two.files = server.since(start)
        other.close()
        page.close()
    return Pair(one, two)


# -- embeds and the browser's memory ---------------------------------------------------


def embed_specs(element_html: str) -> list[tuple[str, dict[str, str]]]:
    """Each ``data-ruleslab`` element of ``element_html``: its key and preset inputs (every
    other ``data-`` attribute but the embed's options, as embed.js reads them)."""
    from html.parser import HTMLParser

    found: list[tuple[str, dict[str, str]]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            data = {k[5:]: v or "" for k, v in attrs if k.startswith("data-")}
            if "ruleslab" in data:
                inputs = {k: v for k, v in data.items() if k not in EMBED_OPTIONS}
                found.append((data["ruleslab"], inputs))

    parser = Parser()
    parser.feed(element_html)
    parser.close()
    return found


def embed_pages(recipe: str, site_url: str, host_in_recipe: str) -> tuple[str, str]:
    """The host pages of the embed figures from the README's plain-HTML recipe: the page
    with its first embed only, and the page with five (the recipe's, click-to-start
    removed, then from :data:`EXTRA_EMBEDS`); the recipe's host replaced by ``site_url``."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", recipe.replace(host_in_recipe, site_url))]
    script, *elements = [b for b in blocks if b]
    elements = [re.sub(r'\s+data-start="[^"]*"', "", e) for e in elements]
    have = {key for e in elements for key, _ in embed_specs(e)}
    extra = [f'<div data-ruleslab="{key}"></div>' for key in EXTRA_EMBEDS if key not in have]
    five = [*elements, *extra][:5]

    def page(title: str, embeds: Sequence[str]) -> str:
        body = "\n\n".join(embeds)
        return (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{title}</title><link rel="icon" href="data:,"></head><body>\n'
            f"<h1>{title}</h1>\n{script}\n\n{body}\n</body></html>\n"
        )

    return page("One embed", five[:1]), page("Five embeds", five)


#: Scroll to the first embed still waiting (no frame yet) that is not near the view.
SCROLL_WAITING_JS = """() => {
  for (const node of document.querySelectorAll("[data-ruleslab]")) {
    if (node.querySelector("iframe")) continue;
    if (node.getAttribute("data-ruleslab-state") !== "waiting") continue;
    const box = node.getBoundingClientRect();
    if (box.bottom >= -200 && box.top <= window.innerHeight + 200) continue;
    node.scrollIntoView({ block: "center" });
    return true;
  }
  return false;
}"""


@dataclass
class EmbedLoad:
    """One embed page: seconds from its navigation start until each embed (by key) was
    interactive (``None``: it was not), and the browser's memory once they all were:
    ``memory_mb`` after :data:`EMBED_MEMORY_QUIET_S` s (the figure), ``early_mb`` after
    :data:`EMBED_MEMORY_EARLY_S` s, ``collected_mb`` after a forced garbage collection;
    ``private_mb``: the anonymous and shared memory part of ``memory_mb``
    (:func:`private_mb`), of the same reading."""

    seconds: dict[str, float | None]
    memory_mb: float | None = None
    memory_kind: str = ""
    error: str = ""
    early_mb: float | None = None
    collected_mb: float | None = None
    private_mb: float | None = None

    @property
    def slowest(self) -> float | None:
        """The last embed's time; ``None`` if any failed."""
        times = list(self.seconds.values())
        return None if not times or None in times else max(t for t in times if t is not None)


def embeds_interactive(
    page: Any, url: str, changes: Sequence[Change], *, timeout_s: float
) -> tuple[dict[str, float], list[str]]:
    """Open the embed page ``url`` in ``page`` (its init scripts: :data:`VISIBLE_JS`, and
    :data:`CHANGE_JS` for ``changes``) and wait until each embed's change has been made,
    scrolling every 2 s to the embeds still waiting to start. The seconds from the page's
    navigation start to each embed interactive, by calculator, and the calculators not
    interactive within ``timeout_s`` (an embed whose change failed is in neither; its
    error is noted)."""
    page.add_init_script(VISIBLE_JS)
    page.add_init_script(change_script(changes, timeout_s))
    page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    origin = page.evaluate("() => performance.timeOrigin")
    seconds: dict[str, float] = {}
    pending = {c.key: c for c in changes}
    deadline = time.monotonic() + timeout_s
    scrolled = time.monotonic()
    while pending and time.monotonic() < deadline:
        for key, (_, state) in _changes_made(page).items():
            if key in pending and state["done"]:
                del pending[key]
                if state["error"]:
                    _note(f"  ! embed {key}: {state['error']}")
                else:
                    seconds[key] = (state["at"] - origin) / 1000
        if time.monotonic() - scrolled > 2:
            page.evaluate(SCROLL_WAITING_JS)
            scrolled = time.monotonic()
        page.wait_for_timeout(100)
    return seconds, list(pending)


def embed_load(
    context: Any,
    url: str,
    changes: Sequence[Change],
    *,
    timeout_s: float,
    rollups: Callable[[], list[dict[str, int]]] | None = None,
) -> EmbedLoad:
    """Open the embed page ``url``; as each embed's live calculator is drawn, make its
    change (all of them concurrently); time each (:func:`embeds_interactive`); then read
    the browser's memory from ``rollups()`` (:func:`browser_rollups`; see
    :class:`EmbedLoad`)."""
    from playwright.sync_api import Error as PlaywrightError

    result = EmbedLoad({c.key: None for c in changes})
    page = context.new_page()
    try:
        started = time.monotonic()
        seconds, pending = embeds_interactive(page, url, changes, timeout_s=timeout_s)
        result.seconds.update(seconds)
        deadline = started + timeout_s
        if pending:
            result.error = f"not interactive within {timeout_s:.0f} s: {', '.join(pending)}"
            _note(f"  ! {result.error}")
        elif rollups is not None:
            makers_ended(page, deadline)
            page.wait_for_timeout(EMBED_MEMORY_EARLY_S * 1000)
            result.early_mb = memory_mb(rollups())[0]
            page.wait_for_timeout((EMBED_MEMORY_QUIET_S - EMBED_MEMORY_EARLY_S) * 1000)
            quiet = rollups()
            result.memory_mb, result.memory_kind = memory_mb(quiet)
            result.private_mb = private_mb(quiet)
            collect_garbage(context, page)
            page.wait_for_timeout(1000)
            result.collected_mb = memory_mb(rollups())[0]
    except PlaywrightError as exc:
        result.error = str(exc).splitlines()[0]
        _note(f"  ! {url[:80]}: {result.error}")
    finally:
        page.close()
    return result


def makers_ended(page: Any, deadline: float) -> None:
    """Wait until the snapshot maker of every embed (each an app page) has ended: the
    embeds' background work (one of them makes the snapshot, the others find it made or
    being made), not what they hold."""
    from playwright.sync_api import Error as PlaywrightError

    for frame in page.frames[1:]:
        try:
            left_ms = max(1.0, deadline - time.monotonic()) * 1000
            frame.wait_for_function(SNAPSHOT_SETTLED_JS, timeout=left_ms, polling=250)
        except PlaywrightError as exc:
            _note(f"  ! embed snapshot: {str(exc).splitlines()[0]}")


def embed_pair(
    pw: Any, url: str, changes: Sequence[Change], *, timeout_s: float
) -> tuple[EmbedLoad, EmbedLoad]:
    """The embed page in a new profile (cold, with memory), then reopened (warm)."""
    with browser_profile(pw, EMBED_VIEWPORT) as (context, profile):
        rollups = partial(browser_rollups, profile)
        cold = embed_load(context, url, changes, timeout_s=timeout_s, rollups=rollups)
        warm = embed_load(context, url, changes, timeout_s=timeout_s, rollups=rollups)
    return cold, warm


def collect_garbage(context: Any, page: Any) -> None:
    """A full garbage collection of ``page``'s JavaScript and of each of its frames in
    another process (frames in the page's process are collected with it)."""
    from playwright.sync_api import Error as PlaywrightError

    sessions = [context.new_cdp_session(page)]
    for frame in page.frames[1:]:
        try:
            sessions.append(context.new_cdp_session(frame))
        except PlaywrightError:
            continue  # (in the page's process: no session of its own)
    for session in sessions:
        session.send("HeapProfiler.collectGarbage")
        session.detach()


def rollup_kb(text: str) -> dict[str, int]:
    """``/proc/<pid>/smaps_rollup``'s ``Name: N kB`` lines, as kB by name."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^(\w+):\s+(\d+) kB$", line.strip())
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def descendants(roots: Iterable[int], parents: Mapping[int, int]) -> set[int]:
    """``roots`` and every process under them, from a pid → parent pid map."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(children.get(pid, []))
    return seen


def memory_mb(rollups: Sequence[Mapping[str, int]]) -> tuple[float, str]:
    """MB (10^6 bytes) of processes from their rollups: the sum of PSS if every one has it,
    else of RSS; and which (``PSS``/``RSS``)."""
    kind = "Pss" if rollups and all("Pss" in r for r in rollups) else "Rss"
    return sum(r.get(kind, 0) for r in rollups) * 1024 / 1e6, kind.upper()


def private_mb(rollups: Sequence[Mapping[str, int]]) -> float | None:
    """MB of processes' anonymous and shared memory from their rollups (the sum of
    ``Pss_Anon`` and ``Pss_Shmem``; ``None`` if a rollup lacks them): their PSS but for
    file-backed pages. Those are mostly the browser's binary and libraries, shared with
    any other Chromium running on the machine: PSS divides a shared page by the number of
    processes mapping it, so that part moves with whatever else runs, by tens of MB between
    two readings of the same page on a busy machine."""
    if not rollups or not all("Pss_Anon" in r and "Pss_Shmem" in r for r in rollups):
        return None
    return sum(r["Pss_Anon"] + r["Pss_Shmem"] for r in rollups) * 1024 / 1e6


def browser_rollups(profile: Path) -> list[dict[str, int]]:
    """The ``smaps_rollup`` of each process of the browser running on ``profile``: its
    main process (the one whose command line names the profile and whose parent's does
    not) and all under it (their memory: :func:`memory_mb`, :func:`private_mb`)."""
    flag = f"--user-data-dir={profile}"
    parents: dict[int, int] = {}
    cmdlines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdlines[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    roots = [
        pid
        for pid, cmd in cmdlines.items()
        if flag in cmd and flag not in cmdlines.get(parents.get(pid, 0), "")
    ]
    rollups = []
    for pid in sorted(descendants(roots, parents)):
        try:
            rollups.append(rollup_kb(Path(f"/proc/{pid}/smaps_rollup").read_text()))
        except OSError:
            continue
    return rollups


# -- redraw ----------------------------------------------------------------------------


@dataclass
class Redraw:
    """Input-to-figure times (ms) of one calculator, or the reason there are none."""

    key: str
    field_name: str = ""
    values: tuple[str, str] = ("", "")
    figure: str = ""
    times: list[float] = field(default_factory=list)
    error: str = ""

    @property
    def p95(self) -> float | None:
        return percentile(self.times, 95) if self.times else None


def _scope(page: Any, selector: str) -> Any:
    """The frame holding ``selector``: the page itself, else a child frame (the REPL)."""
    for frame in [page.main_frame, *page.frames]:
        if frame.evaluate("(s) => !!document.querySelector(s)", selector):
            return frame
    raise RuntimeError(f"{selector} is in no frame")


def redraw_one(
    context: Any,
    server: CountingServer,
    key: str,
    changes: Sequence[tuple[str, str, str]],
    *,
    repeats: int,
    timeout_s: float,
) -> Redraw:
    """Open ``key``'s app page and time ``repeats`` changes of one input (see module doc)."""
    from playwright.sync_api import Error as PlaywrightError

    result = Redraw(key)
    selector = f".rl-calc-{key}"
    page = context.new_page()
    page.add_init_script(WATCH_JS.replace("__SELECTOR__", json.dumps(selector)))
    try:
        change = pick_change(key, changes)
        result.field_name, result.figure = change.field, change.figure
        page.goto(f"{server.base}app.html?calculator={quote(key)}", wait_until="commit")
        _seen_seconds(page, timeout_s * 1000)
        server.wait_quiet()  # the first page of the profile may still be fetching
        page.wait_for_timeout(500)
        scope = _scope(page, selector)
        box = scope.locator(f"{selector} .rl-field-{change.field} input").first
        box.wait_for(timeout=30_000)
        default = box.input_value()
        result.values = (change.text, default)
        scope.locator(f'{selector} [data-figure="{change.figure}"]').first.wait_for()
        want = {change.text: change.expected, default: change.shown_before}
        for i in range(repeats):
            text = result.values[i % 2]
            ms = scope.evaluate(
                REDRAW_JS, [key, change.field, change.figure, text, want[text], 30_000]
            )
            result.times.append(ms)
            page.wait_for_timeout(150)  # let the views behind the figures settle
    except (PlaywrightError, RuntimeError, ValueError) as exc:
        result.error = str(exc).splitlines()[0]
        print(f"  ! redraw {key}: {result.error}", file=sys.stderr, flush=True)
    finally:
        page.close()
    return result


# -- the run -------------------------------------------------------------------------


def _versions(site: Path) -> str:
    """JupyterLite, pyodide-kernel and the lock's Python, as the site ships them."""

    def read(rel: str, *keys: str) -> str:
        try:
            value: Any = json.loads((site / rel).read_text(encoding="utf-8"))
            for key in keys:
                value = value[key]
            return str(value)
        except (OSError, KeyError, ValueError, TypeError):
            return "?"

    lite = read("jupyter-lite.json", "jupyter-config-data", "appVersion")
    kernel = read("extensions/@jupyterlite/pyodide-kernel-extension/package.json", "version")
    python = read("static/pyodide/pyodide-lock.json", "info", "python")
    return f"JupyterLite {lite}, pyodide-kernel {kernel}, Pyodide's Python {python}"


def _chromium_version() -> str:
    try:
        proc = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unknown ({exc})"
    return proc.stdout.strip() or "unknown"


def _loadavg() -> tuple[float, float, float]:
    return os.getloadavg()


def _fmt_load(load: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in load)


@contextmanager
def stock_site(path: Path | None) -> Iterator[Path]:
    """The stock peer's site: ``path`` if built there, else built (into ``path`` or a
    temporary folder under ``build/`` that is removed afterwards)."""
    from tools.build_site import build_site

    if path is not None and (path / "jupyter-lite.json").is_file():
        yield path
        return
    if path is not None:
        print(f"building the stock peer into {path} ...", file=sys.stderr, flush=True)
        yield _quiet(build_site)(path, stock=True)
        return
    (ROOT / "build").mkdir(exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-stock-", dir=ROOT / "build"))
    try:
        print("building the stock peer ...", file=sys.stderr, flush=True)
        yield _quiet(build_site)(tmp / "site", stock=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _quiet(fn: Callable[..., Path]) -> Callable[..., Path]:
    """``fn`` with its prints sent to stderr (stdout is the report)."""

    def run(*args: Any, **kwargs: Any) -> Path:
        saved, sys.stdout = sys.stdout, sys.stderr
        try:
            return fn(*args, **kwargs)
        finally:
            sys.stdout = saved

    return run


def _changes() -> dict[str, list[tuple[str, str, str]]]:
    """The browser tests' scripted changes (field, text typed, figure), one table for both."""
    import importlib.util

    path = ROOT / "tests" / "browser" / "test_calculators.py"
    spec = importlib.util.spec_from_file_location("_rl_test_calculators", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.CHANGES)


def _peer_url(base: str) -> str:
    """The stock site's REPL running :data:`PEER_CODE` at once, code hidden (as app links do)."""
    query = urlencode(
        {
            "kernel": "python",
            "showBanner": "0",
            "hideCodeInput": "1",
            "execute": "1",
            "code": PEER_CODE,
        },
        quote_via=quote,
    )
    return f"{base}repl/index.html?{query}"


@dataclass
class Target:
    """A page timed cold and warm in each run; with ``change``, an app page timed to
    interactive (and, with ``background``, its cold load's background bytes counted)."""

    name: str
    server: CountingServer
    url: str
    selector: str
    notebook: bool = False
    change: Change | None = None
    background: bool = False


@dataclass
class EmbedRun:
    """One run of the embed figures: the one-embed page and the five-embed page, each
    ``(cold, warm)``."""

    single: tuple[EmbedLoad, EmbedLoad]
    five: tuple[EmbedLoad, EmbedLoad]


@dataclass
class Results:
    """Everything one run measured, for :func:`report`."""

    calculator: str
    runs: int
    repeats: int
    site: Path
    stock: Path | None
    pairs: dict[str, list[Pair]]
    redraws: list[Redraw]
    loads: tuple[tuple[float, float, float], ...]  # before, when measuring began, at the end
    skipped: set[str]
    #: the second-page runs: ``Pair(first page, second page)``
    second: list[Pair] = field(default_factory=list)
    second_calculator: str = ""
    embeds: list[EmbedRun] = field(default_factory=list)
    embed_keys: list[str] = field(default_factory=list)
    bare: Path | None = None  # the bare peer's npm Pyodide folder


@contextmanager
def bare_root(npm_pyodide: Path) -> Iterator[Path]:
    """A folder serving the bare peer: :data:`BARE_PAGE` as ``index.html`` beside
    ``pyodide/``, a link to npm's files (so they are served byte for byte)."""
    with tempfile.TemporaryDirectory(prefix="rl-bench-bare-") as tmp:
        root = Path(tmp)
        shutil.copyfile(BARE_PAGE, root / "index.html")
        (root / "pyodide").symlink_to(npm_pyodide.resolve(), target_is_directory=True)
        yield root


@contextmanager
def embed_host(site_url: str) -> Iterator[tuple[CountingServer, list[tuple[str, dict[str, str]]]]]:
    """The two embed pages (``one.html``, ``five.html``) served from a second origin, and
    the five embeds' keys and preset inputs."""
    from tests.browser.test_embed import HOST_IN_RECIPES, recipes

    one, five = embed_pages(recipes()["html"], site_url, HOST_IN_RECIPES)
    with tempfile.TemporaryDirectory(prefix="rl-bench-embeds-") as tmp:
        (Path(tmp) / "one.html").write_text(one, encoding="utf-8")
        (Path(tmp) / "five.html").write_text(five, encoding="utf-8")
        host = CountingServer(Path(tmp)).start()
        try:
            yield host, embed_specs(five)
        finally:
            host.stop()


def _second_key(first: str, keys: Sequence[str]) -> str:
    """Another calculator than ``first``: lifting, or falling when ``first`` is lifting."""
    for key in ("lifting", "falling", *keys):
        if key != first and key in keys:
            return key
    raise ValueError("no second calculator")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="site under test")
    ap.add_argument("--stock-site", type=Path, help="reuse (or build and keep) the stock peer here")
    ap.add_argument("--runs", type=int, default=3, help="cold+warm pairs per page (median)")
    ap.add_argument("--calculator", default="dice_pool", help="calculator of the load timings")
    ap.add_argument("--second-calculator", help="the second page's (default: lifting/falling)")
    ap.add_argument("--calculators", help="redraw only these (comma-separated keys)")
    ap.add_argument("--redraw-repeats", type=int, default=20, help="input changes per calculator")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one load may take")
    ap.add_argument("--skip-stock", action="store_true", help="no stock JupyterLite peer")
    ap.add_argument("--skip-notebook", action="store_true", help="no notebook-view loads")
    ap.add_argument("--skip-redraw", action="store_true", help="no redraw timings")
    ap.add_argument("--skip-loads", action="store_true", help="no peer/app/notebook loads")
    ap.add_argument("--skip-background", action="store_true", help="no background-bytes wait")
    ap.add_argument("--skip-second", action="store_true", help="no second-page timings")
    ap.add_argument("--skip-embeds", action="store_true", help="no embed timings or memory")
    ap.add_argument(
        "--link",
        choices=sorted(LINKS),
        help="only the first visit on a phone's network, against bare Pyodide "
        "(bench/slow_link.py); repeat the run for the other link",
    )
    ap.add_argument(
        "--link-encoding",
        choices=("auto", "gzip"),
        default="auto",
        help="with --link: brotli where a .br is beside a file, else gzip (auto), or gzip only",
    )
    ap.add_argument(
        "--page",
        choices=("calculator", "query", "both"),
        default="calculator",
        help="the app page: the calculator's own (KEY.html, the default), "
        "app.html?calculator=KEY, or both (with --link; else the first only)",
    )
    ap.add_argument(
        "--first-figure-only",
        action="store_true",
        help="with --link: the app pages' first figure visible only, no wait for Python",
    )
    args = ap.parse_args(argv)
    # a plain kill should still close Chromium and remove the temporary stock site
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.runs < 1 or args.redraw_repeats < 1:
        ap.error("--runs and --redraw-repeats must be at least 1")

    from playwright.sync_api import sync_playwright

    from ruleslab.calculators import CALCULATORS, get
    from tools.make_content import calculator_page, embed_link, notebook_link

    load_start = _loadavg()
    site = args.site.resolve()
    if not (site / "jupyter-lite.json").is_file():
        ap.error(f"{site} is not a built site (tools/build_site.py)")
    calc = get(args.calculator)
    changes = _changes()
    all_keys = [c.key for c in CALCULATORS]
    keys = list(all_keys)
    if args.calculators:
        keys = [k.strip() for k in args.calculators.split(",") if k.strip()]
    second_key = args.second_calculator or _second_key(calc.key, all_keys)
    unknown = [k for k in [*keys, calc.key, second_key] if k not in changes]
    if unknown:
        ap.error(f"no scripted change (tests/browser CHANGES) for {', '.join(unknown)}")
    if second_key == calc.key:
        ap.error("--second-calculator must differ from --calculator")
    skipped = {
        name
        for name, skip in (
            ("loads", args.skip_loads),
            ("stock", args.skip_stock or args.skip_loads),
            ("notebook", args.skip_notebook or args.skip_loads),
            ("background", args.skip_background or args.skip_loads),
            ("redraw", args.skip_redraw),
            ("second", args.skip_second),
            ("embeds", args.skip_embeds),
        )
        if skip
    }
    npm_pyodide = ROOT / "node_modules" / "pyodide"
    change = pick_change(calc.key, changes[calc.key])
    # the app page visited: the calculator's own page (its figures in the first response),
    # app.html?calculator=<key> (they are fetched after it), or both in one run (--link)
    if args.page != "query" and not (site / calculator_page(calc)).is_file():
        ap.error(f"{site} has no {calculator_page(calc)}: use --page query")
    by_query = ("app-query", embed_link(calc))
    pages = [("app", calculator_page(calc))] if args.page != "query" else [by_query]
    if args.page == "both":
        pages.append(by_query)
    if args.link:
        with bare_root(npm_pyodide) as bare, sync_playwright() as pw:
            load_measure = _loadavg()
            res = run_link(
                pw,
                LINKS[args.link],
                site=site,
                bare=bare,
                pages=pages,
                change=change,
                runs=args.runs,
                timeout_s=args.timeout,
                brotli=args.link_encoding == "auto",
                figure_only=args.first_figure_only,
            )
        res.loads = (load_start, load_measure, _loadavg())
        print(figure_report(res) if args.first_figure_only else link_report(res))
        return 0
    second_change = pick_change(second_key, changes[second_key])

    pairs: dict[str, list[Pair]] = {"stock": [], "bare": [], "app": [], "notebook": []}
    redraws: list[Redraw] = []
    seconds: list[Pair] = []
    embed_runs: list[EmbedRun] = []
    embed_keys: list[str] = []
    stock_ctx = nullcontext(None) if "stock" in skipped else stock_site(args.stock_site)
    bare_ctx = nullcontext(None) if "loads" in skipped else bare_root(npm_pyodide)
    with stock_ctx as stock, bare_ctx as bare, sync_playwright() as pw:
        if stock is not None:
            problems = stock_problems(stock / "static" / "pyodide", npm_pyodide)
            if problems:
                _note(f"error: the peer {stock} is not stock JupyterLite:")
                for problem in problems:
                    _note(f"  {problem}")
                return 2
        load_measure = _loadavg()
        ours = CountingServer(site).start()
        peer = CountingServer(stock).start() if stock is not None else None
        bare_server = CountingServer(bare).start() if bare is not None else None
        app_url = ours.base + pages[0][1]
        targets: list[Target] = []
        if bare_server is not None:
            targets += [
                Target("bare", bare_server, bare_server.base + "index.html", BARE_SELECTOR),
                Target(
                    "app",
                    ours,
                    app_url,
                    f".rl-calc-{calc.key}",
                    change=change,
                    background="background" not in skipped,
                ),
            ]
        if peer is not None:
            targets.append(Target("stock", peer, _peer_url(peer.base), ".rl-calc-peer"))
        if "notebook" not in skipped:
            selector = f".rl-calc-{calc.key}"
            targets.append(
                Target("notebook", ours, ours.base + notebook_link(calc), selector, True)
            )
        try:
            for run in range(args.runs):
                # rotate the order, so no page always comes first
                shift = run % len(targets) if targets else 0
                for target in targets[shift:] + targets[:shift]:
                    _note(f"run {run + 1}/{args.runs}: {target.name} ...")
                    pair = cold_and_warm(pw, target, timeout_s=args.timeout)
                    pairs[target.name].append(pair)
                    what = "interactive" if target.change else "seconds"
                    cold, warm = getattr(pair.cold, what), getattr(pair.warm, what)
                    _note(f"  cold {fmt_s(cold)}, warm {fmt_s(warm)}")
                if "second" not in skipped:
                    _note(f"run {run + 1}/{args.runs}: second page ({second_key}) ...")
                    other = get(second_key)
                    other_page = embed_link if args.page == "query" else calculator_page
                    other_url = ours.base + other_page(other)
                    pair = second_page(
                        pw,
                        ours,
                        (app_url, change),
                        (other_url, second_change),
                        timeout_s=args.timeout,
                    )
                    seconds.append(pair)
                    _note(
                        f"  first {fmt_s(pair.cold.interactive)}, "
                        f"second {fmt_s(pair.warm.interactive)}"
                    )
                if "embeds" not in skipped:
                    with embed_host(ours.base) as (host, specs):
                        embed_changes = [pick_change(k, changes[k], pre) for k, pre in specs]
                        embed_keys = [c.key for c in embed_changes]
                        _note(f"run {run + 1}/{args.runs}: one embed ...")
                        single = embed_pair(
                            pw, host.base + "one.html", embed_changes[:1], timeout_s=args.timeout
                        )
                        _note(f"  {[(e.slowest, e.memory_mb) for e in single]}")
                        _note(f"run {run + 1}/{args.runs}: five embeds ...")
                        five = embed_pair(
                            pw, host.base + "five.html", embed_changes, timeout_s=args.timeout
                        )
                        _note(f"  {[(e.slowest, e.memory_mb) for e in five]}")
                        embed_runs.append(EmbedRun(single, five))
            if "redraw" not in skipped:
                with profile_context(pw) as context:
                    for key in keys:
                        _note(f"redraw {key} ...")
                        redraws.append(
                            redraw_one(
                                context,
                                ours,
                                key,
                                changes[key],
                                repeats=args.redraw_repeats,
                                timeout_s=args.timeout,
                            )
                        )
        finally:
            for server in (ours, peer, bare_server):
                if server is not None:
                    server.stop()
        results = Results(
            calculator=calc.key,
            runs=args.runs,
            repeats=args.redraw_repeats,
            site=site,
            stock=stock,
            pairs=pairs,
            redraws=redraws,
            loads=(load_start, load_measure, _loadavg()),
            skipped=skipped,
            second=seconds,
            second_calculator=second_key,
            embeds=embed_runs,
            embed_keys=embed_keys,
            bare=None if bare is None else npm_pyodide,
        )
        print(report(results))  # inside: the stock site may be a temporary folder
    return 0


def _note(text: str) -> None:
    """Progress, on stderr (stdout is the report)."""
    print(text, file=sys.stderr, flush=True)


def _goal(value: float | None, goal: float) -> str:
    """``PASS`` when ``value`` is at most ``goal``, ``**MISS**`` above it, ``n/a`` unmeasured."""
    if value is None:
        return "n/a"
    return "PASS" if value <= goal else "**MISS**"


def _med(pairs: list[Pair], which: str, attr: str = "seconds") -> float | None:
    """Median over runs of ``attr`` of the ``cold`` or ``warm`` load."""
    return median(getattr(getattr(p, which), attr) for p in pairs)


def _each(pairs: list[Pair], attr: str = "seconds") -> str:
    """Every run's ``attr`` seconds, ``cold / warm``."""

    def fmt(which: str) -> str:
        return ", ".join(
            "failed" if (s := getattr(getattr(p, which), attr)) is None else f"{s:.2f}"
            for p in pairs
        )

    return f"{fmt('cold')} / {fmt('warm')}"


#: One row of the goals table: figure, ratio or value, how it was formed, goal, unit.
Goal = tuple[str, float | None, str, float, str]


@dataclass
class Figures:
    """The figures of the goals table and the summary line (``None``: not measured)."""

    bare_cold: float | None = None
    bare_warm: float | None = None
    visible_cold: float | None = None
    app_cold: float | None = None
    app_warm: float | None = None
    second: float | None = None
    single_embed: float | None = None
    five_embeds: float | None = None
    embed_extra_mb: float | None = None
    background_gzip_mb: float | None = None
    stock_cold: float | None = None
    notebook_cold: float | None = None
    app_gzip_mb: float | None = None
    redraw_p95_ms: float | None = None
    redraw_worst: str = ""

    def goals(self) -> list[Goal]:
        """``(figure, ratio or value, how it was formed, goal, unit)`` per goal."""
        f = self

        def of(name: str, num: float | None, den: float | None, goal: float) -> Goal:
            return (name, ratio(num, den), f"{fmt_s(num)} / {fmt_s(den)}", goal, "×")

        return [
            of(
                "first figure visible, cold / bare Pyodide cold",
                f.visible_cold,
                f.bare_cold,
                GOAL_VISIBLE,
            ),
            of(
                "app page interactive, cold / bare Pyodide cold",
                f.app_cold,
                f.bare_cold,
                GOAL_APP_COLD,
            ),
            of(
                "app page interactive, warm / bare Pyodide warm",
                f.app_warm,
                f.bare_warm,
                GOAL_APP_WARM,
            ),
            of(
                "second app page interactive / bare Pyodide warm",
                f.second,
                f.bare_warm,
                GOAL_SECOND,
            ),
            of(
                "slowest of five embeds / a single embed, cold",
                f.five_embeds,
                f.single_embed,
                GOAL_EMBEDS,
            ),
            ("browser memory per extra embed", f.embed_extra_mb, "", GOAL_EMBED_MB, " MB"),
            (
                "background bytes after a first app page, gzip",
                f.background_gzip_mb,
                "",
                GOAL_BACKGROUND_MB,
                " MB",
            ),
            of(
                "notebook cold / stock JupyterLite cold",
                f.notebook_cold,
                f.stock_cold,
                GOAL_NOTEBOOK,
            ),
            ("cold app-page download, gzip", f.app_gzip_mb, "", GOAL_GZIP_MB, " MB"),
            (
                "input → redrawn figure, p95, worst calculator",
                f.redraw_p95_ms,
                f.redraw_worst,
                GOAL_REDRAW_MS,
                " ms",
            ),
        ]

    def summary(self) -> str:
        return summary_line(
            visible_ratio=ratio(self.visible_cold, self.bare_cold),
            app_cold_ratio=ratio(self.app_cold, self.bare_cold),
            app_warm_ratio=ratio(self.app_warm, self.bare_warm),
            second_page_ratio=ratio(self.second, self.bare_warm),
            five_embeds_ratio=ratio(self.five_embeds, self.single_embed),
            embed_extra_mb=self.embed_extra_mb,
            background_gzip_mb=self.background_gzip_mb,
            notebook_ratio=ratio(self.notebook_cold, self.stock_cold),
            app_gzip_mb=self.app_gzip_mb,
            redraw_p95_ms=self.redraw_p95_ms,
        )


def _fmt_goal_value(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "×":
        return fmt_ratio(value)
    return f"{value:.0f}{unit}" if unit == " ms" else f"{value:.2f}{unit}"


def report(res: Results) -> str:
    """The Markdown report, ending with the ``summary:`` line."""
    out: list[str] = []
    start, measuring, end = res.loads
    out.append(f"## Site load ({time.strftime('%Y-%m-%d')}, `bench/site_load.py`)\n")
    out.append(
        f"Machine: {os.cpu_count()} cores; load average (1/5/15 min) {_fmt_load(start)} before "
        f"the run ({load_note(start[0])}), {_fmt_load(measuring)} when measuring began, "
        f"{_fmt_load(end)} at the end. {_chromium_version()}, headless; sites served from "
        "127.0.0.1 with `Cache-Control: public, max-age=3600`.\n"
    )
    out.append(f"Site under test: `{_rel(res.site)}` ({_versions(res.site)}).")
    if res.bare is not None:
        out.append(f"Bare Pyodide peer: npm's `{_rel(res.bare)}` ({_npm_version(res.bare)}).")
    if res.stock is not None:
        out.append(f"Stock peer (`build_site(stock=True)`): {_versions(res.stock)}.")
    out.append("")

    fig = Figures()
    bare, stock, app, nb = (res.pairs[k] for k in ("bare", "stock", "app", "notebook"))
    fig.bare_cold, fig.bare_warm = _med(bare, "cold"), _med(bare, "warm")
    fig.stock_cold = _med(stock, "cold")
    fig.visible_cold = _med(app, "cold", "visible")
    fig.app_cold, fig.app_warm = _med(app, "cold", "interactive"), _med(app, "warm", "interactive")
    fig.notebook_cold = _med(nb, "cold")

    if "loads" not in res.skipped:
        out.append(
            f"### Time to a calculator (`{res.calculator}`; median of {res.runs} run(s); "
            "seconds from navigation start; each run a new profile, cold then warm)\n"
        )
        out.append(markdown_table(*_loads_rows(res, fig)))
        where = sorted({p.cold.where for p in app} - {""})
        out.append(
            f"\nThe app page's live calculator appeared in: {', '.join(where) or '?'} "
            "(`page`: the top document; `frame`: a frame). *Interactive*: the moment a "
            "changed input had changed a figure (the browser tests' scripted change, "
            "made as soon as the live calculator was there)."
        )
        started = ", ".join(f"{p.cold.snapshot or '?'} / {p.warm.snapshot or '?'}" for p in app)
        made = ", ".join(p.cold.made or "?" for p in app)
        out.append(
            f"Python, each run (cold / warm): {started} (`restored`: from the snapshot of "
            "the warmed interpreter the cold page's background made, docs/app-page.md; "
            f"`none`: started). The cold page's snapshot, each run: {made} (the page was "
            "left open until its maker ended)."
        )
        if nb:
            idle = median(p.cold.kernel_idle for p in nb)
            if idle is not None:
                out.append(
                    f"Notebook view: kernel idle, Run All sent, at {fmt_s(idle)} cold (median)."
                )
        failures = sum(
            (p.cold.seconds is None) + (p.warm.seconds is None) for p in stock + bare + nb
        ) + sum((p.cold.interactive is None) + (p.warm.interactive is None) for p in app)
        if failures:
            out.append(f"**{failures} load(s) failed** and are left out of the medians.")

    if res.second:
        out.append(_second_section(res, fig))
    if res.embeds:
        out.append(_embeds_section(res, fig))

    if "loads" not in res.skipped:
        sizes = SizeCache()  # (each file compressed once for both tables)
        table, fig.app_gzip_mb = _bytes_table(res, sizes)
        out.append(
            "\n### Bytes the server sent (median of runs; every file the page and its workers "
            "fetched until the server was quiet for 1 s after the calculator appeared; "
            "MB = 10^6 bytes)\n"
        )
        out.append(table)
        if "background" not in res.skipped:
            section, fig.background_gzip_mb = _background_section(res, sizes)
            out.append(section)

    if res.redraws:
        table, worst = _redraw_table(res.redraws)
        out.append(
            "\n### Input change to redrawn figure (app page, default inputs; "
            f"{res.repeats} changes alternating two values; ms in the page's clock, from "
            "just before the input's change event to the figure's new text in the DOM)\n"
        )
        out.append(table)
        if worst is not None:
            fig.redraw_p95_ms, fig.redraw_worst = worst.p95, f"{worst.key}, {worst.figure}"
            out.append(f"\nWorst p95: **{worst.key}** ({worst.figure}): {fmt_ms(worst.p95)}.")
        failed = [r.key for r in res.redraws if not r.times]
        if failed:
            out.append(f"**Redraw failed for {', '.join(failed)}** (left out of the worst p95).")

    out.append(
        f"\n### Against the issue's goals (machine load average {_fmt_load(start)} before, "
        f"{_fmt_load(end)} after: {load_note(start[0])})\n"
    )
    rows = []
    for name, value, how, goal, unit in fig.goals():
        shown = _fmt_goal_value(value, unit) + (f" ({how})" if how and value is not None else "")
        rows.append([name, shown, f"≤ {_fmt_goal_value(goal, unit)}", _goal(value, goal)])
    out.append(markdown_table(["figure", "measured", "target", ""], rows))
    out.append("")
    out.append(fig.summary())
    return "\n".join(out)


def _loads_rows(res: Results, fig: Figures) -> tuple[list[str], list[list[str]]]:
    """The time table: the peers, the app page's three moments, the notebook view."""
    bare, stock, app, nb = (res.pairs[k] for k in ("bare", "stock", "app", "notebook"))

    def row(label: str, pairs: list[Pair], attr: str = "seconds") -> list[str]:
        cold, warm = _med(pairs, "cold", attr), _med(pairs, "warm", attr)
        return [
            label,
            fmt_s(cold),
            fmt_s(warm),
            fmt_ratio(ratio(cold, fig.bare_cold)),
            fmt_ratio(ratio(warm, fig.bare_warm)),
            _each(pairs, attr),
        ]

    rows = [row("bare Pyodide: `loadPyodide()` + one line writing an element (the peer)", bare)]
    if stock:
        rows.append(row("stock JupyterLite REPL, one HTML line", stock))
    rows += [
        row("app page: first figure visible", app, "visible"),
        row("app page: live calculator in the DOM", app),
        row("app page: **interactive** (a changed input changed a figure)", app, "interactive"),
    ]
    if nb:
        rows.append(row("notebook view: first calculator after Run All", nb))
    headers = ["page", "cold", "warm", "cold / bare cold", "warm / bare warm"]
    return [*headers, "each run, s (cold / warm)"], rows


def _second_section(res: Results, fig: Figures) -> str:
    """The second page: its time to interactive against bare Pyodide warm."""
    first = median(p.cold.interactive for p in res.second)
    fig.second = median(p.warm.interactive for p in res.second)
    each = ", ".join(fmt_s(p.warm.interactive) for p in res.second)
    rows = [
        [
            f"first app page (`{res.calculator}`), interactive",
            fmt_s(first),
            fmt_ratio(ratio(first, fig.bare_cold)) + " (of bare cold)",
            ", ".join(fmt_s(p.cold.interactive) for p in res.second),
        ],
        [
            f"second app page (`{res.second_calculator}`), interactive",
            fmt_s(fig.second),
            fmt_ratio(ratio(fig.second, fig.bare_warm)),
            each,
        ],
    ]
    return (
        f"\n### A second page (median of {len(res.second)} run(s); new profile; the second "
        "page opened in a new tab the moment the first was interactive, the first left "
        "open; seconds from each page's navigation start)\n\n"
        + markdown_table(["page", "interactive", "/ bare warm", "each run"], rows)
    )


def _embeds_section(res: Results, fig: Figures) -> str:
    """The embed pages: each embed's time to interactive, the slowest against the single
    embed, and the browser's memory."""
    keys = res.embed_keys
    out = [
        f"\n### Embeds (median of {len(res.embeds)} run(s); the README's plain-HTML recipe "
        f"on a second origin, {EMBED_VIEWPORT['width']}×{EMBED_VIEWPORT['height']} window; "
        "seconds from the host page's navigation start to each embed interactive)\n"
    ]
    rows = []
    for label, page, which in (
        ("one embed, cold", "single", 0),
        ("one embed, warm", "single", 1),
        ("five embeds, cold", "five", 0),
        ("five embeds, warm", "five", 1),
    ):
        loads: list[EmbedLoad] = [getattr(r, page)[which] for r in res.embeds]
        cells = [
            fmt_s(median(load.seconds.get(k) for load in loads)) if k in loads[0].seconds else ""
            for k in keys
        ]
        slowest = median(load.slowest for load in loads)
        mem = median(load.memory_mb for load in loads)
        kind = next((load.memory_kind for load in loads if load.memory_kind), "")
        rows.append([label, *cells, fmt_s(slowest), f"{fmt_mb_value(mem)} {kind}".strip()])
    out.append(
        markdown_table(["page", *[f"`{k}`" for k in keys], "slowest", "browser memory"], rows)
    )
    single = [r.single[0] for r in res.embeds]
    five = [r.five[0] for r in res.embeds]
    fig.single_embed = median(load.slowest for load in single)
    fig.five_embeds = median(load.slowest for load in five)
    warm_ratio = ratio(
        median(r.five[1].slowest for r in res.embeds),
        median(r.single[1].slowest for r in res.embeds),
    )
    extra = [
        (f.memory_mb - s.memory_mb) / (len(f.seconds) - len(s.seconds))
        for s, f in zip(single, five, strict=True)
        if f.memory_mb is not None and s.memory_mb is not None and len(f.seconds) > len(s.seconds)
    ]
    fig.embed_extra_mb = median(extra)

    def per_extra(attr: str) -> str:
        values = [
            (getattr(f, attr) - getattr(s, attr)) / (len(f.seconds) - len(s.seconds))
            for s, f in zip(single, five, strict=True)
            if getattr(f, attr) is not None
            and getattr(s, attr) is not None
            and len(f.seconds) > len(s.seconds)
        ]
        return fmt_mb_value(median(values))

    out.append(
        f"\nSlowest of five / one embed: cold {fmt_ratio(ratio(fig.five_embeds, fig.single_embed))}"
        f", warm {fmt_ratio(warm_ratio)}. Browser memory (all of the browser's processes, "
        f"cold loads), per extra embed: {fmt_mb_value(fig.embed_extra_mb)} once every embed "
        f"was interactive, its snapshot maker done and {EMBED_MEMORY_QUIET_S} s after (the "
        "figure; "
        f"{per_extra('early_mb')} {EMBED_MEMORY_EARLY_S} s after, "
        f"{per_extra('collected_mb')} after a forced garbage collection); of the figure, "
        f"anonymous and shared memory (PSS but for file-backed pages, which other Chromiums "
        f"on the machine share and move): {per_extra('private_mb')}."
    )
    errors = [load.error for r in res.embeds for load in (*r.single, *r.five) if load.error]
    if errors:
        out.append(f"**{len(errors)} embed load(s) failed:** {'; '.join(errors)}")
    return "\n".join(out)


def fmt_mb_value(mb: float | None) -> str:
    """``412 MB`` (already in MB), or ``n/a``."""
    return "n/a" if mb is None else f"{mb:.0f} MB"


def _background_section(res: Results, sizes: SizeCache) -> tuple[str, float | None]:
    """What the server sent after the cold app page became interactive, until quiet."""
    loads = [p.cold for p in res.pairs["app"] if p.cold.background is not None]
    if not loads:
        return "\nBackground bytes: n/a (no cold app page became interactive).", None
    sent = [load.background or [] for load in loads]
    totals = [sizes.total(s.path for s in files) for files in sent]
    raw, gz = median(t[0] for t in totals), median(t[1] for t in totals)
    precache = median(sum(s.precache for s in files) for files in sent)
    nfiles = median(len(files) for files in sent)
    text = (
        "\n### Background bytes after a first app page (cold; every file the server sent "
        "after the page became interactive, until "
        f"{BACKGROUND_QUIET:.0f} s of quiet, at most {BACKGROUND_CAP:.0f} s; median of runs)\n\n"
        + markdown_table(
            ["files", "of them offline precache", "raw", "gzip -6, each file"],
            [[f"{nfiles:.0f}", f"{precache:.0f}", fmt_mb(raw), fmt_mb(gz)]],
        )
    )
    if sent[0]:
        title = "the first run's background fetch"
        text += "\n\n" + _largest_files(sent[0], sizes, res.site, title=title)
    return text, None if gz is None else gz / 1e6


def _npm_version(folder: Path) -> str:
    try:
        package = json.loads((folder / "package.json").read_text("utf-8"))
        return f"pyodide {package['version']}"
    except (OSError, KeyError, ValueError):
        return "pyodide ?"


def _bytes_table(res: Results, sizes: SizeCache) -> tuple[str, float | None]:
    """The bytes table, and the cold app page's median gzip MB."""
    rows = []
    app_gzip_mb: float | None = None
    for label, name, which in (
        ("app page, cold", "app", "cold"),
        ("app page, warm", "app", "warm"),
        ("bare Pyodide, cold", "bare", "cold"),
        ("bare Pyodide, warm", "bare", "warm"),
        ("stock REPL, cold", "stock", "cold"),
        ("stock REPL, warm", "stock", "warm"),
    ):
        if name == "stock" and "stock" in res.skipped:
            continue
        loads = [getattr(p, which) for p in res.pairs[name] if getattr(p, which).seconds]
        if not loads:
            rows.append([label, "n/a", "n/a", "n/a", "n/a"])
            continue
        files = [[s for s in load.files if not s.precache] for load in loads]
        totals = [sizes.total(s.path for s in sent) for sent in files]
        raw, gz = median(t[0] for t in totals), median(t[1] for t in totals)
        br = None if not sizes.brotli else median(t[2] for t in totals)
        nfiles = median(len(sent) for sent in files)
        if (name, which) == ("app", "cold") and gz is not None:
            app_gzip_mb = gz / 1e6
        rows.append([label, f"{nfiles:.0f}", fmt_mb(raw), fmt_mb(gz), fmt_mb(br)])
    rows += _precache_rows(res, sizes)
    headers = ["load", "files sent", "raw", "gzip -6, each file", "brotli q11, each file"]
    table = markdown_table(headers, rows)
    if not sizes.brotli:
        table += "\n\nbrotli: n/a (the `brotli` module is not installed in this environment)."
    cold = [p.cold for p in res.pairs["app"] if p.cold.seconds]
    if cold:
        page_files = [s for s in cold[0].files if not s.precache]
        table += "\n\n" + _largest_files(page_files, sizes, res.site)
    return table, app_gzip_mb


def _precache_rows(res: Results, sizes: SizeCache) -> list[list[str]]:
    """The offline precache: what the server sent for it during the cold app-page loads
    (files the page had fetched come from the browser's HTTP cache), and the whole cache."""
    rows = []
    loads = [p.cold for p in res.pairs["app"] if p.cold.seconds]
    sent = [[s for s in load.files if s.precache] for load in loads]
    if any(sent):
        totals = [sizes.total(s.path for s in files) for files in sent]
        br = None if not sizes.brotli else median(t[2] for t in totals)
        rows.append(
            [
                "app page, cold: offline support, in the background after the calculator",
                f"{median(len(files) for files in sent):.0f}",
                fmt_mb(median(t[0] for t in totals)),
                fmt_mb(median(t[1] for t in totals)),
                fmt_mb(br),
            ]
        )
    manifest = res.site / "static" / "offline" / "manifest.json"
    if manifest.is_file():
        paths = [res.site / rel for rel in json.loads(manifest.read_text("utf-8"))["files"]]
        raw, gz, br_all = sizes.total(paths)
        rows.append(
            [
                "the whole offline cache (every file of the manifest)",
                str(len(paths)),
                fmt_mb(raw),
                fmt_mb(gz),
                fmt_mb(br_all),
            ]
        )
    return rows


def _largest_files(
    files: list[Served],
    sizes: SizeCache,
    site: Path,
    top: int = 10,
    title: str = "the first cold app-page load",
) -> str:
    """The files of one load (by default the first cold app page) that weigh most gzipped."""
    counts: dict[Path, int] = {}
    for served in files:
        counts[served.path] = counts.get(served.path, 0) + 1
    ranked = sorted(counts, key=lambda path: sizes.sizes(path)[1], reverse=True)
    rows = []
    for path in ranked[:top]:
        raw, gz, _ = sizes.sizes(path)
        times = f" (×{counts[path]})" if counts[path] > 1 else ""
        rows.append([f"`{_rel(path, site)}`{times}", fmt_mb(raw), fmt_mb(gz)])
    if len(ranked) > top:
        rest = sizes.total(p for p in ranked[top:] for _ in range(counts[p]))
        rows.append([f"{len(ranked) - top} other files", fmt_mb(rest[0]), fmt_mb(rest[1])])
    head = f"Largest files of {title}, by gzip size ({len(ranked)} files):"
    return head + "\n\n" + markdown_table(["file", "raw", "gzip -6"], rows)


def _redraw_table(redraws: list[Redraw]) -> tuple[str, Redraw | None]:
    """The redraw table, and the calculator with the worst p95."""
    rows = []
    worst: Redraw | None = None
    for r in redraws:
        if not r.times:
            failed = f"failed: {r.error}"
            rows.append([r.key, r.field_name or "-", "-", r.figure or "-", "0", "-", "-", failed])
            continue
        rows.append(
            [
                r.key,
                r.field_name,
                " ↔ ".join(r.values),
                r.figure,
                str(len(r.times)),
                fmt_ms(median(r.times)),
                fmt_ms(r.p95),
                fmt_ms(max(r.times)),
            ]
        )
        if worst is None or (r.p95 or 0) > (worst.p95 or 0):
            worst = r
    headers = ["calculator", "field", "values", "figure", "n", "median", "p95", "max"]
    return markdown_table(headers, rows), worst


def _rel(path: Path, base: Path = ROOT) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


if __name__ == "__main__":
    raise SystemExit(main())
