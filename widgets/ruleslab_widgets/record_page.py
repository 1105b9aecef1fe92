"""One base for the pages that keep their data in the site's record store (the encounter
tracker, the character sheet): the page's messages dispatched, its reading's mode said.

Both pages are one widget whose page sends what the GM did (``{"type": …}``) and reads and
writes the record store (:mod:`ruleslab_widgets.records`) when Python asks: "loaded" (the
page's reading), "written" (a write answered) and "say" (the page's own message) are
answered here, alike for both; each page adds its own kinds (:meth:`RecordPage._handlers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ruleslab import InputError
from ruleslab_widgets.module_widget import ModuleWidget
from ruleslab_widgets.records import RecordSync

__all__ = ["RecordPage"]


class RecordPage(ModuleWidget):
    """A page kept in collection ``collection`` of the record store (its records written in
    layout ``record_format``: :data:`~ruleslab_widgets.records.RECORD_NEWEST` for the
    tracker's format-2 texts): :meth:`_handlers`
    gives its own messages' handlers, :meth:`loaded` takes its reading, :meth:`_draw`
    draws it again after each message handled."""

    EMBEDDED: ClassVar[str] = ""
    """Said when the page is shown inside another page (it reads and saves nothing)."""
    UNAVAILABLE: ClassVar[str] = "{why}"
    """Said when the browser's storage cannot be used (``{why}``: the browser's reason)."""

    def __init__(self, collection: str, *, record_format: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.storage = "loading"
        self._message = ("", "info")
        self._store = RecordSync(collection, self._post, record_format)
        self._stores = {collection: self._store}
        """The page's collections' halves: its own first, then any it adds (:meth:`_sync`)."""
        self.on_msg(self._receive)

    def _sync(self, collection: str) -> RecordSync:
        """The half of one more collection the page reads and writes (its page's script
        names it among ``recordPage``'s ``also``)."""
        sync = self._stores[collection] = RecordSync(collection, self._post)
        return sync

    # -- page → Python --------------------------------------------------------------
    def _handlers(self, c: dict[str, Any]) -> dict[str, Callable[[], None]]:
        """The page's own messages (``c``), by type: each handler's call."""
        raise NotImplementedError

    def _handler(self, kind: str, c: dict[str, Any]) -> Callable[[], None] | None:
        """The handler of message ``c`` of type ``kind`` (None: not one of the page's)."""
        common: dict[str, Callable[[], None]] = {
            "loaded": lambda: self.loaded(c),
            "written": lambda: self._stores.get(str(c.get("collection")), self._store).written(c),
            "say": lambda: self._say(str(c.get("text"))[:300], "warning"),
        }
        return common.get(kind) or self._handlers(c).get(kind)

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        handler = self._handler(str(content.get("type")), content)
        if handler is None:
            return
        try:
            handler()
        except InputError as exc:
            self._say(exc.message, "warning")
        self._draw()

    def _say(self, text: str, kind: str = "info") -> None:
        self._message = (text, kind)

    def _post(self, content: dict[str, Any]) -> None:
        """A message to the page (write, set aside, read again, saved)."""
        self.send(content)

    # -- storage ----------------------------------------------------------------------
    def loaded(self, content: dict[str, Any]) -> None:
        """The page's reading of the record store (``content``)."""
        raise NotImplementedError

    def _usable(self, content: dict[str, Any]) -> str | None:
        """The mode of the page's reading ``content`` (``"ready"``, or ``"readonly"``: read,
        not written), or None when the page can use no storage (shown in another page, or
        the browser refuses it): then the storage is unavailable, and said."""
        mode = content.get("mode")
        if mode == "embedded":
            self.storage = "unavailable"
            self._say(self.EMBEDDED)
            return None
        if mode not in ("ready", "readonly"):
            self.storage = "unavailable"
            why = str(content.get("error") or "no storage")[:160]
            self._say(self.UNAVAILABLE.format(why=why), "warning")
            return None
        return str(mode)

    # -- Python → page ----------------------------------------------------------------
    def _draw(self) -> None:
        raise NotImplementedError
