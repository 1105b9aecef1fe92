"""Playing a duel out with seeded dice: every roll logged, the same rules as the exact chain.

The chain (:mod:`ruleslab.chimera.duel`) and this table apply the same rules side by
side, so that a played fight rolls what the odds compute: initiative each round, one
full action and any free actions per turn (readying an item, walking, running or
creeping to close the distance, dropping prone, getting up; rules notes RN-CHIM-19
to RN-CHIM-22), the blow (a Fight or Shoot roll against the TN, or a blast the
defender resists, RN-CHIM-7), the wound, vanquishing and morale.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ruleslab.chimera.action import ACTION_DICE, is_critical, is_success
from ruleslab.chimera.attack import Fighter, FightRules, defence_against, roll_modifier
from ruleslab.chimera.blast import blast_bonus, blast_defence
from ruleslab.chimera.initiative import INITIATIVE_DIE
from ruleslab.chimera.morale import side_morale_trigger, wound_triggers_morale
from ruleslab.chimera.plan import Plan, SurprisePlan, check_distance, check_wounds, has_first_turn
from ruleslab.chimera.surprise import SURPRISE_AR_BONUS
from ruleslab.chimera.wounds import KILLER_BLOW_TN, is_vanquished

__all__ = ["Played", "action_roll", "blast_at", "fate_roll", "play", "rolled_damage"]


@dataclass(frozen=True)
class Played:
    """A played fight: how it ended (``v0 v1 m0 m1 draw break``, or ``None`` if both still
    stand), the rounds played and both combatants' wounds at that moment."""

    end: str | None
    rounds: int
    wounds: tuple[int, int]


def _roll_dice(rng: random.Random, count: int, sides: int) -> list[int]:
    return [rng.randint(1, sides) for _ in range(count)]


def action_roll(
    rng: random.Random, rules: FightRules, modifier: int, tn: int
) -> tuple[list[int], int, bool, bool]:
    """An Action Roll (``rules.action_die`` + ``modifier``) against ``tn``: the faces, the
    total, whether it succeeds and whether it is a Critical Success."""
    count, sides = ACTION_DICE[rules.action_die]
    faces = _roll_dice(rng, count, sides)
    natural = sum(faces)
    total = natural + modifier
    top = count * sides
    ok = is_success(natural, total, tn, top, rules.critical)
    crit = ok and is_critical(natural, total, tn, top, rules.critical)
    return faces, total, ok, crit


def rolled_damage(
    rng: random.Random, rules: FightRules, att: Fighter, crit: bool
) -> tuple[int, str]:
    """``att``'s damage roll (2 dice on a Critical Success, as ``rules.critical_damage``
    reads it, RN-CHIM-3) and how it was rolled, in words."""
    dmg = att.dice
    if crit and rules.critical_damage == "sum":
        dice_ = _roll_dice(rng, 2 * dmg.count, dmg.sides)
        value = sum(dice_) + dmg.bonus
        how = f"{dmg.doubled_text('sum')}: {'+'.join(map(str, dice_))}"
    elif crit:
        one = _roll_dice(rng, dmg.count, dmg.sides)
        two = _roll_dice(rng, dmg.count, dmg.sides)
        value = max(sum(one), sum(two)) + dmg.bonus
        how = f"the higher of {sum(one)} and {sum(two)}"
    else:
        dice_ = _roll_dice(rng, dmg.count, dmg.sides)
        value = sum(dice_) + dmg.bonus
        how = f"{dmg}: {'+'.join(map(str, dice_))}"
    if dmg.bonus:
        how += f" {dmg.bonus:+d}"
    return value, how


