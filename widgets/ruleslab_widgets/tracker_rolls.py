"""The tracker page's Aberrant attacks and healing: what the GM typed, checked, and the
engine's step for it.

An attack of the acting combatant is hit or missed as the table's dice said, or rolled by
the site, seeded ("Roll it": :func:`ruleslab.encounter.attack_roll.rolled_attack`);
healing takes levels off a track (:func:`ruleslab.encounter.recovery.heal`). Every rule
is the engine's; this module checks each field (its message names it and the values it
takes) and hands the step to the page, which records, saves and says it.
:class:`AberrantRolls` is the part of :class:`~ruleslab_widgets.tracker_page.TrackerPage`
that plays them.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.attack_roll import rolled_attack
from ruleslab.encounter.combatant import Damage
from ruleslab_widgets.tracker_chimera import Page

__all__ = ["AberrantRolls", "typed_number"]

_NUMBER = re.compile(r"\s*(\d{1,3})\s*")


def typed_number(text: Any, field: str, lo: int, hi: int) -> int:
    """A whole number typed in ``field`` (``lo`` to ``hi``), or a message naming it."""
    m = _NUMBER.fullmatch(str(text)) if isinstance(text, str | int) else None
    value = int(m.group(1)) if m else -1
    if not lo <= value <= hi:
        raise InputError(field, f"{field}: a whole number from {lo} to {hi}.")
    return value


class AberrantRolls:
    """The attack and healing steps of ``page`` (the tracker page, :class:`Page`)."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def attack(self, c: dict[str, Any], *, rolled: bool = False) -> None:
        """The acting one's attack on ``c["target"]``: hit or missed as the table's dice
        said, or (``rolled``) rolled by the site, seeded, from the pool and base difficulty
        typed (:func:`ruleslab.encounter.attack_roll.rolled_attack`); the levels typed
        (after soak) land on a hit."""
        fight = self.page._fight()
        enc = fight.history.present if fight.history else None
        who = ab.current(enc) if enc is not None else None
        if enc is None or who is None:
            raise InputError("attacker", "Roll initiative first.")
        damage = Damage(
            bashing=typed_number(c.get("bashing"), "Bashing levels", 0, 200),
            lethal=typed_number(c.get("lethal"), "Lethal levels", 0, 200),
            aggravated=typed_number(c.get("aggravated"), "Aggravated levels", 0, 200),
            stun=typed_number(c.get("stun", "0"), "Stun levels", 0, 200),
        )
        if rolled:
            self.page.step(
                rolled_attack,
                who.key,
                str(c.get("target")),
                pool=typed_number(c.get("pool"), "Attack pool", 0, 60),
                difficulty=typed_number(c.get("difficulty"), "Base difficulty", 1, 20),
                seed=random.getrandbits(32),
                damage=damage,
            )
            return
        hit = c.get("hit") is True
        self.page.step(
            ab.resolve_attack,
            who.key,
            str(c.get("target")),
            hit=hit,
            damage=damage if hit else Damage(),
        )

    def heal(self, c: dict[str, Any]) -> None:
        """Levels healed now (a power, the GM's ruling), each kind checked:
        :func:`ruleslab.encounter.recovery.heal` takes them off his track."""
        damage = Damage(
            **{
                kind: typed_number(c.get(kind), f"{kind.capitalize()} healed", 0, 200)
                for kind in ("bashing", "lethal", "aggravated", "stun")
            }
        )
        if not damage.total:
            raise InputError("Bashing healed", "Heal: enter the levels healed (1 or more).")
        self.page.step(ab.heal, str(c.get("key")), damage)
