"""Stored records with revisions: what the browser keeps, changed one record at a time.

The party (:mod:`ruleslab_widgets.party`), and later the encounter tracker, keep
their data in the site's IndexedDB (database ``ruleslab``, one origin: every page
and tab of the site shares it) as records of a *collection*: each character its own
record, under the key ``[collection, id]``, holding::

    {"format": 1, "rev": 3, "created": 1733339000000.5, "deleted": false,
     "text": "<the record's JSON, checked by Python>"}

(``format``: the layout, 1 or, for a collection whose text an earlier build cannot
read, 2: :data:`RECORD_NEWEST`; a layout above the site's own is kept, not read.)

Every write is a compare-and-swap, made in one IndexedDB transaction (transactions
on one store are run one at a time, across tabs): each changed record names the
revision it was made from (``base``, 0 for a new one) and the whole write is refused
if any record has another revision by then (another tab changed or deleted it); a
delete leaves a tombstone (``deleted``, a higher revision), so that a stale update
cannot bring the record back. A write is reported done only once it committed and a
new transaction read every record back as written. After each write a tab tells the
others (BroadcastChannel ``ruleslab-records``), which read the collection again.

What storage holds is never trusted: the page checks each record's shape (what it
found is named: "its rev is a BigInt", "an array of 2,147,483,648 items") and Python
checks its text; an unreadable record is moved to the ``set-aside`` store, never
deleted, and the set-aside store can be downloaded. Storage that cannot be opened
(private browsing, blocked) is told apart from data that cannot be read; a database
lacking a store is upgraded (its version + 1), and one that cannot be upgraded (another
tab holds it open) is read without writing (``mode`` ``"readonly"``).

:data:`RECORDS_JS` is the page's half (functions the widget's module includes);
:class:`RecordSync` the Python half: the records as last read and the writes in flight.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_RECORD_TEXT",
    "RECORDS_JS",
    "RECORD_NEWEST",
    "RECORD_PAGE_JS",
    "RecordSync",
    "Stored",
    "Unreadable",
    "Written",
]

MAX_RECORD_TEXT = 200_000
"""The longest record text the store reads back (longer ones are set aside): a writer
keeps its records within it."""

RECORD_NEWEST = 2
"""The newest record layout this site reads. A collection whose text an earlier build
cannot read is written as format 2 (:class:`RecordSync`'s ``format``: the tracker's
encounters since December 2026, their log by a table): such a build finds a format
above its own and keeps the record untouched, not read ("a later site's layout"), where
it would set an unreadable text aside. Format 1 and 2 records are read alike."""

RECORDS_JS = r"""
const RDB = "ruleslab", RECORDS = "records", ASIDE = "set-aside";
const RECORD_FORMAT = 1, RECORD_NEWEST = @RECORD_NEWEST@;
const MAX_RECORD_TEXT = @MAX_RECORD_TEXT@, OPEN_WITHIN_MS = 4000;
const RECORDS_CHANNEL = "ruleslab-records";

function rqDone(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("the write was abandoned"));
  });
}
function rqResult(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
/* Whether this page may read and write the GM's stored data (the party, the
 * encounters): a page of the site, or an embed (in a frame, `embed=` in its address)
 * whose embedding page opted in (`party=yes`, embed.js's data-party="yes"). */
function ownData() {
  const query = new URLSearchParams(window.location.search);
  let framed = true;
  try { framed = window.top !== window.self; } catch (err) {}
  if (!framed && !query.has("embed")) return true;
  return query.get("party") === "yes";
}
/* The page embedding this frame when it is of another origin than the site (a frame
 * inside a page of the site: null): an embed there writes the GM's party only once the
 * reader has allowed each change, in the frame, told which page it is shown in (the
 * party bar), and the tracker keeps nothing there. */
function foreignHost() {
  let framed = true;
  try { framed = window.top !== window.self; } catch (err) {}
  if (!framed) return null;
  const own = window.location.origin;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length) {
    const other = Array.from(ancestors).find((o) => o !== own);
    return other === undefined ? null : other === "null" ? "a page whose address is hidden" : other;
  }
  try { if (window.top.location.origin === own) return null; } catch (err) {}
  try { return new URL(document.referrer).origin; }
  catch (err) { return "a page whose address is hidden"; }
}
function errText(err) {
  return String((err && (err.name ? err.name + ": " : "") + err.message) || err);
}

