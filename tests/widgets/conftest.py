"""Shared helpers for the widget tests."""

from __future__ import annotations

import pytest


def _find_all(widget, css_class):
    """Every widget at or below ``widget`` carrying ``css_class``, in page order (a
    closed fold's rows included: ``FoldRegion.rows``, its children once opened)."""
    found = [widget] if css_class in getattr(widget, "_dom_classes", ()) else []
    from ruleslab_widgets.fold import parts

    for child in parts(widget):
        found += _find_all(child, css_class)
    return found


def _find(widget, css_class):
    """The first widget at or below ``widget`` carrying ``css_class`` (None if none)."""
    return next(iter(_find_all(widget, css_class)), None)


@pytest.fixture
def find():
    """``find(widget, css_class)``: look a widget up by the CSS class the view gave it."""
    return _find


@pytest.fixture
def find_all():
    """``find_all(widget, css_class)``: every widget carrying the CSS class, in page order."""
    return _find_all
