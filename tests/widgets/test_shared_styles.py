"""A view's widgets share one default layout and one default style per class
(``ruleslab_widgets.shared_styles``): fewer models, and nothing shown differently."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

import ipywidgets as w

from ruleslab.calculators import CALCULATORS
from ruleslab_widgets import calculator
from ruleslab_widgets.shared_styles import SharedDefault, own_layout, own_style, shared_defaults
from ruleslab_widgets.view import CalculatorView

#: A layout's and a style's public traits at ipywidgets' defaults, read from fresh ones.
PLAIN_LAYOUT = {k: v for k, v in w.Layout().get_state().items() if not k.startswith("_")}


def tree(widget: Any) -> Iterator[Any]:
    """``widget`` and every widget under it (children, layouts and styles are not walked)."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from tree(child)


def public(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if not k.startswith("_")}


@pytest.mark.parametrize("key", [c.key for c in CALCULATORS])
def test_one_shared_default_layout_per_view_left_at_the_defaults(key: str) -> None:
    view = calculator(key)
    widgets = [x for x in tree(view) if isinstance(x, w.DOMWidget)]
    layouts = {id(x.layout): x.layout for x in widgets}
    shared = [layout for layout in layouts.values() if isinstance(layout, SharedDefault)]
    # one shared layout, used by most widgets, and still ipywidgets' default layout
    assert len(shared) == 1
    users = [x for x in widgets if x.layout is shared[0]]
    assert len(users) > len(widgets) / 2
    assert public(shared[0].get_state()) == PLAIN_LAYOUT
    # every style class at most once shared, each at its class's defaults
    styles = [getattr(x, "style", None) for x in widgets]
    shared_styles = {id(s): s for s in styles if isinstance(s, SharedDefault)}
    classes = [type(s) for s in shared_styles.values()]
    assert len(classes) == len(set(classes))
    for style in shared_styles.values():
        assert public(style.get_state()) == public(style._rl_base().get_state())


def test_a_shared_default_cannot_be_changed_and_own_layout_gives_a_widget_its_own() -> None:
    with shared_defaults():
        a, b = w.HTML("a"), w.HTML("b")
    assert a.layout is b.layout
    assert a.style is b.style
    with pytest.raises(AttributeError, match=r"own_layout\(widget\)\.display"):
        a.layout.display = "none"
    with pytest.raises(AttributeError, match=r"own_style\(widget\)\.font_size"):
        a.style.font_size = "20px"
    assert b.layout.display is None
    assert b.style.font_size is None
    own_layout(a).display = "none"
    own_style(a).font_size = "20px"
    assert a.layout.display == "none"
    assert a.style.font_size == "20px"
    assert type(a.layout) is w.Layout
    assert type(a.style).__name__ == "HTMLStyle"
    assert b.layout.display is None
    assert b.style.font_size is None
    assert own_layout(a) is a.layout  # (already its own: kept)


def test_outside_a_view_every_widget_has_its_own_layout() -> None:
    a, b = w.HTML("a"), w.HTML("b")
    assert a.layout is not b.layout
    assert not isinstance(a.layout, SharedDefault)
    a.layout.display = "none"  # (a notebook's own widgets as ever)
    assert b.layout.display is None


def test_two_views_share_nothing() -> None:
    one, two = calculator("lifting"), calculator("lifting")
    assert one.layout is not two.layout
    with shared_defaults():
        x = w.HTML()
        with shared_defaults():  # (nested: the enclosing block's)
            y = w.HTML()
    with shared_defaults():
        z = w.HTML()
    assert x.layout is y.layout
    assert x.layout is not z.layout


def test_folding_one_region_hides_it_alone() -> None:
    view = calculator("chimera")
    assert isinstance(view, CalculatorView)
    regions = [x for x in tree(view) if isinstance(x, w.Box) and "rl-fold-region" in x._dom_classes]
    shown = [r for r in regions if r.layout.display != "none"]
    assert len(shown) >= 2
    heading = next(h for h in view.folds.values() if h.expanded)
    heading.expanded = False
    hidden_now = [r for r in regions if r.layout.display == "none"]
    assert len(hidden_now) == len(regions) - len(shown) + 1
    # the shared default is untouched: widgets that were shown still are
    assert not any(
        isinstance(x.layout, SharedDefault) and x.layout.display == "none"
        for x in tree(view)
        if isinstance(x, w.DOMWidget)
    )
