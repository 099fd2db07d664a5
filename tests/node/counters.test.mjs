// service.counters() through the installed package: plain data that equals
// what the answers said, however small the log; kept by snapshot() and
// Service.restore(); zero in a new service; typed in the .d.ts; and
// docs/api.md's "what payments were taken" example runs as written.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { examples } from "../docs.mjs";
import { makeConsumer, root } from "./consumer.mjs";

let app;
before(() => {
  app = makeConsumer();
});

test("counters() equals the answers' own count, with a log of 9 records that dropped most of them", () => {
  const out = JSON.parse(app.run(
    "counted.mjs",
    `import { Service } from "orderpay";
     const s = new Service({ seed: 12, logCapacity: 9 });
     const model = { requests: 0, pay: 0, approved: 0, declined: 0, header: 0, notFound: 0, orderMs: [], paymentMs: [] };
     const seen = (r, route) => {
       model.requests++;
       if (r.status === 200) (route.startsWith("/api/order/") ? model.orderMs : model.paymentMs).push(Number(r.headers["x-sim-duration-ms"]));
     };
     for (let i = 0; i < 600; i++) {
       const created = s.request("POST", "/api/order/create", { userId: "u", price: 1 + i });
       seen(created, "/api/order/create");
       const orderId = created.body.data.orderId;
       const headers = i % 7 === 0 ? { "X-Sim-Outcome": "failure" } : {};
       const paid = s.request("POST", "/api/payment/pay", { orderId, amount: 1, paymentMethod: "CARD" }, headers);
       seen(paid, "/api/payment/pay");
       model.pay++;
       if (paid.body.code === 0) model.approved++; else model.declined++;
       if (i % 7 === 0) model.header++;
       const missing = s.request("POST", "/api/payment/pay", { orderId: "ORD-ZZZZZZZZ", amount: 1, paymentMethod: "CARD" });
       seen(missing, "/api/payment/pay");
       model.notFound++;
       seen(s.request("GET", "/api/nowhere"), "");
     }
     console.log(JSON.stringify({ model, counters: s.counters(), held: s.logs().length, dropped: s.droppedLogs,
       restored: (await import("orderpay")).Service.restore(s.snapshot()).counters(),
       fresh: new Service({ seed: 12 }).counters() }));`,
  ));
  const { model, counters: c } = out;
  assert.equal(out.held, 9);
  assert.ok(out.dropped > 6000, `${out.dropped} dropped`);
  assert.equal(c.requests, model.requests);
  assert.equal(c.payments.attempts, model.pay);
  assert.equal(c.payments.approved, model.approved);
  assert.equal(c.payments.declined, model.declined);
  assert.deepEqual(c.payments.byRule.header, { approved: 0, declined: model.header });
  assert.equal(c.payments.byRule.draw.approved + c.payments.byRule.draw.declined, model.pay - model.header);
  const row = (route, httpStatus, code) => c.byRoute.find((r) => r.route === route && r.httpStatus === httpStatus && r.code === code)?.count ?? 0;
  assert.equal(row("/api/payment/pay", 200, -1), model.declined + model.notFound);
  assert.equal(row("/api/payment/pay", 200, 0), model.approved);
  assert.equal(row(null, 404, 404), 600);
  // The histograms: each duration in the bucket its edges name.
  const bucketOf = (ms) => c.durations.edgesMs.filter((e) => e <= ms).length;
  for (const [name, list] of [["order", model.orderMs], ["payment", model.paymentMs]]) {
    const h = c.durations[name];
    const want = c.durations.edgesMs.map(() => 0).concat(0);
    for (const ms of list) want[bucketOf(ms)]++;
    assert.deepEqual(h.buckets, want, name);
    assert.equal(h.count, list.length);
    assert.equal(h.sumMs, list.reduce((a, b) => a + b, 0));
    assert.equal(h.maxMs, Math.max(...list));
  }
  // The running share ends at the approvals so far, within 256 points.
  const { every, approved } = c.payments.running;
  assert.equal(approved.length, Math.floor(model.pay / every));
  assert.ok(approved.length <= 256 && approved.length >= 128);
  assert.ok(approved.at(-1) <= model.approved);
  assert.equal(c.complete, true);
  assert.deepEqual(out.restored, c, "a snapshot keeps the counters");
  assert.equal(out.fresh.requests, 0);
  assert.equal(out.fresh.payments.attempts, 0);
});

