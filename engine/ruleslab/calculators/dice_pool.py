"""The Dice pool calculator (key ``dice_pool``): a d10 pool's exact odds, explained.

The rules are in :mod:`ruleslab.dice`; this module declares the calculator's
inputs, combines the rules into one explained result (:class:`PoolOdds`), its
chart and its "Roll it" log. See :mod:`ruleslab.declare`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.declare import Calculator, ChartView, Headline, Roll
from ruleslab.dice import DICE, SuccessDistribution, per_die_mean, pool_distribution, roll_pool
from ruleslab.explain import Chart, Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.params import BoolParam, IntParam, checked
from ruleslab.pmf import chart_bars
from ruleslab.sources import QR, rule

__all__ = ["CALCULATOR", "PoolOdds", "dice_pool", "roll_log"]


@dataclass(frozen=True, kw_only=True)
class PoolOdds(Explained):
    """Result of :func:`dice_pool`: the inputs, the distribution and its headline odds.

    ``p_success`` is always exact: the distribution is computed with
    ``upto=difficulty``, so the table reaches the difficulty even when rerolled
    10s make it reachable only with a tiny probability. ``mean`` is the exact mean
    of the whole distribution (closed form, tail included).
    """

    dice: int
    auto_successes: int
    difficulty: int
    reroll_tens: bool
    target: int
    distribution: SuccessDistribution
    p_success: Fraction
    p_botch: Fraction
    mean: Fraction

    @property
    def p_failure(self) -> Fraction:
        return 1 - self.p_success

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("p_success", "Chance of success", self.p_success, fmt_prob(self.p_success)),
            Figure("p_botch", "Chance of a botch", self.p_botch, fmt_prob(self.p_botch)),
            Figure("mean", "Mean successes", self.mean, fmt_num(self.mean, "successes")),
            Figure("p_failure", "Chance of failure", self.p_failure, fmt_prob(self.p_failure)),
        )

    def chart(self) -> Chart:
        """Bars ``(str(k), P(exactly k successes))`` from 0 successes up, highlighted
        from the difficulty (the rolls that succeed).

        Bars after the last one whose probability is at least 10⁻⁶ are cut (they
        would not show); bars below the automatic successes are kept as zeros.
        """
        return Chart(chart_bars(self.distribution.pmf), self.difficulty)


def _faces(target: int) -> str:
    return "10" if target == 10 else f"{target}–10"


@checked(
    IntParam(
        "dice",
        "Dice",
        minimum=0,
        maximum=60,
        help="Number of d10 rolled (attribute + ability, plus any bonus dice).",
    ),
    IntParam(
        "auto_successes",
        "Automatic successes",
        minimum=0,
        maximum=30,
        help="Successes added without rolling (e.g. from Mega-Attributes or powers).",
    ),
    IntParam(
        "difficulty",
        "Difficulty (successes needed)",
        minimum=1,
        maximum=60,
        help="How many successes the roll needs, automatic successes included.",
    ),
    BoolParam(
        "reroll_tens",
        "Reroll 10s",
        help="Each 10 is a success and adds another die, without limit "
        "(2.0: a Specialty; 2.1: a Mega-Attribute).",
    ),
    IntParam(
        "target",
        "Target number",
        minimum=2,
        maximum=10,
        help="A die showing this number or more is a success (7 normally).",
    ),
)
def dice_pool(
    dice: int = 6,
    auto_successes: int = 0,
    difficulty: int = 1,
    reroll_tens: bool = False,
    target: int = 7,
) -> PoolOdds:
    """Chance that a d10 pool meets a difficulty, with botch chance and mean, explained."""
    dist = pool_distribution(dice, auto_successes, target, reroll_tens, upto=difficulty)
    t = target
    p_die = Fraction(11 - t, 10)
    steps: list[Step] = [
        Step(
            f"A die succeeds on {_faces(t)}: {11 - t}/10 ({fmt_prob(p_die)})",
            rule(DICE, "Successes"),
        )
    ]
    if reroll_tens:
        a, b = 10 - t, t - 1
        steps += [
            Step(
                "Reroll 10s: each 10 is a success and adds another die, without limit "
                "(2.0: Specialties allow a character to reroll 10s)",
                rule(QR, "2.0 Rules", "Specialties"),
            ),
            Step(
                "2.1: Mega-Attributes allow a character to reroll 10s",
                rule(QR, "2.1 Rules", "Specialties"),
            ),
            Step(
                f"One die then gives 0 successes with {b}/10 and k ≥ 1 successes with "
                f"{10 * a + b}/100 · (1/10)^(k−1); "
                f"mean {fmt_num(per_die_mean(t, True))} = {11 - t}/9 per die",
                rule(DICE, "Rerolling 10s"),
            ),
        ]
    else:
        steps.append(
            Step(
                f"{dice} dice: P(k successes) = C({dice}, k) · ({11 - t}/10)^k · "
                f"({t - 1}/10)^({dice}−k), k = 0 … {dice}",
                rule(DICE, "Successes"),
            )
        )
    if auto_successes:
        steps.append(
            Step(
                f"{auto_successes} automatic successes are added: every count moves up by "
                f"{auto_successes}, so the total is at least {auto_successes}",
                rule(DICE, "Automatic successes"),
            )
        )
    else:
        steps.append(Step("No automatic successes", rule(DICE, "Automatic successes")))

    p_success = dist.at_least(difficulty)  # exact: the table reaches the difficulty
    if difficulty <= dist.highest:
        steps.append(
            Step(
                f"P(success) = P(successes ≥ {difficulty}) = {fmt_prob(p_success)}",
                rule(DICE, "Difficulty"),
            )
        )
    else:  # only a finite support ends below the difficulty
        steps.append(
            Step(
                f"P(success) = P(successes ≥ {difficulty}) = 0 %: at most "
                f"{dist.highest} successes are possible",
                rule(DICE, "Difficulty"),
            )
        )

    if auto_successes:
        botch = f"with {auto_successes} automatic successes the total is above 0: no botch"
    elif dice == 0:
        botch = "no dice rolled, so no die shows 1: no botch"
    else:
        botch = f"P(botch) = ({t - 1}/10)^{dice} − ({t - 2}/10)^{dice} = {fmt_prob(dist.p_botch)}"
    steps.append(
        Step(
            f"Botch = no successes and at least one die showing 1 (1s do not cancel "
            f"successes); {botch}",
            rule(DICE, "Botch"),
        )
    )

    mean = dist.full_mean if dist.full_mean is not None else dist.mean()
    per_die = f"{11 - t}/{9 if reroll_tens else 10}"
    steps.append(
        Step(
            f"Mean = {dice} × {per_die} + {auto_successes} = {fmt_num(mean, 'successes')}",
            rule(DICE, "Successes"),
        )
    )
    if reroll_tens and dice:
        steps.append(
            Step(
                f"Table kept up to {dist.highest} successes; the rest has exact "
                f"probability {float(dist.tail_bound):.3g} (< 10⁻¹²)",
                rule(DICE, "Rerolling 10s"),
            )
        )

    return PoolOdds(
        dice=dice,
        auto_successes=auto_successes,
        difficulty=difficulty,
        reroll_tens=reroll_tens,
        target=target,
        distribution=dist,
        p_success=p_success,
        p_botch=dist.p_botch,
        mean=mean,
        steps=tuple(steps),
    )


def roll_log(odds: PoolOdds, seed: int) -> tuple[str, ...]:
    """A readable log of one seeded roll of the pool ``odds`` describes.

    The "Roll it" button of the Dice pool calculator shows these lines; the
    same seed and pool always give the same roll.
    """
    roll = roll_pool(
        odds.dice,
        auto=odds.auto_successes,
        target=odds.target,
        reroll_tens=odds.reroll_tens,
        difficulty=odds.difficulty,
        rng=random.Random(seed),
    )
    first, extra = roll.faces[: odds.dice], roll.faces[odds.dice :]
    lines = [f"Rolled {odds.dice} d10: " + (", ".join(map(str, first)) or "no dice")]
    if extra:
        lines.append(f"10s rerolled, {len(extra)} more: " + ", ".join(map(str, extra)))
    hits = [f for f in roll.faces if f >= odds.target]
    lines.append(
        f"Successes (≥ {odds.target}): {len(hits)}"
        + (f" + {odds.auto_successes} automatic" if odds.auto_successes else "")
        + f" = {roll.successes}"
    )
    if roll.botch:
        verdict = "BOTCH: no successes and at least one 1"
    elif roll.success:
        verdict = f"SUCCESS: {roll.successes} ≥ difficulty {odds.difficulty}"
    else:
        verdict = f"FAILURE: {roll.successes} < difficulty {odds.difficulty}"
    lines.append(verdict)
    return tuple(lines)


CALCULATOR = Calculator(
    key="dice_pool",
    title="Dice pool",
    summary=(
        "Exact odds of a d10 pool: each die at the target number or more is a success; "
        "the difficulty is the number of successes needed."
    ),
    compute=dice_pool,
    headlines=(
        Headline(
            ("p_success", "p_botch", "mean"),
            question="Does the roll succeed, and how often does it botch?",
        ),
    ),
    rules=(rule(QR, "2.0 Rules", "Specialties"), rule(QR, "2.1 Rules", "Specialties")),
    options=("target",),
    rolls=(Roll("Roll it", roll_log),),
    views=(
        ChartView(
            "Distribution of successes",
            "Successes",
            PoolOdds.chart,
            highlight="meets the difficulty",
        ),
    ),
    example=(
        "from ruleslab.calculators.dice_pool import dice_pool\n"
        "from ruleslab.dice import compare, pool_distribution\n"
        "print(dice_pool(dice=8, difficulty=3, reroll_tens=True).explain())\n"
        "a = pool_distribution(8, reroll_tens=True)\n"
        "b = pool_distribution(6, auto=1)\n"
        "print(float(a.at_least(3)), compare(a, b))"
    ),
)
