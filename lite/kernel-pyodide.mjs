/**
 * The notebook kernel's Pyodide: `pyodide.mjs` (beside this file), and one change
 * made once the interpreter has started.
 *
 * The site's kernel settings point `pyodideUrl` here (tools/build_site.py writes
 * it as `static/pyodide/ruleslab-kernel.mjs`, so the kernel's `indexURL`, the
 * folder of `pyodideUrl`, is still Pyodide's own). The pyodide-kernel worker
 * calls `loadPyodide` as it would Pyodide's, then mounts the notebook's drive at
 * `/drive` and makes it the current directory.
 *
 * The change: Pyodide puts `""` (the current directory) first on `sys.path`, so
 * every top-level import (IPython's hundreds at the kernel's start, the
 * calculator's at Run All) first looks the name up in `/drive`, and each look
 * is a synchronous request from the kernel to the page through the service
 * worker: about 0.4 s of a notebook's start (measured: `import pyodide_kernel`
 * 0.95 s with `""` first, 0.61 s with it last, cold). Here `""` goes last: the
 * standard library and the installed packages are found first, and a module of
 * the GM's own on the drive still imports (found last), as long as its name
 * is not one of theirs (a `random.py` on the drive no longer hides `random`).
 */
import { loadPyodide as loadPyodideItself } from "./pyodide.mjs";

export * from "./pyodide.mjs";

const CURRENT_DIRECTORY_LAST = `
import sys
if "" in sys.path:
    sys.path.remove("")
    sys.path.append("")
`;

export async function loadPyodide(options) {
  const pyodide = await loadPyodideItself(options);
  pyodide.runPython(CURRENT_DIRECTORY_LAST);
  return pyodide;
}
