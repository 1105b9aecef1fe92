"""Embeds, with Chromium: calculators pre-set, at the right height, in real doc sites.

The recipes of the documentation's embedding page (read from docs/embedding.md, so
they cannot drift: the blocks after ``<!-- embed-recipe: NAME -->``) build, into
temporary folders:

* a **Sphinx** site (``sphinx-conf`` and ``sphinx``: the ``ruleslab_sphinx``
  directive, three calculators),
* a **MkDocs** site (the ``html`` recipe pasted into a Markdown page),
* a **plain HTML** page (the ``html`` recipe as it is), and a page of mistakes.

They are served on another origin (another port of 127.0.0.1) than the
calculator site (the ``RULESLAB_SITE`` build), with the recipes' host replaced
by the calculator site's address. In the doc sites a tall filler separates the
embeds (the only thing added between the recipes' elements) so that the later
ones start below the fold. For each embed: it starts when it should (in view;
below the fold only once scrolled to; on its button in click mode; with the
embeds in view on the shared Python, together; on their own Pythons, one at a
time), its
inputs are the preset ones and its figures are those worked out here by hand,
and the iframe's height equals its content's, following it as it shrinks and
grows. No request leaves the two origins, no console error appears.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from math import comb
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "docs" / "embedding.md"
HOST_IN_RECIPES = "https://YOUR-HOST/ruleslab/"
FIT_PX = 2  # iframe height against content height
FILLER_PX = 1600  # between the doc sites' embeds: the next one starts below the fold
VIEWPORT = {"width": 1000, "height": 800}


def recipes() -> dict[str, str]:
    """The embedding page's recipes by name: the fenced block after each marker."""
    text = RECIPES.read_text(encoding="utf-8")
    found = dict(re.findall(r"<!-- embed-recipe: ([\w-]+) -->\n```\w*\n(.*?)```", text, flags=re.S))
    assert set(found) == {"html", "sphinx-conf", "sphinx", "mkdocs-hook", "mkdocs-yml"}, (
        found.keys()
    )
    return found


def _paragraphs(block: str) -> list[str]:
    return [p.strip("\n") for p in re.split(r"\n\s*\n", block) if p.strip()]


def _p(k: int, n: int, p: float = 0.4) -> float:
    """P(exactly k successes of n dice), each die a success on 7-10 of a d10."""
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _pct(p: float) -> str:
    return f"{100 * p:.2f} %"


# What each recipe's three embeds must show, worked out by hand: a die succeeds on
# 7-10 (4 faces in 10), a botch is no success and at least one 1.
EXPECTED = [
    {
        "key": "lifting",
        "inputs": {"strength": "5", "might": "2", "object_kg": "450"},
        # 30 kg × (Strength 5 + Might 2)
        "figures": {"capacity": "210 kg"},
    },
    {
        "key": "dice_pool",
        "inputs": {"dice": "8", "difficulty": "2"},
        "theme": "dark",
        "figures": {
            "mean": "3.2 successes",  # 8 × 0.4
            "p_success": _pct(1 - _p(0, 8) - _p(1, 8)),  # 89.36 %
            "p_botch": _pct(0.6**8 - 0.5**8),  # no die 7-10, not all of them 2-6
        },
    },
    {
        "key": "jumping",
        "inputs": {"strength": "4", "athletics": "3"},
        "figures": {
            "pool": "7 dice",  # Strength 4 + Athletics 3
            "mean_distance": "5.6 m",  # 7 × 0.4 successes × 2 m
            "p_clear": _pct(1 - sum(_p(k, 7) for k in range(3))),  # 3 successes for 6 m
        },
    },
]


