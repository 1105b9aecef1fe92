"""The Warfare calculator (key ``warfare``): one turn of an enemy force's attacks of opportunity.

The rules are in :mod:`ruleslab.alterations.warfare` (force Size, attacks of opportunity,
the "divide by 3" shortcut, a squad's losses), :mod:`ruleslab.alterations.warfare.support`
(what the force spends: Support and its special types, Morale, Power),
:mod:`ruleslab.alterations.warfare.quantity` (Quantity is Quality: defence, awareness,
Morale), :mod:`ruleslab.quickref.conditions` (a Dazed target's defence, one reading of
a difficulty on a defence roll) and :mod:`ruleslab.alterations.henchmen`, combined into one
explained turn by :mod:`ruleslab.alterations.warfare.turn`. This module declares the
calculator: its inputs, among them three roles (the target, the enemy
commander, the target's conditions), its chart and its "Roll it". See
:mod:`ruleslab.declare`.
"""

from __future__ import annotations

from typing import TypedDict

from ruleslab.alterations.warfare.report import WarfareReport
from ruleslab.alterations.warfare.turn import TARGET_CHARACTER, TARGET_SQUAD, roll_turn
from ruleslab.alterations.warfare.turn import warfare_turn as _warfare_turn
from ruleslab.character import Character, Conditions
from ruleslab.declare import Calculator, ChartView, FieldGroup, Headline, Roll
from ruleslab.inputs import HENCHMEN_TRAINING, LEADER_IS_HENCHMAN, LOSSES_ROUNDING
from ruleslab.params import BoolParam, ChoiceParam, IntParam, checked
from ruleslab.quickref.conditions import DEFENCE_DIFFICULTY_READINGS
from ruleslab.records import Role
from ruleslab.sources import ALT, rule

__all__ = [
    "CALCULATOR",
    "COMMANDER",
    "DEFENDER",
    "DEFENDER_CONDITIONS",
    "WarfareReport",
    "roll_turn",
    "warfare",
]

ONLY_CHARACTER = ("target", TARGET_CHARACTER)
"""Shown only against a character (his Stamina: Dazing, RN-WAR-13)."""
ONLY_SQUAD = ("target", TARGET_SQUAD)
"""Shown only against a squad (its henchmen)."""

SUPPORT_KIND_CHOICES = (
    ("ordinary", "Ordinary"),
    ("nuclear", "Tactical nuclear weapons (the damage is aggravated)"),
    ("recon", "Tactical recon (+1 accuracy on every attack)"),
)

SHORTCUT_CHOICES = (
    ("no", "No: full pools"),
    ("scaled", "In threes: a die for 3 dice, each success ×3 (same expected damage per hit)"),
    (
        "attack_damage",
        "As written: attack and damage pools ÷ 3, rounded up (much weaker attacks)",
    ),
    ("all", "Attack, damage and defence pools ÷ 3, rounded up (weaker attacks)"),
)
"""The "divide by 3" shortcut (RN-WAR-9): the form's value → what it does."""

POWER_USES = (
    ("none", "Not used"),
    ("firepower", "Firepower (Power used as Support)"),
    ("boost", "Boost (+1 Psi, or +1 power rating and Quantum)"),
    ("recharge", "Recharge (+1 Quantum or Psi to all soldiers)"),
)


# --- inputs -------------------------------------------------------------------------


DEFENDER = Role(
    "defender",
    "The target (a squad: its leader)",
    Character,
    ("wits", "mega_wits", "tactics", "stamina", "mega_stamina"),
    label="Target's ",
    help={
        "wits": "The character's, or the squad leader's.",
        "mega_wits": "Each dot counts as 2 Wits dots (Quick reference › Mega-Attributes).",
        "tactics": "The defence against attacks of opportunity is the target's Wits + Tactics.",
        "stamina": "A character target: Dazed at 2 × Stamina levels in the turn (RN-WAR-13).",
        "mega_stamina": "Each dot counts as 2 Stamina for Dazed/Stunned (RN-DMG-6).",
    },
    shown_when_field={"stamina": ONLY_CHARACTER, "mega_stamina": ONLY_CHARACTER},
)
"""The target: his Wits + Tactics defends; his Stamina (a character's) sets when he is Dazed."""
COMMANDER = Role(
    "commander",
    "The enemy commander",
    Character,
    ("intelligence", "mega_intelligence", "command"),
    prefix="commander_",
    label="Enemy commander's ",
    help={
        "intelligence": "With Command, caps the attacks of opportunity used: Intelligence + "
        "Command.",
        "mega_intelligence": (
            "Counts 2 per dot towards the attack cap unless the Rules option says "
            "otherwise (RN-WAR-1)."
        ),
        "command": "Attacks used = Size, at most Intelligence + Command.",
    },
    defaults={"command": 3},
)
"""The enemy force's commander: his Intelligence + Command caps its attacks (RN-WAR-1)."""
DEFENDER_CONDITIONS = Role(
    "conditions",
    "The target's conditions",
    Conditions,
    ("daze",),
    label="Target already ",
    help={
        "daze": (
            "At the start of the turn (a squad: its leader). ‘Dazed characters are at +1 "
            "difficulty to all actions’: +1 on every defence this turn (RN-WAR-14)."
        )
    },
)
"""Whether the target (a squad's leader) is already Dazed or Stunned when the turn starts:
+1 difficulty on each of his defences (:func:`ruleslab.quickref.conditions.daze_difficulty`)."""


