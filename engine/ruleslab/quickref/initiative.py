"""Initiative (2.0): the rating, its exact distribution, and who acts first.

Quick reference › 2.0 Rules › Combat:

    Initiative: Initiative is (Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10).

The rule names Mega-Dexterity and Mega-Wits itself and adds each of their dots
once: it accounts for the Mega-Attributes separately, so the general rule "each
dot of a Mega-Attribute counts for 2 dots of an attribute" does not double them
here (Quick reference › Mega-Attributes: "Unless stated otherwise (or separately
accounted for)").

The 2.1 rules restate only what changed (specialties, health levels, healing,
defenses, multiple actions), so this rule applies under both (rules note
RN-DEF-1). Ties: the text is silent (RN-DEF-2, option ``ties``). Readings:
``docs/rules-notes/defence.md``; the calculator: :mod:`ruleslab.calculators.defence`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.pmf import Dist, die
from ruleslab.quickref.mega import MEGA_ATTRIBUTES
from ruleslab.sources import ALT, QR, rule

__all__ = [
    "INITIATIVE",
    "InitiativeOdds",
    "initiative",
    "initiative_distribution",
    "initiative_rating",
]

INITIATIVE = rule(QR, "2.0 Rules", "Combat", "Initiative")
TIE_PRECEDENT = rule(ALT, "Compressed Combat", "Resolution", "Victory")


def initiative_rating(dexterity: int, wits: int, mega_dexterity: int, mega_wits: int) -> int:
    """Dexterity + Wits + Mega-Dexterity + Mega-Wits: the initiative before the 1d10."""
    return dexterity + wits + mega_dexterity + mega_wits


def _total(rating: int) -> Dist:
    """The initiative total: rating + 1d10."""
    return die(10).shift(rating)


def initiative_distribution(rating: int) -> tuple[tuple[int, Fraction], ...]:
    """``((total, P(total)), ...)`` for rating + 1d10: ten totals, each 1/10."""
    return _total(rating).items()


def _opposed(rating: int, opponent: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(higher total), P(equal totals), P(lower total)) for two independent d10 rolls."""
    return _total(rating).versus(_total(opponent))


@dataclass(frozen=True, kw_only=True)
class InitiativeOdds(Explained):
    """Initiative rating, its distribution, and the odds against one opponent.

    ``p_first``, ``p_together`` and ``p_opponent_first`` sum to 1 after the tie
    rule (``ties``) is applied; ``p_equal_totals`` is the raw chance that the two
    totals are equal, before it.
    """

    rating: int
    opponent_rating: int
    distribution: tuple[tuple[int, Fraction], ...]
    mean: Fraction
    p_equal_totals: Fraction
    p_first: Fraction
    p_together: Fraction
    p_opponent_first: Fraction
    ties: str

    def rating_text(self) -> str:
        return f"{self.rating} + 1d10 ({self.rating + 1}–{self.rating + 10})"

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure("initiative", "Initiative", self.rating, self.rating_text()),
            Figure("p_first", "Chance to act first", self.p_first, fmt_prob(self.p_first)),
            Figure(
                "p_together",
                "Chance to act at the same time",
                self.p_together,
                fmt_prob(self.p_together),
            ),
            Figure(
                "p_opponent_first",
                "Chance the opponent acts first",
                self.p_opponent_first,
                fmt_prob(self.p_opponent_first),
            ),
        )


def initiative(
    dexterity: int,
    wits: int,
    mega_dexterity: int,
    mega_wits: int,
    opponent_rating: int,
    ties: str = "rating",
    penalty: int = 0,
) -> InitiativeOdds:
    """Initiative = Dexterity + Wits + Mega-Dexterity + Mega-Wits + 1d10, and the
    chance of acting before an opponent whose rating (everything but the d10) is
    ``opponent_rating``; both roll their d10 independently. ``penalty``: a wound
    penalty taken off his rating (never below 0), where the reading says so (rules
    note RN-COND-7)."""
    rating = max(0, initiative_rating(dexterity, wits, mega_dexterity, mega_wits) - penalty)
    less = f" − wound penalty {penalty}" if penalty else ""
    steps = [
        Step(
            f"Initiative rating = Dex {dexterity} + Wits {wits} + Mega-Dex {mega_dexterity} "
            f"+ Mega-Wits {mega_wits}{less} = {rating}; initiative = {rating} + 1d10, "
            f"{rating + 1} to {rating + 10}, each 1/10",
            INITIATIVE,
        )
    ]
    if mega_dexterity or mega_wits:
        steps.append(
            Step(
                "Mega-Dexterity and Mega-Wits are added once per dot, not 2: the Initiative "
                "rule accounts for them separately (rules note RN-DEF-1)",
                MEGA_ATTRIBUTES,
            )
        )
    mean = rating + Fraction(11, 2)
    steps.append(Step(f"Mean initiative = {rating} + 5.5 = {fmt_num(mean)}", INITIATIVE))
    win, tie, lose = _opposed(rating, opponent_rating)
    diff = rating - opponent_rating
    steps.append(
        Step(
            f"Against rating {opponent_rating} (difference {diff:+d}): of the 100 pairs of "
            f"d10s, {win * 100} give the higher total, {tie * 100} equal totals, "
            f"{lose * 100} the lower",
            INITIATIVE,
        )
    )
    together = Fraction(0)
    if tie == 0:
        steps.append(
            Step(
                "Ratings 10 or more apart: the totals can never be equal, no tie to break",
                INITIATIVE,
            )
        )
    elif ties == "rating" and diff != 0:
        if diff > 0:
            win += tie
        else:
            lose += tie
        who = "the character" if diff > 0 else "the opponent"
        steps.append(
            Step(
                f"Equal totals ({fmt_prob(tie)}): {who} has the higher rating and acts first "
                "(ties broken by base initiative, as in compressed combat; rules note RN-DEF-2)",
                TIE_PRECEDENT,
            )
        )
    elif ties == "reroll":
        decided = win + lose
        win, lose = win / decided, lose / decided
        steps.append(
            Step(
                f"Equal totals are rerolled until they differ: P(first) = "
                f"{fmt_prob(win * decided)} ÷ {fmt_prob(decided)} (rules note RN-DEF-2)",
                INITIATIVE,
            )
        )
    else:
        together = tie
        why = "equal ratings, " if ties == "rating" else ""
        steps.append(
            Step(
                f"Equal totals ({fmt_prob(tie)}): {why}both act at the same time "
                "(rules note RN-DEF-2)",
                INITIATIVE,
            )
        )
    steps.append(
        Step(
            f"P(act first) = {fmt_prob(win)}, P(same time) = {fmt_prob(together)}, "
            f"P(opponent first) = {fmt_prob(lose)}",
            INITIATIVE,
        )
    )
    return InitiativeOdds(
        rating=rating,
        opponent_rating=opponent_rating,
        distribution=initiative_distribution(rating),
        mean=mean,
        p_equal_totals=tie,
        p_first=win,
        p_together=together,
        p_opponent_first=lose,
        ties=ties,
        steps=tuple(steps),
    )
