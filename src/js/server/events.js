// The log as server-sent events (GET /__orderpay/events): a page or a tool
// follows the records as they are written instead of polling. Each client
// gets, at most every FLUSH_MS, the records newer than the last it got, in
// `records` events of at most EVENT_RECORDS records each, with the dropped
// count, the counters, forceNext and the clock (what a page redraws from
// them), and `replaced` when a reset or a restore swapped the service.
// Nothing runs while no client listens.

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
    this.#send(client);
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
      for (const client of this.#clients) this.#send(client);
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

  #send(client) {
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
      write(res, "replaced", null, { generation: instance.generation, settings: instance.service.settings });
    }
    const service = instance.service;
    const records = service.logs(client.after);
    const droppedLogs = service.droppedLogs;
    if (!records.length && droppedLogs === client.dropped) return;
    client.dropped = droppedLogs;
    const state = { droppedLogs, generation: instance.generation, counters: service.counters(), forced: service.forced, now: service.now };
    // One event when there are no records (the dropped count changed); else one for each EVENT_RECORDS of them.
    let at = 0;
    do {
      const part = records.slice(at, at + EVENT_RECORDS);
      if (part.length) client.after = part.at(-1).seq;
      write(res, "records", client.after, { records: part, ...state });
      at += EVENT_RECORDS;
    } while (at < records.length);
  }
}

/** One event; `id` (the last seq) lets a reconnecting EventSource say where it was. */
function write(res, type, id, data) {
  res.write(`event: ${type}\n${id === null ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
}
