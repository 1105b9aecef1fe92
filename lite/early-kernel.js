/**
 * Start a notebook's kernel as soon as the page loads, not once its page is laid out.
 *
 * Served as `static/ruleslab/early-kernel.js`; the build (tools/early_kernel.py)
 * adds it to the JupyterLite pages that open a notebook in place
 * (`lab/index.html`, `notebooks/index.html`), with the kernel's settings in its
 * `data-ruleslab-kernel` attribute. On such a page opened with
 * `?path=<notebook>.ipynb` (the landing page's notebook links), JupyterLab
 * starts the notebook's kernel only once its whole interface is up and the
 * notebook opened: about 3 s into a cold load on a 2-core machine, and the
 * kernel then takes 2.5 s more. Two things start it sooner:
 *
 * 1. **The kernel's worker starts with the page.** At once, this script starts
 *    `static/ruleslab/kernel-worker.mjs`, which starts Pyodide with the
 *    kernel's options (the interpreter and the preloaded packages: most of a
 *    kernel's start) on the machine's other core while JupyterLab loads, and
 *    holds the pyodide-kernel worker. When JupyterLite then creates the
 *    kernel's worker (`new Worker(<pyodide-kernel worker>)`), it gets this one,
 *    which has told the page it loaded; the kernel's `loadPyodide` takes over
 *    the interpreter started there (`static/pyodide/ruleslab-kernel.mjs`).
 *    Only the first such worker is handed over; any other is made as before.
 *    Unused (the notebook names another kernel, or none), it is stopped.
 * 2. **The session starts as soon as JupyterLite can.** The same session the
 *    notebook would start (same path, same name, the kernel its metadata names)
 *    is started once JupyterLite's services and plugins are up, about 1.5 s
 *    before the notebook opens; when it does, JupyterLab finds the session of
 *    its path running and connects to it, as it does when a GM reopens a
 *    notebook whose kernel runs.
 * 3. **The notebook opens as soon as JupyterLab has started** (`open` below),
 *    not once the router's first command has waited out a 500 ms debouncer.
 *
 * The early session's own connection never handles the kernel's comms (the
 * notebook's widget manager must) and is dropped at once; the session and
 * kernel stay. If the notebook's session started first (a race on a fast
 * machine), the early one is shut down, so a notebook never has two kernels.
 * Any failure (no such notebook, JupyterLite changed) only logs a warning: the
 * notebook then starts its kernel as it always did.
 */
