// Whatever a caller passed to handle or request, turned into the plain
// parts the WebAssembly module takes: strings, bytes, and headers as a flat
// list of names and values. Internal: the package does not export it.
//
// Every read of a caller's value (getters, proxy traps, iterators,
// toJSON) happens here, in JS, inside try/catch, before the module is
// called: what throws becomes a 400 that names the argument, and nothing
// can unwind through the module. Parts over a limit are measured, not
// copied: the module gets their size, and answers 413, 414 or 431.

import { presetText } from "./presets.js";

/**
 * The core's limits (src/gateway/request.rs), in UTF-16 code units, which
 * UTF-8 never undercuts. Copied, not asked of the module: they are read
 * before the module is called, for every request. The server's body limit
 * is MAX_BODY too. tests/node/limits.test.mjs holds them to the `x-limits`
 * of the core's OpenAPI document.
 */
export const MAX_PATH = 8 * 1024;
export const MAX_BODY = 1024 * 1024;
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_HEADER_COUNT = 1000;
/** The core reads 32 characters of a method after trimming it; more is never needed. */
const MAX_METHOD = 256;
/** Problems quote the caller's text (an error message, a header name) at most this long. */
const MAX_QUOTE = 200;

// The intrinsic getters of typed arrays read internal slots, so a subclass,
// an own property or a proxy cannot lie about what the bytes are.
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (name) => Object.getOwnPropertyDescriptor(TypedArray, name).get;
const typedName = getter(Symbol.toStringTag);
const typedBuffer = getter("buffer");
const typedOffset = getter("byteOffset");
const typedLength = getter("byteLength");
const { isArray } = Array;
const { stringify } = JSON;

/**
 * A body a server stopped reading once it was over the limit (the server
 * passes this instead of bytes): the size its content-length declared, or
 * none when reading stopped past the limit, so the service's answer and
 * log name what the server knows. Only the package's server makes one;
 * the private field cannot be forged, and checking for it runs no code of
 * the caller's (a proxy's traps included).
 */
export class UnreadBody {
  #declared;
  /** `declared`: a whole number of bytes over the limit, or undefined. */
  constructor(declared) {
    this.#declared = Number.isSafeInteger(declared) && declared > MAX_BODY ? declared : undefined;
    Object.freeze(this);
  }
  /** `true` when no size was declared, else the declared size, for `left.unread`. */
  static measure(body) {
    return #declared in body ? (body.#declared ?? true) : undefined;
  }
}

/** The kind of a value, for messages; never throws (a revoked proxy cannot be asked IsArray). */
export function kind(value) {
  if (value === null) return "null";
  try {
    if (isArray(value)) return "an array";
  } catch {
    // A revoked proxy: typeof still answers.
  }
  return typeof value;
}

function clip(text) {
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}

/** A caller's value for a message: a string quoted, clipped; anything else its kind, never its whole text. */
export function described(value) {
  return typeof value === "string" ? stringify(clip(value)) : kind(value);
}

/** What an exception says, read without trusting it (its message may be a throwing getter). */
export function errorText(error) {
  try {
    if (typeof error === "string") return clip(error);
    if (error instanceof Error) {
      const message = error.message;
      if (typeof message === "string") return clip(message);
    }
  } catch {
    // Fall through: the error would not even say what it is.
  }
  return "unknown error";
}

/**
 * The plain parts of one request. `left` is JSON text naming what was left
 * behind (a part's size when over its limit, an argument that could not be
 * read), or undefined when nothing was.
 */
export function requestParts(method, path, body, headers) {
  const parts = { method: "", path: undefined, body: undefined, bytes: undefined, headers: [], left: undefined };
  let left;
  const unreadable = (field, problem) => {
    left ??= {};
    left.unreadable ??= [field, problem];
  };

  if (typeof method === "string") {
    parts.method = method.length > MAX_METHOD ? method.slice(0, MAX_METHOD) : method;
  } else {
    unreadable("method", `expected a string, got ${kind(method)}`);
  }

  if (typeof path === "string") {
    if (path.length > MAX_PATH) (left ??= {}).path = path.length;
    else parts.path = path;
  } else {
    unreadable("path", `expected a string, got ${kind(path)}`);
  }

  const b = readBody(body, parts);
  if (b.unread !== undefined) (left ??= {}).unread = b.unread;
  else if (b.tooLarge !== undefined) (left ??= {}).body = b.tooLarge;
  else if (b.problem !== undefined) unreadable("body", b.problem);

  if (headers !== undefined && headers !== null) {
    const h = readHeaders(headers, parts.headers);
    if (h.problem !== undefined) {
      unreadable("headers", h.problem);
      parts.headers = [];
    } else if (h.count > MAX_HEADER_COUNT || h.units > MAX_HEADER_BYTES) {
      (left ??= {}).headers = [h.count, h.units];
      parts.headers = [];
    } else {
      presetHeader(parts.headers);
    }
  }

  if (left !== undefined) parts.left = stringify(left);
  return parts;
}

