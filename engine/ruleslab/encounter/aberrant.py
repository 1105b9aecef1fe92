"""An Aberrant 2.0 or 2.1 fight, turn by turn: the encounter record and its changes.

Quick reference › 2.0 Rules › Combat:

    Initiative: Initiative is (Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10).

    Dazing/Stunning: A character is Dazed if he takes (2 * Stamina) HLs of damage
    in a single turn from any combination of sources, and Stunned if he takes (3 *
    Stamina) HLs of damage. Dazed characters are at +1 difficulty to all actions,
    Stunned ones suffer +1 difficulty to all actions and may not take more than a
    single action.

    Stun Damage: … heals at the rate of 1 level per (10 - Stamina) turns, minimum
    1, and goes away at the end of the scene.

Quick reference › 2.1 Rules › Defenses:

    Their Defense score adds to the difficulty of attacks against them, but is
    reduced by 1 for every successful or unsuccessful attack made against them.

Quick reference › 2.1 Rules › Multiple Actions:

    Every additional action past the first adds a cumulative +1 difficulty
    penalty rather than subtracting dice.

A *turn* is the texts' turn: every combatant acts once, in initiative order
(:func:`next_turn` passes to the next one, and after the last ends the turn:
:func:`end_turn`). Every rule comes from the engine's rule modules: the track and
its penalty (:mod:`ruleslab.quickref.health`), the conditions on a roll
(:mod:`ruleslab.quickref.conditions`, :func:`ruleslab.quickref.defence.turn.plan_turn`), the Defense
score (:func:`ruleslab.quickref.defence.defense_score`), a squad's losses
(:func:`ruleslab.alterations.henchmen.squad_losses`), stun healing
(:func:`ruleslab.quickref.health.stun_recovery`), healing time
(:func:`ruleslab.quickref.healing.healing_time`). Readings: rules notes RN-TRACK-1 … RN-TRACK-7.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from random import Random

from ruleslab.alterations.henchmen import HenchmenBonus, henchmen_bonus, squad_losses
from ruleslab.encounter.ammunition import burst_bonus, reload, spend_ammunition
from ruleslab.encounter.combatant import (
    KINDS,
    SIDES,
    Combatant,
    Damage,
    combatant,
    from_entry,
    quick_foe,
    squad,
)
from ruleslab.encounter.log import Change, EncounterError, people_of
from ruleslab.encounter.recovery import heal, time_to_heal
from ruleslab.encounter.state import (
    DAZE_LASTS,
    Encounter,
    current,
    defense_now,
    done,
    find,
    health,
    new_encounter,
    put,
    still_open,
)
from ruleslab.explain import Step
from ruleslab.quickref.conditions import DAZING, MULTIPLE_ACTIONS, STUN_DAMAGE, RollKind, on_roll
from ruleslab.quickref.defence import DEFENSES
from ruleslab.quickref.defence.turn import plan_turn
from ruleslab.quickref.health import (
    HL_20,
    HL_21,
    STATES,
    TRACK,
    stun_recovery,
)
from ruleslab.quickref.initiative import INITIATIVE, initiative_rating
from ruleslab.quickref.mega import effective
from ruleslab.ruleset import V21
from ruleslab.sources import QR, rule

__all__ = [
    "ATTACK_ROLL",
    "COMBAT_20",
    "DAZE_LASTS",
    "SIDES",
    "AttackSetup",
    "Combatant",
    "Damage",
    "Encounter",
    "apply_damage",
    "attack_setup",
    "combatant",
    "current",
    "declare",
    "defense_now",
    "end_scene",
    "end_turn",
    "find",
    "from_entry",
    "heal",
    "health",
    "join",
    "mark_hidden",
    "new_encounter",
    "next_turn",
    "quick_foe",
    "reload",
    "resolve_attack",
    "roll_initiative",
    "seeded_faces",
    "set_initiative",
    "squad",
    "squad_bonus",
    "time_to_heal",
]

NO_DAMAGE = Damage()

ATTACK_ROLL = RollKind("the attack roll", physical="other")
"""An attack: a physical action (not one of movement), as the Autofire calculator's."""

