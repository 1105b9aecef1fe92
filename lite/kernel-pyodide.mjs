/**
 * The notebook kernel's Pyodide: `pyodide.mjs` (beside this file), started as early
 * as the page can, with one change made once the interpreter has started.
 *
 * The site's kernel settings point `pyodideUrl` here (tools/build_site.py writes
 * it as `static/pyodide/ruleslab-kernel.mjs`, so the kernel's `indexURL`, the
 * folder of `pyodideUrl`, is still Pyodide's own). The pyodide-kernel worker
 * calls `loadPyodide` as it would Pyodide's, then mounts the notebook's drive at
 * `/drive` and makes it the current directory.
 *
 * **The change**: Pyodide puts `""` (the current directory) first on `sys.path`, so
 * every top-level import (IPython's hundreds at the kernel's start, the
 * calculator's at Run All) first looks the name up in `/drive`, and each look
 * is a synchronous request from the kernel to the page through the service
 * worker: about 0.4 s of a notebook's start (measured: `import pyodide_kernel`
 * 0.95 s with `""` first, 0.61 s with it last, cold). Here `""` goes last: the
 * standard library and the installed packages are found first, and a module of
 * the GM's own on the drive still imports (found last), as long as its name
 * is not one of theirs (a `random.py` on the drive no longer hides `random`).
 * And the drive is searched only once the kernel has started
 * (`pyodide_kernel.kernel_instance` exists): what the kernel's own start looks
 * for there is an optional import that fails, and each look was one more
 * request to the page (48 requests, 0.27 s of a cold start, before this).
 *
 * **The early start**: a notebook page (`static/ruleslab/early-kernel.js`) starts
 * the kernel's worker as soon as the page loads, long before JupyterLab asks
 * for a kernel, as `static/ruleslab/kernel-worker.mjs`, which imports this
 * module and calls {@link bootEarly} with the options the kernel will pass,
 * then imports the pyodide-kernel worker itself. When the kernel then calls
 * {@link loadPyodide} with the same options (its own `stdout`/`stderr` aside),
 * it gets that interpreter, already started with its packages; with any other
 * options, or if the early start failed, it gets a new one, as before.
 */
import { loadPyodide as loadPyodideItself } from "./pyodide.mjs";
import { installWheelUnpacker } from "./ruleslab-wheel-unpack.mjs";

export * from "./pyodide.mjs";

const CURRENT_DIRECTORY_LAST = `
def _drive_last():
    import os
    import sys

    class DriveOnceStarted:
        """The finder of sys.path's "" (the notebook's drive): the usual one, once the
        kernel has started. Until then (the kernel's own imports) every name it is
        asked for is one the standard library and the packages lack: an optional
        import that fails (_hashlib, winreg, colorama, ...), each look a synchronous
        request to the page."""

        def __init__(self, finder):
            self._finder = finder

        def find_spec(self, name, target=None):
            kernel = sys.modules.get("pyodide_kernel")
            if getattr(kernel, "kernel_instance", None) is None:
                return None
            return self._finder.find_spec(name, target)

        def invalidate_caches(self):
            self._finder.invalidate_caches()

    def hook(path):
        if path != os.getcwd():  # (the import system looks "" up as the current directory)
            raise ImportError("only the current directory")
        for other in sys.path_hooks:
            if other is not hook:
                try:
                    return DriveOnceStarted(other(path))
                except ImportError:
                    continue
        raise ImportError("no finder for the current directory")

    if "" in sys.path:
        sys.path.remove("")
        sys.path.append("")
        sys.path_hooks.insert(0, hook)
        sys.path_importer_cache.pop("", None)


_drive_last()
del _drive_last
`;

/** Where the early start is kept: on the worker's global object, so that a second
 * instance of this module (imported under another URL) finds it too. */
const EARLY = Symbol.for("ruleslab.earlyPyodide");

/** The kernel's own output handlers: what the early start cannot know. */
const HANDLERS = new Set(["stdout", "stderr"]);

/** Hex to base64: a lock's sha256 as a fetch's `integrity`. */
function base64OfHex(hex) {
  let bytes = "";
  for (let i = 0; i < hex.length; i += 2) bytes += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return btoa(bytes);
}

/**
 * Fetch now what `loadPackage(names)` will fetch: the wheels of `names` and their
 * depends, from `lock` (the lock at `lockFileURL`; Pyodide takes the wheels from
 * the lock's folder, with their sha256 as the fetch's `integrity`). A map of
 * URL → response.
 */
