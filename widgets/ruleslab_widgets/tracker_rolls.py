"""The tracker page's Aberrant attacks and healing: what the GM typed, checked, and the
engine's step for it.

An attack of the acting combatant is hit or missed as the table's dice said, or rolled by
the site, seeded ("Roll it": :func:`ruleslab.encounter.attack_roll.rolled_attack`); the
damage of a hit is typed (levels after soak) or rolled by the site against the target's
soak, its odds shown before the roll ("Roll damage":
:func:`ruleslab.encounter.damage_roll.rolled_damage`, the hit's extra successes filled in
after "Roll it");
what each attack fires is counted down from the attacker's rounds, its burst's bonus put
to Accuracy or Damage (:func:`fired`, :mod:`ruleslab.encounter.ammunition`, RN-TRACK-17),
and "Load" sets a combatant's rounds;
healing takes levels off a track (:func:`ruleslab.encounter.recovery.heal`). Every rule
is the engine's; this module checks each field (its message names it and the values it
takes) and hands the step to the page, which records, saves and says it.
:class:`AberrantRolls` is the part of :class:`~ruleslab_widgets.tracker_page.TrackerPage`
that plays them.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ruleslab import InputError
from ruleslab.encounter import aberrant as ab
from ruleslab.encounter.ammunition import BURST_USES, BURSTS
from ruleslab.encounter.attack_roll import roll_attack, rolled_attack
from ruleslab.encounter.combatant import Damage
from ruleslab.encounter.damage_roll import (
    ATTACK_KINDS,
    MAX_EXTRA,
    Weapon,
    damage_odds,
    damage_setup,
    rolled_damage,
    weapon_of,
)
from ruleslab.encounter.state import Encounter
from ruleslab.encounter.strafing import roll_strafe, strafe, strafe_needs
from ruleslab.explain import fmt_num, fmt_prob
from ruleslab_widgets.tracker_chimera import Page

__all__ = ["DAMAGE_FORM", "FIRES", "AberrantRolls", "fired", "typed_number", "typed_rounds"]

DAMAGE_FORM = {
    "dice": "4",
    "adds": "0",
    "damage_type": "lethal",
    "tags": "",
    "extra": "0",
    "armour": "0",
    "natural": "",
    "burst": "",
    "area": "1",
}
"""The damage form's fields and first values (``natural`` empty: the target's record;
``burst``: the burst the hit was fired for its Damage, filled in by the attack; ``area``:
the area multiplier on a squad)."""
FIRES = {
    "none": "No ammunition (a blow, a power)",
    "1": "One round (a single shot)",
    **{b.key: f"{b.name[:-1]} ({b.shots} shots)" for b in BURSTS.values()},
    "rounds": "Rounds I type",
}
"""What an attack may fire, as the attack form's "Fires" offers it (RN-TRACK-17)."""
_NUMBER = re.compile(r"\s*(\d{1,6})\s*")


def typed_number(text: Any, field: str, lo: int, hi: int) -> int:
    """A whole number typed in ``field`` (``lo`` to ``hi``), or a message naming it."""
    m = _NUMBER.fullmatch(str(text)) if isinstance(text, str | int) else None
    value = int(m.group(1)) if m else -1
    if not lo <= value <= hi:
        raise InputError(field, f"{field}: a whole number from {lo} to {hi}.")
    return value