def _serve(root: Path) -> tuple[object, str]:
    from tools.build_site import make_server

    server = make_server(root, host="127.0.0.1", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _run(cmd: list[str], cwd: Path) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{cmd[2]} failed:\n{proc.stdout}{proc.stderr}"


def _sphinx_site(src: Path, out: Path, site_url: str, recipe: dict[str, str]) -> None:
    src.mkdir(parents=True)
    conf = recipe["sphinx-conf"].replace(HOST_IN_RECIPES, site_url)
    (src / "conf.py").write_text(f'project = "Embeds"\n{conf}', encoding="utf-8")
    filler = f'.. raw:: html\n\n   <div class="filler" style="height: {FILLER_PX}px"></div>'
    body = f"\n\n{filler}\n\n".join(_paragraphs(recipe["sphinx"]))
    (src / "index.rst").write_text(f"Calculators\n===========\n\n{body}\n", encoding="utf-8")
    # -W: any warning (an unknown key or input, a bad option) fails the build
    _run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", str(src), str(out)], src)


def _mkdocs_site(src: Path, out: Path, site_url: str, recipe: dict[str, str]) -> None:
    (src / "docs").mkdir(parents=True)
    # the mkdocs theme loads highlight.js from a CDN unless told not to: the host's
    # own choice, and this test allows no request to a third origin
    # the hook: the embeds' figures pre-rendered at build time (ruleslab_sphinx.mkdocs_hook)
    (src / "mkdocs.yml").write_text(
        "site_name: Embeds\ntheme:\n  name: mkdocs\n  highlightjs: false\n" + recipe["mkdocs-yml"],
        encoding="utf-8",
    )
    (src / "ruleslab_hook.py").write_text(recipe["mkdocs-hook"], encoding="utf-8")
    html = recipe["html"].replace(HOST_IN_RECIPES, site_url)
    filler = f'<div class="filler" style="height: {FILLER_PX}px"></div>'
    script, *elements = _paragraphs(html)
    body = script + "\n\n" + f"\n\n{filler}\n\n".join(elements)
    (src / "docs" / "index.md").write_text(f"# Calculators\n\n{body}\n", encoding="utf-8")
    _run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        src,
    )


