// A realistic client against a failing payment service: the checkout an app
// would write, which retries a 429 or 503 after its Retry-After (else with a
// doubling backoff), gives up on a hang through AbortSignal.timeout and
// tries again, and sends one Idempotency-Key across every try of one
// operation. The scenario "503 twice, then the third party times out once,
// then success" must end in exactly one payment and a paid order, read from
// the service's own state and logs; so must an answer lost after the
// payment ran. Through createFetch, and against `orderpay serve` over real
// HTTP.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { tmpdir } from "node:os";

import { root, serve, stop } from "../server/serve.mjs";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { createFetch } = await import(pkg("fetch.inline.js"));

// ------------------------------------------------------------ the client

/** Retry-After in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(value, now = Date.now()) {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** One try: its status and envelope, or the failure (`timeout`, `network`) that ended it. */
async function tryOnce(fetch, url, body, key, timeoutMs) {
  const headers = { "Content-Type": "application/json" };
  if (key) headers["Idempotency-Key"] = key;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body ?? {}), signal });
    const envelope = await response.json(); // a body can hang or break off too
    const replayed = response.headers.get("idempotent-replayed") === "true";
    return { status: response.status, retryAfter: response.headers.get("retry-after"), replayed, envelope };
  } catch (error) {
    if (error.name === "TimeoutError") return { failure: "timeout" };
    if (error instanceof TypeError) return { failure: "network" };
    throw error;
  }
}

/**
 * POSTs `body` to `url` until an answer that is not a 429 or 503 comes,
 * at most `tries` times, every try with the same Idempotency-Key. Waits
 * Retry-After when given, else `baseMs` doubled per try; `scale` multiplies
 * every wait (a test's 0.01 makes a second 10 ms). Resolves with the answer
 * (null when it gave up) and what each try met: `log`.
 */
