/**
 * The site's service worker: every page works offline after the first visit.
 *
 * A template: tools/offline.py writes it to the site root as `service-worker.js`
 * with the build's manifest in place of the marker below (every file the site
 * serves, by path, with its sha256 as a subresource-integrity string; the
 * version, a hash of the whole manifest; the cache name made from it). So any
 * change to any file gives a new worker script, which is how the browser
 * learns of a new deployment.
 *
 * JupyterLite registers its own worker under this very URL
 * (`service-worker.js?enableCache=…`, scope: the site root) for its drive: the
 * kernel's file system and stdin reach the page through it. Two workers cannot
 * share a scope, so this one does both: it imports JupyterLite's worker (moved
 * to static/offline/ by the build), and its own listeners, added first, answer
 * what is theirs and stop the event there; everything else (the drive's POSTs,
 * the heartbeat) goes on to JupyterLite's listeners unchanged.
 *
 * Versions never mix: this worker answers every precached path with the
 * manifest's bytes only: from the browser's HTTP cache if it holds them (checked
 * by their integrity), else from its own cache, `ruleslab-offline-<version>`
 * (checked too as it is served: a damaged entry is taken out and fetched afresh,
 * or a 503 saying so when offline), which holds only the manifest's files (each
 * fetched with its integrity, so a stale HTTP-cached copy or a newer
 * deployment's file is refused).
 *
 * Two parts, costing only what they must: "app" (the manifest's `app` list: the
 * landing page, the app pages, the rules notes and the part of Pyodide the app
 * page loads), kept by default; "notebooks" (the rest: JupyterLab, the kernel, the
 * full standard library, the notebooks), kept once a notebook page asks (when its
 * kernels are idle) or the reader does (the landing page's button). A fill takes
 * each file from the browser's HTTP cache first (`force-cache`, checked by its
 * integrity: what the page itself downloaded is not downloaded again), and yields:
 * while any page of the site is loading (from its navigation request, seen here,
 * until it says it is idle, at most a minute), no file of the fill is requested.
 * Under Save-Data (the page's `navigator.connection.saveData`, or the header)
 * nothing is kept in the background, only on the reader's request.
 *
 * A first install (no worker active yet) takes over at once, as JupyterLite's
 * does, so the drive works on the first visit; it fills its cache only when a
 * page asks ("precache", sent once the page is idle: static/offline/offline.js),
 * and until then leaves the site's files to the network. An update installs the
 * parts this browser had (the older caches' record of the parts asked for),
 * complete, first (an incomplete install fails and is retried later) and then
 * waits, as service workers do, until no page runs the old version (or the only
 * page left asks for it: "use it now" on the landing page); on activation the
 * other versions' caches are deleted. A page of a part not kept, asked for with
 * the network gone, gets a page that says so.
 *
 * Messages (`{ruleslab: "offline", type, ...}`, replies on the message's port):
 *   "precache" `{parts, background, saveData}` (the sender is idle) → progress
 *     `{type: "progress", done, total, paused}` while the cache fills, then
 *     `{type: "complete", version, parts, files, bytes, kept, sizes}` (`kept`: which
 *     parts the cache holds whole; `sizes`: each part's bytes), or, for a background
 *     request under Save-Data, `{type: "saving-data", ...}` the same without a fill,
 *     or `{type: "failed", version, text}`;
 *   "idle": the sender is drawn and idle (no reply);
 *   "status" → `{type: "status", version, complete, kept, wanted, sizes, loading,
 *     paused, inflight}`;
 *   "activate" (to a waiting worker) → `{type: "activating"}` and takes over,
 *     or `{type: "busy", pages}` when other pages of the site are open.
 */
"use strict";