def blast_at(
    rng: random.Random,
    rules: FightRules,
    att: Fighter,
    dfd: Fighter,
    wounds: tuple[int, int],
    ar: int,
    damage: Callable[[Fighter, bool], tuple[int, str]],
) -> tuple[int | None, int, str]:
    """One blast of ``att`` on ``dfd`` (their ``wounds``; ``att``'s AR bonus ``ar``), rolled
    with ``rng`` (rules note RN-CHIM-7): the roll to land it (``blast_roll == "hit"``), his
    Resistance Roll with the blast bonus against the Blast TN, and ``damage(att, crit)``
    (the damage roll) if he fails, or halves it (``blast_resisted == "halves"``). Returns
    the damage he takes (``None``: the blast missed him or he avoided it), his Defence
    against it and the rolls in words."""
    crit = False
    if rules.blast_roll == "hit":
        modifier, _ = roll_modifier(att, wounds[0], ar)
        tn = dfd.adjusted_mr(wounds[1])
        faces, total, ok, crit = action_roll(rng, rules, modifier, tn)
        roll = "+".join(map(str, faces))
        head = f"{att.name} {att.verb}s: {roll} {modifier:+d} = {total} vs TN {tn}"
        if not ok:
            return None, dfd.defence, f"{head}: the blast misses {dfd.name}"
        head += ": CRITICAL, lands" if crit else ": lands"
    else:
        head = f"{att.name} Blasts: it catches {dfd.name} (no roll to hit)"
    bonus, bonus_text = blast_bonus(dfd, rules)
    in_roll = rules.parry_cover == "tn"
    mod = dfd.resist_modifier(wounds[1]) + (bonus if in_roll else 0)
    faces, total, resisted, _ = action_roll(rng, rules, mod, att.blast_tn)
    res = (
        f"; {dfd.name} resists {'+'.join(map(str, faces))} {mod:+d} = {total} vs Blast TN "
        f"{att.blast_tn}" + (f" (with {bonus_text})" if bonus_text and in_roll else "")
    )
    halves = rules.blast_resisted == "halves"
    df = blast_defence(dfd, rules)
    if resisted and not halves:
        return None, df, f"{head}{res}: avoids it"
    value, how = damage(att, crit)
    text = f"{head}{res}: " + ("halves it" if resisted else "fails") + f"; damage {how}"
    if resisted:
        text += f" = {value}, halved = {value // 2}"
        value //= 2
    else:
        text += f" = {value}"
    return value, df, text


