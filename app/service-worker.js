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
 * by their integrity), else from its own cache (checked too as it is served: a
 * damaged entry is taken out and fetched afresh, or a 503 saying so when offline), `ruleslab-offline-<version>`,
 * which holds exactly the manifest's files (each fetched with its integrity, so
 * a stale HTTP-cached copy or a newer deployment's file is refused). A first install (no worker active yet)
 * takes over at once, as JupyterLite's does, so the drive works on the first
 * visit; it fills its cache in the background only when a page asks
 * ("precache", sent once the page is idle: static/offline/offline.js), and until
 * then leaves the site's files to the network, as JupyterLite's worker does, so
 * that a first visit is not slowed by 46 MB of downloads. An update installs its whole
 * cache first (an incomplete install fails and is retried later) and then
 * waits, as service workers do, until no page runs the old version (or the
 * only page left asks for it: "use it now" on the landing page); on
 * activation the other versions' caches are deleted.
 *
 * Messages (`{ruleslab: "offline", type}`, replies on the message's port):
 *   "precache" → progress `{type: "progress", done, total}` while the cache
 *     fills, then `{type: "complete", version, files, bytes}` or
 *     `{type: "failed", version, text}`;
 *   "status" → `{type: "status", version, complete}`;
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
  /** The cache's last entry, written once every file is in: the cache is complete. */
  const COMPLETE = new URL("__ruleslab-offline-complete__", SCOPE).href;
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

  /** A file the other versions' caches already hold with the same bytes (checked). */
  async function reuse(others, key, integrity) {
    for (const cache of others) {
      const hit = await cache.match(key);
      if (hit && (await integrityOf(hit.clone())) === integrity) return hit;
    }
    return null;
  }

  /** The file from the network (or the HTTP cache, if it holds these very bytes). */
  async function download(key, integrity) {
    // the header lets a server (and bench/site_load.py) tell the precache from a page's loads
    const init = { integrity, headers: { "X-Ruleslab-Precache": OFFLINE.version } };
    try {
      const response = await fetch(key, { ...init, cache: "default" });
      if (response.ok) return response;
    } catch (err) {
      // an HTTP-cached copy of another deployment fails its integrity: fetch it afresh
    }
    const response = await fetch(key, { ...init, cache: "reload" });
    if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
    return response;
  }

  const watchers = new Set();
  function tell(message) {
    for (const port of watchers) port.postMessage(message);
  }

  /** "unknown" until looked up when the worker starts, then "empty" (this version's cache
   * does not exist yet: a first visit) or "started" (it does, or precache() made it). */
  let cacheState = "unknown";
  caches.has(CACHE).then((has) => {
    if (cacheState === "unknown") cacheState = has ? "started" : "empty";
  });

  /** The manifest's files this cache does not hold. */
  async function missing(cache) {
    const held = new Set((await cache.keys()).map((request) => request.url));
    return [...FILES].filter(([path]) => !held.has(keyOf(path)));
  }

  async function precache() {
    cacheState = "started";
    const cache = await caches.open(CACHE);
    const done = await cache.match(COMPLETE);
    let todo = await missing(cache);
    // complete only while it holds every file (the browser or the reader may delete entries)
    if (done && !todo.length) return done.json();
    if (done) await cache.delete(COMPLETE);
    const others = [];
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) others.push(await caches.open(name));
    }
    // A file taken out while filling (a damaged one, found as it was served) is fetched in
    // the next round: the cache is said complete only once it holds every file.
    for (let round = 0; todo.length; round++) {
      if (round === 3) throw new Error(`${todo.length} files could not be kept`);
      let count = FILES.size - todo.length;
      let next = 0;
      const batch = todo;
      const one = async () => {
        while (next < batch.length) {
          const [path, integrity] = batch[next++];
          const key = keyOf(path);
          const response = (await reuse(others, key, integrity)) || (await download(key, integrity));
          await cache.put(key, response);
          count += 1;
          if (count % 25 === 0) tell({ type: "progress", done: count, total: FILES.size });
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, one));
      todo = await missing(cache);
    }
    const status = { version: OFFLINE.version, files: FILES.size, bytes: OFFLINE.bytes };
    const headers = { "Content-Type": "application/json" };
    await cache.put(COMPLETE, new Response(JSON.stringify(status), { headers }));
    return status;
  }

  let precaching = null;
  let precacheFailed = false;
  let precacheDone = false;

  /** This version's cache, filled once: a failure is retried by the next worker, or on request;
   * a cache found incomplete since (deleted, or a damaged file taken out: `uncomplete`) is
   * filled again rather than reported complete from memory. */
  async function precacheOnce(retry) {
    if (precacheDone && !(await caches.match(COMPLETE, { cacheName: CACHE }))) precaching = null;
    if (!precaching || (retry && precacheFailed)) {
      precacheFailed = false;
      precacheDone = false;
      precaching = precache().then(
        (status) => {
          precacheDone = true;
          return status;
        },
        (err) => {
          precacheFailed = true;
          throw err;
        },
      );
    }
    return precaching;
  }

  /** A cached file whose bytes are not the manifest's: taken out of the cache, which is then
   * no longer complete (the next "precache" fills it again). */
  async function uncomplete(key) {
    const cache = await caches.open(CACHE);
    await cache.delete(key);
    await cache.delete(COMPLETE);
  }

  self.addEventListener("install", (event) => {
    event.stopImmediatePropagation(); // JupyterLite's own install would skip waiting on updates
    if (!self.registration.active) {
      // the first install: no page runs another version, take over at once (the drive
      // needs a controller on this very visit); the cache fills once a page asks, when idle
      self.skipWaiting();
      return;
    }
    event.waitUntil(precacheOnce(false)); // an update: complete, or not installed at all
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
    if (!hit) return fetch(event.request); // first visit: not in the cache yet
    // Served only if its bytes are the manifest's (a cache can be damaged, or written to
    // by another script of the origin): else taken out, and fetched afresh.
    const integrity = FILES.get(path);
    const bytes = await hit.arrayBuffer();
    const { status, statusText, headers } = hit;
    if ((await integrityOf(new Response(bytes))) !== integrity) {
      await uncomplete(key);
      try {
        const fresh = await download(key, integrity);
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

  self.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.ruleslab !== "offline") return;
    event.stopImmediatePropagation();
    if (data.type === "precache") {
      const port = event.ports && event.ports[0];
      if (port) watchers.add(port);
      const settle = (message) => {
        if (port) watchers.delete(port);
        reply(event, message);
      };
      const failed = (err) => ({ type: "failed", version: OFFLINE.version, text: String(err) });
      event.waitUntil(
        precacheOnce(true).then(
          (status) => settle({ type: "complete", ...status }),
          (err) => settle(failed((err && err.message) || err)),
        ),
      );
    } else if (data.type === "status") {
      const status = (hit) => ({ type: "status", version: OFFLINE.version, complete: !!hit });
      // (caches.match does not create the cache, as caches.open would)
      event.waitUntil(
        caches.match(COMPLETE, { cacheName: CACHE }).then((hit) => reply(event, status(hit))),
      );
    } else if (data.type === "activate") {
      event.waitUntil(activateIfAlone(event));
    }
  });

  importScripts(new URL(OFFLINE.jupyterlite, SCOPE).href);
})();
