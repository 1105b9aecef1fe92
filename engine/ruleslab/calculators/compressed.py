"""The Compressed combat calculator (key ``compressed``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab import compressed
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Roll
from ruleslab.sources import ALT, rule

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
        rule(
            ALT, "Compressed Combat", "Modifiers, Quantum Powers, Strange Interactions, Resolution"
        ),
        rule(ALT, "Mass Combat", "Henchmen"),
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
        Roll(
            "Roll it",
            compressed.combat_roll_log,
            help="Rolls the fight once: both sides' dice, the winner and their intent, "
            "the damage; the same seed replays the same fight.",
        ),
    ),
    views=(
        ChartView(
            title="Success margin, side A − side B (highlighted: side A takes the fight)",
            x_label="Side A's successes minus side B's",
            chart=lambda r: Chart(r.margin_chart(), r.margin_highlight()),
        ),
        ChartView(
            title="Health levels side A loses (highlighted: side A taken out)",
            x_label="Levels of damage",
            chart=lambda r: Chart(r.damage_chart("a"), r.down_from("a")),
        ),
        ChartView(
            title="Health levels side B loses (highlighted: side B taken out)",
            x_label="Levels of damage",
            chart=lambda r: Chart(r.damage_chart("b"), r.down_from("b")),
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
