// Live mode. When the page comes from `orderpay serve`, it shows that
// server's own service: the requests of curl, a phone or a test suite
// appear in its log at once, and its buttons act on the same state.
//
// RemoteService has the methods of the package's Service. What changes the
// server (a request, forceNext, emptying the log, a reset, a restore) is
// an async fetch that resolves once the answer and what it changed (the
// new records, the counters, the settings, the spans of the request's
// trace) are here: the page awaits it through the same store methods as
// with its own service, whose answers come at once. What the page reads
// (the records, the counters, forceNext, the spans) is read from that
// mirror, so nothing ever blocks the page on the network. The log is
// followed with the server's stream of events (`/__orderpay/events`), or,
// where the server has none, by polling `logs?after=` every 0.4 s. While
// the stream flows, a request's records come with it (not fetched again),
// and the stream is read a slice at a time.
import { slicer } from "./slices.js";
import { setLiveGateway } from "./live.js";
import { RemoteWebhooks } from "./remote-webhooks.js";

const POLL_MS = 400;
/** How long a request waits for its records on the event stream before it fetches them (the server sends them within 50 ms). */
const ARRIVAL_MS = 1000;
const TOKEN_KEY = "orderpay-playground/admin-token";
/** The traces whose spans are kept, the most recently asked last. */
const SPAN_TRACES = 64;
const SESSION_COOKIE = "orderpay-session";
/** The picker's choice that asks for a new session's name. */
const NEW_SESSION = "\u0000new";

/** The service of the orderpay server that served this page (its live marker says so), mirrored, or null. */
export async function findServer() {
  // The admin token, when the server printed one in the page's address (#token=...).
  const fromHash = /(?:^#|&)token=([^&]+)/.exec(location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromHash));
    history.replaceState(null, "", location.pathname + location.search);
  }
  // `orderpay serve` marks the pages it serves; a page served any other way is the in-tab one and asks no server.
  if (!document.querySelector('meta[name="orderpay-live"]')) return null;
  let remote;
  try {
    const reply = await fetch("/__orderpay/health", { headers: { accept: "application/json" } });
    if (!reply.ok) return null;
    const health = (await reply.json())?.data;
    if (health?.service !== "orderpay") return null;
    remote = new RemoteService(health, sessionStorage.getItem(TOKEN_KEY));
  } catch {
    return null;
  }
  setLiveGateway(remote.gateway);
  try {
    await remote.reload();
  } catch (e) {
    // Shown with the page's notice; the page follows the log as soon as the server lets it.
    remote.problem = e.message;
  }
  mountSessionPicker(remote).catch(() => {});
  return remote;
}

/**
 * The session this page follows: the one its cookie names (GET /s/NAME/
 * sets it), else the server's default one. Every request of the page,
 * gateway and admin alike, carries the cookie, so it acts on that session.
 */
function cookieSession() {
  const found = document.cookie.split(";").map((c) => c.trim().split("=")).find(([name]) => name === SESSION_COOKIE);
  return found?.[1] || "default";
}

/**
 * A session picker in the page's header: the server's sessions, and a new
 * one by name. Picking one opens /s/NAME/, where the server sets the
 * cookie and sends the page back to /, now in that session.
 */
async function mountSessionPicker(remote) {
  const header = document.querySelector("header");
  if (!header || header.querySelector(".session-picker")) return;
  const listed = await remote.sessions();
  const label = document.createElement("label");
  label.className = "session-picker";
  label.append("Session ");
  const select = document.createElement("select");
  select.id = "session";
  const names = [...new Set([...listed.map((s) => s.name), remote.session])];
  for (const name of [...names, NEW_SESSION]) select.append(new Option(name === NEW_SESSION ? "New session…" : name, name));
  select.value = remote.session;
  select.addEventListener("change", () => {
    const name = select.value === NEW_SESSION ? prompt("A name for the new session (A-Z a-z 0-9 . _ -)")?.trim() : select.value;
    if (name && /^[A-Za-z0-9._-]{1,64}$/.test(name) && name !== "." && name !== "..") location.assign(`/s/${name}/`);
    else select.value = remote.session;
  });
  label.append(select);
  (header.querySelector("#notice") ?? header.lastElementChild).after(label);
}