def typed_rounds(text: Any, field: str) -> int | None:
    """The rounds in a weapon as typed in ``field``: empty, not counted; else 0 to 100000."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    try:
        return typed_number(text, field, 0, 100_000)
    except InputError:
        raise InputError(field, f"{field}: empty (not counted) or 0 to 100000.") from None


def fired(c: dict[str, Any]) -> tuple[str, str, int]:
    """What the attack form says the attack fires: the burst (empty: none), its bonus's
    use ("accuracy" or "damage"), and the rounds fired when no burst."""
    fires = c.get("fires", "1")
    if fires == "none":
        return "", "accuracy", 0
    if fires == "1":
        return "", "accuracy", 1
    if fires == "rounds":
        return "", "accuracy", typed_number(c.get("rounds"), "Rounds fired", 1, 1000)
    if isinstance(fires, str) and fires in BURSTS:
        use = c.get("burst_use")
        if use not in BURST_USES:
            raise InputError("Burst's bonus", f"Burst's bonus: one of {', '.join(BURST_USES)}.")
        return fires, str(use), 0
    raise InputError("Fires", f"Fires: one of {', '.join(FIRES.values())}.")


class AberrantRolls:
    """The attack and healing steps of ``page`` (the tracker page, :class:`Page`)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.form = dict(DAMAGE_FORM)
        """The damage form as last typed (the odds are drawn from it)."""
        self.stamp = 0
        """Raised when Python fills the form (a rolled hit's extra successes)."""

    def _acting(self) -> tuple[Encounter, ab.Combatant]:
        fight = self.page._fight()
        enc = fight.history.present if fight.history else None
        who = ab.current(enc) if enc is not None else None
        if enc is None or who is None:
            raise InputError("attacker", "Roll initiative first.")
        return enc, who

    def keep_form(self, c: dict[str, Any]) -> None:
        """The damage form as the page has it now (each value text, kept as typed)."""
        for key in DAMAGE_FORM:
            value = c.get(key)
            if isinstance(value, str) and len(value) <= 80:
                self.form[key] = value

    def _damage(self) -> tuple[Weapon, dict[str, Any]]:
        """The weapon, the soak and the burst typed, each checked (the message names the
        field)."""
        f = self.form
        kind = f["damage_type"] if f["damage_type"] in ATTACK_KINDS else ""
        if not kind:
            raise InputError("Damage type", f"Damage type: one of {', '.join(ATTACK_KINDS)}.")
        weapon = weapon_of(
            damage_dice=typed_number(f["dice"], "Damage dice", 0, 60),
            damage_adds=typed_number(f["adds"], "Damage adds", 0, 60),
            damage_type=kind,
            tags=f["tags"],
        )
        natural = f["natural"].strip()
        kw: dict[str, Any] = {
            "extra": typed_number(f["extra"], "Extra successes", 0, MAX_EXTRA),
            "armour_soak": typed_number(f["armour"], "Armour soak", 0, 200),
            "natural_soak": typed_number(natural, "Natural soak", 0, 200) if natural else None,
            "burst": f["burst"] if f["burst"] in BURSTS else "",
        }
        if f["burst"] and not kw["burst"]:
            raise InputError("Burst's Damage", f"Burst's Damage: one of {', '.join(BURSTS)}.")
        return weapon, kw

    def roll_damage(self, c: dict[str, Any]) -> None:
        """The damage of the acting one's hit on ``c["target"]`` rolled by the site, seeded,
        against the target's soak (:func:`ruleslab.encounter.damage_roll.rolled_damage`)."""
        self.keep_form(c)
        who = self._acting()[1]
        weapon, kw = self._damage()
        area = typed_number(self.form["area"], "Area multiplier", 1, 4)
        seed = random.getrandbits(32)
        self.page.step(
            rolled_damage, who.key, str(c.get("target")), weapon, seed=seed, area=area, **kw
        )

    def board(self, enc: Encounter, who: ab.Combatant) -> dict[str, Any]:
        """What the page draws of the damage form: the values, and for each target the
        odds of the damage before the roll (each number of levels, the mean, Dazed and
        Stunned), or the message of the field to mend."""
        odds: dict[str, dict[str, Any]] = {}
        for t in enc.combatants:
            if t.key == who.key:
                continue
            try:
                weapon, kw = self._damage()
                setup = damage_setup(enc, who.key, t.key, weapon, **kw)
                taken, daze = damage_odds(setup, enc, t.key)
            except InputError as exc:
                odds[t.key] = {"ok": False, "text": exc.message, "steps": []}
                continue
            levels = " · ".join(f"{k}: {fmt_prob(p)}" for k, p in enumerate(taken.levels[:13]) if p)
            more = " …" if len(taken.levels) > 13 else ""
            odds[t.key] = {
                "ok": True,
                "text": f"{setup.dice} dice [{setup.adds}] against soak {taken.soak}: mean "
                f"{fmt_num(taken.mean)} {taken.kind_text().lower()} levels; Dazed "
                f"{fmt_prob(daze.p_dazed)}, Stunned {fmt_prob(daze.p_stunned)}",
                "levels": f"Levels: {levels}{more}",
                "steps": [str(s) for s in (*setup.steps, *taken.steps, *daze.steps)],
            }
        return {"stamp": self.stamp, "form": dict(self.form), "odds": odds}

    def attack(self, c: dict[str, Any], *, rolled: bool = False) -> None:
        """The acting one's attack on ``c["target"]``: hit or missed as the table's dice
        said, or (``rolled``) rolled by the site, seeded, from the pool and base difficulty
        typed (:func:`ruleslab.encounter.attack_roll.rolled_attack`); the levels typed
        (after soak) land on a hit."""
        enc, who = self._acting()
        burst, use, rounds = fired(c)
        area = typed_number(self.form["area"], "Area multiplier", 1, 4)
        damage = Damage(
            bashing=typed_number(c.get("bashing"), "Bashing levels", 0, 200),
            lethal=typed_number(c.get("lethal"), "Lethal levels", 0, 200),
            aggravated=typed_number(c.get("aggravated"), "Aggravated levels", 0, 200),
            stun=typed_number(c.get("stun", "0"), "Stun levels", 0, 200),
        )
        if rolled:
            target, seed = str(c.get("target")), random.getrandbits(32)
            pool = typed_number(c.get("pool"), "Attack pool", 0, 60)
            base = typed_number(c.get("difficulty"), "Base difficulty", 1, 20)
            fire = {"burst": burst, "burst_use": use, "rounds": rounds, "area": area}
            roll = roll_attack(
                enc,
                who.key,
                target,
                pool=pool,
                difficulty=base,
                seed=seed,
                burst=burst,
                burst_use=use,
            )
            self.page.step(
                rolled_attack,
                who.key,
                target,
                pool=pool,
                difficulty=base,
                seed=seed,
                damage=damage,
                **fire,
            )
            if roll.hit:  # (the damage form takes the hit's extra successes and burst)
                self.form["extra"] = str(roll.extra)
                self._hit_by(burst, use)
            return
        hit = c.get("hit") is True
        self.page.step(
            ab.resolve_attack,
            who.key,
            str(c.get("target")),
            hit=hit,
            damage=damage if hit else Damage(),
            area=area,
            burst=burst,
            burst_use=use,
            rounds=rounds,
        )
        if hit:
            self._hit_by(burst, use)

    def strafe(self, c: dict[str, Any], *, rolled: bool = False) -> None:
        """The acting one's strafe at ``c["target"]`` and the others ticked (``c["also"]``):
        one roll, its successes typed from the table's dice or rolled by the site, held
        against each target's difficulty (:func:`ruleslab.encounter.strafing.strafe`); the
        damage form takes the first hit's extra successes."""
        enc, who = self._acting()
        burst, use, rounds = fired(c)
        also = c.get("also")
        if (
            not isinstance(also, list)
            or len(also) > 60
            or not all(isinstance(k, str) for k in also)
        ):
            raise InputError("Strafe also at", "Strafe also at: tick the other targets.")
        targets = (str(c.get("target")), *also)
        base = typed_number(c.get("difficulty"), "Base difficulty", 1, 20)
        kw: dict[str, Any] = {"burst": burst, "burst_use": use, "rounds": rounds}
        if rolled:
            pool, seed = typed_number(c.get("pool"), "Attack pool", 0, 60), random.getrandbits(32)
            roll = roll_strafe(
                enc, who.key, targets, pool=pool, seed=seed, burst=burst, burst_use=use
            )
            successes = 0 if roll.botch else roll.successes
            kw.update(pool=pool, seed=seed)
        else:
            successes = typed_number(c.get("successes"), "Successes", 0, 60)
            kw.update(successes=successes)
        needs = strafe_needs(enc, who.key, targets, base)
        self.page.step(strafe, who.key, targets, difficulty=base, **kw)
        hits = [successes - need for need in needs.values() if successes >= need]
        if hits:
            self.form["extra"] = str(hits[0])
            self._hit_by(burst, use)

    def _hit_by(self, burst: str, use: str) -> None:
        """The damage form takes the burst of the hit just made when it was fired for its
        Damage ("+[1] Damage"), and no burst otherwise."""
        self.form["burst"] = burst if use == "damage" else ""
        self.stamp += 1

    def load(self, c: dict[str, Any]) -> None:
        """``c["key"]``'s weapon loaded with the rounds typed (empty: not counted):
        :func:`ruleslab.encounter.ammunition.reload`."""
        self.page.step(ab.reload, str(c.get("key")), typed_rounds(c.get("rounds"), "Rounds"))

    def heal(self, c: dict[str, Any]) -> None:
        """Levels healed now (a power, the GM's ruling), each kind checked:
        :func:`ruleslab.encounter.recovery.heal` takes them off his track."""
        damage = Damage(
            **{
                kind: typed_number(c.get(kind), f"{kind.capitalize()} healed", 0, 200)
                for kind in ("bashing", "lethal", "aggravated", "stun")
            }
        )
        if not damage.total:
            raise InputError("Bashing healed", "Heal: enter the levels healed (1 or more).")
        self.page.step(ab.heal, str(c.get("key")), damage)
