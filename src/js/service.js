// The public Service: the WebAssembly module's RawService behind a JS
// layer that reads the caller's values into plain data (request_parts.js,
// options.js) and parses the JSON text that comes back. Internal module:
// the package exports Service from orderpay.js.
import { RawRestoring, RawService } from "./binding.js";
import { Crossing } from "./crossing.js";
import { NetworkFaultError } from "./network_fault_error.js";
import { readOptions, readScenario } from "./options.js";
import { errorText, kind, requestParts } from "./request_parts.js";
import { pieceSize, restoreLength, Restoring, textIn, TextPieces } from "./pieces.js";
import { linearMemory, loaded } from "./ready.js";
import { exportTest, rendererOf } from "./export_test.js";
import { pactOf } from "./pact_writer.js";
import { RunJournal, exchangedReply, wholeRun } from "./run_journal.js";
import * as tape from "./tape.js";
import { WebhookSender } from "./webhook_sender.js";
import { readWebhook } from "./webhook_spec.js";

const FREED = "service: this Service was freed by free(); make a new one";
const JSON_HEADERS = { "content-type": "application/json" };

/** A 503 envelope for handle and request after free(): they never throw. */
function freed() {
  return { code: 503, msg: FREED, data: null };
}

/**
 * Never expected: the module failed inside (a trap). The caller still gets
 * an envelope, as documented, rather than an exception.
 */
function broken(error) {
  return { code: 500, msg: `internal error: ${errorText(error)}`, data: null };
}

/**
 * An answer's body: the envelope parsed, or the challenge page's HTML (a
 * `text/html` answer, "" for its 303) as the text it is. JSON text of an
 * envelope starts with "{"; HTML never does.
 */
function bodyOf(text) {
  return text.charCodeAt(0) === 123 ? JSON.parse(text) : text;
}

/** Passed by restore() to the constructor, which then adopts `adopting`. */
const ADOPT = {};
let adopting = null;

/** A Service's crossing into its RawService (null once freed), for exchange() below. */
let crossingOf;
/** A Service's RawService, or a TypeError once freed, for rawOf() below. */
let liveOf;
/** A Service's webhook sender (null while it has no endpoint), for exchange() below. */
let senderOf;
/** Sets what a Service calls after each delivery attempt is recorded, for watchDeliveries() below. */
let watchOf;
/** A Service's run journal, for exchange() and runOf() below. */
let journalOf;

/** Why a restored Service exports no test until it is given its run again (after the method's name). */
const RESTORED =
  "this Service was made by Service.restore, and a snapshot holds the state, not the calls that led to it: pass the run it was saved with to resumeRun(run) (service.run() gives it), or export from a Service made with new Service(options)";

/**
 * What the webhook sender asks of the core, over one RawService: the
 * attempts due now (each marked in flight), the report of one, the clock's
 * kind, the soonest due time, and resolving what is due (advance(0)).
 */
function coreOver(raw) {
  return {
    // The wall clock's time, which a virtual clock ignores.
    takeDue: () => JSON.parse(raw.takeDue(Date.now())),
    report: (delivery, n, status, durationMs, error) => raw.reportAttempt(delivery, n, status, durationMs, error),
    get virtual() {
      return raw.virtualClock();
    },
    get nextDueAt() {
      return raw.nextDue() ?? null;
    },
    wake: () => raw.advance(0),
  };
}

/** The same error with `where` ("webhooks[0].") before its message, which names the field. */
function prefixed(error, where) {
  if (!where || !(error instanceof Error)) return error;
  const Kind = error instanceof RangeError ? RangeError : TypeError;
  return new Kind(`${where}${error.message}`, { cause: error });
}

/** An isolated instance of the service, with its own orders, payments and log. */
export class Service {
  #raw;
  #crossing;
  #sender = null;
  #reported = () => {};
  #journal;

  static {
    journalOf = (service) => service.#journal;
    crossingOf = (service) => service.#crossing;
    liveOf = (service) => service.#live();
    senderOf = (service) => service.#sender;
    watchOf = (service, fn) => {
      service.#reported = fn;
    };
  }

