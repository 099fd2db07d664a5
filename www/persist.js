// The copy of the state kept in this browser (localStorage). One entry
// holds a small header line (when it was saved, how far a test-data run
// had got) and the snapshot after it, written in one `setItem`, so the
// header can never describe another snapshot than the one beside it: a
// reload always finds a pair that belongs together.
//
//   v2 <header JSON>\n<snapshot JSON>         when it fits as it is
//   v2 <header JSON>\ngz:<base64 of gzip>     when it does not
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
  const text = body.startsWith("gz:") ? await gunzip(body.slice(3)) : body;
  return { header, text };
}

/** Only the header of the saved entry (cheap: the snapshot is not decoded), or null. */
export function readHeader() {
  const raw = localStorage.getItem(KEY);
  if (raw === null || !raw.startsWith(V2)) return null;
  const end = raw.indexOf("\n");
  try { return JSON.parse(raw.slice(V2.length, end)); } catch { return null; }
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

/** gzip, then base64 (localStorage holds strings only). CompressionStream does the work off the main thread. */
export async function gzip(text) {
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
