"""What the character sheet page shows: its script (the fields of one saved character in
groups, each said entered or default, edited, checked and saved; rename, undo; the party's
other sheets) and its styles. Every text is set with ``textContent`` or an input's
``value``, never as HTML; every check is Python's (:mod:`ruleslab_widgets.sheet_page`).
"""

from __future__ import annotations

from ruleslab_widgets.module_widget import NODE_JS
from ruleslab_widgets.records import RECORD_PAGE_JS, RECORDS_JS
from ruleslab_widgets.sheet_record import UNDO_COLLECTION

__all__ = ["CSS", "ESM"]

ESM = (
    RECORDS_JS
    + RECORD_PAGE_JS
    + NODE_JS
    + r"""
const COLLECTION = "party", UNDO = "@UNDO@";
let sharedStore = null;
function sheetAddress(id) {
  const url = new URL(window.location.href);
  const q = new URLSearchParams();
  q.set("calculator", "sheet");
  if (id) q.set("id", id);
  const theme = url.searchParams.get("theme");
  if (theme) q.set("theme", theme);
  return url.pathname + "?" + q.toString();
}
function render({ model, el }) {
  if (!sharedStore) sharedStore = recordStore();
  const store = sharedStore;
  const send = (msg) => model.send(msg);
  // what the GM typed and has not saved, by character and field (kept across redraws,
  // another tab's change and a refused write); sent: what the last "Save" sent
  const ui = { edits: {}, sent: {}, renaming: false, renameText: "" };
  // the party, and the characters' last changes saved on their sheets (Undo after a reload)
  const records = recordPage(store, COLLECTION, send,
    async () => ({ undo: (await store.readAll(UNDO)).records }), [UNDO]);
  const load = records.load;
  const onMsg = onMessages({ ...records.messages, saved: (msg) => {
    const mine = ui.edits[msg.id] || {}, sent = ui.sent[msg.id] || {};
    for (const [k, v] of Object.entries(sent)) if (mine[k] === v) delete mine[k];
    delete ui.sent[msg.id];
    draw();
  } });
  model.on("msg:custom", onMsg);
  const root = node("div", { class: "rl-sheet" });
  el.replaceChildren(root);
  const btn = buttonOf("rl-sh-btn");

  function fieldRow(c, f, errors) {
    const edits = ui.edits[c.id] || (ui.edits[c.id] = {});
    const id = `rl-sh-${f.name}`;
    const typed = Object.prototype.hasOwnProperty.call(edits, f.name);
    const value = typed ? edits[f.name] : f.value;
    const error = errors[f.name];
    const state = typed ? "edited, not saved" : f.entered ? "entered" : "default";
    const tag = node("span", { class: "rl-sh-tag rl-sh-" + state.split(",")[0], text: state });
    const words = f.label + (f.unit ? ` (${f.unit})` : "");
    const label = node("label", { for: id, class: "rl-sh-label" },
                       [node("span", { text: words }), " ", tag]);
    const described = [`${id}-help`];
    if (error) described.unshift(`${id}-error`);
    const common = { id, class: "rl-sh-input", "aria-describedby": described.join(" "),
                     "aria-invalid": error ? "true" : "false" };
    const edited = (v) => {
      edits[f.name] = v;
      tag.textContent = "edited, not saved";
      tag.className = "rl-sh-tag rl-sh-edited";
      saveButton();
    };
    let input;
    if (f.type === "bool") {
      input = node("input", { ...common, type: "checkbox", checked: Boolean(value),
        onchange: (e) => { edited(e.target.checked); send({ type: "check", field: f.name,
                                                           text: e.target.checked }); } });
    } else if (f.type === "choice") {
      input = node("select", { ...common, onchange: (e) => {
        edited(e.target.value); send({ type: "check", field: f.name, text: e.target.value }); } });
      for (const [v, t] of f.choices) input.append(node("option", { value: v, text: t }));
      input.value = value;
    } else {
      input = node("input", { ...common, type: "text", autocomplete: "off",
        inputmode: f.type === "number" ? "decimal" : "text",
        oninput: (e) => edited(e.target.value),
        onchange: (e) => send({ type: "check", field: f.name, text: e.target.value }),
        onkeydown: (e) => { if (e.key === "Enter") save(); } });
      input.value = value;
    }
    // (a choice's values are its menu's: not said again)
    const range = f.range && f.type !== "choice" ? f.range[0].toUpperCase() + f.range.slice(1) +
      (f.unit ? ` ${f.unit}` : "") : "";
    const help = [range, f.help].filter(Boolean).join(". ").replace(/\.\./g, ".");
    const parts = [label, node("div", { class: "rl-sh-control" }, [input,
      f.entered && !typed ? btn("Use the default", () => send({ type: "default", field: f.name }),
        { class: "rl-sh-btn rl-sh-reset",
          "aria-label": `Use the default for ${f.label} (${f.default})` }) : null]),
      error ? node("p", { id: `${id}-error`, class: "rl-sh-error", text: error }) : null,
      node("p", { id: `${id}-help`, class: "rl-sh-help",
                  text: (f.entered || typed ? `Default: ${f.default}. ` : "") + help })];
    return node("div", { class: "rl-sh-field" + (error ? " rl-sh-bad" : "") +
                         (f.entered ? " rl-sh-is-entered" : "") }, parts);
  }
  let saveEl = null;
  function saveButton() {
    if (!saveEl) return;
    const c = model.get("sheet").character;
    const n = c ? Object.keys(ui.edits[c.id] || {}).length : 0;
    saveEl.disabled = n === 0;
    saveEl.textContent = n ? `Save ${n} change${n === 1 ? "" : "s"}` : "Save";
  }
  function save() {
    const c = model.get("sheet").character;
    if (!c) return;
    const values = { ...(ui.edits[c.id] || {}) };
    ui.sent[c.id] = values;
    send({ type: "save", values });
  }
  function chooser(s) {
    const list = s.characters.filter((c) => !s.character || c.id !== s.character.id);
    if (!list.length) return null;
    return node("nav", { class: "rl-sh-others", "aria-label": "Other characters' sheets" }, [
      node("span", { text: s.character ? "Other sheets:" : "The party's characters:" }),
      node("ul", {}, list.map((c) => node("li", {}, [
        node("a", { href: sheetAddress(c.id), text: c.name }),
        node("span", { class: "rl-sh-kind", text: `(${c.kind_label})` })])))]);
  }
  function head(c) {
    if (ui.renaming) {
      const input = node("input", { id: "rl-sh-rename", type: "text", maxlength: "60",
        class: "rl-sh-input", value: ui.renameText,
        oninput: (e) => { ui.renameText = e.target.value; },
        onkeydown: (e) => {
          if (e.key === "Enter") ok();
          if (e.key === "Escape") { ui.renaming = false; draw(); }
        } });
      const ok = () => { ui.renaming = false; send({ type: "rename", name: input.value }); };
      setTimeout(() => { if (input.isConnected && document.activeElement !== input) {
        input.focus(); } }, 0);
      return node("div", { class: "rl-sh-head" }, [
        node("label", { for: "rl-sh-rename", text: `New name for ${c.name}` }), input,
        btn("Rename", ok), btn("Cancel", () => { ui.renaming = false; draw(); })]);
    }
    return node("div", { class: "rl-sh-head" }, [
      node("h3", { class: "rl-sh-name", text: c.name }),
      node("span", { class: "rl-sh-kind", text: c.kind_label }),
      btn("Rename", () => { ui.renaming = true; ui.renameText = c.name; draw(); },
          { "aria-label": `Rename ${c.name}` })]);
  }
  function draw() {
    const s = model.get("sheet");
    const focused = document.activeElement;
    const keepId = root.contains(focused) ? focused.id : "";
    const caret = keepId && typeof focused.selectionStart === "number"
      ? [focused.selectionStart, focused.selectionEnd] : null;
    const parts = [];
    const c = s.character;
    const status = node("p", { class: "rl-sh-status rl-sh-" + s.message_kind, role: "status",
                               text: s.storage === "loading" ? "Loading the party…" : s.message });
    if (!c) {
      parts.push(node("p", { class: "rl-sh-note", text: s.storage === "loading" ? "" :
        s.ident ? "This character is not in the party (deleted, or saved in another " +
          "browser). Choose one below." :
        s.characters.length ? "Choose a character to see his sheet." :
          "The party has no characters yet: save one from a calculator's party bar " +
          "(“Save as new character…”)." }));
      parts.push(status);
      const others = chooser(s);
      if (others) parts.push(others);
    } else {
      parts.push(head(c));
      parts.push(node("p", { class: "rl-sh-note", text: `${c.entered} of ${c.fields} ` +
        "fields entered; the others are the defaults, marked “default”." }));
      for (const g of c.groups) {
        parts.push(node("fieldset", { class: "rl-sh-group" }, [
          node("legend", { text: g.title }),
          ...g.fields.map((f) => fieldRow(c, f, s.errors))]));
      }
      saveEl = btn("Save", save, { class: "rl-sh-btn rl-sh-save" });
      parts.push(node("div", { class: "rl-sh-actions" }, [saveEl,
        btn(s.undo ? `Undo: ${s.undo}` : "Undo", () => send({ type: "undo" }),
            { disabled: !s.undo, class: "rl-sh-btn rl-sh-undo" }), status]));
      const others = chooser(s);
      if (others) parts.push(others);
    }
    root.replaceChildren(...parts);
    saveButton();
    const again = keepId ? document.getElementById(keepId) : null;
    if (again && root.contains(again)) {
      again.focus();
      if (caret && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(caret[0], caret[1]); } catch (err) {}
      }
    }
  }
  model.on("change:sheet", draw);
  const offChange = store.onChange((collection) => {
    if (collection === null || collection === COLLECTION || collection === UNDO) load();
  });
  const onFocus = () => load();
  window.addEventListener("focus", onFocus);
  draw();
  load();
  return () => {
    model.off("msg:custom", onMsg);
    model.off("change:sheet", draw);
    offChange();
    window.removeEventListener("focus", onFocus);
  };
}
export default { render };
"""
).replace("@UNDO@", UNDO_COLLECTION)

