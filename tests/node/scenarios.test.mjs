// Scenarios through the package's Service: the constructor option,
// setScenario and the scenario getter, the X-Orderpay-Scenario header,
// request()'s fault form and handle()'s NetworkFaultError.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NetworkFaultError, Service } from "../../pkg/index.js";

const order = { userId: "u-1", price: 10 };
const reset = { name: "cut", when: { route: "/api/order/create" }, then: { kind: "network", fault: "reset" } };

test("the constructor takes a document, its JSON text or a preset's name", () => {
  const byObject = new Service({ seed: 1, virtualTime: 0, scenario: { rules: [reset] } });
  const byText = new Service({ seed: 1, virtualTime: 0, scenario: JSON.stringify({ rules: [reset] }) });
  assert.deepEqual(byObject.scenario, byText.scenario);
  assert.deepEqual(byObject.scenario.rules, [{ name: "cut", seen: 0, fired: 0 }]);
  assert.equal(byObject.scenario.setAt, 0);
  const preset = new Service({ scenario: "third-payment-fails" });
  assert.equal(preset.scenario.document.name, "third-payment-fails");
  assert.equal(new Service().scenario, null);
});

test("a bad document throws naming its path, and changes nothing", () => {
  assert.throws(
    () => new Service({ scenario: { rules: [{ when: { until: "soon" }, then: { kind: "http" } }] } }),
    { name: "TypeError", message: 'scenario: rules[0].when.until: expected a whole number of ms, got "soon"' },
  );
  assert.throws(() => new Service({ scenario: 7 }), { name: "TypeError", message: /^scenario: expected a document/ });
  const s = new Service({ scenario: "rate-limited" });
  const before = s.scenario;
  assert.throws(() => s.setScenario({ rules: [{ then: { kind: "http", status: 500 } }] }), {
    name: "RangeError",
    message: "scenario: rules[0].then.status: expected one of 429, 502, 503, 504, got 500",
  });
  assert.throws(() => s.setScenario({ rules: [], extra: 1 }), { name: "TypeError", message: /^scenario: unknown key "extra"/ });
  assert.deepEqual(s.scenario, before);
  s.setScenario(null);
  assert.equal(s.scenario, null);
});

test("a request-phase network fault: request() answers status 0 and the fault, handle() throws NetworkFaultError", () => {
  const s = new Service({ seed: 1, scenario: { rules: [reset] } });
  const answer = s.request("POST", "/api/order/create", order);
  assert.deepEqual(answer, {
    status: 0,
    headers: {},
    body: "",
    fault: { kind: "network", rule: "cut", fault: "reset", ms: 30000, phase: "request" },
  });
  assert.throws(
    () => s.handle("POST", "/api/order/create", order),
    (error) =>
      error instanceof NetworkFaultError &&
      error instanceof TypeError &&
      error.name === "NetworkFaultError" &&
      error.fault.fault === "reset" &&
      error.fault.phase === "request",
  );
  assert.deepEqual(s.scenario.rules, [{ name: "cut", seen: 2, fired: 2 }]);
  // Nothing ran: the order a plain service of the same seed makes is not there.
  const made = new Service({ seed: 1 }).handle("POST", "/api/order/create", order).data.orderId;
  s.setScenario(null);
  assert.equal(s.handle("GET", `/api/order/${made}`).code, -1);
  assert.equal(s.handle("POST", "/api/order/create", order).data.orderId, made);
});

test("a response-phase fault runs the service: request() gives the real answer and the fault", () => {
  const then = { kind: "network", fault: "reset", phase: "response" };
  const s = new Service({ seed: 1, scenario: { rules: [{ when: { route: "/api/order/create" }, then }] } });
  const answer = s.request("POST", "/api/order/create", order);
  assert.equal(answer.status, 200);
  assert.equal(answer.body.code, 0);
  assert.equal(answer.fault.phase, "response");
  assert.equal(answer.headers["x-orderpay-fault"], "network");
  assert.equal(s.handle("GET", `/api/order/${answer.body.data.orderId}`).code, 0);
  assert.throws(() => s.handle("POST", "/api/order/create", order), NetworkFaultError);
});

test("an http rule answers its status with its envelope and headers", () => {
  const s = new Service({ scenario: "rate-limited" });
  const first = s.request("GET", "/api/order/ORD-AAAAAAAA");
  const second = s.request("GET", "/api/order/ORD-AAAAAAAA");
  assert.equal(first.status, 200);
  assert.equal(first.fault, undefined);
  assert.equal(second.status, 429);
  assert.deepEqual(second.body, { code: 429, msg: 'Too Many Requests (scenario rule "every 2nd request limited")', data: null });
  assert.equal(second.headers["retry-after"], "1");
  assert.equal(second.headers["x-orderpay-rule"], "every 2nd request limited");
  assert.equal(second.headers["x-orderpay-fault"], "http");
  assert.deepEqual(second.fault, { kind: "http", rule: "every 2nd request limited", status: 429, retryAfter: 1 });
});