COMBAT_20 = rule(QR, "2.0 Rules", "Combat")


# --- changing it ----------------------------------------------------------------------


def _ordered(enc: Encounter, people: tuple[Combatant, ...]) -> tuple[str, ...]:
    """Highest initiative first; a tie goes to the higher rating (Dex + Wits + Mega),
    then to the order they were added (rules note RN-TRACK-1)."""
    index = {c.key: i for i, c in enumerate(people)}

    def rank(c: Combatant) -> tuple[int, int, int]:
        ch = c.character
        rating = initiative_rating(ch.dexterity, ch.wits, ch.mega_dexterity, ch.mega_wits)
        return (-(c.initiative or 0), -rating, index[c.key])

    return tuple(c.key for c in sorted(people, key=rank))


def _start(enc: Encounter, people: tuple[Combatant, ...], lines: list[Step]) -> Change[Encounter]:
    order = _ordered(enc, people)
    turn = max(enc.turn, 1)
    by_key = {c.key: c for c in people}
    names = ", ".join(f"{by_key[k].name} {by_key[k].initiative}" for k in order)
    lines.append(Step(f"Turn {turn}: the order is {names} (highest first)", INITIATIVE))
    return done(enc, lines, combatants=people, order=order, place=0, turn=turn)


def join(enc: Encounter, newcomer: Combatant) -> Change[Encounter]:
    """``newcomer`` joins the fight before initiative is rolled (his key not already
    used); once the order is set he would have no place in it, so he is refused then."""
    still_open(enc)
    if enc.order:
        raise EncounterError(
            "combatant", f"{newcomer.name} can join only before initiative is rolled."
        )
    people = people_of((*enc.combatants, newcomer))
    line = Step(f"{newcomer.name} joins the fight ({newcomer.side})", INITIATIVE)
    return done(enc, [line], combatants=people)


def mark_hidden(enc: Encounter, key: str, hidden: bool) -> Change[Encounter]:
    """The GM hides ``key`` from the players' view (his name and health), or shows him."""
    c = replace(find(enc, key), hidden=hidden)
    shown = "hidden from" if hidden else "shown in"
    return done(
        enc, [Step(f"{c.name} is {shown} the players' view", INITIATIVE)], combatants=put(enc, c)
    )


def set_initiative(enc: Encounter, totals: Mapping[str, int]) -> Change[Encounter]:
    """Initiative totals entered from the table (every combatant's), and the order."""
    still_open(enc)
    missing = [c.name for c in enc.combatants if c.key not in totals]
    if missing:
        raise EncounterError("initiative", f"Initiative is missing for {', '.join(missing)}.")
    people = []
    for c in enc.combatants:
        total = totals[c.key]
        if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 200:
            raise EncounterError("initiative", f"{c.name}'s initiative: a whole number 0 to 200.")
        people.append(replace(c, initiative=total))
    lines = [Step("Initiative entered from the table's rolls", INITIATIVE)]
    return _start(enc, tuple(people), lines)


def seeded_faces(enc: Encounter, seed: int) -> dict[str, int]:
    """A d10 per combatant (one per group of identical foes, keyed by the group), rolled
    by a generator seeded with ``seed`` (the same seed, the same faces: "Roll it" as the
    calculators do)."""
    rng = Random(seed)
    faces: dict[str, int] = {}
    for c in enc.combatants:
        key = c.group or c.key
        if key not in faces:
            faces[key] = rng.randint(1, 10)
    return faces


def roll_initiative(enc: Encounter, faces: Mapping[str, int]) -> Change[Encounter]:
    """Initiative = Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10, each d10's
    ``faces`` given (the table's dice, or :func:`seeded_faces`); the foes of one
    ``group`` share one d10, given under the group's name (rules note RN-TRACK-11)."""
    still_open(enc)
    lines = []
    totals = {}
    for c in enc.combatants:
        face = faces.get(c.group) if c.group and c.group in faces else faces.get(c.key)
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
            raise EncounterError("initiative", f"{c.name}'s d10 for initiative: 1 to 10.")
        ch = c.character
        rating = initiative_rating(ch.dexterity, ch.wits, ch.mega_dexterity, ch.mega_wits)
        totals[c.key] = rating + face
        lines.append(
            Step(
                f"{c.name}: initiative = Dex + Wits + Mega-Dex + Mega-Wits {rating} + d10 {face} "
                f"= {rating + face}",
                INITIATIVE,
            )
        )
    people = tuple(replace(c, initiative=totals[c.key]) for c in enc.combatants)
    return _start(enc, people, lines)


