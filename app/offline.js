/**
 * The pages' side of offline use: register the site's service worker and have it
 * fill its cache, without delaying anything the page shows.
 *
 * A template: tools/offline.py writes it as static/offline/offline.js with the
 * worker's URL in place of the marker below (the very URL JupyterLite registers,
 * `service-worker.js?enableCache=…`: one registration for the whole site). The
 * landing page loads it with `defer`; the app page adds it once its calculator
 * is drawn (app.html), and only when it is the top-level page: an embed must not
 * download the whole site into a reader's browser.
 *
 * Registration waits for the page's load and then for idle time; on JupyterLite's
 * pages (the build adds this script to them with `data-ruleslab-wait="kernels"`)
 * also until every open document's kernel has been idle for 3 s (at most a
 * minute after the load), so a notebook's kernel start and its first run never
 * share the machine with the download. The worker is
 * then asked to complete its cache ("precache"), and the browser to look for a
 * new deployment (`registration.update()`); an element #offline-status,
 * where the page has one (the landing page), says how far it got, and offers a
 * new deployment's worker, once fully downloaded, with "Use it now" (granted
 * by the worker only when no other page of the site is open; the page then
 * reloads onto the new version). Otherwise a new version is used once every
 * page of the site has been closed.
 *
 * `window.ruleslabOffline.ready` resolves with the worker's last answer:
 * `{type: "complete", version, files, bytes}` or `{type: "failed", text}`.
 */
(() => {
  "use strict";
  const CONFIG = /*RULESLAB-OFFLINE-CONFIG*/ null;
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  if (window.top !== window.self) return; // embedded: nothing is stored for the host page's readers
  const root = new URL("../../", document.currentScript.src);
  const status = document.getElementById("offline-status");
  let resolveReady;
  window.ruleslabOffline = { ready: new Promise((resolve) => (resolveReady = resolve)) };

  function say(text, button) {
    if (!status) return;
    status.hidden = false;
    status.textContent = text;
    if (button) status.append(" ", button);
  }

  /** One request to a worker; progress messages go to `onProgress`, the answer resolves. */
  function ask(worker, type, onProgress) {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => {
        if (event.data.type === "progress") {
          if (onProgress) onProgress(event.data);
        } else {
          channel.port1.close();
          resolve(event.data);
        }
      };
      worker.postMessage({ ruleslab: "offline", type }, [channel.port2]);
    });
  }

  let updating = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (updating) window.location.reload();
  });

  function offerUpdate(worker) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Use it now";
    button.addEventListener("click", async () => {
      button.disabled = true;
      const answer = await ask(worker, "activate");
      if (answer.type === "activating") {
        updating = true;
        say("Updating…");
      } else if (answer.type === "not-waiting") {
        say("The new version is in charge: reload the page to use it.");
      } else {
        button.disabled = false;
        say(
          `A new version is ready. Close the other pages of this site (${answer.pages - 1} open), ` +
            "then press again, or it is used once they are all closed.",
          button,
        );
      }
    });
    say("A new version is ready; it is used once every page of this site is closed.", button);
  }

  function watchUpdates(registration) {
    const check = () => {
      if (registration.waiting && navigator.serviceWorker.controller) {
        offerUpdate(registration.waiting);
      }
    };
    const follow = (worker) => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed") check();
      });
    };
    registration.addEventListener("updatefound", () => follow(registration.installing));
    follow(registration.installing);
    check();
  }

  async function start() {
    try {
      const registration = await navigator.serviceWorker.register(new URL(CONFIG.worker, root).href);
      const ready = await navigator.serviceWorker.ready;
      const answer = await ask(ready.active, "precache", (p) =>
        say(`Saving the calculators for offline use… ${Math.floor((100 * p.done) / p.total)}%`),
      );
      if (answer.type === "complete") {
        const mb = (answer.bytes / 1e6).toFixed(0);
        say(`Available offline: this site now opens without a network (${mb} MB kept by your browser).`);
      } else {
        say(`Not yet available offline (${answer.text}); trying again on your next visit.`);
      }
      watchUpdates(registration);
      resolveReady(answer);
      // Is there a new deployment? (Browsers also check on navigations, when they see fit;
      // a `register` of the same URL does not.) Offline, this fails quietly.
      registration.update().catch(() => {});
    } catch (err) {
      say(`Not available offline: ${err.message || err}`);
      resolveReady({ type: "failed", text: String(err.message || err) });
    }
  }

  /** A notebook the page's address asks to open (`?path=…ipynb`): wait for it too. */
  const notebookAsked = /\.ipynb$/.test(new URLSearchParams(window.location.search).get("path") || "");
  let restored = null; // JupyterLab's layout restored (its documents opened)

  /** JupyterLite's pages: is the page laid out, with every open document's kernel idle
   * (none starting), and the notebook its address names open? */
  function kernelsQuiet() {
    const app = window.jupyterapp;
    if (!app || !app.shell) return false; // JupyterLab is still loading
    if (restored === null) {
      restored = false;
      Promise.resolve(app.restored).then(() => (restored = true)); // (none: at once)
    }
    if (!restored) return false;
    let documents = 0;
    for (const widget of app.shell.widgets("main")) {
      const context = widget.sessionContext;
      if (!context) continue;
      documents += 1;
      if (!context.isReady) return false; // its kernel is being chosen or started
      const kernel = context.session && context.session.kernel;
      if (kernel && kernel.status !== "idle") return false;
    }
    return documents > 0 || !notebookAsked;
  }

  /** On a JupyterLite page, start once its kernels have been idle for QUIET_MS on end
   * (a notebook's kernel starting, then Run All, are not slowed by the download), and
   * at the latest CAP_MS after the page's load. */
  const QUIET_MS = 3000;
  const CAP_MS = 60000;
  function whenKernelsQuiet(then) {
    const began = Date.now();
    let quietSince = null;
    const timer = setInterval(() => {
      const now = Date.now();
      let quiet = false;
      try {
        quiet = kernelsQuiet();
      } catch (err) {
        quiet = true; // a JupyterLab without these names: do not wait on it
      }
      quietSince = quiet ? (quietSince === null ? now : quietSince) : null;
      if ((quietSince !== null && now - quietSince >= QUIET_MS) || now - began >= CAP_MS) {
        clearInterval(timer);
        then();
      }
    }, 250);
  }

  const waitForKernels = document.currentScript.dataset.ruleslabWait === "kernels";
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
  const later = () => {
    if (waitForKernels) whenKernelsQuiet(() => idle(start, { timeout: 3000 }));
    else idle(start, { timeout: 3000 });
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
})();
