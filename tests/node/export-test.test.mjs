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
  assert.match(text, /^\/\/ The run was on the wall clock: this copy runs on a virtual clock from the run's start and moves it by the time between the steps\.$/m);
  assert.match(text, /service\.advance\(10\); \/\/ the time between the run's steps/);
  // The gap that settled the payment is checked by the change it made, read from the log after the replay's last record before it.
  const [, after] = /\/\/ 3\. GET \/api\/payment\/PAY-\S+\n {2}service\.advance\(40000\); \/\/ the time between the run's steps\n {2}expect\(changes\((\d+)\)\)\.toEqual\(\["(PAY-\S+) PENDING → SUCCESS"\]\);\n {2}reply = /.exec(text) ?? [];
  assert.ok(after, text);
  assert.deepEqual(service.logs(Number(after)).filter((r) => r.stage === "payment").map((r) => [r.paymentId, r.to]), [[paid(service), "SUCCESS"]]);
  assert.match(text, /expect\(reply\.body\.data\.status\)\.toBe\("SUCCESS"\);\n {2}service\.free\(\);/);
  // A gap that changed nothing checks nothing more.
  assert.doesNotMatch(text, /advance\(10\);[^\n]*\n {2}expect\(changes/);
  service.free();
});

/** The id of the payment `service`'s run paid. */
const paid = (service) => JSON.parse(service.run().steps.find((step) => step.path === "/api/payment/pay").answer.body).data.paymentId;

/** A run on a virtual clock with every kind of step: an order, a scenario, a forced failure, a challenge failed, a pending payment the clock settles. */
function everyKindOfStep() {
  const s = new Service({ seed: 13, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1) });
  const pay = (orderId, cardNumber) => s.request("POST", "/api/payment/pay", JSON.stringify({ orderId, amount: 9, paymentMethod: "CARD", cardNumber }), JSON_TYPE).body.data;
  const order = () => s.request("POST", "/api/order/create", '{"userId":"u","price":9}', JSON_TYPE).body.data.orderId;
  s.setScenario("insufficient-funds");
  pay(order());
  s.setScenario(null);
  s.forceNext("failure", 1);
  pay(order());
  const challenged = pay(order(), "4000 0025 0000 3155");
  s.completeChallenge(challenged.paymentId, "fail");
  s.request("GET", `/api/payment/${challenged.paymentId}`);
  const pending = pay(order(), PENDING_CARD);
  s.advance(30_000);
  return { s, challenged: challenged.paymentId, pending: pending.paymentId };
}

test("a clock move is checked by the payments' changes it made, read from the log after the replay's last record before it", () => {
  const { s, pending } = everyKindOfStep();
  const vitest = s.exportTest("vitest");
  const [, after] = /^ {2}service\.advance\(30000\);\n {2}expect\(changes\((\d+)\)\)\.toEqual\(\["(?:PAY-\S+) PENDING → SUCCESS"\]\);$/m.exec(vitest) ?? [];
  assert.ok(after, vitest);
  assert.deepEqual(s.logs(Number(after)).filter((r) => r.stage === "payment").map((r) => `${r.paymentId} ${r.from} → ${r.to}`), [`${pending} PENDING → SUCCESS`]);
  assert.match(vitest, /^ {2}const changes = \(after\) => service\.logs\(after\)\.filter\(\(r\) => r\.stage === "payment"\)/m);
  assert.ok(s.exportTest("playwright").includes(`expect(changes(${after})).toEqual(["${pending} PENDING → SUCCESS"]);`));
  assert.ok(s.exportTest("curl").includes(`changes ${after} '${pending} PENDING SUCCESS'`));
  s.free();
});

test("a failed payment's failureCode is checked, in its answers and after completeChallenge, and a replay answering another is refused", () => {
  const { s, challenged } = everyKindOfStep();
  const vitest = s.exportTest("vitest");
  assert.ok(vitest.includes(`expect(service.completeChallenge("${challenged}", "fail")).toMatchObject({"status":"FAILED","failureCode":"authentication_required"});`), vitest);
  assert.match(vitest, new RegExp(`// \\d+\\. GET /api/payment/${challenged}\n(?: {2}(?:reply|expect).*\n)*? {2}expect\\(reply\\.body\\.data\\.failureCode\\)\\.toBe\\("authentication_required"\\);`));
  const curl = s.exportTest("curl");
  assert.match(curl, /^grep -qF '"failureCode":"authentication_required"' "\$out\/a" \|\| fail /m);
  assert.match(curl, /^has '"failureCode":"authentication_required"'$/m);
  const run = s.run();
  const read = run.steps.find((step) => step.path === `/api/payment/${challenged}`);
  read.answer.body = read.answer.body.replace("authentication_required", "card_declined");
  assert.throws(() => exportTest(run, "vitest", undefined, (o) => new Service(o)), /its answer has failureCode "authentication_required" where the run had "card_declined"/);
  s.free();
});

test("every step is numbered, the same in each format: a call on the service as much as a request, and curl's count is the last number", () => {
  const { s, challenged } = everyKindOfStep();
  const n = s.run().steps.length;
  const numbers = (text, re) => [...text.matchAll(re)].map((m) => Number(m[1]));
  const all = Array.from({ length: n }, (_, i) => i + 1);
  for (const format of ["vitest", "playwright"]) assert.deepEqual(numbers(s.exportTest(format), /^ {2}\/\/ (\d+)\. /gm), all, format);
  const vitest = s.exportTest("vitest");
  assert.match(vitest, /^ {2}\/\/ 1\. setScenario\("insufficient-funds"\)\n {2}service\.setScenario\("insufficient-funds"\);$/m);
  assert.match(vitest, /^ {2}\/\/ 4\. setScenario\(null\)$/m);
  assert.match(vitest, /^ {2}\/\/ 5\. forceNext\("failure", 1\)$/m);
  assert.ok(vitest.includes(`  // 10. completeChallenge("${challenged}", "fail")\n`), vitest);
  assert.match(vitest, new RegExp(`^ {2}// ${n}\\. advance\\(30000\\)$`, "m"));
  const curl = s.exportTest("curl");
  const marks = [...curl.matchAll(/^step=(\d+) {4}# (\d+)\. /gm)];
  assert.deepEqual(marks.map((m) => Number(m[1])), all);
  assert.deepEqual(marks.map((m) => Number(m[2])), all);
  assert.match(curl, /^step=5 {4}# 5\. forceNext\("failure", 1\)\nadmin -X POST "\$A\/force-next"/m);
  assert.match(curl, new RegExp(`^echo "ok: ${n} steps answered as in the run"$`, "m"));
  s.free();
});

test("each copy's header says which clock the run was on", () => {
  const { s } = everyKindOfStep();
  for (const format of ["vitest", "playwright", "curl"]) {
    const text = s.exportTest(format);
    assert.match(text, /^(?:\/\/|#) The run was on a virtual clock: this copy replays it on a virtual clock from the run's start\.$/m, format);
    assert.doesNotMatch(text, /wall clock/, format);
  }
  s.free();
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
