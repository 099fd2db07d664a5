// The one service instance of the page, the log records it has written
// (mirrored here so the viewer and the charts need not ask for all of them
// each time), the ids worth offering for the next call, and the saved copy
// in this browser. Everything else listens to its "change" event.
import init, { Service } from "./pkg/orderpay.js";
import { findServer } from "./remote.js";

const KEY = "orderpay-playground/snapshot";
const KEEP_IDS = 50;
export const DEFAULTS = Object.freeze({ failureRate: 0.3, logCapacity: 10000 });

export class Store extends EventTarget {
  service = null;
  /** The server's service when the page comes from `orderpay serve` (remote.js), else null. */
  remote = null;
  /** The journal's records, oldest first, as `service.logs()` would return them. */
  records = [];
  /** `service.settings`: seed, failureRate, logCapacity, latency. */
  settings = { seed: 0, ...DEFAULTS, latency: {} };
  /** Recent ids, newest first, and the price of each order the page has seen. */
  ids = { orders: [], payments: [], prices: new Map() };
  saved = { state: "not yet", at: 0, size: 0, compressed: false };
  #lastSeq = 0;
  #lastDropped = 0;
  #saveTimer = 0;
  #saveGeneration = 0;
  #spans = { key: "", spans: [] };

  /** Loads the package and the state saved in this browser, if any. Returns a notice or "". */
  async start() {
    await init();
    const remote = await findServer();
    if (remote) return this.#goLive(remote);
    let notice = "";
    try {
      const text = await loadSaved();
      if (text !== null) {
        this.#adopt(Service.restore(text), text);
        return "Restored the state saved in this browser.";
      }
    } catch (e) {
      notice = `The state saved in this browser could not be restored (${e.message}); starting fresh.`;
    }
    this.fresh({});
    return notice;
  }

