"""The character sheet: a whole saved character or fighter, seen and edited.

``app.html?calculator=sheet&id=<id>`` opens the sheet of the party's character ``id``
(:func:`sheet_page`, through the app page's shared Python like the tracker); without an
id, or with one no longer in the party, the page lists the party's characters, each a
link to his sheet. The party bar links each saved character to his sheet, and the
tracker each combatant added from the party.

Every field of the character's record (:class:`~ruleslab.character.Character` or
:class:`~ruleslab.chimera.fighter.Fighter`) is shown, in the groups of :data:`GROUPS`,
with its label, range and help from the record's declaration, and said *entered* or
*default* (:attr:`ruleslab.party.Entry.entered`, in words, not only by colour). A field
edited is checked as it is left (the field's own message); "Save" checks every edited
field again, writes the character to the party's record store (collection ``party``,
:mod:`ruleslab_widgets.records`, as the party bar does: a write made from an older
revision is refused and said) and makes the fields saved *entered*. "Use the default"
makes an entered field a default again. Each save, rename or default can be undone
(the character as he was, written back), the last :data:`UNDO_KEPT` of them also after a
reload: each character's changes are kept in the record store too (collection
:data:`UNDO_COLLECTION`, one record per character, his id: :func:`steps_text`), written once
the change is saved; one that cannot be read is set aside with a message, never deleted.
What was typed and not saved is kept across another tab's change and a refused write.

Python checks everything; the page draws :attr:`SheetPage.sheet` and sends what the GM
did. Every text is shown with ``textContent`` or an input's ``value``, never as HTML.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as w
import traitlets

from ruleslab import InputError, Party
from ruleslab.params import BoolParam, ChoiceParam, IntParam, NumberParam, Param
from ruleslab.party import Entry, entry_json
from ruleslab_widgets.party import COLLECTION, form_text, stored_party
from ruleslab_widgets.record_page import RecordPage
from ruleslab_widgets.records import Unreadable, Written
from ruleslab_widgets.sheet_record import UNDO_COLLECTION, UNDO_KEPT, Step, parse_steps, steps_text
from ruleslab_widgets.sheet_view import CSS, ESM
from ruleslab_widgets.style import STYLE

__all__ = [
    "GROUPS",
    "KEY",
    "TITLE",
    "SheetPage",
    "sheet_ids",
    "sheet_page",
]

KEY = "sheet"
"""The app page's key for the sheet (``app.html?calculator=sheet&id=…``)."""
TITLE = "Character sheet"
GROUPS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "character": (
        (
            "Attributes",
            ("strength", "dexterity", "stamina", "charisma", "intelligence", "wits"),
        ),
        (
            "Mega-Attributes and Might",
            (
                "might",
                "mega_strength",
                "mega_dexterity",
                "mega_stamina",
                "mega_charisma",
                "mega_intelligence",
                "mega_wits",
            ),
        ),
        (
            "Abilities",
            ("athletics", "melee_brawl", "firearms", "command", "tactics", "medicine"),
        ),
        ("Resistance, Quantum and Willpower", ("resistance", "quantum", "willpower")),
    ),
    "fighter": (
        (
            "Combat",
            (
                "attack",
                "kind",
                "damage",
                "defence",
                "parry",
                "parry_from",
                "blast_tn",
                "initiative",
                "plan",
                "fate",
            ),
        ),
        ("Health", ("wound_limit", "wounds", "bound")),
        ("Movement", ("mr", "movement_die", "encumbrance", "mr_modifier")),
        ("Position and cover", ("position", "cover", "barrier")),
        (
            "Morale and after the fight",
            (
                "character",
                "level",
                "resist",
                "morale_tn",
                "leader",
                "allies",
                "allies_down",
                "cool_down",
                "fatigue_tn",
            ),
        ),
    ),
}
"""The sheet's groups of each kind's fields (``ruleslab.party.KINDS``' keys), in order:
every declared field in exactly one (``tests/widgets/test_sheet_page.py``)."""


def _kind_of_param(p: Param) -> str:
    if isinstance(p, BoolParam):
        return "bool"
    if isinstance(p, ChoiceParam):
        return "choice"
    if isinstance(p, IntParam | NumberParam):
        return "number"
    return "text"