def _turn_plan(enc: Encounter, c: Combatant) -> tuple[int, tuple[int, ...], tuple[Step, ...]]:
    """(actions allowed, each declared action's multiple-action difficulty, steps)."""
    turn = plan_turn(c.conditions())
    penalties = turn.penalties if enc.ruleset == V21 else (0,) * turn.allowed
    return turn.allowed, penalties, turn.steps


def declare(
    enc: Encounter,
    key: str,
    actions: int,
    *,
    active_defence: bool = False,
    sprinting: bool = False,
) -> Change[Encounter]:
    """He declares his ``actions`` this turn (an active defence among them when
    ``active_defence``), or a sprint. Stunned: a single action (RN-COND-4)."""
    still_open(enc)
    c = find(enc, key)
    if isinstance(actions, bool) or not isinstance(actions, int) or not 1 <= actions <= 10:
        raise EncounterError("actions", f"{c.name}'s actions this turn: 1 to 10.")
    if c.daze == "stunned" and actions > 1:
        raise EncounterError(
            "actions",
            f"{c.name} is Stunned: he 'may not take more than a single action' this turn.",
        )
    if actions < c.acted:
        raise EncounterError("actions", f"{c.name} has already taken {c.acted} actions.")
    nc = replace(c, actions=actions, active_defence=active_defence, sprinting=sprinting)
    _, penalties, steps = _turn_plan(enc, nc)
    lines = [*steps]
    what = f"{actions} action{'s' if actions != 1 else ''}"
    what += ", an active defence among them" if active_defence else ""
    what += ", sprinting" if sprinting else ""
    if enc.ruleset == V21 and actions > 1:
        each = ", ".join(f"+{p}" for p in penalties)
        lines.append(
            Step(
                f"{c.name} declares {what}: each action past the first adds a cumulative +1 "
                f"difficulty: {each} (rules notes RN-COND-3, RN-DEF-7)",
                MULTIPLE_ACTIONS,
            )
        )
    else:
        rule_ = MULTIPLE_ACTIONS if enc.ruleset == V21 else COMBAT_20
        extra = (
            ""
            if enc.ruleset == V21 or actions == 1
            else (
                " (the 2.0 text gives no multiple-action penalty: none added, "
                "rules note RN-TRACK-4)"
            )
        )
        lines.append(Step(f"{c.name} declares {what}{extra}", rule_))
    return done(enc, lines, combatants=put(enc, nc))


@dataclass(frozen=True)
class AttackSetup:
    """What an attack by ``attacker`` on ``target`` is at now: which of his actions it is,
    the difficulty his conditions add (multiple actions, Dazed/Stunned, his load), the
    target's 2.1 Defense, his wound penalty (dice off his pool), the steps; a squad
    leader's henchmen add ``squad_dice`` to his pool and ``squad_damage`` to his damage."""

    action: int
    added_difficulty: int
    defense: int
    wound_penalty: int
    steps: tuple[Step, ...]
    squad_dice: int = 0
    squad_damage: int = 0


def squad_bonus(c: Combatant) -> HenchmenBonus:
    """What a squad leader's henchmen add to his attacks (Combat alterations › Henchmen ›
    Dice Pool, Damage): his Charisma and Command, his henchmen and their pool."""
    ch = c.character
    return henchmen_bonus(
        charisma=ch.charisma,
        command=ch.command,
        henchmen=c.henchmen,
        henchman_pool=c.henchman_pool,
        mega_charisma=ch.mega_charisma,
    )


