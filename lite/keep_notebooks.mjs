// Keep what a GM saved in the browser across deploys of the site.
//
// Served as static/ruleslab/keep-notebooks.mjs; every JupyterLite page of the
// site awaits main(root) before it loads config-utils.js (which starts
// JupyterLite), so this runs before JupyterLite opens its storage.
//
// JupyterLite 0.8.6 keeps saved files in IndexedDB through localforage: one
// database named by contentsStorageName, the object store "files" holding
// each file's contents model under its path (no leading slash), "checkpoints"
// holding a list of models per path. A stored model shadows the served file
// of the same path (files/ + api/contents/all.json). The site's storage name
// is stable, and each served notebook carries metadata.ruleslab.published:
// the fingerprint of the cells it was published with (tools/keep_notebooks.py
// stamps it; a copy JupyterLite saves keeps it). For a stored copy of a
// served notebook, against the fingerprint the deploy publishes (the
// manifest, static/ruleslab/published.json):
//
//   stamp == published             -> "current": left as it is (edits and all)
//   cells == published             -> "adopt": left, stamped with the new version
//   cells == stamp != published    -> "refresh": an untouched copy (run, never
//                                     edited): removed, so the new version shows
//   otherwise                      -> "keep": an edited copy (or one that cannot
//                                     be compared): moved into the copies folder,
//                                     so the new version shows at its path
//
// Notebooks the GM made (paths the deploy does not serve) are never touched.
// Stores of earlier builds (contentsStorageName "ruleslab-contents-<hash>")
// are read once and what the GM saved there is brought over. Everything done
// is listed in a notice on the page until the GM dismisses it.

const NOTICE_KEY = 'ruleslab:deploy-notices';
const MIGRATED_KEY = 'ruleslab:migrated-stores';
const LOCK_NAME = 'ruleslab-keep-notebooks';
// how long the page waits for the reconciliation before starting JupyterLite anyway
const MAX_WAIT_MS = 10000;
const NOTICE_ID = 'ruleslab-deploy-notice';
// created by localforage beside the first store of a database
const BLOB_STORE = 'local-forage-detect-blob-support';

const encoder = new TextEncoder();

// Stored data is never trusted: anything read from IndexedDB or localStorage may be
// junk (another script, an old build, a corrupted profile). Nothing here throws on it:
// a value that cannot be read is left where it is (or skipped), and said when the GM
// should know.

/** A plain object (not null, not an array, not a string). */
export function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A notebook's metadata, as an object ({} when it holds none or something else). */
function metadataOf(notebook) {
  return isObject(notebook) && isObject(notebook.metadata) ? notebook.metadata : {};
}