// Everything of ours is inside this function: JupyterLite's worker, imported at the
// end, declares its own names (CACHE, onFetch, …) in the global scope.
(() => {
  const OFFLINE = /*RULESLAB-OFFLINE-MANIFEST*/ null;

  const PREFIX = "ruleslab-offline-";
  const CACHE = PREFIX + OFFLINE.version;
  const SCOPE = new URL(self.registration.scope);
  const FILES = new Map(Object.entries(OFFLINE.files));
  /** The two parts of the cache: what the landing page, the app pages and the rules notes
   * need ("app", cached by default), and the rest ("notebooks": JupyterLab, the kernel, the
   * full standard library, the notebooks), cached once a notebook is opened or on request. */
  const APP = new Set(OFFLINE.app);
  const PARTS = {
    app: [...FILES].filter(([path]) => APP.has(path)),
    notebooks: [...FILES].filter(([path]) => !APP.has(path)),
  };
  const SIZES = { app: OFFLINE.app_bytes, notebooks: OFFLINE.bytes - OFFLINE.app_bytes };
  const partOf = (path) => (APP.has(path) ? "app" : "notebooks");
  /** A part's marker, the cache's entry written once every file of the part is in. */
  const COMPLETE = {
    app: new URL("__ruleslab-offline-complete-app__", SCOPE).href,
    notebooks: new URL("__ruleslab-offline-complete-notebooks__", SCOPE).href,
  };
  /** The parts this browser asked for (`{parts: [...]}`): what an update installs again. */
  const WANTED = new URL("__ruleslab-offline-wanted__", SCOPE).href;
  /** The marker of the whole site in caches of workers before the two parts. */
  const LEGACY_COMPLETE = new URL("__ruleslab-offline-complete__", SCOPE).href;
  const PARALLEL = 6;

  /** The manifest path a request asks for (search ignored, as a static host does), or null. */
  function sitePath(url) {
    const u = new URL(url);
    if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) return null;
    let path = u.pathname.slice(SCOPE.pathname.length);
    if (path === "" || path.endsWith("/")) path += "index.html";
    try {
      // segment by segment: an encoded "/" (lab%2Findex.html) is part of a name, as a
      // static host reads it, not a folder (served as lab/index.html at the wrong URL,
      // the page's relative links would all break)
      const parts = path.split("/").map(decodeURIComponent);
      if (parts.some((part) => part.includes("/") || part.includes("\\"))) return null;
      path = parts.join("/");
    } catch (err) {
      return null;
    }
    return FILES.has(path) ? path : null;
  }

  /** The cache key of a manifest path: its URL as browsers spell it (`@` kept, a space
   * `%20`), one spelling whatever the request's. */
  function keyOf(path) {
    const escape = (part) => encodeURI(part).replace(/[?#]/g, encodeURIComponent);
    return new URL(path.split("/").map(escape).join("/"), SCOPE).href;
  }

  async function integrityOf(response) {
    const bytes = await response.arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    let text = "";
    for (const byte of digest) text += String.fromCharCode(byte);
    return "sha256-" + btoa(text);
  }

  // -- yielding: no fill while a page of the site is loading --------------------------

  /** Pages of the site still loading: client id → when its navigation came through here.
   * A page is loading from its navigation request until it says it is idle (a "precache"
   * or "idle" message: app.html once its calculator is drawn, the landing page after its
   * load, JupyterLite's pages once their kernels are idle: static/offline/offline.js);
   * at most LOADING_CAP_MS, and no longer than it stays open. */
  const loading = new Map();
  const LOADING_CAP_MS = 60000;
  /** A navigation's page becomes a client only once its response arrives: it is looked
   * for among the clients (closed before saying idle?) only after this long. */
  const GRACE_MS = 15000;
  const wakers = [];
  let paused = false;
  /** Network requests of the fill under way. */
  let inflight = 0;
  /** The last navigation's `Save-Data` request header ("on": the reader saves data). */
  let saveDataHeader = false;

  function idleNow(clientId) {
    if (clientId && loading.delete(clientId)) {
      for (const wake of wakers.splice(0)) wake();
    }
  }

  async function prune() {
    const now = Date.now();
    let open = null;
    for (const [id, since] of [...loading]) {
      if (now - since >= LOADING_CAP_MS) {
        loading.delete(id);
      } else if (now - since >= GRACE_MS) {
        if (!open) {
          const all = await self.clients.matchAll({ includeUncontrolled: true, type: "all" });
          open = new Set(all.map((client) => client.id));
        }
        if (!open.has(id)) loading.delete(id);
      }
    }
  }

  /** Resolves once no page of the site is loading (checked again every second). The
   * caller starts its request in the same turn: none starts while a page loads. */
  async function whenIdle() {
    for (;;) {
      if (loading.size) await prune();
      if (!loading.size) {
        if (paused) {
          paused = false;
          tell({ type: "progress", ...progress, paused: false });
        }
        return;
      }
      if (!paused) {
        paused = true;
        tell({ type: "progress", ...progress, paused: true });
      }
      await new Promise((resolve) => {
        wakers.push(resolve);
        setTimeout(resolve, 1000);
      });
    }
  }

  /** A request of the fill: only while no page loads; counted while it runs. */
  async function fetchForCache(key, init) {
    await whenIdle();
    inflight += 1;
    try {
      return await fetch(key, init);
    } finally {
      inflight -= 1;
    }
  }

  // -- filling the cache ---------------------------------------------------------------

  /** The Content-Type a file of the site must have to work (a module script, a
   * WebAssembly module, a page…), by its extension; null: any. */
  const TYPES = [
    [/\.(m?js)$/, /^(text|application)\/(javascript|ecmascript|x-javascript)\b/i],
    [/\.wasm$/, /^application\/wasm\b/i],
    [/\.html?$/, /^text\/html\b/i],
    [/\.css$/, /^text\/css\b/i],
    [/\.json$/, /^application\/([a-z.+-]*\+)?json\b|^text\/json\b/i],
  ];
  /** Whether a kept response can be served as `path`: status 200 and the type the file
   * needs, as well as the right bytes (a 404 page or a text/plain copy of app.js with the
   * right bytes would be served forever otherwise). */
  function servable(response, path) {
    if (!response || response.status !== 200) return false;
    const rule = TYPES.find(([ext]) => ext.test(path));
    if (!rule) return true;
    return rule[1].test(response.headers.get("Content-Type") || "");
  }

  /** A file the other versions' caches already hold with the same bytes (checked). */
  async function reuse(others, key, integrity) {
    for (const cache of others) {
      const hit = await cache.match(key);
      if (hit && servable(hit, key) && (await integrityOf(hit.clone())) === integrity) return hit;
    }
    return null;
  }

  /** The file from the browser's HTTP cache if it holds these very bytes (what the page
   * itself downloaded: `force-cache` takes a stale entry too, the integrity checks it),
   * else from the network. `forPage`: a page waits for it (never held by the pause). */
  async function download(key, integrity, forPage = false) {
    // the header lets a server (and bench/site_load.py) tell the precache from a page's loads
    const init = { integrity, headers: { "X-Ruleslab-Precache": OFFLINE.version } };
    const get = forPage ? fetch : fetchForCache;
    try {
      const response = await get(key, { ...init, cache: "force-cache" });
      if (response.ok) return response;
    } catch (err) {
      // an HTTP-cached copy of another deployment fails its integrity: fetch it afresh
    }
    const response = await get(key, { ...init, cache: "reload" });
    if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
    return response;
  }

  const watchers = new Set();
  function tell(message) {
    for (const port of watchers) port.postMessage(message);
  }
  /** The fill's progress, in files of the parts asked for. */
  const progress = { done: 0, total: 0 };

  /** "unknown" until looked up when the worker starts, then "empty" (this version's cache
   * does not exist yet: a first visit) or "started" (it does, or a fill made it). */
  let cacheState = "unknown";
  caches.has(CACHE).then((has) => {
    if (cacheState === "unknown") cacheState = has ? "started" : "empty";
  });

  async function heldKeys(cache) {
    return new Set((await cache.keys()).map((request) => request.url));
  }

  /** The parts a cache's record says this browser asked for (validated: a record that is
   * not a list of known parts counts for none); a cache of an older worker, complete, for
   * both. */
  async function wantedIn(cache) {
    const parts = new Set();
    if (await cache.match(LEGACY_COMPLETE)) return ["app", "notebooks"];
    const record = await cache.match(WANTED);
    if (!record) return [];
    try {
      const data = await record.json();
      for (const part of data && Array.isArray(data.parts) ? data.parts : []) {
        if (Object.prototype.hasOwnProperty.call(PARTS, part)) parts.add(part);
      }
    } catch (err) {
      // not JSON: no part recorded
    }
    return [...parts];
  }

  /** Which parts this version's cache holds whole (its marker, and every file). */
  async function keptParts() {
    const kept = { app: false, notebooks: false };
    if (!(await caches.has(CACHE))) return kept; // (caches.open would create it)
    const held = await heldKeys(await caches.open(CACHE));
    for (const part of Object.keys(PARTS)) {
      kept[part] = held.has(COMPLETE[part]) && PARTS[part].every(([p]) => held.has(keyOf(p)));
    }
    return kept;
  }

  async function summary(asked) {
    const files = asked.reduce((n, part) => n + PARTS[part].length, 0);
    const bytes = asked.reduce((n, part) => n + SIZES[part], 0);
    const kept = await keptParts();
    return { version: OFFLINE.version, parts: asked, files, bytes, kept, sizes: SIZES };
  }

  /** Fill this version's cache with the parts `asked` (each complete only while it holds
   * every file: the browser or the reader may delete entries), and record them as asked
   * for (an update installs them again). */
  async function fill(asked) {
    cacheState = "started";
    const cache = await caches.open(CACHE);
    const wanted = new Set([...(await wantedIn(cache)), ...asked]);
    const headers = { "Content-Type": "application/json" };
    await cache.put(WANTED, new Response(JSON.stringify({ parts: [...wanted] }), { headers }));
    const missing = async () => {
      const held = await heldKeys(cache);
      return asked.flatMap((part) => PARTS[part].filter(([path]) => !held.has(keyOf(path))));
    };
    let todo = await missing();
    for (const part of asked) {
      if (todo.some(([path]) => partOf(path) === part)) await cache.delete(COMPLETE[part]);
    }
    const others = [];
    if (todo.length) {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) others.push(await caches.open(name));
      }
    }
    progress.total = asked.reduce((n, part) => n + PARTS[part].length, 0);
    // A file taken out while filling (a damaged one, found as it was served) is fetched in
    // the next round: a part is said complete only once it holds every file.
    for (let round = 0; todo.length; round++) {
      if (round === 3) throw new Error(`${todo.length} files could not be kept`);
      progress.done = progress.total - todo.length;
      let next = 0;
      const batch = todo;
      const one = async () => {
        for (;;) {
          await whenIdle(); // (reading the other caches and hashing wait too)
          if (next >= batch.length) return; // (taken by the others meanwhile)
          const [path, integrity] = batch[next++];
          const key = keyOf(path);
          const response = (await reuse(others, key, integrity)) || (await download(key, integrity));
          await cache.put(key, response);
          progress.done += 1;
          if (progress.done % 25 === 0) tell({ type: "progress", ...progress, paused });
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, one));
      todo = await missing();
    }
    for (const part of asked) {
      const status = { version: OFFLINE.version, part, files: PARTS[part].length };
      await cache.put(COMPLETE[part], new Response(JSON.stringify(status), { headers }));
    }
    return summary(asked);
  }

  /** Fills run one after another (a second request finds what the first kept); a failure
   * is retried by the next request. */
  let queue = Promise.resolve();
  function precache(asked) {
    const run = queue.then(() => fill(asked));
    queue = run.catch(() => {});
    return run;
  }

  /** A cached file whose bytes are not the manifest's: taken out of the cache, whose part is
   * then no longer complete (the next request for it fills it again). */
  async function uncomplete(key, path) {
    const cache = await caches.open(CACHE);
    await cache.delete(key);
    await cache.delete(COMPLETE[partOf(path)]);
  }

  /** The parts the caches of other versions were asked for: what an update installs. */
  async function wantedBefore() {
    const parts = new Set();
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      for (const part of await wantedIn(await caches.open(name))) parts.add(part);
    }
    return Object.keys(PARTS).filter((part) => parts.has(part));
  }

  self.addEventListener("install", (event) => {
    event.stopImmediatePropagation(); // JupyterLite's own install would skip waiting on updates
    if (!self.registration.active) {
      // the first install: no page runs another version, take over at once (the drive
      // needs a controller on this very visit); the cache fills once a page asks, when idle
      self.skipWaiting();
      return;
    }
    // an update: the parts this browser had, complete, or not installed at all
    event.waitUntil(wantedBefore().then((parts) => (parts.length ? precache(parts) : null)));
  });

  self.addEventListener("activate", (event) => {
    // (JupyterLite's activate listener runs too: it claims the pages as well)
    event.waitUntil(
      (async () => {
        const names = await caches.keys();
        await Promise.all(
          names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)),
        );
        await self.clients.claim();
      })(),
    );
  });

  /** Files the browser compiles, and keeps compiled beside its HTTP cache entry. */
  const CODE = /\.(wasm|m?js)$/;

  const escapeHtml = (text) =>
    text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** The answer to a page of the site this browser has not kept, with the network gone:
   * a page that says so (not the browser's error page, nor a blank one). */
  function notKept(path) {
    const home = escapeHtml(new URL("index.html", SCOPE).href);
    const notebook = partOf(path) === "notebooks";
    const what = notebook
      ? "The notebooks are kept for offline use once a notebook has been opened with a " +
        "network, or with “Make the whole site available offline” on the home page."
      : "The calculators are kept for offline use once one of them, or the home page, " +
        "has been opened with a network.";
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<meta name="color-scheme" content="light dark">' +
      "<title>Not available offline yet — ruleslab</title>" +
      "<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;" +
      "padding:0 1em}</style></head><body><main>" +
      `<h1>${notebook ? "This notebook is" : "This page is"} not available offline yet</h1>` +
      `<p>The network cannot be reached, and this browser has not kept this page of the ` +
      `site (<code>${escapeHtml(path)}</code>).</p><p>${what}</p>` +
      `<p><a href="${home}">The calculators</a> (those kept offline open without a ` +
      "network).</p></main></body></html>";
    return new Response(html, {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  }

  /** From the network; offline, a page says it is not kept (other files: a network error,
   * as without a worker). */
  async function network(event, path) {
    try {
      return await fetch(event.request);
    } catch (err) {
      if (event.request.mode !== "navigate") throw err;
      idleNow(event.resultingClientId); // (that page will not say it is idle)
      return notKept(path);
    }
  }

  async function respond(event, path) {
    if (CODE.test(path)) {
      try {
        // Code from the browser's HTTP cache first (never the network), and only if it
        // holds these very bytes: its entries carry the compiled code of earlier loads,
        // which a copy in our cache gets only after a load or two of its own.
        const integrity = FILES.get(path);
        const init = { cache: "only-if-cached", mode: "same-origin", integrity };
        const cached = await fetch(event.request.url, init);
        if (cached.ok) return cached;
      } catch (err) {
        // not in the HTTP cache, or another deployment's bytes: ours below
      }
    }
    const key = keyOf(path);
    const hit = await caches.match(key, { cacheName: CACHE });
    if (!hit) return network(event, path); // not kept (yet): a first visit, or its part not asked
    // Served only if its bytes are the manifest's, its status 200 and its type the file's
    // (a cache can be damaged, or written to by another script of the origin): else taken
    // out, and fetched afresh.
    const integrity = FILES.get(path);
    const bytes = await hit.arrayBuffer();
    const { status, statusText, headers } = hit;
    if (!servable(hit, path) || (await integrityOf(new Response(bytes))) !== integrity) {
      await uncomplete(key, path);
      try {
        const fresh = await download(key, integrity, true);
        await (await caches.open(CACHE)).put(key, fresh.clone());
        return fresh;
      } catch (err) {
        const text =
          `This file of the site (${path}) is damaged in this browser's offline copy, and ` +
          "the network cannot be reached to fetch it again. Reload once you are online.";
        return new Response(text, {
          status: 503,
          headers: { "Content-Type": "text/plain; charset=utf-8" },
        });
      }
    }
    // Asked with a query (app.html?calculator=…, worker.mjs?calculator=…, bundle.js?_=…)
    // or for a folder: a response without a URL of its own, so that the page or worker
    // keeps the URL it asked for (a worker takes its location from its response).
    return new Response(bytes, { status, statusText, headers });
  }

  self.addEventListener("fetch", (event) => {
    if (event.request.mode === "navigate" && event.resultingClientId) {
      // a page of the site starts loading: the fill waits until it says it is idle
      loading.set(event.resultingClientId, Date.now());
      saveDataHeader = event.request.headers.get("Save-Data") === "on";
    }
    if (event.request.method !== "GET") return; // JupyterLite's drive and stdin
    const path = sitePath(event.request.url);
    if (path === null) return; // not a file of the site: JupyterLite's listener, or the network
    // A first visit before any page asked for the cache: nothing of this version is kept
    // yet, so the request goes to the network as it would without a worker. (Not on to
    // JupyterLite's listener: with its cache off it would only fetch it itself, the body
    // then passing through this worker.)
    if (cacheState === "empty") {
      event.stopImmediatePropagation();
      return;
    }
    event.stopImmediatePropagation();
    event.respondWith(respond(event, path));
  });

  function reply(event, message) {
    const port = event.ports && event.ports[0];
    if (port) port.postMessage(message);
    else if (event.source) event.source.postMessage(message);
  }

  async function activateIfAlone(event) {
    if (self.serviceWorker && self.serviceWorker.state !== "installed") {
      reply(event, { type: "not-waiting" }); // (asked of a worker already in charge)
      return;
    }
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const pages = windows.filter((client) => client.url.startsWith(SCOPE.href));
    const others = pages.filter((client) => !event.source || client.id !== event.source.id);
    if (others.length) {
      reply(event, { type: "busy", pages: pages.length });
      return;
    }
    reply(event, { type: "activating" });
    await self.skipWaiting();
  }

  /** The parts a message asks for (validated: known names only, at least one). */
  function askedParts(data) {
    const asked = Array.isArray(data.parts) ? data.parts : ["app"];
    const known = Object.keys(PARTS).filter((part) => asked.includes(part));
    return known.length ? known : ["app"];
  }

  /** Save-Data: the page's `navigator.connection.saveData`, or the header of the last
   * navigation. */
  const savingData = (data) => data.saveData === true || saveDataHeader;

  self.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.ruleslab !== "offline") return;
    event.stopImmediatePropagation();
    const source = event.source && event.source.id;
    if (data.type === "idle") {
      idleNow(source);
    } else if (data.type === "precache") {
      idleNow(source); // (a page asks once it is idle)
      const asked = askedParts(data);
      if (data.background === true && savingData(data)) {
        // Save-Data: nothing downloaded unless the reader asks (the landing page's button)
        event.waitUntil(summary(asked).then((s) => reply(event, { type: "saving-data", ...s })));
        return;
      }
      const port = event.ports && event.ports[0];
      if (port) watchers.add(port);
      const settle = (message) => {
        if (port) watchers.delete(port);
        reply(event, message);
      };
      const failed = (err) => ({ type: "failed", version: OFFLINE.version, text: String(err) });
      event.waitUntil(
        precache(asked).then(
          (status) => settle({ type: "complete", ...status }),
          (err) => settle(failed((err && err.message) || err)),
        ),
      );
    } else if (data.type === "status") {
      event.waitUntil(
        (async () => {
          const kept = await keptParts();
          const wanted = (await caches.has(CACHE))
            ? await wantedIn(await caches.open(CACHE))
            : [];
          reply(event, {
            type: "status",
            version: OFFLINE.version,
            complete: wanted.length > 0 && wanted.every((part) => kept[part]),
            kept,
            wanted,
            sizes: SIZES,
            loading: loading.size,
            paused,
            inflight,
          });
        })(),
      );
    } else if (data.type === "activate") {
      event.waitUntil(activateIfAlone(event));
    }
  });

  importScripts(new URL(OFFLINE.jupyterlite, SCOPE).href);
})();