/** An `X-Orderpay-Scenario` header naming a preset carries its document's text instead. */
function presetHeader(flat) {
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i];
    if (name.length === 19 && name.toLowerCase() === "x-orderpay-scenario") flat[i + 1] = presetText(flat[i + 1]);
  }
}

/** Sets parts.body or parts.bytes; tells what it could not. */
function readBody(body, parts) {
  if (body === undefined || body === null) return {};
  if (typeof body === "string") {
    if (body.length > MAX_BODY) return { tooLarge: body.length };
    parts.body = body;
    return {};
  }
  if (typeof body === "object") {
    const unread = UnreadBody.measure(body);
    if (unread !== undefined) return { unread };
  }
  if (typeof body === "object" && typedName.call(body) === "Uint8Array") {
    // The slots' length is 0 once the buffer is detached.
    const length = typedLength.call(body);
    if (length > MAX_BODY) return { tooLarge: length };
    // A fresh view: what is copied is exactly the bytes the slots say.
    try {
      parts.bytes = length === 0 ? new Uint8Array(0) : new Uint8Array(typedBuffer.call(body), typedOffset.call(body), length);
    } catch (error) {
      return { problem: `cannot be read: ${errorText(error)}` };
    }
    return {};
  }
  let json;
  try {
    json = stringify(body);
  } catch (error) {
    return { problem: `cannot be turned into JSON: ${errorText(error)}` };
  }
  if (typeof json !== "string") return { problem: `${kind(body)} has no JSON form` };
  if (json.length > MAX_BODY) return { tooLarge: json.length };
  parts.body = json;
  return {};
}

/**
 * Appends names and values to `flat`, counting headers and their size.
 * Past the count limit it stops reading (an iterator may never end); past
 * the size limit it keeps counting, without keeping.
 */
function readHeaders(headers, flat) {
  if (typeof headers !== "object") {
    return { problem: `expected an object or a Headers, got ${kind(headers)}` };
  }
  let count = 0;
  let units = 0;
  const add = (entry) => {
    const pair = readPair(entry);
    if (typeof pair === "string") return pair;
    count += 1;
    units += pair.name.length + pair.value.length;
    if (units <= MAX_HEADER_BYTES) flat.push(pair.name, pair.value);
    return undefined;
  };
  try {
    const iterate = headers[Symbol.iterator];
    if (typeof iterate === "function") {
      // An array says how long it is: a huge one is refused by its length.
      if (isArray(headers) && headers.length > MAX_HEADER_COUNT) return { count: headers.length, units };
      const iterator = iterate.call(headers);
      for (;;) {
        const step = iterator.next();
        if (step.done) break;
        if (count >= MAX_HEADER_COUNT) return { count: count + 1, units };
        const problem = add(step.value);
        if (problem !== undefined) return { problem };
      }
    } else {
      const entries = Object.entries(headers);
      if (entries.length > MAX_HEADER_COUNT) return { count: entries.length, units };
      for (const entry of entries) {
        const problem = add(entry);
        if (problem !== undefined) return { problem };
      }
    }
  } catch (error) {
    return { problem: errorText(error) };
  }
  return { count, units };
}

/** One [name, value] pair as { name, value } strings, or the problem with it. */
function readPair(pair) {
  let name;
  let value;
  if (isArray(pair)) {
    name = pair[0];
    value = pair[1];
  } else if (typeof pair === "string" || (typeof pair === "object" && pair !== null && typeof pair[Symbol.iterator] === "function")) {
    // Any iterable pair, read for two items at most: it may never end.
    const iterator = pair[Symbol.iterator]();
    const first = iterator.next();
    name = first.done ? undefined : first.value;
    const second = first.done ? first : iterator.next();
    value = second.done ? undefined : second.value;
  } else {
    return `expected [name, value] pairs, got ${kind(pair)}`;
  }
  if (typeof name !== "string") return "a header name is not a string";
  if (typeof value === "string") return { name, value };
  if (typeof value === "number" || typeof value === "boolean") return { name, value: String(value) };
  return `${clip(name)}: expected a string, got ${kind(value)}`;
}
