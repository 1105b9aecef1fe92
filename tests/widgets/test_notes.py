"""Citations of the rules notes as links (``ruleslab_widgets.notes``), escaping kept."""

from __future__ import annotations

import re
from html import escape

import pytest

from ruleslab_widgets import notes
from ruleslab_widgets._notes_index import PAGES

pytest.importorskip("ipywidgets")

from ruleslab.calculators import CALCULATORS
from ruleslab_widgets import CalculatorView

LINK = re.compile(
    r'<a class="rl-note" href="([^"]*)" target="_blank" rel="noopener"[^>]*>([^<]*)</a>'
)


def test_a_citation_of_a_note_becomes_a_link_in_a_new_tab() -> None:
    html = notes.linkify("Counted past the safe distance (RN-FALL-1).")
    assert html == (
        "Counted past the safe distance ("
        '<a class="rl-note" href="rules-notes/falling.html#RN-FALL-1"'
        ' target="_blank" rel="noopener" title="Rules note RN-FALL-1 (opens in a new tab)"'
        ' style="white-space: nowrap">RN-FALL-1</a>).'
    )


def test_every_citation_is_linked_and_longer_ids_are_not_cut() -> None:
    html = notes.linkify("RN-FALL-1, RN-FALL-4; RN-RANGED-14 and RN-SOAK-3")
    assert LINK.findall(html) == [
        ("rules-notes/falling.html#RN-FALL-1", "RN-FALL-1"),
        ("rules-notes/falling.html#RN-FALL-4", "RN-FALL-4"),
        ("rules-notes/autofire.html#RN-RANGED-14", "RN-RANGED-14"),
        ("rules-notes/damage.html#RN-SOAK-3", "RN-SOAK-3"),
    ]


def test_a_citation_of_no_note_stays_text() -> None:
    assert "RN-NOPE-1" not in PAGES
    assert notes.linkify("see RN-NOPE-1 and RN-FALL-999") == "see RN-NOPE-1 and RN-FALL-999"
    assert notes.note_url("RN-NOPE-1") is None
    # a family ("RN-COND-*") or a bare prefix is no id
    assert notes.linkify("RN-COND-* or RN-") == "RN-COND-* or RN-"


def test_everything_else_stays_escaped_text() -> None:
    text = '<b>bold</b> & "quoted" RN-FALL-1<script>alert(1)</script>'
    html = notes.linkify(text)
    assert "<b>" not in html
    assert "<script>" not in html
    assert html.startswith("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; <a ")
    assert html.endswith("RN-FALL-1</a>&lt;script&gt;alert(1)&lt;/script&gt;")
    # nothing but the links was added: stripping them gives the escaped text back
    assert LINK.sub(r"\2", html) == escape(text)


def test_the_base_follows_the_page_showing_the_calculator(monkeypatch) -> None:
    # the app page's worker (app.html, also in an embed's iframe): notes beside it
    assert notes.base("/site/static/app/worker.mjs") == "rules-notes/"
    # a JupyterLite kernel (lab/index.html): one folder down
    worker = "/site/extensions/@jupyterlite/pyodide-kernel-extension/static/worker.js"
    assert notes.base(worker) == "../rules-notes/"
    monkeypatch.setattr(notes, "BASE", "https://example.org/notes/")
    assert notes.note_url("RN-FALL-2") == "https://example.org/notes/falling.html#RN-FALL-2"


def test_steps_and_figures_of_a_calculator_link_their_citations() -> None:
    view = CalculatorView(next(c for c in CALCULATORS if c.key == "falling"))
    cited = set(re.findall(r"\bRN-[A-Z]+-[0-9]+\b", view.working.value))
    assert cited, "falling's steps cite its notes"
    linked = {name for _, name in LINK.findall(view.working.value)}
    assert linked == cited


def test_every_note_cited_anywhere_in_a_calculator_exists() -> None:
    """Every id cited by a calculator's help texts, option labels and steps at its
    defaults has a note (the list of those without one, if any)."""
    missing = set()
    for calc in CALCULATORS:
        texts = [p.help for p in calc.params] + [p.label for p in calc.params]
        for p in calc.params:
            texts += [label for _, label in getattr(p, "choices", ())]
        view = CalculatorView(calc)
        texts += [view.working.value, view.output.value, view.status.value]
        for text in texts:
            for note in re.findall(r"\bRN-[A-Z]+-[0-9]+\b", text):
                if note not in PAGES:
                    missing.add(f"{calc.key}: {note}")
    assert sorted(missing) == []


def test_a_help_text_links_its_citations_and_stays_escaped() -> None:
    calc = next(c for c in CALCULATORS if c.key == "falling")
    view = CalculatorView(calc)
    cited = [p for p in calc.params if notes.CITATION.search(p.help)]
    assert cited, "falling's help texts cite its notes"
    for param in cited:
        shown = view._rows[param.name].children[-1].value
        assert shown.startswith(f'<div class="rl-help">{notes.linkify(param.help)}')
        assert LINK.findall(shown)
