/**
 * The app page's Python: Pyodide in a module Web Worker, running one calculator.
 *
 * Started by app.html as `static/app/worker.mjs?calculator=<key>`, which then
 * posts {type: "query", query}: the page's query string (a shared link's inputs,
 * kept out of the worker's URL so that the script's URL does not change with
 * them). It loads
 * Pyodide from the site's own distribution (`static/pyodide/`, bytecode
 * compiled at build time; the standard library cut down to what the app uses,
 * the rest fetched on demand) with the calculator's packages preloaded through the
 * app page's lock (no IPython: a stand-in provides the few names the widget
 * stack imports), then runs `ruleslab_widgets.app_page`: the calculator's
 * widgets send their comm messages here, and they are posted to the page unchanged.
 *
 * To the page: {type: "progress", phase}, the comm messages, {type: "display",
 * model_id}, {type: "idle", msg_id} after each message from the page is
 * handled, {type: "error", text} if Python cannot start.
 * From the page: {type: "comm_msg" | "comm_close", comm_id, msg_id, data, buffers}.
 * Messages that arrive before Python is ready are queued and handled in order.
 */
import { loadPyodide } from "../pyodide/pyodide.mjs";

const params = new URL(self.location.href).searchParams;
const key = params.get("calculator") || "";
const queue = [];
let handle = null;
let gotQuery;
const pageQuery = new Promise((resolve) => {
  gotQuery = resolve;
});

self.onmessage = (event) => {
  const message = event.data;
  if (message && message.type === "query") gotQuery(String(message.query || ""));
  else if (handle) handle(message);
  else queue.push(message);
};

const post = (message) => self.postMessage(message);

async function main() {
  post({ type: "progress", phase: "python" });
  const indexURL = new URL("../pyodide/", import.meta.url).href;
  const pyodide = await loadPyodide({
    indexURL,
    // the site's lock cut down to what the app page runs (no IPython: see
    // ruleslab_widgets/ipython_standin.py); written by tools/build_app.py
    lockFileURL: indexURL + "app-lock.json",
    // the part of the standard library the app page uses (tools/build_app.py); the
    // rest is fetched only if ever imported (ruleslab_widgets/app_stdlib.py)
    stdLibURL: indexURL + "app_stdlib.zip",
    // fetched while the interpreter starts; their dependencies come from the lock
    packages: ["ruleslab"],
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  post({ type: "progress", phase: "calculator" });
  pyodide.pyimport("ruleslab_widgets.app_stdlib").install(indexURL + "python_stdlib.zip");
  pyodide.pyimport("ruleslab_widgets.ipython_standin").install();
  const app = pyodide.pyimport("ruleslab_widgets.app_page");
  app.install(app.pyodide_sender(post));
  app.start(key, await pageQuery);
  handle = (message) => {
    try {
      const py = pyodide.toPy(message);
      try {
        app.receive(py);
      } finally {
        py.destroy();
      }
    } catch (err) {
      // the calculator reports its own input errors; this is a fault of the bridge
      console.error("ruleslab: a widget message failed", err);
    }
    if (message.msg_id) post({ type: "idle", msg_id: message.msg_id });
  };
  for (const message of queue.splice(0)) handle(message);
}

main().catch((err) => {
  post({ type: "error", text: String((err && err.message) || err) });
});
