// Runs lite/keep_notebooks.mjs's pure functions under Node for tests/tools/test_keep_notebooks.py.
// stdin: {"module": path, "noCrypto": bool, "stampKey": str, "cases": [{"notebook", "published"}]}
// stdout: [{"fingerprint", "verdict"}] for each case.
import { pathToFileURL } from 'node:url';

let input = '';
for await (const chunk of process.stdin) {
  input += chunk;
}
const { module, noCrypto, stampKey, cases } = JSON.parse(input);
if (noCrypto) {
  // as in a page not served over https: no crypto.subtle
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
}
const keep = await import(pathToFileURL(module).href);
const out = [];
for (const { notebook, published } of cases) {
  out.push({
    fingerprint: notebook === null ? null : await keep.cellsFingerprint(notebook),
    verdict: await keep.verdict(notebook, published, stampKey),
  });
}
process.stdout.write(JSON.stringify(out));