MISTAKES = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mistakes</title>
<link rel="icon" href="data:,">
<script src="{site}embed.js"></script>
</head><body>
<div id="unknown" data-ruleslab="liftng" data-strength="5"></div>
<div id="empty" data-ruleslab=""></div>
<div id="start" data-ruleslab="lifting" data-start="hover"></div>
<div id="height" data-ruleslab="lifting" data-height="12"></div>
<div id="markup" data-ruleslab="&lt;img src=x onerror=alert(1)&gt;"></div>
<div id="reserved" data-ruleslab="lifting" data-strength="5" data-embed="x"></div>
<div id="reserved2" data-ruleslab="lifting" data-calculator="falling"></div>
</body></html>
"""


@pytest.fixture(scope="module")
def host(tmp_path_factory, base_url, site_dir) -> Iterator[str]:
    """The doc sites and pages, served on another origin than the calculator site."""
    work = tmp_path_factory.mktemp("embed-hosts")
    root = work / "served"
    root.mkdir()
    (root / "favicon.ico").write_bytes((site_dir / "favicon.ico").read_bytes())
    recipe = recipes()
    _sphinx_site(work / "sphinx-src", root / "sphinx", base_url, recipe)
    _mkdocs_site(work / "mkdocs-src", root / "mkdocs", base_url, recipe)
    (root / "plain").mkdir()
    page = recipe["html"].replace(HOST_IN_RECIPES, base_url)
    (root / "plain" / "index.html").write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Plain</title>'
        f'<link rel="icon" href="data:,"></head><body>\n<h1>Calculators</h1>\n{page}'
        "</body></html>\n",
        encoding="utf-8",
    )
    (root / "mistakes.html").write_text(MISTAKES.format(site=base_url), encoding="utf-8")
    server, url = _serve(root)
    assert url != base_url
    try:
        yield url
    finally:
        server.shutdown()  # type: ignore[attr-defined]
        server.server_close()  # type: ignore[attr-defined]


class Watch:
    """Every request of a browser context, and every console error of its pages."""

    def __init__(self, context, *origins: str) -> None:
        self.origins = origins
        self.urls: list[str] = []
        self.errors: list[str] = []
        context.on("request", lambda request: self.urls.append(request.url))

    def page(self, page) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def offsite(self) -> list[str]:
        return [
            u
            for u in self.urls
            if not u.startswith(self.origins) and not u.startswith(("data:", "blob:"))
        ]

    def app_pages(self, key: str) -> list[str]:
        return [u for u in self.urls if "/app.html?" in u and f"calculator={key}&" in u]

    def check(self) -> None:
        assert self.offsite() == [], f"requests left the two origins: {self.offsite()}"
        assert self.errors == [], f"console errors: {self.errors}"


@pytest.fixture
def watched(browser, base_url, host) -> Iterator[tuple[object, Watch]]:
    context = browser.new_context(viewport=VIEWPORT)
    watch = Watch(context, base_url, host)
    page = context.new_page()
    watch.page(page)
    yield page, watch
    context.close()


def _wait(what: str, condition: Callable[[], object], timeout: float = 30.0) -> object:
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.1)


def _heights(embed) -> tuple[float, float, float]:
    """(iframe's height, its content's height, content hidden below the frame)."""
    frame_el = embed.locator("iframe").element_handle()
    outer = frame_el.evaluate("f => f.getBoundingClientRect().height")
    inner, hidden = frame_el.content_frame().evaluate(
        """() => [document.documentElement.getBoundingClientRect().height,
                 document.documentElement.scrollHeight - window.innerHeight]"""
    )
    return outer, inner, hidden


def _fits(embed) -> float:
    """Wait until the iframe is as tall as its content (nothing hidden) and return it."""

    def fitting():
        outer, inner, hidden = _heights(embed)
        return outer if abs(outer - inner) <= FIT_PX and hidden <= 1 else None

    return _wait("the iframe to fit its content", fitting)  # type: ignore[return-value]


def _check_embed(embed, want: dict, site_url: str) -> None:
    """The embed is drawn, with its preset inputs and the figures worked out by hand."""
    from playwright.sync_api import expect

    expect(embed).to_have_attribute("data-ruleslab-state", "ready", timeout=KERNEL_TIMEOUT)
    key = want["key"]
    src = embed.locator("iframe").get_attribute("src")
    assert src.startswith(site_url + "app.html?"), src
    query = dict(parse_qsl(urlsplit(src).query))
    assert query["calculator"] == key
    assert {k: query[k] for k in want["inputs"]} == want["inputs"]
    assert query.get("theme") == want.get("theme")
    frame = embed.frame_locator("iframe")
    calc = frame.locator(f".rl-calc-{key}").first
    expect(calc).to_be_visible()
    for name, value in want["inputs"].items():
        field = calc.locator(f".rl-field-{name} input").first
        expect(field).to_have_value(value)
    for figure, text in want["figures"].items():
        expect(calc.locator(f'[data-figure="{figure}"]').first).to_have_text(text)
    assert "".join(calc.locator(".rl-status").all_inner_texts()).strip() == ""  # no unknown names
    assert embed.locator("iframe").get_attribute("title") == calc.locator("h2").first.inner_text()


def _follows_its_content(embed, key: str) -> None:
    """Closing the working shrinks the iframe, opening the rules options grows it. (In a
    frame narrower than the two-column layout the steps start folded, as on a phone: a
    first tap opens them, growing the iframe.)"""
    calc = embed.frame_locator("iframe").locator(f".rl-calc-{key}").first
    working = calc.locator("details.rl-working").first
    if not working.evaluate("d => d.open"):
        folded = _fits(embed)
        working.locator("summary").click()
        _wait("the iframe to grow", lambda: (h := _fits(embed)) > folded + 20 and h)
    before = _fits(embed)
    working.locator("summary").click()
    shrunk = _wait("the iframe to shrink", lambda: (h := _fits(embed)) < before - 20 and h)
    calc.locator(".rl-options").get_by_text("Rules options").first.click()
    _wait("the iframe to grow", lambda: (h := _fits(embed)) > shrunk + 20 and h)


@pytest.mark.parametrize("site", ["sphinx", "mkdocs"])
def test_doc_site_embeds_start_fit_and_show_their_inputs(
    watched, base_url, host, site, artifacts
) -> None:
    from playwright.sync_api import expect

    page, watch = watched
    page.goto(host + site + "/")
    embeds = page.locator("[data-ruleslab]")
    expect(embeds).to_have_count(3)
    first, clicked, below = (embeds.nth(i) for i in range(3))
    if site == "sphinx":  # the directive added the script once
        assert page.locator('script[src$="/embed.js"]').count() == 1

    # 1: in view, it starts at once
    _check_embed(first, EXPECTED[0], base_url)
    _fits(first)
    # ... the ones below the fold have not started
    for embed, want in ((clicked, EXPECTED[1]), (below, EXPECTED[2])):
        assert embed.locator("iframe").count() == 0
        assert watch.app_pages(want["key"]) == []
    _follows_its_content(first, "lifting")

    # ... but show their figures at their inputs, pre-rendered when the docs were built
    for embed, want in ((clicked, EXPECTED[1]), (below, EXPECTED[2])):
        static = embed.locator(".ruleslab-static")
        for figure, text in want["figures"].items():
            expect(static.locator(f'[data-figure="{figure}"]')).to_have_text(text)

    # 2: click mode shows what it is and waits for its button
    clicked.scroll_into_view_if_needed()
    expect(clicked.locator(".ruleslab-static .rl-title")).to_have_text("Dice pool")
    start = clicked.get_by_role("button", name="Start the calculator")
    expect(start).to_be_visible()
    clicked.screenshot(path=str(artifacts / f"embed-{site}-click-to-start.png"))

    # 3: below the fold it starts once scrolled to (the click one still waits)
    assert below.locator("iframe").count() == 0
    expect(below.locator(".ruleslab-static .rl-title")).to_have_text("Jumping")
    below.scroll_into_view_if_needed()
    _check_embed(below, EXPECTED[2], base_url)
    assert below.locator(".ruleslab-static").count() == 0  # replaced by the live one
    _fits(below)
    assert clicked.locator("iframe").count() == 0
    assert watch.app_pages("dice_pool") == []

    clicked.scroll_into_view_if_needed()
    start.click()
    _check_embed(clicked, EXPECTED[1], base_url)
    _fits(clicked)
    _follows_its_content(clicked, "dice_pool")
    clicked.screenshot(path=str(artifacts / f"embed-{site}-dice-pool.png"))
    first.screenshot(path=str(artifacts / f"embed-{site}-lifting.png"))
    for want in EXPECTED:
        assert len(watch.app_pages(want["key"])) == 1, want["key"]
    watch.check()


#: The order of the embeds' events on a host page, as the host sees them (no clock).
SEEN_JS = """
window.seen = [];
new MutationObserver(function (records) {
  records.forEach(function (r) {
    const key = r.target.getAttribute && r.target.getAttribute("data-ruleslab");
    if (!key) return;
    if (r.type === "childList" && r.target.querySelector("iframe"))
      window.seen.push("frame " + key);
    if (r.type === "attributes" && r.target.getAttribute("data-ruleslab-state") === "ready")
      window.seen.push("ready " + key);
  });
}).observe(document, { subtree: true, childList: true, attributes: true,
  attributeFilter: ["data-ruleslab-state"] });
