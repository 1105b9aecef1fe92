"""The rules notes' Markdown as site pages (``tools/rules_notes.py``)."""

from __future__ import annotations

from pathlib import Path

from tools.rules_notes import (
    INDEX_MODULE,
    NOTES_DIR,
    index_module,
    note_ids,
    render_markdown,
    write_notes,
)


def test_the_subset_the_notes_use_is_rendered_and_everything_else_escaped() -> None:
    text = (
        "# Rules notes: <b>x</b>\n\n"
        "## RN-FALL-1: a *reading* & `code <i>`\n\n"
        '**Text**: "A fall\n* 2 meters" <script>alert(1)</script> (RN-FALL-2, RN-NONE-1).\n'
        "- `safe` (default): one\n  continued\n- [other](damage.md#RN-DMG-1)\n\n"
        "> quoted\n\n"
        "[elsewhere](../../engine/x.py) RN-COND-* stays\n"
    )
    ids = {"RN-FALL-1": "falling.html", "RN-FALL-2": "falling.html"}
    html, headings = render_markdown(text, ids, "falling.html")
    assert html.splitlines() == [
        '<h1 id="rules-notes-b-x-b">Rules notes: &lt;b&gt;x&lt;/b&gt;</h1>',
        '<h2 id="RN-FALL-1">RN-FALL-1: a <em>reading</em> &amp; <code>code &lt;i&gt;</code></h2>',
        '<p><strong>Text</strong>: "A fall * 2 meters" &lt;script&gt;alert(1)&lt;/script&gt; '
        '(<a class="rl-note" href="#RN-FALL-2">RN-FALL-2</a>, RN-NONE-1).</p>',
        "<ul><li><code>safe</code> (default): one continued</li>"
        '<li><a href="damage.html#RN-DMG-1">other</a></li></ul>',
        "<blockquote><p>quoted</p></blockquote>",
        "<p>elsewhere RN-COND-* stays</p>",
    ]
    assert [(h.level, h.id) for h in headings] == [(1, "rules-notes-b-x-b"), (2, "RN-FALL-1")]


def test_every_note_file_becomes_a_page_with_its_ids(tmp_path: Path) -> None:
    written = write_notes(tmp_path)
    names = {p.name for p in written}
    assert names == {
        "index.html" if md.stem == "README" else f"{md.stem}.html" for md in NOTES_DIR.glob("*.md")
    }
    for note, page in note_ids().items():
        assert f'<h2 id="{note}">' in (tmp_path / "rules-notes" / page).read_text("utf-8")
    falling = (tmp_path / "rules-notes" / "falling.html").read_text("utf-8")
    assert '<a href="../index.html">← All calculators</a>' in falling
    assert '<a href="../app.html?calculator=falling">Open the Falling calculator</a>' in falling


def test_the_widgets_table_of_notes_is_up_to_date() -> None:
    assert INDEX_MODULE.read_text(encoding="utf-8") == index_module()