test("counters() is typed in the package's .d.ts", () => {
  writeFileSync(
    join(app.dir, "check-counters.ts"),
    `import { Service, type PaymentCounters, type ServiceCounters } from "orderpay";
    const c: ServiceCounters = new Service().counters();
    const n: number = c.payments.byRule["forced-next"].declined + c.durations.payment.buckets[0];
    const route: string | null = c.byRoute[0]?.route ?? null;
    const whole: boolean = c.complete;
    const taken: PaymentCounters = c.payments;
    const sum: number = taken.approved + taken.declined - taken.attempts + taken.running.approved.length;
    // @ts-expect-error: not a rule
    c.payments.byRule.maybe;
    // @ts-expect-error: not a field
    c.payments.taken;
    void [n, route, whole, sum];
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  execFileSync(
    "node",
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--lib", "es2022,dom", "--skipLibCheck", "false", "check-counters.ts"],
    { cwd: app.dir, stdio: ["ignore", "pipe", "pipe"] },
  );
});

test("docs/api.md's payments example: a double click with one key takes exactly one payment", () => {
  const [example] = examples("payments-taken");
  assert.ok(example, "docs/api.md has the payments-taken example");
  assert.match(example, /failureRate: 0/);
  const lines = app.run("payments-taken.mjs", example).trim().split("\n");
  assert.deepEqual(lines, ["true", "1 1 0"]);
  // Without the key, the second click is a second payment: the example's assertion can fail.
  const lines2 = app.run("payments-taken-no-key.mjs", example.replace('"Idempotency-Key"', '"X-Not-A-Key"')).trim().split("\n");
  assert.deepEqual(lines2, ["undefined", "2 2 0"]);
});

test("counters().payments as docs/api.md says: what moves it and what does not", () => {
  const out = JSON.parse(app.run(
    "payments-moves.mjs",
    `import { Service } from "orderpay";
    const taken = {};
    const rule = (then) => ({ rules: [{ name: "r", when: { route: "/api/payment/pay", nth: 1 }, then }] });
    const cases = {
      gateway429: { kind: "http", status: 429 },
      gateway503: { kind: "http", status: 503 },
      lostRequest: { kind: "network", fault: "reset", phase: "request" },
      lostResponse: { kind: "network", fault: "reset", phase: "response" },
      timeout: { kind: "timeout", afterMs: 10 },
      processorError: { kind: "processor_error" },
      decline: { kind: "decline", code: "expired_card" },
    };
    for (const [name, then] of Object.entries(cases)) {
      const s = new Service({ seed: 5, failureRate: 0, scenario: rule(then) });
      const order = s.handle("POST", "/api/order/create", { userId: "u", price: 3 }).data;
      s.request("POST", "/api/payment/pay", { orderId: order.orderId, amount: 3, paymentMethod: "CARD" });
      const { attempts, approved, declined } = s.counters().payments;
      taken[name] = [attempts, approved, declined];
    }
    const s = new Service({ seed: 5, failureRate: 0 });
    const order = s.handle("POST", "/api/order/create", { userId: "u", price: 3 }).data;
    s.handle("POST", "/api/payment/pay", { orderId: order.orderId, amount: 0, paymentMethod: "CARD" });
    s.handle("POST", "/api/payment/pay", { orderId: "ORD-NOPE0000", amount: 3, paymentMethod: "CARD" });
    const paid = s.handle("POST", "/api/payment/pay", { orderId: order.orderId, amount: 3, paymentMethod: "CARD" }).data;
    s.handle("POST", "/api/payment/refund/" + paid.paymentId);
    s.clearLogs();
    taken.refusedThenRefunded = [s.counters().payments.attempts, s.counters().payments.approved, s.counters().payments.declined];
    s.handle("GET", "/api/test/order/batch?count=4");
    taken.batch = s.counters().payments.approved;
    console.log(JSON.stringify(taken));`,
  ));
  assert.deepEqual(out, {
    gateway429: [0, 0, 0],
    gateway503: [0, 0, 0],
    lostRequest: [0, 0, 0],
    lostResponse: [1, 1, 0],
    timeout: [1, 0, 1],
    processorError: [1, 0, 1],
    decline: [1, 0, 1],
    refusedThenRefunded: [1, 1, 0],
    batch: 5,
  });
});
