"""Benchmark: the exact d10 pool engine against icepool (the peer), in one run.

For pools of several sizes, times ``ruleslab.dice.pool_distribution`` (cache
cleared each call) and the same distribution computed by icepool, and prints
the ratio. Also checks both give the same probabilities, so the comparison is
like for like. Usage: ``.venv/bin/python bench/dice_engine.py``.
"""

from __future__ import annotations

import timeit

import icepool

from ruleslab import dice


def ours(n: int, reroll: bool):
    dice._pool.cache_clear()
    dice._rolled.cache_clear()
    return dice.pool_distribution(n, reroll_tens=reroll)


def peer(n: int, reroll: bool) -> icepool.Die:
    """The same pool in icepool: the sum of n per-die success counts."""
    return n @ (_chain_die(DEPTH) if reroll else icepool.d10.map(lambda x: 1 if x >= 7 else 0))


DEPTH = 16  # rerolls kept per die in the peer: tail mass per die 10**-16


def _chain_die(depth: int) -> icepool.Die:
    """Successes from one die with 10s rerolled, the chain cut after ``depth`` tens.

    P(0) = 6/10 and P(k) = 36/10**(k+1) for k >= 1 (k-1 tens, then 7-9; or k
    tens, then 1-6); the mass of longer chains is lumped on ``depth``.
    """
    weights = {0: 6 * 10**depth}
    for k in range(1, depth):
        weights[k] = 36 * 10 ** (depth - k)
    weights[depth] = 10 ** (depth + 1) - sum(weights.values())
    return icepool.Die(weights)


def _check_same(n: int, reroll: bool) -> None:
    a = ours(n, reroll)
    b = peer(n, reroll)
    total = b.denominator()
    for k, p in enumerate(a.pmf[: n + 1]):
        q = b.quantity(k) / total
        assert abs(float(p) - q) < 1e-9, (n, reroll, k, float(p), q)


def main() -> int:
    print("| pool | rerolled 10s | ruleslab | icepool | ratio (icepool / ruleslab) |")
    print("| --- | --- | --- | --- | --- |")
    for n in (5, 10, 20, 40, 60):
        for reroll in (False, True):
            _check_same(n, reroll)
            t_ours = min(
                timeit.repeat(lambda n=n, reroll=reroll: ours(n, reroll), number=1, repeat=5)
            )
            t_peer = min(
                timeit.repeat(lambda n=n, reroll=reroll: peer(n, reroll), number=1, repeat=5)
            )
            print(
                f"| {n}d10 | {'yes' if reroll else 'no'} | {t_ours * 1e3:.2f} ms | "
                f"{t_peer * 1e3:.2f} ms | {t_peer / t_ours:.1f}× |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
