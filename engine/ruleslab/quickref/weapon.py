"""A ranged weapon as a GM enters it: the :class:`Weapon` record, each field declared once.

The weapon's stats (accuracy, damage dice and adds, damage type, tags), the burst
it fires and what the burst's bonus goes to, the ammunition loaded and its Rate:
each field one :class:`~ruleslab.params.Param` (label, range, help as the
"Autofire & strafing" form shows them), checked by :func:`~ruleslab.records.record`.
A calculator gives it a role: autofire's weapon (the fields keep their names,
``accuracy``, ``tags``, ``burst`` …) and the henchmen's heavy weapon (``support_…``).
A Python caller builds one and passes it to either::

    from ruleslab.quickref.weapon import Weapon
    from ruleslab.calculators.autofire import autofire_and_strafing
    from ruleslab.calculators.henchmen import henchmen_squad

    rifle = Weapon(accuracy=2, damage_dice=6, tags="AP(2)", burst="medium")
    autofire_and_strafing(weapon=rifle)
    henchmen_squad(support_weapon=rifle)

A field holds the form's value: ``tags`` is tag text in its standard form
(``"AP(2), Guided"``; tags given as a tuple of :class:`~ruleslab.quickref.weapons.Tag`
are taken too, and held as their text), so that a link keeps its text; the
rules read :meth:`Weapon.stats`, the :class:`ruleslab.quickref.weapons.Weapon` the attack
rules take (its tags parsed). ``burst`` is the burst an autofire attack fires,
and the largest a heavy weapon can fire (the henchmen rules fire the largest its
ammunition covers, rules note RN-HENCH-12). Declarations only, no rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruleslab.params import ChoiceParam, InputError, IntParam, TextParam
from ruleslab.quickref import autofire, weapons
from ruleslab.quickref.weapons import TAGS_EXAMPLE, Tag, check_tags, parse_tags
from ruleslab.records import record

__all__ = ["BURSTS", "TAGS", "TagsParam", "Weapon", "read_tags"]


@dataclass(frozen=True, kw_only=True)
class TagsParam(TextParam):
    """The weapon-tag text field: its value is the tags' text, in standard form.

    Typed text is read by :func:`read_tags` (every message names the field) and
    held as the tags written back (``"ap 2; guided"`` is ``"AP(2), Guided"``;
    no tags is ``""``), as the form's default and a link hold it. ``check`` also
    takes tags already parsed (a Python caller's tuple), checked as data
    (:func:`ruleslab.quickref.weapons.check_tags`) with the parser's messages. Results
    show the parsed tags (:meth:`Weapon.stats`), never the typed text.
    """

    def check(self, value: Any) -> str:
        if isinstance(value, str):
            tags = self.parser(value, self)
        elif isinstance(value, tuple):
            tags = check_tags(value, field=self.name, label=self.label)
        else:
            raise InputError(self.name, f"{self.label} must be text such as “{TAGS_EXAMPLE}”.")
        return ", ".join(str(t) for t in tags)


def read_tags(text: str, param: TextParam) -> tuple[Tag, ...]:
    """The TAGS field's parser: :func:`~ruleslab.quickref.weapons.parse_tags`, naming the field."""
    return parse_tags(text, field=param.name, label=param.label)


TAGS = TagsParam(
    "tags",
    "Weapon tags",
    parser=read_tags,
    example=TAGS_EXAMPLE,
    help=(
        "The weapon's tags, separated by commas: AA, AP(X), Area(X), Burst(X), Devastating(X) "
        "or Devastating(X [Y]), Guided, Scale[X], Fast-Tracking[X]. Empty for none."
    ),
)
BURSTS = (
    ("none", "None (single shot)"),
    *(
        (
            b.key,
            f"{b.name[:-1].capitalize()} (+{b.accuracy} Acc or +[{b.damage}] Dmg, {b.shots} shots)",
        )
        for b in autofire.BURSTS.values()
    ),
)
"""The bursts, none first, each labelled with its line of the text's table
(:data:`ruleslab.quickref.autofire.BURSTS`): "Short Bursts: +2 Accuracy or +[1] Damage, 3
shots/bursts …" is "Short burst (+2 Acc or +[1] Dmg, 3 shots)"."""


@record(
    IntParam(
        "accuracy",
        "Weapon accuracy",
        minimum=-5,
        maximum=10,
        help="The weapon's Accuracy: dice added to (or taken from) the attack pool.",
    ),
    IntParam(
        "damage_dice",
        "Weapon damage dice",
        minimum=0,
        maximum=60,
        help="The weapon's damage dice (the 5 in “5 [2]”), before soak.",
    ),
    IntParam(
        "damage_adds",
        "Weapon damage adds",
        minimum=0,
        maximum=60,
        help=(
            "The weapon's damage adds (the [2] in “5 [2]”): each is one health level, not "
            "soaked, applied if at least one damage die is left after soak."
        ),
    ),
    ChoiceParam(
        "damage_type",
        "Damage type",
        choices=tuple((k, k.capitalize()) for k in ("bashing", "lethal", "aggravated", "stun")),
        help="The weapon's damage type; a hit that fails to penetrate soak pings one type lower.",
    ),
    TAGS,
    ChoiceParam(
        "burst",
        "Autofire",
        choices=BURSTS,
        help=(
            "The burst fired, if any: each gives an accuracy or a damage bonus and uses ammunition."
        ),
    ),
    ChoiceParam(
        "burst_use",
        "Burst bonus goes to",
        choices=(("accuracy", "Accuracy"), ("damage", "Damage")),
        help="The attacker chooses: the burst's accuracy bonus (dice) or its damage bonus.",
    ),
    IntParam(
        "ammunition",
        "Ammunition available",
        unit="rounds",
        minimum=0,
        maximum=10_000,
        help="Rounds left in the weapon: the attack cannot use more.",
    ),
    IntParam(
        "rate",
        "Weapon Rate (0: not checked)",
        minimum=0,
        maximum=100,
        help=(
            "The weapon's Rate: the most shots/bursts one attack may fire; a burst whose shots "
            "exceed it is refused. A Burst(X) weapon's Rate has a slash (“3/9”: 3 bursts of 3 "
            "rounds): type the figure before the slash, the unadjusted RoF. 0: the Rate is not "
            "checked. See rules note RN-RANGED-17."
        ),
    ),
)
@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A ranged weapon as entered: its stats, tags, burst, ammunition and Rate, each checked.

    ``Weapon(accuracy=11)`` raises :class:`~ruleslab.params.InputError`
    ("Weapon accuracy must be a whole number from -5 to 10."). ``tags`` is text
    (a tuple of tags is taken and held as its text); :meth:`stats` is the
    weapon the rules take. ``rate`` 0: the Rate is not checked.
    """

    accuracy: int = 1
    damage_dice: int = 5
    damage_adds: int = 0
    damage_type: str = "lethal"
    tags: str = ""
    burst: str = "short"
    burst_use: str = "accuracy"
    ammunition: int = 30
    rate: int = 0

    def stats(self, name: str = "Weapon") -> weapons.Weapon:
        """The weapon the attack rules take (:class:`ruleslab.quickref.weapons.Weapon`): its
        accuracy, damage and type, and its tags parsed."""
        return weapons.Weapon(
            name=name,
            accuracy=self.accuracy,
            damage_dice=self.damage_dice,
            damage_adds=self.damage_adds,
            damage_type=self.damage_type,
            tags=parse_tags(self.tags),
        )
