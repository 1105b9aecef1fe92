"""What the tracker page shows: its script (the order, whose turn, the acting combatant's
declaration and attack, adding combatants and initiative, files and links, the players'
view) and its styles. Every text is set with ``textContent``, never as HTML; every rule is
Python's (:mod:`ruleslab_widgets.tracker_page`), the page only draws the board it is sent.
"""

from __future__ import annotations

from ruleslab_widgets.module_widget import NODE_JS
from ruleslab_widgets.records import RECORD_PAGE_JS, RECORDS_JS
from ruleslab_widgets.tracker_chimera_view import CHIMERA_CSS, CHIMERA_JS

__all__ = ["CSS", "ESM"]

ESM = (
    RECORDS_JS
    + RECORD_PAGE_JS
    + NODE_JS
    + CHIMERA_JS
    + r"""
const COLLECTION = "encounters", PARTY = "party", OPEN_KEY = "ruleslab-tracker-open";
const MARK = { bashing: "/", lethal: "X", aggravated: "*", stun: "S" };
let sharedStore = null;
/* A combatant added from the party links to his sheet (the sheet page). */
function sheetLink(b, r) {
  if (!(b.sheets || []).includes(r.key)) return null;
  return node("a", { class: "rl-tr-sheet", text: "Sheet", "aria-label": `${r.name}'s sheet`,
    href: "app.html?calculator=sheet&id=" + encodeURIComponent(r.key) });
}
const PLAYERS = "ruleslab-tracker-players";
function playerRows(rows) {
  return node("ol", { class: "rl-tr-order", "aria-label": "Initiative order" }, rows.map((r) =>
    node("li", { class: "rl-tr-row" + (r.acting ? " rl-tr-acting" : "") +
                 (r.side === "foes" ? " rl-tr-foe" : ""),
                 "aria-current": r.acting ? "true" : "false" }, [
      node("div", { class: "rl-tr-head" }, [
        node("span", { class: "rl-tr-init", text: r.initiative === null ? "–" :
                       String(r.initiative) }),
        node("span", { class: "rl-tr-name", text: r.name }),
        node("span", { class: "rl-tr-side", text: r.acting ? "acting" : r.side })]),
      node("div", { class: "rl-tr-health" }, [
        node("span", { class: "rl-tr-health-text", text: r.health })]),
      r.chips.length ? node("ul", { class: "rl-tr-chips", "aria-label": "Conditions" },
        r.chips.map((c) => node("li", { class: "rl-chip", text: c }))) : null])));
}
/* The players' view (?view=players): what the GM's tracker says over a BroadcastChannel,
 * with what the GM hid left out by Python (board.board(player_view=True)). */
function renderPlayers(el) {
  const root = node("div", { class: "rl-tracker rl-tr-players" });
  el.replaceChildren(root);
  const show = (b) => root.replaceChildren(
    node("h3", { class: "rl-tr-when", text: b ? b.when : "Waiting for the GM's tracker…" }),
    b ? playerRows(b.rows) : node("p", { class: "rl-tr-note",
      text: "Open the encounter tracker in another tab or window of this browser." }));
  show(null);
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(PLAYERS);
  channel.onmessage = (e) => {
    const m = e.data;
    if (m && m.type === "board" && m.board && Array.isArray(m.board.rows)) show(m.board);
  };
  channel.postMessage({ type: "hello" });
}
function render({ model, el }) {
  if (new URLSearchParams(window.location.search).get("view") === "players") {
    renderPlayers(el);
    return;
  }
  if (!sharedStore) sharedStore = recordStore();
  const players = typeof BroadcastChannel === "function" ? new BroadcastChannel(PLAYERS) : null;
  if (players) players.onmessage = (e) => {
    if (e.data && e.data.type === "hello") {
      players.postMessage({ type: "board", board: model.get("board").players });
    }
  };
  // the screen kept awake while the fight is open, when asked (asked again when shown)
  let awake = null, wantAwake = false;
  async function keepAwake() {
    if (!wantAwake || document.visibilityState !== "visible" || awake) return;
    try {
      awake = await navigator.wakeLock.request("screen");
      awake.addEventListener("release", () => { awake = null; draw(); });
    } catch (err) { wantAwake = false; send({ type: "say",
      text: `The screen could not be kept awake (${errText(err)}).` }); }
    draw();
  }
  document.addEventListener("visibilitychange", keepAwake);
  const store = sharedStore;
  const send = (msg) => model.send(msg);
  const form = { target: "", bashing: "0", lethal: "0", aggravated: "0", stun: "0",
                 hbashing: "0", hlethal: "0", haggravated: "0", hstun: "0", apool: "6", adiff: "1",
                 foe: "", dex: "2",
                 wits: "2", sta: "2", group: "", actions: "1", defence: false, sprint: false,
                 henchmen: "5", training: "regular", pool: "0", squad: "", sdex: "2",
                 swits: "2", ssta: "2", fires: "1", burst_use: "accuracy", rounds: "1",
                 frounds: "", srounds: "", loaded: "", successes: "0" };
  const dform = { stamp: -1 };  // the damage form (Python fills it: DAMAGE_FORM)
  const typed = {};  // initiative totals typed from the table's dice, by field id
  let link = null;
  // the encounters (and the party, and the one this browser had open last) read
  const records = recordPage(store, COLLECTION, send, async () => {
    const party = await store.readAll(PARTY);
    let current = null;  // the encounter this browser had open last
    try { current = window.localStorage.getItem(OPEN_KEY); } catch (err) { current = null; }
    return { party: party.records, current };
  });
  const load = records.load;
  model.on("msg:custom", onMessages({ ...records.messages,
    download: (msg) => download(msg.text, msg.filename, "rl-tr-download"),
    link: (msg) => {
      link = new URL("app.html?calculator=tracker#encounter=" + msg.value,
                     window.location.href).href;
      draw();
    } }));
  const root = node("div", { class: "rl-tracker" });
  el.replaceChildren(root);
  const btn = buttonOf("rl-tr-btn");
  const field = (label, key, extra = {}, into = form) => {
    const input = node("input", { type: "text", value: into[key] ?? "", class: "rl-tr-input",
      "aria-label": label, oninput: (e) => { into[key] = e.target.value; }, ...extra });
    return node("label", { class: "rl-tr-field" }, [node("span", { text: label }), input]);
  };
  const check = (label, key) => node("label", { class: "rl-tr-check" }, [
    node("input", { type: "checkbox", checked: form[key], "aria-label": label,
                    onchange: (e) => { form[key] = e.target.checked; } }),
    node("span", { text: label })]);
  function select(label, options, value, onchange) {
    const s = node("select", { class: "rl-tr-select", "aria-label": label, onchange });
    for (const [v, t] of options) s.append(node("option", { value: v, text: t }));
    s.value = value;
    return s;
  }
  // a section the GM opens and closes, kept so across redraws (form[key])
  const section = (cls, key, summary, children) => node("details", {
    class: "rl-tr-add " + cls, open: !!form[key],
    ontoggle: (e) => { form[key] = e.target.open; } },
    [node("summary", { text: summary }), ...children]);
  // the Autofire calculator's link filled with this attack: what it fires and the rounds
  // left, the weapon of the damage form (its whole numbers as typed)
  function syncDamage(b) {  // (the damage form as Python last filled it)
    const d = b.damage;
    if (d && d.stamp !== dform.stamp) { Object.assign(dform, d.form); dform.stamp = d.stamp; }
  }
  function oddsQuery(b, ammo) {
    syncDamage(b);
    const q = new URLSearchParams(b.odds[form.target]);
    q.set("burst", b.bursts[form.fires] ? form.fires : "none");
    if (b.bursts[form.fires]) q.set("burst_use", form.burst_use);
    if (ammo !== null) q.set("ammunition", String(ammo));
    for (const [k, f] of [["dice", "damage_dice"], ["adds", "damage_adds"]]) {
      if (/^\d{1,2}$/.test(String(dform[k] ?? "").trim())) q.set(f, String(dform[k]).trim());
    }
    if (dform.damage_type) q.set("damage_type", dform.damage_type);
    if (dform.tags) q.set("tags", dform.tags);
    return q.toString();
  }
  function damageParts(b, parts) {
    const d = b.damage;
    syncDamage(b);
    const tell = () => send({ type: "damage_form", ...dform });
    const num = (label, key, extra = {}) => field(label, key, { inputmode: "numeric",
      onchange: tell, class: "rl-tr-input rl-tr-num", ...extra }, dform);
    const odds = d.odds[form.target];
    const name = (b.rows.find((r) => r.key === form.target) || {}).name || "";
    parts.push(node("fieldset", { class: "rl-tr-attack rl-tr-damage" }, [
      node("legend", { text: `Damage of ${b.acting.name}'s hit on ${name}` }),
      num("Damage dice", "dice", { title: "The weapon's damage dice (the 5 in “5 [2]”)" }),
      num("Damage adds", "adds", { title: "The weapon's damage adds (the [2] in “5 [2]”)" }),
      node("label", { class: "rl-tr-field" }, [node("span", { text: "Damage type" }),
        select("Damage type", [["bashing", "Bashing"], ["lethal", "Lethal"],
          ["aggravated", "Aggravated"], ["stun", "Stun"]], dform.damage_type,
          (e) => { dform.damage_type = e.target.value; tell(); })]),
      field("Weapon tags", "tags", { placeholder: "AP(2)", onchange: tell,
                                     maxlength: 80, class: "rl-tr-input rl-tr-tags" }, dform),
      num("Extra successes", "extra", { title: "Net successes beyond the difficulty: " +
                                                 "Roll it fills them in on a hit" }),
      num("Armour soak", "armour"),
      node("label", { class: "rl-tr-field" }, [node("span", { text: "Burst's Damage" }),
        select("Burst's Damage", [["", "No burst"], ...b.fires.filter(([k]) => b.bursts[k])
          .map(([k, t]) => [k, `${t.split(" (")[0]}: +[${b.bursts[k]}]`])], dform.burst,
          (e) => { dform.burst = e.target.value; tell(); })]),
      (b.rows.find((r) => r.key === form.target) || {}).squad
        ? num("Area multiplier", "area", { title: "On a squad: 1 for an ordinary attack, 2 " +
                                                  "for an area attack, 3 or 4 for large ones" })
        : null,
      num("Natural soak", "natural", { placeholder: "his record",
        class: "rl-tr-input rl-tr-nat",
        title: "Empty: from his record (Quantum, Stamina, Mega-Stamina); a squad's: type " +
               "its henchmen's" }),
      odds ? node("p", { class: "rl-tr-dodds" + (odds.ok ? "" : " rl-tr-warning"),
        role: "status", text: (odds.ok ? "Before the roll: " : "") + odds.text }) : null,
      odds && odds.ok ? node("p", { class: "rl-tr-note rl-tr-levels", text: odds.levels })
        : null,
      odds && odds.steps.length ? node("details", { class: "rl-ch-steps" }, [
        node("summary", { text: "How the damage is worked" }),
        node("ol", {}, odds.steps.map((x) => node("li", { text: x })))]) : null,
      node("div", { class: "rl-tr-controls" }, [
        btn("Roll damage", () => send({ type: "roll_damage", target: form.target, ...dform }),
            { title: "Rolled by the site against his soak (seeded, the seed logged); the " +
                     "levels go on his track" })]),
    ]));
  }
  function draw() {
    const b = model.get("board");
    const parts = [];
    // the encounters saved in this browser
    const picker = select("Encounter", b.encounters.map((e) => [e.id, e.name]), b.current,
      (e) => send({ type: "open", id: e.target.value }));
    const ruleset = select("Rules for a new encounter", [["2.1", "Aberrant 2.1"],
      ["2.0", "Aberrant 2.0"], ["chimera", "Chimera"]], form.ruleset || "2.1",
      (e) => { form.ruleset = e.target.value; });
    parts.push(node("div", { class: "rl-tr-bar" }, [picker, ruleset,
      btn("New", () => send({ type: "new", ruleset: ruleset.value }),
          { "aria-label": "New encounter" }),
      b.deleted ? btn(`Restore “${b.deleted}”`, () => send({ type: "restore" }),
                      { class: "rl-tr-btn rl-tr-restore" }) : null]));
    // whose turn, and the one-tap controls
    parts.push(node("h3", { class: "rl-tr-when", text: b.when }));
    parts.push(node("div", { class: "rl-tr-controls" }, [
      btn("Next turn ▶", () => send({ type: "next" }),
          { class: "rl-tr-btn rl-tr-next", disabled: !b.started }),
      btn("↶ Undo", () => send({ type: "undo" }), { disabled: !b.can_undo }),
      btn("↷ Redo", () => send({ type: "redo" }), { disabled: !b.can_redo }),
      btn("End the scene", () => send({ type: "end_scene" }), { disabled: !b.started }),
    ]));
    // the order
    const list = node("ol", { class: "rl-tr-order", "aria-label": "Initiative order" });
    for (const r of b.rows) {
      const chips = node("ul", { class: "rl-tr-chips", "aria-label": "Conditions" },
        r.chips.map((c) => node("li", { class: "rl-chip", text: c })));
      list.append(node("li", { class: "rl-tr-row" + (r.acting ? " rl-tr-acting" : "") +
                               (r.side === "foes" ? " rl-tr-foe" : ""),
                               "aria-current": r.acting ? "true" : "false" }, [
        node("div", { class: "rl-tr-head" }, [
          node("span", { class: "rl-tr-init", text: r.initiative === null ? "–" :
                         String(r.initiative), title: "Initiative" }),
          node("span", { class: "rl-tr-name", text: r.name }),
          sheetLink(b, r),
          node("span", { class: "rl-tr-side", text: r.acting ? "acting" : r.side }),
          btn(r.hidden ? "Hidden" : "Hide", () => send({ type: "hide", key: r.key }),
              { class: "rl-tr-btn rl-tr-hide", "aria-pressed": String(r.hidden),
                "aria-label": `${r.hidden ? "Hidden" : "Hide"}: ${r.name} in the players' view` }),
        ]),
        node("div", { class: "rl-tr-health" }, [
          !r.track.length ? null : node("span", { class: "rl-tr-track", role: "img", "aria-label":
            `Health track: ${r.track.filter((x) => x.filled).length} of ${r.track.length}` +
            " boxes filled" }, r.track.map((x) => node("span", {
              class: "rl-tr-box rl-tr-" + x.kind, "data-filled": x.filled || "",
              text: MARK[x.filled] || "" }))),
          node("span", { class: "rl-tr-health-text", text: r.health })]),
        r.chips.length ? chips : null,
      ]));
    }
    if (b.rows.length) parts.push(list);
    parts.push(node("p", { class: "rl-tr-message rl-tr-" + b.message_kind, role: "status",
                           text: b.message, hidden: !b.message }));
    if (b.chimera) parts.push(...chimeraParts(b, { node, btn, field, select, send, draw }));
    // the acting combatant's declaration: how many actions, an active defence, a sprint
    if (b.acting) {
      const a = b.acting, mine = a.key + "|" + b.when;
      if (form.declared !== mine) {
        Object.assign(form, { declared: mine, actions: String(a.actions),
                              defence: a.active_defence, sprint: a.sprinting });
      }
      parts.push(node("fieldset", { class: "rl-tr-attack rl-tr-declare" }, [
        node("legend", { text: `${a.name} declares` }),
        field("Actions", "actions", { inputmode: "numeric" }),
        check("Active defence", "defence"),
        check("Sprinting", "sprint"),
        btn("Declare", () => send({ type: "declare", actions: form.actions,
                                    active_defence: form.defence, sprinting: form.sprint })),
        node("p", { class: "rl-tr-note", text: a.stunned
          ? "Stunned: a single action this turn."
          : `${a.acted} of ${a.actions} action${a.actions === 1 ? "" : "s"} taken.` }),
      ]));
    }
    // the acting combatant's attack
    if (b.acting) {
      const targets = b.rows.filter((r) => r.key !== b.acting.key).map((r) => [r.key, r.name]);
      if (!targets.some(([k]) => k === form.target) && targets.length) form.target = targets[0][0];
      const target = select("Target", targets, form.target,
                            (e) => { form.target = e.target.value; draw(); });
      const fire = () => ({ fires: form.fires, burst_use: form.burst_use, rounds: form.rounds });
      const attack = (hit) => send({ type: "attack", target: form.target, hit,
        bashing: form.bashing, lethal: form.lethal, aggravated: form.aggravated,
        stun: form.stun, ...fire() });
      const roll = () => send({ type: "roll_attack", target: form.target, pool: form.apool,
        difficulty: form.adiff, bashing: form.bashing, lethal: form.lethal,
        aggravated: form.aggravated, stun: form.stun, ...fire() });
      const ammo = b.acting.ammo;
      // a strafe: a burst (or a Burst(X) shot) at the target and the others ticked
      const others = targets.filter(([k]) => k !== form.target);
      const canStrafe = (!!b.bursts[form.fires] || form.fires === "rounds") && others.length > 0;
      form.also = form.also || {};
      const also = canStrafe ? others.filter(([k]) => form.also[k]).map(([k]) => k) : [];
      const strafe = (rolled) => send({ type: rolled ? "roll_strafe" : "strafe",
        target: form.target, also, pool: form.apool, difficulty: form.adiff,
        successes: form.successes, ...fire() });
      const levels = also.length ? [] : [
        field("Bashing levels", "bashing", { inputmode: "numeric" }),
        field("Lethal levels", "lethal", { inputmode: "numeric" }),
        field("Aggravated levels", "aggravated", { inputmode: "numeric" }),
        field("Stun levels", "stun", { inputmode: "numeric" }),
        node("div", { class: "rl-tr-controls" }, [btn("Hit", () => attack(true)),
                                                  btn("Miss", () => attack(false))])];
      parts.push(node("fieldset", { class: "rl-tr-attack" }, [
        node("legend", { text: `${b.acting.name} attacks` }),
        node("label", { class: "rl-tr-field" }, [node("span", { text: "Target" }), target]),
        b.setups[form.target] ? node("p", { class: "rl-tr-setup" +
          (b.setups[form.target].ok ? "" : " rl-tr-warning"), role: "status",
          text: b.setups[form.target].text,
          title: b.setups[form.target].steps.join("\n") }) : null,
        node("p", { class: "rl-tr-note rl-tr-ammo", text: ammo === null
          ? `${b.acting.name}'s rounds are not counted (Load them under “Rounds”).`
          : `${b.acting.name}: ${ammo} round${ammo === 1 ? "" : "s"} left.` }),
        node("label", { class: "rl-tr-field" }, [node("span", { text: "Fires" }),
          select("Fires", b.fires, form.fires, (e) => { form.fires = e.target.value; draw(); })]),
        b.bursts[form.fires] ? node("label", { class: "rl-tr-field" }, [
          node("span", { text: "Burst's bonus" }),
          select("Burst's bonus", [["accuracy", "Accuracy (dice on the roll)"],
            ["damage", `Damage (+[${b.bursts[form.fires]}] on the hit)`]], form.burst_use,
            (e) => { form.burst_use = e.target.value; draw(); })]) : null,
        form.fires === "rounds" ? field("Rounds fired", "rounds", { inputmode: "numeric",
          title: "A Burst(X) weapon's shot: X rounds" }) : null,
        canStrafe ? node("div", { class: "rl-tr-strafe", role: "group",
                                  "aria-label": "Strafe also at" }, [
          node("span", { class: "rl-tr-note", text: "Strafe also at (+1 difficulty each):" }),
          ...others.map(([k, n]) => node("label", { class: "rl-tr-check" }, [
            node("input", { type: "checkbox", checked: !!form.also[k],
                            "aria-label": `Strafe also at: ${n}`,
                            onchange: (e) => { form.also[k] = e.target.checked; draw(); } }),
            node("span", { text: n })]))]) : null,
        ...levels,
        node("div", { class: "rl-tr-controls rl-tr-roll" }, [
          field("Attack pool", "apool", { inputmode: "numeric",
                                          title: "Attribute + ability + accuracy, in dice" }),
          field("Base difficulty", "adiff", { inputmode: "numeric" }),
          btn("Roll it", also.length ? () => strafe(true) : roll, { title: "Rolled by the " +
            "site (seeded, the seed logged); the fight's difficulty and penalties added" })]),
        also.length ? node("div", { class: "rl-tr-controls" }, [
          field("Successes rolled", "successes", { inputmode: "numeric",
                                                   title: "The table's dice: one roll" }),
          btn("Strafe", () => strafe(false))]) : null,
        also.length ? node("p", { class: "rl-tr-note rl-tr-wide", text: "One roll against " +
          "each target's difficulty; then Roll damage for each one hit (choose him as Target;" +
          " his extra successes are in the log)." }) : null,
        b.odds[form.target] ? node("a", { class: "rl-tr-btn rl-tr-odds", target: "_blank",
          href: "app.html?" + oddsQuery(b, ammo),
          text: "Odds in the Autofire calculator ↗" }) : null,
        also.length ? null : node("p", { class: "rl-tr-note", text: b.ruleset === "2.0"
          ? "Levels after soak (on a hit). 2.0 has no Defense score: the target dodges, " +
            "parries or blocks as one of his declared actions."
          : "Levels after soak (on a hit). A miss still wears the 2.1 Defense down." }),
        Object.values(b.setups).every((s) => !s.ok)
          ? btn("Done: next turn ▶", () => send({ type: "next" }),
                { class: "rl-tr-btn rl-tr-next" })
          : null,
      ]));
    }
    // the damage of a hit rolled by the site against the target's soak, its odds first
    if (b.acting && b.damage) damageParts(b, parts);
    // healing now (a power, the GM's ruling): levels taken off a combatant's track
    if (b.rows.some((r) => r.track.some((x) => x.filled))) {
      const healable = b.rows.map((r) => [r.key, r.name]);
      if (!healable.some(([k]) => k === form.healed)) form.healed = healable[0][0];
      parts.push(section("rl-tr-heal", "healOpen", "Heal (a power, the GM's ruling)", [
        node("div", { class: "rl-tr-bar" }, [
          node("label", { class: "rl-tr-field" }, [node("span", { text: "Who heals" }),
            select("Who heals", healable, form.healed,
                   (e) => { form.healed = e.target.value; })]),
          field("Bashing healed", "hbashing", { inputmode: "numeric" }),
          field("Lethal healed", "hlethal", { inputmode: "numeric" }),
          field("Aggravated healed", "haggravated", { inputmode: "numeric" }),
          field("Stun healed", "hstun", { inputmode: "numeric" }),
          btn("Heal", () => send({ type: "heal", key: form.healed, bashing: form.hbashing,
            lethal: form.hlethal, aggravated: form.haggravated, stun: form.hstun }))])]));
    }
    // the rounds in a combatant's weapon: loaded, reloaded, or no longer counted
    if (b.rows.length && !b.chimera) {
      const armed = b.rows.map((r) => [r.key, r.name + (r.ammo === null ? ": not counted"
                                                        : `: ${r.ammo} rounds`)]);
      if (!armed.some(([k]) => k === form.loadwho)) form.loadwho = armed[0][0];
      parts.push(section("rl-tr-rounds", "roundsOpen", "Rounds: load a weapon, reload", [
        node("div", { class: "rl-tr-bar" }, [
          node("label", { class: "rl-tr-field" }, [node("span", { text: "Whose weapon" }),
            select("Whose weapon", armed, form.loadwho,
                   (e) => { form.loadwho = e.target.value; })]),
          field("Rounds in it", "loaded", { inputmode: "numeric",
            placeholder: "not counted", title: "Empty: his rounds are not counted" }),
          btn("Load", () => send({ type: "load", key: form.loadwho, rounds: form.loaded }))]),
      ]));
    }
    // adding combatants, initiative
    const party = select("From the party", b.party.map((p) => [p.id, p.name]),
                         b.party.length ? b.party[0].id : "", () => {});
    if (!b.chimera) parts.push(node("details", { class: "rl-tr-add", open: !b.started }, [
      node("summary", { text: "Add combatants, roll initiative" }),
      node("div", { class: "rl-tr-bar" }, b.party.length ? [party,
        btn("Add from the party", () => send({ type: "add_party", id: party.value }))]
        : [node("span", { class: "rl-tr-note",
                          text: "No saved Aberrant character in the party yet." })]),
      node("div", { class: "rl-tr-bar" }, [field("Foe's name", "foe"),
        field("Dex", "dex", { inputmode: "numeric" }), field("Wits", "wits",
        { inputmode: "numeric" }), field("Sta", "sta", { inputmode: "numeric" }),
        field("Group", "group", { title: "Identical foes of one group share one initiative" }),
        field("Rounds", "frounds", { inputmode: "numeric", placeholder: "not counted",
                                     title: "The rounds in his weapon; empty: not counted" }),
        btn("Add foe", () => send({ type: "add_foe", name: form.foe, dexterity: form.dex,
                                    wits: form.wits, stamina: form.sta, group: form.group,
                                    rounds: form.frounds }))]),
      node("div", { class: "rl-tr-bar" }, [field("Squad's name", "squad"),
        field("Henchmen", "henchmen", { inputmode: "numeric" }),
        node("label", { class: "rl-tr-field" }, [node("span", { text: "Training" }),
          select("Training", b.trainings.map((x) => [x, x]), form.training,
                 (e) => { form.training = e.target.value; })]),
        field("Henchman pool", "pool", { inputmode: "numeric",
                                         title: "Their attribute + ability total" }),
        field("Leader's Dex", "sdex", { inputmode: "numeric" }),
        field("Leader's Wits", "swits", { inputmode: "numeric" }),
        field("Leader's Sta", "ssta", { inputmode: "numeric" }),
        field("Squad's rounds", "srounds", { inputmode: "numeric", placeholder: "not counted",
                                             title: "The rounds in the leader's weapon" }),
        btn("Add squad", () => send({ type: "add_squad", name: form.squad,
          henchmen: form.henchmen, training: form.training, pool: form.pool,
          dexterity: form.sdex, wits: form.swits, stamina: form.ssta,
          rounds: form.srounds }))]),
      node("div", { class: "rl-tr-controls" }, [
        btn("Roll initiative", () => send({ type: "initiative" }), { disabled: !b.rows.length }),
      ]),
      b.initiative_fields.length ? node("fieldset", { class: "rl-tr-attack rl-tr-typed" }, [
        node("legend", { text: "Or type the table's initiative totals" }),
        ...b.initiative_fields.map((f) => field(`Initiative: ${f.label}`, f.id,
                                                { inputmode: "numeric" }, typed)),
        btn("Enter initiative", () => send({ type: "enter_initiative", totals: { ...typed } })),
      ]) : null,
    ]));
    // this encounter's name, or deleting it (restored with "Restore" until the page closes)
    if (form.named !== b.current) Object.assign(form, { named: b.current, rename: b.name });
    parts.push(node("details", { class: "rl-tr-add" }, [
      node("summary", { text: "Rename or delete this encounter" }),
      node("div", { class: "rl-tr-bar" }, [
        field("Encounter's name", "rename", { maxlength: 80 }),
        btn("Rename", () => send({ type: "rename", name: form.rename })),
        btn("Delete", () => send({ type: "delete" }),
            { "aria-label": `Delete the encounter “${b.name}”` })])]));
    // the readings this fight is played under (the GM's choice, a step: undone by Undo)
    if (b.readings.length) {
      parts.push(section("rl-tr-readings", "readOpen",
                         "Readings of the rules (the GM's choice)", [
        node("div", { class: "rl-tr-bar" }, b.readings.map((r) =>
          node("label", { class: "rl-tr-field rl-tr-reading" }, [
            node("span", { text: `${r.label} (${r.note})` }),
            select(r.label, r.choices, r.value,
                   (e) => send({ type: "reading", name: r.name, value: e.target.value }))]))),
      ]));
    }
    // file and link
    const file = node("input", { type: "file", accept: ".json,application/json",
      class: "rl-tr-file", "aria-label": "Import an encounter file", onchange: async (e) => {
        const f = e.target.files[0];
        if (!f) return;
        if (f.size > 2000000) { send({ type: "say", text: "That file is over 2 MB." }); return; }
        send({ type: "import", text: await f.text() });
      } });
    parts.push(node("div", { class: "rl-tr-bar" }, [
      btn("Export file", () => send({ type: "export" })),
      node("label", { class: "rl-tr-btn rl-tr-import" }, [node("span", { text: "Import file" }),
                                                         file]),
      btn("Share link", () => send({ type: "share" })),
      btn("Players' view ↗", () => window.open("app.html?calculator=tracker&view=players",
                                               "ruleslab-players")),
      "wakeLock" in navigator ? btn(wantAwake ? "Screen kept awake" : "Keep the screen awake",
        () => { wantAwake = !wantAwake;
                if (wantAwake) keepAwake(); else if (awake) awake.release(); draw(); },
        { "aria-pressed": String(wantAwake) }) : null,
    ].filter((x) => x !== null)));
    if (link) parts.push(node("input", { type: "text", readonly: true, value: link,
      class: "rl-tr-input rl-tr-link", "aria-label": "Link to this encounter",
      onfocus: (e) => e.target.select() }));
    if (b.log.length) {
      parts.push(node("details", { class: "rl-tr-log" }, [
        node("summary", { text: "What happened (the rules applied)" }),
        node("ol", {}, b.log.map((t) => node("li", { text: t }))),
      ]));
    }
    // the field being typed in keeps the focus and the caret across a redraw (the damage
    // odds are drawn again when a field of the form changes, while the next is typed in)
    const was = root.contains(document.activeElement) ? document.activeElement : null;
    const label = was && was.getAttribute("aria-label");
    const caret = was && typeof was.selectionStart === "number"
      ? [was.selectionStart, was.selectionEnd] : null;
    root.replaceChildren(...parts);
    const again = label && [...root.querySelectorAll("[aria-label]")]
      .find((e) => e.getAttribute("aria-label") === label);
    if (again && again !== document.activeElement) {
      again.focus();
      if (caret && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(caret[0], caret[1]); } catch (err) { /* (a select) */ }
      }
    }
    try { if (b.current) window.localStorage.setItem(OPEN_KEY, b.current); } catch (err) { /**/ }
    if (players) players.postMessage({ type: "board", board: b.players });
  }
  model.on("change:board", draw);
  draw();
  store.onChange((c) => { if (c === COLLECTION || c === PARTY) load(); });
  const shared = new URLSearchParams(window.location.hash.slice(1)).get("encounter");
  load().then(() => { if (shared !== null) send({ type: "shared", text: shared }); });
}
export default { render };
"""
)

