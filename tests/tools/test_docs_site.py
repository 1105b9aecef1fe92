"""tools/docs_site.py: the documentation's build, strict, and its MkDocs hook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.docs_site import (
    CALCULATORS_MARK,
    CONFIG,
    DocsBuildError,
    build_docs,
    calculators_reference,
    on_page_content,
    on_page_markdown,
    slugify,
)
from tools.rules_notes import note_ids


def test_a_rules_notes_heading_keeps_its_id_as_its_anchor() -> None:
    assert slugify("RN-FALL-1: where “the first 20 meters” start", "-") == "RN-FALL-1"
    assert slugify("RN-CHIM-23 the coup de grâce", "-") == "RN-CHIM-23"
    assert slugify("How the app page works", "-") == "how-the-app-page-works"
    assert slugify("Not RN-FALL-1 first", "-") == "not-rn-fall-1-first"
    assert note_ids()  # (every note of docs/rules-notes has such a heading)


def test_every_calculator_is_in_the_reference_in_site_order() -> None:
    from ruleslab.calculators import CALCULATORS

    text = on_page_markdown(f"# The calculators' functions\n\n{CALCULATORS_MARK}\n")
    found = re.findall(r"^::: ruleslab\.calculators\.(\w+)$", text, re.M)
    assert found == [c.key for c in CALCULATORS]
    assert re.findall(r"^## (.+)$", text, re.M) == [c.title for c in CALCULATORS]
    assert CALCULATORS_MARK not in text
    assert calculators_reference() in text
    page = (CONFIG.parent / "docs" / "api-calculators.md").read_text(encoding="utf-8")
    assert CALCULATORS_MARK in page
    assert on_page_markdown("no mark here") == "no mark here"


def test_the_hook_prerenders_embeds_and_reads_roles_as_code() -> None:
    html = on_page_content(
        "<p>See :func:<code>~ruleslab.whatif.compare</code> and :mod:<code>ruleslab.party</code>"
        '.</p>\n<div data-ruleslab="lifting" data-strength="5" data-might="2"></div>'
    )
    assert "<p>See <code>compare</code> and <code>ruleslab.party</code>.</p>" in html
    # the project's own hook wrote the figures at those inputs: 30 kg × (5 + 2)
    static = html.split('class="ruleslab-static"', 1)[1]
    assert re.search(r'data-figure="capacity"[^>]*>210 kg<', static), static[:2000]


def _project(tmp_path: Path, page: str) -> Path:
    (tmp_path / "docs").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n## A section\n", encoding="utf-8")
    (tmp_path / "docs" / "other.md").write_text(page, encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: t\nvalidation:\n  links:\n    anchors: warn\n", encoding="utf-8")
    return config


def test_a_strict_build_fails_on_a_broken_link_or_anchor(tmp_path: Path) -> None:
    good = _project(tmp_path / "good", "# Other\n\n[home](index.md#a-section)\n")
    out = build_docs(tmp_path / "good-site", config=good)
    assert (out / "other" / "index.html").is_file()
    for name, page in (
        ("page", "# Other\n\n[gone](missing.md)\n"),
        ("anchor", "# Other\n\n[home](index.md#no-such-heading)\n"),
    ):
        config = _project(tmp_path / name, page)
        with pytest.raises(DocsBuildError, match=r"missing\.md|no-such-heading"):
            build_docs(tmp_path / f"{name}-site", config=config)


@pytest.mark.parametrize("name", ["README.md", "CHANGELOG.md"])
def test_the_front_doors_links_reach_files(name: str) -> None:
    """The README and the changelog are read on the repository's host, outside the
    documentation's build: each relative link (images too) names a file that exists."""
    root = CONFIG.parent
    text = (root / name).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"", text)
    targets = [a or b for a, b in links]
    local = [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z]+:", t)]
    assert [t for t in local if t and not (root / t).exists()] == []
    if name == "README.md":
        assert len(local) >= 10  # (the parser found the README's links)