async function postWithRetries(fetch, url, body, options = {}) {
  const { key = crypto.randomUUID(), tries = 5, timeoutMs = 10_000, baseMs = 500, maxWaitMs = 30_000, scale = 1 } = options;
  const log = [];
  for (let n = 1; n <= tries; n++) {
    const result = await tryOnce(fetch, url, body, key, timeoutMs);
    const retry = result.failure !== undefined || result.status === 429 || result.status === 503;
    if (!retry) {
      log.push({ status: result.status, ...(result.replayed && { replayed: true }) });
      return { answer: result, log };
    }
    const met = result.failure ? { failure: result.failure } : { status: result.status };
    if (n === tries) {
      log.push(met);
      break;
    }
    const waitMs = Math.min(retryAfterMs(result.retryAfter ?? null) ?? baseMs * 2 ** (n - 1), maxWaitMs) * scale;
    log.push({ ...met, waitMs });
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return { answer: null, log };
}

/** The checkout: pays the order, then marks it paid; each step its own key, kept across its retries. */
async function checkout(fetch, base, order, options = {}) {
  const { key = crypto.randomUUID(), ...rest } = options;
  const payment = { orderId: order.orderId, amount: order.price, paymentMethod: "CARD" };
  const paid = await postWithRetries(fetch, `${base}/api/payment/pay`, payment, { ...rest, key });
  if (paid.answer?.envelope.code !== 0) return { paid, marked: null };
  const markKey = key && `${key}:mark`;
  const marked = await postWithRetries(fetch, `${base}/api/order/${order.orderId}/pay`, null, { ...rest, key: markKey });
  return { paid, marked };
}

// ------------------------------------------------------------ the scenarios

const PAY = "/api/payment/pay";
/** 503 on the first two payments, then the third party times out once, then the spec's behaviour. */
const outageThenTimeout = (afterMs) => ({
  name: "503 twice, then a timeout, then success",
  rules: [
    { name: "down", when: { route: PAY, calls: { to: 2 } }, then: { kind: "http", status: 503, retryAfter: 1 } },
    { name: "slow third party", when: { route: PAY, times: 1 }, then: { kind: "timeout", afterMs } },
  ],
});
/** A 429, then the service pays and its answer is lost (the client hears nothing). */
const limitedThenLost = {
  rules: [
    { name: "busy", when: { route: PAY, nth: 1 }, then: { kind: "http", status: 429, retryAfter: 2 } },
    { name: "lost answer", when: { route: PAY, times: 1 }, then: { kind: "network", fault: "hang", phase: "response" } },
  ],
};

/** The pay requests' response records: [httpStatus, code, replay] each. */
function payAnswers(logs) {
  return logs.filter((r) => r.stage === "response" && r.uri === PAY).map((r) => [r.httpStatus, r.code, r.replay === true]);
}

/** The service records of the payments that reached the third party: their outcomes. */
function outcomes(logs) {
  return logs.filter((r) => r.stage === "service" && r.outcome).map((r) => r.outcome);
}

function newOrder(service) {
  return service.handle("POST", "/api/order/create", { userId: "u-1", price: 42, description: "a lamp" }).data;
}

// ------------------------------------------------------------ through createFetch

/**
 * A fetch whose simulated time is waited out at a fiftieth: the third
 * party's 30 s timeout holds its answer 600 ms, past the client's 250.
 */
function api(scenario) {
  return createFetch({ service: { seed: 11, failureRate: 0 }, scenario, delay: 0.02 });
}
/** The client's waits at a hundredth (Retry-After: 1 is 10 ms), and its timeout. */
const FAST = { scale: 0.01, timeoutMs: 250 };

test("503 twice, then the third party times out once, then success: one payment, the order paid", async () => {
  const fetch = api(outageThenTimeout(30_000));
  const { service } = fetch;
  const order = newOrder(service);
  const { paid, marked } = await checkout(fetch, "", order, FAST);

  assert.deepEqual(paid.log, [
    { status: 503, waitMs: 10 },
    { status: 503, waitMs: 10 },
    { failure: "timeout", waitMs: 20 },
    { status: 200 },
  ]);
  assert.equal(paid.answer.envelope.code, 0, JSON.stringify(paid.answer));
  assert.deepEqual(marked.log, [{ status: 200 }]);

  const logs = service.logs();
  assert.deepEqual(payAnswers(logs), [[503, 503, false], [503, 503, false], [200, -1, false], [200, 0, false]]);
  assert.deepEqual(outcomes(logs).map((o) => [o.approved, o.thirdParty ?? null]), [[false, "timeout"], [true, null]]);
  const { attempts, approved, declined } = service.counters().payments;
  assert.deepEqual({ attempts, approved, declined }, { attempts: 2, approved: 1, declined: 1 });
  assert.deepEqual(service.scenario.rules, [
    { name: "down", seen: 4, fired: 2 },
    { name: "slow third party", seen: 2, fired: 1 },
  ]);
  // The keys kept: the payment's with its success (the timeout before it was not kept), and the order pay's.
  const kept = Object.values(JSON.parse(service.snapshot()).idempotency).map((k) => [k.path, k.code, JSON.parse(k.data)]);
  const { paymentId } = paid.answer.envelope.data;
  assert.deepEqual(kept.sort(), [[`/api/order/${order.orderId}/pay`, 0, null], [PAY, 0, paid.answer.envelope.data]]);
  assert.equal(service.handle("GET", `/api/order/${order.orderId}`).data.status, "PAID");
  const payment = service.handle("GET", `/api/payment/${paymentId}`).data;
  assert.deepEqual([payment.status, payment.orderId, payment.amount], ["SUCCESS", order.orderId, 42]);
});

test("a 429, then a payment whose answer is lost: the retry with the same key replays it, one payment", async () => {
  const fetch = api(limitedThenLost);
  const { service } = fetch;
  const order = newOrder(service);
  const { paid, marked } = await checkout(fetch, "", order, FAST);

  assert.deepEqual(paid.log, [{ status: 429, waitMs: 20 }, { failure: "timeout", waitMs: 10 }, { status: 200, replayed: true }]);
  assert.deepEqual(marked.log, [{ status: 200 }]);
  assert.deepEqual(payAnswers(service.logs()), [[429, 429, false], [200, 0, false], [200, 0, true]]);
  const [ran] = outcomes(service.logs());
  assert.equal(ran.approved, true);
  const { attempts, approved } = service.counters().payments;
  assert.deepEqual({ attempts, approved }, { attempts: 1, approved: 1 });
  assert.equal(service.handle("GET", `/api/order/${order.orderId}`).data.status, "PAID");
});

test("the same lost answer without an Idempotency-Key: the retry pays a second time", async () => {
  const fetch = api(limitedThenLost);
  const order = newOrder(fetch.service);
  const { paid } = await checkout(fetch, "", order, { ...FAST, key: null });

  assert.deepEqual(paid.log.at(-1), { status: 200 });
  const { attempts, approved } = fetch.service.counters().payments;
  assert.deepEqual({ attempts, approved }, { attempts: 2, approved: 2 });
});

test("503 on every try: the client gives up after its tries, and nothing is paid", async () => {
  const fetch = api({ rules: [{ when: { route: PAY }, then: { kind: "http", status: 503, retryAfter: 3 } }] });
  const order = newOrder(fetch.service);
  const { paid, marked } = await checkout(fetch, "", order, { ...FAST, tries: 3 });

  assert.equal(paid.answer, null);
  assert.deepEqual(paid.log, [{ status: 503, waitMs: 30 }, { status: 503, waitMs: 30 }, { status: 503 }]);
  assert.equal(marked, null);
  assert.equal(fetch.service.counters().payments.attempts, 0);
  assert.equal(fetch.service.handle("GET", `/api/order/${order.orderId}`).data.status, "CREATED");
});

test("Retry-After as an HTTP date, and a value the client cannot read (backoff)", () => {
  const now = Date.UTC(2026, 0, 1);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now), 5000);
  assert.equal(retryAfterMs("3", now), 3000);
  assert.equal(retryAfterMs("soon", now), null);
  assert.equal(retryAfterMs(null, now), null);
});

