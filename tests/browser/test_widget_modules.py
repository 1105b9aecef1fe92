"""Our widgets' modules come from the app page's bundle (``tools.build_app``, "Our
modules bundled"), with Chromium.

anywidget imports a widget's module from its source text through a blob URL: a compile
of that text in every page and embed, on the page's main thread. The app page's bundle
holds the modules of every anywidget class of ``ruleslab_widgets``, so the pages below,
which between them draw every one of those classes (checked first, on CPython, from the
messages their calculators send), make no script from a blob, and draw each widget with
no error in the console.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import KERNEL_TIMEOUT

pytestmark = pytest.mark.browser

pytest.importorskip("ipywidgets")

#: (calculator, query, a selector each class's drawing is waited for by)
PAGES = [
    (
        "dice_pool",
        "calculator=dice_pool&sweep.field=dice&sweep.range=0:6",
        ".rl-line-chart svg g.rl-line .rl-line-marker",
    ),
    ("health", "calculator=health", ".rl-calc-health [data-figure]"),
    ("falling", "calculator=falling", ".rl-calc-falling .rl-chart svg, .rl-calc-falling svg"),
]

#: Init script: every object URL made from a script (type ``text/javascript``).
BLOBS_JS = """(() => {
  const made = window.__rlScriptBlobs = [];
  const real = URL.createObjectURL;
  URL.createObjectURL = function (blob) {
    if (blob && /javascript/.test(blob.type || "")) made.push(blob.size);
    return real.apply(this, arguments);
  };
})();"""


#: Run in a Python of its own (installing the app page's bridge changes how every later
#: widget of the process is made): the ``_anywidget_id`` of every widget the page of
#: calculator ``sys.argv[1]`` with query ``sys.argv[2]`` is sent, as JSON.
CLASSES_DRAWN = """
import json, sys
from ruleslab_widgets import app_page, ipython_standin
ipython_standin.install()
app_page.install()
sent = []
app_page.open_session(sys.argv[1], sys.argv[2], sent.append).close()
found = set()
def walk(message):
    if isinstance(message, dict):
        for inner in message.get("messages", ()):
            walk(inner)
        data = message.get("data")
        if isinstance(data, dict) and "_anywidget_id" in data.get("state", {}):
            found.add(data["state"]["_anywidget_id"])
for message in sent:
    walk(message)
print(json.dumps(sorted(found)))
"""


def _classes_drawn(key: str, query: str) -> set[str]:
    """The anywidget classes (``_anywidget_id``) of the widgets ``key``'s page is sent for
    ``query``, as the app page's Python builds it."""
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", CLASSES_DRAWN, key, query],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout))


def test_the_pages_draw_every_bundled_class():
    from tools.build_app import widget_modules

    bundled = set(widget_modules())
    assert len(bundled) >= 9  # (fold heading and summary, number, party, scenarios, ...)
    drawn: set[str] = set()
    for key, query, _ in PAGES:
        drawn |= _classes_drawn(key, query)
    drawn |= _classes_drawn("tracker", "calculator=tracker")  # (the tracker: no figures)
    drawn |= _classes_drawn("sheet", "calculator=sheet")  # (the character sheet: neither)
    assert bundled <= drawn, sorted(bundled - drawn)


@pytest.mark.parametrize(("key", "query", "drawn"), PAGES, ids=[p[0] for p in PAGES])
def test_no_widget_module_is_compiled_from_a_blob(browser, base_url, watch, key, query, drawn):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(BLOBS_JS)
    page = context.new_page()
    page.watch = watch(page, base_url)
    page.goto(f"{base_url}app.html?{query}")
    expect(page.locator(f".rl-calc-{key} [data-figure]").first).to_be_visible(
        timeout=KERNEL_TIMEOUT
    )
    expect(page.locator(drawn).first).to_be_attached(timeout=60_000)
    # every anywidget of the page drawn: its number fields, fold headings, share link
    for part in (".rl-fold-button", ".rl-share-copy", "[class*='rl-field-'] input"):
        expect(page.locator(f".rl-calc-{key} {part}").first).to_be_attached()
    assert page.evaluate("() => window.__rlScriptBlobs") == []
    assert page.watch.errors == []
    assert not [w for w in page.watch.warnings if "anywidget" in w.lower()]
    context.close()
