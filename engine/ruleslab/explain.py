"""Results that explain themselves.

Every engine function returns a frozen result carrying its figures *and* the
steps that produced them. A :class:`Step` is one line of arithmetic a person can
check, followed by the rule that licenses it, e.g.::

    Lift capacity = 30 kg × (Str 3 + Might 1) = 120 kg — Quick reference › Lifting

Result classes subclass :class:`Explained` and are declared
``@dataclass(frozen=True, kw_only=True)``: they inherit the ``steps`` field and
implement :meth:`Explained.figures`, the headline figures in display order; a
result with a distribution to draw also returns it as a :class:`Chart`.
The widget layer renders exactly these two things, so a new rule
needs no UI code to be explained.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from html import escape

__all__ = [
    "Chart",
    "Explained",
    "Figure",
    "Step",
    "fmt_num",
    "fmt_prob",
    "fmt_prob_at_least",
    "fmt_prob_bound",
]


@dataclass(frozen=True)
class Step:
    """One readable line of working and the rule (source › section) behind it."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} — {self.rule}"


@dataclass(frozen=True)
class Figure:
    """A headline figure of a result.

    ``key`` is stable (tests and the browser test find figures by it), ``label``
    is what a person reads, ``value`` the exact value (int, Fraction, bool, str)
    and ``text`` its display form ("120 kg", "41.2 %").
    """

    key: str
    label: str
    value: object
    text: str


@dataclass(frozen=True)
class Chart:
    """A bar chart's data: ``(label, probability)`` bars, and the first bar to highlight.

    Bars from index ``highlight_from`` on are drawn highlighted (e.g. the bars
    that meet the difficulty); ``None`` highlights none. Results build these
    (see :func:`ruleslab.pmf.chart_bars` for trimming negligible tails).
    """

    bars: tuple[tuple[str, float], ...]
    highlight_from: int | None = None


@dataclass(frozen=True, kw_only=True)
class Explained:
    """Base of every result: the steps that produced it, in order."""

    steps: tuple[Step, ...]

    def figures(self) -> tuple[Figure, ...]:  # pragma: no cover - overridden
        """The result's headline figures, in display order."""
        raise NotImplementedError

    def figure(self, key: str) -> Figure:
        """The figure with this key (KeyError if there is none)."""
        for fig in self.figures():
            if fig.key == key:
                return fig
        raise KeyError(key)

    def explain(self) -> str:
        """All steps as plain text, one per line."""
        return "\n".join(str(s) for s in self.steps)

    def _repr_html_(self) -> str:
        """How a notebook shows the result: its figures as a table (label and display
        text, not the exact fractions behind them), then its numbered steps, each with
        its rule. Every text is escaped."""
        try:
            figures = self.figures()
        except NotImplementedError:
            figures = ()
        rows = "".join(
            f'<tr><th scope="row" style="text-align:left;padding-right:1em">{escape(f.label)}'
            f'</th><td data-figure="{escape(f.key)}"><strong>{escape(f.text)}</strong></td></tr>'
            for f in figures
        )
        steps = "".join(
            f"<li>{escape(s.text)} <em>— {escape(s.rule)}</em></li>" for s in self.steps
        )
        parts = [f'<div class="rl-explained"><strong>{escape(type(self).__name__)}</strong>']
        if rows:
            parts.append(f'<table class="rl-figures">{rows}</table>')
        if steps:
            parts.append(
                "<details open><summary>How this was worked out</summary>"
                f'<ol class="rl-steps">{steps}</ol></details>'
            )
        parts.append("</div>")
        return "".join(parts)


def fmt_num(x: int | float | Fraction, unit: str = "") -> str:
    """Format a number for display: integers plainly, others to 2 decimals, trailing zeros cut."""
    if isinstance(x, Fraction) and x.denominator == 1:
        x = int(x)
    if isinstance(x, int):
        s = f"{x:,}".replace(",", "\u202f")  # narrow no-break space as thousands separator
    else:
        s = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return f"{s} {unit}".rstrip() if unit else s


def fmt_prob(p: Fraction | float) -> str:
    """Format a probability as a percentage with enough digits to be honest.

    Exact 0 and 1 print as "0 %" and "100 %"; anything else never rounds to them.
    """
    p = Fraction(p)
    if p == 0:
        return "0 %"
    if p == 1:
        return "100 %"
    pct = float(p) * 100
    if pct < 0.01:
        return "< 0.01 %"
    if pct > 99.99:
        return "> 99.99 %"
    return f"{pct:.2f} %"


def fmt_prob_at_least(p: Fraction, unresolved: bool) -> str:
    """A probability known only from below (part of the outcome left unresolved, which
    could only add to it): "≥ " before :func:`fmt_prob`'s text, except where that text
    already says as much or more: "> 99.99 %" and "100 %" stay as they are, and a
    lower bound under 0.01 % says only that the chance is not nil ("> 0 %")."""
    text = fmt_prob(p)
    if not unresolved or p == 1 or text.startswith(">"):
        return text
    if text.startswith("<"):
        return "> 0 %"
    return f"≥ {text}"


def fmt_prob_bound(p: Fraction, unresolved: Fraction) -> str:
    """A probability known up to ``unresolved`` (a table cut after its negligible tail):
    exactly as :func:`fmt_prob` when nothing is unresolved, else "≤ " its upper bound."""
    if not unresolved:
        return fmt_prob(p)
    upper = fmt_prob(p + unresolved)
    return upper if upper.startswith("<") else f"≤ {upper}"
