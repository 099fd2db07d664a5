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
  /** Its registration with the service in use: `{ endpoint, seen }`, or null. */
  #current = null;
  /** Each service it was registered with (an undo brings one back), and its registration there. */
  #byService = new WeakMap();

  /** `store`: whose clock a wall-clock check reads; `onSeen`: called after each delivery it answered. */
  constructor(store, onSeen = () => {}) {
    this.store = store;
    this.onSeen = onSeen;
  }

  /** Its endpoint with the service in use (`{ id, secret, header }`), or null. */
  get endpoint() {
    return this.#current?.endpoint ?? null;
  }

  /** What it received from the service in use, oldest first: `{ eventId, type, header, headerName, verdict, status }`. */
  get seen() {
    return this.#current?.seen ?? [];
  }

  /**
   * Registers it with `service` through `add(spec)` (the store's
   * addWebhook): its handler below, every event type, `secret` when given.
   */
  async register(service, add, secret) {
    const mine = { endpoint: null, seen: [] };
    mine.endpoint = await add({ handler: (request) => this.receive(request, mine), events: ["*"], ...(secret ? { secret } : {}) });
    this.#byService.set(service, mine);
    this.#current = mine;
    return mine.endpoint;
  }

  /** The service in use changed: its registration, if it has one (an undo brings one back). Whether it has. */
  use(service) {
    this.#current = this.#byService.get(service) ?? null;
    return this.#current !== null;
  }

  /** Switched off with `service`. */
  unregistered(service) {
    this.#byService.delete(service);
    this.#current = null;
  }

  /** One delivery: the raw body read, its signature checked, the answer given. */
  async receive(request, mine) {
    const body = await request.text();
    const headerName = mine.endpoint?.header ?? "Orderpay-Signature";
    const header = request.headers.get(headerName);
    const verdict = await this.check(body, header, mine.endpoint?.secret ?? "");
    const status = !verdict.ok ? REFUSED : this.failing ? 500 : 200;
    const event = verdict.event ?? eventOf(body);
    mine.seen.push({ eventId: event?.id ?? null, type: event?.type ?? null, header, headerName, verdict, status });
    if (mine.seen.length > KEEP) mine.seen.splice(0, mine.seen.length - KEEP);
    queueMicrotask(() => this.onSeen());
    return new Response(status === 200 ? "ok" : status === 500 ? "the receiver was told to fail" : verdict.message, { status });
  }

  /**
   * verifyWebhook with the endpoint's secret. On the wall clock with its
   * default tolerance against the service's now; on a virtual clock
   * Advance sends the attempts that came due in between each with its own
   * time, long before the clock's now, so only the signature is checked
   * there, and the panel says so.
   */
  async check(body, header, secret) {
    const virtual = this.store.virtualClock === true;
    const options = virtual ? { tolerance: Infinity } : { now: Math.floor((this.store.now ?? Date.now()) / 1000) };
    try {
      const event = await verifyWebhook(body, header, secret, options);
      return { ok: true, event };
    } catch (e) {
      return { ok: false, reason: e.reason ?? e.name, message: e.message };
    }
  }

  /** What it received of event `id`, oldest first. */
  sightingsOf(id) {
    return this.seen.filter((s) => s.eventId === id);
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