def attack_setup(enc: Encounter, attacker: str, target: str) -> AttackSetup:
    """The attack's conditions before it is rolled (what the attack calculator is filled
    with); :class:`EncounterError` if he may not make it."""
    a, t = find(enc, attacker), find(enc, target)
    state = health(enc, a)
    if state.state not in ("unhurt", "hurt"):
        raise EncounterError("attacker", f"{a.name} is {STATES[state.state]}: he cannot act.")
    allowed, penalties, _ = _turn_plan(enc, a)
    if a.acted >= allowed:
        why = "Stunned: a single action" if a.daze == "stunned" else "his declared actions"
        if a.sprinting:
            why = "sprinting: no actions but defensive maneuvers"
        raise EncounterError(
            "actions", f"{a.name} has no action left this turn ({why}; {a.acted} taken)."
        )
    mod = on_roll(
        ATTACK_ROLL, a.character, a.conditions(), ruleset=enc.ruleset, count_actions=False
    )
    multiple = penalties[a.acted]
    defense = defense_now(enc, t)
    steps: list[Step] = list(mod.steps)
    if multiple:
        steps.append(
            Step(
                f"{a.name}'s action {a.acted + 1} of {a.actions}: +{multiple} difficulty "
                "(multiple actions, rules note RN-DEF-7)",
                MULTIPLE_ACTIONS,
            )
        )
    if enc.ruleset == V21:
        steps.append(
            Step(
                f"{t.name}'s Defense adds +{defense} to the attack's difficulty "
                f"({t.attacks_against} attack{'s' if t.attacks_against != 1 else ''} against "
                "him so far this turn, each −1)",
                DEFENSES,
            )
        )
    penalty = state.penalty or 0
    if penalty:
        steps.append(Step(f"{a.name}'s wound penalty: −{penalty} dice", TRACK))
    dice = damage = 0
    if a.henchmen:
        bonus = squad_bonus(a)
        dice, damage = bonus.dice, bonus.damage
        steps.extend(Step(f"{a.name}: {s.text}", s.rule) for s in bonus.steps)
    action, added = a.acted + 1, mod.difficulty + multiple
    return AttackSetup(action, added, defense, penalty, tuple(steps), dice, damage)


def resolve_attack(
    enc: Encounter,
    attacker: str,
    target: str,
    *,
    hit: bool,
    damage: Damage = NO_DAMAGE,
    area: int = 1,
    burst: str = "",
    burst_use: str = "accuracy",
    rounds: int = 0,
) -> Change[Encounter]:
    """An attack made and resolved at the table: it takes one of the attacker's actions,
    made in his place in the initiative order, wears the target's 2.1 Defense down by 1
    "for every successful or unsuccessful attack", and puts ``damage`` (levels after
    soak) on the target if it ``hit``. The ammunition it used is counted down: an autofire
    ``burst`` (a key of ``BURSTS``: its shots, its bonus put to ``burst_use``) or ``rounds``."""
    still_open(enc)
    bonus = burst_bonus(burst, burst_use, enc.burst_damage)
    setup = attack_setup(enc, attacker, target)
    a, t = find(enc, attacker), find(enc, target)
    now = current(enc)
    if now is None or now.key != a.key:  # (rules note RN-TRACK-1)
        whose = f"It is {now.name}'s action" if now else "Roll or enter initiative first"
        raise EncounterError("attacker", f"{whose}, not {a.name}'s.")
    spent, ammo_lines = spend_ammunition(a, burst, rounds)
    if a.ammo is not None:
        a = replace(a, ammo=a.ammo - spent)
    verdict = "hits" if hit else "misses"
    defense = f", Defense +{setup.defense}" if enc.ruleset == V21 else ""
    lines = [
        *ammo_lines,
        *bonus.steps,
        *setup.steps,
        Step(
            f"{a.name} attacks {t.name} (action {setup.action}, +{setup.added_difficulty} "
            f"difficulty from his conditions{defense}): {verdict}",
            DEFENSES if enc.ruleset == V21 else COMBAT_20,
        ),
    ]
    a2 = replace(a, acted=a.acted + 1)
    t2 = replace(t, attacks_against=t.attacks_against + 1) if a.key != t.key else a2
    if enc.ruleset == V21:
        worn = defense_now(enc, t2)
        lines.append(
            Step(f"{t.name}'s Defense is worn down to +{worn} for the next attack", DEFENSES)
        )
    people = put(enc, a2, t2) if a.key != t.key else put(enc, a2)
    mid = replace(enc, combatants=people)
    if hit and damage.total:
        after = apply_damage(mid, target, damage, area=area)
        return done(enc, [*lines, *after.lines], combatants=after.encounter.combatants)
    return done(enc, lines, combatants=people)


