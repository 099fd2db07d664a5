// Live mode. When the page comes from `orderpay serve`, it shows that
// server's own service: the requests of curl, a phone or a test suite
// appear in its log within a second, and its buttons act on the same state.
//
// RemoteService has the methods of the package's Service, answered by the
// server. Those the user's own actions call stay synchronous (a
// synchronous XMLHttpRequest to the same origin, on loopback a fraction of
// a millisecond) so that every part of the page runs one code path in both
// modes. Watching the log never blocks the page: it polls the admin API
// with async fetch, hands the new records over, and keeps what it read of
// the counters and dropped records so that the redraw they cause asks the
// server nothing more until the page itself changes something.

const POLL_MS = 400;
const TOKEN_KEY = "orderpay-playground/admin-token";

/** Asks the page's origin whether it is an orderpay server: its health, or null. */
export async function findServer() {
  // The admin token, when the server printed one in the page's address (#token=...).
  const fromHash = /(?:^#|&)token=([^&]+)/.exec(location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromHash));
    history.replaceState(null, "", location.pathname + location.search);
  }
  try {
    const reply = await fetch("/__orderpay/health", { headers: { accept: "application/json" } });
    if (!reply.ok) return null;
    const health = (await reply.json())?.data;
    if (health?.service !== "orderpay") return null;
    return new RemoteService(health, sessionStorage.getItem(TOKEN_KEY));
  } catch {
    return null;
  }
}

