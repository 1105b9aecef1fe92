"""Declarations of the physical-action calculators (movement, jumping, falling):
see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import falling, jumping, movement
from ruleslab_widgets.declare import Calculator, ChartSpec

CALCULATORS: tuple[Calculator, ...] = (
    Calculator(
        key="movement",
        title="Movement",
        summary=(
            "Walking, running and sprinting speeds in metres per round, with Mega-Strength and "
            "Mega-Dexterity counted and the carried load's encumbrance penalties applied."
        ),
        compute=movement.movement,
        rules="Aberrant 2.0/2.1 quick reference › Movement, Encumbrance, Mega-Attributes",
        options=("walking_floor", "heavy_from", "beyond_heavy"),
        example=(
            "from ruleslab.movement import movement\n"
            "r = movement(strength=3, dexterity=3, athletics=2, might=0,\n"
            "             mega_strength=0, mega_dexterity=1, load_kg=30)\n"
            "print(r.explain())"
        ),
    ),
    Calculator(
        key="jumping",
        title="Jumping",
        summary=(
            "The exact distribution of a jump's height or length from the (Strength + "
            "Athletics) roll, Mega-Strength's automatic successes and multiplier, and the "
            "chance to clear a given gap or height."
        ),
        compute=jumping.jump,
        rules="Aberrant 2.0/2.1 quick reference › Movement › Jumping; Specialties",
        options=("ruleset", "specialty", "mega_in_pool"),
        views=(
            ChartSpec(
                title="Distribution of the jump's distance",
                x_label="Metres",
                bars=lambda r: r.chart(),
                highlight_from=lambda r: r.highlight_from(),
            ),
        ),
        example=(
            "from ruleslab.jumping import jump\n"
            "r = jump(strength=3, athletics=2, mega_strength=1,\n"
            "         direction='horizontal', distance_m=30)\n"
            "print(float(r.p_clear), r.explain())"
        ),
    ),
    Calculator(
        key="falling",
        title="Falling",
        summary=(
            "A fall's safe distance and damage dice, the exact distribution of the dice left "
            "after a (Dexterity + Athletics) break-fall roll, and the chance the damage is "
            "lethal."
        ),
        compute=falling.fall,
        rules="Aberrant 2.0/2.1 quick reference › Falling, Mega-Attributes; Specialties",
        options=("ruleset", "specialty", "count_from", "lethal_means"),
        views=(
            ChartSpec(
                title="Damage dice left after the break-fall",
                x_label="Dice left",
                bars=lambda r: r.chart(),
                highlight_from=lambda r: r.highlight_from(),
            ),
        ),
        example=(
            "from ruleslab.falling import fall\n"
            "r = fall(height_m=30, stamina=3, dexterity=3, athletics=2)\n"
            "print(r.damage_dice, float(r.p_lethal))"
        ),
    ),
)
