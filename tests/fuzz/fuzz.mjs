// The seeded JS fuzzer: a mix of valid and broken requests, with hostile
// JS values, through the package's Service. For every call it checks:
//   - no exception, and an envelope of the right shape ({code, msg, data},
//     and {status, headers, body} for request);
//   - no 5xx: nothing a caller passes can break the service inside;
//   - for a 4xx, code equal to the status and a msg naming the field;
// and, on a sample of the 4xx answers, that the state is unchanged (the
// snapshot without the log, the counters and the trace-id stream is equal
// before and after). Prints a JSON summary; exits 1 on any finding.
//
//   node tests/fuzz/fuzz.mjs [calls, default 300000] [seed, default 1]
// FUZZ_SAMPLE_EVERY=n checks the state on every n-th call (default 101).
// Then one call in 100 more sets or sends a random, damaged or hostile
// scenario (see below), and one service per 6,000 calls runs webhook
// deliveries to random handlers (webhooks.mjs).
// Run after building the package (pkg/).
import { NetworkFaultError, presets, Service } from "../../pkg/node.js";
import * as gen from "./values.mjs";
import { fuzzWebhooks } from "./webhooks.mjs";

const calls = Number(process.argv[2] ?? 300_000);
const seed = Number(process.argv[3] ?? 1);
const r = gen.random(seed);

/** Fields a 4xx msg may name (a body key is quoted when it is not one of them). */
const FIELD = /^(method|path|body|headers|userId|price|amount|description|orderId|paymentMethod|count|Content-Type|X-Sim-Outcome|"[^"]+"|[A-Za-z][\w.-]*): \S/;
const SAMPLE_EVERY = Number(process.env.FUZZ_SAMPLE_EVERY ?? 101);
/** A progress line every this many calls, for long runs. */
const REPORT_EVERY = 1_000_000;
const RENEW_EVERY = 1000;

function fresh(n) {
  return new Service({ seed: seed * 31 + n, virtualTime: 1_700_000_000_000, logCapacity: 100 });
}

const pool = [fresh(0), fresh(1), fresh(2)];
const ids = { orders: [], payments: [] };
const findings = [];
const statuses = {};
let maxMs = 0;

function describe(value) {
  try {
    if (typeof value === "string") return value.length > 80 ? `string(${value.length})` : JSON.stringify(value);
    if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") return typeof value;
    if (value === null || value === undefined) return String(value);
    return Object.prototype.toString.call(value);
  } catch {
    return "unprintable";
  }
}

function find(kind, inputs, detail) {
  if (findings.length < 50) findings.push({ kind, ...inputs, detail: String(detail).slice(0, 300) });
  else findings.length += 0; // counted below
  findingCount += 1;
}
let findingCount = 0;

function checkEnvelope(e) {
  if (e === null || typeof e !== "object") return "envelope is not an object";
  const keys = Object.keys(e).join(",");
  if (keys !== "code,msg,data") return `envelope keys ${keys}`;
  if (!Number.isInteger(e.code)) return "code is not an integer";
  if (typeof e.msg !== "string" || e.msg === "") return "msg is not a non-empty string";
  if (e.data !== null && typeof e.data !== "object") return "data is neither null nor an object";
  if (e.code === 0 && e.msg !== "success") return "code 0 without msg success";
  return null;
}

/** The state a 4xx must not change: everything but the log and the trace-id stream it draws from. */
function state(service) {
  const s = JSON.parse(service.snapshot());
  // What records requests, rather than what they act on: a turned-away
  // request is logged and counted, as a server's would be.
  delete s.journal;
  delete s.counters;
  delete s.streams.traces;
  return JSON.stringify(s);
}

function remember(envelope) {
  const data = envelope.data;
  if (!data) return;
  if (typeof data.orderId === "string" && ids.orders.length < 300 && !ids.orders.includes(data.orderId)) ids.orders.push(data.orderId);
  if (typeof data.paymentId === "string" && ids.payments.length < 300) ids.payments.push(data.paymentId);
}