/** A request's body as fetch sends it. */
function payload(verb, body) {
  // A GET or HEAD carries no body in a browser (the service would ignore one).
  if (/^(GET|HEAD)$/i.test(verb.trim())) return null;
  if (typeof body === "string") return new Blob([body]); // a Blob of no type: no Content-Type is added
  if (body instanceof Uint8Array) return body;
  if (body !== null && body !== undefined) return new Blob([JSON.stringify(body)]);
  return null;
}

/** One block of an event stream: its type and its data, parsed; null when it has none (a comment). */
function parseEvent(block) {
  let type = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) type = line.slice(6).trim();
    else if (line.startsWith("data:")) data += line.slice(5).trimStart();
  }
  return data ? { type, data: JSON.parse(data) } : null;
}

/** A method a browser's fetch takes: a token, and none of those it refuses. */
const SENDABLE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN = /^(CONNECT|TRACE|TRACK)$/i;

/**
 * The body of PUT /scenario: JSON, a document or a preset's name as a JSON
 * string. Text that is not JSON (a name typed in the editor, a broken
 * document) goes as a string, so the core reads it and its message names
 * what is wrong, as `setScenario` in the tab does.
 */
function scenarioBody(scenario) {
  if (typeof scenario !== "string") return JSON.stringify(scenario);
  try {
    const parsed = JSON.parse(scenario);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return scenario;
  } catch { /* not JSON: the core reads it */ }
  return JSON.stringify(scenario);
}

/**
 * An answer's body as the package's `request()` gives it: the envelope of
 * a JSON answer, parsed; a page (the challenge page, text/html) or an
 * empty body (a 303) as its text.
 */
