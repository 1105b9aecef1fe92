#!/usr/bin/env node
/**
 * Run the engine's pytest suite inside Pyodide (CPython compiled to
 * WebAssembly), under Node, entirely from local files.
 *
 * Usage:
 *   node tests/pyodide/run_engine_tests.mjs [TEST_PATH] [-- PYTEST_ARGS...]
 *
 * TEST_PATH is a folder or a test file on the host (default: tests/engine of
 * this repository). The wheels and the standard library zip come from
 * build/pyodide-tests/wheels/ (made by tests/pyodide/prepare.py), or from the
 * folder named by the environment variable RULESLAB_PYODIDE_WHEELS.
 *
 * The run uses the files the site serves, compiled the same way (bytecode made
 * by this Pyodide at build time, tools/bytecode.py): the folder's sourceless
 * python_stdlib.zip (loadPyodide's stdLibURL) and compiled wheels. The install
 * check refuses a run where the standard library, a tool or the project was
 * not loaded from that bytecode.
 *
 * How it stays offline: Pyodide's runtime is read from node_modules/pyodide,
 * its standard library from the folder; no package of Pyodide's lock file is
 * loaded at all.
 * micropip is unpacked from its wheel by hand, and then installs every other
 * wheel from the mounted folder (emfs: URLs, deps=False). Every way out to
 * the network that Node offers (fetch, and sockets, which Pyodide uses for
 * Python's `socket`) is replaced by one that logs and throws, and a run that
 * tried the network exits non-zero whatever its tests did.
 *
 * Exit status: pytest's own exit code (0 only if every collected test passed
 * or was skipped; 5 if no test was collected, which is an error here too),
 * 3 if installing the wheels failed, 4 if the network was touched.
 */

