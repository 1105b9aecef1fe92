"""The tracker page's Chimera fights: the GM's steps, decision by decision, and what the
page draws of them.

A Chimera fight (:class:`~ruleslab.encounter.chimera_state.ChimeraEncounter`) is played
round by round, the wounds carried from one to the next: each round every combatant's
chosen action (its Initiative Modifier) and his d12, rolled by the site
(:func:`~ruleslab.encounter.chimera.seeded_d12`) or typed from the table's dice; the
acting fighter's attack with its odds before the roll
(:func:`~ruleslab.encounter.chimera.odds`), its result typed or rolled by the site
(:func:`~ruleslab.encounter.chimera_table.seeded_attack`); the morale checks the fight
calls, the victor's choice of fate (a Killer Blow Resisted), next turn, the end of the
round and the end of the fight with its cool-down, Fatigue and Ammo checks. Every rule is
the engine's (:mod:`ruleslab.encounter.chimera`); this module checks what was typed
(each field's message names it and the values it takes) and gathers the engine's answers
for the page. :class:`ChimeraDesk` is the part of
:class:`~ruleslab_widgets.tracker_page.TrackerPage` that plays them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any, Protocol

from ruleslab import InputError
from ruleslab.encounter import chimera as ch
from ruleslab.encounter import chimera_table as table
from ruleslab.encounter.board import HIDDEN_NAME, board
from ruleslab.encounter.chimera_state import ChimeraEncounter
from ruleslab.encounter.chimera_table import FATES, Fighter
from ruleslab.encounter.log import Change
from ruleslab.explain import fmt_prob
from ruleslab.party import Entry
from ruleslab_widgets.tracker_record import CHIMERA, Fight

__all__ = ["ABERRANT_ONLY", "CHIMERA", "MESSAGES", "SIDES", "ChimeraDesk", "whole_number"]

SIDES = {"party": "the party", "foes": "the foes"}
KINDS = {"fight": "Fight (melee)", "shoot": "Shoot (ranged)", "blast": "Blast (resisted)"}
BENEFITS = {"action": "a full action before his foes respond", "ar": "AR +2 on round 1"}
CHARACTERS = {"npc": "an NPC", "classed": "a classed NPC", "pc": "a PC (no morale checks)"}
MESSAGES = frozenset(
    {
        "add_party",
        "add_fighter",
        "hide",
        "leader",
        "next",
        "start_round",
        "attack",
        "blast",
        "morale",
        "fate",
        "end_round",
        "end_fight",
        "surprise",
        "coup",
    }
)
"""The page's messages a Chimera fight answers."""
ABERRANT_ONLY = frozenset(
    {"initiative", "enter_initiative", "declare", "end_scene", "add_foe", "add_squad"}
)
"""The Aberrant steps, refused with a message in a Chimera fight."""
_WHOLE = re.compile(r"\s*([+\-−]?)\s*(\d{1,3})\s*")
OVER_MARK = "The fight is over"
"""The first line :func:`~ruleslab.encounter.chimera.end_fight` writes."""


def whole_number(text: Any, field: str, lo: int, hi: int) -> int:
    """A whole number typed in ``field`` (``lo`` to ``hi``, a sign allowed when ``lo`` is
    negative), or a message naming the field and its range."""
    m = _WHOLE.fullmatch(str(text)) if isinstance(text, str | int) else None
    value = int(m.group(2)) * (-1 if m.group(1) in "-−" and m.group(1) else 1) if m else None
    if value is None or not lo <= value <= hi:
        raise InputError(field, f"{field}: a whole number from {lo} to {hi}.")
    return value


