// The copy of the state kept in this browser, as stored: the entry's
// layout and where it goes (saved-copy.js decides when to save, and which
// tab does). One localStorage entry holds a small header line (when it was
// saved, how far a test-data run had got) and the snapshot after it,
// written in one `setItem`, so the header can never describe another
// snapshot than the one beside it: a reload always finds a pair that
// belongs together.
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
//
// Everything heavy about a large state (compressing, decompressing,
// IndexedDB, reading a file, parsing the snapshot for its recent ids) is
// done by the save worker (save-worker.js); the text crosses between the
// threads in pieces. Where no Worker can be made, the same runs here.
import { gunzipText, gzipText } from "./gzip.js";
import { idbGet, idbPut } from "./idb.js";
import { recentIds } from "./recent-ids.js";
import { breather } from "./slices.js";

export const KEY = "orderpay-playground/snapshot";
const V2 = "v2 ";

/**
 * A saved or imported state as text: `{header, pieces, length, text, ids}`.
 * `text` is the pieces joined, made only when asked for (a state that
 * came back in pieces is restored from its pieces, and a join of 35 MB is
 * a long task of its own); `ids` the recent ids it offers
 * (recent-ids.js); a saved one also says `where` it was and whether it was
 * `compressed`.
 */
function asRead(pieces, rest) {
  let text = null;
  return {
    ...rest,
    pieces,
    length: pieces.reduce((n, piece) => n + piece.length, 0),
    get text() { return (text ??= pieces.length === 1 ? pieces[0] : pieces.join("")); },
  };
}

const REFUSED_KEY = `${KEY}/refused`;

/**
 * No browser's localStorage holds more than this many characters for an
 * origin (Chromium 10 MiB counted in UTF-16, Firefox and Safari 5 MB): an
 * entry this long is never tried, since a refused write costs as much as
 * a good one (the entry is built first: 100 ms and more for a large state).
 */
export const LOCAL_STORAGE_CEILING = 5 * 1024 * 1024;

/**
 * The smallest sizes (characters) localStorage refused for a snapshot as
 * it is and compressed, remembered across loads so that each is tried
 * once per browser, not once per page load; never above the ceiling.
 */
export function refusedSizes() {
  const at = (n) => Math.min(LOCAL_STORAGE_CEILING, Number.isSafeInteger(n) ? n : Infinity);
  try {
    const { plain, packed } = JSON.parse(localStorage.getItem(REFUSED_KEY) ?? "{}") ?? {};
    return { plain: at(plain), packed: at(packed) };
  } catch {
    return { plain: LOCAL_STORAGE_CEILING, packed: LOCAL_STORAGE_CEILING };
  }
}

export function rememberRefused({ plain, packed }) {
  const below = (n) => (n < LOCAL_STORAGE_CEILING ? n : null);
  try {
    localStorage.setItem(REFUSED_KEY, JSON.stringify({ plain: below(plain), packed: below(packed) }));
  } catch { /* not remembered: tried again next time */ }
}

/** Reads the saved entry, or null when nothing is saved. `onProgress(share)` hears how far the text came back. */
export async function readSaved(onProgress = () => {}) {
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
    const saved = await viaWorker({ op: "read-idb" }, onProgress, async () => {
      const record = await idbGet();
      if (!record || typeof record.text !== "string") throw new Error("the saved state is missing from IndexedDB");
      return { text: record.text, header: record.header ?? {} };
    });
    // Assigned, not spread: a spread would read `text`, joining the pieces.
    return Object.assign(saved, { where: "IndexedDB", compressed: false });
  }
  if (body.startsWith("gz:")) {
    const saved = await viaWorker({ op: "unpack", packed: body.slice(3) }, onProgress, async () => ({ text: await gunzipText(body.slice(3)) }));
    return Object.assign(saved, { header, where: "localStorage", compressed: true });
  }
  return asRead([body], { header, ids: await idsOf(body), where: "localStorage", compressed: false });
}

/** A file the user picked, read and parsed for its ids off this thread. */
export function readFile(file, onProgress = () => {}) {
  return viaWorker({ op: "read-file", file }, onProgress, async () => ({ text: await file.text() }));
}

/** The recent ids a snapshot offers, parsed in the worker. */
export function idsOf(text) {
  const worker = compressor();
  if (!worker) return Promise.resolve(recentIds(text));
  const id = ++lastJob;
  const done = new Promise((resolve, reject) => jobs.set(id, { fallback: () => recentIds(text), resolve, reject }));
  handOver(worker, id, [text], "ids");
  return done;
}

/**
 * Writes a state too big for localStorage even compressed: the header and
 * the snapshot as one IndexedDB record (no size limit to speak of), then a
 * marker in localStorage, which tells other tabs (the storage event) and
 * the next load where to look. `packed` is the promise `gzip` gave for the
 * same text: the worker still holds that text and writes it. Resolves with
 * the size, or rejects.
 */
