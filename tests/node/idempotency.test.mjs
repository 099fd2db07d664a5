// Idempotency-Key through the installed package (docs/idempotency.md):
// Service.request and createFetch replay a kept answer with
// `idempotent-replayed: true` and run nothing; a key reused for another
// body is a 400; the `idempotencyKeys` option is checked like the others;
// keys survive snapshot() and Service.restore().
import assert from "node:assert/strict";
import { before, test } from "node:test";

import { examples } from "../docs.mjs";
import { makeConsumer } from "./consumer.mjs";

let app;
before(() => {
  app = makeConsumer();
});

const json = (file, source) => JSON.parse(app.run(file, source));

test("docs/idempotency.md's example runs as written and prints what it says", () => {
  const [example] = examples("idempotency");
  assert.ok(example, "docs/idempotency.md has the example");
  const lines = app.run("doc-example.mjs", example).trim().split("\n");
  assert.equal(lines.length, 4);
  assert.deepEqual([lines[0], lines[1], lines[3]], ["true true", "1", "undefined 2"]);
  assert.match(lines[2], /^400 Idempotency-Key: "pay-ORD-[0-9A-Z]{8}" was first used with another body; use a new key for another request$/);
});

test("Service.request: a retry with the same key replays the answer, runs nothing, and is logged as a replay", () => {
  const out = json(
    "service.mjs",
    `import { Service } from "orderpay";
     const s = new Service({ seed: 3, failureRate: 0, virtualTime: 1700000000000 });
     const key = { "Idempotency-Key": "pay-7f3a" };
     const orderId = s.request("POST", "/api/order/create", { userId: "u", price: 5, description: "" }).body.data.orderId;
     const pay = { orderId, amount: 5, paymentMethod: "CARD" };
     const first = s.request("POST", "/api/payment/pay", pay, key);
     s.forceNext("failure");
     const now = s.now;
     const again = s.request("POST", "/api/payment/pay", pay, key);
     const other = s.request("POST", "/api/payment/pay", { ...pay, amount: 6 }, key);
     const logs = s.logs();
     const restored = Service.restore(s.snapshot());
     const afterRestore = restored.request("POST", "/api/payment/pay", pay, key);
     console.log(JSON.stringify({ first, again, other, nowMoved: s.now !== now, forced: s.forced,
       replayRecord: logs.filter((r) => r.traceId === again.headers["x-b3-traceid"]),
       firstRecord: logs.find((r) => r.traceId === first.headers["x-b3-traceid"] && r.stage === "response"),
       afterRestore, attempts: s.counters().payments.attempts, settings: s.settings }));`,
  );
  assert.equal(out.first.body.code, 0);
  assert.equal(out.first.headers["idempotent-replayed"], undefined);
  assert.equal(out.again.headers["idempotent-replayed"], "true");
  assert.deepEqual(out.again.body, out.first.body);
  assert.equal(out.nowMoved, false, "no simulated time");
  assert.deepEqual(out.forced, { outcome: "failure", remaining: 1 }, "no outcome used");
  assert.equal(out.attempts, 1, "one payment attempt");
  assert.deepEqual(out.replayRecord.map((r) => r.stage), ["gateway", "response"]);
  assert.equal(out.replayRecord[1].replay, true);
  assert.equal("replay" in out.firstRecord, false);
  assert.equal(out.other.status, 400);
  assert.equal(out.other.body.msg, 'Idempotency-Key: "pay-7f3a" was first used with another body; use a new key for another request');
  assert.deepEqual(out.afterRestore.body, out.first.body);
  assert.equal(out.afterRestore.headers["idempotent-replayed"], "true");
  assert.equal("idempotencyKeys" in out.settings, false, "the default is not shown");
});

test("createFetch: a double click on Pay with one key makes one payment; the replay is marked", () => {
  const out = json(
    "fetch.mjs",
    `import { createFetch } from "orderpay/fetch";
     const send = createFetch({ service: { seed: 5, failureRate: 0 } });
     const post = (path, body, key) => send(path, { method: "POST",
       headers: { "Content-Type": "application/json", "Idempotency-Key": key }, body: JSON.stringify(body) });
     const created = await (await post("/api/order/create", { userId: "u", price: 9, description: "tea" }, "create-1")).json();
     const body = { orderId: created.data.orderId, amount: 9, paymentMethod: "WALLET_A" };
     const [a, b] = await Promise.all([post("/api/payment/pay", body, "pay-1"), post("/api/payment/pay", body, "pay-1")]);
     const bad = await post("/api/payment/pay", body, "x".repeat(256));
     console.log(JSON.stringify({ a: { status: a.status, replayed: a.headers.get("idempotent-replayed"), body: await a.json() },
       b: { status: b.status, replayed: b.headers.get("idempotent-replayed"), body: await b.json() },
       bad: { status: bad.status, body: await bad.json() },
       payments: send.service.counters().payments.approved }));`,
  );
  assert.deepEqual([out.a.replayed, out.b.replayed], [null, "true"]);
  assert.deepEqual(out.b.body, out.a.body);
  assert.equal(out.payments, 1);
  assert.equal(out.bad.status, 400);
  assert.equal(out.bad.body.msg, "Idempotency-Key: must be at most 255 characters, got 256");
});

