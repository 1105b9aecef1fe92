/**
 * The app page's front end: draws the calculator that Python (worker.mjs) builds.
 *
 * app.html starts the worker at once and queues its messages in
 * `window.ruleslab.queue` while this bundle loads; from then on every message
 * goes through one promise chain, so comm opens, updates and the display are
 * handled strictly in order (a parent's state names its children, which were
 * opened before it).
 *
 * A minimal widget manager over `@jupyter-widgets/base-manager`: the ipywidgets 8
 * controls and anywidget's front end are bundled in (nothing is loaded from
 * a CDN); comms are objects that post to the worker. Each message a model sends
 * is acknowledged by the worker with {type: "idle", msg_id}, which is fed to the
 * model's status callback as a kernel's "idle" status would be.
 */
import { takeAnywidgetFactory } from "./amd-shim.js";
import "anywidget";
import * as base from "@jupyter-widgets/base";
import { ManagerBase } from "@jupyter-widgets/base-manager";
import * as controls from "@jupyter-widgets/controls";
import { Widget } from "@lumino/widgets";
import "@lumino/widgets/style/index.css";
import "ruleslab-icons"; // the widgets' few icons, without Font Awesome's font (tools/build_app.py)
import "@jupyter-widgets/controls/css/widgets-base.css";
import "@jupyter-widgets/controls/css/labvariables.css";
import "./theme.css"; // the controls' dark theme (after labvariables.css, which it overrides)

const anywidget = takeAnywidgetFactory()(base);
const R = window.ruleslab;
let counter = 0;
/** The longest the rest of a calculator waits for the page to be idle (fillLater). */
const FILL_WITHIN_MS = 4000;
const statusCallbacks = new Map();

/** Send `message` to Python with a new msg_id (its id); `whenHandled`, if any, is called
 * with the worker's {content: {execution_state: "idle"}} once Python has handled it. */
function toPython(message, whenHandled) {
  const msgId = `page-${++counter}`;
  if (whenHandled) statusCallbacks.set(msgId, whenHandled);
  R.worker.postMessage({ ...message, msg_id: msgId });
  return msgId;
}

/** Copy buffers: the worker gets its own bytes (nothing is transferred away from a model). */
function copyBuffers(buffers) {
  return (buffers || []).map((b) =>
    ArrayBuffer.isView(b)
      ? new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
      : new Uint8Array(b.slice(0)),
  );
}

class WorkerComm {
  constructor(commId, targetName) {
    this.comm_id = commId;
    this.target_name = targetName;
    this.onMsg = null;
    this.onClose = null;
  }

  open() {
    throw new Error("the app page does not open comms from the front end");
  }

  send(data, callbacks, metadata, buffers) {
    const status = callbacks && callbacks.iopub && callbacks.iopub.status;
    return toPython(
      {
        type: "comm_msg",
        comm_id: this.comm_id,
        data,
        metadata: metadata || {},
        buffers: copyBuffers(buffers),
      },
      status,
    );
  }

  close(data) {
    return toPython({ type: "comm_close", comm_id: this.comm_id, data });
  }

  on_msg(callback) {
    this.onMsg = callback;
  }

  on_close(callback) {
    this.onClose = callback;
  }
}

class PageManager extends ManagerBase {
  async loadClass(className, moduleName) {
    let module;
    if (moduleName === "@jupyter-widgets/base") module = base;
    else if (moduleName === "@jupyter-widgets/controls") module = controls;
    else if (moduleName === "anywidget") module = anywidget;
    else throw new Error(`widget module ${moduleName} is not part of the app page`);
    if (!module[className]) throw new Error(`class ${className} not found in ${moduleName}`);
    return module[className];
  }

  async _create_comm() {
    throw new Error("the app page does not create comms from the front end");
  }

  async _get_comm_info() {
    return {};
  }

  async display_view(view, el) {
    Widget.attach(view.luminoWidget, el);
  }
}

const manager = new PageManager();
const comms = new Map();

function message(content, raw) {
  return { content, metadata: raw.metadata || {}, buffers: raw.buffers || [], parent_header: {} };
}

async function handle(raw) {
  switch (raw.type) {
    case "comm_open": {
      const comm = new WorkerComm(raw.comm_id, raw.target_name);
      comms.set(raw.comm_id, comm);
      const msg = message({ comm_id: raw.comm_id, target_name: raw.target_name, data: raw.data }, raw);
      await manager.handle_comm_open(comm, msg);
      return;
    }
    case "comm_msg": {
      const comm = comms.get(raw.comm_id);
      if (comm && comm.onMsg) await comm.onMsg(message({ comm_id: raw.comm_id, data: raw.data }, raw));
      return;
    }
    case "comm_close": {
      const comm = comms.get(raw.comm_id);
      comms.delete(raw.comm_id);
      if (comm && comm.onClose) await comm.onClose(message({ comm_id: raw.comm_id, data: raw.data }, raw));
      return;
    }
    case "idle": {
      const status = statusCallbacks.get(raw.msg_id);
      statusCallbacks.delete(raw.msg_id);
      if (status) status({ content: { execution_state: "idle" }, parent_header: { msg_id: raw.msg_id } });
      return;
    }
    case "display": {
      const model = await manager.get_model(raw.model_id);
      const view = await manager.create_view(model);
      const main = document.getElementById("calculator");
      R.live = true; // (app.html's static calculator is not drawn from now on)
      const shown = main.querySelector(":scope > .rl-prerender");
      if (!shown) {
        await manager.display_view(view, main);
        R.shown();
        fillLater(raw.model_id);
        return;
      }
      await hydrate(view, main, shown, raw.model_id);
      return;
    }
    default: // (progress and errors never come here: app.html's own handler takes them)
      console.warn("ruleslab: unknown message from Python", raw.type);
  }
}

