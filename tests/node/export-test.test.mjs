// service.exportTest's plan (src/js/test_plan.js) through the built
// package: a wall-clock run is copied with the time between its steps, so
// a pending payment settled by real time is settled at the same step; a
// run whose replay answers otherwise is refused naming the step; a bad
// format or option is a TypeError naming it; no text of the run (a path,
// a method) becomes code of the copy.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
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

/** Paths and a method that end a comment or a quote, each a request the service answers (404, 400) and a replay answers the same. */
const HOSTILE_PATHS = [..."\n\r\u2028\u2029"].map((end) => `/api/order/x${end}process.exit(9)//`).concat("/api/order/'$(exit 9)'`exit 9`\"q\\\"\\");
const HOSTILE_METHOD = "GET\nprocess.exit(9)//";

/** A line of `text` (its lines as JS ends them, or a shell: `ends`) that starts with what followed a line end in the hostile text. */
const madeLine = (text, ends = /\r\n|[\n\r\u2028\u2029]/) => text.split(ends).find((line) => line.trim().startsWith("process.exit"));

/** The arguments each `send` of a curl copy would be called with, read by bash itself (its helpers stubbed). */
function sentByCurlCopy(text) {
  const steps = text.slice(text.indexOf('admin -X POST "$A/reset"'));
  const stubs = `set -eu; A=a; out=o; send() { printf '%s\\0' "$1" "$2"; }; for f in admin is has header lost fail grep echo; do eval "$f() { :; }"; done\n`;
  const ran = spawnSync("bash", ["-c", stubs + steps], { encoding: "utf8" });
  assert.equal(ran.status, 0, ran.stderr);
  return ran.stdout.split("\0").slice(0, -1);
}

test("no text of the run becomes code of its copy: paths and methods with line ends, U+2028/U+2029, quotes, $(...) and backticks stay text", () => {
  const s = new Service({ seed: 5, virtualTime: 0 });
  for (const path of HOSTILE_PATHS) s.handle("GET", path);
  s.request(HOSTILE_METHOD, "/api/order/x");
  // And a body and a header value: strings of the copy, never its lines.
  s.request("POST", "/api/order/create", `{"userId":"u\n\u2028process.exit(9)//","price":1}`, { "content-type": "application/json", "x-note": "a'$(exit 9)'" });
  for (const format of ["vitest", "playwright"]) {
    const text = s.exportTest(format);
    assert.equal(madeLine(text), undefined, `${format}: a line of the copy was made by the run's text`);
    // It parses as a function body once its imports are gone (node does not run it).
    assert.doesNotThrow(() => new Function(text.replace(/^import .*$/gm, "")), format);
  }
  const curl = s.exportTest("curl");
  assert.equal(madeLine(curl, /[\n\r]/), undefined, "curl: a line of the copy was made by the run's text");
  const sent = sentByCurlCopy(curl);
  assert.deepEqual(sent, [...HOSTILE_PATHS.flatMap((path) => ["GET", path]), HOSTILE_METHOD, "/api/order/x", "POST", "/api/order/create"]);
  s.free();
});
