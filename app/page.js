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
import "@fortawesome/fontawesome-free/css/all.min.css";
import "@jupyter-widgets/controls/css/widgets-base.css";
import "@jupyter-widgets/controls/css/labvariables.css";
import "./theme.css"; // the controls' dark theme (after labvariables.css, which it overrides)

const anywidget = takeAnywidgetFactory()(base);
const R = window.ruleslab;
let counter = 0;
const statusCallbacks = new Map();

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
    const msgId = `page-${++counter}`;
    const status = callbacks && callbacks.iopub && callbacks.iopub.status;
    if (status) statusCallbacks.set(msgId, status);
    R.worker.postMessage({
      type: "comm_msg",
      comm_id: this.comm_id,
      msg_id: msgId,
      data,
      metadata: metadata || {},
      buffers: copyBuffers(buffers),
    });
    return msgId;
  }

  close(data) {
    const msgId = `page-${++counter}`;
    R.worker.postMessage({ type: "comm_close", comm_id: this.comm_id, msg_id: msgId, data });
    return msgId;
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
      await manager.display_view(view, document.getElementById("calculator"));
      R.shown();
      return;
    }
    default: // (progress and errors never come here: app.html's own handler takes them)
      console.warn("ruleslab: unknown message from Python", raw.type);
  }
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
