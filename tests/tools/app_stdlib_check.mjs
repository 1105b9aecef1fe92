#!/usr/bin/env node
/**
 * Run the app page's Python as its worker does (app/worker.mjs), in Pyodide under
 * Node, on a built site's files: the app page's lock and its cut-down standard
 * library (static/pyodide/app_stdlib.zip), with the fallback of
 * ruleslab_widgets.app_stdlib installed; the whole python_stdlib.zip is "fetched"
 * from the folder, and each fetch is counted.
 *
 * Then, as a GM would (tools/app_stdlib_trace.mjs's GM_SCRIPT, which the build traces):
 * every calculator is started from a link with a bad value and an unknown name,
 * computes, rolls with a seed and with none, and shares a link; the snapshot maker's
 * imports. Then modules the app page never uses are imported, as a GM's code could
 * make it (some in a package the archive holds in part). Prints one JSON object: the
 * standard library's modules imported from the cut-down archive and from the whole one, the fetches
 * (before and after the GM's part), and the results of the imports.
 *
 * Usage: node tests/tools/app_stdlib_check.mjs SITE_PYODIDE_DIR
 * Read by tests/tools/test_app_stdlib.py, which decides.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { GM_SCRIPT, MODULES_FROM } from "../../tools/app_stdlib_trace.mjs";
import { loadLocalPyodide } from "./local_pyodide.mjs";

const dist = path.resolve(process.argv[2] ?? "");
const pyodide = await loadLocalPyodide(dist, {
  lockFileURL: path.join(dist, "app-lock.json"),
  stdLibURL: path.join(dist, "app_stdlib.zip"),
  packages: ["ruleslab"],
});
const fetched = [];
const fetchWhole = (url) => {
  fetched.push(url);
  return new Uint8Array(readFileSync(url.startsWith("file:") ? fileURLToPath(url) : url));
};
pyodide.pyimport("ruleslab_widgets.ipython_standin").install();
const finder = pyodide
  .pyimport("ruleslab_widgets.app_stdlib")
  .install(dist, fetchWhole);
const app = pyodide.pyimport("ruleslab_widgets.app_page");
app.install(app.pyodide_sender(() => {}));
pyodide.runPython(GM_SCRIPT);
const used = JSON.parse(pyodide.runPython(MODULES_FROM("/lib/python314.zip/")));
const fetchesBefore = fetched.length;
const imports = JSON.parse(
  pyodide.runPython(`
imports = {}
for name in ("xml.dom.minidom", "unittest.mock", "shlex", "email.mime.text", "json.tool",
             "not_a_module_at_all", "email.not_a_module_at_all"):
    try:
        __import__(name)
        imports[name] = "ok"
    except ImportError as exc:
        imports[name] = type(exc).__name__
json.dumps(imports)
`),
);
const whole = JSON.parse(pyodide.runPython(MODULES_FROM("/lib/python-stdlib-full.zip/")));
console.log(
  JSON.stringify({
    used,
    whole,
    fetches_before: fetchesBefore,
    fetched,
    imports,
    finder: finder ? "installed" : "none",
  }),
);
