#!/usr/bin/env node
/**
 * `lite/wheel-unpack.mjs` (served as `static/pyodide/ruleslab-wheel-unpack.mjs`)
 * against Pyodide's own `unpack_buffer`, under Node, on a built site's Pyodide.
 * Prints one JSON object; tests/site/test_wheel_unpack.py decides.
 *
 * Usage: node tests/tools/wheel_unpack_check.mjs PYODIDE_DIR WHEEL...
 *
 * Each wheel is unpacked twice, with its metadata (`INSTALLER`, `PYODIDE_SOURCE`):
 * by `unpackWheel` into `/fast/<n>` and by Pyodide's own `unpack_buffer` into
 * `/pyodide/<n>`. Reported per wheel: whether `unpackWheel` took it, every
 * difference between the two trees (paths, bytes, modes), and both durations.
 * Then the installed `unpack_buffer` itself, if the first wheel went the fast way:
 * that wheel unpacked through it, as `loadPackage` calls it.
 */

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { loadLocalPyodide } from "./local_pyodide.mjs";

const dist = path.resolve(process.argv[2] ?? "");
const wheels = process.argv.slice(3);
const pyodide = await loadLocalPyodide(dist);
const { unpackWheel, installWheelUnpacker } = await import(
  pathToFileURL(path.join(dist, "ruleslab-wheel-unpack.mjs")).href
);
installWheelUnpacker(pyodide);

const TREE = pyodide.runPython(`
import os, stat

def _tree(root):
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            full = os.path.join(folder, name)
            mode = os.stat(full).st_mode
            with_bytes = None
            if stat.S_ISREG(mode):
                with open(full, "rb") as f:
                    with_bytes = f.read()
            found[os.path.relpath(full, root)] = (stat.S_IMODE(mode), stat.S_ISDIR(mode), with_bytes)
    return found

def _differences(a, b):
    a, b = _tree(a), _tree(b)
    out = [f"only from Pyodide: {p}" for p in sorted(set(a) - set(b))]
    out += [f"only from ours: {p}" for p in sorted(set(b) - set(a))]
    for p in sorted(set(a) & set(b)):
        if a[p][0] != b[p][0] or a[p][1] != b[p][1]:
            out.append(f"mode of {p}: {oct(a[p][0])} vs {oct(b[p][0])}")
        if a[p][2] != b[p][2]:
            out.append(f"bytes of {p}")
    return out, len(a)

_differences
`);
const ORIGINAL = pyodide.runPython(`
import pyodide._package_loader as _loader
_loader.unpack_buffer.__wrapped__
`);
const METADATA = [
  ["INSTALLER", "pyodide.loadPackage"],
  ["PYODIDE_SOURCE", "pyodide"],
];

const report = { wheels: [] };
wheels.forEach((wheel, n) => {
  const bytes = new Uint8Array(fs.readFileSync(wheel));
  const filename = path.basename(wheel);
  const entry = { wheel: filename };
  let t = performance.now();
  let taken;
  try {
    taken = unpackWheel(pyodide, bytes, `/fast/${n}`, filename, METADATA);
  } catch (err) {
    taken = `error: ${err.message}`;
  }
  entry.ms_fast = performance.now() - t;
  entry.taken = taken;
  t = performance.now();
  try {
    ORIGINAL.callKwargs(bytes, {
      filename,
      extract_dir: `/pyodide/${n}`,
      metadata: pyodide.toPy(Object.fromEntries(METADATA)),
    });
    entry.pyodide = "unpacked";
  } catch (err) {
    entry.pyodide = `error: ${String(err.message).trim().split("\n").pop()}`;
  }
  entry.ms_pyodide = performance.now() - t;
  if (taken === true) {
    const result = TREE(`/pyodide/${n}`, `/fast/${n}`).toJs();
    entry.differences = result[0];
    entry.entries = result[1];
  } else {
    entry.nothing_written = !pyodide.FS.analyzePath(`/fast/${n}`).exists;
  }
  report.wheels.push(entry);
});

// through the installed unpack_buffer, as loadPackage calls it (a wheel it takes)
if (wheels.length && report.wheels[0].taken === true) {
  const bytes = new Uint8Array(fs.readFileSync(wheels[0]));
  const calls = [];
  const spy = pyodide.runPython(`
import pyodide._package_loader as _loader
_loader.unpack_buffer
`);
  const dynlibs = spy.callKwargs({
    buffer: bytes,
    filename: path.basename(wheels[0]),
    extract_dir: "/installed",
    metadata: new Map(METADATA),
    calculate_dynlibs: true,
  });
  calls.push(Array.isArray(dynlibs) ? dynlibs.length : String(dynlibs));
  report.installed = {
    dynlibs: calls[0],
    wrapped: pyodide.runPython("hasattr(_loader.unpack_buffer, '__wrapped__')"),
    differences: TREE("/pyodide/0", "/installed").toJs()[0],
  };
}
console.log(JSON.stringify(report));
