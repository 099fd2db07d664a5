// The one service instance of the page, the log records it has written
// (mirrored here so the viewer and the charts need not ask for all of them
// each time), the ids worth offering for the next call, and the requests
// sent from this page. The copy saved in this browser is saved-copy.js's.
// Everything else listens to its "change" and "saved" events.
import init, { Service } from "./pkg/orderpay.js";
import { CHECKED_HEADERS } from "./pkg/test_plan.js";
import { KEEP_IDS } from "./recent-ids.js";
import { Tabs } from "./tabs.js";
import { RequestIndex, keyOf } from "./requests-index.js";
import { findServer } from "./remote.js";
import { routeFor } from "./routes.js";
import { SavedCopy } from "./saved-copy.js";
import { BUDGET, PIECES, breather, eachSliced, forSliced } from "./slices.js";
import { planOf } from "./payment-states.js";

/** The longest answer body kept with the run saved in this browser, in characters. */
const SAVED_ANSWER = 16 * 1024;

/** What a copied test checks of an answer (the package's list of its headers), for the run saved with the state. */
function checkedOf({ status, headers, body, fault }) {
  const kept = {};
  for (const name of CHECKED_HEADERS) if (headers[name] !== undefined) kept[name] = headers[name];
  return { status, headers: kept, body: body.length > SAVED_ANSWER ? "" : body, ...(fault ? { fault } : {}) };
}

/** Requests sent from this page whose headers and body are kept (the log has neither). */
const KEEP_EXCHANGES = 500;

/**
 * An NDJSON line of `exportNdjsonPieces` as the record `logs()` gives:
 * parsed, without the `@timestamp` the export adds for log stores.
 */
function recordOf(line) {
  // Left out by a rest pattern, not `delete`: the records keep V8's fast properties.
  // eslint-disable-next-line no-unused-vars
  const { "@timestamp": _stamp, ...record } = JSON.parse(line);
  return record;
}

export class Store extends EventTarget {
  service = null;
  /** The server's service when the page comes from `orderpay serve` (remote.js), else null. */
  remote = null;
  /** The journal's records, oldest first, as `service.logs()` would return them. */
  records = [];
  /** `service.settings` of the service in use (read from it: seed, failureRate, logCapacity, latency, ...). */
  settings = null;
  /** Recent ids, newest first, and the price of each order the page has seen. */
  ids = { orders: [], payments: [], prices: new Map() };
  /** The records joined into requests (requests-index.js). */
  requests = new RequestIndex();
  /** What this page sent and got back, by request key: {method, path, headers, body, status, responseHeaders, envelope, ms}. */
  exchanges = new Map();
  /** Which tab writes the saved copy, and this tab's part in it. */
  tabs = new Tabs();
  /** The test-data run in progress or last made, saved with the snapshot: {target, made, succeeded, failed, requests, state}. */
  run = null;
  /** True while a test-data run sends its chunks (lists out of sight wait for its end). */
  generating = false;
  /** This browser's saved copy of the state (saved-copy.js). */
  copy = new SavedCopy(this);
  /**
   * A new object at each fresh start (a reset, an import, an undo; live, the
   * server's too): what belongs to one service's life (the challenge pages
   * fetched from it) is kept by it. Not `service`: live, that is the same
   * remote object across the server's resets, whose payment ids may repeat.
   */
  era = {};
  #lastSeq = 0;
  #lastDropped = 0;
  /** Services an undo may still put back (undo.js): not freed when replaced. */
  #kept = new Set();
  #spans = { key: "", spans: [] };
  /** Whether the service in use has webhooks (a package, or live a server, with them). */
  #webhooks = false;
  /** Whether the service in use has a webhook endpoint: its deliveries are then followed (followDeliveries). */
  #hooked = false;

  /**
   * Loads the package, then the server's service (live), or the state
   * saved in this browser, if any (saved-copy.js). Returns a notice or "".
   */
  async start(onProgress = () => {}) {
    await init();
    // Live (the page comes from `orderpay serve`): the server's service, nothing saved here.
    const remote = await findServer();
    if (remote) return this.#goLive(remote);
    return this.copy.open(onProgress);
  }

  /** What the saved copy holds (saved-copy.js): `{ state, at, size, compressed, where, progress }`. */
  get saved() {
    return this.copy.status;
  }

