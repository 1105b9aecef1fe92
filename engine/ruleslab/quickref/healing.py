"""Healing (2.1): time to heal each damaged health level and to full health.

Quick reference › 2.1 Rules › Healing:

    Characters heal at the below rates.

    • -0 HLs: 1 hour (bashing)/12 hours (lethal)
    • -1 HLs: 2 hours (bashing)/1 day (lethal)
    • -2 HLs: 4 hours (bashing)/3 days (lethal)
    • -3 HLs: 8 hours (bashing)/1 week (lethal)
    • -4+ HLs: 12 hours (bashing)/2 weeks (lethal)
    • Incapacitated: 1 day (bashing)/1 month (lethal)
    • Dying: 5 months (lethal)

    Being treated by someone with Medicine 2+ and at least Int 2 halves healing
    times, treatment by someone with Medicine 4+ and Int 3+ quarters them. Basic
    medical supplies reduce wound penalties by 1, a small clinic reduces them by
    2, and a well-stocked hospital reduces them by 4, for healing purposes.

The damaged levels come from the 2.1 health track (Quick reference › 2.1 Rules ›
Health Levels): "The character takes a -1 wound penalty for every (Stamina +
Resistance)/2 + 1, (round down) health levels of damage they suffer. Past that,
a character has an additional (Stamina) Incapacitated levels, and Dying health
levels". The GM enters the track's three numbers from the sheet and how many
levels of lethal and bashing damage it carries. Readings: rules notes
RN-HEAL-1 … RN-HEAL-7 (``docs/rules-notes/healing.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.explain import Explained, Figure, Step
from ruleslab.quickref.health import HL_21
from ruleslab.quickref.mega import effective
from ruleslab.sources import QR, rule

__all__ = [
    "HOURS",
    "ROWS",
    "HealedLevel",
    "HealingTime",
    "fmt_hours",
    "healing_time",
    "level_rows",
]

HEALING = rule(QR, "2.1 Rules", "Healing")

DAY = 24
WEEK = 7 * DAY
MONTH = 30 * DAY
"""A month is 30 days (rules note RN-HEAL-6)."""

ROWS = ("−0", "−1", "−2", "−3", "−4+", "Incapacitated", "Dying")
"""The healing table's rows, least severe first."""

INCAP = 5
DYING = 6

HOURS: dict[str, tuple[int | None, ...]] = {
    "bashing": (1, 2, 4, 8, 12, DAY, None),
    "lethal": (12, DAY, 3 * DAY, WEEK, 2 * WEEK, MONTH, 5 * MONTH),
}
"""Hours to heal one level, by kind and row (index into :data:`ROWS`); the table
gives no bashing time for Dying (rules note RN-HEAL-5)."""

_TABLE_UNITS = (("month", MONTH), ("week", WEEK), ("day", DAY), ("hour", 1))


def _table_words(hours: int) -> str:
    """A time of :data:`HOURS` in the table's words: "12 hours", "3 days", "1 month"."""
    name, size = next((name, size) for name, size in _TABLE_UNITS if hours % size == 0)
    n = hours // size
    return f"{n} {name}{'s' if n != 1 else ''}"


SUPPLY_REDUCTION = {"none": 0, "basic": 1, "clinic": 2, "hospital": 4}
_SUPPLY_NAME = {
    "none": "no medical supplies",
    "basic": "basic medical supplies",
    "clinic": "a small clinic",
    "hospital": "a well-stocked hospital",
}


def fmt_hours(hours: Fraction | int) -> str:
    """A duration for a GM: "3 days 4 h 15 min"; under a day "6 h 30 min"; "0 h" for none."""
    minutes = Fraction(hours) * 60
    whole = int(minutes)  # healing times are whole multiples of 15 minutes
    days, rest = divmod(whole, DAY * 60)
    h, m = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if h:
        parts.append(f"{h} h")
    if m:
        parts.append(f"{m} min")
    if minutes != whole:  # not reached by the table's times; keep it honest
        parts.append(f"{float(minutes - whole) * 60:.0f} s")
    return " ".join(parts) if parts else "0 h"


# --- the track ------------------------------------------------------------------------


def level_rows(
    damage: int,
    health_levels: int,
    levels_per_penalty: int,
    incap_levels: int,
    penalty_from: str = "after",
) -> tuple[tuple[int, int], ...]:
    """``(wound penalty, row)`` of the 1st … ``damage``-th damaged level, top first.

    The penalty is the level's own (−0, −1, …, possibly beyond −4 on a long 2.1
    track); ``row`` indexes :data:`ROWS` (penalties of 4 and more share "−4+",
    then Incapacitated, then Dying). For Incapacitated and Dying levels the
    penalty is reported as ``-1``.
    """
    out = []
    for d in range(1, damage + 1):
        if d <= health_levels:
            pen = (
                d // levels_per_penalty
                if penalty_from == "after"
                else (d - 1) // levels_per_penalty
            )
            out.append((pen, min(pen, 4)))
        elif d <= health_levels + incap_levels:
            out.append((-1, INCAP))
        else:
            out.append((-1, DYING))
    return tuple(out)


