"""The Damage resolution calculator (key ``damage``): one attack's damage against a target.

The rules are in :mod:`ruleslab.quickref.damage` (damage dice after soak, adds, ping,
Dazed and Stunned) and :mod:`ruleslab.quickref.soak` (natural soak); this module
declares the calculator's inputs, combines the rules into one explained result
(:class:`DamageResolution`) and its chart. See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslab.character import Character
from ruleslab.declare import Calculator, Chart, ChartView, Headline
from ruleslab.explain import Explained, Figure
from ruleslab.inputs import DAMAGE_KIND, SOAK_ROUNDING
from ruleslab.params import IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.quickref.damage import (
    MAX_ADDS,
    MAX_DICE,
    MAX_SOAK,
    DamageTaken,
    Dazing,
    damage_taken,
    dazing,
)
from ruleslab.quickref.soak import natural_soak_against, natural_soak_steps
from ruleslab.records import Role
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "TARGET", "DamageResolution", "damage_resolution"]

TARGET = Role(
    "target",
    "The target",
    Character,
    ("stamina", "mega_stamina", "quantum"),
    label="Target's ",
    help={
        "stamina": (
            "The target's Stamina: natural soak, and Dazed at 2 × / Stunned at 3 × "
            "Stamina levels in one turn."
        ),
        "mega_stamina": (
            "+1 bashing and lethal soak per dot; counts as 2 Stamina for Dazed/Stunned (RN-DMG-6)."
        ),
        "quantum": "+1 bashing and lethal soak per dot; Quantum/2 aggravated soak.",
    },
    defaults={"stamina": 2, "quantum": 0},
)
"""The character the attack hits: his Stamina, Mega-Stamina and Quantum (natural soak,
and the levels in one turn that Daze and Stun him)."""


@dataclass(frozen=True, kw_only=True)
class DamageResolution(Explained):
    """Result of :func:`damage_resolution`: one attack against one target.

    ``taken`` is the :class:`~ruleslab.quickref.damage.DamageTaken` (dice after soak,
    ping, the exact levels lost); ``dazing`` the :class:`~ruleslab.quickref.damage.Dazing`
    (the levels in one turn that Daze and Stun the target and the chances that
    this attack, on top of the levels already taken this turn, reaches them).
    ``natural_soak`` is the target's natural soak against the attack's type.
    """

    taken: DamageTaken
    dazing: Dazing
    natural_soak: int
    armour_soak: int

    def figures(self) -> tuple[Figure, ...]:
        t = self.taken
        return (
            Figure("soak", "Soak against this attack", t.soak, str(t.soak)),
            *t.figures(),
            *self.dazing.figures(),
        )

    def chart(self) -> Chart:
        """Bars ``(str(k), P(k health levels lost))``, cut after the last visible one,
        highlighted from the levels that Daze the target (with those already taken
        this turn: :attr:`~ruleslab.quickref.damage.Dazing.to_daze`)."""
        return Chart(chart_bars(self.taken.levels), self.dazing.to_daze)


@checked(
    IntParam(
        "dice",
        "Damage dice",
        minimum=0,
        maximum=MAX_DICE,
        help="The attack's damage dice before soak (weapon damage plus extra successes' dice).",
    ),
    IntParam(
        "adds",
        "Damage adds",
        minimum=0,
        maximum=MAX_ADDS,
        help=(
            "Damage adds, the [X] in a weapon's damage: each is one health level, not soaked, "
            "and applies only if at least one die is left after soak (RN-DMG-2)."
        ),
    ),
    DAMAGE_KIND,
    TARGET,
    IntParam(
        "armour_soak",
        "Target's armour soak (this damage type)",
        minimum=0,
        maximum=MAX_SOAK,
        help=(
            "The target's armour (or power) soak against this damage type; Armor Piercing "
            "reduces only this."
        ),
    ),
    IntParam(
        "armour_piercing",
        "Armor Piercing",
        minimum=0,
        maximum=MAX_SOAK,
        help="The weapon's AP(X): reduces armour or power soak by X, never natural soak.",
    ),
    IntParam(
        "taken_this_turn",
        "Levels already taken this turn",
        minimum=0,
        maximum=500,
        help="Health levels the target already took this turn, from any "
        "source (they count towards Dazed/Stunned).",
    ),
    SOAK_ROUNDING,
)
def damage_resolution(
    dice: int = 6,
    adds: int = 0,
    kind: str = "lethal",
    target: Character | None = None,
    armour_soak: int = 0,
    armour_piercing: int = 0,
    taken_this_turn: int = 0,
    soak_rounding: str = "down",
) -> DamageResolution:
    """One attack's damage against a target: soak, ping, levels lost, Dazed/Stunned odds.

    The target's natural soak against the attack's type ("Stun damage is soaked
    as bashing damage") and its armour soak, less Armor Piercing, come off the
    damage dice (:func:`~ruleslab.quickref.damage.damage_taken`); "A character is Dazed
    if he takes (2 * Stamina) HLs of damage in a single turn from any
    combination of sources, and Stunned if he takes (3 * Stamina) HLs of
    damage" (:func:`~ruleslab.quickref.damage.dazing`). ``target`` is a record (``None``:
    the form's defaults); a caller may instead pass its fields (``stamina=3``).
    """
    assert target is not None  # (filled in by @checked)
    stamina, mega_stamina, quantum = target.stamina, target.mega_stamina, target.quantum
    natural = natural_soak_against(kind, quantum, stamina, mega_stamina, soak_rounding)
    taken = damage_taken(
        dice=dice,
        adds=adds,
        kind=kind,
        natural_soak=natural,
        armour_soak=armour_soak,
        armour_piercing=armour_piercing,
    )
    dazed = dazing(
        taken, stamina=stamina, mega_stamina=mega_stamina, taken_this_turn=taken_this_turn
    )
    return DamageResolution(
        taken=taken,
        dazing=dazed,
        natural_soak=natural,
        armour_soak=armour_soak,
        steps=(
            *natural_soak_steps(quantum, stamina, mega_stamina, soak_rounding),
            *taken.steps,
            *dazed.steps,
        ),
    )


CALCULATOR = Calculator(
    key="damage",
    title="Damage resolution",
    summary=(
        "One attack's damage against a target: soak on the dice, damage adds, ping, "
        "the exact distribution of health levels lost and the chance to Daze or Stun."
    ),
    compute=damage_resolution,
    headlines=(
        Headline(
            ("p_stunned", "p_dazed", "mean"),
            when=lambda v: v["taken_this_turn"] > 0,
            question="Hurt already this turn: is he Stunned or Dazed, and the levels lost",
        ),
        Headline(
            ("mean", "p_any", "p_dazed"),
            question="How many health levels the attack costs, and the chance of any",
        ),
    ),
    rules=(rule(QR, "2.0 Rules", "Soak, Combat"), rule(QR, "Weapon Tags", "AP(X)")),
    options=("soak_rounding",),
    views=(
        ChartView(
            "Health levels lost",
            "Health levels",
            DamageResolution.chart,
            highlight="Dazes the target",
        ),
    ),
    example=(
        "from ruleslab.calculators.damage import damage_resolution\n"
        "from ruleslab.character import Character\n"
        "from ruleslab.quickref.damage import damage_taken\n"
        "r = damage_resolution(dice=8, adds=2, kind='lethal',\n"
        "                      target=Character(stamina=3, quantum=1),\n"
        "                      armour_soak=3, armour_piercing=1)\n"
        "print(r.explain())\n"
        "print(float(r.dazing.p_dazed), r.chart().highlight_from)\n"
        "t = damage_taken(dice=8, adds=2, kind='lethal', natural_soak=2, armour_soak=3,\n"
        "                 armour_piercing=1)\n"
        "print(t.dice_after_soak, float(t.mean), float(t.p_at_least(4)))"
    ),
)
