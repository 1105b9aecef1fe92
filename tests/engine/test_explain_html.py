"""``Explained._repr_html_``: how a notebook shows an engine result.

Readable (the figures' display texts and the steps with their rules, not the
dataclass repr and its fractions) and escaped (labels, texts and rules are
shown as text, never as markup).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from html.parser import HTMLParser

from ruleslab.calculators.lifting import lifting_and_encumbrance
from ruleslab.explain import Explained, Figure, Step

HOSTILE = "<script>alert(\"x\")</script> & 'q' <b>"


@dataclass(frozen=True, kw_only=True)
class _Hostile(Explained):
    chance: Fraction

    def figures(self) -> tuple[Figure, ...]:
        return (Figure('k"><img src=x>', f"Label {HOSTILE}", self.chance, f"Text {HOSTILE}"),)


class _Collect(HTMLParser):
    """Element names, attribute values and text of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Collect:
    parser = _Collect()
    parser.feed(html)
    parser.close()
    return parser


def test_every_text_is_escaped():
    result = _Hostile(steps=(Step(f"Step {HOSTILE}", f"Rule {HOSTILE}"),), chance=Fraction(1, 3))
    html = result._repr_html_()
    parsed = _parse(html)
    assert "script" not in parsed.tags
    assert "img" not in parsed.tags
    assert "b" not in parsed.tags
    text = "".join(parsed.text)
    for shown in (f"Label {HOSTILE}", f"Text {HOSTILE}", f"Step {HOSTILE}", f"Rule {HOSTILE}"):
        assert shown in text  # the characters survive, as text
    assert ("data-figure", 'k"><img src=x>') in parsed.attrs


def test_a_result_shows_its_figures_and_steps_not_its_fractions():
    report = lifting_and_encumbrance(
        strength=3, might=2, mega_strength=0, load_kg=40, object_kg=450
    )
    html = report._repr_html_()
    text = "".join(_parse(html).text)
    # Lift capacity, by hand: 30 kg × (Strength 3 + Might 2) = 150 kg
    assert "Lift capacity" in text
    assert "150 kg" in text
    for step in report.steps:
        assert step.text in text
        assert step.rule in text
    assert "Fraction(" not in html
    assert "LiftingReport(" not in html


def test_a_result_with_no_figures_shows_its_steps():
    @dataclass(frozen=True, kw_only=True)
    class _Bare(Explained):
        pass

    html = _Bare(steps=(Step("1 + 1 = 2", "Arithmetic"),))._repr_html_()
    assert "1 + 1 = 2" in html
    assert "<table" not in html
