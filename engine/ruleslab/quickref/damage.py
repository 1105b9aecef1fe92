"""Damage resolution: soak, damage adds, ping, and Dazed/Stunned.

Quick reference › 2.0 Rules › Combat:

    Soak: Characters subtract soak from damage dice, not damage adds. Damage
    adds apply if the attack deals at least one die of damage after soak.

    Ping: If an attack fails to penetrate soak, it deals 1 die of ping damage of
    one lower type. Bashing damage deals Stun, Lethal damage deals Bashing, and
    Aggravated damage deals Lethal.

    Dazing/Stunning: A character is Dazed if he takes (2 * Stamina) HLs of
    damage in a single turn from any combination of sources, and Stunned if he
    takes (3 * Stamina) HLs of damage. Dazed characters are at +1 difficulty to
    all actions, Stunned ones suffer +1 difficulty to all actions and may not
    take more than a single action (without powers such as Quickness or
    Temporal Manipulation).

    Armor Piercing: Armor Piercing attacks only decrease power or armored soak,
    they have no effect on natural soak.

    Stun Damage: Stun damage is soaked as bashing damage, …

Readings (``docs/rules-notes/damage.md``): a damage die is rolled like
any d10 pool die, each success (target 7+) being one health level (RN-DMG-1);
each damage add is one more health level (RN-DMG-2); "at least one die after
soak" counts dice, not successes (RN-DMG-3); the ping die is not soaked again
and takes no adds (RN-DMG-4); a stun attack that fails to penetrate deals
nothing (RN-DMG-5); Dazed/Stunned thresholds are "at least" and Mega-Stamina
counts 2 Stamina for them (RN-DMG-6).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from ruleslab.dice import DICE, pool_distribution
from ruleslab.explain import Explained, Figure, Step, fmt_num, fmt_prob
from ruleslab.params import InputError
from ruleslab.pmf import Dist, constant, fractions, mixture, numerators, packed_convolve
from ruleslab.quickref.mega import effective
from ruleslab.quickref.soak import ARMOR_PIERCING, KINDS, STUN_DAMAGE, armour_after_ap
from ruleslab.sources import QR, rule

__all__ = [
    "ATTACK_KINDS",
    "KINDS",
    "LOWER_KIND",
    "MAX_ADDS",
    "MAX_DICE",
    "MAX_SOAK",
    "DamageTaken",
    "Dazing",
    "damage_mixture",
    "damage_taken",
    "dazing",
    "levels_to_reach",
    "sum_with_dazing",
]

COMBAT_SOAK = rule(QR, "2.0 Rules", "Combat", "Soak")
PING = rule(QR, "2.0 Rules", "Combat", "Ping")
DAZING = rule(QR, "2.0 Rules", "Combat", "Dazing/Stunning")
AP_TAG = rule(QR, "Weapon Tags", "AP(X)")
SUCCESSES = rule(DICE, "Successes")

LOWER_KIND = {"bashing": "stun", "lethal": "bashing", "aggravated": "lethal"}
"""Ping: "Bashing damage deals Stun, Lethal damage deals Bashing, and Aggravated
damage deals Lethal." Stun has no lower kind."""

MAX_DICE = 500
"""The most damage dice :func:`damage_taken` resolves (its exact table grows with them)."""
MAX_ADDS = 200
"""The most damage adds :func:`damage_taken` takes."""
MAX_SOAK = 200
"""The most natural soak, armour soak or Armor Piercing :func:`damage_taken` takes."""

ATTACK_KINDS = ("bashing", "lethal", "aggravated", "stun")
"""The damage types an attack deals, in the order a form lists them (stun is soaked as bashing)."""

KIND_NAMES = {k: k.capitalize() for k in KINDS}


