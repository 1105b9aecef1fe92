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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from random import Random

from ruleslab.chimera.action import ACTION_DICE, is_critical, is_success
from ruleslab.chimera.aftermath import aftermath_steps
from ruleslab.chimera.attack import AttackOdds, defence_against
from ruleslab.chimera.blast import blast_defence, blow_odds
from ruleslab.chimera.morale import casualties_over_half, wound_triggers_morale
from ruleslab.chimera.sections import ATTACK_TN, COMBAT, COMBAT_ACTIONS, VANQUISHING
from ruleslab.chimera.surprise import SURPRISE_AR_BONUS
from ruleslab.chimera.wounds import FATES, KILLER_BLOW_TN, is_vanquished, wound_penalty
from ruleslab.encounter.chimera_state import (
    DEFAULT_RULES,
    FIGHTING,
    STATUSES,
    ChimeraCombatant,
    ChimeraEncounter,
    fighter,
    fighter_from_entry,
    find,
    new_chimera,
    roll_penalty,
    still_open,
)
from ruleslab.encounter.log import (
    Change,
    EncounterError,
    logged,
    put_keyed,
    whole,
)
from ruleslab.explain import Step

__all__ = [
    "DEFAULT_RULES",
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
    "find",
    "morale_check",
    "new_chimera",
    "next_turn",
    "odds",
    "resolve_attack",
    "resolve_blast",
    "seeded_d12",
    "start_round",
    "surprise",
]

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
    still_open(enc)
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
        pen = roll_penalty(c)
        total = face + im - pen
        less = (
            f" − {pen} (WP {c.wounds}{', bound −4' if c.fighter.is_bound else ''})" if pen else ""
        )
        lines.append(
            Step(f"{c.name}: 1d12 {face} + IM {im:+d}{less} = {total} (RN-CHIM-8)", COMBAT_ACTIONS)
        )
        people.append(replace(c, im=im, initiative=total, acted=False))
    order = _order(enc, tuple(people), tie_rolls or {}, lines)
    if enc.first in order:
        order = (enc.first, *(k for k in order if k != enc.first))
        who = find(enc, enc.first).name
        lines.append(Step(f"{who} surprised his foes: he acts first (RN-CHIM-11)", COMBAT))
    names = ", ".join(f"{c.name} {c.initiative}" for k in order for c in people if c.key == k)
    lines.append(Step(f"Order: {names} (highest first)", COMBAT_ACTIONS))
    return logged(enc, lines, combatants=tuple(people), round=rnd, order=order, place=0, first="")


def surprise(
    enc: ChimeraEncounter,
    sneak: str,
    natural: int,
    *,
    sneak_bonus: int,
    surprise_tn: int,
    benefit: str = "action",
) -> Change[ChimeraEncounter]:
    """Before the first round, ``sneak``'s Sneak roll (his die as rolled + ``sneak_bonus``
    − WP) against his foes' Surprise TN. Success: the ``benefit`` he chooses, "a full
    combat action before your foe can respond" (``action``: a surprise round in which
    only he acts, or he acts first in round 1, as the ``surprise_action`` reading says,
    RN-CHIM-11) or "AR +2 to whatever action you perform on the first round" (``ar``);
    a Critical Success gives both unless the GM declines (RN-CHIM-12)."""
    still_open(enc)
    if enc.round or enc.order:
        raise EncounterError("surprise", "Surprise comes before the fight's first round.")
    if benefit not in ("action", "ar"):
        raise EncounterError("benefit", "The benefit: action (act first) or ar (AR +2).")
    if not whole(sneak_bonus, -10, 20) or not whole(surprise_tn, 1, 40):
        raise EncounterError("surprise", "The Sneak bonus: −10 to 20; the Surprise TN: 1 to 40.")
    c = find(enc, sneak)
    count, sides = ACTION_DICE[enc.rules.action_die]
    if not whole(natural, count, count * sides):
        raise EncounterError("surprise", f"The Sneak roll's die: {count} to {count * sides}.")
    mod = sneak_bonus - roll_penalty(c)
    total = natural + mod
    ok = is_success(natural, total, surprise_tn, count * sides, enc.rules.critical)
    crit = ok and is_critical(natural, total, surprise_tn, count * sides, enc.rules.critical)
    verdict = "Critical Success" if crit else "success" if ok else "failure: an ordinary fight"
    die = enc.rules.action_die
    lines = [
        Step(
            f"{c.name}'s Sneak roll: {die} {natural} {mod:+d} = {total} vs Surprise TN "
            f"{surprise_tn}: {verdict}",
            COMBAT,
        )
    ]
    if not ok:
        return logged(enc, lines)
    both = crit and enc.rules.surprise_critical == "both"
    changes: dict[str, object] = {}
    if benefit == "action" or both:
        if enc.rules.surprise_action == "extra":
            lines.append(Step(f"A surprise round: only {c.name} acts (RN-CHIM-11)", COMBAT))
            changes.update(order=(c.key,), place=0)
        else:
            lines.append(Step(f"{c.name} will act first in round 1 (RN-CHIM-11)", COMBAT))
            changes.update(first=c.key)
    if benefit == "ar" or both:
        why = " (a Critical Success: both benefits, RN-CHIM-12)" if both else ""
        lines.append(Step(f"AR +{SURPRISE_AR_BONUS} on {c.name}'s first action{why}", COMBAT))
        c = replace(c, ar_bonus=SURPRISE_AR_BONUS)
    return logged(enc, lines, combatants=put_keyed(enc.combatants, c), **changes)


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