const started = performance.now();
for (let i = 0; i < calls; i++) {
  if (i > 0 && i % REPORT_EVERY === 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(JSON.stringify({ progress: i, seconds: +seconds, findings: findingCount }));
  }
  if (i > 0 && i % RENEW_EVERY === 0) {
    const k = r.int(pool.length);
    pool[k].free();
    pool[k] = fresh(i + k);
    ids.orders.length = 0;
    ids.payments.length = 0;
  }
  const service = r.pick(pool);
  const route = r.pick(gen.ROUTES);
  const m = gen.method(r);
  const method = m === null ? (r.chance(0.1) ? route[0].toLowerCase() : route[0]) : m;
  const path = gen.path(r, ids, route);
  const body = gen.body(r, ids, route);
  const headers = gen.headers(r, route);
  const whole = r.chance(0.4);
  const inputs = { i, method: describe(method), path: describe(path), body: describe(body), headers: describe(headers), whole };
  const sample = i % SAMPLE_EVERY === 0;
  // What came due by now ends first (as the request's arrival would end it).
  if (sample) service.advance(0);
  const before = sample ? state(service) : null;

  const t0 = performance.now();
  let reply;
  try {
    reply = whole ? service.request(method, path, body, headers) : service.handle(method, path, body, headers);
  } catch (error) {
    find("threw", inputs, error?.stack ?? error);
    continue;
  }
  maxMs = Math.max(maxMs, performance.now() - t0);

  let envelope = reply;
  let status;
  // The challenge page: its HTML as a string (a 200 or, to the returnUrl, a 303).
  const page = whole ? typeof reply?.body === "string" : typeof reply === "string";
  if (page) {
    const html = whole ? reply.body : reply;
    const pageStatus = whole ? reply.status : 200;
    if (!/\/challenge(\?|$)/.test(String(path)) || ![200, 303].includes(pageStatus) || (html !== "" && !html.startsWith("<!doctype html>"))) find("page", inputs, `${pageStatus} ${html.slice(0, 120)}`);
    statuses[pageStatus] = (statuses[pageStatus] ?? 0) + 1;
    continue;
  }
  if (whole) {
    if (reply === null || typeof reply !== "object" || !Number.isInteger(reply.status) || typeof reply.headers !== "object") {
      find("response shape", inputs, JSON.stringify(reply));
      continue;
    }
    for (const [name, value] of Object.entries(reply.headers)) {
      if (name !== name.toLowerCase() || typeof value !== "string") find("response header", inputs, `${name}: ${value}`);
    }
    envelope = reply.body;
    status = reply.status;
  }
  const shape = checkEnvelope(envelope);
  if (shape) {
    find("envelope shape", inputs, `${shape}: ${JSON.stringify(envelope)}`);
    continue;
  }
  // handle gives no status: a code of 400 and above is it; 0 and -1 are 200.
  status ??= envelope.code >= 400 ? envelope.code : 200;
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status >= 500) find("server error", inputs, envelope.msg);
  // A second pay while a challenge is open: a business refusal, code -1.
  if (status === 409 && envelope.code !== -1) find("409 code", inputs, JSON.stringify(envelope));
  if (status >= 400 && status < 500 && status !== 409) {
    if (envelope.code !== status) find("code is not the status", inputs, `${status} ${envelope.code}`);
    const named = status === 404 ? envelope.msg.startsWith("No route for ") : FIELD.test(envelope.msg);
    if (!named) find("msg names no field", inputs, envelope.msg);
    if (envelope.data !== null) find("4xx with data", inputs, JSON.stringify(envelope.data));
    if (sample && state(service) !== before) find("4xx changed the state", inputs, envelope.msg);
  }
  remember(envelope);
}
const seconds = (performance.now() - started) / 1000;