async function prefetch(lock, lockFileURL, names) {
  const packages = (await lock).packages;
  const responses = new Map();
  const wanted = new Set();
  const todo = [...names];
  while (todo.length) {
    const name = todo.pop();
    const entry = packages[name];
    if (!entry || wanted.has(name)) continue;
    wanted.add(name);
    todo.push(...entry.depends);
    const url = new URL(entry.file_name, lockFileURL).href;
    const integrity = `sha256-${base64OfHex(entry.sha256)}`;
    const response = fetch(url, { integrity });
    response.catch(() => {}); // (Pyodide reports a failed download when it asks for it)
    responses.set(url, { integrity, response });
  }
  return responses;
}

/** Run `load` with `fetch` answering each prefetched URL once from `responses`. */
async function withPrefetched(responses, load) {
  if (!responses.size) return load();
  const realFetch = globalThis.fetch;
  const here = globalThis.location && globalThis.location.href;
  const prefetching = (resource, init) => {
    const url = new URL(String(resource instanceof Request ? resource.url : resource), here).href;
    const found = responses.get(url);
    if (found && (!init || !init.integrity || init.integrity === found.integrity)) {
      responses.delete(url);
      return found.response;
    }
    return realFetch(resource, init);
  };
  globalThis.fetch = prefetching;
  try {
    return await load();
  } finally {
    if (globalThis.fetch === prefetching) globalThis.fetch = realFetch;
  }
}

/**
 * Pyodide's `loadPyodide`, then the change above, then the packages `options` names:
 * their wheels fetched at once (beside the interpreter's start, as Pyodide does) and
 * unpacked by `ruleslab-wheel-unpack.mjs`, installed before they are.
 */
async function start(options) {
  const { packages = [], ...rest } = options;
  let fetched = Promise.resolve(new Map()); // (nothing to fetch over HTTP: Pyodide under Node)
  if (packages.length && /^https?:/.test(String(rest.lockFileURL))) {
    // the lock fetched once, for the prefetch and for Pyodide (which would fetch it again
    // from lockFileURL), with the folder Pyodide would take the wheels from
    const { lockFileURL } = rest;
    const lock = fetch(lockFileURL).then((response) => response.json());
    delete rest.lockFileURL;
    rest.lockFileContents = lock;
    rest.packageBaseUrl ??= new URL(".", lockFileURL).href;
    fetched = prefetch(lock, lockFileURL, packages).catch(() => new Map());
  }
  const pyodide = await loadPyodideItself({ ...rest }); // (Pyodide adds to its options)
  pyodide.runPython(CURRENT_DIRECTORY_LAST);
  installWheelUnpacker(pyodide);
  if (packages.length) {
    const responses = await fetched;
    await withPrefetched(responses, () =>
      pyodide.loadPackage(packages, { messageCallback() {} }),
    );
  }
  return pyodide;
}

/** The options that decide what `loadPyodide` starts, as comparable text. */
function startingOptions(options) {
  const kept = Object.entries(options).filter(([key]) => !HANDLERS.has(key));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(kept);
}

/**
 * Start the interpreter now, with `options` (no output handlers: its output goes
 * to the console until the kernel takes it over). Called once per worker, by
 * `kernel-worker.mjs`; a second call is ignored.
 */
export function bootEarly(options) {
  if (globalThis[EARLY]) return globalThis[EARLY].started;
  const key = startingOptions(options);
  const started = start(options);
  started.catch(() => {}); // the kernel's loadPyodide reports it, if it asks
  globalThis[EARLY] = { key, started, taken: false };
  return started;
}

/** Pyodide's `loadPyodide`, taking over the early start when `options` match it. */
export async function loadPyodide(options) {
  const early = globalThis[EARLY];
  if (early && !early.taken) {
    early.taken = true;
    if (early.key === startingOptions(options)) {
      try {
        const pyodide = await early.started;
        if (options.stdout) pyodide.setStdout({ batched: options.stdout });
        if (options.stderr) pyodide.setStderr({ batched: options.stderr });
        console.info("ruleslab: the kernel took over the interpreter started with the page");
        return pyodide;
      } catch (err) {
        console.warn("ruleslab: the early start of the kernel failed; starting again:", err);
      }
    } else {
      console.warn(
        "ruleslab: the kernel's options differ from the early start's; starting again",
        { early: early.key, kernel: startingOptions(options) },
      );
    }
  }
  return start(options);
}