class _Table:
    """Plays a duel with real dice, following the same rules, and logs each roll."""

    def __init__(
        self,
        a: Fighter,
        b: Fighter,
        rules: FightRules,
        rng: random.Random,
        say: Callable[[str], None],
        distance: int = 0,
    ) -> None:
        self.given = (a, b)
        self.f = (a.settled(), b.settled())
        self.early = (a.unsettled(), b.unsettled())
        self.first = (has_first_turn(a), has_first_turn(b))
        self.rules = rules
        self.rng = rng
        self.say = say
        self.w = [a.wounds, b.wounds]
        self.acted = [not self.first[0], not self.first[1]]
        self.gap = distance if (a.melee or b.melee) else 0

    def action(self, modifier: int, tn: int) -> tuple[list[int], int, bool, bool]:
        return action_roll(self.rng, self.rules, modifier, tn)

    def to_hit(self, x: int, ar: int, live: list[int], tn: int) -> tuple[str, bool, bool]:
        """``x``'s Fight, Shoot or Blast roll against ``tn`` (bonus − WP − 4 if bound + AR):
        the head of its line, whether it succeeds and whether it is a Critical Success."""
        att = self.f[x]
        modifier, _ = roll_modifier(att, live[x], ar)
        faces, total, ok, crit = self.action(modifier, tn)
        roll = "+".join(map(str, faces))
        return f"{att.name} {att.verb}s: {roll} {modifier:+d} = {total} vs TN {tn}", ok, crit

    def morale(self, f: Fighter, wounds: int) -> tuple[str, bool]:
        """``f``'s morale check at ``wounds`` wounds, a Resistance Roll (− WP, − 4 if bound)
        against his Morale TN: the roll and its verdict in words, and whether he holds."""
        mod = f.resist_modifier(wounds)
        faces, total, ok, _ = self.action(mod, f.morale_tn)
        verdict = "holds" if ok else "FAILS: surrenders or retreats"
        roll = f"{'+'.join(map(str, faces))} {mod:+d} = {total} vs Morale TN {f.morale_tn}"
        return f"{roll}: {verdict}", ok

    def damage(self, att: Fighter, crit: bool) -> tuple[int, str]:
        """The damage roll (2 dice on a Critical Success) and how it was rolled, in words."""
        return rolled_damage(self.rng, self.rules, att, crit)

    def attack(self, x: int, ar: int, live: list[int], dfd: Fighter) -> str:
        """One Fight or Shoot blow on ``dfd``; wounds go to ``live``. Returns the effect."""
        att = self.f[x]
        if att.kind == "blast":
            return self.blast(x, ar, live, dfd)
        tn, df, _, _ = defence_against(dfd, att.kind, live[1 - x], self.rules)
        head, ok, crit = self.to_hit(x, ar, live, tn)
        if not ok:
            self.say(f"{head}: miss")
            return "none"
        value, how = self.damage(att, crit)
        hit = "CRITICAL hit" if crit else "hit"
        return self.wound(x, dfd, live, f"{head}: {hit}; damage {how} = {value}", value, df)

    def blast(self, x: int, ar: int, live: list[int], dfd: Fighter) -> str:
        """One blast on ``dfd`` (:func:`blast_at`); a wound goes to ``live``."""
        att = self.f[x]
        value, df, text = blast_at(
            self.rng, self.rules, att, dfd, (live[x], live[1 - x]), ar, self.damage
        )
        if value is None:
            self.say(text)
            return "none"
        return self.wound(x, dfd, live, text, value, df)

    def wound(self, x: int, dfd: Fighter, live: list[int], text: str, value: int, df: int) -> str:
        """The wound of a blow dealing ``value`` against Defence ``df``; vanquishing, morale."""
        y = 1 - x
        sev = value - df
        if sev <= 0:
            self.say(f"{text} − DF {df}: no wound")
            return "none"
        live[y] += 1
        text = (
            f"{text} − DF {df} = severity {sev}: "
            f"{dfd.name} has {live[y]} wound{'s' if live[y] != 1 else ''} (WL {dfd.wound_limit})"
        )
        if is_vanquished(live[y], sev, dfd.wound_limit):
            self.say(f"{text}: VANQUISHED")
            return "vanq"
        self.say(text)
        if dfd.checks_morale and wound_triggers_morale(dfd.wound_limit, live[y] - 1, live[y]):
            roll, ok = self.morale(dfd, live[y])
            self.say(f"{dfd.name}'s Wound Penalty reaches half his WL: morale {roll}")
            if not ok:
                return "rout"
        return "wound"

    def turn(
        self, x: int, ar: int, live: list[int], gap: int, acted: list[bool]
    ) -> tuple[str, int]:
        """``x``'s turn: his free actions and his one full action (rules note RN-CHIM-19).
        Returns the effect on his foe and the distance after it."""
        f, given, y = self.f[x], self.given[x], 1 - x
        foe = self.f[y].name
        first = not acted[x]
        getting_up = first and given.position == "gets_up"
        if first and given.position == "drops_prone":
            self.say(f"{f.name} drops prone (a free action): +2 cover vs Shoot and Blast from now")
        if getting_up:
            self.say(
                f"{f.name} gets up (a free action; it costs his Encumbrance {f.encumbrance} "
                "in MR this round)"
            )
        dfd = (self.early if (not acted[y] and self.first[y]) else self.f)[y]
        readies = first and f.plan == "ready"
        if gap == 0 or not f.melee:
            if readies:
                self.say(f"{f.name} readies an item: his full action (no attack this round)")
                return "none", gap
            return self.attack(x, ar, live, dfd), gap
        mr = max(0, f.adjusted_mr(live[x]) - (f.encumbrance if getting_up else 0))
        walks = f.position_after == "standing"
        if readies:
            after = max(0, gap - mr) if walks else gap
            moved = f" and walks {gap - after} towards {foe} (free)" if after != gap else ""
            self.say(f"{f.name} readies an item (his full action){moved}: distance {after}")
            return "none", after
        if walks and gap <= mr:
            self.say(f"{f.name} walks {gap} to {foe} (a free action: his MR is {mr}) and attacks")
            return self.attack(x, ar, live, dfd), 0
        sides = f.movement_sides
        k = self.rng.randint(1, sides)
        if walks:
            d = mr + k
            how = f"runs MR {mr} + d{sides} ({k}) = {d}"
        else:
            d = max(0, mr - k)
            how = f"creeps MR {mr} − d{sides} ({k}) = {d}" + (" (not below 0)" if mr < k else "")
        after = max(0, gap - d)
        self.say(f"{f.name} {how} towards {foe} (his full action): distance {gap} → {after}")
        return "none", after

    def order(self) -> int | None:
        """Roll initiative: the side acting first, or None for simultaneous."""
        a, b = self.f
        while True:
            ra = self.rng.randint(1, INITIATIVE_DIE)
            rb = self.rng.randint(1, INITIATIVE_DIE)
            ma = a.initiative - self.w[0] - a.bound_penalty
            mb = b.initiative - self.w[1] - b.bound_penalty
            ia, ib = ra + ma, rb + mb
            self.say(f"Initiative: {a.name} {ra} {ma:+d} = {ia}, {b.name} {rb} {mb:+d} = {ib}")
            if ia != ib:
                return 0 if ia > ib else 1
            if self.rules.ties == "simultaneous":
                self.say("Tie: both act at once")
                return None
            self.say("Tie: roll again")

    def act(self, x: int, ar: int) -> str:
        """``x``'s turn on the live fight (wounds, distance)."""
        effect, self.gap = self.turn(x, ar, self.w, self.gap, self.acted)
        self.acted[x] = True
        return effect

    def round(
        self, ar: tuple[int, int], first: int | None = None, only: int | None = None
    ) -> str | None:
        """Play one round; returns an end key or None if the fight goes on."""
        if only is not None:
            return _end(only, self.act(only, ar[only]))
        x = self.order() if first is None else first
        if x is None:
            # both act on the fight as it was before the round; each writes to its own copy
            wa, wb, acted, gap = list(self.w), list(self.w), list(self.acted), self.gap
            e0, g0 = self.turn(0, ar[0], wa, gap, acted)
            e1, g1 = self.turn(1, ar[1], wb, gap, acted)
            self.w = [wb[0], wa[1]]
            self.gap = 0 if g0 == 0 or g1 == 0 else max(0, g0 + g1 - gap)
            self.acted = [True, True]
            out0, out1 = e1 in ("vanq", "rout"), e0 in ("vanq", "rout")
            if out0 and out1:
                return "draw"
            if out1:
                return _end(0, e0)
            if out0:
                return _end(1, e1)
            return None
        e = self.act(x, ar[x])
        if e in ("vanq", "rout"):
            return _end(x, e)
        return _end(1 - x, self.act(1 - x, ar[1 - x]))


