// The webhook sender of one Service: the core decides which attempts are
// due and when (takeDue), this sends them and reports each back
// (reportAttempt). Every attempt runs on its own, so a slow or dead
// receiver never holds up another endpoint's deliveries (no head-of-line
// wait). After each report it takes again: on a virtual clock a retry that
// is already due goes out at once, so advance() runs days of retries in
// milliseconds. On the wall clock it wakes when the soonest due work comes
// due, as the server's due timer does. Internal: the package does not
// export this file.
import { sendAttempt } from "./webhook_attempt.js";

/** setTimeout's longest wait; a later due time is looked at again then. */
const MAX_WAIT = 2 ** 31 - 1;

export class WebhookSender {
  #core;
  #fetch;
  #timeoutMs;
  #handlers = new Map();
  #inFlight = 0;
  #waiters = [];
  #timer = null;
  #timerAt = null;
  /** A due time that a wake left due once its time had come: not waited for again (no loop). */
  #stuck = null;
  #stopped = false;

  /**
   * `core`: `{ takeDue() -> attempts, report(delivery, n, status, durationMs, error),
   * virtual, nextDueAt, wake() }` (service.js makes it over the RawService);
   * `options.fetch`: the fetch URL endpoints are posted with (globalThis.fetch
   * at each send when absent); `options.reported(attempt, result)`: called
   * after each report; `options.timeoutMs`: an attempt's time limit.
   */
  constructor(core, options = {}) {
    this.#core = core;
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.#timeoutMs = options.timeoutMs;
    this.reported = options.reported ?? (() => {});
  }

  /** The in-process handler of endpoint `id`, or none (null). */
  setHandler(id, handler) {
    if (handler === null) this.#handlers.delete(id);
    else this.#handlers.set(id, handler);
  }

  /** How many attempts are being sent now. */
  get inFlight() {
    return this.#inFlight;
  }

  /** Takes every attempt due now and starts each; sets the wall clock's wake. */
  pump() {
    if (this.#stopped) return;
    let due;
    try {
      due = this.#core.takeDue();
    } catch {
      // The service was freed meanwhile: nothing more to send.
      return this.stop();
    }
    for (const attempt of due) this.#start(attempt);
    if (this.#inFlight === 0) this.#settle();
    this.#arm();
  }

  #start(attempt) {
    this.#inFlight += 1;
    sendAttempt(attempt, this.#handlers.get(attempt.endpoint), this.#fetch, this.#timeoutMs).then((result) => {
      this.#inFlight -= 1;
      if (this.#stopped) return this.#settle();
      try {
        this.#core.report(attempt.delivery, attempt.n, result.status, result.durationMs, result.error);
        this.reported(attempt, result);
      } catch {
        // A report the core no longer takes (the service was reset or freed meanwhile): the next take says which.
      }
      this.pump();
    });
  }

  /**
   * Resolves once no attempt is in flight and none is due now (retries
   * due later, on the service's clock, are not waited for).
   */
  settled() {
    this.pump();
    if (this.#inFlight === 0 || this.#stopped) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #settle() {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** On the wall clock, a timer for the soonest due work (an attempt or a payment's plan). */
  #arm() {
    let due = null;
    try {
      if (!this.#core.virtual) due = this.#core.nextDueAt;
    } catch {
      due = null;
    }
    if (due === this.#timerAt && this.#timer !== null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
    if (typeof due !== "number" || !Number.isFinite(due) || due === this.#stuck) return;
    // A millisecond past the due time, so that the clock has reached it.
    const wait = Math.min(MAX_WAIT, Math.max(0, due - Date.now() + 1));
    this.#timerAt = due;
    this.#timer = setTimeout(() => this.#wake(), wait);
    this.#timer.unref?.();
  }

  #wake() {
    const at = this.#timerAt;
    this.#timer = null;
    this.#timerAt = null;
    try {
      // On the wall clock, advance(0) resolves what is due now: plans and attempts alike.
      this.#core.wake();
      this.#stuck = at <= Date.now() && this.#core.nextDueAt === at ? at : null;
    } catch {
      return this.stop();
    }
    this.pump();
  }

  /** No more sending or waking (the service was freed); waiters are let go. */
  stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
    this.#settle();
  }
}
