// `orderpay serve --webhook` as a user's app receives it: real HTTP
// receivers on 127.0.0.1, one a plain node:http server that checks every
// delivery's signature with node:crypto's HMAC (Stripe's scheme written
// out by hand), the other an Express app with express.raw() that checks
// every one with stripe-node's own webhooks.constructEvent under
// Stripe-Signature. Then the admin API's webhook routes, per session:
// refusals naming the field, a resend, and three days of retries on a
// virtual clock that POST /advance runs and answers once settled. And
// docs/webhook-testing.md's Express and plain Node recipes, run as written
// in an app with the package installed (Express linked from tests/server).
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";

import express from "express";
import Stripe from "stripe";

import { examples } from "../docs.mjs";
import { call, consumer, root, serve, stop } from "./serve.mjs";

const STRIPE_SECRET = "whsec_express_receiver_0123456789";

/** Stripe's scheme by hand: the v1 values of the header, and the HMAC of "t.body" with the secret. */
function checkByHand(rawBody, header, secret) {
  const items = header.split(",").map((item) => item.split("="));
  const t = items.find(([key]) => key === "t")[1];
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  return items.some(([key, value]) => key === "v1" && timingSafeEqual(Buffer.from(value, "hex"), expected));
}

/** Every receiver started, closed at the end whatever the tests did. */
const receivers = [];

/** A node:http receiver: every delivery kept with its raw body and headers; `answer(n)` gives the status of the nth. */
async function plainReceiver(answer = () => 200) {
  const got = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    got.push({ headers: req.headers, raw: Buffer.concat(chunks), path: req.url });
    res.writeHead(answer(got.length)).end();
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  receivers.push(server);
  return { got, server, url: `http://127.0.0.1:${server.address().port}/hooks/plain` };
}