/** A path a stored file may have: relative, no empty, `.` or `..` segment, bounded. */
export function isStoredPath(path) {
  return (
    typeof path === 'string' &&
    path.length > 0 &&
    path.length <= 1024 &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/** A stored contents model this script may move or copy: an object of a known type. */
export function isModel(model) {
  return isObject(model) && ['notebook', 'file', 'directory'].includes(model.type);
}

// ---- fingerprints and verdicts (no browser storage: also run under Node) ----

/** The sha256 (hex) of a notebook's cells, as tools/keep_notebooks.py
 * cells_fingerprint; null where the browser offers no crypto.subtle (pages
 * not served over https or from localhost). */
export async function cellsFingerprint(notebook) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) {
    return null;
  }
  const parts = [];
  for (const item of (isObject(notebook) && Array.isArray(notebook.cells)) ? notebook.cells : []) {
    const cell = isObject(item) ? item : {};
    const raw = cell.source === undefined || cell.source === null ? '' : cell.source;
    const source = encoder.encode(Array.isArray(raw) ? raw.join('') : String(raw));
    parts.push(encoder.encode(`${cell.cell_type || ''}\n${source.length}\n`), source);
  }
  const total = parts.reduce((n, part) => n + part.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The notebook in a stored contents model, or null if it holds none (or one whose
 * cells are not all objects: it cannot be compared, nor opened). */
export function notebookOf(model) {
  if (!isObject(model) || model.type !== 'notebook' || model.content === null) {
    return null;
  }
  let content = model.content;
  try {
    if (model.format === 'text') {
      content = JSON.parse(content);
    } else if (model.format === 'base64') {
      const binary = atob(content);
      const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
      content = JSON.parse(new TextDecoder('utf-8').decode(bytes));
    }
  } catch (err) {
    return null;
  }
  return isObject(content) && Array.isArray(content.cells) && content.cells.every(isObject)
    ? content
    : null;
}

/** What to do with a stored copy of a served notebook (see the top of the file). */
export async function verdict(notebook, published, stampKey) {
  const stamp = metadataOf(notebook)[stampKey];
  const made = isObject(stamp) ? stamp.published : undefined;
  if (made === published) {
    return 'current';
  }
  const cells = notebook ? await cellsFingerprint(notebook) : null;
  if (cells !== null && cells === published) {
    return 'adopt';
  }
  if (cells !== null && typeof made === 'string' && cells === made) {
    return 'refresh';
  }
  return 'keep';
}

// ---- IndexedDB, as localforage lays it out ----

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx) {
  const finished = new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
  finished.catch(() => {}); // awaited by the caller; a failed request is reported first
  return finished;
}

/** Open an existing database (null if there is none, without creating it). */
async function openExisting(name) {
  if (indexedDB.databases) {
    const names = (await indexedDB.databases()).map((info) => info.name);
    if (!names.includes(name)) {
      return null;
    }
  }
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name);
    let created = false;
    req.onupgradeneeded = () => {
      created = true; // it did not exist: undo the creation
      req.transaction.abort();
    };
    req.onsuccess = () => {
      req.result.onversionchange = () => req.result.close(); // never hold up localforage
      resolve(req.result);
    };
    req.onerror = (event) => {
      if (created) {
        event.preventDefault();
        resolve(null);
      } else {
        reject(req.error);
      }
    };
    req.onblocked = () => reject(new Error(`${name} is blocked by another tab`));
  });
}

/** Open the site's store, creating it (or the stores it lacks) as localforage would. */
async function openOrCreate(name) {
  const stores = ['files', 'counters', 'checkpoints', BLOB_STORE];
  const db = await openExisting(name);
  if (db && stores.every((store) => db.objectStoreNames.contains(store))) {
    return db;
  }
  const version = db ? db.version + 1 : 1;
  if (db) {
    db.close();
  }
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, version);
    req.onupgradeneeded = () => {
      const upgraded = req.result;
      for (const store of stores) {
        if (!upgraded.objectStoreNames.contains(store)) {
          upgraded.createObjectStore(store);
        }
      }
    };
    req.onsuccess = () => {
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    };
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error(`${name} is blocked by another tab`));
  });
}

async function readStore(db, storeName) {
  if (!db.objectStoreNames.contains(storeName)) {
    return new Map();
  }
  const tx = db.transaction(storeName, 'readonly');
  const store = tx.objectStore(storeName);
  const [keys, values] = await Promise.all([
    request(store.getAllKeys()),
    request(store.getAll()),
  ]);
  await done(tx);
  return new Map(keys.map((key, i) => [key, values[i]]));
}

/** The stored models at some paths (those present), without reading the rest. */
async function readPaths(db, storeName, paths) {
  const tx = db.transaction(storeName, 'readonly');
  const store = tx.objectStore(storeName);
  const values = await Promise.all(paths.map((path) => request(store.get(path))));
  await done(tx);
  return new Map(paths.map((path, i) => [path, values[i]]).filter(([, value]) => value));
}

// ---- names ----

function today() {
  return new Date().toISOString().slice(0, 10);
}

