"""Warfare: the explained result of one turn of an enemy force's attacks of opportunity.

:class:`WarfareReport` holds what :func:`ruleslab.alterations.warfare.turn.warfare_turn`
works out (the rules: :mod:`ruleslab.alterations.warfare`,
:mod:`ruleslab.alterations.warfare.support`,
:mod:`ruleslab.alterations.warfare.quantity`) and says it as the Warfare calculator's
figures and chart. Readings: ``docs/rules-notes/warfare.md`` (RN-WAR-*).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.alterations.warfare import fmt_threes
from ruleslab.explain import Chart, Explained, Figure, fmt_num, fmt_prob
from ruleslab.pmf import chart_bars

__all__ = ["WarfareReport"]


@dataclass(frozen=True, kw_only=True)
class WarfareReport(Explained):
    """One turn of a force's attacks of opportunity against a character or a squad.

    ``damage_pmf[k]`` is the exact P(the turn's attacks deal k health levels in
    all), of ``damage_type``; for a squad ``losses_pmf[k]`` is P(k henchmen
    removed) (capped at the squad), else ``None``. ``attack_threes`` and
    ``damage_threes`` dice count 3 per success (the "in threes" shortcut). With a
    ÷ 3 shortcut on, ``p_hit_full``, ``expected_damage_full`` and (for a squad)
    ``expected_losses_full`` are the full pools' figures, else ``None``.
    ``size_difference`` is enemy Size − party Size; ``morale_reduction`` the
    Morale the smaller side loses from each track this turn, ``morale_after``
    and ``party_morale_after`` (with their ``_permanent_after``) the tracks after
    it, before any Morale is spent. ``p_awareness`` is ``None`` when no awareness
    roll is asked for. For a character with Dazing applied, ``dazed_at`` and
    ``stunned_at`` are 2 × and 3 × his Stamina, and ``p_hit_dazed`` an attack's
    chance once the turn's attacks have Dazed him (``None`` when he is Dazed
    already, and without Dazing). ``defence_penalty`` is the Size difficulty on
    the defence, ``daze_difficulty`` the difficulty his condition at the start of
    the turn (``daze_at_start``) adds to it, both met as ``difficulty_reading``
    says (rules note RN-COND-5).
    """

    enemy_size: int
    headcount: int
    attacks_granted: int
    attack_cap: int
    attacks: int
    attack_dice: int
    attack_threes: int
    attack_auto: int
    defence_dice: int
    defence_penalty: int
    defence_reading: str
    difficulty_reading: str
    daze_at_start: str
    daze_difficulty: int
    damage_dice: int
    damage_threes: int
    damage_auto: int
    damage_type: str
    support_kind: str
    p_hit: Fraction
    p_hit_dazed: Fraction | None
    dazed_at: int | None
    stunned_at: int | None
    p_any_hit: Fraction
    damage_pmf: tuple[Fraction, ...]
    expected_damage: Fraction
    p_hit_full: Fraction | None
    expected_damage_full: Fraction | None
    size_difference: int
    awareness_dice: int
    awareness_difficulty_total: int
    p_awareness: Fraction | None
    p_awareness_without_size: Fraction | None
    morale_reduction: int
    morale_text: str
    morale_after: int
    morale_permanent_after: int
    party_morale_after: int
    party_morale_permanent_after: int
    power_use: str
    power_text: str
    target: str
    squad_size: int
    training: str
    rounding: str
    leader_is_henchman: bool
    losses_pmf: tuple[Fraction, ...] | None
    expected_losses: Fraction | None
    expected_losses_full: Fraction | None

    def p_total_at_least(self, levels: int) -> Fraction:
        """P(the turn's attacks deal at least ``levels`` health levels)."""
        return sum(self.damage_pmf[levels:], Fraction(0))

    @property
    def p_wiped(self) -> Fraction | None:
        """P(every removable member of the squad is removed), None for a character."""
        return None if self.losses_pmf is None else self.losses_pmf[-1]

    def _penalty_text(self) -> str:
        d = self.size_difference
        if d > 0:
            return f"+{d} difficulty to the party's defensive and awareness rolls"
        if d < 0:
            return f"+{-d} difficulty to the enemy's defensive and awareness rolls"
        return "none (equal Size)"

    def _awareness_text(self) -> str:
        assert self.p_awareness is not None
        assert self.p_awareness_without_size is not None
        d = max(0, self.size_difference)
        if not d:
            return (
                f"{fmt_prob(self.p_awareness)} at difficulty {self.awareness_difficulty_total} "
                "(no Size penalty: the party's force is not smaller)"
            )
        return (
            f"{fmt_prob(self.p_awareness)} at difficulty {self.awareness_difficulty_total - d} + "
            f"{d} for Size = {self.awareness_difficulty_total} (without the Size penalty: "
            f"{fmt_prob(self.p_awareness_without_size)})"
        )

    @staticmethod
    def _dice(dice: int, threes: int) -> str:
        return fmt_threes(threes, dice - threes) if threes else f"{dice} dice"

    def figures(self) -> tuple[Figure, ...]:
        auto = f" + {self.attack_auto} auto" if self.attack_auto else ""
        dauto = f" + {self.damage_auto} auto" if self.damage_auto else ""
        damage = (
            fmt_threes(self.damage_threes, self.damage_dice - self.damage_threes)
            if self.damage_threes
            else str(self.damage_dice)
        ) + dauto
        if self.damage_type != "lethal":
            damage += f", {self.damage_type}"
        defence = (
            f"{self.defence_dice} dice"
            if self.defence_reading == "opposed"
            else f"Defense {self.defence_dice}"
        )
        if self.defence_penalty:
            defence += f", −{self.defence_penalty} for Size"
        if self.daze_difficulty:
            defence += f", −{self.daze_difficulty} {self.daze_at_start.capitalize()}"
        figs = [
            Figure(
                "attacks",
                "Attacks of opportunity used",
                self.attacks,
                f"{self.attacks} of {self.attacks_granted}",
            ),
            Figure(
                "attack_pool",
                "Attack pool",
                self.attack_dice,
                self._dice(self.attack_dice, self.attack_threes) + auto,
            ),
            Figure("defence_pool", "Defence", self.defence_dice, defence),
            Figure("damage_dice", "Damage dice", self.damage_dice, damage),
            Figure("p_hit", "Chance each attack hits", self.p_hit, fmt_prob(self.p_hit)),
        ]
        if self.p_hit_full is not None:
            figs.append(
                Figure(
                    "p_hit_full",
                    "Chance each attack hits, full pools",
                    self.p_hit_full,
                    fmt_prob(self.p_hit_full),
                )
            )
        figs += [
            Figure(
                "p_any_hit", "Chance of at least one hit", self.p_any_hit, fmt_prob(self.p_any_hit)
            ),
            Figure(
                "expected_damage",
                f"Expected health levels ({self.damage_type})",
                self.expected_damage,
                fmt_num(self.expected_damage, "levels"),
            ),
        ]
        if self.expected_damage_full is not None:
            figs.append(
                Figure(
                    "expected_damage_full",
                    "Expected health levels, full pools",
                    self.expected_damage_full,
                    fmt_num(self.expected_damage_full, "levels"),
                )
            )
        if self.dazed_at is not None and self.stunned_at is not None:
            p_dazed = self.p_total_at_least(self.dazed_at)
            p_stunned = self.p_total_at_least(self.stunned_at)
            figs += [
                Figure(
                    "p_dazed",
                    "Chance he is Dazed this turn",
                    p_dazed,
                    f"{fmt_prob(p_dazed)} (at {self.dazed_at} levels)",
                ),
                Figure(
                    "p_stunned",
                    "Chance he is Stunned this turn",
                    p_stunned,
                    f"{fmt_prob(p_stunned)} (at {self.stunned_at} levels)",
                ),
            ]
        if self.losses_pmf is not None:
            assert self.expected_losses is not None
            assert self.p_wiped is not None
            figs.append(
                Figure(
                    "expected_losses",
                    "Expected henchmen removed",
                    self.expected_losses,
                    fmt_num(self.expected_losses, f"of {self.squad_size}"),
                )
            )
            if self.expected_losses_full is not None:
                figs.append(
                    Figure(
                        "expected_losses_full",
                        "Expected henchmen removed, full pools",
                        self.expected_losses_full,
                        fmt_num(self.expected_losses_full, f"of {self.squad_size}"),
                    )
                )
            figs.append(
                Figure(
                    "p_wiped", "Chance the squad is wiped out", self.p_wiped, fmt_prob(self.p_wiped)
                )
            )
        figs += [
            Figure(
                "headcount",
                "Enemy force, roughly",
                self.headcount,
                f"~{fmt_num(self.headcount)} combatants",
            ),
            Figure(
                "defence_penalty",
                "Size difference: difficulty",
                self.size_difference,
                self._penalty_text(),
            ),
        ]
        if self.p_awareness is not None:
            figs.append(
                Figure(
                    "awareness",
                    "Party's awareness roll",
                    self.p_awareness,
                    self._awareness_text(),
                )
            )
        figs += [
            Figure(
                "morale_reduction",
                "Size difference: Morale",
                self.morale_reduction,
                self.morale_text,
            ),
            Figure("power_effect", "Power track", self.power_use, self.power_text),
        ]
        return tuple(figs)

    def chart_pmf(self) -> tuple[Fraction, ...]:
        """The charted distribution: henchmen removed for a squad, else health levels."""
        return self.losses_pmf if self.losses_pmf is not None else self.damage_pmf

    def chart(self) -> Chart:
        """Bars ``(str(k), P(total k))``, cut after the last bar at least 10⁻⁶ likely;
        none highlighted."""
        return Chart(chart_bars(self.chart_pmf()))
