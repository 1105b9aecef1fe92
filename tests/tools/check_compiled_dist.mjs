#!/usr/bin/env node
/**
 * Load a compiled Pyodide distribution (tools/pyodide_dist.py) in Pyodide under
 * Node, the way the site does (its own stdlib zip, packages through its lock),
 * and report how modules were loaded, as one JSON object on stdout.
 *
 * Usage: node tests/tools/check_compiled_dist.mjs DIST_DIR
 *
 * Before anything of the lock is loaded, the two places where CPython turns a
 * module's source into code are wrapped to record every call:
 * SourceLoader.source_to_code (files: site-packages) and zipimport's
 * _compile_source (the stdlib zip). With compiled files neither is ever
 * called. Read by tests/tools/test_compiled_dist.py, which decides.
 * Nothing leaves the machine: every file comes from DIST_DIR, and fetch()
 * is refused for anything but local files.
 */

import path from "node:path";

import { loadLocalPyodide } from "./local_pyodide.mjs";

const dist = path.resolve(process.argv[2] ?? "");
const pyodide = await loadLocalPyodide(dist);
pyodide.runPython(`
import sys, zipimport
from importlib import _bootstrap_external

compiled_sources = []
_source_to_code = _bootstrap_external.SourceLoader.source_to_code
_compile_source = zipimport._compile_source

def source_to_code(self, data, path, *args, **kwargs):
    compiled_sources.append(str(path))
    return _source_to_code(self, data, path, *args, **kwargs)

def compile_source(pathname, source):
    compiled_sources.append(str(pathname))
    return _compile_source(pathname, source)

_bootstrap_external.SourceLoader.source_to_code = source_to_code
zipimport._compile_source = compile_source
modules_at_start = sorted(sys.modules)
`);
const messages = [];
await pyodide.loadPackage(["ruleslab", "ipython", "jedi", "micropip"], {
  messageCallback: (m) => messages.push(m),
});
let report;
try {
  report = await pyodide.runPythonAsync(`
import importlib, json, os, sys, traceback, zipimport

names = [
    "ruleslab", "ruleslab.dice", "ruleslab_widgets", "ipywidgets", "anywidget",
    "psygnal", "comm", "traitlets", "IPython", "jedi", "parso", "pygments",
    "prompt_toolkit", "micropip", "email.message", "asyncio", "decimal", "csv",
]
for name in names:
    importlib.import_module(name)

def describe(name):
    spec = sys.modules[name].__spec__
    return {
        "loader": type(spec.loader).__name__,
        "origin": spec.origin,
        "cached": spec.cached,
        "cached_exists": bool(spec.cached) and os.path.exists(spec.cached),
    }

import ruleslab.dice
try:
    ruleslab.dice.pool_distribution(-1)
except ValueError:
    tb = traceback.format_exc()

# jedi completes from the stubs the served wheel kept (builtins, the standard
# library, a served package's) and from live objects.
import jedi

def completions(code, namespace=None):
    if namespace is None:
        found = jedi.Script(code).complete()
    else:
        found = jedi.Interpreter(code, [namespace]).complete()
    return sorted(c.name for c in found)

jedi_completions = {
    "str": completions('"abc".upp'),
    "json": completions("import json\\njson.dum"),
    "graphlib": completions("import graphlib\\ngraphlib.Topo"),
    "dataclasses": completions("import dataclasses\\ndataclasses.as"),
    "six": completions("import six\\nsix.mo"),
    "live": completions("dice.pool_d", {"dice": ruleslab.dice}),
}

# Modules the zip's importer loaded (frozen modules also name the zip in
# __file__, but their code is built into the interpreter).
zip_modules = {
    name: module.__spec__.origin
    for name, module in list(sys.modules.items())
    if isinstance(getattr(getattr(module, "__spec__", None), "loader", None), zipimport.zipimporter)
}
json.dumps({
    "python": sys.version.split()[0],
    "modules": {name: describe(name) for name in names + ["json"]},
    "zip_modules": zip_modules,
    "modules_at_start": len(modules_at_start),
    "compiled_sources": compiled_sources,
    "traceback": tb,
    "jedi": jedi_completions,
})
`);
} catch (error) {
  console.error(String(error.message ?? error)); // not the whole error: it prints Pyodide's source
  process.exit(1);
}
console.log(report);
console.error(messages.join("\n"));