// Scenarios: one call in 100 sets a random, damaged or hostile scenario (or
// sends one in the header): a refusal is a TypeError or RangeError naming
// "scenario: …" (a 400 naming the header), never another throw; under an
// accepted one, handle() throws only NetworkFaultError and request() never;
// then advance() and completeChallenge() with hostile arguments refuse
// naming the argument.
const PRESET_NAMES = Object.keys(presets);
const PIECES = [
  { kind: "http", status: 503 }, { kind: "network", fault: "reset" }, { kind: "decline", code: "lost_card" },
  { kind: "delay", ms: 5 }, { kind: "timeout", afterMs: 7 }, { kind: "processor_error", status: 502 },
  { kind: "challenge" }, { kind: "challenge", outcome: "pass", afterMs: 5 }, { kind: "challenge", outcome: "abandon", code: "do_not_honor" },
  { kind: "pending", forMs: 10, outcome: "fail", code: "insufficient_funds" }, { kind: "reversal", afterMs: 20 }, { kind: "reversal", afterMs: 604800001 },
];
function scenarioValue() {
  const pick = r.int(5);
  if (pick === 0) return r.pick(PRESET_NAMES);
  if (pick === 1) return gen.body(r, ids, r.pick(gen.ROUTES));
  const doc = { rules: [{ when: r.chance(0.5) ? { every: 1 + r.int(3) } : { probability: r.int(3) / 2 }, then: r.pick(PIECES) }] };
  const text = JSON.stringify(doc);
  if (pick === 2) return doc;
  const at = r.int(text.length);
  return text.slice(0, at) + r.pick(['"', "{", "}", "1", "-", ",", "x", "[", ""]) + text.slice(at + 1);
}
const scenarioCalls = Math.ceil(calls / 100);
for (let j = 0; j < scenarioCalls; j++) {
  const service = r.pick(pool);
  const value = scenarioValue();
  const inputs = { scenario: describe(value) };
  try {
    if (r.chance(0.5)) service.setScenario(value);
    else if (typeof value === "string") {
      const reply = service.request("GET", "/api/order/ORD-AAAAAAAA", undefined, { "X-Orderpay-Scenario": value });
      if (reply.status === 400 && !reply.body.msg.startsWith("X-Orderpay-Scenario: ")) find("scenario header refusal", inputs, reply.body.msg);
    }
  } catch (error) {
    const named = (error instanceof TypeError || error instanceof RangeError) && /^scenario: /.test(error.message);
    if (!named) find("scenario refusal", inputs, error?.stack ?? String(error));
  }
  try {
    service.request("POST", "/api/order/create", { userId: "s", price: 1 });
    service.handle("POST", "/api/order/create", { userId: "s", price: 1 });
  } catch (error) {
    if (!(error instanceof NetworkFaultError)) find("threw under a scenario", inputs, error?.stack ?? error);
  }
  // The clock and the challenges, with hostile arguments: done, or a
  // TypeError or RangeError naming the argument.
  try {
    service.advance(r.pick([0, 5, 30_000, -1, 1e300, NaN]));
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError) || !/^ms: /.test(error.message)) find("advance refusal", inputs, error?.stack ?? String(error));
  }
  const paymentId = r.chance(0.8) && ids.payments.length ? r.pick(ids.payments) : gen.hostile(r);
  try {
    service.completeChallenge(paymentId, r.chance(0.8) ? r.pick(["pass", "fail", "abandon"]) : gen.hostile(r));
  } catch (error) {
    const named = (error instanceof TypeError || error instanceof RangeError) && /^(paymentId|outcome): /.test(error.message);
    if (!named) find("completeChallenge refusal", inputs, error?.stack ?? String(error));
  }
  if (r.chance(0.3)) service.setScenario(null);
}
for (const service of pool) service.setScenario(null);

// Webhooks: services of their own, one per 6,000 calls (see webhooks.mjs).
const webhookServices = Math.ceil(calls / 6000);
const webhookDeliveries = await fuzzWebhooks(r, find, webhookServices, seed);

// The pool still answers after all of it.
for (const service of pool) {
  const check = service.handle("POST", "/api/order/create", { userId: "after", price: 1 });
  if (check.code !== 0) find("service unusable after the run", {}, JSON.stringify(check));
}

console.log(
  JSON.stringify({
    calls,
    scenarioCalls,
    webhookServices,
    webhookDeliveries,
    seed,
    seconds: +seconds.toFixed(1),
    callsPerSecond: Math.round(calls / seconds),
    slowestCallMs: +maxMs.toFixed(1),
    statuses,
    findings: findingCount,
  }),
);
for (const f of findings) console.log(JSON.stringify(f));
process.exit(findingCount === 0 ? 0 : 1);
