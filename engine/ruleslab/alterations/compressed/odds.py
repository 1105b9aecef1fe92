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

Everything is exact (:class:`ruleslab.pmf.Dist`, probabilities as
:class:`fractions.Fraction`): each side's successes are a sum of d10 pools (no 10s
rerolled, so the table is complete), and the two sides roll independently. The
calculator passes each side's successes and damage between these rules as tables
counted from 0 (``Dist.table()``), as its charts show them.
:mod:`ruleslab.alterations.compressed.roll` applies the same rules to one rolled fight.
Readings of the text: ``docs/rules-notes/compressed.md`` (RN-COMP-*).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.alterations.compressed.combatants import Combatant
from ruleslab.alterations.compressed.pools import STRANGE, CombatantPool, SideInput
from ruleslab.dice import pool_distribution
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.pmf import Dist, constant
from ruleslab.sources import ALT, rule

__all__ = [
    "DAMAGE_DEATH",
    "TIMEFRAME",
    "VICTORY",
    "Health",
    "SideFate",
    "VictoryOdds",
    "after_ablative",
    "both_down",
    "damage_shares",
    "fate_labels",
    "health_odds",
    "levels_to_down",
    "margin_probabilities",
    "side_fate",
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
ZERO = constant(0)


# --- successes ---------------------------------------------------------------------------


def _pool(dice: int, auto: int) -> Dist:
    return pool_distribution(dice, auto).successes


def _side_successes(pools: tuple[CombatantPool, ...]) -> Dist:
    """The sum of the combatants' rolls, each rolled resistance taken off its own
    attack, floored at 0: ``max(0, A − R)``."""
    plain_dice = sum(p.dice for p in pools if not p.resist_dice)
    plain_auto = sum(p.auto for p in pools if not p.resist_dice)
    total = _pool(plain_dice, plain_auto)
    for p in pools:
        if p.resist_dice:
            total += (_pool(p.dice, p.auto) - _pool(p.resist_dice, 0)).max_with(ZERO)
    return total


def _less(table: tuple[Fraction, ...], by: int) -> tuple[Fraction, ...]:
    """The table of ``max(0, X − by)`` for the table of ``X``: its first ``by + 1``
    entries lumped on 0.

    A slice of the table the calculator holds, its Fractions reused: as a ``Dist``
    (``shift(-by).max_with(ZERO)``) the round trip would rebuild every entry, a
    millisecond on the largest sides for the same numbers.
    """
    if by <= 0:
        return table
    if by >= len(table):
        return (Fraction(1),)
    return (sum(table[: by + 1], Fraction(0)), *table[by + 1 :])


def success_table(
    label: str, pools: tuple[CombatantPool, ...], steps: list[Step]
) -> tuple[Fraction, ...]:
    """The exact table of a side's total successes: the sum of its combatants' rolls, a
    rolled resistance taken off its own attack (floored at 0)."""
    table = _side_successes(pools).table()
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
    dmg_b = _less(table_a, abl_b)  # damage B takes = A's successes − B's ablative
    dmg_a = _less(table_b, abl_a)
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
    a_wins, tie, b_wins = Dist.from_pmf(0, vic_a).versus(Dist.from_pmf(0, vic_b))
    to = tie_goes_to(init_a, init_b, initiative_tie)
    p_a_takes = a_wins + (tie if to == "A" else tie * HALF if to == "coin" else 0)
    p_b_takes = b_wins + (tie if to == "B" else tie * HALF if to == "coin" else 0)
    steps.append(
        Step(
            f"P(Side A rolls more successes) = {fmt_prob(a_wins)}; P(Side B) = "
            f"{fmt_prob(b_wins)}; P(tie) = {fmt_prob(tie)}",
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
    return VictoryOdds(a_wins, b_wins, tie, to, p_a_takes, p_b_takes)


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


@dataclass(frozen=True)
class SideFate:
    """One side's fate from its own damage, before the both-down rule: the joint odds of
    "down" (every combatant Incapacitated or worse) and "a death" (at least one killed).

    With several combatants the two are not nested: under an even split a weak combatant
    may die while the leader still stands (``killed_standing``).
    """

    down: Fraction
    killed: Fraction
    down_killed: Fraction  # down, and at least one combatant killed

    @property
    def down_alive(self) -> Fraction:
        """Down with nobody killed."""
        return self.down - self.down_killed

    @property
    def killed_standing(self) -> Fraction:
        """A death while the side is not down (someone still standing)."""
        return self.killed - self.down_killed


def side_fate(damage: Dist, pools: tuple[CombatantPool, ...], split: str) -> SideFate:
    """The joint odds of down and a death for the side taking ``damage`` (RN-COMP-14)."""
    state = {d: side_state(d, pools, split) for d in range(damage.lo, damage.hi + 1)}
    return SideFate(
        down=damage.p_where(lambda d: state[d][0]),
        killed=damage.p_where(lambda d: state[d][1]),
        down_killed=damage.p_where(lambda d: state[d] == (True, True)),
    )


def both_down(
    higher: str, a: SideFate, b: SideFate
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Apply “higher initiative survives on the last −4, lower is killed” (RN-COMP-16).

    Returns (A down, A killed, B down, B killed). The sides are independent, so both
    are down with P = ``a.down`` × ``b.down``. Then the higher side is neither down
    nor dead: it loses that mass of "down", and of "a death" only its share where it
    was down (``down_killed``): a death while it still stands is not undone, because
    then both sides are not down. Every combatant of the lower side is killed: it
    gains a death where it was down with nobody killed (``down_alive``).
    """
    if higher == "A":
        return (
            a.down - a.down * b.down,
            a.killed - a.down_killed * b.down,
            b.down,
            b.killed + a.down * b.down_alive,
        )
    if higher == "B":
        return (
            a.down,
            a.killed + b.down * a.down_alive,
            b.down - b.down * a.down,
            b.killed - b.down_killed * a.down,
        )
    return a.down, a.killed, b.down, b.killed


@dataclass(frozen=True)
class Health:
    """P(every combatant of a side Incapacitated or dead), P(one of them killed), after
    the both-down rule."""

    p_a_down: Fraction
    p_a_killed: Fraction
    p_b_down: Fraction
    p_b_killed: Fraction


def _damage_steps(
    dmg_a: Dist,
    dmg_b: Dist,
    pools_a: tuple[CombatantPool, ...],
    pools_b: tuple[CombatantPool, ...],
    split: str,
    steps: list[Step],
) -> None:
    steps.append(
        Step(
            f"Damage: each side takes the other side's total successes in health levels"
            f" (after ablative soak): expected {fmt_num(dmg_a.mean())} to Side A, "
            f"{fmt_num(dmg_b.mean())} to Side B",
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


def fate_labels(label: str, combatants: int) -> tuple[str, str]:
    """What "down" and "a death" mean for a side of ``combatants`` (RN-COMP-14): with
    several, the side is down only when all are, while one death is enough for "a death"."""
    if combatants == 1:
        return f"{label} incapacitated or killed", f"{label} killed"
    return (
        f"{label} taken out (all {combatants} incapacitated or killed)",
        f"{label}: at least one of {combatants} killed",
    )


def _both_down_text(to: str, both: Fraction) -> str:
    if to in ("A", "B"):
        hi, lo = ("Side A", "Side B") if to == "A" else ("Side B", "Side A")
        return (
            f"both sides taken out with P = {fmt_prob(both)}: then every combatant of {hi} "
            f"(higher base initiative) survives on their last −4 level and every combatant "
            f"of {lo} is killed"
        )
    if to == "coin":
        return (
            f"both sides taken out with P = {fmt_prob(both)}: equal initiative, each side "
            "survives it half the time (rules note RN-COMP-13)"
        )
    return (
        f"both sides taken out with P = {fmt_prob(both)}: equal initiative, so the rule "
        "picks no survivor and the damage stands as rolled (rules note RN-COMP-13)"
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
    to_a, to_b = Dist.from_pmf(0, dmg_a), Dist.from_pmf(0, dmg_b)
    _damage_steps(to_a, to_b, pools_a, pools_b, split, steps)
    ha = side_fate(to_a, pools_a, split)
    hb = side_fate(to_b, pools_b, split)
    if tie_to in ("A", "B"):
        a_down, a_killed, b_down, b_killed = both_down(tie_to, ha, hb)
    elif tie_to == "coin":
        x, y = both_down("A", ha, hb), both_down("B", ha, hb)
        a_down, a_killed, b_down, b_killed = ((u + v) * HALF for u, v in zip(x, y, strict=True))
    else:
        a_down, a_killed, b_down, b_killed = both_down("neither", ha, hb)
    both = ha.down * hb.down
    steps.append(
        Step(f"Both down: {_both_down_text(tie_to, both)} (rules note RN-COMP-16)", DAMAGE_DEATH)
    )
    survivors = {"A": "A", "B": "B", "coin": "AB"}.get(tie_to, "") if both else ""
    for side, fate in (("A", ha), ("B", hb)):
        if side in survivors and fate.killed_standing:
            steps.append(
                Step(
                    f"A death on Side {side} while another of its combatants still stands "
                    f"(P = {fmt_prob(fate.killed_standing)}) is not undone: the rule applies "
                    "only when both sides are down (rules note RN-COMP-16)",
                    DAMAGE_DEATH,
                )
            )
    parts = []
    for label, pools, down, killed in (
        ("Side A", pools_a, a_down, a_killed),
        ("Side B", pools_b, b_down, b_killed),
    ):
        down_label, killed_label = fate_labels(label, len(pools))
        parts.append(f"{down_label} {fmt_prob(down)}, {killed_label} {fmt_prob(killed)}")
    steps.append(Step("; ".join(parts), DAMAGE_DEATH))
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
