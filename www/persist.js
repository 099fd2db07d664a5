// The copy of the state kept in this browser (localStorage). One entry
// holds a small header line (when it was saved, how far a test-data run
// had got) and the snapshot after it, written in one `setItem`, so the
// header can never describe another snapshot than the one beside it: a
// reload always finds a pair that belongs together.
//
//   v2 <header JSON>\n<snapshot JSON>         when it fits as it is
//   v2 <header JSON>\ngz:<base64 of gzip>     when it does not
//
//   v2 <header JSON with "where":"idb">\n   when even that is too big: the
//                                             header and the snapshot are in
//                                             IndexedDB, written before this
//                                             marker, as one record
//
// Entries written before the header existed (the bare snapshot, or
// "gz:" and the compressed one) still load.

export const KEY = "orderpay-playground/snapshot";
const V2 = "v2 ";

/** Reads the saved entry: `{header, text}`, or null when nothing is saved. */
export async function readSaved() {
  const raw = localStorage.getItem(KEY);
  if (raw === null) return null;
  let header = {};
  let body = raw;
  if (raw.startsWith(V2)) {
    const end = raw.indexOf("\n");
    if (end < 0) throw new Error("the saved entry has no snapshot after its header");
    try { header = JSON.parse(raw.slice(V2.length, end)) ?? {}; } catch { header = {}; }
    body = raw.slice(end + 1);
  }
  if (header.where === "idb") {
    const record = await idbGet();
    if (!record || typeof record.text !== "string") throw new Error("the saved state is missing from IndexedDB");
    return { header: record.header ?? {}, text: record.text };
  }
  const text = body.startsWith("gz:") ? await gunzip(body.slice(3)) : body;
  return { header, text };
}

/**
 * Writes a state too big for localStorage even compressed: the header and
 * the snapshot as one IndexedDB record (no size limit to speak of), then a
 * marker in localStorage, which tells other tabs (the storage event) and
 * the next load where to look. Resolves with the size, or rejects.
 */
export async function writeBig(header, text) {
  await idbPut({ header, text });
  localStorage.setItem(KEY, `${V2}${JSON.stringify({ ...header, where: "idb", exchanges: undefined, counters: undefined })}\n`);
  return text.length;
}

const DB = "orderpay-playground";
const STORE = "saved";

function idb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function idbPut(value) {
  const db = await idb();
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(value, "state");
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB: the write was aborted"));
    });
  } finally {
    db.close();
  }
}

async function idbGet() {
  const db = await idb();
  try {
    return await new Promise((resolve, reject) => {
      const get = db.transaction(STORE, "readonly").objectStore(STORE).get("state");
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => reject(get.error);
    });
  } finally {
    db.close();
  }
}

/**
 * Writes the snapshot as it is. Returns its size, or throws when
 * localStorage has no room for it (the caller compresses then).
 */
export function writePlain(header, text) {
  localStorage.setItem(KEY, `${V2}${JSON.stringify(header)}\n${text}`);
  return text.length;
}

/** Writes an already compressed snapshot (from `gzip`). Returns its size, or throws when even that does not fit. */
export function writePacked(header, packed) {
  localStorage.setItem(KEY, `${V2}${JSON.stringify(header)}\ngz:${packed}`);
  return packed.length;
}

export function forgetSaved() {
  localStorage.removeItem(KEY);
}

/**
 * gzip, then base64 (localStorage holds strings only), in a Worker
 * (save-worker.js): the encoding and the base64 of a large snapshot would
 * hold the page. `onProgress(share)` hears how far it got. Where no Worker
 * can be made, the same on this thread, the compression itself still off it.
 */
export function gzip(text, onProgress = () => {}) {
  const worker = compressor();
  if (!worker) return gzipHere(text);
  const id = ++lastJob;
  const done = new Promise((resolve, reject) => jobs.set(id, { text, resolve, reject, onProgress }));
  handOver(worker, id, text);
  return done;
}

const PIECE = 1 << 20;

/**
 * Posts `text` to the worker a piece at a time, a task each, so that no
 * one copy holds the page. A piece never ends between the two halves of a
 * surrogate pair: each piece is encoded on its own.
 */
async function handOver(to, id, text) {
  for (let at = 0; at < text.length || at === 0;) {
    let end = Math.min(text.length, at + PIECE);
    if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1])) end -= 1;
    to.postMessage({ id, piece: text.slice(at, end), done: end, total: text.length, last: end >= text.length });
    if (end >= text.length) return;
    at = end;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

let worker;
let lastJob = 0;
const jobs = new Map();

/** The one compression Worker, made on first use; null where Workers are not to be had. */
function compressor() {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./save-worker.js", import.meta.url), { type: "module" });
  } catch {
    worker = null;
    return worker;
  }
  worker.addEventListener("message", ({ data }) => {
    const job = jobs.get(data?.id);
    if (!job) return;
    if (typeof data.progress === "number") return job.onProgress(data.progress);
    jobs.delete(data.id);
    if (typeof data.packed === "string") job.resolve(data.packed);
    else job.reject(new Error(data.error ?? "compression failed"));
  });
  worker.addEventListener("error", (e) => {
    // A Worker that cannot start (a file missing, a policy): every waiting job is done here instead.
    e.preventDefault?.();
    worker = null;
    const waiting = [...jobs.values()];
    jobs.clear();
    for (const job of waiting) job.resolve(gzipHere(job.text));
  });
  return worker;
}

async function gzipHere(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  const packed = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < packed.length; i += 0x8000) {
    binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

async function gunzip(base64) {
  const packed = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}
