"""A phone's network for ``bench/site_load.py --link slow4g|fast4g``: the first visit, as
a game master's phone would make it, against bare stock Pyodide in the same run.

One server class for both sites (:class:`LinkServer`), behaving like a static host
on a mobile link:

* it **compresses as a host does**: a file with a ``NAME.br`` beside it
  (``tools/publish.py`` writes them) is sent as that copy to a browser accepting
  brotli; anything else that compresses is gzipped on the fly (level 6, as GitHub
  Pages and most hosts do); images, fonts and archives already compressed go as they
  are. ``--link-encoding gzip`` ignores the ``.br`` copies (a host that only gzips);
* all its connections share **one bandwidth** (:class:`Bucket`, a token bucket: the
  link's bytes per second, whoever asks), and every request first waits **one round
  trip**: the page's, its workers' and its service worker's requests alike, since the
  server does the throttling (Chromium's own network throttling misses workers);
* the browser may keep what it gets for an hour (a new profile per load: every load
  is a first visit).

Each run (``--runs``) loads, alternated, in new profiles: the bare peer
(``bench/bare_pyodide.html`` beside npm's Pyodide, byte for byte) and the app page of
``--calculator``, then both again with the page's CPU slowed 4× (DevTools'
``Emulation.setCPUThrottlingRate``, as Lighthouse's mobile preset does; it slows the
page's own thread, not its workers: Python runs in a worker, so this is the page's
share of the slowdown only). Figures: **bytes on the wire until interactive** (the
bodies the server had finished sending by then, as sent: compressed), **first figure
visible** and **interactive** (site_load's stamps), and the ratio to bare Pyodide.
"""

from __future__ import annotations

import gzip
import http.server
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from bench.site_figures import fmt_ratio, fmt_s, markdown_table, median, ratio
from tools.build_site import SiteRequestHandler


@dataclass(frozen=True)
class Link:
    """A network: its name, bandwidth (Mbit/s, for all requests together) and round trip."""

    name: str
    mbit: float
    rtt_ms: float

    @property
    def bytes_per_s(self) -> float:
        return self.mbit * 1e6 / 8


#: Lighthouse's mobile link (Slow 4G: 1.6 Mbit/s, 150 ms) and the faster 4G of the issue's
#: figures (8.1 Mbit/s, 165 ms).
LINKS = {
    "slow4g": Link("Slow 4G", 1.6, 150.0),
    "fast4g": Link("Fast 4G", 8.1, 165.0),
}
#: The page's CPU slowdown of the second series (Lighthouse's mobile preset).
CPU_SLOWDOWN = 4.0
#: Bytes sent at once between two looks at the bucket.
CHUNK = 16 * 1024
#: What goes as it is: already compressed, or not worth it.
STORED_SUFFIXES = (".woff2", ".woff", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".gz", ".br")


class Bucket:
    """A token bucket shared by every connection: ``rate`` bytes a second, at most
    ``burst`` bytes ahead. :meth:`take` returns once the link has carried ``n`` more
    bytes (a debt repaid in order: concurrent takers share the rate)."""

    def __init__(self, rate: float, burst: float = CHUNK) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()
        self._lock = threading.Lock()

    def take(self, n: int) -> None:
        with self._lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            self.tokens -= n
            wait = -self.tokens / self.rate if self.tokens < 0 else 0.0
        if wait:
            time.sleep(wait)


@dataclass
class Sent:
    """One response: its path (relative to the site), bytes on the wire, encoding and
    the moment (epoch seconds) its last byte went out."""

    rel: str
    wire: int
    encoding: str
    done: float


@dataclass
class LinkServer:
    """A static server for ``site`` on ``link``; logs every response (:class:`Sent`)."""

    site: Path
    link: Link
    brotli: bool = True
    log: list[Sent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bucket = Bucket(self.link.bytes_per_s)
        self._lock = threading.Lock()
        self._gzipped: dict[str, bytes] = {}
        handler = partial(_LinkHandler, self, directory=str(self.site))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def gzipped(self, path: str) -> bytes:
        """``path``'s bytes gzipped at level 6 (once per file)."""
        with self._lock:
            if path not in self._gzipped:
                self._gzipped[path] = gzip.compress(Path(path).read_bytes(), 6)
            return self._gzipped[path]

    def record(self, sent: Sent) -> None:
        with self._lock:
            self.log.append(sent)

    def mark(self) -> int:
        with self._lock:
            return len(self.log)

    def wire_until(self, mark: int, epoch_s: float) -> int:
        """Bytes on the wire of the responses after ``mark`` finished by ``epoch_s``."""
        with self._lock:
            return sum(s.wire for s in self.log[mark:] if s.done <= epoch_s)


class _LinkHandler(SiteRequestHandler):
    """The site's handler (MIME types, 404s) behind the link: a round trip, then the body
    compressed as a host would, through the shared bucket."""

    def __init__(self, server_link: LinkServer, *args: Any, **kwargs: Any) -> None:
        self.link = server_link
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "public, max-age=3600")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        time.sleep(self.link.link.rtt_ms / 1000)
        rel = unquote(urlsplit(self.path).path).lstrip("/")
        path = self.translate_path(self.path)
        if os.path.isdir(path) and os.path.isfile(os.path.join(path, "index.html")):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path) or "%2f" in self.path.lower() or "%5c" in self.path.lower():
            super().do_GET()  # (a folder's redirect, a listing or a 404: as the site's)
            return
        accepted = {
            part.split(";")[0].strip().lower()
            for part in self.headers.get("Accept-Encoding", "").split(",")
        }
        encoding = ""
        fresh_br = os.path.isfile(path + ".br") and (
            os.path.getmtime(path + ".br") >= os.path.getmtime(path)
        )
        if self.link.brotli and "br" in accepted and fresh_br:
            body, encoding = Path(path + ".br").read_bytes(), "br"
        elif "gzip" in accepted and not path.endswith(STORED_SUFFIXES):
            body, encoding = self.link.gzipped(path), "gzip"
        else:
            body = Path(path).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        try:
            for start in range(0, len(body), CHUNK):
                chunk = body[start : start + CHUNK]
                self.link.bucket.take(len(chunk))
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            return  # (the browser gave up on it: not counted)
        self.link.record(Sent(rel, len(body), encoding, time.time()))

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        time.sleep(self.link.link.rtt_ms / 1000)
        super().do_HEAD()


