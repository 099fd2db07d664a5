// The log as server-sent events (GET /__orderpay/events): a page or a tool
// follows the records as they are written instead of polling. Each client
// gets, at most every FLUSH_MS, the records newer than the last it got, in
// `records` events of at most EVENT_RECORDS records each, with the dropped
// count, the counters, forceNext, the clock and the payments in progress (what a page redraws from
// them), and `replaced` when a reset or a restore swapped the service.
// The events hold the JSON text the core wrote (core_json.js), each page
// written once a flush for every client at that place. Nothing runs while
// no client listens.
import { countersText, forcedText, inProgressText, logsPage, objectText } from "./core_json.js";

/** Requests coming fast are sent together: records go out at most this often (the first change after a quiet spell at once). */
const FLUSH_MS = 50;
/**
 * The most records one event holds. A client parses an event in one go: a
 * test-data run's thousands of records (300 bytes of JSON each) in one
 * event would hold a page's main thread for tens of milliseconds.
 */
export const EVENT_RECORDS = 500;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** A client that reads slower than the log grows is let go (it can reconnect, or poll). */
const MAX_BUFFERED = 8 * 1024 * 1024;

export class LogEvents {
  #instance;
  #clients = new Set();
  #timer = null;
  #heartbeat = null;
  /** When records last went out (performance.now()). */
  #flushed = -Infinity;

  /** `instance`: the server's Instance (its service and generation). */
  constructor(instance) {
    this.#instance = instance;
  }

  /** Starts a stream for `res`, from the records after `after`. */
  open(req, res, after) {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      // Its connection ends with it: a stopping server closes it at once.
      connection: "close",
    });
    res.write(": the log of orderpay, as it is written\n\n");
    const client = { res, after, generation: this.#instance.generation, dropped: -1 };
    this.#clients.add(client);
    req.socket.setTimeout(0);
    res.on("close", () => this.#clients.delete(client));
    this.#heartbeat ??= setInterval(() => {
      for (const c of this.#clients) c.res.write(": still here\n\n");
      if (!this.#clients.size) this.#stopHeartbeat();
    }, HEARTBEAT_MS);
    this.#heartbeat.unref?.();
    this.#send(client, newFlush());
  }

  /**
   * The state changed (a request, an admin action): the clients hear of it
   * once the answer that changed it is sent, or FLUSH_MS after the last
   * flush, whichever is later. A client awaiting its request's records
   * (the playground does) gets them at once, and a burst of requests goes
   * together.
   */
  changed() {
    if (!this.#clients.size || this.#timer !== null) return;
    const wait = Math.max(0, this.#flushed + FLUSH_MS - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flushed = performance.now();
      const flush = newFlush();
      for (const client of this.#clients) this.#send(client, flush);
    }, wait);
  }

  /** Ends every stream: the server is stopping. */
  end() {
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#stopHeartbeat();
    for (const client of this.#clients) client.res.end();
    this.#clients.clear();
  }

  #stopHeartbeat() {
    clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  /** `flush`: what this flush read of the service, shared by the clients (`{ pages: Map by where each starts, state }`). */
  #send(client, flush) {
    const { res } = client;
    if (res.writableLength > MAX_BUFFERED) {
      this.#clients.delete(client);
      res.destroy();
      return;
    }
    const instance = this.#instance;
    if (client.generation !== instance.generation) {
      client.generation = instance.generation;
      client.after = 0;
      client.dropped = -1;
      write(res, "replaced", null, JSON.stringify({ generation: instance.generation, settings: instance.service.settings }));
    }
    const service = instance.service;
    const droppedLogs = service.droppedLogs;
    let page = read(service, flush, client.after);
    if (!page.count && droppedLogs === client.dropped) return;
    client.dropped = droppedLogs;
    flush.state ??= stateText(instance, droppedLogs);
    // One event when there are no records (the dropped count changed); else one for each EVENT_RECORDS of them.
    for (;;) {
      client.after = page.last;
      write(res, "records", client.after, `{"records":${page.text},${flush.state}`);
      if (page.count < EVENT_RECORDS) break;
      page = read(service, flush, client.after);
      if (!page.count) break;
    }
  }
}

/** A flush's reads: nothing yet. */
function newFlush() {
  return { pages: new Map(), state: null };
}

/** The page of the log after `after` (`logsPage`), read once a flush whatever the clients. */
function read(service, flush, after) {
  let page = flush.pages.get(after);
  if (page === undefined) {
    page = logsPage(service, after, EVENT_RECORDS);
    flush.pages.set(after, page);
  }
  return page;
}

/** A records event's fields after its records: the state a page redraws from, as JSON text closing the object. */
function stateText(instance, droppedLogs) {
  const service = instance.service;
  const text = objectText([
    ["droppedLogs", String(droppedLogs)],
    ["generation", String(instance.generation)],
    ["counters", countersText(service)],
    ["forced", forcedText(service)],
    ["now", String(service.now)],
    ["virtualClock", String(service.virtualClock)],
    ["nextDueAt", String(service.nextDueAt)],
    ["inProgress", inProgressText(service)],
  ]);
  return text.slice(1);
}

/** One event, its data given as JSON text; `id` (the last seq) lets a reconnecting EventSource say where it was. */
function write(res, type, id, data) {
  res.write(`event: ${type}\n${id === null ? "" : `id: ${id}\n`}data: ${data}\n\n`);
}