async function bodyOf(answer) {
  const text = await answer.text();
  const type = answer.headers.get("content-type") ?? "";
  if (/^text\//i.test(type) || (text === "" && !/json/i.test(type))) return text;
  try {
    return JSON.parse(text);
  } catch {
    return envelope(answer.status, text).body;
  }
}

function envelope(status, msg) {
  return { status, headers: {}, body: { code: status, msg, data: null } };
}

export class RemoteService {
  #base;
  #token;
  /** settings, forced, now, droppedLogs, counters: as last fetched. */
  #state = { settings: { seed: 0, latency: {} }, forced: null, now: 0, readAt: 0, droppedLogs: 0, counters: null, scenario: null };
  /** Whether the server has the scenario routes (GET, PUT, DELETE /__orderpay/scenario); the Failures panel is off without. */
  scenarios = false;
  /** A look at the scenario's counts due after other clients' requests (see #scenarioSoon). */
  #scenarioTimer = 0;
  /** Resolves to the admin API's paths, from its OpenAPI document (asked once). */
  #adminPaths = null;
  /** Records fetched and not yet handed to the page, oldest first. */
  #records = [];
  /** The newest record fetched. */
  #lastSeq = 0;
  /** traceId → { upTo, spans }: the spans of a trace, fetched once the records up to `upTo` were written. */
  #spans = new Map();
  #spansAsked = new Set();
  /** Requests waiting for their records on the event stream (see #expect). */
  #awaiting = new Set();
  /** How the log is followed: "events", "polling", or "" before it is. */
  following = "";
  /** Why the server's state could not be read at the start, or "". */
  problem = "";
  /** Called with a trace id when spans the page asked for arrive. */
  onSpans = () => {};
  /** Whether the server has the webhook routes (/__orderpay/webhooks…); the Webhooks panel is off without. */
  webhookRoutes = false;
  /** Called when the mirror of the server's endpoints, deliveries and events moved. */
  onWebhooks = () => {};
  #hooks = new RemoteWebhooks((method, route, body) => this.#admin(method, route, body), () => this.onWebhooks());

  constructor(health, token) {
    this.#base = health.base === "/" ? "" : health.base;
    this.#token = token;
    this.generation = health.generation;
    /** The server's session this page follows (cookieSession); said with the address. */
    this.session = cookieSession();
    this.address = location.origin + (this.#base || "/") + (this.session === "default" ? "" : `, session ${this.session}`);
    /** Where another client reaches this session's gateway (a copy as curl goes there): the /s/NAME prefix names the session. */
    this.gateway = location.origin + (this.session === "default" ? "" : `/s/${this.session}`) + this.#base;
  }

  /** The server's sessions, the default first, with their counts. */
  sessions() {
    return this.#admin("GET", "/sessions").then((data) => data.sessions);
  }

  #auth(headers = new Headers()) {
    if (this.#token) headers.set("authorization", `Bearer ${this.#token}`);
    return headers;
  }

  /**
   * One exchange with the admin API: its data (`as`: "text" for a document
   * such as the snapshot, "json" for the OTLP/JSON one); throws the
   * server's msg as the service would throw it.
   */
  async #admin(method, route, body, as = "data") {
    const headers = this.#auth();
    let payload = null;
    if (typeof body === "string") payload = body;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== null) headers.set("content-type", "application/json");
    const reply = await fetch(`/__orderpay${route}`, { method, headers, body: payload, cache: "no-store" });
    const text = await reply.text();
    if (reply.status === 200 && as === "text") return text;
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { /* an answer with no JSON */ }
    if (reply.status === 200) return as === "json" ? parsed : parsed?.data;
    if (reply.status === 401) throw new Error(`the admin API wants its token: open the address the server printed (with #token=...)`);
    const msg = parsed?.msg ?? `the server answered ${reply.status}`;
    throw Object.assign(reply.status === 400 && /must be|from 0 to/.test(msg) ? new RangeError(msg) : new TypeError(msg), { status: reply.status });
  }

  /** GET /in-progress: the payments in progress and the clock; {} from a server without the route. */
  #readInProgress() {
    return this.#admin("GET", "/in-progress").catch(() => ({}));
  }

  /** Takes records newer than those held (a poll, an event and an action may bring the same ones). */
  #take(records, droppedLogs) {
    for (const r of records) {
      if (r.seq > this.#lastSeq) {
        this.#records.push(r);
        this.#lastSeq = r.seq;
        if (r.stage === "response" && this.#awaiting.size) for (const waiter of this.#awaiting) waiter.saw(`${r.traceId}/${r.spanId}`);
      }
    }
    if (typeof droppedLogs === "number") this.#state.droppedLogs = droppedLogs;
  }

  /**
   * A request's records awaited on the event stream: registered before the
   * request is sent (they may come before its answer). `until(traceId,
   * spanId)`, with the answer's ids, resolves true once its response record
   * (the last it writes) is here, false when that does not come within
   * ARRIVAL_MS or the stream ends: then the caller fetches them.
   */
  #expect() {
    const seen = new Set();
    let wanted = "";
    let done = () => {};
    const waiter = {
      saw: (key) => { if (key === wanted) waiter.finish(true); else if (!wanted) seen.add(key); },
      finish: (here) => { this.#awaiting.delete(waiter); done(here); return here; },
      until: (traceId, spanId) => {
        if (!traceId || !spanId) return Promise.resolve(waiter.finish(false));
        wanted = `${traceId}/${spanId}`;
        if (seen.has(wanted)) return Promise.resolve(waiter.finish(true));
        seen.clear();
        return new Promise((resolve) => {
          const timer = setTimeout(() => waiter.finish(false), ARRIVAL_MS);
          done = (here) => { clearTimeout(timer); resolve(here); };
        });
      },
    };
    this.#awaiting.add(waiter);
    return waiter;
  }

  /** What the page reads besides the records: `data` of /settings or of an event. */
  #read(data) {
    const s = this.#state;
    if (data.settings) s.settings = data.settings;
    if ("forced" in data) s.forced = data.forced;
    if (typeof data.now === "number") s.now = data.now;
    if (data.counters) s.counters = data.counters;
    if ("scenario" in data) s.scenario = data.scenario ?? null;
    // Asynchronous payments: the soonest change due, and whether the server's clock is virtual, where it says.
    if ("nextDueAt" in data) s.nextDueAt = typeof data.nextDueAt === "number" ? data.nextDueAt : null;
    if (typeof data.virtualClock === "boolean") s.virtualClock = data.virtualClock;
    // The payments in progress, whoever paid them (GET /in-progress's `payments`, an event's `inProgress`).
    const open = data.inProgress ?? data.payments;
    if (Array.isArray(open)) s.inProgress = open;
    // When `now` was read: a wall clock's time moves on from there (see `now`).
    if (typeof data.now === "number") s.readAt = performance.now();
  }

  /**
   * Whether the server has the admin route ending in `route`, read once
   * from its admin API's OpenAPI document (open, no token): asking GET
   * /scenario of a server without it would log a 404 in the console.
   */
  async #hasRoute(route) {
    this.#adminPaths ??= this.#admin("GET", "/openapi-admin.json", undefined, "json").then((doc) => Object.keys(doc?.paths ?? {}), () => []);
    return (await this.#adminPaths).some((path) => path.endsWith(`/__orderpay${route}`));
  }

  async #hasScenarioRoutes() {
    return this.#hasRoute("/scenario");
  }

  /** The scenario in force, with its rules' counts (GET /scenario), on a server that has the route; else the panel stays off. */
  async #readScenario() {
    this.scenarios = await this.#hasScenarioRoutes();
    if (this.scenarios) this.#read({ scenario: (await this.#admin("GET", "/scenario")).scenario });
  }

  /**
   * Other clients' requests move the rules' counts: with a scenario in
   * force, its counts are read again, at most every half second. With none
   * (the default) nothing is asked.
   */
  #scenarioSoon(onChange) {
    if (!this.scenarios || !this.#state.scenario || this.#scenarioTimer) return;
    this.#scenarioTimer = setTimeout(() => {
      this.#readScenario().then(onChange, () => {}).finally(() => { this.#scenarioTimer = 0; });
    }, 500);
  }

  get scenario() { return this.#state.scenario; }

  /** PUT /scenario (a document, its JSON text, or a preset's name) or DELETE it (null); the server's 400 names the path. */
  async setScenario(scenario) {
    if (scenario === null) await this.#admin("DELETE", "/scenario");
    else await this.#admin("PUT", "/scenario", scenarioBody(scenario));
    await this.#readScenario();
  }

  /** The whole log and state afresh: at the start, and after a reset or a restore (here or elsewhere). */
  async reload() {
    const [logs, state, counted, open] = await Promise.all([this.#admin("GET", "/logs"), this.#admin("GET", "/settings"), this.#admin("GET", "/counters"), this.#readInProgress()]);
    this.generation = logs.generation;
    this.#records = [];
    this.#lastSeq = 0;
    this.#spans.clear();
    this.#take(logs.records, logs.droppedLogs);
    this.#read({ ...state, ...open, counters: counted.counters });
    await this.#readScenario();
    this.webhookRoutes = await this.#hasRoute("/webhooks");
    this.#hooks.forget();
    if (this.webhookRoutes) await this.#hooks.read();
  }

  /**
   * What a change made here left: the new records, the counters, the
   * settings. Returns false when the server's service was replaced
   * meanwhile (by another client): then the whole log is read again.
   */
  async #catchUp() {
    const [logs, state, counted, open] = await Promise.all([
      this.#admin("GET", `/logs?after=${this.#lastSeq}`), this.#admin("GET", "/settings"), this.#admin("GET", "/counters"), this.#readInProgress(),
    ]);
    if (logs.generation !== this.generation) {
      await this.reload();
      this.replaced?.();
      return false;
    }
    this.#take(logs.records, logs.droppedLogs);
    this.#read({ ...state, ...open, counters: counted.counters });
    // The rules' counts moved with the request: read only while a scenario is in force.
    if (this.scenarios && this.#state.scenario) await this.#readScenario();
    // And the deliveries it set going, once webhooks are on.
    if (this.webhookRoutes && this.#hooks.on) await this.#hooks.read();
    return true;
  }

  /**
   * As Service.request, resolved once its records are here: the HTTP
   * status, the response headers and the envelope. Its trace's spans are
   * fetched too, unless `spans` is false (a test-data chunk's are of no use
   * to the page, and the server copies every span it holds to find them).
   */
  async request(method, path, body, headers, { spans = true } = {}) {
    let list;
    try {
      list = new Headers(headers ?? {});
    } catch (e) {
      return envelope(400, `headers: ${e.message}`);
    }
    const verb = String(method);
    // With no log kept, no record would come.
    const arrival = this.following === "events" && this.#state.settings.logCapacity !== 0 ? this.#expect() : null;
    let reply;
    try {
      const answer = await fetch(this.#base + path, { method: verb, headers: list, body: payload(verb, body), cache: "no-store" });
      reply = { status: answer.status, headers: Object.fromEntries(answer.headers), body: await bodyOf(answer) };
    } catch (e) {
      arrival?.finish(false);
      if (!SENDABLE.test(verb) || FORBIDDEN.test(verb)) return envelope(400, `method: the browser cannot send ${verb} (${e.message})`);
      return this.#lost(e);
    }
    const traceId = reply.headers["x-b3-traceid"];
    try {
      const here = await arrival?.until(traceId, reply.headers["x-b3-spanid"]);
      if ((here || await this.#catchUp()) && spans && traceId) await this.#fetchSpans(traceId);
      // Its records came on the stream: the rules' counts it moved are read here (#catchUp reads them otherwise).
      if (here && this.scenarios && this.#state.scenario) await this.#readScenario();
      // The deliveries it set going are sent after its answer: read in a moment.
      if (this.webhookRoutes && this.#hooks.on) this.#hooks.soon();
    } catch {
      // The answer stands; its records come with the next event or poll.
    }
    return reply;
  }

  /**
   * A request whose answer never came (fetch rejected: the server reset
   * the connection, closed it with no answer or cut the body short, as a
   * scenario's network fault does): no envelope, `status` 0, as
   * `request()` of the package reports a network fault. Its records, which
   * say which rule fired, are fetched all the same.
   */
  async #lost(error) {
    try { await this.#catchUp(); } catch { /* its records come with the next event or poll */ }
    return { status: 0, headers: {}, body: "", error: `${error.name}: ${error.message}` };
  }

  async handle(method, path, body, headers) {
    return (await this.request(method, path, body, headers)).body;
  }

  /** The records newer than `after` not yet handed over (all held, without `after`). */
  logs(after) {
    if (after === undefined) return this.#records.slice();
    // Those up to `after` are the page's already.
    let start = 0;
    while (start < this.#records.length && this.#records[start].seq <= after) start++;
    this.#records.splice(0, start);
    return this.#records.slice();
  }

  get settings() { return this.#state.settings; }
  get forced() { return this.#state.forced; }
  get droppedLogs() { return this.#state.droppedLogs; }
  /**
   * The server's clock: the time it last said. On the wall clock, as the
   * server says it runs, that reading moves on with the real time since
   * (each event and answer reads it again), so the page need not ask.
   */
  get now() {
    const s = this.#state;
    return s.virtualClock === false && s.now ? s.now + Math.round(performance.now() - s.readAt) : s.now;
  }
  /** The soonest change of a payment due on the server's clock, or null (a server that does not say: none known). */
  get nextDueAt() { return this.#state.nextDueAt ?? null; }
  /** Whether the server's clock is virtual, as its core says; null where the server does not say. */
  get virtualClock() { return this.#state.virtualClock ?? null; }
  /** The payments in progress the server holds (REQUIRES_ACTION or PENDING), whoever paid them, as last read. */
  inProgress() { return this.#state.inProgress ?? []; }
  get seed() { return this.#state.settings.seed; }
  counters() { return this.#state.counters; }

  async clearLogs() {
    await this.#admin("POST", "/logs/clear", {});
    this.#records = [];
    await this.#catchUp();
  }

  async forceNext(outcome, count) {
    const data = await this.#admin("POST", "/force-next", { outcome, count });
    this.#read(data);
  }

  /** Moves the server's clock (a real-time server resolves what is due now), then reads the records of what came due. */
  async advance(ms) {
    this.#read(await this.#admin("POST", "/advance", { ms }));
    await this.#catchUp();
  }

  /**
   * The spans of one trace as last fetched; when none are held yet, an
   * empty list marked `pending` while they are fetched (`onSpans` says
   * when they are here). `upTo`: the newest record of the trace the page
   * holds: spans fetched before it was written are fetched again.
   */
  spansOfTrace(traceId, upTo) {
    const kept = this.#spans.get(traceId);
    if ((!kept || kept.upTo < upTo) && !this.#spansAsked.has(traceId)) {
      this.#spansAsked.add(traceId);
      this.#fetchSpans(traceId).then(() => this.onSpans(traceId), () => {}).finally(() => this.#spansAsked.delete(traceId));
    }
    return kept?.spans ?? Object.assign([], { pending: this.#spansAsked.has(traceId) });
  }

  /**
   * Fetches a trace's spans. Whether `traceId` is one the service could
   * have made is the core's to say (the server asks it): a refusal (a 4xx
   * naming the field) is kept, marked `refused` with the server's msg, for
   * the views to show, and not asked again.
   */
  async #fetchSpans(traceId) {
    const upTo = this.#lastSeq; // written before this fetch starts, so their spans are in its answer
    let spans;
    try {
      spans = await this.#admin("GET", `/spans?traceId=${encodeURIComponent(traceId)}`);
    } catch (e) {
      if (!(e.status >= 400 && e.status < 500)) throw e;
      this.#spans.set(traceId, { upTo: Infinity, spans: Object.assign([], { refused: e.message }) });
      return;
    }
    this.#spans.delete(traceId);
    this.#spans.set(traceId, { upTo, spans });
    if (this.#spans.size > SPAN_TRACES) this.#spans.delete(this.#spans.keys().next().value);
  }

  spans() {
    return [...this.#spans.values()].flatMap((k) => k.spans);
  }

  snapshot() { return this.#admin("GET", "/snapshot", undefined, "text"); }
  exportTest(format) { return this.#admin("GET", `/export-test?format=${encodeURIComponent(format)}`, undefined, "text"); }
  exportNdjson() { return this.#admin("GET", "/logs.ndjson", undefined, "text"); }
  exportOtlp() { return this.#admin("GET", "/otlp", undefined, "json"); }

  /** A fresh service on the server, with these options over its start options. */
  async reset(options) {
    this.generation = (await this.#admin("POST", "/reset", options)).generation;
    await this.reload();
    return this;
  }

  /** Replaces the server's state with a snapshot's. */
  async restore(text) {
    this.generation = (await this.#admin("PUT", "/snapshot", text)).generation;
    await this.reload();
    return this;
  }

  /** The server's endpoints, each with its deliveries, as last read. */
  webhooks() {
    return this.#hooks.endpoints;
  }

  /** The server's events after `{ after }`, as last read; the first ask turns webhooks on (see remote-webhooks.js). */
  events(options) {
    return this.#hooks.events(options?.after);
  }

  /** POST /webhooks: an endpoint by URL (over HTTP a handler is not given). */
  async addWebhook(spec) {
    const { webhook } = await this.#admin("POST", "/webhooks", spec);
    await this.#hooks.read();
    return webhook;
  }

  /** DELETE /webhooks/{id}: false when the server has no such endpoint. */
  async removeWebhook(id) {
    try {
      await this.#admin("DELETE", `/webhooks/${encodeURIComponent(id)}`);
    } catch (e) {
      if (e.status === 404) return false;
      throw e;
    }
    await this.#hooks.read();
    return true;
  }

  /** POST /webhooks/deliveries/{id}/resend, answered once the attempt is settled; then its records and the deliveries. */
  async resendDelivery(id) {
    const { delivery } = await this.#admin("POST", `/webhooks/deliveries/${encodeURIComponent(id)}/resend`, {});
    // Its records, and the deliveries (webhooks are on: there is one).
    await this.#catchUp();
    return delivery;
  }

  /** The server's answers come once its deliveries are settled: nothing to wait for here. */
  webhooksSettled() {
    return Promise.resolve();
  }

  /** The page owns nothing to free: the service lives in the server. */
  free() {}

  /**
   * Follows the server's log: `onRecords()` when records came (the page
   * reads them with `logs(after)`), `onReplaced()` when the server's
   * service was reset or replaced. With the server's event stream where it
   * has one; else, or once the stream breaks, by polling.
   */
  follow(onRecords, onReplaced) {
    this.replaced = onReplaced;
    this.#events(onRecords, onReplaced).catch(() => {}).finally(() => {
      if (this.following === "events" || this.following === "") this.#poll(onRecords);
    });
  }

  /** The event stream (text/event-stream, read with fetch so that the admin token goes as a header). */
  async #events(onRecords, onReplaced) {
    const reply = await fetch(`/__orderpay/events?after=${this.#lastSeq}`, { headers: this.#auth(new Headers({ accept: "text/event-stream" })), cache: "no-store" });
    if (!reply.ok || !/^text\/event-stream/.test(reply.headers.get("content-type") ?? "")) {
      reply.body?.cancel().catch(() => {});
      return;
    }
    this.following = "events";
    try {
      await this.#readEvents(reply.body, onRecords, onReplaced);
    } finally {
      // The stream broke: requests waiting for their records fetch them, and the log is polled.
      this.following = "";
      for (const waiter of this.#awaiting) waiter.finish(false);
    }
  }

  /**
   * Reads the stream's events a slice at a time: a burst (a test-data
   * run's thousands of records, in events of a few hundred) is parsed in
   * tasks of a few milliseconds, and the page hears of it once a slice.
   */
  async #readEvents(body, onRecords, onReplaced) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    const clock = slicer();
    let buffer = "";
    let fresh = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (!event) continue;
        if (event.data.generation !== this.generation) {
          await this.reload();
          onReplaced();
          fresh = false;
        } else if (event.type === "records") {
          fresh = this.#received(event.data) || fresh;
          this.#scenarioSoon(onRecords);
        }
        if (clock.due()) {
          if (fresh) onRecords();
          fresh = false;
          await clock.next();
        }
      }
      if (fresh) onRecords();
      fresh = false;
    }
  }

  /** A `records` event taken in: true when it brought records or a new dropped count. */
  #received(event) {
    const had = this.#lastSeq;
    const dropped = this.#state.droppedLogs;
    this.#take(event.records, event.droppedLogs);
    this.#read(event);
    // A delivery attempt writes a record: the endpoints and events are read
    // again, once webhooks are on or such a record came (another client's
    // endpoint); a 10,000-order test-data run with none fetches nothing more.
    const attempted = () => event.records.some((r) => r.stage === "webhook");
    if (this.webhookRoutes && (this.#hooks.on || attempted())) this.#hooks.soon();
    return this.#lastSeq !== had || this.#state.droppedLogs !== dropped;
  }

  /** Polls `logs?after=`, and when records came, the counters and settings too. */
  #poll(onRecords) {
    this.following = "polling";
    let dropped = this.#state.droppedLogs;
    const poll = async () => {
      try {
        const had = this.#lastSeq;
        const logs = await this.#admin("GET", `/logs?after=${had}`);
        if (logs.generation !== this.generation) {
          await this.reload();
          this.replaced();
        } else if (logs.records.length || logs.droppedLogs !== dropped) {
          // A log emptied elsewhere shows as a change of the dropped count alone.
          if (await this.#catchUp() && (this.#lastSeq !== had || this.#state.droppedLogs !== dropped)) onRecords();
        }
        dropped = this.#state.droppedLogs;
      } catch { /* the server is away: try again */ }
      setTimeout(poll, POLL_MS);
    };
    setTimeout(poll, POLL_MS);
  }
}