/* What a stored value is, in words, never by serialising it (a BigInt, a cycle or a
 * 2**31-long array cannot be, or not quickly). */
function describe(v) {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  const t = typeof v;
  if (t === "bigint") return "a BigInt";
  if (t === "string") return `text of ${v.length.toLocaleString("en")} characters`;
  if (t !== "object") return `a ${t}`;
  if (Array.isArray(v)) return `an array of ${v.length.toLocaleString("en")} items`;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    const name = v.constructor && typeof v.constructor.name === "string" ? v.constructor.name : "";
    return `a ${name || "non-plain"} object`;
  }
  return "an object";
}

const RECORD_PARTS = ["format", "rev", "created", "deleted", "text"];
/* A stored record checked for shape: {id, rev, created, deleted, text} | {id, found} |
 * {id, newer} (a later site's layout: kept, not read). */
function checkRecord(key, v) {
  const id = Array.isArray(key) && typeof key[1] === "string" ? key[1] : null;
  const label = id === null ? describe(key) : id;
  if (id === null || id.length > 80) {
    return { id: null, key: label, found: `a key that is ${describe(key)}` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v) ||
      (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)) {
    return { id, found: describe(v) };
  }
  const extra = Object.keys(v).filter((k) => !RECORD_PARTS.includes(k));
  if (typeof v.format === "number" && Number.isSafeInteger(v.format) && v.format > RECORD_NEWEST) {
    return { id, newer: v.format };
  }
  if (!(Number.isSafeInteger(v.format) && v.format >= RECORD_FORMAT)) {
    return { id, found: `its format is ${describe(v.format)}` };
  }
  if (extra.length) {
    const names = extra.slice(0, 3).map((k) => JSON.stringify(k.slice(0, 30))).join(", ");
    return { id, found: `unexpected parts (${names})` };
  }
  if (!(typeof v.rev === "number" && Number.isSafeInteger(v.rev) && v.rev >= 1)) {
    const shown = typeof v.rev === "number" ? " " + v.rev : "";
    return { id, found: `its revision is ${describe(v.rev)}${shown}` };
  }
  if (!(typeof v.created === "number" && Number.isFinite(v.created))) {
    return { id, found: `its creation time is ${describe(v.created)}` };
  }
  if (typeof v.deleted !== "boolean") {
    return { id, found: `its deleted mark is ${describe(v.deleted)}` };
  }
  if (v.deleted) return { id, rev: v.rev, created: v.created, deleted: true, text: null };
  if (typeof v.text !== "string") return { id, found: `its text is ${describe(v.text)}` };
  if (v.text.length > MAX_RECORD_TEXT) {
    return { id, found: `its text is too long (${describe(v.text)})` };
  }
  return { id, rev: v.rev, created: v.created, deleted: false, text: v.text };
}

function quoted(names) { return names.map((s) => `“${s}”`).join(", "); }
function present(db, where) { return !!where && db.objectStoreNames.contains(where.store); }

function openAt(version, onUpgrade, late) {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = version === undefined ? indexedDB.open(RDB) : indexedDB.open(RDB, version);
    } catch (err) { reject(err); return; }
    let settled = false;
    const timer = setTimeout(() => { settled = true; reject(new Error("blocked")); },
                             OPEN_WITHIN_MS);
    req.onupgradeneeded = () => {
      const db = req.result;
      for (const name of [RECORDS, ASIDE, ...onUpgrade]) {
        if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
      }
    };
    req.onsuccess = () => {
      clearTimeout(timer);
      const db = req.result;
      db.onversionchange = () => db.close();  // (upgraded or deleted elsewhere: let it)
      if (!settled) resolve(db);
      else if (late) late(db);  // (granted after all, once the other tabs let go)
      else db.close();
      settled = true;
    };
    req.onerror = () => { clearTimeout(timer); settled = true; reject(req.error); };
    req.onblocked = () => {};  // (the timer decides: the other tabs close theirs on versionchange)
  });
}