  /** Shows the server's service, and follows its log. */
  #goLive(remote) {
    this.remote = remote;
    this.#replace(remote);
    remote.watch(
      () => this.#lastSeq,
      () => {
        this.#pull();
        this.changed({ request: true });
      },
      () => {
        this.#replace(remote);
        this.changed({ reset: true });
      },
    );
    return `Live: this page shows the service of the server at ${remote.address}. Requests sent to it from anywhere (curl, an app) appear here, and the buttons act on it.`;
  }

  /** A new, empty service. Throws the service's own TypeError or RangeError for a bad option. */
  fresh(options) {
    this.#replace(this.remote ? this.remote.reset(options) : new Service(options));
    this.ids = { orders: [], payments: [], prices: new Map() };
    this.changed({ reset: true });
  }

  /** Replaces the state with a snapshot's (an imported file). Throws when it is not one. */
  restore(text) {
    this.#adopt(this.remote ? this.remote.restore(text) : Service.restore(text), text);
    this.changed({ reset: true });
  }

  #adopt(service, text) {
    this.#replace(service);
    // The settings come from the service itself. The snapshot's inner layout
    // is the service's business: the page reads only the recent ids to offer
    // from it, and carries on without them if that ever changes.
    let state = {};
    try { state = JSON.parse(text) ?? {}; } catch { /* restore() accepted it, so this does not happen */ }
    this.ids = { orders: [], payments: [], prices: new Map() };
    const orders = Object.values(state.orders?.live ?? {}).filter((o) => typeof o?.orderId === "string");
    orders.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
    for (const o of orders.slice(0, KEEP_IDS)) {
      this.ids.orders.push(o.orderId);
      this.ids.prices.set(o.orderId, o.price);
    }
    const payments = Object.values(state.payments?.by_id ?? {}).filter((p) => typeof p?.paymentId === "string");
    payments.sort((a, b) => (b.paidAt ?? 0) - (a.paidAt ?? 0));
    this.ids.payments = payments.slice(0, KEEP_IDS).map((p) => p.paymentId);
  }

  #replace(service) {
    this.service?.free();
    this.service = service;
    // Fixed for the service's life: read once (the getter builds a new object each time).
    this.settings = service.settings;
    this.#spans = { key: "", spans: [] };
    this.records = service.logs();
    this.#lastSeq = this.records.at(-1)?.seq ?? 0;
    this.#lastDropped = service.droppedLogs;
  }

  /**
   * Sends one request. Returns `{status, headers, body, ms, record, service}`:
   * what the service answered, the milliseconds the call took in this tab,
   * the response log record it wrote (with its simulated duration), and its
   * service record (with the `outcome` of a payment attempt), or null.
   */
  request(method, path, body, headers) {
    const before = this.#lastSeq;
    const started = performance.now();
    const reply = this.service.request(method, path, body, headers);
    const ms = performance.now() - started;
    this.#learn(method, path, body, reply.body);
    this.#pull();
    // The records this request wrote are the ones after `before`.
    let record = null;
    let service = null;
    for (let i = this.records.length - 1; i >= 0 && this.records[i].seq > before; i--) {
      const r = this.records[i];
      if (r.stage === "response") record ??= r;
      else if (r.stage === "service") service ??= r;
    }
    this.changed({ request: true });
    return { ...reply, ms, record, service };
  }

  /** The next `count` payment attempts succeed or fail; 0 clears. Throws the service's TypeError or RangeError. */
  forceNext(outcome, count) {
    this.service.forceNext(outcome, count);
    this.changed({ forced: true });
  }

  /** What forceNext still has to do, or null. */
  get forced() {
    return this.service.forced;
  }

  /**
   * The spans of a trace, oldest first. `service.spans()` copies every span
   * the service holds, so the answer is kept until the trace's records change.
   */
  spansOf(traceId) {
    const mine = this.records.filter((r) => r.traceId === traceId);
    const key = `${traceId}|${mine.length}|${mine[0]?.seq}|${mine.at(-1)?.seq}`;
    if (this.#spans.key !== key) {
      this.#spans = { key, spans: this.service.spans().filter((s) => s.traceId === traceId) };
    }
    return this.#spans.spans;
  }

  clearLogs() {
    this.service.clearLogs();
    this.records = [];
    this.#lastDropped = this.service.droppedLogs;
    this.changed({ cleared: true });
  }

  get droppedLogs() {
    return this.service.droppedLogs;
  }

  /** New records since the last look, and the dropped ones let go. */
  #pull() {
    const fresh = this.service.logs(this.#lastSeq);
    const dropped = this.service.droppedLogs;
    if (fresh.length && fresh[0].seq > this.#lastSeq + 1) {
      // Records newer than all we held were dropped already: nothing we held is left.
      this.records = fresh;
    } else {
      this.records.push(...fresh);
      this.records.splice(0, Math.max(0, dropped - this.#lastDropped));
    }
    if (fresh.length) this.#lastSeq = fresh.at(-1).seq;
    this.#lastDropped = dropped;
  }

  #learn(method, path, body, envelope) {
    if (envelope?.code !== 0) return;
    const data = envelope.data;
    const remember = (list, id) => {
      const at = list.indexOf(id);
      if (at >= 0) list.splice(at, 1);
      list.unshift(id);
      if (list.length > KEEP_IDS) list.length = KEEP_IDS;
    };
    if (typeof data?.orderId === "string" && /\/api\/order\//.test(path)) {
      remember(this.ids.orders, data.orderId);
      this.ids.prices.set(data.orderId, data.price);
    }
    if (typeof data?.paymentId === "string") remember(this.ids.payments, data.paymentId);
    if (Array.isArray(data?.orderIds)) {
      for (const id of data.orderIds.slice(-5)) remember(this.ids.orders, id);
    }
    const deleted = /^\/api\/order\/delete\/([^/?]+)/.exec(path);
    if (deleted && method.toUpperCase() === "POST") {
      this.ids.orders = this.ids.orders.filter((id) => id !== deleted[1]);
    }
  }

  changed(detail = {}) {
    this.dispatchEvent(new CustomEvent("change", { detail }));
    this.scheduleSave();
  }

  /** Asks the log viewer to show a trace (and the record `seq` in it). */
  showTrace(traceId, seq = null) {
    this.dispatchEvent(new CustomEvent("show-trace", { detail: { traceId, seq } }));
  }

  scheduleSave() {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.save(), 300);
  }

  /** Saves now if a save is waiting (the page is going away). */
  flush() {
    if (!this.#saveTimer) return;
    this.save();
  }

  /**
   * Saves the snapshot in localStorage: as it is when it fits (at once, so
   * a reload right after finds it), gzip-compressed when it does not (a
   * journal of 10,000 records and as many orders is about 5 MB of JSON,
   * the size of the whole localStorage of an origin).
   */
  save() {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = 0;
    // Live, the state is the server's (kept with its --state FILE), not this browser's.
    if (this.remote) return this.#saved("on the server", 0, false);
    const generation = ++this.#saveGeneration;
    const text = this.service.snapshot();
    try {
      localStorage.setItem(KEY, text);
      this.#saved("saved", text.length, false);
      return;
    } catch { /* too big: compress */ }
    this.#saved("saving", text.length, true);
    gzip(text).then((packed) => {
      if (generation !== this.#saveGeneration) return;
      try {
        localStorage.setItem(KEY, "gz:" + packed);
        this.#saved("saved", packed.length, true);
      } catch {
        this.#saved("too big", text.length, true);
      }
    }, () => this.#saved("too big", text.length, true));
  }

  #saved(state, size, compressed) {
    this.saved = { state, at: Date.now(), size, compressed };
    this.dispatchEvent(new CustomEvent("saved", { detail: this.saved }));
  }

  /** Forgets the saved copy (a reset to defaults). */
  forget() {
    localStorage.removeItem(KEY);
  }
}

async function loadSaved() {
  const text = localStorage.getItem(KEY);
  if (text === null || !text.startsWith("gz:")) return text;
  return gunzip(text.slice(3));
}

async function gzip(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  const packed = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < packed.length; i += 0x8000) {
    binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

async function gunzip(base64) {
  const packed = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}