CSS = """
.rl-sheet { display: flex; flex-direction: column; gap: 0.6em; max-width: 60em;
  color: var(--rl-fg, inherit); font-size: 15px; }
.rl-sheet .rl-sh-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; }
.rl-sheet .rl-sh-name { margin: 0; font-size: 1.3em; overflow-wrap: anywhere; }
.rl-sheet .rl-sh-kind, .rl-sheet .rl-sh-note, .rl-sheet .rl-sh-help {
  color: var(--rl-muted, #474747); }
.rl-sheet .rl-sh-note, .rl-sheet .rl-sh-status { margin: 0; }
.rl-sheet .rl-sh-help { margin: 0.1em 0 0; font-size: 0.85em; }
.rl-sheet .rl-sh-btn, .rl-sheet .rl-sh-input { min-height: 44px; box-sizing: border-box;
  font: inherit; color: var(--rl-fg, inherit); background: var(--rl-bg, transparent);
  border: 1px solid var(--rl-border, #9e9e9e); border-radius: 6px; }
.rl-sheet .rl-sh-btn { padding: 0 0.9em; cursor: pointer; font-weight: 600; }
.rl-sheet .rl-sh-btn:disabled { opacity: 0.55; cursor: default; }
.rl-sheet .rl-sh-save { background: var(--rl-link, #0b57d0); color: var(--rl-hatch, #fff);
  border-color: transparent; }
.rl-sheet .rl-sh-reset { font-weight: 400; font-size: 0.9em; }
.rl-sheet .rl-sh-input { padding: 0.2em 0.5em; font-size: 16px; width: 9em;
  max-width: 100%; }
.rl-sheet input[type=checkbox].rl-sh-input { width: 28px; }
.rl-sheet select.rl-sh-input { width: auto; max-width: 100%; }
.rl-sheet .rl-sh-group { border: 1px solid var(--rl-border, #c4c4c4); border-radius: 8px;
  margin: 0; padding: 0.4em 0.8em 0.7em; display: grid; gap: 0.7em 1.4em;
  grid-template-columns: repeat(auto-fill, minmax(16em, 1fr)); min-width: 0; }
.rl-sheet .rl-sh-group legend { font-weight: 700; padding: 0 0.3em; }
.rl-sheet .rl-sh-field { display: flex; flex-direction: column; gap: 0.2em; min-width: 0;
  padding-left: 0.5em; border-left: 4px solid transparent; }
.rl-sheet .rl-sh-is-entered { border-left-color: var(--rl-link, #0b57d0); }
.rl-sheet .rl-sh-label { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4em;
  font-weight: 600; }
.rl-sheet .rl-sh-control { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em; }
.rl-sheet .rl-sh-tag { font-size: 0.78em; font-weight: 600; border-radius: 999px;
  padding: 0.05em 0.6em; border: 1px solid currentColor; }
.rl-sheet .rl-sh-entered { color: var(--rl-link, #0b57d0); }
.rl-sheet .rl-sh-default { color: var(--rl-muted, #474747); font-weight: 400;
  font-style: italic; border-style: dashed; }
.rl-sheet .rl-sh-edited { color: var(--rl-warn-fg, #6b4200);
  background: var(--rl-warn-bg, #fff4d6); }
.rl-sheet .rl-sh-error { margin: 0; color: var(--rl-error, #b00020); font-weight: 600; }
.rl-sheet .rl-sh-bad .rl-sh-input { border: 2px solid var(--rl-error, #b00020); }
.rl-sheet .rl-sh-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em;
  position: sticky; bottom: 0; z-index: 2; padding: 0.4em 0;
  background: var(--rl-page-bg, var(--jp-layout-color0, #fff));
  border-top: 1px solid var(--rl-border, #c4c4c4); }
.rl-sheet .rl-sh-actions .rl-sh-status { flex: 1 1 16em; }
.rl-sheet .rl-sh-status:empty { display: none; }
.rl-sheet .rl-sh-status { padding: 0.3em 0.6em; border-left: 3px solid
  var(--rl-border, #c4c4c4); }
.rl-sheet .rl-sh-warning { background: var(--rl-warn-bg, #fff4d6);
  color: var(--rl-warn-fg, #6b4200); border-left-color: var(--rl-warn-fg, #6b4200); }
.rl-sheet .rl-sh-others ul { margin: 0.3em 0; padding-left: 1.2em; }
.rl-sheet .rl-sh-others li { min-height: 44px; display: flex; align-items: center;
  flex-wrap: wrap; gap: 0.35em; }
.rl-sheet .rl-sh-others a { color: var(--rl-link, #0b57d0); display: inline-flex;
  align-items: center; min-height: 44px; }
"""
