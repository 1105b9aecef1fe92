"""Compressed combat's outcome odds against a brute force written here, independently.

Resolution › Damage and Death: "The total successes rolled by a "side" equal the
levels of damage a character takes. In the event that both characters take enough
damage to be incapacitated or killed, the character with the higher base initiative
survives on their last -4 health level, while the character with lower initiative is
killed. Against multiple important opponents, total damage successes should be
divided as seen fit (generally evenly)."

For sides of several combatants, the test enumerates every combatant's success count
(a binomial d10 pool, 7 or more a success), hence every pair of side totals, deals each
side's damage one level at a time (round robin for the even split; for the focused
split to the first combatant still standing, then to the first still alive), and
applies the rules notes' readings (RN-COMP-12, -13, -14, -16) to each pair: victory,
ties by base initiative, a side down when every combatant is Incapacitated or worse,
a death when at least one is killed, and, when both sides are down, the side with the
higher base initiative survives (none of its combatants down or dead) while every
combatant of the other is killed; with equal initiative the damage stands ("neither")
or each side survives half the time ("coin"). The sums are compared exactly with
:func:`compressed_combat`'s figures and with the outcome of every pair as "Roll it"
resolves it (:func:`ruleslab.alterations.compressed.roll.resolve_roll`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb

import pytest

from ruleslab.alterations.compressed.roll import resolve_roll
from ruleslab.calculators.compressed import combat_roll_log, compressed_combat


@dataclass(frozen=True)
class Fighter:
    """A combatant written out by hand: pool = attribute + ability + damage − the
    opposing side's highest soak (automatic successes removed first)."""

    name: str
    attribute: int
    ability: int
    damage: int
    soak: int
    incap: int
    dead: int
    initiative: int = 0
    auto: int = 0

    def line(self) -> str:
        return (
            f"{self.name}: Dex {self.attribute}, Brawl {self.ability}, damage {self.damage}, "
            f"soak {self.soak}, incap {self.incap}, dead {self.dead}, "
            f"initiative {self.initiative}, auto {self.auto}"
        )

    def pool(self, enemy_soak: int) -> tuple[int, int]:
        """(dice, automatic successes) against ``enemy_soak``."""
        auto_left = max(0, self.auto - enemy_soak)
        soak_left = max(0, enemy_soak - self.auto)
        return max(0, self.attribute + self.ability + self.damage - soak_left), auto_left


def binomial(dice: int, auto: int) -> dict[int, Fraction]:
    """Successes of ``dice`` d10 (4 faces in 10 succeed) plus ``auto``."""
    return {
        k + auto: Fraction(comb(dice, k) * 4**k * 6 ** (dice - k), 10**dice)
        for k in range(dice + 1)
    }


