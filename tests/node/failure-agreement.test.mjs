// One answer for a failure, wherever it is read: what request() answered,
// the service record's `outcome`, the response record, the gateway span's
// attributes and status, and the third party's span. Checked for the
// presets insufficient-funds, third-party-down, rate-limited and
// flaky-network, and for a drawn decline with no scenario; then the same
// reads from a restored snapshot.
//
// Needs the built package: `source .ci/lib.sh && build_package` (CI does it).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Service } from "../../pkg/index.js";

/** What the third party did when a scenario's rule decided, as the outcome says it. */
const THIRD_PARTY = { decline: () => "declined", timeout: () => "timeout", processor_error: (f) => f.status };

/** A created order, then `pays` payments of it; returns each payment's request() answer. */
function run(s, pays) {
  const created = s.request("POST", "/api/order/create", { userId: "u-1", price: 10 });
  const orderId = created.body.data?.orderId ?? "ORD-NONE";
  const answers = [];
  for (let i = 0; i < pays; i++) {
    answers.push(s.request("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD" }));
  }
  return answers;
}

/** The records and spans of each payment request, in order, by trace. */
function payments(s) {
  const logs = s.logs();
  const spans = s.spans();
  const otlp = new Map(
    s
      .exportOtlp()
      .resourceSpans.flatMap((r) => r.scopeSpans.flatMap((scope) => scope.spans))
      .map((span) => [span.spanId, span.status]),
  );
  return logs
    .filter((r) => r.stage === "response" && r.uri === "/api/payment/pay")
    .map((response) => {
      const trace = (x) => x.traceId === response.traceId;
      const byName = (name) => spans.filter(trace).find((sp) => sp.name === name);
      const gatewaySpan = spans.filter(trace).find((sp) => sp.spanId === response.spanId);
      gatewaySpan.otlpStatus = otlp.get(response.spanId);
      return {
        response,
        service: logs.filter(trace).find((r) => r.stage === "service"),
        gateway: gatewaySpan,
        thirdParty: byName("authorize payment"),
      };
    });
}

const attrs = (span) => Object.fromEntries(span.attributes);

/** Holds one payment's answer, records and spans to the same account of what happened; returns the fault's kind. */
function agree(answer, { response, service, gateway, thirdParty }) {
  const fault = answer.fault;
  assert.deepEqual(response.fault, fault, "the response record's fault is request()'s");
  assert.equal(response.httpStatus, answer.status, "the response record's status is request()'s");
  const a = attrs(gateway);
  if (answer.status === 0) {
    // A network fault in the request phase: no answer, so no status and no code.
    assert.equal(fault.kind, "network");
    assert.equal(a["http.response.status_code"], undefined);
    assert.equal(a["orderpay.code"], undefined);
  } else {
    assert.equal(a["http.response.status_code"], answer.status);
    assert.equal(a["orderpay.code"], response.code);
  }
  const failed = fault !== undefined && !["decline", "delay"].includes(fault.kind);
  const message = failed ? fault.kind : response.status === "server_error" ? "server_error" : undefined;
  assert.equal(gateway.otlpStatus.message, message, "the OTLP status names the fault's kind");
  assert.equal(gateway.status, response.status);
  assert.equal(a["orderpay.fault.kind"], fault?.kind, "the gateway span names the fault's kind");
  assert.equal(a["orderpay.rule"], fault?.rule ?? undefined, "the gateway span names the fault's rule");
  assert.equal(a["payment.decline_code"], fault?.code, "the gateway span carries the decline code");
  const outcome = service?.outcome;
  if (outcome === undefined) {
    assert.equal(thirdParty, undefined, "no third-party span when nothing reached the third party");
    return fault?.kind ?? "none";
  }
  const byRule = fault !== undefined && fault.rule !== null && fault.kind in THIRD_PARTY;
  if (byRule) {
    assert.equal(outcome.rule, "scenario", "a scenario's rule decided");
    assert.equal(outcome.scenarioRule, fault.rule, "outcome.scenarioRule is fault.rule");
    assert.equal(outcome.approved, false);
    assert.equal(outcome.thirdParty, THIRD_PARTY[fault.kind](fault));
    assert.equal(outcome.declineCode, fault.code);
    if (fault.kind === "processor_error") {
      assert.match(outcome.reason, new RegExp(`^the third party answered ${fault.status}, no decline`));
    }
    if (fault.kind === "timeout") assert.match(outcome.reason, /^the third party timed out, no decline/);
  } else {
    assert.notEqual(outcome.rule, "scenario");
    assert.equal(outcome.scenarioRule, undefined);
    assert.equal(outcome.declineCode, fault?.code, "a drawn decline under a scenario reports generic_decline");
  }
  assert.equal(answer.body.code === 0, outcome.approved, "approved exactly when the answer is a success");
  const t = attrs(thirdParty);
  assert.equal(t["orderpay.approved"], outcome.approved);
  assert.equal(t["orderpay.attempt"], outcome.attempt);
  assert.equal(t["orderpay.reason"], outcome.reason);
  assert.equal(thirdParty.status, outcome.approved ? "success" : "server_error");
  assert.equal(service.status, response.status);
  return fault?.kind ?? (outcome.approved ? "approved" : "drawn decline");
}

