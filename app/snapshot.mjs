/**
 * Makes the app page's snapshot: a worker the page starts once its calculator is live
 * and nothing of this build is kept (docs/app-page.md, "A snapshot of the warmed
 * interpreter").
 *
 * It starts Python as the app page's worker does, in an interpreter of its own (no
 * page's session is in it), imports every module a calculator may need
 * (`ruleslab_widgets.app_snapshot.prepare`), takes Pyodide's memory snapshot and keeps
 * it in Cache Storage (`python.mjs`). The next app page restores it instead of starting
 * Python. Everything it loads is already in the browser's cache from the first page:
 * it costs some seconds of one core, once per build, and no download.
 *
 * To the page: {type: "kept"} (this build's snapshot was already kept), {type:
 * "stored", bytes, kept} (the snapshot's size and what was stored, gzipped) or {type:
 * "failed", text}. The page then ends this worker.
 */
import { hasSnapshot, start, storeSnapshot } from "./python.mjs";

async function make() {
  if (await hasSnapshot()) return { type: "kept" };
  const pyodide = await start({
    packages: ["ruleslab"],
    _makeSnapshot: true,
    stdout: () => {},
  });
  const prepare = pyodide.pyimport("ruleslab_widgets.app_snapshot");
  prepare.prepare().destroy();
  prepare.destroy();
  // Pyodide's record of the packages it installed is not something a snapshot holds
  // (and the restored interpreter has not their files: app_snapshot.WheelFallback)
  for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
  const bytes = pyodide.makeMemorySnapshot();
  const kept = await storeSnapshot(bytes);
  return { type: "stored", bytes: bytes.length, kept };
}

make().then(
  (message) => self.postMessage(message),
  (err) => self.postMessage({ type: "failed", text: String((err && err.message) || err) }),
);