def side_pools(
    side_a: list[Fighter], side_b: list[Fighter]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Each side's (dice, automatic successes), every combatant against the other side's
    soak (its best)."""
    soak_a, soak_b = max(f.soak for f in side_a), max(f.soak for f in side_b)
    return [f.pool(soak_b) for f in side_a], [f.pool(soak_a) for f in side_b]


def side_totals(pools: list[tuple[int, int]]) -> dict[int, Fraction]:
    """The side's total successes, by enumerating every combatant's success count."""
    tables = [binomial(d, a) for d, a in pools]
    out: dict[int, Fraction] = {}
    for counts in product(*(t.items() for t in tables)):
        total = sum(k for k, _ in counts)
        p = Fraction(1)
        for _, q in counts:
            p *= q
        out[total] = out.get(total, Fraction(0)) + p
    return out


def deal(levels: int, fighters: list[Fighter], split: str) -> list[int]:
    """Each combatant's share of ``levels``, dealt one level at a time."""
    shares = [0] * len(fighters)
    for k in range(levels):
        if split == "even":
            shares[k % len(fighters)] += 1
            continue
        standing = [i for i, f in enumerate(fighters) if shares[i] < f.incap]
        alive = [i for i, f in enumerate(fighters) if shares[i] < f.dead]
        shares[(standing or alive or [len(fighters) - 1])[0]] += 1
    return shares


def down_and_killed(levels: int, fighters: list[Fighter], split: str) -> tuple[bool, bool]:
    shares = deal(levels, fighters, split)
    down = all(s >= f.incap for s, f in zip(shares, fighters, strict=True))
    killed = any(s >= f.dead for s, f in zip(shares, fighters, strict=True))
    return down, killed


@dataclass
class Odds:
    a_wins: Fraction = Fraction(0)
    b_wins: Fraction = Fraction(0)
    tie: Fraction = Fraction(0)
    a_takes: Fraction = Fraction(0)
    b_takes: Fraction = Fraction(0)
    a_down: Fraction = Fraction(0)
    a_killed: Fraction = Fraction(0)
    b_down: Fraction = Fraction(0)
    b_killed: Fraction = Fraction(0)

    def add_fates(self, q: Fraction, a: tuple[bool, bool], b: tuple[bool, bool]) -> None:
        """Count ``q`` towards each side's (down, killed) that holds."""
        self.a_down += q * a[0]
        self.a_killed += q * a[1]
        self.b_down += q * b[0]
        self.b_killed += q * b[1]


def after_both_down(
    higher: str, a: tuple[bool, bool], b: tuple[bool, bool]
) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """A's and B's (down, killed) after "the higher base initiative survives"."""
    if a[0] and b[0] and higher == "A":
        return (False, False), (True, True)
    if a[0] and b[0] and higher == "B":
        return (True, True), (False, False)
    return a, b


def brute_force(
    side_a: list[Fighter],
    side_b: list[Fighter],
    *,
    split: str,
    initiative_tie: str,
    ablative_a: int = 0,
    ablative_b: int = 0,
    ablative_applies: str = "both",
) -> Odds:
    pools_a, pools_b = side_pools(side_a, side_b)
    totals_a, totals_b = side_totals(pools_a), side_totals(pools_b)
    init_a, init_b = max(f.initiative for f in side_a), max(f.initiative for f in side_b)
    higher = "A" if init_a > init_b else "B" if init_b > init_a else None
    odds = Odds()
    for (xa, pa), (xb, pb) in product(totals_a.items(), totals_b.items()):
        p = pa * pb
        to_a, to_b = max(0, xb - ablative_a), max(0, xa - ablative_b)
        va, vb = (to_b, to_a) if ablative_applies == "both" else (xa, xb)
        odds.a_wins += p * (va > vb)
        odds.b_wins += p * (vb > va)
        odds.tie += p * (va == vb)
        a, b = down_and_killed(to_a, side_a, split), down_and_killed(to_b, side_b, split)
        if higher is not None:
            ways = [(higher, p)]
        elif initiative_tie == "coin":
            ways = [("A", p / 2), ("B", p / 2)]
        else:
            ways = [("", p)]
        for who, q in ways:
            odds.a_takes += q * (va > vb or (va == vb and who == "A"))
            odds.b_takes += q * (vb > va or (va == vb and who == "B"))
            odds.add_fates(q, *after_both_down(who, a, b))
    return odds


# --- the sides ----------------------------------------------------------------------------

# Issue 10's example: a strong hero and a rookie against one boss. With an even split
# the rookie dies (5 levels) long before the hero is Incapacitated (12).
HERO = Fighter("Hero", 4, 4, 6, 1, incap=12, dead=20, initiative=7)
ROOKIE = Fighter("Rookie", 2, 1, 2, 0, incap=3, dead=5, initiative=2)
BOSS = Fighter("Boss", 3, 3, 6, 2, incap=5, dead=9, initiative=5, auto=14)
# Three a side against two, uneven thresholds, automatic successes partly soaked.
TRIO = [
    Fighter("Ann", 2, 2, 1, 1, incap=4, dead=7, initiative=3),
    Fighter("Bob", 1, 2, 2, 2, incap=2, dead=3, initiative=5, auto=3),
    Fighter("Cy", 1, 1, 1, 0, incap=6, dead=6),
]
DUO = [
    Fighter("Dee", 2, 3, 2, 1, incap=5, dead=8, initiative=4),
    Fighter("Eve", 1, 1, 3, 1, incap=1, dead=4, initiative=1),
]
# Two a side, both sides often down together.
PAIR_A = [
    Fighter("Fay", 2, 2, 2, 0, incap=3, dead=4, initiative=6),
    Fighter("Gus", 2, 1, 1, 0, incap=1, dead=6),
]
PAIR_B = [
    Fighter("Hal", 2, 2, 3, 0, incap=2, dead=5, initiative=2),
    Fighter("Ida", 1, 2, 2, 0, incap=4, dead=4, initiative=3),
]

SIDES = {
    "hero and rookie vs boss": ([HERO, ROOKIE], [BOSS]),
    "trio vs duo": (TRIO, DUO),
    "pair vs pair": (PAIR_A, PAIR_B),
    "boss vs hero and rookie": ([BOSS], [HERO, ROOKIE]),
}


def with_leader_initiative(side: list[Fighter], initiative: int) -> list[Fighter]:
    """The side with its leader's initiative set and nobody else's above it."""
    lead, *rest = side
    return [
        Fighter(**{**lead.__dict__, "initiative": initiative}),
        *(Fighter(**{**f.__dict__, "initiative": min(f.initiative, initiative)}) for f in rest),
    ]


INITIATIVES = {"A higher": (8, 3), "B higher": (3, 8), "equal": (6, 6)}


def fight(side_a, side_b, **kw):
    return compressed_combat(
        a_combatants="\n".join(f.line() for f in side_a),
        b_combatants="\n".join(f.line() for f in side_b),
        **kw,
    )


def check_pools(r, side_a: list[Fighter], side_b: list[Fighter]) -> None:
    """The calculator rolls the pools worked out by hand (so the brute force is fair)."""
    pools_a, pools_b = side_pools(side_a, side_b)
    assert [(p.dice, p.auto) for p in r.side_a.pools] == pools_a
    assert [(p.dice, p.auto) for p in r.side_b.pools] == pools_b


def assert_same(r, odds: Odds) -> None:
    assert (r.p_a_wins, r.p_b_wins, r.p_tie) == (odds.a_wins, odds.b_wins, odds.tie)
    assert (r.p_a_takes, r.p_b_takes) == (odds.a_takes, odds.b_takes)
    assert (r.p_a_down, r.p_a_killed) == (odds.a_down, odds.a_killed)
    assert (r.p_b_down, r.p_b_killed) == (odds.b_down, odds.b_killed)


@pytest.mark.parametrize("sides", SIDES.values(), ids=SIDES.keys())
@pytest.mark.parametrize("split", ["even", "focus"])
@pytest.mark.parametrize("initiative_tie", ["neither", "coin"])
@pytest.mark.parametrize("initiatives", INITIATIVES.values(), ids=INITIATIVES.keys())
def test_outcome_odds_match_the_brute_force(sides, split, initiative_tie, initiatives):
    side_a = with_leader_initiative(sides[0], initiatives[0])
    side_b = with_leader_initiative(sides[1], initiatives[1])
    r = fight(side_a, side_b, damage_split=split, initiative_tie=initiative_tie)
    check_pools(r, side_a, side_b)
    assert_same(r, brute_force(side_a, side_b, split=split, initiative_tie=initiative_tie))


@pytest.mark.parametrize("ablative_applies", ["both", "damage"])
@pytest.mark.parametrize("split", ["even", "focus"])
def test_outcome_odds_with_ablative_soak_match_the_brute_force(ablative_applies, split):
    side_a, side_b = TRIO, DUO  # Bob's initiative 5 > Dee's 4: A takes ties and survives
    r = fight(
        side_a,
        side_b,
        a_forcefield=1,
        b_forcefield=2,
        damage_split=split,
        ablative_applies=ablative_applies,
    )
    check_pools(r, side_a, side_b)
    odds = brute_force(
        side_a,
        side_b,
        split=split,
        initiative_tie="neither",
        ablative_a=1,
        ablative_b=2,
        ablative_applies=ablative_applies,
    )
    assert_same(r, odds)


def test_issue_10_example_a_rookie_dies_while_the_hero_stands():
    # Side A (hero, rookie; initiative 7) against the boss (initiative 5), split evenly.
    # The boss deals its 14 automatic successes less A's best soak 1 = 13 levels, plus
    # 12 dice (3 + 3 + 6, nothing left of the soak). The rookie dies from 10 levels
    # (⌊10 / 2⌋ = 5): always. The hero is Incapacitated from 23 levels (⌈23 / 2⌉ = 12):
    # 10 or more of the 12 dice. The boss (incap 5) is down with 5 or more successes of
    # A's 12 + 3 dice (4 + 4 + 6 − 2 and 2 + 1 + 2 − 2). Side A has a death unless both
    # sides are down (then side A, higher initiative, survives).
    r = fight([HERO, ROOKIE], [BOSS])
    assert r.tie_to == "A"
    assert [(p.dice, p.auto) for p in r.side_b.pools] == [(12, 13)]
    hero_down = sum(binomial(12, 0)[k] for k in range(10, 13))
    boss_down = sum(binomial(15, 0)[k] for k in range(5, 16))
    assert r.p_a_killed == 1 - hero_down * boss_down
    assert r.p_a_down == hero_down * (1 - boss_down)  # down only while the boss stands
    assert round(float(1 - hero_down), 4) == 0.9972  # a death while the hero stands
    assert (
        "A death on Side A while another of its combatants still stands (P = 99.72 %) is not "
        "undone: the rule applies only when both sides are down (rules note RN-COMP-16)"
    ) in r.explain()
    assert (
        r.p_a_killed
        == brute_force([HERO, ROOKIE], [BOSS], split="even", initiative_tie="neither").a_killed
    )


# --- the roll log reads the fight the same way ---------------------------------------------


def resolved(out, side_label: str) -> tuple[bool, bool]:
    """(down, killed) of one side as "Roll it" leaves it."""
    states = [state for state, _ in out.states[side_label]]
    down = all(state in ("incapacitated", "dead", "killed") for state in states)
    killed = any(state in ("dead", "killed") for state in states)
    return down, killed


@pytest.mark.parametrize("sides", SIDES.values(), ids=SIDES.keys())
@pytest.mark.parametrize("split", ["even", "focus"])
@pytest.mark.parametrize("initiatives", INITIATIVES.values(), ids=INITIATIVES.keys())
def test_every_rolled_outcome_weighted_gives_the_exact_odds(sides, split, initiatives):
    side_a = with_leader_initiative(sides[0], initiatives[0])
    side_b = with_leader_initiative(sides[1], initiatives[1])
    for initiative_tie in ("neither", "coin"):
        r = fight(side_a, side_b, damage_split=split, initiative_tie=initiative_tie)
        pools_a, pools_b = side_pools(side_a, side_b)
        totals_a, totals_b = side_totals(pools_a), side_totals(pools_b)
        # a coin is tossed in the log: weigh both results of the toss
        tosses = ("A", "B") if r.tie_to == "coin" else (r.tie_to,)
        odds = Odds()
        for (xa, pa), (xb, pb) in product(totals_a.items(), totals_b.items()):
            for tie_to in tosses:
                q = pa * pb / len(tosses)
                out = resolve_roll(
                    r.side_a,
                    r.side_b,
                    xa,
                    xb,
                    ablative_applies="both",
                    tie_to=tie_to,
                    damage_split=split,
                    rng=random.Random(0),
                )
                odds.add_fates(q, resolved(out, "Side A"), resolved(out, "Side B"))
                odds.a_takes += q * (out.winner == "A")
                odds.b_takes += q * (out.winner == "B")
        assert (r.p_a_takes, r.p_b_takes) == (odds.a_takes, odds.b_takes)
        assert (r.p_a_down, r.p_a_killed) == (odds.a_down, odds.a_killed)
        assert (r.p_b_down, r.p_b_killed) == (odds.b_down, odds.b_killed)


def _both_down(*, b_initiative: int) -> dict[str, str]:
    """Two sides both down for sure: A (Fast, Mate; initiative 6) deals 6 automatic
    successes, B (Slow, Pal; ``b_initiative``) 4."""
    return {
        "a_combatants": (
            "Fast: Str 0, auto 6, soak 0, incap 1, dead 2, initiative 6\n"
            "Mate: Str 0, incap 2, dead 9"
        ),
        "b_combatants": (
            f"Slow: Str 0, auto 4, soak 0, incap 1, dead 5, initiative {b_initiative}\n"
            "Pal: Str 0, incap 2, dead 3"
        ),
    }


def test_roll_log_both_down_shows_rolled_damage_and_who_survives():
    # Both sides down for sure. A takes B's 4 automatic successes, 2 each: Fast dead
    # (dead 2), Mate Incapacitated (incap 2). B takes A's 6, 3 each: Slow Incapacitated,
    # Pal dead. Side A's initiative 6 > 2: every combatant of A survives on the level
    # before Incapacitated (whatever they rolled), every combatant of B is killed.
    r = compressed_combat(**_both_down(b_initiative=2))
    assert (r.p_a_down, r.p_a_killed, r.p_b_down, r.p_b_killed) == (0, 0, 1, 1)
    log = combat_roll_log(r, 3)
    assert "Both sides down: Side A has the higher initiative and survives; Side B dies" in log
    assert (
        "Side A takes 4 levels of damage: Fast 2 levels rolled, survives on the last −4 level "
        "(0 levels); Mate 2 levels rolled, survives on the last −4 level (1 level)"
    ) in log
    assert "Side B takes 6 levels of damage: Slow 3 levels, killed; Pal 3 levels, killed" in log


def test_roll_log_both_down_with_equal_initiative():
    # the same fight, both sides initiative 6: by default the damage stands as rolled
    r = compressed_combat(**_both_down(b_initiative=6))
    assert (r.p_a_down, r.p_a_killed, r.p_b_down, r.p_b_killed) == (1, 1, 1, 1)
    log = combat_roll_log(r, 3)
    assert not any(line.startswith("Both sides down") for line in log)
    assert (
        "Side A takes 4 levels of damage: Fast 2 levels, dead; Mate 2 levels, incapacitated" in log
    )
    assert (
        "Side B takes 6 levels of damage: Slow 3 levels, incapacitated; Pal 3 levels, dead" in log
    )
    # coin: each side survives half the time, and the log names the coin, not initiative
    r = compressed_combat(**_both_down(b_initiative=6), initiative_tie="coin")
    assert (r.p_a_down, r.p_a_killed, r.p_b_down, r.p_b_killed) == (Fraction(1, 2),) * 4
    survivors = set()
    for seed in range(20):
        log = combat_roll_log(r, seed)
        (line,) = (line for line in log if line.startswith("Both sides down"))
        survivor = line.split("the coin names ")[1].split(",")[0]
        assert line == (
            f"Both sides down, equal initiative: the coin names {survivor}, which survives; "
            f"{'Side B' if survivor == 'Side A' else 'Side A'} dies"
        )
        survivors.add(survivor)
    assert survivors == {"Side A", "Side B"}


# --- the squad's soak (issue 10) -----------------------------------------------------------

# Side B's leader with 10 henchmen: limit (Charisma 2 + Command 1) × 2 = 6, so 6 add
# +6d and +6 damage to the Boss's base pool and 4 past the limit are 4 extra health
# levels; the squad's soak is the henchmen's 1, not the Boss's 4 ("the representative
# soak of the most numerous henchman type"). Written out by hand for the brute force:
SQUAD_BOSS = Fighter("Boss", 3, 3 + 6 + 6, 6, soak=1, incap=5 + 4, dead=9 + 4, initiative=5)
SQUAD_LT = Fighter("Lt", 2, 2, 3, 2, incap=4, dead=6, initiative=3)
SQUAD_LINES = (
    "Boss: Dex 3, Brawl 3, damage 6, soak 4, incap 5, dead 9, initiative 5\n"
    "Lt: Dex 2, Brawl 2, damage 3, soak 2, incap 4, dead 6, initiative 3"
)


@pytest.mark.parametrize("split", ["even", "focus"])
def test_outcome_odds_against_a_squad_match_the_brute_force(split):
    r = compressed_combat(
        a_combatants="\n".join(f.line() for f in DUO),
        b_combatants=SQUAD_LINES,
        b_henchmen=10,
        b_henchman_pool=4,
        b_henchman_soak=1,
        b_leader_charisma=2,
        b_leader_command=1,
        damage_split=split,
    )
    # side A's attacks face the highest of the squad's 1 and the Lt's 2, not the Boss's 4
    assert [p.against for p in r.side_a.pools] == [2, 2]
    check_pools(r, DUO, [SQUAD_BOSS, SQUAD_LT])
    expected = brute_force(DUO, [SQUAD_BOSS, SQUAD_LT], split=split, initiative_tie="neither")
    assert_same(r, expected)