def _full_action(enc: ChimeraEncounter, attacker: str) -> ChimeraCombatant:
    """The attacker, if this is his turn and his one full action is still his to take."""
    still_open(enc)
    a = find(enc, attacker)
    if not a.in_fight:
        raise EncounterError("attacker", f"{a.name} is out of the fight ({STATUSES[a.status]}).")
    if a.acted:
        raise EncounterError("attacker", f"{a.name} has taken his one full action this round.")
    if not enc.order:
        raise EncounterError("initiative", "Start the round first: each combatant rolls 1d12.")
    if enc.order[enc.place] != a.key:  # "Actions are resolved on their turn"
        now = find(enc, enc.order[enc.place])
        raise EncounterError("attacker", f"It is {now.name}'s turn, not {a.name}'s.")
    return a


def _target(enc: ChimeraEncounter, target: str) -> ChimeraCombatant:
    t = find(enc, target)
    if not t.in_fight:
        raise EncounterError("target", f"{t.name} is out of the fight ({STATUSES[t.status]}).")
    return t


def _wound(
    enc: ChimeraEncounter,
    people: tuple[ChimeraCombatant, ...],
    a: ChimeraCombatant,
    target: str,
    damage_roll: int,
    lines: list[Step],
) -> tuple[ChimeraCombatant, ...]:
    """A blow of ``a``'s of ``damage_roll`` on ``target`` among ``people``: a wound of
    severity damage − Defence (his Defence against that blow: with Parry and Cover in it
    under ``parry_cover == "defence"``, RN-CHIM-6; none if 0 or less), its Wound Penalty,
    vanquishing, and the morale checks it calls."""
    t = next(p for p in people if p.key == target)
    if a.fighter.kind == "blast":
        df = blast_defence(t.fighter, enc.rules)
    else:
        df = defence_against(t.fighter, a.fighter.kind, t.wounds, enc.rules)[1]
    severity = damage_roll - df
    if severity <= 0:
        lines.append(
            Step(
                f"Damage {damage_roll} − Defence {df} = {severity}: "
                "no wound (a severity of zero or less is ignored)",
                VANQUISHING,
            )
        )
        return people
    wounds = t.wounds + 1
    wl = t.fighter.wound_limit
    lines.append(
        Step(
            f"Damage {damage_roll} − Defence {df}: a wound of severity {severity}; "
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
        return _side_triggers(put_keyed(people, t), after, t2, enc.rules.casualties, lines)
    if t.fighter.checks_morale and wound_triggers_morale(wl, t.wounds, wounds):
        why = f"his Wound Penalty {wounds} is half his Wound Limit {wl}"
        lines.append(Step(f"{t.name} must check morale: {why} (RN-CHIM-10)", COMBAT))
        t2 = replace(t2, morale_due=why)
    return put_keyed(people, t2)


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
    a = _full_action(enc, attacker)
    t = _target(enc, target)
    if not whole(damage_roll, 0, 200):
        raise EncounterError("damage_roll", "The damage roll: a whole number from 0 to 200.")
    a2 = replace(a, acted=True, shot=a.shot or a.fighter.kind != "fight", ar_bonus=0)
    verb = a.fighter.verb
    ar = f" (AR {a.ar_bonus:+d} from surprise)" if a.ar_bonus else ""
    lines = [
        Step(
            f"{a.name}'s full action: {verb} at {t.name}{ar}: {'hit' if hit else 'miss'}",
            COMBAT_ACTIONS,
        )
    ]
    people = put_keyed(enc.combatants, a2)
    if hit:
        people = _wound(enc, people, a2, t.key, damage_roll, lines)
    return logged(enc, lines, combatants=people)


def resolve_blast(
    enc: ChimeraEncounter, attacker: str, taken: Mapping[str, int]
) -> Change[ChimeraEncounter]:
    """His full action, on his turn: a blast at everyone in its area (the keys of
    ``taken``), each having made his Resistance Roll at the table; ``taken[key]`` the
    damage he takes (0: it missed him or he avoided it; halved already if he halved it).
    Each is a blow of its own: a wound of severity damage − Defence, vanquishing, the
    morale checks (rules notes RN-CHIM-7, RN-TRACK-16)."""
    a = _full_action(enc, attacker)
    if a.fighter.kind != "blast":
        raise EncounterError("attacker", f"{a.name} does not blast: he {a.fighter.verb}s.")
    if not taken:
        raise EncounterError("target", "The blast's area: at least one fighter in it.")
    caught = [_target(enc, key) for key in taken]
    for key, value in taken.items():
        if not whole(value, 0, 200):
            name = find(enc, key).name
            raise EncounterError("damage_roll", f"Damage to {name}: a whole number from 0 to 200.")
    a2 = replace(a, acted=True, shot=True, ar_bonus=0)
    names = ", ".join(t.name for t in caught)
    lines = [Step(f"{a.name}'s full action: Blasts {names}", COMBAT_ACTIONS)]
    people = put_keyed(enc.combatants, a2)
    for t in caught:
        if not taken[t.key]:
            lines.append(Step(f"{t.name} takes no damage from the blast", ATTACK_TN))
            continue
        people = _wound(enc, people, a2, t.key, taken[t.key], lines)
    return logged(enc, lines, combatants=people)


def morale_check(enc: ChimeraEncounter, key: str, natural: int) -> Change[ChimeraEncounter]:
    """His Resistance Roll against his Morale TN (``natural``: the die as rolled; + his
    Resistance bonus − WP, − 4 bound). Failure: he surrenders or retreats."""
    still_open(enc)
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
    return blow_odds(a.fighter, t.fighter, a.wounds, t.wounds, enc.rules, a.ar_bonus)


def next_turn(enc: ChimeraEncounter) -> Change[ChimeraEncounter]:
    """The next combatant's turn in this round's order; after the last, the round ends."""
    still_open(enc)
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
    still_open(enc)
    which = f"Round {enc.round}" if enc.round else "The surprise round"
    line = Step(f"{which} is over: the combatants roll again for Initiative", COMBAT_ACTIONS)
    keep_ar = enc.round == 0  # (a surprise round: the AR +2 is for the first round)
    people = tuple(
        replace(c, initiative=None, acted=False, ar_bonus=c.ar_bonus if keep_ar else 0)
        for c in enc.combatants
    )
    return logged(enc, [line], combatants=people, order=(), place=0)


def end_fight(enc: ChimeraEncounter, cool_down: Mapping[str, bool]) -> Change[ChimeraEncounter]:
    """The fight is over ("when one side no longer poses a threat"): for each combatant
    still standing, the cool-down he spends or the Fatigue roll he must make instead
    (``cool_down[key]``: spent; default his record's), and an Ammo Check if he shot."""
    still_open(enc)
    lines = [Step("The fight is over", COMBAT)]
    for c in enc.combatants:
        if not c.in_fight:  # (the vanquished, captured, fled: not "combatants" any more)
            continue
        spent = cool_down.get(c.key, c.fighter.spends_cool_down)
        f = replace(c.fighter, cool_down="spent" if spent else "skipped")
        lines += aftermath_steps(f, ((c.wounds, 1),), enc.rules, fired=c.shot)
    return logged(enc, lines, over=True)
