// The built-in receiver: a webhook endpoint in this tab, as a learner's
// own app would have one. The service hands it each delivery as a
// Request; it checks the signature with the package's verifyWebhook
// (orderpay/webhooks), as a careful handler does, and answers 200. With
// "make the receiver fail" on it answers 500, so the learner watches the
// service retry on its clock, and succeed once the toggle is off again.
import { verifyWebhook } from "./pkg/webhooks.js";

/** What the receiver answers a delivery whose signature does not hold (a careful handler's refusal). */
const REFUSED = 400;
/** Sightings kept for the panel: the newest. */
const KEEP = 2000;

export class Receiver {
  /** Whether it answers 500 to every delivery (the learner's toggle). */
  failing = false;
  /** Its endpoint: `{ id, secret, header }` once registered, else null. */
  endpoint = null;
  /** The service it is registered with: another one in use (a reload, an import) has it no more. */
  service = null;
  /** What it received, oldest first: `{ eventId, type, header, headerName, verdict, status }`. */
  seen = [];

  /** `store`: whose clock a wall-clock check reads; `onSeen`: called after each delivery it answered. */
  constructor(store, onSeen = () => {}) {
    this.store = store;
    this.onSeen = onSeen;
  }

  /** The endpoint's spec for addWebhook: the handler below, every event type. */
  spec(secret) {
    return { handler: (request) => this.receive(request), events: ["*"], ...(secret ? { secret } : {}) };
  }

  /** One delivery: the raw body read, its signature checked, the answer given. */
  async receive(request) {
    const body = await request.text();
    const headerName = this.endpoint?.header ?? "Orderpay-Signature";
    const header = request.headers.get(headerName);
    const verdict = await this.check(body, header);
    const status = !verdict.ok ? REFUSED : this.failing ? 500 : 200;
    const event = verdict.event ?? eventOf(body);
    this.seen.push({ eventId: event?.id ?? null, type: event?.type ?? null, header, headerName, verdict, status });
    if (this.seen.length > KEEP) this.seen.splice(0, this.seen.length - KEEP);
    queueMicrotask(() => this.onSeen());
    return new Response(status === 200 ? "ok" : status === 500 ? "the receiver was told to fail" : verdict.message, { status });
  }

  /**
   * verifyWebhook with the endpoint's secret. On the wall clock with
   * Stripe's 300 s tolerance against the service's now; on a virtual clock
   * Advance sends the attempts that came due in between each with its own
   * time, long before the clock's now, so the time is not checked there
   * (the panel compares it with the attempt's due time instead).
   */
  async check(body, header) {
    const virtual = this.store.virtualClock === true;
    const options = virtual ? { tolerance: Infinity } : { now: Math.floor((this.store.now ?? Date.now()) / 1000) };
    try {
      const event = await verifyWebhook(body, header, this.endpoint?.secret ?? "", options);
      return { ok: true, event };
    } catch (e) {
      return { ok: false, reason: e.reason ?? e.name, message: e.message };
    }
  }

  /** What it received of event `id`, oldest first. */
  sightingsOf(id) {
    return this.seen.filter((s) => s.eventId === id);
  }

  /** Forgets what it received (a fresh service). */
  forget() {
    this.seen = [];
    this.endpoint = null;
    this.service = null;
  }
}

/** The event a body holds, when it is JSON (a tampered body still is), else null. */
function eventOf(body) {
  try {
    const parsed = JSON.parse(body);
    return parsed && typeof parsed === "object" ? parsed : null;
  } catch {
    return null;
  }
}