def _whole(field: str, label: str, value: object, lo: int, hi: int) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``, else :class:`InputError` naming
    ``field`` (the words of the calculators' forms: "Damage dice must be a whole number
    from 0 to 500.")."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(field, f"{label} must be a whole number from {lo:,} to {hi:,}.")
    return value


def _check_taken(
    dice: object,
    adds: object,
    kind: object,
    natural_soak: object,
    armour_soak: object,
    armour_piercing: object,
    target: object,
) -> tuple[int, int, str, int, int, int, int]:
    """:func:`damage_taken`'s inputs checked in order, the first wrong one named.

    It is called by several calculators (ranged attacks, henchmen) and by GMs
    directly, with what they computed: a count beyond what it resolves (e.g. more
    than :data:`MAX_DICE` incoming dice) is refused, not guessed at.
    """
    d = _whole("dice", "Damage dice", dice, 0, MAX_DICE)
    a = _whole("adds", "Damage adds", adds, 0, MAX_ADDS)
    if kind not in set(ATTACK_KINDS) or not isinstance(kind, str):
        names = ", ".join(KIND_NAMES[k] for k in ATTACK_KINDS)
        raise InputError("kind", f"Damage type must be one of {names}.")
    n = _whole("natural_soak", "Natural soak", natural_soak, 0, MAX_SOAK)
    m = _whole("armour_soak", "Armour soak", armour_soak, 0, MAX_SOAK)
    ap = _whole("armour_piercing", "Armor Piercing", armour_piercing, 0, MAX_SOAK)
    t = _whole("target", "Target number", target, 2, 10)
    return d, a, kind, n, m, ap, t


@dataclass(frozen=True, kw_only=True)
class DamageTaken(Explained):
    """What one attack's damage does to a target after soak.

    ``dice_after_soak`` is the number of damage dice left after soak (0 when the
    attack fails to penetrate). ``pinged`` is True when a ping die is rolled
    instead; ``kind_dealt`` is the kind of the health levels lost (the lower kind
    when pinged). ``lost`` is the exact distribution of the health levels lost,
    complete (it sums to 1), and ``levels[k]`` its table, ``P(k health levels
    lost)``. ``mean`` is the exact mean.
    """

    dice: int
    adds: int
    kind: str
    soak: int
    dice_after_soak: int
    adds_applied: int
    pinged: bool
    kind_dealt: str
    lost: Dist
    mean: Fraction

    @functools.cached_property
    def levels(self) -> tuple[Fraction, ...]:
        """``levels[k] = P(k health levels lost)`` for ``k = 0 …`` (the chart's table)."""
        return self.lost.table()

    def p_at_least(self, k: int) -> Fraction:
        """``P(at least k health levels lost)``, exact."""
        if k <= 0:
            return Fraction(1)
        return self.lost.at_least(k)

    def kind_text(self) -> str:
        name = KIND_NAMES[self.kind_dealt]
        return f"{name} (ping)" if self.pinged else name

    def figures(self) -> tuple[Figure, ...]:
        p_any = self.p_at_least(1)
        return (
            Figure(
                "dice_after_soak",
                "Damage dice after soak",
                self.dice_after_soak,
                str(self.dice_after_soak),
            ),
            Figure("kind_dealt", "Damage dealt as", self.kind_dealt, self.kind_text()),
            Figure("mean", "Mean health levels lost", self.mean, fmt_num(self.mean, "levels")),
            Figure("p_any", "Chance of at least 1 health level", p_any, fmt_prob(p_any)),
        )


def damage_taken(
    *,
    dice: int,
    adds: int,
    kind: str,
    natural_soak: int,
    armour_soak: int,
    armour_piercing: int = 0,
    target: int = 7,
) -> DamageTaken:
    """Exact distribution of health levels one attack takes off a target.

    "Characters subtract soak from damage dice, not damage adds. Damage adds
    apply if the attack deals at least one die of damage after soak." "If an
    attack fails to penetrate soak, it deals 1 die of ping damage of one lower
    type." ``natural_soak`` and ``armour_soak`` are the target's soak against
    ``kind`` (for stun: its bashing soak); Armor Piercing lowers only
    ``armour_soak``. Raises :class:`InputError` naming the first input out of
    range (at most :data:`MAX_DICE` dice, :data:`MAX_ADDS` adds,
    :data:`MAX_SOAK` soak or AP; target 2 to 10).
    """
    dice, adds, kind, natural_soak, armour_soak, armour_piercing, target = _check_taken(
        dice, adds, kind, natural_soak, armour_soak, armour_piercing, target
    )
    steps: list[Step] = []
    armour = armour_after_ap(armour_soak, armour_piercing)
    if armour_piercing:
        steps.append(
            Step(
                f"Armour soak {armour_soak} − AP {armour_piercing} = {armour} (never below 0); "
                f"AP has no effect on natural soak {natural_soak}",
                ARMOR_PIERCING,
            )
        )
    total_soak = natural_soak + armour
    if kind == "stun":
        steps.append(Step("Stun damage is soaked as bashing damage", STUN_DAMAGE))
    steps.append(
        Step(
            f"Soak = natural {natural_soak} + armour {armour} = {total_soak}",
            COMBAT_SOAK,
        )
    )
    left = max(0, dice - total_soak)
    steps.append(
        Step(
            f"Damage dice after soak = max(0, {dice} − {total_soak}) = {left} "
            "(soak is subtracted from damage dice, not from damage adds)",
            COMBAT_SOAK,
        )
    )
    s = 11 - target
    if left >= 1:
        applied = adds
        lost = pool_distribution(left, adds, target).successes
        steps.append(
            Step(
                f"Each damage die showing {target}–10 is one health level: {s}/10 per die; "
                f"{left} dice give C({left}, k) · ({s}/10)^k · ({target - 1}/10)^({left}−k) "
                "(rules note RN-DMG-1)",
                SUCCESSES,
            )
        )
        if adds:
            steps.append(
                Step(
                    f"At least one die is left after soak, so the {adds} damage adds apply: "
                    f"+{adds} health levels (rules note RN-DMG-2)",
                    COMBAT_SOAK,
                )
            )
        pinged, dealt = False, kind
    else:
        applied = 0
        if adds:
            steps.append(
                Step(
                    f"No die is left after soak, so the {adds} damage adds do not apply "
                    "(rules note RN-DMG-3)",
                    COMBAT_SOAK,
                )
            )
        if kind == "stun":
            pinged, dealt = False, "stun"
            lost = constant(0)
            steps.append(
                Step(
                    "The attack fails to penetrate soak; stun has no lower type, so it deals "
                    "no damage (rules note RN-DMG-5)",
                    PING,
                )
            )
        else:
            pinged, dealt = True, LOWER_KIND[kind]
            lost = Dist(0, (target - 1, s), 10)
            steps.append(
                Step(
                    f"The attack fails to penetrate soak: 1 die of {dealt} ping damage "
                    f"(one type lower than {kind}), not soaked again and without adds: "
                    f"1 level with {s}/10 (rules note RN-DMG-4)",
                    PING,
                )
            )
    mean = lost.mean()
    steps.append(
        Step(
            f"Mean health levels lost = {fmt_num(mean)} "
            f"({'1 die' if pinged else f'{left} × {s}/10 + {applied}'})",
            SUCCESSES,
        )
    )
    return DamageTaken(
        dice=dice,
        adds=adds,
        kind=kind,
        soak=total_soak,
        dice_after_soak=left,
        adds_applied=applied,
        pinged=pinged,
        kind_dealt=dealt,
        lost=lost,
        mean=mean,
        steps=tuple(steps),
    )


def damage_mixture(
    dice_pmf: dict[int, Fraction],
    *,
    adds: int,
    kind: str,
    natural_soak: int,
    armour_soak: int,
    armour_piercing: int = 0,
    target: int = 7,
) -> tuple[Fraction, ...]:
    """Health levels lost when the number of damage dice is itself random.

    ``dice_pmf[d]`` is ``P(d damage dice)``; the result's ``[k]`` is
    ``Σ_d dice_pmf[d] · P(k levels | d dice)`` (see :func:`damage_taken`). The
    probabilities need not sum to 1 (e.g. weighted by the chance to hit); the
    result sums to what they sum to. Levels are counted whatever their kind: for
    dice counts that fail to penetrate soak they are ping levels of the lower
    kind (use :func:`damage_taken` per count to tell them apart).
    """
    parts: list[tuple[Fraction, Dist]] = []
    for d, p in sorted(dice_pmf.items()):
        if isinstance(d, bool) or not isinstance(d, int):
            raise InputError("dice_pmf", "dice_pmf keys must be whole numbers of dice.")
        p = Fraction(p)
        if p < 0:
            raise InputError("dice_pmf", "dice_pmf probabilities must not be negative.")
        if not p:
            continue
        taken = damage_taken(
            dice=d,
            adds=adds,
            kind=kind,
            natural_soak=natural_soak,
            armour_soak=armour_soak,
            armour_piercing=armour_piercing,
            target=target,
        )
        parts.append((p, taken.lost))
    return mixture(parts).table()


# --- Dazed and Stunned ---------------------------------------------------------------


def levels_to_reach(threshold: int, taken_this_turn: int) -> int:
    """Levels one more attack must deal to reach ``threshold`` levels this turn.

    The levels count "in a single turn from any combination of sources", so those
    already taken this turn count; 0 once the threshold is reached.
    """
    return max(0, threshold - taken_this_turn)


@dataclass(frozen=True, kw_only=True)
class Dazing(Explained):
    """Whether one attack Dazes or Stuns its target, on top of the levels taken this turn.

    ``stamina`` is the target's effective Stamina (each Mega-Stamina dot counts
    as 2, RN-DMG-6); ``dazed_at`` and ``stunned_at`` the levels in one turn that
    Daze and Stun; ``p_dazed`` / ``p_stunned`` the exact chances that the attack
    reaches them (Stunned implies Dazed: ``p_dazed`` includes it).
    """

    stamina: int
    taken_this_turn: int
    dazed_at: int
    stunned_at: int
    p_dazed: Fraction
    p_stunned: Fraction

    @property
    def to_daze(self) -> int:
        """Levels the attack must deal to Daze (0: the target is already Dazed this turn)."""
        return levels_to_reach(self.dazed_at, self.taken_this_turn)

    @property
    def to_stun(self) -> int:
        """Levels the attack must deal to Stun (0: already Stunned this turn)."""
        return levels_to_reach(self.stunned_at, self.taken_this_turn)

    def figures(self) -> tuple[Figure, ...]:
        return (
            Figure(
                "p_dazed", "Chance Dazed (or worse) this turn", self.p_dazed, fmt_prob(self.p_dazed)
            ),
            Figure(
                "p_stunned", "Chance Stunned this turn", self.p_stunned, fmt_prob(self.p_stunned)
            ),
        )


def dazing(
    taken: DamageTaken, *, stamina: int, mega_stamina: int = 0, taken_this_turn: int = 0
) -> Dazing:
    """The exact chances that the damage ``taken`` Dazes or Stuns its target this turn.

    "A character is Dazed if he takes (2 * Stamina) HLs of damage in a single
    turn from any combination of sources, and Stunned if he takes (3 * Stamina)
    HLs of damage." At least that many, every level counting, with Stamina the
    effective Stamina (rules note RN-DMG-6).
    """
    eff = effective("Stamina", stamina, mega_stamina, purpose="for Dazing/Stunning")
    steps = [eff.step] if eff.step else []
    dazed_at, stunned_at = 2 * eff.value, 3 * eff.value
    p_dazed = taken.p_at_least(levels_to_reach(dazed_at, taken_this_turn))
    p_stunned = taken.p_at_least(levels_to_reach(stunned_at, taken_this_turn))
    already = f"{taken_this_turn} already taken + " if taken_this_turn else ""
    steps.append(
        Step(
            f"Dazed at 2 × Stamina {eff.value} = {dazed_at} levels in one turn, Stunned at "
            f"3 × {eff.value} = {stunned_at} (\u201cif he takes\u201d: at least that many; "
            "rules note RN-DMG-6)",
            DAZING,
        )
    )
    steps.append(
        Step(
            f"P(Dazed) = P({already}levels ≥ {dazed_at}) = {fmt_prob(p_dazed)}; "
            f"P(Stunned) = P({already}levels ≥ {stunned_at}) = {fmt_prob(p_stunned)}. Dazed: "
            "+1 difficulty to all actions; Stunned: +1 difficulty and at most a single action",
            DAZING,
        )
    )
    return Dazing(
        stamina=eff.value,
        taken_this_turn=taken_this_turn,
        dazed_at=dazed_at,
        stunned_at=stunned_at,
        p_dazed=p_dazed,
        p_stunned=p_stunned,
        steps=tuple(steps),
    )


def sum_with_dazing(
    before: tuple[Fraction, ...], after: tuple[Fraction, ...], attacks: int, dazed_at: int
) -> tuple[Fraction, ...]:
    """The total over ``attacks`` attacks made one after another, each dealing ``before``
    until the levels dealt so far reach ``dazed_at``, and ``after`` from then on.

    Dazing/Stunning: "A character is Dazed if he takes (2 * Stamina) HLs of damage in
    a single turn …  Dazed characters are at +1 difficulty to all actions": an attack
    made once he is Dazed meets his defence at +1 difficulty. Exact, on integer
    numerators over a common denominator: the totals below ``dazed_at`` are carried
    level by level, the Dazed part (whose later attacks all deal ``after``) as one
    table convolved with ``after`` at each attack.
    """
    (nb, db), (na, da) = numerators(before), numerators(after)
    den = math.lcm(db, da)
    nb = [x * (den // db) for x in nb]
    na = [x * (den // da) for x in na]

    def plus(x: list[int], y: list[int]) -> list[int]:
        short, long = sorted((x, y), key=len)
        return [v + (short[t] if t < len(short) else 0) for t, v in enumerate(long)]

    below = [1]  # P(total t, not yet Dazed) × den^k, t < dazed_at
    dazed: list[int] = []  # P(total t, Dazed) × den^k, indexed by t
    for _ in range(attacks):
        moved = packed_convolve(below, nb)  # one more attack before he is Dazed
        below = moved[:dazed_at]
        reached = [0] * dazed_at + moved[dazed_at:]  # totals that Daze him now
        dazed = plus(packed_convolve(dazed, na) if dazed else [], reached)
    total = plus(below, dazed)
    while len(total) > 1 and not total[-1]:
        total.pop()
    return fractions(total, den**attacks)
