"""The fight at a glance: one row per combatant, in the order they act, with his health
and his conditions as chips saying when they end — for the GM, or the players' view.

:func:`board` reads either kind of encounter and changes nothing. In the players' view
(``player_view=True``) a combatant the GM marked ``hidden`` shows neither his name nor
his health. :func:`board_text` and :func:`board_html` (every text escaped) draw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ruleslab.encounter.chimera import STATUSES, ChimeraEncounter
from ruleslab.encounter.state import Encounter, defense_now, health
from ruleslab.quickref.health import STATES, stun_recovery
from ruleslab.ruleset import V21

__all__ = ["HIDDEN_NAME", "Row", "board", "board_html", "board_text"]

HIDDEN_NAME = "Unknown foe"
"""What the players see of a combatant the GM hides."""


@dataclass(frozen=True)
class Row:
    """One combatant on the board: ``name``, ``side``, ``initiative`` (``None``: not
    rolled), whether it is his turn (``acting``), his ``health`` in words and his
    conditions as ``chips``, each saying when it ends."""

    key: str
    name: str
    side: str
    initiative: int | None
    acting: bool
    health: str
    chips: tuple[str, ...]


def _ordered_keys(order: tuple[str, ...], keys: list[str]) -> list[str]:
    return [*order, *(k for k in keys if k not in order)]


def _aberrant(enc: Encounter, player_view: bool) -> tuple[Row, ...]:
    by_key = {c.key: c for c in enc.combatants}
    acting = enc.order[enc.place] if enc.order and enc.place < len(enc.order) else None
    rows = []
    for key in _ordered_keys(enc.order, list(by_key)):
        c = by_key[key]
        track = health(enc, c)
        state = STATES[track.state]
        text = f"{state}, −{track.penalty}" if track.state == "hurt" else state
        chips: list[str] = []
        if c.daze != "none":
            what = "Stunned: +1, a single action" if c.daze == "stunned" else "Dazed: +1"
            chips.append(f"{what} (ends with turn {c.daze_until})")
        if c.damage.stun:
            turns, _ = stun_recovery(c.character.stamina, c.character.mega_stamina)
            left = turns - c.stun_clock
            chips.append(
                f"{c.damage.stun} stun: 1 heals in {left} turn{'s' if left != 1 else ''}, "
                "all at the scene's end"
            )
        if enc.ruleset == V21:
            chips.append(f"Defense +{defense_now(enc, c)} (back at the turn's end)")
        if c.actions > 1 or c.acted:
            chips.append(f"{c.acted} of {c.actions} actions taken")
        if c.sprinting:
            chips.append("Sprinting: defensive maneuvers only, this turn")
        if c.henchmen:
            chips.append(f"{c.henchmen} henchmen screening him")
        if c.ammo is not None:
            chips.append(f"{c.ammo} rounds left")
        rows.append(Row(c.key, c.name, c.side, c.initiative, key == acting, text, tuple(chips)))
    return _hide(rows, {c.key for c in enc.combatants if c.hidden}, player_view)


def _chimera(enc: ChimeraEncounter, player_view: bool) -> tuple[Row, ...]:
    by_key = {c.key: c for c in enc.combatants}
    turn = enc.order and enc.place < len(enc.order) and not enc.over  # (over: no one acts)
    acting = enc.order[enc.place] if turn else None
    rows = []
    for key in _ordered_keys(enc.order, list(by_key)):
        c = by_key[key]
        wl = c.fighter.wound_limit
        text = f"{c.wounds} of WL {wl} wounds, WP −{c.wounds}" if c.wounds else "Unwounded"
        chips = [STATUSES[c.status]] if not c.in_fight else []
        if c.morale_due:
            chips.append(f"Morale check due: {c.morale_due}")
        if c.acted:
            chips.append("Full action taken (this round)")
        if c.flaw:
            chips.append("A random permanent Flaw")
        if c.leader:
            chips.append("Leads his side")
        rows.append(Row(c.key, c.name, c.side, c.initiative, key == acting, text, tuple(chips)))
    return _hide(rows, {c.key for c in enc.combatants if c.hidden}, player_view)


def _hide(rows: list[Row], hidden: set[str], player_view: bool) -> tuple[Row, ...]:
    if not player_view:
        return tuple(rows)
    out = []
    for r in rows:
        if r.key in hidden:
            r = Row("", HIDDEN_NAME, r.side, r.initiative, r.acting, "—", ())
        out.append(r)
    return tuple(out)


def board(enc: Encounter | ChimeraEncounter, *, player_view: bool = False) -> tuple[Row, ...]:
    """The rows of ``enc``: the initiative order first, then who has not rolled."""
    if isinstance(enc, Encounter):
        return _aberrant(enc, player_view)
    return _chimera(enc, player_view)


def _when(enc: Encounter | ChimeraEncounter) -> str:
    if isinstance(enc, Encounter):
        return "The scene is over" if enc.scene_over else f"Turn {enc.turn}"
    return "The fight is over" if enc.over else f"Round {enc.round}"


def board_text(enc: Encounter | ChimeraEncounter, *, player_view: bool = False) -> str:
    """The board as plain text, one line per combatant (``▶`` marks whose turn it is)."""
    lines = [_when(enc)]
    for r in board(enc, player_view=player_view):
        ini = "–" if r.initiative is None else str(r.initiative)
        chips = "; ".join(r.chips)
        mark = "▶" if r.acting else " "
        tail = f" | {chips}" if chips else ""
        lines.append(f"{mark} {ini:>3} {r.name} ({r.side}): {r.health}{tail}")
    return "\n".join(lines)


def board_html(enc: Encounter | ChimeraEncounter, *, player_view: bool = False) -> str:
    """The board as an HTML table (every name and text escaped)."""
    head = "<tr><th></th><th>Init.</th><th>Combatant</th><th>Health</th><th>Conditions</th></tr>"
    body = []
    for r in board(enc, player_view=player_view):
        ini = "–" if r.initiative is None else str(r.initiative)
        chips = "".join(f'<span class="rl-chip">{escape(c)}</span> ' for c in r.chips)
        attr, mark = (' class="rl-acting"', "▶") if r.acting else ("", "")
        body.append(
            f"<tr{attr}><td>{mark}</td>"
            f"<td>{ini}</td><td>{escape(r.name)} <small>({escape(r.side)})</small></td>"
            f"<td>{escape(r.health)}</td><td>{chips.strip()}</td></tr>"
        )
    caption = f"<caption>{escape(_when(enc))}</caption>"
    return f'<table class="rl-encounter">{caption}{head}{"".join(body)}</table>'
