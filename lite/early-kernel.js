/**
 * Start a notebook's kernel as soon as JupyterLite can, not once its page is laid out.
 *
 * Served as `static/ruleslab/early-kernel.js`; the build (tools/early_kernel.py)
 * adds it to the JupyterLite pages that open a notebook in place
 * (`lab/index.html`, `notebooks/index.html`). On such a page opened with
 * `?path=<notebook>.ipynb` (the landing page's notebook links), JupyterLab
 * starts the notebook's kernel only once its whole interface is up and the
 * notebook opened: about 3 s into a cold load on a 2-core machine, and the
 * kernel then takes 2.5 s more. This script starts the same session (same
 * path, same name, the kernel the notebook's metadata names) as soon as
 * JupyterLite's services and plugins are up, about 1.5 s earlier; when the
 * notebook opens, JupyterLab finds the session of its path running and
 * connects to it, as it does when a GM reopens a notebook whose kernel runs.
 *
 * Its own connection never handles the kernel's comms (the notebook's widget
 * manager must) and is dropped at once; the session and kernel stay. If the
 * notebook's session started first (a race on a fast machine), the early
 * one is shut down, so a notebook never has two kernels. Any failure (no such
 * notebook, JupyterLite changed) only logs a warning: the notebook then
 * starts its kernel as it always did.
 */
(() => {
  "use strict";
  const path = new URLSearchParams(window.location.search).get("path");
  if (!path || !path.endsWith(".ipynb")) return;
  const name = path.split("/").pop();

  async function start(app) {
    const sessions = app.serviceManager.sessions;
    await app.serviceManager.ready;
    const model = app.serviceManager.contents.get(path, { content: true });
    await app.started; // every plugin active: the kernel's factory is registered
    const metadata = (await model).content.metadata || {};
    const kernel = (metadata.kernelspec || {}).name;
    const ours = () => [...sessions.running()].filter((s) => s.path === path);
    if (!kernel || ours().length) return; // no kernel named (JupyterLab asks), or it was first
    const session = await sessions.startNew(
      { path, name, type: "notebook", kernel: { name: kernel } },
      { kernelConnectionOptions: { handleComms: false } },
    );
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
    });
  }, 20);
})();