/* The rest of the calculator: a closed fold's rows ("Rules options", "Across a range")
 * are not in the build Python sends (ruleslab_widgets.fold.FoldRegion); once the
 * calculator is drawn and the page is idle (or about to print), they are asked for,
 * drawn hidden, so they are there to print and open at once. R.filled: they are. */
function fillLater(modelId) {
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    window.removeEventListener("beforeprint", ask);
    toPython({ type: "fill", model_id: modelId }, () => {
      R.filled = true;
    });
  };
  window.addEventListener("beforeprint", ask);
  if (typeof window.requestIdleCallback === "function") {
    window.requestIdleCallback(ask, { timeout: FILL_WITHIN_MS });
  } else {
    setTimeout(ask, FILL_WITHIN_MS / 4);
  }
}

/* Hydration: the live calculator takes the static one's place (docs/app-page.md,
 * "Pre-rendered"). It is drawn hidden over the static one (the same box); what the
 * reader typed into the static form is applied through the form's own path (an
 * "apply" message: CalculatorView.apply_query); once Python has answered and the live
 * calculator's height has settled, the static one is removed and the live one shown
 * in its place: the same layout, so nothing moves; the focus and caret move across. */
function typedFields(root) {
  const pairs = [];
  root.querySelectorAll("[data-rl-field]").forEach((f) => {
    const value = f.type === "checkbox" ? String(f.checked) : f.value;
    if (value === f.dataset.rlShown) return;
    f.dataset.rlShown = value; // (sent once)
    pairs.push([f.dataset.rlField, f.type === "checkbox" ? (f.checked ? "yes" : "no") : f.value]);
  });
  return pairs;
}

function tick() {
  // (a timer, not an animation frame: frames stop in a background tab or a hidden frame)
  return new Promise((resolve) => setTimeout(resolve, 20));
}

async function settled(el) {
  // the widgets draw their children a moment after the root: wait until the height holds
  let last = -1;
  let still = 0;
  for (let i = 0; i < 100 && still < 3; i++) {
    await tick();
    const h = el.getBoundingClientRect().height;
    still = h > 0 && h === last ? still + 1 : 0;
    last = h;
  }
}

function applyTyped(staticRoot, modelId) {
  // resolves once Python has handled the typed values (its updates are handled before)
  const pairs = typedFields(staticRoot);
  if (!pairs.length) return null;
  return new Promise((resolve) => {
    const query = new URLSearchParams(pairs).toString();
    toPython({ type: "apply", model_id: modelId, query }, resolve);
  });
}

async function hydrate(view, main, staticRoot, modelId) {
  const holder = document.createElement("div");
  holder.className = "rl-live";
  // over the static calculator, in the same box, unseen
  holder.style.cssText = "position: absolute; inset: 0 0 auto 0; padding: inherit; visibility: hidden;";
  main.style.position = "relative";
  main.appendChild(holder);
  await manager.display_view(view, holder);
  const swap = async () => {
    const more = applyTyped(staticRoot, modelId); // typed while Python was answering
    if (more) {
      more.then(swap);
      return;
    }
    await settled(holder);
    const late = applyTyped(staticRoot, modelId); // typed while the live one was drawn
    if (late) {
      late.then(swap);
      return;
    }
    const active = document.activeElement;
    const focus = active && staticRoot.contains(active) ? active : null;
    const x = window.scrollX;
    const y = window.scrollY;
    staticRoot.remove();
    holder.style.cssText = "";
    main.style.position = "";
    window.scrollTo(x, y);
    if (focus && focus.dataset.rlField) {
      const name = focus.dataset.rlField;
      const live = holder.querySelector(
        `.rl-field-${name} input, .rl-field-${name} select, .rl-field-${name} textarea`,
      );
      if (live) {
        live.focus({ preventScroll: true });
        if (typeof focus.selectionStart === "number" && typeof live.setSelectionRange === "function") {
          try {
            live.setSelectionRange(focus.selectionStart, focus.selectionEnd);
          } catch (err) {
            // (a field type without a caret)
          }
        }
      }
    } else if (focus && focus.closest(".rl-fold-heading")) {
      const title = focus.textContent;
      const live = Array.from(holder.querySelectorAll(".rl-fold-button")).find(
        (b) => b.textContent === title,
      );
      if (live) live.focus({ preventScroll: true });
    }
    R.shown();
    fillLater(modelId);
  };
  const typed = applyTyped(staticRoot, modelId);
  if (typed) typed.then(swap);
  else swap();
}

/* In a frame (an embed): tell the host page which Python this page runs on, now that
 * this bundle is loaded (docs/app-page.md, "In a frame"). On the shared one, embed.js
 * starts the other embeds in view at once: they find Python starting and this bundle
 * in the browser's caches, compiled. */
if (window.parent !== window && R.mode) {
  const id = new URLSearchParams(window.location.search).get("embed") || "";
  window.parent.postMessage({ type: "ruleslab:runtime", id, mode: R.mode }, "*");
}

let chain = Promise.resolve();
if (R.worker) {
  // (no worker: app.html found no such calculator)
  R.onmessage = (raw) => {
    chain = chain.then(() => handle(raw)).catch((err) => {
      console.error("ruleslab: could not handle a message from Python", raw.type, err);
    });
  };
  for (const raw of R.queue.splice(0)) R.onmessage(raw);
}