@dataclass(frozen=True)
class HealedLevel:
    """One damaged level: where it is, its kind, the row it heals at and the time it takes."""

    position: int
    kind: str
    penalty: int
    track_row: int
    healing_row: int
    rate_kind: str
    hours: Fraction

    def label(self) -> str:
        return f"{self.kind} {ROWS[self.track_row]}"


@dataclass(frozen=True, kw_only=True)
class HealingTime(Explained):
    """Time to heal back to full health and each level's time (treatment included).

    ``levels`` lists the damaged levels from the top of the track down;
    ``total_hours`` is the time to full health under ``order``; ``factor`` the
    treatment's multiplier (1, 1/2 or 1/4).
    """

    levels: tuple[HealedLevel, ...]
    factor: Fraction
    total_hours: Fraction
    order: str

    def per_level_text(self) -> str:
        if not self.levels:
            return "—"
        groups: dict[tuple[str, int, int], list[HealedLevel]] = {}
        for lv in self.levels:
            groups.setdefault((lv.kind, lv.track_row, lv.healing_row), []).append(lv)
        parts = []
        for (kind, track, heal), lvs in groups.items():
            at = "" if heal == track else f" (at the {ROWS[heal]} rate)"
            n = f"{len(lvs)} × " if len(lvs) > 1 else ""
            parts.append(f"{n}{kind} {ROWS[track]}{at}: {fmt_hours(lvs[0].hours)}")
        return "; ".join(parts)

    def speed_text(self) -> str:
        return {Fraction(1): "normal", Fraction(1, 2): "halved", Fraction(1, 4): "quartered"}[
            self.factor
        ]

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure(
                "total_time", "Time to full health", self.total_hours, fmt_hours(self.total_hours)
            ),
            Figure("per_level", "Time per level", self.levels, self.per_level_text()),
            Figure("levels", "Damaged levels", len(self.levels), str(len(self.levels))),
            Figure("treatment", "Healing times", self.factor, self.speed_text()),
        )


def _treatment(medicine: int, intelligence: int, mega_int: int) -> tuple[Fraction, list[Step]]:
    eff = effective("Intelligence", intelligence, mega_int, purpose="for treatment")
    steps = [eff.step] if eff.step else []
    i = eff.value
    if medicine >= 4 and i >= 3:
        factor, what = Fraction(1, 4), "Medicine 4+ and Int 3+: healing times are quartered"
    elif medicine >= 2 and i >= 2:
        factor, what = Fraction(1, 2), "Medicine 2+ and Int 2+: healing times are halved"
    elif medicine == 0:
        factor, what = Fraction(1), "no treatment: normal healing times"
    else:
        factor, what = Fraction(1), "below Medicine 2 and Int 2: normal healing times"
    steps.append(Step(f"Healer Medicine {medicine}, Intelligence {i}: {what}", HEALING))
    return factor, steps