function parseHeaders(text) {
  const headers = {};
  for (const line of text.trim().split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

function envelope(status, msg) {
  return { status, headers: {}, body: { code: status, msg, data: null } };
}

export class RemoteService {
  #base;
  #token;
  #timer = 0;
  /** The counters, dropped count, forceNext and clock the last poll read; null once the page changed the server since. */
  #seen = null;

  constructor(health, token) {
    this.#base = health.base === "/" ? "" : health.base;
    this.#token = token;
    this.generation = health.generation;
    this.address = location.origin + (this.#base || "/");
  }

  /** One synchronous exchange with the server: `{status, headers, text}`. */
  #send(method, url, body = null, headers = [], admin = true) {
    if (method !== "GET" || !admin) this.#seen = null;
    const xhr = new XMLHttpRequest();
    xhr.open(method, url, false);
    for (const [name, value] of headers) xhr.setRequestHeader(name, value);
    if (admin && this.#token) xhr.setRequestHeader("authorization", `Bearer ${this.#token}`);
    xhr.send(body);
    return { status: xhr.status, headers: parseHeaders(xhr.getAllResponseHeaders()), text: xhr.responseText };
  }

  /** An admin route's data; throws the server's msg as the service would throw it. */
  #admin(method, route, body) {
    const json = body === undefined ? null : JSON.stringify(body);
    const reply = this.#send(method, `/__orderpay${route}`, json, json === null ? [] : [["content-type", "application/json"]]);
    let parsed = null;
    try { parsed = JSON.parse(reply.text); } catch { /* a document, or an answer with no JSON */ }
    if (reply.status === 200) return parsed?.data ?? reply.text;
    if (reply.status === 401) throw new Error(`the admin API wants its token: open the address the server printed (with #token=...)`);
    const msg = parsed?.msg ?? `the server answered ${reply.status}`;
    throw reply.status === 400 && /must be|from 0 to/.test(msg) ? new RangeError(msg) : new TypeError(msg);
  }

  /** As Service.request: the HTTP status, the response headers and the envelope. */
  request(method, path, body, headers) {
    let list;
    try {
      list = [...new Headers(headers ?? {})];
    } catch (e) {
      return envelope(400, `headers: ${e.message}`);
    }
    let payload = null;
    if (typeof body === "string") payload = new Blob([body]); // a Blob of no type: no Content-Type is added
    else if (body instanceof Uint8Array) payload = body;
    else if (body !== null && body !== undefined) payload = new Blob([JSON.stringify(body)]);
    try {
      const reply = this.#send(String(method), this.#base + path, payload, list, false);
      let parsed;
      try { parsed = JSON.parse(reply.text); } catch { parsed = { code: reply.status, msg: reply.text, data: null }; }
      return { status: reply.status, headers: reply.headers, body: parsed };
    } catch (e) {
      return envelope(400, `method: the browser cannot send ${String(method)} (${e.message})`);
    }
  }

  handle(method, path, body, headers) {
    return this.request(method, path, body, headers).body;
  }

  logs(after) {
    return this.#admin("GET", after === undefined ? "/logs" : `/logs?after=${Math.max(0, Math.floor(after))}`).records;
  }

  get #state() {
    return this.#admin("GET", "/settings");
  }
  get settings() { return this.#state.settings; }
  get forced() { return this.#seen ? this.#seen.forced : this.#state.forced; }
  get droppedLogs() { return this.#seen?.droppedLogs ?? this.#state.droppedLogs; }
  get now() { return this.#seen?.now ?? this.#state.now; }
  get seed() { return this.#state.settings.seed; }

  clearLogs() { this.#admin("POST", "/logs/clear", {}); }
  forceNext(outcome, count) { this.#admin("POST", "/force-next", { outcome, count }); }
  advance(ms) { this.#admin("POST", "/advance", { ms }); }
  spans() { return this.#admin("GET", "/spans"); }
  counters() { return this.#seen?.counters ?? this.#admin("GET", "/counters").counters; }
  snapshot() { return this.#admin("GET", "/snapshot"); }
  exportNdjson() { return this.#admin("GET", "/logs.ndjson"); }
  exportOtlp() { return JSON.parse(this.#send("GET", "/__orderpay/otlp").text); }

  /** A fresh service on the server, with these options over its start options. */
  reset(options) {
    this.generation = this.#admin("POST", "/reset", options).generation;
    return this;
  }

  /** Replaces the server's state with a snapshot's. */
  restore(text) {
    const reply = this.#send("PUT", "/__orderpay/snapshot", text, [["content-type", "application/json"]]);
    const parsed = JSON.parse(reply.text);
    if (reply.status !== 200) throw new TypeError(parsed.msg);
    this.generation = parsed.data.generation;
    return this;
  }

  /** The page owns nothing to free: the service lives in the server. */
  free() {}

  /**
   * Calls `onRecords(records, droppedLogs)` with the records newer than
   * `lastSeq()` when some arrive, and `onReplaced()` when the server's
   * service was reset or replaced. Every exchange is an async fetch.
   */
  watch(lastSeq, onRecords, onReplaced) {
    const headers = this.#token ? { authorization: `Bearer ${this.#token}` } : {};
    let dropped = null;
    const read = async (route) => (await (await fetch(`/__orderpay${route}`, { headers })).json())?.data;
    const poll = async () => {
      try {
        const after = lastSeq();
        const data = await read(`/logs?after=${after}`);
        if (data && data.generation !== this.generation) {
          this.generation = data.generation;
          this.#seen = null;
          onReplaced();
        } else if (data && after === lastSeq() && (data.records?.length || (dropped !== null && data.droppedLogs !== dropped))) {
          const [counted, state] = await Promise.all([read("/counters"), read("/settings")]);
          // The page sent requests of its own meanwhile: its next poll reads them all.
          if (after === lastSeq()) {
            // Kept only if nothing was reset or emptied in between: else the redraw asks afresh.
            const same = (d) => d?.generation === this.generation && d.droppedLogs === data.droppedLogs;
            this.#seen = same(counted) && same(state)
              ? { counters: counted.counters, droppedLogs: data.droppedLogs, forced: state.forced, now: state.now }
              : null;
            onRecords(data.records, data.droppedLogs);
          }
        }
        // A log emptied elsewhere shows as a change of the dropped count alone.
        dropped = data?.droppedLogs ?? null;
      } catch { /* the server is away: try again */ }
      this.#timer = setTimeout(poll, POLL_MS);
    };
    this.#timer = setTimeout(poll, POLL_MS);
  }
}