CSS = (
    """
.rl-tracker { display: flex; flex-direction: column; gap: 0.6em; max-width: 44em;
  color: var(--rl-fg, inherit); font-size: 16px; }
.rl-tracker .rl-tr-bar, .rl-tracker .rl-tr-controls { display: flex; flex-wrap: wrap;
  gap: 0.5em; align-items: end; }
.rl-tracker .rl-tr-btn, .rl-tracker .rl-tr-select, .rl-tracker .rl-tr-input {
  min-height: 44px; min-width: 44px; box-sizing: border-box; font: inherit;
  padding: 0 0.8em; border-radius: 6px; border: 1px solid var(--rl-border, #9e9e9e);
  color: var(--rl-fg, inherit); background: var(--rl-bg, transparent); }
.rl-tracker .rl-tr-btn { cursor: pointer; font-weight: 600; }
.rl-tracker a.rl-tr-odds { display: inline-flex; align-items: center; color: var(--rl-link);
  text-decoration: none; }
.rl-tracker .rl-tr-btn:disabled { opacity: 0.55; cursor: default; }
.rl-tracker .rl-tr-next { flex: 1 1 10em; font-size: 1.15em;
  background: var(--rl-link, #0b57d0); color: var(--rl-hatch, #fff); border-color: transparent; }
.rl-tracker .rl-tr-select { max-width: 100%; }
.rl-tracker .rl-tr-field { display: flex; flex-direction: column; font-size: 0.85em;
  color: var(--rl-muted, #474747); }
.rl-tracker .rl-tr-field .rl-tr-input { width: 5em; color: var(--rl-fg, inherit);
  font-size: 16px; }
.rl-tracker .rl-tr-field:first-child .rl-tr-input { width: 11em; }
.rl-tracker .rl-tr-roll .rl-tr-field .rl-tr-input { width: 5em; }
.rl-tracker .rl-tr-when { margin: 0.2em 0 0; font-size: 1.2em; }
.rl-tracker .rl-tr-order { list-style: none; margin: 0; padding: 0; display: flex;
  flex-direction: column; gap: 0.45em; }
.rl-tracker .rl-tr-row { border: 1px solid var(--rl-border, #c4c4c4); border-radius: 8px;
  padding: 0.45em 0.6em; border-left: 6px solid var(--rl-border, #c4c4c4); }
.rl-tracker .rl-tr-foe { border-left-color: var(--rl-error, #b00020); }
.rl-tracker .rl-tr-acting { border-color: var(--rl-link, #0b57d0);
  border-left-color: var(--rl-link, #0b57d0); box-shadow: 0 0 0 2px var(--rl-link, #0b57d0); }
.rl-tracker .rl-tr-head { display: flex; align-items: center; gap: 0.6em; }
.rl-tracker .rl-tr-init { font-size: 1.3em; font-weight: 700; min-width: 2em;
  text-align: center; }
.rl-tracker .rl-tr-name { font-weight: 700; flex: 1 1 auto; overflow-wrap: anywhere; }
.rl-tracker a.rl-tr-sheet { color: var(--rl-link, #0b57d0); min-height: 44px;
  display: inline-flex; align-items: center; padding: 0 0.3em; }
.rl-tracker .rl-tr-side { color: var(--rl-muted, #474747); font-size: 0.85em; }
.rl-tracker .rl-tr-acting .rl-tr-side { color: var(--rl-link, #0b57d0); font-weight: 700; }
.rl-tracker .rl-tr-hide { font-weight: 400; font-size: 0.85em; }
.rl-tracker .rl-tr-health { margin: 0.25em 0 0 2.6em; display: flex; flex-wrap: wrap;
  align-items: center; gap: 0.3em 0.7em; }
.rl-tracker .rl-tr-track { display: inline-flex; flex-wrap: wrap; gap: 2px; }
.rl-tracker .rl-tr-box { width: 1.15em; height: 1.15em; border: 1px solid
  var(--rl-hl-border, #555); font-size: 0.8em; font-weight: 700; display: inline-flex;
  align-items: center; justify-content: center; line-height: 1; }
.rl-tracker .rl-tr-incap, .rl-tracker .rl-tr-dying { border-style: dashed; }
.rl-tracker .rl-tr-box[data-filled=bashing] { background: var(--rl-hl-bashing, #e3f2fd); }
.rl-tracker .rl-tr-box[data-filled=lethal] { background: var(--rl-hl-lethal, #ffcdd2); }
.rl-tracker .rl-tr-box[data-filled=aggravated] { background: var(--rl-hl-aggravated);
  color: var(--rl-hl-aggravated-fg, #fff); }
.rl-tracker .rl-tr-box[data-filled=stun] { background: var(--rl-hl-stun, #fff9c4); }
.rl-tracker .rl-tr-chips { list-style: none; margin: 0.3em 0 0 2.6em; padding: 0;
  display: flex; flex-wrap: wrap; gap: 0.3em; }
.rl-tracker .rl-chip { border-radius: 999px; padding: 0.15em 0.7em; font-size: 0.88em;
  background: var(--rl-warn-bg, #fff4d6); color: var(--rl-warn-fg, #6b4200); }
.rl-tracker .rl-tr-attack { border: 1px solid var(--rl-border, #c4c4c4); border-radius: 8px;
  display: flex; flex-wrap: wrap; gap: 0.5em; align-items: end; }
.rl-tracker .rl-tr-attack legend { font-weight: 700; }
.rl-tracker .rl-tr-check { display: inline-flex; align-items: center; gap: 0.4em;
  min-height: 44px; min-width: 44px; cursor: pointer; }
.rl-tracker .rl-tr-check input { width: 26px; height: 44px; margin: 0; }
.rl-tracker .rl-tr-setup, .rl-tracker .rl-tr-dodds { flex: 1 1 100%; margin: 0;
  font-weight: 600; }
.rl-tracker .rl-tr-field .rl-tr-input.rl-tr-tags { width: 12em; }
.rl-tracker .rl-tr-field .rl-tr-input.rl-tr-nat { width: 7em; }
.rl-tracker .rl-tr-levels { flex: 1 1 100%; }
.rl-tracker .rl-tr-note { color: var(--rl-muted, #474747); font-size: 0.85em; margin: 0; }
.rl-tracker .rl-tr-ammo, .rl-tracker .rl-tr-wide { flex: 1 1 100%; }
.rl-tracker .rl-tr-strafe { flex: 1 1 100%; display: flex; flex-wrap: wrap; gap: 0.5em;
  align-items: center; }
.rl-tracker .rl-tr-reading { flex: 1 1 20em; }
.rl-tracker .rl-tr-reading select { width: 100%; }
.rl-tracker .rl-tr-message { margin: 0; padding: 0.3em 0.6em; border-radius: 6px;
  font-size: 0.85em; color: var(--rl-muted, #474747);
  border-left: 3px solid var(--rl-border, #c4c4c4); }
.rl-tracker .rl-tr-message.rl-tr-warning { font-size: 1em; border-left-color:
  var(--rl-warn-fg, #6b4200); }
.rl-tracker .rl-tr-warning { background: var(--rl-warn-bg, #fff4d6);
  color: var(--rl-warn-fg, #6b4200); }
.rl-tracker .rl-tr-add > summary, .rl-tracker .rl-tr-log > summary { cursor: pointer;
  min-height: 44px; display: flex; align-items: center; font-weight: 600; }
.rl-tracker .rl-tr-add > div { margin: 0.4em 0; }
.rl-tracker .rl-tr-import { display: inline-flex; align-items: center; position: relative; }
.rl-tracker .rl-tr-file { position: absolute; inset: 0; opacity: 0; cursor: pointer;
  width: 100%; }
.rl-tracker .rl-tr-link { width: 100%; font-family: ui-monospace, monospace;
  font-size: 0.85em; }
.rl-tracker .rl-tr-log li { overflow-wrap: anywhere; margin: 0.15em 0; }
"""
    + CHIMERA_CSS
)