class _Range(TypedDict):
    minimum: int
    maximum: int


_ATTR: _Range = {"minimum": 1, "maximum": 10}
_TRACK: _Range = {"minimum": 0, "maximum": 10}


RULES_OPTIONS = (
    ChoiceParam(
        "defence_reading",
        "How Wits + Tactics defends",
        choices=(
            ("opposed", "Rolled: its successes cancel attack successes"),
            ("defense_score", "Not rolled: added to the difficulty (a Defense score)"),
        ),
        help="See rules note RN-WAR-2.",
    ),
    ChoiceParam(
        "defence_difficulty",
        "A difficulty on the defence",
        choices=DEFENCE_DIFFICULTY_READINGS,
        help=(
            "How the Size penalty and Dazed’s +1 meet Wits + Tactics: its first successes "
            "pay for them, or it must reach them. See rules notes RN-COND-5, RN-WAR-3."
        ),
    ),
    ChoiceParam(
        "size_penalty",
        "Size difficulty penalty on the defence",
        choices=(("apply", "Applies to the defence"), ("ignore", "Not applied here")),
        help=(
            "Quantity is Quality: +1 difficulty per point of net Size to defensive "
            "rolls. See RN-WAR-3."
        ),
    ),
    ChoiceParam(
        "size_morale",
        "Size difference and Morale",
        choices=(
            ("apply", "Taken this turn, before any Morale is spent"),
            ("ignore", "Not this turn (already taken, or not used)"),
        ),
        help=(
            "Each point of net Size takes 1 from the smaller side's temporary and "
            "permanent Morale. See RN-WAR-12."
        ),
    ),
    ChoiceParam(
        "dazing",
        "A Dazed character's later defences",
        choices=(
            ("apply", "+1 difficulty once the turn's attacks have Dazed him"),
            ("ignore", "Not applied (every attack meets the full defence)"),
        ),
        help="Dazing/Stunning: +1 difficulty to all actions. See RN-WAR-13.",
        shown_when=ONLY_CHARACTER,
    ),
    ChoiceParam(
        "divide_by_3",
        "Divide pools by 3",
        choices=SHORTCUT_CHOICES,
        help=(
            "“For ease of resolution”. With a shortcut on, the full pools' figures are "
            "shown beside. See RN-WAR-9."
        ),
    ),
    ChoiceParam(
        "mega_intelligence",
        "Mega-Intelligence and the attack cap",
        choices=(("counts", "Each dot counts as 2"), ("ignored", "Not counted")),
        help="See rules note RN-WAR-1.",
    ),
    ChoiceParam(
        "morale_on_damage",
        "Spent Morale on damage",
        choices=(("attack", "Attack roll only"), ("both", "Attack and damage rolls")),
        help="See rules note RN-WAR-4.",
    ),
    LOSSES_ROUNDING,
)
"""The readings of the text: the form's options, last."""