  constructor(options) {
    if (options === ADOPT) {
      this.#raw = adopting;
      this.#crossing = new Crossing(adopting, linearMemory);
      this.#journal = new RunJournal({}, adopting);
      this.#journal.refusal = RESTORED;
      // A snapshot's endpoints deliver again, from where it left off.
      if (typeof adopting.webhooks === "function" && JSON.parse(adopting.webhooks()).length > 0) this.#senderFor(adopting).pump();
      return;
    }
    const o = readOptions(options);
    if (!loaded()) {
      throw new Error("orderpay: the WebAssembly module is not loaded yet: await init() first");
    }
    this.#raw = new RawService(o.seed, o.failureRate, o.logCapacity, o.maxOrders, o.virtualTime, o.latency, o.idempotencyKeys);
    if (o.scenario !== undefined) this.#setScenarioText(o.scenario, true);
    this.#addEvery(o.webhooks);
    this.#crossing = new Crossing(this.#raw, linearMemory);
    this.#journal = new RunJournal(o.given, this.#raw);
  }

  /** The constructor's endpoints; a refused one frees the new service and throws, naming it (webhooks[1].url). */
  #addEvery(webhooks) {
    const raw = this.#raw;
    try {
      webhooks.forEach(({ spec, handler }, i) => this.#add(raw, spec, handler, `webhooks[${i}].`));
    } catch (error) {
      this.#sender?.stop();
      this.#raw = null;
      raw.free();
      throw error;
    }
  }

