"""The extra panels under a calculator's figures, drawn from its declared views.

A calculator declares its panels as data (:class:`ruleslab.declare.ChartView`,
:class:`ruleslab.declare.HealthTrackView`); this module makes the widget for
each kind and shows a result in it. It knows no calculator: what a chart draws
and highlights comes from the result's own method.
"""

from __future__ import annotations

from typing import Any

import ipywidgets

from ruleslab.declare import ChartView, HealthTrackView, View

__all__ = ["make_panel", "update_panel"]


def make_panel(view: View) -> ipywidgets.Widget:
    """The widget for one declared view (called once per calculator view)."""
    if isinstance(view, ChartView):
        from ruleslab_widgets.chart import BarChart

        return BarChart(title=view.title, x_label=view.x_label, highlight_label=view.highlight)
    from ruleslab_widgets.health_track import HealthTrack

    return HealthTrack(title=view.title)


def update_panel(view: View, widget: Any, result: Any) -> None:
    """Show ``result`` in the widget :func:`make_panel` made for ``view``.

    ``widget`` may be any object taking attributes (the golden-figures test
    records what is set).
    """
    if isinstance(view, ChartView):
        chart = view.chart(result)
        widget.bars = [(str(label), float(p)) for label, p in chart.bars]
        widget.highlight_from = chart.highlight_from
    elif isinstance(view, HealthTrackView):
        widget.boxes = [dict(b) for b in result.boxes()]
        widget.state_key = str(result.state)
        widget.state = result.figure("state").text
        widget.penalty = result.figure("wound_penalty").text
    else:  # pragma: no cover - View is closed
        raise TypeError(f"no panel for {view!r}")
