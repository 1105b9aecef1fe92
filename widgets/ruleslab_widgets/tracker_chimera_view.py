"""What the tracker page shows of a Chimera fight: its script (adding fighters, each
round's actions and d12s, the acting fighter's attack with its odds, the morale checks
due, the fates to choose, the end of the round and of the fight, the checks after it)
and its styles. :data:`CHIMERA_JS` defines ``chimeraParts(b, ui)``, called by the
tracker's script (:mod:`ruleslab_widgets.tracker_view`) with the board Python sent
(:meth:`ruleslab_widgets.tracker_chimera.ChimeraDesk.section`) and its helpers. Every
text is set with ``textContent``; every rule is Python's.
"""

from __future__ import annotations

__all__ = ["CHIMERA_CSS", "CHIMERA_JS"]

CHIMERA_JS = r"""
const cf = { name: "", side: "foes", mr: "10", defence: "1", wound_limit: "3", attack: "2",
             damage: "d6", weapon: "fight", morale_tn: "10", resist: "0", character: "npc",
             leader: false, party_side: "party", target: "", blast_tn: "12" };
const FIGHTER_FIELDS = ["name", "side", "mr", "defence", "wound_limit", "attack", "damage",
                        "weapon", "blast_tn", "morale_tn", "resist", "character", "leader"];
function blastPart(a, ui, b) {
  // a blast: everyone ticked in its area resists it; the site rolls it or the GM types
  // the damage each took (0 if he avoided it)
  const { node, btn, field, send } = ui;
  const turn = a.key + "|" + b.when;
  if (cf.blastTurn !== turn) {
    cf.blastTurn = turn;
    for (const t of a.targets) { cf[`area:${t.key}`] = t.foe; cf[`hurt:${t.key}`] = ""; }
  }
  const area = () => a.targets.filter((t) => cf[`area:${t.key}`]).map((t) => t.key);
  const lines = a.targets.map((t) => node("div", { class: "rl-ch-line rl-ch-area" }, [
    node("label", { class: "rl-tr-check" }, [
      node("input", { type: "checkbox", checked: Boolean(cf[`area:${t.key}`]),
        "aria-label": `In the area: ${t.name}`,
        onchange: (e) => { cf[`area:${t.key}`] = e.target.checked; } }),
      node("span", { text: `In the area: ${t.name}` })]),
    field(`Damage to ${t.name}`, `hurt:${t.key}`, { inputmode: "numeric",
      class: "rl-tr-input rl-ch-num", placeholder: "0 = none" }, cf),
    node("p", { class: "rl-tr-note", text: "Before the roll: " + t.text }),
  ]));
  return node("fieldset", { class: "rl-tr-attack rl-ch-blast" }, [
    node("legend", { text: `${a.name} blasts (${a.damage}, Blast TN ${a.blast_tn})` }),
    ...lines,
    node("div", { class: "rl-tr-controls" }, [
      btn("Blast: damage as typed", () => send({ type: "blast", area: area(),
        taken: Object.fromEntries(a.targets.map((t) => [t.key, cf[`hurt:${t.key}`]])) })),
      btn("Roll the blast for me", () => send({ type: "blast", area: area(),
                                                result: "roll" }))]),
  ]);
}
function chimeraParts(b, ui) {
  const { node, btn, field, select, send } = ui;
  const c = b.chimera, parts = [];
  const pick = (label, options, key) => node("label", { class: "rl-tr-field" }, [
    node("span", { text: label }),
    select(label, options, cf[key], (e) => { cf[key] = e.target.value; })]);
  const tick = (label, key, into = cf) => node("label", { class: "rl-tr-check" }, [
    node("input", { type: "checkbox", checked: Boolean(into[key]), "aria-label": label,
                    onchange: (e) => { into[key] = e.target.checked; } }),
    node("span", { text: label })]);
  const num = (label, key, extra = {}) => field(label, key, { inputmode: "numeric",
    class: "rl-tr-input rl-ch-num", ...extra }, cf);
  const fighting = c.combatants.filter((p) => p.in_fight);
  // a fighter added: his name cleared for the next (his numbers kept, foes are alike)
  if (cf.rows !== undefined && b.rows.length > cf.rows) cf.name = "";
  cf.rows = b.rows.length;
  // the morale checks the fight called
  for (const m of c.morale) {
    const k = `morale:${m.key}:${m.why}`;
    parts.push(node("fieldset", { class: "rl-tr-attack rl-ch-due" }, [
      node("legend", { text: `${m.name} must check morale` }),
      node("p", { class: "rl-tr-setup", text: `Because ${m.why}. Roll: ${m.text}.` }),
      num(`Morale ${c.die}: ${m.name}`, k, { placeholder: "as rolled" }),
      node("div", { class: "rl-tr-controls" }, [
        btn("Check with this roll", () => send({ type: "morale", key: m.key, natural: cf[k] })),
        btn("Roll it for me", () => send({ type: "morale", key: m.key, natural: "roll" }))]),
    ]));
  }
  // the fates the victors choose
  for (const v of c.vanquished) {
    const k = `fate:${v.key}`, r = `resist:${v.key}`;
    if (!(k in cf)) cf[k] = "capture";
    const fate = (natural) => send({ type: "fate", key: v.key, fate: cf[k], natural });
    parts.push(node("fieldset", { class: "rl-tr-attack rl-ch-due" }, [
      node("legend", { text: `${v.by} chooses ${v.name}'s fate` }),
      pick(`Fate of ${v.name}`, c.fates, k),
      v.classed ? num(`Killer Blow resisted: ${v.name} (${c.die})`, r,
                      { placeholder: "as rolled" }) : null,
      v.classed ? node("p", { class: "rl-tr-note", text: `${v.name} is classed: he Resists ` +
        "a Killer Blow against TN 12 (type his die, or let the site roll it)." }) : null,
      node("div", { class: "rl-tr-controls" }, [
        btn("Choose this fate", () => fate(cf[r] || "")),
        v.classed ? btn("Choose, his die rolled for me", () => fate("roll")) : null]),
    ]));
  }
  // a coup de grâce, a free action of the acting fighter's
  for (const u of (c.acting && c.acting.in_fight ? c.unconscious : [])) {
    const r = `coup:${u.key}`;
    parts.push(node("fieldset", { class: "rl-tr-attack" }, [
      node("legend", { text: `${u.name} is unconscious` }),
      u.classed ? num(`Coup de grâce resisted: ${u.name} (${c.die})`, r,
                      { placeholder: "as rolled" }) : null,
      node("div", { class: "rl-tr-controls" }, [
        btn(`Coup de grâce by ${c.acting.name}`, () => send({ type: "coup", key: u.key,
                                                           natural: cf[r] || "" })),
        u.classed ? btn("His die rolled for me", () => send({ type: "coup", key: u.key,
                                                            natural: "roll" })) : null]),
    ]));
  }
  // the acting fighter's full action
  const a = c.acting;
  if (a && a.blast && a.can_act && a.targets.length) parts.push(blastPart(a, ui, b));
  else if (a) {
    const targets = a.targets.map((t) => [t.key, t.name]);
    if (!targets.some(([k]) => k === cf.target) && targets.length) cf.target = targets[0][0];
    const t = a.targets.find((x) => x.key === cf.target);
    if (cf.turn !== a.key + "|" + b.when) Object.assign(cf, { turn: a.key + "|" + b.when,
                                                               damage_roll: "" });
    const attack = (result) => send({ type: "attack", target: cf.target, result,
                                      damage: cf.damage_roll || "" });
    parts.push(node("fieldset", { class: "rl-tr-attack" }, a.can_act && targets.length ? [
      node("legend", { text: `${a.name} ${a.verb === "Fight" ? "fights" : "shoots"}` }),
      node("label", { class: "rl-tr-field" }, [node("span", { text: "Target" }),
        select("Target", targets, cf.target, (e) => { cf.target = e.target.value; ui.draw(); })]),
      t ? node("p", { class: "rl-tr-setup", role: "status", text: "Before the roll: " + t.text })
        : null,
      t && t.steps.length ? node("details", { class: "rl-ch-steps" }, [
        node("summary", { text: "How the odds are worked" }),
        node("ol", {}, t.steps.map((s) => node("li", { text: s })))]) : null,
      num(`Damage roll (${a.damage}; 2 dice on a Critical Success)`, "damage_roll",
          { placeholder: "total" }),
      node("div", { class: "rl-tr-controls" }, [
        btn("Hit", () => attack("hit")), btn("Miss", () => attack("miss")),
        t && t.can_roll ? btn("Roll the attack for me", () => attack("roll")) : null]),
    ] : [node("legend", { text: `${a.name}'s turn` }),
         node("p", { class: "rl-tr-note", text: a.acted ? "His one full action is taken: " +
           "next turn." : `${a.status}: he does not act. Next turn.` })]));
  }
  // each round: the actions chosen (their IM) and the d12s
  if (c.phase === "initiative" && fighting.length) {
    const rnd = c.round + 1;
    const im = (p) => `im:${rnd}:${p.key}`, d12 = (p) => `d12:${rnd}:${p.key}`;
    const tie = (p) => `tie:${rnd}:${p.key}`;
    for (const p of fighting) if (!(im(p) in cf)) cf[im(p)] = String(p.im);
    const each = (f) => Object.fromEntries(fighting.map((p) => [p.key, cf[f(p)] ?? ""]));
    parts.push(node("fieldset", { class: "rl-tr-attack rl-ch-round" }, [
      node("legend", { text: `Round ${rnd}: each one's action and his d12` }),
      node("p", { class: "rl-tr-note", text: "Initiative = 1d12 + the chosen action's IM " +
        "− his Wound Penalty; the highest acts first." }),
      ...fighting.map((p) => node("div", { class: "rl-ch-line" }, [
        node("span", { class: "rl-ch-who", text: p.name }),
        num(`IM: ${p.name}`, im(p)), num(`d12: ${p.name}`, d12(p)),
        c.tie_due ? field(`d12 again if tied: ${p.name}`, tie(p), { inputmode: "numeric" }, cf)
          : null])),
      node("div", { class: "rl-tr-controls" }, [
        btn("Start the round with these d12s", () => send({ type: "start_round",
          ims: each(im), faces: each(d12), ties: each(tie) })),
        btn("Roll the d12s for me", () => send({ type: "start_round", ims: each(im),
                                                 faces: "roll" }))]),
    ]));
  }
  // a surprise, before round 1
  if (c.phase === "initiative" && c.round === 0 && fighting.length > 1) {
    if (!fighting.some((p) => p.key === cf.sneak)) cf.sneak = fighting[0].key;
    for (const [k, v] of [["sneak_bonus", "0"], ["surprise_tn", "10"], ["benefit", "action"]]) {
      if (!(k in cf)) cf[k] = v;
    }
    const sneak = (natural) => send({ type: "surprise", key: cf.sneak, bonus: cf.sneak_bonus,
      tn: cf.surprise_tn, benefit: cf.benefit, natural });
    parts.push(node("details", { class: "rl-tr-add" }, [
      node("summary", { text: "A surprise before round 1 (a Sneak roll)" }),
      node("div", { class: "rl-tr-bar" }, [
        pick("Who sneaks", fighting.map((p) => [p.key, p.name]), "sneak"),
        num("Sneak bonus", "sneak_bonus"), num("Surprise TN", "surprise_tn"),
        pick("If it succeeds", c.benefits, "benefit"),
        num(`Sneak roll (${c.die})`, "sneak_roll", { placeholder: "as rolled" }),
        btn("Sneak with this roll", () => sneak(cf.sneak_roll || "")),
        btn("Roll it for me", () => sneak("roll"))]),
    ]));
  }
  // the end of the round, of the fight
  if (c.phase === "turn" || (c.phase === "initiative" && c.round > 0)) {
    parts.push(node("details", { class: "rl-tr-add" }, [
      node("summary", { text: "End the round or the fight" }),
      c.phase === "turn" ? node("div", { class: "rl-tr-controls" }, [
        btn("End the round (all roll again)", () => send({ type: "end_round" }))]) : null,
      node("fieldset", { class: "rl-tr-attack" }, [
        node("legend", { text: "The fight is over: who spends the 10-minute cool-down?" }),
        ...fighting.map((p) => { const k = `cool:${p.key}`;
          if (!(k in cf)) cf[k] = p.spends_cool_down;
          return tick(`${p.name} spends the cool-down`, k); }),
        node("p", { class: "rl-tr-note", text: "Whoever skips it rolls against Fatigue; " +
          "whoever shot makes an Ammo Check." }),
        btn("End the fight", () => send({ type: "end_fight", cool_down:
          Object.fromEntries(fighting.map((p) => [p.key, Boolean(cf[`cool:${p.key}`])])) })),
      ])]));
  }
  if (c.phase === "over") {
    parts.push(node("section", { class: "rl-tr-attack rl-ch-after", "aria-label":
      "After the fight" }, [node("h4", { text: "After the fight: the checks" }),
      c.after.length ? node("ul", {}, c.after.map((t) => node("li", { text: t })))
        : node("p", { class: "rl-tr-note", text: "No one left standing has a check." })]));
  }
  // adding fighters
  if (c.phase !== "over") {
    const pf = c.fighters.length ? c.fighters[0].id : "";
    if (!c.fighters.some((f) => f.id === cf.party)) cf.party = pf;
    parts.push(node("details", { class: "rl-tr-add", open: c.phase === "setup" ||
                                 (c.phase === "initiative" && c.round === 0) }, [
      node("summary", { text: "Add fighters, mark the leaders" }),
      node("div", { class: "rl-tr-bar" }, c.fighters.length ? [
        pick("From the party", c.fighters.map((f) => [f.id, f.name]), "party"),
        pick("Their side", c.sides, "party_side"),
        btn("Add from the party", () => send({ type: "add_party", id: cf.party,
                                               side: cf.party_side }))]
        : [node("span", { class: "rl-tr-note",
                          text: "No saved Chimera fighter in the party yet." })]),
      node("div", { class: "rl-tr-bar" }, [
        field("Fighter's name", "name", { maxlength: 60 }, cf), pick("Side", c.sides, "side"),
        num("MR", "mr", { title: "Movement Rate: the Target Number to hit him" }),
        num("Defence", "defence"), num("Wound Limit", "wound_limit"),
        num("Attack bonus", "attack", { title: "His Fight or Shoot bonus" }),
        field("Weapon damage", "damage", { placeholder: "d8, 2d6, d6+1" }, cf),
        pick("Attack", c.kinds, "weapon"),
        num("Blast TN", "blast_tn", { title: "Of his blasts: the TN of the Resistance Roll " +
                                             "against them (RN-CHIM-7)" }),
        num("Morale TN", "morale_tn"), num("Resistance bonus", "resist"),
        pick("Character", c.characters, "character"),
        tick("Leads his side", "leader"),
        btn("Add fighter", () => send({ type: "add_fighter", ...Object.fromEntries(
          FIGHTER_FIELDS.map((k) => [k, cf[k]])) }))]),
      c.combatants.length ? node("div", { class: "rl-tr-bar rl-ch-leaders", role: "group",
        "aria-label": "Leaders (a leader's fall calls his side's morale checks)" },
        c.combatants.map((p) => btn(`Leader: ${p.name}`, () =>
          send({ type: "leader", key: p.key }), { class: "rl-tr-btn rl-ch-leader",
          "aria-pressed": String(p.leader) }))) : null,
    ]));
  }
  return parts;
}
"""

