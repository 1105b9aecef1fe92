"""The encounter tracker page: an Aberrant fight run from a phone, kept in the browser.

``app.html?calculator=tracker`` opens it (:func:`tracker_page`, through the app page's
shared Python like any calculator). One widget, :class:`TrackerPage`: Python holds the
fights (each a :class:`~ruleslab.encounter.history.History`, undo and redo) and every
rule (:mod:`ruleslab.encounter.aberrant`); the page draws :attr:`TrackerPage.board`
(the order, whose turn, each combatant's health and his conditions as chips saying
when they end: :func:`ruleslab.encounter.board.board`) and sends what the GM tapped.

Storage: the site's record store (:mod:`ruleslab_widgets.records`), collection
``encounters``, one record per encounter (``{"format": 1, "name", "ruleset",
"encounter": serial.to_dict or null, "steps": {"past", "future"}}``: the present
encounter and the last 50 steps of undo and of redo, each as its difference from its
neighbour, so that undo survives a reload; two tabs' steps merged:
:mod:`ruleslab_widgets.tracker_record`), written after every step; a
record that cannot be read is set aside with a message, never deleted. Renaming and
deleting an encounter are steps too; a deleted one can be restored until the page closes.
The party's records (collection ``party``) are read to add its characters. Export and
import as a file (:mod:`ruleslab.encounter.serial`, checked), a link
(:mod:`ruleslab.encounter.share`, ``#encounter=…``). Every text is shown with
``textContent``, never as HTML.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w
import traitlets

from ruleslab import Character, InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.ammunition import BURSTS
from ruleslab.encounter.board import HIDDEN_NAME, board
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.chimera_table import Fighter
from ruleslab.encounter.combatant import TRAININGS
from ruleslab.encounter.history import History, redo, start, undo
from ruleslab.encounter.log import Change
from ruleslab.encounter.readings import (
    ABERRANT_READINGS,
    Reading,
    chimera_readings,
    readings_of,
    set_reading,
)
from ruleslab.encounter.share import parse_shared_encounter, shared_encounter
from ruleslab.encounter.state import Encounter
from ruleslab.party import Entry, parse_entry
from ruleslab_widgets.record_page import RecordPage
from ruleslab_widgets.records import MAX_RECORD_TEXT, RECORD_NEWEST, Unreadable, Written
from ruleslab_widgets.sheet_page import sheet_ids
from ruleslab_widgets.style import STYLE
from ruleslab_widgets.tracker_board import (
    attack_query,
    attack_setups,
    initiative_fields,
    odds_links,
    shown_row,
    track_boxes,
)
from ruleslab_widgets.tracker_chimera import ChimeraDesk
from ruleslab_widgets.tracker_record import CHIMERA, RULESETS, Fight, merged_all, parse_fight
from ruleslab_widgets.tracker_rolls import FIRES, AberrantRolls, typed_number, typed_rounds
from ruleslab_widgets.tracker_view import CSS, ESM

__all__ = ["COLLECTION", "KEY", "TITLE", "TrackerPage", "attack_query", "tracker_page"]

KEY = "tracker"
"""The app page's key for the tracker (``app.html?calculator=tracker``)."""
TITLE = "Encounter tracker"
COLLECTION = "encounters"
"""The record store's collection of the saved encounters."""


