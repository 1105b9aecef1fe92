"""Shared helpers for the widget tests."""

from __future__ import annotations

import pytest


def _find(widget, css_class):
    """The first widget at or below ``widget`` carrying ``css_class`` (None if none)."""
    if css_class in getattr(widget, "_dom_classes", ()):
        return widget
    for child in getattr(widget, "children", ()):
        found = _find(child, css_class)
        if found is not None:
            return found
    return None


@pytest.fixture
def find():
    """``find(widget, css_class)``: look a widget up by the CSS class the view gave it."""
    return _find
