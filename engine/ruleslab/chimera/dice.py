"""Exact die algebra for Chimera: the d20 Action Roll, damage dice, the d12 initiative.

Chimera combat (the text in ``shared/rules/chimera-combat.txt``) rolls other dice
than the Aberrant d10 pool: "rolls 1d12 for Initiative", "the attacker rolls the
weapon's damage die (2 dice if the attack is a Critical Success)", "Unconscious:
Foe is knocked out for 1d6 turns", and an Action Roll against a Target Number
(a d20 by default, rules note RN-CHIM-1).

A :class:`Dist` is an exact distribution over consecutive integers: the lowest
value and a tuple of :class:`~fractions.Fraction` probabilities. Sums
(convolution), shifts, the higher of two rolls and tail probabilities are exact.
:class:`DamageDice` is a parsed dice expression such as ``d8``, ``2d6`` or
``d6+1``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "DamageDice",
    "Dist",
    "constant",
    "dice",
    "die",
    "parse_dice",
]

MAX_DICE = 10
"""At most this many dice in one expression (damage, action die)."""
MAX_SIDES = 100
MAX_BONUS = 20


@dataclass(frozen=True)
class Dist:
    """An exact distribution on the integers ``lo, lo+1, …, lo+len(pmf)−1``.

    ``pmf[i]`` is ``P(value == lo + i)``. The probabilities normally sum to 1;
    :meth:`total` says whether they do.
    """

    lo: int
    pmf: tuple[Fraction, ...]

    @property
    def hi(self) -> int:
        """The highest value in the table."""
        return self.lo + len(self.pmf) - 1

    def p(self, value: int) -> Fraction:
        """``P(X == value)``."""
        i = value - self.lo
        return self.pmf[i] if 0 <= i < len(self.pmf) else Fraction(0)

    def at_least(self, value: int) -> Fraction:
        """``P(X ≥ value)``."""
        i = max(0, value - self.lo)
        return sum(self.pmf[i:], Fraction(0))

    def items(self) -> tuple[tuple[int, Fraction], ...]:
        """``(value, probability)`` for every value of positive probability."""
        return tuple((self.lo + i, p) for i, p in enumerate(self.pmf) if p)

    def total(self) -> Fraction:
        return sum(self.pmf, Fraction(0))

    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.items()), Fraction(0))

    def shift(self, k: int) -> Dist:
        """The distribution of ``X + k``."""
        return Dist(self.lo + k, self.pmf)

    def __add__(self, other: Dist) -> Dist:
        """The distribution of ``X + Y`` for independent ``X`` and ``Y``."""
        out = [Fraction(0)] * (len(self.pmf) + len(other.pmf) - 1)
        for i, p in enumerate(self.pmf):
            if p:
                for j, q in enumerate(other.pmf):
                    if q:
                        out[i + j] += p * q
        return Dist(self.lo + other.lo, tuple(out))

    def max_with(self, other: Dist) -> Dist:
        """The distribution of ``max(X, Y)`` for independent ``X`` and ``Y``."""
        lo = max(self.lo, other.lo)
        hi = max(self.hi, other.hi)
        out = []
        cx = cy = Fraction(0)  # P(X ≤ v − 1), P(Y ≤ v − 1)
        for v in range(min(self.lo, other.lo), hi + 1):
            nx, ny = cx + self.p(v), cy + other.p(v)
            if v >= lo:
                out.append(nx * ny - cx * cy)
            cx, cy = nx, ny
        return Dist(lo, tuple(out))


def constant(value: int) -> Dist:
    """A value that is certain."""
    return Dist(value, (Fraction(1),))


@functools.lru_cache(maxsize=64)
def die(sides: int) -> Dist:
    """One fair die with faces ``1 … sides``."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return Dist(1, (Fraction(1, sides),) * sides)


@functools.lru_cache(maxsize=256)
def dice(count: int, sides: int) -> Dist:
    """The sum of ``count`` fair dice with ``sides`` faces (0 dice: always 0)."""
    out = constant(0)
    for _ in range(count):
        out = out + die(sides)
    return out


@dataclass(frozen=True)
class DamageDice:
    """A dice expression ``<count>d<sides>±<bonus>`` such as ``d8``, ``2d6`` or ``d6+1``."""

    count: int
    sides: int
    bonus: int = 0

    @property
    def text(self) -> str:
        head = f"{'' if self.count == 1 else self.count}d{self.sides}"
        if self.bonus:
            head += f"{self.bonus:+d}"
        return head

    def __str__(self) -> str:
        return self.text

    def dist(self) -> Dist:
        """The roll's exact distribution."""
        return dice(self.count, self.sides).shift(self.bonus)

    def doubled(self, how: str = "sum") -> Dist:
        """Two of the weapon's dice on a Critical Success (rules note RN-CHIM-3).

        ``how == "sum"``: twice the dice are rolled and added, the bonus once
        (``d8`` → ``2d8``, ``d6+1`` → ``2d6+1``). ``how == "best"``: the weapon's
        dice are rolled twice and the higher total is kept, plus the bonus once.
        """
        if how == "sum":
            return dice(2 * self.count, self.sides).shift(self.bonus)
        if how == "best":
            one = dice(self.count, self.sides)
            return one.max_with(one).shift(self.bonus)
        raise ValueError(f"unknown critical damage rule {how!r}")

    def doubled_text(self, how: str = "sum") -> str:
        if how == "sum":
            return DamageDice(2 * self.count, self.sides, self.bonus).text
        one = DamageDice(self.count, self.sides).text
        return f"the higher of two {one}" + (f" {self.bonus:+d}" if self.bonus else "")


_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def parse_dice(text: str) -> DamageDice:
    """Parse ``d8``, ``1d8``, ``2d6``, ``d6+1``, ``d10 - 1``; ``ValueError`` says why not.

    Counts run from 1 to 10, sides from 2 to 100, the bonus from −20 to +20.
    """
    m = _DICE_RE.match(text or "")
    if not m:
        raise ValueError(f"{text.strip()!r} is not a dice expression like d8, 2d6 or d6+1")
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"the number of dice must be from 1 to {MAX_DICE}")
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"a die must have from 2 to {MAX_SIDES} sides")
    if not -MAX_BONUS <= bonus <= MAX_BONUS:
        raise ValueError(f"the bonus must be from −{MAX_BONUS} to +{MAX_BONUS}")
    return DamageDice(count, sides, bonus)
