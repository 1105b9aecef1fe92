#!/usr/bin/env node
/**
 * The modules of the standard library Pyodide itself imports to start, before any
 * package or line of ours: npm's Pyodide under Node on a built site's whole compiled
 * standard library, no packages. Their bytes are part of every page's floor
 * (bench/first_bytes.py --floor).
 *
 * Prints one JSON object: {"modules": [...]} (dotted names).
 *
 * Usage: node bench/pyodide_start_modules.mjs SITE_PYODIDE_DIR
 */

import path from "node:path";
import { pathToFileURL } from "node:url";

import { MODULES_FROM } from "../tools/app_stdlib_trace.mjs";

const dist = path.resolve(process.argv[2] ?? "");
const { loadPyodide } = await import(pathToFileURL(path.join(dist, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: dist + path.sep,
  lockFileURL: path.join(dist, "app-lock.json"),
  stdLibURL: path.join(dist, "python_stdlib.zip"),
  env: { HOME: "/home/pyodide" },
  stdout: () => {},
  stderr: (line) => console.error(line),
});
const modules = JSON.parse(pyodide.runPython(MODULES_FROM("/lib/python314.zip/")));
console.log(JSON.stringify({ modules }));
