"""app/sanitize.js, the bundle's stand-in for ``sanitize-html``, against sanitize-html
itself (npm's, bundled here for the comparison) in Chromium: with the policy
``@jupyter-widgets/base-manager`` gives it (its ``default_inline_sanitize``), both keep
the same markup of descriptions, ordinary and hostile, compared as the browser reads
them (each output parsed and written out again, so ``<img />`` and ``<img>`` are one,
and ``color:red`` and ``color: red`` in a style).
"""

from __future__ import annotations

import subprocess

import pytest

from tools import REPO
from tools.build_app import ESBUILD

pytestmark = pytest.mark.browser

#: base-manager's policy (manager-base.js, ``default_inline_sanitize``).
POLICY = {
    "allowedTags": ["a", "abbr", "b", "code", "em", "i", "img", "li", "ol", "span", "strong", "ul"],
    "allowedAttributes": {
        "*": ["aria-*", "class", "style", "title"],
        "a": ["href"],
        "img": ["src"],
        "style": ["media", "type"],
    },
}

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
import real from "sanitize-html";
import ours from "./app/sanitize.js";
window.sanitizers = { real, ours };
"""

COMPARE_JS = """([descriptions, policy]) => {
  const read = (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    // (a style as the browser reads it: sanitize-html writes "color:red")
    t.content.querySelectorAll("[style]").forEach((e) => e.setAttribute("style", e.style.cssText));
    return t.innerHTML;
  };
  return descriptions.map((d) => [d, read(window.sanitizers.real(d, policy)),
                                  read(window.sanitizers.ours(d, policy))]);
}"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> str:
    """Both sanitizers bundled into one script (an IIFE setting ``window.sanitizers``)."""
    folder = tmp_path_factory.mktemp("sanitize")
    entry = REPO / ".sanitize-harness.js"  # (beside node_modules, for the imports)
    entry.write_text(HARNESS, encoding="utf-8")
    try:
        out = folder / "harness.js"
        cmd = [str(ESBUILD), str(entry), "--bundle", "--format=iife", f"--outfile={out}"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
        assert proc.returncode == 0, proc.stderr
    finally:
        entry.unlink()
    return out.read_text(encoding="utf-8")


def test_the_stand_in_keeps_what_sanitize_html_keeps(browser, harness):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<!doctype html><title>sanitize</title>")
        page.add_script_tag(content=harness)
        results = page.evaluate(COMPARE_JS, [DESCRIPTIONS, POLICY])
    finally:
        context.close()
    different = [(d, real, ours) for d, real, ours in results if real != ours]
    assert different == []
    # and what a hostile description tried is gone
    joined = "".join(ours for _, _, ours in results).lower()
    for gone in ("<script", "onerror", "onclick", "javascript:", "<iframe", "data:image", "<style"):
        assert gone not in joined, gone
