/**
 * How the app page's Python starts, shared by its worker (`worker.mjs`) and the worker
 * that makes a snapshot of it (`snapshot.mjs`); docs/app-page.md, "A snapshot of the
 * warmed interpreter".
 *
 * - `start(extra)`: Pyodide from the site's own distribution (`static/pyodide/`) with the
 *   app page's lock, standard library and packages, through this folder's copy of
 *   `pyodide.asm.mjs` (tools/build_app.py: the same file with one fix, so that a snapshot
 *   larger than the interpreter's first memory can be restored).
 * - The snapshot lives in Cache Storage (`CACHE`), gzipped (the browser checks its CRC on
 *   the way back) with its length and SHA-256 (checked too: a truncated or altered copy
 *   is never restored; the worker also checks the restored Python computes, within a
 *   time limit, and drops the snapshot otherwise), under a key naming this build
 *   (`VERSION`, written by tools/build_app.py from the lock, the standard library and the
 *   Pyodide runtime the page loads): a new build never restores an old snapshot.
 */
import { loadPyodide } from "../pyodide/pyodide.mjs";

/** The runtime script (1.3 MB), fetched and compiled at once but not awaited here: a
 * static import would hold up every module that imports this one, and the worker's
 * first look into Cache Storage with it. */
const createPyodideModule = import("./pyodide.asm.mjs").then((module) => module.default);

/** This build's app runtime (tools/build_app.py writes it). */
export const VERSION = /*RULESLAB-RUNTIME-VERSION*/ "dev";
/** The bytes `start()` fetches (the WebAssembly, the lock, the standard library, the
 * packages' wheels, as the files are: tools/build_app.py writes it), for the page's
 * progress; 0 where unknown. */
export const START_BYTES = /*RULESLAB-START-BYTES*/ 0;
/** The Cache Storage cache holding the snapshot (not the offline cache's prefix: the
 * service worker leaves it alone). */
export const CACHE = "ruleslab-snapshot";
export const INDEX_URL = new URL("../pyodide/", import.meta.url).href;
const KEY = new URL(`snapshot-${VERSION}.bin`, import.meta.url).href;

/** Count the bytes of every response `fetch` gives from now on (as they arrive, decoded:
 * a copy of the body is read beside the caller's), calling `report(bytes)` at most every
 * 150 ms and once more on `done()`, and `failed(url, status, body)` for a response that is
 * not ok; returns `done`, which puts the real `fetch` back.
 * The caller gets the response itself (the WebAssembly's compiled code stays cached by
 * its URL). */
export function countFetched(report, failed = () => {}) {
  const real = globalThis.fetch;
  let loaded = 0;
  let last = 0;
  const count = async (body) => {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      loaded += value.byteLength;
      const now = Date.now();
      if (now - last > 150) {
        last = now;
        report(loaded);
      }
    }
  };
  globalThis.fetch = async (...args) => {
    const response = await real(...args);
    if (!response.ok) {
      // (a file Python needs, refused: said, not waited on; the service worker's 503 says
      // why in its body)
      const why = await response.clone().text().catch(() => "");
      failed(String(response.url || args[0]), response.status, why.slice(0, 300));
    } else if (response.body) count(response.clone().body).catch(() => {}); // (a failed body: the caller's)
    return response;
  };
  return () => {
    if (globalThis.fetch !== real) globalThis.fetch = real;
    report(loaded);
  };
}

/** Pyodide, started with `extra` options (a snapshot to restore, or to make one). */
export function start(extra = {}) {
  return loadPyodide({
    indexURL: INDEX_URL,
    createPyodideModule,
    // the site's lock cut down to what the app page runs (no IPython: see
    // ruleslab_widgets/ipython_standin.py); written by tools/build_app.py
    lockFileURL: INDEX_URL + "app-lock.json",
    // the part of the standard library the app page uses (tools/build_app.py); the
    // rest is fetched only if ever imported (ruleslab_widgets/app_stdlib.py)
    stdLibURL: INDEX_URL + "app_stdlib.zip",
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
    ...extra,
  });
}

/** The URLs of the wheels the app page's packages come from (its lock's). */
export async function wheelURLs() {
  const lock = await (await fetch(INDEX_URL + "app-lock.json")).json();
  return Object.values(lock.packages).map((p) => new URL(p.file_name, INDEX_URL).href);
}

function storage() {
  return typeof caches === "undefined" ? null : caches;
}

const BYTES_HEADER = "x-ruleslab-snapshot-bytes";
const DIGEST_HEADER = "x-ruleslab-snapshot-sha256";

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This build's snapshot as bytes, checked: its gzip on the way, then its length and its
 * SHA-256 against those kept with it (a valid gzip of half the snapshot, or a flipped
 * byte, is refused, never restored). Rejects if none is kept or it cannot be read. */
export async function readSnapshot() {
  const store = storage();
  const hit = store && (await store.has(CACHE)) && (await (await store.open(CACHE)).match(KEY));
  if (!hit || !hit.body) throw new Error("no snapshot of this build is kept");
  const length = Number(hit.headers.get(BYTES_HEADER));
  const digest = hit.headers.get(DIGEST_HEADER);
  if (!Number.isSafeInteger(length) || length <= 0 || !digest) {
    throw new Error("the kept snapshot does not say its length and digest");
  }
  const plain = hit.body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(plain).arrayBuffer());
  if (bytes.length !== length) {
    throw new Error(`the kept snapshot is ${bytes.length} bytes, not ${length}: damaged`);
  }
  if ((await sha256(bytes)) !== digest) throw new Error("the kept snapshot is damaged (digest)");
  return bytes;
}

/** Whether this build's snapshot is kept. */
export async function hasSnapshot() {
  const store = storage();
  try {
    if (!store || !(await store.has(CACHE))) return false;
    return Boolean(await (await store.open(CACHE)).match(KEY));
  } catch (err) {
    return false; // (storage refused: as if none were kept)
  }
}

/** Keep `bytes` as this build's snapshot (gzipped), dropping any other build's; the
 * bytes kept. */
export async function storeSnapshot(bytes) {
  const store = storage();
  if (!store) return 0;
  const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  const body = await new Response(packed).arrayBuffer();
  const cache = await store.open(CACHE);
  for (const old of await cache.keys()) if (old.url !== KEY) await cache.delete(old);
  const headers = {
    "content-type": "application/octet-stream",
    [BYTES_HEADER]: String(bytes.length),
    [DIGEST_HEADER]: await sha256(bytes),
  };
  await cache.put(KEY, new Response(body, { headers }));
  return body.byteLength;
}

/** Forget the snapshot (every build's). */
export async function dropSnapshot() {
  const store = storage();
  if (store) {
    try {
      await store.delete(CACHE);
    } catch (err) {
      console.warn("ruleslab: could not drop the snapshot", err);
    }
  }
}
