"""Compressed combat's odds: the opposed roll, damage, death and the timeframe, exactly.

Combat alterations › Compressed Combat › Strange Interactions: "Forcefield and
other sources of ablative soak subtract 1 success from the enemy attack roll per
dot".

› Resolution › Timeframe: "The timeframe of a compressed combat is equal to the
highest (attribute + ability) dice pool of the combatants in question, in
turns. Each dot of a Mega-Attribute counts as 2 dots of a normal attribute."

› Resolution › Victory: "The winner is the side which rolls more total
successes. The winning side achieve their intent, which should be a one
sentence goal. […] A tie is resolved by base initiative-the character with the
higher initiative wins the fight."

› Resolution › Damage and Death: "The total successes rolled by a "side" equal
the levels of damage a character takes. In the event that both characters take
enough damage to be incapacitated or killed, the character with the higher base
initiative survives on their last -4 health level, while the character with
lower initiative is killed. Against multiple important opponents, total damage
successes should be divided as seen fit (generally evenly)."

Everything is exact (:class:`fractions.Fraction`): each side's successes are a
sum of d10 pools (no 10s rerolled, so the table is complete), and the two sides
roll independently. :func:`play` applies the same rules to one
rolled fight. Readings of the text: ``docs/rules-notes/compressed.md``
(RN-COMP-*).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.compressed.combatants import Combatant
from ruleslab.compressed.pools import STRANGE, CombatantPool, Side, SideInput
from ruleslab.dice import SuccessDistribution, compare, pool_distribution, roll_pool
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.pmf import convolve, fractions, numerators
from ruleslab.pmf import mean as pmf_mean
from ruleslab.sources import ALT, rule

__all__ = [
    "DAMAGE_DEATH",
    "TIMEFRAME",
    "VICTORY",
    "Health",
    "RollOutcome",
    "VictoryOdds",
    "after_ablative",
    "both_down",
    "damage_shares",
    "health_odds",
    "levels_to_down",
    "margin_probabilities",
    "play",
    "resolve_roll",
    "roll_side",
    "side_state",
    "success_table",
    "tie_goes_to",
    "timeframe",
    "victory_odds",
]

TIMEFRAME = rule(ALT, "Compressed Combat", "Resolution", "Timeframe")
VICTORY = rule(ALT, "Compressed Combat", "Resolution", "Victory")
DAMAGE_DEATH = rule(ALT, "Compressed Combat", "Resolution", "Damage and Death")

HALF = Fraction(1, 2)


# --- successes ---------------------------------------------------------------------------


def _binomial(dice: int, auto: int) -> tuple[Fraction, ...]:
    return pool_distribution(dice, auto).pmf


def _difference_floor(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """pmf of max(0, A − B) for independent A, B."""
    (na, da), (nb, db) = numerators(a), numerators(b)
    out = [0] * len(na)
    for i, x in enumerate(na):
        if x:
            for j, y in enumerate(nb):
                if y:
                    out[max(0, i - j)] += x * y
    return fractions(out, da * db)


def _shift_floor(pmf: tuple[Fraction, ...], by: int) -> tuple[Fraction, ...]:
    """pmf of max(0, X − by)."""
    if by <= 0:
        return pmf
    if by >= len(pmf):
        return (Fraction(1),)
    return (sum(pmf[: by + 1], Fraction(0)), *pmf[by + 1 :])


def _side_table(pools: tuple[CombatantPool, ...]) -> tuple[Fraction, ...]:
    plain_dice = sum(p.dice for p in pools if not p.resist_dice)
    plain_auto = sum(p.auto for p in pools if not p.resist_dice)
    table = _binomial(plain_dice, plain_auto)
    for p in pools:
        if p.resist_dice:
            own = _difference_floor(_binomial(p.dice, p.auto), _binomial(p.resist_dice, 0))
            table = convolve(table, own)
    return table


def success_table(
    label: str, pools: tuple[CombatantPool, ...], steps: list[Step]
) -> tuple[Fraction, ...]:
    """The exact pmf of a side's total successes: the sum of its combatants' rolls, a
    rolled resistance taken off its own attack (floored at 0)."""
    table = _side_table(pools)
    if len(pools) > 1:
        steps.append(
            Step(
                f"{label}'s successes = the sum of its combatants' rolls: "
                + " + ".join(f"{p.name} {p.pool_text()}" for p in pools),
                DAMAGE_DEATH,
            )
        )
    return table


def after_ablative(
    table_a: tuple[Fraction, ...],
    table_b: tuple[Fraction, ...],
    abl_a: int,
    abl_b: int,
    ablative_applies: str,
    steps: list[Step],
) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], tuple[Fraction, ...], tuple[Fraction, ...]]:
    """(damage to A, damage to B, A's successes compared, B's) after ablative soak (RN-COMP-12).

    Each side's ablative soak takes successes off the other side's roll
    (floored at 0): from the damage always, and from the successes compared for
    victory when ``ablative_applies`` is "both".
    """
    dmg_b = _shift_floor(table_a, abl_b)  # damage B takes = A's successes − B's ablative
    dmg_a = _shift_floor(table_b, abl_a)
    if ablative_applies == "both":
        vic_a, vic_b = dmg_b, dmg_a
    else:
        vic_a, vic_b = table_a, table_b
    if abl_a or abl_b:
        steps.append(
            Step(
                "Ablative soak subtracts successes (floored at 0) "
                + (
                    "before the sides are compared and from the damage"
                    if ablative_applies == "both"
                    else "from the damage only; victory compares the successes rolled"
                )
                + " (rules note RN-COMP-12)",
                STRANGE,
            )
        )
    return dmg_a, dmg_b, vic_a, vic_b


def margin_probabilities(
    vic_a: tuple[Fraction, ...], vic_b: tuple[Fraction, ...]
) -> tuple[int, tuple[float, ...]]:
    """(lowest margin, P(margin)) for the margin A − B of the successes compared (floats,
    for charts)."""
    pa = [float(p) for p in vic_a]
    pb = [float(p) for p in vic_b]
    lo = -(len(pb) - 1)
    out = [0.0] * (len(pa) + len(pb) - 1)
    for i, x in enumerate(pa):
        if x:
            for j, y in enumerate(pb):
                out[i - j - lo] += x * y
    return lo, tuple(out)


# --- victory -------------------------------------------------------------------------------


@dataclass(frozen=True)
class VictoryOdds:
    """Who takes the fight: ``p_a_wins``/``p_b_wins`` are "more successes" only;
    ``p_a_takes``/``p_b_takes`` include the ties each side takes (``tie_to``)."""

    p_a_wins: Fraction
    p_b_wins: Fraction
    p_tie: Fraction
    tie_to: str
    p_a_takes: Fraction
    p_b_takes: Fraction


def tie_goes_to(init_a: int, init_b: int, initiative_tie: str) -> str:
    """Who takes a tie: "A" or "B" (higher base initiative), else "coin" or "neither"
    (RN-COMP-13)."""
    if init_a > init_b:
        return "A"
    if init_b > init_a:
        return "B"
    return "coin" if initiative_tie == "coin" else "neither"


def victory_odds(
    vic_a: tuple[Fraction, ...],
    vic_b: tuple[Fraction, ...],
    ia: SideInput,
    ib: SideInput,
    init_a: int,
    init_b: int,
    initiative_tie: str,
    steps: list[Step],
) -> VictoryOdds:
    """The opposed roll: more successes wins, a tie goes by base initiative."""
    cmp = compare(
        SuccessDistribution(vic_a, Fraction(0), Fraction(0)),
        SuccessDistribution(vic_b, Fraction(0), Fraction(0)),
    )
    to = tie_goes_to(init_a, init_b, initiative_tie)
    p_a_takes = cmp.p_a_wins + (cmp.p_tie if to == "A" else cmp.p_tie * HALF if to == "coin" else 0)
    p_b_takes = cmp.p_b_wins + (cmp.p_tie if to == "B" else cmp.p_tie * HALF if to == "coin" else 0)
    steps.append(
        Step(
            f"P(Side A rolls more successes) = {fmt_prob(cmp.p_a_wins)}; P(Side B) = "
            f"{fmt_prob(cmp.p_b_wins)}; P(tie) = {fmt_prob(cmp.p_tie)}",
            VICTORY,
        )
    )
    tie_why = {
        "A": f"Side A's base initiative {init_a} > Side B's {init_b}: Side A takes ties",
        "B": f"Side B's base initiative {init_b} > Side A's {init_a}: Side B takes ties",
        "neither": f"equal base initiative {init_a}: a tie is a standoff, neither side "
        "achieves its intent (rules note RN-COMP-13)",
        "coin": f"equal base initiative {init_a}: each side takes a tie half the time "
        "(rules note RN-COMP-13)",
    }[to]
    steps.append(Step(f"A tie is resolved by base initiative: {tie_why}", VICTORY))
    if p_a_takes != p_b_takes:
        win = ia if p_a_takes > p_b_takes else ib
        steps.append(
            Step(
                f"More likely winner: {win.label}, achieving its intent “{win.intent}”",
                VICTORY,
            )
        )
    return VictoryOdds(cmp.p_a_wins, cmp.p_b_wins, cmp.p_tie, to, p_a_takes, p_b_takes)


# --- damage and health ---------------------------------------------------------------------


def damage_shares(total: int, pools: tuple[CombatantPool, ...], split: str) -> list[int]:
    """Levels of damage each combatant takes from the side's ``total`` (RN-COMP-14)."""
    n = len(pools)
    if split == "even":
        return [total // n + (1 if i < total % n else 0) for i in range(n)]
    shares = [0] * n
    left = total
    for stage in ("incap", "dead"):
        for i, p in enumerate(pools):
            cap = getattr(p, stage)
            take = min(left, max(0, cap - shares[i]))
            shares[i] += take
            left -= take
    shares[-1] += left
    return shares


def side_state(total: int, pools: tuple[CombatantPool, ...], split: str) -> tuple[bool, bool]:
    """(side down: every combatant Incapacitated or worse, someone killed)."""
    shares = damage_shares(total, pools, split)
    down = all(s >= p.incap for s, p in zip(shares, pools, strict=True))
    killed = any(s >= p.dead for s, p in zip(shares, pools, strict=True))
    return down, killed


def levels_to_down(pools: tuple[CombatantPool, ...], split: str) -> int | None:
    """The fewest levels of damage that take the side out (before the both-down rule)."""
    top = sum(p.dead for p in pools)
    for d in range(top + 1):
        if side_state(d, pools, split)[0]:
            return d
    return None


def _down_and_killed(
    damage: tuple[Fraction, ...], pools: tuple[CombatantPool, ...], split: str
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(down), P(killed), P(down but nobody killed)) before the both-down rule."""
    down = killed = down_alive = Fraction(0)
    for d, p in enumerate(damage):
        if not p:
            continue
        is_down, is_killed = side_state(d, pools, split)
        if is_down:
            down += p
            if not is_killed:
                down_alive += p
        if is_killed:
            killed += p
    return down, killed, down_alive


def both_down(
    higher: str, a: tuple[Fraction, ...], b: tuple[Fraction, ...]
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Apply “higher initiative survives on the last −4, lower is killed” to (down, killed).

    ``a``/``b`` are (P(down), P(killed), P(down and nobody killed)); returns
    (A down, A killed, B down, B killed).
    """
    (ad, ak, aa), (bd, bk, ba) = a, b
    if higher == "A":
        return ad - ad * bd, ak - ak * bd, bd, bk + ad * ba
    if higher == "B":
        return ad, ak + bd * aa, bd - bd * ad, bk - bk * ad
    return ad, ak, bd, bk


@dataclass(frozen=True)
class Health:
    """P(every combatant of a side Incapacitated or dead), P(one of them killed), after
    the both-down rule."""

    a_down: Fraction
    a_killed: Fraction
    b_down: Fraction
    b_killed: Fraction


def _damage_steps(
    dmg_a: tuple[Fraction, ...],
    dmg_b: tuple[Fraction, ...],
    pools_a: tuple[CombatantPool, ...],
    pools_b: tuple[CombatantPool, ...],
    split: str,
    steps: list[Step],
) -> None:
    steps.append(
        Step(
            f"Damage: each side takes the other side's total successes in health levels"
            f" (after ablative soak): expected {fmt_num(pmf_mean(dmg_a))} to Side A, "
            f"{fmt_num(pmf_mean(dmg_b))} to Side B",
            DAMAGE_DEATH,
        )
    )
    for label, pools in (("Side A", pools_a), ("Side B", pools_b)):
        if len(pools) > 1:
            how = (
                "evenly, the remainder one each to the first listed"
                if split == "even"
                else "one at a time in list order, each to Incapacitated, then each to dead"
            )
            steps.append(
                Step(f"{label}'s damage is shared {how} (rules note RN-COMP-14)", DAMAGE_DEATH)
            )


def _both_down_text(to: str, both: Fraction) -> str:
    if to in ("A", "B"):
        hi, lo = ("Side A", "Side B") if to == "A" else ("Side B", "Side A")
        return (
            f"both sides taken out with P = {fmt_prob(both)}: then {hi} (higher base "
            f"initiative) survives on its last −4 level and {lo} is killed"
        )
    if to == "coin":
        return (
            f"both sides taken out with P = {fmt_prob(both)}: equal initiative, each side "
            "survives it half the time (rules note RN-COMP-13)"
        )
    return (
        f"both sides taken out with P = {fmt_prob(both)}: equal initiative, so the damage "
        "stands as rolled (rules note RN-COMP-13)"
    )


def health_odds(
    dmg_a: tuple[Fraction, ...],
    dmg_b: tuple[Fraction, ...],
    pools_a: tuple[CombatantPool, ...],
    pools_b: tuple[CombatantPool, ...],
    *,
    tie_to: str,
    split: str,
    steps: list[Step],
) -> Health:
    """Damage and death: each side's damage shared among its combatants, then the
    both-down rule by base initiative (``tie_to``; RN-COMP-13, RN-COMP-16)."""
    _damage_steps(dmg_a, dmg_b, pools_a, pools_b, split, steps)
    ha = _down_and_killed(dmg_a, pools_a, split)
    hb = _down_and_killed(dmg_b, pools_b, split)
    if tie_to in ("A", "B"):
        a_down, a_killed, b_down, b_killed = both_down(tie_to, ha, hb)
    elif tie_to == "coin":
        x, y = both_down("A", ha, hb), both_down("B", ha, hb)
        a_down, a_killed, b_down, b_killed = ((u + v) * HALF for u, v in zip(x, y, strict=True))
    else:
        a_down, a_killed, b_down, b_killed = both_down("neither", ha, hb)
    both = ha[0] * hb[0]
    steps.append(
        Step(f"Both down: {_both_down_text(tie_to, both)} (rules note RN-COMP-16)", DAMAGE_DEATH)
    )
    steps.append(
        Step(
            f"Side A incapacitated or killed {fmt_prob(a_down)}, a death {fmt_prob(a_killed)}; "
            f"Side B incapacitated or killed {fmt_prob(b_down)}, a death {fmt_prob(b_killed)}",
            DAMAGE_DEATH,
        )
    )
    return Health(a_down, a_killed, b_down, b_killed)


# --- timeframe -----------------------------------------------------------------------------


def timeframe(ia: SideInput, ib: SideInput, steps: list[Step]) -> int:
    """Turns the fight takes: the highest attribute (Mega counts 2) + ability (RN-COMP-17)."""
    everyone: list[tuple[str, Combatant]] = [(s.label, c) for s in (ia, ib) for c in s.combatants]
    best_label, best = max(everyone, key=lambda t: t[1].attribute_ability)
    turns = best.attribute_ability
    mega = f" (Mega-{best.attribute} {best.mega} counts 2 per dot)" if best.mega else ""
    steps.append(
        Step(
            f"Timeframe = the highest attribute + ability: {best_label}'s {best.name}, "
            f"{best.attribute[:3]} {best.attribute_value} + {best.ability} {best.ability_dots} "
            f"= {turns} turns{mega} (rules note RN-COMP-17)",
            TIMEFRAME,
        )
    )
    return turns


# --- one rolled fight ----------------------------------------------------------------------


def roll_side(side: Side, rng: random.Random, lines: list[str]) -> int:
    """Roll each of the side's pools (a rolled resistance's successes taken off its own,
    floored at 0), with a line each in ``lines``; returns the side's total successes."""
    total = 0
    for p in side.pools:
        roll = roll_pool(p.dice, auto=p.auto, rng=rng)
        faces = ", ".join(map(str, roll.faces)) or "no dice"
        got = roll.successes
        text = f"{side.label}, {p.name}: {p.dice} d10: {faces} → {got - p.auto}"
        if p.auto:
            text += f" + {p.auto} auto = {got}"
        if p.resist_dice:
            r = roll_pool(p.resist_dice, rng=rng)
            rf = ", ".join(map(str, r.faces))
            got = max(0, got - r.successes)
            text += f"; resistance {p.resist_dice} d10: {rf} → {r.successes}; net {got}"
        lines.append(text + (" success" if got == 1 else " successes"))
        total += got
    return total


@dataclass(frozen=True)
class RollOutcome:
    """One rolled fight resolved by the rules above.

    ``damage_a``/``damage_b``: levels each side takes (the other side's
    successes less its ablative soak); ``victory_a``/``victory_b`` the successes
    compared; ``tie_to`` "A", "B" or "neither" (a coin already tossed);
    ``winner`` "A", "B" or ``None`` (a standoff); ``states`` each combatant's
    (state, levels) by side label after the both-down rule; ``both_down``
    (survivor's label, killed side's label) when it applied.
    """

    damage_a: int
    damage_b: int
    victory_a: int
    victory_b: int
    tie_to: str
    winner: str | None
    states: dict[str, list[tuple[str, int]]]
    both_down: tuple[str, str] | None


def resolve_roll(
    a: Side,
    b: Side,
    xa: int,
    xb: int,
    *,
    ablative_applies: str,
    tie_to: str,
    damage_split: str,
    rng: random.Random,
) -> RollOutcome:
    """Resolve one roll: ``xa``/``xb`` successes rolled by sides ``a``/``b``.

    A ``tie_to`` of "coin" tosses ``rng`` once.
    """
    da, db = max(0, xb - a.ablative), max(0, xa - b.ablative)
    va, vb = (db, da) if ablative_applies == "both" else (xa, xb)
    if tie_to == "coin":
        tie_to = rng.choice(("A", "B"))
    if va > vb or (va == vb and tie_to == "A"):
        winner: str | None = "A"
    elif vb > va or (va == vb and tie_to == "B"):
        winner = "B"
    else:
        winner = None
    states = {}
    for side, dmg in ((a, da), (b, db)):
        shares = damage_shares(dmg, side.pools, damage_split)
        states[side.label] = [
            ("dead" if s >= p.dead else "incapacitated" if s >= p.incap else "standing", s)
            for s, p in zip(shares, side.pools, strict=True)
        ]
    down = {k: all(st != "standing" for st, _ in v) for k, v in states.items()}
    survivor: tuple[str, str] | None = None
    if down["Side A"] and down["Side B"] and tie_to in ("A", "B"):
        hi, lo = ("Side A", "Side B") if tie_to == "A" else ("Side B", "Side A")
        hi_side = a if hi == "Side A" else b
        states[hi] = [
            ("survives on the last −4 level", p.incap - 1)
            for (_, _), p in zip(states[hi], hi_side.pools, strict=True)
        ]
        states[lo] = [("killed", s) for _, s in states[lo]]
        survivor = (hi, lo)
    return RollOutcome(da, db, va, vb, tie_to, winner, states, survivor)


def play(
    a: Side,
    b: Side,
    rng: random.Random,
    *,
    ablative_applies: str,
    tie_to: str,
    damage_split: str,
) -> tuple[str, ...]:
    """One rolled fight between sides ``a`` and ``b``, as lines a GM can read out: the
    rolls (:func:`roll_side`), then the outcome (:func:`resolve_roll`)."""
    lines: list[str] = []
    xa = roll_side(a, rng, lines)
    xb = roll_side(b, rng, lines)
    out = resolve_roll(
        a,
        b,
        xa,
        xb,
        ablative_applies=ablative_applies,
        tie_to=tie_to,
        damage_split=damage_split,
        rng=rng,
    )
    da, db, va, vb = out.damage_a, out.damage_b, out.victory_a, out.victory_b
    if len(a.pools) > 1 or len(b.pools) > 1:
        lines.append(f"Totals: Side A {xa}, Side B {xb}")
    if a.ablative or b.ablative:
        lines.append(
            f"Ablative soak: Side A's {a.ablative} leaves Side B {da}; "
            f"Side B's {b.ablative} leaves Side A {db}"
        )
    if out.winner is None:
        lines.append(f"TIE {va}–{vb}, equal initiative: a standoff, neither intent is achieved")
    else:
        winner = a if out.winner == "A" else b
        how = f"{max(va, vb)} to {min(va, vb)}" if va != vb else f"tie {va}–{vb}, on initiative"
        lines.append(f"{winner.title} WINS ({how}): “{winner.intent}”")
    if out.both_down is not None:
        hi, lo = out.both_down
        lines.append(f"Both sides down: {hi} has the higher initiative and survives; {lo} dies")
    for side, dmg in ((a, da), (b, db)):
        who = "; ".join(
            f"{p.name} {s} levels, {st}"
            for (st, s), p in zip(out.states[side.label], side.pools, strict=True)
        )
        lines.append(f"{side.label} takes {dmg} levels of damage: {who}")
    return tuple(lines)
