// The `scenario` option of createFetch, installFetch and the MSW handlers,
// and the network faults as fetch gives them in Node: a lost connection
// rejects with a TypeError, a hang waits for the request's AbortSignal
// and rejects with its reason, a short body errors while read, a dribble
// and a slow answer both honour the signal. (Every kind through every way
// in: tests/e2e/failure-matrix.test.mjs.)
import assert from "node:assert/strict";
import { test } from "node:test";

import "./msw-from-tests.mjs";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url).href;
const { Service, NetworkFaultError } = await import(pkg("node.js"));
const { createFetch, installFetch } = await import(pkg("fetch.inline.js"));
const { createHandlers } = await import(pkg("msw.inline.js"));
const { setupServer } = await import("msw/node");

const create = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: "u-1", price: 3 }) };
const network = (fault, extra = {}) => ({ rules: [{ name: fault, then: { kind: "network", fault, ...extra } }] });
const settled = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

test("createFetch's scenario option: a preset by name, set on the service it makes", async () => {
  const api = createFetch({ service: { seed: 1, failureRate: 0 }, scenario: "rate-limited", warn: false });
  assert.equal(api.service.scenario.document.name, "rate-limited");
  const first = await api("/api/order/create", create);
  const second = await api("/api/order/create", create);
  assert.deepEqual([first.status, second.status, second.headers.get("retry-after")], [200, 429, "1"]);
  assert.equal((await second.json()).code, 429);
});

test("with a Service given, the scenario option replaces that service's own", () => {
  const service = new Service({ seed: 2, scenario: "insufficient-funds" });
  createFetch({ service, scenario: network("reset") });
  assert.deepEqual(service.scenario.rules, [{ name: "reset", seen: 0, fired: 0 }]);
  createFetch({ service, scenario: null });
  assert.equal(service.scenario, null);
});

test("a bad scenario option throws at once, naming the option or the document's path; installFetch then installs nothing", () => {
  const before = globalThis.fetch;
  assert.throws(() => createFetch({ scenario: 42 }), {
    name: "TypeError",
    message: 'createFetch: scenario: expected a scenario document, its JSON text or a preset name such as "rate-limited", got number',
  });
  assert.throws(() => installFetch({ scenario: { rules: [{ when: { until: "soon" }, then: { kind: "delay" } }] } }), {
    name: "TypeError",
    message: 'scenario: rules[0].when.until: expected a whole number of ms, got "soon"',
  });
  assert.equal(globalThis.fetch, before);
  assert.throws(() => createHandlers({ scenario: "no-such-preset" }), /^TypeError: scenario: expected .*"no-such-preset"$/);
});

test("a lost connection rejects with a NetworkFaultError, a TypeError carrying the fault", async () => {
  const api = createFetch({ service: { seed: 3 }, scenario: network("error"), warn: false });
  const { error } = await settled(api("/api/order/create", create));
  assert.ok(error instanceof TypeError && error instanceof NetworkFaultError, String(error));
  assert.deepEqual(error.fault, { kind: "network", rule: "error", fault: "error", ms: 30000, phase: "request" });
});

test("a hang never settles until the request's signal aborts, then rejects with the signal's own reason", async () => {
  const api = createFetch({ service: { seed: 4 }, scenario: network("hang"), warn: false });
  const controller = new AbortController();
  let done = false;
  const pending = settled(api("/api/order/create", { ...create, signal: controller.signal })).finally(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(done, false, "still waiting after 100 ms");
  const reason = new Error("the user gave up");
  controller.abort(reason);
  assert.equal((await pending).error, reason);
});

test("a short body: the status and headers arrive, then reading the body fails with a TypeError", async () => {
  const api = createFetch({ service: { seed: 5, failureRate: 0 }, scenario: network("short"), warn: false });
  const response = await api("/api/order/create", create);
  assert.equal(response.status, 200);
  const length = Number(response.headers.get("content-length"));
  const reader = response.body.getReader();
  const first = await reader.read();
  assert.equal(first.value.length, Math.floor(length / 2), "half the body came");
  await assert.rejects(reader.read(), TypeError);
});

test("a dribble comes in pieces, and an abort midway errors the body with the signal's reason", async () => {
  const api = createFetch({ service: { seed: 6, failureRate: 0 }, scenario: network("dribble", { ms: 100 }), warn: false });
  const whole = await (await api("/api/order/create", create)).json();
  assert.equal(whole.code, 0);
  const response = await api("/api/order/create", { ...create, signal: AbortSignal.timeout(30) });
  await assert.rejects(response.text(), { name: "TimeoutError" });
});

test("a slow answer (the delay kind, waited out with the delay option) honours the signal", async () => {
  const slow = { rules: [{ then: { kind: "delay", ms: 20000 } }] };
  const api = createFetch({ service: { seed: 7, failureRate: 0 }, scenario: slow, delay: 0.05, warn: false });
  // The wait is 1 s of real time at delay 0.05; the abort comes at 50 ms. Which ends first is the
  // order of two timers, not a duration: the rejection comes before a timer of 500 ms set beside it.
  const answer = api("/api/order/create", { ...create, signal: AbortSignal.timeout(50) }).then(() => "answered", (e) => e.name);
  const halfway = new Promise((resolve) => setTimeout(() => resolve("500 ms passed"), 500));
  assert.equal(await Promise.race([answer, halfway]), "TimeoutError", "the abort ended the wait");
});

test("a failure the scenario asked for is not warned about; a mistake still is", async () => {
  const lines = [];
  const api = createFetch({ service: { seed: 8 }, scenario: { rules: [{ when: { route: "order" }, then: { kind: "http", status: 503 } }] }, warn: (line) => lines.push(line) });
  assert.equal((await api("/api/order/create", create)).status, 503);
  assert.equal((await api("/api/ordr/create", create)).status, 404);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^orderpay: 404 for POST/);
});

test("MSW handlers' scenario option: HttpResponse.error() for a lost connection, delay('infinite') for a hang", async () => {
  const handlers = createHandlers({ service: { seed: 9 }, scenario: network("reset"), warn: false });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    const { error } = await settled(fetch("https://shop.example/api/order/create", create));
    assert.ok(error instanceof TypeError, String(error));
    assert.equal(error.message, "Failed to fetch");
    handlers.service.setScenario(network("hang"));
    const reason = new Error("enough");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    assert.equal((await settled(fetch("https://shop.example/api/order/create", { ...create, signal: controller.signal }))).error, reason);
  } finally {
    server.close();
  }
});

test("MSW handlers wait a slow answer out with MSW's own delay when asked, and an abort ends the wait", async () => {
  const slow = { rules: [{ then: { kind: "delay", ms: 2000 } }] };
  const handlers = createHandlers({ service: { seed: 10, failureRate: 0 }, scenario: slow, delay: 0.05, warn: false });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    const started = performance.now();
    const response = await fetch("https://shop.example/api/order/create", create);
    const took = performance.now() - started;
    assert.ok(Number(response.headers.get("x-sim-duration-ms")) >= 2000);
    assert.ok(took >= 95, `2 s simulated at delay 0.05 is 100 ms of real time: ${took} ms`);
    assert.equal((await response.json()).code, 0);
    const reason = new Error("too slow");
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 20);
    assert.equal((await settled(fetch("https://shop.example/api/order/create", { ...create, signal: controller.signal }))).error, reason);
  } finally {
    server.close();
  }
});