/* The site's record store: one per page (shared by its widgets), every operation run
 * one after the other (a read never interleaves with this page's own write). */
function recordStore(extraStores = []) {
  let db = null;
  let mode = null;   // "ready" | "readonly" | "unavailable"
  let note = "";     // what opening found (an upgrade, a read-only database)
  let queue = Promise.resolve();
  const serial = (fn) => { const p = queue.then(fn); queue = p.catch(() => {}); return p; };
  const channel = typeof BroadcastChannel === "function"
    ? new BroadcastChannel(RECORDS_CHANNEL) : null;
  const listeners = new Set();
  if (channel) channel.onmessage = (e) => {
    const data = e.data;
    if (data && typeof data.collection === "string") for (const f of listeners) f(data.collection);
  };
  const wanted = [RECORDS, ASIDE, ...extraStores];

  /* The database, with every store this site needs; null while it is read-only (it
   * lacks a store and another tab keeps it from being upgraded: `early` holds what it
   * held for `collection`, read before the upgrade was tried). */
  let early = null;
  async function open(collection, legacy) {
    if (db) {
      try { db.transaction(RECORDS, "readonly").abort(); return db; } catch (err) { db = null; }
    }
    if (mode === "readonly") return null;
    if (typeof indexedDB === "undefined" || !indexedDB) {
      mode = "unavailable";
      throw new Error("this browser offers no IndexedDB");
    }
    let opened;
    try {
      opened = await openAt(undefined, extraStores);
    } catch (err) {
      mode = "unavailable";
      throw err;
    }
    const missing = wanted.filter((s) => !opened.objectStoreNames.contains(s));
    if (missing.length) {
      const from = opened.version;
      if (collection !== undefined) {
        early = await readFrom(opened, collection, legacy).catch(() => null);
      }
      opened.close();
      try {
        opened = await openAt(from + 1, extraStores, upgradedLate);
        note = `The site's storage (version ${from}) lacked ${quoted(missing)}: it was ` +
          `upgraded to version ${from + 1}, nothing in it removed.`;
      } catch (err) {
        mode = "readonly";
        const why = err.message === "blocked" ? "another tab of the site holds it open"
          : errText(err);
        note = `The site's storage (version ${from}) lacks ${quoted(missing)} and could not ` +
          `be upgraded (${why}): what it holds is shown but nothing is saved here. Close the ` +
          "site's other tabs, then reload.";
        return null;
      }
    }
    mode = "ready";
    db = opened;
    return db;
  }
  function upgradedLate(d) {  // (the other tabs let go: saved from now on, every page told)
    db = d;
    mode = "ready";
    note = "The site's storage was upgraded once the other tabs let go: it is saved again.";
    early = null;
    for (const f of listeners) f(null);
  }

  /* Every record of `collection`, checked for shape; the number set aside; and, with
   * `legacy` ({store, key}), the value an older site kept there. */
  async function readAll(collection, legacy) {
    const d = await open(collection, legacy);
    const reading = d ? await readFrom(d, collection, legacy)
      : (early || { records: [], aside: 0, legacy: null });
    return { ...reading, mode, note };
  }

  async function readFrom(d, collection, legacy) {
    const has = (s) => d.objectStoreNames.contains(s);
    const range = IDBKeyRange.bound([collection], [collection, []]);
    const stores = [RECORDS, ASIDE, ...(legacy && has(legacy.store) ? [legacy.store] : [])]
      .filter(has);
    const out = { records: [], aside: 0, legacy: null };
    if (!stores.length) return out;
    const tx = d.transaction(stores, "readonly");
    const keysReq = has(RECORDS) ? tx.objectStore(RECORDS).getAllKeys(range) : null;
    const valsReq = has(RECORDS) ? tx.objectStore(RECORDS).getAll(range) : null;
    const asideReq = has(ASIDE) ? tx.objectStore(ASIDE).count() : null;
    const legacyReq = stores.includes(legacy && legacy.store)
      ? tx.objectStore(legacy.store).get(legacy.key) : null;
    let keys = [], values = [];
    try {
      await rqDone(tx);
      if (keysReq) {
        keys = keysReq.result;
        values = valsReq.result;
      }
    } catch (err) {  // (one value the browser cannot read spoils getAll: read them one by one)
      if (!has(RECORDS)) throw err;
      const one = () => d.transaction(RECORDS, "readonly").objectStore(RECORDS);
      keys = await rqResult(one().getAllKeys(range));
      values = [];
      for (const key of keys) {
        try {
          values.push(await rqResult(one().get(key)));
        } catch (e) { values.push({ unreadable: errText(e) }); }
      }
    }
    out.records = keys.map((k, i) => {
      const v = values[i];
      if (v && typeof v === "object" && typeof v.unreadable === "string" &&
          Object.keys(v).length === 1) {
        return { id: Array.isArray(k) ? String(k[1]) : null,
                 found: `a value the browser cannot read (${v.unreadable})` };
      }
      return checkRecord(k, v);
    });
    out.aside = asideReq && typeof asideReq.result === "number" ? asideReq.result : 0;
    if (legacyReq) {
      const v = legacyReq.result;
      if (v !== undefined) {
        out.legacy = v && typeof v === "object" && typeof v.text === "string" &&
          Object.getPrototypeOf(v) === Object.prototype && v.text.length <= 2000000
          ? { version: typeof v.version === "number" ? v.version : null, text: v.text }
          : { found: describe(v) };
      }
    }
    return out;
  }

  /* One write, all or nothing: ops [{id, base, created, text (null: delete)}]. Refused
   * ({conflicts}) if any record's revision is not its base; else committed, then read
   * back ({ok, revs}); or {error}. `retire` ({store, key}): an older site's value,
   * moved to the set-aside store in the same transaction. */
  async function write(collection, ops, retire) {
    const d = await open();
    if (!d) return { error: "this page only reads the site's storage" };
    const stores = [RECORDS, ASIDE, ...(present(d, retire) ? [retire.store] : [])];
    const tx = d.transaction(stores, "readwrite");
    const store = tx.objectStore(RECORDS);
    const conflicts = [];
    const revs = {};
    const checked = new Promise((resolve) => {
      let left = ops.length;
      if (!left) resolve();
      ops.forEach((op) => {
        const req = store.get([collection, op.id]);
        req.onsuccess = () => {
          const cur = req.result;
          const rev = cur === undefined ? 0
            : cur && typeof cur === "object" && Number.isSafeInteger(cur.rev) ? cur.rev : -1;
          if (rev !== op.base) {
            conflicts.push({ id: op.id, rev, deleted: !!(cur && cur.deleted) });
          }
          if (--left === 0) resolve();
        };
      });
    });
    checked.then(() => {
      if (conflicts.length) { tx.abort(); return; }
      for (const op of ops) {
        const rev = op.base + 1;
        revs[op.id] = rev;
        const format = Number.isSafeInteger(op.format) && op.format >= RECORD_FORMAT &&
          op.format <= RECORD_NEWEST ? op.format : RECORD_FORMAT;
        store.put({ format, rev, created: op.created, deleted: op.text === null,
                    text: op.text }, [collection, op.id]);
      }
      if (stores.includes(retire && retire.store)) {
        const from = tx.objectStore(retire.store);
        const req = from.get(retire.key);
        req.onsuccess = () => {
          if (req.result === undefined) return;
          const when = new Date().toISOString();
          tx.objectStore(ASIDE).put(req.result, `${retire.store} (before records) ${when}`);
          from.delete(retire.key);
        };
      }
    });
    try {
      await rqDone(tx);
    } catch (err) {
      if (conflicts.length) return { conflicts };
      return { error: errText(err) };
    }
    // read back: "saved" only if a new transaction finds what was written
    const back = d.transaction(RECORDS, "readonly").objectStore(RECORDS);
    for (const op of ops) {
      const v = await rqResult(back.get([collection, op.id]));
      if (!v || v.rev !== revs[op.id] || (op.text === null ? !v.deleted : v.text !== op.text)) {
        return { error: "the browser did not keep what was written" };
      }
    }
    if (channel) channel.postMessage({ collection });
    return { ok: true, revs };  // (this page's other widgets: told by whoever asked)
  }

  /* Move records (by id; null: the legacy value) to the set-aside store: kept, never deleted. */
  async function setAside(collection, ids, legacy) {
    const d = await open();
    if (!d) return;
    const stores = [RECORDS, ASIDE, ...(present(d, legacy) ? [legacy.store] : [])];
    const tx = d.transaction(stores, "readwrite");
    const when = new Date().toISOString();
    for (const id of ids) {
      const [storeName, key] = id === null ? [legacy && legacy.store, legacy && legacy.key]
        : [RECORDS, [collection, id]];
      if (!stores.includes(storeName)) continue;
      const from = tx.objectStore(storeName);
      const req = from.get(key);
      req.onsuccess = () => {
        if (req.result === undefined) return;
        const what = id === null ? "(before records)" : id;
        tx.objectStore(ASIDE).put(req.result, `${collection} ${what} ${when}`);
        from.delete(key);
      };
    }
    await rqDone(tx);
  }

  /* The set-aside store as JSON text: whatever it holds, made serialisable (a BigInt as
   * {"$bigint": "…"}, a cycle as "[cycle]", a long array's first 1,000 items). */
  async function asideText() {
    const d = await open();
    if (!d) throw new Error("the site's storage is read-only here");
    const tx = d.transaction(ASIDE, "readonly");
    const keysReq = tx.objectStore(ASIDE).getAllKeys();
    const valsReq = tx.objectStore(ASIDE).getAll();
    await rqDone(tx);
    const safe = (v, seen) => {
      if (typeof v === "bigint") return { $bigint: String(v) };
      if (v === undefined) return null;
      if (typeof v === "number" && !Number.isFinite(v)) return String(v);
      if (typeof v !== "object" || v === null) return v;
      if (seen.has(v)) return "[cycle]";
      seen.add(v);
      let out;
      if (Array.isArray(v)) {
        out = Array.from({ length: Math.min(v.length, 1000) }, (_, i) => safe(v[i], seen));
        if (v.length > 1000) out = { $array_length: v.length, first: out };
      } else {
        out = {};
        for (const k of Object.keys(v).slice(0, 1000)) out[k] = safe(v[k], seen);
      }
      seen.delete(v);
      return out;
    };
    const items = keysReq.result.map((k, i) => (
      { key: safe(k, new Set()), value: safe(valsReq.result[i], new Set()) }));
    return JSON.stringify({ format: "ruleslab-set-aside", items }, null, 1);
  }

  return {
    readAll: (c, legacy) => serial(() => readAll(c, legacy)),
    write: (c, ops, retire) => serial(() => write(c, ops, retire)),
    setAside: (c, ids, legacy) => serial(() => setAside(c, ids, legacy)),
    asideText: () => serial(asideText),
    onChange(f) { listeners.add(f); return () => listeners.delete(f); },
    get mode() { return mode; },
    close() { if (channel) channel.close(); listeners.clear(); },
  };
}
""".replace("@MAX_RECORD_TEXT@", str(MAX_RECORD_TEXT)).replace(
    "@RECORD_NEWEST@", str(RECORD_NEWEST)
)
"""The page's half: ``recordStore()`` and the shape check of a stored record."""

