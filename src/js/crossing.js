// One request across the boundary in one call. The parts request_parts.js made are
// written into the module's scratch region (src/wasm/scratch.rs) and the
// answer is read from it: wasm-bindgen's own passing made about eight calls
// into the module per request (an allocation per string, a table slot per
// header, a free) where this makes one. Internal: the package does not
// export this file.
import { TextDecoder, TextEncoder } from "./utf8_fallback.js";

// The flags of src/wasm/scratch.rs.
const PATH = 1;
const BODY_TEXT = 2;
const BODY_BYTES = 4;
const LEFT = 8;
/** The answer's header: its length, then the region's capacity. */
const HEADER = 8;
/** ASCII strings up to this long are copied by a loop, cheaper than a call into the encoder. */
const SHORT = 128;

const encoder = new TextEncoder();
// The module writes UTF-8 only, so the fatal decoder never throws; it is
// the faster one (Chromium: about 300 ns against 440 for a 170-byte
// envelope). Should it ever throw, the lossy one decodes instead.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true, fatal: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });
function decode(view) {
  try {
    return decoder.decode(view);
  } catch {
    return lossy.decode(view);
  }
}
/** Writes UTF-8 into `view` (at least 3 bytes per UTF-16 unit); a lone surrogate becomes U+FFFD. */
const encodeInto =
  typeof encoder.encodeInto === "function"
    ? (text, view) => encoder.encodeInto(text, view).written
    : (text, view) => {
        const encoded = encoder.encode(text);
        view.set(encoded);
        return encoded.length;
      };

/**
 * A view of linear memory, made again whenever the memory grew (which
 * detaches the old one). One module instance per page or process: its
 * memory is the one every crossing writes to.
 */
let bytes = new Uint8Array(0);
function memoryBytes(memory) {
  if (bytes.byteLength === 0) bytes = new Uint8Array(memory().buffer);
  return bytes;
}

function putU32(at, n) {
  bytes[at] = n & 0xff;
  bytes[at + 1] = (n >>> 8) & 0xff;
  bytes[at + 2] = (n >>> 16) & 0xff;
  bytes[at + 3] = n >>> 24;
}

function getU32(at) {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** Writes one text field at `at`; returns where the next one goes. */
function putText(text, at) {
  const start = at + 4;
  const n = text.length;
  let i = 0;
  if (n <= SHORT) {
    for (; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) break;
      bytes[start + i] = code;
    }
  }
  let written = i;
  if (i < n) {
    written += encodeInto(i === 0 ? text : text.slice(i), bytes.subarray(start + i, start + i + 3 * (n - i)));
  }
  putU32(at, written);
  return start + written;
}

/** The module's RawService with its scratch region: where it is and how much it holds. */
export class Crossing {
  #raw;
  #memory;
  #at = 0;
  #capacity = 0;

  /** `memory` returns the module's WebAssembly.Memory. */
  constructor(raw, memory) {
    this.#raw = raw;
    this.#memory = memory;
  }

  /** The envelope of one request (from requestParts()), as JSON text. `now`: the wall clock's ms, read by the caller. */
  handle(parts, now) {
    return this.#call(parts, false, now);
  }

  /** Status and headers, a newline, then the envelope, as JSON text. */
  request(parts, now) {
    return this.#call(parts, true, now);
  }

  #call(parts, full, now) {
    const { method, path, body, bytes: bodyBytes, headers, left } = parts;
    const raw = this.#raw;
    // Room for the worst case: 3 bytes of UTF-8 per UTF-16 unit.
    let units = method.length + (path?.length ?? 0) + (body?.length ?? 0) + (left?.length ?? 0);
    for (let i = 0; i < headers.length; i++) units += headers[i].length;
    const needed = 4 * (4 + headers.length) + 3 * units + (bodyBytes?.length ?? 0);
    if (needed > this.#capacity) {
      this.#at = raw.reserve(needed);
      memoryBytes(this.#memory);
      this.#capacity = getU32(this.#at + 4);
      if (this.#at === 0 || needed > this.#capacity) throw new Error("the scratch region could not be reserved");
    }
    memoryBytes(this.#memory);
    let at = this.#at;
    let flags = 0;
    at = putText(method, at);
    if (path !== undefined) {
      flags |= PATH;
      at = putText(path, at);
    } else at = putText("", at);
    if (body !== undefined) {
      flags |= BODY_TEXT;
      at = putText(body, at);
    } else if (bodyBytes !== undefined) {
      flags |= BODY_BYTES;
      putU32(at, bodyBytes.length);
      bytes.set(bodyBytes, at + 4);
      at += 4 + bodyBytes.length;
    } else at = putText("", at);
    if (left !== undefined) {
      flags |= LEFT;
      at = putText(left, at);
    } else at = putText("", at);
    for (let i = 0; i < headers.length; i++) at = putText(headers[i], at);
    const used = at - this.#at;
    // The wall clock, read once by the caller (which stamps its journal with
    // it): the module then need not call out for it.
    const answer = full ? raw.request(flags, used, now) : raw.handle(flags, used, now);
    if (answer === 0) throw new Error("the scratch region is in use");
    memoryBytes(this.#memory);
    this.#at = answer;
    this.#capacity = getU32(answer + 4);
    const length = getU32(answer);
    return decode(bytes.subarray(answer + HEADER, answer + HEADER + length));
  }
}
