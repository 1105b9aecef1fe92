"""What the tracker's board shows of an Aberrant encounter besides its rows
(:func:`ruleslab.encounter.board.board`): each health track's boxes, the initiative
fields the GM types (one per group of identical foes), what the acting combatant's
attack is at before the roll, and the Autofire calculator's link filled with it. The
rules are the engine's; these only gather its answers for the page.
"""

from __future__ import annotations

from typing import Any

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_inputs import attack_inputs
from ruleslab.encounter.board import Row
from ruleslab.encounter.state import Encounter, track_of
from ruleslab_widgets.party import _text

__all__ = [
    "attack_query",
    "attack_setups",
    "initiative_fields",
    "odds_links",
    "shown_row",
    "track_boxes",
]


def initiative_fields(enc: Encounter) -> list[dict[str, Any]]:
    """The initiative totals the GM types: one per combatant, one per group of identical
    foes (they share one roll: :func:`ruleslab.encounter.aberrant.roll_initiative`),
    each with its field's ``id``, ``label`` and the combatants' ``keys``."""
    fields: dict[str, dict[str, Any]] = {}
    for c in enc.combatants:
        ident = f"g:{c.group}" if c.group else f"c:{c.key}"
        field = fields.setdefault(ident, {"id": ident, "names": [], "keys": []})
        field["names"].append(c.name)
        field["keys"].append(c.key)
    for ident, field in fields.items():
        names = ", ".join(field["names"])
        field["label"] = f"group {ident[2:]} ({names})" if ident.startswith("g:") else names
    return list(fields.values())


def attack_setups(enc: Encounter, attacker: str) -> dict[str, dict[str, Any]]:
    """For each combatant ``attacker`` might attack: what the attack is at before it is
    rolled (:func:`ruleslab.encounter.aberrant.attack_setup`: which action, the added
    difficulty, the 2.1 Defense, the wound penalty, the rules applied), or why he may not."""
    a = ab.find(enc, attacker)
    setups: dict[str, dict[str, Any]] = {}
    for c in enc.combatants:
        if c.key == attacker:
            continue
        try:
            s = ab.attack_setup(enc, attacker, c.key)
        except InputError as exc:
            setups[c.key] = {"ok": False, "text": exc.message, "steps": []}
            continue
        text = f"This attack: action {s.action} of {a.actions}, +{s.added_difficulty} difficulty"
        if enc.ruleset == "2.1":
            text += f", {c.name}'s Defense +{s.defense}"
        if s.wound_penalty:
            text += f", −{s.wound_penalty} dice (wounds)"
        setups[c.key] = {"ok": True, "text": text, "steps": [st.text for st in s.steps]}
    return setups


def odds_links(enc: Encounter, attacker: str) -> dict[str, str]:
    """For each combatant ``attacker`` may attack now: the calculator's filled query."""
    links = {}
    for c in enc.combatants:
        if c.key == attacker:
            continue
        try:
            links[c.key] = attack_query(enc, attacker, c.key)
        except InputError:
            continue  # (an attack he may not make: no link)
    return links


def track_boxes(enc: Encounter, key: str) -> list[dict[str, Any]]:
    """His health track's boxes: each one's penalty label and what fills it."""
    c = ab.find(enc, key)
    levels = track_of(enc, c)
    filled = ab.health(enc, c).filled
    return [
        {
            "label": lv.kind.capitalize() if lv.penalty is None else f"−{lv.penalty}",
            "kind": lv.kind,
            "filled": filled[i] if i < len(filled) else None,
        }
        for i, lv in enumerate(levels)
    ]


def attack_query(enc: Encounter, attacker: str, target: str) -> str:
    """The link's query opening the Autofire & strafing calculator filled with this
    attack (:func:`ruleslab.encounter.attack_inputs.attack_inputs`): each record's fields
    by the form's names, as typed, only those that differ from the form's defaults."""
    from urllib.parse import urlencode

    from ruleslab.calculators import get

    calc = get("autofire")
    roles = {r.name: r for r in getattr(calc.compute, "roles", ())}
    defaults = dict(calc.defaults())
    fields: dict[str, str] = {}
    for name, value in attack_inputs(enc, attacker, target).items():
        role = roles.get(name)
        pairs = (
            [(role.flat_name(f), getattr(value, f)) for f in role.fields]
            if role is not None
            else [(name, value)]
        )
        for flat, v in pairs:
            text = _text(v)
            if flat in defaults and text != _text(defaults[flat]):
                fields[flat] = text
    return urlencode({"calculator": "autofire", **fields})


def shown_row(r: Row) -> dict[str, Any]:
    """What the GM's board and the players' view both show of a combatant's row."""
    return {
        "name": r.name,
        "side": r.side,
        "initiative": r.initiative,
        "acting": r.acting,
        "health": r.health,
        "chips": list(r.chips),
    }
