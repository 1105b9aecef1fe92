#!/usr/bin/env node
/**
 * Compile Python sources to bytecode with the pinned Pyodide's own CPython.
 *
 * Usage:
 *   node tools/compile_pyc.mjs MANIFEST.json
 *
 * Driven by tools/bytecode.py, which writes the manifest:
 *
 *   {
 *     "indexURL": "/abs/path/node_modules/pyodide/",
 *     "root": "/abs/path/to/a/work/folder",
 *     "jobs": [{"src": "rel/in.py", "out": "rel/out.pyc", "filename": "/lib/…/in.py"}, …],
 *     "result": "rel/result.json"
 *   }
 *
 * `root` is mounted into Pyodide's file system (NODEFS) at /job; each job's
 * source is read from /job/<src>, compiled with `compile(source, filename,
 * "exec", dont_inherit=True, optimize=N)` (N: the job's "optimize", 0 if not given),
 * where `filename` becomes the code objects' co_filename (what tracebacks name), and
 * written to /job/<out> as an *unchecked hash-based* pyc (PEP 552): the import system never compares it with
 * a source or an mtime. A source that does not compile (a SyntaxError, e.g. a
 * template or Python 2 file shipped as data) is reported in the result, not
 * fatal. One process does the whole job: starting Pyodide takes ~2 s.
 *
 * The result file records what the driver checks before trusting the output:
 * Pyodide's version, its CPython version, the bytecode magic number, the cache
 * tag, sys.path (where the standard library zip is mounted), and the failures.
 * Progress goes to stderr. Exit status: 0 (even with failed sources), 2 for a
 * bad manifest or a Pyodide that does not load.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

function fail(message) {
  console.error(`compile_pyc: ${message}`);
  process.exit(2);
}

const manifestPath = process.argv[2];
if (!manifestPath || process.argv.length > 3) {
  fail("usage: node tools/compile_pyc.mjs MANIFEST.json");
}
let manifest;
try {
  manifest = JSON.parse(readFileSync(manifestPath, "utf-8"));
} catch (error) {
  fail(`cannot read the manifest ${manifestPath}: ${error}`);
}
const { indexURL, root, jobs, result } = manifest;
if (!indexURL || !root || !Array.isArray(jobs) || !result) {
  fail("the manifest needs indexURL, root, jobs and result");
}

const started = Date.now();
let pyodide;
try {
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  pyodide = await loadPyodide({
    indexURL: indexURL.endsWith(path.sep) ? indexURL : indexURL + path.sep,
    env: { HOME: "/home/pyodide", PYTHONDONTWRITEBYTECODE: "1" },
  });
} catch (error) {
  fail(`Pyodide did not load from ${indexURL}: ${error}`);
}
const loadedIn = Date.now() - started;

pyodide.FS.mkdirTree("/job");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/job");

// Progress reaches the terminal through this callback, every 200 files.
pyodide.globals.set("report_progress", (done, total) => {
  console.error(`compile_pyc: ${done}/${total} compiled`);
});
pyodide.globals.set("jobs_json", JSON.stringify(jobs));
pyodide.globals.set("result_path", `/job/${result}`);
pyodide.globals.set("pyodide_version", pyodide.version);
pyodide.globals.set("load_ms", loadedIn);

pyodide.runPython(`
import importlib.util
import json
import os
import sys
import time
import warnings
from importlib._bootstrap_external import _code_to_hash_pyc

sys.dont_write_bytecode = True
# SyntaxWarnings (invalid escapes in shipped test files, ...) are the packages'
# business; an import that compiled the source would print them, once, too.
warnings.simplefilter("ignore", SyntaxWarning)
jobs = json.loads(jobs_json)
failed = []
t0 = time.perf_counter()
for number, job in enumerate(jobs, 1):
    with open("/job/" + job["src"], "rb") as fh:
        source = fh.read()
    try:
        code = compile(source, job["filename"], "exec", dont_inherit=True, optimize=job.get("optimize", 0))
    except (SyntaxError, ValueError) as exc:  # ValueError: a null byte in the source
        failed.append({"src": job["src"], "error": f"{type(exc).__name__}: {exc}"})
        continue
    data = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
    out = "/job/" + job["out"]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as fh:
        fh.write(data)
    if number % 200 == 0 or number == len(jobs):
        report_progress(number, len(jobs))
info = {
    "pyodide": pyodide_version,
    "python": sys.version.split()[0],
    "magic": importlib.util.MAGIC_NUMBER.hex(),
    "cache_tag": sys.implementation.cache_tag,
    "sys_path": sys.path,
    "compiled": len(jobs) - len(failed),
    "failed": failed,
    "load_ms": load_ms,
    "compile_ms": round((time.perf_counter() - t0) * 1000),
}
with open(result_path, "w", encoding="utf-8") as fh:
    json.dump(info, fh)
`);
console.error(
  `compile_pyc: Pyodide ${pyodide.version} loaded in ${loadedIn} ms; ` +
    `${jobs.length} sources in ${Date.now() - started - loadedIn} ms`,
);
