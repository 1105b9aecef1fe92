"""One base for our anywidgets: anywidget's per-instance traits, made once per class.

anywidget's ``AnyWidget.__init__`` gives every instance the traits ``_esm``, ``_css`` and
``_anywidget_id`` through traitlets' ``add_traits``, which makes a new class for the
instance and sets it up (its traits, observers and anywidget's commands collected again):
a fifth of a calculator's build went to that. Those traits are the same for every instance
of a class, so :class:`ModuleWidget` makes the class once, for the first instance, and
gives it to every later one.
"""

from __future__ import annotations

from typing import Any, ClassVar

import anywidget
import traitlets


def _signature(traits: dict[str, traitlets.TraitType[Any, Any]]) -> tuple[Any, ...]:
    """What makes two ``add_traits`` calls the same: each trait's name, type, default and
    metadata."""
    return tuple(
        (name, type(trait), trait.default_value, tuple(sorted(trait.metadata.items())))
        for name, trait in sorted(traits.items())
    )


class _OneClassPerClass(traitlets.HasTraits):
    """traitlets' ``add_traits``, with the class it makes kept for the next instance of the
    same class that adds the same traits.

    It sits after ipywidgets' ``Widget`` in :class:`ModuleWidget`'s method order (between
    ``Widget`` and ``HasTraits``), so ``Widget.add_traits`` (the new traits' keys and
    state) runs as it is and only the making of the class is shared."""

    _made: ClassVar[dict[tuple[type, tuple[Any, ...]], type[_OneClassPerClass]]] = {}

    def add_traits(self, **traits: Any) -> None:
        key = (type(self), _signature(traits))
        made = self._made.get(key)
        if made is None:
            super().add_traits(**traits)
            self._made[key] = type(self)
            return
        self.__class__ = made
        own = made.class_traits()
        for name in traits:
            own[name].instance_init(self)


class ModuleWidget(anywidget.AnyWidget, _OneClassPerClass):
    """An anywidget (our widgets' base) whose instances of one class share one class."""


NODE_JS = r"""
/* An element: `props` set as text (`text`, never HTML), class, listeners (`on…`),
 * properties or attributes; `children` appended (a null skipped). */
function node(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v);
  }
  el.append(...children.filter((c) => c !== null));
  return el;
}
/* A page's button maker: `btn(text, onclick, extra)`, a button of class `cls` (`extra`:
 * more props, its own class among them). */
function buttonOf(cls) {
  return (text, onclick, extra = {}) =>
    node("button", { type: "button", class: cls, text, onclick, ...extra });
}
/* `text` offered as the file `filename` (JSON), through a link of class `cls`. */
function download(text, filename, cls) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = node("a", { href: url, download: filename, class: cls });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
/* A handler of the messages a page's Python sends: `handlers[msg.type](msg)`; a message of
 * another type, or not an object, is ignored. */
function onMessages(handlers) {
  return (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (Object.prototype.hasOwnProperty.call(handlers, msg.type)) handlers[msg.type](msg);
  };
}
"""
"""The page's helpers (a module's script includes them): ``node`` makes an element,
``buttonOf`` a page's button maker, ``download`` offers a file, ``onMessages`` dispatches
the messages Python sends."""