class TrackerPage(RecordPage):
    """The tracker: :attr:`board` is what the page draws; the page's messages are the
    GM's taps (:meth:`_receive`)."""

    _esm = ESM
    _css = CSS
    board = traitlets.Dict().tag(sync=True)

    EMBEDDED = (
        "This tracker is shown inside another page: it neither reads nor saves your "
        "encounters and party (the site's own tracker page does). What you do here "
        "lasts until the page is closed."
    )
    UNAVAILABLE = (
        "This browser does not let the page save encounters ({why}): they last "
        "until the page is closed."
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(COLLECTION, record_format=RECORD_NEWEST, **kwargs)  # (format-2 texts)
        self.fights: dict[str, Fight] = {}
        self.current = ""
        self.party: list[Entry] = []
        self.deleted: Fight | None = None
        """The encounter deleted last, until it is restored or the page is closed."""
        self._reread = False
        """A reading came while a write was in flight: read again once it is answered."""
        self._count = 0
        self.chimera = ChimeraDesk(self)
        """The Chimera fights' steps (:mod:`ruleslab_widgets.tracker_chimera`)."""
        self.rolls = AberrantRolls(self)
        """The Aberrant attacks and healing (:mod:`ruleslab_widgets.tracker_rolls`)."""
        self._draw()

    # -- page → Python --------------------------------------------------------------
    def _handlers(self, c: dict[str, Any]) -> dict[str, Callable[[], None]]:
        return {
            "new": lambda: self.new(str(c.get("ruleset"))),
            "open": lambda: self.switch(str(c.get("id"))),
            "rename": lambda: self.rename(c.get("name")),
            "delete": self.delete,
            "restore": self.restore,
            "add_party": lambda: self.add_party(str(c.get("id"))),
            "add_foe": lambda: self.add_foe(c),
            "add_squad": lambda: self.add_squad(c),
            "initiative": lambda: self.step(ab.roll_initiative, self._faces()),
            "enter_initiative": lambda: self.enter_initiative(c.get("totals")),
            "next": lambda: self.step(ab.next_turn),
            "end_scene": lambda: self.step(ab.end_scene),
            "attack": lambda: self.rolls.attack(c),
            "declare": lambda: self.declare(c),
            "heal": lambda: self.rolls.heal(c),
            "load": lambda: self.rolls.load(c),
            "strafe": lambda: self.rolls.strafe(c),
            "roll_strafe": lambda: self.rolls.strafe(c, rolled=True),
            "reading": lambda: self.step(set_reading, str(c.get("name")), str(c.get("value"))),
            "roll_attack": lambda: self.rolls.attack(c, rolled=True),
            "roll_damage": lambda: self.rolls.roll_damage(c),
            "damage_form": lambda: self.rolls.keep_form(c),
            "hide": lambda: self.hide(str(c.get("key"))),
            "undo": lambda: self.move(undo),
            "redo": lambda: self.move(redo),
            "export": self.export,
            "import": lambda: self.import_text(c.get("text")),
            "share": self.share,
            "shared": lambda: self.shared(c.get("text")),
        }

    def _handler(self, kind: str, c: dict[str, Any]) -> Callable[[], None] | None:
        if self.chimera.owns(kind):
            return lambda: self.chimera.receive(c)
        return super()._handler(kind, c)

    # -- storage ---------------------------------------------------------------------
    def loaded(self, content: dict[str, Any]) -> None:
        """The page's reading of the record store: every encounter checked, the
        unreadable ones set aside with a message; the party's Aberrant characters."""
        mode = self._usable(content)
        if mode is None:
            return
        self.storage = mode
        self.party = []
        self.chimera.fighters = []
        for item in content.get("party") or ():
            try:
                entry = parse_entry(item.get("text") if isinstance(item, dict) else None)
            except InputError:
                continue  # (the party bar sets such a record aside and says so)
            if isinstance(entry.record, Character) and not (
                isinstance(item, dict) and item.get("deleted")
            ):
                self.party.append(entry)
            elif isinstance(entry.record, Fighter) and not (
                isinstance(item, dict) and item.get("deleted")
            ):
                self.chimera.fighters.append(entry)
        if self._store.in_flight or self._store.older(content.get("records")):
            self._reread = self._store.in_flight  # (read again once the write is answered)
            if not self._reread:
                self.send({"type": "load"})  # (a reading begun before this page's write)
            return
        live, bad, _newer = self._store.loaded(content.get("records"))
        stored: dict[str, Fight] = {}
        for item in live:
            try:
                stored[item.id] = parse_fight(item.text)
            except InputError as exc:
                bad.append(Unreadable(item.id, exc.message))
        new_id = lambda: f"e{random.getrandbits(48):012x}"  # noqa: E731
        self.fights, again, said = merged_all(self.fights, stored, new_id)
        for ident in again:
            self._save(ident)
        if said:
            self._say(said[:600], "warning")
        if bad:
            ids = [b.id for b in bad if b.id is not None]
            names = "; ".join(f"{b.id or '?'}: {b.found}" for b in bad)[:300]
            self.send({"type": "set_aside", "ids": ids})
            self._say(
                f"{len(bad)} saved encounter(s) could not be read and were set aside, not "
                f"deleted ({names}).",
                "warning",
            )
        last = content.get("current")  # (the one this browser had open last)
        if self.current not in self.fights and isinstance(last, str) and last in self.fights:
            self.current = last
        if self.current not in self.fights:
            self.current = next(iter(self.fights), "")
        if not self.fights:
            self.new("2.1", announce=False)

    def _save(self, ident: str) -> None:
        if self.storage not in ("ready",):
            return
        fight = self.fights[ident]

        sent = len(fight.unsaved)

        def done(result: Written) -> None:
            if result.ok:
                fight.saved(sent)
            elif result.conflicts:  # (read again: this tab's changes are applied anew)
                self._say(f"“{fight.name}”: another tab saved it meanwhile…", "warning")
            else:  # (kept here, unsaved: the next write holds it; no reading again, which
                # would apply it anew and write again, over and over while the error lasts)
                why = f"“{fight.name}” was not saved ({result.error}): it is kept in this page"
                self._say(f"{why}, and saved with your next step.", "warning")
            if result.conflicts or (self._reread and not self._store.in_flight):
                self._reread = False
                self.send({"type": "load"})
            self._draw()

        self._store.write({ident: fight.text(MAX_RECORD_TEXT)}, done)

    # -- the GM's steps --------------------------------------------------------------
    def _fight(self) -> Fight:
        if self.current not in self.fights:
            raise InputError("encounter", "Start a new encounter first.")
        return self.fights[self.current]

    def new(self, ruleset: str, *, announce: bool = True) -> None:
        if ruleset not in RULESETS:
            raise InputError("ruleset", f"The rules: one of {', '.join(RULESETS)}.")
        ident = f"e{random.getrandbits(48):012x}"
        n = len(self.fights) + 1
        self.fights[ident] = Fight(f"Encounter {n} ({RULESETS[ruleset]})", ruleset, None)
        self.current = ident
        self._save(ident)
        if announce:
            self._say(f"A new {RULESETS[ruleset]} encounter: add its combatants.")

    def switch(self, ident: str) -> None:
        if ident not in self.fights:
            raise InputError("encounter", "That encounter is no longer saved here.")
        self.current = ident

    def rename(self, name: Any) -> None:
        text = str(name or "").strip() if isinstance(name, str | None) else ""
        if not 0 < len(text) <= 80:
            raise InputError("Encounter's name", "Encounter's name: 1 to 80 characters.")
        fight = self._fight()
        old = fight.name
        fight.rename(text)
        self._save(self.current)
        self._say(f"“{old}” is now “{text}”.")

    def delete(self) -> None:
        """The open encounter deleted from this browser; kept here to be restored."""
        ident, fight = self.current, self._fight()
        del self.fights[ident]
        self.deleted = fight
        if self.storage == "ready":

            def done(result: Written) -> None:
                if not result.ok:
                    why = "another tab changed it" if result.conflicts else result.error
                    self._say(f"“{fight.name}” was not deleted ({why}): read again.", "warning")
                    self.send({"type": "load"})
                    self._draw()

            self._store.write({ident: None}, done)
        self.current = next(iter(self.fights), "")
        if not self.fights:
            self.new("2.1", announce=False)
        self._say(f"“{fight.name}” deleted: “Restore” brings it back.")

    def restore(self) -> None:
        fight = self.deleted
        if fight is None:
            raise InputError("restore", "No deleted encounter to restore.")
        ident = f"e{random.getrandbits(48):012x}"
        self.fights[ident] = fight
        self.current = ident
        self.deleted = None
        self._save(ident)
        self._say(f"“{fight.name}” restored.")

    def _join(self, newcomer: Any) -> None:
        fight = self._fight()
        if fight.history is None:
            fight.begin(ab.new_encounter(fight.ruleset, [newcomer]), ab.join)
        else:
            fight.apply(ab.join, newcomer)
        self._save(self.current)
        self._say(f"{newcomer.name} joins the fight.")

    def _key(self, base: str) -> str:
        fight = self._fight()
        used = {c.key for c in fight.history.present.combatants} if fight.history else set()
        n = 1
        while f"{base}{n}" in used:
            n += 1
        return f"{base}{n}"

    def add_party(self, ident: str) -> None:
        entry = next((e for e in self.party if e.id == ident), None)
        if entry is None:
            raise InputError("party", "That character is no longer in the party.")
        self._join(ab.from_entry(entry))

    def add_foe(self, c: dict[str, Any]) -> None:
        """A quick foe: his name, Dex, Wits, Sta, the rounds in his weapon (empty: not
        counted); identical foes given one ``group`` share one initiative roll."""
        text = str(c.get("name") or "").strip()
        if not 0 < len(text) <= 60:
            raise InputError("Foe's name", "Foe's name: 1 to 60 characters.")
        dex = typed_number(c.get("dexterity"), "Dex", 1, 10)
        wit = typed_number(c.get("wits"), "Wits", 1, 10)
        sta = typed_number(c.get("stamina"), "Sta", 1, 10)
        group = c.get("group")
        band = str(group or "").strip() if isinstance(group, str | None) else None
        if band is None or len(band) > 40:
            raise InputError("Group", "Group: empty (his own initiative) or up to 40 characters.")
        ammo = typed_rounds(c.get("rounds"), "Rounds")
        key = self._key("foe")
        foe = ab.quick_foe(key, text, dexterity=dex, wits=wit, stamina=sta, group=band, ammo=ammo)
        self._join(foe)

    def add_squad(self, c: dict[str, Any]) -> None:
        """A henchmen squad entered quickly: its name, the henchmen screening the leader,
        their training and pool, the leader's Dex, Wits and Sta (:func:`ab.squad`)."""
        text = str(c.get("name") or "").strip()
        if not 0 < len(text) <= 60:
            raise InputError("Squad's name", "Squad's name: 1 to 60 characters.")
        henchmen = typed_number(c.get("henchmen"), "Henchmen", 1, 1000)
        training = c.get("training")
        if training not in TRAININGS:
            raise InputError("Training", f"Training: one of {', '.join(TRAININGS)}.")
        pool = typed_number(c.get("pool"), "Henchman pool", 0, 40)
        leader = Character(
            dexterity=typed_number(c.get("dexterity"), "Leader's Dex", 1, 10),
            wits=typed_number(c.get("wits"), "Leader's Wits", 1, 10),
            stamina=typed_number(c.get("stamina"), "Leader's Sta", 1, 10),
        )
        ammo = typed_rounds(c.get("rounds"), "Squad's rounds")
        key = self._key("squad")
        self._join(
            ab.squad(key, text, leader, henchmen, str(training), henchman_pool=pool, ammo=ammo)
        )

    def enter_initiative(self, totals: Any) -> None:
        """Initiative typed from the table's own dice: one total per combatant, or per
        group of identical foes (:func:`initiative_fields`), each checked."""
        fight = self._fight()
        if fight.history is None:
            raise InputError("initiative", "Add the combatants first.")
        typed = totals if isinstance(totals, dict) else {}
        enc = fight.history.present
        each: dict[str, int] = {}
        for field in initiative_fields(enc):
            value = typed_number(typed.get(field["id"]), f"Initiative: {field['label']}", 0, 200)
            each.update({key: value for key in field["keys"]})
        self.step(ab.set_initiative, each)

    def _faces(self) -> dict[str, int]:
        fight = self._fight()
        if fight.history is None:
            raise InputError("initiative", "Add the combatants first.")
        return ab.seeded_faces(fight.history.present, random.getrandbits(32))

    def step(self, fn: Callable[..., Change[Any]], *args: Any, **kw: Any) -> None:
        fight = self._fight()
        change = fight.apply(fn, *args, **kw)
        self._save(self.current)
        said = " · ".join(s.text for s in change.lines)
        self._say(
            said
            if len(said) <= 400
            else said[:399].rsplit(" ", 1)[0] + " … (all of it: What happened)"
        )

    def declare(self, c: dict[str, Any]) -> None:
        """The acting combatant declares his actions this turn (an active defence among
        them, or a sprint): :func:`ruleslab.encounter.aberrant.declare` applies the
        multiple-action difficulty and Stunned's single action."""
        fight = self._fight()
        enc = fight.history.present if fight.history else None
        who = ab.current(enc) if enc is not None else None
        if enc is None or who is None:
            raise InputError("actions", "Roll initiative first.")
        actions = typed_number(c.get("actions"), "Actions", 1, 10)
        self.step(
            ab.declare,
            who.key,
            actions,
            active_defence=c.get("active_defence") is True,
            sprinting=c.get("sprinting") is True,
        )

    def hide(self, key: str) -> None:
        fight = self._fight()
        if fight.history is not None:
            c = ab.find(fight.history.present, key)
            self.step(ab.mark_hidden, key, not c.hidden)

    def move(self, how: Callable[[History[Encounter]], History[Encounter]]) -> None:
        self._fight().move(how)
        self._save(self.current)
        self._say("Undone." if how is undo else "Redone.")

    def export(self) -> None:
        fight = self._fight()
        name = re.sub(r"[^A-Za-z0-9]+", "-", fight.name).strip("-").lower() or "encounter"
        self.send({"type": "download", "text": fight.text(), "filename": f"{name}.json"})

    def import_text(self, text: Any) -> None:
        fight = parse_fight(text)
        ident = f"e{random.getrandbits(48):012x}"
        self.fights[ident] = fight
        self.current = ident
        self._save(ident)
        self._say(f"“{fight.name}” imported.")

    def share(self) -> None:
        fight = self._fight()
        if fight.history is None:
            raise InputError("encounter", "Add the combatants first.")
        self.send({"type": "link", "value": shared_encounter(fight.history.present)})

    def shared(self, text: Any) -> None:
        enc = parse_shared_encounter(text)
        ruleset = CHIMERA if isinstance(enc, ChimeraEncounter) else enc.ruleset
        ident = f"e{random.getrandbits(48):012x}"
        self.fights[ident] = Fight(f"Shared encounter ({RULESETS[ruleset]})", ruleset, start(enc))
        self.current = ident
        self._save(ident)
        self._say("The linked encounter is saved here as “Shared encounter”.")

    # -- Python → page ---------------------------------------------------------------
    def _common(self, fight: Fight | None) -> dict[str, Any]:
        """What the page draws of any fight: the encounters saved, undo and redo, the
        message, the storage."""
        history = fight.history if fight else None
        enc = history.present if history else None
        if enc is None or (enc.scene_over if isinstance(enc, Encounter) else enc.over):
            offered: tuple[Reading, ...] = ()  # (the fight over: nothing left to read)
        else:
            offered = ABERRANT_READINGS if isinstance(enc, Encounter) else chimera_readings()
        now = readings_of(enc) if enc is not None else {}
        return {
            "readings": [
                {
                    "name": r.name,
                    "label": r.label,
                    "note": r.note,
                    "value": now[r.name],
                    "choices": [list(c) for c in r.choices],
                }
                for r in offered
            ],
            "encounters": [{"id": k, "name": f.name} for k, f in self.fights.items()],
            "current": self.current,
            "name": fight.name if fight else "",
            "ruleset": fight.ruleset if fight else "",
            "deleted": self.deleted.name if self.deleted else "",
            "can_undo": bool(history and history.can_undo),
            "can_redo": bool(history and history.can_redo),
            "message": self._message[0],
            "message_kind": self._message[1],
            "storage": self.storage,
            "trainings": list(TRAININGS),
            "fires": list(FIRES.items()),
            "bursts": {b.key: b.damage for b in BURSTS.values()},
            "chimera": None,
            "sheets": sheet_ids(self.party, self.chimera.fighters),
        }

    def _draw(self) -> None:
        fight = self.fights.get(self.current)
        if fight is not None and fight.ruleset == CHIMERA:
            self.board = {**self._common(fight), **self.chimera.board(fight)}
            return
        enc = fight.history.present if fight and fight.history else None
        rows = board(enc) if enc is not None else ()
        hidden = {c.key for c in enc.combatants if c.hidden} if enc is not None else set()
        people = {c.key: c for c in enc.combatants} if enc is not None else {}
        who = ab.current(enc) if enc is not None else None
        if enc is None:
            when = "No one has joined yet"
        elif enc.scene_over:
            when = "The scene is over"
        elif who is None:
            when = "Before initiative"
        else:
            when = f"Turn {enc.turn}: {who.name}'s action"
        self.board = {
            **self._common(fight),
            "when": when,
            "started": bool(enc is not None and enc.order and not enc.scene_over),
            "acting": {
                "key": who.key,
                "name": who.name,
                "actions": who.actions,
                "acted": who.acted,
                "active_defence": who.active_defence,
                "sprinting": who.sprinting,
                "stunned": who.daze == "stunned",
                "ammo": who.ammo,
            }
            if enc is not None and who is not None and not enc.scene_over
            else None,
            "rows": [
                {
                    "key": r.key,
                    **shown_row(r),
                    "hidden": r.key in hidden,
                    "group": people[r.key].group,
                    "ammo": people[r.key].ammo,
                    "squad": people[r.key].henchmen > 0,
                    "track": track_boxes(enc, r.key) if enc is not None else [],
                }
                for r in rows
            ],
            "odds": odds_links(enc, who.key) if enc is not None and who is not None else {},
            "setups": attack_setups(enc, who.key) if enc is not None and who is not None else {},
            "damage": self.rolls.board(enc, who)
            if enc is not None and who is not None and not enc.scene_over
            else None,
            "initiative_fields": [
                {"id": f["id"], "label": f["label"]} for f in initiative_fields(enc)
            ]
            if enc is not None and not enc.scene_over
            else [],
            "party": [{"id": e.id, "name": e.name} for e in self.party],
            "log": [str(s) for s in enc.log[-40:]][::-1] if enc is not None else [],
            "players": {
                "when": f"Turn {enc.turn}: {HIDDEN_NAME}'s action"
                if enc is not None and who is not None and who.hidden and not enc.scene_over
                else when,
                "rows": [
                    shown_row(r) for r in (board(enc, player_view=True) if enc is not None else ())
                ],
            },
        }


def tracker_page() -> w.VBox:
    """The tracker as the app page shows it: the site's styles, a title, the tracker."""
    head = w.HTML(f'{STYLE}<h2 class="rl-title">{TITLE}</h2>')
    page = w.VBox([head, TrackerPage()])
    page.add_class("rl-calc")
    return page