@dataclass
class LinkLoad:
    """One first visit: seconds from navigation start (``None``: failed) and bytes."""

    interactive: float | None
    visible: float | None = None
    wire: int | None = None
    error: str = ""


def bare_visit(pw: Any, server: LinkServer, *, cpu: float, timeout_s: float) -> LinkLoad:
    """The bare peer in a new profile: seconds to its element, bytes until then."""
    from playwright.sync_api import Error as PlaywrightError

    from bench import site_load as sl

    with sl.profile_context(pw) as context:
        page = context.new_page()
        page.add_init_script(sl.WATCH_JS.replace("__SELECTOR__", repr(sl.BARE_SELECTOR)))
        _slow_cpu(context, page, cpu)
        mark = server.mark()
        try:
            page.goto(server.base + "index.html", wait_until="commit", timeout=timeout_s * 1000)
            seconds, _ = sl._seen_seconds(page, timeout_s * 1000)
            origin = page.evaluate("() => performance.timeOrigin")
        except PlaywrightError as exc:
            return LinkLoad(None, error=str(exc).splitlines()[0])
        wire = server.wire_until(mark, (origin / 1000) + seconds + 0.05)
        page.close()
    return LinkLoad(seconds, seconds, wire)


def app_visit(
    pw: Any, server: LinkServer, url: str, change: Any, *, cpu: float, timeout_s: float
) -> LinkLoad:
    """The app page in a new profile, timed to interactive (site_load's change)."""
    from bench import site_load as sl

    with sl.profile_context(pw) as context:
        mark = server.mark()
        page = sl.open_app(
            context, url, change, timeout_s=timeout_s, before=lambda p: _slow_cpu(context, p, cpu)
        )
        load = sl.until_interactive(page, change, timeout_s=timeout_s)
        if load.interactive is None:
            page.close()
            return LinkLoad(None, error=load.error)
        origin = page.evaluate("() => performance.timeOrigin")
        wire = server.wire_until(mark, (origin / 1000) + load.interactive + 0.05)
        page.close()
    return LinkLoad(load.interactive, load.visible, wire)


def figure_visit(
    pw: Any, server: LinkServer, url: str, change: Any, *, cpu: float, timeout_s: float
) -> LinkLoad:
    """The app page in a new profile, timed to its first figure visible only (no wait
    for Python: ``--first-figure-only``, many runs in little time)."""
    from playwright.sync_api import Error as PlaywrightError

    from bench import site_load as sl

    with sl.profile_context(pw) as context:
        page = sl.open_app(
            context, url, change, timeout_s=timeout_s, before=lambda p: _slow_cpu(context, p, cpu)
        )
        try:
            page.wait_for_function(
                "() => window.__rlVisible !== undefined", timeout=timeout_s * 1000
            )
            at = page.evaluate("() => (window.__rlVisible - performance.timeOrigin) / 1000")
        except PlaywrightError as exc:  # (a timeout: said, as a failed visit)
            page.close()
            return LinkLoad(None, error=str(exc).splitlines()[0])
        page.close()
    return LinkLoad(None, visible=at)


def _slow_cpu(context: Any, page: Any, rate: float) -> None:
    if rate > 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})


@dataclass
class LinkResults:
    """Every visit of a ``--link`` run, by series (``bare``, ``app``, ``bare-cpu``, ...)."""

    link: Link
    encoding: str
    runs: int
    visits: dict[str, list[LinkLoad]] = field(default_factory=dict)
    loads: tuple[tuple[float, float, float], ...] = ()
    #: the app pages visited: series name, address relative to the site
    pages: tuple[tuple[str, str], ...] = ()


