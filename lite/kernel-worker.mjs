/**
 * A notebook kernel's worker, started with its page (`static/ruleslab/early-kernel.js`).
 *
 * Served as `static/ruleslab/kernel-worker.mjs`, written by tools/early_kernel.py,
 * which puts the URL of the pyodide-kernel worker in place of
 * `__PYODIDE_KERNEL_WORKER__` (its file name carries a content hash). The page
 * starts this worker as soon as it loads, with `?boot=<options>`: the options
 * the kernel will give Pyodide's `loadPyodide` (`indexURL`, `lockFileURL`,
 * `packages`, from the site's kernel settings). It imports the pyodide-kernel
 * worker (which listens for the kernel's calls from then on) and starts
 * Pyodide with those options (`bootEarly` of `ruleslab-kernel.mjs`). When
 * JupyterLab starts the notebook's kernel, the page hands it this worker
 * instead of a new one, and the kernel's own `loadPyodide` takes over the
 * interpreter started here, about 1.5 s later on a cold load. The page hands
 * it over only once it has said it loaded (its last line): a worker that failed
 * to load (a stale cache after a deploy) is never given to the kernel.
 */
import { bootEarly } from "../pyodide/ruleslab-kernel.mjs";
import "__PYODIDE_KERNEL_WORKER__";

const boot = new URL(import.meta.url).searchParams.get("boot");
if (boot) {
  bootEarly(JSON.parse(boot));
}
// the page hands this worker to the kernel only once it has loaded
self.postMessage({ ruleslabKernelWorker: "loaded" });
