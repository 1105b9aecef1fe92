"""The Sphinx extension ``ruleslab_sphinx``: real Sphinx builds of small projects.

The markup it writes (attributes escaped, a plain link inside), ``embed.js``
once on each page with an embed and on no other, its options' messages, the
build warnings for a key or input the catalog does not have, and a link for
builders other than HTML. That the markup works in a browser:
``tests/browser/test_embed.py``.
"""

from __future__ import annotations

import html
import re
from math import comb
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from ruleslab.calculators import CALCULATORS
from ruleslab_sphinx import OWN_NAMES, parse_inputs

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://calc.example/ruleslab/"


def _build(tmp_path: Path, pages: dict[str, str], *, builder: str = "html", conf: str = ""):
    """Build ``pages`` (name -> reStructuredText); return (output folder, warnings)."""
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(
        conf or f'project = "t"\nextensions = ["ruleslab_sphinx"]\nruleslab_url = "{SITE}"\n',
        encoding="utf-8",
    )
    toctree = "\n".join(f"   {name}" for name in pages if name != "index")
    index = pages.get("index", "Index\n=====\n")
    (src / "index.rst").write_text(f"{index}\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8")
    for name, text in pages.items():
        if name != "index":
            (src / f"{name}.rst").write_text(text, encoding="utf-8")
    # SphinxTestApp restores docutils' global registries afterwards (several builds
    # in one process), and writes no colours into the warnings
    app = SphinxTestApp(builder, srcdir=src, builddir=tmp_path / "build", freshenv=True)
    try:
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir), strip_colors(app.warning.getvalue())


def _divs(page: str) -> list[dict[str, str]]:
    """The embed elements' attributes, unescaped as a browser reads them."""
    found = []
    for tag in re.findall(r'<div (class="ruleslab-embed"[^>]*)>', page):
        attrs = re.findall(r'([\w-]+)="([^"]*)"', tag)
        found.append({name: html.unescape(value) for name, value in attrs})
    return found


def test_inputs_are_read_as_a_link_query_is() -> None:
    assert parse_inputs("strength=5 might=2\nobject_kg=450") == [
        ("strength", "5"),
        ("might", "2"),
        ("object_kg", "450"),
    ]
    assert parse_inputs("a_combatants=%C5%8Cni%3A%20Dex%203%0AB&ruleset=2.0") == [
        ("a_combatants", "Ōni: Dex 3\nB"),
        ("ruleset", "2.0"),
    ]
    assert parse_inputs("text=two+words&empty=") == [("text", "two words"), ("empty", "")]
    assert parse_inputs("   ") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("strength5", "“strength5” is not name=value"),
        ("Strength=5", "“Strength” is not a field name"),
        ("%3Cb%3E=1", "“<b>” is not a field name"),
        ("theme=dark", "“theme” is not an input: use the :theme: option"),
        ("embed=x", "“embed” is not an input"),
    ],
)
def test_bad_inputs_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_inputs(text)


def test_no_calculator_field_uses_a_name_of_the_page_or_the_embed() -> None:
    """A field named like these could not be pre-set by an embed."""
    own = re.search(r"const OWN = \[([^\]]*)\]", (ROOT / "app" / "embed.js").read_text())
    assert own is not None
    assert set(re.findall(r'"(\w+)"', own.group(1))) | {"calculator", "embed"} == OWN_NAMES
    from ruleslab_widgets.view import PAGE_PARAMETERS

    assert PAGE_PARAMETERS <= OWN_NAMES
    for calc in CALCULATORS:
        assert not {p.name for p in calc.params} & OWN_NAMES, calc.key


def test_markup_and_one_script_per_page(tmp_path: Path) -> None:
    fight = (
        "Fight\n=====\n\n.. ruleslab:: compressed\n"
        "   :inputs: a_combatants=A%22%3E%3Cscript%3Ex%0AB%26C ruleset=2.0\n   :height: 640px\n"
    )
    out, warnings = _build(
        tmp_path,
        {
            "lifting": (
                "Lifting\n=======\n\n"
                ".. ruleslab:: lifting\n   :inputs: strength=5 might=2 object_kg=450\n\n"
                ".. ruleslab:: dice_pool\n   :inputs: dice=8&difficulty=2\n"
                "   :theme: dark\n   :start: click\n"
            ),
            "fight": fight,
            "plain": "Plain\n=====\n\nNo calculator here.\n",
        },
    )
    assert warnings == ""
    lifting = (out / "lifting.html").read_text(encoding="utf-8")
    assert lifting.count(f'<script defer="defer" src="{SITE}embed.js"></script>') == 1
    assert _divs(lifting) == [
        {
            "class": "ruleslab-embed",
            "data-ruleslab": "lifting",
            "data-strength": "5",
            "data-might": "2",
            "data-object_kg": "450",
        },
        {
            "class": "ruleslab-embed",
            "data-ruleslab": "dice_pool",
            "data-dice": "8",
            "data-difficulty": "2",
            "data-theme": "dark",
            "data-start": "click",
        },
    ]
    link = f"{SITE}app.html?calculator=lifting&amp;strength=5&amp;might=2&amp;object_kg=450"
    assert f'<a href="{link}">Lifting &amp; encumbrance (a ruleslab calculator)</a>' in lifting
    fight = (out / "fight.html").read_text(encoding="utf-8")
    assert fight.count("embed.js") == 1
    assert "<script>x" not in fight
    assert _divs(fight) == [
        {
            "class": "ruleslab-embed",
            "data-ruleslab": "compressed",
            "data-a_combatants": 'A"><script>x\nB&C',
            "data-ruleset": "2.0",
            "data-height": "640",
        }
    ]
    for page in ("plain.html", "index.html"):
        assert "embed.js" not in (out / page).read_text(encoding="utf-8")