function splitName(path) {
  const name = path.split('/').pop();
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** A free path for a copy of `path` in `folder` (`taken`: paths in use). */
function copyPath(folder, path, label, taken) {
  const [stem, ext] = splitName(path);
  for (let n = 1; ; n++) {
    const name = `${stem} (${label}${n > 1 ? ` ${n}` : ''})${ext}`;
    const candidate = folder ? `${folder}/${name}` : name;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}

function directoryModel(path) {
  const now = new Date().toISOString();
  return {
    name: path.split('/').pop(),
    path,
    last_modified: now,
    created: now,
    format: 'json',
    mimetype: '',
    content: null,
    size: 0,
    writable: true,
    type: 'directory',
  };
}

function withContent(model, path, notebook) {
  const content = notebook === undefined ? model.content : notebook;
  const format = notebook === undefined ? model.format : 'json';
  return { ...model, name: path.split('/').pop(), path, content, format };
}

function deepCopy(value) {
  return JSON.parse(JSON.stringify(value));
}

/** The notebook with our stamp set to `{...stamp, ...fields}`. Metadata that is not
 * an object (a corrupted copy) is replaced by one, its old value kept in the stamp. */
function stamped(notebook, stampKey, fields) {
  const copy = deepCopy(notebook);
  const kept = isObject(copy.metadata) || copy.metadata === undefined
    ? {} : { invalid_metadata: copy.metadata };
  copy.metadata = metadataOf(copy);
  const stamp = isObject(copy.metadata[stampKey]) ? copy.metadata[stampKey] : {};
  copy.metadata[stampKey] = { ...stamp, ...kept, ...fields };
  return copy;
}

/** The copy of a notebook, marked with where it came from. */
function markedCopy(notebook, from, stampKey) {
  return stamped(notebook, stampKey, { copy_of: from });
}

// ---- the reconciliation ----

/** Stored copies of served notebooks in the site's store: what to do with each. */
async function planCurrent(files, manifest) {
  const plan = [];
  for (const [path, published] of Object.entries(manifest.notebooks)) {
    const model = files.get(path);
    if (model === undefined) {
      continue;
    }
    if (!isModel(model)) {
      // not a file at all (junk in the store): set aside as text, never deleted
      plan.push({ path, action: 'keep', model, notebook: null, cells: null, junk: true });
      continue;
    }
    const notebook = notebookOf(model);
    const action = await verdict(notebook, published, manifest.stampKey);
    if (action !== 'current') {
      const cells = notebook ? await cellsFingerprint(notebook) : null;
      plan.push({ path, action, model, notebook, published, cells });
    }
  }
  return plan;
}

/** Why a copy of a served notebook was kept (the notice's wording). */
function keptWhy(step, manifest) {
  if (!step.notebook) {
    return 'unreadable';
  }
  const stamp = metadataOf(step.notebook)[manifest.stampKey];
  if (!isObject(stamp) || typeof stamp.published !== 'string') {
    return 'unstamped'; // saved before the site published a notebook of that name
  }
  return step.cells === null ? 'uncompared' : 'edited';
}

/** Apply a plan in one transaction; a file that changed since it was read is left. */
async function applyCurrent(db, plan, manifest, notices) {
  const stores = db.objectStoreNames.contains('checkpoints') ? ['files', 'checkpoints'] : ['files'];
  const tx = db.transaction(stores, 'readwrite');
  const files = tx.objectStore('files');
  const checkpoints = stores.length > 1 ? tx.objectStore('checkpoints') : null;
  const finished = done(tx);
  const taken = new Set(await request(files.getAllKeys()));
  const folder = manifest.copiesFolder;
  const first = notices.length;
  for (const step of plan) {
    const now = await request(files.get(step.path));
    const same = step.junk
      ? asText(now) === asText(step.model)
      : isModel(now) && now.last_modified === step.model.last_modified;
    if (!same) {
      continue; // saved again meanwhile (another tab): judged at the next start
    }
    try {
      await applyStep(step, now, { files, checkpoints, taken, folder, manifest, notices });
    } catch (err) {
      // (a request that failed aborts the transaction: `finished` says so below)
      console.warn(`ruleslab: ${step.path} was left as it is:`, err);
      notices.push({ kind: 'unchecked', path: step.path });
    }
  }
  await committed(finished, notices.slice(first));
}

/** Any stored value as text (for a value that is not a file: kept as a text file). */
function asText(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch (err) {
    return String(value);
  }
}

/** Wait for a transaction with its notices already saved: a move is never committed
 * without the notice that says it (were the page closed in between). If the
 * transaction fails, nothing was moved: the notices saved before are put back. */
async function committed(finished, added) {
  let before = null;
  try {
    before = localStorage.getItem(NOTICE_KEY);
  } catch (err) {
    // no localStorage: the notice shows on this page only
  }
  if (added.length) {
    saveNotices([...loadNotices(), ...added]);
  }
  try {
    await finished;
  } catch (err) {
    try {
      if (before === null) {
        localStorage.removeItem(NOTICE_KEY);
      } else {
        localStorage.setItem(NOTICE_KEY, before);
      }
    } catch (ignored) {
      // as above
    }
    throw err;
  }
}

/** One step of a plan, inside applyCurrent's transaction. Its notice is pushed as
 * soon as the move is made (what follows, the checkpoints, cannot undo it). */
async function applyStep(step, now, { files, checkpoints, taken, folder, manifest, notices }) {
  if (step.action === 'adopt') {
    const notebook = stamped(step.notebook, manifest.stampKey, { published: step.published });
    files.put(withContent(now, step.path, notebook), step.path);
    return;
  }
  if (step.action === 'refresh') {
    files.delete(step.path);
    if (checkpoints) {
      checkpoints.delete(step.path);
    }
    notices.push({ kind: 'refreshed', path: step.path });
    return;
  }
  let target;
  let copy;
  if (step.junk) {
    target = copyPath(folder, `${step.path}.txt`, `unreadable, ${today()}`, taken);
    copy = { ...directoryModel(target), type: 'file', format: 'text', mimetype: 'text/plain' };
    copy.content = asText(now);
    copy.size = copy.content.length;
  } else {
    target = copyPath(folder, step.path, `my copy, ${today()}`, taken);
    copy = step.notebook
      ? withContent(now, target, markedCopy(step.notebook, step.path, manifest.stampKey))
      : withContent(now, target);
  }
  if (!taken.has(folder)) {
    files.put(directoryModel(folder), folder);
    taken.add(folder);
  }
  files.put(copy, target);
  taken.add(target);
  files.delete(step.path);
  notices.push({ kind: 'kept', path: step.path, copy: target, why: keptWhy(step, manifest) });
  if (checkpoints) {
    try {
      const saved = await request(checkpoints.get(step.path));
      if (Array.isArray(saved)) {
        checkpoints.put(saved.filter(isObject).map((m) => withContent(m, target)), target);
      }
      checkpoints.delete(step.path);
    } catch (err) {
      console.warn(`ruleslab: the checkpoints of ${step.path} were not moved:`, err);
    }
  }
}

/** Contents stores of earlier builds not yet brought over. */
async function legacyStores(manifest) {
  if (!indexedDB.databases) {
    return [];
  }
  const migrated = storedNames();
  const prefix = manifest.legacyContentsPrefix;
  return (await indexedDB.databases())
    .map((info) => info.name)
    .filter((name) => name && name.startsWith(prefix))
    .filter((name) => /^[0-9a-f]{12}$/.test(name.slice(prefix.length)))
    .filter((name) => !migrated.includes(name));
}

/** The names of the stores already brought over (strings only: junk is dropped). */
function storedNames() {
  try {
    const names = JSON.parse(localStorage.getItem(MIGRATED_KEY) || '[]');
    return Array.isArray(names) ? names.filter((name) => typeof name === 'string') : [];
  } catch (err) {
    return [];
  }
}

function rememberMigrated(names) {
  try {
    const migrated = storedNames();
    localStorage.setItem(MIGRATED_KEY, JSON.stringify([...new Set([...migrated, ...names])]));
  } catch (err) {
    // no localStorage: the next start compares again and finds the copies already there
  }
}

/** What a stored model holds, to recognise the same file saved twice. */
async function identity(model) {
  const notebook = notebookOf(model);
  if (notebook) {
    return `notebook ${await cellsFingerprint(notebook)}`;
  }
  return model.type === 'directory' ? 'directory' : `file ${JSON.stringify(model.content)}`;
}

/** Where a stored model came from: its path, or the path it is a copy of. */
function origin(model, stampKey) {
  const notebook = notebookOf(model);
  const stamp = metadataOf(notebook)[stampKey];
  return (isObject(stamp) && typeof stamp.copy_of === 'string' && stamp.copy_of) || model.path;
}

/** Bring what the GM saved under earlier builds' storage names into the site's store. */
async function migrate(names, manifest, notices) {
  const sources = [];
  const counters = new Map();
  for (const name of names) {
    const old = await openExisting(name);
    if (!old) {
      continue;
    }
    try {
      const files = await readStore(old, 'files');
      const times = [...files.values()].map((m) => Date.parse(isObject(m) && m.last_modified) || 0);
      const newest = Math.max(0, ...times);
      sources.push({ files, newest });
      // JupyterLite names a new "Untitled<n>.ipynb" from these counters and writes it
      // without looking: they must not restart below the names brought over
      for (const [key, value] of await readStore(old, 'counters')) {
        const counter = typeof key === 'string' && Number.isSafeInteger(value) && value >= 0;
        if (counter && !(counters.get(key) >= value)) {
          counters.set(key, value);
        }
      }
    } finally {
      old.close();
    }
  }
  sources.sort((a, b) => b.newest - a.newest); // the newest store's files take their paths
  const items = [];
  for (const source of sources) {
    for (const [path, model] of source.files) {
      if (!isModel(model) || !isStoredPath(path)) {
        continue; // junk (a nameless entry, a `..` folder, a string): nothing of the GM's
      }
      const notebook = notebookOf(model);
      const published = manifest.notebooks[path];
      const action = published === undefined ? 'own'
        : await verdict(notebook, published, manifest.stampKey);
      items.push({ path, model, notebook, action, identity: await identity(model) });
    }
  }
  if (items.length === 0 && counters.size === 0) {
    return;
  }
  const db = await openOrCreate(manifest.contentsStorageName);
  const first = notices.length;
  try {
    // what the site's store holds already (read first: hashing cannot run inside
    // a write transaction, which would commit while it waits)
    const held = new Set();
    for (const model of (await readStore(db, 'files')).values()) {
      if (isModel(model)) {
        held.add(`${origin(model, manifest.stampKey)}\n${await identity(model)}`);
      }
    }
    const tx = db.transaction(['files', 'counters'], 'readwrite');
    const files = tx.objectStore('files');
    const finished = done(tx);
    for (const [key, value] of counters) {
      const current = await request(tx.objectStore('counters').get(key));
      if (!(typeof current === 'number' && current >= value)) {
        tx.objectStore('counters').put(value, key);
      }
    }
    const taken = new Set(await request(files.getAllKeys()));
    const ensureFolders = (path) => {
      const parts = path.split('/').slice(0, -1);
      for (let i = 1; i <= parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (!taken.has(dir)) {
          files.put(directoryModel(dir), dir);
          taken.add(dir);
        }
      }
    };
    for (const item of items) {
      const key = `${item.path}\n${item.identity}`;
      if (item.model.type === 'directory') {
        ensureFolders(`${item.path}/x`);
      } else if (held.has(key)) {
        // already here (brought over before, or an earlier store had the same)
      } else if (['adopt', 'current', 'refresh'].includes(item.action)) {
        // the cells the deploy publishes: nothing of the GM's to keep
      } else if (item.action === 'own') {
        const target = taken.has(item.path)
          ? copyPath('', item.path, 'from before the update', taken) : item.path;
        ensureFolders(target);
        taken.add(target);
        files.put(withContent(item.model, target), target);
        notices.push({ kind: 'migrated', path: item.path, copy: target });
      } else {
        const folder = manifest.copiesFolder;
        ensureFolders(`${folder}/x`);
        const target = copyPath(folder, item.path, 'saved before the update', taken);
        taken.add(target);
        const copy = item.notebook
          ? withContent(item.model, target, markedCopy(item.notebook, item.path, manifest.stampKey))
          : withContent(item.model, target);
        files.put(copy, target);
        notices.push({ kind: 'kept', path: item.path, copy: target, why: 'earlier' });
      }
      held.add(key);
    }
    await committed(finished, notices.slice(first));
  } finally {
    db.close();
  }
}

/** Reconcile the site's store with the deploy; return the notices (new ones). */
export async function reconcile(manifest) {
  const notices = [];
  const legacy = await legacyStores(manifest);
  if (legacy.length) {
    try {
      await migrate(legacy, manifest, notices);
      rememberMigrated(legacy);
    } catch (err) {
      // tried again at the next start; the site's own store is still brought up to date
      console.warn('ruleslab: notebooks of an earlier build were not brought over:', err);
    }
  }
  const db = await openExisting(manifest.contentsStorageName);
  if (!db) {
    return notices;
  }
  try {
    if (db.objectStoreNames.contains('files')) {
      const served = await readPaths(db, 'files', Object.keys(manifest.notebooks));
      const plan = await planCurrent(served, manifest);
      if (plan.length) {
        await applyCurrent(db, plan, manifest, notices);
      }
    }
  } finally {
    db.close();
  }
  return notices;
}

/**
 * Whether this origin stores nothing this script could act on: no IndexedDB
 * database at all (no contents store, current or legacy) and no notice waiting.
 * Then there is no need to fetch the deploy's manifest before JupyterLab may
 * start (about 0.1 s of a first, cold visit). Browsers without
 * `indexedDB.databases()` always take the long way.
 */
async function nothingStored() {
  if (!indexedDB.databases) {
    return false;
  }
  try {
    if (localStorage.getItem(NOTICE_KEY)) {
      return false;
    }
  } catch (err) {
    // no localStorage: no notice can be waiting either
  }
  try {
    return (await indexedDB.databases()).length === 0;
  } catch (err) {
    return false;
  }
}

// ---- the notice ----

const KEPT_WHY = ['edited', 'earlier', 'uncompared', 'unreadable', 'unstamped'];

/** A notice as this script writes it (anything else in the store is dropped). */
export function isNotice(notice) {
  if (!isObject(notice) || !isStoredPath(notice.path)) {
    return false;
  }
  if (notice.kind === 'refreshed' || notice.kind === 'unchecked') {
    return true;
  }
  if (notice.kind === 'migrated') {
    return isStoredPath(notice.copy);
  }
  return notice.kind === 'kept' && isStoredPath(notice.copy) && KEPT_WHY.includes(notice.why);
}

/** The notices waiting in localStorage: the valid ones (junk or a corrupted store: none). */
export function loadNotices() {
  let notices;
  try {
    notices = JSON.parse(localStorage.getItem(NOTICE_KEY) || '[]');
  } catch (err) {
    return [];
  }
  return Array.isArray(notices) ? notices.filter(isNotice) : [];
}

function saveNotices(notices) {
  try {
    if (notices.length) {
      localStorage.setItem(NOTICE_KEY, JSON.stringify(notices));
    } else {
      localStorage.removeItem(NOTICE_KEY);
    }
  } catch (err) {
    // no localStorage: the notice shows on this page only
  }
}

function openPath(root, path) {
  const app = window.jupyterapp;
  if (app && app.commands && app.commands.hasCommand('docmanager:open')) {
    app.commands.execute('docmanager:open', { path });
  } else {
    window.location.href = `${root}lab/index.html?path=${encodeURIComponent(path)}`;
  }
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child); // strings become text nodes: paths are never parsed as HTML
  }
  return node;
}

