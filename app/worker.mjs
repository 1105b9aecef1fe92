/**
 * The app page's Python: Pyodide in a worker, serving the calculators of every page
 * connected to it.
 *
 * One script, two ways to run (docs/app-page.md, "One Python for the whole site"):
 *
 * - **shared** (the usual): app.html starts it as
 *   `new SharedWorker("static/app/worker.mjs", {type: "module", name: "ruleslab"})`,
 *   a URL that does not depend on the calculator, so every page and frame of the
 *   site in one browser session connects to the same worker, hence the same
 *   interpreter. Each page is one port, one channel, one Python session
 *   (`ruleslab_widgets.app_page.open_session`): its widgets' messages go to its
 *   port only, its messages reach its own widgets only.
 * - **dedicated** (the fallback where SharedWorker is missing or failed): app.html
 *   starts `new Worker(same URL, {type: "module"})`, and the worker's own global
 *   scope is the one channel.
 *
 * Python starts once, when the first page connects (`python.mjs`). If this build's
 * snapshot of the warmed interpreter is kept (made by `snapshot.mjs` after a first
 * page; docs/app-page.md, "A snapshot of the warmed interpreter"), it is restored:
 * everything imported at once. Else it loads Pyodide from the site's own distribution
 * (`static/pyodide/`, bytecode compiled at build time; the standard library cut down
 * to what the app uses, the rest fetched on demand) with the calculator's packages
 * preloaded through the app page's lock (no IPython: a stand-in provides the few names
 * the widget stack imports).
 *
 * From a page: {type: "start", key, query, lock, build} first (the calculator, the
 * page's query string: a shared link's inputs; the name of a Web Lock the page holds
 * while it lives; the page's build: one not this worker's is answered {type: "build",
 * page, worker} and nothing else), then {type: "comm_msg" | "comm_close", comm_id, msg_id, data, buffers},
 * {type: "ping"} (the page checks that the worker answers) and {type: "close"} (the
 * page is going away).
 * To a page: {type: "progress", phase} ("python" while the interpreter starts, with
 * `loaded` and `total` bytes as its files come when it is not restored,
 * "calculator" with `runtime: {mode, id, build, sessions, reused, snapshot}` ("restored" or
 * "none": how Python started) when its calculator is
 * built), {type: "batch", messages} (the calculator's build at once: its widgets' comm
 * messages, then {type: "display", model_id}), the comm messages of its widgets' later
 * changes, {type: "idle", msg_id}
 * after each of its messages is handled, {type: "fault", text} when one of them
 * failed (that page's error alone), {type: "pong", sessions} (how many calculators
 * the interpreter holds or is building), {type: "error", text} if Python or its
 * calculator cannot start, {type: "lost"} for a message from a page whose session was
 * dropped (it vanished, as far as the worker could tell).
 * Messages that arrive before Python is ready are queued and handled in order.
 * Calculators are built one at a time, each in a task of its own, in the order their
 * pages asked: a page's messages are handled between two builds, so an embed already
 * drawn answers while the next ones are built.
 */
import {
  countFetched,
  dropSnapshot,
  hasSnapshot,
  INDEX_URL,
  readSnapshot,
  START_BYTES,
  start,
  wheelURLs,
} from "./python.mjs";

const SHARED =
  typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope;
const RUNTIME_ID = Math.random().toString(36).slice(2, 10);
/** This build of the site's app page (tools/build_app.py writes it, as app.html's
 * `BUILD_`): a page of another build is refused, never served by this Python. */
const BUILD = /*RULESLAB-BUILD*/ "dev";
/** A page with no Web Locks that has said nothing for this long is taken as gone (a
 * hidden tab's timers may run only once a minute). */
const SILENT_MS = 5 * 60 * 1000;

const channels = new Set();
let python = null; // the promise of {pyodide, app}, once the first page has connected
let ready = false; // python has resolved

