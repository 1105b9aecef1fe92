"""The d10 dice pool: exact success, botch and comparison odds.

The rules as implemented (Storyteller/Trinity d10 pool, as Aberrant 2.0/2.1 use it):

* Roll ``dice`` ten-sided dice. Each die showing the **target number** (7 unless
  stated; 2..10 allowed) or more is one success.
* **Rerolling 10s** (2.0: a Specialty; 2.1: a Mega-Attribute): each 10 is a
  success *and* adds another die, which may itself show 10, without limit, so one
  die's successes are unbounded.
* **Automatic successes** are added to the rolled successes.
* **Difficulty** is the number of successes needed:
  ``P(success) = P(total successes ≥ difficulty)``.
* **Botch** (Trinity rule): no successes *and* at least one die showing 1. Ones do
  not cancel successes. Decisions taken here:

  - with one or more automatic successes a roll cannot botch (its total is > 0);
  - a die that rerolled a 10 already gave a success, so a botch needs every
    *first* die to fail; therefore ``P(botch) = ((t−1)/10)^n − ((t−2)/10)^n`` for
    ``n`` dice and target ``t``, with or without rerolls;
  - zero dice: zero rolled successes with certainty and no botch (no die shows 1).

Exactness
---------
The distribution is a :class:`ruleslab.pmf.Dist` (integer weights over one
denominator; every probability it gives is a :class:`fractions.Fraction`), the
one distribution type of the Aberrant and Chimera rules. Without rerolls the
number of rolled successes is binomial, the support finite and the table complete
(``tail_bound == 0``). With 10s rerolled the table is cut after the smallest ``K``
(at least ``upto``, see :func:`pool_distribution`) whose omitted mass
``P(successes > K)`` is below 10⁻¹², and that omitted mass is
reported *exactly* as ``tail_bound = 1 − Σ kept probabilities`` (not an estimate:
all kept probabilities are exact, so the remainder is exact).

Closed form with rerolls: a die is a run of ``j ≥ 0`` tens followed by one
non-10 face, which succeeds with ``a = 10 − t`` faces and fails with ``b = t − 1``.
For ``n`` dice the ``T`` tens can be spread over the ``n`` runs in
``C(T+n−1, n−1)`` ways, and ``m`` of the ``n`` closing faces succeed, so with
``k = T + m`` successes::

    P(k) = Σ_m C(k−m+n−1, n−1) · C(n, m) · a^m · b^(n−m) · 10^m / 10^(n+k)

Every term has denominator ``10^(n+k)``, so the engine sums integer numerators and
keeps them as the weights of one ``Dist`` over ``10^(n+K)``. The search for ``K``
stops: ``P(successes > K) ≤ P(T ≥ K−n+1)`` and ``P(T ≥ j) ≤ C(j+n−1, j)·10^−j``
(choose which ``j`` of the first ``j+n−1`` rolls are the tens), which tends to 0.
The exact mean with rerolls is ``(11 − t)/9`` per die (``1/9`` tens per die plus a
closing success with chance ``(10 − t)/9``).
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

from ruleslab.params import InputError
from ruleslab.pmf import Dist

__all__ = [
    "DICE",
    "Comparison",
    "PoolRoll",
    "SuccessDistribution",
    "compare",
    "dice_text",
    "per_die_mean",
    "pool_distribution",
    "roll_pool",
]

DICE = "Dice pool"
"""Source name for the core d10-pool rules (successes, difficulty, botch)."""

TAIL_LIMIT = Fraction(1, 10**12)
"""With rerolled 10s the table is cut once the omitted mass is below this."""


@dataclass(frozen=True)
class SuccessDistribution:
    """Exact distribution of a pool's total successes (automatic ones included).

    ``successes`` is the :class:`~ruleslab.pmf.Dist` of the total, from the
    automatic successes up to :attr:`highest`; with rerolled 10s it is the kept
    part of an unbounded distribution. ``tail_bound`` is the exact probability of
    more than :attr:`highest` successes (0 for a finite support, otherwise
    < 10⁻¹²). ``p_botch`` is the botch probability. ``full_mean`` is the exact
    mean of the *whole* distribution when known in closed form
    (``pool_distribution`` always sets it), else ``None``.
    """

    successes: Dist
    tail_bound: Fraction
    p_botch: Fraction
    full_mean: Fraction | None = field(default=None, compare=False)

    @functools.cached_property
    def pmf(self) -> tuple[Fraction, ...]:
        """The table: ``pmf[k] = P(exactly k successes)`` for ``k = 0 … highest`` (0
        below the automatic successes), as charts show it."""
        return self.successes.table()

    @property
    def highest(self) -> int:
        """The most successes the table holds (``len(pmf) − 1``)."""
        return self.successes.hi

    def probability(self, k: int) -> Fraction:
        """``P(exactly k successes)``; 0 outside the table (beyond it, truth ≤ ``tail_bound``)."""
        return self.successes.p(k)

    def at_least(self, k: int) -> Fraction:
        """``P(successes ≥ k)``.

        Exact for ``k ≤ highest + 1`` (computed as ``1 − P(successes < k)``, which
        includes the tail). Beyond, the result is 0: exact for a finite support,
        otherwise a lower bound (the tail is not resolved there; the true value
        lies in ``[0, tail_bound]``).
        """
        if k <= 0:
            return Fraction(1)
        if k > self.highest + 1:
            return Fraction(0)
        return 1 - self.successes.at_most(k - 1)

    def mean(self) -> Fraction:
        """Exact mean of the kept table ``Σ k·P(k)``.

        With a tail this slightly understates the true mean; :attr:`full_mean`
        gives the exact closed form where known.
        """
        return self.successes.mean()

    def total(self) -> Fraction:
        """Sum of the kept table, ``1 − tail_bound``."""
        return self.successes.total()


@dataclass(frozen=True)
class Comparison:
    """Opposed pools A and B rolled independently.

    The three probabilities come from the kept tables; ``uncertainty`` is the
    exact mass of pairs involving either tail, ``1 − (1−tail_a)(1−tail_b)``. So
    ``p_a_wins + p_tie + p_b_wins + uncertainty == 1`` and each true probability
    lies between the reported value and it plus ``uncertainty``.
    """

    p_a_wins: Fraction
    p_tie: Fraction
    p_b_wins: Fraction
    uncertainty: Fraction


# --- computation -----------------------------------------------------------------


def _check_pool(dice: int, auto: int, target: int) -> None:
    for name, value, lo, hi in (
        ("dice", dice, 0, None),
        ("auto", auto, 0, None),
        ("target", target, 2, 10),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(name, f"{name} must be a whole number.")
        if value < lo or (hi is not None and value > hi):
            rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
            raise InputError(name, f"{name} must be a whole number {rng}.")


@functools.lru_cache(maxsize=512)
def _rolled(dice: int, target: int, reroll_tens: bool, upto: int = 0) -> tuple[Dist, Fraction]:
    """(distribution of rolled successes, exact tail mass) — automatic successes not included.

    With rerolls the table runs to the smallest k ≥ ``upto`` whose tail is < 10⁻¹².
    """
    n = dice
    if n == 0:
        return Dist(0, (1,)), Fraction(0)
    if not reroll_tens:
        s, f = 11 - target, target - 1  # succeeding / failing faces
        # ways[k] = C(n,k) s^k f^(n−k) over 10^n, in lowest terms at once: every count and
        # 10^n share exactly g^n, g = gcd(10, s, f) (the counts' gcd is gcd(s, f)^n, as
        # C(n,0) = 1); each count from the last, C(n,k+1) = C(n,k)·(n−k)/(k+1) and one
        # failing face traded for a succeeding one (exact: f ≥ 1 for target ≥ 2)
        g = math.gcd(10, s, f)
        s, f = s // g, f // g
        way = f**n
        ways = [way]
        for k in range(n):
            way = way * (n - k) * s // ((k + 1) * f)
            ways.append(way)
        return Dist(0, tuple(ways), (10 // g) ** n), Fraction(0)

    a, b = 10 - target, target - 1  # closing face succeeds / fails; the 10th face rerolls
    # nums[k] = P(k successes) · 10^(n+k). One die's generating function is
    # G(x) = (b + a·x) / (10 − x) (a 10 scores and rolls again), the pool's F = G^n, and
    # F'·(b + a·x)(10 − x) = n(10a + b)·F: its coefficients follow three terms at a time,
    # nums[k+1] = ((n(10a + b) − (10a − b)k)·nums[k] + 10a(k − 1)·nums[k−1]) / (b(k + 1)),
    # from nums[0] = b^n; each an exact whole number (a count of rolls), so the division is
    # exact. (This was the sum over m of C(n,m)a^m b^(n−m)10^m · C(k−m+n−1, n−1), k terms
    # per entry: a 400-die pool's table took 27 ms.)
    q = n * (10 * a + b)
    nums: list[int] = []
    cum = 0  # Σ kept numerators, over 10^(n+k)
    den = 10**n
    k = 0
    before, num = 0, b**n
    while True:
        if k:
            top = (q - (10 * a - b) * (k - 1)) * num + 10 * a * (k - 2) * before
            step, rest = divmod(top, b * k)
            if rest:
                raise ArithmeticError("a pool's count of rolls must be a whole number")
            before, num = num, step
        nums.append(num)
        cum = cum * 10 + num
        rem = den - cum  # exact P(successes > k) · 10^(n+k)
        if k >= upto and rem * 10**12 < den:
            break
        k += 1
        den *= 10
    # nums[i] is over 10^(n+i): over the last denominator 10^(n+k) it is nums[i]·10^(k−i)
    weights = [0] * (k + 1)
    scale = 1
    for i in range(k, -1, -1):
        weights[i] = nums[i] * scale
        scale *= 10
    return Dist(0, tuple(weights), den), Fraction(rem, den)


def _botch(dice: int, auto: int, target: int) -> Fraction:
    if auto > 0 or dice == 0:
        return Fraction(0)
    f = target - 1  # failing faces, the 1 among them
    return Fraction(f**dice - (f - 1) ** dice, 10**dice)


def dice_text(n: int) -> str:
    """``n`` dice in words: "1 die", "3 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def per_die_mean(target: int, reroll_tens: bool) -> Fraction:
    """Mean successes of one die: (11 − t)/10, or (11 − t)/9 with 10s rerolled."""
    return Fraction(11 - target, 9 if reroll_tens else 10)


