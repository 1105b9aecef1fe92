#!/usr/bin/env node
/**
 * Which modules of the standard library the app page imports, traced in Pyodide under
 * Node on a built site's files (tools/build_app.py, `traced_stdlib`): Pyodide started as
 * the app page's worker starts it (app/worker.mjs: the app lock, the calculator's
 * packages loaded while it starts) but on the *whole* compiled standard library, the
 * IPython stand-in, the fallback and the page's comms installed; then every calculator
 * started from a link with a bad value, computed, rolled (a seed, none, a bad one) and
 * shared, as a GM would; then everything the snapshot maker imports
 * (ruleslab_widgets.app_snapshot.prepare: every module of the app's own packages).
 *
 * Prints one JSON object: {"modules": [...]}, the dotted names of every module in
 * sys.modules loaded from the standard library's archive (packages included).
 *
 * Usage: node tools/app_stdlib_trace.mjs SITE_PYODIDE_DIR
 */

import path from "node:path";
import { pathToFileURL } from "node:url";

/** What a GM does on the app page, in Python (every calculator, as the file's comment
 * says), after the page's comms are installed; shared with
 * tests/tools/app_stdlib_check.mjs, which runs it on the cut-down library. */
export const GM_SCRIPT = `
import ipywidgets as w
from ruleslab.calculators import CALCULATORS
from ruleslab_widgets import app_page, app_snapshot

for calc in CALCULATORS:
    first = calc.params[0].name
    view = app_page.start(calc.key, f"{first}=%3Cb%3E&not_a_field=1")
    view.apply_query("")
    for spec in calc.rolls:
        view.roll(spec, w.Text(value="12345"), w.HTML())
        view.roll(spec, w.Text(value=""), w.HTML())
        view.roll(spec, w.Text(value="not a seed"), w.HTML())
    view.share_query()
app_snapshot.prepare()
`;

/** The dotted names of the modules in memory loaded from the archive at `prefix`. */
export const MODULES_FROM = (prefix) => `
import json, sys
json.dumps(sorted(
    name
    for name, module in list(sys.modules.items())
    if (getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(${JSON.stringify(prefix)})
))
`;

async function main() {
  const dist = path.resolve(process.argv[2] ?? "");
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (resource, options) => {
    const url = String(resource instanceof Request ? resource.url : resource);
    if (!url.startsWith("file:")) throw new Error(`network access refused: ${url}`);
    return realFetch(resource, options);
  };
  const { loadPyodide } = await import(pathToFileURL(path.join(dist, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: dist + path.sep,
    lockFileURL: path.join(dist, "app-lock.json"),
    packageBaseUrl: dist + path.sep,
    stdLibURL: path.join(dist, "python_stdlib.zip"),
    env: { HOME: "/home/pyodide" },
    packages: ["ruleslab"],
    stdout: () => {},
    stderr: (line) => console.error(line),
  });
  pyodide.pyimport("ruleslab_widgets.ipython_standin").install();
  pyodide.pyimport("ruleslab_widgets.app_stdlib").install(dist, () => {
    throw new Error("the trace runs on the whole standard library: nothing to fetch");
  });
  const app = pyodide.pyimport("ruleslab_widgets.app_page");
  app.install(app.pyodide_sender(() => {}));
  pyodide.runPython(GM_SCRIPT);
  const modules = JSON.parse(pyodide.runPython(MODULES_FROM("/lib/python314.zip/")));
  console.log(JSON.stringify({ modules }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
