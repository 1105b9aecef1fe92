"""The party bar: fill a calculator's roles from the GM's characters, kept in the browser.

Shown above the form of every calculator with a role whose record is an
Aberrant :class:`~ruleslab.character.Character` or a Chimera
:class:`~ruleslab.chimera.fighter.Fighter` (``calc.compute.roles``). For each
such role: "Fill the lifter from: [Aiko ▾] [Fill]" sets that role's fields
through the form's own path (:meth:`~ruleslab_widgets.view.CalculatorView.apply_query`,
as a link does: the figures are those of typing the values), then says whose
values the role holds; changing one of them afterwards says "edited" and
never writes back: "Update Aiko" and "Save as new character…" do, when asked.
A "Party" disclosure lists the characters (rename, delete after a
confirmation, share one by link) and exports or imports the party file
(:mod:`ruleslab.party`).

Where things happen:

* the browser keeps the party in the site's record store
  (:mod:`ruleslab_widgets.records`: IndexedDB ``ruleslab``), one record per
  character with a revision, so two tabs changing different characters both keep
  theirs and a change made from an older revision (another tab changed or deleted
  the character meanwhile) is refused and said, never written over; "Saved" is said
  only once the write committed and was read back. A value that cannot be read is
  moved to the ``set-aside`` store, never deleted, and can be downloaded. All pages
  of the site share it (one origin); another tab's change arrives by BroadcastChannel
  (or when the page gets the focus) and is drawn without touching what is being typed
  (a name being entered keeps its text and caret). The whole party an earlier site
  kept under the key ``party`` is moved into records once;
* Python checks everything: what storage holds (:meth:`PartyBar.loaded`), an
  imported file (:meth:`PartyBar.import_text`, :func:`~ruleslab.party.parse_party`)
  and a link's character (:meth:`PartyBar.shared`) go through the engine's parser
  before use; the page only stores and shows.

Every text a GM typed is shown through ``textContent`` or an input's
``value``, never as HTML.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ruleslab import InputError, Party, Role, parse_party, party_json
from ruleslab.party import Entry, entry_json, parse_entry
from ruleslab_widgets.module_widget import NODE_JS, ModuleWidget
from ruleslab_widgets.records import RECORDS_JS, RecordSync, Stored, Unreadable, Written

__all__ = ["COLLECTION", "STORE_VERSION", "PartyBar", "form_text", "party_roles", "stored_party"]

COLLECTION = "party"
"""The collection of the site's record store (:mod:`ruleslab_widgets.records`) that
holds the party: one record per character (:func:`ruleslab.party.entry_json`)."""
STORE_VERSION = 1
"""The version of the value sites before the record store kept under the key ``party``
(``{"version": 1, "text": <party file>}``): read once, moved into records, set aside."""


def party_roles(view: Any) -> tuple[Role, ...]:
    """The roles of ``view``'s calculator a party character can fill (a Character or
    Fighter role with at least one field in the form)."""
    roles = getattr(view.calc.compute, "roles", ())
    return tuple(
        r
        for r in roles
        if Party.kind_for(r.record) is not None
        and any(r.flat_name(f) in view.inputs for f in r.fields)
    )


def stored_party(live: list[Stored], bad: list[Unreadable]) -> Party:
    """The party the record store's ``live`` records hold, each checked
    (:func:`~ruleslab.party.parse_entry`); one that cannot be read is added to ``bad``."""
    entries: list[Entry] = []
    for stored in live:
        try:
            entry = parse_entry(stored.text)
            if entry.id != stored.id:
                raise InputError("id", f"it names the id “{entry.id[:40]}”")
        except InputError as exc:
            bad.append(Unreadable(stored.id, exc.message))
            continue
        entries.append(entry)
    party = Party()
    for entry in entries:  # (two tabs saving one name at once: both kept, one "(2)")
        name = party.free_name(entry.name)
        party = party.add(name, entry.record, id=entry.id, entered=entry.entered)
    return party


def _phrase(title: str) -> str:
    """A role's title inside a sentence: "The lifter" → "the lifter"."""
    return "the " + title[4:] if title.startswith("The ") else title


def form_text(value: Any) -> str:
    """A record's value as the form's text (as typed)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_text = form_text  # (its older name, which the tracker's board imports)


_ESM = (
    RECORDS_JS
    + NODE_JS
    + r"""
const COLLECTION = "party";
const LEGACY = { store: "party", key: "party" };  // (where sites before the records kept it)
const MAX_FILE = 1000000;
let sharedStore = null;  // one per page, for every party bar on it
const ALLOW_AFTER_MS = 1000;  // (a click aimed at the page behind is not taken as a yes)
const localBars = new Set();  // this page's bars: told of each other's writes
function theStore() {
  if (!sharedStore) sharedStore = recordStore();
  return sharedStore;
}
function siteRoot() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return new URL("./", window.location.href);
  const root = config.getAttribute("data-jupyter-lite-root");
  if (root === null) return null;
  return new URL(root.endsWith("/") ? root : root + "/", window.location.href);
}
function address(query, fragment) {
  const root = siteRoot();
  const relative = "app.html?" + query + (fragment ? "#" + fragment : "");
  return root ? new URL(relative, root).href : relative;
}
const button = buttonOf("jupyter-button rl-party-button");
let uid = 0;

