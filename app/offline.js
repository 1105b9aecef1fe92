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
 * share the machine with the download. The worker is then asked to keep its
 * cache's part for this page ("precache": the calculators' part, "app", on the
 * landing and app pages; the whole site on JupyterLite's pages), which also tells
 * it that this page is idle (it pauses its fill while any page loads); under
 * Save-Data (`navigator.connection.saveData`) the worker keeps nothing in the
 * background. The browser is then asked to look for a new deployment
 * (`registration.update()`).
 *
 * An element #offline-status, where the page has one (the landing page), says
 * what the cache holds ("Calculators available offline (17 MB)", "Whole site
 * available offline", "Saving data: nothing is downloaded in the background"),
 * how far a fill got, with a button for what is not kept ("Make the whole site
 * available offline (49 MB)"); and it offers a new deployment's worker, once
 * downloaded, with "Use it now" (granted by the worker only when no other page
 * of the site is open; the page then reloads onto the new version). Otherwise a
 * new version is used once every page of the site has been closed.
 *
 * `window.ruleslabOffline.ready` resolves with the worker's answer to the page's
 * own request: `{type: "complete" | "saving-data", version, parts, files, bytes,
 * kept, sizes}` or `{type: "failed", text}`.
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
  function ask(worker, type, fields, onProgress) {
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
      worker.postMessage({ ruleslab: "offline", type, ...fields }, [channel.port2]);
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
      // (before asking: the new worker may take over, and say so, before its answer
      // arrives; the reload must not then be missed)
      updating = true;
      const answer = await ask(worker, "activate", {});
      if (answer.type === "activating") {
        say("Updating…");
      } else if (answer.type === "not-waiting") {
        updating = false;
        say("The new version is in charge: reload the page to use it.");
      } else {
        updating = false;
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

  /** The parts of the cache this page asks for (the worker's "app" and "notebooks"):
   * JupyterLite's pages the whole site, the others what the calculators need. */
  const waitForKernels = document.currentScript.dataset.ruleslabWait === "kernels";
  const PARTS = waitForKernels ? ["app", "notebooks"] : ["app"];
  /** The reader's Save-Data setting: nothing is downloaded in the background. */
  const saveData = !!(navigator.connection && navigator.connection.saveData === true);
  const mb = (bytes) => `${Math.max(1, Math.round(bytes / 1e6))} MB`;

  function button(text, parts, worker) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", async () => {
      b.disabled = true;
      show(await cache(worker, parts, false));
    });
    return b;
  }

  let active = null; // the worker in charge
  /** What the landing page says of an answer (the worker's view of its cache). */
  function show(answer) {
    if (answer.type === "failed") {
      say(`Not yet available offline (${answer.text}); trying again on your next visit.`);
      return;
    }
    const { kept, sizes } = answer;
    const whole = mb(sizes.app + sizes.notebooks);
    const everything = button(
      `Make the whole site available offline (${whole})`,
      ["app", "notebooks"],
      active,
    );
    if (kept.app && kept.notebooks) {
      say(`Whole site available offline (${whole} kept by your browser).`);
    } else if (kept.app) {
      const rest = saveData
        ? "Saving data: nothing else is downloaded in the background."
        : "The notebooks are kept once you open one.";
      say(`Calculators available offline (${mb(sizes.app)}). ${rest}`, everything);
    } else if (answer.type === "saving-data") {
      const calculators = button(
        `Make the calculators available offline (${mb(sizes.app)})`,
        ["app"],
        active,
      );
      say("Saving data: nothing is downloaded in the background.", calculators);
    } else {
      say("Not yet available offline; trying again on your next visit.");
    }
  }

  /** Ask the worker to keep `parts`; `background`: not asked by the reader (the worker
   * declines under Save-Data). Resolves with its answer. */
  function cache(worker, parts, background) {
    const what = parts.includes("notebooks") ? "the whole site" : "the calculators";
    return ask(worker, "precache", { parts, background, saveData }, (p) => {
      const pause = p.paused ? " (paused while another page of this site loads)" : "";
      say(`Saving ${what} for offline use… ${Math.floor((100 * p.done) / p.total)}%${pause}`);
    });
  }

  async function start() {
    try {
      const registration = await navigator.serviceWorker.register(new URL(CONFIG.worker, root).href);
      active = (await navigator.serviceWorker.ready).active;
      const answer = await cache(active, PARTS, true);
      show(answer);
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

  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
  const later = () => {
    if (waitForKernels) whenKernelsQuiet(() => idle(start, { timeout: 3000 }));
    else idle(start, { timeout: 3000 });
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
})();