@checked(
    IntParam(
        "enemy_size",
        "Enemy Size",
        **_ATTR,
        help="Size 1 ≈ 40 combatants, doubling per level (Size 5 ≈ battalion, 10 ≈ corps).",
    ),
    IntParam(
        "enemy_firepower",
        "Enemy Firepower",
        **_ATTR,
        help="Adds to the damage dice: Firepower + Size, lethal, ignoring soak.",
    ),
    IntParam(
        "enemy_skill",
        "Enemy Skill",
        **_ATTR,
        help="The attack pool is Skill + Size (+ Support, + Power, when spent).",
    ),
    IntParam(
        "morale",
        "Enemy Morale (temporary)",
        **_TRACK,
        help=(
            "The Morale points the enemy has now; spending needs at least 1 left after "
            "Quantity is Quality."
        ),
    ),
    IntParam(
        "morale_permanent",
        "Enemy Morale (permanent)",
        **_TRACK,
        help=(
            "The track's rating, at least the temporary Morale; a smaller enemy loses "
            "Morale from both (RN-WAR-12)."
        ),
    ),
    BoolParam(
        "spend_morale",
        "Spend 1 Morale",
        help="+1 success to all the unit's actions this round (RN-WAR-4).",
    ),
    IntParam(
        "support",
        "Enemy Support (permanent)",
        **_TRACK,
        help="Off-board firepower; 5+ is a first-world military.",
    ),
    BoolParam(
        "spend_support",
        "Spend 1 Support",
        help=(
            "Adds the permanent Support to the attack pool and 1 automatic success "
            "to damage (RN-WAR-5)."
        ),
    ),
    ChoiceParam(
        "support_kind",
        "Kind of Support",
        choices=SUPPORT_KIND_CHOICES,
        help=(
            "Special Support adds its effect when Support is spent: nuclear weapons make "
            "the damage aggravated, recon gives every attack +1 accuracy (RN-WAR-10)."
        ),
    ),
    IntParam(
        "power",
        "Enemy Power (permanent)",
        **_TRACK,
        help="Psi/Quantum forces only: sub-Aberrant horde 1, all-Doyen 10.",
    ),
    ChoiceParam(
        "power_use",
        "Spend 1 Power on",
        choices=POWER_USES,
        help=(
            "Firepower counts as Support (and can be used alongside it); Boost and "
            "Recharge help the enemy's own powers (RN-WAR-6)."
        ),
    ),
    COMMANDER,
    IntParam(
        "party_size",
        "Party's force Size",
        **_TRACK,
        help=(
            "0: the party has no force of its own (RN-WAR-7). The net Size "
            "difference drives Quantity is Quality."
        ),
    ),
    IntParam(
        "party_morale",
        "Party's force Morale (temporary)",
        **_TRACK,
        help="Party's force Size 1 or more: the Morale points it has now.",
    ),
    IntParam(
        "party_morale_permanent",
        "Party's force Morale (permanent)",
        **_TRACK,
        help=(
            "The track's rating, at least the temporary Morale; a smaller party's force "
            "loses Morale from both (RN-WAR-12)."
        ),
    ),
    IntParam(
        "awareness_dice",
        "Party's awareness roll (dice)",
        minimum=0,
        maximum=30,
        help=(
            "A roll to notice a threat this turn (e.g. Perception + Awareness); 0: none. "
            "A smaller party rolls it at +1 difficulty per point of Size (RN-WAR-11)."
        ),
    ),
    IntParam(
        "awareness_difficulty",
        "Awareness difficulty",
        minimum=1,
        maximum=10,
        help="The successes the roll needs before the Size penalty.",
    ),
    ChoiceParam(
        "target",
        "Target",
        choices=((TARGET_CHARACTER, "A character"), (TARGET_SQUAD, "A squad of henchmen")),
        help="Against squads the attacks are Area attacks, ×3.",
    ),
    DEFENDER,
    DEFENDER_CONDITIONS,
    IntParam(
        "defence_bonus",
        "Extra defence dice",
        minimum=0,
        maximum=60,
        help="E.g. a squad's henchmen, +1d each (Henchmen › Dice Pool).",
    ),
    IntParam(
        "henchmen",
        "Henchmen in the squad",
        minimum=1,
        maximum=1000,
        help="Squad target only: each point of damage × 3 removes one (RN-WAR-8).",
        shown_when=ONLY_SQUAD,
    ),
    HENCHMEN_TRAINING,
    LEADER_IS_HENCHMAN,
    *RULES_OPTIONS,
)
def warfare(
    enemy_size: int = 5,
    enemy_firepower: int = 3,
    enemy_skill: int = 3,
    morale: int = 5,
    morale_permanent: int = 10,
    spend_morale: bool = False,
    support: int = 0,
    spend_support: bool = False,
    support_kind: str = "ordinary",
    power: int = 0,
    power_use: str = "none",
    commander: Character | None = None,
    party_size: int = 0,
    party_morale: int = 5,
    party_morale_permanent: int = 10,
    awareness_dice: int = 0,
    awareness_difficulty: int = 1,
    target: str = TARGET_CHARACTER,
    defender: Character | None = None,
    conditions: Conditions | None = None,
    defence_bonus: int = 0,
    henchmen: int = 10,
    training: str = "regular",
    leader_is_henchman: bool = False,
    defence_reading: str = "opposed",
    defence_difficulty: str = "spend",
    size_penalty: str = "apply",
    size_morale: str = "apply",
    dazing: str = "apply",
    divide_by_3: str = "no",
    mega_intelligence: str = "counts",
    morale_on_damage: str = "attack",
    rounding: str = "down",
) -> WarfareReport:
    """One turn of an enemy force's attacks of opportunity, exactly
    (:mod:`ruleslab.alterations.warfare.turn`).

    ``defender`` (the target, a squad's leader), ``commander`` (the enemy's) and
    ``conditions`` (the target's at the start of the turn) are records (``None``:
    the form's defaults); their fields may also be passed flat (``wits=4``,
    ``commander_command=5``, ``daze="dazed"``).
    """
    assert defender is not None  # (filled in by @checked)
    assert commander is not None
    assert conditions is not None
    return _warfare_turn(
        defender=defender,
        commander=commander,
        conditions=conditions,
        enemy_size=enemy_size,
        enemy_firepower=enemy_firepower,
        enemy_skill=enemy_skill,
        morale=morale,
        morale_permanent=morale_permanent,
        spend_morale=spend_morale,
        support=support,
        spend_support=spend_support,
        support_kind=support_kind,
        power=power,
        power_use=power_use,
        party_size=party_size,
        party_morale=party_morale,
        party_morale_permanent=party_morale_permanent,
        awareness_dice=awareness_dice,
        awareness_difficulty=awareness_difficulty,
        target=target,
        defence_bonus=defence_bonus,
        henchmen=henchmen,
        training=training,
        leader_is_henchman=leader_is_henchman,
        defence_reading=defence_reading,
        defence_difficulty=defence_difficulty,
        size_penalty=size_penalty,
        size_morale=size_morale,
        dazing=dazing,
        divide_by_3=divide_by_3,
        mega_intelligence=mega_intelligence,
        morale_on_damage=morale_on_damage,
        rounding=rounding,
    )


