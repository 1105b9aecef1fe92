"""HTML for results and messages. Everything shown is escaped.

The markup carries stable hooks for tests and for authors' CSS:
``data-figure="<key>"`` on each figure's value, ``rl-steps`` on the list of
steps, ``rl-error`` on a field's message.
"""

from __future__ import annotations

from html import escape

from ruleslab import Explained

__all__ = ["error_html", "result_html", "status_html"]


def result_html(result: Explained) -> str:
    """The figures table and the numbered steps of a result."""
    rows = "".join(
        f'<tr><th scope="row">{escape(f.label)}</th>'
        f'<td class="rl-figure" data-figure="{escape(f.key)}">{escape(f.text)}</td></tr>'
        for f in result.figures()
    )
    steps = "".join(
        f'<li><span class="rl-step-text">{escape(s.text)}</span>'
        f' <span class="rl-step-rule">— {escape(s.rule)}</span></li>'
        for s in result.steps
    )
    return (
        f'<div class="rl-result"><table class="rl-figures">{rows}</table>'
        f'<details class="rl-working" open><summary>How this was worked out</summary>'
        f'<ol class="rl-steps">{steps}</ol></details></div>'
    )


def error_html(message: str) -> str:
    """A field's validation message (empty string clears it)."""
    if not message:
        return ""
    return f'<span class="rl-error" role="alert">⚠ {escape(message)}</span>'


def status_html(message: str, kind: str = "info") -> str:
    """A one-line status above the result ("Showing the last good result …")."""
    if not message:
        return ""
    return f'<div class="rl-status rl-status-{escape(kind)}">{escape(message)}</div>'
