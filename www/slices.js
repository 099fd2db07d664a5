// Long work cut into slices of a few milliseconds, with the page free in
// between: a task of 50 ms or more is a page that does not answer. Used
// for everything that grows with the state (100,000 orders make a snapshot
// of tens of megabytes): exports, downloads, loads, the request index.

/** The size of the package's pieces (snapshotPieces and the rest): 64 KB of text, a millisecond or two of work each. */
export const PIECES = Object.freeze({ size: 1 << 16 });

/** Milliseconds of work a slice may take before it lets the page in. */
export const BUDGET = 6;

/** Lets the page in: other tasks (input, painting) run before this resolves. */
export function breather() {
  return new Promise((resolve) => {
    // A message task comes sooner than setTimeout's clamped delay.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
}

/** A clock for one slice: `due()` is true once its budget is spent; `next()` waits for the page and starts another. */
export function slicer(budget = BUDGET) {
  let until = performance.now() + budget;
  return {
    due: () => performance.now() >= until,
    async next() {
      await breather();
      until = performance.now() + budget;
    },
  };
}

/**
 * Every item of `iterable` (pieces of text from the package, say), taken a
 * slice at a time: `each(item)` is called for each, and the page gets in
 * whenever a slice's budget is spent. `onProgress()` after each slice.
 */
export async function eachSliced(iterable, each, onProgress = () => {}) {
  const clock = slicer();
  for (const item of iterable) {
    each(item);
    if (clock.due()) {
      onProgress();
      await clock.next();
    }
  }
  onProgress();
}

/** Every item of `list` through `each`, a slice at a time; the clock is read every `every` items (1 where an item is much work). */
export async function forSliced(list, each, onProgress = () => {}, every = 64) {
  const clock = slicer();
  for (let i = 0; i < list.length; i++) {
    each(list[i], i);
    if ((i + 1) % every === 0 && clock.due()) {
      onProgress(i + 1, list.length);
      await clock.next();
    }
  }
  onProgress(list.length, list.length);
}

/**
 * A Blob made of text pieces as they come, a megabyte at a time: a Blob of
 * one string of tens of megabytes encodes it all as UTF-8 in one task, and
 * pieces kept until the end would outlive many garbage collections (each
 * megabyte made into a Blob at once is let go young, cheaply).
 */
export class BlobBuilder {
  #parts = [];
  #group = [];
  #size = 0;
  length = 0;

  add(piece) {
    this.#group.push(piece);
    this.#size += piece.length;
    this.length += piece.length;
    if (this.#size >= 1 << 20) this.#flush();
  }

  #flush() {
    if (!this.#group.length) return;
    this.#parts.push(new Blob(this.#group));
    this.#group = [];
    this.#size = 0;
  }

  blob(type) {
    this.#flush();
    return new Blob(this.#parts, { type });
  }
}

/**
 * A value as JSON text in pieces, written a slice at a time: objects a key
 * at a time, long lists an item at a time (each item by JSON.stringify).
 * The pieces joined are JSON.stringify(value) for plain data.
 */
export async function jsonPieces(value) {
  const out = [];
  let buffer = "";
  const clock = slicer();
  const put = (s) => {
    buffer += s;
    if (buffer.length >= 1 << 18) { out.push(buffer); buffer = ""; }
  };
  const write = async (v, depth) => {
    if (Array.isArray(v) && v.length > 32) {
      // A long list: its items are small, each written whole.
      put("[");
      for (let i = 0; i < v.length; i++) {
        put(`${i ? "," : ""}${JSON.stringify(v[i]) ?? "null"}`);
        if ((i & 15) === 15 && clock.due()) await clock.next();
      }
      put("]");
    } else if (Array.isArray(v) && depth < 6) {
      put("[");
      for (let i = 0; i < v.length; i++) {
        if (i) put(",");
        if (v[i] === undefined || typeof v[i] === "function" || typeof v[i] === "symbol") put("null");
        else await write(v[i], depth + 1);
      }
      put("]");
    } else if (v && typeof v === "object" && typeof v.toJSON !== "function" && depth < 6) {
      put("{");
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
        put(`${first ? "" : ","}${JSON.stringify(k)}:`);
        first = false;
        await write(x, depth + 1);
      }
      put("}");
    } else {
      put(JSON.stringify(v) ?? "null");
    }
  };
  await write(value, 0);
  if (buffer) out.push(buffer);
  return out;
}