function render({ model, el }) {
  const n = ++uid;
  const ui = {
    open: false, saving: null, savingText: "", renaming: null, renameText: "", deleting: null,
    link: null, chosen: {},  // chosen: a role's pick not yet filled (kept across redraws)
    asking: null, askedBefore: Promise.resolve() };  // a change the reader must allow
  const send = (msg) => model.send(msg);
  const store = theStore();

  async function load() {
    if (!ownData()) {  // an embed: nothing of the GM's read or written
      send({ type: "loaded", mode: "embedded" });
      return;
    }
    try {
      const r = await store.readAll(COLLECTION, LEGACY);
      send({ type: "loaded", ...r });
    } catch (err) {
      send({ type: "loaded", mode: "unavailable", error: errText(err) });
    }
  }
  /** Whether the reader allows `what` (a change of the party, in words) asked from a
   * frame shown in a page of `host`: asked in the bar, one change at a time. */
  function allowed(host, what) {
    const asked = ui.askedBefore.then(() => new Promise((answer) => {
      ui.asking = { host, what, since: Date.now(), answer: (yes) => {
        ui.asking = null;
        draw();
        answer(yes);
      } };
      draw();
      setTimeout(draw, ALLOW_AFTER_MS + 20);  // (its Allow button then works)
    }));
    ui.askedBefore = asked;
    return asked;
  }
  async function write(msg) {
    const host = foreignHost();
    if (host !== null) send({ type: "asking", req: msg.req });
    if (host !== null && !(await allowed(host, String(msg.what || "change your party")))) {
      send({ type: "written", req: msg.req, declined: host });
      await load();  // (what is saved, shown again)
      return;
    }
    let result;
    try {
      result = await store.write(COLLECTION, Array.isArray(msg.ops) ? msg.ops : [],
                                 msg.retire ? LEGACY : null);
    } catch (err) {
      result = { error: errText(err) };
    }
    send({ type: "written", req: msg.req, ...result });
    if (result.ok) for (const other of localBars) if (other !== load) other();
    await load();
  }
  async function setAside(ids) {
    try {
      await store.setAside(COLLECTION, Array.isArray(ids) ? ids : [], LEGACY);
    } catch (err) {
      send({ type: "say",
             text: `What could not be read could not be set aside (${errText(err)}).` });
    }
    await load();
  }
  async function downloadAside() {
    try { download(await store.asideText(), "ruleslab-set-aside.json", "rl-party-download"); }
    catch (err) {
      send({ type: "say", text: `The set-aside data could not be read (${errText(err)}).` });
    }
  }
  const onMsg = onMessages({ write, set_aside: (msg) => setAside(msg.ids), load,
    download: (msg) => download(msg.text, msg.filename, "rl-party-download"),
    link: (msg) => {
      ui.link = { id: msg.id, url: address(msg.query, msg.fragment) };
      draw();
    } });
  model.on("msg:custom", onMsg);

  const root = node("div", { class: "rl-party", role: "region", "aria-label": "The party" });
  el.replaceChildren(root);

  function chars(kind) { return model.get("characters").filter((c) => c.kind === kind); }

  function roleRow(role) {
    const filled = model.get("filled")[role.name];
    const ready = model.get("storage") !== "loading";
    const options = chars(role.kind);
    const id = `rl-party-${n}-${role.name}`;
    const select = node("select", { id, class: "rl-party-select" });
    if (!options.length) {
      select.append(node("option", { value: "", text: "no characters yet" }));
      select.disabled = true;
    } else {  // nothing filled yet: nothing shown as chosen
      select.append(node("option", { value: "", text: "choose a character" }));
    }
    for (const c of options) select.append(node("option", { value: c.id, text: c.name }));
    const chosen = ui.chosen[role.name];
    const pick = chosen && options.some((c) => c.id === chosen) ? chosen : filled && filled.id;
    select.value = pick && options.some((c) => c.id === pick) ? pick : "";
    const who = role.phrase + model.get("target");  // (" (scenario B)" while comparing)
    const label = node("label", { for: id, text: `Fill ${who} from` });
    const fill = button("Fill", () => {
                          delete ui.chosen[role.name];
                          send({ type: "fill", role: role.name, id: select.value });
                        },
                        { disabled: !options.length || !ready || !select.value,
                          "aria-label": `Fill ${who} from the chosen character` });
    select.addEventListener("change", () => {
      ui.chosen[role.name] = select.value;
      fill.disabled = !ready || !select.value;
    });
    const parts = [label, select, fill];
    const row = node("div", { class: "rl-party-role" },
                     [node("div", { class: "rl-party-fill" }, parts)]);
    const state = node("div", { class: "rl-party-state" });
    if (filled) {
      const who = filled.gone ? `${filled.name}'s values (no longer in the party)`
        : `${filled.name}'s values` + (filled.edited ? ", edited" : "");
      state.append(node("span", { class: "rl-party-who" + (filled.edited ? " rl-party-edited" : ""),
                                  text: `${role.title}: ${who}` }));
      if (filled.edited && !filled.gone) {
        state.append(button(`Update ${filled.name}`,
                            () => send({ type: "update", role: role.name })));
      }
    }
    if (ui.saving === role.name) {
      const nameId = `${id}-name`;
      const input = node("input", { id: nameId, type: "text", maxlength: "60",
                                    class: "rl-party-name", autocomplete: "off" });
      input.value = ui.savingText || "";
      input.addEventListener("input", () => { ui.savingText = input.value; });
      const save = () => { send({ type: "save_new", role: role.name, name: input.value }); };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") save();
        if (e.key === "Escape") { ui.saving = null; draw(); }
      });
      state.append(node("span", { class: "rl-party-prompt" }, [
        node("label", { for: nameId, text: "New character's name" }), input,
        button("Save", save), button("Cancel", () => { ui.saving = null; draw(); })]));
      if (ui.focusSaving !== role.name) {
        ui.focusSaving = role.name;
        setTimeout(() => input.focus(), 0);
      }
    } else {
      if (ui.focusSaving === role.name) ui.focusSaving = null;
      state.append(button("Save as new character\u2026", () => { ui.saving = role.name; draw(); },
                          { disabled: !ready,
                            // (the visible words first: a voice user says what they see)
                            "aria-label":
                              `Save as new character\u2026 (${role.phrase}'s values)` }));
    }
    row.append(state);
    return row;
  }

  function listRow(c) {
    const li = node("li", { class: "rl-party-item" });
    if (ui.renaming === c.id) {
      const inputId = `rl-party-${n}-rename-${c.id}`;
      const input = node("input", { id: inputId, type: "text", maxlength: "60",
                                    class: "rl-party-name" });
      input.value = ui.renameText;  // (what was typed: kept when another tab redraws the list)
      input.addEventListener("input", () => { ui.renameText = input.value; });
      const ok = () => {
        ui.renaming = null;
        send({ type: "rename", id: c.id, name: input.value });
      };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") ok();
        if (e.key === "Escape") { ui.renaming = null; draw(); }
      });
      li.append(node("label", { for: inputId, text: `New name for ${c.name}` }), input,
                button("Rename", ok), button("Cancel", () => { ui.renaming = null; draw(); }));
      if (ui.focusRename !== c.id) {
        ui.focusRename = c.id;
        setTimeout(() => input.focus(), 0);
      }
      return li;
    }
    li.append(node("span", { class: "rl-party-item-name", text: c.name }),
              node("span", { class: "rl-party-kind", text: c.kind_label }));
    if (ownData()) {  // (his sheet: a page of the site; from an embed, in a tab of its own)
      let framed = true;
      try { framed = window.top !== window.self; } catch (err) {}
      li.append(node("a", { class: "rl-party-sheet", text: "Sheet",
                            target: framed ? "_blank" : "_self", rel: "noopener",
                            href: address("calculator=sheet&id=" + encodeURIComponent(c.id), ""),
                            "aria-label": `${c.name}'s sheet` }));
    }
    if (ui.deleting === c.id) {
      li.append(node("span", { class: "rl-party-confirm", text: `Delete ${c.name}?` }),
                button("Delete", () => { ui.deleting = null; send({ type: "delete", id: c.id }); }),
                button("Keep", () => { ui.deleting = null; draw(); }));
    } else {
      li.append(
        button("Rename", () => { ui.renaming = c.id; ui.renameText = c.name; draw(); },
               { "aria-label": `Rename ${c.name}` }),
        button("Share by link", () => { send({ type: "share", id: c.id }); },
               { "aria-label": `Share ${c.name} by link` }),
        button("Delete", () => { ui.deleting = c.id; draw(); },
               { "aria-label": `Delete ${c.name}` }));
    }
    if (ui.link && ui.link.id === c.id) {
      const box = node("input", { type: "text", readonly: "", class: "rl-party-link",
                                  "aria-label": `Link that offers ${c.name}` });
      box.value = ui.link.url;
      box.addEventListener("focus", () => box.select());
      const note = node("span", { class: "rl-party-note", role: "status" });
      const copy = button("Copy", async () => {
        try {
          await navigator.clipboard.writeText(ui.link.url);
          note.textContent = "Link copied.";
        } catch (err) {
          box.focus();
          box.select();
          note.textContent = "Copy the selected link (Ctrl+C or \u2318C).";
        }
      });
      li.append(node("div", { class: "rl-party-share" }, [box, copy, note]));
    }
    return li;
  }

  function askRow(asking) {
    const ids = [`rl-party-${n}-ask`, `rl-party-${n}-ask-why`];
    const early = Date.now() - asking.since < ALLOW_AFTER_MS;
    const allow = button("Allow this change", () => asking.answer(true),
                         { disabled: early, "aria-label": "Allow this change" });
    const refuse = button("Do not change my party", () => asking.answer(false),
                          { "aria-label": "Do not change my party" });
    const box = node("div", { class: "rl-party-ask", role: "alertdialog",
                              "aria-labelledby": ids[0], "aria-describedby": ids[1] }, [
      node("p", { id: ids[0], class: "rl-party-ask-what",
                  text: `Allow this calculator to ${asking.what}?` }),
      node("p", { id: ids[1], class: "rl-party-ask-why",
                  text: `It is shown inside a page of ${asking.host}, not a page of this site ` +
                    `(${window.location.origin}), which keeps your party. Allow it only if ` +
                    "you made this change yourself." }),
      node("div", { class: "rl-party-actions" }, [allow, refuse])]);
    if (!asking.focused) {
      asking.focused = true;
      setTimeout(() => { if (refuse.isConnected) refuse.focus(); }, 0);
    }
    return box;
  }

  /** A fill that would overwrite values the GM typed: each named, his or the character's. */
  function questionBox(q) {
    const id = `rl-party-${n}-question`;
    const keep = button("Keep mine", () => send({ type: "keep_mine" }),
                        { "aria-label": "Keep mine" });
    const box = node("div", { class: "rl-party-ask rl-party-question", role: "group",
                              "aria-labelledby": id }, [
      node("p", { id, class: "rl-party-ask-what",
                  text: `${q.name}'s values differ from what you typed in ${q.title}:` }),
      node("ul", { class: "rl-party-diffs" }, q.fields.map((f) => node("li", {
        text: `${f.label}: you typed ${f.mine}, ${q.name} has ${f.theirs}` }))),
      node("div", { class: "rl-party-actions" }, [keep,
        button(`Use ${q.name}'s`, () => send({ type: "use_theirs" }),
               { "aria-label": `Use ${q.name}'s` })])]);
    if (ui.asked !== q) {  // (a new question: the choice gets the focus once)
      ui.asked = q;
      setTimeout(() => { if (keep.isConnected) keep.focus(); }, 0);
    }
    return box;
  }

  function partyBox() {
    const list = model.get("characters");
    const details = node("details", { class: "rl-party-list" });
    details.open = ui.open;
    details.addEventListener("toggle", () => { ui.open = details.open; });
    details.append(node("summary", { text: `Party (${list.length})` }));
    const ul = node("ul", { class: "rl-party-items" });
    for (const c of list) ul.append(listRow(c));
    if (!list.length) {
      details.append(node("p", { class: "rl-party-note", text: "No characters yet: fill a "
        + "role's fields, then \u201cSave as new character\u2026\u201d." }));
    }
    else details.append(ul);
    const fileId = `rl-party-${n}-file`;
    const file = node("input", { id: fileId, type: "file", accept: ".json,application/json",
                                 class: "rl-party-file" });
    file.addEventListener("change", async () => {
      const f = file.files && file.files[0];
      file.value = "";
      if (!f) return;
      if (f.size > MAX_FILE) {  // (in bytes: "1.0 MB" would not say why 1,000,001 is refused)
        const size = f.size.toLocaleString("en");
        send({ type: "say", text: `This file is ${size} bytes: a party file is at most 1 MB ` +
          "(1,000,000 bytes). Nothing was changed." });
        return;
      }
      try { send({ type: "import", text: await f.text() }); }
      catch (err) {
        send({ type: "say", text: "This file could not be read. Nothing was changed." });
      }
    });
    const actions = node("div", { class: "rl-party-actions" }, [
      button("Export party", () => send({ type: "export" }), { disabled: !list.length }),
      node("label", { for: fileId, class: "rl-party-import-label", text: "Import party\u2026" }),
      file]);
    const aside = model.get("aside");
    if (aside > 0) {
      actions.append(button(`Download what was set aside (${aside})`,
                            () => downloadAside()));
    }
    details.append(actions);
    const pending = model.get("pending");
    if (pending && pending.count !== undefined) {
      const more = pending.names.length > 8 ? ", \u2026" : "";
      const names = pending.names.slice(0, 8).join(", ") + more;
      const plural = pending.count === 1 ? "" : "s";
      details.append(node("div", { class: "rl-party-pending", role: "group",
                                   "aria-label": "Import the file" }, [
        node("span", { text: `This file holds ${pending.count} character${plural}: ${names}.` }),
        button("Add to the party", () => send({ type: "import_apply", mode: "add" })),
        button("Replace the party", () => send({ type: "import_apply", mode: "replace" })),
        button("Cancel", () => send({ type: "import_cancel" }))]));
    }
    return details;
  }

  function draw() {
    if (ui.renaming === null) ui.focusRename = null;
    const focused = document.activeElement;
    const inside = root.contains(focused);
    const keep = inside && focused.getAttribute("aria-label");
    const keepId = inside && focused.id;
    const caret = inside && typeof focused.selectionStart === "number"
      ? [focused.selectionStart, focused.selectionEnd] : null;
    const parts = [];
    if (ui.asking) parts.push(askRow(ui.asking));
    const offer = model.get("offer");
    if (offer && offer.name) {
      parts.push(node("div", { class: "rl-party-offer" }, [
        node("span",
             { text: `This link carries a character: ${offer.name} (${offer.kind_label}).` }),
        button(`Add ${offer.name} to the party`, () => {
          send({ type: "add_shared" });
          const url = new URL(window.location.href);
          url.hash = "";  // (a reload does not offer him again)
          try { history.replaceState(history.state, "", url.href); } catch (err) {}
        })]));
    }
    const question = model.get("question");
    for (const role of model.get("roles")) {
      parts.push(roleRow(role));
      if (question && question.role === role.name) parts.push(questionBox(question));
    }
    parts.push(partyBox());
    const status = node("div", { class: "rl-party-status", role: "status" });
    const message = model.get("message");
    if (model.get("storage") === "loading") status.textContent = "Loading the party\u2026";
    else if (message) {
      status.textContent = message;
      if (model.get("message_kind") === "warning") status.classList.add("rl-party-warning");
    }
    parts.push(status);
    root.replaceChildren(...parts);
    const again = keepId ? document.getElementById(keepId) : null;
    if (again && root.contains(again)) {
      again.focus();
      if (caret && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(caret[0], caret[1]); } catch (err) {}
      }
    } else if (keep) {
      const again = [...root.querySelectorAll("[aria-label]")].find(
        (e) => e.getAttribute("aria-label") === keep);
      if (again) again.focus();
    }
  }
  const names = ["roles", "characters", "filled", "message", "message_kind", "storage",
                 "pending", "offer", "target", "aside", "question"];
  const onFilled = () => { ui.saving = null; ui.savingText = ""; };
  model.on("change:filled", onFilled);  // (a save went through: the prompt closes)
  for (const name of names) model.on(`change:${name}`, draw);
  const onChanged = () => load();
  const offChange = store.onChange((collection) => {
    if (collection === null || collection === COLLECTION) load();  // (null: every one)
  });
  localBars.add(load);
  window.addEventListener("focus", onChanged);
  draw();
  const offerShared = () => {  // a link's character: checked by Python, then offered
    const shared = new URLSearchParams(window.location.hash.slice(1)).get("character");
    if (shared !== null) send({ type: "shared", text: shared });
  };
  window.addEventListener("hashchange", offerShared);  // (a link pasted over this page)
  load().then(offerShared);
  return () => {
    model.off("msg:custom", onMsg);
    for (const name of names) model.off(`change:${name}`, draw);
    model.off("change:filled", onFilled);
    offChange();
    localBars.delete(load);
    window.removeEventListener("focus", onChanged);
    window.removeEventListener("hashchange", offerShared);
  };
}
export default { render };
"""
)

_CSS = """
.rl-party { display: flex; flex-direction: column; gap: 0.35em; margin: 0.4em 0;
  padding: 0.5em 0.6em; border: 1px solid var(--rl-border, #c4c4c4); border-radius: 4px;
  color: var(--rl-fg, inherit); font-size: var(--jp-widgets-font-size, 13px); }
.rl-party .rl-party-role { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3em 1em; }
.rl-party .rl-party-fill, .rl-party .rl-party-state, .rl-party .rl-party-prompt,
.rl-party .rl-party-actions, .rl-party .rl-party-item, .rl-party .rl-party-share,
.rl-party .rl-party-pending, .rl-party .rl-party-offer {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em; }
.rl-party select, .rl-party input[type=text] { min-width: 0; max-width: 100%;
  font: inherit; padding: 0.2em 0.35em;
  color: var(--jp-widgets-input-color, inherit);
  background: var(--jp-widgets-input-background-color, transparent);
  border: 1px solid var(--jp-widgets-input-border-color, #9e9e9e); }
.rl-party select { min-width: 10em; }
.rl-party .rl-party-name { width: 14em; }
.rl-party .rl-party-share { flex: 1 0 100%; }
.rl-party .rl-party-link { flex: 1 1 16em; font-family: ui-monospace, monospace;
  font-size: 0.9em; }
.rl-party .rl-party-button, .rl-party .rl-party-import-label { width: auto; padding: 0 0.7em;
  height: var(--jp-widgets-inline-height, 28px); font-size: var(--jp-widgets-font-size, 13px);
  box-sizing: border-box; }
.rl-party .rl-party-who { font-weight: 600; }
.rl-party .rl-party-edited { color: var(--rl-warn-fg, #6b4200); }
.rl-party .rl-party-kind, .rl-party .rl-party-note { color: var(--rl-muted, #474747);
  font-size: 0.9em; }
.rl-party .rl-party-item-name { font-weight: 600; overflow-wrap: anywhere; }
.rl-party .rl-party-sheet { color: var(--rl-link, #0b57d0); display: inline-flex;
  align-items: center; min-height: 44px; padding: 0 0.4em; }
.rl-party .rl-party-items { list-style: none; margin: 0.3em 0; padding: 0;
  display: flex; flex-direction: column; gap: 0.3em; }
.rl-party .rl-party-list > summary { cursor: pointer; font-weight: 600; padding: 0.15em 0; }
.rl-party .rl-party-file { position: absolute; width: 1px; height: 1px; opacity: 0;
  overflow: hidden; }
.rl-party .rl-party-import-label { display: inline-flex; align-items: center; cursor: pointer;
  border: none; background: var(--jp-layout-color2, #eeeeee);
  color: var(--jp-ui-font-color1, inherit); }
.rl-party .rl-party-file:focus-visible + .rl-party-import-label,
.rl-party .rl-party-import-label:focus-within { outline: 2px solid var(--rl-link, #0b57d0); }
.rl-party .rl-party-status:empty { display: none; }
.rl-party .rl-party-status { font-size: 0.95em; }
.rl-party .rl-party-ask { border: 2px solid var(--rl-warn-fg, #6b4200); border-radius: 4px;
  padding: 0.4em 0.6em; background: var(--rl-warn-bg, #fff4e5); color: var(--rl-warn-fg, #6b4200); }
.rl-party .rl-party-ask p { margin: 0 0 0.35em; overflow-wrap: anywhere; }
.rl-party .rl-party-question .rl-party-button { min-height: 44px; }
.rl-party .rl-party-diffs { margin: 0 0 0.4em; padding-left: 1.2em; overflow-wrap: anywhere; }
.rl-party .rl-party-ask-what { font-weight: 600; }
.rl-party .rl-party-warning, .rl-party .rl-party-offer { background: var(--rl-warn-bg, #fff4e5);
  color: var(--rl-warn-fg, #6b4200); padding: 0.25em 0.45em; border-radius: 3px; }
"""


class PartyBar(ModuleWidget):
    """The party controls of one calculator view (see the module's docstring)."""

    _esm = _ESM
    _css = _CSS
    roles = traitlets.List(traitlets.Dict()).tag(sync=True)
    """``[{"name", "title", "phrase", "kind"}]``: the roles a character fills."""
    characters = traitlets.List(traitlets.Dict()).tag(sync=True)
    """``[{"id", "name", "kind", "kind_label"}]``: the party, in order."""
    filled = traitlets.Dict().tag(sync=True)
    """``{role: {"id", "name", "edited"}}``: whose values a role holds."""
    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("info").tag(sync=True)
    storage = traitlets.Unicode("loading").tag(sync=True)
    """``"loading"``, ``"ready"``, ``"readonly"`` (shown, not saved: :attr:`note` says
    why) or ``"unavailable"`` (the browser keeps nothing: the party lasts the page)."""
    aside = traitlets.Int(0).tag(sync=True)
    """How many values the site's set-aside store holds (kept, downloadable)."""
    pending = traitlets.Dict().tag(sync=True)
    """An import waiting for the GM's choice: ``{"count", "names"}``."""
    offer = traitlets.Dict().tag(sync=True)
    """A link's character the GM may add: ``{"name", "kind_label"}``."""
    question = traitlets.Dict().tag(sync=True)
    """A fill that would overwrite what the GM typed: ``{"role", "name", "title",
    "fields": [{"name", "label", "mine", "theirs"}]}``, until he keeps his or takes the
    character's (:meth:`answer`)."""
    calculator = traitlets.Unicode("").tag(sync=True)
    target = traitlets.Unicode("").tag(sync=True)
    """Which scenario a fill sets (`` (scenario B)``; ``""``: no scenarios compared)."""

    def __init__(self, view: Any, **kwargs: Any) -> None:
        """The bar of ``view`` (a :class:`~ruleslab_widgets.view.CalculatorView`: not
        imported here, which it imports)."""
        super().__init__(**kwargs)
        self.view = view
        self.party = Party()
        self._roles = {r.name: r for r in party_roles(view)}
        self._snapshots: dict[str, dict[str, str]] = {}
        """A filled role's fields, as the character it was filled from has them."""
        self._typed: set[str] = set()
        """The form's fields of the roles the GM typed since they were last filled or saved."""
        self._pending: Party | None = None
        self._offered: Party | None = None
        self._store = RecordSync(COLLECTION, self._post)
        self._note = ""
        self._embedded = False
        self.calculator = view.calc.key
        self.roles = [
            {
                "name": r.name,
                "title": r.title,
                "phrase": _phrase(r.title),
                "kind": self._kind(r).key,
            }
            for r in self._roles.values()
        ]
        self.on_msg(self._receive)

    # -- page → Python ------------------------------------------------------------
    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """One request from the page: ``{"type": …, …}`` (unknown ones ignored)."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        text = content.get("text")
        handlers: dict[str, Any] = {
            "loaded": lambda: self.loaded(content),
            "written": lambda: self._store.written(content),
            "asking": self._asking,
            "fill": lambda: self.fill(str(content.get("role")), str(content.get("id"))),
            "keep_mine": lambda: self.answer(True),
            "use_theirs": lambda: self.answer(False),
            "save_new": lambda: self.save_new(str(content.get("role")), content.get("name")),
            "update": lambda: self.update(str(content.get("role"))),
            "rename": lambda: self.rename(str(content.get("id")), content.get("name")),
            "delete": lambda: self.delete(str(content.get("id"))),
            "import": lambda: self.import_text(text),
            "import_apply": lambda: self.import_apply(str(content.get("mode"))),
            "import_cancel": self.import_cancel,
            "export": self.export,
            "share": lambda: self.share(str(content.get("id"))),
            "shared": lambda: self.shared(text),  # a link's #character=…
            "add_shared": self.add_shared,
            "say": lambda: self._say(str(text)[:300], "warning"),
        }
        handler = handlers.get(str(kind))
        if handler is not None:
            handler()

    def _asking(self) -> None:
        """The page asks the reader to allow a write (a frame shown in a page of another
        origin): not saved until then."""
        if self._store.in_flight:
            self._say("Not saved yet: allow or refuse the change above.", "warning")

    def _say(self, message: str, kind: str = "info") -> None:
        self.message = message
        self.message_kind = kind

    def _post(self, content: dict[str, Any]) -> None:
        """A message to the page (store, set aside, download, link)."""
        self.send(content)

    # -- storage -------------------------------------------------------------------
    def loaded(self, content: Any) -> None:
        """The page's reading of the site's storage (:mod:`ruleslab_widgets.records`):
        every character record checked before use, the unreadable ones set aside and
        named; or, with ``mode`` ``"unavailable"``, why the browser keeps nothing (the
        party then lasts the page)."""
        if not isinstance(content, dict):
            return
        mode = content.get("mode")
        if mode == "embedded":
            self._embedded = True
            self.storage = "unavailable"
            self._say(
                "This calculator is embedded in another page: it neither reads nor saves "
                "your party (the site's own pages do; the embedding page can allow it).",
            )
            return
        if mode not in ("ready", "readonly"):
            if self.storage != "unavailable":
                why = str(content.get("error") or "no storage")[:160]
                self.storage = "unavailable"
                self._say(
                    "This browser does not let the page save the party (private browsing? "
                    f"the browser said: {why}): it lasts until the page is closed.",
                    "warning",
                )
            return
        if self._store.in_flight:
            return  # (read before this page's own write: the reading after it follows)
        live, bad, newer = self._store.loaded(content.get("records"))
        party = stored_party(live, bad)
        aside = content.get("aside")
        self.aside = aside if isinstance(aside, int) and not isinstance(aside, bool) else 0
        first = self.storage == "loading"
        self.storage = str(mode)
        note = str(content.get("note") or "")[:400]
        said: list[str] = []
        if note and note != self._note:
            said.append(note)
        self._note = note
        if newer and first:
            said.append(
                f"{newer} stored character{'s were' if newer > 1 else ' was'} saved by a newer "
                "version of the site: kept, not shown here (reload to get the newer site)."
            )
        self._set_party(party)
        legacy = content.get("legacy")
        if bad:
            said.append(self._set_aside(bad))
        if isinstance(legacy, dict) and mode == "ready":
            said.extend(self._migrate(legacy))
        elif isinstance(legacy, dict) and not live:  # (read-only: shown as it is)
            try:
                self._set_party(parse_party(legacy.get("text")))
            except InputError as exc:
                said.append(f"The party an earlier site saved could not be read ({exc.message}).")
        if said:
            self._say(" ".join(said), "warning")

    def _migrate(self, legacy: dict[str, Any]) -> list[str]:
        """What an earlier site kept (the whole party, one value): moved into records,
        one per character, in one write that also sets the old value aside."""
        try:
            if "found" in legacy or legacy.get("version") != STORE_VERSION:
                raise InputError("file", f"it holds {legacy.get('found') or 'another layout'!s}")
            old = parse_party(legacy.get("text"))
        except InputError as exc:
            self._post({"type": "set_aside", "ids": [None]})
            return [
                f"The party an earlier version of the site saved could not be read "
                f"({exc.message[:200]}). It was set aside, not deleted (IndexedDB “ruleslab”, "
                "store “set-aside”: “Download what was set aside” keeps a copy)."
            ]
        changes = {e.id: entry_json(e) for e in old if e.id not in self._store.records}

        def done(result: Written) -> None:
            if not result.ok and not result.conflicts:
                self._say(
                    f"The party could not be moved to this site's new storage ({result.error}).",
                    "warning",
                )

        what = "move the party an earlier version of the site saved into its new storage"
        self._store.write(changes, done, retire=True, what=what)
        return []

    def _set_aside(self, bad: list[Unreadable]) -> str:
        """Move ``bad`` records to the set-aside store (kept); the words that say so."""
        if self.storage == "ready":
            self._post({"type": "set_aside", "ids": [u.id for u in bad if u.id is not None]})
        details = "; ".join(f"“{(u.id or '?')[:40]}”: {u.found}" for u in bad[:3])
        more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
        where = (
            "They were set aside, not deleted (IndexedDB “ruleslab”, store “set-aside”: "
            "“Download what was set aside” keeps a copy)."
            if self.storage == "ready"
            else "They were left as they are."
        )
        n = len(bad)
        return (
            f"{n} stored character{'s' if n > 1 else ''} could not be read "
            f"({details}{more}). {where}"
        )

    def _set_party(self, party: Party) -> None:
        self.party = party
        self.characters = [
            {"id": e.id, "name": e.name, "kind": e.kind.key, "kind_label": e.kind.label}
            for e in party
        ]
        # a role filled from a character since deleted or renamed follows the party
        filled = {}
        for role, info in self.filled.items():
            try:
                entry = party.entry(id=info["id"])
            except KeyError:
                filled[role] = {**info, "gone": True}
            else:
                filled[role] = {**info, "name": entry.name}
        self.filled = filled

    def _save(self, party: Party, message: str, what: str) -> None:
        """Make ``party`` the party and store what changed, record by record, in one
        write; ``message`` is said once the write committed and was read back (a write
        that would overwrite another tab's newer change is refused, and said). ``what``:
        the change in words, asked of the reader first in a frame shown in a page of
        another origin ("Allow this calculator to save Kim as a new character?")."""
        if self.storage == "readonly":
            self._say(f"Not saved: {self._note or 'this page only reads the storage.'}", "warning")
            return
        before = {e.id: e for e in self.party}
        after = {e.id: entry_json(e) for e in party}
        changes: dict[str, str | None] = {
            i: t for i, t in after.items() if i not in before or entry_json(before[i]) != t
        }
        changes.update({i: None for i in before if i not in after})
        self._set_party(party)
        if self.storage != "ready":
            added = message.replace("Saved ", "Added ", 1)  # (nothing is saved)
            why = (
                "an embedded calculator saves nothing"
                if self._embedded
                else "this browser keeps nothing"
            )
            self._say(
                f"{added} For this page only: {why}, so it is gone once the page is closed.",
                "warning",
            )
            return
        if not changes:
            self._say(message)
            return
        self._say("Saving…")

        def done(result: Written) -> None:
            if result.ok:
                self._say(message)
                return
            if result.declined:
                self._say(
                    f"Not saved: you did not allow the page this calculator is shown in "
                    f"({result.declined}) to {what}. The party shows what is saved.",
                    "warning",
                )
                return
            if result.conflicts:
                gone = [before[i].name for i in result.deleted if i in before]
                changed = [
                    before[i].name
                    for i in result.conflicts
                    if i in before and i not in result.deleted
                ]
                parts = []
                if changed:
                    parts.append(f"{', '.join(changed)} changed in another tab meanwhile")
                if gone:
                    parts.append(f"{', '.join(gone)} deleted in another tab meanwhile")
                why = " and ".join(parts) or "another tab changed the party meanwhile"
                self._say(
                    f"Not saved: {why}. The party shows what is saved now; make the change "
                    "again if you still want it.",
                    "warning",
                )
                return
            self._say(
                f"Not saved: the browser refused the write ({result.error}). The party shows "
                "what is saved.",
                "warning",
            )

        self._store.write(changes, done, what=what)

    def _ready(self) -> bool:
        if self.storage == "loading":
            self._say("The party is still loading: try again in a moment.", "warning")
            return False
        return True

    # -- roles ---------------------------------------------------------------------
    def _role(self, name: str) -> Role:
        return self._roles[name]

    @staticmethod
    def _kind(role: Role) -> Any:
        """The party's kind of ``role``'s record (:class:`ruleslab.party.Kind`)."""
        kind = Party.kind_for(role.record)
        assert kind is not None  # (party_roles)
        return kind

    def fill(self, role_name: str, id: str) -> None:
        """Set role ``role_name``'s fields from character ``id``, as a link would. A field
        the GM typed (:meth:`field_changed`) that the fill would change is never
        overwritten silently: a default of the character's keeps what was typed (said), a
        value he entered is asked about (:attr:`question`: "Keep mine" or "Use Kim's")."""
        if role_name not in self._roles:
            return
        role = self._role(role_name)
        try:
            entry = self.party.entry(id=id)
        except KeyError:
            self._say("That character is no longer in the party.", "warning")
            return
        if not isinstance(entry.record, role.record):
            self._say(f"{entry.name} is {entry.kind.a}: {_phrase(role.title)} is not.", "warning")
            return
        theirs = self._character_values(role, entry.record)
        pairs, asked, kept = [], [], []
        for f in role.fields:
            flat = role.flat_name(f)
            if flat not in theirs:
                continue
            mine = form_text(self.view.inputs[flat].value)
            if flat in self._typed and mine != theirs[flat]:
                label = role.param(f).label
                if f in entry.entered:
                    asked.append(
                        {"name": flat, "label": label, "mine": mine, "theirs": theirs[flat]}
                    )
                else:
                    kept.append(label)
                continue
            pairs.append((flat, theirs[flat]))
        self.view.apply_query(pairs)
        self._typed -= {flat for flat, _ in pairs}
        self._snapshots[role_name] = theirs
        edited = self._form_values(role) != theirs
        self.filled = {
            **self.filled,
            role_name: {"id": entry.id, "name": entry.name, **({"edited": True} if edited else {})},
        }
        said = f"{role.title}{self.target}: {entry.name}'s values."
        if kept:
            said += (
                f" Kept what you typed in {', '.join(kept)} ({entry.name} has the default there)."
            )
        self.question = (
            {"role": role_name, "name": entry.name, "title": _phrase(role.title), "fields": asked}
            if asked
            else {}
        )
        if asked:
            labels = ", ".join(str(f["label"]) for f in asked)
            differ = "differs" if len(asked) == 1 else "differ"
            said += f" What you typed in {labels} {differ} from {entry.name}'s: keep it?"
        self._say(said)

    def answer(self, keep: bool) -> None:
        """The GM's answer to :attr:`question`: keep what he typed, or take the character's."""
        question, self.question = self.question, {}
        if not question or question.get("role") not in self._roles:
            return
        role = self._role(str(question["role"]))
        name = question["name"]
        labels = ", ".join(f["label"] for f in question["fields"])
        if keep:
            self._say(f"Kept your values in {labels}; the others are {name}'s.")
        else:
            pairs = [(f["name"], f["theirs"]) for f in question["fields"]]
            self.view.apply_query(pairs)
            self._typed -= {flat for flat, _ in pairs}
            self._say(f"{role.title}{self.target}: {name}'s values, {labels} included.")
        self._mark_edited(role.name)

    @staticmethod
    def _character_values(role: Role, rec: Any) -> dict[str, str]:
        """Record ``rec``'s values of ``role``'s fields in the form, as the form's text."""
        names = ((role.flat_name(f), f) for f in role.fields)
        return {n: form_text(getattr(rec, f)) for n, f in names}

    def scenario_changed(self, letter: str) -> None:
        """The form now shows scenario ``letter`` (``""``: no scenarios compared): a fill
        sets that scenario's role; whose values the roles held is forgotten (they were
        another scenario's)."""
        self.target = f" (scenario {letter})" if letter else ""
        self._snapshots = {}
        self._typed = set()
        self.question = {}
        self.filled = {}

    def _form_values(self, role: Role) -> dict[str, str]:
        """Role ``role``'s fields in the form and their values, as the form's text."""
        names = (role.flat_name(f) for f in role.fields)
        return {n: form_text(self.view.inputs[n].value) for n in names if n in self.view.inputs}

    def _typed_fields(self, role: Role) -> set[str]:
        """The fields of ``role`` the GM typed since they were last filled or saved."""
        return {f for f in role.fields if role.flat_name(f) in self._typed}

    def field_changed(self, name: str) -> None:
        """Field ``name`` changed by the GM: remembered as typed by him, and a filled
        role holding it is marked edited (or not, if every field is back to the
        character's value). Never writes back."""
        if any(name in r.flat_names for r in self._roles.values()):
            self._typed.add(name)
        for role_name, snapshot in self._snapshots.items():
            if name in snapshot:
                self._mark_edited(role_name)

    def _mark_edited(self, role_name: str) -> None:
        """Role ``role_name`` marked edited if its fields differ from the character's."""
        edited = self._form_values(self._role(role_name)) != self._snapshots.get(role_name)
        info = self.filled.get(role_name)
        if info is not None and bool(info.get("edited")) != edited:
            self.filled = {**self.filled, role_name: {**info, "edited": edited}}

    def _record(self, role: Role, base: Any) -> Any:
        """Role ``role``'s record from the form's values over ``base``, or None (said why)."""
        values, errors = self.view.parse()
        bad = [n for n in role.flat_names if n in errors]
        if bad:
            self._say(f"Fix {_phrase(role.title)}'s highlighted fields first.", "warning")
            return None
        try:
            return role.build(values, base)
        except InputError as exc:
            self._say(exc.message, "warning")
            return None

    def save_new(self, role_name: str, name: Any) -> None:
        """A new character called ``name`` with role ``role_name``'s values (his other
        fields: those of the character the role was filled from, else the defaults)."""
        if role_name not in self._roles or not self._ready():
            return
        role = self._role(role_name)
        try:
            name = Party.check_name(name, "The new character")
        except InputError as exc:
            self._say(exc.message, "warning")
            return
        if name.casefold() in {n.casefold() for n in self.party.names}:
            self._say(f"There is already a character called “{name}”: choose another name.")
            self.message_kind = "warning"
            return
        info = self.filled.get(role_name)
        kind = self._kind(role)
        base = kind.make(name, {})
        entered = self._typed_fields(role)
        if info and not info.get("gone"):
            source = self.party.entry(id=info["id"])
            base, entered = source.record, entered | source.entered
        rec = self._record(role, base)
        if rec is None:
            return
        try:
            party = self.party.add(name, rec, entered=entered)
        except InputError as exc:
            self._say(exc.message, "warning")
            return
        entry = party.entries[-1]
        self._saved(role)
        self.filled = {**self.filled, role_name: {"id": entry.id, "name": entry.name}}
        self._save(
            party,
            f"Saved {entry.name} ({entry.kind.label}) in the party.",
            f"save {entry.name} as a new character of your party",
        )

    def update(self, role_name: str) -> None:
        """Write role ``role_name``'s values into the character it was filled from."""
        if role_name not in self._roles or not self._ready():
            return
        role = self._role(role_name)
        info = self.filled.get(role_name)
        if not info or info.get("gone"):
            self._say("This role was not filled from a character of the party.", "warning")
            return
        entry = self.party.entry(id=info["id"])
        rec = self._record(role, entry.record)
        if rec is None:
            return
        party = self.party.update(entry.id, rec, typed=self._typed_fields(role))
        self._saved(role)
        self.filled = {**self.filled, role_name: {"id": entry.id, "name": entry.name}}
        self._save(
            party,
            f"Updated {entry.name} with {_phrase(role.title)}'s values.",
            f"change {entry.name} in your party to {_phrase(role.title)}'s values",
        )

    def _saved(self, role: Role) -> None:
        """Role ``role``'s values are now a character's: what was typed is his."""
        self._snapshots[role.name] = self._form_values(role)
        self._typed -= set(role.flat_names)
        if self.question.get("role") == role.name:
            self.question = {}

    # -- the list ------------------------------------------------------------------
    def rename(self, id: str, name: Any) -> None:
        """Call character ``id`` ``name``."""
        if not self._ready():
            return
        try:
            old = self.party.entry(id=id)
            name = Party.check_name(name, "The character")
            party = self.party.rename(id, name)
        except KeyError:
            self._say("That character is no longer in the party.", "warning")
            return
        except InputError as exc:
            self._say(exc.message, "warning")
            return
        self._save(party, f"Renamed {old.name} to {name}.", f"rename {old.name} to {name}")

    def delete(self, id: str) -> None:
        """Remove character ``id`` (the page asked the GM to confirm)."""
        if not self._ready():
            return
        try:
            old = self.party.entry(id=id)
        except KeyError:
            return
        self._save(
            self.party.remove(id),
            f"Deleted {old.name} from the party.",
            f"delete {old.name} from your party",
        )

    def export(self) -> None:
        """Ask the page to download the party file."""
        self._post(
            {"type": "download", "text": party_json(self.party), "filename": "ruleslab-party.json"}
        )
        self._say(f"Exported {len(self.party)} characters to ruleslab-party.json.")

    def import_text(self, text: Any) -> None:
        """A party file's text, checked; if good, wait for the GM's "add" or "replace"."""
        self._pending = None
        self.pending = {}
        try:
            party = parse_party(text)
        except InputError as exc:
            self._say(
                f"This file cannot be imported: {exc.message} Nothing was changed.", "warning"
            )
            return
        self._pending = party
        self.pending = {"count": len(party), "names": list(party.names)}
        self._say("")

    def import_apply(self, mode: str) -> None:
        """Add the pending import's characters to the party, or replace the party by them."""
        if self._pending is None or mode not in ("add", "replace") or not self._ready():
            return
        imported = self._pending
        try:
            party = imported if mode == "replace" else self.party.merged(imported)
        except InputError as exc:
            self._say(f"{exc.message} Nothing was changed.", "warning")
            return
        self._pending = None
        self.pending = {}
        done = "Replaced the party by" if mode == "replace" else "Added"
        asked = "replace your party by" if mode == "replace" else "add to your party"
        self._save(
            party,
            f"{done} {len(imported)} imported characters.",
            f"{asked} {len(imported)} imported characters",
        )

    def import_cancel(self) -> None:
        self._pending = None
        self.pending = {}
        self._say("Import cancelled: nothing was changed.")

    # -- links ---------------------------------------------------------------------
    def share(self, id: str) -> None:
        """Ask the page to show a link to this calculator carrying character ``id`` (in the
        fragment, ``app.html?calculator=<key>#character=<base64url JSON>``: the page reads it,
        no server ever sees it, and the form's link names stay the form's)."""
        try:
            value = self.party.link(id)
        except KeyError:
            return
        self._post(
            {
                "type": "link",
                "id": id,
                "query": f"calculator={self.view.calc.key}",
                "fragment": f"character={value}",
            }
        )

    def shared(self, value: Any) -> None:
        """A link's ``character`` value: checked, then offered ("Add <name> to the party")."""
        try:
            offered = Party.from_link(value)
        except InputError as exc:
            self._offered = None
            self.offer = {}
            self._say(f"{exc.message} It was not added to the party.", "warning")
            return
        self._offered = offered
        entry = offered.entries[0]
        self.offer = {"name": entry.name, "kind_label": entry.kind.label}
        if self.message.startswith(("This link's character", "This link")):
            self._say("")  # (an earlier link's error: this one is good)

    def add_shared(self) -> None:
        """Add the character the link carries to the party (under a free name)."""
        if self._offered is None or not self._ready():
            return
        try:
            party = self.party.merged(self._offered)
        except InputError as exc:
            self._say(exc.message, "warning")
            return
        self._offered = None
        self.offer = {}
        name = party.entries[-1].name
        self._save(party, f"Added {name} to the party.", f"add {name} to your party")