CALCULATOR = Calculator(
    key="warfare",
    title="Warfare",
    summary=(
        "The war around the party: an enemy force's attacks of opportunity in one turn "
        "(Size, capped by its commander's Intelligence + Command), exact odds of a hit and "
        "the total damage to a character, or henchmen removed from a squad (Area ×3); "
        "Support (tactical nukes: aggravated; recon: +1 accuracy), Power and Morale "
        "spending; Quantity is Quality on defence, awareness and both Morale tracks; the "
        "÷ 3 shortcut shown beside the full pools."
    ),
    compute=warfare,
    headlines=(
        Headline(
            ("expected_losses", "p_wiped", "p_hit"),
            when=lambda v: v["target"] == "squad",
            question="How many of the squad fall to the force's attacks",
        ),
        Headline(
            ("p_hit", "expected_damage", "p_stunned"),
            question="Does the force hit him, and the health levels he loses",
        ),
    ),
    rules=(
        rule(
            ALT,
            "Mass Combat",
            "Warfare (Force Attributes, Attacks of Opportunity, Power Overwhelming, "
            "Quantity is Quality)",
        ),
        rule(ALT, "Mass Combat", "Henchmen"),
    ),
    options=tuple(p.name for p in RULES_OPTIONS),
    groups=(
        FieldGroup(
            "The enemy force",
            (
                "enemy_size",
                "enemy_firepower",
                "enemy_skill",
                "morale",
                "morale_permanent",
                "spend_morale",
                "support",
                "spend_support",
                "support_kind",
                "power",
                "power_use",
            ),
        ),
        FieldGroup(COMMANDER.title, COMMANDER.flat_names),
        FieldGroup(
            "The party's force",
            (
                "party_size",
                "party_morale",
                "party_morale_permanent",
                "awareness_dice",
                "awareness_difficulty",
            ),
        ),
        FieldGroup(
            DEFENDER.title,
            (
                "target",
                *DEFENDER.flat_names,
                "defence_bonus",
                "henchmen",
                "training",
                "leader_is_henchman",
            ),
        ),
        FieldGroup(DEFENDER_CONDITIONS.title, DEFENDER_CONDITIONS.flat_names),
    ),
    rolls=(
        Roll(
            "Roll it",
            roll_turn,
            help=(
                "Rolls one turn of attacks of opportunity with the current inputs; the "
                "same seed replays the same turn."
            ),
        ),
    ),
    views=(
        ChartView(
            title="Total damage this turn",
            x_label="Health levels (character) or henchmen removed (squad)",
            chart=WarfareReport.chart,
        ),
    ),
    example=(
        "from ruleslab.calculators.warfare import roll_turn, warfare\n"
        "from ruleslab.character import Character, Conditions\n"
        "r = warfare(enemy_size=7, enemy_skill=4, support=3, spend_support=True,\n"
        "            target='squad', henchmen=12, training='trained')\n"
        "print(r.attacks, float(r.p_hit), float(r.expected_losses))\n"
        "print('\\n'.join(roll_turn(r, 1)))\n"
        "hero = Character(wits=4, tactics=3, stamina=3)\n"
        "for daze in ('none', 'dazed'):  # already Dazed: +1 on every defence\n"
        "    r = warfare(enemy_size=6, party_size=6, defender=hero,\n"
        "                conditions=Conditions(daze=daze))\n"
        "    print(daze, float(r.p_hit), float(r.expected_damage))"
    ),
)