/** Whether this build's snapshot is kept: asked at once (the first look into Cache
 * Storage is slow), before the first page has even connected. */
const SNAPSHOT_KEPT = hasSnapshot();

/** The longest a snapshot's restore and check may take before it is dropped and Python
 * started as usual (a good one takes a few seconds on a slow machine). */
const RESTORE_WITHIN_MS = 25000;

function withinTime(promise, ms, what) {
  let timer = 0;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Python from the kept snapshot, trusted only once it has computed a figure. */
async function restore() {
  // (read and unpacked while the WebAssembly is fetched and compiled; a damaged copy
  // fails here)
  const kept = readSnapshot();
  kept.catch(() => {}); // (its failure is start's, below)
  const pyodide = await start({ _loadSnapshot: kept });
  pyodide.pyimport("ruleslab_widgets.app_snapshot").restored(await wheelURLs());
  const figure = pyodide.pyimport("ruleslab_widgets.app_snapshot").check();
  if (typeof figure !== "string" || !figure) throw new Error("the restored Python computed nothing");
  return pyodide;
}

function startPython(say) {
  say({ type: "progress", phase: "python" });
  python = (async () => {
    let pyodide = null;
    let snapshot = "none";
    if (await SNAPSHOT_KEPT) {
      try {
        pyodide = await withinTime(restore(), RESTORE_WITHIN_MS, "restoring the snapshot");
        snapshot = "restored";
      } catch (err) {
        // (a snapshot this runtime cannot restore, or whose Python does not compute in
        // time: forgotten, and Python started as usual)
        console.warn("ruleslab: the kept snapshot could not be restored; starting Python", err);
        pyodide = null;
        await dropSnapshot();
      }
    }
    if (pyodide === null) {
      // the calculator's packages are fetched while the interpreter starts (their
      // dependencies come from the lock); every page waiting is told how many bytes
      // have come: "Starting Python: 3.1 of 4.6 MB"
      // a file it needs refused (offline with a damaged copy: the service worker's 503)
      // ends the start at once, saying which: Pyodide itself may wait on it for ever
      let refuse = () => {};
      const refused = new Promise((_, reject) => {
        refuse = reject;
      });
      const done = countFetched(
        (loaded) => {
          const message = { type: "progress", phase: "python", loaded, total: START_BYTES };
          for (const c of channels) if (c.started && !c.runtime) c.post(message);
        },
        (url, status, why) => {
          const name = url.split("?")[0].split("/").pop();
          refuse(new Error(why || `a file Python needs (${name}) could not be loaded (${status})`));
        },
      );
      try {
        pyodide = await Promise.race([start({ packages: ["ruleslab"] }), refused]);
      } finally {
        done();
      }
      pyodide.pyimport("ruleslab_widgets.ipython_standin").install();
    }
    pyodide.pyimport("ruleslab_widgets.app_stdlib").install(INDEX_URL);
    const app = pyodide.pyimport("ruleslab_widgets.app_page");
    if (snapshot === "none") app.install();
    ready = true;
    return { pyodide, app, snapshot };
  })();
  return python;
}

/** One page: its port (or, dedicated, the worker's own scope) and its Python session. */
function connect(port) {
  const channel = {
    port,
    session: null,
    runtime: null,
    queue: [],
    started: false,
    closed: false,
    seen: 0,
    failed: false,
  };
  channels.add(channel);
  const post = (message) => {
    if (!channel.closed) port.postMessage(message);
  };
  channel.post = post;
  port.onmessage = (event) => {
    const message = event.data;
    channel.seen = Date.now();
    if (!message || typeof message !== "object") return;
    if (message.type === "ping") post({ type: "pong", sessions: open() });
    else if (message.type === "close") close(channel);
    else if (channel.closed) port.postMessage({ type: "lost" });
    else if (message.type === "start") begin(channel, message);
    else if (channel.session) handle(channel, message);
    else channel.queue.push(message);
  };
}

/** How many pages' calculators this interpreter holds or is building (the same count in
 * a page's "calculator" progress and in every "pong" after it: a ping answered while a
 * calculator was built used to count it out). */
function open() {
  return Array.from(channels).filter((c) => c.session || (c.runtime && !c.failed)).length;
}

async function begin(channel, message) {
  if (channel.started) return;
  channel.started = true;
  if (String(message.build || "") !== BUILD) {
    // a page of another build (a redeploy: a page of the new site meeting the Python an
    // open tab of the old one started, or an old copy of this script served for the new
    // one): refused, the page says so (or reloads) rather than mixing the two
    channel.post({ type: "build", page: String(message.build || "").slice(0, 40), worker: BUILD });
    close(channel);
    return;
  }
  const reused = python !== null;
  if (reused && !ready) channel.post({ type: "progress", phase: "python" }); // (still starting)
  let runtime;
  try {
    runtime = await (python || startPython(channel.post));
  } catch (err) {
    channel.post({ type: "error", text: String((err && err.message) || err) });
    python = null; // (a later page tries again)
    return;
  }
  if (channel.closed) return;
  channel.runtime = runtime;
  if (message.lock && self.navigator.locks) {
    // the page holds this lock while it lives: it is granted here once the page is gone
    self.navigator.locks.request(String(message.lock), () => close(channel));
  }
  const sessions = open(); // (this one included)
  channel.post({
    type: "progress",
    phase: "calculator",
    runtime: {
      mode: SHARED ? "shared" : "dedicated",
      id: RUNTIME_ID,
      build: BUILD,
      sessions,
      reused,
      snapshot: runtime.snapshot,
    },
  });
  building.push([channel, message]);
  buildSoon();
}

/** Pages waiting for their calculator, in the order they asked; one built per task. */
const building = [];
let buildTimer = 0;

function buildSoon() {
  if (!buildTimer && building.length) buildTimer = setTimeout(buildNext, 0);
}

function buildNext() {
  buildTimer = 0;
  const next = building.shift();
  if (next) build(...next);
  buildSoon(); // (the next one in a task of its own: page messages first)
}

function build(channel, message) {
  if (channel.closed) return;
  const { app } = channel.runtime;
  try {
    const sender = app.pyodide_sender(channel.post);
    const key = String(message.key || "");
    channel.session = app.open_session(key, String(message.query || ""), sender);
    sender.destroy();
  } catch (err) {
    channel.failed = true; // (no calculator held for it)
    channel.post({ type: "error", text: String((err && err.message) || err) });
    return;
  }
  for (const queued of channel.queue.splice(0)) handle(channel, queued);
}

function handle(channel, message) {
  try {
    const py = channel.runtime.pyodide.toPy(message);
    try {
      channel.session.receive(py);
    } finally {
      py.destroy();
    }
  } catch (err) {
    // the calculator reports its own input errors; this is a fault of the message (or
    // the bridge), and this page's alone: the other pages' sessions are untouched
    const text = String((err && err.message) || err);
    console.error("ruleslab: a widget message failed", text);
    channel.post({ type: "fault", text });
  }
  if (message.msg_id) channel.post({ type: "idle", msg_id: message.msg_id });
}

/** The page is gone (or going): close its widgets, forget it. */
function close(channel) {
  if (channel.closed) return;
  channel.closed = true;
  channels.delete(channel);
  if (channel.session) {
    try {
      channel.session.close();
    } catch (err) {
      console.error("ruleslab: closing a page's calculator failed", err);
    }
    channel.session.destroy();
    channel.session = null;
  }
}

if (SHARED) {
  self.onconnect = (event) => connect(event.ports[0]);
  // pages without Web Locks: one that has said nothing for SILENT_MS is gone
  setInterval(() => {
    const now = Date.now();
    for (const channel of Array.from(channels)) {
      if (channel.seen && now - channel.seen > SILENT_MS) close(channel);
    }
  }, 60000);
} else {
  connect(self);
}