@functools.lru_cache(maxsize=512)
def _pool(dice: int, auto: int, target: int, reroll_tens: bool, upto: int) -> SuccessDistribution:
    rolled, tail = _rolled(dice, target, reroll_tens, upto)
    return SuccessDistribution(
        successes=rolled.shift(auto) if auto else rolled,
        tail_bound=tail,
        p_botch=_botch(dice, auto, target),
        full_mean=dice * per_die_mean(target, reroll_tens) + auto,
    )


def pool_distribution(
    dice: int, auto: int = 0, target: int = 7, reroll_tens: bool = False, *, upto: int = 0
) -> SuccessDistribution:
    """Exact distribution of total successes of ``dice`` d10 plus ``auto`` automatic ones.

    ``target`` is the number a die must show to succeed (2..10); ``reroll_tens``
    makes each 10 a success that adds another die, without limit. Raises
    :class:`~ruleslab.params.InputError` (a ``ValueError``) for negative counts or
    a target outside 2..10. Results are cached.

    With rerolls the table is cut at the smallest ``K`` leaving an omitted mass
    below 10⁻¹²; ``upto`` asks for at least ``K ≥ upto`` total successes, so that
    ``at_least(k)`` and ``probability(k)`` are exact for every ``k ≤ upto``
    (:func:`dice_pool` passes the difficulty). It does not matter without rerolls,
    whose table is always complete.
    """
    _check_pool(dice, auto, target)
    reroll = bool(reroll_tens)
    rolled_upto = max(0, upto - auto) if reroll and dice else 0
    return _pool(dice, auto, target, reroll, rolled_upto)


