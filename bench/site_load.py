"""Benchmark: how long a GM waits for a calculator, what it downloads, how fast it redraws.

Issue 8's figures, in one run, side by side with **stock JupyterLite** (the same
JupyterLite and pyodide-kernel versions, Pyodide's files as npm ships them, no
changes of ours: ``tools.build_site.build_site(out, stock=True)``), which shows
one line of HTML in its REPL. Every site is served from 127.0.0.1 by a counting
static server that lets the browser cache for an hour, as a static host would
(the development server in ``tools/build_site.py`` forbids caching instead).
Each run opens every page twice in a new Chromium profile: **cold** (empty
cache), then **warm** (same profile, page reopened). Medians of ``--runs``.

1. **Stock peer**: ``repl/index.html`` of the stock site running code that
   displays ``<div class="rl-calc-peer">ready</div>``; time to that element.
2. **App page**: ``app.html?calculator=<key>`` of the site under test; time to
   the first interactive calculator: its root ``.rl-calc-<key>`` in the page
   (the app runtime) or in the frame ``#app`` (the older JupyterLite REPL page).
3. **Notebook view**: ``lab/index.html?path=<notebook>``; wait for the kernel to
   be idle, Run All, time to the first ``.rl-calc-<key>`` drawn.
4. **Bytes** of the cold app-page load: every file the server sent (the kernel
   worker's requests too, which a page-level network log would miss), until the
   server has been quiet for a second after the calculator appeared; summed
   raw, as ``gzip -6`` of each file, and as brotli (quality 11) if the
   ``brotli`` module is installed; the ten heaviest files are listed. Offline
   support, all of it after the calculator is drawn (the page's offline script,
   the service worker's scripts, and the worker filling its cache: those
   requests carry ``X-Ruleslab-Precache``), is counted apart: what the server
   sent for it within that wait, and the whole cache.
5. **Redraw**: on each calculator's app page at default inputs, one input of the
   browser tests' ``CHANGES`` table alternates between its typed value and its
   default ``--redraw-repeats`` times; the time from just before the input's
   ``change`` event is dispatched to the figure's new text in the DOM (a
   MutationObserver, in the page's own clock); p95 per calculator.

All times are taken with the page's clock: navigation start is the top
document's ``performance.timeOrigin``; an init script in every frame stamps the
moment the watched element is first in the DOM.

Usage::

    .venv/bin/python bench/site_load.py [--site build/site] [--runs 3]
        [--stock-site PATH] [--calculator dice_pool] [--calculators dice_pool,lifting]
        [--redraw-repeats 20] [--skip-notebook] [--skip-redraw] [--skip-loads]

Without ``--stock-site`` the stock peer is built into a temporary folder under
``build/`` and removed afterwards; with it, an existing build there is reused
(or one is built there and kept). Either way the run stops, before measuring,
if the peer's Pyodide files are not npm's byte for byte or a wheel holds
bytecode. The output is Markdown the README can quote, ending with one
``summary:`` line. No timed assertions live in the tests: this
script is where the figures come from.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
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
from tests.browser.conftest import KERNEL_IDLE_JS  # noqa: E402  (the same check as the tests)
from tools.build_site import SiteRequestHandler  # noqa: E402
from tools.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tools.offline import JUPYTERLITE_WORKER, PAGE_SCRIPT, WORKER  # noqa: E402

#: Issue 8's goals.
GOAL_APP_COLD, GOAL_APP_WARM, GOAL_NOTEBOOK = 0.25, 0.2, 0.6
GOAL_GZIP_MB, GOAL_REDRAW_MS = 10.0, 50.0

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
def profile_context(pw: Any, profile: Path | None = None) -> Iterator[Any]:
    """A Chromium context on a new (temporary) profile, or on ``profile``."""
    with tempfile.TemporaryDirectory(prefix="rl-bench-profile-") as tmp:
        context = pw.chromium.launch_persistent_context(
            str(profile or tmp), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield context
        finally:
            context.close()


def cold_and_warm(pw: Any, target: Target, *, timeout_s: float) -> Pair:
    """The target's page loaded in a new profile (cold), then reopened in the same profile
    (warm)."""
    with profile_context(pw) as context:

        def load() -> Load:
            return one_load(
                context,
                target.server,
                target.url,
                target.selector,
                timeout_s=timeout_s,
                notebook=target.notebook,
            )

        cold = load()
        warm = load()
    return Pair(cold, warm)


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


def _figure_texts(key: str, field_name: str, texts: Sequence[str]) -> list[dict[str, str]]:
    """Each text's figures (key → shown text) at default inputs, from the engine on CPython."""
    from ruleslab.calculators import get

    calc = get(key)
    out = []
    for text in texts:
        values = dict(calc.defaults())
        values[field_name] = text
        parsed = {p.name: p.parse(values[p.name]) for p in calc.params}
        out.append({f.key: f.text for f in calc.run(parsed).figures()})
    return out


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
        page.goto(f"{server.base}app.html?calculator={quote(key)}", wait_until="commit")
        _seen_seconds(page, timeout_s * 1000)
        server.wait_quiet()  # the first page of the profile may still be fetching
        page.wait_for_timeout(500)
        scope = _scope(page, selector)
        for field_name, text, figure in changes:
            box = scope.locator(f"{selector} .rl-field-{field_name} input").first
            box.wait_for(timeout=30_000)
            default = box.input_value()
            if text == default:
                continue
            shown = _figure_texts(key, field_name, [text, default])
            figures = [figure, *(f for f in shown[0] if f != figure)]
            changing = [f for f in figures if shown[0].get(f) != shown[1].get(f)]
            if changing:
                result.field_name, result.values, result.figure = (
                    field_name,
                    (text, default),
                    changing[0],
                )
                break
        else:
            result.error = "no scripted change alters a figure"
            return result
        scope.locator(f'{selector} [data-figure="{result.figure}"]').first.wait_for()
        want = {v: s[result.figure] for v, s in zip(result.values, shown, strict=True)}
        for i in range(repeats):
            text = result.values[i % 2]
            ms = scope.evaluate(
                REDRAW_JS, [key, result.field_name, result.figure, text, want[text], 30_000]
            )
            result.times.append(ms)
            page.wait_for_timeout(150)  # let the views behind the figures settle
    except (PlaywrightError, RuntimeError) as exc:
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
    """A page timed cold and warm in each run."""

    name: str
    server: CountingServer
    url: str
    selector: str
    notebook: bool = False


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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="site under test")
    ap.add_argument("--stock-site", type=Path, help="reuse (or build and keep) the stock peer here")
    ap.add_argument("--runs", type=int, default=3, help="cold+warm pairs per page (median)")
    ap.add_argument("--calculator", default="dice_pool", help="calculator of the load timings")
    ap.add_argument("--calculators", help="redraw only these (comma-separated keys)")
    ap.add_argument("--redraw-repeats", type=int, default=20, help="input changes per calculator")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one load may take")
    ap.add_argument("--skip-notebook", action="store_true", help="no notebook-view loads")
    ap.add_argument("--skip-redraw", action="store_true", help="no redraw timings")
    ap.add_argument("--skip-loads", action="store_true", help="no stock/app/notebook loads")
    args = ap.parse_args(argv)
    # a plain kill should still close Chromium and remove the temporary stock site
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.runs < 1 or args.redraw_repeats < 1:
        ap.error("--runs and --redraw-repeats must be at least 1")

    from playwright.sync_api import sync_playwright

    from ruleslab.calculators import CALCULATORS, get
    from tools.make_content import embed_link, notebook_link

    load_start = _loadavg()
    site = args.site.resolve()
    if not (site / "jupyter-lite.json").is_file():
        ap.error(f"{site} is not a built site (tools/build_site.py)")
    calc = get(args.calculator)
    changes = _changes()
    keys = [c.key for c in CALCULATORS]
    if args.calculators:
        keys = [k.strip() for k in args.calculators.split(",") if k.strip()]
    unknown = [k for k in keys if k not in changes]
    if unknown:
        ap.error(f"no scripted change (tests/browser CHANGES) for {', '.join(unknown)}")
    skipped = {
        name
        for name, skip in (
            ("loads", args.skip_loads),
            ("notebook", args.skip_notebook or args.skip_loads),
            ("redraw", args.skip_redraw),
        )
        if skip
    }

    pairs: dict[str, list[Pair]] = {"stock": [], "app": [], "notebook": []}
    redraws: list[Redraw] = []
    stock_ctx = nullcontext(None) if args.skip_loads else stock_site(args.stock_site)
    with stock_ctx as stock, sync_playwright() as pw:
        if stock is not None:
            problems = stock_problems(
                stock / "static" / "pyodide", ROOT / "node_modules" / "pyodide"
            )
            if problems:
                _note(f"error: the peer {stock} is not stock JupyterLite:")
                for problem in problems:
                    _note(f"  {problem}")
                return 2
        load_measure = _loadavg()
        ours = CountingServer(site).start()
        peer = CountingServer(stock).start() if stock is not None else None
        targets: list[Target] = []
        if peer is not None:
            selector = f".rl-calc-{calc.key}"
            targets += [
                Target("stock", peer, _peer_url(peer.base), ".rl-calc-peer"),
                Target("app", ours, ours.base + embed_link(calc), selector),
            ]
            if "notebook" not in skipped:
                targets.append(
                    Target("notebook", ours, ours.base + notebook_link(calc), selector, True)
                )
        try:
            for run in range(args.runs if targets else 0):
                # rotate the order, so no page always comes first
                shift = run % len(targets)
                for target in targets[shift:] + targets[:shift]:
                    _note(f"run {run + 1}/{args.runs}: {target.name} ...")
                    pair = cold_and_warm(pw, target, timeout_s=args.timeout)
                    pairs[target.name].append(pair)
                    _note(f"  cold {fmt_s(pair.cold.seconds)}, warm {fmt_s(pair.warm.seconds)}")
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
            ours.stop()
            if peer is not None:
                peer.stop()
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
        )
        print(report(results))  # inside: the stock site may be a temporary folder
    return 0