(() => {
  "use strict";
  const path = new URLSearchParams(window.location.search).get("path");
  if (!path || !path.endsWith(".ipynb")) return;
  const name = path.split("/").pop();
  let spare = null;
  try {
    spare = startWorker(document.currentScript);
  } catch (err) {
    console.warn("ruleslab: the kernel's worker could not be started early:", err);
  }

  /** The site root, as JupyterLite's config-utils.js finds it. */
  function siteRoot() {
    const config = document.getElementById("jupyter-config-data");
    const root = (config && config.getAttribute("data-jupyter-lite-root")) || ".";
    return new URL(root.replace(/\/?$/, "/"), window.location.href);
  }

  /** The options the kernel will give `loadPyodide` (JupyterLite makes `…URL` options
   * absolute from the site root, and takes Pyodide's folder from `pyodideUrl`). */
  function bootOptions(settings, root) {
    const pyodideUrl = new URL(settings.pyodideUrl, root).href;
    const options = { indexURL: pyodideUrl.slice(0, pyodideUrl.lastIndexOf("/") + 1) };
    for (const [key, value] of Object.entries(settings.loadPyodideOptions || {})) {
      options[key] = key.endsWith("URL") && typeof value === "string" ? new URL(value, root).href : value;
    }
    return options;
  }

  /** Start the kernel's worker now, and hand it to JupyterLite when it makes one. */
  function startWorker(script) {
    const data = script && script.getAttribute("data-ruleslab-kernel");
    if (!data || window.crossOriginIsolated || typeof window.Worker !== "function") return null;
    const settings = JSON.parse(data);
    const root = siteRoot();
    const url = new URL(settings.worker, root);
    url.searchParams.set("boot", JSON.stringify(bootOptions(settings, root)));
    const theirs = new URL(settings.kernelWorker, root);
    const NativeWorker = window.Worker;
    const state = { worker: new NativeWorker(url, { type: "module" }), loaded: false, taken: false };
    state.kernel = settings.kernel;
    state.worker.addEventListener("message", function loaded(event) {
      if (event.data && event.data.ruleslabKernelWorker === "loaded") {
        state.loaded = true;
        state.worker.removeEventListener("message", loaded);
      }
    });
    state.worker.addEventListener("error", (event) => {
      if (state.taken) return; // (the kernel's own, from now on)
      console.warn("ruleslab: the early kernel worker failed to load:", event.message || event);
      stop(state);
    });
    state.stop = () => stop(state);
    window.Worker = class Worker extends NativeWorker {
      constructor(scriptURL, options) {
        const asked = new URL(String(scriptURL), window.location.href);
        asked.search = "";
        if (state.worker && state.loaded && !state.taken && asked.href === theirs.href) {
          state.taken = true;
          return state.worker; // (the object JupyterLite gets, instead of a new worker)
        }
        super(scriptURL, options);
      }
    };
    setTimeout(() => state.taken || stop(state), 120000); // never asked for: not this page's
    return state;
  }

  function stop(state) {
    if (!state.taken && state.worker) {
      state.worker.terminate();
      state.worker = null;
    }
  }

  /**
   * On JupyterLab's page, open the notebook as soon as the app has started, as
   * JupyterLite's own opener does (`openOrReveal(path)`, default factory). Its
   * opener runs only once the router's earlier `apputils:load-statedb` command
   * has finished, and that command awaits the workspace's 500 ms save debouncer,
   * which every change to the layout restarts: the notebook opened 0.7 s later
   * on a cold load. When the opener runs, it reveals the notebook opened here.
   * Only a plain link (one `path`, no `factory`) is opened.
   */
  function open(app) {
    const query = new URLSearchParams(window.location.search);
    if (!/\/lab(\/(index\.html)?)?$/.test(window.location.pathname)) return;
    if (query.getAll("path").length !== 1 || query.has("factory")) return;
    app.commands.execute("docmanager:open", { path }).catch((err) => {
      console.warn("ruleslab: the notebook could not be opened early:", err);
    });
  }

  async function start(app) {
    const sessions = app.serviceManager.sessions;
    await app.serviceManager.ready;
    const model = app.serviceManager.contents.get(path, { content: true });
    await app.started; // every plugin active: the kernel's factory is registered
    const metadata = (await model).content.metadata || {}; // (no such notebook: JupyterLite says so)
    const kernel = (metadata.kernelspec || {}).name;
    if (spare && kernel !== spare.kernel) spare.stop(); // another kernel, or JupyterLab asks
    const ours = () => [...sessions.running()].filter((s) => s.path === path);
    if (!kernel || ours().length) {
      open(app); // no kernel named (JupyterLab asks), or the notebook's session came first
      return;
    }
    const session = await sessions.startNew(
      { path, name, type: "notebook", kernel: { name: kernel } },
      { kernelConnectionOptions: { handleComms: false } },
    );
    open(app); // once its session exists, the notebook connects to it
    const id = session.id;
    session.dispose(); // (the connection only: the session and its kernel run on)
    await sessions.refreshRunning();
    if (ours().some((s) => s.id !== id)) {
      await sessions.shutdown(id); // the notebook started its own meanwhile
    }
  }

  const began = Date.now();
  const timer = setInterval(() => {
    const app = window.jupyterapp;
    if (!app || !app.serviceManager) {
      if (Date.now() - began > 30000) clearInterval(timer); // not a JupyterLite we know
      return;
    }
    clearInterval(timer);
    start(app).catch((err) => {
      console.warn("ruleslab: the notebook's kernel could not be started early:", err);
      if (spare) spare.stop(); // (unless a kernel has taken it already)
    });
  }, 20);
})();
