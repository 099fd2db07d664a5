// The heavy handling of a saved state, in a Worker, so the page never holds
// still for it: a snapshot of 100,000 orders is tens of megabytes of JSON,
// and each step below takes from tens of milliseconds to a second on one
// thread. The text crosses between the threads a million characters at a
// time (a copy of the whole in one message is itself a long task).
//
// Saving (the page hands the snapshot over in pieces):
//   { id, op: "pack", piece, done, total, last }
//     → { id, progress } (0..1) after each piece (when the total is known:
//       a snapshot streamed as the package makes it has none), then
//       { id, packed } (gzip, base64)
//   { id, op: "keep", header }
//     → the last packed snapshot written to IndexedDB (too big for
//       localStorage even compressed): { id, kept: size }
//   { id, op: "ids", piece, last }
//     → { id, ids }: the recent ids a snapshot offers (recent-ids.js)
// Loading (the worker hands the text back in pieces):
//   { id, op: "unpack", packed }   a compressed entry from localStorage
//   { id, op: "read-idb" }         the IndexedDB record
//   { id, op: "read-file", file }  a file the user picked to import
//     → { id, piece, share } …, then { id, end: true, header, ids, length }
// Any failure: { id, error }.
import { base64, gunzipText } from "./gzip.js";
import { idbGet, idbPut } from "./idb.js";
import { recentIds } from "./recent-ids.js";

const PIECE = 1 << 18;
const jobs = new Map();
/** The pieces of the last snapshot packed, in case localStorage refuses even the packed one. */
let kept = null;

self.addEventListener("message", ({ data }) => {
  const { id, op = "pack" } = data ?? {};
  if (op === "pack") pack(data);
  else if (op === "ids") collect(data, (text) => self.postMessage({ id, ids: recentIds(text) }));
  else if (op === "keep") answer(id, keep(id, data.header));
  else if (op === "unpack") sendText(id, gunzipText(String(data.packed ?? "")).then((text) => ({ text })));
  else if (op === "read-idb") sendText(id, readIdb());
  else if (op === "read-file") sendText(id, data.file.text().then((text) => ({ text })));
  else self.postMessage({ id, error: `unknown operation ${op}` });
});

/** Each piece goes into the compressor as it comes, in order. */
function pack({ id, piece, done, total, last }) {
  let job = jobs.get(id);
  if (!job) {
    const gzip = new CompressionStream("gzip");
    job = { writer: gzip.writable.getWriter(), packed: new Response(gzip.readable).arrayBuffer(), chain: Promise.resolve(), encoder: new TextEncoder(), pieces: [] };
    job.packed.catch(() => {}); // a failure is reported through the chain
    jobs.set(id, job);
    kept = { id, pieces: job.pieces };
  }
  const text = String(piece ?? "");
  job.pieces.push(text);
  job.chain = job.chain.then(async () => {
    if (job.failed) return;
    try {
      await job.writer.write(job.encoder.encode(text));
      if (total > 0) self.postMessage({ id, progress: Math.min(1, done / total) });
      if (!last) return;
      jobs.delete(id);
      await job.writer.close();
      self.postMessage({ id, packed: base64(new Uint8Array(await job.packed)) });
    } catch (e) {
      job.failed = true;
      jobs.delete(id);
      self.postMessage({ id, error: String(e?.message ?? e) });
    }
  });
}

/** Pieces of a text handed over with `op`; `then(text)` once the last is in. */
function collect({ id, piece, last }, then) {
  const job = jobs.get(id) ?? { pieces: [] };
  jobs.set(id, job);
  job.pieces.push(String(piece ?? ""));
  if (!last) return;
  jobs.delete(id);
  try {
    then(job.pieces.join(""));
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
}

async function keep(id, header) {
  if (kept?.id !== id) throw new Error("a newer save overtook this one");
  const text = kept.pieces.join("");
  kept = null;
  await idbPut({ header, text });
  return { kept: text.length };
}

async function readIdb() {
  const record = await idbGet();
  if (!record || typeof record.text !== "string") throw new Error("the saved state is missing from IndexedDB");
  return { text: record.text, header: record.header ?? {} };
}

function answer(id, work) {
  work.then((out) => self.postMessage({ id, ...out }), (e) => self.postMessage({ id, error: String(e?.message ?? e) }));
}

/** A text to the page in pieces (never between the halves of a surrogate pair), then its header and ids. */
async function sendText(id, work) {
  try {
    const { text, header = {} } = await work;
    for (let at = 0; at < text.length;) {
      let end = Math.min(text.length, at + PIECE);
      if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1])) end -= 1;
      self.postMessage({ id, piece: text.slice(at, end), share: end / text.length });
      at = end;
    }
    self.postMessage({ id, end: true, header, ids: recentIds(text), length: text.length });
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
}
