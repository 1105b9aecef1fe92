#!/usr/bin/env node
/**
 * The notebook kernel's Pyodide module (lite/kernel-pyodide.mjs, served as
 * `static/pyodide/ruleslab-kernel.mjs`) under Node, on a built site's files, with
 * the network refused. Prints one JSON object; tests/site/test_kernel_module.py
 * decides.
 *
 * Usage: node tests/tools/kernel_module_check.mjs PYODIDE_DIR MODE
 *
 * MODE `same`: the early start (`bootEarly`) with the kernel's options, then the
 * kernel's `loadPyodide` with the same options and its own stdout: does it get
 * that interpreter, with its output? A second `loadPyodide` gets a new one.
 * MODE `other`: the kernel asks with other packages: it gets a new interpreter.
 * MODE `drive`: the current directory, before and after the kernel has started.
 */

import path from "node:path";
import { pathToFileURL } from "node:url";

const dist = path.resolve(process.argv[2] ?? "");
const mode = process.argv[3];
const realFetch = globalThis.fetch;
globalThis.fetch = async (resource, options) => {
  const url = String(resource instanceof Request ? resource.url : resource);
  if (!url.startsWith("file:")) throw new Error(`network access refused: ${url}`);
  return realFetch(resource, options);
};
const warnings = [];
const infos = [];
console.warn = (...args) => warnings.push(args.map(String).join(" "));
console.info = (...args) => infos.push(args.map(String).join(" "));

const kernel = await import(pathToFileURL(path.join(dist, "ruleslab-kernel.mjs")).href);
const base = {
  indexURL: dist + path.sep,
  lockFileURL: path.join(dist, "pyodide-lock.json"),
  packages: ["micropip"],
};
const report = { mode };

if (mode === "same" || mode === "other") {
  const early = kernel.bootEarly(base);
  const out = [];
  const asked = mode === "same" ? base : { ...base, packages: ["comm"] };
  const pyodide = await kernel.loadPyodide({ ...asked, stdout: (line) => out.push(line) });
  report.same = pyodide === (await early);
  pyodide.runPython("print('from the kernel')");
  report.stdout = out;
  report.loaded = Object.keys(pyodide.loadedPackages).sort();
  const again = await kernel.loadPyodide({ ...asked, stdout: () => {} });
  report.again_new = again !== pyodide && again !== (await early);
} else if (mode === "drive") {
  const pyodide = await kernel.loadPyodide(base);
  report.result = pyodide.runPython(`
import json, os, sys, types
os.makedirs("/drive", exist_ok=True)
os.chdir("/drive")
with open("/drive/rl_gm_before.py", "w") as f:
    f.write("X = 1\\n")
seen = {"path_last": sys.path[-1], "empty_entries": sys.path.count("")}
try:
    import rl_gm_before
    seen["before_start"] = "imported"
except ImportError:
    seen["before_start"] = "not found"
sys.modules["pyodide_kernel"] = types.SimpleNamespace(kernel_instance=object())  # started
import rl_gm_before
seen["after_start"] = rl_gm_before.X
with open("/drive/rl_gm_later.py", "w") as f:
    f.write("Y = 2\\n")
import rl_gm_later  # written after the drive's listing was read
seen["written_later"] = rl_gm_later.Y
with open("/drive/graphlib.py", "w") as f:
    f.write("HIDDEN = 1\\n")
import graphlib
seen["stdlib_first"] = hasattr(graphlib, "TopologicalSorter") and not hasattr(graphlib, "HIDDEN")
json.dumps(seen)
`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
report.warnings = warnings;
report.infos = infos;
console.log(JSON.stringify(report));
