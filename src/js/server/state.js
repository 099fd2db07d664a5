// --state FILE: the whole state (the service's snapshot) kept on disk. A
// change is written within SAVE_DELAY_MS, through a temporary file that is
// flushed and then renamed over the old one, so a crash or kill -9 at any
// moment leaves either the previous complete file or the new one.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { Service } from "../node.js";

/** At most this much work is lost to a crash. */
export const SAVE_DELAY_MS = 500;

/** A state file that cannot be used: the message names it; exit code 1. */
export class StateError extends Error {}

/**
 * The core's refusal of a saved text, said for a state file: text that is
 * no snapshot at all, one of another format (a newer orderpay's, when its
 * number is higher), or one whose parts the core refused.
 */
function refusal(message) {
  if (message.startsWith("snapshot: not a snapshot")) return `not a saved state (${message})`;
  const format = /^snapshot\.format: format (\d+) is not the supported (\d+)/.exec(message);
  if (format && Number(format[1]) > Number(format[2])) {
    return `written by a newer version of orderpay (snapshot format ${format[1]}; this one reads ${format[2]})`;
  }
  return `not a usable saved state (${message})`;
}

export class StateFile {
  #dirty = false;
  #timer = null;
  #writing = null;
  #discarded = false;
  /** When the first change not yet written was made (performance.now()). */
  #dirtySince = 0;

  constructor(path, snapshot) {
    this.path = path;
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    /** `snapshot()`: the text to write. */
    this.snapshot = snapshot;
  }

  /**
   * The service saved in the file, restored once (the core checks the
   * text: JSON, format, every part), or null when the file does not exist
   * yet. Throws a StateError naming the file, and the core's reason.
   */
  static load(path) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw new StateError(`--state ${path}: cannot read it (${error.code ?? error.message})`);
    }
    try {
      return Service.restore(text);
    } catch (error) {
      throw new StateError(`--state ${path}: ${refusal(error.message)}; left as it is`);
    }
  }

  /** Whether a change waits to be written. */
  get pending() {
    return this.#dirty || this.#writing !== null;
  }

  /** Something changed: write it soon. */
  touch() {
    if (this.#discarded) return;
    if (!this.#dirty) this.#dirtySince = performance.now();
    this.#dirty = true;
    if (this.#timer === null && this.#writing === null) this.#schedule();
  }

  /**
   * The next write, SAVE_DELAY_MS after the first change it will hold: a
   * change made while a slow write ran waits no longer for it.
   */
  #schedule() {
    const wait = Math.max(0, this.#dirtySince + SAVE_DELAY_MS - performance.now());
    this.#timer = setTimeout(() => this.#write(), wait);
  }

  async #write() {
    this.#timer = null;
    this.#dirty = false;
    const text = this.snapshot();
    this.#writing = (async () => {
      const file = await open(this.tmp, "w", 0o600);
      try {
        await file.writeFile(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(this.tmp, this.path);
      if (this.#discarded) await unlink(this.path);
    })();
    try {
      await this.#writing;
    } catch (error) {
      console.error(`orderpay: could not save the state to ${this.path}: ${error.message}`);
    } finally {
      this.#writing = null;
    }
    if (this.#dirty && !this.#discarded) this.#schedule();
  }

  /** The state is gone (a session ended): its file is removed, now and after a write in flight. */
  discard() {
    this.#discarded = true;
    this.#dirty = false;
    clearTimeout(this.#timer);
    this.#timer = null;
    rmSync(this.path, { force: true });
  }

  /** Writes now, synchronously (on the way out). */
  async flush() {
    clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#writing) await this.#writing.catch(() => {});
    const text = this.snapshot();
    const fd = openSync(this.tmp, "w", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(this.tmp, this.path);
    this.#dirty = false;
  }
}
