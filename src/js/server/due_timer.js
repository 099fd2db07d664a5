// A payment's plan (a pending payment resolving, a challenge answering
// itself, a reversal) and a webhook delivery's next attempt come due on the
// service's clock. On a virtual clock only advance() moves time; on the
// wall clock time moves by itself, so a server must wake when the soonest
// is due and resolve it: this timer, one per session, set from
// `service.nextDueAt` (which covers both), and set again after each
// request, admin action, reset and delivery attempt. advance(0) sends the
// attempts that came due.
/** setTimeout's longest wait; a later plan is looked at again then. */
const MAX_WAIT = 2 ** 31 - 1;

export class DueTimer {
  #instance;
  #fired;
  #timer = null;
  /** The due time the timer is set for, or null. */
  #at = null;
  /** A due time that advance(0) left due once its time had come: not waited for again (no loop). */
  #stuck = null;

  /** `instance`: the session's Instance; `fired()`: called once what came due is resolved (the log and the state changed). */
  constructor(instance, fired) {
    this.#instance = instance;
    this.#fired = fired;
  }

  /** The soonest due time of the service's plans, when it runs on the wall clock; else null. */
  #due() {
    const service = this.#instance.service;
    try {
      // The core says which clock it runs on.
      if (service.virtualClock) return null;
      const due = service.nextDueAt;
      return typeof due === "number" && Number.isFinite(due) ? due : null;
    } catch {
      // Freed (a session ended meanwhile): nothing to wake for.
      return null;
    }
  }

  /** Sets the timer for the soonest plan, after a request, an admin action or a reset; clears it when none is due. */
  arm() {
    const due = this.#due();
    if (due !== null && due === this.#at && this.#timer !== null) return;
    this.stop();
    if (due === null || due === this.#stuck) return;
    this.#at = due;
    // A millisecond past the due time, so that the clock has reached it.
    const wait = Math.min(MAX_WAIT, Math.max(0, due - Date.now() + 1));
    this.#timer = setTimeout(() => this.#fire(), wait);
    this.#timer.unref?.();
  }

  #fire() {
    const at = this.#at;
    this.#timer = null;
    this.#at = null;
    try {
      // On the wall clock, advance ignores its ms and resolves what is due now.
      this.#instance.service.advance(0);
    } catch {
      // The service was freed meanwhile: nothing is left to resolve.
      return;
    }
    this.#stuck = at <= Date.now() && this.#due() === at ? at : null;
    // Flushes the log to its streams and the state to its file, and sets the timer again.
    this.#fired();
  }

  /** No more waking: the session ended, or the server stops. */
  stop() {
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#at = null;
  }
}
