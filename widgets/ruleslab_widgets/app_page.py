"""The app page's Python side: a calculator's widgets over a message channel, no kernel.

The app page (``app.html?calculator=<key>``) runs Pyodide in a Web Worker and
draws the widgets in the page itself with the Jupyter widget front end; there
is no Jupyter kernel, so the widgets' comms are carried by plain messages:

* Python to page: ``{"type": "comm_open" | "comm_msg" | "comm_close", "comm_id",
  "data", "metadata", "buffers", ...}`` exactly as a kernel would publish them,
  then ``{"type": "display", "model_id"}`` for the calculator's root widget; the
  calculator's build is sent at once, as ``{"type": "batch", "messages": [...]}``
  (:meth:`Session._holding`: one message to convert and post instead of hundreds,
  each widget's changes made while it was built merged into its opening);
* a widget is sent once the page needs it (:meth:`Session._post`): when the display,
  or a message sent, names it (``IPY_MODEL_``), it is opened first, with what was
  said to it since; a widget nothing shown names (the rows of a closed fold:
  :class:`~ruleslab_widgets.fold.FoldRegion`) stays in Python until then;
* the page's query (a shared link's inputs) is handed to :func:`start`;
* page to Python: ``{"type": "comm_msg" | "comm_close", "comm_id", "data",
  "buffers", "msg_id"}``, handled by :func:`receive`, which the worker follows
  with an ``idle`` acknowledgement (the widget models hold later changes until
  each message they sent is acknowledged);
* page to Python: ``{"type": "apply", "model_id", "query", "msg_id"}``: what the
  reader typed into the pre-rendered calculator before Python took over
  (:mod:`ruleslab_widgets.prerender`), as a link's query, set on the calculator
  ``model_id`` through the form's own path (:meth:`CalculatorView.apply_query`);
* page to Python: ``{"type": "fill", "model_id", "msg_id"}``: the page has drawn the
  calculator ``model_id`` and is idle; the rows of its closed folds are sent, hidden
  (:func:`~ruleslab_widgets.fold.fill_regions`), to be there to print or open.

The same :class:`~ruleslab_widgets.view.CalculatorView` runs here as in a
notebook; only the transport differs. Nothing here imports Pyodide, so the
bridge is tested on CPython with a list as the channel
(``tests/widgets/test_app_page.py``); :func:`pyodide_sender` adapts it to the
worker's ``postMessage``.

ipywidgets 8 echoes every change it receives back to the front end
(``echo_update``), for front ends shared by several clients. One page is the
only client here, so the echo is turned off: it would double the messages of
every keystroke.

**Sessions.** One interpreter may serve several pages at once (the app page's
shared runtime: ``worker.mjs`` as a SharedWorker, ``docs/app-page.md``, "One
Python for the whole site"). Each page is a :class:`Session`, made by
:func:`open_session` with its own ``send``: every comm opened while the
session builds its calculator or handles one of its page's messages (a child
widget made by a click too) belongs to it and speaks to its page only; its
page's messages reach its own widgets only (:meth:`Session.receive`), and an
error in one is raised to the caller for that page alone. :meth:`Session.close`
(the page closed or vanished) closes and drops its widgets. :func:`install` and
:func:`start` are the one-page form: a session on the installed ``send``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import comm
from comm.base_comm import BaseComm, CommManager
from ipywidgets.widgets import widget as _widget

from ruleslab_widgets import calculator, sheet_page, tracker_page
from ruleslab_widgets.fold import fill_regions
from ruleslab_widgets.view import CalculatorView

__all__ = [
    "PAGES",
    "PageComm",
    "Session",
    "install",
    "open_session",
    "pyodide_sender",
    "receive",
    "start",
    "with_nulls",
    "without_nulls",
]

Message = dict[str, Any]
#: The app page's pages that are not calculators, by key: each made from the page's query.
PAGES: dict[str, Callable[[str], Any]] = {
    tracker_page.KEY: lambda _query: tracker_page.tracker_page(),
    sheet_page.KEY: sheet_page.sheet_page,
}
#: The page's messages that name its calculator (``model_id``), not a comm.
PAGE_CALLS = ("apply", "fill")
Send = Callable[[Message], None]


class Session:
    """One page's calculator in a shared interpreter: its widgets and its channel.

    Made by :func:`open_session`. Its comms are those opened while it was the
    current session (building its calculator, handling its page's messages);
    each sends through :attr:`send`. After :meth:`close` nothing more is sent.
    """

    def __init__(self, send: Send) -> None:
        self.send: Send = send
        self.comms: dict[str, PageComm] = {}
        self.view: CalculatorView | None = None
        self.closed = False
        self._held: list[Message] | None = None
        # widgets the page has not been sent: each one's opening and what was said to it
        # since, in order, until something sent names it
        self._unsent: dict[str, list[Message]] = {}

    def _post(self, message: Message) -> None:
        """Send ``message``, or keep it while its widget is unsent: a widget is opened on
        the page (with what was said to it since) only when a message sent names it, so
        every widget the page draws is there and none it never shows is. Every
        reference (``IPY_MODEL_``) in what is sent names a widget opened before it;
        what one message sends is sent at once (a ``batch`` of more than one). (So a
        widget that works in the page without being shown or named, such as the
        ``Link`` of ``ipywidgets.jslink``, never reaches it: none is used here; one
        would have to be named by a shown widget.)"""
        if self.closed:
            return
        kind, comm_id = message["type"], message.get("comm_id")
        if kind == "comm_open" and isinstance(comm_id, str):
            self._unsent[comm_id] = [message]
            return
        if isinstance(comm_id, str) and comm_id in self._unsent:
            if kind == "comm_close":  # (never seen by the page: nothing to tell it)
                del self._unsent[comm_id]
            elif not _merged(self._unsent[comm_id], message):
                self._unsent[comm_id].append(message)
            return
        if self._held is None:
            with self._holding():  # (it and the widgets it brings: one message)
                self._post(message)
            return
        self._emit(message, self._held)

    def _emit(self, message: Message, out: list[Message]) -> None:
        """Append ``message`` to ``out``, after every unsent widget it names (each after
        the widgets its own messages name)."""
        for comm_id in _named(message):
            queued = self._unsent.pop(comm_id, None)
            for earlier in queued or ():
                self._emit(earlier, out)
        out.append(message)

    @contextmanager
    def _holding(self, *, sent_if_failed: bool = False) -> Iterator[None]:
        """Hold what is sent inside the block, and send it at the end as one ``batch``
        message (:func:`open_session`: a calculator's build is some 100 to 1,200
        messages; :meth:`receive`: what one message from the page changes). If the block
        fails, what it held is sent only with ``sent_if_failed`` (the page's widgets
        then show every change made), and nothing is sent while already holding."""
        if self._held is not None:  # (inside an outer hold: it sends)
            yield
            return
        self._held = []
        held: list[Message] = []
        try:
            yield
            held = self._held
        except BaseException:
            if sent_if_failed:
                held = self._held
            raise
        finally:
            self._held = None
            if held and not self.closed:
                self.send({"type": "batch", "messages": held} if len(held) > 1 else held[0])

    def receive(self, message: Message) -> None:
        """Handle one message from this session's page (see :func:`receive`).

        A message naming a comm of another page, or none, is refused (``ValueError``)."""
        if self.closed:
            raise RuntimeError("this page's calculator was closed")
        message = without_nulls(message, _page_null())
        comm_id = _widget_named(message) if isinstance(message, dict) else None
        if not isinstance(comm_id, str) or comm_id not in self.comms:
            raise ValueError(f"no widget {comm_id!r} on this page")
        # (what the message changes goes to the page at once: one batch)
        with self._holding(sent_if_failed=True), _serving(self):
            _dispatch(message)

    def close(self) -> None:
        """The page is gone: close every widget of this session and forget them.

        The page is not told (it is gone); other sessions are untouched."""
        if self.closed:
            return
        self.closed = True
        for comm_id, page_comm in list(self.comms.items()):
            widget = _widget._instances.get(comm_id)
            if widget is not None:
                widget.close()
            else:
                page_comm.close()
        self.comms.clear()
        self.view = None


_current: Session | None = None
"""The session whose calculator is being built or whose page's message is handled."""
_default: Session | None = None
"""The session of :func:`install`'s ``send`` (the one-page form)."""


@contextmanager
def _serving(session: Session) -> Iterator[None]:
    """Make ``session`` the owner of every comm opened inside the block."""
    global _current
    before = _current
    _current = session
    try:
        yield
    finally:
        _current = before


class PageComm(BaseComm):
    """A comm whose messages go to its session's page (see :class:`Session`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        session = _current or _default
        if session is None:
            raise RuntimeError(
                "a widget made outside any page's session: ruleslab_widgets.app_page.install() "
                "was not called, or open_session() was not"
            )
        self.session = session
        super().__init__(*args, **kwargs)
        session.comms[self.comm_id] = self

    def publish_msg(
        self,
        msg_type: str,
        data: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        buffers: list[Any] | None = None,
        **keys: Any,
    ) -> None:
        """Send one comm message (``comm_open``, ``comm_msg`` or ``comm_close``)."""
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
        elif msg_type == "comm_close":
            self.session.comms.pop(self.comm_id, None)
        self.session._post(message)

    def handle_close(self, msg: Any) -> None:
        """The page closed this comm: it is no longer one of the session's."""
        self.session.comms.pop(self.comm_id, None)
        super().handle_close(msg)


def install(send: Send | None = None) -> None:
    """Make every comm created from now on a :class:`PageComm`; with ``send``, the
    one-page form: comms made outside any session go to ``send`` (one dict per message)."""
    global _default
    _default = Session(send) if send is not None else None
    comm.create_comm = PageComm
    _widget.JUPYTER_WIDGETS_ECHO = False


def open_session(key: str, query: str, send: Send) -> Session:
    """A new page's session: build calculator ``key`` with its comms on ``send``, set
    the fields the page's ``query`` names (a shared link:
    :meth:`CalculatorView.apply_query`, whose bad values get the fields' messages), and
    ask the page to show it (``{"type": "display", "model_id"}``)."""
    if comm.create_comm is not PageComm:
        raise RuntimeError("ruleslab_widgets.app_page.install() was not called")
    session = Session(send)
    try:
        with session._holding(), _serving(session):
            if key in PAGES:  # (the encounter tracker, the sheet: not calculators)
                page = PAGES[key](query)
                session._post({"type": "display", "model_id": page.model_id})
                return session
            view = calculator(key)
            if query:
                view.apply_query(query)
            session._post({"type": "display", "model_id": view.model_id})
    except BaseException:
        session.close()
        raise
    session.view = view
    return session


def _refs(value: Any) -> Iterator[str]:
    """The widgets (comm ids) ``value`` (a widget state, JSON-like) refers to
    (``IPY_MODEL_``), in order."""
    if isinstance(value, str):
        if value.startswith("IPY_MODEL_"):
            yield value[len("IPY_MODEL_") :]
    elif isinstance(value, dict):
        for item in value.values():
            yield from _refs(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _refs(item)


def _names_a_widget(value: Any) -> bool:
    """Whether ``value`` (a widget state, JSON-like) refers to a widget (``IPY_MODEL_``)."""
    return next(_refs(value), None) is not None


def _named(message: Message) -> list[str]:
    """The widgets (comm ids) ``message`` names: the display's, or the ``IPY_MODEL_``
    references in its data, in order."""
    if message["type"] == "display":
        return [message["model_id"]]
    return list(_refs(message.get("data")))


def _merged(queued: list[Message], message: Message) -> bool:
    """Merge ``message``, a change to an unsent widget, into its opening (``queued``:
    the opening and what followed it), if that changes nothing the page sees
    (``True``: merged). The page opens the widget with its final state, as if opened
    and then updated; but an update naming other widgets (they may be opened after
    this one) or carrying buffers is kept in its place, and so is everything after it
    for that widget (its changes stay in order)."""
    opening = queued[0]
    data = message.get("data") or {}
    state = data.get("state")
    if (
        len(queued) == 1
        and message["type"] == "comm_msg"
        and data.get("method") == "update"
        and isinstance(state, dict)
        and not message.get("buffers")
        and not data.get("buffer_paths")
        and not opening.get("buffers")
        and not opening["data"].get("buffer_paths")
        and not _names_a_widget(state)
    ):
        opening["data"]["state"].update(state)
        return True
    return False


def start(key: str, query: str = "") -> CalculatorView:
    """The one-page form of :func:`open_session`: calculator ``key`` on the installed
    ``send``; its view."""
    if _default is None:
        raise RuntimeError("ruleslab_widgets.app_page.install() was not called")
    session = open_session(key, query, _default.send)
    assert session.view is not None
    return session.view


def receive(message: Message) -> None:
    """Handle one message from the page: a widget's change, custom message or close, or
    the values typed into the pre-rendered calculator (``apply``).

    Routed to the session that owns the widget it names (:meth:`Session.receive`).
    Under Pyodide the page's ``null`` arrives as ``pyodide.ffi.jsnull``, not ``None``
    (``toPy``): it is made ``None`` here, as a kernel's JSON would give it, so a widget
    reads a missing value the same in a notebook and on the app page."""
    comm_id = _widget_named(message)
    owner = _owner_of(comm_id) if isinstance(comm_id, str) else None
    if owner is None:
        # (a message for no open widget: checked, refused or ignored as a kernel would)
        _dispatch(without_nulls(message, _page_null()))
    else:
        owner.receive(message)


def _widget_named(message: Message) -> Any:
    """The widget a page message is for: its comm, or (``apply``, ``fill``) the
    calculator's own widget, ``model_id``."""
    return message.get("model_id" if message.get("type") in PAGE_CALLS else "comm_id")


def _owner_of(comm_id: str) -> Session | None:
    manager: CommManager = comm.get_comm_manager()
    found = manager.comms.get(comm_id)
    return found.session if isinstance(found, PageComm) else None


def _dispatch(message: Message) -> None:
    """Hand one page message (nulls already made ``None``) to the comm manager, or an
    ``apply`` or ``fill`` message to the calculator it names (its
    :meth:`~CalculatorView.apply_query`, :func:`~ruleslab_widgets.fold.fill_regions`)."""
    if message["type"] in PAGE_CALLS:
        view = _widget._instances.get(str(message.get("model_id") or ""))
        if not isinstance(view, CalculatorView):
            return  # (a message for no calculator of this page: ignored)
        if message["type"] == "apply":
            view.apply_query(str(message.get("query") or ""))
        else:
            fill_regions(view)
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