def _note(text: str) -> None:
    """Progress, on stderr (stdout is the report)."""
    print(text, file=sys.stderr, flush=True)


def _goal(value: float | None, goal: float) -> str:
    if value is None:
        return "n/a"
    return "met" if value <= goal else "**not met**"


def _med(pairs: list[Pair], which: str) -> float | None:
    return median(getattr(p, which).seconds for p in pairs)


def _each(pairs: list[Pair]) -> str:
    """Every run's seconds, ``cold / warm``."""

    def fmt(which: str) -> str:
        return ", ".join(
            "failed" if (s := getattr(p, which).seconds) is None else f"{s:.2f}" for p in pairs
        )

    return f"{fmt('cold')} / {fmt('warm')}"


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
    if res.stock is not None:
        out.append(f"Stock peer (`build_site(stock=True)`): {_versions(res.stock)}.")
    out.append("")

    stock, app, nb = res.pairs["stock"], res.pairs["app"], res.pairs["notebook"]
    stock_cold, stock_warm = _med(stock, "cold"), _med(stock, "warm")
    app_cold, app_warm = _med(app, "cold"), _med(app, "warm")
    nb_cold, nb_warm = _med(nb, "cold"), _med(nb, "warm")
    app_cold_ratio, app_warm_ratio = ratio(app_cold, stock_cold), ratio(app_warm, stock_warm)
    nb_ratio = ratio(nb_cold, stock_cold)
    gzip_mb: float | None = None

    if "loads" not in res.skipped:
        out.append(
            f"### Time to the first calculator (`{res.calculator}`; median of {res.runs} "
            "run(s); seconds from navigation start; each run a new profile, cold then warm)\n"
        )
        rows = [
            [
                "stock JupyterLite REPL, one HTML line (the peer)",
                fmt_s(stock_cold),
                fmt_s(stock_warm),
                "1.00×",
                "1.00×",
                _each(stock),
            ],
            [
                "app page, first interactive calculator",
                fmt_s(app_cold),
                fmt_s(app_warm),
                fmt_ratio(app_cold_ratio),
                fmt_ratio(app_warm_ratio),
                _each(app),
            ],
        ]
        if nb:
            rows.append(
                [
                    "notebook view, first calculator after Run All",
                    fmt_s(nb_cold),
                    fmt_s(nb_warm),
                    fmt_ratio(nb_ratio),
                    fmt_ratio(ratio(nb_warm, stock_warm)),
                    _each(nb),
                ]
            )
        headers = ["page", "cold", "warm", "cold / stock cold", "warm / stock warm"]
        out.append(markdown_table([*headers, "each run, s (cold / warm)"], rows))
        where = sorted({p.cold.where for p in app} - {""})
        out.append(
            f"\nThe app page's calculator appeared in: {', '.join(where) or '?'} "
            "(`page`: the top document; `frame`: the REPL iframe `#app`)."
        )
        if nb:
            idle = median(p.cold.kernel_idle for p in nb)
            if idle is not None:
                out.append(
                    f"Notebook view: kernel idle, Run All sent, at {fmt_s(idle)} cold (median)."
                )
        failures = sum(
            (p.cold.seconds is None) + (p.warm.seconds is None) for p in stock + app + nb
        )
        if failures:
            out.append(f"**{failures} load(s) failed** and are left out of the medians.")
        table, gzip_mb = _bytes_table(res)
        out.append(
            "\n### Bytes the server sent (median of runs; every file the page and its workers "
            "fetched until the server was quiet for 1 s after the calculator appeared; "
            "MB = 10^6 bytes)\n"
        )
        out.append(table)

    worst: Redraw | None = None
    if res.redraws:
        table, worst = _redraw_table(res.redraws)
        out.append(
            "\n### Input change to redrawn figure (app page, default inputs; "
            f"{res.repeats} changes alternating two values; ms in the page's clock, from "
            "just before the input's change event to the figure's new text in the DOM)\n"
        )
        out.append(table)
        if worst is not None:
            out.append(f"\nWorst p95: **{worst.key}** ({worst.figure}): {fmt_ms(worst.p95)}.")
        failed = [r.key for r in res.redraws if not r.times]
        if failed:
            out.append(f"**Redraw failed for {', '.join(failed)}** (left out of the worst p95).")

    worst_p95 = worst.p95 if worst is not None else None
    out.append("\n### Against the issue's goals\n")
    out.append(
        markdown_table(
            ["figure", "measured", "goal", ""],
            [
                [
                    "app page cold / stock cold",
                    f"{fmt_ratio(app_cold_ratio)} ({fmt_s(app_cold)} / {fmt_s(stock_cold)})",
                    f"≤ {GOAL_APP_COLD}×",
                    _goal(app_cold_ratio, GOAL_APP_COLD),
                ],
                [
                    "app page warm / stock warm",
                    f"{fmt_ratio(app_warm_ratio)} ({fmt_s(app_warm)} / {fmt_s(stock_warm)})",
                    f"≤ {GOAL_APP_WARM}×",
                    _goal(app_warm_ratio, GOAL_APP_WARM),
                ],
                [
                    "notebook cold / stock cold",
                    "not measured"
                    if "notebook" in res.skipped
                    else f"{fmt_ratio(nb_ratio)} ({fmt_s(nb_cold)} / {fmt_s(stock_cold)})",
                    f"≤ {GOAL_NOTEBOOK}×",
                    _goal(nb_ratio, GOAL_NOTEBOOK),
                ],
                [
                    "cold app-page bytes, gzip",
                    "n/a" if gzip_mb is None else f"{gzip_mb:.2f} MB",
                    f"≤ {GOAL_GZIP_MB:.0f} MB",
                    _goal(gzip_mb, GOAL_GZIP_MB),
                ],
                [
                    "input → redrawn figure, p95, worst calculator",
                    "not measured"
                    if "redraw" in res.skipped
                    else fmt_ms(worst_p95) + (f" ({worst.key}, {worst.figure})" if worst else ""),
                    f"≤ {GOAL_REDRAW_MS:.0f} ms",
                    _goal(worst_p95, GOAL_REDRAW_MS),
                ],
            ],
        )
    )
    out.append("")
    out.append(
        summary_line(
            app_cold_ratio=app_cold_ratio,
            app_warm_ratio=app_warm_ratio,
            notebook_ratio=nb_ratio,
            app_gzip_mb=gzip_mb,
            redraw_p95_ms=worst_p95,
        )
    )
    return "\n".join(out)


def _bytes_table(res: Results) -> tuple[str, float | None]:
    """The bytes table, and the cold app page's median gzip MB."""
    sizes = SizeCache()
    rows = []
    app_gzip_mb: float | None = None
    for label, name, which in (
        ("app page, cold", "app", "cold"),
        ("app page, warm", "app", "warm"),
        ("stock REPL, cold", "stock", "cold"),
        ("stock REPL, warm", "stock", "warm"),
    ):
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


def _largest_files(files: list[Served], sizes: SizeCache, site: Path, top: int = 10) -> str:
    """The files of one cold app-page load that weigh most once gzipped."""
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
    title = f"Largest files of the first cold app-page load, by gzip size ({len(ranked)} files):"
    return title + "\n\n" + markdown_table(["file", "raw", "gzip -6"], rows)


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