/** Every payment agrees; returns the kinds of what happened, in order. */
function check(s, answers) {
  const seen = payments(s);
  assert.equal(seen.length, answers.length);
  return answers.map((answer, i) => agree(answer, seen[i]));
}

/** request()'s answers as a restored service reports them: the same failures. */
function restoredAgrees(s, answers) {
  const restored = Service.restore(s.snapshot());
  assert.deepEqual(restored.logs(), s.logs(), "the records round-trip");
  assert.deepEqual(restored.counters().payments, s.counters().payments, "the counters round-trip");
  check(restored, answers);
  restored.free();
}

const cases = [
  ["insufficient-funds", { failureRate: 0 }, 3, ["decline"]],
  ["third-party-down", { failureRate: 0 }, 3, ["processor_error"]],
  ["rate-limited", { failureRate: 0 }, 6, ["http", "approved"]],
  ["flaky-network", { failureRate: 0 }, 40, ["network", "approved"]],
  ["a drawn decline, no scenario", { failureRate: 1 }, 3, ["drawn decline"]],
  ["a drawn decline under a scenario", { failureRate: 1, scenario: { rules: [] } }, 2, ["decline"]],
];

for (const [name, options, pays, kinds] of cases) {
  test(`${name}: request(), the records and the spans give one answer`, () => {
    const scenario = name.startsWith("a drawn") ? options.scenario : name;
    const s = new Service({ seed: 3, virtualTime: 0, ...options, scenario });
    const answers = run(s, pays);
    const seen = check(s, answers);
    assert.deepEqual([...new Set(seen)].sort(), [...kinds].sort(), `what happened: ${seen}`);
    restoredAgrees(s, answers);
    s.free();
  });
}

test("a scenario's decline, processor error and timeout count under payments.byRule.scenario", () => {
  const rules = [
    { name: "no funds", when: { route: "/api/payment/pay", nth: 1 }, then: { kind: "decline", code: "insufficient_funds" } },
    { name: "down", when: { route: "/api/payment/pay", nth: 1 }, then: { kind: "processor_error", status: 503 } },
    { name: "slow", when: { route: "/api/payment/pay", nth: 1 }, then: { kind: "timeout", afterMs: 100 } },
  ];
  const s = new Service({ seed: 3, virtualTime: 0, failureRate: 0, scenario: { rules } });
  const answers = run(s, 4);
  assert.deepEqual(check(s, answers), ["decline", "processor_error", "timeout", "approved"]);
  const outcomes = payments(s).map((p) => [p.service.outcome.rule, p.service.outcome.scenarioRule ?? null]);
  assert.deepEqual(outcomes, [
    ["scenario", "no funds"],
    ["scenario", "down"],
    ["scenario", "slow"],
    ["draw", null],
  ]);
  const { byRule, attempts, declined } = s.counters().payments;
  assert.deepEqual(byRule.scenario, { approved: 0, declined: 3 });
  assert.deepEqual(byRule.draw, { approved: 1, declined: 0 });
  assert.equal(attempts, 4);
  assert.equal(declined, 3);
  restoredAgrees(s, answers);
  s.free();
});