def _daze_after(enc: Encounter, c: Combatant, lines: list[Step]) -> Combatant:
    eff = effective("Stamina", c.character.stamina, c.character.mega_stamina).value
    dazed_at, stunned_at = 2 * eff, 3 * eff
    taken = c.taken_this_turn
    new = "stunned" if taken >= stunned_at else "dazed" if taken >= dazed_at else "none"
    until = enc.turn + (1 if enc.daze_lasts == "next_turn" else 0)
    rank = {"none": 0, "dazed": 1, "stunned": 2}
    if new == "none" or (rank[new] <= rank[c.daze] and c.daze_until >= until):
        return c
    state = "Stunned" if new == "stunned" else "Dazed"
    at = stunned_at if new == "stunned" else dazed_at
    what = (
        "+1 difficulty to all actions and a single action"
        if new == "stunned"
        else "+1 difficulty to all actions"
    )
    lasts = "through the next turn" if enc.daze_lasts == "next_turn" else "until the turn ends"
    lines.append(
        Step(
            f"{c.name} has taken {taken} levels this turn, at least {at} "
            f"({'3' if new == 'stunned' else '2'} × Stamina {eff}): {state}, {what}, "
            f"{lasts} (rules notes RN-DMG-6, RN-TRACK-2)",
            DAZING,
        )
    )
    stronger = new if rank[new] >= rank[c.daze] else c.daze  # (RN-TRACK-2)
    return replace(c, daze=stronger, daze_until=max(until, c.daze_until))


def _squad_hit(
    c: Combatant, damage: Damage, area: int, lines: list[Step]
) -> tuple[Combatant, Damage]:
    """The henchmen take the points first, the worst kinds first; the leader what is left
    once none is left to screen him (rules note RN-TRACK-5)."""
    loss = squad_losses(damage=damage.total, henchmen=c.henchmen, training=c.training, area=area)
    lines.extend(Step(f"{c.name}: {s.text}", s.rule) for s in loss.steps)
    left = loss.overflow_to_leader
    counts = {}
    for kind in reversed(KINDS):  # the henchmen took the worst points: the leader the rest
        take = min(getattr(damage, kind), left)
        counts[kind] = take
        left -= take
    return replace(c, henchmen=loss.remaining), Damage(**counts)


def apply_damage(enc: Encounter, key: str, damage: Damage, *, area: int = 1) -> Change[Encounter]:
    """Levels of damage (after soak) put on his track: the wound penalty and state follow
    from the track; the levels count towards Dazed and Stunned this turn; a squad's
    henchmen take them first (``area``: the area multiplier on a squad)."""
    still_open(enc)
    c = find(enc, key)
    before = health(enc, c)
    lines: list[Step] = []
    taken = damage
    if c.henchmen:
        c, taken = _squad_hit(c, damage, area, lines)
        if not taken.total:
            return done(enc, lines, combatants=put(enc, c))
    d = c.damage
    total = Damage(
        bashing=min(200, d.bashing + taken.bashing),
        lethal=min(200, d.lethal + taken.lethal),
        aggravated=min(200, d.aggravated + taken.aggravated),
        stun=min(200, d.stun + taken.stun),
    )
    c = replace(c, damage=total, taken_this_turn=c.taken_this_turn + taken.total)
    after = health(enc, c)
    hl = HL_21 if enc.ruleset == V21 else HL_20
    lines.append(Step(f"{c.name} takes {taken.text()}: {c.taken_this_turn} levels this turn", hl))
    if after.state != before.state or after.penalty != before.penalty:
        lines.extend(Step(f"{c.name}: {s.text}", s.rule) for s in after.steps[-1:])
    c = _daze_after(enc, c, lines)
    return done(enc, lines, combatants=put(enc, c))


