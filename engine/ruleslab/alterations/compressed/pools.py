"""Compressed combat's pools: what each side rolls, and the Quantum it spends.

Combat alterations › Compressed Combat:

    Compressed combat uses (attack roll + base attack damage - enemy soak) for
    every character in question. In other words, it's (attribute + ability +
    damage - soak). […] Automatic successes are removed first by "soak" in this
    system. If facing multiple opponents, use the highest opponent's soak.

    In general, the henchmen rules should be used to model combatants. Up to the
    henchmen limit add to the dice pool, but each additional henchman past that
    is an effective extra health level for the character in question.

Mass Combat › Henchmen › Damage Soak: "Until all henchmen are eliminated, the
leader cannot be targeted. When targeting a squad with henchmen in it, the
squad's soak is assumed to be the representative soak of the most numerous
henchman type." (:func:`_enemy_soak`: a leader with henchmen is attacked
through the squad's soak, RN-COMP-20).

Quick reference › 2.0 Rules / 2.1 Rules › Health Levels: a line's ``track``
builds the track of the calculator's Rules version
(:func:`ruleslab.alterations.compressed.thresholds.combatant_thresholds`, RN-COMP-15).

› Modifiers: "Note that modifiers can never more than double the base (attack +
damage) pool before soak is factored in. • Higher Tactics than opponent: +1d
• Dodge pool higher than opponent attack pool: +1d • Superior Position: +1-5d
• Cover: -1-3d to the opponent's pool (equal to normal +difficulty) • Relevant
Supporting Power: +1-5d".

› Quantum Powers: "Maintenance and Concentration powers cost double, while
multiply the cost of all Action powers by x5 and all Instant powers by x10. In
the event that the character has an insufficient quantum pool for the use of
all powers he/she chooses to apply, the character ends the combat with 0 points
of remaining Quantum but suffers no other penalties." (the costs are
:mod:`ruleslab.alterations.compressed.quantum_costs`; here each power use finds its combatant).

› Strange Interactions: "the user's pool is either (2 * attack roll - enemy
resistance pool) or (attack roll + damage roll - enemy resistance roll) […]
Powers which may be tangentially beneficial (such as say, telekinesis or
Invisibility) add +1d to your basic combat roll for each dot in the power.
Forcefield and other sources of ablative soak subtract 1 success from the enemy
attack roll per dot (+1 additional success subtracted for forcefield proper
rather than a suite power), same with any power which increases attack
difficulty. Any relevant defensive extras increase forcefield's
success-subtracting properties."

Building a side (:func:`build_side`) goes in named steps: the leader's henchmen,
the side's modifiers (to the leader), the enemy soak, each combatant's pool
(base, capped modifiers, health thresholds, what it faces), then the side's
ablative soak; the opponent's cover comes off afterwards (:func:`take_cover`).
Readings of the text: ``docs/rules-notes/compressed.md`` (RN-COMP-*).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ruleslab.alterations.compressed.combatants import Combatant
from ruleslab.alterations.compressed.quantum_costs import PowerUse, QuantumSpend, quantum_spend
from ruleslab.alterations.compressed.thresholds import combatant_thresholds
from ruleslab.alterations.henchmen import HENCHMEN, SOAK, HenchmenBonus, henchmen_bonus
from ruleslab.alterations.henchmen.leader import power_attack_bonus
from ruleslab.explain import Step
from ruleslab.params import InputError
from ruleslab.quickref.mega import effective
from ruleslab.sources import ALT, rule

__all__ = [
    "COMPRESSED",
    "HENCHMEN",
    "MODIFIERS",
    "STRANGE",
    "CombatantPool",
    "SideInput",
    "SidePools",
    "SideResult",
    "build_side",
    "spend",
    "take_cover",
]

COMPRESSED = rule(ALT, "Compressed Combat")
MODIFIERS = rule(ALT, "Compressed Combat", "Modifiers")
STRANGE = rule(ALT, "Compressed Combat", "Strange Interactions")

#: A modifier of a side: (what, dice, rule).
Modifier = tuple[str, int, str]


@dataclass(frozen=True)
class CombatantPool:
    """One combatant's compressed-combat pool.

    ``base`` is the base (attack + damage) pool (or 2 × attack / attack + damage
    against a resistance pool) including henchmen when they count as base;
    ``modifiers`` the modifier dice after the cap; ``against`` the soak or
    resistance subtracted (``against_kind`` "soak", "resistance", "resistance
    roll" or "none"); ``auto_removed`` the automatic successes it removed first;
    ``dice``/``auto`` what is rolled; ``resist_dice`` the dice of a rolled
    resistance (mode "roll") whose successes are subtracted.
    """

    name: str
    base: int
    modifiers: int
    against: int
    against_kind: str
    auto_removed: int
    cover_removed: int
    dice: int
    auto: int
    resist_dice: int
    incap: int
    dead: int
    initiative: int

    def pool_text(self) -> str:
        text = f"{self.dice} {'die' if self.dice == 1 else 'dice'}"
        if self.auto:
            text += f" + {self.auto} auto"
        if self.resist_dice:
            text += f" − a {self.resist_dice}-dice resistance roll"
        return text


@dataclass(frozen=True)
class SideResult:
    """One side of the fight: its combatants, pools and exact success table."""

    label: str
    combatants: tuple[Combatant, ...]
    pools: tuple[CombatantPool, ...]
    initiative: int
    ablative: int
    intent: str
    henchmen: HenchmenBonus | None
    quantum: tuple[QuantumSpend, ...]
    successes: tuple[Fraction, ...]

    @property
    def dice(self) -> int:
        return sum(p.dice for p in self.pools)

    @property
    def auto(self) -> int:
        return sum(p.auto for p in self.pools)

    @property
    def title(self) -> str:
        names = ", ".join(c.name for c in self.combatants)
        return f"{self.label} ({names})"

    def pool_text(self) -> str:
        texts = [p.pool_text() for p in self.pools]
        if len(texts) == 1:
            return texts[0]
        return " + ".join(f"{p.name} {t}" for p, t in zip(self.pools, texts, strict=True))

    def quantum_text(self) -> str:
        if not self.quantum:
            return "none"
        return "; ".join(s.text() for s in self.quantum)


@dataclass(frozen=True, kw_only=True)
class SideInput:
    """One side's inputs: its combatants and everything the calculator's side box holds.

    The calculator declares each field (label, range, help) and checks it: its record
    :class:`ruleslab.calculators.compressed.Side` is this class, checked; the defaults
    are written here, once. ``label`` names the side in the explanation ("Side A").
    A side needs at least one combatant (the first leads it).
    """

    label: str = "Side"
    combatants: tuple[Combatant, ...] = ()
    intent: str = ""
    position: int = 0
    cover: int = 0
    support: int = 0
    tangential: int = 0
    forcefield: int = 0
    forcefield_proper: bool = False
    extras: int = 0
    henchmen: int = 0
    henchmen_situation: int = 0
    henchman_pool: int = 4
    henchman_soak: int = 2
    henchmen_share_power: bool = False
    leader_charisma: int = 2
    leader_command: int = 0
    powers: tuple[PowerUse, ...] = ()
    incap: int = 7
    dead: int = 11


@dataclass(frozen=True)
class SidePools:
    """What :func:`build_side` builds: the pools (before the opponent's cover), the
    leader's henchmen, the side's ablative soak and its best base initiative."""

    pools: tuple[CombatantPool, ...]
    henchmen: HenchmenBonus | None
    ablative: int
    initiative: int

    def side(
        self,
        s: SideInput,
        pools: tuple[CombatantPool, ...],
        quantum: tuple[QuantumSpend, ...],
        successes: tuple[Fraction, ...],
    ) -> SideResult:
        """The finished side: ``pools`` after the opponent's cover, its Quantum spent and
        its exact success table."""
        return SideResult(
            label=s.label,
            combatants=s.combatants,
            pools=pools,
            initiative=self.initiative,
            ablative=self.ablative,
            intent=s.intent,
            henchmen=self.henchmen,
            quantum=quantum,
            successes=successes,
        )


def _remove(dice: int, auto: int, amount: int) -> tuple[int, int, int]:
    """Remove ``amount`` from a pool, automatic successes first → (dice, auto, auto removed)."""
    taken_auto = min(auto, amount)
    return max(0, dice - (amount - taken_auto)), auto - taken_auto, taken_auto


# --- the side's henchmen and modifiers -----------------------------------------------------


def _henchmen(s: SideInput) -> HenchmenBonus | None:
    if not s.henchmen:
        return None
    return henchmen_bonus(
        charisma=s.leader_charisma,
        command=s.leader_command,
        henchmen=s.henchmen,
        henchman_pool=s.henchman_pool,
        situation=s.henchmen_situation,
    )


def _side_henchmen(s: SideInput, steps: list[Step]) -> HenchmenBonus | None:
    """The leader's henchmen (``None``: none), with their working."""
    hench = _henchmen(s)
    if hench is not None:
        lead = s.combatants[0]
        steps.extend(Step(f"{s.label}: {st.text}", st.rule) for st in hench.steps)
        steps.append(
            Step(
                f"{s.label}: {s.henchmen} henchmen with {lead.name} (limit {hench.limit}): "
                f"+{hench.dice}d and +{hench.damage} damage from the {hench.counted} counted; "
                f"{hench.extra_health_levels} past the limit are extra health levels for "
                f"{lead.name}",
                COMPRESSED,
            )
        )
    return hench


def _side_modifiers(
    s: SideInput, other: SideInput, hench: HenchmenBonus | None, henchmen_count_as: str
) -> list[Modifier]:
    """The side's modifiers (they go to its leader), before the cap."""
    mods: list[Modifier] = []
    my_tac = max(c.tactics for c in s.combatants)
    their_tac = max(c.tactics for c in other.combatants)
    if my_tac > their_tac:
        mods.append((f"Tactics {my_tac} > {their_tac}", 1, MODIFIERS))
    my_dodge = max(c.dodge for c in s.combatants)
    their_attack = max(c.attack for c in other.combatants)
    if my_dodge > their_attack:
        mods.append((f"dodge pool {my_dodge} > attack pool {their_attack}", 1, MODIFIERS))
    if s.position:
        mods.append(("superior position", s.position, MODIFIERS))
    if s.support:
        mods.append(("supporting power", s.support, MODIFIERS))
    if s.tangential:
        mods.append((f"tangential powers {s.tangential} dots × 1d", s.tangential, STRANGE))
    if henchmen_count_as == "modifier" and hench is not None and (hench.dice or hench.damage):
        mods.append(("henchmen (as modifiers)", hench.dice + hench.damage, HENCHMEN))
    return mods


def _enemy_soak(s: SideInput, other: SideInput, steps: list[Step]) -> int:
    """The soak the side's attacks face: the highest of the opponents' (RN-COMP-2), the
    opposing leader's being its squad's while it has henchmen (RN-COMP-20)."""
    soaks = [(f"{c.name}'s", c.soak) for c in other.combatants]
    if other.henchmen:
        lead = other.combatants[0]
        who = "henchman" if other.henchmen == 1 else "henchmen"
        soaks[0] = (f"{lead.name}'s squad's", other.henchman_soak)
        steps.append(
            Step(
                f"{s.label} attacks {lead.name}'s squad ({other.henchmen} {who}): until all "
                "henchmen are eliminated the leader cannot be targeted, and the squad's soak is "
                "the representative soak of the most numerous henchman type, "
                f"{other.henchman_soak}, not {lead.name}'s own {lead.soak} "
                "(rules note RN-COMP-20)",
                SOAK,
            )
        )
    whose, enemy_soak = max(soaks, key=lambda n: n[1])
    if len(other.combatants) > 1:
        steps.append(
            Step(
                f"{s.label} faces {len(other.combatants)} opponents: the highest soak applies, "
                f"{whose} {enemy_soak} (rules note RN-COMP-2)",
                COMPRESSED,
            )
        )
    return enemy_soak


# --- one combatant's pool ------------------------------------------------------------------


def _base_pool(c: Combatant, s: SideInput, hench: HenchmenBonus | None, steps: list[Step]) -> int:
    """(attack + damage), or 2 × attack against a resistance pool, plus ``hench``'s dice
    and damage (henchmen counted as base)."""
    eff = effective(c.attribute, c.attribute_dots, c.mega, purpose="in the pool")
    if eff.step:
        steps.append(Step(f"{s.label}, {c.name}: {eff.step.text}", eff.step.rule))
    parts = [f"{c.attribute[:3]} {eff.value}", f"{c.ability} {c.ability_dots}"]
    if c.accuracy:
        parts.append(f"accuracy {c.accuracy}")
    attack = c.attack
    if c.resist is None or c.formula == "sum":
        base = attack + c.damage
        parts.append(f"damage {c.damage}")
        what = "(attack + damage)"
    else:
        base = 2 * attack
        what = "2 × attack"
    base_text = " + ".join(parts)
    if c.resist is not None and c.formula == "double":
        base_text = f"2 × ({base_text})"
    if hench is not None and (hench.dice or hench.damage):
        base += hench.dice + hench.damage
        base_text += f" + henchmen {hench.dice}d + henchmen damage {hench.damage}"
    steps.append(Step(f"{s.label}, {c.name}: base {what} pool = {base_text} = {base}", COMPRESSED))
    return base


def _capped_modifiers(
    c: Combatant, s: SideInput, side_mods: list[Modifier], base: int, steps: list[Step]
) -> int:
    """The combatant's bonus dice and ``side_mods``, capped at the base pool (RN-COMP-4)."""
    wanted = c.bonus + sum(v for _, v, _ in side_mods)
    named = ([("bonus dice", c.bonus, MODIFIERS)] if c.bonus else []) + side_mods
    modifiers = min(wanted, base)
    if named:
        listed = ", ".join(f"{n} +{v}d" for n, v, _ in named)
        text = f"{s.label}, {c.name}: modifiers {listed} = +{wanted}d"
        if wanted > base:
            text += (
                f"; capped at +{base}d (modifiers never more than double the base pool before soak)"
            )
        steps.append(Step(text + " (rules note RN-COMP-4)", MODIFIERS))
    return modifiers


def _health_thresholds(
    c: Combatant, s: SideInput, extra_levels: int, ruleset: str, field: str, steps: list[Step]
) -> tuple[int, int]:
    """(levels to Incapacitated, levels to dead), with henchmen past the limit added."""
    incap, dead = combatant_thresholds(
        c, s.label, incap=s.incap, dead=s.dead, ruleset=ruleset, field=field, steps=steps
    )
    if extra_levels:
        incap, dead = incap + extra_levels, dead + extra_levels
        steps.append(
            Step(
                f"{s.label}, {c.name}: +{extra_levels} extra health levels from henchmen past "
                f"the limit → Incapacitated at {incap}, dead at {dead} (rules note RN-COMP-8)",
                COMPRESSED,
            )
        )
    return incap, dead


def _against(c: Combatant, enemy_soak: int, strange_mode: str) -> tuple[int, str, int, str]:
    """What the attack faces: (amount subtracted, kind, dice of a rolled resistance, in words)."""
    if c.resist is None:
        return enemy_soak, "soak", 0, f"{c.name} faces soak {enemy_soak}"
    if c.formula == "double" or strange_mode == "pool":
        return (
            c.resist,
            "resistance",
            0,
            f"{c.name} faces the enemy resistance pool {c.resist} (no soak)",
        )
    if strange_mode == "expected":
        expected = (2 * c.resist) // 5
        return (
            expected,
            "expected resistance",
            0,
            f"{c.name} faces the expected successes of a {c.resist}-dice resistance roll, "
            f"⌊{c.resist} × 2/5⌋ = {expected} (rules note RN-COMP-10)",
        )
    return (
        0,
        "resistance roll",
        c.resist,
        f"{c.name} faces a rolled {c.resist}-dice resistance pool: its successes are "
        "subtracted from the attack's (no soak; rules note RN-COMP-10)",
    )


def _combatant_pool(
    c: Combatant,
    s: SideInput,
    *,
    hench: HenchmenBonus | None,
    side_mods: list[Modifier],
    enemy_soak: int,
    strange_mode: str,
    henchmen_count_as: str,
    ruleset: str,
    field: str,
    steps: list[Step],
) -> CombatantPool:
    """One combatant's pool before the opponent's cover.

    ``hench`` and ``side_mods`` are the leader's (``None`` and ``[]`` for the others).
    """
    base = _base_pool(c, s, hench if henchmen_count_as == "base" else None, steps)
    modifiers = _capped_modifiers(c, s, side_mods, base, steps)
    incap, dead = _health_thresholds(
        c, s, hench.extra_health_levels if hench is not None else 0, ruleset, field, steps
    )
    against, kind, resist_dice, text = _against(c, enemy_soak, strange_mode)
    dice, auto, removed = _remove(base + modifiers, c.auto, against)
    if removed:
        text += f": {removed} automatic successes removed first"
    text += f" → {dice} dice" + (f" + {auto} automatic successes" if auto else "")
    steps.append(Step(f"{s.label}: {text}", STRANGE if c.resist is not None else COMPRESSED))
    return CombatantPool(
        name=c.name,
        base=base,
        modifiers=modifiers,
        against=against,
        against_kind=kind,
        auto_removed=removed,
        cover_removed=0,
        dice=dice,
        auto=auto,
        resist_dice=resist_dice,
        incap=incap,
        dead=dead,
        initiative=c.initiative,
    )


# --- the side --------------------------------------------------------------------------------


def _ablative(s: SideInput, forcefield_bonus: str, steps: list[Step]) -> int:
    """Successes the side's forcefield (and other ablative soak) takes off the opponent's roll
    (RN-COMP-11)."""
    per_dot = s.forcefield
    proper = 0
    if s.forcefield_proper and s.forcefield:
        proper = s.forcefield if forcefield_bonus == "per_dot" else 1
    extras = s.extras if s.forcefield else 0
    if s.extras and not s.forcefield:
        steps.append(
            Step(
                f"{s.label}: defensive extras need a forcefield (0 dots): ignored "
                "(rules note RN-COMP-11)",
                STRANGE,
            )
        )
    ablative = per_dot + proper + extras
    if ablative:
        bits = [f"{per_dot} dots × 1"]
        if proper:
            bits.append(f"forcefield proper +{proper}")
        if extras:
            bits.append(f"defensive extras +{extras}")
        steps.append(
            Step(
                f"{s.label}'s ablative soak: {' + '.join(bits)} = {ablative} successes subtracted "
                "from the opponent's roll (rules note RN-COMP-11)",
                STRANGE,
            )
        )
    return ablative


def build_side(
    s: SideInput,
    other: SideInput,
    *,
    strange_mode: str,
    forcefield_bonus: str,
    henchmen_count_as: str,
    ruleset: str,
    field: str,
    steps: list[Step],
) -> SidePools:
    """Each combatant's pool before the opponent's cover; also henchmen, ablative, initiative.

    The leader (the first line) takes the henchmen and the side's modifiers. A line's
    ``track`` is built under ``ruleset``; a 2.1 track without Willpower raises
    :class:`InputError` on ``field`` (the side's combatants).
    """
    hench = _side_henchmen(s, steps)
    if hench is not None and s.combatants[0].resist is not None and (hench.dice or hench.damage):
        who = f"{s.label}: {s.combatants[0].name}"  # a Quantum power's attack (RN-COMP-21)
        hench, step = power_attack_bonus(hench, shared=s.henchmen_share_power, who=who)
        steps.append(step)
    mods = _side_modifiers(s, other, hench, henchmen_count_as)
    enemy_soak = _enemy_soak(s, other, steps)
    pools = tuple(
        _combatant_pool(
            c,
            s,
            hench=hench if i == 0 else None,
            side_mods=mods if i == 0 else [],
            enemy_soak=enemy_soak,
            strange_mode=strange_mode,
            henchmen_count_as=henchmen_count_as,
            ruleset=ruleset,
            field=field,
            steps=steps,
        )
        for i, c in enumerate(s.combatants)
    )
    ablative = _ablative(s, forcefield_bonus, steps)
    initiative = max(c.initiative for c in s.combatants)
    return SidePools(pools, hench, ablative, initiative)


def take_cover(
    s: SideInput, other: SideInput, pools: tuple[CombatantPool, ...], steps: list[Step]
) -> tuple[CombatantPool, ...]:
    """``other``'s ``pools`` less ``s``'s cover dice, taken in list order (RN-COMP-6)."""
    if not s.cover:
        return pools
    left = s.cover
    out = []
    for p in pools:
        take = min(left, p.dice)
        out.append(replace(p, dice=p.dice - take, cover_removed=take))
        left -= take
    steps.append(
        Step(
            f"{s.label}'s cover: −{s.cover}d to {other.label}'s pool "
            f"({s.cover - left} dice removed, in list order; rules note RN-COMP-6)",
            MODIFIERS,
        )
    )
    return tuple(out)


def spend(s: SideInput, field: str) -> tuple[QuantumSpend, ...]:
    """The Quantum each combatant of the side spends on the powers it uses.

    A use naming nobody goes to the first combatant with a Quantum pool, else
    the leader; a name not on the side raises :class:`InputError` on ``field``.
    """
    if not s.powers:
        return ()
    by_name = {c.name.lower(): c for c in s.combatants}
    default = next((c for c in s.combatants if c.quantum is not None), s.combatants[0])
    groups: dict[str, list[PowerUse]] = {}
    for use in s.powers:
        if use.who:
            c = by_name.get(use.who.lower())
            if c is None:
                raise InputError(
                    field,
                    f"{s.label} Quantum powers used, line {use.line}: no combatant named "
                    f"“{use.who[:30]}” (the side has "
                    + ", ".join(by_name_c.name for by_name_c in s.combatants)
                    + ").",
                )
        else:
            c = default
        groups.setdefault(c.name, []).append(
            PowerUse(who=c.name, power=use.power, cost=use.cost, kind=use.kind, line=use.line)
        )
    out = []
    for c in s.combatants:
        if c.name in groups:
            out.append(quantum_spend(c.name, tuple(groups[c.name]), c.quantum))
    return tuple(out)
