"""The rules notes in the site, and every citation of one a link to it.

Every ``docs/rules-notes/*.md`` is a page of the built site with each note's id
as an anchor; every ``RN-…`` a calculator cites (help texts, options, steps and
figures at its defaults) is a note that exists, and on the app page and in a
notebook it is a link to that note's page, opening in a new tab.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import expect

from ruleslab.calculators import CALCULATORS, get
from tests.browser.axe_check import axe_violations
from tests.browser.conftest import KERNEL_TIMEOUT, run_notebook
from tools.make_content import embed_link, notebook_link
from tools.rules_notes import NOTES_DIR

pytestmark = pytest.mark.browser

CITATION = re.compile(r"\bRN-[A-Z]+-[0-9]+\b")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(v for k, v in attrs if k == "id" and v)


def page_ids(path: Path) -> set[str]:
    """Every element id in an HTML file."""
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.ids


def headings_in_notes() -> dict[str, str]:
    """Every note id in docs/rules-notes, read from the Markdown: id -> site page."""
    found = {}
    for md in NOTES_DIR.glob("*.md"):
        name = "index.html" if md.stem == "README" else f"{md.stem}.html"
        for match in re.finditer(r"^#+ (RN-[A-Z]+-[0-9]+)\b", md.read_text("utf-8"), re.M):
            found[match.group(1)] = name
    return found


def cited_by_calculators() -> dict[str, set[str]]:
    """Every note id a calculator cites in its help, options, steps and figures at its
    defaults: id -> the calculators citing it."""
    pytest.importorskip("ipywidgets")
    from ruleslab_widgets import CalculatorView

    cited: dict[str, set[str]] = {}
    for calc in CALCULATORS:
        texts = []
        for p in calc.params:
            texts += [p.label, p.help] + [label for _, label in getattr(p, "choices", ())]
        view = CalculatorView(calc)
        texts += [view.output.value, view.working.value, view.status.value]
        for text in texts:
            for note in CITATION.findall(text):
                cited.setdefault(note, set()).add(calc.key)
    return cited


def test_every_note_file_is_a_page_holding_its_notes_ids(site_dir):
    folder = site_dir / "rules-notes"
    for note, name in headings_in_notes().items():
        assert note in page_ids(folder / name), (name, note)
    pages = {p.name for p in folder.glob("*.html")}
    assert pages == {
        "index.html" if md.stem == "README" else f"{md.stem}.html" for md in NOTES_DIR.glob("*.md")
    }


def test_every_note_a_calculator_cites_exists_in_the_page_it_links_to(site_dir):
    notes = headings_in_notes()
    cited = cited_by_calculators()
    assert len(cited) > 30
    missing = sorted(
        f"{n} (cited by {', '.join(sorted(k))})" for n, k in cited.items() if n not in notes
    )
    assert missing == [], "cited without a note"
    for note in cited:
        assert note in page_ids(site_dir / "rules-notes" / notes[note]), note


def test_the_notes_index_links_every_page_and_back_to_the_calculators(page, base_url, site_dir):
    page.goto(base_url + "rules-notes/index.html")
    expect(page.locator("h1")).to_have_text("Rules notes")
    hrefs = page.locator("a[href]").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    assert "../index.html" in hrefs
    for name in (p.name for p in (site_dir / "rules-notes").glob("*.html")):
        if name != "index.html":
            assert name in hrefs, name
    for href in hrefs:
        url = urljoin(page.url, href)
        path = urlsplit(url).path.removeprefix(urlsplit(base_url).path)
        assert (site_dir / path).is_file(), href
    page.get_by_role("link", name="← All calculators").click()
    expect(page.locator("li.calc")).to_have_count(len(CALCULATORS))


def test_a_note_opens_at_its_anchor_readable_in_both_themes_and_on_a_phone(
    page, base_url, artifacts
):
    for theme, background in (("light", "rgb(255, 255, 255)"), ("dark", "rgb(22, 22, 22)")):
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{base_url}rules-notes/falling.html?theme={theme}#RN-FALL-4")
        heading = page.locator("#RN-FALL-4")
        expect(heading).to_be_in_viewport()
        assert heading.evaluate("(h) => h.tagName") == "H2"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(artifacts / f"rules-note-phone-{theme}.png"))
        assert axe_violations(page) == [], theme
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{base_url}rules-notes/index.html?theme={theme}")
        assert axe_violations(page) == [], theme


def _check_note_links(page, root, site_dir: Path, base_url: str) -> int:
    """Every citation shown in ``root`` is a link opening its note in a new tab, and the
    page it goes to holds that id; returns how many links there are."""
    links = root.locator("a.rl-note")
    found = links.evaluate_all("(as) => as.map((a) => [a.textContent, a.href, a.target, a.rel])")
    text = root.evaluate("(r) => r.textContent")  # hidden fields' help too
    assert len(found) == len(CITATION.findall(text)), "a citation shown is not a link"
    for note, href, target, rel in found:
        assert (target, rel) == ("_blank", "noopener")
        url = urlsplit(href)
        assert url.fragment == note
        path = url.path.removeprefix(urlsplit(base_url).path)
        assert path.startswith("rules-notes/"), href
        assert note in page_ids(site_dir / path), href
    return len(found)


def test_app_page_links_every_citation_to_its_note(page, base_url, site_dir):
    for key in ("falling", "autofire", "defence"):
        page.goto(base_url + embed_link(get(key)))
        # the live calculator whole: drawn, then its closed folds' rows, sent once the
        # page is idle (page.js, fillLater), whose help cites notes too
        page.wait_for_function(
            "() => window.ruleslab && window.ruleslab.filled === true", timeout=KERNEL_TIMEOUT
        )
        root = page.locator(f".rl-calc-{key}").first
        expect(root).to_be_visible()
        assert _check_note_links(page, root, site_dir, base_url) > 0, key
    # a link opens the note in a new tab, at its anchor
    link = root.locator("a.rl-note").first
    note = link.inner_text()
    with page.context.expect_page() as opened:
        link.click()
    tab = opened.value
    tab.wait_for_load_state()
    expect(tab.locator(f"#{note}")).to_be_in_viewport()


def test_a_notebook_links_citations_to_the_notes(page, base_url, site_dir):
    page.goto(base_url + notebook_link(get("falling")))
    root = run_notebook(page, "falling")
    expect(root.locator("a.rl-note").first).to_be_visible()
    assert root.locator("a.rl-note").first.get_attribute("href").startswith("../rules-notes/")
    assert _check_note_links(page, root, site_dir, base_url) > 0
