// Long texts in pieces, and a restore fed in pieces: the JS shapes of the
// module's RawPieces and RawRestoring. Internal module: Service hands
// them out (snapshotPieces, exportNdjsonPieces, exportOtlpPieces,
// Service.restoring), and a long text written into its memory (textIn).
import { RawText } from "./binding.js";
import { TextEncoder } from "./utf8_fallback.js";

/**
 * A long text written into the module's memory as UTF-8 for it to read
 * (a RawText): one native copy, where passing the string would copy it
 * a UTF-16 unit at a time. `memory` returns the module's memory.
 */
export function textIn(text, memory) {
  const raw = new RawText();
  if (typeof encoder.encodeInto !== "function") {
    const bytes = encoder.encode(text);
    new Uint8Array(memory().buffer, raw.room(0, bytes.length), bytes.length).set(bytes);
    raw.close(bytes.length);
    return raw;
  }
  let read = 0;
  let written = 0;
  // ASCII fills one byte a unit; what follows anything else gets three.
  for (let room = text.length; ; room = 3 * (text.length - read)) {
    const at = raw.room(written, room);
    const done = encoder.encodeInto(read === 0 ? text : text.slice(read), new Uint8Array(memory().buffer, at, room));
    read += done.read;
    written += done.written;
    if (read >= text.length) break;
  }
  raw.close(written);
  return raw;
}

const encoder = new TextEncoder();

/** Bytes of UTF-8 a piece holds at least (a row is never split): a few ms of work. */
export const DEFAULT_PIECE_SIZE = 262144;
const MAX_PIECE_SIZE = 2 ** 30;

/**
 * One whole-number option of `options` (an object, or nothing), checked:
 * `fallback` when it is not given; a TypeError or RangeError naming
 * `options.<name>` otherwise (`expected`: what a non-number is told;
 * `whole`: what a number out of range is told, before its range).
 */
function wholeOption(options, name, { fallback, min, max, example, expected, whole = expected }) {
  if (options === undefined || options === null) return fallback;
  if (typeof options !== "object") throw new TypeError(`options: expected an object such as ${example}`);
  let value;
  try {
    value = options[name];
  } catch {
    throw new TypeError(`options.${name}: could not be read`);
  }
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw new TypeError(`options.${name}: expected ${expected}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`options.${name}: expected ${whole} from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** The `size` option of a pieces call, checked: a whole number of bytes. */
export function pieceSize(options) {
  return wholeOption(options, "size", {
    fallback: DEFAULT_PIECE_SIZE, min: 1, max: MAX_PIECE_SIZE, example: "{ size: 262144 }", expected: "a whole number of bytes",
  });
}

/** The most a restore's `length` option may ask room for: 1 GiB of text. */
const MAX_RESTORE_LENGTH = 2 ** 30;

/** The `length` option of Service.restoring, checked: the text's length, or 0 when not given. */
export function restoreLength(options) {
  return wholeOption(options, "length", {
    fallback: 0, min: 0, max: MAX_RESTORE_LENGTH, example: "{ length: text.length }",
    expected: "the snapshot text's length, a whole number", whole: "a whole number",
  });
}

/**
 * An iterator of text pieces, each at least `size` bytes of UTF-8 but the
 * last. It reads a copy the module took when it was made, so requests
 * served between pieces do not change it. Done, or left early (`break`,
 * `return()`), it frees that copy.
 */
export class TextPieces {
  #raw;
  #size;

  constructor(raw, size) {
    this.#raw = raw;
    this.#size = size;
  }

  next() {
    const raw = this.#raw;
    if (raw === null) return { done: true, value: undefined };
    const piece = raw.next(this.#size);
    if (piece === undefined) {
      this.#release();
      return { done: true, value: undefined };
    }
    return { done: false, value: piece };
  }

  return(value) {
    this.#release();
    return { done: true, value };
  }

  [Symbol.iterator]() {
    return this;
  }

  /** How far the pieces have got, from 0 to 1 (1 once done). */
  get progress() {
    return this.#raw === null ? 1 : this.#raw.progress();
  }

  #release() {
    const raw = this.#raw;
    this.#raw = null;
    if (raw) raw.free();
  }
}

const OVER = "restore: this restore is over (finished, or refused a damaged snapshot); start another";

const STEPPING = "restore: the last piece is in (step() has begun): no more pieces may come";

/**
 * A snapshot received in pieces. Each push does the work of its piece;
 * step(budgetMs) then does the work left in slices of about that long, and
 * finish() hands back the new Service (doing whatever steps are left).
 * Nothing else is touched meanwhile, and a damaged snapshot throws (from
 * push, step or finish) as Service.restore would, after which the restore
 * is over.
 */
export class Restoring {
  #raw;
  #adopt;
  #memory;
  #received = 0;
  /** A high surrogate that ended the last piece, held for its pair. */
  #pending = "";
  /** Whether step() has begun: the last piece is in. */
  #stepping = false;
  #done = false;

  constructor(raw, adopt, memory) {
    this.#raw = raw;
    this.#adopt = adopt;
    this.#memory = memory;
  }

  /** The next piece of the snapshot's text; pieces may split it anywhere. */
  push(piece) {
    const raw = this.#live();
    if (typeof piece !== "string") throw new TypeError("piece: expected a string, a piece of the text snapshot() returned");
    if (this.#stepping) throw new TypeError(STEPPING);
    // A piece may end between the two halves of a character outside the
    // BMP; each half alone would cross into the module as U+FFFD.
    let text = this.#pending + piece;
    this.#pending = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#pending = text.slice(-1);
      text = text.slice(0, -1);
    }
    try {
      raw.pushText(textIn(text, this.#memory));
    } catch (error) {
      this.#release();
      throw error;
    }
    this.#received += piece.length;
  }

  /**
   * Once the last piece is in: does the work finish() would, in bounded
   * steps, for about `budgetMs` (at least one step); true once finish()
   * has only the Service to hand over. A caller that must not block runs
   * it between tasks until it says true.
   */
  step(budgetMs = 8) {
    const raw = this.#live();
    if (typeof budgetMs !== "number" || !(budgetMs >= 0) || budgetMs === Infinity) {
      throw new RangeError(`budgetMs: expected a number of milliseconds from 0 up, got ${String(budgetMs)}`);
    }
    const start = performance.now();
    try {
      if (!this.#stepping) {
        this.#stepping = true;
        if (this.#pending !== "") raw.push(this.#pending);
        this.#pending = "";
      }
      while (!this.#done) {
        this.#done = raw.step();
        if (performance.now() - start >= budgetMs) break;
      }
    } catch (error) {
      this.#release();
      throw error;
    }
    return this.#done;
  }

  /** Whether step() has done all the work finish() would. */
  get done() {
    return this.#done;
  }

  /** The restored Service. */
  finish() {
    const raw = this.#live();
    this.#raw = null;
    try {
      if (this.#pending !== "") raw.push(this.#pending);
      return this.#adopt(raw.finish());
    } finally {
      raw.free();
    }
  }

  /** Gives up: frees what was received. A second call does nothing. */
  abandon() {
    this.#release();
  }

  /** UTF-16 code units pushed so far. */
  get received() {
    return this.#received;
  }

  #live() {
    if (this.#raw === null) throw new TypeError(OVER);
    return this.#raw;
  }

  #release() {
    const raw = this.#raw;
    this.#raw = null;
    if (raw) raw.free();
  }
}
