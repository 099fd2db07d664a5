// The built package, installed from its tarball and imported by name in
// Node, as a user's project would.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { brokenLinks, docFiles } from "../docs.mjs";
import { makeConsumer, examples, root, withoutComments } from "./consumer.mjs";

let app;
before(() => {
  app = makeConsumer();
});

test("the README's Node example runs as written", () => {
  const [example] = examples("node");
  assert.ok(example, "README has a Node example");
  const out = app.run("readme.mjs", example).trim().split("\n");
  assert.match(out[0], /^0 ORD-[A-Z0-9]{8}$/);
  assert.match(out[1], /^(SUCCESS|Third party payment failed)$/);
  assert.match(out[2], /^gateway [0-9a-f]{32}$/);
});

test("the README's pieces example restores, in pieces, what it wrote in pieces", () => {
  const [example] = examples("pieces");
  assert.ok(example, "README has a pieces example");
  assert.equal(app.run("pieces.mjs", example).trim(), "true");
});

test("the README's replay example replays a failure, the same after unrelated requests", () => {
  const [example] = examples("replay");
  const alone = app.run("replay.mjs", example).trim();
  assert.equal(alone, "Third party payment failed");
  const busy = app.run(
    "busy.mjs",
    `import { Service } from "orderpay";
     const service = new Service({ seed: 4 });
     for (let i = 0; i < 20; i++) {
       const other = service.handle("POST", "/api/order/create", { userId: "x" + i, price: i + 1 });
       service.handle("POST", "/api/payment/pay", { orderId: other.data.orderId, amount: 1, paymentMethod: "WALLET_A" });
       service.handle("GET", "/api/nowhere");
     }
     service.handle("GET", "/api/test/order/batch?count=5");
     const { data } = service.handle("POST", "/api/order/create", { userId: "u-1", price: 25.5, description: "two coffees" });
     console.log(service.handle("POST", "/api/payment/pay", { orderId: data.orderId, amount: 25.5, paymentMethod: "CARD" }).msg);`,
  ).trim();
  assert.equal(busy, alone);
});

test("the README's failed-payment example forces declines and says why", () => {
  const [example] = examples("failures");
  assert.ok(example, "README has a failed-payment example");
  assert.deepEqual(app.run("failures.mjs", example).trim().split("\n"), [
    "-1 Third party payment failed",
    "Third party payment failed",
    "1",
    "[ 'header', 'forced-next' ]",
  ]);
});

test("the README's scenario and Idempotency-Key example: a 503, a decline with its reason, a replay, then a payment", () => {
  const [example] = examples("lab");
  assert.ok(example, "README has the scenario example");
  assert.deepEqual(app.run("lab.mjs", example).trim().split("\n"), [
    "503 2",
    "Third party payment failed insufficient_funds",
    "true Third party payment failed",
    "SUCCESS",
    "[ 'busy: 1', 'no funds: 1' ]",
  ]);
});

test("the API reference's types example narrows on code and runs as written", () => {
  const [example] = examples("types");
  assert.ok(example, "docs/api.md has a types example");
  const out = app.run("types.mjs", example).trim().split("\n");
  assert.match(out[0], /^ORD-[A-Z0-9]{8}$/);
  assert.equal(out[1], "Payment not found null");
});

test("the installed package has the user README, and docs/ beside it for its links", () => {
  const installed = join(app.dir, "node_modules", "orderpay");
  assert.equal(readFileSync(join(installed, "README.md"), "utf8"), readFileSync(join(root, "README.md"), "utf8"));
  const files = docFiles(installed);
  assert.deepEqual(files, docFiles());
  assert.deepEqual(brokenLinks(installed, files), []);
});