def _shown(p: Param, value: Any) -> str:
    """``value`` of field ``p`` in words: a choice's label, yes/no, the text typed."""
    if isinstance(p, ChoiceParam):
        return dict(p.choices).get(str(value), str(value))
    return form_text(value)


def _field(p: Param, value: Any, default: Any, entered: bool) -> dict[str, Any]:
    return {
        "name": p.name,
        "label": p.label,
        "unit": p.unit,
        "help": p.help,
        "range": p.describe_range(),
        "type": _kind_of_param(p),
        "choices": [list(c) for c in getattr(p, "choices", ())],
        "value": value if isinstance(p, BoolParam) else form_text(value),
        "shown": _shown(p, value),
        "default": _shown(p, default),
        "entered": entered,
    }


class SheetPage(RecordPage):
    """The sheet of character ``ident`` (see the module's docstring): :attr:`sheet` is
    what the page draws; the page's messages are the GM's edits (:meth:`_receive`)."""

    _esm = ESM
    _css = CSS
    sheet = traitlets.Dict().tag(sync=True)

    EMBEDDED = (
        "This sheet is shown inside another page: it neither reads nor saves your "
        "party (the site's own pages do)."
    )
    UNAVAILABLE = "This browser does not let the page read the party ({why})."

    def __init__(self, ident: str = "", **kwargs: Any) -> None:
        super().__init__(COLLECTION, **kwargs)
        self.ident = ident
        self.party = Party()
        self.errors: dict[str, str] = {}
        """A message per field of what was typed and refused (the field's own)."""
        self._undo: list[Step] = []
        """The character's last changes saved (on this page, or stored: :meth:`loaded`)."""
        self._steps = self._sync(UNDO_COLLECTION)
        self._draw()

    # -- page → Python ------------------------------------------------------------
    def _handlers(self, c: dict[str, Any]) -> dict[str, Callable[[], None]]:
        return {
            "check": lambda: self.check(str(c.get("field")), c.get("text")),
            "save": lambda: self.save(c.get("values")),
            "default": lambda: self.use_default(str(c.get("field"))),
            "rename": lambda: self.rename(c.get("name")),
            "undo": self.undo,
        }

    # -- storage --------------------------------------------------------------------
    def loaded(self, content: dict[str, Any]) -> None:
        """The page's reading of the party's records: each checked; one that cannot be
        read set aside (kept, downloadable from the party bar) and said."""
        mode = self._usable(content)
        if mode is None:
            return
        if self._store.in_flight:
            return  # (read before this page's own write: the reading after it follows)
        self.storage = mode
        live, bad, _newer = self._store.loaded(content.get("records"))
        self.party = stored_party(live, bad)
        if bad:
            self._set_aside(bad)
        self._stored_steps(content.get("undo"))

    def _stored_steps(self, items: Any) -> None:
        """The character's last changes as stored (``items``: the page's reading of
        collection :data:`UNDO_COLLECTION`), unless this page's own are newer (a write of
        them in flight, or this reading begun before it); an unreadable record set aside
        and said."""
        if self._steps.in_flight or self._steps.older(items):
            return
        live, bad, _newer = self._steps.loaded(items)
        for stored in live:
            if stored.id == self.ident:
                try:
                    self._undo = parse_steps(stored.text, self.ident)
                except InputError as exc:
                    bad.append(Unreadable(stored.id, exc.message))
        if not bad:
            return
        ready = self.storage == "ready"
        if ready:
            ids = [u.id for u in bad if u.id is not None]
            self._post({"type": "set_aside", "collection": UNDO_COLLECTION, "ids": ids})
        found = "; ".join(u.found for u in bad[:3])[:300]
        where = "they were set aside, not deleted" if ready else "they were left as they are"
        self._say(
            f"{len(bad)} stored record(s) of the sheet's changes could not be read ({found}): "
            f"{where}; the character is as saved, and Undo starts from his next change.",
            "warning",
        )

    def _keep_steps(self, said: str) -> None:
        """The character's last changes written to the record store (Undo after a reload);
        ``said``: what the page says of the change, told too if they cannot be kept."""
        if self.storage != "ready":
            return

        def done(result: Written) -> None:
            if result.ok:
                return
            why = "another tab changed them" if result.conflicts else result.error
            self._say(
                f"{said} The sheet's changes could not be stored ({why}): Undo lasts only "
                "while this page is open.".strip(),
                "warning",
            )
            self._draw()

        self._steps.write({self.ident: steps_text(self._undo)}, done)

    def _set_aside(self, bad: list[Unreadable]) -> None:
        if self.storage == "ready":
            self._post({"type": "set_aside", "ids": [u.id for u in bad if u.id is not None]})
        names = "; ".join(f"“{(u.id or '?')[:40]}”: {u.found}" for u in bad[:3])
        where = (
            "They were set aside, not deleted (a calculator's party bar: “Download what was "
            "set aside”)."
            if self.storage == "ready"
            else "They were left as they are."
        )
        self._say(f"{len(bad)} stored character(s) could not be read ({names}). {where}", "warning")

    def _entry(self) -> Entry | None:
        try:
            return self.party.entry(id=self.ident)
        except KeyError:
            return None

    def _write(
        self, new: Entry, before: Entry, said: str, what: str, *, undone: Step | None = None
    ) -> None:
        """Write ``new`` (character ``before`` changed) to the record store; ``said`` once
        it is saved. ``undone``: the change this write undoes (kept to undo again if the
        write fails); else this change can be undone once saved."""
        if self.storage != "ready":
            if undone is not None:
                self._undo.append(undone)
            self._say(
                f"Not saved: {what} needs the browser's storage, which this page cannot write.",
                "warning",
            )
            return
        party = Party(tuple(new if e.id == new.id else e for e in self.party))
        self.party = party
        self._say("Saving…")

        def done(result: Written) -> None:
            if result.ok:
                if undone is None:
                    self._undo.append(Step(before, new, what))
                    del self._undo[:-UNDO_KEPT]
                self._say(said)
                self._keep_steps(said)
            else:
                if undone is not None:  # (the change is still there to undo)
                    self._undo.append(undone)
                self._say(
                    f"Not saved: {before.name} was changed or deleted in another tab meanwhile. "
                    "The sheet shows what is saved now; what you typed is kept: save again "
                    "if you still want it."
                    if result.conflicts
                    else f"Not saved: the browser refused the write ({result.error}).",
                    "warning",
                )
            if result.ok:
                self._post({"type": "saved", "id": new.id})
            self._post({"type": "load"})
            self._draw()

        self._store.write({new.id: entry_json(new)}, done, what=what)

    # -- the GM's edits --------------------------------------------------------------
    def _param(self, entry: Entry, name: str) -> Param | None:
        return next((p for p in entry.kind.params if p.name == name), None)

    def check(self, name: str, text: Any) -> None:
        """Field ``name`` left with ``text``: its message if the field refuses it."""
        entry = self._entry()
        p = self._param(entry, name) if entry is not None else None
        if p is None:
            return
        try:
            p.parse(text)
        except InputError as exc:
            self.errors[name] = exc.message
        else:
            self.errors.pop(name, None)

    def save(self, values: Any) -> None:
        """Save the fields the GM edited (``{field: text}``), each checked by its field;
        they count as entered from now on."""
        entry = self._entry()
        if entry is None or not isinstance(values, dict) or not values:
            self._say("Nothing to save: edit a field first.")
            return
        fields = {}
        for name, text in values.items():
            p = self._param(entry, str(name))
            if p is None:
                continue
            try:
                fields[p.name] = p.parse(text)
            except InputError as exc:
                self.errors[p.name] = exc.message
            else:
                self.errors.pop(p.name, None)
        bad = [n for n in values if n in self.errors]
        if bad:
            labels = ", ".join(p.label for p in entry.kind.params if p.name in bad)
            self._say(f"Not saved: fix {labels} (see the message under each).", "warning")
            return
        try:
            rec = entry.kind.make(entry.name, {**entry.fields, **fields})
            entry.kind.check_whole(rec)
        except InputError as exc:
            self.errors[exc.field] = exc.message
            self._say(f"Not saved: {exc.message}", "warning")
            return
        except ValueError as exc:  # (two fields of one record: said of both)
            self._say(f"Not saved: {exc}.", "warning")
            return
        changed = [
            p.label
            for p in entry.kind.params
            if p.name in fields and getattr(rec, p.name) != getattr(entry.record, p.name)
        ]
        new = Entry(entry.id, entry.name, rec, entry.entered | set(fields))
        if new == entry:
            self._say("Nothing changed: the sheet already holds these values.")
            self._post({"type": "saved", "id": entry.id})
            return
        what = f"{', '.join(changed) or 'the fields typed'} of {entry.name}"
        self._write(new, entry, f"Saved {what}.", f"change {what}")

    def use_default(self, name: str) -> None:
        """Field ``name`` back to the record's default, no longer entered."""
        entry = self._entry()
        p = self._param(entry, name) if entry is not None else None
        if entry is None or p is None:
            return
        default = getattr(entry.kind.make(entry.name, {}), p.name)
        rec = dataclasses.replace(entry.record, **{p.name: default})
        new = Entry(entry.id, entry.name, rec, entry.entered - {p.name})
        self.errors.pop(name, None)
        what = f"{p.label} of {entry.name} to the default ({_shown(p, default)})"
        self._write(new, entry, f"Set {what}.", f"set {what}")

    def rename(self, name: Any) -> None:
        entry = self._entry()
        if entry is None:
            return
        try:
            party = self.party.rename(entry.id, Party.check_name(name, "The character"))
        except InputError as exc:
            self._say(exc.message, "warning")
            return
        new = party.entry(id=entry.id)
        if new.name == entry.name:
            return
        what = f"{entry.name} to {new.name}"
        self._write(new, entry, f"Renamed {what}.", f"rename {what}")

    def undo(self) -> None:
        """The last change saved on this page undone: the character as he was, written."""
        if not self._undo:
            return
        step = self._undo.pop()
        now = self._entry()
        if now is None:
            self._undo.append(step)
            self._say(f"Cannot undo: {step.before.name} is no longer in the party.", "warning")
            return
        if now != step.after:  # (changed since, elsewhere: undoing would lose that change)
            self._undo.clear()
            self._keep_steps("")
            self._say(
                f"Cannot undo: {now.name} was changed elsewhere since (a party bar or another "
                "tab); the sheet shows him as saved now, and Undo starts from his next change.",
                "warning",
            )
            return
        what = step.what
        self._write(step.before, now, f"Undone: {what}.", f"undo: {what}", undone=step)

    # -- Python → page ----------------------------------------------------------------
    def _draw(self) -> None:
        entry = self._entry()
        character = None
        if entry is not None:
            defaults = entry.kind.make(entry.name, {})
            params = {p.name: p for p in entry.kind.params}
            character = {
                "id": entry.id,
                "name": entry.name,
                "kind_label": entry.kind.label,
                "entered": len(entry.entered),
                "fields": len(params),
                "groups": [
                    {
                        "title": title,
                        "fields": [
                            _field(
                                params[f],
                                getattr(entry.record, f),
                                getattr(defaults, f),
                                f in entry.entered,
                            )
                            for f in names
                        ],
                    }
                    for title, names in GROUPS[entry.kind.key]
                ],
            }
        self.sheet = {
            "storage": self.storage,
            "ident": self.ident,
            "message": self._message[0],
            "message_kind": self._message[1],
            "characters": [
                {"id": e.id, "name": e.name, "kind_label": e.kind.label} for e in self.party
            ],
            "character": character,
            "errors": dict(self.errors),
            "undo": self._undo[-1].what if self._undo else "",
        }


def sheet_ids(*parties: Iterable[Entry]) -> list[str]:
    """The ids of the party's characters among ``parties``: a combatant keyed by one has a
    sheet (the tracker links his row to it: a party character's key is his id)."""
    return [e.id for party in parties for e in party]


def _ident(query: str) -> str:
    values = parse_qs(query.removeprefix("?")).get("id") or [""]
    return values[0][:80]


def sheet_page(query: str = "") -> w.VBox:
    """The sheet as the app page shows it: the site's styles, a title, the sheet of the
    character the ``query`` names (``id=…``)."""
    head = w.HTML(f'{STYLE}<h2 class="rl-title">{TITLE}</h2>')
    page = w.VBox([head, SheetPage(_ident(query))])
    page.add_class("rl-calc")
    return page