test("the idempotencyKeys option: checked like the others, and its 507 names it", () => {
  const out = json(
    "option.mjs",
    `import { Service } from "orderpay";
     const refusal = (options) => { try { new Service(options); return null; } catch (e) { return e.name + ": " + e.message; } };
     const s = new Service({ seed: 1, failureRate: 0, idempotencyKeys: 1 });
     const create = (key) => s.request("POST", "/api/order/create", { userId: "u", price: 1 }, { "Idempotency-Key": key });
     console.log(JSON.stringify({ wrongType: refusal({ idempotencyKeys: "10" }), tooMany: refusal({ idempotencyKeys: 1e6 + 1 }),
       fraction: refusal({ idempotencyKeys: 1.5 }), first: create("a").status, full: create("b").body,
       settings: s.settings.idempotencyKeys }));`,
  );
  assert.equal(out.wrongType, "TypeError: idempotencyKeys: expected a whole number, got string");
  assert.equal(out.tooMany, "RangeError: idempotencyKeys: must be a whole number from 0 to 1000000, got 1000001");
  assert.equal(out.fraction, "RangeError: idempotencyKeys: must be a whole number from 0 to 1000000, got 1.5");
  assert.equal(out.first, 200);
  assert.equal(out.full.code, 507);
  assert.match(out.full.msg, /^idempotencyKeys: the service already keeps 1 idempotency keys/);
  assert.equal(out.settings, 1);
});

/**
 * The table of docs/idempotency.md for a scenario's failures: for each, the
 * first answer, the retry with the same key, and the payments taken; then
 * the same failure met by a retry of a key already kept.
 */
test("a scenario's 429, 503 and request-phase fault keep nothing; a response-phase fault's answer is kept and replayed", () => {
  const out = json(
    "scenario-keys.mjs",
    `import { Service } from "orderpay";
     const cases = {
       "429": { kind: "http", status: 429, retryAfter: 3 },
       "503": { kind: "http", status: 503, retryAfter: 2 },
       request: { kind: "network", fault: "reset", phase: "request" },
       response: { kind: "network", fault: "reset", phase: "response" },
     };
     const shown = (r) => [r.status, r.headers["retry-after"] ?? null, r.headers["idempotent-replayed"] ?? null, r.fault?.phase ?? null];
     const out = {};
     for (const [name, then] of Object.entries(cases)) {
       const rows = [];
       for (const nth of [1, 2]) {
         const s = new Service({ seed: 9, failureRate: 0, scenario: { rules: [{ name, when: { route: "/api/payment/pay", nth }, then }] } });
         const orderId = s.handle("POST", "/api/order/create", { userId: "u", price: 5 }).data.orderId;
         const key = { "Idempotency-Key": "k-" + name };
         const pay = () => s.request("POST", "/api/payment/pay", { orderId, amount: 5, paymentMethod: "CARD" }, key);
         rows.push({ answers: [pay(), pay(), pay()].map(shown), approved: s.counters().payments.approved });
       }
       out[name] = rows;
     }
     console.log(JSON.stringify(out));`,
  );
  // nth 1: the failure first, then the retry with the key; nth 2: a kept key meets the failure.
  assert.deepEqual(out["429"], [
    { answers: [[429, "3", null, null], [200, null, null, null], [200, null, "true", null]], approved: 1 },
    { answers: [[200, null, null, null], [429, "3", null, null], [200, null, "true", null]], approved: 1 },
  ]);
  assert.deepEqual(out["503"], [
    { answers: [[503, "2", null, null], [200, null, null, null], [200, null, "true", null]], approved: 1 },
    { answers: [[200, null, null, null], [503, "2", null, null], [200, null, "true", null]], approved: 1 },
  ]);
  assert.deepEqual(out.request, [
    { answers: [[0, null, null, "request"], [200, null, null, null], [200, null, "true", null]], approved: 1 },
    { answers: [[200, null, null, null], [0, null, null, "request"], [200, null, "true", null]], approved: 1 },
  ]);
  // The response phase: the service ran and its answer was kept, so the retry replays it: one payment.
  assert.deepEqual(out.response[0], { answers: [[200, null, null, "response"], [200, null, "true", null], [200, null, "true", null]], approved: 1 });
  assert.equal(out.response[1].approved, 1);
  assert.deepEqual(out.response[1].answers.map((a) => a[2]), [null, "true", "true"]);
});
