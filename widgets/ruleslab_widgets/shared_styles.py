"""One default layout, and one default style per style class, for all the widgets of a view.

ipywidgets gives every widget a ``Layout`` of its own, and every control a style model of
its own (``HTMLStyle``, ``DescriptionStyle`` …), even when nothing is ever set on them. A
calculator's view is some 80 to 300 widgets; most of their layouts and styles stay at the
defaults, yet each is a widget of ~40 traits made, serialized, sent and drawn as a model in
the page. With one shared default per class, Lifting's page creates 125 models instead of
242, and its build in Pyodide (the app page's Python, under Node 20, best of three, its
build's messages converted for the page) takes 39 ms instead of 74, the batch of
:mod:`ruleslab_widgets.app_page` included (README, "Fewer models, one message per build":
five embeds on a page are built one after another by one interpreter).

While a view is built (:func:`shared_defaults`), a widget made without a layout (or style)
gets the view's one shared default of that class instead of a new one. The shared ones
are frozen: setting one of their traits raises ``AttributeError``, pointing to
:func:`own_layout` and :func:`own_style`, which give a widget a layout (style) of its own
first (a field's width, a region hidden). Nothing else changes: ipywidgets' own views
draw one layout model for many widgets, as a notebook does for a ``Layout`` passed to
several widgets; outside the block every widget gets its own, as ever (a notebook's own
widgets, or a widget made later on a click).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.trait_types import InstanceDict
from ipywidgets.widgets.widget_style import Style

__all__ = ["SharedDefault", "own_layout", "own_style", "set_shown", "shared_defaults"]

_pool: dict[type, Any] | None = None
"""The shared defaults of the view being built, by class (``None``: no view is)."""

_frozen_classes: dict[type, type] = {}


class SharedDefault:
    """Mixed into a layout or style class for the view's shared, frozen default of it."""

    _rl_base: type = object
    _rl_frozen = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._rl_frozen and not name.startswith("_") and name in getattr(self, "keys", ()):
            what = "layout" if isinstance(self, w.Layout) else "style"
            raise AttributeError(
                f"this {what} ({self._rl_base.__name__}) is shared by the widgets of a "
                f"calculator view; give the widget its own first: "
                f"ruleslab_widgets.shared_styles.own_{what}(widget).{name} = …"
            )
        super().__setattr__(name, value)


def _frozen_class(klass: type) -> type:
    found = _frozen_classes.get(klass)
    if found is None:
        found = type(klass)(
            f"Shared{klass.__name__}",
            (SharedDefault, klass),
            {"__module__": __name__, "_rl_base": klass},
        )
        _frozen_classes[klass] = found
    return found


_plain_default = InstanceDict.make_dynamic_default


def _default(self: InstanceDict) -> Any:
    """``InstanceDict``'s default: inside :func:`shared_defaults`, a layout or style made
    with no arguments is the view's shared one of its class."""
    pool = _pool
    klass = self.klass
    if (
        pool is None
        or not isinstance(klass, type)
        or not issubclass(klass, w.Layout | Style)
        or self.default_args
        or self.default_kwargs
    ):
        return _plain_default(self)
    shared = pool.get(klass)
    if shared is None:
        shared = _frozen_class(klass)()
        shared._rl_frozen = True
        pool[klass] = shared
    return shared


InstanceDict.make_dynamic_default = _default


@contextmanager
def shared_defaults() -> Iterator[None]:
    """Widgets made inside the block share their default layout and styles (one of each
    class); a nested block shares its enclosing block's."""
    global _pool
    before = _pool
    if before is None:
        _pool = {}
    try:
        yield
    finally:
        _pool = before


def own_layout(widget: w.DOMWidget) -> w.Layout:
    """``widget``'s layout, made its own first if it was the view's shared default."""
    if isinstance(widget.layout, SharedDefault):
        widget.layout = w.Layout()
    layout: w.Layout = widget.layout
    return layout


def set_shown(widget: w.DOMWidget, shown: bool) -> None:
    """Show or hide ``widget`` (``display: none``), sending nothing if it already is.

    Shown again as ``""`` (the page drops the style), not ``None``: the app page's
    bridge hands Python's None to the page as ``undefined``, which a layout ignores.
    """
    if (widget.layout.display == "none") == shown:
        own_layout(widget).display = "" if shown else "none"


def own_style(widget: w.DOMWidget) -> Any:
    """``widget``'s style, made its own first (of the same class) if it was shared."""
    style = widget.style
    if isinstance(style, SharedDefault):
        widget.style = style._rl_base()
    return widget.style