test("the typical flow of the spec, step by step, through the installed package", () => {
  const out = app.run(
    "flow.mjs",
    `
    import { Service } from "orderpay";
    const s = new Service({ seed: 5, failureRate: 0 });
    const steps = [];
    const order = s.handle("POST", "/api/order/create", JSON.stringify({ userId: "u", price: 10, description: "d" }),
      { "Content-Type": "application/json", "X-User-Id": "u" });
    steps.push(order);
    const id = order.data.orderId;
    steps.push(s.handle("GET", "/api/order/" + id));
    const pay = s.handle("POST", "/api/payment/pay", { orderId: id, amount: 10, paymentMethod: "WALLET_A" });
    steps.push(pay);
    steps.push(s.handle("POST", "/api/order/" + id + "/pay"));
    steps.push(s.handle("POST", "/api/order/delete/" + id));
    steps.push(s.handle("GET", "/api/payment/" + pay.data.paymentId));
    steps.push(s.handle("POST", "/api/payment/refund/" + pay.data.paymentId));
    steps.push(s.handle("GET", "/api/order/" + id));
    console.log(JSON.stringify({ steps, logs: s.logs() }));
    `,
  );
  const { steps, logs } = JSON.parse(out);
  const [create, read, pay, mark, del, payment, refund, after] = steps;
  assert.equal(create.code, 0);
  assert.equal(create.data.status, "CREATED");
  assert.deepEqual(read, create);
  assert.equal(pay.data.status, "SUCCESS");
  assert.equal(pay.data.paymentMethod, "WALLET_A");
  assert.deepEqual(mark, { code: 0, msg: "success", data: null });
  assert.deepEqual(del, { code: -1, msg: "Paid order cannot be deleted", data: null });
  assert.deepEqual(payment.data, pay.data);
  assert.deepEqual(refund, { code: 0, msg: "success", data: null });
  assert.equal(after.data.status, "PAID");
  assert.equal(logs.length, 8 * 3);
  assert.deepEqual(logs.slice(0, 3).map((r) => r.stage), ["gateway", "service", "response"]);
  assert.equal(logs[2].userId, "u");
});

test("await init() works in Node too, for code shared with the browser", () => {
  const out = app.run(
    "init.mjs",
    `import init, { handle } from "orderpay";
     await init();
     console.log(handle("GET", "/api/nowhere").code);`,
  );
  assert.equal(out.trim(), "404");
});