/** An Express receiver: express.raw() on the route, stripe-node's constructEvent on every delivery. */
async function expressReceiver() {
  const stripe = new Stripe("sk_test_unused");
  const verified = [];
  const refused = [];
  const app = express();
  app.post("/hooks/stripe", express.raw({ type: "application/json" }), (req, res) => {
    try {
      verified.push(stripe.webhooks.constructEvent(req.body, req.get("Stripe-Signature"), STRIPE_SECRET, Infinity));
      res.sendStatus(200);
    } catch (error) {
      refused.push(error.message);
      res.status(400).send(error.message);
    }
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  receivers.push(server);
  return { verified, refused, server, url: `http://127.0.0.1:${server.address().port}/hooks/stripe` };
}

let plain;
let stripeSide;
let server;
let madeSecret;

before(async () => {
  plain = await plainReceiver();
  stripeSide = await expressReceiver();
  server = await serve([
    "--port", "0", "--seed", "11", "--failure-rate", "0",
    "--webhook", plain.url,
    "--webhook", stripeSide.url, "--webhook-secret", STRIPE_SECRET, "--webhook-header", "Stripe-Signature",
  ]);
  madeSecret = /webhook we_\d+: \S+, signed under Orderpay-Signature with (whsec_\S+) \(made from the seed\)/.exec(server.output())?.[1];
});
after(async () => {
  await stop(server);
  for (const receiver of receivers) {
    receiver.closeAllConnections();
    receiver.close();
  }
});

const api = (path, body, headers) => call(`${server.url}/api${path}`, body === undefined ? "GET" : "POST", body, headers);
const admin = (path, method = "GET", body, headers) => call(`${server.origin}/__orderpay${path}`, method, body, headers);
/** Waits for the deliveries in flight: POST /advance answers once they are settled. */
const settled = (headers) => admin("/advance", "POST", { ms: 0 }, headers);

/** An order paid, marked paid and refunded; a second declined, then deleted: seven events of six types. */
async function flow(headers = {}) {
  const order = (await api("/order/create", { userId: "u-hooks", price: 12.5 }, headers)).body.data;
  const paid = (await api("/payment/pay", { orderId: order.orderId, amount: 12.5, paymentMethod: "CARD" }, headers)).body.data;
  await api(`/order/${order.orderId}/pay`, {}, headers);
  await api(`/payment/refund/${paid.paymentId}`, {}, headers);
  const second = (await api("/order/create", { userId: "u-hooks", price: 3 }, headers)).body.data;
  await call(`${server.url}/api/payment/pay`, "POST", { orderId: second.orderId, amount: 3, paymentMethod: "CARD" }, { ...headers, "x-sim-outcome": "failure" });
  await api(`/order/delete/${second.orderId}`, {}, headers);
  await settled(headers);
}

test("every delivery of orderpay serve --webhook verifies: node:crypto's HMAC with the secret printed at start, and stripe-node's constructEvent under Stripe-Signature", { timeout: 60_000 }, async () => {
  assert.match(madeSecret ?? "", /^whsec_\w{20,}$/, server.output());
  await flow();
  const events = (await admin("/webhooks/events")).body.data.events;
  assert.deepEqual(events.map((e) => e.type), [
    "order.created", "payment.succeeded", "order.paid", "payment.refunded", "order.created", "payment.failed", "order.deleted",
  ]);
  // The plain receiver: each event once, its raw body exactly the event's JSON, signed with the secret made from the seed.
  assert.equal(plain.got.length, events.length);
  for (const delivery of plain.got) {
    assert.ok(checkByHand(delivery.raw, delivery.headers["orderpay-signature"], madeSecret), delivery.raw.toString());
    assert.equal(delivery.path, "/hooks/plain");
    assert.equal(delivery.headers["content-type"], "application/json; charset=utf-8");
    const event = JSON.parse(delivery.raw.toString("utf8"));
    // The event as listed (the raw text may differ from a JSON.stringify of it: "price":3.0).
    assert.deepEqual(event, events.find((e) => e.id === event.id));
    // The trace context is the event's trace.
    assert.equal(delivery.headers.traceparent.split("-")[1], event.traceId);
    assert.equal(delivery.headers["x-b3-traceid"], event.traceId);
  }
  assert.deepEqual(plain.got.map((d) => JSON.parse(d.raw.toString()).id).sort(), events.map((e) => e.id).sort());
  // The Express receiver: stripe-node accepted every one, as the same events.
  assert.deepEqual(stripeSide.refused, []);
  assert.deepEqual(stripeSide.verified.map((e) => e.id).sort(), events.map((e) => e.id).sort());
  // A wrong secret is refused by the same check: the verification is not vacuous.
  assert.equal(checkByHand(plain.got[0].raw, plain.got[0].headers["orderpay-signature"], "whsec_wrong"), false);
  // Every delivery is recorded as delivered, with one 200 attempt.
  const endpoints = (await admin("/webhooks")).body.data.webhooks;
  assert.equal(endpoints.length, 2);
  for (const endpoint of endpoints) {
    assert.equal(endpoint.deliveries.length, events.length);
    for (const d of endpoint.deliveries) assert.deepEqual([d.state, d.attempts.map((a) => a.status)], ["delivered", [200]]);
  }
});

test("a named session delivers to the same endpoints, signed with the same secret as printed", { timeout: 60_000 }, async () => {
  const before = plain.got.length;
  const headers = { "x-orderpay-session": "hooks-worker-2" };
  await flow(headers);
  const events = (await admin("/sessions/hooks-worker-2/webhooks/events")).body.data.events;
  const fresh = plain.got.slice(before);
  assert.equal(fresh.length, events.length);
  for (const delivery of fresh) assert.ok(checkByHand(delivery.raw, delivery.headers["orderpay-signature"], madeSecret));
});

test("the admin API's webhook routes: refusals name the field and change nothing, a resend is delivered again, an endpoint removed gets nothing more", { timeout: 60_000 }, async () => {
  const headers = { "x-orderpay-session": "hooks-admin" };
  const s = (path) => `/sessions/hooks-admin${path}`;
  const count = async () => (await admin(s("/webhooks"))).body.data.webhooks.length;
  const start = await count();
  const refusals = [
    [{ url: "ftp://127.0.0.1/x" }, /url/],
    [{ url: "/relative" }, /url/],
    [{ url: plain.url, events: ["payment.teleported"] }, /events\[0\]/],
    [{ url: plain.url, header: "X-Signature" }, /header/],
    [{ url: plain.url, secret: 42 }, /secret/],
    [{ handler: true }, /^handler: /],
    [{ url: plain.url, extra: 1 }, /extra/],
  ];
  for (const [body, field] of refusals) {
    const reply = await admin(s("/webhooks"), "POST", body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.match(reply.body.msg, field, JSON.stringify(body));
  }
  assert.equal((await admin(s("/webhooks"), "POST", "[1]")).status, 400);
  assert.equal(await count(), start, "nothing was added");
  const removed = await admin(s("/webhooks/we_999"), "DELETE");
  assert.equal(removed.status, 404);
  assert.match(removed.body.msg, /^id: no endpoint "we_999"/);
  assert.equal((await admin(s("/webhooks/deliveries/wd_999/resend"), "POST")).status, 404);
  assert.equal((await admin(s("/webhooks/events?after=nope"), "GET")).status, 400);

  // A third endpoint, only for orders; one order created, its delivery resent.
  const only = await plainReceiver();
  const added = await admin(s("/webhooks"), "POST", { url: only.url, events: ["order.created"], secret: "whsec_only" });
  assert.equal(added.status, 200);
  const id = added.body.data.webhook.id;
  await api("/order/create", { userId: "u-resend", price: 1 }, headers);
  await settled(headers);
  assert.equal(only.got.length, 1);
  const delivery = (await admin(s("/webhooks"))).body.data.webhooks.find((e) => e.id === id).deliveries[0];
  const resent = await admin(s(`/webhooks/deliveries/${delivery.id}/resend`), "POST");
  assert.equal(resent.status, 200);
  assert.equal(only.got.length, 2, "the resend answers once delivered");
  assert.equal(only.got[1].raw.toString(), only.got[0].raw.toString());
  assert.deepEqual(resent.body.data.delivery.attempts.map((a) => a.status), [200, 200]);
  assert.equal((await admin(s(`/webhooks/${id}`), "DELETE")).status, 200);
  await api("/order/create", { userId: "u-resend", price: 1 }, headers);
  await settled(headers);
  assert.equal(only.got.length, 2, "nothing more after DELETE");
});

test("three days of retries on a virtual clock: POST /advance runs every attempt that came due, each signed at its own time, and answers once they are settled", { timeout: 60_000 }, async () => {
  const headers = { "x-orderpay-session": "hooks-retry" };
  const s = (path) => `/sessions/hooks-retry${path}`;
  // A receiver that fails the first 4 attempts, then answers 204.
  const flaky = await plainReceiver((n) => (n <= 4 ? 503 : 204));
  const start = Date.UTC(2026, 0, 1);
  assert.equal((await admin(s("/reset"), "POST", { virtualTime: start, failureRate: 0 })).status, 200);
  assert.equal((await admin(s("/webhooks"), "POST", { url: flaky.url, events: ["order.created"], secret: "whsec_flaky" })).status, 200);
  await api("/order/create", { userId: "u-retry", price: 2 }, headers);
  await settled(headers);
  assert.equal(flaky.got.length, 1);
  const moved = await admin(s("/advance"), "POST", { ms: 3 * 24 * 3600 * 1000 });
  assert.equal(moved.status, 200);
  assert.equal(flaky.got.length, 5, "the retries came due within the advance and were sent before it answered");
  const times = flaky.got.map((d) => Number(/t=(\d+)/.exec(d.headers["orderpay-signature"])[1]));
  assert.deepEqual(times.slice(1).map((t, i) => t - times[i]), [60, 300, 1800, 7200]);
  for (const d of flaky.got) assert.ok(checkByHand(d.raw, d.headers["orderpay-signature"], "whsec_flaky"));
  const [endpoint] = (await admin(s("/webhooks"))).body.data.webhooks.filter((e) => e.url === flaky.url);
  const [delivery] = endpoint.deliveries;
  assert.equal(delivery.state, "delivered");
  assert.deepEqual(delivery.attempts.map((a) => [a.n, a.status, a.at - start]), [
    [1, 503, delivery.attempts[0].at - start], [2, 503, delivery.attempts[0].at - start + 60_000],
    [3, 503, delivery.attempts[0].at - start + 360_000], [4, 503, delivery.attempts[0].at - start + 2_160_000],
    [5, 204, delivery.attempts[0].at - start + 9_360_000],
  ]);
});

test("docs/webhook-testing.md: the Express and plain Node recipes receive orderpay serve's deliveries, as written", () => {
  const app = consumer();
  const linked = join(app.dir, "node_modules", "express");
  if (!existsSync(linked)) symlinkSync(join(root, "tests", "server", "node_modules", "express"), linked, "dir");
  const run = (name, [example]) => {
    writeFileSync(join(app.dir, `${name}.mjs`), example);
    return execFileSync("node", [`${name}.mjs`], { cwd: app.dir, encoding: "utf8", timeout: 60_000 }).trim();
  };
  assert.equal(run("express", examples("webhook-testing-express")), "order.created payment.succeeded");
  assert.equal(run("node-http", examples("webhook-testing-node")), "order.created");
});
