// The log as server-sent events (GET /__orderpay/events): a page or a tool
// follows the records as they are written instead of polling. Each client
// gets, at most every FLUSH_MS, one `records` event with the records newer
// than the last it got, the dropped count, the counters, forceNext and the
// clock (what a page redraws from them), and `replaced` when a reset or a
// restore swapped the service. Nothing runs while no client listens.

/** Requests coming fast are sent together: one event per client at most this often. */
const FLUSH_MS = 50;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** A client that reads slower than the log grows is let go (it can reconnect, or poll). */
const MAX_BUFFERED = 8 * 1024 * 1024;

export class LogEvents {
  #instance;
  #clients = new Set();
  #timer = null;
  #heartbeat = null;

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

  /** The state changed (a request, an admin action): the clients hear of it shortly. */
  changed() {
    if (!this.#clients.size || this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      for (const client of this.#clients) this.#send(client);
    }, FLUSH_MS);
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
    if (records.length) client.after = records.at(-1).seq;
    client.dropped = droppedLogs;
    write(res, "records", client.after, {
      records,
      droppedLogs,
      generation: instance.generation,
      counters: service.counters(),
      forced: service.forced,
      now: service.now,
    });
  }
}

/** One event; `id` (the last seq) lets a reconnecting EventSource say where it was. */
function write(res, type, id, data) {
  res.write(`event: ${type}\n${id === null ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
}
