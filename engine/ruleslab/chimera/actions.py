"""A combatant's round: his one full action and his free actions, in words for the working.

Chimera combat › Combat (Combat Actions):

    Full Actions: Consume an entire 10-second round and include any Action Roll
    (except a Resistance Roll), readying an item, and running or creeping (i.e.,
    MR ± your Movement Die).

    Free Actions: Take no time and include shouting orders, dropping an item,
    making a Resistance Roll, and walking no more than your MR (i.e., MR without
    applying your Movement Die).

    You can perform any number of free actions each round, but only 1 full
    action is permitted.

How the duel plays these (rules notes RN-CHIM-19 to RN-CHIM-22): each turn a
combatant's full action is his attack (a Fight, Shoot or Blast roll), except on
his first turn if he readies an item, and except while a Fight attacker cannot
reach his foe: he then runs (MR + Movement Die) or, crouched, creeps (MR −
Movement Die) towards him. Walking up to his MR, dropping prone and getting up
(costing his Encumbrance in MR that round) are free beside it; so is a coup de
grâce on an Unconscious foe, and the Resistance Rolls (morale, Killer Blow,
Fatigue, against a blast). The odds are :mod:`ruleslab.chimera.duel`'s; this
module says what each combatant does, and how the first turn differs.
"""

from __future__ import annotations

from ruleslab.chimera.attack import Fighter, FightRules
from ruleslab.chimera.blast import blow_odds
from ruleslab.chimera.plan import has_first_turn
from ruleslab.chimera.sections import COMBAT_ACTIONS
from ruleslab.explain import Step, fmt_prob

__all__ = ["action_steps", "distance_step", "first_turn_steps"]


def action_steps(f: Fighter, foe: Fighter) -> tuple[Step, ...]:
    """What ``f`` does each round: his full action and the free actions beside it."""
    attack = {
        "fight": "his Fight roll",
        "shoot": "his Shoot roll",
        "blast": f"his blast ({foe.name} resists it)",
    }[f.kind]
    steps = [
        Step(
            f"{f.name}'s round: only 1 full action, any number of free actions; his full "
            f"action is {attack}; walking up to his MR, shouting orders, dropping an item and "
            "his Resistance Rolls are free beside it (RN-CHIM-19)",
            COMBAT_ACTIONS,
        )
    ]
    if f.plan == "ready":
        walk = (
            "; a standing Fight attacker still walks up to his MR towards his foe, free"
            if f.melee
            else ""
        )
        steps.append(
            Step(
                f"{f.name} readies an item on his first turn: that is his full action, so he "
                f"does not attack that turn{walk}; he attacks from his next turn",
                COMBAT_ACTIONS,
            )
        )
    if f.position == "drops_prone":
        steps.append(
            Step(
                f"{f.name} drops prone on his first turn, a free action: standing until then, "
                "+2 cover vs Shoot and Blast from then on; prone he may Shoot or creep "
                "(RN-CHIM-22)",
                COMBAT_ACTIONS,
            )
        )
    elif f.position == "gets_up":
        steps.append(
            Step(
                f"{f.name} lies prone until his first turn (+2 cover vs Shoot and Blast), then "
                f"gets up, a free action that costs his Encumbrance {f.encumbrance} in MR that "
                "round (he walks or runs from his MR less it); standing from then on (RN-CHIM-22)",
                COMBAT_ACTIONS,
            )
        )
    elif f.position == "crouching" and f.melee:
        steps.append(
            Step(
                f"{f.name} is crouching: if he must move to reach his foe, he creeps (a full "
                "action at his creeping MR), never walks for free (RN-CHIM-21)",
                COMBAT_ACTIONS,
            )
        )
    return tuple(steps)


def distance_step(a: Fighter, b: Fighter, distance: int) -> Step | None:
    """How the distance between them is closed, or why it does not matter (RN-CHIM-21)."""
    if not distance:
        return None
    melee = [f for f in (a, b) if f.melee]
    if not melee:
        return Step(
            f"{a.name} and {b.name} start {distance} apart, but both attack at range (Shoot or "
            "Blast): the distance changes nothing (range is not modelled, RN-CHIM-21)",
            COMBAT_ACTIONS,
        )
    who = " and ".join(f.name for f in melee)
    ranged = [f.name for f in (a, b) if not f.melee]
    tail = f"; {ranged[0]} attacks from where he stands (range is not modelled)" if ranged else ""
    return Step(
        f"{a.name} and {b.name} start {distance} apart (in MR units). {who} Fight"
        f"{'s' if len(melee) == 1 else ''}, so must reach the foe: on his turn he walks up "
        "to his MR (free) and attacks if that reaches; otherwise he runs (MR + his Movement "
        "Die), or creeps if crouching (MR − the die), as his full action and does not attack"
        f"{tail} (RN-CHIM-21)",
        COMBAT_ACTIONS,
    )


def first_turn_steps(
    a: Fighter, b: Fighter, rules: FightRules, wounds: tuple[int, int]
) -> tuple[Step, ...]:
    """The blow on a combatant who changes position on his first turn, before that turn."""
    steps = []
    for att, dfd, wa, wd in ((a, b, wounds[0], wounds[1]), (b, a, wounds[1], wounds[0])):
        if not has_first_turn(dfd) or dfd.position_before == dfd.position_after:
            continue
        before = blow_odds(att.settled(), dfd.unsettled(), wa, wd, rules)
        after = blow_odds(att.settled(), dfd.settled(), wa, wd, rules)
        tn = "no roll to hit" if before.tn is None else f"TN {before.tn}"
        tn_after = "no roll to hit" if after.tn is None else f"TN {after.tn}"
        steps.append(
            Step(
                f"Until {dfd.name}'s first turn he is {dfd.position_before}: {att.name}'s blow "
                f"has {tn}, P(hit) {fmt_prob(before.p_hit)}, P(a wound) "
                f"{fmt_prob(before.p_wound)}; from it he is {dfd.position_after}: {tn_after}, "
                f"P(hit) {fmt_prob(after.p_hit)}, P(a wound) {fmt_prob(after.p_wound)}",
                COMBAT_ACTIONS,
            )
        )
    return tuple(steps)
