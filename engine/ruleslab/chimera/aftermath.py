"""After the fight: the cool-down, the Fatigue roll and the Ammo Check.

Chimera combat › Combat:

    Combat ends when one side no longer poses a threat to the other. After a
    fight, combatants must spend 1 full turn (10 minutes) checking the wounded,
    tending injuries, and otherwise composing themselves. Failure to spend this
    "cool-down" period mandates an immediate Resistance Roll against Fatigue.
    Anyone who engaged in ranged combat must also make an Ammo Check at this time.
"""

from __future__ import annotations

from ruleslab.explain import Step
from ruleslab.sources import CHIMERA, rule

__all__ = ["AFTERMATH", "COOL_DOWN_MINUTES", "aftermath_steps"]

AFTERMATH = rule(CHIMERA, "Combat")
COOL_DOWN_MINUTES = 10


def aftermath_steps(name: str, *, cool_down: bool, fired: bool) -> tuple[Step, ...]:
    """What ``name`` must do after the fight: Fatigue roll if no cool-down, Ammo Check if fired."""
    steps = []
    if cool_down:
        steps.append(
            Step(
                f"{name} spends the 1-turn ({COOL_DOWN_MINUTES}-minute) cool-down: no Fatigue roll",
                AFTERMATH,
            )
        )
    else:
        steps.append(
            Step(
                f"{name} skips the cool-down: an immediate Resistance Roll against Fatigue",
                AFTERMATH,
            )
        )
    if fired:
        steps.append(Step(f"{name} engaged in ranged combat: an Ammo Check now", AFTERMATH))
    return tuple(steps)
