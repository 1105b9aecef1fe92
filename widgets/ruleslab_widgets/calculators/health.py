"""Declarations of the health, soak & damage calculators: see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import damage, health
from ruleslab_widgets.declare import Calculator, ChartSpec
from ruleslab_widgets.health_track import HealthTrackView

CALCULATORS: tuple[Calculator, ...] = (
    Calculator(
        key="health",
        title="Health & soak",
        summary=(
            "A character's health track under 2.0 or 2.1, filled as damage is entered: "
            "wound penalty, state (hurt, incapacitated, dying, dead) and soak."
        ),
        compute=health.health,
        rules=(
            "Aberrant 2.0/2.1 quick reference › 2.0 Rules › Health Levels, Soak, Combat "
            "(Stun Damage); 2.1 Rules › Health Levels"
        ),
        options=("mega_stamina_elsewhere", "death_at", "soak_rounding"),
        views=(HealthTrackView(),),
        example=(
            "from ruleslab.health import health\n"
            "r = health(ruleset='2.0', strength=3, mega_strength=0, stamina=3, mega_stamina=0,\n"
            "           quantum=2, willpower=3, resistance=0, armour_levels=0,\n"
            "           armour_bashing=0, armour_lethal=0, armour_aggravated=0,\n"
            "           bashing=1, lethal=2, aggravated=0, stun=0)\n"
            "print(r.explain())"
        ),
    ),
    Calculator(
        key="damage",
        title="Damage resolution",
        summary=(
            "One attack's damage against a target: soak on the dice, damage adds, ping, "
            "the exact distribution of health levels lost and the chance to Daze or Stun."
        ),
        compute=damage.damage_resolution,
        rules="Aberrant 2.0/2.1 quick reference › 2.0 Rules › Soak, Combat; Weapon Tags › AP(X)",
        options=("soak_rounding",),
        views=(
            ChartSpec(
                title="Health levels lost",
                x_label="Health levels",
                bars=lambda r: r.chart(),
                highlight_from=lambda r: max(0, r.dazed_at - r.taken_this_turn),
            ),
        ),
        example=(
            "from ruleslab.damage import damage_taken\n"
            "r = damage_taken(dice=8, adds=2, kind='lethal', natural_soak=2, armour_soak=3,\n"
            "                 armour_piercing=1)\n"
            "print(r.dice_after_soak, float(r.mean), float(r.p_at_least(4)))"
        ),
    ),
)
