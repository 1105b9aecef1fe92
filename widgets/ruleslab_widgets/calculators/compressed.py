"""The Compressed combat calculator (key ``compressed``): see :mod:`ruleslab_widgets.declare`."""

from __future__ import annotations

from ruleslab import compressed
from ruleslab_widgets.declare import Calculator, ChartSpec, FieldGroup, RollSpec

CALCULATOR = Calculator(
    key="compressed",
    title="Compressed combat",
    summary=(
        "A whole fight in one opposed roll: each side's pool is attack + damage − the "
        "enemy's soak, with modifiers, powers and henchmen; exact odds of winning, the "
        "damage each side takes, incapacitation and death, the timeframe and Quantum spent."
    ),
    compute=compressed.compressed_combat,
    groups=(
        FieldGroup.prefixed("Side A", "a_", compressed.compressed_combat.params),
        FieldGroup.prefixed("Side B", "b_", compressed.compressed_combat.params),
    ),
    columns=2,
    rules=(
        "Aberrant 2.0 combat alterations › Compressed Combat (Modifiers, Quantum Powers, "
        "Strange Interactions, Resolution) and Mass Combat › Henchmen"
    ),
    options=(
        "strange_mode",
        "forcefield_bonus",
        "ablative_applies",
        "initiative_tie",
        "damage_split",
        "henchmen_count_as",
    ),
    rolls=(
        RollSpec(
            "Roll it",
            compressed.combat_roll_log,
            help="Rolls the fight once: both sides' dice, the winner and their intent, "
            "the damage; the same seed replays the same fight.",
        ),
    ),
    views=(
        ChartSpec(
            title="Success margin, side A − side B (highlighted: side A takes the fight)",
            x_label="Side A's successes minus side B's",
            bars=lambda r: r.margin_chart(),
            highlight_from=lambda r: r.margin_highlight(),
        ),
        ChartSpec(
            title="Health levels side A loses (highlighted: side A taken out)",
            x_label="Levels of damage",
            bars=lambda r: r.damage_chart("a"),
            highlight_from=lambda r: r.down_from("a"),
        ),
        ChartSpec(
            title="Health levels side B loses (highlighted: side B taken out)",
            x_label="Levels of damage",
            bars=lambda r: r.damage_chart("b"),
            highlight_from=lambda r: r.down_from("b"),
        ),
    ),
    example=(
        "from ruleslab.compressed import compressed_combat\n"
        "r = compressed_combat(\n"
        '    a_combatants="Police officer: Dex 3, Firearms 2, accuracy 1, damage 6L, '
        'soak 4L, initiative 5",\n'
        '    b_combatants="Gangbanger: Dex 2, Firearms 2, damage 5L, soak 1L, initiative 4",\n'
        ")\n"
        "print(r.figure('p_a_wins').text, r.figure('damage_to_b').text)"
    ),
)