def test_unknown_key_and_inputs_are_build_warnings(tmp_path: Path) -> None:
    out, warnings = _build(
        tmp_path,
        {
            "page": (
                "Page\n====\n\n.. ruleslab:: liftng\n\n"
                ".. ruleslab:: lifting\n   :inputs: strenght=5 might=2\n"
            )
        },
    )
    assert "page.rst:4: WARNING: ruleslab: no calculator 'liftng'; known: dice_pool," in warnings
    assert (
        "page.rst:6: WARNING: ruleslab: lifting has no input 'strenght' (its fields: strength,"
        in warnings
    )
    # the element is still written: embed.js says what is wrong in the page itself
    assert [d["data-ruleslab"] for d in _divs((out / "page.html").read_text())] == [
        "liftng",
        "lifting",
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ":height: 12",
            ":height: takes auto (the calculator's own height) or a height in pixels "
            "from 100 to 10000",
        ),
        (":height: tall", "“tall”: :height: takes auto"),
        (":theme: purple", '"purple" unknown; choose from "light", or "dark"'),
        (":start: hover", '"hover" unknown; choose from "visible", or "click"'),
        (":inputs: strength", "“strength” is not name=value"),
        (":inputs: start=click", "“start” is not an input: use the :start: option"),
    ],
)
def test_bad_options_are_errors_in_the_build(tmp_path: Path, options: str, message: str) -> None:
    out, warnings = _build(
        tmp_path, {"page": f"Page\n====\n\n.. ruleslab:: lifting\n   {options}\n"}
    )
    assert "ERROR" in warnings
    assert message in warnings
    assert _divs((out / "page.html").read_text()) == []


def test_the_site_url_must_be_set(tmp_path: Path) -> None:
    out, warnings = _build(
        tmp_path,
        {"page": "Page\n====\n\n.. ruleslab:: lifting\n"},
        conf='project = "t"\nextensions = ["ruleslab_sphinx"]\n',
    )
    assert "ruleslab: set ruleslab_url in conf.py to the calculator site's address" in warnings
    assert "embed.js" not in (out / "page.html").read_text()


def test_other_builders_get_a_link(tmp_path: Path) -> None:
    out, warnings = _build(
        tmp_path,
        {"page": "Page\n====\n\n.. ruleslab:: lifting\n   :inputs: strength=5\n   :theme: dark\n"},
        builder="text",
    )
    assert warnings == ""
    text = re.sub(r"\s", "", (out / "page.txt").read_text(encoding="utf-8"))  # lines wrap
    want = "Lifting & encumbrance (a ruleslab calculator): "
    want += f"{SITE}app.html?calculator=lifting&strength=5"
    assert re.sub(r"\s", "", want) in text


def _figures(page: str) -> dict[str, str]:
    return {
        key: html.unescape(text)
        for key, text in re.findall(r'data-figure="([\w]+)">([^<]*)<', page)
    }


def test_embeds_are_pre_rendered_at_their_inputs(tmp_path: Path) -> None:
    """The directive writes each embed's figures at its preset inputs into its element
    (shown until the calculator is ready, and without JavaScript): worked by hand."""
    pytest.importorskip("ipywidgets")
    out, warnings = _build(
        tmp_path,
        {"lifting": "Lifting\n=======\n\n.. ruleslab:: lifting\n   :inputs: strength=5 might=2\n"},
    )
    assert warnings == ""
    page = (out / "lifting.html").read_text(encoding="utf-8")
    static = page[page.index('<div class="ruleslab-static">') :]
    assert 'class="rl-calc rl-prerender rl-embed-static" data-calculator="lifting"' in static
    figures = _figures(static)
    assert figures["capacity"] == "210 kg"  # 30 kg × (Strength 5 + Might 2)
    assert figures["roll_needed"] == "No"  # the default 100 kg is within it
    assert "Strength: 5 · Might: 2" in static


def test_the_mkdocs_hook_pre_renders_plain_html_embeds() -> None:
    pytest.importorskip("ipywidgets")
    from ruleslab_sphinx.mkdocs_hook import on_page_content

    page = (
        '<p>x</p>\n<div data-ruleslab="dice_pool" data-dice="8" data-difficulty="2" '
        'data-theme="dark"></div>\n<div data-ruleslab="nope"></div>\n'
        '<div data-ruleslab="compressed" data-a_intent="&quot;&gt;&lt;script&gt;x"></div>'
    )
    out = on_page_content(page, page=None, config=None, files=None)
    assert '<div data-ruleslab="nope"></div>' in out  # unknown: left for embed.js to say
    assert out.count('<div class="ruleslab-static">') == 2
    figures = _figures(out)
    p8 = [comb(8, k) * 0.4**k * 0.6 ** (8 - k) for k in range(9)]
    assert figures["p_success"] == f"{100 * (1 - p8[0] - p8[1]):.2f} %"  # 2 of 8 dice
    assert figures["mean"] == "3.2 successes"
    assert "<script>x" not in out
