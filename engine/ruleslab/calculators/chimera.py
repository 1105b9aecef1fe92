"""The Chimera fight calculator (key ``chimera``): see :mod:`ruleslab.declare`."""

from __future__ import annotations

from ruleslab.chimera import fight
from ruleslab.declare import Calculator, Chart, ChartView, FieldGroup, Roll
from ruleslab.sources import CHIMERA, rule

CALCULATOR = Calculator(
    key="chimera",
    title="Chimera fight",
    summary=(
        "Two Chimera combatants: the exact odds of one blow each way (hit, Critical Success, "
        "wound, vanquish) and of the whole duel (who wins, how many 10-second rounds), with "
        "initiative, the Wound Penalty, morale and surprise."
    ),
    compute=fight.chimera_fight,
    groups=(
        FieldGroup.prefixed("Combatant A", "A_", fight.chimera_fight.params),
        FieldGroup.prefixed("Combatant B", "B_", fight.chimera_fight.params),
    ),
    columns=2,
    rules=(rule(CHIMERA, "Combat", "Attack Target Numbers, Vanquishing Foes"),),
    options=fight.OPTIONS,
    rolls=(
        Roll("Play a round", fight.play_round),
        Roll(
            "Play the fight",
            fight.play_fight,
            help="Plays rounds until the duel ends; the same seed replays the same fight.",
        ),
    ),
    views=(
        ChartView(
            title="A's blow on B: wound severity (highlighted: vanquishes B)",
            x_label="Severity",
            chart=lambda r: Chart(
                fight.fight_chart(r.a_on_b),
                fight.vanquish_bar(r.a_on_b, r.b.wound_limit, r.b.wounds),
            ),
        ),
        ChartView(
            title="B's blow on A: wound severity (highlighted: vanquishes A)",
            x_label="Severity",
            chart=lambda r: Chart(
                fight.fight_chart(r.b_on_a),
                fight.vanquish_bar(r.b_on_a, r.a.wound_limit, r.a.wounds),
            ),
        ),
    ),
    example=(
        "from ruleslab.chimera import chimera_fight\n"
        "report = chimera_fight(A_attack=4, B_defence=2, surprise='A')\n"
        "print(report.duel.p_win, report.duel.expected_rounds)\n"
        "print(report.explain())"
    ),
)
