#!/usr/bin/env node
/**
 * The app page's memory snapshot, made and restored as the site does it
 * (app/snapshot.mjs, app/worker.mjs), in Pyodide under Node on a built site's files.
 *
 * 1. An interpreter started as the snapshot's maker starts it (the app page's lock,
 *    standard library and packages, through the site's fixed `static/app/pyodide.asm.mjs`)
 *    is prepared (`ruleslab_widgets.app_snapshot.prepare`) and snapshotted.
 * 2. npm's own `pyodide.asm.mjs` tries to restore that snapshot.
 * 3. Four interpreters are restored with the fixed runtime: two then call `restored`
 *    (as the worker does), two do not; each draws `random.random()`.
 * 4. In the first: every calculator is opened as a page would open it (a session with
 *    its widgets' messages), and rolls without a seed; then a module of the packages the
 *    snapshot did not import is imported (the wheels are "fetched" from the folder and
 *    counted), and a module that exists nowhere.
 *
 * Prints one JSON object; tests/site/test_app_snapshot.py decides.
 * Usage: node tests/tools/snapshot_check.mjs SITE_DIR
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { loadLocalPyodide } from "./local_pyodide.mjs";

const site = path.resolve(process.argv[2] ?? "");
const dist = path.join(site, "static", "pyodide");
const fixedURL = pathToFileURL(path.join(site, "static", "app", "pyodide.asm.mjs")).href;
const { default: fixed } = await import(fixedURL);
const base = {
  lockFileURL: path.join(dist, "app-lock.json"),
  stdLibURL: path.join(dist, "app_stdlib.zip"),
  stdout: () => {},
};
const report = {};

// 1. made
const maker = await loadLocalPyodide(dist, {
  ...base,
  packages: ["ruleslab"],
  _makeSnapshot: true,
  createPyodideModule: fixed,
});
const prep = maker.pyimport("ruleslab_widgets.app_snapshot");
const names = prep.prepare();
report.prepared = names.toJs();
names.destroy();
prep.destroy();
for (const name of Object.keys(maker.loadedPackages)) delete maker.loadedPackages[name];
const snapshot = maker.makeMemorySnapshot();
report.snapshot_bytes = snapshot.length;

// 2. npm's runtime
try {
  await loadLocalPyodide(dist, { ...base, _loadSnapshot: snapshot });
  report.unfixed = "restored";
} catch (err) {
  report.unfixed = String((err && err.message) || err);
}

// 3. restored four times
const lock = JSON.parse(readFileSync(path.join(dist, "app-lock.json"), "utf-8"));
const wheels = Object.values(lock.packages).map((p) => path.join(dist, p.file_name));
const fetched = [];
const fetchFile = (url) => {
  fetched.push(url);
  return new Uint8Array(readFileSync(url));
};
async function restore(asTheWorkerDoes) {
  const py = await loadLocalPyodide(dist, {
    ...base,
    _loadSnapshot: snapshot,
    createPyodideModule: fixed,
  });
  if (asTheWorkerDoes) {
    const after = py.pyimport("ruleslab_widgets.app_snapshot");
    after.restored.callKwargs(wheels, { fetch: fetchFile });
    after.destroy();
  }
  return py;
}
const restored = [await restore(true), await restore(true), await restore(false), await restore(false)];
report.draws = restored.map((py) => py.runPython("import random; random.random()"));

// 4. a page's work in the first
const py = restored[0];
const app = py.pyimport("ruleslab_widgets.app_page");
report.sessions = {};
const keys = py.runPython("from ruleslab.calculators import CALCULATORS; [c.key for c in CALCULATORS]");
for (const key of keys.toJs()) {
  let messages = 0;
  // (a build comes as one batch: its messages are counted)
  const sender = app.pyodide_sender((m) => (messages += m.type === "batch" ? m.messages.length : 1));
  try {
    const session = app.open_session(key, "", sender);
    py.globals.set("session", session);
    py.globals.set("key", key);
    py.runPython(`
import ipywidgets as w
from ruleslab.calculators import get
from ruleslab_widgets import app_page
with app_page._serving(session):  # (as a click on its Roll button is handled)
    for spec in get(key).rolls:
        session.view.roll(spec, w.Text(value=""), w.HTML())
`);
    session.close();
    session.destroy();
    report.sessions[key] = messages;
  } catch (err) {
    report.sessions[key] = String((err && err.message) || err).split("\n").slice(-2).join(" ");
  }
  sender.destroy();
}
keys.destroy();
report.fetched_by_pages = fetched.splice(0);
report.imports = {};
for (const name of ["psygnal.containers", "not_a_module_at_all"]) {
  try {
    py.pyimport(name);
    report.imports[name] = "ok";
  } catch (err) {
    report.imports[name] = err.type || String(err);
  }
}
report.fetched = fetched;
report.wheels = wheels;
console.log(JSON.stringify(report));