def _end(x: int, effect: str) -> str | None:
    return {"vanq": f"v{x}", "rout": f"m{x}"}.get(effect)


def fate_roll(
    winner: Fighter,
    loser: Fighter,
    wounds: int,
    rules: FightRules,
    rng: random.Random,
) -> str:
    """The victor's chosen fate for ``loser`` (fallen with ``wounds`` wounds), rolled: a
    classed foe's Resistance Roll against a Killer Blow, or against a coup de grâce when
    ``rules.coup_de_grace == "resist"`` (rules note RN-CHIM-23). Empty for ``"any"``."""
    fate, by, name = winner.fate, winner.name, loser.name
    if fate in ("capture", "driven_off", "unconscious", "any"):
        return {
            "capture": f"{by} captures {name}: bound, −4 to all rolls and MR while bound",
            "driven_off": (
                f"{by} drives {name} off: he will not return before {winner.level} "
                f"turn{'s' if winner.level != 1 else ''}"
            ),
            "unconscious": f"{by} knocks {name} out: Unconscious for 1d6 turns",
            "any": "",
        }[fate]
    how = (
        f"{by} knocks {name} Unconscious and dispatches him with a coup de grâce (a free action)"
        if fate == "coup_de_grace"
        else f"{by} deals {name} a Killer Blow"
    )
    resists = loser.classed and (fate == "killer_blow" or rules.coup_de_grace == "resist")
    if not resists:
        return f"{how}: {name} is dead"
    mod = loser.resist_modifier(wounds)
    faces, total, ok, _ = action_roll(rng, rules, mod, KILLER_BLOW_TN)
    roll = f"{'+'.join(map(str, faces))} {mod:+d} = {total} vs TN {KILLER_BLOW_TN}"
    verdict = "resists: Unconscious, with a random permanent Flaw" if ok else "fails: he is dead"
    return f"{how}; {name} is classed and Resists: {roll}: {verdict}"


