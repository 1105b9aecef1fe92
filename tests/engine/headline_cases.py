"""Input sets that ask each calculator a different question, and the headline each asks
for (written by hand from the calculator's inputs): used by ``test_headlines.py`` and the
browser test of the key bar (``tests/browser/test_keybar.py``).

``CASES[key]``: ``(link, figures)`` pairs; ``link`` is a link's query after
``calculator=<key>`` (fields as the site's links write them), ``figures`` the figure
keys the key bar shows, in order.
"""

from __future__ import annotations

CASES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "dice_pool": (
        ("dice=6&difficulty=1", ("p_success", "p_botch", "mean")),
        ("dice=3&difficulty=4&reroll_tens=yes", ("p_success", "p_botch", "mean")),
    ),
    "lifting": (
        ("strength=4&might=1&object_kg=300", ("roll_needed", "p_lift", "capacity")),
        ("strength=4&might=1&object_kg=0&load_kg=60", ("capacity", "tier", "effects")),
    ),
    "movement": (
        ("load_kg=20", ("walking", "running", "sprinting", "tier")),
        ("load_kg=0&dexterity=4", ("walking", "running", "sprinting")),
    ),
    "jumping": (
        ("distance_m=6", ("p_clear", "successes_needed", "mean_distance")),
        ("distance_m=0&direction=vertical", ("mean_distance", "pool")),
    ),
    "falling": (
        ("height_m=25", ("p_lethal", "damage_dice", "threshold")),
        ("height_m=0", ("safe_distance", "threshold")),
    ),
    "health": (
        ("lethal=4&bashing=2", ("state", "wound_penalty", "total_levels")),
        ("stamina=4", ("total_levels", "soak", "state")),
    ),
    "damage": (
        ("dice=8", ("mean", "p_any", "p_dazed")),
        ("dice=8&taken_this_turn=3", ("p_stunned", "p_dazed", "mean")),
    ),
    "autofire": (
        ("burst=short", ("p_hit", "expected_levels", "p_wound")),
        ("target_kind=squad&squad_henchmen=6", ("p_hit", "squad_removed", "squad_p_cleared")),
        ("targets=3&burst=long", ("p_any_hit", "p_hit", "expected_levels")),
    ),
    "healing": (
        ("lethal=2&bashing=3", ("total_time", "per_level")),
        ("lethal=2&supplies=clinic", ("total_time", "treatment", "per_level")),
    ),
    "defence": (
        ("actions=3", ("p_all_actions", "action_chances", "defense")),
        ("actions=1", ("p_first", "defense", "initiative")),
        ("actions=1&active_defence=yes", ("active_defence", "defense", "p_first")),
        ("power_pool=6", ("power_block", "power_block_roll", "defense")),
        ("ruleset=2.0&actions=3", ("p_first", "dodge", "parry")),
    ),
    "compressed": (
        ("a_position=0", ("winner", "p_a_down", "p_b_down")),
        ("b_cover=2&b_position=2", ("winner", "p_a_down", "p_b_down")),
    ),
    "henchmen": (
        ("heavy_weapons=2", ("dice", "damage", "support_p_hit", "support_expected_levels")),
        ("heavy_weapons=0", ("dice", "damage", "mean_removed")),
    ),
    "warfare": (
        ("target=character", ("p_hit", "expected_damage", "p_stunned")),
        ("target=squad&henchmen=10", ("expected_losses", "p_wiped", "p_hit")),
        ("dazing=ignore", ("p_hit", "expected_damage")),
    ),
    "chimera": (
        ("surprise=none", ("p_a_wins", "p_b_wins", "expected_rounds")),
        ("surprise=A", ("p_surprise", "p_a_wins", "p_b_wins")),
    ),
}