function button(label, className, onClick) {
  const b = el('button', { type: 'button', class: className }, label);
  b.addEventListener('click', onClick);
  return b;
}

function noticeItem(root, notice) {
  const li = el('li', { class: `rl-deploy-${notice.kind}`, 'data-path': notice.path });
  const open = (path, label) => button(label, 'rl-deploy-open', () => openPath(root, path));
  if (notice.kind === 'kept') {
    const why = {
      edited: ': a newer version is published, and you had edited your copy. Your copy is kept as ',
      earlier: ': your copy, saved before the update, differs from the version published now. '
        + 'It is kept as ',
      uncompared: ': a newer version is published. This browser could not check your copy for '
        + 'edits (the page is not served over https), so it is kept as ',
      unreadable: ': a newer version is published. Your copy could not be read as a notebook, '
        + 'so it is kept as ',
      unstamped: ': the site now publishes a notebook of this name. The one you saved before, '
        + 'which differs from it, is kept as ',
    }[notice.why];
    li.append(
      el('strong', {}, notice.path),
      why,
      el('strong', { class: 'rl-deploy-copy' }, notice.copy),
      `; ${notice.path} is now the published version. `,
      open(notice.copy, 'Open my copy'),
      ' ',
      open(notice.path, 'Open the new version'),
    );
  } else if (notice.kind === 'unchecked') {
    li.append(
      el('strong', {}, notice.path),
      ': this browser could not check your stored copy against the published version ' +
        '(it could not be read), so it is left as it is. ',
      open(notice.path, 'Open it'),
    );
  } else if (notice.kind === 'refreshed') {
    li.append(
      el('strong', {}, notice.path),
      ': a newer version is published. Your copy had no edits to its cells, so it was '
        + 'replaced by the new version (its outputs are not kept: run it again). ',
      open(notice.path, 'Open it'),
    );
  } else {
    li.append(
      el('strong', {}, notice.copy),
      notice.copy === notice.path
        ? ': a notebook you saved before the update, brought over. '
        : `: a notebook you saved before the update as ${notice.path}, brought over under a new `
          + 'name (that name was taken). ',
      open(notice.copy, 'Open it'),
    );
  }
  return li;
}