CHIMERA_CSS = """
.rl-tracker .rl-ch-leaders .rl-tr-btn[aria-pressed=true] { background: var(--rl-link, #0b57d0);
  color: var(--rl-hatch, #fff); border-color: transparent; }
.rl-tracker .rl-tr-field input.rl-ch-num { width: 7em; }
.rl-tracker .rl-ch-leader { font-weight: 400; font-size: 0.85em; }
.rl-tracker .rl-ch-due, .rl-tracker .rl-ch-round { min-width: 0; }
.rl-tracker .rl-ch-due .rl-tr-field { max-width: 100%; }
.rl-tracker .rl-ch-due .rl-tr-select { width: 100%; }
.rl-tracker .rl-ch-due { border-color: var(--rl-warn-fg, #6b4200); border-width: 2px; }
.rl-tracker .rl-ch-line { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: end;
  flex: 1 1 100%; }
.rl-tracker .rl-ch-who { flex: 1 1 6em; font-weight: 700; align-self: center; }
.rl-tracker .rl-ch-area { align-items: center; }
.rl-tracker .rl-ch-area .rl-tr-note { flex: 1 1 12em; }
.rl-tracker .rl-ch-steps { flex: 1 1 100%; font-size: 0.85em; }
.rl-tracker .rl-ch-steps > summary { min-height: 44px; display: flex; align-items: center;
  cursor: pointer; }
.rl-tracker .rl-ch-after { flex-direction: column; align-items: stretch; padding: 0.6em; }
.rl-tracker .rl-ch-after h4 { margin: 0; }
.rl-tracker .rl-ch-after li { margin: 0.2em 0; overflow-wrap: anywhere; }
"""