import { existsSync, readdirSync, statSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const PYODIDE_DIR = path.join(REPO, "node_modules", "pyodide");
const WHEEL_DIR = path.resolve(
  process.env.RULESLAB_PYODIDE_WHEELS ?? path.join(REPO, "build", "pyodide-tests", "wheels"),
);
const STDLIB_ZIP = path.join(WHEEL_DIR, "python_stdlib.zip");
const EXIT_INSTALL_FAILED = 3;
const EXIT_NETWORK_USED = 4;
const EXIT_NO_TESTS = 5; // pytest.ExitCode.NO_TESTS_COLLECTED

/** Print a message for the person reading the log and stop with `code`. */
function fail(message, code) {
  console.error(`run_engine_tests: ${message}`);
  process.exit(code);
}

// ---------------------------------------------------------------------------
// Network guard: installed before Pyodide is even imported.

const networkAttempts = [];

/** Record an attempt to reach the network and return the error to throw. */
function blocked(what) {
  networkAttempts.push(what);
  console.error(`run_engine_tests: BLOCKED network access: ${what}`);
  return new Error(`network access is forbidden in the Pyodide test run: ${what}`);
}

/** A short description of a connect() target: "host:port", a path, or the value. */
function describeTarget(arg) {
  if (arg && typeof arg === "object") {
    return arg.path ?? `${arg.host ?? arg.hostname ?? "localhost"}:${arg.port}`;
  }
  return String(arg);
}

const realFetch = globalThis.fetch;
globalThis.fetch = async function guardedFetch(resource, options) {
  const url = String(resource instanceof Request ? resource.url : resource);
  if (url.startsWith("file:")) {
    return realFetch(resource, options); // never expected; local all the same
  }
  throw blocked(`fetch(${url})`);
};
net.Socket.prototype.connect = function guardedConnect(...args) {
  throw blocked(`socket connect to ${describeTarget(args[0])}`);
};
net.connect = net.createConnection = (...args) => {
  throw blocked(`net.connect to ${describeTarget(args[0])}`);
};
tls.connect = (...args) => {
  throw blocked(`tls.connect to ${describeTarget(args[0])}`);
};
syncBuiltinESMExports(); // so that `import("node:net")` sees the guards too

// ---------------------------------------------------------------------------
// Arguments and inputs.

const argv = process.argv.slice(2);
const dashes = argv.indexOf("--");
const positional = dashes === -1 ? argv : argv.slice(0, dashes);
const extraPytestArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
if (positional.length > 1) {
  fail(`expected at most one test path, got: ${positional.join(" ")}`, 2);
}
const testPath = path.resolve(positional[0] ?? path.join(REPO, "tests", "engine"));

if (!existsSync(path.join(PYODIDE_DIR, "pyodide.mjs"))) {
  fail(`${PYODIDE_DIR} is missing: run \`npm ci\` in ${REPO}`, 2);
}
if (!existsSync(testPath)) {
  fail(`test path ${testPath} does not exist`, 2);
}
const wheels = existsSync(WHEEL_DIR)
  ? readdirSync(WHEEL_DIR).filter((name) => name.endsWith(".whl")).sort()
  : [];
const micropipWheel = wheels.find((name) => name.startsWith("micropip-"));
if (
  !micropipWheel ||
  !wheels.some((name) => name.startsWith("pytest-")) ||
  !existsSync(STDLIB_ZIP)
) {
  fail(
    `no micropip/pytest wheels or python_stdlib.zip in ${WHEEL_DIR}: ` +
      "run `python tests/pyodide/prepare.py` first",
    2,
  );
}

// The tests are mounted at /tests/<name>; a single file is run inside its folder.
const isFile = statSync(testPath).isFile();
const hostTestDir = isFile ? path.dirname(testPath) : testPath;
const mountPoint = `/tests/${path.basename(hostTestDir)}`;
const target = isFile ? `${mountPoint}/${path.basename(testPath)}` : mountPoint;

// ---------------------------------------------------------------------------
// Pyodide.

const started = Date.now();
const { loadPyodide } = await import(pathToFileURL(path.join(PYODIDE_DIR, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: PYODIDE_DIR + path.sep,
  stdLibURL: STDLIB_ZIP, // the compiled (sourceless) standard library

  // Where a package of the lock would be looked for. None is loaded; if one
  // ever were, it would come from here or fail (never from the CDN, whose
  // URL Pyodide derives from packageBaseUrl too).
  packageBaseUrl: WHEEL_DIR + path.sep,
  packageCacheDir: WHEEL_DIR + path.sep,
  env: { HOME: "/home/pyodide", COLUMNS: "100", PYTHONDONTWRITEBYTECODE: "1" },
});
// Raw writes keep pytest's progress output as it is (no line buffering).
for (const [set, stream] of [
  [pyodide.setStdout, process.stdout],
  [pyodide.setStderr, process.stderr],
]) {
  set.call(pyodide, { write: (bytes) => (stream.write(bytes), bytes.length) });
}
const loadedIn = Date.now() - started;

const FS = pyodide.FS;
for (const [host, mount] of [
  [WHEEL_DIR, "/wheels"],
  [hostTestDir, mountPoint],
]) {
  FS.mkdirTree(mount);
  FS.mount(FS.filesystems.NODEFS, { root: host }, mount);
}

// Install: micropip by unpacking its wheel, the rest with micropip, then check
// that each distribution is there and that the packages import (micropip and
// loadPackage report some failures only by printing them).
const installScript = `
import importlib, importlib.metadata, os, site, sys, zipfile
from pathlib import Path

sys.dont_write_bytecode = True  # never write .pyc files into the mounted host folders
wheels = sorted(Path("/wheels").glob("*.whl"))
with zipfile.ZipFile(Path("/wheels") / ${JSON.stringify(micropipWheel)}) as zf:
    zf.extractall(site.getsitepackages()[0])
importlib.invalidate_caches()

import micropip

others = [w for w in wheels if not w.name.startswith("micropip-")]
await micropip.install([f"emfs:{w}" for w in others], deps=False)
importlib.invalidate_caches()

problems = []
for wheel in wheels:
    name, version = wheel.name.split("-")[:2]
    try:
        found = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        problems.append(f"{wheel.name}: not installed")
        continue
    if found != version:
        problems.append(f"{wheel.name}: installed version is {found}")
for module in ("pytest", "ruleslab"):
    try:
        importlib.import_module(module)
    except Exception as exc:
        problems.append(f"import {module}: {exc!r}")

# The same compiled files as the site: bytecode, never sources compiled here.
import json, zipimport
from importlib.machinery import SourceFileLoader, SourcelessFileLoader

def loaded_from(name, kind, where):
    spec = sys.modules[name].__spec__ if name in sys.modules else None
    if spec is None or not isinstance(spec.loader, kind) or not str(where(spec)).endswith(".pyc"):
        problems.append(f"{name} was not loaded from bytecode: {spec}")

loaded_from("json", zipimport.zipimporter, lambda spec: spec.origin)
loaded_from("pytest", SourcelessFileLoader, lambda spec: spec.origin)
loaded_from("ruleslab", SourceFileLoader, lambda spec: spec.cached)
if "ruleslab" in sys.modules and not os.path.exists(sys.modules["ruleslab"].__spec__.cached):
    problems.append("ruleslab's __pycache__ bytecode is missing")
"\\n".join(problems)
`;
let problems;
try {
  problems = await pyodide.runPythonAsync(installScript);
} catch (error) {
  fail(`installing the wheels from ${WHEEL_DIR} failed:\n${error}`, EXIT_INSTALL_FAILED);
}
if (problems) {
  fail(`installing the wheels from ${WHEEL_DIR} failed:\n${problems}`, EXIT_INSTALL_FAILED);
}
const installedIn = Date.now() - started - loadedIn;

// Run pytest. Its arguments go through a JSON string, never through code.
const pytestArgs = ["-q", "-p", "no:cacheprovider", ...extraPytestArgs, target];
pyodide.globals.set("pytest_args_json", JSON.stringify(pytestArgs));
let code;
try {
  code = pyodide.runPython(`
import json, os, pytest
os.chdir("/tests")
int(pytest.main(json.loads(pytest_args_json)))
`);
} catch (error) {
  fail(`pytest crashed inside Pyodide:\n${error}`, 1);
}
const ranIn = Date.now() - started - loadedIn - installedIn;
console.error(
  `run_engine_tests: Pyodide ${pyodide.version}; load ${loadedIn} ms, ` +
    `install ${installedIn} ms, pytest ${ranIn} ms; pytest exit code ${code}`,
);

if (networkAttempts.length > 0) {
  fail(`${networkAttempts.length} network access attempt(s) were blocked`, EXIT_NETWORK_USED);
}
if (code === EXIT_NO_TESTS) {
  fail(`no tests were collected from ${testPath}`, EXIT_NO_TESTS);
}
process.exit(code);