  /** Shows the server's service, and follows its log. */
  #goLive(remote) {
    this.remote = remote;
    this.#replace(remote);
    // Spans the page asked for and the server sent later: the views that show them redraw.
    remote.onSpans = () => this.dispatchEvent(new CustomEvent("change", { detail: { spans: true } }));
    // The server's deliveries and events, read again as its records came: the Webhooks panel redraws.
    remote.onWebhooks = () => this.dispatchEvent(new CustomEvent("change", { detail: { deliveries: true } }));
    remote.follow(
      () => {
        this.#pull();
        this.changed({ request: true });
      },
      () => {
        this.#replace(remote);
        this.changed({ reset: true });
      },
    );
    return `Live: this page shows the service of the server at ${remote.address}. Requests sent to it from anywhere (curl, an app) appear here, and the buttons act on it.` +
      (remote.problem ? ` Its state could not be read: ${remote.problem}.` : "");
  }

  /**
   * A service from options or a snapshot's text, not yet in use: throws the
   * service's own error when they are wrong, before anything changes.
   */
  probe(source) {
    return typeof source === "string" ? Service.restore(source) : new Service(source);
  }

  /** A new, empty service (`made`: one `probe` already built). Rejects with the service's own TypeError or RangeError for a bad option. */
  fresh(options, made = null) {
    // Live, the server starts afresh; `made` (a probe) only checked the options.
    if (this.remote) made?.free();
    return settle(() => (this.remote ? this.remote.reset(options) : made ?? new Service(options)), (service) => {
      this.#replace(service);
      this.ids = { orders: [], payments: [], prices: new Map() };
      this.run = null;
      this.exchanges = new Map();
      this.changed({ reset: true });
    });
  }

  /**
   * A service restored from a state read by persist.js (`{text, pieces}`),
   * not yet in use: fed a slice at a time where the package restores in
   * pieces, so the page stays free. Throws the service's own error for a
   * damaged snapshot, before anything changes.
   */
  async restored(read, onProgress = () => {}) {
    // The service's own last steps (the whole restore, or step() and finish() of one fed in pieces), each measured so that its share of a task can be told apart.
    const measured = (last) => {
      const started = performance.now();
      try {
        return last();
      } finally {
        performance.measure("orderpay restore", { start: started, end: performance.now() });
      }
    };
    if (typeof Service.restoring !== "function") return measured(() => Service.restore(read.text));
    const total = read.length ?? read.text.length;
    // Room for the whole text at once: no push then copies what came before it (tens of ms for tens of MB).
    const restoring = Service.restoring({ length: total });
    try {
      let done = 0;
      await eachSliced(cut(read.pieces ?? [read.text], RESTORE_PIECE), (piece) => { restoring.push(piece); done += piece.length; }, () => onProgress(done / Math.max(1, total)));
      // The checks after the last piece, a slice at a time (older packages: all in finish()).
      if (typeof restoring.step === "function") {
        while (!measured(() => restoring.step(BUDGET))) await breather();
      }
      const service = measured(() => restoring.finish());
      await breather(); // what follows (reading its log) in tasks of its own
      return service;
    } catch (e) {
      restoring.abandon();
      throw e;
    }
  }

  /** The run as a test's text (copy-test.js): the service's exportTest here, the server's GET /__orderpay/export-test live. */
  async exportTest(format) {
    return this.remote ? this.remote.exportTest(format) : this.service.exportTest(format);
  }

  /**
   * The service's run, saved with its snapshot so that a reload can still
   * copy it as a test: of each answer, only what a copy checks (bodies over
   * SAVED_ANSWER left out: the copy then checks their status).
   */
  savedRun() {
    if (this.remote || typeof this.service.run !== "function") return null;
    const run = this.service.run();
    for (const step of run.steps) if (step.answer) step.answer = checkedOf(step.answer);
    return run;
  }

  /** Gives a service just restored from the saved copy its run back; a run that does not fit it leaves exportTest saying why. */
  resumeRun(run) {
    if (this.remote || !run || typeof this.service.resumeRun !== "function") return;
    try {
      this.service.resumeRun(run);
    } catch {
      // Not a run this service takes: it exports nothing, and says so.
    }
  }

  /** Checks an imported state: the service it makes (live: the server's own check comes with the restore). */
  probeText(read, onProgress) {
    return this.remote ? Promise.resolve(null) : this.restored(read, onProgress);
  }

  /** Replaces the state with an imported one (`read` from persist.js, `made` from probeText). Throws when it is not a snapshot. */
  async restoreLoaded(read, made, onProgress) {
    await this.adopt(this.remote ? await this.remote.restore(read.text) : made, read.ids, onProgress);
    this.run = null;
    this.changed({ reset: true });
  }

  /**
   * Takes a service restored from a snapshot, and the recent ids to offer
   * that were read from the snapshot's text (recent-ids.js, off this
   * thread). Its log is read a slice at a time (#load).
   */
  async adopt(service, ids, onProgress) {
    await this.#load(service, onProgress);
    this.ids = { orders: [], payments: [], prices: new Map() };
    for (const [id, price] of ids?.orders ?? []) {
      this.ids.orders.push(id);
      this.ids.prices.set(id, price);
    }
    this.ids.payments = [...(ids?.payments ?? [])];
  }

  /** Puts `service` in use at once: for one whose log is small (a fresh one, the server's). */
  #replace(service) {
    const records = service.logs();
    const requests = new RequestIndex(this.requests.version + 1);
    requests.append(records);
    this.#swap(service, records, requests);
  }

  /**
   * Puts `service` in use once its log is read, joined into requests and
   * counted a slice at a time: the log of 100,000 records is read as the
   * package's NDJSON pieces where it has them (`logs()` copies it whole in
   * one call). Until then the page shows the state it had.
   */
  async #load(service, onProgress = () => {}) {
    let records;
    if (typeof service.exportNdjsonPieces === "function") {
      records = [];
      const pieces = service.exportNdjsonPieces(PIECES);
      let rest = "";
      await eachSliced(pieces, (piece) => {
        const lines = (rest + piece).split("\n");
        rest = lines.pop();
        for (const line of lines) if (line) records.push(recordOf(line));
      }, () => onProgress(pieces.progress * 0.5));
      if (rest) records.push(recordOf(rest));
    } else {
      records = service.logs();
      await breather();
    }
    const requests = new RequestIndex(this.requests.version + 1);
    const SLICE = 512;
    const groups = [];
    for (let i = 0; i < records.length; i += SLICE) groups.push(records.slice(i, i + SLICE));
    await forSliced(groups, (group) => requests.append(group), (n, total) => onProgress(0.5 + (0.5 * n) / Math.max(1, total)), 1);
    this.#swap(service, records, requests);
  }

  #swap(service, records, requests) {
    if (!this.#kept.has(this.service)) this.service?.free();
    this.service = service;
    // Fixed for the service's life: read once (the getter builds a new object each time).
    this.settings = service.settings;
    this.#spans = { key: "", spans: [] };
    this.records = records;
    this.#lastSeq = records.at(-1)?.seq ?? 0;
    this.requests = requests;
    this.#lastDropped = service.droppedLogs;
    const endpoints = webhooksOf(service);
    this.#webhooks = endpoints !== null;
    this.#hooked = endpoints?.length > 0;
  }

  /**
   * Sends one request. Resolves with `{status, headers, body, ms, record,
   * service}`: what the service answered, the milliseconds the call took
   * in this tab, the response log record it wrote (with its simulated
   * duration), and its service record (with the `outcome` of a payment
   * attempt), or null. The page's own service answers at once; the
   * server's (live) once its answer and records are here: one async path
   * for both, so nothing waits on the network with the page held.
   * `options`: live, `{ spans: false }` leaves the trace's spans unfetched.
   */
  request(method, path, body, headers, options) {
    const before = this.#lastSeq;
    const started = performance.now();
    const send = () => (this.remote ? this.remote.request(method, path, body, headers, options) : this.service.request(method, path, body, headers));
    return settle(send, (reply) => this.#answered(method, path, body, headers, reply, before, started));
  }

  #answered(method, path, body, headers, reply, before, started) {
    const ms = performance.now() - started;
    this.#learn(method, path, body, reply.body);
    this.#pull();
    // The records this request wrote are after `before`, of the trace and span its answer names (live, other clients' come in between).
    const traceId = reply.headers?.["x-b3-traceid"];
    const spanId = reply.headers?.["x-b3-spanid"];
    let record = null;
    let service = null;
    for (let i = this.records.length - 1; i >= 0 && this.records[i].seq > before; i--) {
      const r = this.records[i];
      if (traceId && r.traceId !== traceId) continue;
      if (r.stage === "response" && (!spanId || r.spanId === spanId)) record ??= r;
      else if (r.stage === "service" && (!spanId || r.parentSpanId === spanId)) service ??= r;
    }
    // A pay that changes later (a challenge, pending, a reversal): what its service record says is planned, and when.
    const plan = reply.body?.code === 0 ? planOf(service?.outcome, record?.fault) : null;
    const planned = plan ? { plan } : {};
    if (record) {
      this.exchanges.delete(keyOf(record.traceId, record.spanId));
      this.exchanges.set(keyOf(record.traceId, record.spanId), {
        method: String(method).toUpperCase(), path: String(path), headers: { ...(headers ?? {}) }, body: body ?? null,
        status: reply.status, responseHeaders: reply.headers, envelope: reply.body, ms,
        // A scenario's network fault, as request() reports it (no header carries it when no answer came).
        ...(reply.fault ? { fault: reply.fault } : {}),
      });
      if (this.exchanges.size > KEEP_EXCHANGES) this.exchanges.delete(this.exchanges.keys().next().value);
    }
    this.changed({ request: true, key: record ? keyOf(record.traceId, record.spanId) : null });
    this.followDeliveries();
    return { ...reply, ms, record, service, ...planned };
  }

  /** The next `count` payment attempts succeed or fail; 0 clears. Rejects with the service's TypeError or RangeError. */
  forceNext(outcome, count) {
    return settle(() => this.service.forceNext(outcome, count), () => this.changed({ forced: true }));
  }

  /** The service's clock, epoch ms. */
  get now() {
    return this.service?.now ?? null;
  }

  /** Whether the package has asynchronous payments (challenges, pending, reversals; live, whether the server's does). */
  get asyncPayments() {
    return typeof this.service?.advance === "function" && "nextDueAt" in (this.service ?? {});
  }

  /** The soonest change of a payment due on the service's clock, or null. */
  get nextDueAt() {
    const due = this.service?.nextDueAt;
    return typeof due === "number" ? due : null;
  }

  /**
   * Moves the service's clock on by `ms` (a wall clock ignores it) and
   * resolves what came due: their records are read in, and the page redraws.
   */
  advance(ms) {
    return settle(() => this.service.advance(ms), () => {
      this.#pull();
      this.changed({ request: true, clock: true });
      this.followDeliveries();
    });
  }

  /**
   * Whether the service's clock is virtual (moves only with requests and
   * advance), as the core says (live: as the server's says); null where
   * the package does not say.
   */
  get virtualClock() {
    const virtual = this.service?.virtualClock;
    return typeof virtual === "boolean" ? virtual : null;
  }

  /** The payments the service holds in progress (REQUIRES_ACTION or PENDING), whoever paid them; [] where the package does not list them. */
  inProgress() {
    return typeof this.service?.inProgress === "function" ? this.service.inProgress() : [];
  }

  /** Whether the package has webhooks (events, endpoints, deliveries; live, whether the server's admin API has them). */
  get hasWebhooks() {
    return this.#webhooks;
  }

  /** The endpoints, each with its deliveries and their attempts (service.webhooks()); [] without webhooks. */
  webhooks() {
    return this.hasWebhooks ? this.service.webhooks() : [];
  }

  /**
   * The events after the id `after` (all without it), oldest first. Reading
   * them turns webhooks on: the service then keeps them in its snapshot.
   */
  events(after) {
    return this.service.events(after === undefined ? undefined : { after });
  }

  /** The soonest next attempt of any webhook delivery (Unix ms), or null; null at once with no endpoint. */
  get nextRetryAt() {
    if (!this.#hooked && !this.remote) return null;
    let due = null;
    for (const e of this.webhooks()) for (const d of e.deliveries ?? []) if (typeof d.nextAttemptAt === "number" && (due === null || d.nextAttemptAt < due)) due = d.nextAttemptAt;
    return due;
  }

  /** Registers an endpoint (service.addWebhook); rejects with the service's error, which names the field. */
  addWebhook(spec) {
    return settle(() => this.service.addWebhook(spec), (endpoint) => {
      this.#hooked = true;
      this.changed({ webhooks: true });
      return endpoint;
    });
  }

  /** Removes endpoint `id`; resolves to whether there was one. */
  removeWebhook(id) {
    return settle(() => this.service.removeWebhook(id), (removed) => {
      this.#hooked = this.service.webhooks().length > 0;
      this.changed({ webhooks: true });
      return removed;
    });
  }

  /** Sends delivery `id` again now, as a new attempt; its records and the page follow once it is settled. */
  resendDelivery(id) {
    return settle(() => this.service.resendDelivery(id), (delivery) => {
      this.#pull();
      this.changed({ webhooks: true });
      this.followDeliveries();
      return delivery;
    });
  }

  /**
   * The page's own service sends its webhooks after the call that made
   * them returns: once none is in flight, their records (stage webhook)
   * are read in and the page redraws. Live, the server's records come with
   * its stream, and its deliveries with them (remote.js).
   */
  followDeliveries() {
    const service = this.service;
    if (this.remote || !this.#hooked) return;
    service.webhooksSettled().then(() => {
      if (this.service !== service) return;
      this.#pull();
      this.changed({ deliveries: true });
    });
  }

  /** What forceNext still has to do, or null. */
  get forced() {
    return this.service.forced;
  }

  /** Whether the service takes a scenario (a package with them; live, a server with the scenario routes). */
  get scenarios() {
    return typeof this.service?.setScenario === "function" && this.service.scenarios !== false;
  }

  /** The active scenario, `{ document, setAt, rules: [{ name, seen, fired }] }`, or null. */
  get scenario() {
    return this.scenarios ? this.service.scenario ?? null : null;
  }

  /**
   * Sets the scenario (a document, its JSON text or a preset's name), or
   * clears it (null). Rejects with the service's TypeError or RangeError,
   * whose message names the JSON path, and then nothing changed.
   */
  setScenario(scenario) {
    return settle(() => this.service.setScenario(scenario), () => this.changed({ scenario: true }));
  }

  /**
   * The spans of a trace, oldest first. `service.spans()` copies every span
   * the service holds, so the answer is kept until the trace's records change.
   */
  spansOf(traceId) {
    const mine = this.records.filter((r) => r.traceId === traceId);
    const key = `${traceId}|${mine.length}|${mine[0]?.seq}|${mine.at(-1)?.seq}`;
    // Live, the spans come from the server: those held, fetched again when the trace has grown (a "change" says when they come).
    if (this.remote) return markTimeouts(this.remote.spansOfTrace(traceId, mine.at(-1)?.seq ?? 0), mine);
    if (this.#spans.key !== key) {
      this.#spans = { key, spans: markTimeouts(this.service.spans().filter((s) => s.traceId === traceId), mine) };
    }
    return this.#spans.spans;
  }

  clearLogs() {
    return settle(() => this.service.clearLogs(), () => {
      this.records = [];
      this.requests.clear();
      this.#lastDropped = this.service.droppedLogs;
      this.changed({ cleared: true });
    });
  }

  get droppedLogs() {
    return this.service.droppedLogs;
  }

  /** What the service counted over every request (its counters(), kept in its snapshot): what the charts draw. */
  get counters() {
    return this.service.counters();
  }

  /**
   * New records since the last look, and the dropped ones let go; live
   * mode hands over what it fetched already, so nothing is asked twice.
   */
  #pull(fresh = this.service.logs(this.#lastSeq), dropped = this.service.droppedLogs) {
    if (fresh.length && fresh[0].seq > this.#lastSeq + 1) {
      // Records newer than all we held were dropped already: nothing we held is left.
      this.records = fresh;
    } else {
      this.records.push(...fresh);
      this.records.splice(0, Math.max(0, dropped - this.#lastDropped));
    }
    if (fresh.length) this.#lastSeq = fresh.at(-1).seq;
    this.#lastDropped = dropped;
    this.requests.update(this.records);
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
    const sent = routeFor(method, path);
    if (typeof data?.orderId === "string" && sent?.route.tag === "order") {
      remember(this.ids.orders, data.orderId);
      this.ids.prices.set(data.orderId, data.price);
    }
    if (typeof data?.paymentId === "string") remember(this.ids.payments, data.paymentId);
    if (Array.isArray(data?.orderIds)) {
      for (const id of data.orderIds.slice(-5)) remember(this.ids.orders, id);
    }
    if (sent?.route.operationId === "deleteOrder") {
      const deleted = sent.params.orderId;
      this.ids.orders = this.ids.orders.filter((id) => id !== deleted);
    }
  }

  /**
   * Something changed the state. In a tab that follows another, a change made
   * here (not one followed from there) turns it into a separate service.
   */
  changed(detail = {}) {
    if (detail.reset) this.era = {};
    this.copy.changing(detail);
    this.dispatchEvent(new CustomEvent("change", { detail }));
    if (!detail.followed) this.scheduleSave();
  }

  /**
   * The whole state as it is, for undoing a destructive action. One that
   * replaces the service (a fresh start, a reset, an import) keeps the
   * service itself, not freed until the checkpoint is let go: no copy, and
   * an undo with nothing to restore. One that changes the service in place
   * (emptying the log) needs a copy: its snapshot, taken in pieces where
   * the package can.
   */
  async checkpoint({ inPlace = false } = {}) {
    const rest = { ids: this.ids, run: this.run, exchanges: this.exchanges };
    if (!inPlace && !this.remote) {
      this.#kept.add(this.service);
      return { service: this.service, ...rest };
    }
    // The run goes with the snapshot, so that a copy as test still works after the undo.
    return { text: await this.snapshotText(), calls: this.savedRun(), ...rest };
  }

  /** A checkpoint no undo will use: its service is freed (unless it is the one in use). */
  release(checkpoint) {
    const service = checkpoint?.service;
    if (!service) return;
    this.#kept.delete(service);
    if (service !== this.service) service.free();
  }

  /** Puts a checkpoint back. */
  async undo(checkpoint, onProgress) {
    let service = checkpoint.service;
    if (service) this.#kept.delete(service);
    else if (this.remote) service = await this.remote.restore(checkpoint.text);
    else service = await this.restored({ text: checkpoint.text, pieces: [checkpoint.text] }, onProgress);
    await this.adopt(service, null, onProgress);
    if (checkpoint.text !== undefined) this.resumeRun(checkpoint.calls);
    this.ids = checkpoint.ids;
    this.run = checkpoint.run;
    this.exchanges = checkpoint.exchanges;
    this.changed({ reset: true, undone: true });
  }

  /** `snapshot()`, taken in pieces between tasks where the package can (the pieces are fixed when asked for). */
  async snapshotText() {
    if (this.remote || typeof this.service.snapshotPieces !== "function") return this.service.snapshot();
    let text = "";
    await eachSliced(this.service.snapshotPieces(PIECES), (piece) => { text += piece; });
    return text;
  }

  /** Asks the log viewer to show a trace (and the record `seq` in it). */
  showTrace(traceId, seq = null) {
    this.dispatchEvent(new CustomEvent("show-trace", { detail: { traceId, seq } }));
  }

  /** A save in a moment, by the owning tab (saved-copy.js). */
  scheduleSave() {
    this.copy.scheduleSave();
  }

  /** Saves now if a save is waiting (the page is going away). */
  flush() {
    this.copy.flush();
  }

  /** Saves the state in this browser now: see SavedCopy.save. */
  save(options) {
    return this.copy.save(options);
  }
}

/**
 * The async facade over both services: `call()` asks the service, `then`
 * takes its answer. The page's own service answers at once, and `then`
 * runs at once too (the state has changed when the click that asked
 * returns, as before); the server's answers later. A promise either way,
 * rejected with what the service threw.
 */
function settle(call, then) {
  try {
    const value = call();
    return value !== null && typeof value?.then === "function" ? value.then(then) : Promise.resolve(then(value));
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * A service's endpoints, or null where it has no webhooks: a package
 * without them, a module built without them (its Service has the methods,
 * and they throw), a server without the routes.
 */
function webhooksOf(service) {
  if (typeof service.webhooks !== "function" || service.webhookRoutes === false) return null;
  try {
    return service.webhooks();
  } catch {
    return null;
  }
}

/**
 * Marks (`timedOut`) the third-party span of each payment whose service
 * record says the third party timed out (`outcome.thirdParty`), for the
 * waterfall to end its bar in an error, whether or not the span carries
 * `orderpay.fault.kind` itself. `records`: the trace's.
 */
function markTimeouts(spans, records) {
  const waited = new Set();
  for (const r of records) if (r.stage === "service" && r.outcome?.thirdParty === "timeout") waited.add(r.spanId);
  if (waited.size) for (const s of spans) if (s.component === "third-party" && waited.has(s.parentSpanId)) s.timedOut = true;
  return spans;
}

/** Restore pieces: about as much text as the package restores in a few milliseconds. */
const RESTORE_PIECE = 1 << 15;

/** `pieces` cut to at most `size` characters each, never between the halves of a surrogate pair. */
function* cut(pieces, size) {
  for (const piece of pieces) {
    for (let at = 0; at < piece.length;) {
      let end = Math.min(piece.length, at + size);
      if (end < piece.length && /[\ud800-\udbff]/.test(piece[end - 1])) end -= 1;
      yield piece.slice(at, end);
      at = end;
    }
  }
}
