"""Quantum spent in a compressed combat: the power-type cost multipliers and the shortfall.

Combat alterations › Compressed Combat › Quantum Powers:

    In general, if a quantum power is used for the attack pool, it is assumed
    that the power is used for the majority of combat. Maintenance and
    Concentration powers cost double, while multiply the cost of all Action
    powers by x5 and all Instant powers by x10. In the event that the character
    has an insufficient quantum pool for the use of all powers he/she chooses to
    apply, the character ends the combat with 0 points of remaining Quantum but
    suffers no other penalties.

A GM lists the powers used, one a line: ``[Who:] Power, cost, type`` (e.g.
``Flight, 1, maintenance`` or ``Nova: Quantum Bolt, 2, instant``). The cost is the
power's normal Quantum cost; the type is maintenance, concentration, action or
instant (the first three letters are enough). The combat's cost is ``cost ×
multiplier`` whatever the timeframe (rules note RN-COMP-9).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.sources import ALT, rule

__all__ = [
    "MULTIPLIERS",
    "QUANTUM_POWERS",
    "PowerUse",
    "QuantumSpend",
    "parse_powers",
    "quantum_spend",
]

QUANTUM_POWERS = rule(ALT, "Compressed Combat", "Quantum Powers")

MULTIPLIERS: dict[str, int] = {
    "maintenance": 2,
    "concentration": 2,
    "action": 5,
    "instant": 10,
}
"""“Maintenance and Concentration powers cost double … Action powers by x5 and all
Instant powers by x10.”"""

MAX_POWERS = 20
MAX_COST = 50
_NAME = re.compile(r"^[^\d,:;][^,:;]{0,59}$")  # one bounded class: linear time


@dataclass(frozen=True)
class PowerUse:
    """One power used in the fight: who uses it, its normal cost and type."""

    who: str  # "" until assigned to a combatant
    power: str
    cost: int
    kind: str  # a key of MULTIPLIERS
    line: int

    @property
    def multiplier(self) -> int:
        return MULTIPLIERS[self.kind]

    @property
    def spent(self) -> int:
        return self.cost * self.multiplier

    def __str__(self) -> str:
        who = f"{self.who}: " if self.who else ""
        return f"{who}{self.power}, {self.cost} Quantum, {self.kind} (× {self.multiplier})"


def _kind(word: str) -> str | None:
    w = word.strip().lower()
    if len(w) < 3:
        return None
    for kind in MULTIPLIERS:
        if kind.startswith(w):
            return kind
    return None


def _whole(text: str, highest: int) -> int | None:
    """``text`` as a whole number from 0 to ``highest`` written in the digits 0–9, or None.

    Only ASCII digits: ``str.isdigit`` also accepts "²" or "①", which ``int``
    refuses (issue 11). Leading zeros are dropped before ``int``, so a long
    number costs no more than its length.
    """
    if not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0")
    if len(significant) > len(str(highest)):
        return None
    value = int(significant or "0")
    return value if value <= highest else None


def parse_powers(text: str, *, field: str, label: str) -> tuple[PowerUse, ...]:
    """Parse ``[Who:] Power, cost, type`` lines; blank lines and ``#`` comments are skipped.

    Raises :class:`InputError` naming ``field`` and the line that is wrong.
    """
    uses: list[PowerUse] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{label}, line {number}"
        who = ""
        if ":" in line:
            who, line = (part.strip() for part in line.split(":", 1))
            if not who:
                raise InputError(field, f"{where}: nothing before the “:”; write “Who: Power, …”.")
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3 or not all(parts):
            raise InputError(
                field,
                f"{where}: write “Power, cost, type”, e.g. “Flight, 1, maintenance” "
                f"(three parts separated by commas).",
            )
        power, cost_text, kind_text = parts
        if not _NAME.match(power):
            raise InputError(field, f"{where}: the power's name must be text of up to 60 letters.")
        cost = _whole(cost_text, MAX_COST)
        if cost is None:
            raise InputError(
                field, f"{where}: the cost must be a whole number from 0 to {MAX_COST}."
            )
        kind = _kind(kind_text)
        if kind is None:
            raise InputError(
                field,
                f"{where}: the type must be one of maintenance, concentration, action, instant.",
            )
        uses.append(PowerUse(who=who, power=power, cost=cost, kind=kind, line=number))
    if len(uses) > MAX_POWERS:
        raise InputError(field, f"{label}: at most {MAX_POWERS} powers.")
    return tuple(uses)


@dataclass(frozen=True)
class QuantumSpend:
    """One combatant's Quantum over the fight: spent, available and what is left."""

    who: str
    powers: tuple[PowerUse, ...]
    spent: int
    pool: int | None  # None: the combatant's Quantum was not given
    remaining: int | None
    shortfall: int

    def text(self) -> str:
        if self.pool is None:
            return f"{self.who} {self.spent}"
        if self.shortfall:
            return f"{self.who} {self.spent} of {self.pool}: ends at 0"
        return f"{self.who} {self.spent} of {self.pool}"


def quantum_spend(who: str, powers: tuple[PowerUse, ...], pool: int | None) -> QuantumSpend:
    """Quantum ``who`` spends on ``powers``; with ``pool`` known, what is left (floored at 0)."""
    spent = sum(p.spent for p in powers)
    if pool is None:
        return QuantumSpend(who, powers, spent, None, None, 0)
    return QuantumSpend(who, powers, spent, pool, max(0, pool - spent), max(0, spent - pool))


def spend_steps(side: str, spends: tuple[QuantumSpend, ...]) -> list[Step]:
    """Steps explaining each combatant's Quantum spend."""
    steps: list[Step] = []
    for s in spends:
        terms = " + ".join(f"{p.power} {p.cost} × {p.multiplier}" for p in s.powers)
        text = f"{side}, {s.who}: Quantum spent = {terms} = {s.spent}"
        if s.pool is None:
            text += " (Quantum pool not given: no shortfall check)"
        elif s.shortfall:
            text += (
                f"; the pool is {s.pool}, {s.shortfall} short: ends the combat with 0 Quantum "
                "and suffers no other penalty"
            )
        else:
            text += f"; pool {s.pool} → {s.remaining} left"
        steps.append(Step(text, QUANTUM_POWERS))
    return steps