test("the published types compile under strict TypeScript and have no any", () => {
  const types = readFileSync(join(app.dir, "node_modules/orderpay/orderpay.d.ts"), "utf8");
  assert.doesNotMatch(types, /\bany\b/);
  writeFileSync(
    join(app.dir, "check.ts"),
    `
    import { Service, handle, type Envelope, type Order, type Payment, type LogRecord, type ServiceOptions } from "orderpay";
    import type { ChallengeOutcome, PayBody, PaymentStatus, ScenarioRule } from "orderpay";
    const options: ServiceOptions = { seed: 1, failureRate: 0.5, logCapacity: 10, virtualTime: 0 };
    const s = new Service(options);
    const e: Envelope = s.handle("POST", "/api/order/create", { userId: "u", price: 1 });
    const order = e.data as Order | null;
    const when: number | undefined = order?.createdAt;
    const p: Payment["paymentMethod"] = "WALLET_B";
    for (const r of s.logs() as LogRecord[]) {
      if (r.stage === "response") { const code: number = r.code; void code; }
      if (r.stage === "service") { const d: number = r.duration; void d; }
    }
    const status: number = s.request("GET", "/api/order/x", null, new Headers()).status;
    const snapshot: string = s.snapshot();
    Service.restore(snapshot).advance(5);
    handle("get", "/api/order/x");
    // @ts-expect-error: not a payment method
    const wrong: Payment["paymentMethod"] = "card";
    // @ts-expect-error: not an option
    new Service({ failurerate: 1 });
    void [when, p, status, wrong];
    // A Payment narrows on its status: nextAction only when REQUIRES_ACTION, failureCode and failureReason only when FAILED.
    const body: PayBody = { orderId: "ORD-1", amount: 20, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155", returnUrl: "/done" };
    const paid = s.handle("POST", "/api/payment/pay", body);
    if (paid.code === 0) {
      const payment: Payment = paid.data;
      if (payment.status === "REQUIRES_ACTION") {
        const to: "redirect" = payment.nextAction.type;
        const url: string = payment.nextAction.url;
        void [to, url];
      } else if (payment.status === "FAILED") {
        const code: string = payment.failureCode;
        const reason: string = payment.failureReason;
        void [code, reason];
      } else {
        const settled: "SUCCESS" | "REFUNDED" | "PENDING" = payment.status;
        // @ts-expect-error: only a payment awaiting a challenge has a nextAction
        void payment.nextAction;
        // @ts-expect-error: only a failed payment has a failureCode
        void payment.failureCode;
        void settled;
      }
    }
    const statuses: PaymentStatus[] = ["SUCCESS", "REFUNDED", "REQUIRES_ACTION", "PENDING", "FAILED"];
    const due: number | null = s.nextDueAt;
    const awaiting: string[] = s.challenges().map((c) => c.nextAction.url);
    const answered: Payment = s.completeChallenge("PAY-1", "abandon" satisfies ChallengeOutcome);
    // @ts-expect-error: not an outcome of a challenge
    s.completeChallenge("PAY-1", "maybe");
    const rules: ScenarioRule[] = [
      { then: { kind: "challenge" } },
      { then: { kind: "challenge", outcome: "fail", afterMs: 5000, code: "insufficient_funds" } },
      { then: { kind: "pending", forMs: 30000, outcome: "fail", code: "insufficient_funds" } },
      { then: { kind: "reversal", afterMs: 60000, code: "fraudulent" } },
      { when: { event: "payment.*", userId: "u", nth: 2 }, then: { kind: "reorder", hold: 3, order: "shuffle" } },
      { then: { kind: "drop", attempts: 2 } },
    ];
    // A when held in a variable, which no check of excess keys reaches.
    const routedWhen = { route: "order", nth: 1 } as const;
    // @ts-expect-error: a delivery rule matches events, not routes
    const routed: ScenarioRule = { when: routedWhen, then: { kind: "duplicate" } };
    const eventWhen = { event: "order.paid", nth: 1 } as const;
    // @ts-expect-error: a request's rule takes no event
    const evented: ScenarioRule = { when: eventWhen, then: { kind: "delay" } };
    // @ts-expect-error: a pending payment cannot be abandoned
    const notPending: ScenarioRule = { then: { kind: "pending", outcome: "abandon" } };
    for (const r of s.logs()) if (r.stage === "payment") { const change: [PaymentStatus, PaymentStatus] = [r.from, r.to]; void change; }
    void [statuses, due, awaiting, answered, rules, notPending, routed, evented];
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  execFileSync(
    "node",
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--lib", "es2022,dom", "--skipLibCheck", "false", "check.ts"],
    { cwd: app.dir, stdio: ["ignore", "pipe", "pipe"] },
  );
});

test("orderpay/webhooks by import and by require, and its types under strict TypeScript with no any", () => {
  const sign = `const { header, body } = await signWebhook({ id: "evt_1" }, { secret: "whsec_x", timestamp: 1 });
     const event = await verifyWebhook(body, header, "whsec_x", { now: 1 });
     console.log(header === "t=1,v1=" + createHmac("sha256", "whsec_x").update("1." + body).digest("hex"), event.id, WebhookSignatureError.name);`;
  const imported = app.run(
    "webhooks.mjs",
    `import { createHmac } from "node:crypto";
     import { signWebhook, verifyWebhook, WebhookSignatureError } from "orderpay/webhooks";
     ${sign}`,
  );
  assert.equal(imported.trim(), "true evt_1 WebhookSignatureError");
  const required = app.run(
    "webhooks.cjs",
    `const { createHmac } = require("node:crypto");
     const { signWebhook, verifyWebhook, WebhookSignatureError } = require("orderpay/webhooks");
     (async () => { ${sign} })();`,
  );
  assert.equal(required.trim(), "true evt_1 WebhookSignatureError");

  const types = readFileSync(join(app.dir, "node_modules/orderpay/webhooks.d.ts"), "utf8");
  assert.doesNotMatch(withoutComments(types), /\bany\b/);
  writeFileSync(
    join(app.dir, "webhooks-check.ts"),
    `
    import { signWebhook, verifyWebhook, WebhookSignatureError, SIGNATURE_HEADER, type SignedWebhook, type WebhookSignatureReason } from "orderpay/webhooks";
    const signed: SignedWebhook = await signWebhook({ id: "evt_1" }, { secrets: ["whsec_new", "whsec_old"], timestamp: 1, scheme: "stripe" });
    const name: "Orderpay-Signature" | "Stripe-Signature" = signed.headerName;
    const event = await verifyWebhook<{ id: string }>(new TextEncoder().encode(signed.body), signed.header, ["whsec_old"], { tolerance: 300, now: 1 });
    const id: string = event.id;
    const fromNode: string | string[] | undefined = undefined;
    await verifyWebhook(signed.body, fromNode, "whsec_x").catch((error: unknown) => {
      if (error instanceof WebhookSignatureError) { const reason: WebhookSignatureReason = error.reason; void reason; }
    });
    // @ts-expect-error: secret or secrets, not both
    await signWebhook("{}", { secret: "a", secrets: ["b"] });
    // @ts-expect-error: not a scheme
    await signWebhook("{}", { secret: "a", scheme: "svix" });
    // @ts-expect-error: not a reason
    const wrong: WebhookSignatureReason = "tampered";
    void [name, id, wrong, SIGNATURE_HEADER];
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  execFileSync(
    "node",
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--lib", "es2022,dom", "--skipLibCheck", "false", "webhooks-check.ts"],
    { cwd: app.dir, stdio: ["ignore", "pipe", "pipe"] },
  );
});