test("the header sets a scenario for one request only", () => {
  const s = new Service();
  const doc = JSON.stringify({ rules: [{ then: { kind: "http", status: 503 } }] });
  assert.equal(s.request("GET", "/api/order/ORD-AAAAAAAA", undefined, { "X-Orderpay-Scenario": doc }).status, 503);
  assert.equal(s.request("GET", "/api/order/ORD-AAAAAAAA").status, 200);
  const bad = s.request("GET", "/api/order/ORD-AAAAAAAA", undefined, { "x-orderpay-scenario": "nope" });
  assert.equal(bad.status, 400);
  assert.match(bad.body.msg, /^X-Orderpay-Scenario: expected a document's JSON text or a preset's name \(third-party-down, flaky-network, slow-payments, insufficient-funds, rate-limited, third-payment-fails\), got "nope"$/);
  assert.equal(s.scenario, null);
});

test("the header takes a preset's name, in any case of the header's name, as a Headers too", () => {
  const s = new Service({ seed: 4, failureRate: 0 });
  const order = s.request("POST", "/api/order/create", { userId: "u-1", price: 10 }).body.data;
  const pay = { orderId: order.orderId, amount: 10, paymentMethod: "CARD" };
  const declined = s.request("POST", "/api/payment/pay", pay, new Headers({ "X-ORDERPAY-SCENARIO": "insufficient-funds" }));
  assert.equal(declined.headers["x-orderpay-decline-code"], "insufficient_funds");
  assert.equal(declined.headers["x-orderpay-rule"], "every payment declined");
  const down = s.request("POST", "/api/payment/pay", pay, [["x-orderpay-scenario", "third-party-down"]]);
  assert.deepEqual(down.fault, { kind: "processor_error", rule: "third party down for 60 s", status: 503 });
  assert.equal(s.request("POST", "/api/payment/pay", pay).body.code, 0);
});

test("with no scenario, answers carry no new header or field", () => {
  const s = new Service({ seed: 3 });
  const answer = s.request("POST", "/api/order/create", order);
  assert.deepEqual(Object.keys(answer), ["status", "headers", "body"]);
  assert.ok(!Object.keys(answer.headers).some((name) => name.startsWith("x-orderpay") || name === "retry-after"));
});

test("the presets export, the shipped orderpay/scenarios/NAME.json and the core's presets are the same documents", async () => {
  const { presets } = await import("../../pkg/index.js");
  const { readFileSync } = await import("node:fs");
  const manifest = JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url), "utf8"));
  assert.equal(manifest.exports["./scenario.schema.json"], "./scenario.schema.json");
  assert.equal(manifest.exports["./scenarios/*.json"], "./scenarios/*.json");
  assert.deepEqual(Object.keys(presets), [
    "third-party-down", "flaky-network", "slow-payments", "insufficient-funds", "rate-limited", "third-payment-fails",
  ]);
  for (const [name, doc] of Object.entries(presets)) {
    const shipped = JSON.parse(readFileSync(new URL(`../../pkg/scenarios/${name}.json`, import.meta.url), "utf8"));
    assert.deepEqual(doc, shipped, name);
    assert.deepEqual(new Service({ scenario: name }).scenario.document, doc, name);
    assert.deepEqual(new Service({ scenario: doc }).scenario.document, doc, name);
  }
});

/** Runs a documentation example against the built package, returning what it prints. */
async function runExample(code) {
  const { execFileSync } = await import("node:child_process");
  const pkg = new URL("../../pkg/index.js", import.meta.url).href;
  const source = code.replaceAll('from "orderpay"', `from ${JSON.stringify(pkg)}`);
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" });
}

test("docs/scenarios.md: its examples print what it says they print", async () => {
  const { examples } = await import("../docs.mjs");
  const pairs = [
    [examples("scenarios"), examples("scenarios-output")],
    [examples("scenarios-network"), examples("scenarios-network-output")],
  ];
  for (const [[code], [printed]] of pairs) assert.equal(await runExample(code), printed);
});