def compare(a: SuccessDistribution, b: SuccessDistribution) -> Comparison:
    """Odds of pool A beating, tying or losing to independent pool B (see :class:`Comparison`)."""
    wins, ties, losses = a.successes.versus(b.successes)
    uncertainty = 1 - (1 - a.tail_bound) * (1 - b.tail_bound)
    return Comparison(p_a_wins=wins, p_tie=ties, p_b_wins=losses, uncertainty=uncertainty)


@dataclass(frozen=True)
class PoolRoll:
    """One actual roll of a pool: every die's face, in order, and the outcome."""

    faces: tuple[int, ...]  # the first ``dice`` faces, then each rerolled die
    successes: int  # rolled successes plus automatic ones
    success: bool
    botch: bool


def roll_pool(
    dice: int,
    *,
    auto: int = 0,
    target: int = 7,
    reroll_tens: bool = False,
    difficulty: int = 1,
    rng: random.Random,
) -> PoolRoll:
    """Roll the pool once with ``rng``, following the same rules as :func:`pool_distribution`.

    With ``reroll_tens`` each 10 adds one more die (rolled after the pool, in
    order), without limit.
    """
    faces = [rng.randint(1, 10) for _ in range(dice)]
    pending = sum(1 for f in faces if f == 10) if reroll_tens else 0
    while pending:
        face = rng.randint(1, 10)
        faces.append(face)
        pending += (face == 10) - 1
    rolled = sum(1 for f in faces if f >= target)
    total = rolled + auto
    botch = total == 0 and 1 in faces
    return PoolRoll(tuple(faces), total, total >= difficulty, botch)