  #add(raw, spec, handler, where) {
    let endpoint;
    try {
      endpoint = JSON.parse(raw.addWebhook(JSON.stringify(spec)));
    } catch (error) {
      throw prefixed(error, where);
    }
    this.#senderFor(raw).setHandler(endpoint.id, handler);
    return endpoint;
  }

  /** The sender, made with the first endpoint: a service with none never calls takeDue. */
  #senderFor(raw) {
    this.#sender ??= new WebhookSender(coreOver(raw), { reported: (attempt, result) => this.#reported(attempt, result) });
    return this.#sender;
  }

  /** A service that continues exactly where the snapshot's left off. */
  static restore(snapshot) {
    if (typeof snapshot !== "string") {
      throw new TypeError("snapshot: expected the text snapshot() returned");
    }
    return adopt(RawService.restoreText(textIn(snapshot, linearMemory)));
  }

  /**
   * A restore fed in pieces (push, then step until done, then finish), for a
   * snapshot too large to restore in one go. `{ length }`, the text's length
   * when known, makes room for it at once.
   */
  static restoring(options) {
    if (!loaded()) {
      throw new Error("orderpay: the WebAssembly module is not loaded yet: await init() first");
    }
    const length = restoreLength(options);
    const raw = new RawRestoring();
    if (length > 0) {
      try {
        raw.reserve(length);
      } catch (error) {
        raw.free();
        throw error;
      }
    }
    return new Restoring(raw, adopt, linearMemory);
  }

  /** The RawService, or a TypeError once freed. */
  #live() {
    const raw = this.#raw;
    if (raw === null) throw new TypeError(`orderpay: ${FREED}`);
    return raw;
  }

  handle(method, path, body, headers) {
    const crossing = this.#crossing;
    if (crossing === null) return freed();
    const p = requestParts(method, path, body, headers);
    const journal = this.#journal;
    let text;
    try {
      const at = journal.clock();
      text = crossing.handle(p, journal.wall(at));
      journal.handled(at, p, text);
      this.#sender?.pump();
      // A newline first: a scenario's network fault lost the answer.
      if (text.charCodeAt(0) !== 10) return bodyOf(text);
    } catch (error) {
      return broken(error);
    }
    throw new NetworkFaultError(JSON.parse(text.slice(1)));
  }

  request(method, path, body, headers) {
    const { status, headers: out, text, fault } = exchange(this, method, path, body, headers);
    if (fault === undefined) return { status, headers: out, body: bodyOf(text) };
    if (fault.kind === "network" && fault.phase === "request") return { status: 0, headers: {}, body: "", fault };
    return { status, headers: out, body: bodyOf(text), fault };
  }

  /**
   * Replaces the scenario (a document, its JSON text or a preset's name),
   * its progress starting now, or clears it with null. A bad document
   * throws a TypeError or RangeError naming its path, and changes nothing.
   */
  setScenario(scenario) {
    const at = this.#journal.clock();
    const text = readScenario(scenario);
    this.#setScenarioText(text, false);
    // A document as it was now (the caller may change the object later); a name or text as given.
    this.#journal.call({ kind: "scenario", at, scenario: typeof scenario === "object" && scenario !== null ? JSON.parse(text) : (scenario ?? null) });
  }

  #setScenarioText(text, fresh) {
    const raw = this.#live();
    try {
      raw.setScenario(text ?? undefined);
    } catch (error) {
      if (fresh) {
        this.#raw = null;
        raw.free();
      }
      throw error;
    }
  }

  /** The scenario in force: null, or { document, setAt, rules: [{ name, seen, fired }] }. */
  get scenario() {
    return JSON.parse(this.#live().scenario());
  }

  logs(after) {
    return tape.records(this.#live().logsTape(typeof after === "number" ? after : undefined), linearMemory);
  }

  /** The events, oldest first; with `after` (an event's id), those after it. Turns webhooks on. */
  events(options) {
    const after = options?.after;
    if (after !== undefined && typeof after !== "string") {
      throw new TypeError(`after: expected an event id (a string), got ${kind(after)}`);
    }
    return JSON.parse(this.#live().events(after));
  }

  clearLogs() {
    this.#live().clearLogs();
  }

  get droppedLogs() {
    return this.#live().droppedLogs();
  }

  /** What the service counted over every request since it started; the log's bound does not touch it. */
  counters() {
    return JSON.parse(this.#live().counters());
  }

  get seed() {
    return this.#live().seed();
  }

  get now() {
    return this.#live().now();
  }

  /** Moves a virtual clock on by `ms` (a wall clock ignores it), then resolves the payments' changes that came due. */
  advance(ms) {
    if (typeof ms !== "number") {
      throw new TypeError("ms: expected a whole number of milliseconds");
    }
    const raw = this.#live();
    const at = this.#journal.clock();
    raw.advance(ms);
    this.#journal.call({ kind: "advance", at, ms });
    this.#sender?.pump();
  }

  /**
   * Registers a webhook endpoint: `{ url }` (POSTed with fetch) or
   * `{ handler }` (called in this process with a Request), with optional
   * `secret` (made from the seed when absent), `events` (default every
   * type) and `header`. Returns the endpoint, its id and secret. A bad
   * field throws a TypeError or RangeError naming it, and changes nothing.
   */
  addWebhook(spec) {
    const raw = this.#live();
    const { spec: plain, handler } = readWebhook(spec);
    return this.#add(raw, plain, handler, "");
  }

  /** Removes endpoint `id` (its deliveries stop); false when there is none. */
  removeWebhook(id) {
    const raw = this.#live();
    if (typeof id !== "string") throw new TypeError(`id: expected an endpoint id such as "we_1", got ${kind(id)}`);
    try {
      raw.removeWebhook(id);
    } catch (error) {
      // The core's RangeError names an id it does not have.
      if (error instanceof RangeError) return false;
      throw error;
    }
    this.#sender?.setHandler(id, null);
    return true;
  }

  /** The endpoints, each with its deliveries and their attempts. */
  webhooks() {
    return JSON.parse(this.#live().webhooks());
  }

  /** Sends delivery `id` again now, whatever became of it; returns the delivery. */
  resendDelivery(id) {
    const raw = this.#live();
    if (typeof id !== "string") throw new TypeError(`id: expected a delivery id such as "wd_1", got ${kind(id)}`);
    const delivery = JSON.parse(raw.resend(id, Date.now()));
    this.#sender?.pump();
    return delivery;
  }

  /**
   * Resolves once no delivery attempt is in flight and none is due now:
   * how a test awaits what a request, advance() or a resend set going.
   * Retries due later on the service's clock are not waited for.
   */
  webhooksSettled() {
    return this.#sender?.settled() ?? Promise.resolve();
  }

  /**
   * Ends a payment's open 3-D Secure challenge as the buyer would:
   * outcome "pass", "fail" or "abandon". Returns the Payment.
   */
  completeChallenge(paymentId, outcome) {
    const raw = this.#live();
    if (typeof paymentId !== "string") throw new TypeError("paymentId: expected a payment id (a string)");
    if (typeof outcome !== "string") throw new TypeError(`outcome: must be pass, fail or abandon, got ${kind(outcome)}`);
    const at = this.#journal.clock();
    const payment = JSON.parse(raw.completeChallenge(paymentId, outcome));
    this.#journal.call({ kind: "challenge", at, paymentId, outcome });
    this.#sender?.pump();
    return payment;
  }

  /** The payments awaiting a challenge (status REQUIRES_ACTION), in id order. */
  challenges() {
    return JSON.parse(this.#live().challenges(false));
  }

  /** The payments in progress: awaiting a challenge (REQUIRES_ACTION) or the service's clock (PENDING), in id order. */
  inProgress() {
    return JSON.parse(this.#live().challenges(true));
  }

  /** Whether the service's clock is virtual (started with `virtualTime`, or restored from such a snapshot); false on the wall clock. */
  get virtualClock() {
    return this.#live().virtualClock();
  }

  /** The soonest time (epoch ms) a payment's change is due, or null. */
  get nextDueAt() {
    return this.#live().nextDue() ?? null;
  }

  snapshot() {
    return this.#live().snapshot();
  }

  /** snapshot() in pieces, fixed at this call. */
  snapshotPieces(options) {
    const size = pieceSize(options);
    return new TextPieces(this.#live().snapshotPieces(), size);
  }

  forceNext(outcome, count) {
    const raw = this.#live();
    if (typeof outcome !== "string") throw new TypeError('outcome: expected "success" or "failure"');
    if (count !== undefined && typeof count !== "number") throw new TypeError("count: expected a whole number");
    const at = this.#journal.clock();
    raw.forceNext(outcome, count);
    this.#journal.call({ kind: "force", at, outcome, count: count ?? 1 });
  }

  /**
   * The run so far, as plain data (JSON-able): the options it was made
   * with and each call that reached it, with the service's time of each.
   * What exportTest renders; save it with a snapshot and hand it to
   * resumeRun() after Service.restore to export again.
   */
  run() {
    this.#live();
    return this.#journal.read();
  }

  /**
   * The run so far as the text of a runnable test: "vitest" (createFetch),
   * "playwright" (mockOrderpay) or "curl" (a shell script against
   * `orderpay serve`). `options`: `{ name, page }`. Throws a TypeError
   * naming a bad format, and an Error when the run cannot be replayed
   * exactly (past the journal's bound, a restore without its run).
   */
  exportTest(format, options) {
    rendererOf(format);
    return exportTest(runOf(this), format, options, (o) => new Service(o));
  }

  /**
   * The run so far as a pact (Pact specification V3) between `consumer`
   * and `provider`: its requests and answers as interactions, what the run
   * had set up as provider states that `orderpay serve` knows
   * (docs/pact.md). Throws as exportTest does for a run it cannot replay.
   */
  exportPact(options) {
    for (const name of ["consumer", "provider"]) {
      const value = options?.[name];
      if (typeof value !== "string" || !value) throw new TypeError(`options.${name}: expected the pacticipant's name (a non-empty string), got ${kind(value)}`);
    }
    return pactOf(runOf(this, "exportPact"), { consumer: options.consumer, provider: options.provider });
  }

  /**
   * Gives a restored Service the run its snapshot was saved with, so that
   * exportTest replays it, then what came after. Only on a Service made by
   * Service.restore (or restoring()) and not yet asked anything.
   */
  resumeRun(run) {
    const raw = this.#live();
    const journal = this.#journal;
    if (journal.refusal !== RESTORED || journal.calls > 0) {
      throw new TypeError("run: resumeRun is for a Service just made by Service.restore, before any call");
    }
    this.#journal = RunJournal.resumed(run, raw, RESTORED);
  }

  get settings() {
    return JSON.parse(this.#live().settings());
  }

  get forced() {
    return JSON.parse(this.#live().forced());
  }

  spans() {
    return tape.spans(this.#live().spansTape(), linearMemory);
  }

  exportOtlp() {
    return tape.otlp(this.#live().otlpTape(), linearMemory);
  }

  exportNdjson() {
    return this.#live().exportNdjson();
  }

  /** exportNdjson() in pieces (whole lines), fixed at this call. */
  exportNdjsonPieces(options) {
    const size = pieceSize(options);
    return new TextPieces(this.#live().ndjsonPieces(), size);
  }

  /** exportOtlp()'s JSON text in pieces, fixed at this call. */
  exportOtlpPieces(options) {
    const size = pieceSize(options);
    return new TextPieces(this.#live().otlpPieces(), size);
  }

  /** Releases the instance's memory now rather than at garbage collection. A second call does nothing. */
  free() {
    const raw = this.#raw;
    this.#raw = null;
    this.#crossing = null;
    this.#sender?.stop();
    if (raw) raw.free();
  }
}

/** A Service around a RawService the module made (restore, finish). */
function adopt(raw) {
  adopting = raw;
  try {
    return new Service(ADOPT);
  } finally {
    adopting = null;
  }
}

/**
 * A request's status and headers, and its envelope as JSON text (the
 * challenge page's HTML for a `text/html` answer): the adapters send that
 * text as it is. Never throws, as request() does not.
 */
export function exchange(service, method, path, body, headers) {
  const crossing = crossingOf(service);
  if (crossing === null) return { status: 503, headers: { ...JSON_HEADERS }, text: JSON.stringify(freed()) };
  const p = requestParts(method, path, body, headers);
  const journal = journalOf(service);
  let reply;
  let at;
  try {
    at = journal.clock();
    reply = crossing.request(p, journal.wall(at));
    senderOf(service)?.pump();
  } catch (error) {
    return { status: 500, headers: { ...JSON_HEADERS }, text: JSON.stringify(broken(error)) };
  }
  journal.request(at, p, reply);
  return exchangedReply(reply);
}

/**
 * A service's RawService, whose reads answer the JSON text the core wrote
 * (logsJson, logsPage, spansJson, otlpJson, counters, forced): the server
 * sends that text as it is. A TypeError once the service is freed.
 */
export function rawOf(service) {
  return liveOf(service);
}

/**
 * A service's run as its journal kept it: `{ options, clock, steps, lost,
 * bound }` (src/js/run_journal.js says each step's shape). exportTest and
 * exportPact read this shape. Throws when the run cannot be replayed
 * exactly: steps lost past the bound, or a restored service without its
 * run (the error begins with `method`, the method that asked).
 */
export function runOf(service, method = "exportTest") {
  liveOf(service);
  const journal = journalOf(service);
  return wholeRun(journal.read(), journal.refusal, method, journal.reason);
}

/**
 * Refuses every export of `service`'s run from now on: the error's message
 * is the export's name and `message`, its `reason` `reason`. For a change
 * made past the journal (the server's Pact provider states place orders
 * under chosen ids).
 */
export function refuseRun(service, message, reason) {
  liveOf(service);
  journalOf(service).refuse(message, reason);
}

/**
 * Calls `fn(attempt, result)` after each delivery attempt of `service` is
 * recorded (the server then streams the new records and saves the state).
 */
export function watchDeliveries(service, fn) {
  watchOf(service, fn);
}