export async function writeBig(header, pieces, packed, length = pieces.reduce((n, piece) => n + piece.length, 0)) {
  const worker = compressor();
  const job = packed?.job;
  if (worker && job) {
    await ask(worker, { op: "keep", header }, job, async () => { await idbPut({ header, text: pieces.join("") }); return { kept: length }; });
  } else {
    await idbPut({ header, text: pieces.join("") });
  }
  localStorage.setItem(KEY, `${V2}${JSON.stringify({ ...header, where: "idb", exchanges: undefined, counters: undefined, calls: undefined })}\n`);
  return length;
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
 * gzip, then base64 (localStorage holds strings only), in the worker: the
 * encoding and the base64 of a large snapshot would hold the page.
 * `onProgress(share)` hears how far it got. The promise carries `job`, the
 * worker's name for this text, for `writeBig`.
 */
export function gzip(pieces, onProgress = () => {}) {
  const worker = compressor();
  if (!worker) return gzipText(pieces.join(""));
  const id = ++lastJob;
  const done = new Promise((resolve, reject) => jobs.set(id, { fallback: () => gzipText(pieces.join("")), resolve, reject, onProgress }));
  handOver(worker, id, pieces, "pack");
  done.job = id;
  return done;
}

/**
 * A compression fed piece by piece as the snapshot's pieces come, for a
 * state known to be too big for localStorage as it is: no copy of the
 * whole is kept on this thread. `add(piece)`, then `end()`, which gives
 * the promise `gzip` would (with its `job`). Null where no Worker can be
 * made: the caller collects the pieces and uses `gzip`.
 */
export function packer() {
  const worker = compressor();
  if (!worker) return null;
  const id = ++lastJob;
  const done = new Promise((resolve, reject) => jobs.set(id, { fallback: () => Promise.reject(new Error("the save worker stopped")), resolve, reject }));
  done.job = id;
  let held = null; // one piece held back, so that the last one can say it is the last
  return {
    add(piece) {
      if (held !== null) worker.postMessage({ id, op: "pack", piece: held, done: 0, total: 0, last: false });
      held = piece;
    },
    end() {
      worker.postMessage({ id, op: "pack", piece: held ?? "", done: 0, total: 0, last: true });
      return done;
    },
  };
}

const PIECE = 1 << 18;

/**
 * Posts the text (its pieces, in order) to the worker at most a million
 * characters at a time, a task each, so that no one copy holds the page.
 * A piece never ends between the two halves of a surrogate pair: each
 * piece is encoded on its own.
 */
async function handOver(to, id, pieces, op) {
  const total = pieces.reduce((n, piece) => n + piece.length, 0);
  let done = 0;
  const cuts = [];
  for (const piece of pieces) {
    for (let at = 0; at < piece.length;) {
      let end = Math.min(piece.length, at + PIECE);
      if (end < piece.length && /[\ud800-\udbff]/.test(piece[end - 1])) end -= 1;
      cuts.push(at === 0 && end === piece.length ? piece : piece.slice(at, end));
      at = end;
    }
  }
  if (!cuts.length) cuts.push("");
  for (let i = 0; i < cuts.length; i++) {
    done += cuts[i].length;
    to.postMessage({ id, op, piece: cuts[i], done, total, last: i === cuts.length - 1 });
    if (i < cuts.length - 1) await breather();
  }
}

/** A question to the worker about job `id`, answered in one message. */
function ask(worker, message, id, fallback) {
  const done = new Promise((resolve, reject) => jobs.set(id, { fallback, resolve, reject }));
  worker.postMessage({ ...message, id });
  return done;
}

/**
 * A text the worker makes and hands back in pieces (kept as they come: no
 * copy of the whole on this thread). Resolves as asRead.
 */
function viaWorker(message, onProgress, fallback) {
  const here = async () => {
    const { text, header = {} } = await fallback();
    return asRead([text], { header, ids: recentIds(text) });
  };
  const worker = compressor();
  if (!worker) return here();
  const id = ++lastJob;
  const done = new Promise((resolve, reject) => jobs.set(id, { fallback: here, resolve, reject, onProgress, pieces: [] }));
  worker.postMessage({ ...message, id });
  return done;
}

let worker;
let lastJob = 0;
const jobs = new Map();

/** The one save worker, made on first use; null where Workers are not to be had. */
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
    if (typeof data.progress === "number") return job.onProgress?.(data.progress);
    if (typeof data.piece === "string") {
      job.pieces.push(data.piece);
      if (typeof data.share === "number") job.onProgress?.(data.share);
      return;
    }
    jobs.delete(data.id);
    if (typeof data.error === "string") job.reject(new Error(data.error));
    else if (typeof data.packed === "string") job.resolve(data.packed);
    else if (data.ids && !data.end) job.resolve(data.ids);
    // What waits on the text (a restore) starts in a task of its own, not in this message's.
    else if (data.end) breather().then(() => job.resolve(asRead(job.pieces, { header: data.header ?? {}, ids: data.ids })));
    else job.resolve(data);
  });
  worker.addEventListener("error", (e) => {
    // A Worker that cannot start (a file missing, a policy): every waiting job is done here instead.
    e.preventDefault?.();
    worker = null;
    const waiting = [...jobs.values()];
    jobs.clear();
    for (const job of waiting) job.resolve(job.fallback());
  });
  return worker;
}