test("docs/scenarios.md: its document is taken and does what it says", async () => {
  const { examples } = await import("../docs.mjs");
  const [text] = examples("scenario-document");
  const s = new Service({ seed: 2, failureRate: 0, scenario: text });
  assert.deepEqual(s.scenario.document, JSON.parse(text));
  const order = s.handle("POST", "/api/order/create", { userId: "u", price: 13.37 });
  assert.equal(order.code, 0, "the 1st create is not in calls 2 to 3");
  assert.equal(s.request("POST", "/api/order/create", { userId: "u", price: 1 }).status, 503);
  const paid = s.request("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 13.37, paymentMethod: "CARD" });
  assert.equal(paid.headers["x-orderpay-decline-code"], "insufficient_funds");
  const slow = s.request("GET", `/api/order/${order.data.orderId}`, undefined, { "X-Test-Case": "slow" });
  assert.equal(slow.fault.kind, "delay");
  assert.ok(Number(slow.headers["x-sim-duration-ms"]) >= 3000);
});

test("docs/scenarios.md: its delivery document is taken, and requests leave its rules alone", async () => {
  const { examples } = await import("../docs.mjs");
  const [text] = examples("scenario-delivery-document");
  const s = new Service({ seed: 2, failureRate: 0, scenario: text });
  assert.deepEqual(s.scenario.document, JSON.parse(text));
  const order = s.handle("POST", "/api/order/create", { userId: "u-reorder", price: 5 });
  assert.equal(s.handle("POST", "/api/payment/pay", { orderId: order.data.orderId, amount: 5, paymentMethod: "CARD" }).code, 0);
  assert.deepEqual(s.scenario.rules.map((r) => [r.seen, r.fired]), [[0, 0], [0, 0], [0, 0], [0, 0]]);
  assert.throws(() => s.setScenario({ rules: [{ when: { route: "order" }, then: { kind: "duplicate" } }] }), {
    name: "TypeError",
    message: /^scenario: rules\[0\]\.when\.route: matches a request; a delivery kind's rule matches events/,
  });
});

/** The gateway span of a request, by the span id its answer names. */
function gatewaySpan(service, response) {
  return service.spans().find((s) => s.spanId === response.headers["x-b3-spanid"]);
}

test("a fired rule and a replay show in logs(), spans(), exportOtlp() and counters(), and survive a snapshot", () => {
  const scenario = { rules: [{ name: "busy", when: { route: "order", method: "GET" }, then: { kind: "http", status: 503, retryAfter: 2 } }] };
  const service = new Service({ seed: 1, virtualTime: 0, failureRate: 0, scenario });
  const created = service.request("POST", "/api/order/create", order, { "Idempotency-Key": "k-1" });
  const replayed = service.request("POST", "/api/order/create", order, { "Idempotency-Key": "k-1" });
  const failed = service.request("GET", `/api/order/${created.body.data.orderId}`);
  const last = service.logs().at(-1);
  assert.deepEqual(last.fault, failed.fault);
  assert.deepEqual(last.fault, { kind: "http", rule: "busy", status: 503, retryAfter: 2 });
  assert.equal(JSON.parse(service.exportNdjson().trim().split("\n").at(-1)).fault.rule, "busy");
  assert.equal(service.logs().filter((r) => "fault" in r).length, 1, "the other records have none");
  const attributes = Object.fromEntries(gatewaySpan(service, failed).attributes);
  assert.equal(attributes["orderpay.fault.kind"], "http");
  assert.equal(attributes["orderpay.rule"], "busy");
  assert.equal(Object.fromEntries(gatewaySpan(service, replayed).attributes)["orderpay.replay"], true);
  const otlp = service.exportOtlp().resourceSpans[0].scopeSpans[0].spans;
  assert.deepEqual(otlp.find((s) => s.spanId === failed.headers["x-b3-spanid"]).status, { code: 2, message: "http" });
  assert.deepEqual(otlp.find((s) => s.spanId === created.headers["x-b3-spanid"]).status, {});
  const counters = service.counters();
  assert.equal(counters.replays, 1);
  assert.deepEqual(counters.faults, { byKind: { http: 1 }, byRule: { busy: 1 } });
  const restored = Service.restore(service.snapshot());
  assert.deepEqual(restored.logs(), service.logs());
  assert.deepEqual(restored.spans(), service.spans());
  assert.deepEqual(restored.exportOtlp(), service.exportOtlp());
  assert.deepEqual(restored.counters(), counters);
});

test("with no scenario and no key, records, spans, OTLP and counters hold nothing new", () => {
  const service = new Service({ seed: 1, virtualTime: 0, failureRate: 1 });
  const made = service.handle("POST", "/api/order/create", order);
  service.handle("POST", "/api/payment/pay", { orderId: made.data.orderId, amount: 10, paymentMethod: "CARD" });
  const text = JSON.stringify([service.logs(), service.spans(), service.exportOtlp(), service.counters()]);
  for (const word of ["fault", "orderpay.rule", "decline_code", "replay"]) assert.ok(!text.includes(word), word);
  const statuses = service.exportOtlp().resourceSpans.flatMap((r) => r.scopeSpans[0].spans.map((s) => s.status.message));
  assert.ok(statuses.includes("server_error"));
});
