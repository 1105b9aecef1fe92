"""app/sanitize.js, the bundle's stand-in for ``sanitize-html``, in Chromium: a
description marked as HTML (none of ours is: tests/widgets/test_views.py) is shown as the
text it is, ordinary or hostile: set as a label's HTML, as the ipywidgets controls set it,
it makes no element, runs nothing, and reads back as the very text.
"""

from __future__ import annotations

import subprocess

import pytest

from tools import REPO
from tools.build_app import ESBUILD

pytestmark = pytest.mark.browser

DESCRIPTIONS = [
    "Plain words",
    "<b>Strength</b> (dots)",
    "Tom &amp; Jerry &lt;3 a < b > c",
    '<span class="rl-x" style="color: red" aria-label="dots" title="t">x</span>',
    '<a href="https://example.com/a?b=1&amp;c=2">rules</a> and <a href="/rel">here</a>',
    '<a href="//example.com">protocol-relative</a> <a href="mailto:a@b.c">mail</a>',
    "<ul><li>one</li><li>two</li></ul><ol><li>three</li></ol>",
    "<em>e</em><strong>s</strong><code>c</code><abbr title='a'>ab</abbr><i>i</i>",
    '<img src="https://example.com/d.png"> <img src="d.png">',
    "<script>alert(1)</script>after",
    "<style>b { color: red }</style>after",
    "<textarea>typed</textarea><option>opt</option>after",
    '<img src=x onerror="alert(1)">',
    '<a href="javascript:alert(1)">js</a>',
    '<a href="  java\tscript:alert(1)">spaced</a>',
    '<a href="jav&#x61;script:alert(1)">entity</a>',
    '<a href="JAVASCRIPT:alert(1)">upper</a>',
    '<img src="data:image/png;base64,AAAA">',
    '<a href="https://x" onclick="alert(1)" target="_blank" id="i">attrs</a>',
    '<iframe src="https://example.com"></iframe>framed',
    "<div><p>para</p><h1>title</h1></div>",
    "<!-- a comment -->text",
    '<b title="">empty title</b>',
    '<form action="javascript:x"><input value="v"><button>b</button></form>',
    "<svg><circle r='1'/></svg>svg",
    '<span data-x="1" aria-hidden="true">data</span>',
]

HARNESS = """
import sanitize from "./app/sanitize.js";
window.sanitize = sanitize;
"""

#: Each description set as a label's HTML through the stand-in (as
#: ``widget_description.js`` does with ``inline_sanitize``'s output): its text, its
#: element count, and whether anything ran.
SHOW_JS = """(descriptions) => {
  window.ran = 0;
  return descriptions.map((d) => {
    const label = document.createElement("label");
    document.body.appendChild(label);
    label.innerHTML = window.sanitize(d);
    const shown = [label.textContent, label.querySelectorAll("*").length];
    label.remove();
    return shown;
  });
}"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> str:
    """The stand-in bundled into one script (an IIFE setting ``window.sanitize``)."""
    folder = tmp_path_factory.mktemp("sanitize")
    entry = REPO / ".sanitize-harness.js"  # (beside app/, for the import)
    entry.write_text(HARNESS, encoding="utf-8")
    try:
        out = folder / "harness.js"
        cmd = [str(ESBUILD), str(entry), "--bundle", "--format=iife", f"--outfile={out}"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
        assert proc.returncode == 0, proc.stderr
    finally:
        entry.unlink()
    return out.read_text(encoding="utf-8")


def test_a_description_marked_as_html_is_shown_as_its_text(browser, harness):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<!doctype html><title>sanitize</title>")
        page.add_script_tag(content=harness)
        page.evaluate("() => { window.alert = () => { window.ran += 1; }; }")
        shown = page.evaluate(SHOW_JS, DESCRIPTIONS)
        page.wait_for_timeout(200)  # (an onerror would have fired by now)
        ran = page.evaluate("() => window.ran")
    finally:
        context.close()
    assert shown == [[d, 0] for d in DESCRIPTIONS]
    assert ran == 0
