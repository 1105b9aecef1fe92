"""One rolled compressed combat: the dice, then the rules of
:mod:`ruleslab.alterations.compressed.odds`.

Combat alterations › Compressed Combat › Resolution › Victory: "The winner is the
side which rolls more total successes. […] A tie is resolved by base initiative-the
character with the higher initiative wins the fight."

› Damage and Death: "The total successes rolled by a "side" equal the levels of damage
a character takes. In the event that both characters take enough damage to be
incapacitated or killed, the character with the higher base initiative survives on
their last -4 health level, while the character with lower initiative is killed.
Against multiple important opponents, total damage successes should be divided as seen
fit (generally evenly)."

The "Roll it" log of the calculator: :func:`roll_side` rolls each pool,
:func:`resolve_roll` applies ablative soak, victory, the tie, damage sharing and the
both-down rule to the rolled successes with the readings the exact odds use
(``docs/rules-notes/compressed.md``, RN-COMP-12 … RN-COMP-16), :func:`play` writes the
lines a GM reads out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ruleslab.alterations.compressed.odds import damage_shares
from ruleslab.alterations.compressed.pools import SideResult
from ruleslab.dice import roll_pool

__all__ = ["RollOutcome", "play", "resolve_roll", "roll_side"]


def roll_side(side: SideResult, rng: random.Random, lines: list[str]) -> int:
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
    ``winner`` "A", "B" or ``None`` (a standoff); ``rolled`` each combatant's share
    of the damage by side label; ``states`` each combatant's (state, levels) after
    the both-down rule (the survivors' levels are their last −4 level, whatever
    they rolled); ``both_down`` (survivor's label, killed side's label) when it
    applied: both sides down and one has the higher base initiative (RN-COMP-16).
    """

    damage_a: int
    damage_b: int
    victory_a: int
    victory_b: int
    tie_to: str
    winner: str | None
    rolled: dict[str, list[int]]
    states: dict[str, list[tuple[str, int]]]
    both_down: tuple[str, str] | None


def resolve_roll(
    a: SideResult,
    b: SideResult,
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
    rolled = {
        side.label: damage_shares(dmg, side.pools, damage_split) for side, dmg in ((a, da), (b, db))
    }
    states = {
        side.label: [
            ("dead" if s >= p.dead else "incapacitated" if s >= p.incap else "standing", s)
            for s, p in zip(rolled[side.label], side.pools, strict=True)
        ]
        for side in (a, b)
    }
    down = {k: all(st != "standing" for st, _ in v) for k, v in states.items()}
    survivor: tuple[str, str] | None = None
    if down[a.label] and down[b.label] and tie_to in ("A", "B"):
        hi_side, lo_side = (a, b) if tie_to == "A" else (b, a)
        states[hi_side.label] = [
            ("survives on the last −4 level", p.incap - 1) for p in hi_side.pools
        ]
        states[lo_side.label] = [("killed", s) for s in rolled[lo_side.label]]
        survivor = (hi_side.label, lo_side.label)
    return RollOutcome(da, db, va, vb, tie_to, winner, rolled, states, survivor)


def play(
    a: SideResult,
    b: SideResult,
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
        on = "equal initiative, on the coin" if tie_to == "coin" else "on initiative"
        how = f"{max(va, vb)} to {min(va, vb)}" if va != vb else f"tie {va}–{vb}, {on}"
        lines.append(f"{winner.title} WINS ({how}): “{winner.intent}”")
    if out.both_down is not None:
        hi, lo = out.both_down
        if tie_to == "coin":
            lines.append(
                f"Both sides down, equal initiative: the coin names {hi}, which survives; {lo} dies"
            )
        else:
            lines.append(f"Both sides down: {hi} has the higher initiative and survives; {lo} dies")
    for side, dmg in ((a, da), (b, db)):
        who = "; ".join(
            _combatant_fate(p.name, rolled, state, levels)
            for p, rolled, (state, levels) in zip(
                side.pools, out.rolled[side.label], out.states[side.label], strict=True
            )
        )
        lines.append(f"{side.label} takes {dmg} levels of damage: {who}")
    return tuple(lines)


def _combatant_fate(name: str, rolled: int, state: str, levels: int) -> str:
    """“Ann 3 levels, dead”; a survivor of both sides down shows what it rolled and keeps."""
    if state != "survives on the last −4 level":
        return f"{name} {rolled} levels, {state}"
    return f"{name} {_levels(rolled)} rolled, {state} ({_levels(levels)})"


def _levels(n: int) -> str:
    return f"{n} level" if n == 1 else f"{n} levels"