RECORD_PAGE_JS = r"""
/* A page's side of the record-store messages its Python sends (the tracker's, the
 * sheet's), for `collection` of `store` (and the collections `also`, which a message
 * names): `load()` sends the reading ("loaded": the mode and the records, and what
 * `more()` adds), nothing of the GM's read in a frame; `messages`: "write" (the ops
 * written, "written" said back), "set_aside" (then read again) and "load" answered. */
function recordPage(store, collection, send, more = async () => ({}), also = []) {
  const named = (c) => (also.includes(c) ? c : collection);
  async function load() {
    if (!ownData() || foreignHost() !== null) {  // a frame: nothing of the GM's kept
      send({ type: "loaded", mode: "embedded" });
      return;
    }
    try { send({ type: "loaded", ...(await store.readAll(collection)), ...(await more()) }); }
    catch (err) { send({ type: "loaded", mode: "unavailable", error: errText(err) }); }
  }
  async function write(msg) {
    const where = named(msg.collection);
    let result;
    try { result = await store.write(where, Array.isArray(msg.ops) ? msg.ops : []); }
    catch (err) { result = { error: errText(err) }; }
    send({ type: "written", req: msg.req, collection: where, ...result });
  }
  async function setAside(msg) {
    const ids = msg.ids;
    try { await store.setAside(named(msg.collection), Array.isArray(ids) ? ids : []); }
    catch (err) { send({ type: "say", text: `Could not set aside (${errText(err)}).` }); }
    await load();
  }
  return { load, messages: { write, set_aside: setAside, load } };
}
"""
"""A page's answers to its Python's record-store messages (after :data:`RECORDS_JS`)."""


