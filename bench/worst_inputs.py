"""Benchmark: the slowest declared input of every calculator, against the 200 ms standard.

The project's standard: every input a calculator's form accepts computes in at
most 200 ms on CPython. For each calculator this times, in one run:

* every stored golden input set (``tests/golden/data/<key>.json``: the
  defaults, each field at its bounds, ~150 generated combinations), parsed and
  computed as the form does (``Param.parse`` then ``Calculator.run``);
* the heavy corners the generated sets may miss (:data:`HEAVY`): the largest
  dice a text field accepts, the longest combatant lists;

each set timed once by default (as a GM meets it; ``--repeat N`` keeps the
fastest of N runs, the least disturbed on a shared machine), and prints each
calculator's slowest set with its time, the ratio to the 200 ms budget, and
the machine's load average before and after.
The peer of this benchmark is the budget itself; the dice pool's default
input, timed in the same run, is printed beside it as a yardstick of the
machine's speed.

Usage: ``.venv/bin/python bench/worst_inputs.py [--repeat N] [--only KEY,...]``.
The last line is ``summary: worst_ms=… worst_key=… budget_ratio=…``.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from ruleslab import InputError
from ruleslab.calculators import CALCULATORS, get
from ruleslab.declare import Calculator

BUDGET_MS = 200.0

HEAVY: dict[str, list[dict[str, Any]]] = {
    "chimera": [
        {"a_damage": "10d100+20", "b_damage": "10d100+20"},
        {"a_damage": "10d100+20", "b_damage": "10d100+20", "critical_damage": "best"},
        {"a_damage": "10d100", "a_wound_limit": "10", "b_wound_limit": "10"},
        # the longest opening (issue 10): a crouched fighter creeping 40 under fire, every
        # wound slowing him, both acting at once on ties
        *(
            {
                "distance": "40",
                "a_position": "crouching",
                "a_mr": mr,
                "a_movement_die": "d12",
                "a_defence": "0",
                "a_wound_limit": "10",
                "a_character": "pc",
                "b_kind": kind,
                "b_damage": "d4",
                "b_wound_limit": "10",
                "b_character": "pc",
                "ties": "simultaneous",
            }
            for mr in ("6", "12")
            for kind in ("shoot", "blast")
        ),
        {
            # both run at each other from 40, readying first, the slow one getting up
            "distance": "40",
            "a_position": "gets_up",
            "a_plan": "ready",
            "a_mr": "2",
            "a_encumbrance": "2",
            "a_movement_die": "d12",
            "a_wound_limit": "10",
            "b_mr": "2",
            "b_movement_die": "d4",
            "b_wound_limit": "10",
            "b_plan": "ready",
        },
    ],
    "compressed": [
        {
            "a_combatants": "\n".join(
                f"Fighter {i}: Dex 5, Mega-Dex 5, Brawl 5, damage 50A, soak 50, initiative 50, "
                "dodge 50, incap 20, dead 40"
                for i in range(8)
            ),
            "b_combatants": "\n".join(
                f"Foe {i}: Str 5, Mega-Str 5, Brawl 5, damage 50L, soak 50, incap 20, dead 40"
                for i in range(8)
            ),
        }
    ],
    "autofire": [{"tags": "AP(10), Burst(10), Devastating (5 [2]), Guided", "targets": "10"}],
    "warfare": [
        {
            # the largest force at full spending against a squad of well-trained henchmen
            "enemy_size": "10",
            "enemy_firepower": "10",
            "enemy_skill": "10",
            "support": "10",
            "spend_support": True,
            "power": "10",
            "power_use": "firepower",
            "commander_intelligence": "10",
            "commander_mega_intelligence": "10",
            "commander_command": "10",
            "target": "squad",
            "training": "trained",
            "henchmen": henchmen,
            "divide_by_3": divide,
        }
        for henchmen in ("250", "1000")
        for divide in ("no", "scaled")
    ],
    "henchmen": [
        {
            # the largest squad and leader: a support attack of several hundred dice
            "charisma": "10",
            "mega_charisma": "10",
            "command": "10",
            "henchmen": "1000",
            "henchman_pool": "40",
            "training": "fanatical",
            "heavy_weapons": "1000",
            "leader_dexterity": "10",
            "leader_mega_dexterity": "10",
            "leader_ability": "10",
            "support_accuracy": "10",
            "support_damage_dice": "60",
            "support_damage_adds": "60",
            "support_burst": "sustained",
            "support_ammunition": "10000",
        }
    ],
}
"""Inputs at the heavy end of what the forms accept, per calculator (merged into the defaults)."""


def _as_typed(calc: Calculator) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in calc.params:
        d = p.default
        out[p.name] = str(int(d)) if isinstance(d, float) and d.is_integer() else d
        if isinstance(d, int) and not isinstance(d, bool):
            out[p.name] = str(d)
    return out


def time_once(calc: Calculator, given: dict[str, Any]) -> float | None:
    """Milliseconds to parse and compute ``given`` as the form does (None if refused)."""
    start = time.perf_counter()
    try:
        parsed = {p.name: p.parse(given[p.name]) for p in calc.params}
        calc.run(parsed)
    except InputError:
        return None
    return 1000 * (time.perf_counter() - start)


def best_of(calc: Calculator, given: dict[str, Any], repeat: int) -> float | None:
    """The first time (the engine's caches as the earlier sets left them: what a GM
    changing one input meets) or, with ``repeat`` > 1, the fastest of the runs."""
    times = [time_once(calc, given) for _ in range(repeat)]
    valid = [t for t in times if t is not None]
    return min(valid) if valid else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per input set, the fastest kept (default 1)"
    )
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    from tests.golden import generate as golden  # the stored input sets (imports the widgets)

    keys = [k for k in args.only.split(",") if k] or [c.key for c in CALCULATORS]
    load_before = os.getloadavg()[0]
    yardstick_calc = get("dice_pool")
    yardstick = best_of(yardstick_calc, _as_typed(yardstick_calc), 20)
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before")
    print(f"yardstick: dice_pool at its defaults {yardstick:.2f} ms (best of 20)")
    print(f"{'calculator':<12} {'sets':>5} {'worst ms':>9} {'/ budget':>9}  worst input set")
    worst_all = (0.0, "", "")
    for key in keys:
        calc = get(key)
        stored = golden.read_stored(key)
        defaults = {**_as_typed(calc), **stored["defaults"]}
        sets = [(case["name"], {**defaults, **case["inputs"]}) for case in stored["cases"]]
        sets += [(f"heavy {i + 1}", {**defaults, **h}) for i, h in enumerate(HEAVY.get(key, []))]
        worst = (0.0, "")
        for name, given in sets:
            ms = best_of(calc, given, args.repeat)
            if ms is not None and ms > worst[0]:
                worst = (ms, name)
        print(
            f"{key:<12} {len(sets):>5} {worst[0]:>9.1f} {worst[0] / BUDGET_MS:>8.2f}×  {worst[1]}"
        )
        if worst[0] > worst_all[0]:
            worst_all = (worst[0], key, worst[1])
    load_after = os.getloadavg()[0]
    print(f"load average {load_after:.2f} after")
    print(
        f"summary: worst_ms={worst_all[0]:.1f} worst_key={worst_all[1]} "
        f"budget_ratio={worst_all[0] / BUDGET_MS:.2f} yardstick_ms={yardstick:.2f} "
        f"load={load_before:.2f}/{load_after:.2f}"
    )
    return 0 if worst_all[0] <= BUDGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
