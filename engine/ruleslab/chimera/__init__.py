"""Chimera combat (``shared/rules/chimera-combat.txt``): exact odds of blows and duels.

Modules: :mod:`~ruleslab.chimera.dice` (damage dice expressions; the exact die algebra
is :mod:`ruleslab.pmf`), :mod:`~ruleslab.chimera.action` (the d20 Action Roll and Critical
Success), :mod:`~ruleslab.chimera.fighter` (the combatant, a record),
:mod:`~ruleslab.chimera.attack` (Target Numbers, one blow),
:mod:`~ruleslab.chimera.cover` (positions and cover), :mod:`~ruleslab.chimera.blast`
(Blast attacks and the Resistance Roll against them), :mod:`~ruleslab.chimera.wounds`
(severity, vanquishing, fates), :mod:`~ruleslab.chimera.movement` (walking, running,
creeping and the Movement Die), :mod:`~ruleslab.chimera.actions` (a round's full and
free actions, in words), :mod:`~ruleslab.chimera.initiative`,
:mod:`~ruleslab.chimera.morale`, :mod:`~ruleslab.chimera.surprise`,
:mod:`~ruleslab.chimera.aftermath`, :mod:`~ruleslab.chimera.plan` (surprise plans and
ends), :mod:`~ruleslab.chimera.duel` (the Markov chain; :mod:`~ruleslab.chimera.paths` its common
denominator), :mod:`~ruleslab.chimera.play`
(the seeded play) and :mod:`~ruleslab.chimera.fight` (a fight between two combatants:
one blow each way and the duel, explained); :mod:`~ruleslab.chimera.sections` holds the
sections of the text the steps cite. Rules only: the "Chimera fight" calculator, its inputs
and charts are ``ruleslab.calculators.chimera``. Readings of the text:
``docs/rules-notes/chimera.md`` (RN-CHIM-*).
"""

from ruleslab.chimera.attack import Fighter, FightRules, attack_odds
from ruleslab.chimera.blast import blow_odds
from ruleslab.chimera.dice import DamageDice, parse_dice
from ruleslab.chimera.duel import DuelOdds, SurprisePlan, duel_odds
from ruleslab.chimera.fight import FightOdds, fight_odds, play_log

__all__ = [
    "DamageDice",
    "DuelOdds",
    "FightOdds",
    "FightRules",
    "Fighter",
    "SurprisePlan",
    "attack_odds",
    "blow_odds",
    "duel_odds",
    "fight_odds",
    "parse_dice",
    "play_log",
]