"""


def _runtime(embed) -> dict:
    frame = embed.locator("iframe").element_handle().content_frame()
    return frame.evaluate("() => window.ruleslab.runtime")  # type: ignore[no-any-return]


def test_plain_html_embeds_in_view_start_together(watched, base_url, host, artifacts) -> None:
    """The HTML recipe as it is, on the shared Python: the jumping embed, in view with the
    lifting one, starts with it (not once it is drawn) and both run on one interpreter."""
    page, watch = watched
    page.add_init_script(SEEN_JS)
    # tall enough that the lifting calculator, drawn, leaves the jumping one in view (one
    # pushed out of view before its turn waits until scrolled to: the test below)
    page.set_viewport_size({"width": 1000, "height": 3000})
    page.goto(host + "plain/")
    embeds = page.locator("[data-ruleslab]")
    first, clicked, later = (embeds.nth(i) for i in range(3))
    _check_embed(first, EXPECTED[0], base_url)
    _check_embed(later, EXPECTED[2], base_url)
    seen = page.evaluate("() => window.seen")
    assert seen.index("frame jumping") < seen.index("ready lifting"), seen
    one, two = _runtime(first), _runtime(later)
    assert one["mode"] == two["mode"] == "shared"
    assert one["id"] == two["id"]
    assert sorted([one["reused"], two["reused"]]) == [False, True]  # one Python started
    _fits(first)
    _fits(later)
    assert clicked.locator("iframe").count() == 0
    assert watch.app_pages("dice_pool") == []
    page.screenshot(path=str(artifacts / "embed-plain.png"), full_page=True)
    watch.check()


#: Init script (the host page): every text each embed's note has shown, by the embed's
#: place among the page's ``[data-ruleslab]`` elements, as it is written.
NOTES_SEEN_JS = """(() => {
  if (window !== window.top) return;
  const seen = (window.__rlNotesSeen = {});
  const look = () => {
    document.querySelectorAll("[data-ruleslab]").forEach((el, i) => {
      const note = el.querySelector(".ruleslab-note");
      const list = (seen[i] = seen[i] || []);
      if (note && list[list.length - 1] !== note.textContent) list.push(note.textContent);
    });
  };
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, characterData: true,
  });
})();"""


def test_plain_html_embeds_on_their_own_pythons_start_one_at_a_time(
    watched, base_url, host, artifacts
) -> None:
    """The HTML recipe where the frames cannot reach a shared worker (none in the browser,
    or refused to a frame of another site): each embed would start its own Python, so the
    jumping embed, in view at first, waits for the lifting one, whose drawn calculator then
    pushes it out of view: it starts only when scrolled to again."""
    from playwright.sync_api import expect

    page, watch = watched
    page.add_init_script("delete window.SharedWorker")  # (in the frames too)
    page.add_init_script(NOTES_SEEN_JS)
    # a phone-sized window: the drawn lifting calculator (its form above its results
    # at this width) is taller than the window, so it pushes the jumping one out of view
    page.set_viewport_size({"width": 420, "height": 800})
    page.goto(host + "plain/")
    embeds = page.locator("[data-ruleslab]")
    first, clicked, later = (embeds.nth(i) for i in range(3))
    # (a passing state: recorded as it is written, not looked for after the fact)
    page.wait_for_function(
        "(text) => (window.__rlNotesSeen[2] || []).includes(text)",
        arg="Waiting for another calculator on this page to start…",
        timeout=30_000,
    )
    assert later.locator("iframe").count() == 0  # (not started: it waits, then is out of view)
    _check_embed(first, EXPECTED[0], base_url)
    _fits(first)
    expect(later.locator(".ruleslab-note")).to_have_text(
        "A ruleslab calculator: it starts when you scroll to it."
    )
    assert watch.app_pages("jumping") == []
    later.scroll_into_view_if_needed()
    _check_embed(later, EXPECTED[2], base_url)
    _fits(later)
    one, two = _runtime(first), _runtime(later)
    assert one["mode"] == two["mode"] == "dedicated"
    assert one["id"] != two["id"]
    assert clicked.locator("iframe").count() == 0
    page.screenshot(path=str(artifacts / "embed-plain-dedicated.png"), full_page=True)
    watch.check()


def test_mistakes_are_said_in_the_element(watched, host, artifacts) -> None:
    from playwright.sync_api import expect

    page, watch = watched
    page.goto(host + "mistakes.html")  # the script in the head, not deferred
    unknown = page.locator("#unknown")
    expect(unknown).to_contain_text("There is no calculator “liftng”.")
    expect(unknown).to_contain_text("data-ruleslab takes one of: dice_pool, lifting,")
    expect(page.locator("#empty")).to_contain_text("data-ruleslab names no calculator.")
    expect(page.locator("#start")).to_contain_text(
        "data-start is “hover”: it takes “visible” (the default) or “click”."
    )
    expect(page.locator("#height")).to_contain_text(
        "data-height is “12”: it takes “auto” (the default: the calculator's own height) "
        "or a height in pixels from 100 to 10000."
    )
    expect(page.locator("#markup")).to_contain_text("“<img src=x onerror=alert(1)>”")
    expect(page.locator("#reserved")).to_contain_text(
        "data-embed is not an input: the embed sets “embed” itself."
    )
    expect(page.locator("#reserved2")).to_contain_text(
        "data-calculator is not an input: the embed sets “calculator” itself."
    )
    assert page.locator("img").count() == 0
    assert page.locator("iframe").count() == 0
    for box in ("#unknown", "#empty", "#start", "#height", "#markup", "#reserved", "#reserved2"):
        expect(page.locator(box)).to_have_attribute("data-ruleslab-state", "error")
    assert [u for u in watch.urls if "app.html" in u] == []
    page.screenshot(path=str(artifacts / "embed-mistakes.png"), full_page=True)
    watch.check()
