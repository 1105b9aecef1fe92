"""After the fight: the cool-down or the Fatigue roll, the Ammo Check, each fate's aftermath.

Chimera combat › Combat:

    Combat ends when one side no longer poses a threat to the other. After a
    fight, combatants must spend 1 full turn (10 minutes) checking the wounded,
    tending injuries, and otherwise composing themselves. Failure to spend this
    "cool-down" period mandates an immediate Resistance Roll against Fatigue.
    Anyone who engaged in ranged combat must also make an Ammo Check at this time.

Chimera combat › Vanquishing Foes:

    • Capture: … impose a penalty of –4 to all rolls and MR while bound.
    • Driven Off: … he will not return before a number of turns equal to the
      attacker's level.
    • Unconscious: Foe is knocked out for 1d6 turns. Upon revival, the foe's
      wounds and Wound Penalty are unchanged. Unconscious foes may be dispatched
      with a coup de grâce as a free action.

Readings (rules notes RN-CHIM-16, RN-CHIM-17): the Fatigue roll is made by the
combatant still standing when the fight ends, at the Wound Penalty of the wounds
he ends it with (the duel's exact distribution of them), plus his Resistance
bonus, against the Fatigue TN the GM sets (the text gives none); a vanquished
foe's fate starts from the wounds he had when he fell. When the victor's choice
is given, :func:`p_dies` says how often it kills: a Killer Blow unless a classed
foe Resists it; a coup de grâce on the foe knocked Unconscious (a free action,
so at once), which a classed foe may Resist like a Killer Blow or not, as the
rules option ``coup_de_grace`` reads it (RN-CHIM-23).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from ruleslab.chimera.action import action_odds
from ruleslab.chimera.sections import COMBAT, VANQUISHING
from ruleslab.chimera.wounds import CAPTURE_PENALTY, KILLER_BLOW_TN
from ruleslab.explain import Step, fmt_num, fmt_prob
from ruleslab.pmf import die

if TYPE_CHECKING:
    from ruleslab.chimera.attack import Fighter, FightRules

__all__ = [
    "COOL_DOWN_MINUTES",
    "COOL_DOWN_TURNS",
    "ROUNDS_PER_TURN",
    "ROUND_SECONDS",
    "TURN_MINUTES",
    "aftermath_steps",
    "chosen_fate_steps",
    "fate_steps",
    "p_dies",
    "p_fatigue_fails",
    "p_fatigue_fails_after",
]

ROUND_SECONDS = 10
"""'time switches to 10-second rounds'."""
TURN_MINUTES = 10
"""'1 full turn (10 minutes)'."""
COOL_DOWN_TURNS = 1
COOL_DOWN_MINUTES = COOL_DOWN_TURNS * TURN_MINUTES
ROUNDS_PER_TURN = TURN_MINUTES * 60 // ROUND_SECONDS
"""A turn of 10 minutes is 60 rounds of 10 seconds."""


Weight = Fraction | int
Weights = Iterable[tuple[int, Weight]]
"""(wounds, weight) pairs: chances, or whole numbers over a denominator given beside them
(a duel's ends are counted over one denominator:
:attr:`~ruleslab.chimera.duel.DuelOdds.end_counts`)."""


def _by_wounds(pairs: Weights) -> dict[int, Weight]:
    """The weights summed per number of wounds (each wound count's chance computed once)."""
    out: dict[int, Weight] = {}
    for w, p in pairs:
        out[w] = out.get(w, 0) + p
    return out


def _ratio(num: Weight, den: Weight) -> Fraction:
    """``num / den`` as one exact Fraction (one gcd, however many digits)."""
    return Fraction(num) / den


def p_fatigue_fails(f: Fighter, wounds: int, rules: FightRules) -> Fraction:
    """P(``f``'s Resistance Roll against Fatigue misses his Fatigue TN with ``wounds`` wounds).

    The roll is ``die + resist − WP`` (− 4 if bound: "–4 to all rolls") against
    ``f.fatigue_tn``.
    """
    mod = f.resist_modifier(wounds)
    return 1 - action_odds(mod, f.fatigue_tn, rules.action_die, rules.critical).p_success


def p_fatigue_fails_after(f: Fighter, wins: Weights, rules: FightRules) -> Fraction | None:
    """P(the Fatigue roll fails | ``f`` wins), from ``wins``: (his wounds at the end, P or
    any weight proportional to it).

    ``None`` if he cannot win. Exact: ``Σ P(win with w wounds) · P(fail at WP w) / P(win)``.
    """
    by = _by_wounds(wins)
    total = sum(by.values())
    if not total:
        return None
    fails = sum((n * p_fatigue_fails(f, w, rules) for w, n in by.items()), Fraction(0))
    return _ratio(fails, total)


def aftermath_steps(
    f: Fighter,
    wins: Weights,
    rules: FightRules,
    *,
    fired: bool,
    fails: Fraction | bool | None = False,
) -> tuple[Step, ...]:
    """What ``f`` must do after a fight he wins: the cool-down or the Fatigue roll, an Ammo Check.

    ``wins``: his wounds at the end of each way he wins, with its chance (or a weight
    proportional to it). ``fails``: :func:`p_fatigue_fails_after` if already computed.
    """
    wins = tuple(wins)
    name = f.name
    turn = (
        f"1 full turn ({COOL_DOWN_MINUTES} minutes = {COOL_DOWN_TURNS * ROUNDS_PER_TURN} rounds "
        f"of {ROUND_SECONDS} seconds)"
    )
    steps = []
    if f.spends_cool_down:
        steps.append(
            Step(f"{name} spends the cool-down if he wins: {turn}; no Fatigue roll", COMBAT)
        )
    else:
        p = p_fatigue_fails_after(f, wins, rules) if fails is False else fails
        if p is None:
            what = "he cannot win, so never rolls"
        else:
            spread = ", ".join(
                f"{w} wound{'s' if w != 1 else ''}: {rules.action_die} "
                f"{f.resist_modifier(w):+d} fails "
                f"{fmt_prob(p_fatigue_fails(f, w, rules))}"
                for w in sorted({w for w, _ in wins})
            )
            bound = " − 4 bound" if f.is_bound else ""
            what = (
                f"{rules.action_die} + Resistance {f.resist:+d} − WP of the wounds he ends "
                f"with{bound} vs Fatigue TN {f.fatigue_tn} ({spread}): "
                f"fails {fmt_prob(p)} of his wins (RN-CHIM-16)"
            )
        steps.append(
            Step(
                f"{name} skips the {turn} cool-down: an immediate Resistance Roll against "
                f"Fatigue; {what}",
                COMBAT,
            )
        )
    if fired:
        steps.append(Step(f"{name} engaged in ranged combat: an Ammo Check now", COMBAT))
    return tuple(steps)


def fate_steps(
    winner: Fighter, loser: Fighter, fallen: Weights, rules: FightRules, den: int = 1
) -> tuple[Step, ...]:
    """What each of the victor's four choices means for ``loser``, from ``fallen``: the
    loser's wounds when vanquished (the last wound included), with its chance (numerators
    over ``den`` if given)."""
    fell = _by_wounds(fallen)
    weight = sum(fell.values())
    if not weight:
        return ()
    total = _ratio(weight, den)
    name, by = loser.name, winner.name
    mean = _ratio(sum(w * p for w, p in fell.items()), weight)
    low, high = min(fell), max(fell)
    span = str(low) if low == high else f"{low} to {high} ({fmt_num(mean)} on average)"
    bound = -CAPTURE_PENALTY
    mr_low = max(0, loser.mr - high - bound)
    mr_high = max(0, loser.mr - low - bound)
    mrs = str(mr_high) if mr_low == mr_high else f"{mr_low} to {mr_high}"
    steps = [
        Step(
            f"If {by} vanquishes {name} ({fmt_prob(total)}): {name} then has {span} "
            f"wound{'' if high == 1 else 's'} "
            "(the last one included; RN-CHIM-17)",
            VANQUISHING,
        ),
        Step(
            f"Capture: {name} is bound: every roll at −{bound} − WP (from "
            f"{-bound - high:+d} to {-bound - low:+d} on top of his bonuses) and MR "
            f"{loser.mr} − WP − {bound} = {mrs} while bound",
            VANQUISHING,
        ),
        Step(
            f"Driven Off: {name} flees and will not return before {winner.level} "
            f"turn{'s' if winner.level != 1 else ''} ({by}'s level; "
            f"{winner.level * TURN_MINUTES} minutes)",
            VANQUISHING,
        ),
    ]
    if loser.classed:
        resist = sum((p * _p_resists(loser, w, rules) for w, p in fell.items()), Fraction(0))
        steps.append(
            Step(
                f"Killer Blow: {name} is classed and Resists against TN {KILLER_BLOW_TN} at the "
                f"WP he fell with: {fmt_prob(_ratio(resist, weight))}; he is then Unconscious "
                "with a "
                "random permanent Flaw",
                VANQUISHING,
            )
        )
    else:
        steps.append(Step(f"Killer Blow: {name} is killed (not classed: no Resist)", VANQUISHING))
    turns = die(6)
    steps.append(
        Step(
            f"Unconscious: {name} is out for 1d6 turns ({TURN_MINUTES} to {6 * TURN_MINUTES} "
            f"minutes, {fmt_num(turns.mean() * TURN_MINUTES)} on average); on revival his "
            f"wounds ({span}, as he fell) and Wound Penalty are unchanged; until then {by} "
            "may dispatch him with a coup de grâce as a free action",
            VANQUISHING,
        )
    )
    return tuple(steps)


FATE_NAMES: dict[str, str] = {
    "capture": "Capture",
    "driven_off": "Driven Off",
    "killer_blow": "Killer Blow",
    "unconscious": "Unconscious",
    "coup_de_grace": "Unconscious, then a coup de grâce (a free action)",
}
"""The victor's choices, in words (:data:`~ruleslab.chimera.attack.FATE_CHOICES` but "any")."""


def _p_resists(loser: Fighter, wounds: int, rules: FightRules) -> Fraction:
    """P(a classed ``loser`` Resists a Killer Blow against TN 12 at the WP of ``wounds``)."""
    mod = loser.resist_modifier(wounds)
    return action_odds(mod, KILLER_BLOW_TN, rules.action_die, rules.critical).p_success


def p_dies(loser: Fighter, fate: str, fallen: Weights, rules: FightRules) -> Fraction:
    """P(``loser`` is dead after the fight | he is vanquished), when the victor chooses ``fate``.

    ``fallen``: his wounds when he falls, with their chances (not necessarily summing
    to 1: they are scaled). Capture, Driven Off and Unconscious kill nobody. A Killer
    Blow kills an unclassed foe; a classed one dies unless he Resists against TN 12 at
    the Wound Penalty he fell with. A coup de grâce dispatches the Unconscious foe
    ("Unconscious foes may be dispatched with a coup de grâce as a free action"): with
    ``rules.coup_de_grace == "kills"`` always, with ``"resist"`` a classed foe may
    Resist it as he may a Killer Blow (RN-CHIM-23).
    """
    fell = _by_wounds(fallen)
    total = sum(fell.values())
    resistible = fate == "killer_blow" or (
        fate == "coup_de_grace" and rules.coup_de_grace == "resist"
    )
    if fate not in ("killer_blow", "coup_de_grace") or not total:
        return Fraction(0)
    if not (loser.classed and resistible):
        return Fraction(1)
    dies = sum((p * (1 - _p_resists(loser, w, rules)) for w, p in fell.items()), Fraction(0))
    return _ratio(dies, total)


def chosen_fate_steps(
    winner: Fighter,
    loser: Fighter,
    fallen: Weights,
    rules: FightRules,
    den: int = 1,
    dies: Fraction | None = None,
) -> tuple[Step, ...]:
    """What ``winner``'s chosen fate does to ``loser`` if he vanquishes him, and how often
    the loser ends the fight dead (nothing when the victor's choice is not given).

    ``fallen`` as for :func:`fate_steps`; ``dies``: :func:`p_dies` if already computed."""
    fate = winner.fate
    fallen = tuple(fallen)
    weight = sum(p for _, p in fallen)
    if fate == "any" or not weight:
        return ()
    total = _ratio(weight, den)
    name, by = loser.name, winner.name
    p = p_dies(loser, fate, fallen, rules) if dies is None else dies
    if fate == "coup_de_grace":
        how = (
            f"{by} knocks {name} Unconscious and dispatches him at once with a coup de grâce, a "
            f"free action (it takes no time, so {by} may still act this round)"
        )
        if loser.classed and rules.coup_de_grace == "resist":
            how += f"; {name} is classed and may Resist it as a Killer Blow (TN {KILLER_BLOW_TN})"
        elif loser.classed:
            how += f"; {name} is classed, but a coup de grâce is not a Killer Blow he may Resist"
    elif fate == "killer_blow":
        how = f"{by} deals {name} a Killer Blow" + (
            f"; {name} is classed and may Resist it (TN {KILLER_BLOW_TN})" if loser.classed else ""
        )
    else:
        how = f"{by} chooses {FATE_NAMES[fate]}: {name} lives"
    return (
        Step(
            f"{by}'s choice if he vanquishes {name}: {FATE_NAMES[fate]}. {how}: {name} dies "
            f"{fmt_prob(p)} of the times he is vanquished, {fmt_prob(p * total)} of all fights "
            "(RN-CHIM-23)",
            VANQUISHING,
        ),
    )