def _choice(value: Any, field: str, choices: dict[str, str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InputError(field, f"{field}: one of {', '.join(choices)}.")
    return value


def _name(value: Any, field: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not 0 < len(text) <= 60:
        raise InputError(field, f"{field}: 1 to 60 characters.")
    return text


class Page(Protocol):
    """What the desk uses of :class:`~ruleslab_widgets.tracker_page.TrackerPage`: its
    fights, the one open, and its steps (record, save, say)."""

    fights: dict[str, Fight]
    current: str
    _message: tuple[str, str]

    def _fight(self) -> Fight: ...
    def _save(self, ident: str) -> None: ...
    def _say(self, text: str, kind: str = "info") -> None: ...
    def _key(self, base: str) -> str: ...
    def step(self, fn: Callable[..., Change[Any]], *args: Any, **kw: Any) -> None: ...


class ChimeraDesk:
    """The Chimera steps of ``page`` (the tracker page, :class:`Page`): the party's
    fighters it offers, the messages it answers (:data:`MESSAGES`) and the board it
    draws."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.fighters: list[Entry] = []
        """The party's Chimera fighters (:func:`~ruleslab.encounter.chimera.fighter_from_entry`)."""
        self.tie_due = False
        """The last round's start was refused for a tie: the page asks for the tie's d12s."""

    # -- the page's messages ---------------------------------------------------------
    def owns(self, kind: str) -> bool:
        """Whether message ``kind`` is this desk's: the open fight is Chimera's."""
        fight = self.page.fights.get(self.page.current)
        return fight is not None and fight.ruleset == CHIMERA and kind in MESSAGES | ABERRANT_ONLY

    def receive(self, c: dict[str, Any]) -> None:
        kind = str(c.get("type"))
        if kind in ABERRANT_ONLY:
            raise InputError("encounter", "This is a Chimera fight: that step is Aberrant's.")
        handlers: dict[str, Callable[[], None]] = {
            "add_party": lambda: self.add_party(c.get("id"), c.get("side")),
            "add_fighter": lambda: self.add_fighter(c),
            "hide": lambda: self._mark(table.mark_hidden, c.get("key"), "hidden"),
            "leader": lambda: self._mark(table.mark_leader, c.get("key"), "leader"),
            "next": lambda: self.step(ch.next_turn),
            "start_round": lambda: self.start_round(c),
            "attack": lambda: self.attack(c),
            "blast": lambda: self.blast(c),
            "morale": lambda: self.morale(c),
            "fate": lambda: self.fate(c),
            "end_round": lambda: self.step(ch.end_round),
            "end_fight": lambda: self.end_fight(c.get("cool_down")),
            "surprise": lambda: self.surprise(c),
            "coup": lambda: self.coup(c),
        }
        handlers[kind]()

    def _enc(self) -> ChimeraEncounter:
        fight = self.page._fight()
        if fight.history is None:
            raise InputError("encounter", "Add the combatants first.")
        enc: ChimeraEncounter = fight.history.present
        return enc

    def step(self, fn: Callable[..., Change[ChimeraEncounter]], *args: Any, **kw: Any) -> None:
        """``fn`` applied to the fight (the page records, saves and says it)."""
        self.page.step(fn, *args, **kw)

    def _join(self, newcomer: ch.ChimeraCombatant) -> None:
        fight = self.page._fight()
        if fight.history is None:
            fight.begin(ch.new_chimera([newcomer]), table.join)
            self.page._save(self.page.current)
            self.page._say(f"{newcomer.name} joins the fight ({newcomer.side}).")
        else:
            self.step(table.join, newcomer)

    def add_party(self, ident: Any, side: Any) -> None:
        """A party's fighter joins, on ``side``."""
        entry = next((e for e in self.fighters if e.id == ident), None)
        if entry is None:
            raise InputError("party", "That fighter is no longer in the party.")
        self._join(ch.fighter_from_entry(entry, _choice(side, "Side", SIDES)))

    def add_fighter(self, c: dict[str, Any]) -> None:
        """A foe (or ally) entered quickly: a name, his side and the numbers the rules
        read of him (MR, Defence, Wound Limit, his Fight or Shoot bonus and weapon, his
        Morale TN and Resistance bonus, whether he is classed), leading his side or not."""
        name = _name(c.get("name"), "Fighter's name")
        side = _choice(c.get("side"), "Side", SIDES)
        damage = c.get("damage")
        if not isinstance(damage, str) or not 0 < len(damage.strip()) <= 20:
            raise InputError("Weapon damage", "Weapon damage: the dice, as d8, 2d6 or d6+1.")
        record = Fighter(
            name,
            mr=whole_number(c.get("mr"), "MR", 1, 40),
            defence=whole_number(c.get("defence"), "Defence", 0, 20),
            wound_limit=whole_number(c.get("wound_limit"), "Wound Limit", 1, 20),
            attack=whole_number(c.get("attack"), "Attack bonus", -10, 20),
            damage=damage.strip(),
            kind=_choice(c.get("weapon"), "Attack", KINDS),
            blast_tn=whole_number(c.get("blast_tn", "12"), "Blast TN", 1, 40),
            morale_tn=whole_number(c.get("morale_tn"), "Morale TN", 1, 40),
            resist=whole_number(c.get("resist"), "Resistance bonus", -10, 20),
            character=_choice(c.get("character"), "Character", CHARACTERS),
        )  # (the weapon's dice are checked by the record: "Weapon damage: …")
        key = self.page._key("f")
        self._join(ch.fighter(key, record, side, leader=c.get("leader") is True))

    def _mark(self, fn: Callable[..., Change[ChimeraEncounter]], key: Any, attr: str) -> None:
        c = ch.find(self._enc(), str(key))
        self.step(fn, c.key, not getattr(c, attr))

    def start_round(self, c: dict[str, Any]) -> None:
        """The round begins: each combatant's chosen action's IM (typed) and his d12,
        rolled by the site (``faces == "roll"``) or typed; the d12s rolled again by tied
        combatants (typed, or rolled by the site with the rest)."""
        enc = self._enc()
        fighting = [p for p in enc.combatants if p.in_fight]
        ims_in = c.get("ims")
        typed = ims_in if isinstance(ims_in, dict) else {}
        ims = {
            p.key: whole_number(typed.get(p.key, p.fighter.initiative), f"IM: {p.name}", -10, 10)
            for p in fighting
        }
        faces_in, ties_in = c.get("faces"), c.get("ties")
        if faces_in == "roll":
            faces = ch.seeded_d12(enc, random.getrandbits(32))
            rng = random.Random(random.getrandbits(32))
            ties: dict[str, list[int]] = {
                p.key: [rng.randint(1, 12) for _ in range(6)] for p in fighting
            }
        else:
            given = faces_in if isinstance(faces_in, dict) else {}
            faces = {
                p.key: whole_number(given.get(p.key), f"d12: {p.name}", 1, 12) for p in fighting
            }
            tied = ties_in if isinstance(ties_in, dict) else {}
            ties = {}
            for p in fighting:
                text = tied.get(p.key)
                if isinstance(text, str) and text.strip():
                    parts = text.replace(",", " ").split()[:6]
                    field = f"d12 again if tied: {p.name}"
                    ties[p.key] = [whole_number(x, field, 1, 12) for x in parts]
        try:
            self.step(ch.start_round, ims, faces, ties)
        except InputError as exc:
            self.tie_due = exc.field == "tie_rolls"
            raise
        self.tie_due = False

    def attack(self, c: dict[str, Any]) -> None:
        """The acting fighter's full action: an attack at ``target``, its result typed
        (``result`` ``hit`` with the damage roll, or ``miss``) or rolled by the site."""
        enc = self._enc()
        if not enc.order or enc.place >= len(enc.order):
            raise InputError("attacker", "Start the round first: each combatant rolls 1d12.")
        who = enc.order[enc.place]
        target = ch.find(enc, str(c.get("target"))).key
        result = _choice(c.get("result"), "Result", {"hit": "", "miss": "", "roll": ""})
        if result == "roll":
            rolled = table.seeded_attack(enc, who, target, random.getrandbits(32))
            hit, roll = rolled.hit, rolled.damage_roll
            self.step(ch.resolve_attack, who, target, hit=hit, damage_roll=roll)
            self.page._say(f"{rolled.text} · {self.page._message[0]}"[:400])
            return
        damage = whole_number(c.get("damage"), "Damage roll", 0, 200) if result == "hit" else 0
        self.step(ch.resolve_attack, who, target, hit=result == "hit", damage_roll=damage)

    def blast(self, c: dict[str, Any]) -> None:
        """The acting fighter's blast at everyone ticked in its area (``area``): rolled by
        the site (``result`` ``roll``: :func:`~ruleslab.encounter.chimera_table.seeded_blast`)
        or the damage each took typed from the table's dice (``taken``: 0 if he avoided
        it), then :func:`~ruleslab.encounter.chimera.resolve_blast`."""
        enc = self._enc()
        if not enc.order or enc.place >= len(enc.order):
            raise InputError("attacker", "Start the round first: each combatant rolls 1d12.")
        who = enc.order[enc.place]
        given = c.get("area")
        area = [ch.find(enc, str(k)).key for k in given] if isinstance(given, list) else []
        if not area:
            raise InputError("area", "The blast's area: tick at least one fighter in it.")
        if c.get("result") == "roll":
            rolled = table.seeded_blast(enc, who, area, random.getrandbits(32))
            self.step(ch.resolve_blast, who, dict(rolled.taken))
            self.page._say(f"{rolled.text} · {self.page._message[0]}"[:400])
            return
        typed_in = c.get("taken")
        typed = typed_in if isinstance(typed_in, dict) else {}
        taken = {
            key: whole_number(
                typed.get(key, ""), f"Damage to {ch.find(enc, key).name} (0 if avoided)", 0, 200
            )
            for key in area
        }
        self.step(ch.resolve_blast, who, taken)

    def _natural(self, value: Any, field: str) -> int:
        """A Resistance Roll's die: ``roll`` (the site rolls it) or typed."""
        enc = self._enc()
        if value == "roll":
            return table.seeded_die(enc, random.getrandbits(32))
        label = f"{field} ({enc.rules.action_die} as rolled)"
        return whole_number(value, label, *table.die_range(enc))

    def morale(self, c: dict[str, Any]) -> None:
        """A morale check the fight called: his die rolled by the site or typed."""
        p = ch.find(self._enc(), str(c.get("key")))
        self.step(ch.morale_check, p.key, self._natural(c.get("natural"), f"Morale: {p.name}"))

    def fate(self, c: dict[str, Any]) -> None:
        """The victor's choice for the foe he vanquished; a classed foe's Killer Blow
        Resisted (his die rolled by the site or typed)."""
        enc = self._enc()
        foe = ch.find(enc, str(c.get("key")))
        fate = _choice(c.get("fate"), f"Fate of {foe.name}", FATES)
        natural = None
        if fate == "killer_blow" and foe.fighter.classed:
            natural = self._natural(c.get("natural"), f"Killer Blow resisted: {foe.name}")
        self.step(ch.choose_fate, foe.vanquished_by, foe.key, fate, resist_natural=natural)

    def surprise(self, c: dict[str, Any]) -> None:
        """Before round 1, a fighter's Sneak roll against his foes' Surprise TN (his die
        rolled by the site or typed) and the benefit he chooses if it succeeds."""
        enc = self._enc()
        p = ch.find(enc, str(c.get("key")))
        bonus = whole_number(c.get("bonus"), "Sneak bonus", -10, 20)
        tn = whole_number(c.get("tn"), "Surprise TN", 1, 40)
        benefit = _choice(c.get("benefit"), "Benefit", BENEFITS)
        natural = self._natural(c.get("natural"), f"Sneak roll: {p.name}")
        self.step(ch.surprise, p.key, natural, sneak_bonus=bonus, surprise_tn=tn, benefit=benefit)

    def coup(self, c: dict[str, Any]) -> None:
        """The acting fighter dispatches an unconscious foe with a coup de grâce (a free
        action); a classed foe's Resistance die typed or rolled by the site."""
        enc = self._enc()
        acting = self._acting(enc)
        if acting is None or not acting["in_fight"]:
            raise InputError("coup", "A coup de grâce is given on a fighter's turn.")
        foe = ch.find(enc, str(c.get("key")))
        given = c.get("natural")
        natural = None
        if foe.fighter.classed and given not in (None, ""):
            natural = self._natural(given, f"Coup de grâce resisted: {foe.name}")
        self.step(ch.coup_de_grace, acting["key"], foe.key, resist_natural=natural)

    def end_fight(self, cool_down: Any) -> None:
        """The fight is over: who spent the cool-down (ticked), the checks after it."""
        given = cool_down if isinstance(cool_down, dict) else {}
        spent = {str(k): v is True for k, v in given.items()}
        self.step(ch.end_fight, spent)

    # -- what the page draws ---------------------------------------------------------
    def _odds(self, enc: ChimeraEncounter, attacker: str, target: str) -> dict[str, Any]:
        try:
            o = ch.odds(enc, attacker, target)
        except InputError as exc:
            return {"text": exc.message, "steps": [], "can_roll": False}
        if o.kind == "blast":
            reach = "the blast reaches him" if o.tn is None else "it lands and he fails to resist"
            return {
                "text": f"{reach}: {fmt_prob(o.p_hit)}, a wound {fmt_prob(o.p_wound)}, "
                f"vanquished {fmt_prob(o.p_vanquish)}",
                "steps": [str(s) for s in o.steps],
                "can_roll": True,
            }
        return {
            "text": f"TN {o.tn}, roll {o.modifier:+d}: hit {fmt_prob(o.p_hit)}, a wound "
            f"{fmt_prob(o.p_wound)}, vanquished {fmt_prob(o.p_vanquish)}",
            "steps": [str(s) for s in o.steps],
            "can_roll": True,
        }

    def _acting(self, enc: ChimeraEncounter) -> dict[str, Any] | None:
        if enc.over or not enc.order or enc.place >= len(enc.order):
            return None
        a = ch.find(enc, enc.order[enc.place])
        targets = [
            {"key": t.key, "name": t.name, "foe": t.side != a.side, **self._odds(enc, a.key, t.key)}
            for t in enc.combatants
            if t.key != a.key and t.in_fight
        ]
        targets.sort(key=lambda t: find_side(enc, t["key"]) == a.side)
        return {
            "key": a.key,
            "name": a.name,
            "can_act": a.in_fight and not a.acted,
            "in_fight": a.in_fight,
            "acted": a.acted,
            "status": ch.STATUSES[a.status],
            "verb": a.fighter.verb,
            "blast": a.fighter.kind == "blast",
            "blast_tn": a.fighter.blast_tn,
            "damage": a.fighter.damage,
            "targets": targets,
        }

    def _after(self, enc: ChimeraEncounter) -> list[str]:
        """The checks after the fight (what :func:`~ruleslab.encounter.chimera.end_fight`
        wrote), once it is over."""
        if not enc.over:
            return []
        texts = [s.text for s in enc.log]
        last = max((i for i, t in enumerate(texts) if t == OVER_MARK), default=len(texts))
        return texts[last + 1 :]

    def section(self, enc: ChimeraEncounter | None) -> dict[str, Any]:
        """The Chimera part of the board: the phase, the combatants' IMs and d12 fields,
        the acting fighter and his targets' odds, the morale checks due, the fates to
        choose, the cool-down choices and, once over, the checks after the fight."""
        people = enc.combatants if enc is not None else ()
        die = enc.rules.action_die if enc is not None else "d20"
        if enc is None:
            phase = "setup"
        elif enc.over:
            phase = "over"
        elif enc.order and enc.place < len(enc.order):
            phase = "turn"
        else:
            phase = "initiative"
        return {
            "phase": phase,
            "round": enc.round if enc is not None else 0,
            "die": die,
            "fighters": [{"id": e.id, "name": e.name} for e in self.fighters],
            "sides": [[k, v] for k, v in SIDES.items()],
            "kinds": [[k, v] for k, v in KINDS.items()],
            "characters": [[k, v] for k, v in CHARACTERS.items()],
            "fates": [[k, v] for k, v in FATES.items()],
            "benefits": [[k, v] for k, v in BENEFITS.items()],
            "unconscious": [
                {"key": p.key, "name": p.name, "classed": p.fighter.classed}
                for p in people
                if p.status == "unconscious"
            ],
            "tie_due": self.tie_due,
            "combatants": [
                {
                    "key": p.key,
                    "name": p.name,
                    "side": p.side,
                    "leader": p.leader,
                    "in_fight": p.in_fight,
                    "im": p.fighter.initiative,
                    "spends_cool_down": p.fighter.spends_cool_down,
                }
                for p in people
            ],
            "acting": self._acting(enc) if enc is not None else None,
            "morale": [
                {
                    "key": p.key,
                    "name": p.name,
                    "why": p.morale_due,
                    "text": f"{die} {p.fighter.resist_modifier(p.wounds):+d} vs Morale TN "
                    f"{p.fighter.morale_tn}",
                }
                for p in people
                if p.morale_due and p.in_fight
            ],
            "vanquished": [
                {
                    "key": p.key,
                    "name": p.name,
                    "by": ch.find(enc, p.vanquished_by).name if enc is not None else "",
                    "classed": p.fighter.classed,
                }
                for p in people
                if p.status == "vanquished"
            ],
            "after": self._after(enc) if enc is not None else [],
        }

    def board(self, fight: Fight) -> dict[str, Any]:
        """What the page draws of Chimera fight ``fight``: the rows (wounds, Wound
        Penalty, status and morale as chips), the players' view and :meth:`section`."""
        enc: ChimeraEncounter | None = fight.history.present if fight.history else None
        rows = board(enc) if enc is not None else ()
        acting = self._acting(enc) if enc is not None else None
        when = _when(enc, acting)
        hidden = {p.key for p in enc.combatants if p.hidden} if enc is not None else set()
        who_hidden = acting is not None and acting["key"] in hidden
        return {
            "when": when,
            "started": phase_started(enc),
            "acting": None,
            "rows": [
                {
                    **vars(r),
                    "chips": list(r.chips),
                    "hidden": r.key in hidden,
                    "group": "",
                    "track": [],
                }
                for r in rows
            ],
            "odds": {},
            "setups": {},
            "initiative_fields": [],
            "party": [],
            "log": [str(s) for s in enc.log[-40:]][::-1] if enc is not None else [],
            "players": {
                "when": when.replace(str(acting["name"]), HIDDEN_NAME)
                if who_hidden and acting is not None
                else when,
                "rows": [
                    {k: v for k, v in vars(r).items() if k != "key"} | {"chips": list(r.chips)}
                    for r in (board(enc, player_view=True) if enc is not None else ())
                ],
            },
            "chimera": self.section(enc),
        }


def _when(enc: ChimeraEncounter | None, acting: dict[str, Any] | None) -> str:
    """The board's headline: the round and whose turn, or where the fight stands."""
    if enc is None or enc.over:
        return "The fight is over" if enc is not None else "No one has joined yet"
    if acting is None:
        return f"Round {enc.round + 1}: choose the actions, roll initiative"
    which = f"Round {enc.round}" if enc.round else "The surprise round"
    return f"{which}: {acting['name']}'s turn"


def find_side(enc: ChimeraEncounter, key: str) -> str:
    """The side of combatant ``key``."""
    return ch.find(enc, key).side


def phase_started(enc: ChimeraEncounter | None) -> bool:
    """Whether a round is under way (its order rolled, the fight not over)."""
    return bool(enc is not None and enc.order and enc.place < len(enc.order) and not enc.over)


def fighter_kept(entry: Entry) -> bool:
    """Whether a party's entry is a Chimera fighter (the desk offers it)."""
    return isinstance(entry.record, Fighter)
