// service.exportTest's plan (src/js/test_plan.js) through the built
// package: a wall-clock run is copied with the time between its steps, so
// a pending payment settled by real time is settled at the same step; a
// run whose replay answers otherwise is refused naming the step; a bad
// format or option is a TypeError naming it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Service } from "../../pkg/index.js";
import { exportTest } from "../../pkg/export_test.js";
import { runOf } from "../../pkg/service.js";

const JSON_TYPE = { "content-type": "application/json" };
const PENDING_CARD = "4000 0840 0000 0014";

/** Runs `fn` with Date.now answering `clock.now`: the wall clock, moved by the test. */
function onWall(clock, fn) {
  const real = Date.now;
  Date.now = () => clock.now;
  try {
    return fn();
  } finally {
    Date.now = real;
  }
}

test("a wall-clock run is copied with the time between its steps: a payment settled by real time is settled at the same step", () => {
  const clock = { now: Date.UTC(2026, 5, 1) };
  const service = onWall(clock, () => {
    const s = new Service({ seed: 5, failureRate: 0 });
    clock.now += 10;
    const orderId = s.request("POST", "/api/order/create", '{"userId":"u","price":9}', JSON_TYPE).body.data.orderId;
    clock.now += 250;
    const paid = s.request("POST", "/api/payment/pay", JSON.stringify({ orderId, amount: 9, paymentMethod: "CARD", cardNumber: PENDING_CARD }), JSON_TYPE).body.data;
    assert.equal(paid.status, "PENDING");
    clock.now += 40_000;
    assert.equal(s.request("GET", `/api/payment/${paid.paymentId}`).body.data.status, "SUCCESS");
    return s;
  });
  const text = service.exportTest("vitest");
  assert.match(text, /"virtualTime":1780272000000/);
  assert.match(text, /"latency":\{"order":\{"baseMs":0/);
  assert.match(text, /service\.advance\(10\); \/\/ the time between the run's steps/);
  assert.match(text, /service\.advance\(40000\); \/\/ the time between the run's steps\n {2}\/\/ 3\. GET \/api\/payment\/PAY-/);
  assert.match(text, /expect\(reply\.body\.data\.status\)\.toBe\("SUCCESS"\);\n {2}service\.free\(\);/);
  service.free();
});

test("a run whose replay answers otherwise is refused, naming the step, rather than copied", () => {
  const s = new Service({ seed: 5, failureRate: 0, virtualTime: 0 });
  s.request("POST", "/api/order/create", '{"userId":"u","price":9}', JSON_TYPE);
  s.request("GET", "/api/order/ORD-NOPE0000");
  const run = runOf(s);
  run.steps[1].answer.body = run.steps[1].answer.body.replace("Order not found", "Order gone");
  assert.throws(
    () => exportTest(run, "curl", undefined, (o) => new Service(o)),
    /^Error: exportTest: replaying step 2 \(GET \/api\/order\/ORD-NOPE0000\) on a fresh service: its answer has msg "Order not found" where the run had "Order gone"; no test is exported that would fail$/,
  );
  s.free();
});

test("Playwright's copy opens a blank page of its own, or the page it is given", () => {
  const s = new Service({ seed: 5, virtualTime: 0 });
  s.request("GET", "/api/order/ORD-NOPE0000");
  const own = s.exportTest("playwright");
  assert.match(own, /await page\.route\("http:\/\/orderpay\.test\/", /);
  assert.match(own, /await page\.goto\("http:\/\/orderpay\.test\/"\);/);
  const given = s.exportTest("playwright", { page: "/checkout", name: "lost order" });
  assert.doesNotMatch(given, /page\.route\(/);
  assert.match(given, /await page\.goto\("\/checkout"\);/);
  assert.match(given, /^test\("lost order", async \(\{ page \}\) => \{$/m);
  s.free();
});

test("a bad format or option is a TypeError naming it, and the run is left as it was", () => {
  const s = new Service({ seed: 5 });
  assert.throws(() => s.exportTest("jest"), { name: "TypeError", message: 'format: expected "vitest", "playwright" or "curl", got "jest"' });
  assert.throws(() => s.exportTest(undefined), { name: "TypeError", message: 'format: expected "vitest", "playwright" or "curl", got undefined' });
  assert.throws(() => s.exportTest("vitest", { name: 3 }), { name: "TypeError", message: "options.name: expected a string, got number" });
  assert.equal(s.run().steps.length, 0);
  s.free();
});
