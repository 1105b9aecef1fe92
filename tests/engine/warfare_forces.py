"""The hand-worked forces the Warfare tests start from (imported by name, as ``dice_oracle``)."""

#: The smallest force: Skill 1 + Size 1 = 2 dice vs Wits 1 + Tactics 0 = 1 die; Firepower
#: 1 + Size 1 = 2 damage dice; Intelligence 1 + Command 0 → 1 attack; party Size 1.
ONE_ATTACK = {
    "enemy_size": 1,
    "enemy_firepower": 1,
    "enemy_skill": 1,
    "commander_intelligence": 1,
    "commander_command": 0,
    "party_size": 1,
    "wits": 1,
    "tactics": 0,
}
