"""Compressed combat's result: both sides, the odds, damage and health, with its charts.

Combat alterations › Compressed Combat › Resolution › Victory: "The winner is the side
which rolls more total successes. […] A tie is resolved by base initiative" › Damage
and Death: "The total successes rolled by a "side" equal the levels of damage a
character takes." :class:`CompressedCombat` holds what the calculator
(:func:`ruleslab.calculators.compressed.compressed_combat`) worked out with
:mod:`~ruleslab.alterations.compressed.pools` and :mod:`~ruleslab.alterations.compressed.odds`, and
shows it: its figures, the success margin and the damage each side takes as charts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.alterations.compressed.odds import (
    Health,
    VictoryOdds,
    fate_labels,
    levels_to_down,
    margin_probabilities,
)
from ruleslab.alterations.compressed.pools import SideResult
from ruleslab.explain import Chart, Explained, Figure, fmt_num, fmt_prob
from ruleslab.pmf import CHART_CUTOFF, chart_bars
from ruleslab.pmf import mean as pmf_mean

__all__ = ["CompressedCombat"]


@dataclass(frozen=True, kw_only=True)
class CompressedCombat(VictoryOdds, Health, Explained):
    """Result of :func:`compressed_combat`: both sides, the odds, damage and health.

    ``victory_a``/``victory_b`` are the success tables compared for victory,
    ``damage_to_a``/``damage_to_b`` the exact distributions of health levels each
    side loses. Who takes the fight are the fields of :class:`VictoryOdds`
    (``p_a_wins`` … ``p_b_takes``; ties go to ``tie_to``, "A", "B", "neither" or
    "coin"); the sides' fates those of :class:`Health` (``p_*_down``: every combatant
    of the side Incapacitated or dead; ``p_*_killed``: at least one of them killed —
    both after the both-down rule).
    """

    side_a: SideResult
    side_b: SideResult
    victory_a: tuple[Fraction, ...]
    victory_b: tuple[Fraction, ...]
    damage_to_a: tuple[Fraction, ...]
    damage_to_b: tuple[Fraction, ...]
    timeframe: int
    damage_split: str
    ablative_applies: str

    @property
    def favoured(self) -> str:
        """ "A", "B" or "even": the side more likely to take the fight."""
        if self.p_a_takes == self.p_b_takes:
            return "even"
        return "A" if self.p_a_takes > self.p_b_takes else "B"

    @property
    def expected_damage_to_a(self) -> Fraction:
        return pmf_mean(self.damage_to_a)

    @property
    def expected_damage_to_b(self) -> Fraction:
        return pmf_mean(self.damage_to_b)

    def winner_text(self) -> str:
        a, b = self.p_a_takes, self.p_b_takes
        if a == b:
            return "Even odds: neither side is favoured"
        side = self.side_a if a > b else self.side_b
        p = max(a, b)
        return f"{side.title}, {fmt_prob(p)} — intent: “{side.intent}”"

    def tie_text(self) -> str:
        who = {
            "A": f"to {self.side_a.label} (higher initiative)",
            "B": f"to {self.side_b.label} (higher initiative)",
            "neither": "to neither (equal initiative)",
            "coin": "half to each (equal initiative)",
        }[self.tie_to]
        return f"{fmt_prob(self.p_tie)}, {who}"

    def figures(self) -> tuple[Figure, ...]:
        a, b = self.side_a, self.side_b
        return (
            Figure("pool_a", f"{a.label}'s pool", (a.dice, a.auto), a.pool_text()),
            Figure("pool_b", f"{b.label}'s pool", (b.dice, b.auto), b.pool_text()),
            Figure("p_a_wins", f"{a.label} wins", self.p_a_takes, fmt_prob(self.p_a_takes)),
            Figure("p_b_wins", f"{b.label} wins", self.p_b_takes, fmt_prob(self.p_b_takes)),
            Figure("p_tie", "Tie (same successes)", self.p_tie, self.tie_text()),
            Figure("winner", "Likely winner", self.favoured, self.winner_text()),
            Figure(
                "damage_to_a",
                f"Expected damage to {a.label}",
                self.expected_damage_to_a,
                fmt_num(self.expected_damage_to_a, "health levels"),
            ),
            Figure(
                "damage_to_b",
                f"Expected damage to {b.label}",
                self.expected_damage_to_b,
                fmt_num(self.expected_damage_to_b, "health levels"),
            ),
            *self._fate_figures("a", a, self.p_a_down, self.p_a_killed),
            *self._fate_figures("b", b, self.p_b_down, self.p_b_killed),
            Figure(
                "timeframe",
                "Timeframe",
                self.timeframe,
                f"{self.timeframe} turn{'' if self.timeframe == 1 else 's'}",
            ),
            Figure("quantum_a", f"{a.label}: Quantum spent", a.quantum, a.quantum_text()),
            Figure("quantum_b", f"{b.label}: Quantum spent", b.quantum, b.quantum_text()),
        )

    @staticmethod
    def _fate_figures(key: str, side: SideResult, down: Fraction, killed: Fraction) -> list[Figure]:
        """``p_*_down`` and ``p_*_killed``, labelled for what they count: with several
        combatants the side is down only when all are, and one death is "a death"."""
        down_label, killed_label = fate_labels(side.label, len(side.pools))
        return [
            Figure(f"p_{key}_down", down_label, down, fmt_prob(down)),
            Figure(f"p_{key}_killed", killed_label, killed, fmt_prob(killed)),
        ]

    def margin(self) -> tuple[int, tuple[float, ...]]:
        """(lowest margin, P(margin)) for the margin A − B of the successes compared."""
        return margin_probabilities(self.victory_a, self.victory_b)

    def _margin_bars(self) -> tuple[int, tuple[float, ...], int, int]:
        """:meth:`margin` and the first and last bar shown (below 10⁻⁶ trimmed, 0 kept)."""
        lo, probs = self.margin()
        keep = [i for i, p in enumerate(probs) if p >= CHART_CUTOFF] or [0]
        return lo, probs, min([*keep, -lo]), max([*keep, -lo])

    def margin_chart(self) -> Chart:
        """Bars ``(margin, P)`` for successes A − B, trimmed where below 10⁻⁶ at both ends
        (the bar 0 always kept), highlighted from the first margin where side A takes the
        fight: 0 when ties go to A (higher base initiative), else +1.

        Resolution › Victory: "The winner is the side which rolls more total successes.
        […] A tie is resolved by base initiative".
        """
        lo, probs, first, last = self._margin_bars()
        bars = tuple(
            (f"{lo + i:+d}".replace("-", "−") if lo + i else "0", probs[i])
            for i in range(first, last + 1)
        )
        zero = -lo - first
        return Chart(bars, zero if self.tie_to == "A" else zero + 1)

    def _damage_chart(self, side: SideResult, pmf: tuple[Fraction, ...]) -> Chart:
        return Chart(chart_bars(pmf), levels_to_down(side.pools, self.damage_split))

    def damage_chart_a(self) -> Chart:
        """Bars ``(levels, P)`` of the health levels side A loses, highlighted from the
        fewest levels that take every combatant of side A out (before the both-down rule;
        ``None`` when no damage can).

        Resolution › Damage and Death: "The total successes rolled by a "side" equal the
        levels of damage a character takes."
        """
        return self._damage_chart(self.side_a, self.damage_to_a)

    def damage_chart_b(self) -> Chart:
        """Bars ``(levels, P)`` of the health levels side B loses, highlighted like
        :meth:`damage_chart_a`."""
        return self._damage_chart(self.side_b, self.damage_to_b)
