// Several tabs of the playground share one saved copy in this browser. Only
// one of them may write it, or the last tab to save would silently undo the
// others' work. The Web Locks API elects that tab (it holds the lock until
// it closes), and a BroadcastChannel tells the others when it saved.
//
// - owner: holds the lock and saves.
// - follower: another tab owns the state; this one shows what that tab
//   saves, reloading it after each save, and waits in line for the lock.
// - separate: a follower that was changed here. It stops following and
//   saving, says so plainly, and offers to take over (stealing the lock,
//   which makes the other tab separate in turn) or to follow again.

const LOCK = "orderpay-playground/owner";
const CHANNEL = "orderpay-playground";

export class Tabs extends EventTarget {
  id = Math.random().toString(36).slice(2, 10);
  /** "owner", "follower" or "separate". */
  role = "owner";
  /** Why the role is what it is: "alone", "first", "other-tab", "changed-here", "handed-over", "taken-over", "took-over", "followed". */
  reason = "alone";
  #channel = null;
  #waiting = null; // AbortController of a queued lock request

  get supported() {
    return typeof BroadcastChannel === "function" && typeof navigator.locks?.request === "function";
  }

  /**
   * Decides this tab's role: the owner when the lock comes within `waitMs`
   * (a reloading tab's previous page lets it go as it unloads), else a follower
   * that stays in line for it.
   */
  async join(waitMs = 1000) {
    if (!this.supported) return this.role;
    this.#channel = new BroadcastChannel(CHANNEL);
    this.#channel.addEventListener("message", (e) => this.#heard(e.data));
    const granted = this.#queue();
    const first = await Promise.race([granted, new Promise((resolve) => setTimeout(() => resolve(false), waitMs))]);
    if (first) {
      this.#set("owner", "first");
    } else {
      this.#set("follower", "other-tab");
      granted.then((got) => {
        if (got && this.role === "follower") this.#set("owner", "handed-over");
      });
    }
    this.#post({ type: "hello" });
    return this.role;
  }

  /** Queues for the lock; resolves true once held, false if the request is given up. */
  #queue() {
    this.#waiting = new AbortController();
    return new Promise((resolve) => {
      navigator.locks.request(LOCK, { signal: this.#waiting.signal }, () => {
        resolve(true);
        return new Promise(() => {}); // held until the tab closes (or the lock is stolen)
      }).catch(() => {
        resolve(false);
        // Held and then stolen by a tab that took over.
        if (this.role === "owner") this.#set("separate", "taken-over");
      });
    });
  }

  /** A follower that was changed here stops following: it says so and saves nothing. */
  separate() {
    if (this.role !== "follower") return;
    this.#waiting?.abort();
    this.#waiting = null;
    this.#set("separate", "changed-here");
  }

  /** Takes the saved state over from whichever tab owns it. */
  async takeOver() {
    if (!this.supported || this.role === "owner") return;
    this.#waiting?.abort();
    await new Promise((resolve) => {
      navigator.locks.request(LOCK, { steal: true }, () => {
        resolve();
        return new Promise(() => {}); // held until the tab closes (or the lock is stolen)
      }).catch(() => { if (this.role === "owner") this.#set("separate", "taken-over"); });
    });
    this.#set("owner", "took-over");
    this.#post({ type: "took-over" });
  }

  /** A separate tab drops its own changes and follows the owner again. */
  follow() {
    if (this.role !== "separate") return;
    this.#set("follower", "followed");
    this.#queue().then((got) => {
      if (got && this.role === "follower") this.#set("owner", "handed-over");
    });
  }

  /** The owner tells the others that the saved copy changed. */
  saved(header) {
    if (this.role === "owner") this.#post({ type: "saved", at: header.savedAt });
  }

  #heard(message) {
    if (!message || message.from === this.id) return;
    if (message.type === "hello" && this.role === "owner") this.#post({ type: "owner" });
    if (message.type === "saved") this.dispatchEvent(new CustomEvent("saved-elsewhere", { detail: { at: message.at } }));
  }

  #post(message) {
    this.#channel?.postMessage({ ...message, from: this.id });
  }

  #set(role, reason) {
    this.role = role;
    this.reason = reason;
    this.dispatchEvent(new CustomEvent("role", { detail: { role, reason } }));
  }
}