def next_turn(enc: Encounter) -> Change[Encounter]:
    """The next combatant's action; after the last one, the turn ends (:func:`end_turn`)."""
    still_open(enc)
    if not enc.order:
        raise EncounterError("initiative", "Roll or enter initiative first.")
    place = enc.place + 1
    if place >= len(enc.order):
        return end_turn(enc)
    c = find(enc, enc.order[place])
    state = health(enc, c)
    rule_ = INITIATIVE
    text = f"{c.name}'s action (initiative {c.initiative})"
    if state.state not in ("unhurt", "hurt"):
        text += f": {STATES[state.state]}, he cannot act"
        rule_ = TRACK
    return done(enc, [Step(text, rule_)], place=place)


def _stun_tick(c: Combatant, lines: list[Step]) -> Combatant:
    if not c.damage.stun:
        return replace(c, stun_clock=0)
    turns, _ = stun_recovery(c.character.stamina, c.character.mega_stamina)
    clock = c.stun_clock + 1
    if clock < turns:
        return replace(c, stun_clock=clock)
    d = c.damage
    lines.append(
        Step(
            f"{c.name}: {clock} turns with stun damage: 1 level heals (1 per (10 − Stamina) "
            f"= {turns} turns; rules note RN-TRACK-3); {d.stun - 1} left",
            STUN_DAMAGE,
        )
    )
    return replace(c, damage=replace(d, stun=d.stun - 1), stun_clock=0)


def end_turn(enc: Encounter) -> Change[Encounter]:
    """The turn ends: each Defense is restored, declared actions and the levels taken
    this turn start again, a daze that held through this turn is gone, and stun heals
    1 level per (10 − Stamina) turns."""
    still_open(enc)
    lines = [Step(f"Turn {enc.turn} ends", INITIATIVE)]
    people = []
    for c in enc.combatants:
        if enc.ruleset == V21 and c.attacks_against:
            lines.append(
                Step(
                    f"{c.name}'s Defense is restored for the next turn ({c.attacks_against} "
                    "attacks wore it down this turn; rules note RN-TRACK-6)",
                    DEFENSES,
                )
            )
        daze, until = c.daze, c.daze_until
        if daze != "none" and until <= enc.turn:
            lines.append(Step(f"{c.name} is no longer {daze.capitalize()}", DAZING))
            daze, until = "none", 0
        c = replace(
            c,
            attacks_against=0,
            acted=0,
            actions=1,
            active_defence=False,
            sprinting=False,
            taken_this_turn=0,
            daze=daze,
            daze_until=until,
            initiative=None if enc.initiative_each_turn else c.initiative,
        )
        people.append(_stun_tick(c, lines))
    order = () if enc.initiative_each_turn else enc.order
    if enc.initiative_each_turn:
        lines.append(Step("Initiative is rolled again for the next turn (RN-TRACK-1)", INITIATIVE))
    elif order:
        first = find(replace(enc, combatants=tuple(people)), order[0])
        lines.append(Step(f"Turn {enc.turn + 1}: {first.name} acts first", INITIATIVE))
    return done(enc, lines, combatants=tuple(people), turn=enc.turn + 1, place=0, order=order)


def end_scene(enc: Encounter) -> Change[Encounter]:
    """The scene ends: stun damage "goes away at the end of the scene", and every daze."""
    still_open(enc)
    lines = []
    people = []
    for c in enc.combatants:
        if c.damage.stun:
            lines.append(
                Step(
                    f"{c.name}: the scene has ended, his {c.damage.stun} stun levels go away "
                    "(rules note RN-COND-4)",
                    STUN_DAMAGE,
                )
            )
        people.append(
            replace(
                c,
                damage=replace(c.damage, stun=0),
                stun_clock=0,
                daze="none",
                daze_until=0,
                taken_this_turn=0,
                attacks_against=0,
            )
        )
    lines.append(Step("The scene is over", STUN_DAMAGE))
    return done(enc, lines, combatants=tuple(people), scene_over=True)
