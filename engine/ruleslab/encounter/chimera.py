"""A Chimera fight, round by round: the encounter record and its changes.

Chimera combat › Combat:

    At the start of each round, every combatant chooses his action and rolls 1d12
    for Initiative (adjust the roll by the chosen action's Initiative Modifier (IM)).
    The highest result goes first … If the fight isn't over after everyone's turn,
    the fight moves to the next round and combatants roll again for Initiative.

    When hit, a defender suffers a wound of severity equal to the damage roll minus
    his Defence (ignore "wounds" of severity zero or less). … If the total number of
    wounds, or the severity of a single wound, exceeds the defender's Wound Limit,
    he's vanquished, and the attacker chooses his fate.

    When a combatant's Wound Penalty is half his WL, his leader falls, or his allies
    suffer more than 50% casualties, he must make a Resistance Roll against his Morale
    TN to stay in the fight. Failure means surrender or retreat. Player characters do
    not need to check morale.

    After a fight, combatants must spend 1 full turn (10 minutes) … Failure to spend
    this "cool-down" period mandates an immediate Resistance Roll against Fatigue.
    Anyone who engaged in ranged combat must also make an Ammo Check at this time.

The rules are the engine's: :func:`ruleslab.chimera.wounds.is_vanquished`,
:func:`~ruleslab.chimera.wounds.wound_penalty`,
:func:`~ruleslab.chimera.morale.wound_triggers_morale`,
:func:`~ruleslab.chimera.morale.casualties_over_half`,
:func:`~ruleslab.chimera.action.is_success` (morale, a Killer Blow Resisted),
:func:`~ruleslab.chimera.aftermath.aftermath_steps` (the checks after the fight); the
readings are the encounter's :class:`~ruleslab.chimera.attack.FightRules`. The dice
are the table's (or :func:`seeded_d12`); the GM's choices (each action's IM, the
fate) are arguments. Readings: rules notes RN-TRACK-8 … RN-TRACK-10.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from random import Random

from ruleslab.chimera.action import ACTION_DICE, is_success
from ruleslab.chimera.aftermath import aftermath_steps
from ruleslab.chimera.attack import AttackOdds, Fighter, FightRules, attack_odds
from ruleslab.chimera.morale import casualties_over_half, wound_triggers_morale
from ruleslab.chimera.sections import COMBAT, COMBAT_ACTIONS, VANQUISHING
from ruleslab.chimera.wounds import FATES, KILLER_BLOW_TN, is_vanquished, wound_penalty
from ruleslab.encounter.log import (
    Change,
    EncounterError,
    find_key,
    logged,
    people_of,
    put_keyed,
    whole,
)
from ruleslab.explain import Step
from ruleslab.party import Entry

__all__ = [
    "FIGHTING",
    "STATUSES",
    "ChimeraCombatant",
    "ChimeraEncounter",
    "choose_fate",
    "coup_de_grace",
    "end_fight",
    "end_round",
    "fighter",
    "fighter_from_entry",
    "morale_check",
    "new_chimera",
    "next_turn",
    "odds",
    "resolve_attack",
    "seeded_d12",
    "start_round",
]

FIGHTING = "fighting"
STATUSES = {
    FIGHTING: "In the fight",
    "vanquished": "Vanquished: the victor chooses his fate",
    "captured": "Captured: bound, −4 to all rolls and MR",
    "driven_off": "Driven off: fled the scene",
    "dead": "Dead (Killer Blow)",
    "unconscious": "Unconscious",
    "surrendered": "Failed his morale check: surrendered or retreated",
}
"""Where a combatant stands; every status but ``fighting`` is out of the fight."""

DEFAULT_RULES = FightRules()
"""The readings by default (rules notes RN-CHIM-*)."""


@dataclass(frozen=True)
class ChimeraCombatant:
    """One combatant: ``key``, his :class:`~ruleslab.chimera.fighter.Fighter` record, his
    ``side``, whether he leads it (``leader``), ``hidden`` from the players' view; what
    the fight did: ``wounds``, ``status``, this round's chosen ``im`` and ``initiative``,
    whether he ``acted`` this round (one full action), a ``morale_due`` reason (empty:
    none), ``shot`` (he engaged in ranged combat), ``vanquished_by`` (the victor's key)
    and ``flaw`` (a Killer Blow Resisted: a random permanent Flaw)."""

    key: str
    fighter: Fighter
    side: str = "party"
    leader: bool = False
    hidden: bool = False
    wounds: int = 0
    status: str = FIGHTING
    im: int = 0
    initiative: int | None = None
    acted: bool = False
    morale_due: str = ""
    shot: bool = False
    vanquished_by: str = ""
    flaw: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key.strip():
            raise EncounterError("key", "A combatant needs a key (a short id): give one.")
        if not isinstance(self.fighter, Fighter):
            raise EncounterError("fighter", f"{self.key}: a Chimera Fighter record.")
        if self.status not in STATUSES:
            raise EncounterError("status", f"{self.name}'s status: one of {', '.join(STATUSES)}.")
        if not isinstance(self.side, str) or not self.side.strip():
            raise EncounterError("side", f"{self.name} needs a side.")
        if self.status == "vanquished" and not self.vanquished_by:
            raise EncounterError("vanquished_by", f"{self.name} is vanquished: by whom?")

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def in_fight(self) -> bool:
        return self.status == FIGHTING


@dataclass(frozen=True)
class ChimeraEncounter:
    """A Chimera fight: the combatants, the ``round`` (0 before the first), this round's
    initiative ``order`` and the ``place`` in it, whether the fight is ``over``, the
    readings (:class:`~ruleslab.chimera.attack.FightRules`) and the ``log``."""

    combatants: tuple[ChimeraCombatant, ...]
    rules: FightRules = DEFAULT_RULES
    round: int = 0
    order: tuple[str, ...] = ()
    place: int = 0
    over: bool = False
    log: tuple[Step, ...] = ()


def fighter(
    key: str, record: Fighter, side: str = "party", *, leader: bool = False
) -> ChimeraCombatant:
    """A combatant from a fighter record (a party's entry, or a foe entered quickly:
    ``Fighter("Bandit", mr=8, defence=1, wound_limit=2)``); his wounds so far start
    from the record's."""
    return ChimeraCombatant(key, record, side, leader, wounds=record.wounds)


def fighter_from_entry(entry: Entry, side: str = "party") -> ChimeraCombatant:
    """A party's fighter (:class:`~ruleslab.party.Entry`) as a combatant, keyed by his id."""
    if not isinstance(entry.record, Fighter):
        raise EncounterError("fighter", f"{entry.name} is {entry.kind.a}, not a Chimera fighter.")
    return fighter(entry.id, replace(entry.record, name=entry.name), side)


def new_chimera(
    combatants: Iterable[ChimeraCombatant], rules: FightRules = DEFAULT_RULES
) -> ChimeraEncounter:
    """A new fight (keys unique, at least one combatant)."""
    return ChimeraEncounter(people_of(combatants), rules)


def find(enc: ChimeraEncounter, key: str) -> ChimeraCombatant:
    """The combatant ``key``, or :class:`EncounterError`."""
    return find_key(enc.combatants, key)


def _open(enc: ChimeraEncounter) -> None:
    if enc.over:
        raise EncounterError("fight", "The fight is over: start a new encounter.")


def _roll_penalty(c: ChimeraCombatant) -> int:
    """What his wounds and being bound take off every roll (WP; −4 bound)."""
    return -wound_penalty(c.wounds) + c.fighter.bound_penalty


# --- initiative -------------------------------------------------------------------------


def seeded_d12(enc: ChimeraEncounter, seed: int) -> dict[str, int]:
    """A d12 for each combatant in the fight, from a generator seeded with ``seed``."""
    rng = Random(seed)
    return {c.key: rng.randint(1, 12) for c in enc.combatants if c.in_fight}


def start_round(
    enc: ChimeraEncounter,
    ims: Mapping[str, int],
    faces: Mapping[str, int],
    tie_rolls: Mapping[str, Sequence[int]] | None = None,
) -> Change[ChimeraEncounter]:
    """The round begins: each combatant in the fight chooses his action (its Initiative
    Modifier, ``ims``; by default his record's ``initiative``) and rolls 1d12
    (``faces``): 1d12 + IM − Wound Penalty (− 4 bound; rules note RN-CHIM-8). Ties:
    the rules' reading (RN-CHIM-9): ``reroll`` (the tied roll again: their d12s in
    ``tie_rolls``, in order) or ``simultaneous``."""
    _open(enc)
    if enc.order and enc.place < len(enc.order):
        raise EncounterError("round", f"Round {enc.round} is not over: end it first.")
    rnd = enc.round + 1
    lines = [Step(f"Round {rnd} (10 seconds): every combatant chooses his action", COMBAT_ACTIONS)]
    people = []
    for c in enc.combatants:
        if not c.in_fight:
            people.append(replace(c, initiative=None, acted=False))
            continue
        im, face = ims.get(c.key, c.fighter.initiative), faces.get(c.key, 0)
        if not whole(face, 1, 12):
            raise EncounterError("initiative", f"{c.name}'s d12 for initiative: 1 to 12.")
        if not whole(im, -10, 10):
            raise EncounterError("im", f"{c.name}'s Initiative Modifier: −10 to 10.")
        pen = _roll_penalty(c)
        total = face + im - pen
        less = (
            f" − {pen} (WP {c.wounds}{', bound −4' if c.fighter.is_bound else ''})" if pen else ""
        )
        lines.append(
            Step(f"{c.name}: 1d12 {face} + IM {im:+d}{less} = {total} (RN-CHIM-8)", COMBAT_ACTIONS)
        )
        people.append(replace(c, im=im, initiative=total, acted=False))
    order = _order(enc, tuple(people), tie_rolls or {}, lines)
    names = ", ".join(f"{c.name} {c.initiative}" for k in order for c in people if c.key == k)
    lines.append(Step(f"Order: {names} (highest first)", COMBAT_ACTIONS))
    return logged(enc, lines, combatants=tuple(people), round=rnd, order=order, place=0)


def _order(
    enc: ChimeraEncounter,
    people: tuple[ChimeraCombatant, ...],
    tie_rolls: Mapping[str, Sequence[int]],
    lines: list[Step],
) -> tuple[str, ...]:
    fighting = [c for c in people if c.in_fight]
    index = {c.key: i for i, c in enumerate(people)}
    by_total: dict[int, list[ChimeraCombatant]] = {}
    for c in fighting:
        by_total.setdefault(c.initiative or 0, []).append(c)
    order: list[str] = []
    for total in sorted(by_total, reverse=True):
        group = by_total[total]
        if len(group) == 1:
            order.append(group[0].key)
            continue
        names = " and ".join(c.name for c in group)
        if enc.rules.ties == "simultaneous":
            lines.append(
                Step(f"{names} tie at {total}: they act at once (RN-CHIM-9)", COMBAT_ACTIONS)
            )
            order += [c.key for c in sorted(group, key=lambda c: index[c.key])]
            continue
        rolls = {c.key: tuple(tie_rolls.get(c.key, ())) for c in group}
        ranked = sorted(group, key=lambda c: tuple(-r for r in rolls[c.key]))
        keys = [tuple(rolls[c.key]) for c in ranked]
        if len(set(keys)) < len(keys) or any(not 1 <= r <= 12 for k in keys for r in k):
            raise EncounterError(
                "tie_rolls",
                f"{names} tie at {total}: each rolls a d12 again until one is higher "
                "(RN-CHIM-9); give those rolls (tie_rolls, 1 to 12).",
            )
        lines.append(
            Step(
                f"{names} tie at {total}: rolled again "
                + ", ".join(f"{c.name} {'/'.join(map(str, rolls[c.key]))}" for c in ranked)
                + " (RN-CHIM-9)",
                COMBAT_ACTIONS,
            )
        )
        order += [c.key for c in ranked]
    return tuple(order)


# --- the fight -------------------------------------------------------------------------


def _allies_down(people: tuple[ChimeraCombatant, ...], c: ChimeraCombatant) -> tuple[int, int]:
    """(his allies, how many of them are out of the fight)."""
    allies = [o for o in people if o.side == c.side and o.key != c.key]
    return len(allies), sum(1 for o in allies if not o.in_fight)


def _side_triggers(
    before: tuple[ChimeraCombatant, ...],
    after: tuple[ChimeraCombatant, ...],
    fallen: ChimeraCombatant,
    casualties: str,
    lines: list[Step],
) -> tuple[ChimeraCombatant, ...]:
    """Morale due on ``fallen``'s side: his leader fell, or more than 50 % casualties."""
    out = []
    for c in after:
        if c.side != fallen.side or not c.in_fight or not c.fighter.checks_morale:
            out.append(c)
            continue
        reasons = []
        if fallen.leader and fallen.key != c.key:
            reasons.append("his leader has fallen")

        n, was = _allies_down(before, c)
        _, now = _allies_down(after, c)
        if casualties_over_half(n, now, casualties) and not casualties_over_half(
            n, was, casualties
        ):
            reasons.append(f"{now} of his {n} allies down: more than 50 % casualties")
        if reasons:
            why = " and ".join(reasons)
            lines.append(
                Step(
                    f"{c.name} must check morale: {why} (Resistance vs Morale TN "
                    f"{c.fighter.morale_tn}; RN-CHIM-18)",
                    COMBAT,
                )
            )
            c = replace(c, morale_due=why if not c.morale_due else f"{c.morale_due}; {why}")
        out.append(c)
    return tuple(out)


def resolve_attack(
    enc: ChimeraEncounter,
    attacker: str,
    target: str,
    *,
    hit: bool,
    damage_roll: int = 0,
) -> Change[ChimeraEncounter]:
    """His full action, on his turn ("Actions are resolved on their turn"): an attack made
    at the table (``hit``; the damage dice's total, two dice on a Critical Success). A
    wound of severity damage − Defence (none if 0 or less), its Wound Penalty,
    vanquishing, and the morale checks it calls."""
    _open(enc)
    a, t = find(enc, attacker), find(enc, target)
    if not a.in_fight:
        raise EncounterError("attacker", f"{a.name} is out of the fight ({STATUSES[a.status]}).")
    if a.acted:
        raise EncounterError("attacker", f"{a.name} has taken his one full action this round.")
    if not enc.order:
        raise EncounterError("initiative", "Start the round first: each combatant rolls 1d12.")
    if enc.order[enc.place] != a.key:  # "Actions are resolved on their turn"
        now = find(enc, enc.order[enc.place])
        raise EncounterError("attacker", f"It is {now.name}'s turn, not {a.name}'s.")
    if not t.in_fight:
        raise EncounterError("target", f"{t.name} is out of the fight ({STATUSES[t.status]}).")
    if not whole(damage_roll, 0, 200):
        raise EncounterError("damage_roll", "The damage roll: a whole number from 0 to 200.")
    a2 = replace(a, acted=True, shot=a.shot or a.fighter.kind != "fight")
    verb = a.fighter.verb
    lines = [
        Step(
            f"{a.name}'s full action: {verb} at {t.name}: {'hit' if hit else 'miss'}",
            COMBAT_ACTIONS,
        )
    ]
    people = put_keyed(enc.combatants, a2)
    if not hit:
        return logged(enc, lines, combatants=people)
    severity = damage_roll - t.fighter.defence
    if severity <= 0:
        lines.append(
            Step(
                f"Damage {damage_roll} − Defence {t.fighter.defence} = {severity}: no wound "
                "(a severity of zero or less is ignored)",
                VANQUISHING,
            )
        )
        return logged(enc, lines, combatants=people)
    wounds = t.wounds + 1
    wl = t.fighter.wound_limit
    lines.append(
        Step(
            f"Damage {damage_roll} − Defence {t.fighter.defence}: a wound of severity {severity}; "
            f"{t.name} has {wounds} wound{'s' if wounds != 1 else ''}, WP {wound_penalty(wounds)}",
            VANQUISHING,
        )
    )
    t2 = replace(t, wounds=wounds)
    if is_vanquished(wounds, severity, wl):
        why = f"{wounds} wounds" if wounds > wl else f"severity {severity}"
        lines.append(
            Step(
                f"{why} exceeds {t.name}'s Wound Limit {wl}: vanquished; {a.name} chooses his fate",
                VANQUISHING,
            )
        )
        t2 = replace(t2, status="vanquished", vanquished_by=a.key, morale_due="")
        after = put_keyed(people, t2)
        after = _side_triggers(put_keyed(people, t), after, t2, enc.rules.casualties, lines)
        return logged(enc, lines, combatants=after)
    if t.fighter.checks_morale and wound_triggers_morale(wl, t.wounds, wounds):
        why = f"his Wound Penalty {wounds} is half his Wound Limit {wl}"
        lines.append(Step(f"{t.name} must check morale: {why} (RN-CHIM-10)", COMBAT))
        t2 = replace(t2, morale_due=why)
    return logged(enc, lines, combatants=put_keyed(people, t2))


def morale_check(enc: ChimeraEncounter, key: str, natural: int) -> Change[ChimeraEncounter]:
    """His Resistance Roll against his Morale TN (``natural``: the die as rolled; + his
    Resistance bonus − WP, − 4 bound). Failure: he surrenders or retreats."""
    _open(enc)
    c = find(enc, key)
    if not c.morale_due:
        raise EncounterError("morale", f"{c.name} has no morale check due.")
    count, sides = ACTION_DICE[enc.rules.action_die]
    if not whole(natural, count, count * sides):
        raise EncounterError(
            "morale", f"{c.name}'s {enc.rules.action_die}: {count} to {count * sides}."
        )
    mod = c.fighter.resist_modifier(c.wounds)
    total = natural + mod
    ok = is_success(natural, total, c.fighter.morale_tn, count * sides, enc.rules.critical)
    verdict = "stays in the fight" if ok else "fails: he surrenders or retreats"
    line = Step(
        f"{c.name}'s morale: {enc.rules.action_die} {natural} {mod:+d} = {total} vs Morale TN "
        f"{c.fighter.morale_tn}: {verdict}",
        COMBAT,
    )
    c2 = replace(c, morale_due="", status=FIGHTING if ok else "surrendered")
    lines = [line]
    people = put_keyed(enc.combatants, c2)
    if not ok:
        people = _side_triggers(enc.combatants, people, c2, enc.rules.casualties, lines)
    return logged(enc, lines, combatants=people)


def _resists(
    enc: ChimeraEncounter, c: ChimeraCombatant, natural: int | None, what: str, lines: list[Step]
) -> bool:
    """Whether classed ``c`` Resists ``what`` against TN 12 (``natural``: his die)."""
    count, sides = ACTION_DICE[enc.rules.action_die]
    if natural is None or not whole(natural, count, count * sides):
        raise EncounterError(
            "resist",
            f"{c.name} is classed: he Resists the {what}; give his "
            f"{enc.rules.action_die} ({count} to {count * sides}).",
        )
    mod = c.fighter.resist_modifier(c.wounds)
    total = natural + mod
    ok = is_success(natural, total, KILLER_BLOW_TN, count * sides, enc.rules.critical)
    verdict = "success, Unconscious with a random permanent Flaw" if ok else "he dies"
    lines.append(
        Step(
            f"{c.name} Resists the {what}: {enc.rules.action_die} {natural} {mod:+d} = {total} "
            f"vs TN {KILLER_BLOW_TN}: {verdict}",
            VANQUISHING,
        )
    )
    return ok


def choose_fate(
    enc: ChimeraEncounter, victor: str, foe: str, fate: str, *, resist_natural: int | None = None
) -> Change[ChimeraEncounter]:
    """The victor's choice for the foe he vanquished (:data:`~ruleslab.chimera.wounds.FATES`);
    a classed foe given a Killer Blow Resists it (``resist_natural``: his die as rolled)
    against TN 12 and, if he succeeds, is Unconscious with a random permanent Flaw."""
    c, v = find(enc, foe), find(enc, victor)
    if c.status != "vanquished" or c.vanquished_by != victor:
        raise EncounterError("fate", f"{c.name} is not a foe {v.name} has vanquished.")
    if fate not in FATES:
        raise EncounterError("fate", f"The fate: one of {', '.join(FATES)}.")
    lines = [Step(f"{v.name} chooses for {c.name}: {FATES[fate]}", VANQUISHING)]
    status = {"capture": "captured", "driven_off": "driven_off", "unconscious": "unconscious"}
    flaw = False
    if fate == "killer_blow":
        flaw = c.fighter.classed and _resists(enc, c, resist_natural, "Killer Blow", lines)
        new = "unconscious" if flaw else "dead"
    else:
        new = status[fate]
        if fate == "driven_off":
            lines.append(
                Step(
                    f"{c.name} will not return before {v.fighter.level} turns (the victor's level)",
                    VANQUISHING,
                )
            )
    c2 = replace(c, status=new, flaw=flaw)
    return logged(enc, lines, combatants=put_keyed(enc.combatants, c2))


def coup_de_grace(
    enc: ChimeraEncounter, victor: str, foe: str, *, resist_natural: int | None = None
) -> Change[ChimeraEncounter]:
    """ "Unconscious foes may be dispatched with a coup de grâce as a free action": it takes
    no action of the victor's. A classed foe may Resist it as a Killer Blow or not, as the
    fight's ``coup_de_grace`` reading says (rules note RN-CHIM-23)."""
    c, v = find(enc, foe), find(enc, victor)
    if c.status != "unconscious":
        raise EncounterError("fate", f"{c.name} is not unconscious: no coup de grâce.")
    lines = [
        Step(f"{v.name} dispatches {c.name} with a coup de grâce (a free action)", VANQUISHING)
    ]
    resists = c.fighter.classed and enc.rules.coup_de_grace == "resist"
    if c.fighter.classed and not resists:
        lines.append(Step(f"{c.name} may not Resist it (RN-CHIM-23)", VANQUISHING))
    alive = resists and _resists(enc, c, resist_natural, "coup de grâce", lines)
    c2 = replace(c, flaw=c.flaw or alive) if alive else replace(c, status="dead")
    return logged(enc, lines, combatants=put_keyed(enc.combatants, c2))


def odds(enc: ChimeraEncounter, attacker: str, target: str) -> AttackOdds:
    """The exact odds of his attack now, before it is rolled: his wounds and the target's
    as the fight has left them (:func:`ruleslab.chimera.attack.attack_odds`)."""
    a, t = find(enc, attacker), find(enc, target)
    if a.fighter.kind == "blast":
        raise EncounterError("attacker", f"{a.name} blasts: the defender resists it instead.")
    return attack_odds(a.fighter, t.fighter, a.wounds, t.wounds, enc.rules)


def next_turn(enc: ChimeraEncounter) -> Change[ChimeraEncounter]:
    """The next combatant's turn in this round's order; after the last, the round ends."""
    _open(enc)
    if not enc.order:
        raise EncounterError("initiative", "Start the round first: each combatant rolls 1d12.")
    place = enc.place + 1
    if place >= len(enc.order):
        return end_round(enc)
    c = find(enc, enc.order[place])
    text = f"{c.name}'s turn (initiative {c.initiative})"
    if not c.in_fight:
        text += f": {STATUSES[c.status]}, he does not act"
    return logged(enc, [Step(text, COMBAT_ACTIONS)], place=place)


def end_round(enc: ChimeraEncounter) -> Change[ChimeraEncounter]:
    """The round is over: next round, every combatant rolls initiative again."""
    _open(enc)
    line = Step(
        f"Round {enc.round} is over: the combatants roll again for Initiative", COMBAT_ACTIONS
    )
    people = tuple(replace(c, initiative=None, acted=False) for c in enc.combatants)
    return logged(enc, [line], combatants=people, order=(), place=0)


def end_fight(enc: ChimeraEncounter, cool_down: Mapping[str, bool]) -> Change[ChimeraEncounter]:
    """The fight is over ("when one side no longer poses a threat"): for each combatant
    still standing, the cool-down he spends or the Fatigue roll he must make instead
    (``cool_down[key]``: spent; default his record's), and an Ammo Check if he shot."""
    _open(enc)
    lines = [Step("The fight is over", COMBAT)]
    for c in enc.combatants:
        if not c.in_fight:  # (the vanquished, captured, fled: not "combatants" any more)
            continue
        spent = cool_down.get(c.key, c.fighter.spends_cool_down)
        f = replace(c.fighter, cool_down="spent" if spent else "skipped")
        lines += aftermath_steps(f, ((c.wounds, 1),), enc.rules, fired=c.shot)
    return logged(enc, lines, over=True)
