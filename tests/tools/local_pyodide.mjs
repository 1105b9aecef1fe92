/**
 * Pyodide under Node from a distribution folder (the site's `static/pyodide/`, or one
 * tools/pyodide_dist.py built), as the site loads it, with the network refused:
 * shared by the checks in this folder that run Python in Pyodide.
 */

import path from "node:path";
import { pathToFileURL } from "node:url";

/** From now on, fetch() takes local files only: nothing leaves the machine. */
function refuseNetwork() {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (resource, options) => {
    const url = String(resource instanceof Request ? resource.url : resource);
    if (!url.startsWith("file:")) throw new Error(`network access refused: ${url}`);
    return realFetch(resource, options);
  };
}

/** Pyodide from `dist` (its own stdlib zip, packages through its lock), network refused;
 * `options` add to or replace `loadPyodide`'s (`lockFileURL`, `stdLibURL`, `packages`, …). */
export async function loadLocalPyodide(dist, options = {}) {
  refuseNetwork();
  const { loadPyodide } = await import(pathToFileURL(path.join(dist, "pyodide.mjs")).href);
  return loadPyodide({
    indexURL: dist + path.sep,
    lockFileURL: path.join(dist, "pyodide-lock.json"),
    packageBaseUrl: dist + path.sep,
    env: { HOME: "/home/pyodide" },
    ...options,
  });
}
