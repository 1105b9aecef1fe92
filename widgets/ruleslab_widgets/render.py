"""HTML for results and messages. Everything shown is escaped.

The markup carries stable hooks for tests and for authors' CSS:
``data-figure="<key>"`` on each figure's value, ``rl-steps`` on the list of
steps, ``rl-error`` on a field's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ruleslab import Explained
from ruleslab_widgets.notes import linkify

__all__ = ["error_html", "figures_html", "roll_html", "status_html", "steps_html"]


def figures_html(result: Explained, first: Sequence[str] = ()) -> str:
    """The result's figures as a table (label, value); a rules note cited in either is a
    link to it (:func:`~ruleslab_widgets.notes.linkify`). The figures keyed ``first``
    (the headline: :meth:`~ruleslab.declare.Calculator.headline`) come first, in that
    order, their rows marked ``rl-headline``; the others follow in the result's order."""
    figures = result.figures()
    by_key = {f.key: f for f in figures}
    ordered = [by_key[k] for k in first if k in by_key]
    ordered += [f for f in figures if f.key not in set(first)]
    headline = ' class="rl-headline"'
    rows = "".join(
        f"<tr{headline if f.key in first else ''}>"
        f'<th scope="row">{linkify(f.label)}</th>'
        f'<td class="rl-figure" data-figure="{escape(f.key)}">{linkify(f.text)}</td></tr>'
        for f in ordered
    )
    return f'<div class="rl-result"><table class="rl-figures">{rows}</table></div>'


def steps_html(result: Explained) -> str:
    """The numbered steps that produced the result, each with its rule; a rules note
    cited in either is a link to it (:func:`~ruleslab_widgets.notes.linkify`)."""
    steps = "".join(
        f'<li><span class="rl-step-text">{linkify(s.text)}</span>'
        f' <span class="rl-step-rule">— {linkify(s.rule)}</span></li>'
        for s in result.steps
    )
    return (
        f'<details class="rl-working" open><summary>How this was worked out</summary>'
        f'<ol class="rl-steps">{steps}</ol></details>'
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


STALE_ROLL = "Rolled before the inputs changed: roll again for the result shown above."
"""The note on a roll log whose pool is no longer the one shown."""


def roll_html(
    title: str, seed: int, lines: list[str] | tuple[str, ...], *, stale: bool = False
) -> str:
    """One roll's log: a heading with the seed, then the numbered lines.

    ``stale``: the inputs have changed since: the log is kept (what was rolled,
    with its seed) under a note saying so, and drawn faded (``rl-roll-stale``).
    """
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    kind, note = "rl-roll", ""
    if stale:
        kind += " rl-roll-stale"
        note = f'<div class="rl-roll-note">{escape(STALE_ROLL)}</div>'
    return (
        f'<div class="{kind}" data-seed="{seed}">{note}<strong>{escape(title)}</strong> '
        f'<span class="rl-seed">(seed {seed})</span><ol>{items}</ol></div>'
    )