// ------------------------------------------------------------ over real HTTP

const scenarioFile = join(tmpdir(), `orderpay-retrying-client-${process.pid}.json`);
let server = null;
/** `orderpay serve` from the built package, started once: the third party's 120 s timeout holds its answer 1.2 s. */
async function server11() {
  if (server) return server;
  writeFileSync(scenarioFile, JSON.stringify(outageThenTimeout(120_000)));
  const args = ["--port", "0", "--seed", "11", "--failure-rate", "0", "--latency", "0.01", "--scenario", scenarioFile];
  server = await serve(args, { command: [process.execPath, join(root, "pkg/server/cli.js")], cwd: root });
  return server;
}
after(async () => {
  if (server) await stop(server);
  rmSync(scenarioFile, { force: true });
});

/** The admin API's data at `path` (GET), or after sending `body` with `method`. */
async function admin(path, method = "GET", body) {
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body) };
  return (await (await fetch(`${server.origin}/__orderpay/${path}`, init)).json()).data;
}

async function createOverHttp(base) {
  const created = await fetch(`${base}/api/order/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ userId: "u-1", price: 42, description: "a lamp" }),
  });
  return (await created.json()).data;
}

test("over real HTTP: 503 twice, then the third party times out once, then success: one payment, the order paid", async () => {
  const { url: base } = await server11();
  await admin("reset", "POST", {}); // a fresh service, with the scenario of --scenario
  const order = await createOverHttp(base);
  const { paid, marked } = await checkout(fetch, base, order, { scale: 0.01, timeoutMs: 500 });

  assert.deepEqual(paid.log.map((t) => t.status ?? t.failure), [503, 503, "timeout", 200]);
  assert.equal(paid.answer.envelope.code, 0);
  assert.deepEqual(marked.log, [{ status: 200 }]);
  const { records } = await admin("logs");
  assert.deepEqual(payAnswers(records), [[503, 503, false], [503, 503, false], [200, -1, false], [200, 0, false]]);
  assert.deepEqual(outcomes(records).map((o) => [o.approved, o.thirdParty ?? null]), [[false, "timeout"], [true, null]]);
  const { attempts, approved } = (await admin("counters")).counters.payments;
  assert.deepEqual({ attempts, approved }, { attempts: 2, approved: 1 });
  assert.equal((await (await fetch(`${base}/api/order/${order.orderId}`)).json()).data.status, "PAID");
});

test("over real HTTP: a 429, then a payment whose answer the server never sends: the retry replays it", async () => {
  const { url: base } = await server11();
  await admin("reset", "POST", {});
  const lost = structuredClone(limitedThenLost);
  lost.rules[1].then.ms = 5000; // the server holds the connection this long at most; the client gives up first
  await admin("scenario", "PUT", lost);
  const order = await createOverHttp(base);
  const { paid, marked } = await checkout(fetch, base, order, { scale: 0.01, timeoutMs: 500 });

  assert.deepEqual(paid.log, [{ status: 429, waitMs: 20 }, { failure: "timeout", waitMs: 10 }, { status: 200, replayed: true }]);
  assert.deepEqual(marked.log, [{ status: 200 }]);
  const { records } = await admin("logs");
  assert.deepEqual(payAnswers(records), [[429, 429, false], [200, 0, false], [200, 0, true]]);
  const { attempts, approved } = (await admin("counters")).counters.payments;
  assert.deepEqual({ attempts, approved }, { attempts: 1, approved: 1 });
  assert.equal((await (await fetch(`${base}/api/order/${order.orderId}`)).json()).data.status, "PAID");
});