const NOTICE_STYLE = `
#${NOTICE_ID} {
  position: fixed; right: 16px; bottom: 16px; z-index: 100000;
  max-width: min(36rem, calc(100vw - 32px)); max-height: 60vh; overflow: auto;
  box-sizing: border-box; padding: 12px 16px;
  font: 14px/1.4 -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif;
  color: var(--jp-ui-font-color1, #1a1a1a); background: var(--jp-layout-color1, #fff);
  border: 1px solid var(--jp-border-color1, #999); border-left: 4px solid #d9822b;
  border-radius: 4px; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.25);
}
#${NOTICE_ID} h2 { font-size: 15px; margin: 0 0 6px; }
#${NOTICE_ID} ul { margin: 0 0 8px; padding-left: 18px; }
#${NOTICE_ID} li { margin: 4px 0; overflow-wrap: anywhere; }
#${NOTICE_ID} button {
  font: inherit; margin: 2px 0; padding: 1px 8px; cursor: pointer; border-radius: 3px;
  color: inherit; background: var(--jp-layout-color2, #eee);
  border: 1px solid var(--jp-border-color1, #999);
}
#${NOTICE_ID} button:hover { background: var(--jp-layout-color3, #ddd); }
`;

/** Show the pending notices (all of them, until the GM dismisses them). */
export function showNotice(root, notices) {
  const old = document.getElementById(NOTICE_ID);
  if (old) {
    old.remove();
  }
  if (!notices.length) {
    return null;
  }
  if (!document.getElementById(`${NOTICE_ID}-style`)) {
    document.head.append(el('style', { id: `${NOTICE_ID}-style` }, NOTICE_STYLE));
  }
  const box = el(
    'section',
    {
      id: NOTICE_ID,
      role: 'status',
      'aria-live': 'polite',
      'aria-labelledby': `${NOTICE_ID}-title`,
    },
    el('h2', { id: `${NOTICE_ID}-title` }, 'This site was updated: your notebooks'),
    el('ul', {}, ...notices.map((notice) => noticeItem(root, notice))),
    button('Dismiss', 'rl-deploy-dismiss', () => {
      saveNotices([]);
      box.remove();
    }),
  );
  document.body.append(box);
  return box;
}