def run_link(
    pw: Any,
    link: Link,
    *,
    site: Path,
    bare: Path,
    pages: Sequence[tuple[str, str]],
    change: Any,
    runs: int,
    timeout_s: float,
    brotli: bool,
    figure_only: bool = False,
) -> LinkResults:
    """``runs`` rounds of the first visits (bare, then each of ``pages``, a name and an
    address relative to the site; then all with the CPU slowed), alternated; the
    results. ``figure_only``: the app pages only, each timed to its first figure."""
    from bench import site_load as sl

    results = LinkResults(
        link, "brotli where a .br is beside, else gzip" if brotli else "gzip", runs
    )
    ours = LinkServer(site, link, brotli=brotli)
    peer = LinkServer(bare, link, brotli=brotli)
    results.pages = tuple(pages)

    visit = figure_visit if figure_only else app_visit

    def visit_of(url: str) -> Callable[[float], Any]:
        return lambda cpu: visit(pw, ours, url, change, cpu=cpu, timeout_s=timeout_s)

    series: list[tuple[str, Callable[[float], Any]]] = [
        ("bare", lambda cpu: bare_visit(pw, peer, cpu=cpu, timeout_s=timeout_s)),
        *((name, visit_of(ours.base + path)) for name, path in pages),
    ][1 if figure_only else 0 :]
    try:
        for number in range(runs):
            order = series if number % 2 == 0 else series[::-1]
            for cpu in (1.0, CPU_SLOWDOWN):
                for name, one in order:
                    key = name if cpu == 1 else f"{name}-cpu"
                    sl._note(f"{link.name} run {number + 1}/{runs}: {key} ...")
                    got = one(cpu)
                    if got.error:
                        sl._note(f"  ! {got.error}")
                    elif figure_only:
                        sl._note(f"  visible {fmt_s(got.visible)}")
                    else:
                        sl._note(
                            f"  interactive {fmt_s(got.interactive)}, visible "
                            f"{fmt_s(got.visible)}, {(got.wire or 0) / 1e6:.2f} MB on the wire"
                        )
                    results.visits.setdefault(key, []).append(got)
    finally:
        ours.stop()
        peer.stop()
    return results


def _heading(res: LinkResults, what: str) -> str:
    return (
        f"### {what} on {res.link.name} ({res.link.mbit} Mbit/s shared, "
        f"{res.link.rtt_ms:.0f} ms a request; {res.encoding})"
    )


def _loads(res: LinkResults) -> str:
    loads = " → ".join(f"{a:.2f}" for a, _, _ in res.loads)
    return f"Load average (1 min) before → during → after: {loads}."


def figure_report(res: LinkResults) -> str:
    """A ``figure_only`` run's Markdown: each page's first figure visible, medians."""
    rows = []
    for name, path in res.pages:
        times = {key: [v.visible for v in res.visits.get(key, [])] for key in (name, f"{name}-cpu")}
        rows.append(
            [f"app page `{path}`"]
            + [fmt_s(median(t)) for t in times.values()]
            + ["; ".join(", ".join(fmt_s(x) for x in t) for t in times.values())]
        )
    return "\n".join(
        [
            _heading(res, "First figure visible"),
            "",
            markdown_table(
                [
                    "page",
                    "first figure visible",
                    f"CPU {CPU_SLOWDOWN:.0f}× slower",
                    "each run (CPU as is; slower)",
                ],
                rows,
            ),
            "",
            f"Medians of {res.runs} run(s), new profiles, pages alternated. {_loads(res)}",
        ]
    )


def link_report(res: LinkResults) -> str:
    """The run's Markdown: one row per page, medians, ratios to bare Pyodide."""

    def med(key: str, attr: str) -> float | None:
        return median(getattr(v, attr) for v in res.visits.get(key, []))

    def mb(value: float | None) -> str:
        return "n/a" if value is None else f"{value / 1e6:.2f} MB"

    rows = []
    pages = [(name, f"app page `{path}`") for name, path in res.pages]
    for name, title in (("bare", "bare stock Pyodide"), *pages):
        rows.append(
            [
                title,
                mb(med(name, "wire")),
                "—" if name == "bare" else fmt_s(med(name, "visible")),
                fmt_s(med(name, "interactive")),
                fmt_ratio(ratio(med(name, "interactive"), med("bare", "interactive"))),
                fmt_s(med(f"{name}-cpu", "interactive")),
                fmt_ratio(ratio(med(f"{name}-cpu", "interactive"), med("bare-cpu", "interactive"))),
            ]
        )
    each = {
        key: ", ".join(fmt_s(v.interactive) for v in visits) for key, visits in res.visits.items()
    }
    return "\n".join(
        [
            _heading(res, "First visit"),
            "",
            markdown_table(
                [
                    "page",
                    "bytes until interactive",
                    "first figure visible",
                    "interactive",
                    "× bare",
                    f"interactive, CPU {CPU_SLOWDOWN:.0f}× slower",
                    "× bare",
                ],
                rows,
            ),
            "",
            f"Medians of {res.runs} run(s), new profiles, alternated; each run's interactive: "
            + "; ".join(f"{k}: {v}" for k, v in each.items())
            + f". {_loads(res)}",
        ]
    )
