"""Chimera's dice: the d20 Action Roll, damage dice, the d12 initiative.

Chimera combat (the text in ``shared/rules/chimera-combat.txt``) rolls other dice
than the Aberrant d10 pool: "rolls 1d12 for Initiative", "the attacker rolls the
weapon's damage die (2 dice if the attack is a Critical Success)", "Unconscious:
Foe is knocked out for 1d6 turns", and an Action Roll against a Target Number
(a d20 by default, rules note RN-CHIM-1).

The exact distributions of these rolls are :class:`ruleslab.pmf.Dist` (built by
:func:`ruleslab.pmf.dice`), the same die arithmetic the Aberrant rules use. This
module holds what is Chimera's own: :class:`DamageDice`, a parsed dice
expression such as ``d8``, ``2d6`` or ``d6+1``, and the limits of such
expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ruleslab.pmf import Dist, dice

__all__ = [
    "MAX_BONUS",
    "MAX_DICE",
    "MAX_SIDES",
    "DamageDice",
    "check_dice",
    "parse_dice",
]

MAX_DICE = 10
"""At most this many dice in one expression (damage, action die)."""
MAX_SIDES = 100
MAX_BONUS = 20


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


_SPACES = re.compile(r"\s*")
_DIGITS = re.compile(r"[0-9]*")


def _run(pattern: re.Pattern[str], text: str, start: int) -> tuple[str, int]:
    """The run of ``pattern``'s characters at ``start`` and where it ends."""
    m = pattern.match(text, start)
    assert m is not None  # a repeated class matches, if only the empty string
    return m.group(), m.end()


def _read_dice(text: str) -> tuple[str, str, str, str] | None:
    """``[count] d sides [± bonus]`` between spaces, as (count, sides, sign, bonus) texts.

    Each part is read once, left to right, so the cost is linear in the text's
    length (issue 11). None if the text is not of this form.
    """
    _, i = _run(_SPACES, text, 0)
    count, i = _run(_DIGITS, text, i)
    _, i = _run(_SPACES, text, i)
    if text[i : i + 1] not in ("d", "D"):
        return None
    _, i = _run(_SPACES, text, i + 1)
    sides, i = _run(_DIGITS, text, i)
    _, i = _run(_SPACES, text, i)
    sign = bonus = ""
    if text[i : i + 1] in ("+", "-"):
        sign = text[i]
        _, i = _run(_SPACES, text, i + 1)
        bonus, i = _run(_DIGITS, text, i)
        if not bonus:
            return None
        _, i = _run(_SPACES, text, i)
    if not sides or i < len(text):
        return None
    return count, sides, sign, bonus


def check_dice(dice: DamageDice) -> DamageDice:
    """``dice`` if its count, sides and bonus are whole numbers within the limits.

    Raises ``ValueError`` saying why not, with :func:`parse_dice`'s messages, so
    that dice given as data are checked as typed text is.
    """

    def whole(value: object, lowest: int, highest: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and lowest <= value <= highest

    if not whole(dice.count, 1, MAX_DICE):
        raise ValueError(f"the number of dice must be from 1 to {MAX_DICE}")
    if not whole(dice.sides, 2, MAX_SIDES):
        raise ValueError(f"a die must have from 2 to {MAX_SIDES} sides")
    if not whole(dice.bonus, -MAX_BONUS, MAX_BONUS):
        raise ValueError(f"the bonus must be from −{MAX_BONUS} to +{MAX_BONUS}")
    return dice


def parse_dice(text: str) -> DamageDice:
    """Parse ``d8``, ``1d8``, ``2d6``, ``d6+1``, ``d10 - 1``; ``ValueError`` says why not.

    Counts run from 1 to 10, sides from 2 to 100, the bonus from −20 to +20.
    """
    read = _read_dice(text or "")
    if read is None:
        raise ValueError(f"{text.strip()!r} is not a dice expression like d8, 2d6 or d6+1")
    count_text, sides_text, sign, bonus_text = read
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    bonus = int(bonus_text or 0) * (-1 if sign == "-" else 1)
    return check_dice(DamageDice(count, sides, bonus))