function whenBody() {
  if (document.body) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    document.addEventListener('DOMContentLoaded', resolve, { once: true });
  });
}

/** Reconcile, then show what was done. Never throws, and gives up waiting after
 * MAX_WAIT_MS (a store blocked by another tab): JupyterLite starts regardless. */
export async function main(root = '../') {
  if (await nothingStored()) {
    return; // a first visit: nothing to bring up to date, nothing to tell
  }
  const work = (async () => {
    const response = await fetch(`${root}static/ruleslab/published.json`, { cache: 'no-cache' });
    if (!response.ok) {
      throw new Error(`published.json: HTTP ${response.status}`);
    }
    const manifest = await response.json();
    const run = () => reconcile(manifest);
    const fresh = navigator.locks ? await navigator.locks.request(LOCK_NAME, run) : await run();
    // the new notices were saved with their moves; without localStorage, shown here only
    const notices = loadNotices();
    const known = new Set(notices.map((notice) => JSON.stringify(notice)));
    return [...notices, ...fresh.filter((notice) => !known.has(JSON.stringify(notice)))];
  })();
  let timer;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${MAX_WAIT_MS} ms`)), MAX_WAIT_MS);
  });
  let notices;
  try {
    notices = await Promise.race([work, late]);
  } catch (err) {
    console.warn('ruleslab: stored notebooks were not checked against this deploy:', err);
    // if it finishes after all, what it did is shown at the next start
    work.catch(() => {});
    notices = loadNotices();
  } finally {
    clearTimeout(timer);
  }
  if (notices.length && !/\/repl\/(index\.html)?$/.test(window.location.pathname)) {
    whenBody().then(() => showNotice(root, notices));
  }
}