def play(
    a: Fighter,
    b: Fighter,
    rules: FightRules,
    rng: random.Random,
    *,
    surprise: SurprisePlan | None = None,
    max_rounds: int = 1,
    say: Callable[[str], None] = lambda line: None,
    distance: int = 0,
) -> Played:
    """Play the duel with ``rng`` for at most ``max_rounds`` rounds: the :class:`Played` fight.

    Its ``end`` is one of ``v0 v1 m0 m1 draw break`` or ``None`` if the fight is still
    going; with the rounds played and the wounds at its end. Every roll is reported
    through ``say``. Each combatant's ``wounds`` must be at most his Wound Limit
    (:func:`check_wounds`); ``distance`` separates them at the start (a Fight attacker
    must close it).
    """
    check_wounds(a, b)
    table = _Table(a, b, rules, rng, say, check_distance(distance))
    broke = []
    for x, f in enumerate(table.f):
        why = side_morale_trigger(f, rules.casualties)
        if why is None:
            continue
        roll, ok = table.morale(f, f.wounds)
        say(f"{f.name} checks morale before the fight ({why}): {roll}")
        if not ok:
            broke.append(x)
    w0 = (a.wounds, b.wounds)
    if len(broke) == 2:
        return Played("break", 0, w0)
    if broke:
        return Played(f"m{1 - broke[0]}", 0, w0)
    if table.gap:
        say(f"{a.name} and {b.name} start {table.gap} apart (in MR units)")
    plan = Plan()
    if surprise is not None:
        sneak = table.f[surprise.side]
        faces, total, ok, crit = table.action(surprise.sneak, surprise.tn)
        roll = f"{'+'.join(map(str, faces))} {surprise.sneak:+d} = {total}"
        if not ok:
            say(f"{sneak.name} tries to surprise: Sneak {roll} vs Surprise TN {surprise.tn}: fails")
        else:
            kind = surprise.benefit
            if crit and rules.surprise_critical == "both":
                kind = "both"
            plan = Plan(kind, surprise.side)
            what = {
                "action": "a full action before the foe can respond",
                "bonus": "AR +2 on the first round",
                "both": "both: a full action before the foe can respond, with AR +2",
            }[kind]
            say(
                f"{sneak.name} tries to surprise: Sneak {roll} vs Surprise TN {surprise.tn}: "
                f"{'CRITICAL ' if crit else ''}success, {what}"
            )
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        say(f"— Round {rounds} —")
        if rounds == 1 and plan.kind != "none":
            ar = SURPRISE_AR_BONUS if plan.kind in ("bonus", "both") else 0
            ars = (ar, 0) if plan.side == 0 else (0, ar)
            if plan.kind == "bonus":
                end = table.round(ars)
            elif rules.surprise_action == "extra":
                say(f"Surprise round: only {table.f[plan.side].name} acts")
                end = table.round(ars, only=plan.side)
            else:
                end = table.round(ars, first=plan.side)
        else:
            end = table.round((0, 0))
        if end is not None:
            return Played(end, rounds, (table.w[0], table.w[1]))
    return Played(None, rounds, (table.w[0], table.w[1]))