def healing_time(
    lethal: int = 2,
    bashing: int = 3,
    health_levels: int = 12,
    levels_per_penalty: int = 3,
    incap_levels: int = 3,
    healer_medicine: int = 0,
    healer_intelligence: int = 2,
    healer_mega_intelligence: int = 0,
    supplies: str = "none",
    order: str = "one_at_a_time",
    penalty_from: str = "after",
    dying_bashing: str = "lethal_rate",
) -> HealingTime:
    """Time for a character to heal ``lethal`` + ``bashing`` damaged levels (lethal on
    top, bashing below), each level at the table's rate for its wound penalty less
    the supplies' reduction, times the treatment's factor.

    The track is the sheet's: ``health_levels`` before Incapacitated, a −1 wound
    penalty per ``levels_per_penalty`` levels of damage, ``incap_levels``
    Incapacitated levels, then Dying. The defaults are the Healing time
    calculator's (:mod:`ruleslab.calculators.healing`): 2 lethal and 3 bashing
    levels on a 12-level track, untreated."""
    steps: list[Step] = []
    damage = lethal + bashing
    steps.append(
        Step(
            f"Track: {health_levels} health levels, −1 wound penalty per {levels_per_penalty} "
            f"levels of damage, then {incap_levels} Incapacitated levels, then Dying",
            HL_21,
        )
    )
    factor, treat_steps = _treatment(healer_medicine, healer_intelligence, healer_mega_intelligence)
    reduction = SUPPLY_REDUCTION[supplies]
    if damage == 0:
        steps += treat_steps
        steps.append(Step("No damaged levels: nothing to heal, 0 h", HEALING))
        return HealingTime(
            levels=(), factor=factor, total_hours=Fraction(0), order=order, steps=tuple(steps)
        )
    rows = level_rows(damage, health_levels, levels_per_penalty, incap_levels, penalty_from)
    steps.append(
        Step(
            f"{lethal} lethal levels fill the track from the top, then {bashing} bashing "
            "(rules note RN-HEAL-3); a level's wound penalty is "
            + (
                f"the one reached after that much damage: ⌊level ÷ {levels_per_penalty}⌋"
                if penalty_from == "after"
                else f"its row of {levels_per_penalty}: ⌊(level − 1) ÷ {levels_per_penalty}⌋"
            )
            + " (rules note RN-HEAL-4)",
            HL_21,
        )
    )
    steps += treat_steps
    if reduction:
        steps.append(
            Step(
                f"With {_SUPPLY_NAME[supplies]} wound penalties count {reduction} less for "
                "healing (not below −0); Incapacitated and Dying levels are unchanged "
                "(rules note RN-HEAL-2)",
                HEALING,
            )
        )
    levels = []
    for pos, (pen, row) in enumerate(rows, start=1):
        kind = "lethal" if pos <= lethal else "bashing"
        heal_row = row if row >= INCAP else min(max(pen - reduction, 0), 4)
        table_kind = kind
        if row == DYING and kind == "bashing":
            if dying_bashing == "lethal_rate":
                table_kind = "lethal"
            else:
                heal_row = INCAP
        hours = HOURS[table_kind][heal_row]
        assert hours is not None
        levels.append(
            HealedLevel(
                position=pos,
                kind=kind,
                penalty=pen,
                track_row=row,
                healing_row=heal_row,
                rate_kind=table_kind,
                hours=hours * factor,
            )
        )
    if any(lv.track_row == DYING and lv.kind == "bashing" for lv in levels):
        rate = (
            "5 months, like lethal"
            if dying_bashing == "lethal_rate"
            else "1 day, like Incapacitated bashing"
        )
        steps.append(
            Step(
                f"Bashing damage on Dying levels: the table gives Dying only a lethal time; "
                f"it heals in {rate} (rules note RN-HEAL-5)",
                HEALING,
            )
        )
    if any(lv.track_row == DYING for lv in levels):
        steps.append(
            Step(
                "Damage on the Dying levels: the character is dying; these times assume "
                "she survives",
                HL_21,
            )
        )

    # one step per group of equal levels, worst (bottom) group first, with the running total
    groups: list[list[HealedLevel]] = []
    for lv in reversed(levels):
        if groups and (groups[-1][0].kind, groups[-1][0].track_row, groups[-1][0].healing_row) == (
            lv.kind,
            lv.track_row,
            lv.healing_row,
        ):
            groups[-1].append(lv)
        else:
            groups.append([lv])
    elapsed = Fraction(0)
    for g in groups:
        lv = g[0]
        table_hours = HOURS[lv.rate_kind][lv.healing_row]
        assert table_hours is not None  # (no level heals at the table's missing time)
        base = _table_words(table_hours)
        n = len(g)
        at = "" if lv.healing_row == lv.track_row else f", at the {ROWS[lv.healing_row]} rate"
        times = "" if factor == 1 else f" × {factor}"
        span = f"levels {g[-1].position}–{g[0].position}" if n > 1 else f"level {lv.position}"
        elapsed += lv.hours * n
        when = f"; healed after {fmt_hours(elapsed)}" if order == "one_at_a_time" else ""
        each = " each" if n > 1 else ""
        steps.append(
            Step(
                f"{n} {lv.kind} level{'s' if n > 1 else ''} at {ROWS[lv.track_row]} ({span}{at}): "
                f"{base}{times} = {fmt_hours(lv.hours)}{each}{when}",
                HEALING,
            )
        )
    if order == "one_at_a_time":
        total = sum((lv.hours for lv in levels), Fraction(0))
        steps.append(
            Step(
                f"Levels heal one at a time, the worst first (rules note RN-HEAL-1): "
                f"total = {fmt_hours(total)}",
                HEALING,
            )
        )
    else:
        total = max(lv.hours for lv in levels)
        steps.append(
            Step(
                f"All levels heal at once (option, rules note RN-HEAL-1): the slowest decides, "
                f"total = {fmt_hours(total)}",
                HEALING,
            )
        )
    return HealingTime(
        levels=tuple(levels), factor=factor, total_hours=total, order=order, steps=tuple(steps)
    )