@dataclass(frozen=True)
class Stored:
    """One record of a collection as storage holds it (``text`` None: deleted)."""

    id: str
    rev: int
    created: float
    text: str | None


@dataclass(frozen=True)
class Unreadable:
    """A record the page could not read: its ``id`` (``None``: its key is not one) and
    what was found, in words."""

    id: str | None
    found: str


@dataclass(frozen=True)
class Written:
    """What became of one write: ``ok``; or the ``conflicts`` (``{id: revision now}``,
    0 for absent, with ``deleted`` those now deleted); or an ``error``; or, for a frame
    shown in a page of another origin, ``declined``: that page (its origin), whose change
    the reader did not allow."""

    ok: bool
    conflicts: Mapping[str, int]
    deleted: frozenset[str]
    error: str
    declined: str = ""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class RecordSync:
    """The Python half of one collection: the records as this page last read them (their
    revisions, what a write is made from) and the writes in flight, each answered once.

    ``post`` sends a message to the page. :meth:`loaded` takes the page's reading
    (``{"records": [...]}``) and returns the records and the unreadable ones;
    :meth:`write` turns ``{id: text or None}`` into one compare-and-swap write and calls
    ``done`` with its :class:`Written` when the page answers (:meth:`written`).
    """

    def __init__(
        self, collection: str, post: Callable[[dict[str, Any]], None], format: int = 1
    ) -> None:
        self.collection = collection
        self.format = format
        """The layout this page writes (:data:`RECORD_NEWEST`)."""
        self._post = post
        self.records: dict[str, Stored] = {}
        self._waiting: dict[int, Callable[[Written], None]] = {}
        self._ops: dict[int, list[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._wrote: dict[str, int] = {}
        """The revision of each record this page has written (answered done) since the
        last reading taken (:meth:`loaded`)."""

    @property
    def in_flight(self) -> bool:
        """Whether a write was sent and not yet answered."""
        return bool(self._waiting)

    def loaded(self, items: Any) -> tuple[list[Stored], list[Unreadable], int]:
        """The page's reading of the collection: the live records (by creation time), the
        unreadable ones and how many are of a newer site's layout (kept, not read). The
        revisions are remembered, tombstones included."""
        self._wrote.clear()  # (this reading is taken as holding every write answered so far)
        live: list[Stored] = []
        bad: list[Unreadable] = []
        newer = 0
        records: dict[str, Stored] = {}
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            ident = item.get("id")
            ident = ident if isinstance(ident, str) and ident else None
            if item.get("newer") is not None:
                newer += 1
                continue
            found = item.get("found")
            if found is not None or ident is None:
                bad.append(Unreadable(ident, str(found or item.get("key") or "no id")[:200]))
                continue
            rev, created, text = _int(item.get("rev")), item.get("created"), item.get("text")
            if rev is None or rev < 1 or not isinstance(created, int | float):
                bad.append(Unreadable(ident, "a record the page misread"))
                continue
            stored = Stored(ident, rev, float(created), text if isinstance(text, str) else None)
            records[ident] = stored
            if stored.text is not None and not item.get("deleted"):
                live.append(stored)
        self.records = records
        live.sort(key=lambda s: (s.created, s.id))
        return live, bad, newer

    def older(self, items: Any) -> bool:
        """Whether a reading (:meth:`loaded`'s ``items``) is older than a write of this
        page answered since: a record this page wrote is missing from it or at an earlier
        revision (the page's reads and writes are queued one after the other, so a
        reading begun before a write can reach Python after the write's answer)."""
        revs: dict[str, int] = {}
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                revs[item["id"]] = _int(item.get("rev")) or 0
        return any(revs.get(ident, 0) < rev for ident, rev in self._wrote.items())

    def write(
        self,
        changes: Mapping[str, str | None],
        done: Callable[[Written], None],
        *,
        retire: bool = False,
        base: Mapping[str, int] | None = None,
        what: str = "",
    ) -> None:
        """Write ``changes`` (``{id: text}``; ``None``: delete) in one transaction, each
        from the revision this page last read (or ``base``'s); ``retire``: move the
        older site's value aside in the same transaction. ``what``: the change in words
        ("save Kim as a new character"), for the reader to allow when the page is a frame
        shown in a page of another origin."""
        now = time.time() * 1000
        ahead = {op["id"]: op for req in sorted(self._ops) for op in self._ops[req]}
        ops = []
        for n, (ident, text) in enumerate(changes.items()):
            old = self.records.get(ident)
            sent = ahead.get(ident)  # (a write of this page not answered yet: made from it)
            rev = sent["base"] + 1 if sent else old.rev if old else 0
            rev = (base or {}).get(ident, rev)
            created = sent["created"] if sent else old.created if old else now + n / 1000
            ops.append(
                {"id": ident, "base": rev, "created": created, "text": text, "format": self.format}
            )
        req = next(self._ids)
        self._waiting[req] = done
        self._ops[req] = ops  # (what the next write is made from, if this one goes through)
        message = {"type": "write", "collection": self.collection, "req": req, "ops": ops}
        self._post({**message, "retire": retire, "what": what[:300]})

    def written(self, content: Mapping[str, Any]) -> None:
        """The page's answer to write ``content["req"]``."""
        req = _int(content.get("req"))
        if req is None or req not in self._waiting:
            return
        done = self._waiting.pop(req)
        ops = self._ops.pop(req, [])
        if content.get("ok") is True:
            for op in ops:
                ident = op["id"]
                self.records[ident] = Stored(ident, op["base"] + 1, op["created"], op["text"])
                self._wrote[ident] = op["base"] + 1
            done(Written(True, {}, frozenset(), ""))
            return
        declined = content.get("declined")
        if isinstance(declined, str) and declined:
            done(Written(False, {}, frozenset(), "", declined[:200]))
            return
        conflicts = content.get("conflicts")
        if isinstance(conflicts, list) and conflicts:
            revs: dict[str, int] = {}
            gone: set[str] = set()
            for c in conflicts:
                if isinstance(c, dict) and isinstance(c.get("id"), str):
                    revs[c["id"]] = _int(c.get("rev")) or 0
                    if c.get("deleted"):
                        gone.add(c["id"])
            done(Written(False, revs, frozenset(gone), ""))
            return
        done(Written(False, {}, frozenset(), str(content.get("error") or "unknown error")[:300]))
