"""The app page's Python side: a calculator's widgets over a message channel, no kernel.

The app page (``app.html?calculator=<key>``) runs Pyodide in a Web Worker and
draws the widgets in the page itself with the Jupyter widget front end; there
is no Jupyter kernel, so the widgets' comms are carried by plain messages:

* Python to page: ``{"type": "comm_open" | "comm_msg" | "comm_close", "comm_id",
  "data", "metadata", "buffers", ...}`` exactly as a kernel would publish them,
  then ``{"type": "display", "model_id"}`` for the calculator's root widget;
* the page's query (a shared link's inputs) is handed to :func:`start`;
* page to Python: ``{"type": "comm_msg" | "comm_close", "comm_id", "data",
  "buffers", "msg_id"}``, handled by :func:`receive`, which the worker follows
  with an ``idle`` acknowledgement (the widget models hold later changes until
  each message they sent is acknowledged);
* page to Python: ``{"type": "apply", "model_id", "query", "msg_id"}``: what the
  reader typed into the pre-rendered calculator before Python took over
  (:mod:`ruleslab_widgets.prerender`), as a link's query, set on the calculator
  ``model_id`` through the form's own path (:meth:`CalculatorView.apply_query`).

The same :class:`~ruleslab_widgets.view.CalculatorView` runs here as in a
notebook; only the transport differs. Nothing here imports Pyodide, so the
bridge is tested on CPython with a list as the channel
(``tests/widgets/test_app_page.py``); :func:`pyodide_sender` adapts it to the
worker's ``postMessage``.

ipywidgets 8 echoes every change it receives back to the front end
(``echo_update``), for front ends shared by several clients. One page is the
only client here, so the echo is turned off: it would double the messages of
every keystroke.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import comm
from comm.base_comm import BaseComm, CommManager
from ipywidgets.widgets import widget as _widget

from ruleslab_widgets import calculator
from ruleslab_widgets.view import CalculatorView

__all__ = [
    "PageComm",
    "install",
    "pyodide_sender",
    "receive",
    "start",
    "with_nulls",
    "without_nulls",
]

Message = dict[str, Any]
Send = Callable[[Message], None]

_send: Send | None = None


class PageComm(BaseComm):
    """A comm whose messages go to the app page through the installed ``send``."""

    def publish_msg(
        self,
        msg_type: str,
        data: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        buffers: list[Any] | None = None,
        **keys: Any,
    ) -> None:
        """Send one comm message (``comm_open``, ``comm_msg`` or ``comm_close``)."""
        if _send is None:
            raise RuntimeError("ruleslab_widgets.app_page.install() was not called")
        message: Message = {
            "type": msg_type,
            "comm_id": self.comm_id,
            "data": data or {},
            "metadata": metadata or {},
            # copies: a memoryview over Python memory must not cross the channel
            "buffers": [bytes(b) for b in buffers or ()],
        }
        if msg_type == "comm_open":
            message["target_name"] = keys.get("target_name") or self.target_name
        _send(message)


def install(send: Send) -> None:
    """Route every comm created from now on to ``send`` (one dict per message)."""
    global _send
    _send = send
    comm.create_comm = PageComm
    _widget.JUPYTER_WIDGETS_ECHO = False


def start(key: str, query: str = "") -> CalculatorView:
    """Build calculator ``key`` (its widgets open their comms), set the fields the
    page's ``query`` names (a shared link: :meth:`CalculatorView.apply_query`,
    whose bad values get the fields' messages), and ask the page to show it."""
    if _send is None:
        raise RuntimeError("ruleslab_widgets.app_page.install() was not called")
    view = calculator(key)
    if query:
        view.apply_query(query)
    _send({"type": "display", "model_id": view.model_id})
    return view


def receive(message: Message) -> None:
    """Handle one message from the page: a widget's change, custom message or close, or
    the values typed into the pre-rendered calculator (``apply``).

    Under Pyodide the page's ``null`` arrives as ``pyodide.ffi.jsnull``, not ``None``
    (``toPy``): it is made ``None`` here, as a kernel's JSON would give it, so a widget
    reads a missing value the same in a notebook and on the app page."""
    message = without_nulls(message, _page_null())
    if message["type"] == "apply":
        _apply(str(message.get("model_id") or ""), str(message.get("query") or ""))
        return
    manager: CommManager = comm.get_comm_manager()
    content = {"comm_id": message["comm_id"], "data": message.get("data") or {}}
    msg = {
        "header": {"msg_id": message.get("msg_id", ""), "msg_type": message["type"]},
        "parent_header": {},
        "metadata": message.get("metadata") or {},
        "content": content,
        "buffers": [memoryview(bytes(b)) for b in message.get("buffers") or ()],
    }
    # comm types the kernel's stream and identity, which its handlers never read:
    # there are none here, hence the two ignores.
    if message["type"] == "comm_msg":
        manager.comm_msg(None, None, msg)  # type: ignore[arg-type]
    elif message["type"] == "comm_close":
        manager.comm_close(None, None, msg)  # type: ignore[arg-type]
    else:
        raise ValueError(f"unknown message type from the page: {message['type']!r}")


def _apply(model_id: str, query: str) -> None:
    """Set the fields ``query`` names on the calculator ``model_id`` (an "apply" message);
    a message for no calculator of this page is ignored."""
    view = _widget._instances.get(model_id)
    if isinstance(view, CalculatorView):
        view.apply_query(query)


def _page_null() -> Any:
    """What the page's ``null`` is in Python: ``pyodide.ffi.jsnull`` (or, on CPython,
    where the page's messages are plain dicts, ``None`` itself)."""
    try:
        from pyodide.ffi import jsnull
    except ImportError:
        return None
    return jsnull


def _swapped(value: Any, old: Any, new: Any) -> Any:
    """``value`` with every ``old`` (by identity) inside dicts, lists and tuples made ``new``."""
    if value is old:
        return new
    if isinstance(value, dict):
        return {k: _swapped(v, old, new) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_swapped(v, old, new) for v in value]
    return value


def without_nulls(value: Any, null: Any) -> Any:
    """``value`` with every ``null`` inside dicts and lists made ``None`` (the inverse of
    :func:`with_nulls`)."""
    return value if null is None else _swapped(value, null, None)


def with_nulls(value: Any, null: Any) -> Any:
    """``value`` with every ``None`` inside dicts, lists and tuples replaced by ``null``.

    Pyodide's ``to_js`` turns ``None`` into ``undefined``, which a widget model
    on the page takes as "no change": a trait set back to ``None`` (a layout's
    ``display``, an optional value) would never reach it. A kernel sends such a
    value as JSON ``null``; so does this, through ``pyodide.ffi.jsnull``.
    """
    return _swapped(value, None, null)


def pyodide_sender(post: Callable[[Any], None]) -> Send:
    """Under Pyodide: a ``send`` that converts each message to a plain JS object for ``post``.

    The structured clone of ``postMessage`` (unlike JSON) keeps NaN and
    infinities, and buffers arrive as ``Uint8Array`` copies; ``None`` is sent
    as ``null``, as a kernel's JSON would (:func:`with_nulls`).
    """
    from js import Object
    from pyodide.ffi import jsnull, to_js

    def send(message: Message) -> None:
        post(
            to_js(
                with_nulls(message, jsnull),
                dict_converter=Object.fromEntries,
                create_pyproxies=False,
            )
        )

    return send
